import FlowDSL
import FlowEngine
import FlowTasks

/// A run's step results for `FlowOutcome.steps`, made from its records when first read: the
/// summary `flow run` prints at the end of every run needs only counts by state and the failed
/// steps, and making a result for each of 10,000 steps cost more than the summary itself
/// (issue 32).
final class FlowStepResults: Sendable {
    private let records: [String: StepRecord<StepResult>]
    private let workflow: Workflow
    private let masker: SecretMasker
    private let made = LockedBox<[String: FlowStepResult]?>(nil)

    init(records: [String: StepRecord<StepResult>], workflow: Workflow, masker: SecretMasker) {
        self.records = records
        self.workflow = workflow
        self.masker = masker
    }

    /// Every step's result by id.
    var all: [String: FlowStepResult] {
        made.withLock { made in
            if let made { return made }
            let results = records.mapValues { FlowStepResult($0, workflow: workflow, masker: masker) }
            made = results
            return results
        }
    }

    /// The result of step `id`, made alone unless all are made already; nil for an unknown id.
    func result(of id: String) -> FlowStepResult? {
        if let made = made.withLock({ $0 }) { return made[id] }
        return records[id].map { FlowStepResult($0, workflow: workflow, masker: masker) }
    }

    /// How many steps are in each state, and how many items of `for-each` steps are: counted
    /// from the records, no result made. States with none are left out.
    var counts: (steps: [FlowStepState: Int], items: [FlowStepState: Int]) {
        // Plain counters by state: a dictionary would hash a state for every step.
        var steps = [Int](repeating: 0, count: StepState.allCases.count)
        var items: [FlowStepState: Int] = [:]
        for record in records.values {
            steps[Self.slot(record.state)] += 1
            if let stepItems = record.items {
                for item in stepItems { items[FlowStepState(item.state), default: 0] += 1 }
            }
        }
        var counted: [FlowStepState: Int] = [:]
        for state in StepState.allCases where steps[Self.slot(state)] > 0 {
            counted[FlowStepState(state)] = steps[Self.slot(state)]
        }
        return (counted, items)
    }

    private static func slot(_ state: StepState) -> Int {
        switch state {
        case .pending: 0
        case .running: 1
        case .succeeded: 2
        case .failed: 3
        case .skipped: 4
        case .cancelled: 5
        }
    }
}
