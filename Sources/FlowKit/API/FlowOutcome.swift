import FlowDSL
import FlowEngine

/// How a run ended.
///
/// ```swift
/// let outcome = await run.outcome
/// guard outcome.state == .succeeded else {
///     for failure in outcome.failures { print(failure) }   // upload.yaml:12:5: 'send' failed: …
///     return
/// }
/// ```
public struct FlowOutcome: Sendable {
    /// The run's state, everything counted (steps, services, reports).
    public enum State: String, Sendable, Hashable {
        /// The workflow succeeded and every report was written.
        case succeeded
        /// It ran and failed, or a report or the cookie jar could not be written.
        case failed
        /// It was cancelled: `always()` steps ran, processes were stopped, reports written.
        case cancelled
        /// Nothing ran: the run's setup (a secret it reads, the journal) is invalid; see `messages`.
        case invalid
    }

    /// The run's state.
    public let state: State
    /// Every step's result by id, the steps of called files too (`deploy/publish`).
    public var steps: [String: FlowStepResult] { results.all }
    /// The results, made when `steps` is first read (see `FlowStepResults`).
    let results: FlowStepResults
    /// How long the run took.
    public let duration: Duration
    /// What `flow run` would print on standard error: warnings, why the setup failed (masked).
    public let messages: [String]

    /// The steps that failed the run, in declaration order (the steps of a called file after its
    /// `uses` step, as `deploy/publish`): a step that failed inside a group that still succeeded
    /// (a lost race) is not one. What `flow run`'s summary lists.
    public let failedSteps: [FlowStepFailure]
    /// What the steps alone say (`flow run`'s summary line): `state` counts the reports, the
    /// cookie jar and the run's setup as well.
    public let stepsState: State
    /// Whether the run got as far as its steps: false when it stopped in its setup (an invalid
    /// journal, a service whose port could not be allocated), when `flow run` prints no summary.
    public internal(set) var stepsRan = true

    /// The failures of the steps that failed, in no particular order.
    public var failures: [FlowStepFailure] { steps.values.compactMap(\.failure) }

    /// The result of step `id` alone (`steps[id]`, without making every step's result).
    package func result(of id: String) -> FlowStepResult? { results.result(of: id) }

    /// How many steps are in each state, and how many items of `for-each` steps (what `flow
    /// run`'s summary line counts), without making every step's result: a `for-each` step counts
    /// once among the steps, its items apart.
    ///
    /// ```swift
    /// let (steps, items) = outcome.stateCounts
    /// print("\(steps[.succeeded] ?? 0) succeeded, \(items[.failed] ?? 0) items failed")
    /// ```
    public var stateCounts: (steps: [FlowStepState: Int], items: [FlowStepState: Int]) { results.counts }

    init(
        state: State, results: FlowStepResults, duration: Duration, messages: [String],
        failedSteps: [FlowStepFailure] = [], stepsState: State? = nil
    ) {
        self.state = state
        self.results = results
        self.duration = duration
        self.messages = messages
        self.failedSteps = failedSteps
        self.stepsState = stepsState ?? state
    }
}

/// Where a step is in its life.
public enum FlowStepState: String, Sendable, Hashable {
    /// Waiting for its needs, its group or a free slot.
    case pending
    /// In flight.
    case running
    /// Finished and succeeded.
    case succeeded
    /// Finished and failed.
    case failed
    /// Not run: its condition was false, or a need failed.
    case skipped
    /// Stopped, or never started, because the run or its group was cancelled.
    case cancelled

    init(_ state: StepState) {
        switch state {
        case .pending: self = .pending
        case .running: self = .running
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .skipped: self = .skipped
        case .cancelled: self = .cancelled
        }
    }
}

/// What a step did: its state, its declared outputs, its failure.
///
/// ```swift
/// if let result = outcome.steps["login"], case .string(let token)? = result.outputs["token"] { … }
/// ```
public struct FlowStepResult: Sendable {
    /// The step's id.
    public let step: String
    /// Its final state.
    public let state: FlowStepState
    /// Its declared outputs, as typed values (not masked: they are the program's data); empty
    /// unless it succeeded.
    public let outputs: [String: FlowValue]
    /// How many attempts it made, when it ran.
    public let attempts: Int?
    /// Why it failed or was cancelled, with where it is declared in the YAML.
    public let failure: FlowStepFailure?
    /// Whether it failed under `continue-on-error` (and counts as a success).
    public let failureIgnored: Bool
    /// How long it ran, when it started and finished.
    public let duration: Duration?
    /// For a step with `repeat`: how many times it ran, and at most how many it could.
    public let repetitions: (count: Int, limit: Int)?
    /// For a `for-each` step: each item's result, in the list's order; nil for other steps.
    public let items: [FlowItemResult]?
    /// For an `http` step that succeeded: the request it sent (its last attempt's); nil otherwise.
    public let request: FlowRequestLine?

    /// Borrows `workflow`: passed owned, the whole workflow was copied (every field retained and
    /// released) for each result, and a run makes one for every finish event and every step at its end.
    init(_ record: StepRecord<StepResult>, workflow: borrowing Workflow, masker: SecretMasker) {
        step = record.id
        state = FlowStepState(record.state)
        outputs = record.output.map { FlowValue.fields($0.outputs) } ?? [:]
        attempts = record.output?.attempts
        request = record.output?.request.map { FlowRequestLine($0, masker: { masker($0) }) }
        failureIgnored = record.failureIgnored
        let count = record.repetitions
        // The declaration (a lookup by id) is read only for a failure's place or a `repeat`'s
        // limit: a step that succeeded without `repeat` needs neither, and a run makes a result
        // for every step at its end and for every finish event (issue 32).
        let declared = record.error != nil || count != nil ? workflow.step(record.id) : nil
        failure = record.error.map {
            FlowStepFailure(step: record.id, $0, masker: masker, declaredAt: declared?.location)
        }
        if let start = record.startedAt, let end = record.finishedAt { duration = end - start } else { duration = nil }
        if let count, let limit = declared?.repeat?.maxAttempts {
            repetitions = (count, limit)
        } else {
            repetitions = nil
        }
        items = record.items?.map { item in
            FlowItemResult(
                state: FlowStepState(item.state), label: masker.maskedPrefix(item.item.jsonText, maxLength: 60),
                error: item.error.map { masker($0) }, outputs: FlowValue.fields(item.outputs))
        }
    }
}

/// A step's failure: what went wrong (masked) and where in the YAML.
public struct FlowStepFailure: Error, Sendable, CustomStringConvertible {
    /// The step's id.
    public let step: String
    /// What went wrong, secrets masked.
    public let message: String
    /// Where the failing thing is written (the step, or the expression or key that failed).
    public let location: FlowSourceLocation?

    /// `file:line:col: 'step' failed: message`.
    public var description: String {
        (location.map { "\($0): " } ?? "") + "'\(step)' failed: \(message)"
    }

    /// `error`, masked, at its own place when it has one, else where the step is declared.
    init(step: String, _ error: any Error, masker: SecretMasker, declaredAt: SourceLocation?) {
        self.step = step
        message = masker(String(describing: error))
        location = ((error as? any LocatedFailure)?.location ?? declaredAt).map(FlowSourceLocation.init)
    }

    init(step: String, message: String, location: SourceLocation) {
        self.step = step
        self.message = message
        self.location = FlowSourceLocation(location)
    }
}
