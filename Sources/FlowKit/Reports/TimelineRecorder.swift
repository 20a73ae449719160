import FlowEngine
import FlowTasks
import Synchronization

/// What one step did over time, as the HTML and trace reports draw it: its attempts, the waits
/// between them, and the bytes it moved. Times are seconds from the start of the run, on the
/// scheduler's clock (the one `StepRecord.startedAt` uses).
struct StepTimeline: Sendable {
    /// One attempt: from its start to its end (nil while it runs), and why it failed, if it did.
    struct Attempt: Sendable {
        var number: Int
        var start: Double
        var end: Double?
        var failure: String?
    }

    /// One item of a `for-each` step: its span and its final state (nil while it runs).
    struct Item: Sendable {
        var start: Double
        var end: Double?
        var state: StepState?
    }

    /// A wait before the next attempt, and whether the server asked for it (`Retry-After`).
    struct Wait: Sendable {
        var start: Double
        var end: Double
        var retryAfter: Bool
        var reason: String
    }

    var attempts: [Attempt] = []
    var waits: [Wait] = []
    /// A `for-each` step's items by index: when each started and ended, and how. Only the
    /// `ReportTimeline.drawnItems` lowest indices seen are kept, as only they are drawn.
    var items: [Int: Item] = [:]
    /// The highest index in `items` (-1 when empty).
    private(set) var highestItem = -1
    /// Whether every drawn row is taken: an item above `highestItem` is then not kept.
    var itemsFull: Bool { items.count >= ReportTimeline.drawnItems }

    /// Whether the item at `index` is kept, making room for it when it is among the lowest
    /// indices seen (items start mostly in index order, so this rarely evicts).
    mutating func keepsItem(_ index: Int) -> Bool {
        // Past the highest index kept when all rows are taken: most items of a big for-each,
        // decided without hashing.
        if index > highestItem, items.count >= ReportTimeline.drawnItems { return false }
        if items[index] != nil { return true }
        if items.count < ReportTimeline.drawnItems {
            highestItem = max(highestItem, index)
            return true
        }
        guard index < highestItem else { return false }
        items[highestItem] = nil
        highestItem = max(items.keys.max() ?? -1, index)
        return true
    }
    /// (seconds, bytes done), in order; thinned to at most `TimelineRecorder.maxSamples`.
    var bytes: [(time: Double, done: Int64)] = []
    var totalBytes: Int64?
}

/// Collects the attempt-level timing the step records do not keep, from the run's events. Made
/// only when an `html` or `trace` report is asked for, so a run without one pays nothing.
///
/// Events arrive in order on the scheduler's queue; the lock makes reading at the end (or from
/// the quit handler) safe.
final class TimelineRecorder: Sendable {
    /// The most byte samples kept per step: every second one is dropped when full, so a long
    /// upload keeps an even picture of its whole length in bounded memory.
    static let maxSamples = 512

    private struct State {
        /// The scheduler's start on this process's clock, fixed by the first started step.
        var base: ContinuousClock.Instant?
        var steps: [String: StepTimeline] = [:]
        /// A `for-each` step whose drawn rows are all taken, and the highest item index it keeps:
        /// the events of its later items are dropped without a look-up or the clock (a
        /// 100,000-item step sends 200,000 of them, and only 1,000 items are drawn). The index
        /// stays an upper bound: the step's kept indices only go down once its rows are full.
        var full: (step: String, highest: Int)?
    }

    private let state = LockedBox(State())

    /// `full` again, for events that carry their step's place in the plan, as one word read
    /// without the lock: the place times 2^32 plus the highest index kept, -1 for none. Written
    /// under the lock; both halves change together, so a reader never pairs one step's place with
    /// another's index. 200,000 item events took the lock for this check alone.
    private let fullAt = Atomic<Int>(-1)

    /// Notes one event of the run.
    func handle(_ event: SchedulerEvent<StepResult>) {
        if case .progress(.item(let item)) = event.kind {
            if let position = event.position {
                let full = fullAt.load(ordering: .acquiring)
                if full >= 0, full >> 32 == position, item.index > full & 0xFFFF_FFFF { return }
            } else if state.withLock({ $0.full.map { item.index > $0.highest && $0.step == event.id } ?? false }) {
                return
            }
        }
        let now = ContinuousClock.now
        state.withLock { state in
            if state.base == nil, case .started = event.kind, let started = event.record.startedAt {
                // The record's start is on the scheduler's clock: align ours with it.
                state.base = now - started
            }
            let time = state.base.map { (now - $0).seconds } ?? 0
            Self.note(event, at: time, in: &state.steps[event.id, default: StepTimeline()])
            if case .progress(.item) = event.kind, let timeline = state.steps[event.id], timeline.itemsFull {
                state.full = (event.id, timeline.highestItem)
                // A step without a place keeps the lock's check; the word's earlier step stays
                // right to drop by it (its kept indices only go down).
                if let position = event.position, position < 1 << 31, timeline.highestItem < 1 << 32 {
                    fullAt.store(position << 32 | timeline.highestItem, ordering: .releasing)
                }
            }
        }
    }

    /// Applies one event to its step's timeline, in place: a copy out of the dictionary and back
    /// would copy a `for-each` step's items on every item's event, quadratic in the items.
    private static func note(_ event: SchedulerEvent<StepResult>, at time: Double, in timeline: inout StepTimeline) {
        switch event.kind {
        case .started:
            break
        case .progress(.attempt(let number)):
            if let open = timeline.attempts.indices.last, timeline.attempts[open].end == nil {
                timeline.attempts[open].end = time
            }
            // An upload reports its next attempt before waiting: that attempt starts after the wait.
            let start = max(time, timeline.waits.last?.end ?? 0)
            timeline.attempts.append(StepTimeline.Attempt(number: number, start: start))
        case .progress(.retryWait(let wait)):
            if let open = timeline.attempts.indices.last, timeline.attempts[open].end == nil {
                timeline.attempts[open].end = time
                timeline.attempts[open].failure = wait.reason
            }
            timeline.waits.append(
                StepTimeline.Wait(
                    start: time, end: time + wait.wait.seconds, retryAfter: wait.retryAfter, reason: wait.reason))
        case .progress(.bytes(let done, let total, _)):
            timeline.totalBytes = total
            timeline.bytes.append((time, done))
            if timeline.bytes.count > Self.maxSamples {
                // Keep the first and the latest; drop every second one in between.
                let last = timeline.bytes.removeLast()
                timeline.bytes = timeline.bytes.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
                timeline.bytes.append(last)
            }
        case .progress(.item(let item)):
            switch item.event {
            case .started:
                if timeline.keepsItem(item.index) { timeline.items[item.index] = StepTimeline.Item(start: time) }
            case .finished(let itemState, _):
                guard timeline.keepsItem(item.index) else { return }
                var entry = timeline.items[item.index] ?? StepTimeline.Item(start: time)
                entry.end = time
                entry.state = itemState
                timeline.items[item.index] = entry
            }
        case .progress(.line), .progress(.repetition):
            // A repetition's attempts report `.attempt` too, and draw as bars of their own.
            return
        case .finished:
            let end = event.record.finishedAt?.seconds ?? time
            if let open = timeline.attempts.indices.last, timeline.attempts[open].end == nil {
                timeline.attempts[open].end = end
            }
            // A wait cut short by a cancellation or a time-out ends with the step.
            for index in timeline.waits.indices where timeline.waits[index].end > end {
                timeline.waits[index].end = end
            }
        }
    }

    /// Every step's timeline so far.
    var steps: [String: StepTimeline] { state.withLock { $0.steps } }
}
