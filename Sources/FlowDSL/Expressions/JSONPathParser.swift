/// Reads the text of an RFC 9535 JSONPath query into a `JSONPath.Query`, checking the grammar
/// (RFC 9535 Appendix A) and the well-typedness of filter expressions (§2.4.3) as it goes, so an
/// invalid query is refused before it meets any document.
struct JSONPathParser {
    private typealias SyntaxError = JSONPath.SyntaxError
    private typealias Query = JSONPath.Query
    private typealias Filter = JSONPath.Filter

    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// How deep parentheses, `!`, function calls and filters nest here; capped so that a hostile
    /// path cannot exhaust the stack of the thread that parses or evaluates it.
    private var depth = 0
    static let maximumDepth = 64

    /// I-JSON's exact integers (RFC 7493): the range of indexes and slice bounds.
    private static let largestInteger = 9_007_199_254_740_991

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// A whole query: `$` then segments, nothing before or after (not even blanks).
    mutating func parseQuery() throws(JSONPath.SyntaxError) -> JSONPath.Query {
        guard current == "$" else { throw SyntaxError(message: "a path starts with '$', as in '$.items[0].id'") }
        position += 1
        let segments = try parseSegments()
        if let extra = current { throw error("unexpected '\(Self.describe(extra))'") }
        return Query(isAbsolute: true, segments: segments)
    }

