/// Each step's (and item's) latest state alone, folded from the same rows and `step_log` cells as
/// `StepLogFold` and by its rules, for `flow runs`' counts by state: a listing of 50 runs of
/// 10,000 steps folds half a million steps, and keeping their outputs, errors and times (which a
/// count never reads) was most of its cost.
struct StepStateFold {
    private var states: [StepLogKey: JournalStepState] = [:]

    /// Room for `capacity` steps: the runs of one file have about as many steps each, so the
    /// previous run's count saves growing the table step by step.
    init(capacity: Int = 0) {
        states.reserveCapacity(capacity)
    }

    /// A step as a format-1 row had it.
    mutating func add(_ key: StepLogKey, state: JournalStepState) {
        states[key] = state
    }

    /// Applies one `step_log` cell's changes in order.
    mutating func apply(_ cell: [UInt8]) throws(StepLogDamage) {
        var decoder = StepLogDecoder(cell, statesOnly: true)
        while let change = try decoder.next() {
            switch change {
            case .started(let key, _, _):
                states[key] = .running
            case .finished(let key, let state, _, _, _, _, _):
                states[key] = state
            case .unsafeSend(let key, _):
                // Marks a step; a step not yet seen starts running (as `StepLogFold` has it).
                if states[key] == nil { states[key] = .running }
            case .transfer:
                break
            }
        }
    }

    /// How many steps (and items) there are.
    var count: Int { states.count }

    /// How many steps are in each state (a `for-each` step counts once), and apart from them how
    /// many items: the rule the run's summary follows.
    var stateCounts: StateCounts {
        var counts = StateCounts()
        for (key, state) in states {
            if key.item == nil {
                counts.steps[state.rawValue, default: 0] += 1
            } else {
                counts.items[state.rawValue, default: 0] += 1
            }
        }
        return counts
    }
}

/// Steps by state, and `for-each` items by state apart from them.
struct StateCounts {
    var steps: [String: Int] = [:]
    var items: [String: Int] = [:]
}
