import FlowTasks
import Foundation

/// Turns a run's scheduler events into `RunRecorder` calls: each step's and each `for-each`
/// item's start and end, with attempts, times and outputs (secret-free, see `JournalEntry`).
/// Called on the run's queue, in order; the recorder queues and returns.
final class RunRecording: Sendable {
    private let recorder: any RunRecorder
    private let masker: SecretMasker
    /// The run's own steps (events of called files' steps are not recorded as its own) and their
    /// `for-each` items, and the starts held back. Touched on the run's queue, and by the
    /// recorder's thread when it takes the held starts.
    private let steps: LockedBox<OwnSteps>
    /// The wall-clock date and `DispatchTime` uptime of one moment, read together: scheduler
    /// times (uptime) become dates from it.
    private let origin = (wall: Date(), uptime: DispatchTime.now().uptimeNanoseconds)
    /// Tells the recorder that a start is held back (see `RunRecorder.holdStarts`).
    private let startHeld: @Sendable () -> Void

    /// Unsafe requests whose answer never came (see `OpenUnsafeSends`).
    private let openSends: OpenUnsafeSends
    /// Whether the recorder takes items' ends from `OwnSteps.ends` (see `RunRecorder.holdItemEnds`).
    private let heldEnds: HeldItemEnds?

    /// A step's start while it runs.
    private struct Begun {
        var date: Date
        var attempt: Int
        /// Whether the recorder was given the start (see `OwnSteps.takeHeld`).
        var told: Bool
    }

    /// A `for-each` item: its step's position in the plan and its index (two integers to hash,
    /// not the step's id: a 100,000-item step looks one up twice an item).
    private struct ItemKey: Hashable {
        let position: Int
        let index: Int
    }

    private struct OwnSteps {
        /// The run's steps in the order of its plan (`SchedulerEvent.position`).
        let ids: [String]
        /// For each step, its start and latest attempt while it runs.
        var begun: [Begun?]
        /// Steps whose start is held back, by position.
        var held: [Int] = []
        /// Each `for-each` item's start while it runs, but the latest one's (`lastItem`).
        var items: [ItemKey: Begun] = [:]
        /// The latest item started: an item done at once (a zero wait, an item a resume keeps)
        /// ends before the next starts, and so never enters `items` (two lookups an item).
        var lastItem: (key: ItemKey, begun: Begun)?
        /// Items in `items` whose start is held back, as steps' are: an item that ends within the
        /// batch (most do) is written once, by its end (BENCHMARKS.md, "Run journal", issue 32).
        var heldItems: [ItemKey] = []
        /// Whether the recorder was told that a start is held back since it last took them.
        var woken = false
        /// The latest item's end and its step's position: the date of a start that follows it
        /// (`ItemProgress.followsEnd`).
        var lastEnd: (position: Int, date: Date)?
        /// For each step, the succeeded items' ends recorded since its latest attempt began: when
        /// they are all its items, its own end need not repeat them (`JournalEntry.encode`).
        var loggedItems: [Int]
        /// Items' ends the recorder has not taken yet, in order (see `RunRecorder.holdItemEnds`):
        /// an end costs the run's queue an append under the lock it takes anyway, no encoding
        /// and no call into the recorder (BENCHMARKS.md, "Run journal", round seven).
        var ends: [HeldItemEnd] = []
        /// An empty array with room, given back by the recorder once it encoded the ends it held
        /// (see `ItemEndBatch.forEach`): `ends` starts again from it, not from no storage.
        var spare: [HeldItemEnd] = []

        /// The ends held so far, leaving none.
        mutating func takeEnds() -> [HeldItemEnd] {
            guard !ends.isEmpty else { return [] }
            var taken: [HeldItemEnd] = []
            swap(&taken, &spare)
            swap(&taken, &ends)
            return taken
        }

        /// Keeps `emptied` as the next `ends`' storage when it has more room than the spare held.
        mutating func keep(spare emptied: [HeldItemEnd]) {
            if emptied.capacity > spare.capacity { spare = emptied }
        }

        /// Whether the recorder must be told of a start held back now (once a batch).
        mutating func wake() -> Bool {
            defer { woken = true }
            return !woken
        }

        mutating func itemStarted(_ key: ItemKey, at date: Date) {
            if let last = lastItem {
                items[last.key] = last.begun
                if !last.begun.told { heldItems.append(last.key) }
            }
            lastItem = (key, Begun(date: date, attempt: 1, told: false))
        }

