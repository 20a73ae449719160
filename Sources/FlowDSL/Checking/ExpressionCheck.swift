/// Checks every expression of a workflow: syntax, roots, functions, inputs, step references,
/// declared outputs, `result` placement, and reading `steps.X` only from steps that depend on X.
struct ExpressionCheck {
    let workflow: Workflow
    private(set) var diagnostics: [Diagnostic] = []
    /// `steps.X.outputs.Y` pairs read anywhere, for the "output nobody reads" warning.
    private(set) var readOutputs = Set<OutputRead>()
    /// A step id and one of its outputs' names, hashed as they are rather than joined into a text.
    struct OutputRead: Hashable {
        let step: String
        let name: String
    }
    /// Steps whose outputs are read as a whole (`toJSON(steps.x.outputs)`, a computed name).
    private(set) var wholeOutputsRead = Set<String>()
    private var dependencies: DependencyQuery
    /// `item`, `index` and every `as` name: read outside their `for-each` step, they are errors
    /// that say where they are available rather than "unknown name".
    private let forEachNames: Set<String>
    /// Whether some group has `for-each` (its children's records exist only per item).
    private let repeatsGroups: Bool

    init(workflow: Workflow) {
        self.workflow = workflow
        self.dependencies = DependencyQuery(workflow: workflow)
        var names: Set<String> = [ForEach.defaultName, ForEach.indexName]
        for step in workflow.allSteps {
            if let forEach = step.forEach { names.insert(forEach.name) }
        }
        forEachNames = names
        repeatsGroups = workflow.allSteps.contains { step in
            if case .group = step.kind { return step.forEach != nil }
            return false
        }
    }

    /// The message for `item` (or `index`, or an `as` name) read where it is not in scope.
    private func forEachLocalProblem(_ name: String, site: ExpressionSite) -> (String, String) {
        let step: Step? =
            switch site.scope {
            case .workflow, .workflowOutputs: nil
            case .step(let step), .stepResult(let step): step
            }
        if let step, let forEach = step.forEach {
            if site.isForEachItems {
                return (
                    "'for-each' of step '\(Echo.text(step.id))' cannot read '\(name)': the items are computed before any item exists",
                    "read earlier steps' outputs or inputs here"
                )
            }
            if site.conditionKey == "if" {
                return (
                    "'if' of step '\(Echo.text(step.id))' cannot read '\(name)': it decides once, before the items run",
                    "to skip some items, filter the list given to 'for-each'"
                )
            }
            return (
                "step '\(Echo.text(step.id))' names its item '\(forEach.name)', not '\(name)'",
                "read ${{ \(forEach.name) }} and ${{ index }}, or set 'as: \(name)'"
            )
        }
        let what = step.map { "step '\(Echo.text($0.id))'" } ?? "workflow-level values"
        return (
            "'\(name)' is only available in a 'for-each' step, and \(what) has no 'for-each'",
            "add 'for-each: ${{ … }}' to the step, or read another step's items as steps.<id>.items"
        )
    }

    mutating func run() {
        ExpressionSite.visit(workflow) { check($0) }
        reportUnreadOutputs()
    }

    /// Checks the sites of workflow-level values (the first of `run`'s).
    mutating func checkWorkflowLevel() {
        ExpressionSite.visitWorkflowLevel(workflow) { check($0) }
    }

    /// Checks the sites of the steps at `positions` of `workflow.allSteps`; `inherited` is
    /// `ExpressionSite.inheritedNames(in: workflow)`.
    mutating func checkSteps(at positions: Range<Int>, inherited: [String: [String]]) {
        ExpressionSite.visitSteps(of: workflow, at: positions, inherited: inherited) { check($0) }
    }

    /// Checks the sites of the workflow's `outputs` (the last of `run`'s).
    mutating func checkOutputs() {
        ExpressionSite.visitOutputs(workflow) { check($0) }
    }

