import Dispatch

/// Where a step is in its life.
package enum StepState: String, Sendable, Codable, CaseIterable {
    /// Waiting for its needs, its group, or a free slot.
    case pending
    /// Its work is in flight.
    case running
    /// It finished and succeeded.
    case succeeded
    /// It finished and failed.
    case failed
    /// It was not run: its condition was false, or a need failed.
    case skipped
    /// It was stopped, or never started, because the run or its group was cancelled.
    case cancelled

    /// Whether the step will not change any more.
    package var isFinal: Bool { self != .pending && self != .running }
}

/// What happened to one step.
///
/// The one-byte fields come last: between the words they left padding, and the record took 112
/// bytes instead of 96 in the records table, every scheduler node and every event (issue 32).
package struct StepRecord<Output: Sendable>: Sendable {
    /// The step's id.
    package let id: String
    /// What its work produced, when it succeeded.
    package var output: Output?
    /// Why it failed or was cancelled.
    package var error: (any Error)?
    /// The winner of an `any` group: the id of the first child to succeed.
    package var winner: String?
    /// When it started, relative to the start of the run.
    package var startedAt: Duration?
    /// When it finished, relative to the start of the run.
    package var finishedAt: Duration?
    /// Its state.
    package var state: StepState
    /// Whether it failed but counts as a success (`continue-on-error`).
    package var failureIgnored: Bool = false

    /// A record; a step the scheduler plans starts as `pending`, and a resumed run passes the
    /// final records of earlier runs (see `Scheduler.init(prior:)`).
    package init(
        id: String, state: StepState, output: Output? = nil, error: (any Error)? = nil, failureIgnored: Bool = false,
        winner: String? = nil, startedAt: Duration? = nil, finishedAt: Duration? = nil
    ) {
        self.id = id
        self.state = state
        self.output = output
        self.error = error
        self.failureIgnored = failureIgnored
        self.winner = winner
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    /// Whether dependents see this step as successful.
    package var countsAsSuccess: Bool { state == .succeeded || (state == .failed && failureIgnored) }
}

/// One change in a run, in the order the scheduler decided it.
package struct SchedulerEvent<Output: Sendable>: Sendable {
    /// What kind of change.
    package enum Kind: Sendable {
        /// The step started (a group started its children).
        case started
        /// The step reported progress.
        case progress(StepProgress)
        /// The step reached a final state; the record says which.
        case finished
    }

    /// The step's id.
    package let id: String
    /// What happened.
    package let kind: Kind
    /// The step's record after the change.
    package let record: StepRecord<Output>
    /// The step's place in the plan of the scheduler that decided the change (see
    /// `SchedulerNode.position`): a lookup without hashing the id. Nil for an event a called
    /// file's run passes on under its qualified id.
    package var position: Int? = nil
    /// When a start or an end happened, as the scheduler read its clock for the record's
    /// `startedAt` or `finishedAt`: `DispatchTime`'s uptime in nanoseconds. Nil for other events
    /// and for an event a called file's run passes on.
    package var at: UInt64? = nil
}
