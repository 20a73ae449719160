internal import CCurlShim

extension Transfer {
    /// Sets every curl option the request asks for, and the callbacks that feed this object.
    func configure() throws(HTTPError) {
        var failed: CURLcode?
        func check(_ code: CURLcode) {
            if code != CURLE_OK, failed == nil { failed = code }
        }
        check(flow_easy_setopt_string(easy, CURLOPT_URL, url))
        check(flow_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(flow_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        // Threads and signals do not mix: without this curl's resolver time-outs use SIGALRM.
        check(flow_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        check(flow_easy_setopt_pointer(easy, CURLOPT_PRIVATE, UnsafeMutableRawPointer(bitPattern: id)))
        check(flow_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        check(flow_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, transferWriteBody))
        check(flow_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        check(flow_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, transferWriteHeader))
        check(flow_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        check(flow_easy_setopt_opensocket_function(easy, transferOpenSocket))
        check(flow_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context))
        check(flow_easy_setopt_sockopt_function(easy, transferSocketOptions))
        check(flow_easy_setopt_pointer(easy, CURLOPT_SOCKOPTDATA, context))
        // flow follows redirects itself, one transfer per hop (see `HTTPRedirect`): libcurl would
        // send every custom header, secrets included, to whatever host a `Location` names.
        check(flow_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        check(flow_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, request.verifyTLS ? 1 : 0))
        check(flow_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, request.verifyTLS ? 2 : 0))
        check(flow_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, curlVersion))
        // An HTTP/1.0 request gets a connection of its own, closed after it (1.0 keeps no
        // connection open unless asked to): a server that answers it in 1.1 yet closes the
        // connection would otherwise see the next request on a connection it is closing (400).
        check(flow_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, request.version == .http1_0 ? 1 : 0))
        if HTTPRequest.hasScheme("https://", url) {
            // Requests started together wait for the first TLS handshake to learn whether the
            // server multiplexes (HTTP/2) instead of each opening its own connection.
            check(flow_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
        }
        // Refuses an announced oversized body before any of it arrives; the write callback
        // catches bodies without a Content-Length. Not for HEAD, whose Content-Length describes
        // a body that never comes.
        if request.method != "HEAD", request.saveTo == nil {
            check(flow_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBodySize)))
        }
        if let timeout = request.timeout {
            check(flow_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout)))
        }
        if let connectTimeout = request.connectTimeout {
            check(flow_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout)))
        }
        configureMethodAndBody(check)
        configureResponseBody(check)
        configureHeaders(check)
        configureProgress(check)
        configureTransport(check)
        if let failed {
            let text = String(cString: curl_easy_strerror(failed))
            throw HTTPError(
                kind: .invalidRequest,
                curlCode: Int(failed.rawValue),
                message: "curl refused an option of the request to \(url): \(text)",
                url: url
            )
        }
    }

    private func configureMethodAndBody(_ check: (CURLcode) -> Void) {
        let method = request.method
        let hasBody = request.body != .empty
        if let mime {
            // libcurl frames the parts, sets `Content-Type` with its boundary, and reads files as it sends.
            check(flow_easy_setopt_pointer(easy, CURLOPT_MIMEPOST, UnsafeMutableRawPointer(mime)))
            if method != "POST" { check(flow_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)) }
        } else if method == "HEAD" {
            check(flow_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        } else if method == "GET" && !hasBody {
            check(flow_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        } else if hasBody || ["POST", "PUT", "PATCH"].contains(method) {
            // POST mode with a known size sends `Content-Length` and pulls the body through the
            // read callback; CUSTOMREQUEST then names the real method.
            check(flow_easy_setopt_long(easy, CURLOPT_POST, 1))
            check(flow_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.length)))
            check(flow_easy_setopt_read_function(easy, CURLOPT_READFUNCTION, transferReadBody))
            check(flow_easy_setopt_pointer(easy, CURLOPT_READDATA, context))
            check(flow_easy_setopt_seek_function(easy, transferSeekBody))
            check(flow_easy_setopt_pointer(easy, CURLOPT_SEEKDATA, context))
            if method != "POST" {
                check(flow_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
            }
        } else {
            check(flow_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
        }
    }

    private func configureHeaders(_ check: (CURLcode) -> Void) {
        var lines: [String] = []
        for (name, value) in request.headers {
            // `Name;` is curl's way to send a header with an empty value; `Name:` would remove it.
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        // curl otherwise waits up to a second for `100 Continue` before sending each body.
        lines.append("Expect:")
        if request.method != "GET" && request.method != "HEAD" && !request.headers.contains("Content-Type")
            && mime == nil
        {
            // POST mode would otherwise label every body as a form.
            lines.append("Content-Type:")
        }
        if !request.headers.contains("User-Agent") {
            lines.append(Self.userAgent)
        }
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else { continue }
            headerList = appended
        }
        check(flow_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
    }

    private func configureProgress(_ check: (CURLcode) -> Void) {
        guard hasProgressHandler else { return }
        check(flow_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0))
        check(flow_easy_setopt_xferinfo_function(easy, transferProgress))
        check(flow_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, context))
    }

    private static let userAgent = "User-Agent: \(HTTPRequest.defaultUserAgent)"

    /// curl treats 0 as "no limit", so the shortest limit is one millisecond.
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int.max }
        return max(1, Int(total.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}

extension Transfer {
    /// `CURLOPT_HTTP_VERSION` for `request.version`: HTTP/2 over plain `http` is h2c with prior
    /// knowledge (curl's `--http2-prior-knowledge`); over `https` it is asked for with ALPN.
    var curlVersion: Int {
        switch request.version {
        case nil: return Int(CURL_HTTP_VERSION_2TLS)
        case .http1_0?: return Int(CURL_HTTP_VERSION_1_0)
        case .http1_1?: return Int(CURL_HTTP_VERSION_1_1)
        case .http2?:
            let secure = HTTPRequest.hasScheme("https://", url)
            return Int(secure ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
    }
}
