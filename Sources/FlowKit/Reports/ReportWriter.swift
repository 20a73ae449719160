import FlowEngine
import Foundation

/// Writes a run's reports (`--report FORMAT FILE`): JSON and JUnit from the engine's `RunReport`,
/// HTML and trace with the attempts' timeline besides.
struct ReportWriter: Sendable {
    let reports: [ReportFile]
    let startedAt: Date
    let clock: ContinuousClock.Instant
    /// The run's attempts and transfers over time, when an html or trace report is written.
    let recorder: TimelineRecorder?
    /// The workflow file's lines, for the HTML report's failure snippets.
    let sourceLines: [Substring]

    /// Writes every report (each atomically, so a reader never sees half of one); false when one
    /// could not be written, after saying so through `say`.
    @discardableResult
    func write(
        run: WorkflowRun, records: [String: StepRecord<StepResult>], interrupted: Bool, duration: Duration? = nil,
        say: (String) -> Void
    ) -> Bool {
        guard !reports.isEmpty else { return true }
        let report = run.report(
            records: records, interrupted: interrupted, startedAt: startedAt,
            duration: duration ?? ContinuousClock.now - clock)
        var written = true
        for file in reports {
            do {
                switch file.format {
                case "junit": try file.write(report.junitText())
                case "html":
                    try file.write(
                        HTMLReport(
                            report: report, timelines: recorder?.steps ?? [:], workflow: run.workflow,
                            sourceLines: sourceLines, masker: run.masker
                        ).text())
                case "trace":
                    try file.write(
                        TraceReport(report: report, timelines: recorder?.steps ?? [:], masker: run.masker).text())
                default: try file.write { report.writeJSON(to: $0) }
                }
            } catch {
                // Every report is made in memory without failing: only writing its file can fail.
                say("flow run: \(error.message)\n")
                written = false
            }
        }
        return written
    }
}
