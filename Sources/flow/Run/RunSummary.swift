import FlowKit
import Foundation

/// The end of a run's output: counts by state, total time, and each failed step with its error and
/// where it is in the YAML.
///
/// Made from the records, not from a `RunReport`: a report describes every step (its location
/// text, timings, outputs), which a run of 10,000 steps spent more time building than on
/// scheduling, and is built only when `--report` asks for one. Says what the report would.
struct RunSummary {
    let workflow: Workflow
    let records: [String: StepRecord<StepResult>]
    let masker: SecretMasker
    let interrupted: Bool
    let duration: Duration
    let colors: Bool
    /// Under `--log-format json` the summary is one JSON object like every other line (event
    /// `summary`), so a reader of the stream parses every line.
    var json = false
    /// The workflow file's lines: each failure is shown with its source line and a caret.
    var sourceLines: [Substring] = []
    /// The lines of the files `uses` steps call, by name: a failure inside one shows its line.
    var calledFiles: [String: [Substring]] = [:]
    /// The run's services did not start: it failed whatever its steps did.
    var setupFailed = false

    func print() {
        var lines: [String] = []
        // One pass of plain counters: a dictionary of counts hashed a state for every step.
        var succeeded = 0
        var failed = 0
        var skipped = 0
        var cancelled = 0
        // A `for-each` step counts once, as a step; its items are counted apart (`flow runs` says
        // the same: steps by state, then items).
        var items: [StepState: Int] = [:]
        // Every step of the workflow has a record (the scheduler registers them all).
        for record in records.values {
            if let stepItems = record.items {
                for item in stepItems { items[item.state, default: 0] += 1 }
            }
            switch record.state {
            case .succeeded: succeeded += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            case .cancelled: cancelled += 1
            case .pending, .running: break
            }
        }
        let outcome = WorkflowRun.outcome(
            of: workflow, records: records, interrupted: interrupted, setupFailed: setupFailed)
        // Only looked for when something failed: a 10,000-step run that succeeded skips the walk.
        let failures = failed > 0 ? failedSteps() : []
        if json {
            printJSON(
                outcome: outcome, counts: (succeeded, failed, skipped, cancelled), items: items, failures: failures)
            return
        }
        let counts = "\(succeeded) succeeded, \(failed) failed, \(skipped) skipped, \(cancelled) cancelled"
        var first = String(format: "flow: %@ — %@ in %.2fs", outcome.rawValue, counts, duration.seconds)
        if !items.isEmpty { first += " (\(EventFields.count(items)))" }
        lines.append(first)
        lines += repetitionLines()
        // Steps of called files follow their `uses` step, as `deploy/publish`.
        for failure in failures {
            // A failed `expect` carries the response on the lines after its message: shown under
            // the snippet, indented like it.
            let parts = failure.error.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            lines.append("  ✗ \(failure.id) (\(failure.place)): \(parts[0])")
            // The line it points at, as under a parse error (one way to show where a problem is).
            let fileLines = failure.place.file == workflow.file ? sourceLines : calledFiles[failure.place.file] ?? []
            let snippet = Diagnostic.snippet(at: failure.place, sourceLines: fileLines)
            if !snippet.isEmpty { lines.append(String(snippet.dropLast())) }
            if parts.count == 2 { lines += parts[1].split(separator: "\n").map { "    " + $0 } }
            if let items = records[failure.id]?.items {
                lines += failedItems(failure.id, items)
            }
        }
        StandardOutput.line(lines.joined(separator: "\n"))
        StandardOutput.flush()
    }

    /// The summary as one JSON object (event `summary`), members in alphabetical order.
    private func printJSON(
        outcome: RunOutcome, counts: (succeeded: Int, failed: Int, skipped: Int, cancelled: Int),
        items: [StepState: Int], failures: [(id: String, place: SourceLocation, error: String)]
    ) {
        var line = EventLine()
        line.append("{" as StaticString)
        line.appendNumberMember("cancelled", Int64(counts.cancelled))
        line.appendSecondsMember("duration", duration)
        line.appendMember("event", "summary")
        line.appendNumberMember("failed", Int64(counts.failed))
        line.append("\"failures\":[" as StaticString)
        for (index, failure) in failures.enumerated() {
            line.append(index == 0 ? "{" as StaticString : ",{" as StaticString)
            line.appendMember("error", failure.error)
            line.appendMember("location", failure.place.description)
            line.appendMember("step", failure.id, last: true)
            line.append("}" as StaticString)
        }
        line.append("]," as StaticString)
        if !items.isEmpty {
            // The items of every `for-each` step by state, apart from the steps' counts.
            line.append("\"items\":{" as StaticString)
            let states = StepState.allCases.filter { items[$0] != nil }.sorted { $0.rawValue < $1.rawValue }
            line.append(states.map { "\"\($0.rawValue)\":\(items[$0] ?? 0)" }.joined(separator: ","))
            line.append("}," as StaticString)
        }
        line.appendMember("outcome", outcome.rawValue)
        line.appendNumberMember("skipped", Int64(counts.skipped))
        line.appendNumberMember("succeeded", Int64(counts.succeeded))
        line.append("\"time\":\"" as StaticString)
        line.appendTimestamp()
        line.append("\"}" as StaticString)
        StandardOutput.line(line.bytes)
        StandardOutput.flush()
    }

    /// The steps that failed the run, in declaration order (those of a called file after their
    /// `uses` step, as `deploy/publish`), with where and why (masked).
    private func failedSteps() -> [(id: String, place: SourceLocation, error: String)] {
        var failures: [(id: String, place: SourceLocation, error: String)] = []
        for step in workflow.qualifiedSteps(items: { WorkflowRun.itemCount(records[$0]) }) {
            guard let record = records[step.id], record.state == .failed else { continue }
            // A child that failed inside a group that still succeeded (a lost race) did not fail the run.
            if let group = step.parent, records[group]?.state == .succeeded { continue }
            let place = (record.error as? any LocatedFailure)?.location ?? step.step.location
            failures.append((step.id, place, record.error.map { masker(String(describing: $0)) } ?? "failed"))
        }
        return failures
    }

    /// A failed `for-each` step's failed items, as `fetch[3]`: the first few, then how many more.
    private func failedItems(_ id: String, _ items: [ItemResult]) -> [String] {
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
            let value = masker.maskedPrefix(item.item.jsonText, maxLength: 60)
            lines.append("    ✗ \(id)[\(index)] (item \(value)): \(masker(item.error ?? "failed"))")
        }
        if more > 0 { lines.append("    … and \(more) more failed item\(more == 1 ? "" : "s")") }
        return lines
    }

    /// `  ↻ wait-job: repeat 3/60` for each step with `repeat` that ran: how often, out of how many.
    private func repetitionLines() -> [String] {
        workflow.allSteps.compactMap { step -> String? in
            guard let rule = step.repeat, let record = records[step.id],
                let count = record.repetitions
            else { return nil }
            return "  ↻ \(step.id): repeat \(count)/\(rule.maxAttempts)"
        }
    }
}
