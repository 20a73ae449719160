#include "CCurlShim.h"

CURLcode flow_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode flow_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode flow_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode flow_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode flow_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode flow_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode flow_easy_setopt_read_function(CURL *handle, CURLoption option, curl_read_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode flow_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode flow_easy_setopt_seek_function(CURL *handle, curl_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

CURLcode flow_easy_setopt_opensocket_function(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode flow_easy_setopt_sockopt_function(CURL *handle, curl_sockopt_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, callback);
}

long flow_max_http_header(void) {
    return CURL_MAX_HTTP_HEADER;
}

CURLcode flow_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode flow_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode flow_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode flow_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode flow_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLSHcode flow_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

CURLMcode flow_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode flow_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode flow_multi_setopt_socket_function(CURLM *multi, curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}

CURLMcode flow_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

CURLcode flow_multi_message_result(const CURLMsg *message) {
    return message->data.result;
}

const curl_version_info_data *flow_curl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}
