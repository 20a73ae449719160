import FlowKit
import Foundation

/// The end of a run's output: counts by state, total time, and each failed step with its error and
/// where it is in the YAML.
///
/// Made from FlowKit's outcome (an app reads the same), not from a `RunReport`: a report describes
/// every step (its location text, timings, outputs), which a run of 10,000 steps spent more time
/// building than on scheduling, and is built only when `--report` asks for one. Says what the
/// report would.
struct RunSummary {
    /// The run's outcome, from the records the summary shows (with `--only`, the step's own).
    let outcome: FlowOutcome
    /// The workflow run: its steps' order, the source lines under failures.
    let workflow: FlowWorkflow
    let colors: Bool
    /// Under `--log-format json` the summary is one JSON object like every other line (event
    /// `summary`), so a reader of the stream parses every line.
    var json = false

    func print() {
        var lines: [String] = []
        // A `for-each` step counts once, as a step; its items are counted apart (`flow runs` says
        // the same: steps by state, then items). Counted from the records, without a result made
        // for every step (every step of the workflow has a record: the scheduler registers them all).
        let (steps, items) = outcome.stateCounts
        let succeeded = steps[.succeeded] ?? 0
        let failed = steps[.failed] ?? 0
        let skipped = steps[.skipped] ?? 0
        let cancelled = steps[.cancelled] ?? 0
        let state = outcome.stepsState
        let failures = outcome.failedSteps
        if json {
            printJSON(state: state, counts: (succeeded, failed, skipped, cancelled), items: items, failures: failures)
            return
        }
        let counts = "\(succeeded) succeeded, \(failed) failed, \(skipped) skipped, \(cancelled) cancelled"
        var first = String(format: "flow: %@ — %@ in %.2fs", state.rawValue, counts, outcome.duration.seconds)
        if !items.isEmpty { first += " (\(EventFields.count(items)))" }
        lines.append(first)
        lines += repetitionLines()
        // Steps of called files follow their `uses` step, as `deploy/publish`.
        for failure in failures {
            // A failed `expect` carries the response on the lines after its message: shown under
            // the snippet, indented like it.
            let parts = failure.message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let place = failure.location.map { "\($0)" } ?? ""
            lines.append("  ✗ \(failure.step) (\(place)): \(parts[0])")
            // The line it points at, as under a parse error (one way to show where a problem is).
            let snippet = failure.location.map { workflow.snippet(at: $0) } ?? ""
            if !snippet.isEmpty { lines.append(String(snippet.dropLast())) }
            if parts.count == 2 { lines += parts[1].split(separator: "\n").map { "    " + $0 } }
            if let items = outcome.result(of: failure.step)?.items {
                lines += failedItems(failure.step, items)
            }
        }
        StandardOutput.line(lines.joined(separator: "\n"))
        StandardOutput.flush()
    }

    /// The summary as one JSON object (event `summary`), members in alphabetical order.
    private func printJSON(
        state: FlowOutcome.State, counts: (succeeded: Int, failed: Int, skipped: Int, cancelled: Int),
        items: [FlowStepState: Int], failures: [FlowStepFailure]
    ) {
        var line = EventLine()
        line.append("{" as StaticString)
        line.appendNumberMember("cancelled", Int64(counts.cancelled))
        line.appendSecondsMember("duration", outcome.duration)
        line.appendMember("event", "summary")
        line.appendNumberMember("failed", Int64(counts.failed))
        line.append("\"failures\":[" as StaticString)
        for (index, failure) in failures.enumerated() {
            line.append(index == 0 ? "{" as StaticString : ",{" as StaticString)
            line.appendMember("error", failure.message)
            line.appendMember("location", failure.location.map { "\($0)" } ?? "")
            line.appendMember("step", failure.step, last: true)
            line.append("}" as StaticString)
        }
        line.append("]," as StaticString)
        if !items.isEmpty {
            // The items of every `for-each` step by state, apart from the steps' counts.
            line.append("\"items\":{" as StaticString)
            let states = items.keys.sorted { $0.rawValue < $1.rawValue }
            line.append(states.map { "\"\($0.rawValue)\":\(items[$0] ?? 0)" }.joined(separator: ","))
            line.append("}," as StaticString)
        }
        line.appendMember("outcome", state.rawValue)
        line.appendNumberMember("skipped", Int64(counts.skipped))
        line.appendNumberMember("succeeded", Int64(counts.succeeded))
        line.append("\"time\":\"" as StaticString)
        line.appendTimestamp()
        line.append("\"}" as StaticString)
        StandardOutput.line(line.bytes)
        StandardOutput.flush()
    }

    /// A failed `for-each` step's failed items, as `fetch[3]`: the first few, then how many more.
    private func failedItems(_ id: String, _ items: [FlowItemResult]) -> [String] {
        let shownAtMost = 5
        var lines = ["    " + EventFields.count(items)]
        var shown = 0
        var more = 0
        for (index, item) in items.enumerated() where item.state == .failed {
            guard shown < shownAtMost else {
                more += 1
                continue
            }
            shown += 1
            lines.append("    ✗ \(id)[\(index)] (item \(item.label)): \(item.error ?? "failed")")
        }
        if more > 0 { lines.append("    … and \(more) more failed item\(more == 1 ? "" : "s")") }
        return lines
    }

    /// `  ↻ wait-job: repeat 3/60` for each step with `repeat` that ran: how often, out of how many.
    private func repetitionLines() -> [String] {
        workflow.stepIDs.compactMap { id -> String? in
            guard let repetitions = outcome.result(of: id)?.repetitions else { return nil }
            return "  ↻ \(id): repeat \(repetitions.count)/\(repetitions.limit)"
        }
    }
}
