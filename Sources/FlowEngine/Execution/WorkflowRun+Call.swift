import FlowDSL
import FlowTasks

extension WorkflowRun {
    /// A `call` step's work: the leaf that runs its handler, whose returned values become the
    /// step's outputs, with the step's own `outputs` on top (they read them as `result.outputs`),
    /// as a `uses` step's outputs are the called file's.
    static func hostLeaf(_ work: StepWork<StepResult>) -> StepWork<StepResult> {
        guard case .leaf(let body) = work else { return work }
        return .leaf { start in
            body(start).map(on: start.queue) { finished in
                guard case .object(let fields) = finished.result, case .object(let returned)? = fields["outputs"] else {
                    return finished
                }
                return StepResult(
                    result: finished.result, outputs: returned.merging(finished.outputs) { _, own in own },
                    attempts: finished.attempts, items: finished.items, repetitions: finished.repetitions)
            }
        }
    }
}
