import Foundation
internal import Hummingbird

/// JSON bodies with stable key order, so tests and humans can compare them.
enum JSONResponse {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A JSON response; encoding our own value types cannot fail, but if it did the client gets a 500.
    static func make(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        // 204 and 304 must not carry a body; a client reusing the connection would misread it.
        if status == .noContent || status == .notModified {
            return Response(status: status, headers: headers, body: .init())
        }
        headers[.contentType] = "application/json"
        guard let data = try? encoder.encode(value) else {
            return Response(status: .internalServerError, headers: headers, body: .init())
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"error": message}` with the given status: every refusal says why.
    static func error(_ message: String, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        make(["error": message], status: status, headers: headers)
    }
}
