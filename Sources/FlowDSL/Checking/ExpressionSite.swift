/// A place where an expression may appear, and what it may read there.
struct ExpressionSite {
    /// What a site may read.
    enum Scope {
        /// Workflow-level values (`env`, `defaults`, `services`): no `steps` or `result`.
        case workflow
        /// A step's request, command or condition: also `steps.X` of steps it depends on.
        case step(Step)
        /// A step's own `expect` and `outputs`: also `result`.
        case stepResult(Step)
        /// The workflow's top-level `outputs`, evaluated after every step: `steps.X` of any step.
        case workflowOutputs

        /// The step the site belongs to, if any.
        var step: Step? {
            switch self {
            case .step(let step), .stepResult(let step): step
            case .workflow, .workflowOutputs: nil
            }
        }
    }

    let text: ScalarText
    let scope: Scope
    /// For `if:` and `assert:` entries, which take a bare expression as well as `${{ }}`: the key.
    let conditionKey: String?
    /// Names the site reads besides the roots (a `for-each` step's item and `index`).
    let locals: [String]
    /// For the items of a `for-each`: the key, whose site cannot read the item it gives.
    let isForEachItems: Bool

    init(
        _ text: ScalarText, _ scope: Scope, conditionKey: String? = nil, locals: [String] = [],
        isForEachItems: Bool = false
    ) {
        self.text = text
        self.scope = scope
        self.conditionKey = conditionKey
        self.locals = locals
        self.isForEachItems = isForEachItems
    }

    /// Every site of a workflow, in file order within each step.
    static func all(in workflow: Workflow) -> [ExpressionSite] {
        var sites: [ExpressionSite] = []
        visit(workflow) { sites.append($0) }
        return sites
    }

    /// Hands every site of a workflow to `body`, in the order of `all(in:)`, without collecting
    /// them (issue 19: no array of texts per step, no array of every site).
    static func visit(_ workflow: Workflow, _ body: (ExpressionSite) -> Void) {
        visitWorkflowLevel(workflow, body)
        visitSteps(of: workflow, at: workflow.allSteps.indices, inherited: inheritedNames(in: workflow), body)
        visitOutputs(workflow, body)
    }

    /// The sites of workflow-level values (`env`, `defaults`, settings, services): the first ones.
    static func visitWorkflowLevel(_ workflow: Workflow, _ body: (ExpressionSite) -> Void) {
        for named in workflow.env { body(ExpressionSite(named.value, .workflow)) }
        if let baseURL = workflow.defaults.http.baseURL { body(ExpressionSite(baseURL, .workflow)) }
        for header in workflow.defaults.http.headers { body(ExpressionSite(header.value, .workflow)) }
        for text in workflow.defaults.http.transportTexts { body(ExpressionSite(text, .workflow)) }
        for setting in workflow.settingExpressions { body(ExpressionSite(setting.text, .workflow)) }
        for service in workflow.services {
            for text in service.texts { body(ExpressionSite(text, .workflow)) }
        }
    }

    /// The sites of the steps at `positions` of `workflow.allSteps`, in order; `inherited` is
    /// `inheritedNames(in:)`. Any part of the steps can be visited apart from the others.
    static func visitSteps(
        of workflow: Workflow, at positions: Range<Int>, inherited: [String: [String]],
        _ body: (ExpressionSite) -> Void
    ) {
        for position in positions {
            let step = workflow.allSteps[position]
            let outer = inherited.isEmpty ? [] : step.parent.flatMap { inherited[$0] } ?? []
            visitSites(of: step, inherited: outer, body)
        }
    }

    /// The sites of the workflow's top-level `outputs`: the last ones.
    static func visitOutputs(_ workflow: Workflow, _ body: (ExpressionSite) -> Void) {
        for output in workflow.outputs { body(ExpressionSite(output.value, .workflowOutputs)) }
    }

