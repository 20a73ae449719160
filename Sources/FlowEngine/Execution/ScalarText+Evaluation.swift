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
}

/// A condition (`if:`, an `assert:` entry) compiled once, when the plan is built: the expression,
/// bare or in `${{ }}`, and where it is written for errors.
struct CompiledCondition: Sendable {
    let text: ScalarText
    let expression: Expression
    /// Where the expression starts inside the text (after `${{`), for error columns.
    private let offset: Int

    /// Compiles `text`; the checker has already refused conditions that do not compile, so the
    /// error is a safeguard.
    init(_ text: ScalarText) throws(StepError) {
        guard let expression = text.conditionExpression else {
            throw StepError("invalid condition '\(text.text)'", at: text.location)
        }
        self.text = text
        self.expression = expression
        offset = text.template.flatMap { $0.isSingleExpression ? $0.expressions.first?.offset : nil } ?? 0
    }

    /// Whether it calls a status function; one that does not is implicitly `success() && …`, as in
    /// GitHub Actions.
    var callsStatusFunction: Bool {
        expression.functionCalls.contains { Functions.statusFunctions.contains($0.name) }
    }

    /// The condition's truth in `scope`.
    func holds(in scope: ExpressionScope) throws(StepError) -> Bool {
        do {
            return try expression.evaluate(scope).isTruthy
        } catch {
            throw StepError(
                "cannot evaluate '\(text.text)': \(error.message)", at: text.location(ofOffset: offset + error.offset))
        }
    }
}
