import Dispatch
import FlowKit
import Foundation

/// Prints a run's events as they happen: one plain line per event with a timestamp (CI logs,
/// pipes), with colours on a terminal unless `NO_COLOR` is set, or one JSON object per line.
///
/// Events arrive in order on the scheduler's queue, so the printer needs no lock of its own.
struct EventPrinter: Sendable {
    enum Format: String, Sendable {
        case plain
        case json
    }

    let format: Format
    let colors: Bool
    /// The workflow run: its steps' keywords.
    let workflow: FlowWorkflow
    /// When each step first reported bytes and last printed them: an upload reports ten times a
    /// second, a log gets a line a second (and the last one).
    private let bytesLines = Locked<[String: (first: ContinuousClock.Instant, printed: ContinuousClock.Instant?)]>(
        [:])
    /// When each step with `repeat` last printed a repetition line, and what the attempt before the
    /// last one seen gave (see `repetitionLineDue`).
    private let repetitionLines = Locked<[String: (printed: ContinuousClock.Instant, previous: String?)]>([:])

    init(format: Format, colors: Bool, workflow: FlowWorkflow) {
        self.format = format
        self.colors = colors
        self.workflow = workflow
    }

    /// Prints `event` when it has a line; `hold` (a command's line) is let go once it is written.
    func handle(_ event: FlowEvent, hold: (AnyObject & Sendable)?) {
        // A step's first attempt has no line (later ones are retries): the commonest event.
        if case .attempt(_, let number) = event, number <= 1 { return }
        // Nearly every line of a JSON log: a step's start and its end, written without EventFields.
        if format == .json {
            if case .stepStarted(let id) = event {
                StandardOutput.line(holding: hold) { EventFields.writeStartedJSON(step: id, into: &$0) }
                return
            }
            if case .stepFinished(let result) = event {
                let end = EventFields.FinishedLine(result)
                StandardOutput.line(holding: hold) { end.write(into: &$0) }
                return
            }
        }
        guard let fields = EventFields(event) else { return }
        var elapsed = 0.0
        if case .repetition(let attempt, let limit, let previous) = fields.kind,
            !repetitionLineDue(fields.step, attempt: attempt, limit: limit, previous: previous)
        {
            return
        }
        if case .progress(let done, let total) = fields.kind {
            guard let seconds = bytesLineDue(fields.step, last: done == total) else { return }
            elapsed = seconds
        }
        // A command's line keeps its hold until it is written, which paces a command that prints
        // faster than the output can take (see OutputHold).
        switch format {
        case .plain:
            var line = EventLine()
            writePlain(fields, elapsed: elapsed, into: &line)
            StandardOutput.line(line.bytes, holding: hold)
        case .json:
            // Written straight into the output: the closure reads `fields` only (not the printer,
            // which it would copy, retaining each of its fields, for every line).
            StandardOutput.line(holding: hold) { fields.writeJSON(into: &$0) }
        }
    }

    /// One line when a service passed its readiness check:
    /// `service sandbox ready on http://127.0.0.1:PORT (0.41s)`, or a JSON object with
    /// `duration`, `event: ready`, `service`, `time` and `url`.
    func serviceReady(_ ready: FlowServiceReady) {
        var line = EventLine()
        switch format {
        case .plain:
            line.appendTimestamp()
            // The address actually polled: a port nobody listens on is never shown as ready.
            line.append(" service \(ready.name) " + paint("ready", .green) + " on \(ready.polled) (")
            line.appendSeconds(ready.duration, places: 2)
            line.append("s)" as StaticString)
        case .json:
            line.append("{" as StaticString)
            line.appendSecondsMember("duration", ready.duration)
            line.appendMember("event", "ready")
            line.appendMember("polled", ready.polled)
            line.appendMember("service", ready.name)
            line.append("\"time\":\"" as StaticString)
            line.appendTimestamp()
            line.append("\"," as StaticString)
            line.appendMember("url", ready.url, last: true)
            line.append("}" as StaticString)
        }
        StandardOutput.line(line.bytes)
    }

