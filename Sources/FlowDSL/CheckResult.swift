/// What checking a workflow file produced: the workflow when it is valid, and every diagnostic.
package struct CheckResult: Sendable {
    /// The checked workflow, or nil when the file has errors.
    package let workflow: Workflow?
    /// Every error and warning, in file order.
    package let diagnostics: [Diagnostic]
    /// The file name as given, used in diagnostics without a location.
    package let file: String
    /// The file's lines, for source snippets in rendered diagnostics (empty when unreadable).
    package let sourceLines: [Substring]
    /// The lines of every file its `uses` steps call (directly or not), by the name locations
    /// give them: diagnostics and runtime failures inside a called file show its line.
    package let calledFiles: [String: [Substring]]

    /// Whether any diagnostic is an error (the workflow must not run).
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Creates a result; diagnostics are sorted into file order (unlocated ones first).
    package init(
        workflow: Workflow?, diagnostics: [Diagnostic], file: String, sourceLines: [Substring],
        calledFiles: [String: [Substring]] = [:]
    ) {
        // This file's diagnostics first, then each called file's, each in file order.
        func key(_ diagnostic: Diagnostic) -> (Int, String, Int, Int) {
            guard let location = diagnostic.location else { return (0, "", 0, 0) }
            let elsewhere = location.file != file ? 1 : 0
            return (elsewhere, elsewhere == 1 ? location.file : "", location.line, location.column)
        }
        let ordered = diagnostics.enumerated().sorted { lhs, rhs in
            let left = key(lhs.element)
            let right = key(rhs.element)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        self.diagnostics = ordered
        self.workflow = ordered.contains { $0.severity == .error } ? nil : workflow
        self.file = file
        self.sourceLines = sourceLines
        self.calledFiles = calledFiles
    }

    /// The lines of `file`: this one's or a called file's (empty when unknown).
    package func lines(of file: String) -> [Substring] {
        file == self.file ? sourceLines : calledFiles[file] ?? []
    }

    /// Every file's lines by name, this one's included.
    package var allSourceLines: [String: [Substring]] {
        calledFiles.merging([file: sourceLines]) { _, own in own }
    }

    /// Every diagnostic rendered compiler-style, one after the other.
    package func renderedDiagnostics() -> String {
        diagnostics.map { $0.rendered(sourceLines: lines(of: $0.location?.file ?? file), file: file) }.joined()
    }
}
