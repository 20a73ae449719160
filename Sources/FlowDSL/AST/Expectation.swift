/// A step's `expect:` — what a response must look like for the step to succeed.
public struct Expectation: Sendable, Hashable {
    /// The accepted statuses (default any 2xx).
    public let status: StatusPattern
    /// Expressions that must all be true, evaluated with `result`.
    public let assertions: [ScalarText]
    /// Where `expect:` is written.
    public let location: SourceLocation?

    /// Creates an expectation.
    public init(status: StatusPattern = .success, assertions: [ScalarText] = [], location: SourceLocation? = nil) {
        self.status = status
        self.assertions = assertions
        self.location = location
    }
}
