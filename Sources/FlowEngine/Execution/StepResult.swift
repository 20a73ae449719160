import FlowDSL
import FlowHTTP

/// What a finished step leaves for its dependents and reports: its `result` and its outputs.
package struct StepResult: Sendable {
    /// `result` as the step's own `expect` and `outputs` saw it (status, headers, json, stdout, …).
    package let result: Value
    /// The declared outputs, evaluated after the step succeeded.
    package let outputs: [String: Value]
    /// How many attempts the step made (1 without retries; every attempt of a `repeat` counted).
    package let attempts: Int
    /// For a `for-each` step: each item's result, in item order (`steps.<id>.items`).
    package let items: [ItemResult]?
    /// How many times a step with `repeat` ran before its condition said stop; nil without `repeat`.
    package let repetitions: Int?
    /// For an `http` step: the request it sent (its last attempt's, unmasked), as reports show it.
    package let request: HTTPRequestLine?

    /// Creates a step result.
    package init(
        result: Value, outputs: [String: Value], attempts: Int, items: [ItemResult]? = nil, repetitions: Int? = nil,
        request: HTTPRequestLine? = nil
    ) {
        self.result = result
        self.outputs = outputs
        self.attempts = attempts
        self.items = items
        self.repetitions = repetitions
        self.request = request
    }
}

/// A step failure that points at the YAML: what went wrong and where it is declared.
package struct StepError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, already masked.
    package let message: String
    /// Where in the workflow file the failing thing is written.
    package let location: SourceLocation
    /// Whether another attempt may succeed (a command's non-zero exit); evaluation errors are not.
    package let retryable: Bool
    /// The response a failed `expect` saw (see `ResponseExcerpt`: lines led by `< `, masked and
    /// escaped), shown on the lines after the message.
    package var response: String?

    /// Creates a step error.
    package init(_ message: String, at location: SourceLocation, retryable: Bool = false) {
        self.message = message
        self.location = location
        self.retryable = retryable
    }

    /// The message, then the response's lines when there is one (the location is shown
    /// separately in summaries and reports).
    package var description: String { response.map { message + "\n" + $0 } ?? message }
}
