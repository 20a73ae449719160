/// A step's `expect:` — what a response must look like for the step to succeed.
package struct Expectation: Sendable, Hashable {
    /// The accepted statuses (default any 2xx).
    package let status: StatusPattern
    /// Expressions that must all be true, evaluated with `result`.
    package let assertions: [ScalarText]
    /// `headers:` — response headers that must be present, each matching its value exactly or
    /// as a whole-value regular expression (see `HeaderExpectation`).
    package let headers: [NamedValue]
    /// Where `expect:` is written.
    package let location: SourceLocation?

    /// Creates an expectation.
    package init(
        status: StatusPattern = .success, assertions: [ScalarText] = [], headers: [NamedValue] = [],
        location: SourceLocation? = nil
    ) {
        self.status = status
        self.assertions = assertions
        self.headers = headers
        self.location = location
    }
}
