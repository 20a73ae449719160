import FlowDSL
import FlowEngine
import FlowTasks

/// A run's step results for `FlowOutcome.steps`, made from its records when first read: the
/// summary `flow run` prints at the end of every run needs only counts by state and the failed
/// steps, and making a result for each of 10,000 steps cost more than the summary itself
/// (issue 32).
final class FlowStepResults: Sendable {
    private let records: [String: StepRecord<StepResult>]
    /// `records` counted by state (see `RecordTally`).
    private let tally: RecordTally
    private let workflow: Workflow
    private let masker: SecretMasker
    private let made = LockedBox<[String: FlowStepResult]?>(nil)

    /// `tally` is that of `records`.
    init(records: [String: StepRecord<StepResult>], tally: RecordTally, workflow: Workflow, masker: SecretMasker) {
        self.records = records
        self.tally = tally
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

    /// How many steps are in each state, and how many items of `for-each` steps are: read from
    /// the tally, no result made and no record copied. States with none are left out.
    var counts: (steps: [FlowStepState: Int], items: [FlowStepState: Int]) {
        var steps: [FlowStepState: Int] = [:]
        for state in StepState.allCases where tally.count(state) > 0 {
            steps[FlowStepState(state)] = tally.count(state)
        }
        var items: [FlowStepState: Int] = [:]
        for (state, count) in tally.items { items[FlowStepState(state)] = count }
        return (steps, items)
    }
}
