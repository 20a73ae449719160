/// The templates compiled while one file is read, by their text. A workflow repeats the same
/// `${{ }}` (`${{ result.status }}` in most steps' outputs, `${{ inputs.token }}` in each request)
/// and compiling one costs thousands of instructions, hashing its text a few hundred; compiling
/// depends on the text alone, so a value read again is the same (issue 32).
final class TemplateMemo {
    private var compiled: [String: Result<Template, ExpressionSyntaxError>] = [:]

    /// `text` compiled as a template, or the syntax error that stops it.
    func compile(_ text: String) -> Result<Template, ExpressionSyntaxError> {
        // Texts without `${{` compile at once (no scanner): nothing to remember.
        guard Template.containsOpening(text) else { return Self.parse(text) }
        if let known = compiled[text] { return known }
        let result = Self.parse(text)
        compiled[text] = result
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
