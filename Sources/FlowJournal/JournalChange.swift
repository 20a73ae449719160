import Foundation

/// One thing that happened in a run; `Journal.record` queues it for the journal's writer.
///
/// `item` is the `for-each` item's index, nil for a step without items.
package enum JournalChange: Sendable {
    /// An attempt of a step (or item) started; `attempt` counts from 1.
    case stepStarted(run: String, step: String, item: Int?, attempt: Int, at: Date)
    /// A step (or item) ended in `state`, with what is kept of its outputs (`.secret` when they
    /// held a secret: not stored, and the step runs again on resume).
    case stepFinished(
        run: String, step: String, item: Int?, state: JournalStepState, attempts: Int,
        startedAt: Date?, finishedAt: Date, outputs: JournalOutputs, error: String?)
    /// An unsafe (non-idempotent, unkeyed) request is about to be sent: its outcome is unknown until
    /// the step's `stepFinished`.
    case unsafeSend(run: String, step: String, item: Int?, at: Date)
    /// A transfer's session: `kind` is tus, content-range or download; `target` the tus URL, PUT URL or
    /// file path; `fileIdentity` the local file's path+size+mtime or hash. Replaces the step's earlier
    /// record of the same kind.
    case transfer(
        run: String, step: String, item: Int?, kind: String, target: String, bytesConfirmed: Int64,
        fileIdentity: String)
    /// The run ended: succeeded, failed or interrupted.
    case runFinished(run: String, state: JournalRunState, at: Date)
    /// The run's step definition hashes (replacing those `beginRun` stored): recorded right after
    /// it, so that computing and writing a large workflow's hashes does not delay its first step.
    /// Changes are committed in order, so no step of the run is in the journal without them.
    case stepHashes(run: String, hashes: StepHashes)
    /// Step definition hashes shared by every run that names `key` in its `NewRun` (the runs of one
    /// file text): `hashes` is called and its result written only when the journal does not have
    /// them yet, so a file run again costs neither. Whoever makes the key must make it change
    /// whenever the hashes could (the file's text, how hashes are computed).
    case sharedStepHashes(key: String, hashes: @Sendable () -> StepHashes)
    /// Deletes old runs of `file`, keeping `kept` (see the rule in `Journal`); `beginRun` records it,
    /// so that a new run does not wait while its file's oldest run's rows are deleted.
    case pruneRuns(file: String, keeping: Int)
    /// A change made on the journal's thread just before it is written, in its place among the
    /// others: for work the recording thread should not wait for, such as encoding a step's outputs.
    case deferred(@Sendable () -> JournalChange)
}
