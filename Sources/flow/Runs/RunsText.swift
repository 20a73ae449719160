import FlowKit
import Foundation

/// The plain-text forms of `flow runs` (a table) and `flow runs show` (a run, then its steps).
/// Times are local; durations are rounded for reading (the JSON form keeps the exact seconds).
enum RunsText {
    static func table(_ runs: [FlowRunRecord], now: Date) -> String {
        let header = ["ID", "STATE", "STARTED", "DURATION", "STEPS", "FILE"]
        let rows = runs.map { run in
            [
                run.id, run.state.rawValue, RunsTime.local(run.startedAt), duration(of: run, now: now),
                counts(of: run), run.workflowFile,
            ]
        }
        return columns([header] + rows)
    }

    static func detail(_ detail: FlowRunDetail, now: Date) -> String {
        let run = detail.record
        var lines = [
            "run \(run.id): \(run.state.rawValue)",
            "  file:     \(run.workflowFile)",
            "  started:  \(RunsTime.local(run.startedAt))",
            "  duration: \(duration(of: run, now: now))",
            "  steps:    \(counts(of: run))",
        ]
        if !detail.inputs.isEmpty {
            let inputs = detail.inputs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("  inputs:   " + inputs.joined(separator: ", "))
        }
        if detail.steps.isEmpty {
            lines.append("")
            lines.append("no step started")
        } else {
            lines.append("")
            lines += stepLines(detail.steps)
        }
        if !detail.transfers.isEmpty {
            lines.append("")
            lines.append("transfers:")
            for transfer in detail.transfers {
                lines.append(
                    "  \(transfer.name): \(transfer.kind) \(transfer.target), "
                        + "\(transfer.bytesConfirmed) bytes confirmed")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func stepLines(_ steps: [FlowStepRecord]) -> [String] {
        let header = ["STEP", "STATE", "ATTEMPTS", "STARTED", "DURATION"]
        let rows = steps.map { step in
            [
                step.name, step.state.rawValue, String(step.attempts),
                step.startedAt.map(RunsTime.local) ?? "-",
                step.startedAt.flatMap { start in step.finishedAt.map { seconds($0.timeIntervalSince(start)) } } ?? "-",
            ]
        }
        let table = columns([header] + rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines = [table[0]]
        // Each step's row, then what a reader needs to know about it, indented under it.
        for (index, step) in steps.enumerated() {
            lines.append(table[index + 1])
            if step.unsafeRequestInFlight {
                lines.append("    an unsafe request was being sent: its outcome is unknown")
            }
            if let error = step.error { lines.append("    error: \(error)") }
            if step.outputs == .secret {
                lines.append("    outputs: not stored (they held a secret; the step runs again on --resume)")
            } else if case .json(let outputs) = step.outputs, outputs != "{}" {
                lines.append("    outputs: \(shortened(outputs))")
            }
        }
        return lines
    }

    /// "2 succeeded (100000 items: 100000 succeeded)": steps by state, a `for-each` step counting
    /// once, and its items apart, as the run's summary says it.
    static func counts(of run: FlowRunRecord) -> String {
        let steps = counts(run.stepCounts)
        guard !run.itemCounts.isEmpty else { return steps }
        let total = run.itemCounts.values.reduce(0, +)
        return steps + " (\(total) item\(total == 1 ? "" : "s"): \(counts(run.itemCounts)))"
    }

    /// "3 succeeded, 1 failed": the usual states first, then any others by name.
    static func counts(_ counts: [FlowStepState: Int]) -> String {
        let order: [FlowStepState] = [.succeeded, .failed, .running, .skipped, .cancelled]
        let known = order.compactMap { state in counts[state].map { "\($0) \(state.rawValue)" } }
        let others = counts.filter { !order.contains($0.key) }.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.value) \($0.key.rawValue)" }
        let all = known + others
        return all.isEmpty ? "none" : all.joined(separator: ", ")
    }

    /// Until it finished, or until now while it runs; "-" for a run interrupted without an end.
    static func duration(of run: FlowRunRecord, now: Date) -> String {
        if let end = run.finishedAt { return seconds(end.timeIntervalSince(run.startedAt)) }
        return run.state == .running ? seconds(now.timeIntervalSince(run.startedAt)) : "-"
    }

    /// "0.42s", "12.3s", "4m 05s", "2h 03m".
    static func seconds(_ value: TimeInterval) -> String {
        FlowDurationText.runs(seconds: max(0, value))
    }

    private static func shortened(_ text: String, limit: Int = 160) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Left-aligned columns two spaces apart; the last column is not padded.
    private static func columns(_ rows: [[String]]) -> String {
        guard let width = rows.first?.count else { return "" }
        var widths = [Int](repeating: 0, count: width)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
