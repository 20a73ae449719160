/// What a dry run found: the plan `flow run --dry-run` prints, and each request it shows as a
/// value. Nothing is sent, started or written.
///
/// ```swift
/// let plan = try workflow.dryRun(inputs: ["env": "staging"])
/// for request in plan.requests { print(request.method, request.url) }
/// ```
public struct FlowDryRun: Sendable {
    /// The plan as `flow run --dry-run` prints it: waves of steps, requests, uploads' chunks, commands.
    public let text: String
    /// Every request the plan shows, in the plan's order: the 20 first items of a `for-each`.
    public let requests: [FlowPlannedRequest]
}

/// One request as it will be sent, built by the function the run uses: values known before the
/// run substituted, the others shown as `<steps.x.outputs.y>`, secrets as `***`.
public struct FlowPlannedRequest: Sendable, Hashable {
    /// A header line.
    public struct Header: Sendable, Hashable {
        /// Its name as written.
        public let name: String
        /// Its value, secrets masked.
        public let value: String
    }

    /// The step's id (`deploy/publish` in a called file, `fetch[2]` for an item).
    public let step: String
    /// `GET`, `POST`, …
    public let method: String
    /// The URL with its query.
    public let url: String
    /// The headers flow adds besides libcurl's own.
    public let headers: [Header]
    /// The body as the plan shows it (JSON text, form text, `from file PATH`, …); nil without one.
    public let body: String?
}
