import FlowDSL
import FlowEngine
import FlowTasks
import Foundation

/// `--report html FILE`: one self-contained page (inline CSS, no script, nothing fetched) with the
/// run's summary, its graph in layers, a timeline of every step and attempt, the transfers'
/// throughput, each failure with its YAML snippet, and the outputs. Every text from the run goes
/// through `text(_:)`, which masks secrets and escapes HTML.
///
/// At 10,000 steps every step keeps its row: the page is static, each row a few short elements,
/// and `content-visibility: auto` lets the browser skip laying out rows off screen (Grammar.md).
struct HTMLReport {
    let report: RunReport
    let timeline: ReportTimeline
    let workflow: Workflow
    let sourceLines: [Substring]
    let masker: SecretMasker

    /// The most needs named under a node of the graph; more are counted.
    static let needsShown = 8
    /// The longest output value shown, in characters.
    static let outputWidth = 400

    init(
        report: RunReport, timelines: [String: StepTimeline], workflow: Workflow, sourceLines: [Substring],
        masker: SecretMasker
    ) {
        self.report = report
        self.timeline = ReportTimeline(report: report, timelines: timelines)
        self.workflow = workflow
        self.sourceLines = sourceLines
        self.masker = masker
    }

    /// The whole page.
    func text() -> String {
        var html = ""
        html.reserveCapacity(256 + report.steps.count * 400)
        html += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        html += "<title>flow: \(text(report.workflow)) — \(report.outcome.rawValue)</title>"
        html += "<style>\(Self.style)</style></head><body>\n"
        summary(into: &html)
        timelineSection(into: &html)
        transfers(into: &html)
        failures(into: &html)
        graph(into: &html)
        outputs(into: &html)
        html += "<footer>Written by flow. Times are seconds from the start of the run.</footer>\n</body></html>\n"
        return html
    }

    // MARK: Sections

    private func summary(into html: inout String) {
        html += "<header id=\"summary\" class=\"outcome-\(report.outcome.rawValue)\">"
        html += "<h1>\(text(report.workflow)) <span class=\"outcome\">\(report.outcome.rawValue)</span></h1>"
        html += "<p class=\"facts\"><span id=\"file\">\(text(report.file))</span> · started "
        html += "<span id=\"started\">\(text(report.startedAt))</span> · took "
        html += "<span id=\"duration\">\(DurationFormat.text(seconds: report.durationSeconds, .timeline))</span> · "
        html += "<span id=\"step-count\">\(report.steps.count)</span> steps</p><ul class=\"counts\">"
        for state in StepState.allCases {
            let count = report.count(state)
            guard count > 0 else { continue }
            html += "<li class=\"\(state.rawValue)\" data-state=\"\(state.rawValue)\">\(count) \(state.rawValue)</li>"
        }
        html += "</ul></header>\n"
    }

