/// Checks the `uses` steps of a workflow: reads and checks each called file (recursively, each
/// once), reports cycles, missing files and `services` in called files, and checks `with`
/// against the called file's `inputs`; sets `Workflow.called` to the files that are valid.
enum UsesCheck {
    /// The diagnostics (a called file's own ones point into it) and every called file's lines.
    struct Outcome {
        var diagnostics: [Diagnostic] = []
        var files: [String: [Substring]] = [:]
    }

    static func run(_ workflow: inout Workflow, context: UsesContext) -> Outcome {
        var outcome = Outcome()
        var called: [String: Workflow] = [:]
        for step in workflow.allSteps {
            guard case .uses(let uses) = step.kind else { continue }
            if let chain = context.cycle(to: uses.resolvedPath, file: uses.file) {
                outcome.diagnostics.append(
                    .error(
                        "the workflow files use each other in a cycle: \(chain)", at: uses.location,
                        length: uses.path.count, hint: "a file cannot use itself, directly or through another file"))
                continue
            }
            let (result, fresh) = context.result(of: uses.resolvedPath, file: uses.file)
            if result.sourceLines.isEmpty, result.workflow == nil {
                // Unreadable: say so at the `uses:` that names it.
                let reason = result.diagnostics.first?.message ?? "cannot read '\(uses.file)'"
                outcome.diagnostics.append(
                    .error(
                        "step '\(step.id)' uses '\(Echo.text(uses.path))': \(reason)", at: uses.location,
                        length: uses.path.count,
                        hint: "a 'uses' path is relative to the file that uses it (here: \(uses.file))"))
                continue
            }
            outcome.files.merge(result.allSourceLines) { first, _ in first }
            if fresh { outcome.diagnostics += result.diagnostics }
            guard let target = result.workflow else {
                outcome.diagnostics.append(
                    .error(
                        "step '\(step.id)' uses '\(Echo.text(uses.path))', which is not valid", at: uses.location,
                        length: uses.path.count, hint: "fix the errors reported in \(uses.file)"))
                continue
            }
            outcome.diagnostics += problems(of: step, uses, target: target)
            called[uses.resolvedPath] = target
        }
        workflow.called = called
        return outcome
    }

    /// `with` against the called file's inputs, and what a called file may not declare.
    private static func problems(of step: Step, _ uses: UsesStep, target: Workflow) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let service = target.services.first {
            diagnostics.append(
                .error(
                    "step '\(step.id)' uses '\(Echo.text(uses.path))', which declares services ('\(service.name)' at \(service.location)); a called file cannot start services",
                    at: uses.location, length: uses.path.count,
                    hint:
                        "declare the service in the calling file and pass its URL with 'with' (services.\(service.name).url)"
                ))
        }
        let names = target.inputs.map(\.name)
        for entry in uses.with {
            guard let input = target.input(entry.name) else {
                let hint =
                    Suggestion.closest(to: entry.name, in: names).map { "did you mean '\($0)'?" }
                    ?? (names.isEmpty
                        ? "\(uses.file) declares no inputs"
                        : "\(uses.file) declares \(names.map { "'\($0)'" }.joined(separator: ", "))")
                diagnostics.append(
                    .error(
                        "unknown input '\(Echo.text(entry.name))' in 'with': \(uses.file) has no such input",
                        at: entry.location, length: entry.name.count, hint: hint))
                continue
            }
            // A literal is checked now, as `--input` is; an expression when the step runs.
            if entry.value.template?.isLiteral == true, InputValue.parse(entry.value.text, as: input.kind) == nil {
                diagnostics.append(
                    .error(
                        "input '\(input.name)' of \(uses.file) must be a \(input.kind.rawValue), not '\(Echo.text(entry.value.text))'",
                        at: entry.value.location, hint: "it is declared at \(input.location)"))
            }
        }
        for input in target.inputs where input.required && !uses.with.contains(where: { $0.name == input.name }) {
            diagnostics.append(
                .error(
                    "step '\(step.id)' does not give input '\(input.name)', which \(uses.file) requires",
                    at: uses.location, length: uses.path.count,
                    hint: "add it under 'with:' (\(input.name): …); it is declared at \(input.location)"))
        }
        return diagnostics
    }
}
