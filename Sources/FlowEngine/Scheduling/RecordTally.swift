/// A run's records counted in one pass: steps by state, the items of `for-each` steps by state,
/// and whether some step failed or failed the run. A run's end needs all four (its outcome, the
/// summary's counts, whether to look for failed steps); three passes over 10,000 records, each
/// copying every record, were a tenth of bench/engine's engine time (issue 32).
package struct RecordTally: Sendable {
    /// How many steps are in each state, by `StepState`'s order (`allCases`).
    private var steps = [Int](repeating: 0, count: StepState.allCases.count)
    /// How many items of `for-each` steps are in each state; states with none are absent.
    package private(set) var items: [StepState: Int] = [:]
    /// Some step failed (under `continue-on-error` too).
    package private(set) var someFailed = false
    /// Some step failed without its failure being ignored, or was cancelled: only then can a step
    /// fail the run (see `WorkflowRun.outcome(records:interrupted:setupFailed:tally:)`).
    package private(set) var someFailedOrCancelled = false

    /// The tally of `records`.
    package init(_ records: [String: StepRecord<StepResult>]) {
        let values = records.values
        // By index, each field read in place: iterating the values copied every record (its
        // result and error retained, then released), a cold object touched for each step.
        for index in values.indices {
            let state = values[index].state
            steps[Self.slot(state)] += 1
            switch state {
            case .failed:
                someFailed = true
                if !values[index].failureIgnored { someFailedOrCancelled = true }
            case .cancelled:
                someFailedOrCancelled = true
            case .pending, .running, .succeeded, .skipped:
                break
            }
            // Only a `for-each` step has items: a step without a result or error has none to look for.
            guard values[index].output != nil || values[index].error != nil,
                let stepItems = values[index].items
            else { continue }
            for item in stepItems { items[item.state, default: 0] += 1 }
        }
    }

    /// How many steps are in `state`.
    package func count(_ state: StepState) -> Int {
        steps[Self.slot(state)]
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
