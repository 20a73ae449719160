/// The HTTP version a request asks for (`HTTPRequest.version`); without one, HTTP/2 where TLS
/// offers it (ALPN) and HTTP/1.1 elsewhere.
package enum HTTPVersion: String, Sendable, CaseIterable {
    /// HTTP/1.0: no keep-alive unless the server offers it, no chunked request bodies.
    case http1_0 = "1.0"
    /// HTTP/1.1 only, even where TLS offers HTTP/2.
    case http1_1 = "1.1"
    /// HTTP/2: over `https` asked for with ALPN (a server without it answers in HTTP/1.1, as curl's
    /// `--http2` allows); over plain `http` with prior knowledge (h2c, no `Upgrade`), so a server
    /// that does not speak HTTP/2 fails the request.
    case http2 = "2"
}
