/// Checks `for-each` steps before anything runs: items known now must be a list (or an object)
/// with enough entries for `at-least`, and a `concurrency` above the workflow's is capped (a
/// warning says so). The children of a group with `for-each` run once per item, so no step
/// outside the group may need them (it needs the group instead).
enum ForEachCheck {
    static func diagnostics(in workflow: Workflow) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let repeatsGroups = workflow.allSteps.contains { step in
            if case .group = step.kind { return step.forEach != nil }
            return false
        }
        for step in workflow.allSteps {
            if repeatsGroups { diagnostics += repeatedNeeds(of: step, in: workflow) }
            guard let forEach = step.forEach else { continue }
            if let concurrency = forEach.concurrency, concurrency > workflow.concurrency {
                diagnostics.append(
                    .warning(
                        "'concurrency: \(concurrency)' of step '\(Echo.text(step.id))' is above the workflow's \(workflow.concurrency); at most \(workflow.concurrency) items run at once",
                        at: forEach.location, length: "for-each".count,
                        hint: "raise the workflow's 'concurrency', or lower the step's"))
            }
            guard let count = staticCount(forEach, step: step, diagnostics: &diagnostics) else { continue }
            if forEach.mode == .any, let atLeast = forEach.atLeast, atLeast > count,
                case .string = forEach.items
            {
                diagnostics.append(
                    .error(
                        "'at-least: \(atLeast)' asks for more successes than the \(count) item(s) of 'for-each' of step '\(Echo.text(step.id))'",
                        at: forEach.location, length: "for-each".count))
            }
        }
        return diagnostics
    }

    /// Needs of `step` on a step that runs once per item of a `for-each` group `step` is not in.
    private static func repeatedNeeds(of step: Step, in workflow: Workflow) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (need, location) in zip(step.needs, step.needLocations) {
            guard let needed = workflow.step(need), let group = workflow.forEachGroup(enclosing: needed),
                group.id != step.id, workflow.forEachGroup(enclosing: step)?.id != group.id
            else { continue }
            diagnostics.append(
                .error(
                    "step '\(Echo.text(step.id))' needs '\(Echo.text(need))', which runs once per item of the 'for-each' group '\(Echo.text(group.id))'",
                    at: location, length: need.count,
                    hint: "need '\(Echo.text(group.id))' instead, and read its outputs (lists in item order)"))
        }
        return diagnostics
    }

    /// The number of items when they are known now: a YAML list, or an expression that reads
    /// nothing and lists no files (`range(0, 10)`); reports one that can never be a list.
    private static func staticCount(_ forEach: ForEach, step: Step, diagnostics: inout [Diagnostic]) -> Int? {
        switch forEach.items {
        case .array(let items): return items.count
        case .object(let members): return members.count
        case .string(let text):
            guard let template = text.template, template.isSingleExpression,
                let expression = template.expressions.first?.expression, expression.references.isEmpty,
                !expression.functionCalls.contains(where: { $0.name == "files" })
            else { return nil }
            let value: Value
            do {
                value = try expression.evaluate(NothingKnown())
            } catch {
                diagnostics.append(
                    .error(
                        "'for-each' of step '\(Echo.text(step.id))' cannot be computed: \(error.message)",
                        at: forEach.itemsLocation))
                return nil
            }
            switch value {
            case .array(let items): return items.count
            case .object(let members): return members.count
            default:
                diagnostics.append(
                    .error(
                        "'for-each' of step '\(Echo.text(step.id))' needs a list, but '\(Echo.text(text.text))' is \(value.typeName)",
                        at: forEach.itemsLocation,
                        hint: "give a list: a YAML list, ${{ range(0, 10) }}, or a list output of an earlier step"))
                return nil
            }
        default:
            return nil
        }
    }

    /// Expressions that read nothing.
    private struct NothingKnown: EvaluationContext {
        func value(ofRoot name: String) -> Value? { nil }
        func statusFunction(_ function: StatusFunction) -> Bool? { nil }
    }
}
