/// Reads typed values out of YAML nodes, recording a located diagnostic for every value of the
/// wrong shape instead of stopping, so one pass reports every problem of the file.
struct NodeReader {
    let file: String
    var diagnostics: [Diagnostic] = []
    /// Fields written as `${{ }}` where a fixed value is needed, for the run to compute.
    var settings: [SettingExpression] = []
    /// The templates compiled so far in this file, by text (shared by copies of the reader).
    let templates = TemplateMemo()

    /// One key of a mapping with its value, in file order: the mapping's own pairs.
    typealias Entry = Node.Pair

    init(file: String) {
        self.file = file
    }

    // MARK: Locations and descriptions

    func location(_ node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// How many columns a caret under `node` spans: the whole scalar on one line, else 1.
    func width(_ node: Node) -> Int {
        guard case .scalar(let scalar) = node, !scalar.string.utf8.contains(UInt8(ascii: "\n")) else { return 1 }
        switch scalar.style {
        case .singleQuoted, .doubleQuoted: return scalar.string.unicodeScalars.count + 2
        case .plain, .any: return scalar.string.unicodeScalars.count
        default: return 1
        }
    }

    /// What a node is, for messages: "a mapping", "a list", "a string", ...
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar):
            guard scalar.style == .plain || scalar.style == .any else { return "a string" }
            switch PlainScalar.classify(scalar.string) {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            }
        }
    }

    mutating func error(_ message: String, at node: Node, hint: String? = nil) {
        diagnostics.append(.error(message, at: location(node), length: width(node), hint: hint))
    }

    mutating func warning(_ message: String, at node: Node, hint: String? = nil) {
        diagnostics.append(.warning(message, at: location(node), length: width(node), hint: hint))
    }

    mutating func typeError(_ what: String, expected: String, at node: Node, hint: String? = nil) {
        error("\(what) must be \(expected), not \(describe(node))", at: node, hint: hint)
    }

    // MARK: Shapes

    /// A mapping's entries, in file order.
    typealias Entries = [Entry]

    /// The entries of a mapping with string keys; a type error and nil when `node` is not one.
    mutating func mapping(_ node: Node, _ what: @autoclosure () -> String) -> Entries? {
        guard case .mapping(let mapping) = node else {
            typeError(what(), expected: "a mapping", at: node)
            return nil
        }
        // Every key a scalar: the composer's pairs are the entries, shared, not copied (issue 32).
        if mapping.scalarKeys { return mapping.entries }
        var entries: [Entry] = []
        entries.reserveCapacity(mapping.count)
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                error("keys in \(what()) must be plain names, not \(describe(key))", at: key)
                continue
            }
            entries.append(Entry(keyNode: .scalar(scalar), value: value))
        }
        return entries
    }

    /// Reports every key of `entries` that is not in `allowed`, with the closest allowed one.
    mutating func rejectUnknownKeys(_ entries: Entries, allowed: [String], in what: String) {
        for entry in entries where !allowed.contains(entry.key) {
            unknownKey(entry, allowed: allowed, in: what)
        }
    }

    /// The same for a long list read once per step, looked up in `known` (the same keys, found by
    /// length: issue 19) rather than compared key by key.
    mutating func rejectUnknownKeys(
        _ entries: Entries, allowed: [String], known: KeySet, in what: @autoclosure () -> String
    ) {
        for entry in entries where !known.contains(entry.key) {
            unknownKey(entry, allowed: allowed, in: what())
        }
    }

    private mutating func unknownKey(_ entry: Entry, allowed: [String], in what: String) {
        let hint = Suggestion.closest(to: entry.key, in: allowed).map { "did you mean '\($0)'?" }
        error("unknown key '\(Echo.text(entry.key))' in \(what)", at: entry.keyNode, hint: hint)
    }

    /// A list's items, or the single value as a one-item list (the short form).
    func items(_ node: Node) -> [Node] {
        if case .sequence(let sequence) = node { return sequence.nodes }
        return [node]
    }

    // MARK: Scalars

    /// A scalar's text with its location; numbers and booleans keep their YAML spelling.
    mutating func text(_ node: Node, _ what: @autoclosure () -> String) -> ScalarText? {
        guard case .scalar(let scalar) = node else {
            typeError(what(), expected: "text", at: node)
            return nil
        }
        // An empty or `~` value is almost always a forgotten value; quote "" to mean empty text.
        if scalar.style == .plain, case .null = PlainScalar.classify(scalar.string) {
            typeError(what(), expected: "text", at: node, hint: "write \"\" for empty text")
            return nil
        }
        return scalarText(scalar, node: node)
    }

    func scalarText(_ scalar: Node.Scalar, node: Node) -> ScalarText {
        let start = location(node)
        var textStart: SourceLocation?
        // One pass over the bytes for the newline and the quotes that stop offsets from mapping
        // onto columns (`String.contains` with a string argument goes through Foundation here).
        var newline = false
        var singleQuote = false
        var escaped = false
        // Over the contiguous bytes rather than the UTF-8 view's iterator (issue 19).
        var string = scalar.string
        string.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\n"): newline = true
                case UInt8(ascii: "'"): singleQuote = true
                case UInt8(ascii: "\\"), UInt8(ascii: "\""): escaped = true
                default: continue
                }
            }
        }
        if !newline {
            switch scalar.style {
            case .plain, .any:
                textStart = start
            case .singleQuoted where !singleQuote:
                textStart = SourceLocation(file: file, line: start.line, column: start.column + 1)
            case .doubleQuoted where !escaped:
                textStart = SourceLocation(file: file, line: start.line, column: start.column + 1)
            default:
                textStart = nil
            }
        }
        return ScalarText(
            text: scalar.string, location: start, textStart: textStart, compiled: templates.compile(scalar.string))
    }

    /// A string value: any scalar except null, collections refused.
    mutating func string(_ node: Node, _ what: @autoclosure () -> String) -> String? {
        // The checks of `text`, without the `ScalarText` (its location and compiled template)
        // that only the text is taken from: a step's `needs` read 20,000 of them (issue 32).
        if case .scalar(let scalar) = node {
            guard scalar.style == .plain, case .null = PlainScalar.classify(scalar.string) else { return scalar.string }
        }
        return text(node, what())?.text
    }

    mutating func bool(_ node: Node, _ what: String) -> Bool? {
        if case .scalar(let scalar) = node, scalar.style == .plain,
            case .bool(let value) = PlainScalar.classify(scalar.string)
        {
            return value
        }
        typeError(what, expected: "true or false", at: node)
        return nil
    }

    /// When `node` is a scalar with `${{ }}` in it, records it as the value of `field` (computed
    /// when the run starts) and returns true; the caller then keeps the field's default.
    mutating func deferred(
        _ node: Node, _ key: String, as kind: SettingExpression.Kind, to field: SettingExpression.Field
    )
        -> Bool
    {
        guard case .scalar(let scalar) = node, scalar.string.utf8.contains(UInt8(ascii: "$")) else { return false }
        let text = scalarText(scalar, node: node)
        guard text.syntaxError != nil || text.template?.isLiteral == false else { return false }
        settings.append(SettingExpression(field: field, kind: kind, text: text, key: key))
        return true
    }

    mutating func integer(_ node: Node, _ what: String, atLeast minimum: Int) -> Int? {
        if case .scalar(let scalar) = node, scalar.style == .plain, let value = Int(scalar.string) {
            guard value >= minimum else {
                error("\(what) must be at least \(minimum), not \(value)", at: node)
                return nil
            }
            return value
        }
        typeError(what, expected: "a whole number", at: node)
        return nil
    }

    mutating func duration(_ node: Node, _ what: String) -> Duration? {
        if case .scalar(let scalar) = node, let duration = DurationSyntax.parse(scalar.string) {
            return duration
        }
        if case .scalar(let scalar) = node {
            error(
                "\(what) '\(Echo.text(scalar.string))' is not a duration",
                at: node,
                hint: "write a duration like 250ms, 10s, 1m30s or 1h, or a number of seconds"
            )
        } else {
            typeError(what, expected: "a duration", at: node, hint: "write a duration like 250ms, 10s or 1m30s")
        }
        return nil
    }

    mutating func size(_ node: Node, _ what: String) -> Int? {
        if case .scalar(let scalar) = node, let size = SizeSyntax.parse(scalar.string) {
            guard size > 0 else {
                error("\(what) must be more than 0 bytes", at: node)
                return nil
            }
            return size
        }
        let hint = "write a size like 100KiB or 5MB (units B, KB, MB, GB, KiB, MiB, GiB), or a number of bytes"
        if case .scalar(let scalar) = node {
            error("\(what) '\(Echo.text(scalar.string))' is not a size", at: node, hint: hint)
        } else {
            typeError(what, expected: "a size", at: node, hint: hint)
        }
        return nil
    }

    /// One of `cases` by raw value, with "did you mean" for a near miss.
    mutating func choice<T: RawRepresentable & CaseIterable>(
        _ node: Node,
        _ what: String,
        as type: T.Type
    ) -> T? where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard case .scalar(let scalar) = node else {
            typeError(what, expected: "one of \(names.joined(separator: ", "))", at: node)
            return nil
        }
        if let value = T(rawValue: scalar.string) { return value }
        let hint =
            Suggestion.closest(to: scalar.string, in: names).map { "did you mean '\($0)'?" }
            ?? "use one of \(names.joined(separator: ", "))"
        error("unknown \(what) '\(Echo.text(scalar.string))'", at: node, hint: hint)
        return nil
    }

    /// A mapping of names to scalar values (`headers`, `env`, `query`, `form`).
    mutating func namedValues(_ node: Node, _ what: String) -> [NamedValue] {
        guard let entries = mapping(node, what) else { return [] }
        if entries.isEmpty { return [] }
        return entries.compactMap { entry in
            guard let value = text(entry.value, "'\(Echo.text(entry.key))' in \(what)") else { return nil }
            return NamedValue(name: entry.key, location: location(entry.keyNode), value: value)
        }
    }

    /// A mapping of names to texts where a list value repeats the name once per item, in order
    /// (`tag: [a, b]` → two `tag`s): `query`, `headers` and `form` of a request.
    mutating func repeatableNamedValues(_ node: Node, _ what: String) -> [NamedValue] {
        guard let entries = mapping(node, what) else { return [] }
        var values: [NamedValue] = []
        for entry in entries {
            let place = location(entry.keyNode)
            let entryWhat = "'\(Echo.text(entry.key))' in \(what)"
            var items = [entry.value]
            var itemWhat = entryWhat
            if case .sequence(let sequence) = entry.value {
                items = Array(sequence)
                itemWhat = "an item of \(entryWhat)"
            }
            for item in items {
                guard let value = text(item, itemWhat) else { continue }
                values.append(NamedValue(name: entry.key, location: place, value: value))
            }
        }
        return values
    }

    /// Any YAML value as a template (the `json` body).
    mutating func valueTemplate(_ node: Node) -> ValueTemplate {
        switch node {
        case .sequence(let sequence):
            return .array(sequence.map { valueTemplate($0) })
        case .mapping(let mapping):
            return .object(
                mapping.map { key, value in
                    ValueTemplate.Member(key: key.scalar?.string ?? "", value: valueTemplate(value))
                })
        case .scalar(let scalar):
            guard scalar.style == .plain else { return .string(scalarText(scalar, node: node)) }
            switch PlainScalar.classify(scalar.string) {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .number(let value, let float): return .number(value, float: float)
            case .string: return .string(scalarText(scalar, node: node))
            }
        }
    }
}

