import FlowDSL

extension FlowWorkflow {
    /// The keyword of step `id` (`http`, `upload`, `run`, `wait`, `call`, `parallel`, …), as a log
    /// line names its kind; nil for an id the workflow does not declare.
    ///
    /// ```swift
    /// if case .stepStarted(let id) = event { print("[\(id)] started (\(workflow.keyword(ofStep: id) ?? "step"))") }
    /// ```
    public func keyword(ofStep id: String) -> String? {
        workflow.step(id)?.kind.keyword
    }

    /// Whether step `id` is a group without `for-each`: it does nothing of its own, and a view of
    /// the run shows it through its children (a `for-each` group also by its items).
    public func isPlainGroup(_ id: String) -> Bool {
        guard let step = workflow.step(id), case .group = step.kind else { return false }
        return step.forEach == nil
    }

    /// The source line `location` points at, with a caret under its column, as under a parse
    /// error (for a failure's `location`); empty when the file's lines are not known.
    ///
    /// ```swift
    /// if let place = failure.location { print(failure.message, workflow.snippet(at: place), separator: "\n") }
    /// ```
    public func snippet(at location: FlowSourceLocation) -> String {
        Diagnostic.snippet(
            at: SourceLocation(file: location.file, line: location.line, column: location.column),
            sourceLines: checked.lines(of: location.file))
    }
}
