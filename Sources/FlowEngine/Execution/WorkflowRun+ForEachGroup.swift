import FlowDSL
import FlowTasks

extension WorkflowRun {
    /// A group with `for-each`, planned as one leaf that `repeated` runs once per item: each item
    /// is a nested run of the group's subtree (`Workflow.forEachGroupBody`) with the item and
    /// `index` in every scope and the outer run's records readable, its steps named
    /// `batch[2]/check`. The group's own `parallel` decides each item; the item's result is the
    /// group's `outputs` (read from that item's children). Cancelling an item cancels its run.
    static func forEachGroupLeaf(_ step: Step, workflow: Workflow, context: NestedRunContext) -> StepWork<StepResult> {
        guard let body = workflow.forEachGroupBody(step.id) else {
            // A checked workflow always has the body; this only guards a hand-made one.
            let error = StepError("group '\(step.id)' has no children to repeat", at: step.location)
            return .leaf { start in Future.failed(error, on: start.queue) }
        }
        return .leaf { start in
            let index: Int
            if case .number(let number, _)? = start.locals[ForEach.indexName] {
                index = Int(number)
            } else {
                index = 0
            }
            let prefix = "\(start.id)[\(index)]/"
            let offset = start.records[start.id]?.startedAt ?? .zero
            let item = NestedRun.Item(locals: start.locals, records: start.records, group: step.id)
            return NestedRun.start(
                body, inputs: context.options.inputs, prefix: prefix, offset: offset, context: context,
                at: step.location, item: item
            ).map(on: start.queue) { finished in
                guard finished.outcome == .succeeded, let record = finished.records[step.id] else {
                    throw NestedRun.failure(of: finished, prefix: prefix, at: step.location, hidden: step.id)
                }
                return StepResult(result: .object([:]), outputs: record.output?.outputs ?? [:], attempts: 1)
            }
        }
    }
}
