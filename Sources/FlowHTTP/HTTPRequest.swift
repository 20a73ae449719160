/// One HTTP request and how to carry it out.
package struct HTTPRequest: Sendable {
    /// The method, such as `GET` or `PUT`, sent as written.
    package var method: String
    /// An absolute `http` or `https` URL.
    package var url: String
    /// Query parameters, percent-encoded and appended to `url` in order.
    package var query: [(String, String)]
    /// Header fields to send; an empty `Expect:` is always added so uploads never wait for `100 Continue`.
    package var headers: HTTPHeaders
    /// What to send after the headers.
    package var body: HTTPBody
    /// The whole exchange's limit, redirects included; `nil` for none.
    package var timeout: Duration?
    /// The limit for opening the connection (TCP and TLS), `defaultConnectTimeout` unless set;
    /// `nil` for curl's own (300 s).
    package var connectTimeout: Duration?
    /// Whether to follow redirects (at most `maxRedirects`), one hop at a time as `HTTPRedirect` says.
    package var followRedirects: Bool
    /// Names of headers sent only to the origin (scheme, host and port) of `url`, such as those
    /// holding a secret: a redirect to another origin drops them, as it drops `Authorization`
    /// and `Cookie`, and the response names them (`HTTPResponse.droppedHeaders`).
    package var originBoundHeaders: [String] = []
    /// Whether a redirect from `https` to plain `http` is followed (it is refused by default).
    package var allowsInsecureRedirect = false
    /// Whether `Authorization`, `Cookie` and `originBoundHeaders` are sent on after a redirect to
    /// another origin, as curl's `--location-trusted` does (they are dropped by default).
    package var keepsCredentialsOnRedirect = false
    /// The redirects followed so far, on the requests `HTTPRedirect` makes for the later hops.
    var redirectTrail: HTTPRedirect.Trail?
    /// Whether to check the server's TLS certificate and host name.
    package var verifyTLS: Bool
    /// Certificates, proxy and cookie jar (see `HTTPTransportOptions`).
    package var transport = HTTPTransportOptions()
    /// The HTTP version to use; `nil` for HTTP/2 where TLS offers it, else HTTP/1.1.
    package var version: HTTPVersion?
    /// The largest response body accepted; a larger one fails with `HTTPError.Kind.bodyTooLarge`.
    package var maxResponseBodySize: Int
    /// Sees every piece of the body as it is read to be sent, with its offset in the body's file
    /// (or in the bytes); a piece curl must send again is seen again. Runs on the client's transfer
    /// thread, so it must be quick (hashing is; waiting is not). A `.reused` body's pieces are seen
    /// just after curl sent them, and all of them before the request's future completes.
    package var bodyObserver: BodyObserver?
    /// Whether libcurl may send the body again by itself: when a kept-alive connection dies
    /// before any answer, curl silently repeats the request on a fresh one (and a redirect that
    /// keeps the method repeats it too). Upload chunks turn this off: the server may have stored
    /// the first copy, so the request fails instead (a lost connection) and the upload asks the
    /// server what it holds before sending anything again.
    package var mayResendBody: Bool = true
    /// Writes a 2xx response's body to a file as it arrives instead of keeping it in memory
    /// (`maxResponseBodySize` then bounds only other statuses' bodies). Offers no
    /// `Accept-Encoding`: the file holds the bytes as served, so `Range` offsets are file offsets.
    package var saveTo: HTTPSaveTarget?
    /// Whether to offer every content encoding this libcurl decodes (`CURLOPT_ACCEPT_ENCODING ""`:
    /// gzip and deflate, br and zstd when built in) and decode the body. A request's own
    /// `Accept-Encoding` header replaces the offer (curl still decodes what it can). Not with `saveTo`.
    package var decodesContent: Bool = true

    /// What `bodyObserver` is: the offset of the piece and its bytes, valid only during the call.
    package typealias BodyObserver = @Sendable (_ offset: Int64, _ bytes: UnsafeRawBufferPointer) -> Void

    /// How many redirects are followed at most.
    package static let maxRedirects = 10
    /// The default connection limit: 30 s. A server that takes longer to accept is down or
    /// unreachable; without a limit a dropped SYN would hang for curl's five minutes.
    package static let defaultConnectTimeout: Duration = .seconds(30)
    /// The `User-Agent` sent when a request sets none: `flow (libcurl/VERSION)`.
    package static let defaultUserAgent = "flow (libcurl/\(CurlVersion.text))"
    /// The default response body limit: 64 MiB.
    package static let defaultMaxResponseBodySize = 64 << 20

    /// A request; only the URL is required.
    package init(
        method: String = "GET",
        url: String,
        query: [(String, String)] = [],
        headers: HTTPHeaders = [:],
        body: HTTPBody = .empty,
        timeout: Duration? = nil,
        connectTimeout: Duration? = HTTPRequest.defaultConnectTimeout,
        followRedirects: Bool = true,
        verifyTLS: Bool = true,
        maxResponseBodySize: Int = HTTPRequest.defaultMaxResponseBodySize,
        bodyObserver: BodyObserver? = nil
    ) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.followRedirects = followRedirects
        self.verifyTLS = verifyTLS
        self.maxResponseBodySize = maxResponseBodySize
        self.bodyObserver = bodyObserver
    }

    /// `url` with `query` percent-encoded onto it.
    package var fullURL: String { Self.url(url, query: query) }

    /// `url` with `query` added before any `#fragment`, each name and value passed through
    /// `encode` (percent-encoding by default): the one way flow puts a query on a URL.
    package static func url(
        _ url: String, query: [(String, String)], encode: (String) -> String = PercentEncoding.encode
    ) -> String {
        guard !query.isEmpty else { return url }
        let encoded = query.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + encoded + url[fragmentStart...]
    }
}

/// Percent-encoding of query components (RFC 3986: everything but unreserved characters).
package enum PercentEncoding {
    /// `text` with every byte but the unreserved characters (`A-Z a-z 0-9 - . _ ~`) as `%XX`.
    package static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0xF)
            }
        }
        return out
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> String {
        String(Unicode.Scalar(value < 10 ? value + UInt8(ascii: "0") : value - 10 + UInt8(ascii: "A")))
    }
}