    /// The diagnostics found so far, which the check then forgets.
    mutating func takeDiagnostics() -> [Diagnostic] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    /// Warns of each declared output that no site read, here or in `others` (checks of other
    /// parts of the same workflow): after every site is checked.
    mutating func reportUnreadOutputs(readBy others: [ExpressionCheck] = []) {
        // The other checks' sets are asked as they are: merging them cost a millisecond on a
        // 10,000-step file (issue 32).
        let reads = [readOutputs] + others.map(\.readOutputs)
        let wholeReads = [wholeOutputsRead] + others.map(\.wholeOutputsRead)
        for step in workflow.allSteps {
            if step.outputs.isEmpty && step.repeat == nil { continue }
            if wholeReads.contains(where: { $0.contains(step.id) }) { continue }
            let declared = step.outputs + (step.repeat?.collect ?? [])
            for output in declared {
                let read = OutputRead(step: step.id, name: output.name)
                if reads.contains(where: { $0.contains(read) }) { continue }
                var warning = Diagnostic.warning(
                    "output '\(Echo.text(output.name))' of step '\(Echo.text(step.id))' is never read",
                    at: output.location,
                    length: output.name.count,
                    hint: "read it as ${{ steps.\(step.id).outputs.\(output.name) }}, or remove it"
                )
                warning.isTidiness = true
                diagnostics.append(warning)
            }
        }
    }

    private mutating func check(_ site: ExpressionSite) {
        let text = site.text
        if let error = text.syntaxError {
            diagnostics.append(
                .error(
                    "invalid expression: \(error.message)",
                    at: text.location(ofOffset: error.offset),
                    length: error.length
                ))
            return
        }
        guard let template = text.template else { return }
        if let key = site.conditionKey, template.isLiteral {
            do {
                let expression = try Expression.parse(text.text)
                check(expression, offset: 0, site: site)
            } catch {
                diagnostics.append(
                    .error(
                        "invalid expression in '\(key)': \(error.message)",
                        at: text.location(ofOffset: error.offset),
                        length: error.length
                    ))
            }
            return
        }
        if let key = site.conditionKey, !template.isSingleExpression {
            diagnostics.append(
                .error(
                    "an '\(key)' condition must be one expression, not text with expressions in it",
                    at: text.location,
                    hint: "write '${{ a && b }}' or 'a && b'"
                ))
        }
        for embedded in template.expressions {
            check(embedded.expression, offset: embedded.offset, site: site)
        }
    }

    private mutating func check(_ expression: Expression, offset: Int, site: ExpressionSite) {
        for call in expression.functionCalls {
            let location = site.text.location(ofOffset: offset + call.offset)
            guard let arity = Functions.arity(call.name) else {
                let hint = Suggestion.closest(to: call.name, in: Functions.names).map { "did you mean '\($0)'?" }
                diagnostics.append(
                    .error(
                        "unknown function '\(Echo.text(call.name))'", at: location, length: call.name.count, hint: hint)
                )
                continue
            }
            if !arity.contains(call.argumentCount) {
                diagnostics.append(
                    .error(
                        "'\(Echo.text(call.name))' takes \(Functions.describe(arity)), not \(call.argumentCount)",
                        at: location,
                        length: call.length
                    ))
            } else if let problem = Functions.literalArgumentProblem(call.name, call.literalArguments) {
                diagnostics.append(.error(problem, at: location, length: call.length))
            }
        }
        for reference in expression.references {
            check(reference, at: site.text.location(ofOffset: offset + reference.offset), site: site)
        }
    }

