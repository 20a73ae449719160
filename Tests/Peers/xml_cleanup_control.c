// LibXMLExitTests' control: a program that parses a document with libxml2 and exits as most
// programs do, so its exit runs libxml2's cleanup; xml_cleanup_spy.c must see it.
#include <libxml/parser.h>

int main(void) {
    xmlDocPtr document = xmlReadMemory("<a>1</a>", 8, NULL, NULL, XML_PARSE_NONET);
    if (document == NULL) return 1;
    xmlFreeDoc(document);
    return 0;
}
