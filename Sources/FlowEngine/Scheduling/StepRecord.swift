import Dispatch

/// Where a step is in its life.
public enum StepState: String, Sendable, Codable, CaseIterable {
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
    public var isFinal: Bool { self != .pending && self != .running }
}

/// What happened to one step.
public struct StepRecord<Output: Sendable>: Sendable {
    /// The step's id.
    public let id: String
    /// Its state.
    public var state: StepState
    /// What its work produced, when it succeeded.
    public var output: Output?
    /// Why it failed or was cancelled.
    public var error: (any Error)?
    /// Whether it failed but counts as a success (`continue-on-error`).
    public var failureIgnored: Bool = false
    /// The winner of an `any` group: the id of the first child to succeed.
    public var winner: String?
    /// When it started, relative to the start of the run.
    public var startedAt: Duration?
    /// When it finished, relative to the start of the run.
    public var finishedAt: Duration?

    /// A record; a step the scheduler plans starts as `pending`, and a resumed run passes the
    /// final records of earlier runs (see `Scheduler.init(prior:)`).
    public init(
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
    public var countsAsSuccess: Bool { state == .succeeded || (state == .failed && failureIgnored) }
}

/// One change in a run, in the order the scheduler decided it.
public struct SchedulerEvent<Output: Sendable>: Sendable {
    /// What kind of change.
    public enum Kind: Sendable {
        /// The step started (a group started its children).
        case started
        /// The step reported progress.
        case progress(StepProgress)
        /// The step reached a final state; the record says which.
        case finished
    }

    /// The step's id.
    public let id: String
    /// What happened.
    public let kind: Kind
    /// The step's record after the change.
    public let record: StepRecord<Output>
    /// The step's place in the plan of the scheduler that decided the change (see
    /// `SchedulerNode.position`): a lookup without hashing the id. Nil for an event a called
    /// file's run passes on under its qualified id.
    public var position: Int? = nil
    /// When a start or an end happened, as the scheduler read its clock for the record's
    /// `startedAt` or `finishedAt`: `DispatchTime`'s uptime in nanoseconds. Nil for other events
    /// and for an event a called file's run passes on.
    public var at: UInt64? = nil
}
