import Synchronization

/// The requests seen since start or the last reset, in arrival order.
final class EventLog: Sendable {
    /// Names one event; the generation makes updates after a reset harmless no-ops.
    struct Entry: Sendable {
        let generation: Int
        let index: Int
    }

    private struct State {
        var events: [SandboxEvent] = []
        var generation = 0
        var epoch = ContinuousClock.now
    }

    private let state = Mutex(State())

    /// Records a request that just arrived.
    func begin(method: String, path: String, connection: Int) -> Entry {
        state.withLock { state in
            let event = SandboxEvent(
                id: state.events.count + 1,
                method: method,
                path: path,
                connection: connection,
                startedAt: Self.seconds(since: state.epoch)
            )
            state.events.append(event)
            return Entry(generation: state.generation, index: state.events.count - 1)
        }
    }

    /// Adds to the body bytes received for a request.
    func received(_ count: Int, for entry: Entry) {
        update(entry) { $0.bytesReceived += count }
    }

    /// Marks a request as hung up on by its client.
    func disconnected(_ entry: Entry) {
        update(entry) { $0.clientDisconnected = true }
    }

    /// Records the end of a request; `status` is nil when no response could be sent.
    func end(_ entry: Entry, status: Int?) {
        state.withLock { state in
            guard entry.generation == state.generation, entry.index < state.events.count else { return }
            state.events[entry.index].endedAt = Self.seconds(since: state.epoch)
            state.events[entry.index].status = status
        }
    }

    /// The events so far, oldest first.
    func snapshot() -> [SandboxEvent] {
        state.withLock { $0.events }
    }

    /// Forgets every event and restarts the clock and the numbering.
    func reset() {
        state.withLock { state in
            state.events = []
            state.generation += 1
            state.epoch = .now
        }
    }

    private func update(_ entry: Entry, _ change: (inout SandboxEvent) -> Void) {
        state.withLock { state in
            guard entry.generation == state.generation, entry.index < state.events.count else { return }
            change(&state.events[entry.index])
        }
    }

    private static func seconds(since epoch: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - epoch
        let parts = elapsed.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
