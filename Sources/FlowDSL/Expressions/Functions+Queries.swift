// The functions that query and test a response's values the way Hurl's queries, filters and
// predicates do: XPath, hashes, regex captures, type tests and dates. Their names, arities and
// argument types live here, apart from the first functions' tables, which read them through
// `queryArity`, `queryParameterTypes` and `queryFunction`.

extension Functions {
    /// The names of this file's functions (`exists` and the dates compared with now are answered
    /// by the evaluator, which has the syntax and the context they need).
    static let queryNames = [
        "xpath", "htmlXPath", "sha256", "sha1", "md5", "capture", "captureAll", "isInteger", "isFloat", "isNumber",
        "isString", "isBoolean", "isCollection", "isIsoDate", "toDate", "formatDate", "daysBeforeNow",
        "daysAfterNow", "exists",
    ]

    /// How many arguments each of this file's functions takes.
    static let queryArity: [String: ClosedRange<Int>] = [
        "xpath": 2...3, "htmlXPath": 2...2, "sha256": 1...3, "sha1": 1...3, "md5": 1...3, "capture": 2...3,
        "captureAll": 2...3, "isInteger": 1...1, "isFloat": 1...1, "isNumber": 1...1, "isString": 1...1,
        "isBoolean": 1...1, "isCollection": 1...1, "isIsoDate": 1...1, "toDate": 1...2, "formatDate": 2...2,
        "daysBeforeNow": 1...1, "daysAfterNow": 1...1, "exists": 1...1,
    ]

    /// What each parameter of this file's functions accepts (see `parameterTypes`).
    static let queryParameterTypes: [String: [Accepts]] = [
        "xpath": [.string, .string, .object], "htmlXPath": [.string, .string],
        "sha256": [.text, .string, .string], "sha1": [.text, .string, .string], "md5": [.text, .string, .string],
        "capture": [.text, .string, [.number, .string]], "captureAll": [.text, .string, [.number, .string]],
        "toDate": [.string, .string], "formatDate": [.string, .string],
        "daysBeforeNow": [.string], "daysAfterNow": [.string],
    ]

    /// The result of one of this file's pure functions; `nil` when `name` is not one of them.
    static func queryFunction(_ name: String, _ arguments: [Value]) throws(Failure) -> Value? {
        switch name {
        case "xpath", "htmlXPath": return try xpath(name, arguments)
        case "sha256", "sha1", "md5": return try hash(name, arguments)
        case "capture", "captureAll": return try capture(name, arguments)
        case "toDate": return try toDate(arguments)
        case "formatDate": return try formatDate(arguments)
        default: return arguments.isEmpty ? nil : typePredicate(name, arguments[0])
        }
    }

    /// A problem with a literal argument of this file's functions that can be seen before
    /// anything runs: a regex, an XPath, a hash encoding or a date format that is wrong, or a
    /// call of a pure function on literals only that fails.
    static func queryLiteralProblem(_ name: String, _ arguments: [Value?]) -> String? {
        switch name {
        case "capture", "captureAll":
            if arguments.count > 1, case .string(let pattern)? = arguments[1],
                let problem = HeaderPattern.problem(pattern)
            {
                return "\(name)(): invalid regular expression '\(pattern)': \(problem)"
            }
        case "xpath", "htmlXPath":
            if arguments.count > 1, case .string(let expression)? = arguments[1],
                let problem = XPath.problem(expression)
            {
                return "\(name)(): invalid XPath '\(expression)': \(problem)"
            }
        case "sha256", "sha1", "md5":
            // The encodings alone, when literal, on empty data (which any input encoding reads).
            let encodings = arguments.dropFirst()
            if !encodings.isEmpty, encodings.allSatisfy({ $0 != nil }) {
                do {
                    _ = try hash(name, [""] + encodings.compactMap(\.self))
                } catch {
                    return error.message
                }
            }
        case "toDate", "formatDate":
            if arguments.count > 1, case .string(let format)? = arguments[1] {
                do {
                    _ = try DateText.format(0, format)
                } catch {
                    return "\(name)(): \(error.message)"
                }
            }
        case "daysBeforeNow", "daysAfterNow", "exists":
            return nil
        default:
            break
        }
        let values = arguments.compactMap(\.self)
        guard queryArity[name] != nil, values.count == arguments.count else { return nil }
        do {
            _ = try call(name, values)
            return nil
        } catch {
            return error.message
        }
    }
}
