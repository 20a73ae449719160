/// The HTTP methods a request or an upload may use.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// GET (the default).
    case get = "GET"
    /// HEAD.
    case head = "HEAD"
    /// POST.
    case post = "POST"
    /// PUT.
    case put = "PUT"
    /// PATCH.
    case patch = "PATCH"
    /// DELETE.
    case delete = "DELETE"
    /// OPTIONS.
    case options = "OPTIONS"

    /// Whether repeating the request is safe, so failures are retried by default.
    public var isIdempotent: Bool { self != .post && self != .patch }
}
