import FlowDSL
import FlowEngine

/// What `flow run`'s renderers read of a session, besides the public `FlowEvent`s and
/// `FlowOutcome`: the command line shows a run from what an app is given.
extension RunSession {
    /// A `RunObserver.event` that gives `handler` each event as the `FlowEvent`s an app sees, in
    /// order, on the run's queue, none dropped. `hold` (a command's line) is kept until the line is
    /// written, which paces a command that prints faster than the output takes.
    package func flowEvents(
        _ handler: @escaping @Sendable (FlowEvent, _ hold: (AnyObject & Sendable)?) -> Void
    ) -> @Sendable (SchedulerEvent<StepResult>) -> Void {
        // The renderers read no buffer policy.
        let translator = FlowEventTranslator(workflow: settings.workflow, masker: masker, policies: false)
        return { event in translator.translate(event) { event, _, hold in handler(event, hold) } }
    }

    /// How the run ended, from the records its summary shows (with `--only`, the step's own).
    package func summaryOutcome(_ ended: RunSessionOutcome) -> FlowOutcome {
        FlowEventTranslator(workflow: settings.workflow, masker: masker, policies: false)
            .outcome(ended, records: ended.shownRecords, messages: [], allRecords: settings.only == nil)
    }

    /// Every step's id, groups' children included, in declaration order.
    package var stepIDs: [String] { settings.workflow.allSteps.map(\.id) }

    /// The keyword of step `id` (`http`, `upload`, `parallel`, …); nil for an id not declared.
    package func stepKeyword(_ id: String) -> String? {
        settings.workflow.step(id)?.kind.keyword
    }

    /// Whether step `id` is a group without `for-each` (shown through its children).
    package func isPlainGroup(_ id: String) -> Bool {
        guard let step = settings.workflow.step(id), case .group = step.kind else { return false }
        return step.forEach == nil
    }

    /// The source line `location` points at with a caret under its column, as under a parse
    /// error; empty when the file's lines are not known.
    package func snippet(at location: FlowSourceLocation) -> String {
        let lines =
            location.file == settings.workflow.file ? settings.sourceLines : settings.calledFiles[location.file] ?? []
        return Diagnostic.snippet(
            at: SourceLocation(file: location.file, line: location.line, column: location.column), sourceLines: lines)
    }
}
