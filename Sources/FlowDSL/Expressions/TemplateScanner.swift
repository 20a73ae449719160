/// Finds the `${{ }}` in a template in one pass. The closing `}}` is the first one outside a
/// quoted string, so `${{ '}}' }}` is one expression whose value is `}}`.
enum TemplateScanner {
    private static let dollar = UInt8(ascii: "$")
    private static let open = UInt8(ascii: "{")
    private static let close = UInt8(ascii: "}")

    static func scan(
        _ source: SourceText
    ) throws(ExpressionSyntaxError) -> (parts: [Template.Part], expressions: [EmbeddedExpression]) {
        var parts: [Template.Part] = []
        // Text, expression, text: one allocation, not three.
        parts.reserveCapacity(3)
        var expressions: [EmbeddedExpression] = []
        var literalStart = 0
        var position = 0
        while position < source.count {
            guard isOpening(source, at: position) else {
                position += 1
                continue
            }
            if literalStart < position { parts.append(.literal(source.text(literalStart..<position))) }
            let opening = position
            let innerStart = opening + 3
            let closing = try findClosing(source, from: innerStart, opening: opening)
            let end = closing + 2
            if (innerStart..<closing).allSatisfy(source.isWhitespace) {
                throw ExpressionSyntaxError(
                    offset: opening, length: end - opening, message: "empty expression: '${{ }}' contains nothing")
            }
            let expression: Expression
            do {
                expression = try Expression.parse(
                    source.text(innerStart..<closing), text: SourceText(source, range: innerStart..<closing),
                    messageOffsetBase: innerStart)
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
        if literalStart < source.count { parts.append(.literal(source.text(literalStart..<source.count))) }
        return (parts, expressions)
    }

    private static func isOpening(_ source: SourceText, at position: Int) -> Bool {
        source[position] == dollar && source.code(position + 1) == open && source.code(position + 2) == open
    }

    /// The offset of the `}}` that closes the expression opened at `opening`. A doubled quote
    /// inside a string (`'it''s'`) closes and reopens it, which leaves it open as it should be.
    private static func findClosing(
        _ source: SourceText, from start: Int, opening: Int
    ) throws(ExpressionSyntaxError) -> Int {
        var quote: UInt8?
        var position = start
        while position < source.count {
            let code = source[position]
            if let open = quote {
                if code == open { quote = nil }
            } else if code == UInt8(ascii: "'") || code == UInt8(ascii: "\"") {
                quote = code
            } else if code == close, source.code(position + 1) == close {
                return position
            }
            position += 1
        }
        let detail = quote == nil ? "" : " (a string inside it is not closed)"
        throw ExpressionSyntaxError(
            offset: opening, length: 3, message: "unterminated '${{': expected '}}' to close it\(detail)")
    }
}
