/// One problem found in a workflow: an error (the file is invalid) or a warning (it still runs).
package struct Diagnostic: Sendable, Hashable {
    /// How serious a diagnostic is.
    package enum Severity: String, Sendable, Hashable {
        /// The workflow is invalid and will not run.
        case error
        /// Worth a look, but the workflow is still valid.
        case warning
    }

    /// Whether the problem makes the workflow invalid.
    package let severity: Severity
    /// What is wrong, in one sentence without a trailing period.
    package let message: String
    /// Where the problem is, when it has a place in the file.
    package let location: SourceLocation?
    /// How many columns the caret underlines (at least 1).
    package let length: Int
    /// A suggestion to fix it ("did you mean 'upload'?").
    package let hint: String?
    /// A warning about tidiness rather than behaviour (an output never read): `flow validate`
    /// shows it in full, `flow run` counts such warnings on one line so every run is not noisy.
    package var isTidiness = false

    /// Creates a diagnostic; `length` is clamped to at least 1, and control and bidirectional
    /// formatting characters in `message` and `hint` are escaped (see `Echo`).
    package init(
        _ severity: Severity,
        _ message: String,
        at location: SourceLocation?,
        length: Int = 1,
        hint: String? = nil
    ) {
        self.severity = severity
        // A safety net under `Echo.text` at each place that quotes user text: nothing a file
        // contains can put a control or bidi character into a message.
        self.message = Echo.escapingUnprintable(message)
        self.location = location
        self.length = max(1, length)
        self.hint = hint.map(Echo.escapingUnprintable)
    }

    /// An error at `location`.
    package static func error(
        _ message: String,
        at location: SourceLocation?,
        length: Int = 1,
        hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, message, at: location, length: length, hint: hint)
    }

    /// A warning at `location`.
    package static func warning(
        _ message: String,
        at location: SourceLocation?,
        length: Int = 1,
        hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, message, at: location, length: length, hint: hint)
    }
}
