/// A string value from the file, as written, with where it is, so that problems inside it
/// (an expression's syntax error, an unknown root) point at the right column.
package struct ScalarText: Sendable, Hashable {
    /// The fields, shared by every copy: a step's texts are copied into each check that looks at
    /// them, and a copy of the inline fields (about 150 bytes, each string and array retained)
    /// cost more than retaining one box (issue 32).
    private final class Storage: Sendable {
        let text: String
        let location: SourceLocation
        let textStart: SourceLocation?
        let template: Template?
        let syntaxError: ExpressionSyntaxError?

        init(
            text: String, location: SourceLocation, textStart: SourceLocation?, template: Template?,
            syntaxError: ExpressionSyntaxError?
        ) {
            self.text = text
            self.location = location
            self.textStart = textStart
            self.template = template
            self.syntaxError = syntaxError
        }
    }

    private let storage: Storage

    /// The value after YAML unquoting.
    package var text: String { storage.text }
    /// Where the value starts (its opening quote, for a quoted value).
    package var location: SourceLocation { storage.location }
    /// Where the text itself starts when it maps column for column onto one source line
    /// (plain or quoted without escapes on a single line); nil otherwise.
    package var textStart: SourceLocation? { storage.textStart }
    /// The text compiled as a template (`${{ }}` parsed), or nil when it has a syntax error.
    package var template: Template? { storage.template }
    /// The syntax error that left `template` nil.
    package var syntaxError: ExpressionSyntaxError? { storage.syntaxError }

    /// Creates a scalar text and compiles its template; `textStart` only when offsets in `text`
    /// map onto source columns.
    package init(text: String, location: SourceLocation, textStart: SourceLocation?) {
        let template: Template?
        let syntaxError: ExpressionSyntaxError?
        do {
            template = try Template.parse(text)
            syntaxError = nil
        } catch {
            template = nil
            syntaxError = error
        }
        storage = Storage(
            text: text, location: location, textStart: textStart, template: template, syntaxError: syntaxError)
    }

    /// Creates a scalar text whose template `TemplateMemo` compiled (or failed to).
    init(
        text: String, location: SourceLocation, textStart: SourceLocation?,
        compiled: Result<Template, ExpressionSyntaxError>
    ) {
        let template: Template?
        let syntaxError: ExpressionSyntaxError?
        switch compiled {
        case .success(let compiledTemplate):
            template = compiledTemplate
            syntaxError = nil
        case .failure(let error):
            template = nil
            syntaxError = error
        }
        storage = Storage(
            text: text, location: location, textStart: textStart, template: template, syntaxError: syntaxError)
    }

    /// Equal when every field is, as a struct of the fields would compare.
    package static func == (lhs: ScalarText, rhs: ScalarText) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.text == rhs.text && lhs.location == rhs.location && lhs.textStart == rhs.textStart
                && lhs.template == rhs.template && lhs.syntaxError == rhs.syntaxError)
    }

    /// Hashes every field, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(location)
        hasher.combine(textStart)
        hasher.combine(template)
        hasher.combine(syntaxError)
    }

    /// The source location of the character at `offset` in `text`, or the value's start when
    /// the text does not map column for column onto the source.
    package func location(ofOffset offset: Int) -> SourceLocation {
        guard let textStart else { return location }
        return SourceLocation(file: textStart.file, line: textStart.line, column: textStart.column + offset)
    }
}

/// A name and a value from a mapping such as `headers`, `env` or `query`, in file order.
package struct NamedValue: Sendable, Hashable {
    /// The key.
    package let name: String
    /// Where the key is.
    package let location: SourceLocation
    /// The value (numbers and booleans keep their YAML spelling).
    package let value: ScalarText
    /// For a step's output (`{ value: …, secret: true }`): whether the value, once known, is
    /// masked like a secret in everything the run prints or writes.
    package var secret = false

    /// Creates a named value.
    package init(name: String, location: SourceLocation, value: ScalarText) {
        self.name = name
        self.location = location
        self.value = value
    }
}

/// Any YAML value that may contain `${{ }}` in its strings, such as an HTTP `json` body.
package indirect enum ValueTemplate: Sendable, Hashable {
    /// `null` or `~`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; `float` when written with a point or an exponent (`1.0`), as `Value.number`.
    case number(Double, float: Bool = false)
    /// A string, possibly with expressions.
    case string(ScalarText)
    /// A list.
    case array([ValueTemplate])
    /// A mapping with string keys, in file order.
    case object([Member])

    /// One key and value of an object.
    package struct Member: Sendable, Hashable {
        /// The key.
        package let key: String
        /// The value.
        package let value: ValueTemplate

        /// Creates a member.
        package init(key: String, value: ValueTemplate) {
            self.key = key
            self.value = value
        }
    }

    /// Every string in the value, depth first, for expression checks.
    package var strings: [ScalarText] {
        switch self {
        case .null, .bool, .number: return []
        case .string(let text): return [text]
        case .array(let items): return items.flatMap(\.strings)
        case .object(let members): return members.flatMap(\.value.strings)
        }
    }
}
