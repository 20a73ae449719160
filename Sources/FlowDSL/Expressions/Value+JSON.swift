extension Value {
    /// Compact JSON with object keys sorted, so equal values always print the same text.
    ///
    /// Numbers that JSON cannot represent (NaN, infinities) print as `null`.
    package var jsonText: String {
        // Bytes, turned into a `String` once: appending to a `String` piece by piece cost about
        // 60 ns an append, which the run journal paid for every step's and item's outputs.
        var output: [UInt8] = []
        output.reserveCapacity(64)
        Value.writeJSON(self, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `jsonText`'s bytes to `output`, for writers that build a larger text around values
    /// without making a `String` of each.
    package func appendJSON(to output: inout [UInt8]) {
        Value.writeJSON(self, into: &output)
    }

    /// Parses JSON text (RFC 8259) into a value.
    ///
    /// Throws `JSONSyntaxError` for malformed text, trailing content, or nesting deeper than
    /// `JSONReader.maximumDepth` levels.
    package init(jsonText: String) throws {
        var reader = JSONReader(text: jsonText)
        self = try reader.readDocument()
    }

    private static func writeJSON(_ value: Value, into output: inout [UInt8]) {
        switch value {
        case .null:
            output += "null".utf8
        case .bool(let flag):
            output += (flag ? "true" : "false").utf8
        case .number(let number, let float):
            guard number.isFinite else {
                output += "null".utf8
                break
            }
            output += format(number: number).utf8
            // A float with a whole value keeps its point, so the JSON reads back as a float.
            if float, number == number.rounded(), abs(number) <= 9_007_199_254_740_992 { output += ".0".utf8 }
        case .string(let text):
            JSONWriter.appendString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeJSON(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                writeJSON(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}

/// Why a text is not valid JSON, with the byte offset (UTF-8) where reading stopped.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package let message: String
    /// The UTF-8 byte offset in the text where the problem was found.
    package let offset: Int

    /// Creates an error at a UTF-8 byte offset.
    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message with its offset, as `fromJSON` reports it.
    package var description: String { "\(message) at offset \(offset)" }
}
