/// The templates compiled while one file is read, by their text. A workflow repeats the same
/// `${{ }}` (`${{ result.status }}` in most steps' outputs, `${{ inputs.token }}` in each request)
/// and compiling one costs thousands of instructions, hashing its text a few hundred; compiling
/// depends on the text alone, so a value read again is the same (issue 32).
final class TemplateMemo {
    private var compiled: [String: Result<Template, ExpressionSyntaxError>?] = [:]

    /// `text` compiled as a template, or the syntax error that stops it.
    func compile(_ text: String) -> Result<Template, ExpressionSyntaxError> {
        // Texts without `${{` compile at once (no scanner): nothing to remember.
        guard Template.containsOpening(text) else { return Self.parse(text) }
        // One lookup finds the slot or makes it: a text seen for the first time was hashed
        // twice, to look it up and to store it (issue 32).
        return Self.fill(&compiled[text, default: nil], with: text)
    }

    private static func fill(
        _ slot: inout Result<Template, ExpressionSyntaxError>?, with text: String
    ) -> Result<Template, ExpressionSyntaxError> {
        if let known = slot { return known }
        let result = parse(text)
        slot = result
        return result
    }

    private static func parse(_ text: String) -> Result<Template, ExpressionSyntaxError> {
        do {
            return .success(try Template.parse(text))
        } catch {
            return .failure(error)
        }
    }
}
