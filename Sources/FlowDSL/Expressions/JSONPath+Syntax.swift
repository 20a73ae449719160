// The syntax tree of an RFC 9535 JSONPath query, as `JSONPathParser` builds it: already
// well-typed (RFC 9535 §2.4.3), so evaluation never meets an argument of the wrong kind.

extension JSONPath {
    /// A query: `$` (absolute) or `@` (relative to the current node in a filter), then segments.
    struct Query: Sendable {
        let isAbsolute: Bool
        let segments: [Segment]

        /// Whether the query selects at most one node (RFC 9535 §2.3.5.1): only child segments of
        /// one name or index selector each.
        var isSingular: Bool {
            segments.allSatisfy { segment in
                guard !segment.isDescendant, segment.selectors.count == 1 else { return false }
                switch segment.selectors[0] {
                case .name, .index: return true
                default: return false
                }
            }
        }
    }

    /// `[a, b]` or `.a` (a child segment), or `..[a, b]` / `..a` (a descendant segment).
    struct Segment: Sendable {
        let isDescendant: Bool
        let selectors: [Selector]
    }

    /// One selector of a segment.
    enum Selector: Sendable {
        case name(String)
        case wildcard
        case index(Int)
        case slice(start: Int?, end: Int?, step: Int?)
        case filter(Filter)
    }

    /// A logical expression in a filter selector `[?…]`.
    indirect enum Filter: Sendable {
        case or([Filter])
        case and([Filter])
        case not(Filter)
        case comparison(Comparable, ComparisonOperator, Comparable)
        /// An existence test: whether the query selects any node.
        case exists(Query)
        /// A function whose result is logical, or a node list (true when not empty).
        case test(FunctionCall)
    }

    /// One side of a comparison: a literal, a singular query, or a function giving a value.
    indirect enum Comparable: Sendable {
        case literal(Value)
        case query(Query)
        case function(FunctionCall)
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    enum ComparisonOperator: String, Sendable, CaseIterable {
        // Two-character operators first, so that `<=` is not read as `<`.
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    /// A call of a function extension with arguments already converted to its parameter types.
    struct FunctionCall: Sendable {
        let function: Function
        let arguments: [Argument]
    }

    /// An argument, by the type of the parameter it is passed to (RFC 9535 §2.4.1).
    indirect enum Argument: Sendable {
        case value(Comparable)
        case nodes(Query)
        case logical(Filter)
    }

    /// The three types of the RFC's type system.
    enum ArgumentType: Sendable {
        case value, logical, nodes
    }

    /// The function extensions RFC 9535 defines (§2.4.4 to §2.4.8).
    enum Function: String, Sendable {
        case length, count, match, search, value

        var parameters: [ArgumentType] {
            switch self {
            case .length: [.value]
            case .count, .value: [.nodes]
            case .match, .search: [.value, .value]
            }
        }

        var result: ArgumentType {
            switch self {
            case .length, .count, .value: .value
            case .match, .search: .logical
            }
        }
    }
}
