extension WorkflowParser {
    /// `defaults.http.cookies` written as a mapping `{ load: FILE, save: FILE }` (see `CookieFiles`);
    /// `nil` when it is a boolean (read with the other transport keys) or absent.
    mutating func parseCookieFiles(_ entry: NodeReader.Entry?) -> CookieFiles? {
        guard let entry, case .mapping = entry.value else { return nil }
        guard let entries = reader.mapping(entry.value, "'cookies'") else { return nil }
        reader.rejectUnknownKeys(entries, allowed: ["load", "save"], in: "'cookies'")
        let field = NodeReader.Fields(entries)
        if entries.isEmpty {
            reader.error(
                "'cookies' names no file", at: entry.value,
                hint: "write 'cookies: { load: FILE, save: FILE }' (either or both), or 'cookies: true'")
        }
        return CookieFiles(
            load: field["load"].flatMap { reader.text($0.value, "'cookies.load'") },
            save: field["save"].flatMap { reader.text($0.value, "'cookies.save'") },
            location: reader.location(entry.keyNode))
    }
}
