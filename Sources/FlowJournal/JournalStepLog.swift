import Foundation

/// Step changes being added to a run's `step_log` cell by a tail (see `Journal.addTail`): the
/// same bytes as `Journal.recordStepFinished` writes for each.
package struct JournalStepLog {
    var encoder: StepLogEncoder

    /// Adds a `stepFinished` change with these fields (see `Journal.recordStepFinished`).
    package mutating func addFinished(
        step: String, item: Int?, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
        outputs: JournalOutputs, error: String?
    ) {
        encoder.addFinished(
            step: step, item: item, state: state, attempts: attempts, startedAt: startedAt,
            finishedAt: finishedAt, outputs: outputs, error: error)
    }
}
