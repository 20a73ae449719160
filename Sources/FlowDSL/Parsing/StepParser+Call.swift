extension StepParser {
    /// `call: name` with `with: { input: value }`: a step the host program implements. Whether a
    /// handler of that name exists is not known here (see `CheckResult.checkingHostSteps`).
    mutating func parseCall(_ kindEntry: NodeReader.Entry, fields: NodeReader.Fields) -> CallStep? {
        var with = ValueTemplate.object([])
        if let field = fields["with"] {
            if case .mapping = field.value {
                with = reader.valueTemplate(field.value)
            } else {
                reader.error(
                    "'with' of a 'call' step must be a mapping of input names to values", at: field.value,
                    hint: "write 'with: { user: \"${{ item }}\" }'")
            }
        }
        guard let name = reader.string(kindEntry.value, "'call'") else { return nil }
        if name.contains("${{") {
            reader.error(
                "'call' names a handler; it cannot contain '${{ }}'", at: kindEntry.value,
                hint: "handlers are known before anything runs; pass values with 'with'")
            return nil
        }
        guard CallStep.isValidName(name) else {
            reader.error(
                "'\(Echo.text(name))' is not a handler name", at: kindEntry.value,
                hint: "names match [A-Za-z_][A-Za-z0-9_.-]*, as the app registers them (e.g. 'score-user')")
            return nil
        }
        return CallStep(name: name, with: with, location: reader.location(kindEntry.value))
    }
}
