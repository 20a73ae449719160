/// The one duration formatter: every duration flow writes for a reader or for another program,
/// each form a named `Style`. (Parsing what a workflow writes is FlowDSL's `DurationSyntax`.)
package enum DurationFormat {
    /// How a duration is written.
    package enum Style: Sendable {
        /// Messages (a time-out, a limit): `250ms`, `1.5s`, `2m3s`; whole milliseconds.
        case message
        /// As a workflow writes it (the dry run, a service that was not ready): `250ms`, `10s`,
        /// `1m30s`, `1h`; `0ms`, and milliseconds whenever the seconds are not whole.
        case written
        /// Go's `time.ParseDuration` form, as Argo reads it: `10s`, or `1500ms` when the seconds
        /// are not whole.
        case go
        /// A measured span in a report's timeline: `0.25s`, `12.3s`, `2m05s`, minutes beyond an hour.
        case timeline
        /// A run's or a step's time in `flow runs`: `0.42s`, `12.3s`, `4m 05s`, `2h 03m`.
        case runs
        /// Time left (an upload's ETA), rounded up to the second: `5s`, `2m05s`, `1h02m`.
        case remaining
    }

    /// `duration` in `style` (the message form unless told).
    package static func text(_ duration: Duration, _ style: Style = .message) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        switch style {
        case .message: return message(milliseconds)
        case .written: return written(milliseconds)
        case .go: return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
        case .timeline, .runs, .remaining: return text(seconds: duration.seconds, style)
        }
    }

    /// `seconds` in `style`; `?` when it is not a finite number.
    package static func text(seconds: Double, _ style: Style) -> String {
        guard seconds.isFinite else { return "?" }
        switch style {
        case .message, .written, .go:
            // About 30,000 years either way: beyond it the milliseconds would not fit.
            let milliseconds = (seconds * 1000).rounded()
            guard milliseconds.magnitude < 1e15 else { return "?" }
            return text(.milliseconds(Int64(milliseconds)), style)
        case .timeline: return clock(seconds, fractions: true, rounding: .toNearestOrAwayFromZero, hours: false)
        case .runs:
            return clock(seconds, fractions: true, rounding: .toNearestOrAwayFromZero, separator: " ", hours: true)
        case .remaining: return clock(seconds, fractions: false, rounding: .up, hours: true)
        }
    }

    /// `250ms` under a second, `1.5s` (up to three decimals, trailing zeros dropped) under a
    /// minute, `2m3s` beyond (milliseconds dropped).
    private static func message(_ milliseconds: Int64) -> String {
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds < 60_000 {
            let whole = milliseconds / 1000
            let rest = milliseconds % 1000
            guard rest != 0 else { return "\(whole)s" }
            var fraction = String(rest)
            while fraction.count < 3 { fraction = "0" + fraction }
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(whole).\(fraction)s"
        }
        return "\(milliseconds / 60_000)m\((milliseconds % 60_000) / 1000)s"
    }

    /// `250ms` unless the seconds are whole and not zero, else hours, minutes and seconds, each
    /// only when not zero (`1h`, `1m30s`).
    private static func written(_ milliseconds: Int64) -> String {
        if milliseconds % 1000 != 0 || milliseconds == 0 { return "\(milliseconds)ms" }
        var remaining = milliseconds / 1000
        var text = ""
        if remaining >= 3600 {
            text += "\(remaining / 3600)h"
            remaining %= 3600
        }
        if remaining >= 60 {
            text += "\(remaining / 60)m"
            remaining %= 60
        }
        if remaining > 0 { text += "\(remaining)s" }
        return text
    }

    /// A clock-like span: with `fractions`, two decimals under 10 s and one under a minute (as
    /// printf's `%.2f` and `%.1f`); then whole seconds rounded by `rounding`, as `2m05s`, and,
    /// with `hours`, `1h02m` from an hour on; `separator` goes between the two parts.
    private static func clock(
        _ seconds: Double, fractions: Bool, rounding: FloatingPointRoundingRule, separator: String = "", hours: Bool
    ) -> String {
        if fractions {
            if seconds < 10 { return FixedDecimal.string(seconds, places: 2) + "s" }
            if seconds < 60 { return FixedDecimal.string(seconds, places: 1) + "s" }
        }
        let whole = Int(seconds.rounded(rounding))
        if whole < 60 { return "\(whole)s" }
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        if !hours || whole < 3600 { return "\(whole / 60)m" + separator + twoDigits(whole % 60) + "s" }
        return "\(whole / 3600)h" + separator + twoDigits(whole / 60 % 60) + "m"
    }
}
