/// Warns about a step's own `retry` that can never apply as the step is written (see
/// `Retry.neverApplies`): users of other tools expect `retry: 3` to retry a POST.
enum RetryCheck {
    static func diagnostics(in workflow: Workflow) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let defaultHeaders = workflow.defaults.http.headers
        for step in workflow.allSteps {
            guard let retry = step.retry, case .http(let http) = step.kind else { continue }
            let hasKey = (http.headers + defaultHeaders).contains { $0.name.lowercased() == "idempotency-key" }
            guard retry.neverApplies(to: http.method, hasIdempotencyKey: hasKey) else { continue }
            diagnostics.append(
                .warning(
                    "'retry' of step '\(Echo.text(step.id))' never applies: \(Retry.whyNotRetried(http.method))",
                    at: retry.location,
                    length: "retry".count,
                    hint: Retry.howToAllowRetry
                ))
        }
        return diagnostics
    }
}