    private func timelineSection(into html: inout String) {
        let total = timeline.total
        html += "<section id=\"timeline\"><h2>Timeline</h2><p class=\"legend\">"
        html += "<i class=\"key step\"></i> step (its one attempt) <i class=\"seg attempt\"></i> attempt "
        html += "<i class=\"seg failed-attempt\"></i> failed attempt "
        html +=
            "<i class=\"seg wait\"></i> backoff wait <i class=\"seg retry-after\"></i> <code>Retry-After</code> wait "
        html += "<i class=\"key cancelled\"></i> cancelled (a race's loser is cut off at the winner's moment) "
        html += "<i class=\"key timed-out\"></i> timed out</p>"
        html += "<div class=\"axis\"><span class=\"label\"></span><span class=\"track\">"
        let tick = Self.tickStep(total)
        var mark = 0.0
        while mark <= total + tick / 1000 {
            html += "<b style=\"left:\(percent(mark))\">\(DurationFormat.text(seconds: mark, .timeline))</b>"
            mark += tick
        }
        html += "</span><span class=\"dur\"></span></div><div class=\"rows\">\n"
        for row in timeline.rows {
            var classes = "row \(row.step.state.rawValue)"
            if row.lostTo != nil { classes += " lost" }
            if row.timedOut { classes += " timed-out" }
            html +=
                "<div class=\"\(classes)\" data-step=\"\(text(row.step.id))\" data-state=\"\(row.step.state.rawValue)\""
            html += " data-attempts=\"\(row.step.attempts)\"><span class=\"label\""
            if row.depth > 0 { html += " style=\"padding-left:\(row.depth)em\"" }
            html += " title=\"\(text(row.step.kind)) at \(text(row.step.location))\">\(text(row.step.id))</span>"
            html += "<span class=\"track\"><span class=\"span \(row.step.state.rawValue)\" style=\"left:"
            html += "\(percent(row.start));width:\(percent(row.end - row.start))\" title=\"\(text(spanTitle(row)))\">"
            // One attempt and no wait is the step's own bar: drawn once (a 10,000-step page stays small).
            let drawn = row.segments.count == 1 && row.segments[0].kind == .attempt ? [] : row.segments
            for segment in drawn {
                let width = row.end > row.start ? (segment.end - segment.start) / (row.end - row.start) * 100 : 0
                let left = row.end > row.start ? (segment.start - row.start) / (row.end - row.start) * 100 : 0
                html += "<i class=\"seg \(segment.kind.rawValue)\" style=\"left:\(Self.number(left))%;"
                html += "width:\(Self.number(width))%\" title=\"\(text(segment.label))\"></i>"
            }
            html += "</span>"
            if let winner = row.lostTo {
                html += "<em class=\"note lost\" style=\"left:\(percent(row.end))\">✂ lost to \(text(winner))</em>"
            } else if row.timedOut {
                html += "<em class=\"note timed-out\" style=\"left:\(percent(row.end))\">⏱ timed out</em>"
            }
            html +=
                "</span><span class=\"dur\">\(DurationFormat.text(seconds: row.end - row.start, .timeline))</span></div>\n"
        }
        html += "</div>"
        let notStarted = report.steps.reduce(0) { $1.startedAtSeconds == nil ? $0 + 1 : $0 }
        if notStarted > 0 {
            html += "<p class=\"not-started\">\(notStarted) step\(notStarted == 1 ? "" : "s") did not start "
            html += "(skipped, pending or cancelled before starting).</p>"
        }
        html += "</section>\n"
    }

    private func spanTitle(_ row: ReportTimeline.Row) -> String {
        var title = "\(row.step.state.rawValue) \(DurationFormat.text(seconds: row.start, .timeline))"
        title += "–\(DurationFormat.text(seconds: row.end, .timeline))"
        if row.step.attempts > 1 { title += ", \(row.step.attempts) attempts" }
        if let winner = row.lostTo { title += ", cancelled when \(winner) won the race" }
        if let error = row.step.error { title += ": \(error)" }
        return title
    }

    private func transfers(into html: inout String) {
        let moving = timeline.rows.filter { ($0.timeline?.bytes.count ?? 0) >= 2 }
        guard !moving.isEmpty else { return }
        html += "<section id=\"transfers\"><h2>Throughput</h2>\n"
        for row in moving {
            guard let samples = row.timeline?.bytes, let first = samples.first, let last = samples.last else {
                continue
            }
            let seconds = max(last.time - first.time, 0.001)
            let average = Double(last.done - first.done) / seconds
            html += "<figure class=\"transfer\" data-step=\"\(text(row.step.id))\"><figcaption><b>"
            html +=
                "\(text(row.step.id))</b> \(Self.bytes(Double(last.done))) in \(DurationFormat.text(seconds: seconds, .timeline)),"
            html += " average <span class=\"rate\">\(Self.bytes(average))/s</span></figcaption>"
            html += sparkline(samples) + "</figure>\n"
        }
        html += "</section>\n"
    }

