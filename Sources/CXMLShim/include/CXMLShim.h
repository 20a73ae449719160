#ifndef FLOW_CXML_SHIM_PUBLIC_H
#define FLOW_CXML_SHIM_PUBLIC_H

// XPath 1.0 over libxml2, behind three calls with plain C types: Swift sees no libxml2 type, no
// global error handler and no `xmlFree` (a global variable Swift 6 cannot read safely). libxml2's
// own messages are captured into `message` instead of going to stderr.

#include <stddef.h>

#pragma clang assume_nonnull begin

/// What an XPath expression evaluated to (`kind`); 0 when it failed (see `message`).
enum {
    FLOW_XPATH_FAILED = 0,
    FLOW_XPATH_NODES = 1,
    FLOW_XPATH_BOOLEAN = 2,
    FLOW_XPATH_NUMBER = 3,
    FLOW_XPATH_STRING = 4,
};

typedef struct flow_xpath_result {
    int kind;
    int boolean;
    double number;
    /// FLOW_XPATH_STRING: the string (UTF-8, NUL-terminated).
    char *_Nullable string;
    /// FLOW_XPATH_NODES: the string value of each of `count` nodes, in document order.
    char *_Nullable *_Nullable nodes;
    size_t count;
    /// FLOW_XPATH_FAILED: 1 when the document did not parse, 2 when the expression failed.
    int stage;
    /// FLOW_XPATH_FAILED: what went wrong, as one line.
    char message[512];
} flow_xpath_result;

/// Parses `length` bytes of UTF-8 `document` as XML (`html` 0) or with the HTML parser (`html` 1),
/// and evaluates `expression` on it. In an XML document every namespace prefix declared in it can
/// be used (the first declaration of a prefix in document order wins), the first default
/// namespace as `_`; then the `namespaces` pairs given (`prefixes[i]` for `uris[i]`) are added or
/// replace them. Free the result with `flow_xpath_result_free`, whatever its kind.
void flow_xpath_evaluate(const char *document, size_t length, int html, const char *expression,
                         const char *_Nonnull const *_Nullable prefixes, const char *_Nonnull const *_Nullable uris,
                         size_t namespaces, flow_xpath_result *result);

/// Frees what `flow_xpath_evaluate` allocated in `result`.
void flow_xpath_result_free(flow_xpath_result *result);

/// Compiles `expression` only: 1 when it is valid XPath 1.0; 0 with the reason in `message`.
int flow_xpath_check(const char *expression, char *message, size_t size);

#pragma clang assume_nonnull end

#endif
