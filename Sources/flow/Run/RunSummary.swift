import FlowEngine
import Foundation

/// The end of a run's output: counts by state, total time, and each failed step with its error and
/// where it is in the YAML.
struct RunSummary {
    let report: RunReport
    let colors: Bool

    func print() {
        var lines: [String] = []
        let counts = [StepState.succeeded, .failed, .skipped, .cancelled].map { "\(report.count($0)) \($0.rawValue)" }
        lines.append(
            String(
                format: "flow: %@ — %@ in %.2fs", report.outcome, counts.joined(separator: ", "), report.durationSeconds
            ))
        let failed = report.steps.filter { $0.state == .failed }
        // Only a run with failures needs the groups' states (a table of every step otherwise).
        let states =
            failed.isEmpty
            ? [:] : Dictionary(report.steps.map { ($0.id, $0.state) }, uniquingKeysWith: { first, _ in first })
        for step in failed {
            // A child that failed inside a group that still succeeded (a lost race) did not fail the run.
            if let group = step.group, states[group] == .succeeded { continue }
            lines.append("  ✗ \(step.id) (\(step.location)): \(step.error ?? "failed")")
        }
        Output.line(lines.joined(separator: "\n"))
        Output.flush()
    }
}