    /// Bytes a second between successive samples, drawn over the transfer's time.
    private func sparkline(_ samples: [(time: Double, done: Int64)]) -> String {
        let (width, height) = (600.0, 60.0)
        let start = samples[0].time
        let span = max((samples.last?.time ?? start) - start, 0.001)
        var rates: [(Double, Double)] = []
        for index in 1..<samples.count {
            let dt = samples[index].time - samples[index - 1].time
            guard dt > 0 else { continue }
            rates.append((samples[index].time, Double(samples[index].done - samples[index - 1].done) / dt))
        }
        let peak = max(rates.map(\.1).max() ?? 1, 1)
        var points = ""
        for (time, rate) in rates {
            points += "\(Self.number((time - start) / span * width)),\(Self.number(height - rate / peak * height)) "
        }
        return "<svg class=\"spark\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" "
            + "height=\"\(Int(height))\" role=\"img\" aria-label=\"throughput over time, peak \(Self.bytes(peak))/s\">"
            + "<polyline fill=\"none\" stroke=\"#2b6cb0\" stroke-width=\"1.5\" points=\"\(points)\"/>"
            + "<text x=\"4\" y=\"12\">peak \(Self.bytes(peak))/s</text></svg>"
    }

    private func failures(into html: inout String) {
        // A race's losers are not failures: the timeline shows them cut off. (A set, not a search of
        // the rows per step, which is quadratic in a run of many failed steps.)
        let losers = Set(timeline.rows.lazy.filter { $0.lostTo != nil }.map(\.step.id))
        let failed = report.steps.filter { $0.state == .failed || ($0.state == .cancelled && $0.error != nil) }
            .filter { !losers.contains($0.id) }
        guard !failed.isEmpty else { return }
        html += "<section id=\"failures\"><h2>Failures</h2>\n"
        for step in failed {
            html += "<article class=\"failure\" data-step=\"\(text(step.id))\"><h3>\(text(step.id)) "
            html +=
                "<small>\(step.state.rawValue) at <code class=\"location\">\(text(step.location))</code></small></h3>"
            html += "<p class=\"message\">\(text(step.error ?? step.state.rawValue))</p>"
            html += snippet(step.location)
            html += "</article>\n"
        }
        html += "</section>\n"
    }

