extension StepParser {
    /// `outputs`: each name's value is text (usually one `${{ }}`), or `{ value: TEXT, secret: true }`
    /// for a value to mask from the moment it is known (a token a login returns).
    mutating func parseOutputs(_ node: Node) -> [NamedValue] {
        guard let entries = reader.mapping(node, "'outputs'") else { return [] }
        var outputs: [NamedValue] = []
        outputs.reserveCapacity(entries.count)
        for entry in entries {
            let location = reader.location(entry.keyNode)
            guard case .mapping = entry.value else {
                if let value = reader.text(entry.value, "'\(Echo.text(entry.key))' in 'outputs'") {
                    outputs.append(NamedValue(name: entry.key, location: location, value: value))
                }
                continue
            }
            // Only the long form names the output in its messages: made here, not for each output.
            let what = "output '\(Echo.text(entry.key))'"
            guard let fields = reader.mapping(entry.value, what) else { continue }
            reader.rejectUnknownKeys(fields, allowed: ["value", "secret"], in: what)
            let field = NodeReader.Fields(fields)
            guard let valueField = field["value"] else {
                reader.error(
                    "\(what) has no 'value'", at: entry.keyNode,
                    hint: "write '\(Echo.text(entry.key)): { value: \"${{ result.json.token }}\", secret: true }'")
                continue
            }
            guard let value = reader.text(valueField.value, "'value' of \(what)") else { continue }
            var output = NamedValue(name: entry.key, location: location, value: value)
            output.secret = field["secret"].flatMap { reader.bool($0.value, "'secret' of \(what)") } ?? false
            outputs.append(output)
        }
        return outputs
    }
}
