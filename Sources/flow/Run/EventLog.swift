import Dispatch
import FlowDSL
import FlowEngine
import FlowTasks
import Foundation

/// Prints a run's events as they happen: one plain line per event with a timestamp (CI logs,
/// pipes), with colours on a terminal unless `NO_COLOR` is set, or one JSON object per line.
///
/// Events arrive in order on the scheduler's queue, so the printer needs no lock of its own.
struct EventLog: Sendable {
    enum Format: String, Sendable {
        case plain
        case json
    }

    let format: Format
    let colors: Bool
    let workflow: Workflow
    let masker: SecretMasker
    /// When each step first reported bytes and last printed them: an upload reports ten times a
    /// second, a log gets a line a second (and the last one).
    private let bytesLines = LockedBox<[String: (first: ContinuousClock.Instant, printed: ContinuousClock.Instant?)]>(
        [:])

    init(format: Format, colors: Bool, workflow: Workflow, masker: SecretMasker) {
        self.format = format
        self.colors = colors
        self.workflow = workflow
        self.masker = masker
    }

    func handle(_ event: SchedulerEvent<StepResult>) {
        let record = event.record
        var fields: [String: String] = ["step": event.id]
        let text: String
        switch event.kind {
        case .started:
            let kind = workflow.step(event.id)?.kind.keyword ?? "step"
            fields["event"] = "started"
            text = paint("started", .blue) + " (\(kind))"
        case .progress(.attempt(let attempt)):
            guard attempt > 1 else { return }
            fields["event"] = "retry"
            fields["attempt"] = String(attempt)
            text = paint("attempt \(attempt)", .yellow)
        case .progress(.line(let line, let stream)):
            fields["event"] = "output"
            fields["stream"] = stream.rawValue
            fields["line"] = line
            text = "| " + line
        case .progress(.bytes(let done, let total)):
            guard let elapsed = bytesLineDue(event.id, last: done == total) else { return }
            fields["event"] = "progress"
            fields["bytes"] = String(done)
            if let total { fields["total"] = String(total) }
            text = ByteProgress(done: done, total: total, elapsed: elapsed).plainText
        case .finished:
            fields["event"] = "finished"
            fields["state"] = record.state.rawValue
            var line = paint(record.state.rawValue, color(for: record.state))
            if let duration = duration(of: record) {
                fields["duration"] = String(format: "%.3f", duration)
                line += String(format: " in %.2fs", duration)
            }
            if let error = record.error {
                let message = masker(String(describing: error))
                let location = WorkflowRun.location(of: error) ?? workflow.step(event.id)?.location.description ?? ""
                fields["error"] = message
                fields["location"] = location
                line += ": \(message)" + (location.isEmpty ? "" : " (\(location))")
                if record.failureIgnored { line += " [continue-on-error]" }
            }
            text = line
        }
        write(fields: fields, text: "[\(event.id)] " + text)
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

    /// One line when a service passed its readiness check:
    /// `service sandbox ready on http://127.0.0.1:PORT (0.41s)`.
    func serviceReady(_ ready: ServiceReady) {
        let seconds = ready.duration.seconds
        write(
            fields: [
                "service": ready.name, "event": "ready", "url": ready.url,
                "duration": String(format: "%.3f", seconds),
            ],
            text: "service \(ready.name) " + paint("ready", .green) + " on \(ready.url)"
                + String(format: " (%.2fs)", seconds))
    }

    private func write(fields: [String: String], text: String) {
        let time = Self.timestamp()
        switch format {
        case .plain:
            Output.line("\(time) \(text)")
        case .json:
            var object = fields
            object["time"] = time
            let members = object.sorted { $0.key < $1.key }.map {
                Value.string($0.key).jsonText + ":" + Value.string($0.value).jsonText
            }
            Output.line("{" + members.joined(separator: ",") + "}")
        }
    }

    private func duration(of record: StepRecord<StepResult>) -> Double? {
        guard let start = record.startedAt, let end = record.finishedAt else { return nil }
        return (end - start).seconds
    }

    enum Color: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case gray = "90"
    }

    private func color(for state: StepState) -> Color {
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

    /// The current UTC time as ISO 8601 with milliseconds, `2026-11-21T05:49:25.865Z`.
    ///
    /// Formatted by hand: a `DateFormatter` per event cost more than the rest of the event's
    /// handling (measured with perf in bench/engine).
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }
}

/// Standard output, written whole lines at a time.
///
/// Lines are gathered and written together at most 50 ms later (or at 64 KiB): one `write` per
/// event cost as much as the rest of a step's scheduling (measured with perf in bench/engine).
/// `flush()` writes what is pending; the run calls it before the summary.
enum Output {
    private static let buffer = OutputBuffer()

    static func line(_ text: String) {
        buffer.append(text + "\n")
    }

    static func raw(_ text: String) {
        buffer.append(text)
    }

    /// Writes everything pending, in order, and returns once it is written.
    static func flush() {
        buffer.flush()
    }
}

/// The pending output: appended under a lock (no thread hop per line), written by a timer on one
/// serial queue, or at once when it grows large.
/// `@unchecked Sendable`: `pending` and `scheduled` are touched only while holding `lock`, and
/// writes to the file descriptor happen only on `queue`, in order.
private final class OutputBuffer: @unchecked Sendable {
    private let queue = DispatchQueue(label: "flow.output")
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var scheduled = false

    func append(_ text: String) {
        lock.lock()
        pending.append(contentsOf: text.utf8)
        let full = pending.count >= 64 << 10
        let schedule = !scheduled && !full
        if schedule { scheduled = true }
        lock.unlock()
        if full {
            queue.async { self.write() }
        } else if schedule {
            queue.asyncAfter(deadline: .now() + .milliseconds(50)) { self.write() }
        }
    }

    func flush() {
        queue.sync { write() }
    }

    /// Takes what is pending and writes it; on `queue` only, so chunks keep their order.
    private func write() {
        lock.lock()
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        scheduled = false
        lock.unlock()
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Foundation.write(STDOUT_FILENO, base + offset, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
