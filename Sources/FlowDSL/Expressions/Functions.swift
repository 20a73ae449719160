/// The built-in functions: their names and argument counts, for checking calls before anything
/// runs, and their implementations (in `Functions+Library.swift`).
package enum Functions {
    /// Every function name, as written in expressions (names are case-sensitive).
    package static let names =
        [
            "length", "contains", "startsWith", "endsWith", "format", "join", "toJSON", "fromJSON", "base64Encode",
            "base64Decode", "range", "files", "matches", "jsonPath", idempotencyKey, "basename", "dirname",
            "jsonPathPaths",
            "replace", "split", "lower", "upper", "trim", "substring", "urlEncode", "toString", "toNumber",
        ]
        + StatusFunction.allCases.map(\.rawValue) + queryNames

    /// The functions whose answer comes from the engine rather than from their arguments.
    package static let statusFunctions = Set(StatusFunction.allCases.map(\.rawValue))

    /// `idempotencyKey()`: a key the engine gives, stable for a step (and item) of a run across
    /// resumes and retries (see `EvaluationContext.idempotencyKey()`).
    package static let idempotencyKey = "idempotencyKey"

    /// How many arguments `name` takes; `nil` for an unknown function.
    package static func arity(_ name: String) -> ClosedRange<Int>? {
        switch name {
        case "length", "toJSON", "fromJSON", "base64Encode", "base64Decode", "files": 1...1
        case "basename", "dirname", "lower", "upper", "trim", "urlEncode", "toString", "toNumber": 1...1
        case "contains", "startsWith", "endsWith", "range", "matches", "jsonPath", "jsonPathPaths", "split": 2...2
        case "substring": 2...3
        case "replace": 3...3
        case "join": 1...2
        case "format": 1...Int.max
        case idempotencyKey: 0...0
        default: StatusFunction(rawValue: name) == nil ? queryArity[name] : 0...0
        }
    }

    /// "1 argument", "1 or 2 arguments", "at least 1 argument": how error messages state an arity.
    static func describe(_ arity: ClosedRange<Int>) -> String {
        func count(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }
        if arity.upperBound == Int.max { return "at least " + count(arity.lowerBound) }
        if arity.lowerBound == arity.upperBound { return count(arity.lowerBound) }
        if arity.upperBound == arity.lowerBound + 1 {
            return "\(arity.lowerBound) or " + count(arity.upperBound)
        }
        return "\(arity.lowerBound) to " + count(arity.upperBound)
    }
}
