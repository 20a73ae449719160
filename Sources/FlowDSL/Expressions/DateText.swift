// Dates as flow's expressions hold them: an ISO 8601 string in UTC (`2015-10-21T07:28:00Z`, with
// a fraction of a second when there is one), read from and written to the forms HTTP uses
// (RFC 9110's IMF-fixdate, RFC 850 and asctime), ISO 8601 / RFC 3339, and strftime-style formats.
// The calendar is the proleptic Gregorian one in UTC (no time zone database: offsets only).

/// Reading and writing dates as seconds since 1970-01-01T00:00:00Z.
package enum DateText {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// A date in any form `toDate(text)` reads: ISO 8601 (RFC 3339, or a date alone), IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime
    /// (`Sun Nov  6 08:49:37 1994`); `nil` for anything else.
    static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace()
        if let seconds = rfc3339(trimmed) { return seconds }
        for format in [
            "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S%z", "%Y-%m-%d %H:%M:%S", "%a, %d %b %Y %H:%M:%S %Z",
            "%A, %d-%b-%y %H:%M:%S %Z", "%a %b %e %H:%M:%S %Y", "%a, %d-%b-%Y %H:%M:%S %Z",
        ] {
            if let seconds = try? parse(trimmed, format: format) { return seconds }
        }
        return nil
    }

    /// RFC 3339's date-time (`2022-10-31T09:00:00.594Z`, `2024-03-20T11:23:56+02:00`): what
    /// `isIsoDate` accepts; `nil` for anything else.
    static func rfc3339(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte.isASCIIDigit else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = digits(0, 4), bytes[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            bytes[7] == UInt8(ascii: "-"), let day = digits(8, 2),
            [UInt8(ascii: "T"), UInt8(ascii: "t")].contains(bytes[10]),
            let hour = digits(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            bytes[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        var position = 19
        var fraction = 0.0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            var scale = 0.1
            let start = position
            while position < bytes.count, bytes[position].isASCIIDigit {
                fraction += Double(bytes[position] - UInt8(ascii: "0")) * scale
                scale /= 10
                position += 1
            }
            guard position > start else { return nil }
        }
        guard position < bytes.count else { return nil }
        var offset = 0
        switch bytes[position] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            position += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let hours = digits(position + 1, 2), position + 3 < bytes.count,
                bytes[position + 3] == UInt8(ascii: ":"), let minutes = digits(position + 4, 2), hours < 24,
                minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[position] == UInt8(ascii: "-") ? -1 : 1)
            position += 6
        default:
            return nil
        }
        guard position == bytes.count else { return nil }
        guard let seconds = seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Double(seconds - offset) + fraction
    }

    /// Seconds since the epoch of a date and time in UTC, or `nil` when a field is out of range
    /// (a leap second `60` is read as the next second's start, as most parsers do).
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The parts of a moment in UTC.
    struct Parts {
        let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
        /// Microseconds past the second.
        let micros: Int
        /// 0 is Sunday.
        let weekday: Int
        /// 1 is January 1st.
        let dayOfYear: Int
        let epochSeconds: Int

        init(_ seconds: Double) {
            var whole = Int(seconds.rounded(.down))
            var micros = Int(((seconds - Double(whole)) * 1_000_000).rounded())
            if micros >= 1_000_000 {
                whole += 1
                micros -= 1_000_000
            }
            let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
            let inDay = whole - days * 86_400
            (year, month, day) = DateText.civil(fromDays: days)
            hour = inDay / 3_600
            minute = inDay % 3_600 / 60
            second = inDay % 60
            self.micros = micros
            weekday = ((days % 7) + 11) % 7
            dayOfYear = days - DateText.daysFromCivil(year: year, month: 1, day: 1) + 1
            epochSeconds = whole
        }
    }

    /// The ISO 8601 form flow holds dates in: `2015-10-21T07:28:00Z`, with the fraction of a second
    /// when there is one (`.594`, at most microseconds).
    static func iso(_ seconds: Double) -> String {
        let parts = Parts(seconds)
        var text =
            pad(parts.year, 4) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2) + "T" + pad(parts.hour, 2) + ":"
            + pad(parts.minute, 2) + ":" + pad(parts.second, 2)
        if parts.micros > 0 {
            var fraction = pad(parts.micros, 6)
            while fraction.last == "0" { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(abs(number))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return number < 0 ? "-" + padded : padded
    }
}
