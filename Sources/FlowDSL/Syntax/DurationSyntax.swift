/// Durations as written in workflows: `250ms`, `10s`, `1m30s`, `1h`, or a bare number of seconds.
public enum DurationSyntax {
    /// The units, longest suffix first so `ms` is not read as `m` then `s`.
    static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    /// Parses `text`; nil when it is not a duration.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingSpaces
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 {
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

/// Sizes as written in workflows: a bare number of bytes, or a number with `B`, `KB`, `MB`, `GB`
/// (powers of 1000) or `KiB`, `MiB`, `GiB` (powers of 1024).
public enum SizeSyntax {
    static let units: [(suffix: String, bytes: Double)] = [
        ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824),
        ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1),
    ]

    /// Parses `text` into a byte count; nil when it is not a size.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !digits.isEmpty, let amount = Double(digits) else { return nil }
        let suffix = trimmed.dropFirst(digits.count).trimmingSpaces
        let factor: Double
        if suffix.isEmpty {
            factor = 1
        } else if let unit = units.first(where: { $0.suffix == suffix }) {
            factor = unit.bytes
        } else {
            return nil
        }
        let bytes = (amount * factor).rounded()
        guard bytes.isFinite, bytes < 1e18 else { return nil }
        return Int(bytes)
    }

    /// How a plan shows a size: `100KiB`, `5MiB`, `1500B`.
    public static func format(_ bytes: Int) -> String {
        for (suffix, factor) in [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(suffix)"
        }
        return "\(bytes)B"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (FlowDSL does not import Foundation).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
