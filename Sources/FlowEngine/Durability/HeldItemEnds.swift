import FlowDSL
import FlowTasks
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
    /// The ends, this batch's alone (the run's queue holds them no more): boxed so that `forEach`
    /// can empty them in place and hand their storage back.
    private let ends: LockedBox<[HeldItemEnd]>
    private let masker: SecretMasker
    /// Takes the emptied array back to the run's queue, which fills it again (see `forEach`).
    private let giveBack: @Sendable (_ emptied: [HeldItemEnd]) -> Void

    /// How many ends it holds.
    package let count: Int

    init(ends: [HeldItemEnd], masker: SecretMasker, giveBack: @escaping @Sendable (_ emptied: [HeldItemEnd]) -> Void) {
        count = ends.count
        self.ends = LockedBox(ends)
        self.masker = masker
        self.giveBack = giveBack
    }

    /// A succeeded item's outputs as the journal keeps them.
    package enum Outputs {
        /// `{"item":N}`: a whole-number item without outputs and with no secret in the run, given
        /// as its number so that the recorder writes its text without making a `String`.
        case wholeNumber(Int64)
        /// Any other (see `StepOutputs`).
        case other(StepOutputs)
    }

    /// Gives each end in order: its step, item, state, attempts, start, end, outputs and masked
    /// error, as `RunRecorder.stepFinished` would have had them. Once: the ends are gone after.
    ///
    /// Their array is then emptied here, keeping its storage, and handed back to the run's queue
    /// to hold the next ends: a new array a batch grew by doubling, each time copied into memory
    /// the kernel had to fault in on the run's queue (BENCHMARKS.md, "Run journal", round nine).
    package func forEach(
        _ body: (
            _ step: String, _ item: Int, _ state: StepState, _ attempts: Int, _ startedAt: Date?, _ finishedAt: Date,
            _ outputs: Outputs, _ error: String?
        ) -> Void
    ) {
        let unmasked = masker.isEmpty
        let emptied: [HeldItemEnd] = ends.withLock { ends in
            for end in ends {
                body(
                    end.step, end.index, end.state, end.attempts, end.startedAt, end.finishedAt,
                    end.outputs(masker: masker, unmasked: unmasked), end.message.map { unmasked ? $0 : masker($0) })
            }
            // The box holds the only reference: emptied in place.
            ends.removeAll(keepingCapacity: true)
            defer { ends = [] }
            return ends
        }
        giveBack(emptied)
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
    /// What a succeeded item keeps, unmasked.
    let kept: Kept
    /// Why it did not succeed, unmasked.
    let message: String?

    /// A succeeded item's value and outputs.
    enum Kept {
        /// Not a succeeded item.
        case nothing
        /// A whole number without outputs (most items of a long list): the number alone, no value
        /// or outputs to copy and release (`{"item":N}`).
        case wholeNumber(Int64)
        case value(Value, outputs: [String: Value])

        init(item: Value, outputs: [String: Value]) {
            if let number = JournalEntryText.wholeNumberItem(item: item, outputs: outputs) {
                self = .wholeNumber(number)
            } else {
                self = .value(item, outputs: outputs)
            }
        }
    }

    /// A succeeded item keeps its value and outputs, so that a resume need not run it again;
    /// never when they hold a secret value (then it runs again).
    func outputs(masker: SecretMasker, unmasked: Bool) -> ItemEndBatch.Outputs {
        let text: String
        switch kept {
        case .nothing: return .other(.none)
        case .wholeNumber(let number):
            if unmasked { return .wholeNumber(number) }
            // The value's text (`JournalEntryText.wholeNumberItem`).
            text = #"{"item":\#(number)}"#
        case .value(let item, let outputs):
            text = PriorItem(item: item, outputs: outputs).jsonText
        }
        return .other(unmasked || masker(text) == text ? .json(text) : .secret)
    }
}
