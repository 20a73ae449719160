import Foundation

/// Run ids: the run's start time in UTC to the second and four random hex digits,
/// e.g. "20261123-130455-a1b2" — short, sortable by start time, and unique in practice
/// (`beginRun` draws again on the rare clash).
enum RunID {
    static func make(startedAt: Date) -> String {
        var seconds = time_t(startedAt.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        let padded = String(repeating: "0", count: 4 - suffix.count) + suffix
        // Written digit by digit: `String(format:)` casts each argument dynamically (0.5 ms a run).
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let stamp =
            digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1, 2) + digits(parts.tm_mday, 2) + "-"
            + digits(parts.tm_hour, 2) + digits(parts.tm_min, 2) + digits(parts.tm_sec, 2)
        return stamp + "-" + padded
    }
}
