/// A malformed expression or template, located precisely for a caret under the offending text.
package struct ExpressionSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem starts, in Characters from the start of the text passed to `parse`.
    package let offset: Int
    /// How many Characters the caret should cover (at least 1).
    package let length: Int
    /// What is wrong, in words a user understands ("unterminated string").
    package let message: String

    /// Creates an error covering `length` Characters from `offset`.
    package init(offset: Int, length: Int, message: String) {
        self.offset = offset
        self.length = max(1, length)
        self.message = message
    }

    /// The message preceded by its 0-based offset, for logs and test failures.
    package var description: String { "\(offset): \(message)" }

    /// The same error moved by `delta` Characters, as when an expression's error is reported in
    /// the template that embeds it.
    func shifted(by delta: Int) -> ExpressionSyntaxError {
        ExpressionSyntaxError(offset: offset + delta, length: length, message: message)
    }
}

/// A failure while evaluating a well-formed expression: a wrong type for a function, an
/// unavailable root, malformed JSON for `fromJSON`.
package struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    package let message: String
    /// Where, in Characters from the start of the evaluated expression (or template).
    package let offset: Int
    /// How many Characters the caret should cover (at least 1).
    package let length: Int

    /// Creates an error covering `length` Characters from `offset`.
    package init(message: String, offset: Int, length: Int) {
        self.message = message
        self.offset = offset
        self.length = max(1, length)
    }

    /// The message preceded by its 0-based offset, for logs and test failures.
    package var description: String { "\(offset): \(message)" }

    /// The same error moved by `delta` Characters.
    func shifted(by delta: Int) -> EvaluationError {
        EvaluationError(message: message, offset: offset + delta, length: length)
    }
}
