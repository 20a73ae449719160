/// A strict RFC 8259 reader over UTF-8 bytes, iterative enough to be total: it never traps on any
/// input, and nesting is capped so hostile input cannot exhaust the stack.
struct JSONReader {
    /// Deeper documents are refused; real API payloads stay far below this.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0

    init(text: String) {
        bytes = Array(text.utf8)
    }

    mutating func readDocument() throws(JSONSyntaxError) -> Value {
        skipWhitespace()
        let value = try readValue(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw error("unexpected content after the JSON value") }
        return value
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func readValue(depth: Int) throws(JSONSyntaxError) -> Value {
        guard depth < JSONReader.maximumDepth else {
            throw error("JSON nests deeper than \(JSONReader.maximumDepth) levels")
        }
        guard let byte = current else { throw error("unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"): return try readObject(depth: depth)
        case UInt8(ascii: "["): return try readArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readKeyword("true", .bool(true))
        case UInt8(ascii: "f"): return try readKeyword("false", .bool(false))
        case UInt8(ascii: "n"): return try readKeyword("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error("unexpected character in JSON")
        }
    }

    private mutating func readKeyword(_ word: String, _ value: Value) throws(JSONSyntaxError) -> Value {
        for expected in word.utf8 {
            guard current == expected else { throw error("invalid literal, expected '\(word)'") }
            position += 1
        }
        return value
    }

    private mutating func readObject(depth: Int) throws(JSONSyntaxError) -> Value {
        position += 1
        var members: [String: Value] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key in JSON object") }
            let key = try readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a JSON object key") }
            position += 1
            skipWhitespace()
            members[key] = try readValue(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: throw error("expected ',' or '}' in JSON object")
            }
        }
    }

    private mutating func readArray(depth: Int) throws(JSONSyntaxError) -> Value {
        position += 1
        var elements: [Value] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: throw error("expected ',' or ']' in JSON array")
            }
        }
    }

    private mutating func readNumber() throws(JSONSyntaxError) -> Value {
        let start = position
        // Written with a fraction or an exponent: a float for `isFloat`, whatever its value.
        var float = false
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, isDigit(first) else { throw error("invalid JSON number") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let digit = current, isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
            float = true
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let digit = current, isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
            float = true
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let number = Double(text) else { throw JSONSyntaxError(message: "invalid JSON number", offset: start) }
        return .number(number, float: float)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { position += 1 }
    }

    private mutating func readString() throws(JSONSyntaxError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        while true {
            guard let byte = current else { throw error("unterminated JSON string") }
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<position], as: UTF8.self).unicodeScalars)
                position += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in JSON string") }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<position], as: UTF8.self).unicodeScalars)
                position += 1
                scalars.append(try readEscape())
                runStart = position
            } else {
                position += 1
            }
        }
    }

    private mutating func readEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape in JSON string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try readHexUnit()
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate in JSON string") }
                position += 2
                let low = try readHexUnit()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in JSON string") }
                let combined = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(combined) else { throw error("invalid escape in JSON string") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else { throw error("unpaired surrogate in JSON string") }
            return scalar
        default:
            throw JSONSyntaxError(message: "invalid escape in JSON string", offset: position - 1)
        }
    }

    private mutating func readHexUnit() throws(JSONSyntaxError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexValue(byte) else {
                throw error("expected four hex digits after '\\u'")
            }
            unit = unit * 16 + digit
            position += 1
        }
        return unit
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
