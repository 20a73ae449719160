import FlowDSL
import FlowTasks

/// Part of a `for-each` step run on its own, as an exported Argo workflow's pods run it: the
/// items alone, or one item (see Grammar.md, "Running on Argo Workflows").
package enum ForEachSelection: Sendable, Equatable {
    /// Evaluate the step's items and stop: the step's result lists them, each `skipped`, and its
    /// `result.count` says how many there are. Nothing is sent.
    case items(step: String)
    /// Run item `index` only, with the `index` the whole run would give it; the step's result
    /// has that one item, and `result.index` / `result.count`. An index of -1 with no items is
    /// the step with no items (succeeded, every output an empty list).
    case item(step: String, index: Int)
    /// Run the item given, `item` at `index` of `count`, as `item` does, without deciding the
    /// step's `if` or evaluating its items: what one pod of an exported workflow's fanned-out
    /// step runs once the items' pod decided them, given only its item and the records the
    /// item reads. An index of -1 (count 0) is the step that ran with no items.
    case given(step: String, index: Int, count: Int, item: Value)

    /// The step it is about.
    package var step: String {
        switch self {
        case .items(let step), .item(let step, _), .given(let step, _, _, _): step
        }
    }

    /// The index of the one item run, if one is.
    package var itemIndex: Int? {
        switch self {
        case .items: nil
        case .item(_, let index), .given(_, let index, _, _): index
        }
    }
}

extension ForEachRun {
    /// Runs the step over `items`, or the part `selection` names when it is about this step.
    static func run(_ plan: Plan, start: StepStart<StepResult>, items: [Value], selection: ForEachSelection?)
        -> Future<StepResult>
    {
        guard let selection, selection.step == plan.step.id else { return run(plan, start: start, items: items) }
        let count = Value.number(Double(items.count))
        switch selection {
        case .items:
            let listed = items.map { ItemResult(item: $0, state: .skipped, outputs: [:], error: nil, attempts: 0) }
            return Future.succeeded(
                StepResult(result: .object(["count": count]), outputs: [:], attempts: 0, items: listed), on: start.queue
            )
        case .given(_, let index, let count, let item):
            guard index >= 0 else {
                return run(plan, start: start, items: [], selection: .item(step: plan.step.id, index: -1))
            }
            return runOne(plan, start: start, item: item, index: index, count: .number(Double(count)))
        case .item(_, let index) where index == -1 && items.isEmpty:
            let outputs = Dictionary(uniqueKeysWithValues: plan.step.outputs.map { ($0.name, Value.array([])) })
            return Future.succeeded(
                StepResult(
                    result: .object(["count": count, "index": .number(-1)]), outputs: outputs, attempts: 0, items: []),
                on: start.queue)
        case .item(_, let index):
            guard items.indices.contains(index) else {
                return Future.failed(
                    StepError(
                        "step '\(plan.step.id)' has \(items.count) item(s); there is no item \(index)",
                        at: plan.forEach.itemsLocation),
                    on: start.queue)
            }
            return runOne(plan, start: start, item: items[index], index: index, count: count)
        }
    }

    /// Item `index` alone, with its name and `index` in scope as in the whole run.
    private static func runOne(_ plan: Plan, start: StepStart<StepResult>, item: Value, index: Int, count: Value)
        -> Future<StepResult>
    {
        var locals = start.locals
        locals[plan.forEach.name] = item
        locals[ForEach.indexName] = .number(Double(index))
        let itemStart = StepStart<StepResult>(
            id: start.id, records: start.records, report: start.report, queue: start.queue, locals: locals)
        var future = plan.leaf(itemStart)
        if let timeout = plan.timeout { future = future.timeout(after: timeout) }
        let result: Value = .object(["count": count, "index": .number(Double(index))])
        let masker = plan.masker
        let (id, forEachLocation) = (plan.step.id, plan.forEach.location)
        return future.map(on: start.queue) { done in
            let entry = ItemResult(
                item: item, state: .succeeded, outputs: done.outputs, error: nil, attempts: done.attempts)
            return StepResult(result: result, outputs: done.outputs, attempts: done.attempts, items: [entry])
        }.flatMapError(on: start.queue) { error in
            let message = masker(String(describing: error))
            let entry = ItemResult(item: item, state: .failed, outputs: [:], error: message, attempts: 1)
            throw ForEachFailure(
                message: "step '\(id)' item \(index) failed: \(message)",
                location: (error as? StepError)?.location ?? forEachLocation,
                partial: StepResult(result: result, outputs: [:], attempts: 1, items: [entry]))
        }
    }
}
