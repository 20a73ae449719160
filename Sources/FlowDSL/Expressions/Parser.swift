/// A recursive-descent parser over the lexer's tokens, taken one at a time (issue 19: no token
/// array per expression). Precedence, loosest first:
/// `||`, `&&`, `== !=`, `< <= > >=`, `!`, then property access, indexing and calls.
struct Parser {
    /// Parentheses, calls, indexes and `!` may nest this deep; more is refused with a syntax
    /// error so that hostile input cannot exhaust the stack.
    static let maximumDepth = 64

    private var lexer: Lexer
    /// The token being looked at; `.end` stays once reached.
    private var current: Token
    /// Whether the lexer threw: its error, the first in the text, is the one to report.
    private(set) var lexerFailed = false
    private var depth = 0
    private(set) var references: [Reference] = []
    private(set) var functionCalls: [FunctionCall] = []
    /// Added to the offsets quoted inside messages ("to close '(' at 7"), so that an expression
    /// embedded in a template names positions in the template, as its error offset does.
    private let messageOffsetBase: Int

    init(source: SourceText, messageOffsetBase: Int = 0) throws(ExpressionSyntaxError) {
        lexer = Lexer(source)
        current = try lexer.next()
        self.messageOffsetBase = messageOffsetBase
    }

    /// After a parse error: lexes the rest of the text, so that a lexer error later in the text
    /// wins over the parse error, as when the whole text was lexed before parsing.
    mutating func lexRest() throws(ExpressionSyntaxError) {
        guard !lexerFailed else { return }
        while true {
            let token = try lexer.next()
            if isEnd(token) { return }
        }
    }

    private func isEnd(_ token: Token) -> Bool {
        if case .end = token.kind { return true }
        return false
    }

    /// Parses the whole token list as one expression.
    mutating func parseExpression() throws(ExpressionSyntaxError) -> SyntaxNode {
        if case .end = current.kind {
            throw ExpressionSyntaxError(offset: 0, length: max(1, current.offset), message: "empty expression")
        }
        let node = try parseOr()
        guard case .end = current.kind else {
            throw ExpressionSyntaxError(
                offset: current.offset, length: current.length,
                message: "unexpected \(current.quoted) after the end of the expression")
        }
        references.sort { $0.offset < $1.offset }
        functionCalls.sort { $0.offset < $1.offset }
        return node
    }

    private mutating func advance() throws(ExpressionSyntaxError) -> Token {
        let token = current
        if isEnd(token) { return token }
        do {
            current = try lexer.next()
        } catch {
            lexerFailed = true
            throw error
        }
        return token
    }

    private mutating func enter(_ token: Token) throws(ExpressionSyntaxError) {
        depth += 1
        if depth > Parser.maximumDepth {
            throw ExpressionSyntaxError(
                offset: token.offset, length: token.length,
                message: "expression nests too deeply (more than \(Parser.maximumDepth) levels)")
        }
    }

    private mutating func parseOr() throws(ExpressionSyntaxError) -> SyntaxNode {
        let first = try parseAnd()
        guard case .or = current.kind else { return first }
        var operands = [first]
        while case .or = current.kind {
            _ = try advance()
            operands.append(try parseAnd())
        }
        return .or(operands)
    }

    private mutating func parseAnd() throws(ExpressionSyntaxError) -> SyntaxNode {
        let first = try parseEquality()
        guard case .and = current.kind else { return first }
        var operands = [first]
        while case .and = current.kind {
            _ = try advance()
            operands.append(try parseEquality())
        }
        return .and(operands)
    }

    private mutating func parseEquality() throws(ExpressionSyntaxError) -> SyntaxNode {
        let first = try parseOrdering()
        var rest: [(ComparisonOperator, SyntaxNode)] = []
        while true {
            let comparison: ComparisonOperator
            switch current.kind {
            case .equal: comparison = .equal
            case .notEqual: comparison = .notEqual
            default: return rest.isEmpty ? first : .compare(first, rest)
            }
            _ = try advance()
            rest.append((comparison, try parseOrdering()))
        }
    }

    private mutating func parseOrdering() throws(ExpressionSyntaxError) -> SyntaxNode {
        let first = try parseUnary()
        var rest: [(ComparisonOperator, SyntaxNode)] = []
        while true {
            let comparison: ComparisonOperator
            switch current.kind {
            case .less: comparison = .less
            case .lessEqual: comparison = .lessEqual
            case .greater: comparison = .greater
            case .greaterEqual: comparison = .greaterEqual
            default: return rest.isEmpty ? first : .compare(first, rest)
            }
            _ = try advance()
            rest.append((comparison, try parseUnary()))
        }
    }

    private mutating func parseUnary() throws(ExpressionSyntaxError) -> SyntaxNode {
        guard case .not = current.kind else { return try parsePostfix() }
        let bang = try advance()
        try enter(bang)
        defer { depth -= 1 }
        return .not(try parseUnary())
    }

