import FlowDSL

/// How a step with `repeat` failed: its attempts ran out with the condition unmet, or one attempt
/// failed (after its retries). Carries the repetitions made, for reports.
package struct RepetitionFailure: LocatedFailure, Sendable {
    /// What went wrong, already masked.
    package let message: String
    /// The condition when the attempts ran out; else where the attempt failed.
    package let location: SourceLocation
    /// What to do about it, when flow knows.
    package let hint: String?
    /// The attempts of the repetition that started, the failed one included.
    package let repetitions: Int

    /// The message (the location is shown separately).
    package var description: String { message }
}
