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
        write(limit: LineCursor.memberLimit(key, value)) { $0.putMember(key, value, last: last) }
    }

    /// `"key":number` (a JSON number) followed by a comma unless it is the object's last member.
    mutating func appendNumberMember(_ key: StaticString, _ value: Int64, last: Bool = false) {
        write(limit: key.utf8CodeUnitCount + LineCursor.numberLimit) {
            $0.putNumberMember(key, value, last: last)
        }
    }

    /// `"key":seconds` with three decimals (a JSON number) and a comma.
    mutating func appendSecondsMember(_ key: StaticString, _ duration: Duration) {
        write(limit: key.utf8CodeUnitCount + LineCursor.numberLimit) { $0.putSecondsMember(key, duration) }
    }

    /// A number in decimal, zero-padded to at least `width` digits.
    mutating func appendDecimal(_ value: Int64, width: Int = 1) {
        write(limit: max(width, 20) + 1) { $0.putDecimal(value, width: width) }
    }

    /// A duration in seconds with `places` decimals (1 to 9), rounded half up: what `%.3f` prints
    /// for the span's value, computed from its integer parts without a format string.
    mutating func appendSeconds(_ duration: Duration, places: Int) {
        write(limit: LineCursor.numberLimit) { $0.putSeconds(duration, places: places) }
    }

    /// The current UTC time as ISO 8601 with milliseconds, `2026-11-21T05:49:25.865Z`.
    mutating func appendTimestamp() {
        write(limit: LineCursor.timestampLength) { $0.putTimestamp() }
    }

    /// Writes up to `limit` bytes at once through a cursor: one capacity check for the dozen
    /// pieces of a line, where appending each to the array (a uniqueness and a capacity check, a
    /// generic copy) cost more than the bytes (perf of bench/engine's run, issue 32 round twelve).
    mutating func write(limit: Int, _ body: (inout LineCursor) -> Void) {
        bytes.append(addingCapacity: limit) { span in
            span.withUnsafeMutableBufferPointer { room, count in
                let start = room.baseAddress! + count
                var cursor = LineCursor(at: start)
                body(&cursor)
                count += cursor.at - start
            }
        }
    }
}

/// Where the next byte of a line goes, in room reserved by `EventLine.write(limit:_:)`: every
/// write assumes the room is there (each piece says how much it may need).
struct LineCursor {
    /// The most a number (an `Int64` with its sign, or seconds with their decimals) takes.
    static let numberLimit = 32
    /// `2026-11-21T05:49:25.865Z` with room to spare (a year of five digits).
    static let timestampLength = 40

    private(set) var at: UnsafeMutablePointer<UInt8>

    fileprivate init(at: UnsafeMutablePointer<UInt8>) {
        self.at = at
    }

    /// The most `putMember(key, value)` takes.
    static func memberLimit(_ key: StaticString, _ value: String) -> Int {
        key.utf8CodeUnitCount + FlowJSON.quotedLimit(utf8Count: value.utf8.count) + 4
    }

    mutating func put(_ byte: UInt8) {
        at.pointee = byte
        at += 1
    }

    mutating func put(_ text: StaticString) {
        at.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        at += text.utf8CodeUnitCount
    }

