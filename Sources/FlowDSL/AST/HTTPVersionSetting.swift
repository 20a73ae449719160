/// `http-version:` of an `http` step: the HTTP version to use for the request.
package enum HTTPVersionSetting: String, Sendable, Hashable, CaseIterable {
    /// `"1.0"`.
    case http1_0 = "1.0"
    /// `"1.1"`: never HTTP/2, even where TLS offers it.
    case http1_1 = "1.1"
    /// `"2"`: ALPN over `https`, prior knowledge (h2c) over plain `http`.
    case http2 = "2"
}
