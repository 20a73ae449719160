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
        for step in workflow.allSteps where failed > 0 {
            guard let record = records[step.id], record.state == .failed else { continue }
            // A child that failed inside a group that still succeeded (a lost race) did not fail the run.
            if let group = step.parent, records[group]?.state == .succeeded { continue }
            let location = WorkflowRun.location(of: record.error) ?? step.location.description
            let error = record.error.map { masker(String(describing: $0)) } ?? "failed"
            lines.append("  ✗ \(step.id) (\(location)): \(error)")
        }
        StandardOutput.line(lines.joined(separator: "\n"))
        StandardOutput.flush()
    }
}
