internal import CCurlShim

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
    }

    /// Classifies a curl result and says, in words, what happened to which URL.
    init(_ failure: CurlFailure) {
        let code = failure.code
        let curlText = String(cString: curl_easy_strerror(code))
        let detail = failure.detail.isEmpty ? curlText : failure.detail
        let url = failure.url
        let kind = Self.kind(of: code, failure: failure)
        let message: String
        switch kind {
        case .dns:
            message = "could not resolve the host of \(url): \(detail)"
        case .connect:
            message = "could not connect to \(url): \(detail)"
        case .tls:
            if code == CURLE_PEER_FAILED_VERIFICATION {
                message =
                    "TLS certificate verification failed for \(url): \(detail); "
                    + "turn verification off only for a server you trust"
            } else {
                message = "TLS failed with \(url): \(detail)"
            }
        case .timeout:
            let limit = failure.timeout.map { " (limit \($0))" } ?? ""
            message = "timed out waiting for \(url)\(limit): \(detail)"
        case .connectionReset where code == CURLE_SEND_FAIL_REWIND:
            // Only requests that forbid resending get here (see `HTTPRequest.mayResendBody`).
            message =
                "the connection to \(url) closed before any answer came (the request was sent, "
                + "so it is not sent again blindly)"
        case .connectionReset:
            message = "the connection to \(url) broke: \(detail)"
        case .bodyTooLarge:
            let limit = failure.bodyLimitExceeded.map { "\($0) bytes" } ?? "the limit"
            message = "the response body of \(url) is larger than \(limit); raise the response size limit"
        case .invalidRequest:
            message = "invalid request to \(url): \(failure.bodyReadFailure ?? detail)"
        case .cancelled:
            message = "the request to \(url) was aborted: \(detail)"
        case .other:
            message = "the request to \(url) failed: \(detail)"
        }
        self.init(kind: kind, curlCode: Int(code.rawValue), message: message, url: url)
    }

    private static func kind(of code: CURLcode, failure: CurlFailure) -> Kind {
        if failure.bodyLimitExceeded != nil, code == CURLE_WRITE_ERROR || code == CURLE_FILESIZE_EXCEEDED {
            return .bodyTooLarge
        }
        if failure.bodyReadFailure != nil { return .invalidRequest }
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
