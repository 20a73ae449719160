/// Durations as written in workflows: `250ms`, `10s`, `1m30s`, `1h`, or a bare number of seconds.
public enum DurationSyntax {
    /// The units, longest suffix first so `ms` is not read as `m` then `s`.
    static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    /// Parses `text`; nil when it is not a duration.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingSpaces
        if let seconds = Double(trimmed) {
            // About 30,000 years: anything longer is a typo, and would overflow the conversion.
            guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return nil }
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
        var rest = Substring(trimmed)
        var total = 0.0
        var sawPart = false
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !digits.isEmpty, let amount = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            total += amount * unit.milliseconds
            sawPart = true
        }
        guard sawPart, total.isFinite, total < 1e15 else { return nil }
        return .milliseconds(Int64(total.rounded()))
    }

    /// How a plan shows a duration: `250ms`, `10s`, `1m30s`.
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
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
}
