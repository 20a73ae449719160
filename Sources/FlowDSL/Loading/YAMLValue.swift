/// A YAML document read as plain data (`flow export argo --overlay`): mappings as objects, lists
/// as arrays, plain scalars as YAML's core schema reads them (`true`, `null`, numbers) and
/// quoted ones as text, through the same composer and scalar rules as workflow files.
package enum YAMLValue {
    /// Why the text is not a YAML document, with where.
    package struct Problem: Error, Sendable {
        /// What is wrong.
        package let message: String
        /// The 1-based line.
        package let line: Int
        /// The 1-based column.
        package let column: Int
    }

    /// The document's value; a problem for malformed YAML or text without a document.
    package static func parse(_ text: String) -> Result<Value, Problem> {
        switch YAMLComposer.compose(Array(text.utf8)) {
        case .document(let node): return .success(value(node))
        case .noDocument: return .failure(Problem(message: "the file holds no YAML document", line: 1, column: 1))
        case .problems(let problems):
            let first = problems.first
            return .failure(
                Problem(
                    message: first?.message ?? "not YAML", line: first?.line ?? 1, column: first?.column ?? 1))
        }
    }

    private static func value(_ node: Node) -> Value {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain || scalar.style == .any else { return .string(scalar.string) }
            switch PlainScalar.classify(scalar.string) {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .number(let number, let float): return .number(number, float: float)
            case .string: return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .array(sequence.nodes.map(value))
        case .mapping(let mapping):
            var members: [String: Value] = [:]
            for (key, item) in mapping {
                guard case .scalar(let name) = key else { continue }
                members[name.string] = value(item)
            }
            return .object(members)
        }
    }
}