    /// The lines around `location` (`file:line:col`), the line itself marked.
    private func snippet(_ location: String) -> String {
        let parts = location.split(separator: ":")
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), line >= 1, line <= sourceLines.count else {
            return ""
        }
        let column = Int(parts[parts.count - 1]) ?? 1
        var html = "<pre class=\"snippet\">"
        // Each line its own block, so the marked line and the caret under it need no newlines.
        for number in max(1, line - 2)...min(sourceLines.count, line + 2) {
            let source = text(String(sourceLines[number - 1]))
            if number == line {
                html +=
                    "<mark class=\"line\" data-line=\"\(number)\"><span class=\"ln\">\(number)</span> \(source)</mark>"
                html += "<span class=\"l caret\"><span class=\"ln\"></span> "
                html += String(repeating: " ", count: max(0, column - 1)) + "^</span>"
            } else {
                html += "<span class=\"l\"><span class=\"ln\">\(number)</span> \(source)</span>"
            }
        }
        return html + "</pre>"
    }

    private func graph(into html: inout String) {
        var depth: [String: Int] = [:]
        var layers: [[Step]] = []
        for step in workflow.allSteps {
            // Steps come in declaration order and needs point backwards within a scope, so one pass
            // finds each layer (a step inside a group is at least as deep as its group).
            var level = step.parent.flatMap { depth[$0] } ?? 0
            for need in step.needs { level = max(level, (depth[need] ?? 0) + 1) }
            depth[step.id] = level
            if layers.count <= level {
                layers.append(contentsOf: Array(repeating: [], count: level - layers.count + 1))
            }
            layers[level].append(step)
        }
        var states: [String: StepState] = [:]
        for step in report.steps { states[step.id] = step.state }
        html +=
            "<section id=\"graph\"><h2>Graph</h2><p>Steps in layers by dependency depth; each names what it needs.</p>"
        html += "<div class=\"layers\">\n"
        for (index, layer) in layers.enumerated() {
            html += "<div class=\"layer\" data-layer=\"\(index)\"><h3>\(index + 1)</h3>"
            for step in layer {
                let state = states[step.id]?.rawValue ?? "pending"
                html += "<div class=\"node \(state)\"><b>\(text(step.id))</b> "
                html += "<small>\(step.kind.keyword)"
                if let parent = step.parent { html += " in \(text(parent))" }
                if case .group(let group) = step.kind { html += " \(group.mode.rawValue)" }
                html += "</small>"
                if !step.needs.isEmpty {
                    let shown = step.needs.prefix(Self.needsShown).map { text($0) }.joined(separator: ", ")
                    let more = step.needs.count - Self.needsShown
                    html += "<span class=\"needs\">needs \(shown)\(more > 0 ? " and \(more) more" : "")</span>"
                }
                html += "</div>"
            }
            html += "</div>\n"
        }
        html += "</div></section>\n"
    }

    private func outputs(into html: inout String) {
        let steps = report.steps.filter { !$0.outputs.isEmpty }
        guard !steps.isEmpty else { return }
        html += "<section id=\"outputs\"><h2>Outputs</h2><table><tr><th>step</th><th>name</th><th>value</th></tr>\n"
        for step in steps {
            for (name, value) in step.outputs.sorted(by: { $0.key < $1.key }) {
                var shown = value.jsonText
                if shown.count > Self.outputWidth { shown = String(shown.prefix(Self.outputWidth)) + "…" }
                html += "<tr data-step=\"\(text(step.id))\"><td>\(text(step.id))</td><td>\(text(name))</td>"
                html += "<td><code>\(text(shown))</code></td></tr>\n"
            }
        }
        html += "</table></section>\n"
    }

    // MARK: Helpers

    /// `value` masked, then escaped for HTML text and attribute values. Scanned and escaped byte
    /// by byte: the five characters escaped are ASCII (a search Character by Character cost
    /// microseconds a row on a page of 1,000 rows), and a `<` followed by a combining mark, one
    /// Character, is escaped too.
    private func text(_ value: String) -> String {
        let masked = masker(value)
        guard masked.utf8.contains(where: Self.needsEscape) else { return masked }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(masked.utf8.count + 16)
        for byte in masked.utf8 {
            switch byte {
            case UInt8(ascii: "<"): escaped += "&lt;".utf8
            case UInt8(ascii: ">"): escaped += "&gt;".utf8
            case UInt8(ascii: "&"): escaped += "&amp;".utf8
            case UInt8(ascii: "\""): escaped += "&quot;".utf8
            case UInt8(ascii: "'"): escaped += "&#39;".utf8
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private func percent(_ seconds: Double) -> String {
        Self.number(seconds / timeline.total * 100) + "%"
    }

    /// A short decimal for CSS and SVG (two places, no exponent).
    static func number(_ value: Double) -> String {
        FixedDecimal.string(value.isFinite ? value : 0, places: 2)
    }

    static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var amount = value
        var unit = 0
        while amount >= 1024, unit < units.count - 1 {
            amount /= 1024
            unit += 1
        }
        return unit == 0 ? "\(Int(amount)) B" : String(format: "%.1f", amount) + " " + units[unit]
    }

    /// A round tick spacing giving 4 to 10 ticks over `total` seconds.
    static func tickStep(_ total: Double) -> Double {
        let raw = total / 6
        let magnitude = pow(10, floor(log10(max(raw, 0.000_001))))
        for factor in [1.0, 2.0, 5.0, 10.0] where magnitude * factor >= raw { return magnitude * factor }
        return magnitude * 10
    }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 24px;color:#1a202c;background:#fff}
        h1{font-size:22px;margin:16px 0 4px}h2{font-size:17px;margin:24px 0 8px;border-bottom:1px solid #e2e8f0}
        header .outcome{font-size:13px;padding:2px 8px;border-radius:10px;color:#fff;vertical-align:middle}
        .outcome-succeeded .outcome{background:#2f855a}.outcome-failed .outcome{background:#c53030}
        .outcome-cancelled .outcome{background:#718096}.facts{color:#4a5568;margin:0}
        .counts{list-style:none;padding:0;display:flex;gap:8px;margin:8px 0}
        .counts li{padding:2px 8px;border-radius:4px;background:#edf2f7}
        .counts .succeeded{background:#c6f6d5}.counts .failed{background:#fed7d7}.counts .cancelled{background:#e2e8f0}
        .legend{color:#4a5568;font-size:12px}.legend i{display:inline-block;width:14px;height:10px;position:static;
        vertical-align:middle;margin-left:8px}
        .row,.axis{display:flex;align-items:center;height:18px;font-size:12px}
        .row{content-visibility:auto;contain-intrinsic-size:auto 18px}
        .row:nth-child(even){background:#f7fafc}
        .label{flex:0 0 220px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;font-family:monospace}
        .track{position:relative;flex:1;height:14px}.dur{flex:0 0 64px;text-align:right;color:#4a5568}
        .axis .track{border-bottom:1px solid #cbd5e0}.axis b{position:absolute;font-weight:normal;color:#718096;
        font-size:10px;border-left:1px solid #cbd5e0;padding-left:2px}
        .span{position:absolute;top:1px;height:12px;min-width:1px;background:#9ae6b4;border-radius:2px;overflow:hidden}
        .span.failed{background:#feb2b2}.span.running{background:#90cdf4}
        .span.cancelled{background:repeating-linear-gradient(45deg,#cbd5e0 0 4px,#edf2f7 4px 8px)}
        .seg{position:absolute;top:0;height:100%;display:block}
        .seg.attempt{background:#38a169}.seg.failed-attempt{background:#e53e3e}
        .seg.wait{background:repeating-linear-gradient(90deg,#ecc94b 0 3px,transparent 3px 6px)}
        .seg.retry-after{background:repeating-linear-gradient(90deg,#dd6b20 0 3px,transparent 3px 6px)}
        .legend .seg.wait,.legend .seg.retry-after{border:1px solid #dd6b20}
        .row.cancelled .seg.attempt{background:#a0aec0}.key.cancelled{background:#a0aec0}.key.timed-out{background:#805ad5}.key.step{background:#9ae6b4}
        .row.timed-out .span{box-shadow:inset -3px 0 #805ad5}
        .row.lost .span{border-right:2px solid #2d3748}
        .note{position:absolute;top:0;font-size:10px;white-space:nowrap;padding-left:4px;color:#2d3748}
        .not-started{color:#718096}
        .transfer{margin:8px 0}.spark{background:#f7fafc;border:1px solid #e2e8f0}.spark text{font-size:10px;fill:#4a5568}
        .failure{border-left:4px solid #e53e3e;padding:4px 12px;margin:8px 0;background:#fff5f5}
        .failure h3{margin:4px 0;font-size:14px}.message{font-family:monospace;white-space:pre-wrap;margin:4px 0}
        .snippet{background:#1a202c;color:#e2e8f0;padding:8px;overflow-x:auto;font-size:12px}
        .snippet .l{display:block}.snippet mark{display:block;background:#742a2a;color:#fff}.snippet .caret{color:#fc8181}
        .ln{display:inline-block;width:3em;text-align:right;color:#a0aec0;margin-right:8px}
        .layers{display:flex;gap:12px;overflow-x:auto;align-items:flex-start}
        .layer{min-width:160px}.layer h3{font-size:12px;color:#718096;margin:0}
        .node{border:1px solid #cbd5e0;border-radius:4px;padding:2px 6px;margin:4px 0;font-size:12px;background:#fff}
        .node.succeeded{border-color:#38a169}.node.failed{border-color:#e53e3e;background:#fff5f5}
        .node.cancelled,.node.skipped,.node.pending{border-style:dashed;color:#718096}
        .node small{color:#718096}.needs{display:block;color:#4a5568;font-size:11px}
        table{border-collapse:collapse}td,th{border:1px solid #e2e8f0;padding:2px 8px;text-align:left;font-size:12px}
        td code{white-space:pre-wrap;word-break:break-all}
        footer{margin-top:24px;color:#a0aec0;font-size:11px}
        """
}
