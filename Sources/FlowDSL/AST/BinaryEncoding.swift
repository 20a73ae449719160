/// How a binary request body is written in the workflow: `body: { base64: TEXT }` or
/// `body: { hex: TEXT }`. The bytes are sent exactly as decoded.
package enum BinaryEncoding: String, Sendable, Hashable, CaseIterable {
    /// RFC 4648 base64, standard or URL-safe alphabet, `=` optional, white space ignored.
    case base64
    /// Two hexadecimal digits per byte, either case; white space and `:` between bytes ignored.
    case hex

    /// Why a text is not what its encoding says, with the offset of the first wrong character.
    package struct DecodingError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and where.
        package let description: String
    }

    /// The bytes `text` stands for.
    package func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        switch self {
        case .base64:
            do throws(Base64.DecodingError) {
                return try Base64.decode(text)
            } catch {
                throw DecodingError(description: "it is not base64: \(error.description)")
            }
        case .hex:
            return try Self.decodeHex(text)
        }
    }

    private static func decodeHex(_ text: String) throws(DecodingError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for (offset, byte) in text.utf8.enumerated() {
            if high == nil,
                [
                    UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"),
                    UInt8(ascii: ":"),
                ].contains(byte)
            {
                continue
            }
            guard let value = hexDigitValue(byte) else {
                throw DecodingError(
                    description: high == nil
                        ? "it is not hex: a character that is not a hex digit at offset \(offset)"
                        : "it is not hex: a byte is cut in half at offset \(offset)")
            }
            if let first = high {
                out.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else { throw DecodingError(description: "it is not hex: an odd number of digits") }
        return out
    }

}
