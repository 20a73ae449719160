extension StepParser {
    static let repeatKeys = ["until", "while", "every", "max-attempts", "collect"]

    /// `repeat: { until | while, every, max-attempts, collect }` of step `id` whose kind is `kind`.
    mutating func parseRepeat(_ entry: NodeReader.Entry, kind: StepKind?, id: String) -> Repeat? {
        let what = "'repeat' of step '\(Echo.text(id))'"
        guard let fields = reader.mapping(entry.value, what) else { return nil }
        reader.rejectUnknownKeys(fields, allowed: Self.repeatKeys, in: "'repeat'")
        let field = NodeReader.Fields(fields)
        if let kind, !repeatApplies(to: kind, at: entry.keyNode, id: id) { return nil }

        var mode: Repeat.Mode?
        var condition: ScalarText?
        switch (field["until"], field["while"]) {
        case (nil, nil):
            reader.error(
                "\(what) has no 'until' or 'while'",
                at: entry.keyNode,
                hint: "say when to stop, e.g. 'until: ${{ result.json.state == 'done' }}', "
                    + "or when to go on, e.g. 'while: ${{ result.json.next != null }}'"
            )
        case (_?, let other?):
            reader.error(
                "\(what) has both 'until' and 'while'",
                at: other.keyNode,
                hint: "keep one: 'until' stops when its condition holds, 'while' goes on while it holds"
            )
        case (let until?, nil):
            mode = .until
            condition = reader.text(until.value, "'until'")
        case (nil, let other?):
            mode = .while
            condition = reader.text(other.value, "'while'")
        }

        var every = Repeat.defaultEvery
        if let node = field["every"]?.value {
            if literalSettingRequired(node, "'every'") {
                every = reader.duration(node, "'every'") ?? every
            }
        }
        var maxAttempts = Repeat.defaultMaxAttempts
        if let node = field["max-attempts"]?.value {
            if literalSettingRequired(node, "'max-attempts'") {
                maxAttempts = reader.integer(node, "'max-attempts'", atLeast: 1) ?? maxAttempts
            }
        }
        var collect: [NamedValue] = []
        if let node = field["collect"]?.value {
            collect = reader.namedValues(node, "'collect'")
        }
        guard let mode, let condition else { return nil }
        return Repeat(
            mode: mode, condition: condition, every: every, maxAttempts: maxAttempts, collect: collect,
            location: reader.location(entry.keyNode))
    }

    /// `repeat` runs one request, upload, command or wait again; a group's children are steps of
    /// their own with their own lifetimes, so repeating a whole group is refused.
    private mutating func repeatApplies(to kind: StepKind, at keyNode: Node, id: String) -> Bool {
        switch kind {
        case .http, .upload, .run, .sleep:
            return true
        default:
            reader.error(
                "'repeat' does not apply to '\(kind.keyword)' step '\(Echo.text(id))'",
                at: keyNode,
                hint: "repeat applies to http, upload, run and sleep steps; put 'repeat' on the child that polls"
            )
            return false
        }
    }

    /// False (with an error) when `node` is written as `${{ }}`: the rule is fixed in the file.
    private mutating func literalSettingRequired(_ node: Node, _ what: String) -> Bool {
        guard case .scalar(let scalar) = node, scalar.string.contains("${{") else { return true }
        reader.error(
            "\(what) of 'repeat' must be written in the file, not computed",
            at: node,
            hint: "write a fixed value, e.g. 'every: 2s' or 'max-attempts: 30'"
        )
        return false
    }
}
