import FlowDSL

extension ScalarText {
    /// The value of this text: a literal as written, a single `${{ }}` with its type, anything else
    /// as an interpolated string. Errors point at the expression in the YAML.
    func evaluate(in scope: ExpressionScope) throws(StepError) -> Value {
        if let syntaxError {
            throw StepError("invalid expression: \(syntaxError.message)", at: location(ofOffset: syntaxError.offset))
        }
        guard let template, !template.isLiteral else { return .string(text) }
        do {
            return try template.evaluate(scope)
        } catch {
            throw StepError("cannot evaluate '\(text)': \(error.message)", at: location(ofOffset: error.offset))
        }
    }

    /// The value as text, as it reads inside a string.
    func string(in scope: ExpressionScope) throws(StepError) -> String {
        try evaluate(in: scope).interpolated
    }

    /// A condition's truth: the text may be a bare expression (`always()`) or one `${{ }}`.
    func condition(in scope: ExpressionScope) throws(StepError) -> Bool {
        if let template, !template.isLiteral {
            return try evaluate(in: scope).isTruthy
        }
        do {
            return try Expression.parse(text).evaluate(scope).isTruthy
        } catch let error as ExpressionSyntaxError {
            throw StepError("invalid expression in 'if': \(error.message)", at: location(ofOffset: error.offset))
        } catch let error as EvaluationError {
            throw StepError("cannot evaluate 'if: \(text)': \(error.message)", at: location(ofOffset: error.offset))
        } catch {
            throw StepError("cannot evaluate 'if: \(text)': \(error)", at: location)
        }
    }

    /// Whether a condition calls one of the status functions; one that does not is implicitly
    /// `success() && …`, as in GitHub Actions.
    var callsStatusFunction: Bool {
        let expressions: [Expression]
        if let template, !template.isLiteral {
            expressions = template.expressions.map(\.expression)
        } else {
            expressions = (try? Expression.parse(text)).map { [$0] } ?? []
        }
        let statusFunctions: Set<String> = ["success", "failure", "always", "cancelled"]
        return expressions.contains { $0.functionCalls.contains { statusFunctions.contains($0.name) } }
    }
}
