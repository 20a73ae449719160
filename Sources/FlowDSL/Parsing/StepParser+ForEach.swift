extension StepParser {
    /// The keys of a `for-each` step besides its kind's.
    static let forEachKeys = ["for-each", "as", "concurrency", "items"]

    /// The keys of `items:`, the items' policy of a group with `for-each` (whose own `parallel`,
    /// `at-least` and `fail-fast` decide each item).
    static let itemsPolicyKeys = ["parallel", "at-least", "fail-fast"]

    /// Whether `parallel`, `at-least` and `fail-fast` of this step are its for-each policy: a
    /// `for-each` step that is not a group (a group has `steps`, and its `parallel` is its mode).
    static func forEachOwnsPolicy(_ field: NodeReader.Fields) -> Bool {
        field["for-each"] != nil && field["steps"] == nil
    }

    /// `for-each` with `as`, `concurrency` and, on a step that is not a group, `parallel`,
    /// `at-least` and `fail-fast`. Reports `as` or `concurrency` without `for-each`.
    mutating func parseForEach(_ field: NodeReader.Fields, what: @autoclosure () -> String) -> ForEach? {
        let repeatsGroup = field["for-each"] != nil && field["steps"] != nil
        if let stray = field["items"], !repeatsGroup {
            reader.error(
                "'items' only applies to a group with 'for-each', not to \(what())", at: stray.keyNode,
                hint: field["for-each"] == nil
                    ? "add 'for-each: ${{ … }}' and 'steps' to run a group once per item"
                    : "on a step that is not a group, write 'parallel', 'at-least' and 'fail-fast' next to 'for-each'")
        }
        guard let entry = field["for-each"] else {
            guard field["as"] != nil || field["concurrency"] != nil else { return nil }
            for key in ["as", "concurrency"] {
                guard let stray = field[key] else { continue }
                reader.error(
                    "'\(key)' only applies to 'for-each' steps, not to \(what())", at: stray.keyNode,
                    hint: "add 'for-each: ${{ … }}' with the items to run the step once per item")
            }
            return nil
        }
        let items = parseItems(entry.value)
        var name = ForEach.defaultName
        if let asField = field["as"], let text = reader.string(asField.value, "'as'") {
            if !Self.isPlainName(text) {
                reader.error(
                    "'as: \(Echo.text(text))' is not a name expressions can read", at: asField.value,
                    hint: "use letters, digits and '_', not starting with a digit (as: file)")
            } else if Roots.names.contains(text) || text == ForEach.indexName {
                reader.error(
                    "'as: \(text)' hides the name '\(text)' expressions already read", at: asField.value,
                    hint: "choose another name (as: entry); '\(text)' stays what it is")
            } else {
                name = text
            }
        }
        let concurrency = field["concurrency"].flatMap { reader.integer($0.value, "'concurrency'", atLeast: 1) }
        var mode = GroupStep.Mode.all
        var atLeast: Int?
        var failFast = true
        var policy: NodeReader.Fields?
        if Self.forEachOwnsPolicy(field) {
            policy = field
        } else if repeatsGroup, let itemsField = field["items"],
            let entries = reader.mapping(itemsField.value, "'items'")
        {
            reader.rejectUnknownKeys(entries, allowed: Self.itemsPolicyKeys, in: "'items'")
            policy = NodeReader.Fields(entries)
        }
        if let field = policy {
            if let modeField = field["parallel"] {
                mode = reader.choice(modeField.value, "'parallel' mode", as: GroupStep.Mode.self) ?? .all
            }
            if let atLeastField = field["at-least"] {
                atLeast = reader.integer(atLeastField.value, "'at-least'", atLeast: 1)
                if mode == .all {
                    reader.error(
                        "'at-least' only applies with 'parallel: any'", at: atLeastField.keyNode,
                        hint: "add 'parallel: any' to race the items")
                } else if let value = atLeast, case .array(let list) = items, value > list.count {
                    reader.error(
                        "'at-least: \(value)' asks for more successes than the \(list.count) item(s) of 'for-each'",
                        at: atLeastField.value)
                }
            }
            if let failFastField = field["fail-fast"] {
                failFast = reader.bool(failFastField.value, "'fail-fast'") ?? true
                if mode == .any {
                    reader.error("'fail-fast' only applies with 'parallel: all'", at: failFastField.keyNode)
                }
            }
        }
        guard let items else { return nil }
        return ForEach(
            items: items, name: name, concurrency: concurrency, mode: mode, atLeast: atLeast, failFast: failFast,
            location: reader.location(entry.keyNode), itemsLocation: reader.location(entry.value))
    }

    /// A YAML list or mapping, or one `${{ }}`; anything that can never be a list is an error.
    private mutating func parseItems(_ node: Node) -> ValueTemplate? {
        let hint =
            "give a YAML list, or one expression giving a list: ${{ steps.list.outputs.names }}, ${{ range(0, 10) }}, ${{ files('data/*.csv') }}"
        switch node {
        case .sequence, .mapping:
            return reader.valueTemplate(node)
        case .scalar(let scalar):
            let template = reader.valueTemplate(node)
            guard case .string(let text) = template else {
                reader.error("'for-each' needs a list, not \(reader.describe(node))", at: node, hint: hint)
                return nil
            }
            if text.syntaxError != nil { return template }  // the expression check reports it
            guard text.template?.isSingleExpression == true else {
                let shown = scalar.string.count > 40 ? String(scalar.string.prefix(40)) + "…" : scalar.string
                reader.error(
                    "'for-each' needs a list, not the text '\(Echo.text(shown))'", at: node,
                    hint: hint + " (text around an expression is always a string)")
                return nil
            }
            return template
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: a name the expression lexer reads as one identifier.
    static func isPlainName(_ name: String) -> Bool {
        IdentifierSyntax.isValidName(name) && !name.contains("-")
    }
}
