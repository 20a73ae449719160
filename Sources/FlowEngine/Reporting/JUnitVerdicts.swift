/// What each JUnit test case says, decided so that the report's failures and errors agree with
/// the run's exit code: a failed or cancelled step counts only when its failure reached the run.
///
/// The run absorbs a failure when the step (or a step holding it: its group, its `for-each` step,
/// its `uses` step) has `continue-on-error`, or when a step holding it succeeded anyway, as an
/// `any` group or a `for-each … parallel: any` does for the losers of its race. Such a test case
/// is `<skipped message="…"/>` with the reason (`lost to us`), never a failure or an error.
struct JUnitVerdicts {
    /// How one test case is written.
    enum Kind: Equatable {
        /// It succeeded.
        case passed
        /// It failed, and so did the run.
        case failure
        /// It was cancelled (or was still running when the report was written), and the run did not succeed.
        case error
        /// It did not run, or its failure did not count: the reason, if there is more to say than `skipped`.
        case skipped(String?)

        var isSkipped: Bool {
            if case .skipped = self { return true }
            return false
        }
    }

    /// The steps (not their items) by id: what a test case's `group` names.
    private let steps: [String: StepReport]
    /// For each `for-each` step with items, its first item that succeeded: the winner of a race of items.
    private let firstSucceededItem: [String: String]

    init(steps: [StepReport]) {
        var byID: [String: StepReport] = [:]
        var winners: [String: String] = [:]
        for step in steps {
            byID[step.id] = byID[step.id] ?? step
            if let winner = step.items?.first(where: { $0.state == .succeeded }) { winners[step.id] = winner.id }
        }
        self.steps = byID
        self.firstSucceededItem = winners
    }

    /// How `step` (a step or an item, as `StepReport.withItems` gives them) is written.
    func kind(of step: StepReport) -> Kind {
        switch step.state {
        case .succeeded: return .passed
        case .skipped: return .skipped(nil)
        case .pending: return .skipped("never started")
        case .running: return .error
        case .failed, .cancelled:
            if let reason = absorbed(step) { return .skipped(reason) }
            return step.state == .failed ? .failure : .error
        }
    }

    /// Why the run did not fail on `step`'s failure, or nil when it did.
    private func absorbed(_ step: StepReport) -> String? {
        let what = step.error.map { "\(step.state.rawValue): \($0)" } ?? step.state.rawValue
        if step.failureIgnored == true { return "\(what) (continue-on-error)" }
        var parentID = step.group
        while let id = parentID, let parent = steps[id] {
            if parent.failureIgnored == true { return "\(what) (inside '\(id)', which has continue-on-error)" }
            if parent.state == .succeeded {
                guard step.state == .cancelled else { return "\(what) ('\(id)' succeeded without it)" }
                return (parent.winner ?? firstSucceededItem[id]).map { "lost to \($0)" } ?? "lost the race"
            }
            parentID = parent.group
        }
        return nil
    }
}
