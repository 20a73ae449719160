/// How `expect.headers` compares a response header with what the workflow wrote: the value
/// passes when it equals the text exactly, or when the whole value matches the text read as a
/// regular expression (`text/csv.*`). Exact equality first keeps values full of regex
/// characters (`application/vnd.api+json`) working as written.
package enum HeaderPattern {
    /// Why `pattern` is not a valid regular expression, or `nil` when it is.
    package static func problem(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Whether `value` is `pattern` exactly or matches it as a whole; `nil` when the pattern is
    /// not a valid regular expression (and not equal to the value).
    package static func matches(_ value: String, _ pattern: String) -> Bool? {
        if value == pattern { return true }
        guard let regex = try? Regex(pattern) else { return nil }
        return value.wholeMatch(of: regex) != nil
    }
}
