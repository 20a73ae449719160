// The semantics of `==`, `!=`, `<`, `<=`, `>`, `>=` inside expressions. They differ from Swift's
// `Equatable` (which the synthesized `Hashable` gives `Value`) in one place: NaN, and values of
// different types, never compare equal; no conversion happens between types.

extension Value {
    /// Expression equality: same type and same value; numbers numerically, strings
    /// case-sensitively, arrays and objects element by element.
    func looselyEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a, _), .number(let b, _)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            return zip(a, b).allSatisfy { $0.looselyEquals($1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in b[key].map { value.looselyEquals($0) } ?? false }
        default: return false
        }
    }

    /// Expression ordering: numbers numerically, strings by Unicode order; any other pair
    /// (mixed types, null, booleans, arrays, objects) is unordered, so every comparison is false.
    func ordered(against other: Value) -> Ordering? {
        switch (self, other) {
        case (.number(let a, _), .number(let b, _)):
            if a < b { return .less }
            if a > b { return .greater }
            return a == b ? .same : nil
        case (.string(let a), .string(let b)):
            if a < b { return .less }
            return a == b ? .same : .greater
        default:
            return nil
        }
    }

    /// The outcome of an ordering comparison between two comparable values.
    enum Ordering {
        case less, same, greater
    }
}
