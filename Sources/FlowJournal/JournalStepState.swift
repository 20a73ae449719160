/// A step's (or a `for-each` item's) state in the journal, in the journal's own terms (it knows
/// nothing of the engine, whose `StepState` has the same cases and names): a value, not a word
/// both sides spell.
package enum JournalStepState: String, Sendable, Codable, CaseIterable {
    /// Waiting for its needs, its group, or a free slot.
    case pending
    /// An attempt is in flight (or was when the run stopped).
    case running
    /// It finished and succeeded.
    case succeeded
    /// It finished and failed.
    case failed
    /// It was not run: its condition was false, or a need failed.
    case skipped
    /// It was stopped, or never started, because the run or its group was cancelled.
    case cancelled
}
