import FlowDSL
import FlowHTTP

/// What a finished step leaves for its dependents and reports: its `result` and its outputs.
///
/// Its fields live in one shared object: a step's record (`StepRecord<StepResult>`) holds it
/// inline, and the record is copied into the records table, the scheduler's node and every event.
/// Held inline the result made each record about 200 bytes, mostly empty optionals, first touched
/// 10,000 times at a run's set-up (issue 32); now it is one reference.
package struct StepResult: Sendable {
    /// The fields, never changed after `init`.
    private final class Fields: Sendable {
        let result: Value
        let outputs: [String: Value]
        let attempts: Int
        let items: [ItemResult]?
        let repetitions: Int?
        let request: HTTPRequestLine?

        init(
            result: Value, outputs: [String: Value], attempts: Int, items: [ItemResult]?, repetitions: Int?,
            request: HTTPRequestLine?
        ) {
            self.result = result
            self.outputs = outputs
            self.attempts = attempts
            self.items = items
            self.repetitions = repetitions
            self.request = request
        }
    }

    private let fields: Fields

    /// `result` as the step's own `expect` and `outputs` saw it (status, headers, json, stdout, …).
    package var result: Value { fields.result }
    /// The declared outputs, evaluated after the step succeeded.
    package var outputs: [String: Value] { fields.outputs }
    /// How many attempts the step made (1 without retries; every attempt of a `repeat` counted).
    package var attempts: Int { fields.attempts }
    /// For a `for-each` step: each item's result, in item order (`steps.<id>.items`).
    package var items: [ItemResult]? { fields.items }
    /// How many times a step with `repeat` ran before its condition said stop; nil without `repeat`.
    package var repetitions: Int? { fields.repetitions }
    /// For an `http` step: the request it sent (its last attempt's, unmasked), as reports show it.
    package var request: HTTPRequestLine? { fields.request }

    /// The result of a zero `sleep` without outputs: an empty object, one attempt. Shared by every
    /// such step (its fields never change, so a copy could not tell them apart).
    package static let zeroWait = StepResult(result: .object([:]), outputs: [:], attempts: 1)

    /// Creates a step result.
    package init(
        result: Value, outputs: [String: Value], attempts: Int, items: [ItemResult]? = nil, repetitions: Int? = nil,
        request: HTTPRequestLine? = nil
    ) {
        fields = Fields(
            result: result, outputs: outputs, attempts: attempts, items: items, repetitions: repetitions,
            request: request)
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
