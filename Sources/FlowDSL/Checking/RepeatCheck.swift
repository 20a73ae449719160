/// The checks of `repeat:` beyond its shape: where `previous` and `attempt` may be read, a
/// condition that cannot change between attempts, a `collect` entry that gathers no response,
/// and a `collect` name that is also an output.
enum RepeatCheck {
    /// The problem with reading `previous` or `attempt` at `site`, if any.
    static func problem(readingLocal name: String, at site: ExpressionSite) -> (message: String, hint: String?)? {
        let step: Step
        switch site.scope {
        case .workflow, .workflowOutputs:
            return (
                "'\(name)' is only available in a step with 'repeat'",
                "workflow-level values are known before any step runs"
            )
        case .step(let owner), .stepResult(let owner):
            step = owner
        }
        guard step.repeat != nil else {
            return (
                "'\(name)' is only available in a step with 'repeat'; step '\(Echo.text(step.id))' has none",
                "add 'repeat: { until: … }' to the step, or read another step's values through steps.<id>.outputs.<name>"
            )
        }
        if site.conditionKey == "if" {
            return (
                "'\(name)' is not known in the 'if' of step '\(Echo.text(step.id))': it is decided before the first attempt",
                "read '\(name)' in the request, the command, 'expect', 'outputs' or the 'repeat' condition"
            )
        }
        return nil
    }

    /// An error for each certain mistake in the `repeat` rules of `workflow`.
    static func diagnostics(in workflow: Workflow) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for step in workflow.allSteps {
            guard let rule = step.repeat else { continue }
            let key = rule.mode.rawValue
            if let roots = roots(of: rule.condition, bare: true),
                roots.isDisjoint(with: ["result", "previous", "attempt"])
            {
                diagnostics.append(
                    .error(
                        "the '\(key)' condition of step '\(Echo.text(step.id))' reads neither 'result', 'previous' nor 'attempt', so every attempt gives the same answer",
                        at: rule.condition.location,
                        length: width(rule.condition),
                        hint: "read the attempt's response, e.g. '\(key): ${{ result.json.state == 'done' }}'"
                    ))
            }
            for entry in rule.collect {
                if let roots = roots(of: entry.value, bare: false), !roots.contains("result") {
                    diagnostics.append(
                        .error(
                            "'collect' entry '\(Echo.text(entry.name))' of step '\(Echo.text(step.id))' does not read 'result'",
                            at: entry.location,
                            length: entry.name.count,
                            hint:
                                "collect gathers a value from each attempt's response, e.g. '\(entry.name): ${{ result.json.items }}'"
                        ))
                }
                if step.outputs.contains(where: { $0.name == entry.name }) {
                    diagnostics.append(
                        .error(
                            "step '\(Echo.text(step.id))' has both an output and a 'collect' entry named '\(Echo.text(entry.name))'",
                            at: entry.location,
                            length: entry.name.count,
                            hint:
                                "a 'collect' entry is an output of its own (steps.\(step.id).outputs.\(entry.name)); rename one"
                        ))
                }
            }
        }
        return diagnostics
    }

    /// The roots `text` reads; nil when it does not compile (reported elsewhere). A `bare` text
    /// (a condition) may be one expression written without `${{ }}`.
    private static func roots(of text: ScalarText, bare: Bool) -> Set<String>? {
        if bare, let expression = text.conditionExpression {
            return Set(expression.references.map(\.root))
        }
        guard let template = text.template else { return nil }
        return Set(template.expressions.flatMap(\.expression.references).map(\.root))
    }

    private static func width(_ text: ScalarText) -> Int {
        text.text.contains("\n") ? 1 : text.text.count
    }
}
