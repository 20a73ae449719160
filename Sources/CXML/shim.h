#ifndef FLOW_CXML_SHIM_H
#define FLOW_CXML_SHIM_H
// libxml2 (Debian's libxml2-dev): the XML and HTML parsers and XPath 1.0, used by CXMLShim only.
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#endif
