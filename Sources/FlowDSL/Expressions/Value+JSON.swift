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

    /// Runs of bytes that need no escape are appended whole: appending scalar by scalar was
    /// most of what the run journal spent encoding each step's outputs.
    private static func writeJSONString(_ text: String, into output: inout String) {
        output += "\""
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let escape: String
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0..<0x20:
                    let hex = String(byte, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: continue
                }
                if runStart < index {
                    output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                }
                output += escape
                runStart = index + 1
            }
            if runStart < bytes.count {
                output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart...]), as: UTF8.self)
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
