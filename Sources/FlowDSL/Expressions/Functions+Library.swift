// The pure functions. Each validates its argument types and reports a readable error; the
// evaluator has already checked the argument count and locates the error at the call.

extension Functions {
    /// A failure inside a function, located by the evaluator at the call.
    struct Failure: Error {
        let message: String
    }

    static func call(_ name: String, _ arguments: [Value]) throws(Failure) -> Value {
        if let problem = typeProblem(name, arguments) { throw Failure(message: problem) }
        if let value = try stringFunction(name, arguments) { return value }
        switch name {
        case "length": return try length(arguments[0])
        case "contains": return try contains(arguments[0], arguments[1])
        case "startsWith":
            let (text, prefix) = try twoStrings(name, arguments)
            return .bool(text.hasPrefix(prefix))
        case "endsWith":
            let (text, suffix) = try twoStrings(name, arguments)
            return .bool(text.hasSuffix(suffix))
        case "format": return try format(arguments)
        case "join": return try join(arguments)
        case "toJSON": return .string(arguments[0].jsonText)
        case "fromJSON": return try fromJSON(arguments[0])
        case "base64Encode": return try base64Encode(arguments[0])
        case "base64Decode": return try base64Decode(arguments[0])
        case "range": return try range(arguments[0], arguments[1])
        case "matches": return try matches(arguments)
        case "jsonPathPaths": return try jsonPathPaths(arguments)
        case "jsonPath": return try jsonPath(arguments)
        default:
            if let value = try queryFunction(name, arguments) { return value }
            throw Failure(message: "unknown function '\(name)'")
        }
    }

    /// Characters of a string (as users count them), elements of an array, keys of an object.
    private static func length(_ value: Value) throws(Failure) -> Value {
        switch value {
        case .string(let text): return .number(Double(text.count))
        case .array(let elements): return .number(Double(elements.count))
        case .object(let members): return .number(Double(members.count))
        default: throw Failure(message: "length() expects a string, array or object, got \(value.typeName)")
        }
    }

    /// A substring test (case-sensitive, like `==`) or an array membership test (by `==`).
    private static func contains(_ search: Value, _ item: Value) throws(Failure) -> Value {
        switch search {
        case .string(let text):
            switch item {
            case .string, .number, .bool:
                return .bool(text.contains(item.interpolated))
            default:
                throw Failure(
                    message: "contains() searches a string for a string, number or boolean, got \(item.typeName)")
            }
        case .array(let elements):
            return .bool(elements.contains { $0.looselyEquals(item) })
        default:
            throw Failure(message: "contains() expects a string or an array to search, got \(search.typeName)")
        }
    }

    private static func twoStrings(_ name: String, _ arguments: [Value]) throws(Failure) -> (String, String) {
        guard case .string(let first) = arguments[0] else {
            throw Failure(message: "\(name)() expects a string as argument 1, got \(arguments[0].typeName)")
        }
        guard case .string(let second) = arguments[1] else {
            throw Failure(message: "\(name)() expects a string as argument 2, got \(arguments[1].typeName)")
        }
        return (first, second)
    }

    /// `format('{0} of {1}', a, b)`: `{N}` is argument N+1 as interpolated, `{{` and `}}` are
    /// literal braces; anything else in braces is an error rather than silently kept.
    private static func format(_ arguments: [Value]) throws(Failure) -> Value {
        guard case .string(let pattern) = arguments[0] else {
            throw Failure(message: "format() expects a string pattern as argument 1, got \(arguments[0].typeName)")
        }
        let values = arguments.dropFirst()
        var output = ""
        var characters = pattern[...]
        while let character = characters.popFirst() {
            switch character {
            case "{":
                if characters.first == "{" {
                    characters.removeFirst()
                    output.append("{")
                    continue
                }
                var digits = ""
                while let next = characters.first, next.asciiValue?.isASCIIDigit == true, digits.count < 9 {
                    digits.append(next)
                    characters.removeFirst()
                }
                guard !digits.isEmpty, characters.popFirst() == "}", let index = Int(digits) else {
                    throw Failure(message: "format() pattern has an invalid placeholder; use {0}, {1}, … or {{ and }}")
                }
                guard index < values.count else {
                    throw Failure(
                        message: "format() pattern uses {\(index)} but only \(values.count) value(s) follow it")
                }
                output += values[values.startIndex + index].interpolated
            case "}":
                guard characters.popFirst() == "}" else {
                    throw Failure(message: "format() pattern has a lone '}'; write '}}' for a literal brace")
                }
                output.append("}")
            default:
                output.append(character)
            }
        }
        return .string(output)
    }

    /// `join(array, separator)`: elements as interpolated, separated by `,` unless told; a
    /// string joins to itself, as in GitHub Actions.
    private static func join(_ arguments: [Value]) throws(Failure) -> Value {
        var separator = ","
        if arguments.count > 1 {
            guard case .string(let text) = arguments[1] else {
                throw Failure(message: "join() expects a string separator, got \(arguments[1].typeName)")
            }
            separator = text
        }
        switch arguments[0] {
        case .array(let elements): return .string(elements.map(\.interpolated).joined(separator: separator))
        case .string: return arguments[0]
        default: throw Failure(message: "join() expects an array, got \(arguments[0].typeName)")
        }
    }

    private static func fromJSON(_ value: Value) throws(Failure) -> Value {
        guard case .string(let text) = value else {
            throw Failure(message: "fromJSON() expects a string, got \(value.typeName)")
        }
        do {
            return try Value(jsonText: text)
        } catch let error as JSONSyntaxError {
            throw Failure(message: "fromJSON() got invalid JSON: \(error)")
        } catch {
            throw Failure(message: "fromJSON() got invalid JSON")
        }
    }

    /// The UTF-8 bytes of a string in base64 (the standard alphabet, padded).
    private static func base64Encode(_ value: Value) throws(Failure) -> Value {
        guard case .string(let text) = value else {
            throw Failure(message: "base64Encode() expects a string, got \(value.typeName)")
        }
        return .string(Base64.encode(text.utf8))
    }

    /// The text base64 stands for; it must decode to UTF-8 text, since values are text.
    private static func base64Decode(_ value: Value) throws(Failure) -> Value {
        guard case .string(let text) = value else {
            throw Failure(message: "base64Decode() expects a string, got \(value.typeName)")
        }
        let bytes: [UInt8]
        do {
            bytes = try Base64.decode(text)
        } catch {
            throw Failure(message: "base64Decode() got invalid base64: \(error.description)")
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw Failure(message: "base64Decode() decoded \(bytes.count) bytes that are not UTF-8 text")
        }
        return .string(decoded)
    }
}
