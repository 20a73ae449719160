import FlowDSL

/// One item of a `for-each` step once it is final: `steps.<id>.items[i]` and the report's `fetch[3]`.
package struct ItemResult: Sendable {
    /// The item as the step read it.
    package let item: Value
    /// `succeeded`, `failed`, or `cancelled` (stopped by fail-fast, a won race, or the run's end);
    /// `skipped` for an item never started.
    package let state: StepState
    /// Its outputs (empty unless it succeeded).
    package let outputs: [String: Value]
    /// Why it failed or was cancelled, already masked.
    package let error: String?
    /// Its attempts (0 when never started).
    package let attempts: Int

    /// Creates an item's result.
    package init(item: Value, state: StepState, outputs: [String: Value], error: String?, attempts: Int) {
        self.item = item
        self.state = state
        self.outputs = outputs
        self.error = error
        self.attempts = attempts
    }

    /// `{item, status, outputs}` as `steps.<id>.items` gives it.
    var value: Value {
        .object(["item": item, "status": .string(state.rawValue), "outputs": .object(outputs)])
    }
}

/// Progress of one item of a `for-each` step, reported as `StepProgress.item`.
package struct ItemProgress: Sendable, Equatable {
    /// What happened to the item.
    package enum Event: Sendable, Equatable {
        /// It started.
        case started
        /// It ended in this state (`succeeded`, `failed` or `cancelled`), with why when it did not succeed.
        case finished(StepState, message: String?)
    }

    /// The item's position, from 0.
    package let index: Int
    /// How many items the step has.
    package let total: Int
    /// What happened.
    package let event: Event
    /// Items final so far, this one included.
    package let finished: Int
    /// Items failed so far.
    package let failed: Int
    /// The item's value, short and masked, for messages (`"b.csv"`).
    package let label: String
    /// The item's value as the step read it (not masked: for the journal, which masks it).
    package let item: Value
    /// A succeeded item's outputs (not masked); empty otherwise.
    package let outputs: [String: Value]
    /// A finished item's attempts, as its `ItemResult` has them (0 for an item kept by a resume).
    package let attempts: Int
    /// For a start: it came right after an end of another of the step's items, in the same turn
    /// of the run's queue (the next item of the list once one ends), so that its start is that
    /// end's reading of the clock: the journal reads the clock once an item, not twice (Grammar,
    /// "What 'on disk' means"; BENCHMARKS.md, "Run journal", round nine).
    package let followsEnd: Bool

    /// Creates an item's progress.
    package init(
        index: Int, total: Int, event: Event, finished: Int, failed: Int, label: String, item: Value = .null,
        outputs: [String: Value] = [:], attempts: Int = 1, followsEnd: Bool = false
    ) {
        self.followsEnd = followsEnd
        self.item = item
        self.outputs = outputs
        self.attempts = attempts
        self.index = index
        self.total = total
        self.event = event
        self.finished = finished
        self.failed = failed
        self.label = label
    }
}

/// A `for-each` step that did not succeed: the first failed item's error, named by step, index and
/// value, with the items' results so far (read as `steps.<id>.items` and in reports).
package struct ForEachFailure: LocatedFailure, Sendable {
    /// What went wrong, already masked.
    package let message: String
    /// Where the failing thing is written (the item's error's place, or `for-each:`).
    package let location: SourceLocation
    /// The step's result with the items so far (outputs as lists, `null` where an item did not succeed).
    package let partial: StepResult

    /// The message.
    package var description: String { message }
}
