import FlowDSL

/// The values expressions can read at one point of a run: the roots `inputs`, `env`, `secrets`,
/// `steps` and, in a step's own `expect` and `outputs`, `result`.
struct ExpressionScope: EvaluationContext {
    let inputs: Value
    let env: Value
    let secrets: Value
    /// Only the steps the expression reads (found from its references), so evaluating stays cheap
    /// in a 10,000-step run.
    let steps: Value
    let result: Value?
    let facts: ConditionFacts?

    func value(ofRoot name: String) -> Value? {
        switch name {
        case "inputs": return inputs
        case "env": return env
        case "secrets": return secrets
        case "steps": return steps
        case "result": return result
        default: return nil
        }
    }

    func statusFunction(_ name: String) -> Bool? {
        switch name {
        case "always": return true
        case "success": return facts.map { $0.needsSucceeded && !$0.runCancelled } ?? true
        case "failure": return facts.map { $0.upstreamFailed && !$0.runCancelled } ?? false
        case "cancelled": return facts?.runCancelled ?? false
        default: return nil
        }
    }
}

/// The fixed roots of a run, and how to build a scope for one evaluation.
struct RunValues: Sendable {
    let inputs: Value
    let env: Value
    let secrets: Value

    /// A scope for evaluating `texts`, with the records of the steps they read.
    func scope(
        for texts: [ScalarText], records: RunRecords<StepResult>, result: Value? = nil,
        facts: ConditionFacts? = nil
    ) -> ExpressionScope {
        var steps: [String: Value] = [:]
        for text in texts {
            for id in Self.stepsRead(by: text) where steps[id] == nil {
                if let record = records[id] { steps[id] = Self.value(of: record) }
            }
        }
        return ExpressionScope(
            inputs: inputs, env: env, secrets: secrets, steps: .object(steps), result: result, facts: facts)
    }

    /// The ids `steps.<id>` names in `text`.
    static func stepsRead(by text: ScalarText) -> [String] {
        let expressions: [Expression]
        if let template = text.template, !template.isLiteral {
            expressions = template.expressions.map(\.expression)
        } else if let bare = try? Expression.parse(text.text) {
            expressions = [bare]
        } else {
            expressions = []
        }
        return expressions.flatMap(\.references).compactMap { reference in
            guard reference.root == "steps", case .key(let id)? = reference.path.first else { return nil }
            return id
        }
    }

    /// `steps.<id>` as expressions see it: `status`, `outputs`, and `winner` for an `any` group.
    static func value(of record: StepRecord<StepResult>) -> Value {
        var fields: [String: Value] = [
            "status": .string(record.state.rawValue),
            "outputs": .object(record.output?.outputs ?? [:]),
        ]
        if let winner = record.winner { fields["winner"] = .string(winner) }
        return .object(fields)
    }
}
