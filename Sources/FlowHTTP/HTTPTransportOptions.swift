/// How a request reaches its server: TLS certificates, the proxy and the run's cookie jar. Every
/// field maps to a libcurl option (see `Transfer.configureTransport`); none is reimplemented.
package struct HTTPTransportOptions: Sendable, Equatable {
    /// A PEM file of the certificate authorities to trust instead of the system's (`CURLOPT_CAINFO`).
    package var caFile: String?
    /// A PEM client certificate presented to servers that ask for one (`CURLOPT_SSLCERT`).
    package var certFile: String?
    /// The client certificate's private key, when not in `certFile` (`CURLOPT_SSLKEY`).
    package var keyFile: String?
    /// The proxy URL (`CURLOPT_PROXY`); `nil` leaves libcurl to read `http_proxy`, `HTTPS_PROXY`
    /// and the like, and `""` turns every proxy off, the variables' included.
    package var proxy: String?
    /// Hosts reached without the proxy, comma-separated (`CURLOPT_NOPROXY`); `nil` leaves libcurl
    /// to read `NO_PROXY` / `no_proxy`.
    package var noProxy: String?
    /// Whether the request takes part in the client's cookie jar: it sends the cookies earlier
    /// responses set and keeps those its response sets. The jar lives in memory for as long as the
    /// client and is never written anywhere.
    package var cookies: Bool

    /// Options; by default the system's CAs, no client certificate, the proxy variables and no cookies.
    package init(
        caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, proxy: String? = nil,
        noProxy: String? = nil, cookies: Bool = false
    ) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.proxy = proxy
        self.noProxy = noProxy
        self.cookies = cookies
    }
}