    private mutating func parsePostfix() throws(ExpressionSyntaxError) -> SyntaxNode {
        let base = try parsePrimary()
        var accessors: [SyntaxNode.Accessor] = []
        // `steps.x.outputs.y` has three: room for them at once, not grown one doubling at a time.
        switch current.kind {
        case .dot, .leftBracket: accessors.reserveCapacity(4)
        default: break
        }
        loop: while true {
            switch current.kind {
            case .dot:
                let dot = try advance()
                let name = current
                // `true`, `false` and `null` are plain names after a dot: `result.json.null` is a key.
                let key: String
                switch name.kind {
                case .identifier(let identifier): key = identifier
                case .trueKeyword: key = "true"
                case .falseKeyword: key = "false"
                case .nullKeyword: key = "null"
                default:
                    throw ExpressionSyntaxError(
                        offset: name.offset, length: name.length,
                        message:
                            "expected a property name after '.' at \(dot.offset + messageOffsetBase), found \(name.quoted)"
                    )
                }
                _ = try advance()
                accessors.append(.key(key, Span(offset: dot.offset, length: name.offset + name.length - dot.offset)))
            case .leftBracket:
                let open = try advance()
                try enter(open)
                let subscriptNode = try parseOr()
                depth -= 1
                let close = try expect(.rightBracket, closing: open)
                accessors.append(
                    .index(subscriptNode, Span(offset: open.offset, length: close.offset + 1 - open.offset)))
            default:
                break loop
            }
        }
        if case .root(let name, let span) = base {
            recordReference(root: name, span: span, accessors: accessors)
        }
        return accessors.isEmpty ? base : .access(base, accessors)
    }

    private mutating func recordReference(root: String, span: Span, accessors: [SyntaxNode.Accessor]) {
        var path: [PathComponent] = []
        path.reserveCapacity(accessors.count)
        var end = span.end
        for accessor in accessors {
            end = accessor.span.end
            switch accessor {
            case .key(let key, _):
                path.append(.key(key))
                continue
            case .index(.literal(.string(let key)), _):
                path.append(.key(key))
                continue
            case .index(.literal(.number(let number, _)), _):
                if number == number.rounded(), abs(number) < 1e15 {
                    path.append(.index(Int(number)))
                    continue
                }
            case .index:
                break
            }
            path.append(.dynamic)
            break
        }
        references.append(Reference(root: root, path: path, offset: span.offset, length: end - span.offset))
    }

    private mutating func parsePrimary() throws(ExpressionSyntaxError) -> SyntaxNode {
        let token = current
        switch token.kind {
        case .number(let number, let float):
            _ = try advance()
            return .literal(.number(number, float: float))
        case .string(let text):
            _ = try advance()
            return .literal(.string(text))
        case .trueKeyword:
            _ = try advance()
            return .literal(.bool(true))
        case .falseKeyword:
            _ = try advance()
            return .literal(.bool(false))
        case .nullKeyword:
            _ = try advance()
            return .literal(.null)
        case .identifier(let name):
            _ = try advance()
            if case .leftParen = current.kind { return try parseCall(name: name, nameToken: token) }
            return .root(name, Span(offset: token.offset, length: token.length))
        case .leftParen:
            let open = try advance()
            try enter(open)
            let inner = try parseOr()
            depth -= 1
            _ = try expect(.rightParen, closing: open)
            return inner
        case .end:
            throw ExpressionSyntaxError(
                offset: token.offset, length: token.length, message: "expected a value, found the end of the expression"
            )
        default:
            throw ExpressionSyntaxError(
                offset: token.offset, length: token.length, message: "expected a value, found \(token.quoted)")
        }
    }

    private mutating func parseCall(name: String, nameToken: Token) throws(ExpressionSyntaxError) -> SyntaxNode {
        let open = try advance()
        try enter(open)
        defer { depth -= 1 }
        var arguments: [SyntaxNode] = []
        var hasArguments = true
        if case .rightParen = current.kind { hasArguments = false }
        if hasArguments {
            while true {
                arguments.append(try parseOr())
                guard case .comma = current.kind else { break }
                _ = try advance()
            }
        }
        let close = try expect(.rightParen, closing: open)
        let span = Span(offset: nameToken.offset, length: close.offset + 1 - nameToken.offset)
        functionCalls.append(
            FunctionCall(
                name: name, argumentCount: arguments.count, offset: span.offset, length: span.length,
                literalArguments: arguments.map { if case .literal(let value) = $0 { value } else { nil } }))
        return .call(name, arguments, span)
    }

    private mutating func expect(_ kind: Token.Kind, closing open: Token) throws(ExpressionSyntaxError) -> Token {
        let matches: Bool
        switch (current.kind, kind) {
        case (.rightParen, .rightParen), (.rightBracket, .rightBracket): matches = true
        default: matches = false
        }
        guard matches else {
            let closer: String
            if case .rightParen = kind { closer = "')'" } else { closer = "']'" }
            throw ExpressionSyntaxError(
                offset: current.offset, length: current.length,
                message:
                    "expected \(closer) to close \(open.quoted) at \(open.offset + messageOffsetBase), found \(current.quoted)"
            )
        }
        return try advance()
    }
}
