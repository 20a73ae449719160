// `matches(text, regex)` and `jsonPath(value, path)`: the functions that look inside a response
// the way Hurl's regex and jsonpath queries do.

extension Functions {
    /// `matches(text, regex)`: whether the regular expression matches somewhere in the text
    /// (anchor it with `^…$` to match the whole text). Numbers and booleans are read as text.
    static func matches(_ arguments: [Value]) throws(Failure) -> Value {
        let text: String
        switch arguments[0] {
        case .string(let string): text = string
        case .number, .bool: text = arguments[0].interpolated
        default: throw Failure(message: "matches() expects a string as argument 1, got \(arguments[0].typeName)")
        }
        guard case .string(let pattern) = arguments[1] else {
            throw Failure(
                message: "matches() expects a regular expression (a string) as argument 2, got \(arguments[1].typeName)"
            )
        }
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw Failure(message: "matches() got an invalid regular expression '\(pattern)': \(error)")
        }
        return .bool(text.firstMatch(of: regex) != nil)
    }

    /// `jsonPath(value, path)`: what the RFC 9535 query `path` selects (see `JSONPath.select`); a
    /// string value is parsed as JSON text first, so `jsonPath(result.body, '$.id')` works as well
    /// as on `result.json`.
    static func jsonPath(_ arguments: [Value]) throws(Failure) -> Value {
        let (path, document) = try jsonPathArguments("jsonPath", arguments)
        return path.select(in: document)
    }

    /// `jsonPathPaths(value, path)`: the Normalized Path of each node `path` selects, in order
    /// (`["$['items'][0]", …]`), to tell where the matches are.
    static func jsonPathPaths(_ arguments: [Value]) throws(Failure) -> Value {
        let (path, document) = try jsonPathArguments("jsonPathPaths", arguments)
        return .array(path.nodes(in: document).map { .string($0.location?.normalizedPath ?? "$") })
    }

    private static func jsonPathArguments(_ name: String, _ arguments: [Value]) throws(Failure) -> (JSONPath, Value) {
        guard case .string(let text) = arguments[1] else {
            throw Failure(message: "\(name)() expects a path (a string) as argument 2, got \(arguments[1].typeName)")
        }
        let path: JSONPath
        do {
            path = try JSONPath(text)
        } catch {
            throw Failure(message: "\(name)() got an invalid path '\(text)': \(error.message)")
        }
        var document = arguments[0]
        if case .string(let json) = document {
            do {
                document = try Value(jsonText: json)
            } catch {
                throw Failure(message: "\(name)() expects JSON; argument 1 is a string that is not JSON text")
            }
        }
        return (path, document)
    }

    /// A problem with a function's arguments that can be seen before anything runs, or `nil`: a
    /// literal of a type the function does not take, a literal regex or path that does not
    /// compile, or a call of a cheap pure function whose every argument is a literal and which
    /// fails (it would fail the same way on every run). The message names the function.
    package static func literalArgumentProblem(_ name: String, _ arguments: [Value?]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if let argument, let problem = typeProblem(name, argument: index, argument) { return problem }
        }
        if queryArity[name] != nil { return queryLiteralProblem(name, arguments) }
        switch name {
        case "matches":
            guard arguments.count == 2, case .string(let pattern)? = arguments[1] else { return nil }
            return HeaderPattern.problem(pattern).map { "matches(): invalid regular expression '\(pattern)': \($0)" }
        case "jsonPath", "jsonPathPaths":
            guard arguments.count == 2, case .string(let path)? = arguments[1] else { return nil }
            do {
                _ = try JSONPath(path)
                return nil
            } catch {
                return "\(name)(): invalid JSON path '\(path)': \(error.message)"
            }
        case _ where parameterTypes[name] != nil:
            let values = arguments.compactMap(\.self)
            guard values.count == arguments.count else { return nil }
            do {
                _ = try call(name, values)
                return nil
            } catch {
                return error.message
            }
        case "files":
            guard arguments.count == 1, case .string(let pattern)? = arguments[0] else { return nil }
            return FileGlob.problem(pattern)
        default:
            return nil
        }
    }
}
