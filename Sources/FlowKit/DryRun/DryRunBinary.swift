/// How `--dry-run` shows a binary body (`body: { base64 | hex: … }`): its size and its bytes in
/// hex, the first 32 of a longer one, so what is sent can be checked byte by byte.
enum DryRunBinary {
    /// Bytes shown in full up to this many.
    static let shown = 32

    /// `5 bytes: 00 01 fe ff 0a`, or `1000 bytes, starting 00 01 … (32 of them)`.
    static func describe(_ bytes: [UInt8]) -> String {
        let hex = bytes.prefix(shown).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
        let count = "\(bytes.count) byte\(bytes.count == 1 ? "" : "s")"
        if bytes.isEmpty { return count }
        return bytes.count <= shown ? "\(count): \(hex)" : "\(count), starting \(hex) …"
    }
}
