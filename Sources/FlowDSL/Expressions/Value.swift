/// A value an expression reads or produces: the JSON data model, which is also what YAML scalars,
/// step outputs and HTTP responses reduce to.
package enum Value: Sendable, Hashable {
    /// The absence of a value; also what a missing property reads as.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Every number is a double, as in JSON and GitHub Actions. `float` is whether it was written
    /// with a fraction or an exponent (`1.0`, `1e3`, not `1`): only `isFloat`, `isInteger` and JSON
    /// output read it; equality, ordering and arithmetic see the double alone.
    case number(Double, float: Bool = false)
    /// Text.
    case string(String)
    /// An ordered list.
    case array([Value])
    /// A mapping from keys to values.
    case object([String: Value])

    /// Values are equal as JSON data: numbers by their double, whatever their spelling (`1 == 1.0`).
    package static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left, _), .number(let right, _)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        default: false
        }
    }

    /// Hashes what `==` compares, so `1` and `1.0` hash alike.
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .number(let value, _):
            hasher.combine(2)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .object(let value):
            hasher.combine(5)
            hasher.combine(value)
        }
    }

    /// The name of the value's type, as error messages and `typeName` checks spell it.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Whether the value counts as true in `if:`, `!`, `&&` and `||`.
    ///
    /// False: `null`, `false`, `0`, `-0`, NaN and the empty string. Everything else, arrays and
    /// objects included (even empty ones, as in GitHub Actions), is true.
    package var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value, _): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array, .object: true
        }
    }

    /// How the value reads when interpolated into a string.
    ///
    /// `null` is empty, numbers print without a needless fraction (`3`, not `3.0`), strings are
    /// themselves, and arrays and objects are compact JSON with sorted keys.
    package var interpolated: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .number(let value, _): Value.format(number: value)
        case .string(let value): value
        case .array, .object: jsonText
        }
    }

    /// The text of a number as users expect to read it: integers without a fraction, other
    /// finite numbers in the shortest form that reads back to the same double.
    static func format(number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        // 2^53: every integer up to here is exact in a double, so printing it as an integer
        // loses nothing; beyond it, the exponent form is more honest.
        if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
            return String(Int64(number))
        }
        return number.description
    }
}
