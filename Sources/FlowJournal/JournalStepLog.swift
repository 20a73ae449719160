import Foundation

/// Step changes being added to a run's `step_log` cell by a tail (see `Journal.addTail`): the
/// same bytes as `Journal.recordStepFinished` writes for each.
package struct JournalStepLog {
    var encoder: StepLogEncoder

    /// Makes room for `bytes` more bytes at once (a batch of items' ends: about 46 bytes each),
    /// rather than growing the cell again and again.
    package mutating func reserve(_ bytes: Int) {
        encoder.reserve(bytes)
    }

    /// Adds a `stepFinished` change with these fields (see `Journal.recordStepFinished`).
    package mutating func addFinished(
        step: String, item: Int?, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
        outputs: JournalOutputs, error: String?
    ) {
        encoder.addFinished(
            step: step, item: item, state: state, attempts: attempts, startedAt: startedAt,
            finishedAt: finishedAt, outputs: outputs, error: error)
    }

    /// Adds a succeeded `for-each` item's end whose outputs are `{"item":N}` (a whole-number item
    /// without outputs, no error): the change `addFinished` with that text would add, read back the
    /// same, in a few bytes (`StepLogEncoder.addItemEnd`, format 6).
    package mutating func addItemFinished(
        step: String, item: Int, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
        wholeNumber: Int64
    ) {
        encoder.addItemEnd(
            step: step, item: item, state: state, attempts: attempts, startedAt: startedAt, finishedAt: finishedAt,
            wholeNumber: wholeNumber)
    }
}
