import FlowKit

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
        /// Attempt `attempt` of a `repeat`, out of at most `max`; `previous` sums up what the attempt
        /// before gave (`status 503`), when it says.
        case repetition(attempt: Int, max: Int, previous: String?)
        case output(line: String, isError: Bool)
        case progress(done: Int64, total: Int64?)
        case finished(FlowStepState, duration: Duration?, failure: Failure?, repetitions: Repetitions? = nil)
        /// An item of a `for-each` step failed (the step field is then `fetch[3]`).
        case itemFailed(item: String, message: String)
        /// Items of a `for-each` step final so far: printed at each tenth of the list and at its end.
        case items(finished: Int, total: Int, failed: Int)
    }

    /// How many times a step with `repeat` ran, out of at most `max`.
    struct Repetitions {
        let count: Int
        let max: Int
    }

    /// The step's id, or `fetch[3]` for an item of a `for-each` step.
    private(set) var step: String
    let kind: Kind
    /// For a finished `for-each` step: its items by state, "10000 items: 9998 succeeded, 2 failed".
    private(set) var items: String?

    /// The fields of `event` (FlowKit's, as an app sees it), or nil for an event that is not
    /// printed (the first attempt).
    init?(_ event: FlowEvent) {
        switch event {
        case .stepStarted(let id):
            step = id
            kind = .started
        case .attempt(let id, let attempt):
            guard attempt > 1 else { return nil }
            step = id
            kind = .retry(attempt: attempt)
        case .repetition(let id, let attempt, let max, let previous):
            guard attempt > 1 else { return nil }
            step = id
            kind = .repetition(attempt: attempt, max: max, previous: previous)
        case .output(let id, let line, let isError):
            step = id
            kind = .output(line: line, isError: isError)
        case .progress(let id, let item, let done, let total):
            // An item's bytes are the item's (`upload[3]`): items in flight at once each have a line.
            step = item.map { "\(id)[\($0)]" } ?? id
            kind = .progress(done: done, total: total)
        case .retryWait, .items, .dropped, .runFinished:
            // The retry line that follows says the wait; the HTML and trace reports draw it. Items are
            // counted from `.item`, which says which one finished.
            return nil
        case .item(let item):
            // Per item only failures and a count at each tenth, so 10,000 items print ~10 lines.
            guard item.state != .running else { return nil }
            if item.state == .failed {
                step = "\(item.step)[\(item.index)]"
                kind = .itemFailed(item: item.label, message: item.error ?? "failed")
                return
            }
            let tenth = max(1, item.total / 10)
            guard item.finished % tenth == 0 || item.finished == item.total else { return nil }
            step = item.step
            kind = .items(finished: item.finished, total: item.total, failed: item.failed)
        case .stepFinished(let result):
            step = result.step
            let failure = result.failure.map {
                Failure(message: $0.message, location: $0.location?.description ?? "", ignored: result.failureIgnored)
            }
            let repetitions = result.repetitions.map { Repetitions(count: $0.count, max: $0.limit) }
            kind = .finished(result.state, duration: result.duration, failure: failure, repetitions: repetitions)
            if let results = result.items {
                items = Self.count(results)
            }
        }
    }

    /// "3 items: 2 succeeded, 1 failed" (states in a fixed order, those with none left out).
    static func count(_ items: [FlowItemResult]) -> String {
        var counts: [FlowStepState: Int] = [:]
        for item in items { counts[item.state, default: 0] += 1 }
        return count(counts)
    }

    /// The same from counts by state (the summary's items of every step).
    static func count(_ counts: [FlowStepState: Int]) -> String {
        let total = counts.values.reduce(0, +)
        let parts = [FlowStepState.succeeded, .failed, .cancelled, .skipped, .running, .pending].compactMap { state in
            counts[state].map { "\($0) \(state.rawValue)" }
        }
        let noun = total == 1 ? "item" : "items"
        return "\(total) \(noun)" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    /// One JSON object with the members in the keys' alphabetical order (`attempt`, `bytes`,
    /// `duration`, `error`, `event`, `line`, `location`, `max-attempts`, `repetitions`, `state`,
    /// `step`, `stream`, `time`, `total`); counts, byte counts and durations (seconds) are JSON
    /// numbers, the rest strings.
    func writeJSON(into line: inout EventLine) {
        line.append("{" as StaticString)
        switch kind {
        case .started:
            line.append("\"event\":\"started\"," as StaticString)
        case .retry(let attempt):
            line.appendNumberMember("attempt", Int64(attempt))
            line.appendMember("event", "retry")
        case .repetition(let attempt, let max, let previous):
            line.appendNumberMember("attempt", Int64(attempt))
            line.appendMember("event", "repeat")
            line.appendNumberMember("max-attempts", Int64(max))
            if let previous { line.appendMember("previous", previous) }
        case .output(let text, _):
            line.appendMember("event", "output")
            line.appendMember("line", text)
        case .progress(let done, _):
            line.appendNumberMember("bytes", done)
            line.appendMember("event", "progress")
        case .itemFailed(let item, let message):
            line.appendMember("error", message)
            line.appendMember("event", "item")
            line.appendMember("item", item)
            line.appendMember("state", "failed")
        case .items(let finished, _, let failed):
            line.appendMember("event", "items")
            line.appendNumberMember("failed", Int64(failed))
            line.appendNumberMember("finished", Int64(finished))
        case .finished(let state, let duration, let failure, let repetitions):
            if let duration { line.appendSecondsMember("duration", duration) }
            if let failure { line.appendMember("error", failure.message) }
            line.append("\"event\":\"finished\"," as StaticString)
            if let items { line.appendMember("items", items) }
            if let failure { line.appendMember("location", failure.location) }
            if let repetitions { line.appendNumberMember("repetitions", Int64(repetitions.count)) }
            line.appendMember("state", state.rawValue)
        }
        line.appendMember("step", step)
        if case .output(_, let isError) = kind { line.appendMember("stream", isError ? "stderr" : "stdout") }
        line.append("\"time\":\"" as StaticString)
        line.appendTimestamp()
        line.append("\"" as StaticString)
        if case .progress(_, let total?) = kind {
            line.append("," as StaticString)
            line.appendNumberMember("total", total, last: true)
        }
        if case .items(_, let total, _) = kind {
            line.append("," as StaticString)
            line.appendNumberMember("total", Int64(total), last: true)
        }
        line.append("}" as StaticString)
    }
}
