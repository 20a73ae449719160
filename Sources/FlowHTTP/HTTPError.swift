/// Why a request produced no response, classified so retry logic can decide.
package struct HTTPError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The broad cause.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The host name could not be resolved.
        case dns
        /// No connection could be opened (refused, unreachable).
        case connect
        /// The TLS handshake or certificate verification failed.
        case tls
        /// The total or connect time limit passed.
        case timeout
        /// The connection broke during the exchange, or the server sent nothing.
        case connectionReset
        /// The request was aborted, e.g. by shutting the client down.
        case cancelled
        /// The response body was larger than the request allows.
        case bodyTooLarge
        /// A body written to a file grew past the file's limit (`HTTPSaveTarget.maxSize`).
        case fileTooLarge
        /// The request itself is malformed: a bad URL, method, header or unreadable body file.
        case invalidRequest
        /// Anything else curl reports.
        case other
    }

    /// The broad cause.
    package var kind: Kind
    /// libcurl's `CURLcode`, or 0 when flow found the problem before curl ran.
    package var curlCode: Int
    /// What went wrong: curl's own text plus what flow knows (the URL, the limit, a hint).
    package var message: String
    /// The URL requested.
    package var url: String
    /// For a `.timeout`, the limit that passed, when flow knows it: what a caller that set the
    /// limit reads to tell its own limit from another, rather than searching the message.
    package var timeLimit: TimeLimit?

    /// A time limit of a request (see `HTTPRequest.timeout` and `connectTimeout`).
    package enum TimeLimit: Sendable, Equatable {
        /// The limit on the whole request (redirects included).
        case request(Duration)
        /// The limit on opening the connection.
        case connect(Duration)

        /// How long the limit was.
        package var duration: Duration {
            switch self {
            case .request(let duration), .connect(let duration): return duration
            }
        }
    }

    /// An error; the client builds these from curl's results.
    package init(kind: Kind, curlCode: Int = 0, message: String, url: String, timeLimit: TimeLimit? = nil) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
        self.url = url
        self.timeLimit = timeLimit
    }

    /// Whether trying again may work: connection failures, broken connections and time-outs.
    package var isTransient: Bool {
        switch kind {
        case .connect, .connectionReset, .timeout: return true
        case .dns, .tls, .cancelled, .bodyTooLarge, .fileTooLarge, .invalidRequest, .other: return false
        }
    }

    /// The message, with curl's code when curl reported the problem.
    package var description: String {
        curlCode == 0 ? message : "\(message) (curl error \(curlCode))"
    }
}
