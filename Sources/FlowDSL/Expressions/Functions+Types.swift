// The type predicates: `isInteger`, `isFloat`, `isNumber`, `isString`, `isBoolean`,
// `isCollection`, `isIsoDate`, as Hurl's predicates of the same names.

extension Functions {
    /// The answer of a type predicate; `nil` when `name` is not one.
    ///
    /// Numbers are doubles, whatever their JSON spelling: `isInteger` holds for a finite number
    /// without a fractional part (`1`, `1.0`, `1e3`), `isFloat` for one with a fractional part
    /// (`1.5`); a number never holds both.
    static func typePredicate(_ name: String, _ value: Value) -> Value? {
        switch name {
        case "isInteger":
            guard case .number(let number) = value else { return .bool(false) }
            return .bool(number.isFinite && number == number.rounded())
        case "isFloat":
            guard case .number(let number) = value else { return .bool(false) }
            return .bool(number.isFinite && number != number.rounded())
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
