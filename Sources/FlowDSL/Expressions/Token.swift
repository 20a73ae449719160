/// A lexical token of the expression language, located in Characters.
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identifier(String)
        /// A number literal; `float` when written with a fraction or an exponent.
        case number(Double, float: Bool)
        case string(String)
        case trueKeyword, falseKeyword, nullKeyword
        case dot, comma, leftParen, rightParen, leftBracket, rightBracket
        case not, equal, notEqual, less, lessEqual, greater, greaterEqual, and, or
        case end
    }

    let kind: Kind
    let offset: Int
    let length: Int

    /// How the token is quoted in "found …" messages.
    var quoted: String {
        switch kind {
        case .identifier(let name): "'\(Token.abbreviated(name))'"
        case .number(let value, _): "number \(Value.format(number: value))"
        case .string(let text): "string '\(Token.abbreviated(text))'"
        case .trueKeyword: "'true'"
        case .falseKeyword: "'false'"
        case .nullKeyword: "'null'"
        case .dot: "'.'"
        case .comma: "','"
        case .leftParen: "'('"
        case .rightParen: "')'"
        case .leftBracket: "'['"
        case .rightBracket: "']'"
        case .not: "'!'"
        case .equal: "'=='"
        case .notEqual: "'!='"
        case .less: "'<'"
        case .lessEqual: "'<='"
        case .greater: "'>'"
        case .greaterEqual: "'>='"
        case .and: "'&&'"
        case .or: "'||'"
        case .end: "the end of the expression"
        }
    }

    /// Long names and strings are cut so a message stays one readable line.
    private static func abbreviated(_ text: String) -> String {
        text.count <= 32 ? text : text.prefix(31) + "…"
    }
}
