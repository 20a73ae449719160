import Dispatch
import FlowDSL
import FlowTasks

/// What the scheduler knows about one step, whatever its kind: its place in the graph, when it may
/// run, and the work to do. `Output` is what a step's work produces for its dependents.
package struct PlannedStep<Output: Sendable>: Sendable {
    /// The step id, unique across the workflow.
    package let id: String
    /// The steps that must be finished before this one is considered.
    package let needs: [String]
    /// The group this step belongs to, if any.
    package let group: String?
    /// When the step runs once its needs are finished.
    package let condition: StepCondition
    /// Whether a failure counts as success for dependents and groups.
    package let continueOnError: Bool
    /// The longest the step may run, retries included.
    package let timeout: Duration?
    /// The work: a leaf's runner, or a group's policy and children.
    package let work: StepWork<Output>
    /// For a leaf whose result is known as it starts (a zero wait): that result, which the
    /// scheduler takes instead of calling `work`'s runner and waiting on its future. Its end is
    /// handled where the future's callback would have run, so the events keep their order.
    /// `work` must give the same result (a `for-each` item's run calls it).
    package let immediate: (@Sendable (StepStart<Output>) -> Result<Output, any Error>)?

    /// Describes a step for the scheduler.
    package init(
        id: String, needs: [String] = [], group: String? = nil, condition: StepCondition = .success,
        continueOnError: Bool = false, timeout: Duration? = nil, work: StepWork<Output>,
        immediate: (@Sendable (StepStart<Output>) -> Result<Output, any Error>)? = nil
    ) {
        self.id = id
        self.needs = needs
        self.group = group
        self.condition = condition
        self.continueOnError = continueOnError
        self.timeout = timeout
        self.work = work
        self.immediate = immediate
    }
}

/// A leaf's work or a group's children.
package enum StepWork<Output: Sendable>: Sendable {
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
package struct GroupPolicy: Sendable, Equatable {
    /// `all` or `any`.
    package enum Mode: String, Sendable {
        /// Every child must succeed.
        case all
        /// One success (or `atLeast` successes) is enough; the rest are cancelled.
        case any
    }

    /// `all` or `any`.
    package let mode: Mode
    /// For `any`: how many successes are needed (default 1).
    package let atLeast: Int
    /// For `all`: whether the first failure cancels the running children (default true).
    package let failFast: Bool

    /// A group policy; `atLeast` applies to `any`, `failFast` to `all`.
    package init(mode: Mode, atLeast: Int = 1, failFast: Bool = true) {
        self.mode = mode
        self.atLeast = atLeast
        self.failFast = failFast
    }
}

/// When a step runs, evaluated once all its needs are finished (GitHub Actions' status functions).
package enum StepCondition: Sendable {
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

extension StepCondition {
    /// Whether the step runs, given the facts the scheduler kept; throws what a custom condition
    /// throws.
    func holds(_ facts: ConditionFacts) throws -> Bool {
        switch self {
        case .success: facts.holds(.success)
        case .failure: facts.holds(.failure)
        case .always: facts.holds(.always)
        case .cancelled: facts.holds(.cancelled)
        case .custom(let decide): try decide(facts)
        }
    }
}

/// The facts a condition is decided from, and the one place the status functions are decided.
package struct ConditionFacts: Sendable {
    /// Every need succeeded (a failure under `continue-on-error` counts as success).
    package let needsSucceeded: Bool
    /// Some need, or a step it depends on through its needs, failed.
    package let upstreamFailed: Bool
    /// The run was interrupted.
    package let runCancelled: Bool

    /// Facts as the scheduler notes them (package for tests and other engines' conditions).
    package init(needsSucceeded: Bool, upstreamFailed: Bool, runCancelled: Bool) {
        self.needsSucceeded = needsSucceeded
        self.upstreamFailed = upstreamFailed
        self.runCancelled = runCancelled
    }

    /// The facts of a run where every need succeeded and nothing was interrupted.
    static let everythingSucceeded = ConditionFacts(needsSucceeded: true, upstreamFailed: false, runCancelled: false)

    /// The answer of a status function: `success()`, `failure()`, `always()`, `cancelled()`.
    package func holds(_ function: StatusFunction) -> Bool {
        switch function {
        case .success: needsSucceeded && !runCancelled
        case .failure: upstreamFailed && !runCancelled
        case .always: true
        case .cancelled: runCancelled
        }
    }
}

/// What a leaf's runner gets when its step starts.
package struct StepStart<Output: Sendable>: Sendable {
    /// The step's id.
    package let id: String
    /// Every step's record so far; the steps this one depends on are all final.
    package let records: RunRecords<Output>
    /// Reports progress (an attempt number, bytes sent) to the run's event stream.
    package let report: @Sendable (StepProgress) -> Void
    /// The run's own queue. Work that only computes (a zero wait) completes here, which lets
    /// FlowTasks' drain loop finish it without a thread hop; work that waits on I/O uses its own.
    package let queue: DispatchQueue
    /// Names in scope for this run of the step besides the run's roots (`item` and `index` of a
    /// `for-each` item, `previous` and `attempt` of a `repeat`); they shadow nothing, since the
    /// checker keeps them apart from the roots.
    package var locals: [String: Value] = [:]
}

/// Progress a running step reports.
package enum StepProgress: Sendable, Equatable {
    /// Attempt `n` (counted from 1) is starting; attempts after the first are retries.
    case attempt(Int)
    /// A line of text the step produced (a process's output), without its newline. A command's
    /// lines carry a hold: keep the event until the line is printed, so a command that prints
    /// faster than that waits (see `OutputHold`).
    case line(String, stream: OutputStream, hold: OutputHold? = nil)
    /// Bytes done out of a total, if known; `item` is the index of the `for-each` item that moved
    /// them (nil for a step without items), so the log can name it among items in flight.
    case bytes(done: Int64, total: Int64?, item: Int? = nil)
    /// An attempt failed and the step waits before the next one (the HTML and trace reports draw
    /// the wait). Reported by the retry loops of `http`, `upload` and `run` steps.
    case retryWait(RetryWait)
    /// An item of a `for-each` step started or ended.
    case item(ItemProgress)
    /// Attempt `n` of a `repeat` (counted from 1) is starting, out of at most `max`; `previous` sums
    /// up what attempt `n - 1` gave (`status 503`, `exit code 1`), so the log prints a line when it
    /// changes; nil on the first attempt and for a step whose result has neither.
    case repetition(Int, of: Int, previous: String? = nil)

    /// Whether this is a line of text.
    var isLine: Bool {
        if case .line = self { return true }
        return false
    }

    /// A failed attempt and the wait before the next one.
    package struct RetryWait: Sendable, Equatable {
        /// The attempt that failed, counted from 1.
        package let attempt: Int
        /// How long the step waits before the next attempt.
        package let wait: Duration
        /// Why the attempt failed, masked.
        package let reason: String
        /// Whether the server asked for the wait (`Retry-After`) rather than the backoff.
        package let retryAfter: Bool

        /// A failed attempt and the wait that follows it.
        package init(attempt: Int, wait: Duration, reason: String, retryAfter: Bool) {
            self.attempt = attempt
            self.wait = wait
            self.reason = reason
            self.retryAfter = retryAfter
        }
    }

    /// Which output stream a line came from.
    package enum OutputStream: String, Sendable {
        /// Standard output.
        case stdout
        /// Standard error.
        case stderr
    }
}
