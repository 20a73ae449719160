import Dispatch
import FlowTasks

/// A run's events as an `AsyncSequence`; it ends after `.runFinished`.
///
/// ```swift
/// for await event in run.events {
///     if case .progress(let step, _, let bytes, let total?) = event { bar.show(step, bytes, of: total) }
/// }
/// ```
///
/// Memory stays bounded however slow the consumer is, without ever holding up the run:
/// - `stepStarted` and `stepFinished` of the workflow's own steps and `runFinished` are never
///   dropped (at most two a step);
/// - `attempt`, `repetition`, `progress`, `items`, `retryWait` and `dropped` are coalesced: a newer
///   one replaces the one of the same kind and step still waiting (the consumer sees the latest);
/// - `output` lines, `item` events and the events of steps inside called files and `for-each`
///   groups' items are kept while fewer than `FlowRunOptions.eventBufferLimit` events wait; beyond
///   that they are dropped and counted in a `dropped` event. The outcome has every step's result
///   all the same.
///
/// One consumer: iterators made from it share the events. Cancelling the task that waits in it
/// cancels the run, whose remaining events (cancelled steps, `runFinished`) still come.
public struct FlowEvents: AsyncSequence, Sendable {
    /// Each element is one event.
    public typealias Element = FlowEvent

    let buffer: FlowEventBuffer
    let onCancel: @Sendable () -> Void

    /// An iterator over the run's events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: FlowEventBuffer
        let onCancel: @Sendable () -> Void
        /// Events taken from the buffer at once and not yet returned: one wake-up of the consumer
        /// for a burst of events rather than one a event.
        private var batch: [FlowEvent] = []
        private var position = 0

        init(buffer: FlowEventBuffer, onCancel: @escaping @Sendable () -> Void) {
            self.buffer = buffer
            self.onCancel = onCancel
        }

        /// The next event, or nil after `runFinished`.
        public mutating func next() async -> FlowEvent? {
            await next(isolation: nil)
        }

        /// The next event, or nil after `runFinished`, taken on the caller's actor (what
        /// `for await` calls): an event already taken from the buffer costs no hop to another
        /// executor and back, which cost more than the event (bench/flowkit, issue 32).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> FlowEvent? {
            if position < batch.count {
                defer { position += 1 }
                return batch[position]
            }
            let (buffer, onCancel) = (buffer, onCancel)
            batch = await withTaskCancellationHandler {
                await buffer.nextBatch(isolation: actor)
            } onCancel: {
                onCancel()
            }
            position = 1
            return batch.first
        }
    }

    /// An iterator over the run's events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer, onCancel: onCancel)
    }
}

