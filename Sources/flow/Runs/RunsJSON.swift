import FlowKit
import Foundation

/// The `--format json` forms of `flow runs` and `flow runs show` (schemas/runs.schema.json): one
/// JSON document, keys in alphabetical order, one run or step a line, times in ISO 8601 UTC,
/// durations in seconds.
///
/// Written by hand rather than through `JSONSerialization`: the stored outputs are JSON text
/// already and are copied in as they are (parsing and printing them again took seconds for a run
/// of 10,000 steps).
enum RunsJSON {
    static func list(_ runs: [FlowRunRecord], stateDirectory: String) -> String {
        let lines = runs.map { "    " + object(run($0)) }
        return "{\n  \"runs\": " + array(lines, indent: "  ") + ",\n  \"stateDirectory\": "
            + string(stateDirectory) + "\n}"
    }

    static func detail(_ detail: FlowRunDetail) -> String {
        var members = run(detail.record).filter { $0.key != "steps" && $0.key != "items" }
        members += [
            ("fileHash", string(detail.fileHash)),
            ("inputs", map(detail.inputs)),
            // The list's `steps` (counts by state) is `stepCounts` here: `steps` lists each step.
            ("stepCounts", counts(detail.record.stepCounts)),
            ("itemCounts", counts(detail.record.itemCounts)),
            ("stepHashes", map(detail.stepHashes)),
            ("steps", array(detail.steps.map { "    " + object(step($0)) }, indent: "  ")),
            ("transfers", array(detail.transfers.map { "    " + object(transfer($0)) }, indent: "  ")),
        ]
        let sorted = members.sorted { $0.key < $1.key }
        return "{\n" + sorted.map { "  \(string($0.key)): \($0.value)" }.joined(separator: ",\n") + "\n}"
    }

    private typealias Members = [(key: String, value: String)]

    private static func run(_ run: FlowRunRecord) -> Members {
        [
            ("durationSeconds", number(run.finishedAt.map { $0.timeIntervalSince(run.startedAt) })),
            ("file", string(run.workflowFile)),
            ("finishedAt", run.finishedAt.map { string(RunsTime.iso($0)) } ?? "null"),
            ("id", string(run.id)),
            ("items", counts(run.itemCounts)),
            ("startedAt", string(RunsTime.iso(run.startedAt))),
            ("state", string(run.state.rawValue)),
            ("steps", counts(run.stepCounts)),
        ]
    }

    private static func step(_ step: FlowStepRecord) -> Members {
        let duration = step.startedAt.flatMap { start in step.finishedAt.map { $0.timeIntervalSince(start) } }
        return [
            ("attempts", String(step.attempts)),
            ("containsSecret", step.outputs == .secret ? "true" : "false"),
            ("durationSeconds", number(duration)),
            ("error", step.error.map(string) ?? "null"),
            ("finishedAt", step.finishedAt.map { string(RunsTime.iso($0)) } ?? "null"),
            ("item", step.item.map(String.init) ?? "null"),
            ("outputs", outputs(step.outputs)),
            ("startedAt", step.startedAt.map { string(RunsTime.iso($0)) } ?? "null"),
            ("state", string(step.state.rawValue)),
            ("step", string(step.step)),
            ("unsafeInFlight", step.unsafeRequestInFlight ? "true" : "false"),
        ]
    }

    private static func transfer(_ transfer: FlowTransferRecord) -> Members {
        [
            ("bytesConfirmed", String(transfer.bytesConfirmed)),
            ("fileIdentity", string(transfer.fileIdentity)),
            ("item", transfer.item.map(String.init) ?? "null"),
            ("kind", string(transfer.kind)),
            ("step", string(transfer.step)),
            ("target", string(transfer.target)),
        ]
    }

    /// The stored outputs, which are JSON text, as they are; text that cannot begin a JSON value
    /// (never written by flow) is given as a string rather than breaking the document.
    private static func outputs(_ stored: FlowStepRecord.Outputs) -> String {
        guard case .json(let text) = stored else { return "null" }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, "{[\"-0123456789tfn".contains(first) else { return string(text) }
        return trimmed
    }

    private static func object(_ members: Members) -> String {
        "{" + members.map { "\(string($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
    }

    private static func array(_ lines: [String], indent: String) -> String {
        lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n\(indent)]"
    }

    private static func map(_ map: [String: String]) -> String {
        object(map.sorted { $0.key < $1.key }.map { ($0.key, string($0.value)) })
    }

    private static func counts(_ counts: [FlowStepState: Int]) -> String {
        object(counts.map { ($0.key.rawValue, String($0.value)) }.sorted { $0.0 < $1.0 })
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return String(format: "%.3f", max(0, value))
    }

    /// A JSON string literal, escaped as the project's other JSON output is.
    private static func string(_ text: String) -> String {
        DiagnosticOutput.string(text)
    }
}
