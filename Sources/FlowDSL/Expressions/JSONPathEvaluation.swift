/// One evaluation of a JSONPath query against a document: node lists for segments, filters
/// tested on each candidate. Singular queries inside filters (`@.price`) are looked up directly,
/// without building node lists, which keeps a filter over many items linear and cheap.
final class JSONPathEvaluation {
    typealias Node = JSONPath.Node
    typealias Location = JSONPath.Location

    private let root: Value
    private let tracksLocations: Bool
    /// Compiled I-Regexps of `match()` and `search()` (`nil`: not a valid I-Regexp), so that a
    /// filter over many items compiles its pattern once.
    private var regexes: [String: Regex<AnyRegexOutput>?] = [:]

    init(root: Value, tracksLocations: Bool) {
        self.root = root
        self.tracksLocations = tracksLocations
    }

    // MARK: - Queries and segments

    func nodes(_ query: JSONPath.Query, current: Value) -> [Node] {
        var nodes = [Node(value: query.isAbsolute ? root : current, location: nil)]
        for segment in query.segments {
            var next: [Node] = []
            for node in nodes {
                if segment.isDescendant {
                    visitDescendants(of: node) { select(segment.selectors, from: $0, into: &next) }
                } else {
                    select(segment.selectors, from: node, into: &next)
                }
            }
            nodes = next
        }
        return nodes
    }

