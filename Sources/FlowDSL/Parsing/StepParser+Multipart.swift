extension StepParser {
    /// `multipart: { field: value, file-field: { file: PATH, filename: NAME, content-type: TYPE } }`.
    /// A part is text (a scalar, or `{ value, content-type }`) or a file (`{ file, filename,
    /// content-type }`); a list of them sends one part of that name per item, in order.
    mutating func parseMultipart(_ node: Node) -> [MultipartPart] {
        guard let entries = reader.mapping(node, "'multipart'") else { return [] }
        if entries.isEmpty {
            reader.error("'multipart' has no parts", at: node, hint: "add a field such as 'name: value'")
        }
        var parts: [MultipartPart] = []
        for entry in entries {
            let what = "part '\(Echo.text(entry.key))' of 'multipart'"
            if case .sequence(let items) = entry.value {
                if items.isEmpty { reader.error("\(what) is an empty list", at: entry.value) }
                for item in items {
                    if let part = parsePart(entry, item, what: "an item of \(what)") { parts.append(part) }
                }
            } else if let part = parsePart(entry, entry.value, what: what) {
                parts.append(part)
            }
        }
        return parts
    }

    /// One part named by `entry`'s key, written as `node`.
    private mutating func parsePart(_ entry: NodeReader.Entry, _ node: Node, what: String) -> MultipartPart? {
        let location = reader.location(entry.keyNode)
        guard case .mapping = node else {
            return reader.text(node, what).map {
                MultipartPart(name: entry.key, location: location, content: .text($0, contentType: nil))
            }
        }
        guard let fields = reader.mapping(node, what) else { return nil }
        reader.rejectUnknownKeys(fields, allowed: ["file", "value", "filename", "content-type"], in: what)
        let field = NodeReader.Fields(fields)
        let contentType = field["content-type"].flatMap { reader.text($0.value, "'content-type' of \(what)") }
        switch (field["file"], field["value"]) {
        case (let file?, nil):
            guard let path = reader.text(file.value, "'file' of \(what)") else { return nil }
            let filename = field["filename"].flatMap { reader.text($0.value, "'filename' of \(what)") }
            return MultipartPart(
                name: entry.key, location: location,
                content: .file(path: path, filename: filename, contentType: contentType))
        case (nil, let value?):
            if let filename = field["filename"] {
                reader.error(
                    "'filename' is for file parts, but \(what) has 'value'", at: filename.keyNode,
                    hint: "use 'file: PATH' to send a file")
            }
            guard let text = reader.text(value.value, "'value' of \(what)") else { return nil }
            return MultipartPart(name: entry.key, location: location, content: .text(text, contentType: contentType))
        case (_?, let value?):
            reader.error("\(what) has both 'file' and 'value'; a part is one or the other", at: value.keyNode)
        case (nil, nil):
            reader.error(
                "\(what) has neither 'file' nor 'value'", at: entry.keyNode,
                hint: "write 'file: PATH' for a file, or 'value: TEXT' (or just the text) for a field")
        }
        return nil
    }

    /// `query`: a mapping of names to values, where a list value repeats the name once per item
    /// (`tag: [a, b]` → `tag=a&tag=b`), in order.
    mutating func parseQuery(_ node: Node) -> [NamedValue] {
        reader.repeatableNamedValues(node, "'query'")
    }
}
