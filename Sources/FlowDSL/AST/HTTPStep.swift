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

    /// The fields, in one box shared by copies (see `Box`).
    private struct Fields: Sendable, Hashable {
        let method: HTTPMethod
        let url: ScalarText
        let query: [NamedValue]
        let headers: [NamedValue]
        let body: Body?
        var timeout: Duration?
        let followRedirects: Bool?
        var allowInsecureRedirect = false
        var keepCredentialsOnRedirect = false
        var compressed: Bool?
        var delay: Duration?
        var version: HTTPVersionSetting?
        var transport = HTTPTransportSettings()
        let expect: Expectation
        let location: SourceLocation
        var responseBody = ResponseBodyOptions()
        var bodyRange: FileRange?
    }

    /// An HTTP step is copied whole wherever a step's kind is matched (the parser, the checks, the
    /// plans): with its fields in a box, a copy is one reference count, not a copy of some hundred
    /// bytes and a count for each of its texts (issue 32). The box is written only through
    /// `fields`, which first copies a box that another value shares.
    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    private var fields: Fields {
        get { box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// The method (default GET).
    package var method: HTTPMethod { box.fields.method }
    /// The URL; a relative one resolves against `defaults.http.base-url`.
    package var url: ScalarText { box.fields.url }
    /// Query parameters appended to the URL.
    package var query: [NamedValue] { box.fields.query }
    /// Request headers.
    package var headers: [NamedValue] { box.fields.headers }
    /// The body, if any.
    package var body: Body? { box.fields.body }
    /// The per-request timeout (default `defaults.http.timeout`).
    package var timeout: Duration? {
        get { box.fields.timeout }
        set { fields.timeout = newValue }
    }
    /// Whether redirects are followed (default `defaults.http.follow-redirects`, else true).
    package var followRedirects: Bool? { box.fields.followRedirects }
    /// Whether a redirect from `https` to plain `http` is followed (`allow-insecure-redirect`).
    package var allowInsecureRedirect: Bool {
        get { box.fields.allowInsecureRedirect }
        set { fields.allowInsecureRedirect = newValue }
    }
    /// Whether `Authorization`, `Cookie` and secret-holding headers are sent on after a redirect
    /// to another origin (`keep-credentials-on-redirect`, curl's `--location-trusted`).
    package var keepCredentialsOnRedirect: Bool {
        get { box.fields.keepCredentialsOnRedirect }
        set { fields.keepCredentialsOnRedirect = newValue }
    }
    /// `compressed`: whether `Accept-Encoding` is offered and the body decoded (default
    /// `defaults.http.compressed`, else true).
    package var compressed: Bool? {
        get { box.fields.compressed }
        set { fields.compressed = newValue }
    }
    /// `delay`: how long to wait before the request is first sent (not before a retry, which
    /// waits `retry.delay`).
    package var delay: Duration? {
        get { box.fields.delay }
        set { fields.delay = newValue }
    }
    /// `http-version`: the HTTP version asked for; `nil` for HTTP/2 where TLS offers it.
    package var version: HTTPVersionSetting? {
        get { box.fields.version }
        set { fields.version = newValue }
    }
    /// `tls`, `auth`, `proxy` and `cookies` of this request (see `HTTPTransportSettings`).
    package var transport: HTTPTransportSettings {
        get { box.fields.transport }
        set { fields.transport = newValue }
    }
    /// What the response must look like.
    package var expect: Expectation { box.fields.expect }
    /// Where `http:` is written.
    package var location: SourceLocation { box.fields.location }
    /// `save-to`, `resume` and `max-body`.
    package var responseBody: ResponseBodyOptions {
        get { box.fields.responseBody }
        set { fields.responseBody = newValue }
    }
    /// `body-file: { path, offset, length }`: the bytes of the file sent; nil for all of it.
    package var bodyRange: FileRange? {
        get { box.fields.bodyRange }
        set { fields.bodyRange = newValue }
    }

    /// A byte range of a `body-file` (an S3 part from a presigned URL, a chunk of a bigger file).
    package struct FileRange: Sendable, Hashable {
        /// `offset`: the first byte sent (0 when not given).
        package let offset: ScalarText?
        /// `length`: how many bytes; to the file's end when not given.
        package let length: ScalarText?
        /// Where `body-file:` is written.
        package let location: SourceLocation

        /// Creates a range.
        package init(offset: ScalarText?, length: ScalarText?, location: SourceLocation) {
            self.offset = offset
            self.length = length
            self.location = location
        }

        /// The texts that may hold `${{ }}`.
        package var texts: [ScalarText] { [offset, length].compactMap { $0 } }
    }

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
        box = Box(
            Fields(
                method: method, url: url, query: query, headers: headers, body: body, timeout: timeout,
                followRedirects: followRedirects, expect: expect, location: location))
    }

    /// Steps are equal when every field is.
    package static func == (lhs: HTTPStep, rhs: HTTPStep) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Hashes every field (consistent with `==`).
    package func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }
}
