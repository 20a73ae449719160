import FlowTasks
import Foundation

/// Turns a run's scheduler events into `RunRecorder` calls: each step's and each `for-each`
/// item's start and end, with attempts, times and outputs (secret-free, see `JournalEntry`).
/// Called on the run's queue, in order; the recorder queues and returns.
final class RunRecording: Sendable {
    private let recorder: any RunRecorder
    private let masker: SecretMasker
    /// For each of the run's own steps (events of called files' steps are not recorded as its
    /// own), when it started and its latest attempt; one lookup an event. Touched only on the
    /// run's queue; the box makes that checkable.
    private let steps: LockedBox<[String: (date: Date, attempt: Int)?]>
    /// The same for each `for-each` item.
    private let items = LockedBox<[TransferKey: (date: Date, attempt: Int)]>([:])

    /// Unsafe requests whose answer never came (see `OpenUnsafeSends`).
    private let openSends: OpenUnsafeSends

    init(recorder: any RunRecorder, masker: SecretMasker, ids: Set<String>, openSends: OpenUnsafeSends) {
        self.openSends = openSends
        self.recorder = recorder
        self.masker = masker
        steps = LockedBox(Dictionary(uniqueKeysWithValues: ids.map { ($0, nil) }))
    }

    func handle(_ event: SchedulerEvent<StepResult>) {
        if case .progress(let progress) = event.kind {
            // Lines and bytes, most progress, are not journaled.
            switch progress {
            case .attempt, .item: break
            default: return
            }
        }
        let now = Date()
        // nil: not one of the run's own steps; then the step's start, if it started.
        let begun: (date: Date, attempt: Int)?? = steps.withLock { steps in
            guard let index = steps.index(forKey: event.id) else { return nil }
            let begun = steps.values[index]
            switch event.kind {
            case .started: steps.values[index] = (now, 1)
            case .progress(.attempt(let attempt)): steps.values[index]?.attempt = attempt
            case .finished: steps.values[index] = nil
            case .progress: break
            }
            return .some(begun)
        }
        guard let begun else { return }
        switch event.kind {
        case .started:
            recorder.stepStarted(event.id, item: nil, attempt: 1, at: now)
        case .progress(.item(let item)):
            itemChanged(event.id, item, at: now)
        case .progress:
            break
        case .finished:
            let (record, masker) = (event.record, masker)
            let outputs: @Sendable () -> StepOutputs
            if let text = JournalEntry.plainText(record) {
                // Nothing to encode: the record is not kept alive for the journal's thread.
                let ready = StepOutputs(json: text, containsSecret: false)
                outputs = { ready }
            } else {
                outputs = {
                    let (json, containsSecret) = JournalEntry.encode(record, masker: masker)
                    return StepOutputs(json: json, containsSecret: containsSecret)
                }
            }
            recorder.stepFinished(
                StepFinish(
                    step: event.id, item: nil, state: record.state,
                    attempts: record.output?.attempts ?? begun?.attempt ?? 0, startedAt: begun?.date,
                    finishedAt: now, outputs: outputs, error: record.error.map { masker(String(describing: $0)) }))
            markUnknownOutcomes(step: event.id, item: nil, at: now)
        }
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
            recorder.stepFinished(
                StepFinish(
                    step: step, item: item.index, state: state, attempts: begun?.attempt ?? 1, startedAt: begun?.date,
                    finishedAt: now,
                    outputs: {
                        guard state == .succeeded else { return StepOutputs(json: nil, containsSecret: false) }
                        let text = PriorItem(item: value, outputs: outputs).jsonText
                        let containsSecret = !masker.isEmpty && masker(text) != text
                        return StepOutputs(json: containsSecret ? nil : text, containsSecret: containsSecret)
                    },
                    error: message.map { masker($0) }))
            markUnknownOutcomes(step: step, item: item.index, at: now)
        }
    }
}
