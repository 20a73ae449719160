extension Functions {
    /// The most items `range()` gives, so a typo cannot ask for billions of them.
    static let rangeLimit = 10_000_000

    /// `range(from, to)`: the whole numbers from `from` up to, not including, `to` (as Python's).
    static func range(_ from: Value, _ to: Value) throws(Failure) -> Value {
        guard case .number(let low, _) = from, let start = Int(exactly: low) else {
            throw Failure(message: "range() expects a whole number as argument 1, got \(describe(from))")
        }
        guard case .number(let high, _) = to, let end = Int(exactly: high) else {
            throw Failure(message: "range() expects a whole number as argument 2, got \(describe(to))")
        }
        guard end > start else { return .array([]) }
        guard end - start <= rangeLimit else {
            throw Failure(message: "range(\(start), \(end)) would give more than \(rangeLimit) items")
        }
        return .array((start..<end).map { .number(Double($0)) })
    }

    private static func describe(_ value: Value) -> String {
        if case .number(let number, _) = value { return "\(number)" }
        return value.typeName
    }
}
