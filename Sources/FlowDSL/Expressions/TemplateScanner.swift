/// Finds the `${{ }}` in a template in one pass. The closing `}}` is the first one outside a
/// quoted string, so `${{ '}}' }}` is one expression whose value is `}}`.
enum TemplateScanner {
    static func scan(
        _ characters: [Character]
    ) throws(ExpressionSyntaxError) -> (parts: [Template.Part], expressions: [EmbeddedExpression]) {
        var parts: [Template.Part] = []
        var expressions: [EmbeddedExpression] = []
        var literalStart = 0
        var position = 0
        while position < characters.count {
            guard isOpening(characters, at: position) else {
                position += 1
                continue
            }
            if literalStart < position { parts.append(.literal(String(characters[literalStart..<position]))) }
            let opening = position
            let innerStart = opening + 3
            let closing = try findClosing(characters, from: innerStart, opening: opening)
            let inner = characters[innerStart..<closing]
            let end = closing + 2
            if inner.allSatisfy(\.isWhitespace) {
                throw ExpressionSyntaxError(
                    offset: opening, length: end - opening, message: "empty expression: '${{ }}' contains nothing")
            }
            let expression: Expression
            do {
                expression = try Expression.parse(String(inner), messageOffsetBase: innerStart)
            } catch {
                throw error.shifted(by: innerStart)
            }
            parts.append(.expression(expressions.count))
            expressions.append(
                EmbeddedExpression(
                    expression: expression, offset: innerStart, openingOffset: opening, length: end - opening))
            position = end
            literalStart = end
        }
        if literalStart < characters.count { parts.append(.literal(String(characters[literalStart...]))) }
        return (parts, expressions)
    }

    private static func isOpening(_ characters: [Character], at position: Int) -> Bool {
        position + 2 < characters.count && characters[position] == "$" && characters[position + 1] == "{"
            && characters[position + 2] == "{"
    }

    /// The offset of the `}}` that closes the expression opened at `opening`. A doubled quote
    /// inside a string (`'it''s'`) closes and reopens it, which leaves it open as it should be.
    private static func findClosing(
        _ characters: [Character], from start: Int, opening: Int
    ) throws(ExpressionSyntaxError) -> Int {
        var quote: Character?
        var position = start
        while position < characters.count {
            let character = characters[position]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "}", position + 1 < characters.count, characters[position + 1] == "}" {
                return position
            }
            position += 1
        }
        let detail = quote == nil ? "" : " (a string inside it is not closed)"
        throw ExpressionSyntaxError(
            offset: opening, length: 3, message: "unterminated '${{': expected '}}' to close it\(detail)")
    }
}
