import FlowEngine

/// The requests a dry run's plan shows, collected as values while its text is made; one list for
/// a plan and the plans of the files it calls. Used on one thread, while the plan is made.
package final class PlannedRequests {
    private(set) var all: [FlowPlannedRequest] = []

    /// An empty list.
    package init() {}

    func add(step: String, _ plan: RequestPlan) {
        let body: String?
        switch plan.body {
        case .none: body = nil
        case .json(let text), .form(let text), .text(let text): body = text
        case .binary(let bytes): body = DryRunBinary.describe(bytes)
        case .binaryKnownAtRunTime(let encoding, let text): body = "\(encoding.rawValue) \(text) (decoded at run time)"
        case .file(let path): body = "from file \(path)"
        case .multipart(let parts): body = DryRunMultipart.lines(parts).joined(separator: "\n")
        }
        let line = plan.line
        all.append(
            FlowPlannedRequest(
                step: step, method: line.method, url: line.url,
                headers: plan.headers.map { FlowPlannedRequest.Header(name: $0.name, value: $0.value) }, body: body))
    }
}
