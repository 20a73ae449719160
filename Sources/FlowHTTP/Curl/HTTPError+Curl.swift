internal import CCurlShim
import FlowTasks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTPError {
    /// What a failed transfer tells, and what flow noticed while curl ran it.
    struct CurlFailure {
        var code: CURLcode
        /// curl's detailed text from `CURLOPT_ERRORBUFFER`, often empty.
        var detail: String
        var url: String
        var timeout: Duration?
        /// Set when flow's write callback refused the body for being over the limit.
        var bodyLimitExceeded: Int?
        /// Set when reading the request body from its file failed.
        var bodyReadFailure: String?
        /// Set when writing the body to its file (`HTTPRequest.saveTo`) failed.
        var saveFailure: String?
        /// `saveFailure` is the body outgrowing the file's limit (`HTTPSaveTarget.maxSize`).
        var saveOverLimit = false
        /// The connection's limit, named when the connection is what timed out.
        var connectTimeout: Duration?
        /// The server's status line arrived but not yet the end of its headers.
        var inHeaders = false
        /// The system error behind the failure, when known (`EMFILE` from `socket()`).
        var osErrno: Int32?
        /// An `https` request that presented no client certificate (`tls.cert-file`).
        var withoutClientCertificate = false
        /// The TLS handshake had completed and no status line had come yet.
        var afterHandshake = false
        /// The connection, with its TLS handshake, was ready and the request had begun: from here
        /// on only the request's own limit applies.
        var connected = false
    }

    /// Which limit a time-out passed. While the connection is being made both apply and the shorter
    /// one ends it; once it is made only the request's own limit is left. Decided from what had
    /// happened, not from curl's wording, which differs with the moment the time ran out ("Connection
    /// timed out", "Connection timeout", "Failed to connect", "Operation timed out").
    private static func limitThatPassed(_ failure: CurlFailure) -> TimeLimit? {
        let request = failure.timeout.map { TimeLimit.request($0) }
        guard !failure.connected, let connect = failure.connectTimeout else { return request }
        if let requestLimit = failure.timeout, requestLimit < connect { return request }
        return .connect(connect)
    }

    /// Classifies a curl result and says, in words, what happened to which URL.
    init(_ failure: CurlFailure) {
        let code = failure.code
        let curlText = String(cString: curl_easy_strerror(code))
        let detail = failure.detail.isEmpty ? curlText : failure.detail
        let url = failure.url
        if let saveFailure = failure.saveFailure, code == CURLE_WRITE_ERROR {
            self.init(
                kind: failure.saveOverLimit ? .fileTooLarge : .other, curlCode: Int(code.rawValue),
                message: "\(saveFailure) (\(url))", url: url)
            return
        }
        if let special = Self.resourceFailure(failure) {
            self = special
            return
        }
        let kind = Self.kind(of: code, failure: failure)
        let message: String
        var timeLimit: TimeLimit?
        switch kind {
        case .dns:
            message = "could not resolve the host of \(url): \(detail)"
        case .connect:
            message = "could not connect to \(url): \(detail)"
        case .tls:
            message =
                Self.tlsMessage(
                    code: code, detail: detail, url: url, withoutClientCertificate: failure.withoutClientCertificate)
                ?? "TLS failed with \(url): \(detail)"
        case .timeout:
            timeLimit = Self.limitThatPassed(failure)
            let limit = timeLimit.map { " (limit \(DurationFormat.text($0.duration)))" } ?? ""
            message = "timed out waiting for \(url)\(limit): \(detail)"
        case .connectionReset where code == CURLE_SEND_FAIL_REWIND:
            // Only requests that forbid resending get here (see `HTTPRequest.mayResendBody`).
            message =
                "the connection to \(url) closed before any answer came (the request was sent, "
                + "so it is not sent again blindly)"
        case .connectionReset where failure.afterHandshake && failure.withoutClientCertificate:
            // What a server that wants a client certificate does when none comes and it sends no
            // alert (a TLS 1.3 server checks the certificate after the client's handshake ends).
            message =
                "the connection to \(url) broke right after the TLS handshake, before any answer: \(detail); "
                + Self.clientCertificateHint(url)
        case .connectionReset:
            message = "the connection to \(url) broke: \(detail)"
        case .bodyTooLarge:
            let limit = failure.bodyLimitExceeded.map { "\($0) bytes" } ?? "the limit"
            message =
                "the response body of \(url) is larger than \(limit) (the limit on a body kept in memory, "
                + "counted after decompression)"
        case .fileTooLarge:
            message = "the response body of \(url) is larger than the file it is saved to may grow"
        case .invalidRequest:
            message = "invalid request to \(url): \(failure.bodyReadFailure ?? detail)"
        case .cancelled:
            message = "the request to \(url) was aborted: \(detail)"
        case .other:
            message = "the request to \(url) failed: \(detail)"
        }
        self.init(kind: kind, curlCode: Int(code.rawValue), message: message, url: url, timeLimit: timeLimit)
    }

    /// Failures curl names after a symptom rather than their cause: descriptors running out
    /// ("Couldn't connect") and response headers over curl's limits ("Out of memory").
    private static func resourceFailure(_ failure: CurlFailure) -> HTTPError? {
        let code = failure.code
        let url = failure.url
        let curlCode = Int(code.rawValue)
        // Only for failures to connect: a socket of a connection attempt that lost the race (IPv6
        // against IPv4) may have failed before the transfer went on to fail for another reason.
        let connecting = [CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY].contains(code)
        if connecting, let osErrno = failure.osErrno, osErrno == EMFILE || osErrno == ENFILE {
            let whose =
                osErrno == EMFILE
                ? "the process reached its limit of \(DescriptorLimit.current.map(String.init) ?? "?") open files (ulimit -n)"
                : "the system's table of open files is full"
            return HTTPError(
                kind: .connect, curlCode: curlCode,
                message: "could not connect to \(url): too many open files: \(whose); "
                    + "run fewer requests at once or raise the limit",
                url: url)
        }
        // curl 8.6 and later say CURLE_TOO_LARGE (100); earlier ones run their header buffer
        // out and say CURLE_OUT_OF_MEMORY.
        if failure.inHeaders, code == CURLE_OUT_OF_MEMORY || code.rawValue == 100 {
            return HTTPError(
                kind: .other, curlCode: curlCode,
                message: "the server at \(url) sent a response header line longer than curl's limit of "
                    + "\(flow_max_http_header() / 1024) KiB",
                url: url)
        }
        if failure.detail.hasPrefix("Too large response headers") {
            // curl's text: "Too large response headers: <size> > <limit>".
            let numbers = failure.detail.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            let amount =
                numbers.count == 2
                ? "\(numbers[0]) bytes of response headers, more than curl's limit of \(numbers[1] / 1024) KiB"
                : "more response headers than curl accepts (\(failure.detail))"
            return HTTPError(kind: .other, curlCode: curlCode, message: "the server at \(url) sent \(amount)", url: url)
        }
        return nil
    }

    private static func kind(of code: CURLcode, failure: CurlFailure) -> Kind {
        if failure.bodyLimitExceeded != nil, code == CURLE_WRITE_ERROR || code == CURLE_FILESIZE_EXCEEDED {
            return .bodyTooLarge
        }
        if failure.bodyReadFailure != nil { return .invalidRequest }
        if Self.isClientCertificateRefusal(failure.detail) { return .tls }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dns
        case CURLE_COULDNT_CONNECT:
            return .connect
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED:
            return .tls
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
            CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SEND_FAIL_REWIND:
            return .connectionReset
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT:
            return .invalidRequest
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .other
        }
    }
}
