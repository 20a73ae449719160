/// What the server answered, after any redirects.
package struct HTTPResponse: Sendable {
    /// The status code, such as 200.
    package var status: Int
    /// The header fields of the final response.
    package var headers: HTTPHeaders
    /// The body, decoded from chunked transfer encoding but otherwise as sent.
    package var body: [UInt8]
    /// The URL that answered, after redirects.
    package var effectiveURL: String
    /// The protocol version used: `1.0`, `1.1`, `2` or `3`.
    package var httpVersion: String
    /// How long the phases of the exchange took.
    package var timings: HTTPTimings
    /// Where the body went when the request saved it to a file (`HTTPRequest.saveTo`) and the
    /// status was 2xx; `body` is then empty.
    package var saved: HTTPSavedBody?
    /// Headers of `HTTPRequest.originBoundHeaders` a redirect to another origin dropped, as the
    /// request named them; empty when none was.
    package var droppedHeaders: [String] = []
    /// The URL of the other origin where `droppedHeaders` were dropped.
    package var droppedHeadersAt: String?

    /// A response; the client builds these, tests and callers may too.
    package init(
        status: Int,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        effectiveURL: String,
        httpVersion: String = "1.1",
        timings: HTTPTimings = .init()
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
        self.httpVersion = httpVersion
        self.timings = timings
    }

    /// The body read as UTF-8 (invalid sequences replaced).
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// Times from the start of a request, as curl measures them.
package struct HTTPTimings: Sendable, Equatable {
    /// Until the connection was open (TCP; TLS excluded). Zero when a kept-alive one was reused.
    package var connect: Duration
    /// Until the first byte of the response arrived.
    package var firstByte: Duration
    /// The whole exchange, redirects included.
    package var total: Duration

    /// Timings; all zero by default.
    package init(connect: Duration = .zero, firstByte: Duration = .zero, total: Duration = .zero) {
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
    }
}

/// How far a transfer has got, for progress bars. Totals are 0 while unknown.
package struct HTTPProgress: Sendable, Equatable {
    /// Request body bytes sent so far.
    package var bytesSent: Int64
    /// Request body bytes to send in all.
    package var totalToSend: Int64
    /// Response body bytes received so far.
    package var bytesReceived: Int64
    /// Response body bytes expected in all (from `Content-Length`), 0 when unknown.
    package var totalToReceive: Int64

    /// A progress report.
    package init(bytesSent: Int64, totalToSend: Int64, bytesReceived: Int64, totalToReceive: Int64) {
        self.bytesSent = bytesSent
        self.totalToSend = totalToSend
        self.bytesReceived = bytesReceived
        self.totalToReceive = totalToReceive
    }
}
