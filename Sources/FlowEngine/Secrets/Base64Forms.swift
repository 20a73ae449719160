import Foundation

/// The runs of a value's base64 encoding that are the same wherever the value sits in the encoded
/// data: flow base64-encodes tus `Upload-Metadata` values, and a secret may be part of a Basic
/// `Authorization` header (`user:password`), so the value can start at any byte of a 3-byte group.
enum Base64Forms {
    /// Shorter runs are not masked: they would match unrelated base64 text (digests, ids).
    static let minimumLength = 6

    /// The stable runs for the value starting at each of the three byte offsets, in the standard
    /// and the URL-safe alphabet.
    static func forms(of value: String) -> Set<String> {
        let bytes = Array(value.utf8)
        var forms = Set<String>()
        for offset in 0..<3 {
            let encoded = Array(Data(repeating: 0, count: offset) + Data(bytes)).base64Characters
            // Character i holds bits 6i..<6i+6; the value holds bits 8·offset..<8·(offset + count).
            let first = (8 * offset + 5) / 6
            let end = 8 * (offset + bytes.count) / 6
            guard end - first >= minimumLength else { continue }
            let stable = String(encoded[first..<end])
            forms.insert(stable)
            forms.insert(String(stable.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
        }
        return forms
    }
}

extension Array where Element == UInt8 {
    fileprivate var base64Characters: [Character] { [Character](Data(self).base64EncodedString()) }
}
