import Dispatch
import FlowEngine
import FlowJournal
import FlowTasks
import Foundation

/// The run's `RunRecorder` written to FlowJournal's `Journal`: each call queues a change and
/// returns; the journal's own thread batches them into transactions.
final class JournalRecorder: RunRecorder {
    let journal: Journal
    let runID: String
    /// Where the write-ahead's future completes (the journal calls back on its own thread).
    private let queue = DispatchQueue(label: "flow.journal.flushed")

    init(journal: Journal, runID: String) {
        self.journal = journal
        self.runID = runID
    }

    func holdStarts(running: @escaping @Sendable () -> [HeldStart]) -> @Sendable () -> Void {
        let runID = runID
        journal.addBatchSource {
            running().map { .stepStarted(run: runID, step: $0.step, item: $0.item, attempt: $0.attempt, at: $0.at) }
        }
        let journal = journal
        return { journal.wake() }
    }

    func holdItemEnds(_ take: @escaping @Sendable () -> ItemEndBatch?) -> HeldItemEnds? {
        // Taken under the journal's lock, encoded on its thread when it writes the batch, into
        // the same bytes as `stepFinished` writes.
        journal.addTail(run: runID) {
            guard let batch = take() else { return nil }
            return { log in
                log.reserve(batch.count * 48)
                batch.forEach { step, item, state, attempts, startedAt, finishedAt, outputs, error in
                    switch outputs {
                    case .wholeNumber(let number):
                        log.addItemFinished(
                            step: step, item: item, state: JournalStepState(state), attempts: attempts,
                            startedAt: startedAt, finishedAt: finishedAt, wholeNumber: number)
                    case .other(let outputs):
                        log.addFinished(
                            step: step, item: item, state: JournalStepState(state), attempts: attempts,
                            startedAt: startedAt, finishedAt: finishedAt, outputs: JournalOutputs(outputs),
                            error: error)
                    }
                }
            }
        }
        let journal = journal
        return HeldItemEnds(limit: journal.batchLimit) { count in journal.wake(now: count > 1) }
    }

    func stepFinished(_ finish: StepFinish) {
        let runID = runID
        @Sendable func change(_ outputs: StepOutputs) -> JournalChange {
            .stepFinished(
                run: runID, step: finish.step, item: finish.item, state: JournalStepState(finish.state),
                attempts: finish.attempts, startedAt: finish.startedAt, finishedAt: finish.finishedAt,
                outputs: JournalOutputs(outputs), error: finish.error)
        }
        switch finish.outputs {
        case .ready(let outputs):
            journal.recordStepFinished(
                run: runID, step: finish.step, item: finish.item, state: JournalStepState(finish.state),
                attempts: finish.attempts, startedAt: finish.startedAt, finishedAt: finish.finishedAt,
                outputs: JournalOutputs(outputs), error: finish.error)
        case .encode(let encode):
            // Encoded on the journal's thread, not the run's queue.
            journal.record(.deferred { change(encode()) })
        }
    }

    func unsafeSend(_ step: String, item: Int?, at date: Date) -> Future<Void> {
        journal.record(.unsafeSend(run: runID, step: step, item: item, at: date))
        let promise = Promise<Void>(on: queue)
        journal.flush { error in
            if let error {
                _ = promise.fail(DurabilityError(message: "the journal could not record the send: \(error)"))
            } else {
                _ = promise.succeed(())
            }
        }
        return promise.future
    }

    func transfer(_ session: TransferSession) {
        journal.record(
            .transfer(
                run: runID, step: session.step, item: session.item, kind: session.kind, target: session.target,
                bytesConfirmed: session.bytesConfirmed, fileIdentity: session.fileIdentity))
    }
}

extension JournalOutputs {
    /// What the journal keeps of the outputs the run gave, case for case.
    fileprivate init(_ outputs: StepOutputs) {
        switch outputs {
        case .none: self = .none
        case .stateOnly: self = .stateOnly
        case .json(let text): self = .json(text)
        case .secret: self = .secret
        }
    }
}

extension JournalStepState {
    /// The journal's name for the engine's state, case for case (the two modules know nothing of
    /// each other; this is where they meet).
    fileprivate init(_ state: StepState) {
        switch state {
        case .pending: self = .pending
        case .running: self = .running
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .skipped: self = .skipped
        case .cancelled: self = .cancelled
        }
    }
}

/// A problem of the journal during the run, as a step's failure.
struct DurabilityError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
