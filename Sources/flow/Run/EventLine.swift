import FlowKit
import Foundation

/// One line of the event log, built as UTF-8 bytes: a run of 10,000 steps prints 20,000 lines, and
/// building them from `String` pieces (interpolation, padding, a dictionary of fields sorted per
/// line) cost more than scheduling the steps (measured with perf in bench/engine).
struct EventLine {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(128)
    }

    /// A line appended to `bytes` (the pending output: see `StandardOutput.line(holding:_:)`).
    init(continuing bytes: consuming [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes, this line's included, leaving the line empty (so they stay uniquely referenced).
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `text` as a JSON string, quoted and escaped by the one JSON writer (`Value.jsonText`'s).
    mutating func appendJSONString(_ text: String) {
        FlowJSON.append(text, to: &bytes)
    }

    /// `"key":"value"` followed by a comma unless it is the object's last member.
    mutating func appendMember(_ key: StaticString, _ value: String, last: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        append(key)
        append("\":" as StaticString)
        appendJSONString(value)
        if !last { bytes.append(UInt8(ascii: ",")) }
    }

    /// `"key":number` (a JSON number) followed by a comma unless it is the object's last member.
    mutating func appendNumberMember(_ key: StaticString, _ value: Int64, last: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        append(key)
        append("\":" as StaticString)
        appendDecimal(value)
        if !last { bytes.append(UInt8(ascii: ",")) }
    }

    /// `"key":seconds` with three decimals (a JSON number) and a comma.
    mutating func appendSecondsMember(_ key: StaticString, _ duration: Duration) {
        bytes.append(UInt8(ascii: "\""))
        append(key)
        append("\":" as StaticString)
        appendSeconds(duration, places: 3)
        bytes.append(UInt8(ascii: ","))
    }

    /// A number in decimal, zero-padded to at least `width` digits; written in place, no array of
    /// digits made.
    mutating func appendDecimal(_ value: Int64, width: Int = 1) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var count = 1
        var probe = rest
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        for _ in 0..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
        var index = bytes.count - 1
        repeat {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        } while rest > 0
    }

    /// A duration in seconds with `places` decimals (1 to 9), rounded half up: what `%.3f` prints
    /// for the span's value, computed from its integer parts without a format string.
    mutating func appendSeconds(_ duration: Duration, places: Int) {
        let (whole, attoseconds) = duration.components
        var seconds = whole
        guard seconds >= 0, attoseconds >= 0 else {
            append(String(format: "%.\(places)f", duration.seconds))
            return
        }
        var unit: Int64 = 1_000_000_000_000_000_000
        for _ in 0..<places { unit /= 10 }
        var fraction = attoseconds / unit
        if (attoseconds % unit) * 2 >= unit { fraction += 1 }
        var limit: Int64 = 1
        for _ in 0..<places { limit *= 10 }
        if fraction == limit {
            seconds += 1
            fraction = 0
        }
        appendDecimal(seconds)
        bytes.append(UInt8(ascii: "."))
        appendDecimal(fraction, width: places)
    }

    /// The current UTC time as ISO 8601 with milliseconds, `2026-11-21T05:49:25.865Z`.
    mutating func appendTimestamp() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        bytes.append(contentsOf: SecondText.shared.text(of: Int64(now.tv_sec)))
        appendDecimal(Int64(now.tv_nsec / 1_000_000), width: 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `2026-11-21T05:49:25.`: the UTC date and time of `seconds` since the epoch, to the second.
    fileprivate mutating func appendSecond(_ seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CalendarDays.date(daysSinceEpoch: days)
        appendDecimal(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDecimal(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDecimal(day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDecimal(secondOfDay / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(secondOfDay / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(secondOfDay % 60, width: 2)
        bytes.append(UInt8(ascii: "."))
    }
}

/// The text of the last second a timestamp was written in: the lines of one second (most of a
/// 10,000-step run's 20,000 lines) copy it instead of working the date out again (issue 32).
/// `@unchecked Sendable`: `second` and `text` are touched only while holding `lock`.
private final class SecondText: @unchecked Sendable {
    static let shared = SecondText()
    private let lock = NSLock()
    private var second = Int64.min
    private var text: [UInt8] = []

    /// `appendSecond`'s text for `seconds`.
    func text(of seconds: Int64) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if seconds != second {
            var line = EventLine()
            line.appendSecond(seconds)
            text = line.bytes
            second = seconds
        }
        return text
    }
}
