import FlowDigest
internal import Hummingbird
internal import NIOConcurrencyHelpers

/// The requests seen since start or the last reset, in arrival order.
final class EventLog: Sendable {
    /// Names one event; the generation makes updates after a reset harmless no-ops.
    struct Entry: Sendable {
        let generation: Int
        let id: Int
    }

    /// A request body being received, when bodies are recorded.
    private struct BodyRecord {
        var digest = SHA256()
        var bytes: [UInt8] = []
        var truncated = false
    }

    /// `@unchecked Sendable` for swift-crypto's digest state, which is not marked Sendable: a
    /// `State` lives only inside `state` and is read and written only under its lock.
    private struct State: @unchecked Sendable {
        var events: [SandboxEvent] = []
        /// Bodies of requests in flight, by event id (only when `recordsBodies`).
        var bodies: [Int: BodyRecord] = [:]
        /// Events dropped from the front to bound memory; ids keep counting.
        var forgotten = 0
        var generation = 0
        var epoch = ContinuousClock.now
    }

    /// The most events kept; a long-running sandbox forgets the oldest half past this.
    static let capacity = 100_000

    /// The request headers an event keeps: where a chunk or a range starts, how long an upload is,
    /// and a tus chunk's checksum.
    static let positionHeaders = ["Content-Range", "Range", "Upload-Offset", "Upload-Length", "Upload-Checksum"]
    /// The most body bytes an event keeps as text (its digest covers the whole body).
    static let bodyTextLimit = 1 << 20

    private let state = NIOLockedValueBox(State())
    private let recordsBodies: Bool

    init(recordsBodies: Bool = false) {
        self.recordsBodies = recordsBodies
    }

    /// Records a request that just arrived, with its `positionHeaders`.
    func begin(method: String, path: String, connection: Int, headers: [String: String] = [:]) -> Entry {
        state.withLockedValue { state in
            if state.events.count >= Self.capacity {
                let dropped = state.events.count / 2
                state.events.removeFirst(dropped)
                state.forgotten += dropped
            }
            let event = SandboxEvent(
                id: state.forgotten + state.events.count + 1,
                method: method,
                path: path,
                connection: connection,
                startedAt: Self.seconds(since: state.epoch),
                headers: headers
            )
            state.events.append(event)
            return Entry(generation: state.generation, id: event.id)
        }
    }

    /// Adds body bytes received for a request (and, when recording bodies, to its digest).
    func received(_ buffer: ByteBuffer, for entry: Entry) {
        let count = buffer.readableBytes
        update(entry) { event, _ in event.bytesReceived += count }
        guard recordsBodies else { return }
        state.withLockedValue { state in
            guard entry.generation == state.generation else { return }
            // In place: a copy of the record would copy its bytes for every piece of the body.
            Self.absorb(buffer, into: &state.bodies[entry.id, default: BodyRecord()])
        }
    }

    private static func absorb(_ buffer: ByteBuffer, into record: inout BodyRecord) {
        buffer.withUnsafeReadableBytes { record.digest.update(bufferPointer: $0) }
        if !record.truncated, record.bytes.count + buffer.readableBytes <= bodyTextLimit {
            record.bytes.append(contentsOf: buffer.readableBytesView)
        } else {
            record.truncated = true
            record.bytes = []
        }
    }

    /// Marks a request as hung up on by its client.
    func disconnected(_ entry: Entry) {
        update(entry) { event, _ in event.clientDisconnected = true }
    }

    /// Records the end of a request; `status` is nil when no response could be sent.
    func end(_ entry: Entry, status: Int?) {
        // A stale entry (from before a reset) must not take a new request's body of the same id.
        let record = state.withLockedValue { state in
            entry.generation == state.generation ? state.bodies.removeValue(forKey: entry.id) : nil
        }
        update(entry) { event, epoch in
            event.endedAt = Self.seconds(since: epoch)
            event.status = status
            if let record {
                event.bodySHA256 = record.digest.finalize().hexString
                if !record.truncated { event.body = String(validating: record.bytes, as: UTF8.self) }
            }
        }
    }

    /// The events so far, oldest first.
    func snapshot() -> [SandboxEvent] {
        state.withLockedValue { $0.events }
    }

    /// Forgets every event and restarts the clock and the numbering.
    func reset() {
        state.withLockedValue { state in
            state.events = []
            state.bodies = [:]
            state.forgotten = 0
            state.generation += 1
            state.epoch = .now
        }
    }

    private func update(_ entry: Entry, _ change: (inout SandboxEvent, ContinuousClock.Instant) -> Void) {
        state.withLockedValue { state in
            let index = entry.id - 1 - state.forgotten
            guard entry.generation == state.generation, state.events.indices.contains(index) else { return }
            change(&state.events[index], state.epoch)
        }
    }

    private static func seconds(since epoch: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - epoch
        let parts = elapsed.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