    /// A service could not bind its port and is started again on another.
    func serviceMoved(_ move: FlowServiceMove) {
        var line = EventLine()
        switch format {
        case .plain:
            line.appendTimestamp()
            line.append(
                " service \(move.name) could not bind port \(move.from) (\(move.reason)); starting it again "
                    + "on port \(move.to) (attempt \(move.attempt + 1) of \(move.attempts))")
            // The services that read its port were started with the old one: they start again.
            if !move.restarting.isEmpty {
                line.append(
                    "; restarting \(move.restarting.map { "service \($0)" }.joined(separator: ", ")), which read"
                        + "\(move.restarting.count == 1 ? "s" : "") its port")
            }
        case .json:
            line.append("{" as StaticString)
            line.appendNumberMember("attempt", Int64(move.attempt + 1))
            line.appendMember("event", "moved")
            line.appendNumberMember("from", Int64(move.from))
            line.appendMember("reason", move.reason)
            if !move.restarting.isEmpty {
                line.append("\"restarting\":[" as StaticString)
                for (index, name) in move.restarting.enumerated() {
                    if index > 0 { line.append("," as StaticString) }
                    line.appendJSONString(name)
                }
                line.append("]," as StaticString)
            }
            line.appendMember("service", move.name)
            line.append("\"time\":\"" as StaticString)
            line.appendTimestamp()
            line.append("\"," as StaticString)
            line.appendNumberMember("to", Int64(move.to), last: true)
            line.append("}" as StaticString)
        }
        StandardOutput.line(line.bytes)
    }

    /// The seconds since the step's first bytes report when a line is due now, else nil.
    private func bytesLineDue(_ id: String, last: Bool) -> Double? {
        let now = ContinuousClock.now
        return bytesLines.withLock { lines in
            let first = lines[id]?.first ?? now
            if !last, let printed = lines[id]?.printed, now - printed < .seconds(1) { return nil }
            lines[id] = (first, now)
            return (now - first).seconds
        }
    }

    /// Whether attempt `attempt` (of at most `limit`) of a `repeat` gets a line: the first
    /// repetition, each tenth of `limit`, each attempt after one whose result changed (`previous`,
    /// `status 202` then `status 200`), and at least one every 10 seconds — as a `for-each` prints
    /// its items, so `every: 0s` over 250,000 attempts prints a dozen lines, not 250,000.
    private func repetitionLineDue(_ id: String, attempt: Int, limit: Int, previous: String?) -> Bool {
        let tenth = max(1, limit / 10)
        let now = ContinuousClock.now
        return repetitionLines.withLock { lines in
            let last = lines[id]
            let quiet = last.map { now - $0.printed >= .seconds(10) } ?? true
            let changed = last.map { $0.previous != previous } ?? false
            guard attempt == 2 || attempt.isMultiple(of: tenth) || quiet || changed else {
                lines[id]?.previous = previous
                return false
            }
            lines[id] = (now, previous)
            return true
        }
    }

    /// `2026-11-21T05:49:25.865Z [step] text`, coloured on a terminal.
    private func writePlain(_ fields: EventFields, elapsed: Double, into line: inout EventLine) {
        line.appendTimestamp()
        line.append(" [" as StaticString)
        line.append(fields.step)
        line.append("] " as StaticString)
        switch fields.kind {
        case .started:
            line.append(paint("started", .blue))
            line.append(" (\(workflow.keyword(ofStep: fields.step) ?? "step"))")
        case .retry(let attempt):
            line.append(paint("attempt \(attempt)", .yellow))
        case .repetition(let attempt, let max, let previous):
            line.append(paint("repeat \(attempt)/\(max)", .blue))
            if let previous { line.append(" (previous: \(previous))") }
        case .output(let text, _):
            line.append("| " as StaticString)
            line.append(text)
        case .progress(let done, let total):
            line.append(ByteProgress(done: done, total: total, elapsed: elapsed).plainText)
        case .itemFailed(let item, let message):
            line.append(paint("failed", .red))
            line.append(" (item \(item)): \(message)")
        case .items(let finished, let total, let failed):
            line.append("\(finished)/\(total) items")
            if failed > 0 { line.append(", " + paint("\(failed) failed", .red)) }
        case .finished(let state, let duration, let failure, let repetitions):
            line.append(paint(state.rawValue, color(for: state)))
            if let duration {
                line.append(" in " as StaticString)
                line.appendSeconds(duration, places: 2)
                line.append("s" as StaticString)
            }
            if let items = fields.items { line.append(" (\(items))") }
            if let repetitions { line.append(" (repeat \(repetitions.count)/\(repetitions.max))") }
            if let failure {
                // A failed `expect` carries the response on the lines after its message: the
                // place goes at the end of the message's line, the response below it.
                let parts = failure.message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
                line.append(": " as StaticString)
                line.append(String(parts[0]))
                if !failure.location.isEmpty { line.append(" (\(failure.location))") }
                if failure.ignored { line.append(" [continue-on-error]" as StaticString) }
                if parts.count == 2 { line.append("\n" + parts[1]) }
            }
        }
    }

    enum Color: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case gray = "90"
    }

    private func color(for state: FlowStepState) -> Color {
        switch state {
        case .succeeded: return .green
        case .failed: return .red
        case .cancelled: return .yellow
        case .skipped, .pending, .running: return .gray
        }
    }

    func paint(_ text: String, _ color: Color) -> String {
        colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
