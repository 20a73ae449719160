/// Small constructors for the JSON Schema keywords the workflow schema uses, so each definition in
/// `WorkflowSchema` reads like the language reference it mirrors.
enum SchemaVocabulary {
    /// A reference to a definition under `$defs`, with its own description for editors' hovers.
    static func ref(_ name: String, _ description: String? = nil) -> JSONNode {
        let node = JSONNode.object(["$ref": .string("#/$defs/\(name)")])
        guard let description else { return node }
        return node.adding(["description": .string(description)])
    }

    /// A string value; `${{ }}` is allowed in it, as in every string the language reads.
    static func text(_ description: String) -> JSONNode {
        .object(["description": .string(description), "type": .string("string")])
    }

    /// A boolean.
    static func boolean(_ description: String) -> JSONNode {
        .object(["description": .string(description), "type": .string("boolean")])
    }

    /// An integer of at least `minimum`.
    static func integer(_ description: String, minimum: Int) -> JSONNode {
        .object([
            "description": .string(description), "type": .string("integer"), "minimum": .integer(minimum),
        ])
    }

    /// One of the listed words.
    static func choice(_ description: String, _ words: [String]) -> JSONNode {
        .object(["description": .string(description), "enum": .array(words.map(JSONNode.string))])
    }

    /// A value matching any of `alternatives` (`anyOf`: alternatives may overlap, e.g. a string
    /// that is also an expression).
    static func either(_ description: String, _ alternatives: [JSONNode]) -> JSONNode {
        .object(["description": .string(description), "anyOf": .array(alternatives)])
    }

    /// `node`, or a `${{ }}` computed when the run starts (`retry`, `timeout`, `concurrency`, `chunk-size`).
    static func orExpression(_ description: String, _ node: JSONNode) -> JSONNode {
        either(description + " A `${{ }}` is computed when the run starts.", [node, ref("expression")])
    }

    /// A mapping with a closed set of keys: unknown keys are errors, as they are for `flow validate`.
    static func closedObject(
        _ description: String,
        properties: KeyValuePairs<String, JSONNode>,
        required: [String] = []
    ) -> JSONNode {
        var members: [JSONNode.Member] = [
            .init(key: "description", value: .string(description)),
            .init(key: "type", value: .string("object")),
        ]
        if !required.isEmpty {
            members.append(.init(key: "required", value: .array(required.map(JSONNode.string))))
        }
        members.append(
            .init(key: "properties", value: .object(properties.map { .init(key: $0.key, value: $0.value) }))
        )
        members.append(.init(key: "additionalProperties", value: .bool(false)))
        return .object(members)
    }

    /// A mapping from free-form keys to values of one shape (headers, query, env, outputs).
    static func map(_ description: String, values: JSONNode) -> JSONNode {
        .object([
            "description": .string(description), "type": .string("object"), "additionalProperties": values,
        ])
    }

    /// A YAML scalar other than null: what headers, query parameters, environment variables and
    /// outputs accept (numbers and booleans are read as their text).
    static let scalar = JSONNode.object([
        "type": .array([.string("string"), .string("number"), .string("boolean")])
    ])
}
