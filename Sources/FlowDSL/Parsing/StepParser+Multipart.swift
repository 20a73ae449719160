extension StepParser {
    /// `multipart: { field: value, file-field: { file: PATH, filename: NAME, content-type: TYPE } }`.
    /// A part is text (a scalar, or `{ value, content-type }`) or a file (`{ file, filename,
    /// content-type }`).
    mutating func parseMultipart(_ node: Node) -> [MultipartPart] {
        guard let entries = reader.mapping(node, "'multipart'") else { return [] }
        if entries.isEmpty {
            reader.error("'multipart' has no parts", at: node, hint: "add a field such as 'name: value'")
        }
        var parts: [MultipartPart] = []
        for entry in entries {
            let what = "part '\(Echo.text(entry.key))' of 'multipart'"
            let location = reader.location(entry.keyNode)
            guard case .mapping = entry.value else {
                if let value = reader.text(entry.value, what) {
                    parts.append(
                        MultipartPart(name: entry.key, location: location, content: .text(value, contentType: nil)))
                }
                continue
            }
            guard let fields = reader.mapping(entry.value, what) else { continue }
            reader.rejectUnknownKeys(fields, allowed: ["file", "value", "filename", "content-type"], in: what)
            let field = NodeReader.Fields(fields)
            let contentType = field["content-type"].flatMap { reader.text($0.value, "'content-type' of \(what)") }
            switch (field["file"], field["value"]) {
            case (let file?, nil):
                guard let path = reader.text(file.value, "'file' of \(what)") else { continue }
                let filename = field["filename"].flatMap { reader.text($0.value, "'filename' of \(what)") }
                parts.append(
                    MultipartPart(
                        name: entry.key, location: location,
                        content: .file(path: path, filename: filename, contentType: contentType)))
            case (nil, let value?):
                if let filename = field["filename"] {
                    reader.error(
                        "'filename' is for file parts, but \(what) has 'value'", at: filename.keyNode,
                        hint: "use 'file: PATH' to send a file")
                }
                guard let text = reader.text(value.value, "'value' of \(what)") else { continue }
                parts.append(
                    MultipartPart(name: entry.key, location: location, content: .text(text, contentType: contentType)))
            case (_?, let value?):
                reader.error("\(what) has both 'file' and 'value'; a part is one or the other", at: value.keyNode)
            case (nil, nil):
                reader.error(
                    "\(what) has neither 'file' nor 'value'", at: entry.keyNode,
                    hint: "write 'file: PATH' for a file, or 'value: TEXT' (or just the text) for a field")
            }
        }
        return parts
    }

    /// `query`: a mapping of names to values, where a list value repeats the name once per item
    /// (`tag: [a, b]` → `tag=a&tag=b`), in order.
    mutating func parseQuery(_ node: Node) -> [NamedValue] {
        guard let entries = reader.mapping(node, "'query'") else { return [] }
        var values: [NamedValue] = []
        for entry in entries {
            let location = reader.location(entry.keyNode)
            let what = "'\(Echo.text(entry.key))' in 'query'"
            var items = [entry.value]
            var itemWhat = what
            if case .sequence(let sequence) = entry.value {
                items = Array(sequence)
                itemWhat = "an item of \(what)"
            }
            for item in items {
                guard let value = reader.text(item, itemWhat) else { continue }
                values.append(NamedValue(name: entry.key, location: location, value: value))
            }
        }
        return values
    }
}
