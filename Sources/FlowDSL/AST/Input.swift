/// A declared workflow input, set with `flow run --input name=value`.
package struct Input: Sendable, Hashable {
    /// The types an input may declare.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Any text.
        case string
        /// A number such as `3` or `2.5`.
        case number
        /// `true` or `false`.
        case boolean
        /// A path to a readable file, resolved against the current directory.
        case file
    }

    /// The input's name (`inputs.<name>`).
    package let name: String
    /// Where the name is declared.
    package let location: SourceLocation
    /// The declared type (default `string`).
    package let kind: Kind
    /// The value used when `--input` does not set it.
    package let defaultValue: InputValue?
    /// Whether `--input` must set it (default false).
    package let required: Bool
    /// Text for humans.
    package let description: String?

    /// Creates an input declaration.
    package init(
        name: String,
        location: SourceLocation,
        kind: Kind,
        defaultValue: InputValue?,
        required: Bool,
        description: String?
    ) {
        self.name = name
        self.location = location
        self.kind = kind
        self.defaultValue = defaultValue
        self.required = required
        self.description = description
    }
}

/// The value of an input: from its default or from the command line.
package enum InputValue: Sendable, Hashable, CustomStringConvertible {
    /// Text, or a file path for a `file` input.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case boolean(Bool)

    /// The value as it reads in a URL or a plan: `3` not `3.0`.
    package var description: String {
        switch self {
        case .string(let text): return text
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        }
    }

    /// Parses command-line text as a value of `kind`; nil when it is not one.
    package static func parse(_ text: String, as kind: Input.Kind) -> InputValue? {
        switch kind {
        case .string, .file: return .string(text)
        case .number: return Double(text).flatMap { $0.isFinite ? .number($0) : nil }
        case .boolean:
            switch text.lowercased() {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        }
    }
}
