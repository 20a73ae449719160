import Dispatch
import FlowTasks

/// What the scheduler knows about one step, whatever its kind: its place in the graph, when it may
/// run, and the work to do. `Output` is what a step's work produces for its dependents.
public struct PlannedStep<Output: Sendable>: Sendable {
    /// The step id, unique across the workflow.
    public let id: String
    /// The steps that must be finished before this one is considered.
    public let needs: [String]
    /// The group this step belongs to, if any.
    public let group: String?
    /// When the step runs once its needs are finished.
    public let condition: StepCondition
    /// Whether a failure counts as success for dependents and groups.
    public let continueOnError: Bool
    /// The longest the step may run, retries included.
    public let timeout: Duration?
    /// The work: a leaf's runner, or a group's policy and children.
    public let work: StepWork<Output>

    /// Describes a step for the scheduler.
    public init(
        id: String, needs: [String] = [], group: String? = nil, condition: StepCondition = .success,
        continueOnError: Bool = false, timeout: Duration? = nil, work: StepWork<Output>
    ) {
        self.id = id
        self.needs = needs
        self.group = group
        self.condition = condition
        self.continueOnError = continueOnError
        self.timeout = timeout
        self.work = work
    }
}

/// A leaf's work or a group's children.
public enum StepWork<Output: Sendable>: Sendable {
    /// Work done by a runner; the future completes when the work does. Cancelling the future must
    /// stop the work (abort the transfer, kill the process).
    case leaf(@Sendable (StepStart<Output>) -> Future<Output>)
    /// A parallel group of the listed children (ids of steps whose `group` is this step).
    /// `outputs`, when given, computes the group's output once it succeeded, from the records
    /// and the winner of an `any` group; throwing fails the group.
    case group(
        GroupPolicy, children: [String],
        outputs: (@Sendable (RunRecords<Output>, _ winner: String?) throws -> Output)? = nil)
}

/// How a parallel group decides its outcome.
public struct GroupPolicy: Sendable, Equatable {
    /// `all` or `any`.
    public enum Mode: String, Sendable {
        /// Every child must succeed.
        case all
        /// One success (or `atLeast` successes) is enough; the rest are cancelled.
        case any
    }

    /// `all` or `any`.
    public let mode: Mode
    /// For `any`: how many successes are needed (default 1).
    public let atLeast: Int
    /// For `all`: whether the first failure cancels the running children (default true).
    public let failFast: Bool

    /// A group policy; `atLeast` applies to `any`, `failFast` to `all`.
    public init(mode: Mode, atLeast: Int = 1, failFast: Bool = true) {
        self.mode = mode
        self.atLeast = atLeast
        self.failFast = failFast
    }
}

/// When a step runs, evaluated once all its needs are finished (GitHub Actions' status functions).
public enum StepCondition: Sendable {
    /// Every need succeeded (the default): a failed or skipped need skips the step.
    case success
    /// Some need, or a step it depends on through its needs, failed.
    case failure
    /// Always, even after failures or when the run was interrupted.
    case always
    /// Only when the run was interrupted.
    case cancelled
    /// A condition the engine evaluates (an expression); it receives the status facts. Throwing
    /// fails the step with that error (an expression that cannot be evaluated).
    case custom(@Sendable (ConditionFacts) throws -> Bool)
}

/// The facts a condition is decided from.
public struct ConditionFacts: Sendable {
    /// Every need succeeded (a failure under `continue-on-error` counts as success).
    public let needsSucceeded: Bool
    /// Some need, or a step it depends on through its needs, failed.
    public let upstreamFailed: Bool
    /// The run was interrupted.
    public let runCancelled: Bool
}

/// What a leaf's runner gets when its step starts.
public struct StepStart<Output: Sendable>: Sendable {
    /// The step's id.
    public let id: String
    /// Every step's record so far; the steps this one depends on are all final.
    public let records: RunRecords<Output>
    /// Reports progress (an attempt number, bytes sent) to the run's event stream.
    public let report: @Sendable (StepProgress) -> Void
    /// The run's own queue. Work that only computes (a zero wait) completes here, which lets
    /// FlowTasks' drain loop finish it without a thread hop; work that waits on I/O uses its own.
    public let queue: DispatchQueue
}

/// Progress a running step reports.
public enum StepProgress: Sendable, Equatable {
    /// Attempt `n` (counted from 1) is starting; attempts after the first are retries.
    case attempt(Int)
    /// A line of text the step produced (a process's output), without its newline. A command's
    /// lines carry a hold: keep the event until the line is printed, so a command that prints
    /// faster than that waits (see `OutputHold`).
    case line(String, stream: OutputStream, hold: OutputHold? = nil)
    /// Bytes done out of a total, if known.
    case bytes(done: Int64, total: Int64?)

    /// Whether this is a line of text.
    var isLine: Bool {
        if case .line = self { return true }
        return false
    }

    /// Which output stream a line came from.
    public enum OutputStream: String, Sendable {
        /// Standard output.
        case stdout
        /// Standard error.
        case stderr
    }
}
