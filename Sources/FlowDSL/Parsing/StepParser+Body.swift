extension StepParser {
    /// `body: TEXT`, or a binary body `body: { base64: TEXT }` / `body: { hex: TEXT }`, whose text
    /// is decoded here when it holds no `${{ }}` so that a mistake is found before anything runs.
    mutating func parseBody(_ node: Node) -> HTTPStep.Body? {
        guard case .mapping = node else { return reader.text(node, "'body'").map(HTTPStep.Body.text) }
        guard let entries = reader.mapping(node, "'body'") else { return nil }
        let names = BinaryEncoding.allCases.map(\.rawValue)
        reader.rejectUnknownKeys(entries, allowed: names, in: "'body'")
        guard entries.count == 1, let entry = entries.first, let encoding = BinaryEncoding(rawValue: entry.key) else {
            if entries.count != 1 {
                reader.error(
                    "a binary 'body' takes exactly one of 'base64' and 'hex'", at: node,
                    hint: "write 'body: { base64: AAEC/w== }' or 'body: { hex: 000102ff }'")
            }
            return nil
        }
        guard let text = reader.text(entry.value, "'\(entry.key)' of 'body'") else { return nil }
        if text.template?.isLiteral == true {
            do throws(BinaryEncoding.DecodingError) {
                _ = try encoding.decode(text.text)
            } catch {
                reader.error("the '\(entry.key)' body cannot be decoded: \(error.description)", at: entry.value)
            }
        }
        return .binary(text, encoding)
    }
}
