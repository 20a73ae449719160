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
        var sites: [ExpressionSite] = workflow.env.map { ExpressionSite($0.value, .workflow) }
        if let baseURL = workflow.defaults.http.baseURL { sites.append(ExpressionSite(baseURL, .workflow)) }
        sites += workflow.defaults.http.headers.map { ExpressionSite($0.value, .workflow) }
        sites += workflow.defaults.http.transportTexts.map { ExpressionSite($0, .workflow) }
        sites += workflow.settingExpressions.map { ExpressionSite($0.text, .workflow) }
        for service in workflow.services {
            sites += service.texts.map { ExpressionSite($0, .workflow) }
        }
        // The item names of enclosing `for-each` groups, which run their children once per item.
        var inherited: [String: [String]] = [:]
        let steps = workflow.allSteps
        // Most steps have a few sites: one array grown in place, not one per step appended.
        sites.reserveCapacity(sites.count + 2 * steps.count)
        for step in steps {
            let outer = step.parent.flatMap { inherited[$0] } ?? []
            if case .group = step.kind {
                inherited[step.id] = outer + (step.forEach?.localNames ?? [])
            }
            appendSites(of: step, inherited: outer, to: &sites)
        }
        sites += workflow.outputs.map { ExpressionSite($0.value, .workflowOutputs) }
        return sites
    }

    private static func appendSites(of step: Step, inherited: [String], to sites: inout [ExpressionSite]) {
        var texts: [ScalarText] = []
        let resultTexts: [ScalarText] = step.outputs.map(\.value)
        var assertions: [ScalarText] = []
        var headerValues: [ScalarText] = []
        switch step.kind {
        case .http(let http):
            texts.append(http.url)
            texts += (http.query + http.headers).map(\.value) + http.transport.texts
            switch http.body {
            case .json(let value): texts += value.strings
            case .form(let fields): texts += fields.map(\.value)
            case .text(let text), .file(let text): texts.append(text)
            case .multipart(let parts): texts += parts.flatMap(\.texts)
            case nil: break
            }
            assertions = http.expect.assertions
            headerValues = http.expect.headers.map(\.value)
        case .upload(let upload):
            texts += [upload.file, upload.url] + (upload.headers + upload.metadata).map(\.value)
            texts += upload.transport.texts
            assertions = upload.expect.assertions
            headerValues = upload.expect.headers.map(\.value)
        case .run(let run):
            switch run.command {
            case .script(let script): texts.append(script)
            case .arguments(let arguments): texts += arguments
            }
            texts += run.env.map(\.value)
            if let cwd = run.cwd { texts.append(cwd) }
        case .uses(let uses):
            texts += uses.with.map(\.value)
        case .sleep, .group:
            break
        }
        // `if:` decides once whether the step runs at all, before its items exist.
        // An enclosing group's item is known there: the step runs once per item of the group.
        if let condition = step.condition {
            sites.append(ExpressionSite(condition, .step(step), conditionKey: "if", locals: inherited))
        }
        let locals = inherited + (step.forEach?.localNames ?? [])
        if let forEach = step.forEach {
            sites += forEach.items.strings.map {
                ExpressionSite($0, .step(step), locals: inherited, isForEachItems: true)
            }
        }
        sites += texts.map { ExpressionSite($0, .step(step), locals: locals) }
        sites += assertions.map { ExpressionSite($0, .stepResult(step), conditionKey: "assert", locals: locals) }
        sites += resultTexts.map { ExpressionSite($0, .stepResult(step), locals: locals) }
        if let rule = step.repeat {
            sites.append(
                ExpressionSite(rule.condition, .stepResult(step), conditionKey: rule.mode.rawValue, locals: locals))
            sites += rule.collect.map { ExpressionSite($0.value, .stepResult(step), locals: locals) }
        }
        sites += headerValues.map { ExpressionSite($0, .stepResult(step), locals: locals) }
    }
}
