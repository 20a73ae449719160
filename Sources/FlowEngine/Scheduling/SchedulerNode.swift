import FlowTasks

/// One step's scheduling state: its place in the graph and what is known of its needs. Lives on
/// the run's queue only (see `Scheduler`).
///
/// Steps refer to each other by their position in the plan (declaration order), not by id: a run
/// of 10,000 steps otherwise hashed ids about ten times a step (measured with perf in bench/engine).
final class SchedulerNode<Output: Sendable> {
    let step: PlannedStep<Output>
    /// This step's place in the plan and in the records.
    let position: Int
    var record: StepRecord<Output>
    /// Needs not yet final.
    var waitingOn: Int
    /// How many of the steps this one needs are in the plan (a need outside it never counts as a
    /// success).
    var needsInPlan = 0
    /// Positions of the steps that need this one.
    var dependents: [Int] = []
    /// The position of the group this step belongs to.
    var group: Int?
    var upstreamFailed = false
    /// Some need finished without counting as a success (failed, skipped, cancelled): noted as
    /// each need finishes, so deciding the step reads no other step's record.
    var someNeedUnsuccessful = false
    /// The future a group's combinator watches, for children of groups.
    var childPromise: Promise<Output?>?
    /// The work in flight, for a running leaf.
    var work: Future<Output>?
    /// The combinator deciding a running group; cancelling it cancels the children.
    var decision: Future<String?>?
    /// For a group: decided, so children not yet started are cancelled instead of run.
    var decided = false

    init(step: PlannedStep<Output>, position: Int) {
        self.step = step
        self.position = position
        record = StepRecord(id: step.id, state: .pending)
        waitingOn = step.needs.count
    }

    /// The facts this step's condition is decided from.
    func facts(runCancelled: Bool) -> ConditionFacts {
        ConditionFacts(
            needsSucceeded: needsInPlan == step.needs.count && !someNeedUnsuccessful,
            upstreamFailed: upstreamFailed, runCancelled: runCancelled)
    }
}

/// The plan as a graph: every step's node in declaration order, with needs resolved to positions
/// and dependents and groups linked.
struct SchedulerGraph<Output: Sendable> {
    /// Every step, in declaration order.
    let nodes: [SchedulerNode<Output>]
    /// The position in `nodes` of each id.
    let positions: [String: Int]

    init(_ steps: [PlannedStep<Output>]) {
        let nodes = steps.enumerated().map { SchedulerNode(step: $1, position: $0) }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(nodes.count)
        for node in nodes {
            positions[node.step.id] = node.position
        }
        for node in nodes {
            node.group = node.step.group.flatMap { positions[$0] }
            for need in node.step.needs {
                guard let position = positions[need] else { continue }
                node.needsInPlan += 1
                nodes[position].dependents.append(node.position)
            }
        }
        self.nodes = nodes
        self.positions = positions
    }

    /// The node of step `id`, if it is in the plan.
    func node(_ id: String) -> SchedulerNode<Output>? {
        positions[id].map { nodes[$0] }
    }

    /// The policy of the group `node` belongs to, if any.
    func groupMode(of node: SchedulerNode<Output>) -> GroupPolicy.Mode? {
        guard let group = node.group, case .group(let policy, _, _) = nodes[group].step.work else { return nil }
        return policy.mode
    }
}
