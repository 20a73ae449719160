import FlowTasks
import Foundation

/// Where a run tells what happens to it, so that a later `flow run --resume` can continue it (the
/// journal, in the `flow` target). Every call is made on the run's queue and must return at once:
/// an implementation queues the change and writes it on a thread of its own.
package protocol RunRecorder: Sendable {
    /// Lets the recorder hold back the starts of the run's own steps and of their `for-each` items:
    /// most end within one of the recorder's batches, and their finish carries their start, so one
    /// change is written for them instead of two. `running` returns the steps and items started
    /// since it was last called that are still running; the recorder calls it on its own thread
    /// before it writes each batch, and writes those starts first in it. The returned closure is called when a start is held back
    /// and none was before, so that the recorder writes a batch even if nothing else happens.
    func holdStarts(running: @escaping @Sendable () -> [HeldStart]) -> @Sendable () -> Void
    /// A step or item reached a final state.
    func stepFinished(_ finish: StepFinish)
    /// Lets the recorder take `for-each` items' ends in bulk rather than one `stepFinished` call
    /// each on the run's queue: `take` returns the ends recorded since it was last called, in
    /// order (nil when none), for the recorder to encode on its own thread. The recorder calls
    /// `take` when it cuts each batch and before it records any other change of the run, so that
    /// every change keeps its order. nil (the default): the recorder is given each end by
    /// `stepFinished`.
    func holdItemEnds(_ take: @escaping @Sendable () -> ItemEndBatch?) -> HeldItemEnds?
    /// A request whose repetition is not safe (non-idempotent method, no `Idempotency-Key`) is
    /// about to be sent by `step`. The future completes once that fact is durable (the write-ahead):
    /// only then is the request sent. It fails when the fact cannot be written.
    func unsafeSend(_ step: String, item: Int?, at date: Date) -> Future<Void>
    /// An upload's (or resumable download's) session, and the bytes the server has confirmed.
    func transfer(_ session: TransferSession)
}

/// The start of a step whose start was held back (see `RunRecorder.holdStarts`).
package struct HeldStart: Sendable, Equatable {
    /// The step's id.
    package let step: String
    /// The `for-each` item's index, for an item's start (held back as steps' are); nil for a step.
    package var item: Int? = nil
    /// The attempt running now, from 1.
    package let attempt: Int
    /// When its first attempt started.
    package let at: Date
}

/// A step's or item's final state as the journal keeps it: outputs as JSON text, never a secret.
package struct StepFinish: Sendable {
    /// The step's id (qualified, `deploy/publish`, for a step of a called file).
    package let step: String
    /// The item's index, for one item of a `for-each` step.
    package let item: Int?
    /// `succeeded`, `failed`, `skipped` or `cancelled`.
    package let state: StepState
    /// Attempts made.
    package let attempts: Int
    /// When it started, if it did.
    package let startedAt: Date?
    /// When it ended.
    package let finishedAt: Date
    /// The outputs (see `StepOutputs`).
    package let outputs: Outputs

    /// A finished step's outputs: ready when there was nothing to encode (a step's state alone,
    /// most steps), else how to encode them. Encoding is most of what recording a step costs, so
    /// a recorder encodes off the run's queue, on the thread that writes the change.
    package enum Outputs: Sendable {
        /// Nothing to encode.
        case ready(StepOutputs)
        /// Encodes them.
        case encode(@Sendable () -> StepOutputs)

        /// The outputs, encoded now if they were not.
        package func make() -> StepOutputs {
            switch self {
            case .ready(let outputs): outputs
            case .encode(let encode): encode()
            }
        }
    }
    /// Why it failed, masked.
    package let error: String?
}

/// A finished step's or item's outputs as the journal keeps them.
package enum StepOutputs: Sendable, Equatable {
    /// Nothing to keep: an item that did not succeed.
    case none
    /// The step's record is its state alone: no outputs, items, error or winner (most steps).
    /// `JournalEntry.decode` makes the record again from the state.
    case stateOnly
    /// A step's record as `StepRecordsFile` encodes it (status, outputs, items, error), or an
    /// item's value and outputs (`PriorItem.jsonText`), as JSON text.
    case json(String)
    /// The outputs held a secret value: they are not kept, and the step runs again on resume.
    case secret
}

/// An upload's session: what a resumed run needs to continue it on the server instead of starting over.
package struct TransferSession: Sendable, Equatable {
    /// The step's id.
    package let step: String
    /// The item's index, for an upload in a `for-each` step.
    package let item: Int?
    /// `tus`, `content-range` or `download`.
    package let kind: String
    /// The tus upload URL, or the URL the Content-Range chunks go to.
    package let target: String
    /// Bytes the server has confirmed.
    package let bytesConfirmed: Int64
    /// The file's path, size and modification time: a changed file is uploaded again from the start.
    package let fileIdentity: String

    /// A transfer session.
    package init(
        step: String, item: Int?, kind: String, target: String, bytesConfirmed: Int64, fileIdentity: String
    ) {
        self.step = step
        self.item = item
        self.kind = kind
        self.target = target
        self.bytesConfirmed = bytesConfirmed
        self.fileIdentity = fileIdentity
    }
}
