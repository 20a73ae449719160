#ifndef FLOW_CCURL_SHIM_H
#define FLOW_CCURL_SHIM_H
#include <curl/curl.h>
#endif
