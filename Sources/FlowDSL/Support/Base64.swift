/// Base64 (RFC 4648) for `base64Encode()`/`base64Decode()` and Basic auth, without Foundation.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in the standard alphabet, padded with `=`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let chunk = input[index..<min(index + 3, input.count)]
            let b0 = chunk[chunk.startIndex]
            let b1 = chunk.count > 1 ? chunk[chunk.startIndex + 1] : 0
            let b2 = chunk.count > 2 ? chunk[chunk.startIndex + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(chunk.count > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(chunk.count > 2 ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Why text is not base64.
    package struct DecodingError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and where.
        package let description: String
    }

    /// The bytes of `text`: the standard or the URL-safe alphabet, `=` padding optional (but only at
    /// the end), ASCII white space ignored (as in wrapped PEM text).
    package static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        var values: [UInt8] = []
        var padding = 0
        for (offset, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
            {
                continue
            }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte) else {
                let what = padding > 0 ? "text after '=' padding" : "a character outside the base64 alphabet"
                throw DecodingError(description: "\(what) at offset \(offset)")
            }
            values.append(value)
        }
        if values.count % 4 == 1 || padding > 2 || (padding > 0 && (values.count + padding) % 4 != 0) {
            throw DecodingError(description: "its length is not that of base64 text (\(values.count) characters)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let group = values[index..<min(index + 4, values.count)]
            let s = Array(group) + [UInt8](repeating: 0, count: 4 - group.count)
            out.append(s[0] << 2 | s[1] >> 4)
            if group.count > 2 { out.append((s[1] & 0x0F) << 4 | s[2] >> 2) }
            if group.count > 3 { out.append((s[2] & 0x03) << 6 | s[3]) }
            index += 4
        }
        return out
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
