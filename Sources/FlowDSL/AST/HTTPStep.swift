/// An `http:` step: one request and what its response must look like.
package struct HTTPStep: Sendable, Hashable {
    /// At most one body.
    package enum Body: Sendable, Hashable {
        /// `json:` — any YAML value sent as JSON.
        case json(ValueTemplate)
        /// `form:` — fields sent URL-encoded.
        case form([NamedValue])
        /// `body:` — text sent as is.
        case text(ScalarText)
        /// `body: { base64: TEXT }` or `body: { hex: TEXT }` — bytes sent exactly as decoded.
        case binary(ScalarText, BinaryEncoding)
        /// `body-file:` — a file streamed as the body.
        case file(ScalarText)
        /// `multipart:` — `multipart/form-data` parts, files streamed from disk.
        case multipart([MultipartPart])
    }

    /// The method (default GET).
    package let method: HTTPMethod
    /// The URL; a relative one resolves against `defaults.http.base-url`.
    package let url: ScalarText
    /// Query parameters appended to the URL.
    package let query: [NamedValue]
    /// Request headers.
    package let headers: [NamedValue]
    /// The body, if any.
    package let body: Body?
    /// The per-request timeout (default `defaults.http.timeout`).
    package var timeout: Duration?
    /// Whether redirects are followed (default `defaults.http.follow-redirects`, else true).
    package let followRedirects: Bool?
    /// Whether a redirect from `https` to plain `http` is followed (`allow-insecure-redirect`).
    package var allowInsecureRedirect = false
    /// Whether `Authorization`, `Cookie` and secret-holding headers are sent on after a redirect
    /// to another origin (`keep-credentials-on-redirect`, curl's `--location-trusted`).
    package var keepCredentialsOnRedirect = false
    /// `compressed`: whether `Accept-Encoding` is offered and the body decoded (default
    /// `defaults.http.compressed`, else true).
    package var compressed: Bool?
    /// `delay`: how long to wait before the request is first sent (not before a retry, which
    /// waits `retry.delay`).
    package var delay: Duration?
    /// `http-version`: the HTTP version asked for; `nil` for HTTP/2 where TLS offers it.
    package var version: HTTPVersionSetting?
    /// `tls`, `auth`, `proxy` and `cookies` of this request (see `HTTPTransportSettings`).
    package var transport = HTTPTransportSettings()
    /// What the response must look like.
    package let expect: Expectation
    /// Where `http:` is written.
    package let location: SourceLocation
    /// `save-to`, `resume` and `max-body`.
    package var responseBody = ResponseBodyOptions()

    /// Creates an HTTP step.
    package init(
        method: HTTPMethod,
        url: ScalarText,
        query: [NamedValue],
        headers: [NamedValue],
        body: Body?,
        timeout: Duration?,
        followRedirects: Bool?,
        expect: Expectation,
        location: SourceLocation
    ) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.followRedirects = followRedirects
        self.expect = expect
        self.location = location
    }
}
