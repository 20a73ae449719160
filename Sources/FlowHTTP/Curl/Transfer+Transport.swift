internal import CCurlShim

extension Transfer {
    /// TLS files, proxy and cookie jar (`HTTPRequest.transport`), each one libcurl option.
    func configureTransport(_ check: (CURLcode) -> Void) {
        let transport = request.transport
        if let caFile = transport.caFile {
            check(flow_easy_setopt_string(easy, CURLOPT_CAINFO, caFile))
        }
        if let certFile = transport.certFile {
            check(flow_easy_setopt_string(easy, CURLOPT_SSLCERT, certFile))
        }
        if let keyFile = transport.keyFile {
            check(flow_easy_setopt_string(easy, CURLOPT_SSLKEY, keyFile))
        }
        if let proxy = transport.proxy {
            // "" is libcurl's way to say no proxy at all, the environment's included.
            check(flow_easy_setopt_string(easy, CURLOPT_PROXY, proxy))
        }
        if let noProxy = transport.noProxy {
            check(flow_easy_setopt_string(easy, CURLOPT_NOPROXY, noProxy))
        }
        if transport.cookies, let cookieShare {
            // The share holds the one jar; "" turns the cookie engine on without reading a file,
            // and COOKIEJAR is never set, so nothing is written to disk.
            check(flow_easy_setopt_pointer(easy, CURLOPT_SHARE, cookieShare))
            check(flow_easy_setopt_string(easy, CURLOPT_COOKIEFILE, ""))
        }
    }
}
