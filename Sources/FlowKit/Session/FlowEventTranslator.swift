import FlowDSL
import FlowEngine

/// A run's scheduler events as the `FlowEvent`s an app sees: one translation for `FlowRun.events`
/// and for `flow run`'s renderers, so the command line shows what the public API gives.
///
/// A class: the closures that translate each event share it instead of copying the workflow
/// (every field retained and released) for every event (issue 32).
final class FlowEventTranslator: Sendable {
    let workflow: Workflow
    let masker: SecretMasker
    /// The workflow's own steps: their start and end are never dropped from `FlowRun.events`.
    /// Nil when the caller reads no policy (the command line's renderers, an outcome): then no
    /// set of every id is built and no event hashes its step's id to find it (issue 32).
    let own: Set<String>?

    /// A translator; `policies: false` when the caller ignores each event's `Policy` (every
    /// event is then given as `.kept`).
    init(workflow: Workflow, masker: SecretMasker, policies: Bool = true) {
        self.workflow = workflow
        self.masker = masker
        own = policies ? Set(workflow.allSteps.map(\.id)) : nil
    }

    /// The events of `event`, in order, each with how `FlowEvents` keeps it for a slow consumer and,
    /// for a command's line, the hold that paces the command until the line is written.
    func translate(
        _ event: SchedulerEvent<StepResult>,
        _ emit: (FlowEvent, FlowEventBuffer.Policy, (AnyObject & Sendable)?) -> Void
    ) {
        let step = event.id
        // A start or an end: kept for the workflow's own steps.
        func endPolicy() -> FlowEventBuffer.Policy {
            guard let own else { return .kept }
            return own.contains(step) ? .kept : .limited
        }
        func key(_ kind: UInt8) -> FlowEventBuffer.Policy { .coalesced(.init(kind: kind, step: step)) }
        switch event.kind {
        case .started:
            emit(.stepStarted(step: step), endPolicy(), nil)
        case .finished:
            emit(
                .stepFinished(FlowStepResult(event.record, workflow: workflow, masker: masker)), endPolicy(), nil)
        case .progress(let progress):
            switch progress {
            case .attempt(let number): emit(.attempt(step: step, number: number), key(1), nil)
            case .bytes(let done, let total, let item):
                emit(.progress(step: step, item: item, bytes: done, total: total), key(2), nil)
            case .item(let item):
                var state = FlowStepState.running
                var error: String?
                if case .finished(let final, let message) = item.event {
                    state = FlowStepState(final)
                    error = message
                }
                emit(
                    .item(
                        FlowItemEvent(
                            step: step, index: item.index, label: item.label, state: state, error: error,
                            finished: item.finished, failed: item.failed, total: item.total)), .limited, nil)
                emit(.items(step: step, finished: item.finished, failed: item.failed, total: item.total), key(3), nil)
            case .retryWait(let wait):
                emit(.retryWait(step: step, attempt: wait.attempt, wait: wait.wait, reason: wait.reason), key(4), nil)
            case .line(let line, let stream, let hold):
                emit(.output(step: step, line: line, isError: stream == .stderr), .limited, hold)
            case .repetition(let number, let limit, let previous):
                emit(.repetition(step: step, number: number, limit: limit, previous: previous), key(5), nil)
            }
        }
    }

    /// How the run ended, as an app reads it, from `records` (the summary's: with `--only`, the
    /// step's own). `allRecords`: `records` are the run's every record, so `ended.stepsOutcome`
    /// (computed from them) holds for them too.
    func outcome(
        _ ended: RunSessionOutcome, records: [String: StepRecord<StepResult>], messages: [String],
        allRecords: Bool = false
    ) -> FlowOutcome {
        // The run's own count of its every record, else `records` counted now.
        let tally = (allRecords ? ended.tally : nil) ?? RecordTally(records)
        // Only looked for when something failed: a 10,000-step run that succeeded skips the walk.
        var failed: [FlowStepFailure] = []
        if tally.someFailed {
            for step in workflow.qualifiedSteps(items: { WorkflowRun.itemCount(records[$0]) }) {
                guard let record = records[step.id], record.state == .failed else { continue }
                // A child that failed inside a group that still succeeded (a lost race) did not fail the run.
                if let group = step.parent, records[group]?.state == .succeeded { continue }
                let place = (record.error as? any LocatedFailure)?.location ?? step.step.location
                failed.append(
                    FlowStepFailure(
                        step: step.id, message: record.error.map { masker(String(describing: $0)) } ?? "failed",
                        location: place))
            }
        }
        let known = allRecords ? ended.stepsOutcome : nil
        let stepsState =
            known
            ?? WorkflowRun.outcome(
                of: workflow, records: records, interrupted: ended.interrupted, setupFailed: ended.setupFailed)
        var outcome = FlowOutcome(
            state: FlowOutcome.State(ended.verdict),
            results: FlowStepResults(records: records, tally: tally, workflow: workflow, masker: masker),
            duration: ended.duration,
            messages: messages,
            failedSteps: failed, stepsState: FlowOutcome.State(stepsState))
        outcome.stepsRan = ended.ran
        return outcome
    }
}

extension FlowOutcome.State {
    init(_ verdict: RunVerdict) {
        switch verdict {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        case .invalid: self = .invalid
        }
    }

    init(_ outcome: RunOutcome) {
        switch outcome {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        }
    }
}
