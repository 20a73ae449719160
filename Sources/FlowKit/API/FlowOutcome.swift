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
    public let steps: [String: FlowStepResult]
    /// How long the run took.
    public let duration: Duration
    /// What `flow run` would print on standard error: warnings, why the setup failed (masked).
    public let messages: [String]

    /// The failures of the steps that failed, in no particular order.
    public var failures: [FlowStepFailure] { steps.values.compactMap(\.failure) }
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

    init(_ record: StepRecord<StepResult>, masker: SecretMasker, locations: [String: SourceLocation]) {
        step = record.id
        state = FlowStepState(record.state)
        outputs = record.output?.outputs.mapValues(FlowValue.init) ?? [:]
        attempts = record.output?.attempts
        failureIgnored = record.failureIgnored
        failure = record.error.map { FlowStepFailure(step: record.id, $0, masker: masker, locations: locations) }
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

    init(step: String, _ error: any Error, masker: SecretMasker, locations: [String: SourceLocation]) {
        self.step = step
        if let located = error as? StepError {
            message = masker(located.description)
            location = FlowSourceLocation(located.location)
        } else {
            message = masker(String(describing: error))
            location = locations[step].map(FlowSourceLocation.init)
        }
    }
}
