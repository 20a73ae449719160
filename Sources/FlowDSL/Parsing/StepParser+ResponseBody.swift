extension StepParser {
    /// The keys of `http:` that say what happens to the response body.
    static let responseBodyKeys = ["save-to", "resume", "max-body", "max-size"]

    /// `save-to`, `resume`, `max-body` and `max-size` of an `http:` mapping.
    mutating func parseResponseBody(_ field: NodeReader.Fields, method: HTTPMethod) -> ResponseBodyOptions {
        var options = ResponseBodyOptions()
        if let entry = field["save-to"] {
            options.saveTo = reader.text(entry.value, "'save-to'")
            if let path = options.saveTo, path.text.isEmpty {
                reader.error("'save-to' is empty", at: entry.value, hint: "write the path of the file to create")
            }
        }
        if let entry = field["resume"] {
            options.resume = reader.bool(entry.value, "'resume'") ?? false
            if options.resume, field["save-to"] == nil {
                reader.error(
                    "'resume' needs 'save-to'", at: entry.keyNode,
                    hint: "only a download written to a file can continue where it stopped")
            } else if options.resume, method != .get {
                reader.error(
                    "'resume' works only with GET, not \(method.rawValue)", at: entry.keyNode,
                    hint: "a Range request asks again for the same resource; drop 'resume' or use GET")
            }
        }
        if let entry = field["max-body"] {
            options.maxBody = reader.size(entry.value, "'max-body'")
        }
        if let entry = field["max-size"] {
            options.maxSize = reader.size(entry.value, "'max-size'")
            if field["save-to"] == nil {
                reader.error(
                    "'max-size' needs 'save-to'", at: entry.keyNode,
                    hint: "'max-size' caps the file 'save-to' writes; 'max-body' caps a body kept in memory")
            }
        }
        return options
    }
}
