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
        let stamp = String(
            format: "%04d%02d%02d-%02d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
        return stamp + "-" + padded
    }
}