    private mutating func check(_ reference: Reference, at location: SourceLocation, site: ExpressionSite) {
        let length = reference.length
        func fail(_ message: String, hint: String? = nil) {
            diagnostics.append(.error(message, at: location, length: length, hint: hint))
        }
        let firstKey: String? = reference.path.first.flatMap { if case .key(let key) = $0 { key } else { nil } }
        switch reference.root {
        case "inputs":
            guard let name = firstKey else { return }
            if workflow.input(name) == nil {
                let names = workflow.inputs.map(\.name)
                let hint =
                    Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'?" }
                    ?? "declare it under 'inputs:'"
                fail("unknown input '\(Echo.text(name))'", hint: hint)
            }
        case "env", "secrets":
            return
        case "services":
            if let problem = checkServiceReference(reference, firstKey: firstKey) {
                fail(problem.message, hint: problem.hint)
            }
        case "flow":
            guard let name = firstKey, !Roots.flowProperties.contains(name) else { return }
            let hint = Suggestion.closest(to: name, in: Roots.flowProperties).map { "did you mean '\($0)'?" }
            fail(
                "'flow' has no property '\(Echo.text(name))'",
                hint: hint ?? "flow.executable is the path of the running flow binary")
        case "result":
            guard case .stepResult(let step) = site.scope, !isGroup(step) else {
                fail(
                    "'result' is only available in a step's own 'expect' and 'outputs'",
                    hint: "read another step's values through its outputs: steps.<id>.outputs.<name>"
                )
                return
            }
            if let field = firstKey, let problem = ResultFields.problem(reading: field, of: "result", in: step) {
                fail(problem.message, hint: problem.hint)
            }
        case "steps":
            if let problem = checkStepReference(reference, firstKey: firstKey, site: site) {
                fail(problem.message, hint: problem.hint)
            }
        case let name where site.locals.contains(name):
            return
        case let name where forEachNames.contains(name):
            let (message, hint) = forEachLocalProblem(name, site: site)
            fail(message, hint: hint)
        case _ where Repeat.localNames.contains(reference.root):
            if let problem = RepeatCheck.problem(readingLocal: reference.root, at: site) {
                fail(problem.message, hint: problem.hint)
            } else if reference.root == "previous", let field = firstKey, let step = site.scope.step,
                let problem = ResultFields.problem(reading: field, of: reference.root, in: step)
            {
                fail(problem.message, hint: problem.hint)
            }
        default:
            let hint = Suggestion.closest(to: reference.root, in: Roots.names).map { "did you mean '\($0)'?" }
            fail(
                "unknown name '\(Echo.text(reference.root))'",
                hint: hint ?? "expressions read \(Roots.names.joined(separator: ", "))"
            )
        }
    }

