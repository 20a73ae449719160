/// The parsed form of an expression. Operator chains (`a && b && c`, `a.b.c[0]`) are flat lists
/// rather than nested binary nodes, so the tree's depth is bounded by the parser's nesting limit
/// however long the expression is: evaluating, hashing or freeing it cannot overflow the stack.
indirect enum SyntaxNode: Sendable {
    case literal(Value)
    case root(String, Span)
    case access(SyntaxNode, [Accessor])
    case call(String, [SyntaxNode], Span)
    case not(SyntaxNode)
    case and([SyntaxNode])
    case or([SyntaxNode])
    case compare(SyntaxNode, [(ComparisonOperator, SyntaxNode)])

    /// One `.name` or `[expression]` after a value.
    enum Accessor: Sendable {
        case key(String, Span)
        case index(SyntaxNode, Span)

        var span: Span {
            switch self {
            case .key(_, let span), .index(_, let span): span
            }
        }
    }
}

/// A located stretch of expression text, in Characters.
struct Span: Sendable, Hashable {
    let offset: Int
    let length: Int

    var end: Int { offset + length }
}

/// The comparison operators, in two precedence levels: ordering binds tighter than equality.
enum ComparisonOperator: Sendable {
    case equal, notEqual, less, lessEqual, greater, greaterEqual

    func apply(_ left: Value, _ right: Value) -> Bool {
        switch self {
        case .equal: return left.looselyEquals(right)
        case .notEqual: return !left.looselyEquals(right)
        case .less, .lessEqual, .greater, .greaterEqual:
            guard let ordering = left.ordered(against: right) else { return false }
            switch (self, ordering) {
            case (.less, .less), (.lessEqual, .less), (.lessEqual, .same): return true
            case (.greater, .greater), (.greaterEqual, .greater), (.greaterEqual, .same): return true
            default: return false
            }
        }
    }
}
