import FlowDSL
import Foundation

/// What a recorder that takes `for-each` items' ends in bulk asks of the run (see
/// `RunRecorder.holdItemEnds`).
package struct HeldItemEnds: Sendable {
    /// Ends held this many at once are to be written at once (the recorder's batch size).
    package let limit: Int
    /// Called on the run's queue with the count of ends held when it reaches 1 (the recorder
    /// writes them within its batch window) or a multiple of `limit` (at once).
    package let waiting: @Sendable (_ count: Int) -> Void

    /// A recorder's answer.
    package init(limit: Int, waiting: @escaping @Sendable (_ count: Int) -> Void) {
        self.limit = limit
        self.waiting = waiting
    }
}

extension RunRecorder {
    /// Takes each end by `stepFinished`.
    package func holdItemEnds(_ take: @escaping @Sendable (_ each: (StepFinish) -> Void) -> Void) -> HeldItemEnds? {
        nil
    }
}

/// A `for-each` item's end as the run's queue keeps it for the recorder: the event's fields as
/// they are, nothing encoded. Its `StepFinish` (the item's JSON text, the masking) is made on the
/// recorder's thread (BENCHMARKS.md, "Run journal", round seven).
struct HeldItemEnd {
    let step: String
    let index: Int
    let state: StepState
    let attempts: Int
    let startedAt: Date?
    let finishedAt: Date
    /// The item's value and outputs, unmasked (kept only for a succeeded item).
    let item: Value
    let outputs: [String: Value]
    /// Why it did not succeed, unmasked.
    let message: String?

    /// The end as `RunRecorder.stepFinished` takes it: a succeeded item keeps its value and
    /// outputs, so that a resume need not run it again, never when they hold a secret value (then
    /// it runs again).
    func finish(masker: SecretMasker) -> StepFinish {
        let outputs: StepOutputs
        if state != .succeeded {
            outputs = .none
        } else {
            let text = PriorItem(item: item, outputs: self.outputs).jsonText
            outputs = masker.isEmpty || masker(text) == text ? .json(text) : .secret
        }
        return StepFinish(
            step: step, item: index, state: state, attempts: attempts, startedAt: startedAt, finishedAt: finishedAt,
            outputs: .ready(outputs), error: message.map { masker($0) })
    }
}
