/// Replaces every occurrence of a secret's value with `***` in text flow prints or writes.
///
/// Besides the value itself it masks every form a value takes on its way through a workflow and
/// back from a server: percent-encoded with any set of safe characters (URLs, forms, `+` for a
/// space), JSON-escaped (`\"`, `\/`, `\uXXXX`, escaped again inside JSON strings), HTML character
/// references, its base64 encoding, and each line of a multi-line value (see `EncodedSecret`).
/// Where two occurrences overlap (one secret containing another) the whole stretch is masked.
public struct SecretMasker: Sendable {
    /// What replaces a secret.
    public static let mask = "***"

    /// Lines of multi-line values shorter than this are not masked on their own.
    static let minimumLineLength = 3

    private let secrets: [EncodedSecret]
    /// Base64 runs, matched byte for byte.
    private let literals: [[UInt8]]
    /// Which bytes can start an occurrence, to skip the rest quickly.
    private let starts: [Bool]
    /// The most characters one occurrence can take (see `maskedPrefix`).
    private let longestOccurrence: Int

    /// A masker for `values`; empty values are ignored (they would match everywhere).
    public init(values: some Sequence<String>) {
        var forms = Set<String>()
        var literals = Set<String>()
        for value in values where !value.isEmpty {
            forms.insert(value)
            for line in value.split(whereSeparator: \.isNewline) where line.count >= Self.minimumLineLength {
                forms.insert(String(line))
            }
            literals.formUnion(Base64Forms.forms(of: value))
        }
        secrets = forms.sorted().map(EncodedSecret.init)
        self.literals = literals.sorted().map { Array($0.utf8) }
        var starts = [Bool](repeating: false, count: 256)
        for byte in secrets.flatMap(\.firstBytes) + self.literals.compactMap(\.first) { starts[Int(byte)] = true }
        self.starts = starts
        // `\uXXXX\uXXXX` (12 characters) for a 4-byte character is the widest single form.
        longestOccurrence = (secrets.map { $0.byteCount * 12 }.max() ?? 0) + 64
    }

    /// A masker that masks nothing.
    public static let none = SecretMasker(values: [String]())

    /// Whether there is anything to mask.
    public var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every secret replaced by `***`.
    public func callAsFunction(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var text = text
        let masked = text.withUTF8 { mask($0) }
        return masked.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// The first `maxLength` characters of `text`, masked before it is cut so that a secret
    /// crossing the cut is not left half shown.
    public func maskedPrefix(_ text: String, maxLength: Int) -> String {
        guard !secrets.isEmpty else { return String(text.prefix(maxLength)) }
        // An occurrence that starts within the first `maxLength` characters ends within the window.
        let window =
            text.count > maxLength + longestOccurrence
            ? String(text.prefix(maxLength + longestOccurrence)) : text
        return String(self(window).prefix(maxLength))
    }

    /// The masked bytes, or nil when nothing in `bytes` is a secret.
    private func mask(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0
        // The stretch being masked: occurrences that overlap or touch it extend it.
        var maskStart = -1
        var maskEnd = -1
        var position = 0
        while position < bytes.count {
            if starts[Int(bytes[position])], let end = longestEnd(in: bytes, from: position) {
                if position <= maskEnd {
                    maskEnd = max(maskEnd, end)
                } else {
                    if maskStart >= 0 {
                        output.append(contentsOf: bytes[copied..<maskStart])
                        output.append(contentsOf: Self.mask.utf8)
                        copied = maskEnd
                    }
                    maskStart = position
                    maskEnd = end
                }
            }
            position += 1
        }
        guard maskStart >= 0 else { return nil }
        output.append(contentsOf: bytes[copied..<maskStart])
        output.append(contentsOf: Self.mask.utf8)
        output.append(contentsOf: bytes[maskEnd...])
        return output
    }

    /// The end of the longest occurrence of any secret starting at `position`.
    private func longestEnd(in bytes: UnsafeBufferPointer<UInt8>, from position: Int) -> Int? {
        var longest: Int?
        for secret in secrets where secret.canStart(with: bytes[position]) {
            if let end = secret.end(in: bytes, from: position), end > (longest ?? position) { longest = end }
        }
        for literal in literals where position + literal.count <= bytes.count {
            if literal.indices.allSatisfy({ bytes[position + $0] == literal[$0] }),
                position + literal.count > (longest ?? position)
            {
                longest = position + literal.count
            }
        }
        return longest
    }
}
