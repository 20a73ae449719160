#include "CXMLShim.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlmemory.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

static pthread_once_t initialized = PTHREAD_ONCE_INIT;

/// libxml2's `xmlFree`: libc's `free`, under another address. libxml2 (2.9.11 and later) runs
/// `xmlCleanupParser` from an ELF destructor at exit when `xmlFree` is `free` itself, freeing its
/// global state (dictionaries' locks, per-thread keys) while another thread may still be parsing a
/// response: a process exiting during an evaluation (a lost race's step, Ctrl-C, a FlowKit app
/// quitting) could crash in libxml2 (1 exit in 100 in a C stress program). With its own free
/// function the destructor leaves everything to the system, as OpenSSLExit.c does for libcrypto.
static void release(void *memory) { free(memory); }

static void initialize(void) {
    // Before anything libxml2 allocates: everything it frees must have come from `malloc`.
    (void)xmlMemSetup(release, malloc, realloc, strdup);
    xmlInitParser();
}

/// Where libxml2's structured errors go while a call runs: the first one is kept (later ones are
/// usually consequences). libxml2 keeps the handler per thread, so concurrent calls do not mix.
typedef struct captured_error {
    char *message;
    size_t size;
    int seen;
} captured_error;

static void capture(void *context, xmlErrorPtr error) {
    captured_error *captured = context;
    if (captured == NULL || captured->seen || error == NULL) return;
    captured->seen = 1;
    const char *text = error->message != NULL ? error->message : "unknown error";
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == ' ')) length--;
    if (error->domain == XML_FROM_XPATH || error->line <= 0) {
        snprintf(captured->message, captured->size, "%.*s", (int)length, text);
    } else {
        snprintf(captured->message, captured->size, "line %d: %.*s", error->line, (int)length, text);
    }
}

static void silence(void *context, const char *format, ...) {
    (void)context;
    (void)format;
}

static void begin(captured_error *captured) {
    pthread_once(&initialized, initialize);
    xmlSetStructuredErrorFunc(captured, capture);
    xmlSetGenericErrorFunc(NULL, silence);
}

static void end(void) {
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
}

static void fail(flow_xpath_result *result, captured_error *captured, const char *fallback) {
    result->kind = FLOW_XPATH_FAILED;
    if (!captured->seen) snprintf(result->message, sizeof result->message, "%s", fallback);
}

/// Registers each prefix declared in the document, the first declaration of a prefix winning,
/// and the first default namespace as `_`: Hurl's convention for XPath over namespaced XML.
static void register_document_namespaces(xmlXPathContextPtr context, xmlDocPtr document) {
    xmlNodePtr node = xmlDocGetRootElement(document);
    int has_default = 0;
    while (node != NULL) {
        if (node->type == XML_ELEMENT_NODE) {
            for (xmlNsPtr ns = node->nsDef; ns != NULL; ns = ns->next) {
                if (ns->href == NULL) continue;
                const xmlChar *prefix = ns->prefix;
                if (prefix == NULL) {
                    if (has_default) continue;
                    has_default = 1;
                    prefix = BAD_CAST "_";
                }
                if (xmlXPathNsLookup(context, prefix) == NULL) xmlXPathRegisterNs(context, prefix, ns->href);
            }
            if (node->children != NULL) {
                node = node->children;
                continue;
            }
        }
        while (node != NULL && node->next == NULL) {
            node = node->parent;
            if (node != NULL && node->type == XML_DOCUMENT_NODE) node = NULL;
        }
        if (node != NULL) node = node->next;
    }
}

