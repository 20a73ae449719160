/// A string value from the file, as written, with where it is, so that problems inside it
/// (an expression's syntax error, an unknown root) point at the right column.
public struct ScalarText: Sendable, Hashable {
    /// The value after YAML unquoting.
    public let text: String
    /// Where the value starts (its opening quote, for a quoted value).
    public let location: SourceLocation
    /// Where the text itself starts when it maps column for column onto one source line
    /// (plain or quoted without escapes on a single line); nil otherwise.
    public let textStart: SourceLocation?
    /// The text compiled as a template (`${{ }}` parsed), or nil when it has a syntax error.
    public let template: Template?
    /// The syntax error that left `template` nil.
    public let syntaxError: ExpressionSyntaxError?

    /// Creates a scalar text and compiles its template; `textStart` only when offsets in `text`
    /// map onto source columns.
    public init(text: String, location: SourceLocation, textStart: SourceLocation?) {
        self.text = text
        self.location = location
        self.textStart = textStart
        do {
            template = try Template.parse(text)
            syntaxError = nil
        } catch {
            template = nil
            syntaxError = error
        }
    }

    /// The source location of the character at `offset` in `text`, or the value's start when
    /// the text does not map column for column onto the source.
    public func location(ofOffset offset: Int) -> SourceLocation {
        guard let textStart else { return location }
        return SourceLocation(file: textStart.file, line: textStart.line, column: textStart.column + offset)
    }
}

/// A name and a value from a mapping such as `headers`, `env` or `query`, in file order.
public struct NamedValue: Sendable, Hashable {
    /// The key.
    public let name: String
    /// Where the key is.
    public let location: SourceLocation
    /// The value (numbers and booleans keep their YAML spelling).
    public let value: ScalarText
    /// For a step's output (`{ value: …, secret: true }`): whether the value, once known, is
    /// masked like a secret in everything the run prints or writes.
    public var secret = false

    /// Creates a named value.
    public init(name: String, location: SourceLocation, value: ScalarText) {
        self.name = name
        self.location = location
        self.value = value
    }
}

/// Any YAML value that may contain `${{ }}` in its strings, such as an HTTP `json` body.
public indirect enum ValueTemplate: Sendable, Hashable {
    /// `null` or `~`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string, possibly with expressions.
    case string(ScalarText)
    /// A list.
    case array([ValueTemplate])
    /// A mapping with string keys, in file order.
    case object([Member])

    /// One key and value of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public let key: String
        /// The value.
        public let value: ValueTemplate

        /// Creates a member.
        public init(key: String, value: ValueTemplate) {
            self.key = key
            self.value = value
        }
    }

    /// Every string in the value, depth first, for expression checks.
    public var strings: [ScalarText] {
        switch self {
        case .null, .bool, .number: return []
        case .string(let text): return [text]
        case .array(let items): return items.flatMap(\.strings)
        case .object(let members): return members.flatMap(\.value.strings)
        }
    }
}
