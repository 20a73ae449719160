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
            let end = FinishedLine(result)
            step = end.step
            kind = .finished(end.state, duration: end.duration, failure: end.failure, repetitions: end.repetitions)
            items = end.items
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
        line.write(limit: jsonLimit) { writeJSON(to: &$0) }
    }

    /// The JSON line of a step's start, straight from the step's id: half of a run's lines, which
    /// then make no `EventFields` (issue 32 round twelve: making, copying and destroying one was a
    /// third of what a line cost).
    static func writeStartedJSON(step: String, into line: inout EventLine) {
        line.write(limit: FlowJSON.quotedLimit(utf8Count: step.utf8.count) + 64 + LineCursor.timestampLength) {
            putStartedJSON(step: step, to: &$0)
        }
    }

    private static func putStartedJSON(step: String, to line: inout LineCursor) {
        line.put("{\"event\":\"started\",\"step\":" as StaticString)
        line.putQuoted(step)
        line.put(",\"time\":\"" as StaticString)
        line.putTimestamp()
        line.put("\"}" as StaticString)
    }

    /// A step's end as its line says it: made straight from the result for the JSON log (the other
    /// half of a run's lines, without an `EventFields`), and the fields of `EventFields.finished`.
    struct FinishedLine {
        let step: String
        let state: FlowStepState
        let duration: Duration?
        let failure: Failure?
        /// For a `for-each` step: its items by state (see `EventFields.count`).
        let items: String?
        let repetitions: Repetitions?

        init(_ result: FlowStepResult) {
            step = result.step
            state = result.state
            duration = result.duration
            failure = result.failure.map {
                Failure(message: $0.message, location: $0.location?.description ?? "", ignored: result.failureIgnored)
            }
            items = result.items.map(EventFields.count)
            repetitions = result.repetitions.map { Repetitions(count: $0.count, max: $0.limit) }
        }

        fileprivate init(
            step: String, state: FlowStepState, duration: Duration?, failure: Failure?, items: String?,
            repetitions: Repetitions?
        ) {
            (self.step, self.state, self.duration) = (step, state, duration)
            (self.failure, self.items, self.repetitions) = (failure, items, repetitions)
        }

        func write(into line: inout EventLine) {
            let texts =
                step.utf8.count + (items?.utf8.count ?? 0) + (failure?.message.utf8.count ?? 0)
                + (failure?.location.utf8.count ?? 0)
            line.write(limit: FlowJSON.quotedLimit(utf8Count: texts) + 160 + LineCursor.timestampLength) {
                put(to: &$0)
            }
        }

        /// The line's members in `writeJSON`'s order.
        fileprivate func put(to line: inout LineCursor) {
            line.put("{" as StaticString)
            if let duration { line.putSecondsMember("duration", duration) }
            if let failure { line.putMember("error", failure.message) }
            line.put("\"event\":\"finished\"," as StaticString)
            if let items { line.putMember("items", items) }
            if let failure { line.putMember("location", failure.location) }
            if let repetitions { line.putNumberMember("repetitions", Int64(repetitions.count)) }
            line.put("\"state\":\"" as StaticString)
            line.put(state.rawValue)
            line.put("\",\"step\":" as StaticString)
            line.putQuoted(step)
            line.put(",\"time\":\"" as StaticString)
            line.putTimestamp()
            line.put("\"}" as StaticString)
        }
    }

    /// The most `writeJSON` writes: the texts' own worst case, and room for every key, number and
    /// the time beside them.
    private var jsonLimit: Int {
        var texts = step.utf8.count + (items?.utf8.count ?? 0)
        switch kind {
        case .repetition(_, _, let previous): texts += previous?.utf8.count ?? 0
        case .output(let text, _): texts += text.utf8.count
        case .itemFailed(let item, let message): texts += item.utf8.count + message.utf8.count
        case .finished(_, _, let failure, _):
            texts += (failure?.message.utf8.count ?? 0) + (failure?.location.utf8.count ?? 0)
        case .started, .retry, .progress, .items: break
        }
        // Up to five texts, each quoted; up to four numbers; keys and punctuation; the time.
        return FlowJSON.quotedLimit(utf8Count: texts) + 5 * 2 + 4 * LineCursor.numberLimit + 160
            + LineCursor.timestampLength
    }

    private func writeJSON(to line: inout LineCursor) {
        // A start and an end have their own writers (the JSON log's fast path uses them too).
        switch kind {
        case .started:
            return Self.putStartedJSON(step: step, to: &line)
        case .finished(let state, let duration, let failure, let repetitions):
            let end = FinishedLine(
                step: step, state: state, duration: duration, failure: failure, items: items, repetitions: repetitions)
            return end.put(to: &line)
        case .retry, .repetition, .output, .progress, .itemFailed, .items:
            break
        }
        line.put("{" as StaticString)
        switch kind {
        case .started, .finished:
            break
        case .retry(let attempt):
            line.putNumberMember("attempt", Int64(attempt))
            line.put("\"event\":\"retry\"," as StaticString)
        case .repetition(let attempt, let max, let previous):
            line.putNumberMember("attempt", Int64(attempt))
            line.put("\"event\":\"repeat\"," as StaticString)
            line.putNumberMember("max-attempts", Int64(max))
            if let previous { line.putMember("previous", previous) }
        case .output(let text, _):
            line.put("\"event\":\"output\"," as StaticString)
            line.putMember("line", text)
        case .progress(let done, _):
            line.putNumberMember("bytes", done)
            line.put("\"event\":\"progress\"," as StaticString)
        case .itemFailed(let item, let message):
            line.putMember("error", message)
            line.put("\"event\":\"item\"," as StaticString)
            line.putMember("item", item)
            line.put("\"state\":\"failed\"," as StaticString)
        case .items(let finished, _, let failed):
            line.put("\"event\":\"items\"," as StaticString)
            line.putNumberMember("failed", Int64(failed))
            line.putNumberMember("finished", Int64(finished))
        }
        line.putMember("step", step)
        if case .output(_, let isError) = kind {
            line.put(isError ? "\"stream\":\"stderr\"," as StaticString : "\"stream\":\"stdout\"," as StaticString)
        }
        line.put("\"time\":\"" as StaticString)
        line.putTimestamp()
        line.put("\"" as StaticString)
        if case .progress(_, let total?) = kind {
            line.put("," as StaticString)
            line.putNumberMember("total", total, last: true)
        }
        if case .items(_, let total, _) = kind {
            line.put("," as StaticString)
            line.putNumberMember("total", Int64(total), last: true)
        }
        line.put("}" as StaticString)
    }
}
