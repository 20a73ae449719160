import FlowDSL
import FlowEngine
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
            fields["event"] = "progress"
            fields["bytes"] = String(done)
            if let total { fields["total"] = String(total) }
            text = total.map { "\(done)/\($0) bytes" } ?? "\(done) bytes"
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

    private func write(fields: [String: String], text: String) {
        let time = Self.timestamp()
        switch format {
        case .plain:
            Output.line("\(time) \(text)")
        case .json:
            var object = fields
            object["time"] = time
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            Output.line(String(decoding: data, as: UTF8.self))
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

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

/// Standard output, written whole lines at a time.
enum Output {
    static func line(_ text: String) {
        raw(text + "\n")
    }

    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
