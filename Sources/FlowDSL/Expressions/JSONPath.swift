/// A JSONPath query as RFC 9535 defines it: `$`, child segments (`.name`, `['name']`, `[0]`,
/// `[-1]`, `[1:5:2]`, `[*]`, unions like `['a', 0]`), descendant segments (`..name`, `..[*]`),
/// filters (`[?@.price < 10 && match(@.name, 'a.*')]`) with the function extensions `length`,
/// `count`, `match`, `search` and `value`. Parsing checks the grammar and the well-typedness of
/// filters, so an invalid query fails before it meets a document.
struct JSONPath: Sendable {
    /// A query that does not parse, or is not well-typed.
    struct SyntaxError: Error {
        let message: String
    }

    /// A selected value and, when asked for, its Normalized Path (RFC 9535 §2.7).
    struct Node {
        let value: Value
        let location: Location?
    }

    let query: Query

    init(_ text: String) throws(SyntaxError) {
        var parser = JSONPathParser(text)
        query = try parser.parseQuery()
    }

    /// Whether the query selects at most one node (only names and indexes): `jsonPath()` gives
    /// such a query's value itself rather than a list.
    var isSingular: Bool { query.isSingular }

    /// Every selected value, in the RFC's order (object members by key, since flow's objects
    /// keep no order of their own).
    func values(in document: Value) -> [Value] {
        JSONPathEvaluation(root: document, tracksLocations: false).nodes(query, current: document).map(\.value)
    }

    /// Every selected node with its Normalized Path.
    func nodes(in document: Value) -> [Node] {
        JSONPathEvaluation(root: document, tracksLocations: true).nodes(query, current: document)
    }

    /// What `jsonPath()` gives: for a singular query the selected value (`null` when none), for
    /// any other the list of selected values.
    func select(in document: Value) -> Value {
        let values = values(in: document)
        return isSingular ? values.first ?? .null : .array(values)
    }
}

extension JSONPath {
    /// Where a node is, as a chain of steps from the root; shared by the nodes below it.
    final class Location: Sendable {
        enum Step: Sendable {
            case name(String)
            case index(Int)
        }

        let parent: Location?
        let step: Step

        init(parent: Location?, step: Step) {
            self.parent = parent
            self.step = step
        }

        /// The Normalized Path (RFC 9535 §2.7): `$['store']['book'][0]`.
        var normalizedPath: String {
            var steps: [Step] = []
            var location: Location? = self
            while let current = location {
                steps.append(current.step)
                location = current.parent
            }
            var text = "$"
            for step in steps.reversed() {
                switch step {
                case .index(let index): text += "[\(index)]"
                case .name(let name): text += "['" + Self.escaped(name) + "']"
                }
            }
            return text
        }

        private static func escaped(_ name: String) -> String {
            var text = String.UnicodeScalarView()
            for scalar in name.unicodeScalars {
                switch scalar {
                case "\u{8}": text.append(contentsOf: "\\b".unicodeScalars)
                case "\u{C}": text.append(contentsOf: "\\f".unicodeScalars)
                case "\n": text.append(contentsOf: "\\n".unicodeScalars)
                case "\r": text.append(contentsOf: "\\r".unicodeScalars)
                case "\t": text.append(contentsOf: "\\t".unicodeScalars)
                case "'": text.append(contentsOf: "\\'".unicodeScalars)
                case "\\": text.append(contentsOf: "\\\\".unicodeScalars)
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
                default: text.append(scalar)
                }
            }
            return String(text)
        }
    }
}
