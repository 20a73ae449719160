import FlowDSL
import FlowTasks

/// One step's scheduling state: its place in the graph and what is known of its needs. Lives on
/// the run's queue only (see `Scheduler`).
///
/// Steps refer to each other by their position in the plan (declaration order), not by id: a run
/// of 10,000 steps otherwise hashed ids about ten times a step (measured with perf in bench/engine).
final class SchedulerNode<Output: Sendable> {
    /// The plan this step is part of: the node reads its step there, in place, rather than keeping
    /// a copy (a copy a step, every field retained, then the plan's own released: issue 32).
    private let plan: PlanSteps<Output>
    /// This step's place in the plan and in the records.
    let position: Int
    var record: StepRecord<Output>
    /// How many needs the step has (kept here: deciding the step then reads nothing of the plan).
    let needCount: Int
    /// Needs not yet final.
    var waitingOn: Int
    /// How many of the steps this one needs are in the plan (a need outside it never counts as a
    /// success).
    var needsInPlan = 0
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

    init(plan: PlanSteps<Output>, position: Int) {
        self.plan = plan
        self.position = position
        // Fields read in place, through the buffer: `steps[position]` is Array's getter, which the
        // optimizer left as a copy of the whole step, every field retained and released (1.2% of
        // bench/engine's run, issue 32).
        let (id, needs) = plan.steps.withUnsafeBufferPointer { ($0[position].id, $0[position].needs.count) }
        record = StepRecord(id: id, state: .pending)
        needCount = needs
        waitingOn = needs
    }

    /// The step as planned.
    var step: PlannedStep<Output> {
        _read { yield plan.steps[position] }
    }

    /// The facts this step's condition is decided from.
    func facts(runCancelled: Bool) -> ConditionFacts {
        ConditionFacts(
            needsSucceeded: needsInPlan == needCount && !someNeedUnsuccessful,
            upstreamFailed: upstreamFailed, runCancelled: runCancelled)
    }
}

/// The steps of a plan, shared by their nodes.
final class PlanSteps<Output: Sendable> {
    /// Every step, in declaration order.
    let steps: [PlannedStep<Output>]

    init(_ steps: [PlannedStep<Output>]) {
        self.steps = steps
    }
}

/// The plan as a graph: every step's node in declaration order, with needs resolved to positions
/// and dependents and groups linked.
struct SchedulerGraph<Output: Sendable> {
    /// Every step, in declaration order.
    let nodes: [SchedulerNode<Output>]
    /// The position in `nodes` of each id.
    let positions: [String: Int]
    /// The positions of the steps that need each step, one step's after another: step n's are
    /// `dependentList[dependentStart[n] ..< dependentStart[n + 1]]`, in declaration order. One
    /// array for the plan rather than one for each step with dependents (ten thousand
    /// allocations in bench/engine's run, issue 32).
    private let dependentList: [Int]
    private let dependentStart: [Int]

    /// The graph of `steps`. `known`, when given, are the positions of a workflow's `allSteps`
    /// with their needs and groups resolved, which the checks made: used when `steps` are those
    /// steps in that order (the plan of a workflow without `for-each` groups), so that no id and
    /// no need is hashed again; otherwise the ids are hashed here.
    init(_ steps: [PlannedStep<Output>], known: Workflow.StepPositions? = nil) {
        let plan = PlanSteps(steps)
        let nodes = steps.indices.map { SchedulerNode(plan: plan, position: $0) }
        var needPositions: [Int] = []
        needPositions.reserveCapacity(nodes.count * 2)
        var start = [Int](repeating: 0, count: nodes.count + 1)
        let positions: [String: Int]
        if let known, Self.matches(known, steps) {
            positions = known.index
            for node in nodes {
                let group = known.group(node.position)
                node.group = group < 0 ? nil : group
                for position in known.needs(node.position) where position >= 0 {
                    node.needsInPlan += 1
                    needPositions.append(position)
                    start[position + 1] += 1
                }
            }
        } else {
            var table: [String: Int] = [:]
            table.reserveCapacity(nodes.count)
            for node in nodes {
                table[node.step.id] = node.position
            }
            // The needs in the plan, resolved once, and how many steps need each step.
            for node in nodes {
                node.group = node.step.group.flatMap { table[$0] }
                for need in node.step.needs {
                    guard let position = table[need] else { continue }
                    node.needsInPlan += 1
                    needPositions.append(position)
                    start[position + 1] += 1
                }
            }
            positions = table
        }
        for position in nodes.indices {
            start[position + 1] += start[position]
        }
        var free = start
        var list = [Int](repeating: 0, count: needPositions.count)
        var next = 0
        for node in nodes {
            for _ in 0..<node.needsInPlan {
                let need = needPositions[next]
                next += 1
                list[free[need]] = node.position
                free[need] += 1
            }
        }
        self.nodes = nodes
        self.positions = positions
        dependentList = list
        dependentStart = start
    }

    /// Whether `known` describes `steps`: as many, each id at its own position (compared, not
    /// hashed: a few instructions a step).
    private static func matches(_ known: Workflow.StepPositions, _ steps: [PlannedStep<Output>]) -> Bool {
        guard known.count == steps.count else { return false }
        let index = known.index
        return steps.withUnsafeBufferPointer { steps in
            // Ids are unique (see `Workflow.stepPositions`), so checking one id per position
            // against the index's own order is enough: every index entry is then a plan id.
            var position = 0
            for (id, at) in index {
                guard at < steps.count, steps[at].id == id else { return false }
                position += 1
            }
            return position == steps.count
        }
    }

    /// The positions of the steps that need the step at `position`, in declaration order.
    func dependents(of position: Int) -> ArraySlice<Int> {
        dependentList[dependentStart[position]..<dependentStart[position + 1]]
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
