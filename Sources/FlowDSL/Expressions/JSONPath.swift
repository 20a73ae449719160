/// The JSONPath subset `jsonPath()` reads: `$` (the whole value), `.name` or `['name']` (a
/// member), `[N]` (an element from 0; `[-1]` is the last), and `[*]` or `.*` (every element or
/// member value). A path without `*` selects one value (`null` when it is missing); a path with
/// `*` selects a list of every match, in order (object members by key).
struct JSONPath: Sendable {
    /// A path that does not parse.
    struct SyntaxError: Error {
        let message: String
    }

    enum Step: Sendable, Equatable {
        case member(String)
        case index(Int)
        case wildcard
    }

    let steps: [Step]

    init(_ text: String) throws(SyntaxError) {
        var rest = Substring(text.trimmingSpaces)
        guard rest.first == "$" else { throw SyntaxError(message: "a path starts with '$', as in '$.items[0].id'") }
        rest.removeFirst()
        var steps: [Step] = []
        while let first = rest.first {
            if first == "." {
                rest.removeFirst()
                if rest.first == "*" {
                    rest.removeFirst()
                    steps.append(.wildcard)
                    continue
                }
                let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "$" }
                guard !name.isEmpty else {
                    throw SyntaxError(message: "expected a name after '.' (use ['name'] for other characters)")
                }
                rest = rest.dropFirst(name.count)
                steps.append(.member(String(name)))
            } else if first == "[" {
                rest.removeFirst()
                guard let close = rest.firstIndex(of: "]") else { throw SyntaxError(message: "'[' without ']'") }
                let inside = rest[..<close].trimmingSpaces
                rest = rest[rest.index(after: close)...]
                if inside == "*" {
                    steps.append(.wildcard)
                } else if let quote = inside.first, quote == "'" || quote == "\"", inside.count >= 2,
                    inside.last == quote
                {
                    steps.append(.member(String(inside.dropFirst().dropLast())))
                } else if let index = Int(inside) {
                    steps.append(.index(index))
                } else {
                    throw SyntaxError(message: "'[\(inside)]' is not an index, '*' or a quoted name")
                }
            } else {
                throw SyntaxError(message: "unexpected '\(first)'; steps are .name, ['name'], [N] or [*]")
            }
        }
        self.steps = steps
    }

    /// The selected value, or with a wildcard, the list of every selected value.
    func select(in value: Value) -> Value {
        var current = [value]
        for step in steps {
            var next: [Value] = []
            for value in current {
                switch (step, value) {
                case (.member(let name), .object(let members)):
                    if let member = members[name] { next.append(member) }
                case (.index(let index), .array(let elements)):
                    let position = index < 0 ? elements.count + index : index
                    if elements.indices.contains(position) { next.append(elements[position]) }
                case (.wildcard, .array(let elements)):
                    next += elements
                case (.wildcard, .object(let members)):
                    next += members.keys.sorted().compactMap { members[$0] }
                default:
                    break
                }
            }
            current = next
        }
        if steps.contains(.wildcard) { return .array(current) }
        return current.first ?? .null
    }
}
