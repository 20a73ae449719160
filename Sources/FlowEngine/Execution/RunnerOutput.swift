import FlowDSL
import FlowHTTP

/// What a step's runner gives when the step succeeded: `result`, the attempts made and, for an
/// `http` step, the request it sent, typed beside `result` for the report and the events.
struct RunnerOutput: Sendable {
    /// `result` as the step's `expect` and `outputs` see it.
    let result: Value
    /// The attempts made (1 without retries).
    let attempts: Int
    /// The request an `http` step sent; nil for other steps.
    var request: HTTPRequestLine?

    init(result: Value, attempts: Int, request: HTTPRequestLine? = nil) {
        self.result = result
        self.attempts = attempts
        self.request = request
    }
}
