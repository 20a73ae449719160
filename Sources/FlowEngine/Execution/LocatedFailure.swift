import FlowDSL

/// A runtime failure that points into the workflow file, so the command line renders it as a
/// diagnostic — place, source line with a caret, hint — the way it renders a parse error.
package protocol LocatedFailure: Error, CustomStringConvertible {
    /// What went wrong, in one sentence, already masked.
    var message: String { get }
    /// Where in the workflow the failing thing is written.
    var location: SourceLocation { get }
    /// What to do about it, when flow knows.
    var hint: String? { get }
}

extension LocatedFailure {
    /// No hint unless the failure gives one.
    package var hint: String? { nil }

    /// The failure as a diagnostic (an error at its place).
    package var diagnostic: Diagnostic {
        .error(message, at: location, hint: hint)
    }
}

extension StepError: LocatedFailure {}

extension ServiceError: LocatedFailure {
    /// `service 'x' exited with code 3 before it was ready` (`description` adds its last lines).
    package var message: String { "service '\(service)' \(reason)" }
}

extension RunSetupError {
    /// Each problem as a diagnostic.
    package var diagnostics: [Diagnostic] { problems.map(\.diagnostic) }
}
