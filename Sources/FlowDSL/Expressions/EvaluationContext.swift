/// What an expression can read: the engine (or a checker, or a test) supplies the roots' values
/// and answers the status functions.
package protocol EvaluationContext {
    /// The value of a root such as `inputs` or `steps`; `nil` when the root is unknown or not
    /// available where the expression is evaluated (evaluation then fails with a clear error).
    func value(ofRoot name: String) -> Value?
    /// The answer of `success()`, `failure()`, `always()` or `cancelled()` for the step being
    /// decided; `nil` where status functions make no sense (evaluation then fails).
    func statusFunction(_ function: StatusFunction) -> Bool?
    /// Why reading `key` of the root `name` (`result.json`) must fail rather than give a value,
    /// or `nil` when it reads normally. Asked only for the first property read from a root.
    func problem(reading key: String, ofRoot name: String) -> String?
    /// The folder `files('glob')` matches in (the workflow file's); `nil` where files cannot be
    /// listed (evaluation then fails with a clear error).
    var filesFolder: String? { get }
    /// The answer of `idempotencyKey()`: a key stable for the step (and item) being run across the
    /// run's resumes and retries; `nil` where no step runs (evaluation then fails, and a dry run
    /// shows a placeholder).
    func idempotencyKey() -> String?
    /// Now, in seconds since 1970-01-01T00:00:00Z, for `daysBeforeNow()` and `daysAfterNow()`;
    /// `nil` where no workflow runs (evaluation then fails, and a dry run shows a placeholder).
    func currentTime() -> Double?
}

extension EvaluationContext {
    /// Every property of every root reads normally.
    package func problem(reading key: String, ofRoot name: String) -> String? { nil }
    /// No folder: `files()` is not available.
    package var filesFolder: String? { nil }
    /// No step runs: `idempotencyKey()` is not available.
    package func idempotencyKey() -> String? { nil }
    /// No clock: `daysBeforeNow()` and `daysAfterNow()` are not available.
    package func currentTime() -> Double? { nil }
}
