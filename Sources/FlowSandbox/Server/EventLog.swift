internal import NIOConcurrencyHelpers

/// The requests seen since start or the last reset, in arrival order.
final class EventLog: Sendable {
    /// Names one event; the generation makes updates after a reset harmless no-ops.
    struct Entry: Sendable {
        let generation: Int
        let id: Int
    }

    private struct State {
        var events: [SandboxEvent] = []
        /// Events dropped from the front to bound memory; ids keep counting.
        var forgotten = 0
        var generation = 0
        var epoch = ContinuousClock.now
    }

    /// The most events kept; a long-running sandbox forgets the oldest half past this.
    static let capacity = 100_000

    private let state = NIOLockedValueBox(State())

    /// Records a request that just arrived.
    func begin(method: String, path: String, connection: Int) -> Entry {
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
                startedAt: Self.seconds(since: state.epoch)
            )
            state.events.append(event)
            return Entry(generation: state.generation, id: event.id)
        }
    }

    /// Adds to the body bytes received for a request.
    func received(_ count: Int, for entry: Entry) {
        update(entry) { event, _ in event.bytesReceived += count }
    }

    /// Marks a request as hung up on by its client.
    func disconnected(_ entry: Entry) {
        update(entry) { event, _ in event.clientDisconnected = true }
    }

    /// Records the end of a request; `status` is nil when no response could be sent.
    func end(_ entry: Entry, status: Int?) {
        update(entry) { event, epoch in
            event.endedAt = Self.seconds(since: epoch)
            event.status = status
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
