/// Durations as written in workflows: `250ms`, `10s`, `1m30s`, `1h`, or a bare number of seconds.
/// (FlowTasks' `DurationFormat` writes them back, in its `written` style.)
package enum DurationSyntax {
    /// The units, longest suffix first so `ms` is not read as `m` then `s`.
    static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    /// Parses `text`; nil when it is not a duration.
    package static func parse(_ text: String) -> Duration? {
        if case .some(let duration) = parseCompact(text) { return duration }
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

    /// The usual spelling, whole numbers each with a unit and nothing else (`0s`, `250ms`,
    /// `1m30s`), read in one pass over the bytes (issue 19: the general path below cost thousands
    /// of instructions a step). `.none` for anything else, which the general path reads; the
    /// result is the general path's for every text this one accepts.
    private static func parseCompact(_ text: String) -> Duration?? {
        let zero = UInt8(ascii: "0")
        let nine = UInt8(ascii: "9")
        var bytes = text.utf8.makeIterator()
        var next = bytes.next()
        var total = 0.0
        var sawPart = false
        while let first = next {
            guard first >= zero && first <= nine else { return .none }
            var amount = 0
            var digits = 0
            while let byte = next, byte >= zero && byte <= nine {
                amount = amount * 10 + Int(byte - zero)
                digits += 1
                // Beyond 15 digits a Double may round: leave those to the general path.
                if digits > 15 { return .none }
                next = bytes.next()
            }
            let milliseconds: Double
            switch next {
            case UInt8(ascii: "h"):
                milliseconds = 3_600_000
                next = bytes.next()
            case UInt8(ascii: "s"):
                milliseconds = 1000
                next = bytes.next()
            case UInt8(ascii: "m"):
                next = bytes.next()
                if next == UInt8(ascii: "s") {
                    milliseconds = 1
                    next = bytes.next()
                } else {
                    milliseconds = 60_000
                }
            default:
                // A bare number (seconds, read as a Double) or anything else.
                return .none
            }
            total += Double(amount) * milliseconds
            sawPart = true
        }
        guard sawPart else { return .none }
        guard total.isFinite, total < 1e15 else { return .some(nil) }
        return .some(.milliseconds(Int64(total.rounded())))
    }
}