/// How YAML reads an unquoted scalar (the core schema).
enum PlainScalar {
    case null
    case bool(Bool)
    /// A number; `float` when written with a point or an exponent (`1.0`, `1e3`).
    case number(Double, float: Bool)
    case string

    static func classify(_ text: String) -> PlainScalar {
        // Starting like no null or boolean word and no number: text, without comparing it to each word.
        if let byte = text.utf8.first, byte < 0x80, !startsNumber(byte), !startsWord(byte) { return .string }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default:
            if let first = text.first, first.isNumber || first == "-" || first == "+" || first == ".",
                let number = Double(text), number.isFinite
            {
                return .number(number, float: isFloatSpelling(text))
            }
            return .string
        }
    }

    /// Whether a number's text has a point or an exponent (`1.0`, `1e3`, `0x1p3`); in hexadecimal
    /// `e` is a digit, so only `p` is an exponent there.
    private static func isFloatSpelling(_ text: String) -> Bool {
        let unsigned = text.drop { $0 == "+" || $0 == "-" }
        if unsigned.hasPrefix("0x") || unsigned.hasPrefix("0X") {
            return unsigned.contains { $0 == "." || $0 == "p" || $0 == "P" }
        }
        return unsigned.contains { $0 == "." || $0 == "e" || $0 == "E" }
    }

    /// How `~`, `null`, `true` and `false` start, in each of their spellings.
    private static func startsWord(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    /// An ASCII digit, sign or point: how an ASCII number starts.
    private static func startsNumber(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }
}
