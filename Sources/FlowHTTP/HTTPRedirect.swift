import FlowTasks

/// How flow follows a redirect, one hop at a time (libcurl's own following is off): which
/// method and body the next request has, which headers it keeps, and which redirects are refused.
///
/// - 301 and 302 turn a POST into a GET without its body; 303 turns every method but GET and
///   HEAD into a GET without its body; 307 and 308 resend the same method, body and headers.
/// - Leaving the first URL's origin (scheme, host and port) drops `Authorization`, `Cookie` and
///   every header of `HTTPRequest.originBoundHeaders` for the rest of the exchange, unless
///   `HTTPRequest.keepsCredentialsOnRedirect`.
/// - A redirect from `https` to `http` is refused unless `HTTPRequest.allowsInsecureRedirect`.
/// - At most `HTTPRequest.maxRedirects` hops; the time limit covers them all.
struct HTTPRedirect {
    /// What the hops so far leave for the next: where the exchange began and what it cost.
    struct Trail: Sendable {
        /// The URL of the first request (its query included).
        var firstURL: String
        /// Redirects followed so far.
        var count = 0
        /// The time the earlier hops took.
        var elapsed: Duration = .zero
        /// The first request's time limit (the hops get what is left of it).
        var timeout: Duration?
        /// Headers dropped on leaving the first origin, as the request named them.
        var dropped: [String] = []
        /// Where they were dropped: the first URL of another origin.
        var droppedAt: String?
    }

    /// The statuses that redirect.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Headers that describe a body, dropped with it.
    private static let bodyHeaders = ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language"]

    /// The request for the hop to `target` after `request` was answered with `status` in `took`.
    static func next(
        after request: HTTPRequest, status: Int, to target: String, took: Duration
    ) throws(HTTPError) -> HTTPRequest {
        let from = request.fullURL
        var trail = request.redirectTrail ?? Trail(firstURL: from, timeout: request.timeout)
        guard trail.count < HTTPRequest.maxRedirects else {
            throw HTTPError(
                kind: .other,
                message: "more than \(HTTPRequest.maxRedirects) redirects, starting at \(trail.firstURL); "
                    + "the last went from \(from) to \(target)",
                url: target)
        }
        if Self.scheme(of: from) == "https", Self.scheme(of: target) == "http", !request.allowsInsecureRedirect {
            throw HTTPError(
                kind: .other,
                message: "refused the redirect (\(status)) from \(from) to \(target): it leaves https for plain "
                    + "http, where the request and its answer can be read and changed on the way; set "
                    + "'allow-insecure-redirect: true' on the step to follow it",
                url: target)
        }
        var next = request
        next.url = target
        next.query = []
        trail.count += 1
        trail.elapsed += took
        if let timeout = trail.timeout {
            guard trail.elapsed < timeout else {
                throw HTTPError(
                    kind: .timeout,
                    message: "timed out waiting for \(trail.firstURL) (limit \(DurationFormat.text(timeout))) "
                        + "before the redirect to \(target)",
                    url: target, timeLimit: .request(timeout))
            }
            next.timeout = timeout - trail.elapsed
        }
        let method = request.method.uppercased()
        let becomesGet =
            (status == 303 && method != "GET" && method != "HEAD")
            || ((status == 301 || status == 302) && method == "POST")
        if becomesGet {
            next.method = "GET"
            next.body = .empty
            for name in bodyHeaders { next.headers.remove(name) }
        } else if request.body != .empty, !request.mayResendBody {
            throw HTTPError(
                kind: .other,
                message: "the server answered \(status) to \(from), asking for the same request and body at "
                    + "\(target); this body is not sent twice",
                url: target)
        }
        if trail.droppedAt == nil, !request.keepsCredentialsOnRedirect,
            Self.origin(of: target) != Self.origin(of: trail.firstURL)
        {
            let bound = Set(request.originBoundHeaders.map { $0.lowercased() })
            for (name, _) in request.headers where bound.contains(name.lowercased()) {
                let seen = trail.dropped.contains { $0.lowercased() == name.lowercased() }
                if !seen { trail.dropped.append(name) }
            }
            for name in ["Authorization", "Cookie"] + trail.dropped { next.headers.remove(name) }
            trail.droppedAt = target
        }
        next.redirectTrail = trail
        return next
    }

    /// The lower-cased scheme of `url` (`https`), empty when it has none.
    static func scheme(of url: String) -> String {
        guard let end = url.range(of: "://") else { return "" }
        return url[..<end.lowerBound].lowercased()
    }

    /// `scheme://host:port` of `url`, lower-cased, with the scheme's default port written out.
    static func origin(of url: String) -> String {
        let scheme = Self.scheme(of: url)
        var host = HTTPError.host(of: url).lowercased()
        let name = HTTPError.hostName(of: host)
        if host.count == name.count { host += scheme == "https" ? ":443" : ":80" }
        return scheme + "://" + host
    }
}
