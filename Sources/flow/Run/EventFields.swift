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
        case output(line: String, stream: StepProgress.OutputStream)
        case progress(done: Int64, total: Int64?)
        case finished(StepState, duration: Duration?, failure: Failure?)
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
        case .progress(.line(let line, let stream, _)):
            kind = .output(line: line, stream: stream)
        case .progress(.bytes(let done, let total)):
            kind = .progress(done: done, total: total)
        case .progress(.retryWait):
            // The retry line that follows says it; the wait itself is drawn by the HTML and trace reports.
            return nil
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
            kind = .finished(record.state, duration: duration, failure: failure)
        }
    }

    /// One JSON object with the members in the keys' alphabetical order (`attempt`, `bytes`,
    /// `duration`, `error`, `event`, `line`, `location`, `state`, `step`, `stream`, `time`,
    /// `total`); counts, byte counts and durations (seconds) are JSON numbers, the rest strings.
    func writeJSON(into line: inout EventLine) {
        line.append("{" as StaticString)
        switch kind {
        case .started:
            line.appendMember("event", "started")
        case .retry(let attempt):
            line.appendNumberMember("attempt", Int64(attempt))
            line.appendMember("event", "retry")
        case .output(let text, _):
            line.appendMember("event", "output")
            line.appendMember("line", text)
        case .progress(let done, _):
            line.appendNumberMember("bytes", done)
            line.appendMember("event", "progress")
        case .finished(let state, let duration, let failure):
            if let duration { line.appendSecondsMember("duration", duration) }
            if let failure { line.appendMember("error", failure.message) }
            line.appendMember("event", "finished")
            if let failure { line.appendMember("location", failure.location) }
            line.appendMember("state", state.rawValue)
        }
        line.appendMember("step", step)
        if case .output(_, let stream) = kind { line.appendMember("stream", stream.rawValue) }
        line.append("\"time\":\"" as StaticString)
        line.appendTimestamp()
        line.append("\"" as StaticString)
        if case .progress(_, let total?) = kind {
            line.append("," as StaticString)
            line.appendNumberMember("total", total, last: true)
        }
        line.append("}" as StaticString)
    }
}