/// The events waiting for the consumer, bounded as `FlowEvents` says. Pushed from the run's queue,
/// taken by the consumer's task; one lock.
package final class FlowEventBuffer: Sendable {
    /// How an event is kept when the consumer is slow.
    enum Policy: Sendable {
        /// Never dropped.
        case kept
        /// Replaces the waiting event with the same key.
        case coalesced(Key)
        /// Dropped (and counted) when `limit` events wait.
        case limited
    }

    /// What a coalesced event replaces: the waiting one of the same kind and step.
    struct Key: Hashable, Sendable {
        let kind: UInt8
        let step: String
    }

    private struct Entry {
        let event: FlowEvent
        let key: Key?
        let limited: Bool
    }

    private struct State {
        /// Waiting events from `head` on; nil where a coalesced event was replaced.
        var entries: [Entry?] = []
        var head = 0
        /// Events waiting (entries that are not nil).
        var waiting = 0
        var limitedWaiting = 0
        /// Where the waiting coalesced event of each key is in `entries`.
        var coalesced: [Key: Int] = [:]
        var dropped = 0
        var finished = false
        /// Consumers waiting for events, woken once for whatever came meanwhile.
        var consumers: [CheckedContinuation<Void, Never>] = []
        /// The most events that ever waited at once.
        var peak = 0
        /// Whether a wake-up of the waiting consumers is due shortly (see `push`).
        var wakeScheduled = false
    }

    /// The most limited events (lines, nested steps' events) that wait at once.
    package let limit: Int
    private let state = LockedBox(State())

    /// A buffer keeping at most `limit` limited events.
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The most events that waited at once so far: at most `limit` + 2 a step of the workflow +
    /// 6 coalesced events a step (+1 for `dropped`).
    package var peakWaiting: Int { state.withLock { $0.peak } }

    /// Where the consumers' wake-ups are scheduled.
    private static let wakeups = DispatchQueue(label: "flow.kit.events")
    /// How long a waiting consumer may be left before it is woken for the events that came: one
    /// wake-up for a burst rather than one for each event, which a thread hop each made the
    /// events cost twice the run (bench/flowkit).
    static let wakeDelay = DispatchTimeInterval.microseconds(500)
    /// A consumer is woken at once when this many events wait.
    static let wakeCount = 256

    /// Adds an event, and wakes a consumer waiting for one: at once when `wakeCount` events wait,
    /// otherwise after `wakeDelay`.
    func push(_ event: FlowEvent, _ policy: Policy) {
        let consumer: CheckedContinuation<Void, Never>? = state.withLock { state in
            switch policy {
            case .kept: Self.append(Entry(event: event, key: nil, limited: false), to: &state)
            case .coalesced(let key): Self.replace(event, key: key, in: &state)
            case .limited:
                if state.limitedWaiting >= limit {
                    state.dropped += 1
                    Self.replace(
                        .dropped(count: state.dropped), key: Key(kind: 0, step: ""), in: &state)
                } else {
                    Self.append(Entry(event: event, key: nil, limited: true), to: &state)
                }
            }
            guard !state.consumers.isEmpty else { return nil }
            if state.waiting >= Self.wakeCount { return state.consumers.removeFirst() }
            if !state.wakeScheduled {
                state.wakeScheduled = true
                Self.wakeups.asyncAfter(deadline: .now() + Self.wakeDelay) { [self] in wake() }
            }
            return nil
        }
        consumer?.resume()
    }

    /// Wakes the waiting consumers.
    private func wake() {
        let consumers = state.withLock { state in
            state.wakeScheduled = false
            defer { state.consumers = [] }
            return state.consumers
        }
        for consumer in consumers { consumer.resume() }
    }

    /// No more events: consumers get nil once the waiting ones are taken.
    func finish() {
        let consumers = state.withLock { state in
            state.finished = true
            defer { state.consumers = [] }
            return state.consumers
        }
        for consumer in consumers { consumer.resume() }
    }

    /// The events waiting now (at most 1,024), waiting (suspended, no thread held) for one when
    /// there is none; empty once finished and taken.
    func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async -> [FlowEvent] {
        while true {
            let (batch, finished) = state.withLock { state in
                var batch: [FlowEvent] = []
                while batch.count < 1024, let event = Self.take(from: &state) { batch.append(event) }
                return (batch, state.finished)
            }
            if !batch.isEmpty || finished { return batch }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.waiting > 0 || state.finished { return true }
                    state.consumers.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    private static func append(_ entry: Entry, to state: inout State) {
        state.entries.append(entry)
        state.waiting += 1
        if entry.limited { state.limitedWaiting += 1 }
        state.peak = max(state.peak, state.waiting)
    }

    private static func replace(_ event: FlowEvent, key: Key, in state: inout State) {
        if let index = state.coalesced[key] {
            // Replaced where it waits, so the order of the other events stays as it was.
            state.entries[index] = Entry(event: event, key: key, limited: false)
            return
        }
        state.coalesced[key] = state.entries.count
        append(Entry(event: event, key: key, limited: false), to: &state)
    }

    private static func take(from state: inout State) -> FlowEvent? {
        while state.head < state.entries.count {
            let entry = state.entries[state.head]
            state.entries[state.head] = nil
            state.head += 1
            guard let entry else { continue }
            state.waiting -= 1
            if entry.limited { state.limitedWaiting -= 1 }
            if let key = entry.key { state.coalesced[key] = nil }
            compact(&state)
            return entry.event
        }
        compact(&state)
        return nil
    }

    /// Drops the taken slots once they are half the array, so it stays within twice what waits.
    private static func compact(_ state: inout State) {
        guard state.head > 64, state.head * 2 >= state.entries.count else { return }
        let offset = state.head
        state.entries.removeFirst(offset)
        state.head = 0
        for (key, index) in state.coalesced { state.coalesced[key] = index - offset }
    }
}
