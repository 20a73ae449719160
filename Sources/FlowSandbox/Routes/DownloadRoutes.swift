import Foundation
internal import Hummingbird
internal import NIOConcurrencyHelpers

/// `/downloads/{n}` (n deterministic binary bytes honouring `Range` and `If-Range`, with injected
/// drops and a slow mode), `/gzip/{n}` (n bytes of `a`, gzip-encoded when the client accepts it),
/// and `/downloads/log` (what each of those requests asked for).
///
/// `/downloads/{n}` query parameters:
/// - `key`: names the resource for `drops` and the log (default `default`);
/// - `version`: part of the `ETag` (`"n{n}-{version}"`); change it to make a resumed request's
///   `If-Range` fail;
/// - `validator`: `etag` (default), `last-modified` or `none`;
/// - `drop-after=K`: the response closes the connection after K body bytes...
/// - `drops=M`: ...for the first M requests of the key (default 1; `always` for every one);
/// - `slow-ms=X`: sends 16 KiB pieces and waits X ms after each (to kill a run mid-download).
enum DownloadRoutes {
    /// One request as the log shows it.
    struct LoggedRequest: Encodable, Sendable {
        var key: String
        var path: String
        var range: String?
        var ifRange: String?
        var acceptEncoding: String?
        var status: Int
    }

    final class Log: Sendable {
        private let state = NIOLockedValueBox<(requests: [LoggedRequest], calls: [String: Int])>(([], [:]))

        func add(_ request: LoggedRequest) {
            state.withLockedValue { $0.requests.append(request) }
        }

        /// Counts a request of `key`; returns how many came before it.
        func call(_ key: String) -> Int {
            state.withLockedValue { state in
                let count = state.calls[key] ?? 0
                state.calls[key] = count + 1
                return count
            }
        }

        var requests: [LoggedRequest] { state.withLockedValue { $0.requests } }
    }

    private struct Failure: Error {}

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        let log = Log()
        router.get("downloads/log") { _, _ in JSONResponse.make(log.requests) }
        router.get("downloads/:n") { request, context in download(request, context: context, log: log) }
        router.get("gzip/:n") { request, context in gzip(request, context: context, log: log) }
    }

    private static func download(_ request: Request, context: SandboxContext, log: Log) -> Response {
        let query = request.uri.queryParameters
        guard let count = context.parameters.get("n", as: Int.self), (0...(4 << 30)).contains(count) else {
            return JSONResponse.error("n must be a number of bytes up to 4 GiB", status: .badRequest)
        }
        let key = query.get("key").map { String($0) } ?? "default"
        let version = query.get("version").map { String($0) } ?? "1"
        let etag = "\"n\(count)-\(version)\""
        let lastModified = "Mon, 02 Nov 2026 10:00:00 GMT"
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
        let current: String?
        let validatorKind = query.get("validator").map { String($0) } ?? "etag"
        switch validatorKind {
        case "none": current = nil
        case "last-modified":
            headers[.lastModified] = lastModified
            current = lastModified
        default:
            headers[.eTag] = etag
            current = etag
        }
        let range = request.headers[.range]
        let ifRange = request.headers[.ifRange]
        var start = 0
        var status = HTTPResponse.Status.ok
        // If-Range: the range applies only while the validator still matches; else the whole body.
        if let range, ifRange == nil || ifRange == current, let first = rangeStart(range) {
            guard first < count else {
                headers[.contentRange] = "bytes */\(count)"
                log.add(.init(key: key, path: request.uri.path, range: range, ifRange: ifRange, status: 416))
                return Response(status: .rangeNotSatisfiable, headers: headers, body: .init())
            }
            start = first
            status = .partialContent
            headers[.contentRange] = "bytes \(first)-\(count - 1)/\(count)"
        }
        log.add(.init(key: key, path: request.uri.path, range: range, ifRange: ifRange, status: status.code))
        let call = log.call(key)
        let drops = query.get("drops").map { String($0) } ?? "1"
        let dropAfter =
            query.get("drop-after", as: Int.self).flatMap { after in
                drops == "always" || call < (Int(drops) ?? 1) ? after : nil
            }
        let pause = query.get("slow-ms", as: Int.self).map { Duration.milliseconds($0) }
        let length = count - start
        let first = start
        // Small pieces when slowed down (so a test can stop it mid-way), large ones otherwise.
        let pieceSize = pause == nil ? 256 << 10 : 16 << 10
        let body = ResponseBody(contentLength: length) { writer in
            let start = first
            var offset = start
            var sent = 0
            while offset < count {
                var end = min(count, offset + pieceSize)
                if let dropAfter { end = min(end, offset + max(0, dropAfter - sent)) }
                if end > offset {
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(end - offset)
                    DownloadContent.forEachPiece(of: offset..<end) { buffer.writeBytes($0) }
                    try await writer.write(buffer)
                    sent += end - offset
                    offset = end
                }
                // Throwing mid-body makes the server close the connection short of Content-Length.
                if let dropAfter, sent >= dropAfter { throw Failure() }
                if let pause { try await Task.sleep(for: pause) }
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    private static func gzip(_ request: Request, context: SandboxContext, log: Log) -> Response {
        guard let count = context.parameters.get("n", as: Int.self), (0...(1 << 30)).contains(count) else {
            return JSONResponse.error("n must be a number of bytes up to 1 GiB", status: .badRequest)
        }
        let accepted = request.headers[.acceptEncoding]
        log.add(.init(key: "gzip", path: request.uri.path, acceptEncoding: accepted, status: 200))
        var headers: HTTPFields = [.contentType: "text/plain"]
        let byte = UInt8(ascii: "a")
        let gzipAccepted =
            accepted?.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("gzip")
            } ?? false
        guard gzipAccepted else {
            return Response(
                status: .ok, headers: headers,
                body: .init(byteBuffer: ByteBuffer(repeating: byte, count: count)))
        }
        headers[.contentEncoding] = "gzip"
        return Response(
            status: .ok, headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: RepeatedByteGzip.encode(byte, count: count))))
    }

    /// FIRST of `bytes=FIRST-` or `bytes=FIRST-LAST` (the sandbox always sends to the end).
    private static func rangeStart(_ value: String) -> Int? {
        guard value.hasPrefix("bytes="), let dash = value.firstIndex(of: "-") else { return nil }
        return Int(value[value.index(value.startIndex, offsetBy: 6)..<dash])
    }
}
