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
        guard let fields = EventFields(event, workflow: workflow, masker: masker) else { return }
        var elapsed = 0.0
        if case .progress(let done, let total) = fields.kind {
            guard let seconds = bytesLineDue(fields.step, last: done == total) else { return }
            elapsed = seconds
        }
        var line = EventLine()
        switch format {
        case .plain: writePlain(fields, elapsed: elapsed, into: &line)
        case .json: fields.writeJSON(into: &line)
        }
        // A command's line keeps its hold until it is written, which paces a command that prints
        // faster than the output can take (see OutputHold).
        if case .progress(.line(_, _, let hold?)) = event.kind {
            Output.line(line.bytes, holding: hold)
        } else {
            Output.line(line.bytes)
        }
    }

    /// One line when a service passed its readiness check:
    /// `service sandbox ready on http://127.0.0.1:PORT (0.41s)`, or a JSON object with
    /// `duration`, `event: ready`, `service`, `time` and `url`.
    func serviceReady(_ ready: ServiceReady) {
        var line = EventLine()
        switch format {
        case .plain:
            line.appendTimestamp()
            line.append(" service \(ready.name) " + paint("ready", .green) + " on \(ready.url) (")
            line.appendSeconds(ready.duration, places: 2)
            line.append("s)" as StaticString)
        case .json:
            line.append("{\"duration\":\"" as StaticString)
            line.appendSeconds(ready.duration, places: 3)
            line.append("\"," as StaticString)
            line.appendMember("event", "ready")
            line.appendMember("service", ready.name)
            line.append("\"time\":\"" as StaticString)
            line.appendTimestamp()
            line.append("\"," as StaticString)
            line.appendMember("url", ready.url, last: true)
            line.append("}" as StaticString)
        }
        Output.line(line.bytes)
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

    /// `2026-11-21T05:49:25.865Z [step] text`, coloured on a terminal.
    private func writePlain(_ fields: EventFields, elapsed: Double, into line: inout EventLine) {
        line.appendTimestamp()
        line.append(" [" as StaticString)
        line.append(fields.step)
        line.append("] " as StaticString)
        switch fields.kind {
        case .started:
            line.append(paint("started", .blue))
            line.append(" (\(workflow.step(fields.step)?.kind.keyword ?? "step"))")
        case .retry(let attempt):
            line.append(paint("attempt \(attempt)", .yellow))
        case .output(let text, _):
            line.append("| " as StaticString)
            line.append(text)
        case .progress(let done, let total):
            line.append(ByteProgress(done: done, total: total, elapsed: elapsed).plainText)
        case .finished(let state, let duration, let failure):
            line.append(paint(state.rawValue, color(for: state)))
            if let duration {
                line.append(" in " as StaticString)
                line.appendSeconds(duration, places: 2)
                line.append("s" as StaticString)
            }
            if let failure {
                line.append(": " as StaticString)
                line.append(failure.message)
                if !failure.location.isEmpty { line.append(" (\(failure.location))") }
                if failure.ignored { line.append(" [continue-on-error]" as StaticString) }
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

    /// A line already encoded as UTF-8, without its newline; `hold` is released once the line is
    /// written.
    static func line(_ bytes: [UInt8], holding hold: OutputHold? = nil) {
        buffer.append(bytes, newline: true, holding: hold)
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
/// serial queue, or at once when it grows large. The holds of the pending lines are kept until
/// they are written, so commands cannot print faster than standard output takes it.
/// `@unchecked Sendable`: `pending`, `holds` and `scheduled` are touched only while holding `lock`,
/// and writes to the file descriptor happen only on `queue`, in order.
private final class OutputBuffer: @unchecked Sendable {
    private let queue = DispatchQueue(label: "flow.output")
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var holds: [OutputHold] = []
    private var scheduled = false

    func append(_ text: String) {
        append(Array(text.utf8), newline: false)
    }

    func append(_ bytes: [UInt8], newline: Bool, holding hold: OutputHold? = nil) {
        lock.lock()
        pending.append(contentsOf: bytes)
        // Consecutive lines of a batch share one hold: keep it once.
        if let hold, holds.last !== hold { holds.append(hold) }
        if newline { pending.append(UInt8(ascii: "\n")) }
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
        let written = holds
        holds.removeAll()
        scheduled = false
        lock.unlock()
        // Released once the bytes are out (after the loop below).
        defer { withExtendedLifetime(written) {} }
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
