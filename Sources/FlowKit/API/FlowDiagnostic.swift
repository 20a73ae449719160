import FlowDSL

/// A place in a workflow file: `file:line:column`, counted from 1.
public struct FlowSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as it was given.
    public let file: String
    /// The line, from 1.
    public let line: Int
    /// The column, from 1.
    public let column: Int

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    init(_ location: SourceLocation) {
        file = location.file
        line = location.line
        column = location.column
    }
}

/// A problem found in a workflow, an input or a run's setup, as `flow validate` reports it.
///
/// ```swift
/// for problem in error.diagnostics { print(problem) }   // workflow.yaml:4:7: error: unknown key 'methd' …
/// ```
public struct FlowDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Whether the problem stops the workflow from running.
    public enum Severity: String, Sendable, Hashable {
        /// The workflow cannot run.
        case error
        /// The workflow runs, but probably not as meant.
        case warning
    }

    /// How serious it is.
    public let severity: Severity
    /// What is wrong.
    public let message: String
    /// Where, when the problem has a place (an unreadable file has none).
    public let location: FlowSourceLocation?
    /// What to do about it ("did you mean 'upload'?"), when flow knows.
    public let hint: String?
    /// The engine's diagnostic, for rendering it with its source line (how many columns the caret
    /// underlines is not part of the public value).
    let diagnostic: Diagnostic

    /// Whether it is a warning about tidiness (a declared output that no step reads): `flow run`
    /// counts these on one line, `flow validate` shows each.
    ///
    /// ```swift
    /// let shown = check.diagnostics.filter { !$0.isTidiness }
    /// ```
    public var isTidiness: Bool { diagnostic.isTidiness }

    /// `file:line:col: error: message`, then the hint.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return place + "\(severity.rawValue): \(message)" + (hint.map { "\n  hint: \($0)" } ?? "")
    }

    init(_ diagnostic: Diagnostic) {
        severity = diagnostic.severity == .error ? .error : .warning
        message = diagnostic.message
        location = diagnostic.location.map(FlowSourceLocation.init)
        hint = diagnostic.hint
        self.diagnostic = diagnostic
    }
}

/// A workflow that cannot be loaded, or a run that cannot start (an input, a secret, a report's
/// path, the journal): every problem, located.
public struct FlowError: Error, Sendable, CustomStringConvertible {
    /// The problems; at least one is an error.
    public let diagnostics: [FlowDiagnostic]

    /// Whether the problem is in `FlowRunOptions.only` or `externalServices` (a step, file or
    /// service they name), rather than in the workflow, its inputs or secrets: `flow run` says
    /// these after `flow run: `.
    public let inOptions: Bool

    /// One problem a line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    init(_ diagnostics: [FlowDiagnostic]) {
        self.diagnostics = diagnostics
        inOptions = false
    }

    init(message: String, inOptions: Bool = false) {
        diagnostics = [FlowDiagnostic(.error(message, at: nil))]
        self.inOptions = inOptions
    }
}
