/// The status functions a step's `if` may call. Their names are listed here once, for the checker
/// (`Functions`), the evaluator and the engine; the engine decides their answers in one place
/// (`ConditionFacts.holds`).
package enum StatusFunction: String, CaseIterable, Sendable {
    /// Every need succeeded and the run was not interrupted (the implicit condition).
    case success
    /// Some need, or a step it depends on through its needs, failed, and the run was not interrupted.
    case failure
    /// Always, even after failures or when the run was interrupted.
    case always
    /// The run was interrupted.
    case cancelled
}
