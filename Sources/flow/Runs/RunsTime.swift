import Foundation

/// The times `flow runs` prints, formatted with the C library: a `DateFormatter` made per row cost
/// tens of microseconds, which a run of 10,000 steps felt.
enum RunsTime {
    /// "2026-11-23 13:04:55" in the local time zone (`TZ`).
    static func local(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// "2026-11-23T13:04:55.123Z": ISO 8601 in UTC with milliseconds.
    static func iso(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let milliseconds = min(999, Int(((date.timeIntervalSince1970 - whole) * 1000).rounded(.down)))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, milliseconds)
    }
}
