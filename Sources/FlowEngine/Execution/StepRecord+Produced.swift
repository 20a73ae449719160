/// What a finished step's record holds besides its state, read in one place: a failed `for-each`
/// keeps its items so far in its `ForEachFailure`, a failed `repeat` its count in its
/// `RepetitionFailure`, and every reader (reports, summaries, expressions, the journal) asks here
/// rather than looking inside the error.
extension StepRecord where Output == StepResult {
    /// The step's result: its output when it succeeded; for a `for-each` step that failed, its
    /// result with the items so far (`ForEachFailure.partial`); nil otherwise.
    package var produced: StepResult? {
        output ?? (error as? ForEachFailure)?.partial
    }

    /// The items of a `for-each` step, finished or so far when it failed; nil for another step.
    package var items: [ItemResult]? {
        produced?.items
    }

    /// How many times a step with `repeat` ran, whether it succeeded or its attempts ran out;
    /// nil for another step.
    package var repetitions: Int? {
        output?.repetitions ?? (error as? RepetitionFailure)?.repetitions
    }
}
