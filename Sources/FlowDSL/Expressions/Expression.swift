/// A parsed expression: the text inside `${{ }}`, or a bare `if:` condition.
package struct Expression: Sendable, Hashable, CustomStringConvertible {
    /// The text the expression was parsed from, exactly as given.
    package let source: String
    /// Every root path the expression reads, in source order.
    package let references: [Reference]
    /// Every function call, in source order.
    package let functionCalls: [FunctionCall]
    let root: SyntaxNode

    private init(source: String, root: SyntaxNode, references: [Reference], functionCalls: [FunctionCall]) {
        self.source = source
        self.root = root
        self.references = references
        self.functionCalls = functionCalls
    }

    /// Parses `source`; a syntax error's offset counts Characters from the start of `source`.
    ///
    /// Total on any input: it never traps, and work grows linearly with the length of `source`.
    package static func parse(_ source: String) throws(ExpressionSyntaxError) -> Expression {
        try parse(source, text: SourceText(source), messageOffsetBase: 0)
    }

    /// Parses `source`, already split as `text` (a template has done that work), quoting
    /// positions in messages as if `source` started at `messageOffsetBase`.
    static func parse(
        _ source: String, text: SourceText, messageOffsetBase: Int
    ) throws(ExpressionSyntaxError) -> Expression {
        if let (root, reference) = Parser.parsePlainPath(text) {
            return Expression(source: source, root: root, references: [reference], functionCalls: [])
        }
        var parser = try Parser(source: text, messageOffsetBase: messageOffsetBase)
        let root: SyntaxNode
        do {
            root = try parser.parseExpression()
        } catch {
            // A lexer error anywhere in the text comes first, as if it had all been lexed up front.
            try parser.lexRest()
            throw error
        }
        return Expression(
            source: source, root: root, references: parser.references, functionCalls: parser.functionCalls)
    }

    /// Evaluates the expression; an error's offset counts Characters from the start of `source`.
    package func evaluate(_ context: some EvaluationContext) throws(EvaluationError) -> Value {
        try Evaluator(context: context).evaluate(root)
    }

    /// The source text, so an expression reads like itself in messages.
    package var description: String { source }

    /// Two expressions are equal when parsed from the same text (parsing is deterministic).
    package static func == (lhs: Expression, rhs: Expression) -> Bool {
        lhs.source == rhs.source
    }

    /// Hashes the source text, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}
