import FlowTasks
import Foundation

/// Turns a run's scheduler events into `RunRecorder` calls: each step's and each `for-each`
/// item's start and end, with attempts, times and outputs (secret-free, see `JournalEntry`).
/// Called on the run's queue, in order; the recorder queues and returns.
final class RunRecording: Sendable {
    private let recorder: any RunRecorder
    private let masker: SecretMasker
    /// The run's own steps (events of called files' steps are not recorded as its own) and the
    /// starts held back. Touched on the run's queue, and by the recorder's thread when it takes the
    /// held starts.
    private let steps: LockedBox<OwnSteps>
    /// The same for each `for-each` item, whose starts are recorded at once.
    private let items = LockedBox<[TransferKey: (date: Date, attempt: Int)]>([:])
    /// The wall-clock date and `DispatchTime` uptime of one moment, read together: scheduler
    /// times (uptime) become dates from it.
    private let origin = (wall: Date(), uptime: DispatchTime.now().uptimeNanoseconds)
    /// Tells the recorder that a start is held back (see `RunRecorder.holdStarts`).
    private let startHeld: @Sendable () -> Void

    /// Unsafe requests whose answer never came (see `OpenUnsafeSends`).
    private let openSends: OpenUnsafeSends

    /// A step's start while it runs.
    private struct Begun {
        var date: Date
        var attempt: Int
        /// Whether the recorder was given the start (see `OwnSteps.takeHeld`).
        var told: Bool
    }

    private struct OwnSteps {
        /// The run's steps in the order of its plan (`SchedulerEvent.position`).
        let ids: [String]
        /// For each step, its start and latest attempt while it runs.
        var begun: [Begun?]
        /// Steps whose start is held back, by position.
        var held: [Int] = []

        /// The held starts of steps still running, marked as told.
        mutating func takeHeld() -> [HeldStart] {
            var starts: [HeldStart] = []
            for position in held {
                guard let step = begun[position], !step.told else { continue }
                begun[position]?.told = true
                starts.append(HeldStart(step: ids[position], attempt: step.attempt, at: step.date))
            }
            held.removeAll(keepingCapacity: true)
            return starts
        }
    }

    /// Records the events of the steps `plan` lists, by their position in it.
    init(recorder: any RunRecorder, masker: SecretMasker, plan: [String], openSends: OpenUnsafeSends) {
        self.openSends = openSends
        self.recorder = recorder
        self.masker = masker
        let steps = LockedBox(OwnSteps(ids: plan, begun: Array(repeating: nil, count: plan.count)))
        self.steps = steps
        startHeld = recorder.holdStarts { steps.withLock { $0.takeHeld() } }
    }

    func handle(_ event: SchedulerEvent<StepResult>) {
        if case .progress(let progress) = event.kind {
            // Lines and bytes, most progress, are not journaled.
            switch progress {
            case .attempt, .item: break
            default: return
            }
        }
        // An attempt's progress needs no date (most runs' only progress event a step).
        let now = event.kind.isAttempt ? .distantPast : date(at: event.at)
        // nil: not one of the run's own steps; then the step's start, if it started; and whether
        // this start is the first held back since the recorder last took them.
        var firstHeld = false
        let begun: Begun?? = steps.withLock { steps in
            // Only the scheduler of this run calls, with each event's position in its plan.
            guard let index = event.position, steps.begun.indices.contains(index) else { return nil }
            let begun = steps.begun[index]
            switch event.kind {
            case .started:
                steps.begun[index] = Begun(date: now, attempt: 1, told: false)
                steps.held.append(index)
                firstHeld = steps.held.count == 1
            case .progress(.attempt(let attempt)): steps.begun[index]?.attempt = attempt
            case .finished: steps.begun[index] = nil
            case .progress: break
            }
            return .some(begun)
        }
        guard let begun else { return }
        switch event.kind {
        case .started:
            if firstHeld { startHeld() }
        case .progress(.item(let item)):
            itemChanged(event.id, item, at: now)
        case .progress:
            break
        case .finished:
            let (record, masker) = (event.record, masker)
            let outputs: StepFinish.Outputs
            if JournalEntry.isStateOnly(record) {
                // Nothing to encode: the record is not kept alive for the journal's thread.
                outputs = .ready(.stateOnly)
            } else {
                outputs = .encode { JournalEntry.encode(record, masker: masker) }
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

    private func itemChanged(_ step: String, _ item: ItemProgress, at now: Date) {
        let key = TransferKey(step: step, item: item.index)
        switch item.event {
        case .started:
            items.withLock { $0[key] = (now, 1) }
            recorder.stepStarted(step, item: item.index, attempt: 1, at: now)
        case .finished(let state, let message):
            let begun = items.withLock { $0.removeValue(forKey: key) }
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
                    step: step, item: item.index, state: state, attempts: begun?.attempt ?? 1, startedAt: begun?.date,
                    finishedAt: now, outputs: encoded, error: message.map { masker($0) }))
            markUnknownOutcomes(step: step, item: item.index, at: now)
        }
    }
}

extension SchedulerEvent.Kind {
    /// Whether this is a step's new attempt.
    fileprivate var isAttempt: Bool {
        if case .progress(.attempt) = self { return true }
        return false
    }
}
