import FlowDSL
import FlowEngine
import FlowTasks

/// What one event of a run says, before it is printed as a plain line or a JSON object.
struct EventFields {
    /// A failed (or cancelled) step's error, masked, and where it happened.
    struct Failure {
        let message: String
        /// `file:line:col` of the failure, or of the step; empty when neither is known.
        let location: String
        /// The failure counts as success (`continue-on-error`).
        let ignored: Bool
    }

    enum Kind {
        case started
        case retry(attempt: Int)
        /// Attempt `attempt` of a `repeat`, out of at most `max`.
        case repetition(attempt: Int, max: Int)
        case output(line: String, stream: StepProgress.OutputStream)
        case progress(done: Int64, total: Int64?)
        case finished(StepState, duration: Duration?, failure: Failure?, repetitions: Repetitions? = nil)
    }

    /// How many times a step with `repeat` ran, out of at most `max`.
    struct Repetitions {
        let count: Int
        let max: Int
    }

    let step: String
    let kind: Kind

    /// The fields of `event`, or nil for an event that is not printed (the first attempt).
    init?(_ event: SchedulerEvent<StepResult>, workflow: Workflow, masker: SecretMasker) {
        step = event.id
        switch event.kind {
        case .started:
            kind = .started
        case .progress(.attempt(let attempt)):
            guard attempt > 1 else { return nil }
            kind = .retry(attempt: attempt)
        case .progress(.repetition(let attempt, let max)):
            guard attempt > 1 else { return nil }
            kind = .repetition(attempt: attempt, max: max)
        case .progress(.line(let line, let stream, _)):
            kind = .output(line: line, stream: stream)
        case .progress(.bytes(let done, let total)):
            kind = .progress(done: done, total: total)
        case .finished:
            let record = event.record
            var duration: Duration?
            if let start = record.startedAt, let end = record.finishedAt { duration = end - start }
            var failure: Failure?
            if let error = record.error {
                failure = Failure(
                    message: masker(String(describing: error)),
                    location: WorkflowRun.location(of: error) ?? workflow.step(event.id)?.location.description ?? "",
                    ignored: record.failureIgnored)
            }
            var repetitions: Repetitions?
            if let rule = workflow.step(event.id)?.repeat,
                let count = record.output?.repetitions ?? (record.error as? RepetitionFailure)?.repetitions
            {
                repetitions = Repetitions(count: count, max: rule.maxAttempts)
            }
            kind = .finished(record.state, duration: duration, failure: failure, repetitions: repetitions)
        }
    }

    /// One JSON object with the members in the keys' alphabetical order (`attempt`, `bytes`,
    /// `duration`, `error`, `event`, `line`, `location`, `max-attempts`, `repetitions`, `state`,
    /// `step`, `stream`, `time`, `total`), every value a string.
    func writeJSON(into line: inout EventLine) {
        line.append("{" as StaticString)
        switch kind {
        case .started:
            line.appendMember("event", "started")
        case .retry(let attempt):
            line.appendMember("attempt", String(attempt))
            line.appendMember("event", "retry")
        case .repetition(let attempt, let max):
            line.appendMember("attempt", String(attempt))
            line.appendMember("event", "repeat")
            line.appendMember("max-attempts", String(max))
        case .output(let text, _):
            line.appendMember("event", "output")
            line.appendMember("line", text)
        case .progress(let done, _):
            line.appendMember("bytes", String(done))
            line.appendMember("event", "progress")
        case .finished(let state, let duration, let failure, let repetitions):
            if let duration {
                line.append("\"duration\":\"" as StaticString)
                line.appendSeconds(duration, places: 3)
                line.append("\"," as StaticString)
            }
            if let failure { line.appendMember("error", failure.message) }
            line.appendMember("event", "finished")
            if let failure { line.appendMember("location", failure.location) }
            if let repetitions { line.appendMember("repetitions", String(repetitions.count)) }
            line.appendMember("state", state.rawValue)
        }
        line.appendMember("step", step)
        if case .output(_, let stream) = kind { line.appendMember("stream", stream.rawValue) }
        line.append("\"time\":\"" as StaticString)
        line.appendTimestamp()
        line.append("\"" as StaticString)
        if case .progress(_, let total?) = kind {
            line.append("," as StaticString)
            line.appendMember("total", String(total), last: true)
        }
        line.append("}" as StaticString)
    }
}