    /// The node, then each of its descendants, every node before its descendants and array
    /// elements in order (RFC 9535 §2.5.2.2).
    private func visitDescendants(of node: Node, _ visit: (Node) -> Void) {
        visit(node)
        switch node.value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                visitDescendants(of: child(element, node, .index(index)), visit)
            }
        case .object(let members):
            for key in members.keys.sorted() {
                visitDescendants(of: child(members[key] ?? .null, node, .name(key)), visit)
            }
        default: break
        }
    }

    private func child(_ value: Value, _ parent: Node, _ step: Location.Step) -> Node {
        Node(value: value, location: tracksLocations ? Location(parent: parent.location, step: step) : nil)
    }

    private func select(_ selectors: [JSONPath.Selector], from node: Node, into nodes: inout [Node]) {
        for selector in selectors {
            switch (selector, node.value) {
            case (.name(let name), .object(let members)):
                if let member = members[name] { nodes.append(child(member, node, .name(name))) }
            case (.wildcard, .array(let elements)):
                for (index, element) in elements.enumerated() { nodes.append(child(element, node, .index(index))) }
            case (.wildcard, .object(let members)):
                for key in members.keys.sorted() { nodes.append(child(members[key] ?? .null, node, .name(key))) }
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                if elements.indices.contains(position) {
                    nodes.append(child(elements[position], node, .index(position)))
                }
            case (.slice(let start, let end, let step), .array(let elements)):
                for index in Self.sliceIndexes(start: start, end: end, step: step ?? 1, count: elements.count) {
                    nodes.append(child(elements[index], node, .index(index)))
                }
            case (.filter(let filter), .array(let elements)):
                for (index, element) in elements.enumerated() where test(filter, current: element) {
                    nodes.append(child(element, node, .index(index)))
                }
            case (.filter(let filter), .object(let members)):
                for key in members.keys.sorted() {
                    let member = members[key] ?? .null
                    if test(filter, current: member) { nodes.append(child(member, node, .name(key))) }
                }
            default:
                break
            }
        }
    }

    /// The indexes a slice selects, in order (RFC 9535 §2.3.4.2.2); none for a step of 0.
    static func sliceIndexes(start: Int?, end: Int?, step: Int, count: Int) -> StrideTo<Int> {
        func normalized(_ index: Int) -> Int { index >= 0 ? index : count + index }
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), count)
            let upper = min(max(normalized(end ?? count), 0), count)
            return stride(from: lower, to: max(lower, upper), by: step)
        }
        if step < 0 {
            let upper = min(max(normalized(start ?? count - 1), -1), count - 1)
            let lower = min(max(normalized(end ?? -count - 1), -1), count - 1)
            return stride(from: upper, to: min(lower, upper), by: step)
        }
        return stride(from: 0, to: 0, by: 1)
    }

    // MARK: - Filters

    func test(_ filter: JSONPath.Filter, current: Value) -> Bool {
        switch filter {
        case .or(let filters): return filters.contains { test($0, current: current) }
        case .and(let filters): return filters.allSatisfy { test($0, current: current) }
        case .not(let filter): return !test(filter, current: current)
        case .comparison(let left, let comparison, let right):
            return JSONPathComparison.compare(
                operand(left, current: current), comparison, operand(right, current: current))
        case .exists(let query):
            if query.isSingular { return singularValue(query, current: current) != Value?.none }
            return !nodes(query, current: current).isEmpty
        case .test(let call):
            switch self.call(call, current: current) {
            case .logical(let value): return value
            case .nodes(let nodes): return !nodes.isEmpty
            case .value(let value): return value != Value?.none
            }
        }
    }

    /// The value of a comparable; `nil` is the RFC's Nothing (a singular query that selects no node).
    /// (`Value` is `ExpressibleByNilLiteral`, so Nothing is written `Value?.none` where a bare `nil`
    /// could be read as `Value.null`.)
    private func operand(_ comparable: JSONPath.Comparable, current: Value) -> Value? {
        switch comparable {
        case .literal(let value): return value
        case .query(let query): return singularValue(query, current: current)
        case .function(let call):
            if case .value(let value) = self.call(call, current: current) { return value }
            return nil
        }
    }

    /// The node a singular query selects, looked up step by step.
    private func singularValue(_ query: JSONPath.Query, current: Value) -> Value? {
        var value = query.isAbsolute ? root : current
        for segment in query.segments {
            switch (segment.selectors[0], value) {
            case (.name(let name), .object(let members)):
                guard let member = members[name] else { return nil }
                value = member
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return nil }
                value = elements[position]
            default:
                return nil
            }
        }
        return value
    }

    // MARK: - Function extensions

    private enum Result {
        case value(Value?)
        case logical(Bool)
        case nodes([Node])
    }

    private func call(_ call: JSONPath.FunctionCall, current: Value) -> Result {
        func value(_ index: Int) -> Value? {
            guard case .value(let comparable) = call.arguments[index] else { return nil }
            return operand(comparable, current: current)
        }
        func nodeList(_ index: Int) -> [Node] {
            guard case .nodes(let query) = call.arguments[index] else { return [] }
            return nodes(query, current: current)
        }
        switch call.function {
        case .length:
            switch value(0) {
            case .string(let text)?: return .value(.number(Double(text.unicodeScalars.count)))
            case .array(let elements)?: return .value(.number(Double(elements.count)))
            case .object(let members)?: return .value(.number(Double(members.count)))
            default: return .value(nil)
            }
        case .count:
            return .value(.number(Double(nodeList(0).count)))
        case .value:
            let nodes = nodeList(0)
            // `Value?.none` is Nothing; a bare `nil` here would be read as `Value.null`.
            return .value(nodes.count == 1 ? nodes[0].value : Value?.none)
        case .match, .search:
            guard case .string(let text)? = value(0), case .string(let pattern)? = value(1),
                let regex = regex(pattern)
            else { return .logical(false) }
            if call.function == .match { return .logical(text.wholeMatch(of: regex) != nil) }
            return .logical(text.firstMatch(of: regex) != nil)
        }
    }

    private func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
        if let known = regexes[pattern] { return known }
        let compiled = IRegexp.regex(pattern)
        regexes[pattern] = compiled
        return compiled
    }
}

/// Comparisons in filters (RFC 9535 §2.3.5.2.2): Nothing equals only Nothing; numbers compare
/// by value, strings by Unicode scalar values; arrays and objects are equal when deeply equal
/// and never ordered; values of different types are never equal nor ordered.
enum JSONPathComparison {
    static func compare(_ left: Value?, _ comparison: JSONPath.ComparisonOperator, _ right: Value?) -> Bool {
        switch comparison {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greater: less(right, left)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    static func equal(_ left: Value?, _ right: Value?) -> Bool {
        switch (left, right) {
        case (.none, .none): return true
        case (let left?, let right?): return equal(left, right)
        default: return false
        }
    }

    static func equal(_ left: Value, _ right: Value) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }

    static func less(_ left: Value?, _ right: Value?) -> Bool {
        switch (left, right) {
        case (.number(let a)?, .number(let b)?): a < b
        case (.string(let a)?, .string(let b)?): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        default: false
        }
    }
}