    /// The item names of the enclosing `for-each` groups of each group's children, by the
    /// group's id (groups run their children once per item); empty when no group has names,
    /// as in most files.
    static func inheritedNames(in workflow: Workflow) -> [String: [String]] {
        var inherited: [String: [String]] = [:]
        // A group comes before its children in `allSteps`, so its own entry is known by then.
        for step in workflow.allSteps {
            guard case .group = step.kind else { continue }
            let outer = inherited.isEmpty ? [] : step.parent.flatMap { inherited[$0] } ?? []
            let names = outer + (step.forEach?.localNames ?? [])
            if !names.isEmpty || !inherited.isEmpty { inherited[step.id] = names }
        }
        return inherited
    }

    private static func visitSites(of step: Step, inherited: [String], _ body: (ExpressionSite) -> Void) {
        // `if:` decides once whether the step runs at all, before its items exist.
        // An enclosing group's item is known there: the step runs once per item of the group.
        if let condition = step.condition {
            body(ExpressionSite(condition, .step(step), conditionKey: "if", locals: inherited))
        }
        let locals = step.forEach.map { inherited + $0.localNames } ?? inherited
        if let forEach = step.forEach {
            for text in forEach.items.strings {
                body(ExpressionSite(text, .step(step), locals: inherited, isForEachItems: true))
            }
        }
        let scope = Scope.step(step)
        func text(_ text: ScalarText) { body(ExpressionSite(text, scope, locals: locals)) }
        var assertions: [ScalarText] = []
        var headerValues: [NamedValue] = []
        switch step.kind {
        case .http(let http):
            text(http.url)
            for named in http.query { text(named.value) }
            for named in http.headers { text(named.value) }
            if http.transport.tls != nil || http.transport.auth != nil || http.transport.proxy != nil {
                for transportText in http.transport.texts { text(transportText) }
            }
            switch http.body {
            case .json(let value): value.visitStrings(text)
            case .form(let fields): for field in fields { text(field.value) }
            case .text(let body), .file(let body), .binary(let body, _): text(body)
            case .multipart(let parts): for part in parts { for partText in part.texts { text(partText) } }
            case nil: break
            }
            for rangeText in http.bodyRange?.texts ?? [] { text(rangeText) }
            assertions = http.expect.assertions
            headerValues = http.expect.headers
        case .upload(let upload):
            text(upload.file)
            text(upload.url)
            for named in upload.headers { text(named.value) }
            for named in upload.metadata { text(named.value) }
            for transportText in upload.transport.texts { text(transportText) }
            assertions = upload.expect.assertions
            headerValues = upload.expect.headers
        case .run(let run):
            switch run.command {
            case .script(let script): text(script)
            case .arguments(let arguments): for argument in arguments { text(argument) }
            }
            for named in run.env { text(named.value) }
            if let cwd = run.cwd { text(cwd) }
        case .uses(let uses):
            for named in uses.with { text(named.value) }
        case .call(let call):
            call.with.visitStrings(text)
        case .sleep, .group:
            break
        }
        let result = Scope.stepResult(step)
        for assertion in assertions {
            body(ExpressionSite(assertion, result, conditionKey: "assert", locals: locals))
        }
        for output in step.outputs { body(ExpressionSite(output.value, result, locals: locals)) }
        if let rule = step.repeat {
            body(ExpressionSite(rule.condition, result, conditionKey: rule.mode.rawValue, locals: locals))
            for collected in rule.collect { body(ExpressionSite(collected.value, result, locals: locals)) }
        }
        for header in headerValues { body(ExpressionSite(header.value, result, locals: locals)) }
    }
}

extension ValueTemplate {
    /// Hands every string of the value to `body`, depth first, as `strings` lists them.
    func visitStrings(_ body: (ScalarText) -> Void) {
        switch self {
        case .null, .bool, .number: return
        case .string(let text): body(text)
        case .array(let items): for item in items { item.visitStrings(body) }
        case .object(let members): for member in members { member.value.visitStrings(body) }
        }
    }
}
