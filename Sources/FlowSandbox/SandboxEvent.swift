/// One request as the sandbox saw it, as listed by `GET /_events`.
package struct SandboxEvent: Sendable, Codable, Equatable {
    /// The request number since start or the last reset, from 1.
    package var id: Int
    /// The HTTP method, e.g. `GET`.
    package var method: String
    /// The path with its query string.
    package var path: String
    /// The TCP connection the request came on; equal ids mean a reused keep-alive connection.
    package var connection: Int
    /// Seconds since start or the last reset when the request head arrived.
    package var startedAt: Double
    /// Seconds since start or the last reset when the response was finished; nil while in flight.
    package var endedAt: Double?
    /// The status sent, nil if none was sent.
    package var status: Int?
    /// Whether the client hung up before the response was complete.
    package var clientDisconnected: Bool
    /// The request body bytes the server received.
    package var bytesReceived: Int
    /// The request's `Content-Range`, `Range`, `Upload-Offset`, `Upload-Length` and `Upload-Checksum`
    /// headers, those it had.
    package var headers: [String: String]
    /// The SHA-256 (hex) of the body received, when the sandbox records bodies and one arrived.
    package var bodySHA256: String?
    /// The body received as text, when the sandbox records bodies and it was UTF-8 of at most 1 MiB.
    package var body: String?

    /// Makes an event; the sandbox fills these in as a request progresses.
    package init(
        id: Int,
        method: String,
        path: String,
        connection: Int,
        startedAt: Double,
        endedAt: Double? = nil,
        status: Int? = nil,
        clientDisconnected: Bool = false,
        bytesReceived: Int = 0,
        headers: [String: String] = [:],
        bodySHA256: String? = nil,
        body: String? = nil
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.connection = connection
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.status = status
        self.clientDisconnected = clientDisconnected
        self.bytesReceived = bytesReceived
        self.headers = headers
        self.bodySHA256 = bodySHA256
        self.body = body
    }

    /// Encodes every field, `null` included, so `/_events` readers always see the same keys.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(connection, forKey: .connection)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(endedAt, forKey: .endedAt)
        try container.encode(status, forKey: .status)
        try container.encode(clientDisconnected, forKey: .clientDisconnected)
        try container.encode(bytesReceived, forKey: .bytesReceived)
        try container.encode(headers, forKey: .headers)
        try container.encode(bodySHA256, forKey: .bodySHA256)
        try container.encode(body, forKey: .body)
    }
}
