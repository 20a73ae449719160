/// The `defaults:` section: settings every step inherits unless it sets its own.
public struct Defaults: Sendable, Hashable {
    /// HTTP settings shared by `http` and `upload` steps.
    public let http: HTTPDefaults
    /// The retry policy of steps without `retry`.
    public let retry: Retry?
    /// The timeout of steps without `timeout`.
    public let timeout: Duration?

    /// Creates defaults.
    public init(http: HTTPDefaults = HTTPDefaults(), retry: Retry? = nil, timeout: Duration? = nil) {
        self.http = http
        self.retry = retry
        self.timeout = timeout
    }
}

/// `defaults.http`: the base URL relative URLs resolve against, shared headers and timeouts.
public struct HTTPDefaults: Sendable, Hashable {
    /// `base-url`; relative step URLs resolve against it.
    public let baseURL: ScalarText?
    /// Headers sent with every request (a step's own headers win).
    public let headers: [NamedValue]
    /// The per-request timeout.
    public let timeout: Duration?
    /// Whether redirects are followed (default true).
    public let followRedirects: Bool?
    /// `tls`, `auth`, `proxy` and `cookies` of every request (a step's own win).
    public var transport = HTTPTransportSettings()
    /// `no-proxy`: hosts reached without the proxy (`NO_PROXY`'s syntax).
    public var noProxy: ScalarText?
    /// `max-body`: the largest response body kept in memory (default 64 MiB).
    public var maxBody: Int?
    /// `cookies: { load, save }`: the files the run's cookie jar is read from and written to.
    public var cookieFiles: CookieFiles?
    /// `compressed`: whether requests offer `Accept-Encoding` and decode the body (default true).
    public var compressed: Bool?

    /// Creates HTTP defaults.
    public init(
        baseURL: ScalarText? = nil,
        headers: [NamedValue] = [],
        timeout: Duration? = nil,
        followRedirects: Bool? = nil
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.followRedirects = followRedirects
    }
}
