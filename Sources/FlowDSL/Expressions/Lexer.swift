/// Splits an expression into tokens. Offsets count Characters, the unit diagnostics count
/// columns in; the scan compares the Characters' ASCII codes. One pass, no backtracking.
struct Lexer {
    private let source: SourceText
    private var position = 0

    init(_ source: SourceText) {
        self.source = source
    }

    /// Whether `text` can be written after a `.` (otherwise it needs `['…']`).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, isIdentifierStart(first) else { return false }
        return text.utf8.allSatisfy(isIdentifierPart)
    }

    static func isIdentifierStart(_ code: UInt8) -> Bool {
        code == UInt8(ascii: "_") || code.isASCIILetter
    }

    /// Dashes are allowed inside names, as in step ids (`steps.fetch-users`); there is no
    /// subtraction operator for them to clash with.
    static func isIdentifierPart(_ code: UInt8) -> Bool {
        code == UInt8(ascii: "_") || code == UInt8(ascii: "-") || code.isASCIILetter || code.isASCIIDigit
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        source.code(position + ahead)
    }

    /// The next token; `.end` at (and after) the end of the text.
    mutating func next() throws(ExpressionSyntaxError) -> Token {
        while position < source.count, source.isWhitespace(position) { position += 1 }
        guard let code = peek() else { return Token(kind: .end, offset: source.count, length: 1) }
        let start = position
        let equalSign = UInt8(ascii: "=")
        switch code {
        case UInt8(ascii: "."): return single(.dot)
        case UInt8(ascii: ","): return single(.comma)
        case UInt8(ascii: "("): return single(.leftParen)
        case UInt8(ascii: ")"): return single(.rightParen)
        case UInt8(ascii: "["): return single(.leftBracket)
        case UInt8(ascii: "]"): return single(.rightBracket)
        case UInt8(ascii: "!"): return peek(1) == equalSign ? double(.notEqual) : single(.not)
        case UInt8(ascii: "<"): return peek(1) == equalSign ? double(.lessEqual) : single(.less)
        case UInt8(ascii: ">"): return peek(1) == equalSign ? double(.greaterEqual) : single(.greater)
        case equalSign:
            guard peek(1) == equalSign else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1, message: "unknown operator '=', did you mean '=='?")
            }
            return double(.equal)
        case UInt8(ascii: "&"):
            guard peek(1) == UInt8(ascii: "&") else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1, message: "unknown operator '&', did you mean '&&'?")
            }
            return double(.and)
        case UInt8(ascii: "|"):
            guard peek(1) == UInt8(ascii: "|") else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1, message: "unknown operator '|', did you mean '||'?")
            }
            return double(.or)
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return try string(quote: code)
        case UInt8(ascii: "-"):
            guard let digit = peek(1), digit.isASCIIDigit else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1,
                    message: "unexpected '-': only number literals can be negative, there is no subtraction")
            }
            return try number()
        default:
            if code.isASCIIDigit { return try number() }
            if Lexer.isIdentifierStart(code) { return identifier() }
            throw ExpressionSyntaxError(
                offset: start, length: 1, message: "unknown character \(describe(source.character(start)))")
        }
    }

    private func describe(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        if let scalar = scalars.first, scalars.count == 1, scalar.value < 0x20 || scalar.value == 0x7F {
            return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "'\(character)'"
    }

    private mutating func single(_ kind: Token.Kind) -> Token {
        position += 1
        return Token(kind: kind, offset: position - 1, length: 1)
    }

    private mutating func double(_ kind: Token.Kind) -> Token {
        position += 2
        return Token(kind: kind, offset: position - 2, length: 2)
    }

    private mutating func identifier() -> Token {
        let start = position
        while let code = peek(), Lexer.isIdentifierPart(code) { position += 1 }
        let name = source.text(start..<position)
        // Only a name of four or five letters can be a keyword (no string comparisons otherwise).
        let kind: Token.Kind =
            switch position - start {
            case 4, 5:
                switch name {
                case "true": .trueKeyword
                case "false": .falseKeyword
                case "null": .nullKeyword
                default: .identifier(name)
                }
            default: .identifier(name)
            }
        return Token(kind: kind, offset: start, length: position - start)
    }

    /// `'it''s'` and `"say ""hi"""`: a quote is escaped by doubling it, as in GitHub Actions
    /// and SQL; backslashes are ordinary characters (YAML already processed its own escapes).
    private mutating func string(quote: UInt8) throws(ExpressionSyntaxError) -> Token {
        let start = position
        position += 1
        var text = ""
        var runStart = position
        while let code = peek() {
            position += 1
            guard code == quote else { continue }
            // The run up to and including the first quote of a doubled pair is literal text.
            if peek() == quote {
                text += source.text(runStart..<position)
                position += 1
                runStart = position
            } else {
                text += source.text(runStart..<(position - 1))
                return Token(kind: .string(text), offset: start, length: position - start)
            }
        }
        throw ExpressionSyntaxError(offset: start, length: position - start, message: "unterminated string")
    }

    private mutating func number() throws(ExpressionSyntaxError) -> Token {
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        let digitsStart = position
        var value: Double?
        // Written with a fraction or an exponent: a float for `isFloat`, whatever its value.
        var float = false
        if peek() == UInt8(ascii: "0"), let x = peek(1), x | 0x20 == UInt8(ascii: "x") {
            position += 2
            let hexStart = position
            while let code = peek(), code.isASCIIHexDigit { position += 1 }
            // 13 hex digits fit a double exactly; longer literals are refused rather than rounded.
            let hex = source.text(hexStart..<position)
            value = hex.isEmpty || hex.count > 13 ? nil : UInt64(hex, radix: 16).map { Double($0) }
        } else {
            skipDigits()
            if peek() == UInt8(ascii: "."), let digit = peek(1), digit.isASCIIDigit {
                position += 1
                skipDigits()
                float = true
            }
            if let e = peek(), e | 0x20 == UInt8(ascii: "e") {
                var exponentStart = position + 1
                if let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { exponentStart += 1 }
                if let digit = source.code(exponentStart), digit.isASCIIDigit {
                    position = exponentStart
                    skipDigits()
                    float = true
                }
            }
            value = Double(source.text(digitsStart..<position))
        }
        let valueEnd = position
        // `1abc`, `0x` or `1e` is a typo, not a number followed by a name.
        while let code = peek(), Lexer.isIdentifierPart(code) { position += 1 }
        guard let number = value, number.isFinite, position == valueEnd else {
            let text = source.text(start..<position)
            throw ExpressionSyntaxError(offset: start, length: position - start, message: "invalid number '\(text)'")
        }
        return Token(kind: .number(negative ? -number : number, float: float), offset: start, length: position - start)
    }

    private mutating func skipDigits() {
        while let code = peek(), code.isASCIIDigit { position += 1 }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