    /// The problem with a `steps.…` reference, if any.
    private mutating func checkStepReference(
        _ reference: Reference,
        firstKey: String?,
        site: ExpressionSite
    ) -> (message: String, hint: String?)? {
        guard let id = firstKey else { return nil }
        guard let target = workflow.step(id) else {
            let hint = Suggestion.closest(to: id, in: workflow.allSteps.map(\.id)).map { "did you mean '\($0)'?" }
            return ("unknown step '\(Echo.text(id))' in 'steps.\(id)'", hint)
        }
        let reader: Step?
        switch site.scope {
        case .workflow:
            return ("'steps' is not available here; workflow-level values are known before any step runs", nil)
        case .step(let step), .stepResult(let step):
            reader = step
        case .workflowOutputs:
            reader = nil
        }
        if repeatsGroups, let group = workflow.forEachGroup(enclosing: target), group.id != reader?.id,
            reader.flatMap({ workflow.forEachGroup(enclosing: $0)?.id }) != group.id
        {
            return (
                "step '\(Echo.text(id))' runs once per item of the 'for-each' group '\(Echo.text(group.id))'; steps.\(id) is only known inside the group",
                "read steps.\(group.id).outputs.<name> (a list in item order) or steps.\(group.id).items"
            )
        }
        if readsOutputsAsAWhole(reference.path) { wholeOutputsRead.insert(id) }
        if reference.path.count >= 2, case .key(let field) = reference.path[1] {
            switch field {
            case "outputs":
                if reference.path.count >= 3, case .key(let name) = reference.path[2] {
                    readOutputs.insert(OutputRead(step: id, name: name))
                    // Most reads name a declared output: found without the list of names (a
                    // `uses` step goes the long way, which asks for the called file).
                    if !target.isUses, target.outputs.contains(where: { $0.name == name }) { break }
                    // A `call` step's handler returns outputs that only the app knows.
                    if case .call = target.kind { break }
                    // A `uses` step also has the called file's outputs; unknown when that file is invalid.
                    var declared = target.outputNames
                    if case .uses = target.kind {
                        guard let called = workflow.calledWorkflow(of: id) else { return nil }
                        declared += called.outputs.map(\.name)
                    }
                    if !declared.contains(name) {
                        let hint =
                            Suggestion.closest(to: name, in: declared).map { "did you mean '\($0)'?" }
                            ?? (declared.isEmpty
                                ? "step '\(Echo.text(id))' declares no outputs"
                                : "it declares \(declared.map { "'\($0)'" }.joined(separator: ", "))")
                        return ("step '\(Echo.text(id))' has no output '\(Echo.text(name))'", hint)
                    }
                }
            case "status":
                break
            case "items":
                if target.forEach != nil { break }
                return (
                    "only 'for-each' steps have 'items'; step '\(Echo.text(id))' is not one",
                    "read steps.\(id).outputs.<name> or steps.\(id).status"
                )
            case "winner":
                if case .group(let group) = target.kind, group.mode == .any { break }
                return ("only 'parallel: any' groups have a 'winner'; step '\(Echo.text(id))' is not one", nil)
            default:
                let hint = Suggestion.closest(to: field, in: ["outputs", "status", "winner", "items"]).map {
                    "did you mean '\($0)'?"
                }
                return (
                    "steps.\(id) has no field '\(Echo.text(field))'",
                    hint ?? "read steps.\(id).outputs.<name> or steps.\(id).status"
                )
            }
        }
        // An `any` group's own outputs may name its winner, known once the group has finished.
        guard let reader else { return nil }
        if case .stepResult = site.scope, id == reader.id, reference.path.count >= 2,
            reference.path[1] == .key("winner")
        {
            return nil
        }
        if !dependencies.depends(reader.id, on: id) {
            return (
                "step '\(Echo.text(reader.id))' reads steps.\(id) but does not depend on '\(Echo.text(id))'",
                "add '\(Echo.text(id))' to the needs of '\(Echo.text(reader.id))' (directly or through another need), or the value may not exist yet"
            )
        }
        return nil
    }

    /// The problem with a `services.…` reference: an undeclared service or an unknown property.
    private func checkServiceReference(_ reference: Reference, firstKey: String?) -> (message: String, hint: String?)? {
        guard let name = firstKey else { return nil }
        guard workflow.service(name) != nil else {
            let names = workflow.services.map(\.name)
            let hint =
                Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'?" }
                ?? (names.isEmpty
                    ? "declare it under 'services:'"
                    : "declared services: \(names.map { "'\($0)'" }.joined(separator: ", "))")
            return ("unknown service '\(Echo.text(name))' in 'services.\(name)'", hint)
        }
        guard reference.path.count >= 2, case .key(let property) = reference.path[1],
            !Service.properties.contains(property)
        else { return nil }
        let hint =
            Suggestion.closest(to: property, in: Service.properties).map { "did you mean '\($0)'?" }
            ?? "a service has 'port' and 'url'"
        return ("services.\(name) has no property '\(Echo.text(property))'", hint)
    }

    /// `steps.x`, `steps.x[expr]`, `steps.x.outputs` or `steps.x.outputs[expr]`: no single output named.
    private func readsOutputsAsAWhole(_ path: [PathComponent]) -> Bool {
        guard path.count >= 2 else { return true }
        switch path[1] {
        case .key("outputs"):
            guard path.count >= 3, case .key = path[2] else { return true }
            return false
        case .key: return false
        default: return true
        }
    }

    private func isGroup(_ step: Step) -> Bool {
        if case .group = step.kind { return true }
        return false
    }
}

extension Step {
    /// Whether the step runs another workflow file.
    fileprivate var isUses: Bool {
        if case .uses = kind { return true }
        return false
    }
}
