import FlowTasks

/// The retry budget of one upload (chunked or S3 multipart): the errors since the upload last
/// made progress, which `policy.attempts` bounds, and the attempts made in all.
///
/// Progress (the server's offset moving forward, a part confirmed) gives the whole budget back,
/// so a long upload over a flaky link is bounded per stretch without progress, not in all.
/// A value type: its owner is the session's owner of its other state (its lock or queue).
package struct RetryBudget: Sendable {
    /// What to do after an error.
    package enum Decision: Sendable, Equatable {
        /// The upload was cancelled: nothing to report, nothing to do.
        case cancelled
        /// The error is final (`policy.shouldRetry` says no): fail with it.
        case final
        /// The budget is spent: give up after `failures` errors without progress.
        case spent
        /// Wait this long, then try again (the wait and the next attempt are reported).
        case retry(after: Duration)
    }

    /// Which errors are worth another attempt, how many in a row, and the waits between them.
    package let policy: RetryPolicy
    /// Errors since the upload last made progress; the budget counts these.
    package private(set) var failures = 0
    /// Attempts made: 1 plus one for each error retried.
    package private(set) var attempts = 1

    /// A full budget under `policy`.
    package init(_ policy: RetryPolicy) {
        self.policy = policy
    }

    /// The upload made progress: the budget is whole again.
    package mutating func progressed() {
        failures = 0
    }

    /// Spends the budget on `error`. When a retry follows, reports the wait (`reason` says why, in
    /// short, masked) and the attempt to come through `report`, before returning it.
    package mutating func spend(
        on error: any Error, reason: () -> String, report: (StepProgress) -> Void
    ) -> Decision {
        if case FutureError.cancelled = error { return .cancelled }
        guard policy.shouldRetry(error) else { return .final }
        failures += 1
        guard failures < policy.attempts else { return .spent }
        let wait = policy.delay(afterFailures: failures, error: error)
        report(
            .retryWait(
                StepProgress.RetryWait(
                    attempt: attempts, wait: wait, reason: reason(), retryAfter: policy.delayOverride(error) != nil)))
        attempts += 1
        report(.attempt(attempts))
        return .retry(after: wait)
    }
}
