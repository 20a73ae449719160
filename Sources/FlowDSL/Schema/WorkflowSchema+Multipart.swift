extension WorkflowSchema {
    /// Every two bodies of an `http` step, which may not appear together.
    static var bodyPairs: [(String, String)] {
        let bodies = ["json", "form", "body", "body-file", "multipart"]
        var pairs: [(String, String)] = []
        for (index, first) in bodies.enumerated() {
            for second in bodies[(index + 1)...] { pairs.append((first, second)) }
        }
        return pairs
    }

    /// `multipart:` — fields to text, or to `{ file, filename, content-type }` / `{ value, content-type }`.
    static var multipartDefinition: JSONNode {
        typealias V = SchemaVocabulary
        let file = V.closedObject(
            "A file part, streamed from disk.",
            properties: [
                "file": V.text("The file; a relative path is read from the workflow file's folder."),
                "filename": V.text("The part's filename (default: the path's last component)."),
                "content-type": V.text("The part's Content-Type (default: from the file name's extension)."),
            ],
            required: ["file"])
        let text = V.closedObject(
            "A text part with a content type.",
            properties: [
                "value": V.text("The part's text."),
                "content-type": V.text("The part's Content-Type."),
            ],
            required: ["value"])
        let part = JSONNode.object(["anyOf": .array([V.scalar, file, text])])
        return V.map(
            "A multipart/form-data body: each field is text, or a file part, or a list of them (one part each).",
            values: .object([
                "anyOf": .array([part, .object(["type": .string("array"), "items": part, "minItems": .integer(1)])])
            ])
        ).adding(["minProperties": .integer(1)])
    }
}
