// The type predicates: `isInteger`, `isFloat`, `isNumber`, `isString`, `isBoolean`,
// `isCollection`, `isIsoDate`, as Hurl's predicates of the same names.

extension Functions {
    /// The answer of a type predicate; `nil` when `name` is not one.
    ///
    /// As Hurl reads JSON: `isFloat` holds for a number written with a point or an exponent
    /// (`1.0`, `1e3`, `0.5`) or computed with a fractional part (`3 / 2`), `isInteger` for any
    /// other finite number (`1`, `10 / 2`); a number never holds both, NaN and infinities neither.
    static func typePredicate(_ name: String, _ value: Value) -> Value? {
        switch name {
        case "isInteger":
            guard case .number(let number, let float) = value else { return .bool(false) }
            return .bool(number.isFinite && !float && number == number.rounded())
        case "isFloat":
            guard case .number(let number, let float) = value else { return .bool(false) }
            return .bool(number.isFinite && (float || number != number.rounded()))
        case "isNumber":
            guard case .number = value else { return .bool(false) }
            return .bool(true)
        case "isString":
            guard case .string = value else { return .bool(false) }
            return .bool(true)
        case "isBoolean":
            guard case .bool = value else { return .bool(false) }
            return .bool(true)
        case "isCollection":
            switch value {
            case .array, .object: return .bool(true)
            default: return .bool(false)
            }
        case "isIsoDate":
            guard case .string(let text) = value else { return .bool(false) }
            return .bool(DateText.rfc3339(text) != nil)
        default:
            return nil
        }
    }
}
