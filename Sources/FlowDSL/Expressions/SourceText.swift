/// Text split into Characters, the unit every offset counts, with each Character's ASCII code
/// beside it: scanning compares bytes, many times cheaper than comparing Characters.
///
/// Most workflow text is plain ASCII without "\r", where bytes and Characters coincide; such text
/// skips the segmentation into Characters altogether.
struct SourceText {
    /// The code of a Character that is not a single ASCII scalar.
    static let nonASCII: UInt8 = 0xFF
    /// The code of "\r\n", which Swift keeps as one Character.
    static let crlf: UInt8 = 0xFE

    /// For each Character: its ASCII value, `crlf`, or `nonASCII`; this text is
    /// `storage[base..<base + count]` (a part of a template shares the template's codes).
    private let storage: [UInt8]
    /// The Characters, kept only when the text is not plain ASCII (otherwise the codes say it all).
    private let characters: [Character]
    private let base: Int
    let count: Int

    init(_ text: String) {
        // Checked and copied over the contiguous bytes, not through the generic `allSatisfy`
        // of the UTF-8 view (issue 19).
        var text = text
        let asciiCodes: [UInt8]? = text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return nil }
            return Array(bytes)
        }
        if let asciiCodes {
            self.init(codes: asciiCodes, characters: [])
        } else {
            let characters = Array(text)
            let codes = characters.map { character in
                guard let ascii = character.asciiValue else { return SourceText.nonASCII }
                return ascii == 0x0A && character != "\n" ? SourceText.crlf : ascii
            }
            self.init(codes: codes, characters: characters)
        }
    }

    private init(codes: [UInt8], characters: [Character]) {
        self.storage = codes
        self.characters = characters
        self.base = 0
        self.count = codes.count
    }

    /// The part of `source` in `range`, as its own text (sharing `source`'s arrays, no copy).
    init(_ source: SourceText, range: Range<Int>) {
        storage = source.storage
        characters = source.characters
        base = source.base + range.lowerBound
        count = range.count
    }

    /// The code at `index`, which must be in `0..<count`.
    subscript(index: Int) -> UInt8 {
        storage[base + index]
    }

    /// The code at `index`, or `nil` past either end.
    func code(_ index: Int) -> UInt8? {
        index >= 0 && index < count ? storage[base + index] : nil
    }

    /// The Character at `index`.
    func character(_ index: Int) -> Character {
        characters.isEmpty ? Character(Unicode.Scalar(storage[base + index])) : characters[base + index]
    }

    /// The text of `range`, built from bytes when it is plain ASCII.
    func text(_ range: Range<Int>) -> String {
        let shifted = (base + range.lowerBound)..<(base + range.upperBound)
        // From the contiguous bytes: `String(decoding:)` of an array slice takes the slower
        // repairing path (issue 19).
        let ascii = storage.withUnsafeBufferPointer { buffer -> String? in
            let bytes = UnsafeBufferPointer(rebasing: buffer[shifted])
            guard characters.isEmpty || !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        return ascii ?? String(characters[shifted])
    }

    /// Whether the Character at `index` separates tokens.
    func isWhitespace(_ index: Int) -> Bool {
        switch storage[base + index] {
        case 0x09...0x0D, 0x20, SourceText.crlf: true
        case SourceText.nonASCII: characters[base + index].isWhitespace
        default: false
        }
    }
}

extension UInt8 {
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
    var isASCIIHexDigit: Bool { isASCIIDigit || ((self | 0x20) >= 0x61 && (self | 0x20) <= 0x66) }
}