        mutating func itemFinished(_ key: ItemKey) -> Begun? {
            if let last = lastItem, last.key == key {
                lastItem = nil
                return last.begun
            }
            return items.removeValue(forKey: key)
        }

        /// The held starts of steps and items still running, marked as told.
        mutating func takeHeld() -> [HeldStart] {
            var starts: [HeldStart] = []
            for position in held {
                guard let step = begun[position], !step.told else { continue }
                begun[position]?.told = true
                starts.append(HeldStart(step: ids[position], attempt: step.attempt, at: step.date))
            }
            held.removeAll(keepingCapacity: true)
            for key in heldItems {
                guard let item = items[key], !item.told else { continue }
                items[key]?.told = true
                starts.append(HeldStart(step: ids[key.position], item: key.index, attempt: item.attempt, at: item.date))
            }
            heldItems.removeAll(keepingCapacity: true)
            if let last = lastItem, !last.begun.told {
                lastItem?.begun.told = true
                starts.append(
                    HeldStart(step: ids[last.key.position], item: last.key.index, attempt: 1, at: last.begun.date))
            }
            woken = false
            return starts
        }
    }

    /// Records the events of the steps `plan` lists, by their position in it.
    init(recorder: any RunRecorder, masker: SecretMasker, plan: [String], openSends: OpenUnsafeSends) {
        self.openSends = openSends
        self.recorder = recorder
        self.masker = masker
        let steps = LockedBox(
            OwnSteps(
                ids: plan, begun: Array(repeating: nil, count: plan.count),
                loggedItems: Array(repeating: 0, count: plan.count)))
        self.steps = steps
        startHeld = recorder.holdStarts { steps.withLock { $0.takeHeld() } }
        heldEnds = recorder.holdItemEnds { [masker] in
            let ends = steps.withLock { $0.takeEnds() }
            guard !ends.isEmpty else { return nil }
            return ItemEndBatch(ends: ends, masker: masker) { emptied in
                steps.withLock { $0.keep(spare: emptied) }
            }
        }
    }

    func handle(_ event: SchedulerEvent<StepResult>) {
        if case .progress(let progress) = event.kind {
            // Lines and bytes, most progress, are not journaled.
            switch progress {
            case .attempt, .item: break
            default: return
            }
        }
        // An attempt's progress needs no date (most runs' only progress event a step), nor an
        // item's start right after an end of its step: it starts at that end's reading, one
        // reading of the clock an item, not two (both were most of what the journal cost the
        // run's queue; BENCHMARKS.md, "Run journal", round nine).
        var now = event.kind.isAttempt || event.kind.followsEnd ? .distantPast : date(at: event.at)
        // nil: not one of the run's own steps; then the step's (or for an item's event, the
        // item's) start, if it started; and whether this start is the first held back since the
        // recorder last took them.
        var firstHeld = false
        var loggedItems = 0
        // The count of ends held once this item's end is (0: not held).
        var heldCount = 0
        let holdsEnds = heldEnds != nil
        let begun: Begun?? = steps.withLock { steps in
            // Only the scheduler of this run calls, with each event's position in its plan.
            guard let index = event.position, steps.begun.indices.contains(index) else { return nil }
            let begun = steps.begun[index]
            switch event.kind {
            case .started:
                firstHeld = steps.wake()
                steps.begun[index] = Begun(date: now, attempt: 1, told: false)
                steps.held.append(index)
                steps.loggedItems[index] = 0
            case .progress(.attempt(let attempt)):
                steps.begun[index]?.attempt = attempt
                steps.loggedItems[index] = 0
            case .progress(.item(let item)):
                let key = ItemKey(position: index, index: item.index)
                switch item.event {
                case .started:
                    if item.followsEnd {
                        now = steps.lastEnd.flatMap { $0.position == index ? $0.date : nil } ?? Date()
                    }
                    firstHeld = steps.wake()
                    steps.itemStarted(key, at: now)
                    return .some(nil)
                case .finished(let state, let message):
                    steps.lastEnd = (index, now)
                    if state == .succeeded { steps.loggedItems[index] += 1 }
                    let begun = steps.itemFinished(key)
                    guard holdsEnds else { return .some(begun) }
                    steps.ends.append(
                        HeldItemEnd(
                            step: steps.ids[index], index: item.index, state: state, attempts: item.attempts,
                            startedAt: begun?.date, finishedAt: now,
                            kept: state == .succeeded ? .init(item: item.item, outputs: item.outputs) : .nothing,
                            message: message))
                    heldCount = steps.ends.count
                    return .some(begun)
                }
            case .finished:
                steps.begun[index] = nil
                loggedItems = steps.loggedItems[index]
            case .progress: break
            }
            return .some(begun)
        }
        guard let begun else { return }
        switch event.kind {
        case .started:
            if firstHeld { startHeld() }
        case .progress(.item(let item)):
            switch item.event {
            case .started:
                if firstHeld { startHeld() }
            case .finished(let state, let message):
                if let heldEnds, heldCount > 0 {
                    if heldCount == 1 || heldCount % heldEnds.limit == 0 { heldEnds.waiting(heldCount) }
                    // Any send still open is recorded after the end: the recorder takes the held
                    // ends before it records the send.
                    markUnknownOutcomes(step: event.id, item: item.index, at: now)
                } else {
                    itemFinished(event.id, item, state: state, message: message, begun: begun, at: now)
                }
            }
        case .progress:
            break
        case .finished:
            let (record, masker) = (event.record, masker)
            let outputs: StepFinish.Outputs
            if JournalEntry.isStateOnly(record) {
                // Nothing to encode: the record is not kept alive for the journal's thread.
                outputs = .ready(.stateOnly)
            } else {
                // Its items' ends are in the journal when every one of them was recorded here
                // (not so for `flow run --only`'s selections, which report no items).
                let itemsInLog = loggedItems >= record.output?.items?.count ?? .max
                outputs = .encode { JournalEntry.encode(record, masker: masker, itemsInLog: itemsInLog) }
            }
            recorder.stepFinished(
                StepFinish(
                    step: event.id, item: nil, state: record.state,
                    attempts: record.output?.attempts ?? begun?.attempt ?? 0, startedAt: begun?.date,
                    finishedAt: now, outputs: outputs, error: record.error.map { masker(String(describing: $0)) }))
            markUnknownOutcomes(step: event.id, item: nil, at: now)
        }
    }

