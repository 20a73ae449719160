internal import CCurlShim
import Dispatch
import FlowTasks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One request in flight: its curl easy handle, what curl's callbacks collect, and its promise.
///
/// Confined to the loop thread that owns the multi handle (see `CurlLoop`). curl's C callbacks
/// reach it through an unretained pointer; the loop's table of transfers keeps it alive for as
/// long as its easy handle is attached, and no callback runs once the handle is removed.
final class Transfer {
    let id: Int
    let url: String
    let promise: Promise<HTTPResponse>
    let easy: UnsafeMutableRawPointer
    let request: HTTPRequest
    let body: RequestBodySource
    /// The client's cookie jar (a curl share handle), for requests that use it.
    let cookieShare: UnsafeMutableRawPointer?
    /// Where a 2xx body goes instead of memory (`HTTPRequest.saveTo`).
    let sink: ResponseFileSink?

    /// The caller's progress handler, handed to the transfer of the next hop of a redirect.
    let progress: (@Sendable (HTTPProgress) -> Void)?
    private let progressQueue: DispatchQueue
    private var lastProgress = HTTPProgress(bytesSent: 0, totalToSend: 0, bytesReceived: 0, totalToReceive: 0)
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// The `multipart/form-data` body, when the request has one (see `Transfer+Multipart.swift`).
    var mime: OpaquePointer?
    private var responseHeaders = HTTPHeaders()
    private var responseBody: [UInt8] = []
    private var bodyLimitExceeded = false
    /// A status line arrived, and then the blank line that ends its headers (reset by each new
    /// status line). A connection closed in the middle of the headers leaves the second false,
    /// and curl then reports success with whatever it got.
    private var sawStatusLine = false
    private var headersEnded = false
    /// `errno` of the last `socket()` that failed (see `openSocket`), e.g. `EMFILE`.
    private var socketErrno: Int32?
    /// The client's connections opened ahead (see `WarmConnections`), set by the loop.
    var warm: WarmConnections?
    /// The socket last handed to curl from `warm`, already connected (see `isWarm`).
    private var warmDescriptor: Int32 = -1
    /// Where the easy handle came from, and goes back to when `recyclable`.
    private let handles: EasyHandlePool
    /// Set by the loop once the transfer finished normally: its handle can serve another request
    /// (unless it used the cookie jar or a MIME body, see `EasyHandlePool`). A cancelled or
    /// failed-to-start transfer's handle is cleaned up.
    var recyclable = false

    /// Takes an easy handle from `handles` and sets every option; throws when the request cannot
    /// be sent.
    init(
        id: Int,
        request: HTTPRequest,
        promise: Promise<HTTPResponse>,
        progress: (@Sendable (HTTPProgress) -> Void)?,
        progressQueue: DispatchQueue,
        cookieShare: UnsafeMutableRawPointer? = nil,
        handles: EasyHandlePool
    ) throws(HTTPError) {
        let url = request.fullURL
        do {
            body = try RequestBodySource(request.body, observer: request.bodyObserver)
        } catch {
            throw HTTPError(kind: .invalidRequest, message: error.message, url: url)
        }
        guard let easy = handles.take() else {
            throw HTTPError(kind: .other, message: "curl could not make a transfer handle for \(url)", url: url)
        }
        sink = request.saveTo.map(ResponseFileSink.init)
        self.id = id
        self.url = url
        self.request = request
        self.promise = promise
        self.easy = easy
        self.handles = handles
        self.progress = progress
        self.progressQueue = progressQueue
        self.cookieShare = cookieShare
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        mime = try Self.makeMultipart(request.body, easy: easy, url: url)
        try configure()
    }

    deinit {
        if recyclable, mime == nil, !(request.transport.cookies && cookieShare != nil) {
            handles.giveBack(easy)
        } else {
            curl_easy_cleanup(easy)
        }
        // After the handle: curl may read the MIME body until it is cleaned up.
        curl_mime_free(mime)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Whether anyone asked for progress reports (curl skips the work otherwise).
    var hasProgressHandler: Bool { progress != nil }

    /// This transfer as curl's callbacks' context pointer.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The transfer behind a callback's context pointer.
    static func from(_ context: UnsafeMutableRawPointer) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    }