    /// `text` as it is, for a text JSON never escapes (a state's name); room: its UTF-8 count.
    mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            at.update(from: base, count: utf8.count)
            at += utf8.count
        }
    }

    /// `text` as a JSON string; room: `FlowJSON.quotedLimit` of its UTF-8 count.
    mutating func putQuoted(_ text: String) {
        at = FlowJSON.writeQuoted(text, at: at)
    }

    /// `"key":"value"` and a comma unless `last`; room: `memberLimit`.
    mutating func putMember(_ key: StaticString, _ value: String, last: Bool = false) {
        putKey(key)
        putQuoted(value)
        if !last { put(UInt8(ascii: ",")) }
    }

    /// `"key":number` and a comma unless `last`; room: the key and `numberLimit`.
    mutating func putNumberMember(_ key: StaticString, _ value: Int64, last: Bool = false) {
        putKey(key)
        putDecimal(value)
        if !last { put(UInt8(ascii: ",")) }
    }

    /// `"key":seconds` (three decimals) and a comma; room: the key and `numberLimit`.
    mutating func putSecondsMember(_ key: StaticString, _ duration: Duration) {
        putKey(key)
        putSeconds(duration, places: 3)
        put(UInt8(ascii: ","))
    }

    /// `"key":`.
    private mutating func putKey(_ key: StaticString) {
        put(UInt8(ascii: "\""))
        put(key)
        put("\":" as StaticString)
    }

    /// A number in decimal, zero-padded to at least `width` digits, written from its last digit
    /// (the padding zeros are the digits of what is left of the number: none).
    mutating func putDecimal(_ value: Int64, width: Int = 1) {
        if value < 0 { put(UInt8(ascii: "-")) }
        var rest = value.magnitude
        // Digits counted by comparing with powers of ten, not by dividing.
        var count = 1
        var bound: UInt64 = 10
        while count < 20, rest >= bound {
            count += 1
            bound &*= 10
        }
        let digits = max(width, count)
        var index = digits - 1
        while index >= 0 {
            at[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
        at += digits
    }

    /// A duration in seconds with `places` decimals (1 to 9), rounded half up: what `%.3f` prints
    /// for the span's value, computed from its integer parts without a format string.
    mutating func putSeconds(_ duration: Duration, places: Int) {
        let (whole, attoseconds) = duration.components
        if whole < 0 || attoseconds < 0 {
            put(UInt8(ascii: "-"))
            return putSeconds(.zero - duration, places: places)
        }
        var seconds = whole
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
        putDecimal(seconds)
        put(UInt8(ascii: "."))
        putDecimal(fraction, width: places)
    }

    /// The current UTC time as ISO 8601 with milliseconds, `2026-11-21T05:49:25.865Z`.
    mutating func putTimestamp() {
        // Foundation's clock (`clock_gettime`'s realtime clock): a `timespec` is out of reach of
        // this module's imports in debug builds.
        let now = Date().timeIntervalSince1970
        let seconds = now.rounded(.down)
        at = SecondText.shared.write(Int64(seconds), at: at)
        putDecimal(min(999, Int64((now - seconds) * 1_000)), width: 3)
        put(UInt8(ascii: "Z"))
    }

    /// `2026-11-21T05:49:25.`: the UTC date and time of `seconds` since the epoch, to the second.
    fileprivate mutating func putSecond(_ seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CalendarDays.date(daysSinceEpoch: days)
        putDecimal(year, width: 4)
        put(UInt8(ascii: "-"))
        putDecimal(month, width: 2)
        put(UInt8(ascii: "-"))
        putDecimal(day, width: 2)
        put(UInt8(ascii: "T"))
        putDecimal(secondOfDay / 3600, width: 2)
        put(UInt8(ascii: ":"))
        putDecimal(secondOfDay / 60 % 60, width: 2)
        put(UInt8(ascii: ":"))
        putDecimal(secondOfDay % 60, width: 2)
        put(UInt8(ascii: "."))
    }
}

/// The text of the last second a timestamp was written in: the lines of one second (most of a
/// 10,000-step run's 20,000 lines) copy it instead of working the date out again (issue 32).
/// `@unchecked Sendable`: `second` and `text` are touched only while holding `lock`.
private final class SecondText: @unchecked Sendable {
    static let shared = SecondText()
    private let lock = NSLock()
    private var second = Int64.min
    /// `2026-11-21T05:49:25.`: `count` bytes of room for 32.
    private var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0

    /// `putSecond`'s text for `seconds`, written at `at` (room for 32 bytes); returns the end.
    func write(_ seconds: Int64, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        lock.lock()
        defer { lock.unlock() }
        return withUnsafeMutableBytes(of: &text) { raw in
            let saved = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if seconds != second {
                var cursor = LineCursor(at: saved)
                cursor.putSecond(seconds)
                count = cursor.at - saved
                second = seconds
            }
            at.update(from: saved, count: count)
            return at + count
        }
    }
}
