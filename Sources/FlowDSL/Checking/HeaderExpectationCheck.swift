/// `expect.headers` values are exact text or a regular expression; one written without `${{ }}`
/// that does not compile as a regular expression is refused before anything runs.
enum HeaderExpectationCheck {
    static func diagnostics(in workflow: Workflow) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for step in workflow.allSteps {
            let expected: [NamedValue]
            switch step.kind {
            case .http(let http): expected = http.expect.headers
            case .upload(let upload): expected = upload.expect.headers
            default: continue
            }
            for header in expected {
                guard header.value.template?.isLiteral ?? false, let problem = HeaderPattern.problem(header.value.text)
                else { continue }
                diagnostics.append(
                    .error(
                        "expect.headers '\(Echo.text(header.name))' is not a valid regular expression: \(problem)",
                        at: header.value.location,
                        length: max(1, header.value.text.count),
                        hint:
                            "a value matches exactly or as a whole-value regular expression; escape special characters with \\"
                    ))
            }
        }
        return diagnostics
    }
}
