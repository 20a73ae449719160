/// What checking a workflow file produced: the workflow when it is valid, and every diagnostic.
public struct CheckResult: Sendable {
    /// The checked workflow, or nil when the file has errors.
    public let workflow: Workflow?
    /// Every error and warning, in file order.
    public let diagnostics: [Diagnostic]
    /// The file name as given, used in diagnostics without a location.
    public let file: String
    /// The file's lines, for source snippets in rendered diagnostics (empty when unreadable).
    public let sourceLines: [Substring]

    /// Whether any diagnostic is an error (the workflow must not run).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Creates a result; diagnostics are sorted into file order (unlocated ones first).
    public init(workflow: Workflow?, diagnostics: [Diagnostic], file: String, sourceLines: [Substring]) {
        let ordered = diagnostics.enumerated().sorted { lhs, rhs in
            let left = lhs.element.location.map { ($0.line, $0.column) } ?? (0, 0)
            let right = rhs.element.location.map { ($0.line, $0.column) } ?? (0, 0)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        self.diagnostics = ordered
        self.workflow = ordered.contains { $0.severity == .error } ? nil : workflow
        self.file = file
        self.sourceLines = sourceLines
    }

    /// Every diagnostic rendered compiler-style, one after the other.
    public func renderedDiagnostics() -> String {
        diagnostics.map { $0.rendered(sourceLines: sourceLines, file: file) }.joined()
    }
}
