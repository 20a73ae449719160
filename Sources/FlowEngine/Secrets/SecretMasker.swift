import FlowDSL
import FlowTasks

/// Replaces every occurrence of a secret's value with `***` in text flow prints or writes.
///
/// Besides the value itself it masks every form a value takes on its way through a workflow and
/// back from a server: percent-encoded with any set of safe characters (URLs, forms, `+` for a
/// space), JSON-escaped (`\"`, `\/`, `\uXXXX`, escaped again inside JSON strings), HTML character
/// references, its base64 encoding, and each line of a multi-line value (see `EncodedSecret`).
/// Where two occurrences overlap (one secret containing another) the whole stretch is masked.
///
/// Copies share one set of values: `add(_:)` (a value a step read at run time and marked secret)
/// reaches every copy at once — the terminal's, the reports', the journal's — from then on.
package struct SecretMasker: Sendable {
    /// What replaces a secret.
    package static let mask = "***"

    /// Lines of multi-line values shorter than this are not masked on their own.
    static let minimumLineLength = 3

    /// The values and what is compiled from them, swapped whole by `add(_:)`.
    private let shared: LockedBox<Compiled>

    /// A masker for `values`; empty values are ignored (they would match everywhere).
    package init(values: some Sequence<String>) {
        shared = LockedBox(Compiled(values: Array(values)))
    }

    /// A masker that masks nothing (a new one each time, so that adding to it reaches no one else).
    package static var none: SecretMasker { SecretMasker(values: [String]()) }

    /// Whether there is anything to mask.
    package var isEmpty: Bool { compiled.isEmpty }

    /// Masks `value` too, in this masker and every copy of it, from now on: a value read at run
    /// time (an output marked `secret`). Thread-safe; an empty or known value changes nothing.
    package func add(_ value: String) {
        guard !value.isEmpty else { return }
        shared.withLock { compiled in
            guard !compiled.values.contains(value) else { return }
            compiled = Compiled(values: compiled.values + [value])
        }
    }

    private var compiled: Compiled { shared.withLock { $0 } }

    /// `text` with every secret replaced by `***`.
    package func callAsFunction(_ text: String) -> String { compiled.masked(text) }

    /// The first `maxLength` characters of `text`, masked before it is cut so that a secret
    /// crossing the cut is not left half shown.
    package func maskedPrefix(_ text: String, maxLength: Int) -> String {
        compiled.maskedPrefix(text, maxLength: maxLength)
    }
}

/// The matching tables of a set of values: immutable, so a masking pass reads one snapshot
/// without holding the lock.
private struct Compiled: Sendable {
    /// The values as given.
    let values: [String]
    private let secrets: [EncodedSecret]
    /// Base64 runs, matched byte for byte.
    private let literals: [[UInt8]]
    /// The first bytes of the values and base64 runs as they are (`%XX` is decoded before the
    /// lookup), to skip every other position quickly.
    private let starts: [Bool]
    /// Whether a value starts with a space, which a form spells `+`.
    private let startsWithSpace: Bool
    /// The most characters one occurrence can take (see `maskedPrefix`).
    private let longestOccurrence: Int

    init(values: [String]) {
        self.values = values
        var forms = Set<String>()
        var literals = Set<String>()
        for value in values where !value.isEmpty {
            forms.insert(value)
            for line in value.split(whereSeparator: \.isNewline) where line.count >= SecretMasker.minimumLineLength {
                forms.insert(String(line))
            }
            literals.formUnion(Base64Forms.forms(of: value))
        }
        secrets = forms.sorted().map(EncodedSecret.init)
        self.literals = literals.sorted().map { Array($0.utf8) }
        var starts = [Bool](repeating: false, count: 256)
        for byte in forms.compactMap(\.utf8.first) + self.literals.compactMap(\.first) { starts[Int(byte)] = true }
        self.starts = starts
        startsWithSpace = forms.contains { $0.hasPrefix(" ") }
        // `\uXXXX\uXXXX` (12 characters) for a 4-byte character is the widest single form.
        longestOccurrence = (secrets.map { $0.byteCount * 12 }.max() ?? 0) + 64
    }

    var isEmpty: Bool { secrets.isEmpty }

    func masked(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var text = text
        let masked = text.withUTF8 { mask($0) }
        return masked.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    func maskedPrefix(_ text: String, maxLength: Int) -> String {
        guard !secrets.isEmpty else { return String(text.prefix(maxLength)) }
        // An occurrence that starts within the first `maxLength` characters ends within the window.
        let window =
            text.count > maxLength + longestOccurrence
            ? String(text.prefix(maxLength + longestOccurrence)) : text
        return String(masked(window).prefix(maxLength))
    }

    /// The masked bytes, or nil when nothing in `bytes` is a secret.
    private func mask(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0
        // The stretch being masked: occurrences that overlap or touch it extend it.
        var maskStart = -1
        var maskEnd = -1
        var scratch = ([Int](), [Int]())
        scratch.0.reserveCapacity(8)
        scratch.1.reserveCapacity(8)
        var position = 0
        while position < bytes.count {
            if mayStart(in: bytes, at: position), let end = longestEnd(in: bytes, from: position, scratch: &scratch) {
                if position <= maskEnd {
                    maskEnd = max(maskEnd, end)
                } else {
                    if maskStart >= 0 {
                        output.append(contentsOf: bytes[copied..<maskStart])
                        output.append(contentsOf: SecretMasker.mask.utf8)
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
        output.append(contentsOf: SecretMasker.mask.utf8)
        output.append(contentsOf: bytes[maskEnd...])
        return output
    }

    /// Whether an occurrence may start at `position`: its first character as itself, `%XX`, or
    /// an escape or reference (decided by the full match).
    private func mayStart(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "%"):
            guard position + 2 < bytes.count, let high = hexDigitValue(bytes[position + 1]),
                let low = hexDigitValue(bytes[position + 2])
            else { return starts[Int(byte)] }
            return starts[Int(high << 4 | low)] || starts[Int(byte)]
        case UInt8(ascii: "\\"), UInt8(ascii: "&"): return true
        case UInt8(ascii: "+"): return startsWithSpace || starts[Int(byte)]
        default: return starts[Int(byte)]
        }
    }

    /// The end of the longest occurrence of any secret starting at `position`.
    private func longestEnd(
        in bytes: UnsafeBufferPointer<UInt8>, from position: Int, scratch: inout ([Int], [Int])
    ) -> Int? {
        var longest = position
        for secret in secrets {
            if let end = secret.end(in: bytes, from: position, positions: &scratch.0, next: &scratch.1), end > longest {
                longest = end
            }
        }
        let first = bytes[position]
        for literal in literals where literal[0] == first && position + literal.count <= bytes.count {
            var offset = 1
            while offset < literal.count, bytes[position + offset] == literal[offset] { offset += 1 }
            if offset == literal.count { longest = max(longest, position + offset) }
        }
        return longest > position ? longest : nil
    }
}
