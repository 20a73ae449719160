extension Workflow {
    /// Every `call` step of this file and of the files its `uses` steps call (each file once),
    /// with its step, in file order.
    package var hostStepCalls: [(step: Step, call: CallStep)] {
        var seen: Set<String> = []
        var calls: [(step: Step, call: CallStep)] = []
        appendHostStepCalls(into: &calls, seen: &seen)
        return calls
    }

    private func appendHostStepCalls(into calls: inout [(step: Step, call: CallStep)], seen: inout Set<String>) {
        for step in allSteps {
            if case .call(let call) = step.kind { calls.append((step, call)) }
        }
        for path in called.keys.sorted() where seen.insert(path).inserted {
            called[path]?.appendHostStepCalls(into: &calls, seen: &seen)
        }
    }
}

extension CheckResult {
    /// This result with a diagnostic for each `call` step whose handler is not among `registered`:
    /// an error, so that a workflow needing a handler the program lacks stops before anything runs,
    /// or a warning where nothing runs (`flow run --dry-run` shows such a call all the same).
    package func checkingHostSteps(registered: Set<String>, asWarnings: Bool = false) -> CheckResult {
        guard let workflow else { return self }
        let calls = workflow.hostStepCalls
        guard !calls.isEmpty else { return self }
        let known = registered.sorted()
        var diagnostics = self.diagnostics
        for (step, call) in calls where !registered.contains(call.name) {
            let message =
                "step '\(Echo.text(step.id))' calls handler '\(Echo.text(call.name))', which is not registered"
            let hint =
                Suggestion.closest(to: call.name, in: known).map { "did you mean '\($0)'?" }
                ?? (known.isEmpty
                    ? "'call' steps run inside an app that registers their handler (FlowKit's HostStepRegistry); "
                        + "the flow command has none"
                    : "the handlers are \(known.map { "'\($0)'" }.joined(separator: ", "))")
            diagnostics.append(
                asWarnings
                    ? .warning(message, at: call.location, length: call.name.count, hint: hint)
                    : .error(message, at: call.location, length: call.name.count, hint: hint))
        }
        return CheckResult(
            workflow: workflow, diagnostics: diagnostics, file: file, sourceLines: sourceLines, calledFiles: calledFiles
        )
    }
}
