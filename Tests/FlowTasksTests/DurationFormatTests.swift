import FlowTasks
import Testing

/// Each form flow writes a duration in is a style of one formatter: messages, the workflow's own
/// spelling (the dry run), Go's (Argo), a report's timeline, `flow runs` and an upload's ETA.
@Suite struct DurationFormatTests {
    @Test func durationStyles() {
        let cases: [(Duration, DurationFormat.Style, String)] = [
            (.milliseconds(250), .message, "250ms"), (.milliseconds(1500), .message, "1.5s"),
            (.milliseconds(1050), .message, "1.05s"), (.seconds(10), .message, "10s"),
            (.milliseconds(123_456), .message, "2m3s"), (.seconds(3600), .message, "60m0s"),
            (.zero, .written, "0ms"), (.milliseconds(250), .written, "250ms"), (.seconds(10), .written, "10s"),
            (.seconds(90), .written, "1m30s"), (.seconds(3600), .written, "1h"), (.seconds(3723), .written, "1h2m3s"),
            (.milliseconds(1500), .written, "1500ms"), (.zero, .go, "0s"), (.seconds(90), .go, "90s"),
            (.milliseconds(1500), .go, "1500ms"), (.milliseconds(250), .timeline, "0.25s"),
        ]
        for (duration, style, text) in cases {
            #expect(DurationFormat.text(duration, style) == text, "\(duration) \(style)")
        }
        #expect(DurationFormat.text(.milliseconds(2500)) == "2.5s")
    }

    @Test func secondsStyles() {
        let cases: [(Double, DurationFormat.Style, String)] = [
            (0.125, .timeline, "0.12s"), (9.996, .timeline, "10.00s"), (12.34, .timeline, "12.3s"),
            (59.96, .timeline, "60.0s"), (125, .timeline, "2m05s"), (3725, .timeline, "62m05s"),
            (0.42, .runs, "0.42s"), (12.3, .runs, "12.3s"), (245, .runs, "4m 05s"), (7380, .runs, "2h 03m"),
            (4.2, .remaining, "5s"), (59.5, .remaining, "1m00s"), (125, .remaining, "2m05s"),
            (3720, .remaining, "1h02m"), (.infinity, .remaining, "?"), (1.5, .message, "1.5s"), (90, .written, "1m30s"),
        ]
        for (seconds, style, text) in cases {
            #expect(DurationFormat.text(seconds: seconds, style) == text, "\(seconds) \(style)")
        }
    }
}