    // MARK: - Reading characters

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: "\(message) at character \(position + 1)")
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
    }

    private static func isBlank(_ scalar: Unicode.Scalar?) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return ("0"..."9").contains(scalar)
    }

    private static func isNameFirst(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        // Swift scalars are never surrogates, so every scalar from 0x80 up is allowed.
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    private mutating func skipBlanks() {
        while Self.isBlank(current) { position += 1 }
    }

    /// Consumes `text` when it comes next.
    private mutating func consume(_ text: String) -> Bool {
        var offset = 0
        for scalar in text.unicodeScalars {
            guard peek(offset) == scalar else { return false }
            offset += 1
        }
        position += offset
        return true
    }

    private mutating func expect(_ text: String, _ what: String) throws(SyntaxError) {
        guard consume(text) else {
            throw error("expected '\(text)' \(what), found \(current.map { "'\(Self.describe($0))'" } ?? "the end")")
        }
    }

    // MARK: - Segments and selectors

    /// Segments, each after optional blanks; stops (leaving the blanks) at anything else.
    private mutating func parseSegments() throws(SyntaxError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        while true {
            let start = position
            skipBlanks()
            if current == "[" {
                segments.append(JSONPath.Segment(isDescendant: false, selectors: try parseBracketed()))
            } else if current == "." {
                position += 1
                let isDescendant = consume(".")
                if isDescendant && current == "[" {
                    segments.append(JSONPath.Segment(isDescendant: true, selectors: try parseBracketed()))
                } else if consume("*") {
                    segments.append(JSONPath.Segment(isDescendant: isDescendant, selectors: [.wildcard]))
                } else if Self.isNameFirst(current) {
                    let name = parseMemberName()
                    segments.append(JSONPath.Segment(isDescendant: isDescendant, selectors: [.name(name)]))
                } else {
                    let after = isDescendant ? "'..'" : "'.'"
                    throw error(
                        "expected a name\(isDescendant ? ", '['" : "") or '*' right after \(after) (use ['name'] for other characters)"
                    )
                }
            } else {
                position = start
                return segments
            }
        }
    }

    /// A shorthand name. Besides RFC 9535's characters it may hold `-` after its first character
    /// (`$.profile-id`), as flow's own property access does and as earlier flow paths did: no valid
    /// RFC query has a `-` there, so none changes meaning.
    private mutating func parseMemberName() -> String {
        var name = String.UnicodeScalarView()
        while let scalar = current, Self.isNameFirst(scalar) || Self.isDigit(scalar) || (scalar == "-" && !name.isEmpty)
        {
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    /// `[` selector, selector… `]`.
    private mutating func parseBracketed() throws(SyntaxError) -> [JSONPath.Selector] {
        position += 1
        var selectors: [JSONPath.Selector] = []
        repeat {
            skipBlanks()
            selectors.append(try parseSelector())
            skipBlanks()
        } while consume(",")
        try expect("]", "to close '['")
        return selectors
    }

    private mutating func parseSelector() throws(SyntaxError) -> JSONPath.Selector {
        switch current {
        case "'", "\"": return .name(try parseString())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            return .filter(try asFilter(try parseOr()))
        case ":", "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9":
            let start = try parseOptionalInteger()
            skipBlanks()
            guard consume(":") else {
                guard let start else { throw error("expected an index") }
                return .index(start)
            }
            skipBlanks()
            let end = try parseOptionalInteger()
            skipBlanks()
            var step: Int?
            if consume(":") {
                skipBlanks()
                step = try parseOptionalInteger()
            }
            return .slice(start: start, end: end, step: step)
        case nil: throw error("expected a selector")
        case let scalar?:
            throw error(
                "'\(Self.describe(scalar))' does not start a selector (a quoted name, '*', an index, a slice or '?' filter)"
            )
        }
    }

    /// An integer (`0`, or digits not starting with 0, optionally negative) within I-JSON's exact
    /// range, or `nil` when none comes next.
    private mutating func parseOptionalInteger() throws(SyntaxError) -> Int? {
        guard current == "-" || Self.isDigit(current) else { return nil }
        let negative = consume("-")
        guard Self.isDigit(current) else { throw error("expected a digit after '-'") }
        if current == "0" && (negative || Self.isDigit(peek(1))) {
            throw error(negative ? "'-0' is not an integer" : "an integer does not start with 0")
        }
        var magnitude = 0
        while Self.isDigit(current), let scalar = current {
            magnitude = magnitude * 10 + Int(scalar.value - 0x30)
            position += 1
            guard magnitude <= Self.largestInteger else {
                throw error("an integer beyond ±\(Self.largestInteger) (I-JSON's exact range)")
            }
        }
        return negative ? -magnitude : magnitude
    }

    /// A string literal in single or double quotes, with JSON's escapes (RFC 9535 §2.3.1.1).
    private mutating func parseString() throws(SyntaxError) -> String {
        guard let quote = current else { throw error("expected a string") }
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = current else { throw error("a string without its closing \(quote)") }
            position += 1
            if scalar == quote { return String(text) }
            if scalar.value < 0x20 {
                position -= 1
                throw error("a control character in a string must be escaped")
            }
            guard scalar == "\\" else {
                text.append(scalar)
                continue
            }
            guard let escaped = current else { throw error("a string without its closing \(quote)") }
            position += 1
            switch escaped {
            case "b": text.append("\u{8}")
            case "f": text.append("\u{C}")
            case "n": text.append("\n")
            case "r": text.append("\r")
            case "t": text.append("\t")
            case "/", "\\": text.append(escaped)
            case quote: text.append(escaped)
            case "u": text.append(try parseUnicodeEscape())
            default:
                position -= 1
                throw error("'\\\(Self.describe(escaped))' is not an escape in a \(quote)-quoted string")
            }
        }
    }

    /// The four hex digits after `\u`, and for a high surrogate the `\uXXXX` low one after it.
    private mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
        let unit = try parseHexUnit()
        if (0xDC00..<0xE000).contains(unit) { throw error("a low surrogate without a high one before it") }
        guard (0xD800..<0xDC00).contains(unit) else {
            guard let scalar = Unicode.Scalar(unit) else { throw error("not a Unicode scalar") }
            return scalar
        }
        guard consume("\\u") else { throw error("a high surrogate must be followed by an escaped low surrogate") }
        let low = try parseHexUnit()
        guard (0xDC00..<0xE000).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        else { throw error("a high surrogate must be followed by an escaped low surrogate") }
        return scalar
    }

    private mutating func parseHexUnit() throws(SyntaxError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = current, let digit = Int(String(scalar), radix: 16) else {
                throw error("expected 4 hex digits after '\\u'")
            }
            unit = unit * 16 + UInt32(digit)
            position += 1
        }
        return unit
    }

    // MARK: - Filter expressions

    /// What a part of a filter expression is before it meets its context: a filter needs a
    /// logical expression, a comparison comparables, a function argument its parameter's type.
    private enum Term {
        case literal(Value)
        case query(Query)
        case function(JSONPath.FunctionCall)
        case logical(Filter)
    }

    private mutating func parseOr() throws(SyntaxError) -> Term {
        var terms = [try parseAnd()]
        while true {
            let start = position
            skipBlanks()
            guard consume("||") else {
                position = start
                break
            }
            skipBlanks()
            terms.append(try parseAnd())
        }
        guard terms.count > 1 else { return terms[0] }
        var filters: [Filter] = []
        for term in terms { filters.append(try asFilter(term)) }
        return .logical(.or(filters))
    }

    private mutating func parseAnd() throws(SyntaxError) -> Term {
        var terms = [try parseComparison()]
        while true {
            let start = position
            skipBlanks()
            guard consume("&&") else {
                position = start
                break
            }
            skipBlanks()
            terms.append(try parseComparison())
        }
        guard terms.count > 1 else { return terms[0] }
        var filters: [Filter] = []
        for term in terms { filters.append(try asFilter(term)) }
        return .logical(.and(filters))
    }

    private mutating func parseComparison() throws(SyntaxError) -> Term {
        let left = try parsePrimary()
        let start = position
        skipBlanks()
        guard let comparison = JSONPath.ComparisonOperator.allCases.first(where: { consume($0.rawValue) }) else {
            position = start
            return left
        }
        skipBlanks()
        let right = try parsePrimary()
        return .logical(.comparison(try asComparable(left), comparison, try asComparable(right)))
    }

    private mutating func parsePrimary() throws(SyntaxError) -> Term {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw error("the expression nests deeper than \(Self.maximumDepth) levels")
        }
        switch current {
        case "!":
            position += 1
            skipBlanks()
            guard current == "(" || current == "@" || current == "$" || ("a"..."z").contains(current ?? " ") else {
                throw error("'!' goes before a query, a function or '('")
            }
            let operand = try parsePrimary()
            if case .literal = operand { throw error("'!' goes before a query, a function or '('") }
            return .logical(.not(try asFilter(operand)))
        case "(":
            position += 1
            skipBlanks()
            let inner = try asFilter(try parseOr())
            skipBlanks()
            try expect(")", "to close '('")
            return .logical(inner)
        case "@", "$":
            let isAbsolute = current == "$"
            position += 1
            return .query(Query(isAbsolute: isAbsolute, segments: try parseSegments()))
        case "'", "\"":
            return .literal(.string(try parseString()))
        case "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9":
            return .literal(.number(try parseNumber()))
        case let scalar? where ("a"..."z").contains(scalar):
            let start = position
            var name = ""
            while let scalar = current,
                ("a"..."z").contains(scalar) || Self.isDigit(scalar) || scalar == "_"
            {
                name.unicodeScalars.append(scalar)
                position += 1
            }
            if current == "(" { return .function(try parseFunctionCall(name, at: start)) }
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                position = start
                throw error("'\(name)' is neither a literal (true, false, null) nor a function call")
            }
        case nil:
            throw error("expected a query, a literal, a function or '('")
        case let scalar?:
            throw error("'\(Self.describe(scalar))' does not start a query, a literal, a function or '('")
        }
    }

    /// A number literal as JSON writes it (`-0` allowed, `E` as well as `e`).
    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = position
        _ = consume("-")
        guard Self.isDigit(current) else { throw error("expected a digit") }
        if consume("0") {
            if Self.isDigit(current) { throw error("a number does not start with 0") }
        } else {
            while Self.isDigit(current) { position += 1 }
        }
        if consume(".") {
            guard Self.isDigit(current) else { throw error("expected a digit after '.'") }
            while Self.isDigit(current) { position += 1 }
        }
        if consume("e") || consume("E") {
            if !consume("+") { _ = consume("-") }
            guard Self.isDigit(current) else { throw error("expected a digit in the exponent") }
            while Self.isDigit(current) { position += 1 }
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<position])
        guard let number = Double(String(text)) else { throw error("not a number") }
        return number
    }

    private mutating func parseFunctionCall(_ name: String, at start: Int) throws(SyntaxError) -> JSONPath.FunctionCall
    {
        guard let function = JSONPath.Function(rawValue: name) else {
            position = start
            throw error("unknown function '\(name)()' (there are length, count, match, search and value)")
        }
        position += 1
        skipBlanks()
        var terms: [Term] = []
        if current != ")" {
            repeat {
                skipBlanks()
                terms.append(try parseOr())
                skipBlanks()
            } while consume(",")
        }
        try expect(")", "to close \(name)(")
        let parameters = function.parameters
        guard terms.count == parameters.count else {
            position = start
            throw error(
                "\(name)() takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), not \(terms.count)")
        }
        // Errors in the arguments' types point at the function's name.
        let end = position
        position = start
        var arguments: [JSONPath.Argument] = []
        for (index, (term, parameter)) in zip(terms, parameters).enumerated() {
            let place = "argument \(index + 1) of \(name)()"
            switch parameter {
            case .value:
                arguments.append(.value(try asComparable(term, place)))
            case .logical:
                arguments.append(.logical(try asFilter(term)))
            case .nodes:
                guard case .query(let query) = term else {
                    throw error("\(place) must be a query (\(name)() takes a node list)")
                }
                arguments.append(.nodes(query))
            }
        }
        position = end
        return JSONPath.FunctionCall(function: function, arguments: arguments)
    }

    // MARK: - Well-typedness (RFC 9535 §2.4.3)

    /// A term where a logical expression belongs: a query is an existence test, a function must
    /// give a logical value or a node list.
    private func asFilter(_ term: Term) throws(SyntaxError) -> Filter {
        switch term {
        case .logical(let filter): return filter
        case .query(let query): return .exists(query)
        case .function(let call):
            guard call.function.result != .value else {
                throw error(
                    "\(call.function.rawValue)() gives a value, which must be compared (as in \(call.function.rawValue)(…) > 1)"
                )
            }
            return .test(call)
        case .literal:
            throw error("a literal must be compared (as in @.x == true), not used as a test")
        }
    }

    /// A term where a single value belongs: a literal, a singular query or a function giving a
    /// value.
    private func asComparable(_ term: Term, _ place: String = "a comparison") throws(SyntaxError) -> JSONPath.Comparable
    {
        switch term {
        case .literal(let value): return .literal(value)
        case .query(let query):
            guard query.isSingular else {
                throw error("\(place) takes a single value: a query there must be singular (names and indexes only)")
            }
            return .query(query)
        case .function(let call):
            guard call.function.result == .value else {
                throw error("\(place) takes a value, but \(call.function.rawValue)() gives a logical result")
            }
            return .function(call)
        case .logical:
            throw error("\(place) takes a value, not a logical expression")
        }
    }
}
