import FlowDSL
import Foundation

/// `idempotencyKey()`: a key derived from the run's id, the step's id and the `for-each` item's
/// index, so that it is the same for each retry of the step and each resume of the run (the
/// journal keeps the run's id), and differs between steps, items and runs. Formatted like a UUID.
enum IdempotencyKey {
    /// The local, under a name no expression can spell, that carries the run and step a scope
    /// evaluates for (see `WorkflowRun.leaf`).
    static let local = "\u{1}idempotency"

    /// `start` with the step's seed in its locals.
    static func seeded(_ start: StepStart<StepResult>, step: String, values: RunValues) -> StepStart<StepResult> {
        var start = start
        start.locals[local] = .string(values.keySeed + step)
        return start
    }

    /// The key for a scope's locals; nil when no step is being run.
    static func key(locals: [String: Value]) -> String? {
        guard case .string(let seed)? = locals[local] else { return nil }
        var source = seed
        if case .number(let index, _)? = locals[ForEach.indexName] { source += "#\(Int(index))" }
        let hex = Array(StepDefinitionHash.digest(source).prefix(32))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        return groups.joined(separator: "-")
    }
}