    /// The date of `uptime` (`DispatchTime`'s, in nanoseconds), the scheduler's reading of the
    /// clock for the event: a step's start and end cost no second read (two a step). Now when
    /// the event has none.
    private func date(at uptime: UInt64?) -> Date {
        guard let uptime else { return Date() }
        return origin.wall.addingTimeInterval(Double(Int64(bitPattern: uptime &- origin.uptime)) / 1e9)
    }

    /// After the end is recorded: an unsafe request of the step that got no answer is in flight
    /// again as far as the journal knows, so that a resume asks before sending it again. (The
    /// write is not waited for: nothing is sent after it.)
    private func markUnknownOutcomes(step: String, item: Int?, at now: Date) {
        for key in openSends.take(step: step, item: item) {
            _ = recorder.unsafeSend(key.step, item: key.item, at: now)
        }
    }

    /// An item's end: its start (held back, see `OwnSteps.heldItems`) is carried by it.
    private func itemFinished(
        _ step: String, _ item: ItemProgress, state: StepState, message: String?, begun: Begun?, at now: Date
    ) {
        // A succeeded item keeps its value and outputs, so that a resume need not run it again;
        // never when they hold a secret value (then it runs again).
        let (value, outputs, masker) = (item.item, item.outputs, masker)
        let encoded: StepFinish.Outputs
        if state != .succeeded {
            encoded = .ready(.none)
        } else if masker.isEmpty {
            // Nothing to mask: the item's short text is made here, so its change goes straight
            // into the journal's open step log. Handed over as a closure, each of 100,000
            // items kept its value and outputs alive until the journal's thread came to it,
            // and split the log into a piece per item (BENCHMARKS.md, "Run journal", issue 32).
            encoded = .ready(.json(PriorItem(item: value, outputs: outputs).jsonText))
        } else {
            encoded = .encode {
                let text = PriorItem(item: value, outputs: outputs).jsonText
                return masker(text) != text ? .secret : .json(text)
            }
        }
        recorder.stepFinished(
            StepFinish(
                step: step, item: item.index, state: state, attempts: item.attempts, startedAt: begun?.date,
                finishedAt: now, outputs: encoded, error: message.map { masker($0) }))
        markUnknownOutcomes(step: step, item: item.index, at: now)
    }
}

extension SchedulerEvent.Kind {
    /// Whether this is a step's new attempt.
    fileprivate var isAttempt: Bool {
        if case .progress(.attempt) = self { return true }
        return false
    }

    /// Whether this is a `for-each` item's start that follows an end (`ItemProgress.followsEnd`).
    fileprivate var followsEnd: Bool {
        if case .progress(.item(let item)) = self { return item.followsEnd }
        return false
    }
}
