/// Finds, before anything runs, the request URLs that can only fail: relative ones in a workflow
/// without `defaults.http.base-url`. A URL counts as relative when its text before the first
/// `${{ }}` (all of it, for a literal) cannot be the start of `http://` or `https://`; a URL that
/// starts with an expression is left to the run, which knows its value.
enum URLCheck {
    /// An error for each `http` and `upload` URL that is relative with no base URL to resolve it.
    static func diagnostics(in workflow: Workflow) -> [Diagnostic] {
        guard workflow.defaults.http.baseURL == nil else { return [] }
        var diagnostics: [Diagnostic] = []
        for step in workflow.allSteps {
            let url: ScalarText
            switch step.kind {
            case .http(let http): url = http.url
            case .upload(let upload): url = upload.url
            default: continue
            }
            guard isRelative(url) else { continue }
            diagnostics.append(
                .error(
                    "the URL '\(Echo.text(url.text))' of step '\(step.id)' is relative and there is no defaults.http.base-url",
                    at: url.location,
                    length: url.template?.isLiteral == true ? url.text.count : 1,
                    hint: "write an absolute URL (http://… or https://…), or set defaults.http.base-url"
                ))
        }
        return diagnostics
    }

    /// Whether `url` is relative whatever its expressions turn out to be.
    static func isRelative(_ url: ScalarText) -> Bool {
        guard let template = url.template else { return false }
        let prefix: Substring
        if let first = template.expressions.first {
            prefix = url.text.prefix(first.openingOffset)
            // Starting with an expression: the value decides.
            if prefix.isEmpty { return false }
        } else {
            prefix = Substring(url.text)
        }
        let lowered = prefix.lowercased()
        for scheme in ["http://", "https://"] {
            if lowered.hasPrefix(scheme) { return false }
            // Not a literal: "http" + "${{ … }}" may still become absolute.
            if !template.isLiteral, scheme.hasPrefix(lowered) { return false }
        }
        return true
    }
}
