import FlowDigest
internal import Hummingbird

/// Reads request bodies while counting the bytes into the event log.
enum RequestBodyReader {
    /// The whole body, up to `limit` bytes; for small JSON and echo bodies only.
    static func collect(_ request: Request, context: SandboxContext, events: EventLog, limit: Int) async throws
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            if let entry = context.entry { events.received(buffer, for: entry) }
            guard bytes.count + buffer.readableBytes <= limit else {
                throw HTTPError(.contentTooLarge, message: "this endpoint keeps at most \(limit) bytes of body")
            }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }

    /// Reads and discards the body; returns how many bytes it had.
    static func drain(_ request: Request, context: SandboxContext, events: EventLog) async throws -> Int {
        var total = 0
        for try await buffer in request.body {
            total += buffer.readableBytes
            if let entry = context.entry { events.received(buffer, for: entry) }
        }
        return total
    }
}
