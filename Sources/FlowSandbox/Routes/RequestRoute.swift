import FlowDigest
import Foundation
internal import Hummingbird

/// `/request`: answers with the request as it arrived, exactly: the method (any of `methods`,
/// WebDAV's and a cache's included), each header field in order with repeats kept, and the body's
/// bytes (hex and sha256) — what `/echo` folds away (repeated headers joined, a body read as text).
enum RequestRoute {
    /// The methods served: the common ones and a few extension methods, so tests can send them.
    static let methods = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "PROPPATCH", "MKCOL", "LOCK", "UNLOCK",
        "PURGE",
    ]

    private struct Echo: Encodable {
        var method: String
        var target: String
        /// Every header field as `[name, value]`, in the order received.
        var fields: [[String]]
        /// The values of each header (lower-cased name), in order.
        var headers: [String: [String]]
        var size: Int
        var hex: String
        var sha256: String
    }

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        for name in methods {
            guard let method = HTTPRequest.Method(name) else { continue }
            router.on("request", method: method) { request, context in
                let body = try await RequestBodyReader.collect(
                    request, context: context, events: state.events, limit: 1 << 20)
                var fields: [[String]] = []
                var headers: [String: [String]] = [:]
                for field in request.headers {
                    fields.append([field.name.rawName, field.value])
                    headers[field.name.canonicalName, default: []].append(field.value)
                }
                var hasher = SHA256()
                body.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                let hex = body.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
                return JSONResponse.make(
                    Echo(
                        method: request.method.rawValue, target: request.uri.string, fields: fields, headers: headers,
                        size: body.count, hex: hex.joined(), sha256: hasher.finalize().hexString))
            }
        }
    }
}