    // MARK: What curl's callbacks call

    /// Takes a piece of the response body; false refuses it (over the limit), which aborts the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let sink {
            if sink.wantsBody(status: responseStatus, headers: responseHeaders) { return sink.append(bytes) }
            if sink.failure != nil { return false }
        }
        guard responseBody.count + bytes.count <= request.maxResponseBodySize else {
            bodyLimitExceeded = true
            return false
        }
        responseBody.append(contentsOf: bytes)
        return true
    }

    /// Takes one header line, status lines included (each one starts a new response: a
    /// redirect or an interim `1xx`, whose headers are not the final ones).
    ///
    /// Works on the raw bytes: this runs for every header of every response.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == Self.lineFeed || bytes[end - 1] == Self.carriageReturn { end -= 1 }
        guard end > 0 else {
            // The blank line: this response's headers are complete.
            headersEnded = sawStatusLine
            return
        }
        if end >= 5, Self.statusLinePrefix.indices.allSatisfy({ bytes[$0] == Self.statusLinePrefix[$0] }) {
            responseHeaders = HTTPHeaders()
            responseBody.removeAll(keepingCapacity: true)
            sink?.reset()
            sawStatusLine = true
            headersEnded = false
            return
        }
        if Self.isBlank(bytes[0]) {
            // An obsolete folded continuation of the previous field's value.
            responseHeaders.appendToLastValue(" " + Self.text(bytes, Self.trimmed(bytes, 0, end)))
            return
        }
        guard let colon = bytes[0..<end].firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = Self.text(bytes, 0..<colon)
        responseHeaders.add(name, Self.text(bytes, Self.trimmed(bytes, colon + 1, end)))
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let statusLinePrefix = Array("HTTP/".utf8)

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Range<Int> {
        var start = start
        var end = end
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Opens a socket for curl (its own would do the same, minus close-on-exec), remembering
    /// why it failed: curl reports any failure as "Couldn't connect" and keeps no `errno`. A
    /// connection opened ahead to the same address is handed over instead when there is one.
    func openSocket(family: Int32, type: Int32, protocol: Int32, address: UnsafeRawPointer, length: Int) -> Int32 {
        if let ready = warm?.take(address: address, length: length, transfer: id) {
            warmDescriptor = ready
            return ready
        }
        #if canImport(Glibc)
            let descriptor = socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        #else
            // Darwin has no SOCK_CLOEXEC: the flag is set right after, so only a process another
            // thread spawns between the two calls could inherit the socket.
            let descriptor = socket(family, type, `protocol`)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #endif
        if descriptor < 0 { socketErrno = errno }
        return descriptor
    }

    /// Whether `descriptor` came connected from `warm`: curl must then not connect it again.
    func isWarm(_ descriptor: Int32) -> Bool {
        descriptor >= 0 && descriptor == warmDescriptor
    }

    /// Reports progress on the progress queue when something moved.
    func report(_ current: HTTPProgress) {
        guard let progress, current != lastProgress else { return }
        lastProgress = current
        progressQueue.async { progress(current) }
    }

    // MARK: The end

    /// The response, or the error, once curl says the transfer is done with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        guard code == CURLE_OK else {
            let failure = HTTPError.CurlFailure(
                code: code,
                detail: String(cString: errorBuffer),
                url: url,
                timeout: request.redirectTrail?.timeout ?? request.timeout,
                bodyLimitExceeded: bodyLimitExceeded || code == CURLE_FILESIZE_EXCEEDED
                    ? request.maxResponseBodySize : nil,
                bodyReadFailure: body.failure,
                saveFailure: sink?.failure,
                saveOverLimit: sink?.overLimit ?? false,
                connectTimeout: request.connectTimeout,
                inHeaders: sawStatusLine && !headersEnded,
                osErrno: socketErrno ?? osErrno(),
                withoutClientCertificate: request.url.lowercased().hasPrefix("https://")
                    && request.transport.certFile == nil,
                afterHandshake: !sawStatusLine && microseconds(CURLINFO_APPCONNECT_TIME_T) > .zero,
                connected: microseconds(CURLINFO_PRETRANSFER_TIME_T) > .zero
            )
            return .failure(afterRedirects(HTTPError(failure)))
        }
        guard headersEnded else {
            return .failure(
                HTTPError(
                    kind: .connectionReset,
                    message: "the response of \(url) ended inside its headers: the connection closed before "
                        + "the blank line that ends them",
                    url: url))
        }
        let status = responseStatus
        let earlier = request.redirectTrail?.elapsed ?? .zero
        let saved = sink?.finish(status: status, headers: responseHeaders, isHead: request.method == "HEAD")
        if let failure = sink?.failure {
            return .failure(HTTPError(kind: .other, message: failure, url: url))
        }
        var effective: UnsafePointer<CChar>?
        _ = flow_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        var version = 0
        _ = flow_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        var response = HTTPResponse(
            status: status,
            headers: responseHeaders,
            body: responseBody,
            effectiveURL: effective.map { String(cString: $0) } ?? url,
            httpVersion: Self.versionName(version),
            timings: HTTPTimings(
                connect: earlier + microseconds(CURLINFO_CONNECT_TIME_T),
                firstByte: earlier + microseconds(CURLINFO_STARTTRANSFER_TIME_T),
                total: earlier + microseconds(CURLINFO_TOTAL_TIME_T)
            )
        )
        response.saved = saved
        response.droppedHeaders = request.redirectTrail?.dropped ?? []
        response.droppedHeadersAt = request.redirectTrail?.droppedAt
        return .success(response)
    }

    /// The request for the next hop when the response is a redirect to follow (see
    /// `HTTPRedirect`), a failure when that redirect is refused, `nil` when there is none.
    func nextHop(_ code: CURLcode) -> Result<HTTPRequest, HTTPError>? {
        let status = responseStatus
        guard code == CURLE_OK, headersEnded, request.followRedirects, HTTPRedirect.statuses.contains(status) else {
            return nil
        }
        var target: UnsafePointer<CChar>?
        guard flow_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &target) == CURLE_OK, let target else { return nil }
        let took = microseconds(CURLINFO_TOTAL_TIME_T)
        let location = String(cString: target)
        do {
            return .success(try HTTPRedirect.next(after: request, status: status, to: location, took: took))
        } catch {
            return .failure(afterRedirects(error))
        }
    }

    /// `error` saying where the exchange began when redirects led to the URL that failed.
    private func afterRedirects(_ error: HTTPError) -> HTTPError {
        guard let trail = request.redirectTrail else { return error }
        var error = error
        let hops = trail.count == 1 ? "a redirect" : "\(trail.count) redirects"
        error.message += " (the request to \(trail.firstURL) got to \(url) after \(hops))"
        return error
    }

    /// The status code of the response being received (0 before its status line).
    var responseStatus: Int {
        var status = 0
        _ = flow_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return status
    }

    /// curl's record of the last system error of the transfer, `nil` when none.
    private func osErrno() -> Int32? {
        var value = 0
        _ = flow_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &value)
        return value == 0 ? nil : Int32(truncatingIfNeeded: value)
    }

    private func microseconds(_ info: CURLINFO) -> Duration {
        var value: curl_off_t = 0
        _ = flow_easy_getinfo_off_t(easy, info, &value)
        return .microseconds(value)
    }

    private static func versionName(_ version: Int) -> String {
        switch version {
        case CURL_HTTP_VERSION_1_0: return "1.0"
        case CURL_HTTP_VERSION_2_0: return "2"
        case CURL_HTTP_VERSION_3: return "3"
        default: return "1.1"
        }
    }
}
