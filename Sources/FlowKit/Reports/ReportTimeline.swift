import FlowDSL
import FlowEngine
import FlowTasks
import Foundation

/// The run as the HTML and trace reports draw it: for every step that started, its span and the
/// pieces inside it (attempts and the waits between them), from the report (masked) and the
/// timelines the recorder kept. Times are seconds from the start of the run.
struct ReportTimeline {
    /// One piece of a step's span.
    struct Segment {
        enum Kind: String {
            /// An attempt that succeeded, or is the step's last.
            case attempt
            /// An attempt that failed and was retried.
            case failedAttempt = "failed-attempt"
            /// The backoff's wait before a retry.
            case wait
            /// A wait the server asked for with `Retry-After`.
            case retryAfter = "retry-after"
        }
        var kind: Kind
        var start: Double
        var end: Double
        /// What a reader sees on hover (`attempt 2`, `waiting 1s (Retry-After): status 503`).
        var label: String
    }

    /// A step that started.
    struct Row {
        var step: StepReport
        /// How deep in groups it is (0 at the top level).
        var depth: Int
        var start: Double
        var end: Double
        var segments: [Segment]
        /// The winner of its `any` race when it lost and was cut off at the winner's moment.
        var lostTo: String?
        /// Whether it failed by running out of time.
        var timedOut: Bool
        var timeline: StepTimeline?
    }

    let rows: [Row]
    /// The end of the drawing: the run's duration, or the last end seen.
    let total: Double

    init(report: RunReport, timelines: [String: StepTimeline]) {
        var byID: [String: StepReport] = [:]
        for step in report.steps { byID[step.id] = step }
        var depths: [String: Int] = [:]
        var rows: [Row] = []
        var total = report.durationSeconds
        for step in report.steps {
            let depth = step.group.map { (depths[$0] ?? 0) + 1 } ?? 0
            depths[step.id] = depth
            guard let start = step.startedAtSeconds else { continue }
            // A step still running (the report of a quit) runs to the end of the drawing.
            let end = step.durationSeconds.map { start + $0 } ?? max(report.durationSeconds, start)
            total = max(total, end)
            let timeline = timelines[step.id]
            var segments: [Segment] = []
            for attempt in timeline?.attempts ?? [] {
                let from = min(max(attempt.start, start), end)
                let to = min(max(attempt.end ?? end, from), end)
                segments.append(
                    Segment(
                        kind: attempt.failure == nil ? .attempt : .failedAttempt, start: from, end: to,
                        label: "attempt \(attempt.number)" + (attempt.failure.map { ": \($0)" } ?? "")))
            }
            for wait in timeline?.waits ?? [] {
                let from = min(max(wait.start, start), end)
                let to = min(max(wait.end, from), end)
                let seconds = DurationFormat.text(seconds: wait.end - wait.start, .timeline)
                segments.append(
                    Segment(
                        kind: wait.retryAfter ? .retryAfter : .wait, start: from, end: to,
                        label: wait.retryAfter
                            ? "waiting \(seconds) (Retry-After): \(wait.reason)"
                            : "waiting \(seconds) (backoff): \(wait.reason)"))
            }
            segments.sort { $0.start < $1.start }
            var lostTo: String?
            if step.state == .cancelled, let group = step.group.flatMap({ byID[$0] }), let winner = group.winner,
                winner != step.id
            {
                lostTo = winner
            }
            let timedOut = step.state == .failed && (step.error?.contains("timed out") ?? false)
            rows.append(
                Row(
                    step: step, depth: depth, start: start, end: end, segments: segments, lostTo: lostTo,
                    timedOut: timedOut, timeline: timeline))
            rows += Self.itemRows(of: step, timeline: timeline, depth: depth + 1, end: end)
        }
        self.rows = rows
        self.total = max(total, 0.001)
    }

    /// The most items of one `for-each` step drawn as rows of their own; past it the step's row
    /// stands for the rest (a 100,000-item step would otherwise make a page of hundreds of MB).
    static let drawnItems = 1_000

    /// A `for-each` step's items as rows under it (`fetch[3]`), in item order, each with its own
    /// span and state, from the items the recorder saw start.
    private static func itemRows(of step: StepReport, timeline: StepTimeline?, depth: Int, end: Double) -> [Row] {
        guard let items = timeline?.items, !items.isEmpty else { return [] }
        return items.keys.sorted().prefix(drawnItems).compactMap { index in
            guard let item = items[index] else { return nil }
            let report = step.items.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            let itemEnd = min(max(item.end ?? end, item.start), max(end, item.start))
            let state = item.state ?? report?.state ?? .cancelled
            let row = StepReport(
                id: "\(step.id)[\(index)]", kind: step.kind, group: step.id, location: step.location, state: state,
                startedAtSeconds: item.start, durationSeconds: itemEnd - item.start, attempts: 1,
                error: report?.error)
            let segment = Segment(
                kind: state == .failed ? .failedAttempt : .attempt, start: item.start, end: itemEnd,
                label: "item \(index)" + (report?.error.map { ": \($0)" } ?? ""))
            return Row(
                step: row, depth: depth, start: item.start, end: itemEnd, segments: [segment], lostTo: nil,
                timedOut: false, timeline: nil)
        }
    }
}
