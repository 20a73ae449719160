// The argument types of the functions that declare them: one table that the checker reads for
// literal arguments (before anything runs) and the evaluator for every argument (while running),
// so both say the same thing in the same words.

extension Functions {
    /// The types one parameter accepts.
    struct Accepts: OptionSet, Sendable {
        let rawValue: Int
        static let string = Accepts(rawValue: 1 << 0)
        static let number = Accepts(rawValue: 1 << 1)
        static let bool = Accepts(rawValue: 1 << 2)
        static let array = Accepts(rawValue: 1 << 3)
        static let object = Accepts(rawValue: 1 << 4)
        /// A string, or a number or boolean read as its text.
        static let text: Accepts = [.string, .number, .bool]

        func admits(_ value: Value) -> Bool {
            switch value {
            case .null: false
            case .bool: contains(.bool)
            case .number: contains(.number)
            case .string: contains(.string)
            case .array: contains(.array)
            case .object: contains(.object)
            }
        }

        /// "a string", "a string, array or object": how a message names what is accepted.
        var described: String {
            let names = [
                (Accepts.string, "string"), (.number, "number"), (.bool, "boolean"), (.array, "array"),
                (.object, "object"),
            ]
            .filter { contains($0.0) }.map(\.1)
            guard let first = names.first else { return "nothing" }
            let article = first.first.map { "aeiou".contains($0) } == true ? "an " : "a "
            guard names.count > 1 else { return article + first }
            return article + names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        }
    }

    /// What each parameter accepts, for the functions that check their arguments by this table.
    /// The others (`contains`, `format`, `join`, `range`, …) check their own, in messages that say
    /// more about the argument's role.
    static let parameterTypes: [String: [Accepts]] = [
        "length": [[.string, .array, .object]],
        "startsWith": [.string, .string],
        "endsWith": [.string, .string],
        "fromJSON": [.string],
        "base64Encode": [.string],
        "base64Decode": [.string],
        "basename": [.string],
        "dirname": [.string],
        "replace": [.string, .string, .string],
        "split": [.string, .string],
        "lower": [.string],
        "upper": [.string],
        "trim": [.string],
        "substring": [.string, .number, .number],
        "urlEncode": [.text],
        "toNumber": [.text],
    ]

    /// Why argument `index` (from 0) of `name` cannot be `value`, or `nil` when it can (or when
    /// `name` checks its arguments itself): `replace() expects a string as argument 2, got number`.
    static func typeProblem(_ name: String, argument index: Int, _ value: Value) -> String? {
        guard let accepts = parameterTypes[name] ?? queryParameterTypes[name], index < accepts.count,
            !accepts[index].admits(value)
        else {
            return nil
        }
        let position = accepts.count == 1 ? "" : " as argument \(index + 1)"
        return "\(name)() expects \(accepts[index].described)\(position), got \(value.typeName)"
    }

    /// The first argument whose type `name` does not accept, as a message.
    static func typeProblem(_ name: String, _ arguments: [Value]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if let problem = typeProblem(name, argument: index, argument) { return problem }
        }
        return nil
    }
}
