/// A JSON value whose object keys keep the order they were written in, so the schema reads top-down
/// (title, description, type, properties) and its text is stable from build to build.
indirect enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case string(String)
    case array([JSONNode])
    case object([Member])

    /// One key of an object, in written order.
    struct Member: Sendable, Equatable {
        let key: String
        let value: JSONNode
    }

    /// An object from `(key, value)` pairs, in the order given.
    static func object(_ pairs: KeyValuePairs<String, JSONNode>) -> JSONNode {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    /// This value with `members` appended (when it is an object).
    func adding(_ members: KeyValuePairs<String, JSONNode>) -> JSONNode {
        guard case .object(let existing) = self else { return self }
        return .object(existing + members.map { Member(key: $0.key, value: $0.value) })
    }

    /// The value as indented JSON text (two spaces a level), ending without a newline.
    func rendered() -> String {
        var text = ""
        render(into: &text, indent: 0)
        return text
    }

    private func render(into text: inout String, indent: Int) {
        switch self {
        case .null:
            text += "null"
        case .bool(let value):
            text += value ? "true" : "false"
        case .integer(let value):
            text += String(value)
        case .string(let value):
            text += Self.quoted(value)
        case .array(let items):
            renderArray(items, into: &text, indent: indent)
        case .object(let members):
            renderObject(members, into: &text, indent: indent)
        }
    }

    private func renderArray(_ items: [JSONNode], into text: inout String, indent: Int) {
        // Short lists of scalars (enums, required keys) read best on one line.
        if items.allSatisfy(\.isScalar) {
            var parts: [String] = []
            for item in items { parts.append(item.rendered()) }
            text += "[" + parts.joined(separator: ", ") + "]"
            return
        }
        let padding = String(repeating: "  ", count: indent + 1)
        text += "[\n"
        for (index, item) in items.enumerated() {
            text += padding
            item.render(into: &text, indent: indent + 1)
            text += index == items.count - 1 ? "\n" : ",\n"
        }
        text += String(repeating: "  ", count: indent) + "]"
    }

    private func renderObject(_ members: [Member], into text: inout String, indent: Int) {
        if members.isEmpty {
            text += "{}"
            return
        }
        let padding = String(repeating: "  ", count: indent + 1)
        text += "{\n"
        for (index, member) in members.enumerated() {
            text += padding + Self.quoted(member.key) + ": "
            member.value.render(into: &text, indent: indent + 1)
            text += index == members.count - 1 ? "\n" : ",\n"
        }
        text += String(repeating: "  ", count: indent) + "}"
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// `value` as a JSON string literal (RFC 8259 escapes; other characters pass through as UTF-8).
    static func quoted(_ value: String) -> String {
        Value.string(value).jsonText
    }
}
