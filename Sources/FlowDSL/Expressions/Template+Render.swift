extension Template {
    /// The text with what is known substituted, for `--dry-run` plans.
    ///
    /// An expression that is a plain reference becomes `placeholder(reference)`, or
    /// `<steps.login.outputs.token>` when that returns `nil` (not known before running; a
    /// caller masks secrets by returning `***`). An expression without references or status
    /// functions is evaluated now (`format('a{0}', 'b')`); any other expression is shown as
    /// `<its source>`.
    package func render(placeholder: (Reference) -> String?) -> String {
        render(known: ConstantContext(), placeholder: placeholder)
    }

    /// Like `render(placeholder:)`, and a compound expression is evaluated against `known` (say,
    /// the inputs and env, but not the steps) when everything it reads is there:
    /// `${{ format('{0}/v{1}', inputs.base, inputs.version) }}` shows its value. One that reads
    /// `secrets` is never evaluated, so a secret cannot reach a plan through a function.
    package func render(known: some EvaluationContext, placeholder: (Reference) -> String?) -> String {
        var output = ""
        for part in parts {
            switch part {
            case .literal(let literal):
                output += literal
            case .expression(let index):
                output += Template.render(expressions[index].expression, known: known, placeholder: placeholder)
            }
        }
        return output
    }

    private static func render(
        _ expression: Expression, known: some EvaluationContext, placeholder: (Reference) -> String?
    ) -> String {
        if expression.references.count == 1, let reference = expression.references.first,
            expression.isPlainReference
        {
            return placeholder(reference) ?? "<\(reference)>"
        }
        let usesStatus = expression.functionCalls.contains { Functions.statusFunctions.contains($0.name) }
        let readsSecrets = expression.references.contains { $0.root == "secrets" }
        if !usesStatus, !readsSecrets, let value = try? expression.evaluate(known) {
            return value.interpolated
        }
        return "<\(expression.source.trimmingWhitespace())>"
    }
}

extension Expression {
    /// The expression is nothing but one reference with a static path, like `inputs.name`.
    var isPlainReference: Bool {
        switch root {
        case .root: return true
        case .access(.root, let accessors):
            return accessors.allSatisfy { accessor in
                switch accessor {
                case .key: return true
                case .index(.literal, _): return true
                case .index: return false
                }
            }
        default: return false
        }
    }
}

/// The context of an expression that reads nothing: no roots, no status functions.
private struct ConstantContext: EvaluationContext {
    func value(ofRoot name: String) -> Value? { nil }
    func statusFunction(_ function: StatusFunction) -> Bool? { nil }
}

extension String {
    /// The text without white space (spaces, tabs, line breaks, Unicode's other spaces) at either end.
    func trimmingWhitespace() -> String {
        let trimmedFront = drop(while: \.isWhitespace)
        var end = trimmedFront.endIndex
        while end > trimmedFront.startIndex {
            let before = trimmedFront.index(before: end)
            guard trimmedFront[before].isWhitespace else { break }
            end = before
        }
        return String(trimmedFront[..<end])
    }
}
