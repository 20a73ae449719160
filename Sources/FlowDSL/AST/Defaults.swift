/// The `defaults:` section: settings every step inherits unless it sets its own.
package struct Defaults: Sendable, Hashable {
    /// HTTP settings shared by `http` and `upload` steps.
    package let http: HTTPDefaults
    /// The retry policy of steps without `retry`.
    package let retry: Retry?
    /// The timeout of steps without `timeout`.
    package let timeout: Duration?

    /// Creates defaults.
    package init(http: HTTPDefaults = HTTPDefaults(), retry: Retry? = nil, timeout: Duration? = nil) {
        self.http = http
        self.retry = retry
        self.timeout = timeout
    }
}

/// `defaults.http`: the base URL relative URLs resolve against, shared headers and timeouts.
package struct HTTPDefaults: Sendable, Hashable {
    /// `base-url`; relative step URLs resolve against it.
    package let baseURL: ScalarText?
    /// Headers sent with every request (a step's own headers win).
    package let headers: [NamedValue]
    /// The per-request timeout.
    package let timeout: Duration?
    /// Whether redirects are followed (default true).
    package let followRedirects: Bool?
    /// `tls`, `auth`, `proxy` and `cookies` of every request (a step's own win).
    package var transport = HTTPTransportSettings()
    /// `no-proxy`: hosts reached without the proxy (`NO_PROXY`'s syntax).
    package var noProxy: ScalarText?
    /// `max-body`: the largest response body kept in memory (default 64 MiB).
    package var maxBody: Int?
    /// `cookies: { load, save }`: the files the run's cookie jar is read from and written to.
    package var cookieFiles: CookieFiles?
    /// `compressed`: whether requests offer `Accept-Encoding` and decode the body (default true).
    package var compressed: Bool?

    /// Creates HTTP defaults.
    package init(
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
