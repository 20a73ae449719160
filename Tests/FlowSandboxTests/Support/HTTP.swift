import FlowTestSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as a test sees it.
struct Reply {
    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object; fails the test with the body text when it is not one.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("expected a JSON object, got: \(text)")
        }
        return object
    }

    /// The body as a JSON array.
    func array() throws -> [[String: Any]] {
        guard let array = try JSONSerialization.jsonObject(with: body) as? [[String: Any]] else {
            throw TestFailure("expected a JSON array, got: \(text)")
        }
        return array
    }
}

/// Requests through Foundation's URLSession (libcurl underneath on Linux): a real, independent client.
enum HTTP {
    static func send(
        _ method: String,
        _ url: String,
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> Reply {
        guard let target = URL(string: url) else { throw TestFailure("bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }
}
