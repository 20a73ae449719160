extension Value {
    /// Compact JSON with object keys sorted, so equal values always print the same text.
    ///
    /// Numbers that JSON cannot represent (NaN, infinities) print as `null`.
    public var jsonText: String {
        var output = ""
        Value.writeJSON(self, into: &output)
        return output
    }

    /// Parses JSON text (RFC 8259) into a value.
    ///
    /// Throws `JSONSyntaxError` for malformed text, trailing content, or nesting deeper than
    /// `JSONReader.maximumDepth` levels.
    public init(jsonText: String) throws {
        var reader = JSONReader(text: jsonText)
        self = try reader.readDocument()
    }

    private static func writeJSON(_ value: Value, into output: inout String) {
        switch value {
        case .null:
            output += "null"
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .number(let number):
            output += number.isFinite ? format(number: number) : "null"
        case .string(let text):
            writeJSONString(text, into: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                writeJSON(element, into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                writeJSONString(key, into: &output)
                output += ":"
                writeJSON(members[key] ?? .null, into: &output)
            }
            output += "}"
        }
    }

    private static func writeJSONString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

/// Why a text is not valid JSON, with the byte offset (UTF-8) where reading stopped.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The UTF-8 byte offset in the text where the problem was found.
    public let offset: Int

    /// Creates an error at a UTF-8 byte offset.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message with its offset, as `fromJSON` reports it.
    public var description: String { "\(message) at offset \(offset)" }
}
