#ifndef FLOW_CCURL_SHIM_PUBLIC_H
#define FLOW_CCURL_SHIM_PUBLIC_H

// libcurl's option and info setters are C variadic functions, which Swift cannot call.
// Each wrapper below fixes the type of the third argument so Swift sees an ordinary function.

#include <curl/curl.h>

#pragma clang assume_nonnull begin

CURLcode flow_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode flow_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode flow_easy_setopt_pointer(CURL *handle, CURLoption option, void *_Nullable value);
CURLcode flow_easy_setopt_string(CURL *handle, CURLoption option, const char *_Nullable value);
CURLcode flow_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *_Nullable value);
CURLcode flow_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback _Nullable callback);
CURLcode flow_easy_setopt_read_function(CURL *handle, CURLoption option, curl_read_callback _Nullable callback);
CURLcode flow_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback _Nullable callback);
CURLcode flow_easy_setopt_seek_function(CURL *handle, curl_seek_callback _Nullable callback);
CURLcode flow_easy_setopt_opensocket_function(CURL *handle, curl_opensocket_callback _Nullable callback);
CURLcode flow_easy_setopt_sockopt_function(CURL *handle, curl_sockopt_callback _Nullable callback);

CURLcode flow_easy_getinfo_long(CURL *handle, CURLINFO info, long *_Nonnull value);
CURLcode flow_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *_Nonnull value);
CURLcode flow_easy_getinfo_double(CURL *handle, CURLINFO info, double *_Nonnull value);
CURLcode flow_easy_getinfo_string(CURL *handle, CURLINFO info, const char *_Nullable *_Nonnull value);
CURLcode flow_easy_getinfo_pointer(CURL *handle, CURLINFO info, void *_Nullable *_Nonnull value);

CURLSHcode flow_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

CURLMcode flow_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode flow_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *_Nullable value);
CURLMcode flow_multi_setopt_socket_function(CURLM *multi, curl_socket_callback _Nullable callback);
CURLMcode flow_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback _Nullable callback);

/// The result code of a finished transfer's message (a union member Swift reaches awkwardly).
CURLcode flow_multi_message_result(const CURLMsg *message);

/// The longest response header line libcurl accepts (CURL_MAX_HTTP_HEADER, a macro Swift cannot see).
long flow_max_http_header(void);

/// The running libcurl's version data (CURLVERSION_NOW is a macro Swift cannot see).
const curl_version_info_data *flow_curl_version_info(void);

#pragma clang assume_nonnull end

#endif
