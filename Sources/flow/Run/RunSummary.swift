import FlowDSL
import FlowEngine
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
    /// The workflow file's lines: each failure is shown with its source line and a caret.
    var sourceLines: [Substring] = []
    /// The lines of the files `uses` steps call, by name: a failure inside one shows its line.
    var calledFiles: [String: [Substring]] = [:]

    func print() {
        var lines: [String] = []
        // One pass of plain counters: a dictionary of counts hashed a state for every step.
        var succeeded = 0
        var failed = 0
        var skipped = 0
        var cancelled = 0
        // Every step of the workflow has a record (the scheduler registers them all).
        for record in records.values {
            switch record.state {
            case .succeeded: succeeded += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            case .cancelled: cancelled += 1
            case .pending, .running: break
            }
        }
        let counts = "\(succeeded) succeeded, \(failed) failed, \(skipped) skipped, \(cancelled) cancelled"
        let outcome = WorkflowRun.outcome(of: workflow, records: records, interrupted: interrupted)
        lines.append(String(format: "flow: %@ — %@ in %.2fs", outcome.rawValue, counts, duration.seconds))
        // Steps of called files follow their `uses` step, as `deploy/publish`.
        for step in failed > 0 ? workflow.qualifiedSteps : [] {
            guard let record = records[step.id], record.state == .failed else { continue }
            // A child that failed inside a group that still succeeded (a lost race) did not fail the run.
            if let group = step.parent, records[group]?.state == .succeeded { continue }
            let place = (record.error as? any LocatedFailure)?.location ?? step.step.location
            let error = record.error.map { masker(String(describing: $0)) } ?? "failed"
            lines.append("  ✗ \(step.id) (\(place)): \(error)")
            // The line it points at, as under a parse error (one way to show where a problem is).
            let fileLines = place.file == workflow.file ? sourceLines : calledFiles[place.file] ?? []
            let snippet = Diagnostic.snippet(at: place, sourceLines: fileLines)
            if !snippet.isEmpty { lines.append(String(snippet.dropLast())) }
        }
        StandardOutput.line(lines.joined(separator: "\n"))
        StandardOutput.flush()
    }
}
