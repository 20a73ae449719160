// `toDate`, `formatDate`, `daysBeforeNow`, `daysAfterNow`: dates as ISO 8601 strings in UTC
// (see `DateText`), as Hurl's `toDate`, `format`, `daysBeforeNow` and `daysAfterNow` filters.

extension Functions {
    /// `toDate(text)`: a date in HTTP's forms or ISO 8601; `toDate(text, format)`: a date in a
    /// strftime-style format. Either way the ISO 8601 string in UTC (`2015-10-21T07:28:00Z`).
    static func toDate(_ arguments: [Value]) throws(Failure) -> Value {
        let text = arguments[0].interpolated
        guard arguments.count > 1 else { return .string(DateText.iso(try date(text, "toDate"))) }
        do {
            return .string(DateText.iso(try DateText.parse(text, format: arguments[1].interpolated)))
        } catch {
            throw Failure(message: "toDate(): \(error.message)")
        }
    }

    /// `formatDate(date, format)`: a date (any text `toDate(text)` reads) written in a
    /// strftime-style format, in UTC.
    static func formatDate(_ arguments: [Value]) throws(Failure) -> Value {
        let seconds = try date(arguments[0].interpolated, "formatDate")
        do {
            return .string(try DateText.format(seconds, arguments[1].interpolated))
        } catch {
            throw Failure(message: "formatDate(): \(error.message)")
        }
    }

    /// `daysBeforeNow(date)` (whole days from the date to now) or `daysAfterNow(date)` (from now
    /// to the date), counted toward zero; `now` is seconds since 1970.
    static func days(_ name: String, _ date: Value, now: Double) throws(Failure) -> Value {
        if let problem = typeProblem(name, argument: 0, date) { throw Failure(message: problem) }
        let seconds = try Self.date(date.interpolated, name)
        let difference = name == "daysBeforeNow" ? now - seconds : seconds - now
        return .number((difference / 86_400).rounded(.towardZero))
    }

    /// The moment `text` stands for, or a failure of function `name` saying which forms it reads.
    private static func date(_ text: String, _ name: String) throws(Failure) -> Double {
        guard let seconds = DateText.parse(text) else {
            throw Failure(
                message: "\(name)() cannot read '\(Echo.text(text))' as a date; it reads ISO 8601 "
                    + "(2015-10-21T07:28:00Z) and HTTP dates (Wed, 21 Oct 2015 07:28:00 GMT); "
                    + "for another form, use toDate(text, format)")
        }
        return seconds
    }
}
