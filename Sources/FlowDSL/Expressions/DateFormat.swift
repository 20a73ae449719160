// strftime-style formats for `toDate(text, format)` and `formatDate(date, format)`: the
// directives Hurl's `toDate` and `format` filters take (chrono's, which are C's).

extension DateText {
    /// Why a format or a text does not fit.
    struct FormatProblem: Error {
        let message: String
    }

    /// The directives both reading and writing know, for messages.
    static let directives = "%Y %y %m %d %e %H %I %M %S %f %p %a %A %b %B %h %j %z %Z %s %T %F %D %R %n %t %%"

    /// `text` read by `format`: seconds since the epoch. White space in the format matches any
    /// run of white space (or none); fields missing from the format default to 1970-01-01 00:00:00
    /// UTC; `%Z` reads `GMT`, `UTC` or `Z`.
    static func parse(_ text: String, format: String) throws(FormatProblem) -> Double {
        var input = Array(text.unicodeScalars)[...]
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, fraction = 0.0, offset = 0
        var pm: Bool?
        var epoch: Int?
        func problem(_ message: String) -> FormatProblem {
            FormatProblem(message: "'\(Echo.text(text))' does not match '\(Echo.text(format))': \(message)")
        }
        func number(_ maximumDigits: Int, signed: Bool = false, _ what: String) throws(FormatProblem) -> Int {
            while input.first == " " { input.removeFirst() }
            var negative = false
            if signed, let sign = input.first, sign == "-" || sign == "+" {
                negative = sign == "-"
                input.removeFirst()
            }
            var value = 0
            var count = 0
            while count < maximumDigits, let scalar = input.first, scalar.isASCII, let digit = Int(String(scalar)) {
                value = value * 10 + digit
                count += 1
                input.removeFirst()
            }
            guard count > 0 else { throw problem("expected \(what)") }
            return negative ? -value : value
        }
        func name(_ names: [String], _ what: String) throws(FormatProblem) -> Int {
            let remaining = String(String.UnicodeScalarView(input)).lowercased()
            // Full names first, so `Sunday` is not read as `Sun` followed by `day`.
            for (index, full) in names.enumerated() where remaining.hasPrefix(full.lowercased()) {
                input.removeFirst(full.unicodeScalars.count)
                return index
            }
            for (index, full) in names.enumerated() where remaining.hasPrefix(full.prefix(3).lowercased()) {
                input.removeFirst(3)
                return index
            }
            throw problem("expected \(what)")
        }
        func literal(_ scalar: Unicode.Scalar) throws(FormatProblem) {
            guard input.first == scalar else {
                let found = input.first.map { "'\(Echo.text(String($0)))'" } ?? "the end"
                throw problem("expected '\(Echo.text(String(scalar)))', found \(found)")
            }
            input.removeFirst()
        }
        func read(_ format: String) throws(FormatProblem) {
            var pattern = format.unicodeScalars[...]
            while let scalar = pattern.popFirst() {
                if scalar.properties.isWhitespace {
                    while input.first?.properties.isWhitespace == true { input.removeFirst() }
                    continue
                }
                guard scalar == "%" else {
                    try literal(scalar)
                    continue
                }
                guard let directive = pattern.popFirst() else {
                    throw FormatProblem(message: "the format '\(Echo.text(format))' ends with a lone '%'")
                }
                switch directive {
                case "Y": year = try number(5, signed: true, "a year")
                case "y":
                    let short = try number(2, "a two-digit year")
                    year = short < 70 ? 2000 + short : 1900 + short
                case "m": month = try number(2, "a month number")
                case "d", "e": day = try number(2, "a day of the month")
                case "H": hour = try number(2, "an hour")
                case "I": hour = try number(2, "an hour (1 to 12)")
                case "M": minute = try number(2, "minutes")
                case "S": second = try number(2, "seconds")
                case "f":
                    var scale = 0.1
                    var count = 0
                    while let scalar = input.first, scalar.isASCII, let digit = Int(String(scalar)) {
                        fraction += Double(digit) * scale
                        scale /= 10
                        count += 1
                        input.removeFirst()
                    }
                    guard count > 0 else { throw problem("expected digits of a fraction of a second") }
                case "p":
                    let remaining = String(String.UnicodeScalarView(input.prefix(2))).uppercased()
                    guard remaining == "AM" || remaining == "PM" else { throw problem("expected AM or PM") }
                    pm = remaining == "PM"
                    input.removeFirst(2)
                // Read, not checked against the date: HTTP dates are trusted to agree with themselves.
                case "a", "A": _ = try name(weekdays, "a day of the week")
                case "b", "B", "h": month = try name(months, "a month name") + 1
                case "j":
                    let dayOfYear = try number(3, "a day of the year")
                    month = 1
                    day = dayOfYear
                case "z":
                    if input.first == "Z" {
                        input.removeFirst()
                        offset = 0
                        break
                    }
                    guard let sign = input.first, sign == "+" || sign == "-" else {
                        throw problem("expected a time zone offset such as +0200")
                    }
                    input.removeFirst()
                    let hours = try number(2, "the hours of a time zone offset")
                    if input.first == ":" { input.removeFirst() }
                    let minutes = try number(2, "the minutes of a time zone offset")
                    offset = (hours * 60 + minutes) * 60 * (sign == "-" ? -1 : 1)
                case "Z":
                    var zone = ""
                    while let scalar = input.first, scalar.properties.isAlphabetic {
                        zone.unicodeScalars.append(scalar)
                        input.removeFirst()
                    }
                    guard ["GMT", "UTC", "UT", "Z"].contains(zone.uppercased()) else {
                        throw problem(
                            zone.isEmpty
                                ? "expected a time zone name" : "the time zone '\(Echo.text(zone))' is not GMT or UTC")
                    }
                    offset = 0
                case "s": epoch = try number(18, signed: true, "seconds since 1970")
                case "T": try read("%H:%M:%S")
                case "F": try read("%Y-%m-%d")
                case "D": try read("%m/%d/%y")
                case "R": try read("%H:%M")
                case "n", "t": while input.first?.properties.isWhitespace == true { input.removeFirst() }
                case "%": try literal("%")
                default:
                    throw FormatProblem(
                        message: "the format '\(Echo.text(format))' has an unknown directive '%\(directive)'; "
                            + "use \(directives)")
                }
            }
        }
        try read(format)
        guard input.isEmpty else {
            throw problem("'\(Echo.text(String(String.UnicodeScalarView(input))))' is left over")
        }
        if let epoch { return Double(epoch) + fraction }
        if let pm {
            guard (1...12).contains(hour) else { throw problem("the hour \(hour) is not from 1 to 12") }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        var total: Int
        if month == 1, day > 31 {
            // `%j`: a day of the year.
            guard day <= (daysIn(month: 2, year: year) == 29 ? 366 : 365) else {
                throw problem("there is no day \(day) in \(year)")
            }
            total = (daysFromCivil(year: year, month: 1, day: 1) + day - 1) * 86_400 + hour * 3_600 + minute * 60
            total += second
        } else {
            guard let seconds = seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            else {
                throw problem(
                    "there is no such date or time (\(year)-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)))"
                )
            }
            total = seconds
        }
        return Double(total - offset) + fraction
    }

    /// The moment `seconds` written by `format`, in UTC.
    static func format(_ seconds: Double, _ format: String) throws(FormatProblem) -> String {
        let parts = Parts(seconds)
        var output = ""
        var pattern = format.unicodeScalars[...]
        while let scalar = pattern.popFirst() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            guard let directive = pattern.popFirst() else {
                throw FormatProblem(message: "the format '\(Echo.text(format))' ends with a lone '%'")
            }
            switch directive {
            case "Y": output += pad(parts.year, 4)
            case "y": output += pad(((parts.year % 100) + 100) % 100, 2)
            case "m": output += pad(parts.month, 2)
            case "d": output += pad(parts.day, 2)
            case "e": output += (parts.day < 10 ? " " : "") + String(parts.day)
            case "H": output += pad(parts.hour, 2)
            case "I": output += pad(parts.hour % 12 == 0 ? 12 : parts.hour % 12, 2)
            case "M": output += pad(parts.minute, 2)
            case "S": output += pad(parts.second, 2)
            case "f": output += pad(parts.micros * 1000, 9)
            case "p": output += parts.hour < 12 ? "AM" : "PM"
            case "a": output += weekdays[parts.weekday].prefix(3)
            case "A": output += weekdays[parts.weekday]
            case "b", "h": output += months[parts.month - 1].prefix(3)
            case "B": output += months[parts.month - 1]
            case "j": output += pad(parts.dayOfYear, 3)
            case "z": output += "+0000"
            case "Z": output += "UTC"
            case "s": output += String(parts.epochSeconds)
            case "T": output += try Self.format(seconds, "%H:%M:%S")
            case "F": output += try Self.format(seconds, "%Y-%m-%d")
            case "D": output += try Self.format(seconds, "%m/%d/%y")
            case "R": output += try Self.format(seconds, "%H:%M")
            case "n": output += "\n"
            case "t": output += "\t"
            case "%": output += "%"
            default:
                throw FormatProblem(
                    message:
                        "the format '\(Echo.text(format))' has an unknown directive '%\(directive)'; use \(directives)")
            }
        }
        return output
    }
}