void flow_xpath_evaluate(const char *document, size_t length, int html, const char *expression,
                         const char *const *prefixes, const char *const *uris, size_t namespaces,
                         flow_xpath_result *result) {
    memset(result, 0, sizeof *result);
    captured_error captured = {result->message, sizeof result->message, 0};
    begin(&captured);
    if (length > (size_t)INT32_MAX) {
        fail(result, &captured, "the document is larger than 2 GiB");
        end();
        return;
    }
    xmlDocPtr parsed = NULL;
    if (html) {
        // The body is already UTF-8 text (a `<meta charset>` must not make libxml2 read it otherwise).
        int options =
            HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_COMPACT;
        parsed = htmlReadMemory(document, (int)length, NULL, "UTF-8", options);
    } else {
        // No network, no external DTD, no entity substitution: a response is untrusted data.
        // COMPACT keeps short text in its node (fewer allocations, as lxml does); BIG_LINES
        // counts lines past 65535 in messages. The bytes are the response's own, read in the
        // encoding the document declares (UTF-8 by default): naming UTF-8 here would make
        // libxml2 copy every byte through a converter, a third of the parse.
        int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_COMPACT |
                      XML_PARSE_BIG_LINES;
        parsed = xmlReadMemory(document, (int)length, NULL, NULL, options);
    }
    if (parsed == NULL) {
        result->stage = 1;
        fail(result, &captured, html ? "the document is not HTML" : "the document is not XML");
        end();
        return;
    }
    xmlXPathContextPtr context = xmlXPathNewContext(parsed);
    if (context == NULL) {
        fail(result, &captured, "out of memory");
        xmlFreeDoc(parsed);
        end();
        return;
    }
    if (!html) register_document_namespaces(context, parsed);
    for (size_t index = 0; index < namespaces; index++) {
        xmlXPathRegisterNs(context, BAD_CAST prefixes[index], NULL);
        xmlXPathRegisterNs(context, BAD_CAST prefixes[index], BAD_CAST uris[index]);
    }
    xmlXPathObjectPtr value = xmlXPathEvalExpression(BAD_CAST expression, context);
    if (value == NULL) {
        result->stage = 2;
        fail(result, &captured, "the expression is not valid XPath");
    } else {
        switch (value->type) {
        case XPATH_NODESET: {
            xmlNodeSetPtr set = value->nodesetval;
            size_t count = set != NULL ? (size_t)set->nodeNr : 0;
            result->kind = FLOW_XPATH_NODES;
            result->nodes = calloc(count > 0 ? count : 1, sizeof(char *));
            for (size_t index = 0; index < count && result->nodes != NULL; index++) {
                xmlChar *text = xmlXPathCastNodeToString(set->nodeTab[index]);
                result->nodes[index] = text != NULL ? strdup((const char *)text) : strdup("");
                if (text != NULL) xmlFree(text);
                result->count = index + 1;
            }
            break;
        }
        case XPATH_BOOLEAN:
            result->kind = FLOW_XPATH_BOOLEAN;
            result->boolean = value->boolval;
            break;
        case XPATH_NUMBER:
            result->kind = FLOW_XPATH_NUMBER;
            result->number = value->floatval;
            break;
        case XPATH_STRING:
            result->kind = FLOW_XPATH_STRING;
            result->string = strdup(value->stringval != NULL ? (const char *)value->stringval : "");
            break;
        default:
            result->stage = 2;
            fail(result, &captured, "the expression gives a value XPath 1.0 results do not have");
            break;
        }
        xmlXPathFreeObject(value);
    }
    xmlXPathFreeContext(context);
    xmlFreeDoc(parsed);
    end();
}

void flow_xpath_result_free(flow_xpath_result *result) {
    free(result->string);
    result->string = NULL;
    if (result->nodes != NULL) {
        for (size_t index = 0; index < result->count; index++) free(result->nodes[index]);
        free(result->nodes);
    }
    result->nodes = NULL;
    result->count = 0;
}

int flow_xpath_check(const char *expression, char *message, size_t size) {
    captured_error captured = {message, size, 0};
    begin(&captured);
    xmlXPathContextPtr context = xmlXPathNewContext(NULL);
    xmlXPathCompExprPtr compiled = context != NULL ? xmlXPathCtxtCompile(context, BAD_CAST expression) : NULL;
    int valid = compiled != NULL;
    if (!valid && !captured.seen && size > 0) snprintf(message, size, "the expression is not valid XPath");
    if (compiled != NULL) xmlXPathFreeCompExpr(compiled);
    if (context != NULL) xmlXPathFreeContext(context);
    end();
    return valid;
}
