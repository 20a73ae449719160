import FlowDSL
import FlowEngine
import Foundation

/// `--report trace FILE`: Chrome's trace-event format ("JSON Object Format": `traceEvents` and
/// `displayTimeUnit`), which Perfetto (ui.perfetto.dev) and `chrome://tracing` open.
///
/// Every step that started is a complete slice (`ph: X`) on a lane (`tid`); lanes are handed out
/// so no two steps on one lane overlap, because Perfetto folds overlapping slices of one track.
/// Attempts and retry waits are slices nested inside their step's slice on the same lane; bytes
/// moved are counters (`ph: C`, one series per step); metadata events (`ph: M`) name the process
/// and the lanes. Times are microseconds from the start of the run. Every text is masked.
struct TraceReport {
    let report: RunReport
    let timeline: ReportTimeline
    let masker: SecretMasker

    init(report: RunReport, timelines: [String: StepTimeline], masker: SecretMasker) {
        self.report = report
        self.timeline = ReportTimeline(report: report, timelines: timelines)
        self.masker = masker
    }

    /// The process id of every event: one run, one process.
    static let pid = 1

    func text() -> String {
        var events: [String] = []
        events.reserveCapacity(timeline.rows.count * 3 + 8)
        events.append(
            metadata(
                "process_name", tid: 0,
                args: "{\"name\":\(string("flow: \(report.workflow) (\(report.outcome.rawValue))"))}"))
        // Lanes: each step takes the first lane free at its start (in order of start).
        var laneEnds: [Int] = []
        let order = timeline.rows.indices.sorted {
            (timeline.rows[$0].start, $0) < (timeline.rows[$1].start, $1)
        }
        for index in order {
            let row = timeline.rows[index]
            let start = Self.micros(row.start)
            let end = max(Self.micros(row.end), start)
            let lane = laneEnds.firstIndex { $0 <= start } ?? laneEnds.count
            if lane == laneEnds.count { laneEnds.append(end) } else { laneEnds[lane] = end }
            let tid = lane + 1
            var args = "{\"state\":\(string(row.step.state.rawValue)),\"kind\":\(string(row.step.kind))"
            args += ",\"attempts\":\(row.step.attempts),\"location\":\(string(row.step.location))"
            if let group = row.step.group { args += ",\"group\":\(string(group))" }
            if let winner = row.lostTo { args += ",\"lost_to\":\(string(winner))" }
            if row.timedOut { args += ",\"timed_out\":true" }
            if let error = row.step.error { args += ",\"error\":\(string(error))" }
            args += "}"
            events.append(slice(row.step.id, category: "step", tid: tid, start: start, end: end, args: args))
            for segment in row.segments {
                // Nested: clamped into the step's slice, in whole microseconds like the step.
                let from = min(max(Self.micros(segment.start), start), end)
                let to = min(max(Self.micros(segment.end), from), end)
                let name: String
                switch segment.kind {
                case .attempt, .failedAttempt: name = String(segment.label.prefix(while: { $0 != ":" }))
                case .wait: name = "retry wait"
                case .retryAfter: name = "Retry-After wait"
                }
                events.append(
                    slice(
                        name, category: segment.kind.rawValue, tid: tid, start: from, end: to,
                        args: "{\"detail\":\(string(segment.label))}"))
            }
            for sample in row.timeline?.bytes ?? [] {
                events.append(
                    "{\"name\":\(string("bytes \(row.step.id)")),\"cat\":\"transfer\",\"ph\":\"C\","
                        + "\"ts\":\(Self.micros(sample.time)),\"pid\":\(Self.pid),\"tid\":\(tid),"
                        + "\"args\":{\"bytes\":\(sample.done)}}")
            }
        }
        for lane in laneEnds.indices {
            events.append(metadata("thread_name", tid: lane + 1, args: "{\"name\":\"lane \(lane + 1)\"}"))
            events.append(metadata("thread_sort_index", tid: lane + 1, args: "{\"sort_index\":\(lane + 1)}"))
        }
        var json = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"workflow\":\(string(report.workflow)),"
        json += "\"file\":\(string(report.file)),\"outcome\":\(string(report.outcome.rawValue)),"
        json += "\"startedAt\":\(string(report.startedAt))},\"traceEvents\":[\n"
        json += events.joined(separator: ",\n")
        json += "\n]}\n"
        return json
    }

    private func slice(_ name: String, category: String, tid: Int, start: Int, end: Int, args: String) -> String {
        "{\"name\":\(string(name)),\"cat\":\(string(category)),\"ph\":\"X\",\"ts\":\(start),\"dur\":\(end - start),"
            + "\"pid\":\(Self.pid),\"tid\":\(tid),\"args\":\(args)}"
    }

    private func metadata(_ name: String, tid: Int, args: String) -> String {
        "{\"name\":\"\(name)\",\"ph\":\"M\",\"ts\":0,\"pid\":\(Self.pid),\"tid\":\(tid),\"args\":\(args)}"
    }

    /// Seconds as whole microseconds.
    static func micros(_ seconds: Double) -> Int {
        seconds.isFinite ? Int((seconds * 1_000_000).rounded()) : 0
    }

    /// `value` masked, as a JSON string (by the one JSON writer, `Value.jsonText`'s).
    private func string(_ value: String) -> String {
        Value.string(masker(value)).jsonText
    }
}
