/// A string value from the workflow that may embed `${{ }}` expressions, such as
/// `"Bearer ${{ steps.login.outputs.token }}"`.
package struct Template: Sendable, Hashable, CustomStringConvertible {
    /// The text the template was parsed from, exactly as given.
    package let text: String
    /// Each `${{ }}` in order of appearance.
    package let expressions: [EmbeddedExpression]
    /// The scanner's parts; empty for a text without `${{ }}` (most values), whose one literal
    /// part `parts` makes when asked rather than an array per value (issue 19).
    private let scannedParts: [Part]

    /// The pieces of the template in order.
    var parts: [Part] {
        if expressions.isEmpty { return text.isEmpty ? [] : [.literal(text)] }
        return scannedParts
    }

    private init(text: String, expressions: [EmbeddedExpression], parts: [Part]) {
        self.text = text
        self.expressions = expressions
        self.scannedParts = parts
    }

    /// A piece of the template: literal text or the index of an embedded expression.
    enum Part: Sendable, Hashable {
        case literal(String)
        case expression(Int)
    }

    /// Parses `text`; a syntax error's offset counts Characters from the start of `text`, also for
    /// errors inside an embedded expression.
    ///
    /// Total on any input: it never traps, and work grows linearly with the length of `text`.
    package static func parse(_ text: String) throws(ExpressionSyntaxError) -> Template {
        // Most values hold no `${{`: a byte search spares them the scanner's per-Character codes.
        if !containsOpening(text) {
            return Template(text: text, expressions: [], parts: [])
        }
        let (parts, expressions) = try TemplateScanner.scan(SourceText(text))
        return Template(text: text, expressions: expressions, parts: parts)
    }

    /// Whether `text` has a `${{` anywhere (the bytes `$`, `{`, `{`).
    static func containsOpening(_ text: String) -> Bool {
        // Over the contiguous bytes rather than the UTF-8 view's iterator (issue 19).
        var text = text
        return text.withUTF8 { bytes in
            var run = 0
            for byte in bytes {
                if byte == UInt8(ascii: "$") {
                    run = 1
                } else if byte == UInt8(ascii: "{"), run > 0 {
                    run += 1
                    if run == 3 { return true }
                } else {
                    run = 0
                }
            }
            return false
        }
    }

    /// No `${{ }}` at all: the value is the text itself.
    package var isLiteral: Bool { expressions.isEmpty }

    /// Exactly one `${{ }}` and nothing else but whitespace: the value keeps the expression's
    /// type (a number stays a number, an object an object) instead of becoming a string.
    package var isSingleExpression: Bool {
        guard expressions.count == 1 else { return false }
        return parts.allSatisfy { part in
            if case .literal(let literal) = part { return literal.allSatisfy(\.isWhitespace) }
            return true
        }
    }

    /// The template's value: the literal text, the single expression's value with its type, or
    /// the text with each expression's value interpolated. Error offsets count Characters from
    /// the start of `text`.
    package func evaluate(_ context: some EvaluationContext) throws(EvaluationError) -> Value {
        if isLiteral { return .string(text) }
        if isSingleExpression { return try evaluate(expressions[0], context) }
        var output = ""
        for part in parts {
            switch part {
            case .literal(let literal): output += literal
            case .expression(let index): output += try evaluate(expressions[index], context).interpolated
            }
        }
        return .string(output)
    }

    private func evaluate(
        _ embedded: EmbeddedExpression, _ context: some EvaluationContext
    ) throws(EvaluationError) -> Value {
        do {
            return try embedded.expression.evaluate(context)
        } catch {
            throw error.shifted(by: embedded.offset)
        }
    }

    /// The text, for messages.
    package var description: String { text }

    /// Two templates are equal when parsed from the same text (parsing is deterministic).
    package static func == (lhs: Template, rhs: Template) -> Bool {
        lhs.text == rhs.text
    }

    /// Hashes the text, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}

/// One `${{ }}` inside a template.
package struct EmbeddedExpression: Sendable, Hashable {
    /// The parsed inner text.
    package let expression: Expression
    /// Where the inner text (after `${{`) starts, in Characters from the start of the template;
    /// add it to an offset inside `expression` to locate that spot in the template.
    package let offset: Int
    /// Where `${{` starts, in Characters from the start of the template.
    package let openingOffset: Int
    /// The length of the whole `${{ … }}`, braces included, in Characters.
    package let length: Int
}
