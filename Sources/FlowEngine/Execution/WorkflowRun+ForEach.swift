import FlowDSL
import FlowTasks

extension WorkflowRun {
    /// A `for-each` step's plan: one scheduler node whose leaf evaluates the items, then runs the
    /// step's own leaf once per item (`ForEachRun`). Its `timeout` bounds each item, not the
    /// whole step (as a matrix job's does). Other steps are returned as they are. `kept` are the
    /// items that succeeded in the run being resumed (`PriorRun.items`).
    static func repeated(
        _ planned: PlannedStep<StepResult>, step: Step, values: RunValues, masker: SecretMasker, concurrency: Int,
        kept: [Int: PriorItem] = [:]
    ) -> PlannedStep<StepResult> {
        // A group with `for-each` is planned as a leaf that runs one item (`forEachGroupLeaf`).
        guard let forEach = step.forEach, case .leaf(let leaf) = planned.work else { return planned }
        let plan = ForEachRun.Plan(
            step: step, forEach: forEach, limit: max(1, min(forEach.concurrency ?? concurrency, concurrency)),
            timeout: planned.timeout, masker: masker, leaf: leaf, kept: kept)
        if case .given? = values.forEachSelection, values.forEachSelection?.step == step.id {
            // The step's `if` and items were decided by the pod that computed them: this one runs
            // its item, whatever the records it was not given would say (see `ForEachSelection`).
            let selection = values.forEachSelection
            return PlannedStep(
                id: planned.id, needs: planned.needs, group: planned.group,
                condition: .custom { facts in !facts.runCancelled }, continueOnError: planned.continueOnError,
                timeout: nil,
                work: .leaf { start in ForEachRun.run(plan, start: start, items: [], selection: selection) })
        }
        let work = StepWork<StepResult>.leaf { start in
            let items: [Value]
            do {
                let scope = values.scope(for: forEach.items.strings, records: start.records, locals: start.locals)
                let value = try forEach.items.value(in: scope)
                items = try ForEachRun.items(of: value, step: step, at: forEach.itemsLocation)
            } catch {
                return Future.failed(error, on: start.queue)
            }
            return ForEachRun.run(plan, start: start, items: items, selection: values.forEachSelection)
        }
        return PlannedStep(
            id: planned.id, needs: planned.needs, group: planned.group, condition: planned.condition,
            continueOnError: planned.continueOnError, timeout: nil, work: work)
    }
}
