/// Splits an expression into tokens. Works on Characters so that every offset it reports is a
/// Character offset, the unit diagnostics count columns in; one pass, no backtracking.
struct Lexer {
    private let characters: [Character]
    private var position = 0

    init(_ characters: [Character]) {
        self.characters = characters
    }

    /// Every token of the text, ending with `.end`.
    static func tokens(of characters: [Character]) throws(ExpressionSyntaxError) -> [Token] {
        var lexer = Lexer(characters)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// Whether `text` can be written after a `.` (otherwise it needs `['…']`).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, isIdentifierStart(first) else { return false }
        return text.allSatisfy(isIdentifierPart)
    }

    // Byte comparisons rather than Character properties: names are ASCII, and Unicode property
    // lookups were a large part of checking big workflows.
    static func isIdentifierStart(_ character: Character) -> Bool {
        guard let byte = character.asciiValue else { return false }
        return byte == UInt8(ascii: "_") || isASCIILetter(byte)
    }

    /// Dashes are allowed inside names, as in step ids (`steps.fetch-users`); there is no
    /// subtraction operator for them to clash with.
    static func isIdentifierPart(_ character: Character) -> Bool {
        guard let byte = character.asciiValue else { return false }
        return byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || isASCIILetter(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        let index = position + ahead
        return index < characters.count ? characters[index] : nil
    }

    private mutating func next() throws(ExpressionSyntaxError) -> Token {
        while let character = peek(), character.isWhitespace { position += 1 }
        guard let character = peek() else { return Token(kind: .end, offset: characters.count, length: 1) }
        let start = position
        switch character {
        case ".": return single(.dot)
        case ",": return single(.comma)
        case "(": return single(.leftParen)
        case ")": return single(.rightParen)
        case "[": return single(.leftBracket)
        case "]": return single(.rightBracket)
        case "!": return peek(1) == "=" ? double(.notEqual) : single(.not)
        case "<": return peek(1) == "=" ? double(.lessEqual) : single(.less)
        case ">": return peek(1) == "=" ? double(.greaterEqual) : single(.greater)
        case "=":
            guard peek(1) == "=" else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1, message: "unknown operator '=', did you mean '=='?")
            }
            return double(.equal)
        case "&":
            guard peek(1) == "&" else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1, message: "unknown operator '&', did you mean '&&'?")
            }
            return double(.and)
        case "|":
            guard peek(1) == "|" else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1, message: "unknown operator '|', did you mean '||'?")
            }
            return double(.or)
        case "'", "\"":
            return try string(quote: character)
        case "-":
            guard let digit = peek(1), digit.isASCII, digit.isNumber else {
                throw ExpressionSyntaxError(
                    offset: start, length: 1,
                    message: "unexpected '-': only number literals can be negative, there is no subtraction")
            }
            return try number()
        default:
            if character.isASCII, character.isNumber { return try number() }
            if Lexer.isIdentifierStart(character) { return identifier() }
            throw ExpressionSyntaxError(offset: start, length: 1, message: "unknown character \(describe(character))")
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
        while let character = peek(), Lexer.isIdentifierPart(character) { position += 1 }
        // Every character of a name is ASCII, so its bytes are its UTF-8.
        let name = String(decoding: characters[start..<position].compactMap(\.asciiValue), as: UTF8.self)
        let kind: Token.Kind =
            switch name {
            case "true": .trueKeyword
            case "false": .falseKeyword
            case "null": .nullKeyword
            default: .identifier(name)
            }
        return Token(kind: kind, offset: start, length: position - start)
    }

    /// `'it''s'` and `"say ""hi"""`: a quote is escaped by doubling it, as in GitHub Actions
    /// and SQL; backslashes are ordinary characters (YAML already processed its own escapes).
    private mutating func string(quote: Character) throws(ExpressionSyntaxError) -> Token {
        let start = position
        position += 1
        var text = ""
        while let character = peek() {
            position += 1
            if character == quote {
                if peek() == quote {
                    text.append(quote)
                    position += 1
                } else {
                    return Token(kind: .string(text), offset: start, length: position - start)
                }
            } else {
                text.append(character)
            }
        }
        throw ExpressionSyntaxError(offset: start, length: position - start, message: "unterminated string")
    }

    private mutating func number() throws(ExpressionSyntaxError) -> Token {
        let start = position
        let negative = peek() == "-"
        if negative { position += 1 }
        let digitsStart = position
        var value: Double?
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            position += 2
            let hexStart = position
            while let character = peek(), character.isASCII, character.isHexDigit { position += 1 }
            // 13 hex digits fit a double exactly; longer literals are refused rather than rounded.
            let hex = String(characters[hexStart..<position])
            value = hex.isEmpty || hex.count > 13 ? nil : UInt64(hex, radix: 16).map { Double($0) }
        } else {
            skipDigits()
            if peek() == ".", let digit = peek(1), digit.isASCII, digit.isNumber {
                position += 1
                skipDigits()
            }
            if let e = peek(), e == "e" || e == "E" {
                var exponentStart = position + 1
                if let sign = peek(1), sign == "+" || sign == "-" { exponentStart += 1 }
                if exponentStart < characters.count, characters[exponentStart].isASCII,
                    characters[exponentStart].isNumber
                {
                    position = exponentStart
                    skipDigits()
                }
            }
            value = Double(String(characters[digitsStart..<position]))
        }
        let valueEnd = position
        // `1abc`, `0x` or `1e` is a typo, not a number followed by a name.
        while let character = peek(), Lexer.isIdentifierPart(character) { position += 1 }
        guard let number = value, number.isFinite, position == valueEnd else {
            let text = String(characters[start..<position])
            throw ExpressionSyntaxError(offset: start, length: position - start, message: "invalid number '\(text)'")
        }
        return Token(kind: .number(negative ? -number : number), offset: start, length: position - start)
    }

    private mutating func skipDigits() {
        while let character = peek(), character.isASCII, character.isNumber { position += 1 }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
