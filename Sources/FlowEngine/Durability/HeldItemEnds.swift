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
    package func holdItemEnds(_ take: @escaping @Sendable () -> ItemEndBatch?) -> HeldItemEnds? {
        nil
    }
}

/// Items' ends taken from the run's queue, in order (see `RunRecorder.holdItemEnds`).
package struct ItemEndBatch: Sendable {
    let ends: [HeldItemEnd]
    let masker: SecretMasker

    /// How many ends it holds.
    package var count: Int { ends.count }

    /// A succeeded item's outputs as the journal keeps them.
    package enum Outputs {
        /// `{"item":N}`: a whole-number item without outputs and with no secret in the run, given
        /// as its number so that the recorder writes its text without making a `String`.
        case wholeNumber(Int64)
        /// Any other (see `StepOutputs`).
        case other(StepOutputs)
    }

    /// Gives each end in order: its step, item, state, attempts, start, end, outputs and masked
    /// error, as `RunRecorder.stepFinished` would have had them.
    package func forEach(
        _ body: (
            _ step: String, _ item: Int, _ state: StepState, _ attempts: Int, _ startedAt: Date?, _ finishedAt: Date,
            _ outputs: Outputs, _ error: String?
        ) -> Void
    ) {
        let unmasked = masker.isEmpty
        for end in ends {
            body(
                end.step, end.index, end.state, end.attempts, end.startedAt, end.finishedAt,
                end.outputs(masker: masker, unmasked: unmasked), end.message.map { unmasked ? $0 : masker($0) })
        }
    }
}

/// A `for-each` item's end as the run's queue keeps it for the recorder: the event's fields as
/// they are, nothing encoded. Its text (the item's JSON, the masking) is made on the recorder's
/// thread (BENCHMARKS.md, "Run journal", round seven).
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

    /// A succeeded item keeps its value and outputs, so that a resume need not run it again;
    /// never when they hold a secret value (then it runs again).
    func outputs(masker: SecretMasker, unmasked: Bool) -> ItemEndBatch.Outputs {
        guard state == .succeeded else { return .other(.none) }
        if unmasked, let number = JournalEntryText.wholeNumberItem(item: item, outputs: outputs) {
            return .wholeNumber(number)
        }
        let text = PriorItem(item: item, outputs: outputs).jsonText
        return .other(unmasked || masker(text) == text ? .json(text) : .secret)
    }
}
