extension JournalEntry {
    /// The JSON text of the `outputs` member of a journal entry: a step's record as `encode` writes
    /// it (`{"outputs": {…}, "status": …, "items": […]}`) or an item's (`PriorItem.jsonText`), so
    /// that `flow runs show` prints the outputs a workflow named rather than the record around
    /// them; `{}` for an object without the member (an item without outputs: `{"item": 3}`). Nil
    /// when the text is not a JSON object.
    ///
    /// Found by skimming the text, not by parsing it: a `for-each` step's record holds every item,
    /// and `flow runs show` reads thousands of records.
    package static func outputsText(ofEntry text: String) -> String? {
        let bytes = Array(text.utf8)
        var skimmer = JSONSkimmer(bytes: bytes)
        guard let range = skimmer.member(named: Array("outputs".utf8)) else { return skimmer.closed ? "{}" : nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }
}

/// Walks JSON text a value at a time without building it: just enough to find a top-level member.
private struct JSONSkimmer {
    let bytes: [UInt8]
    var index = 0
    /// Set when `member` read the whole object without finding the member.
    var closed = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes of the top-level object's member `name` (a key written without escapes).
    mutating func member(named name: [UInt8]) -> Range<Int>? {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if take(UInt8(ascii: "}")) {
            closed = true
            return nil
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index + 1
            guard skipString() else { return nil }
            let key = bytes[keyStart..<(index - 1)]
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            let valueStart = index
            guard skipValue() else { return nil }
            if key.elementsEqual(name) { return valueStart..<index }
            skipSpace()
            if take(UInt8(ascii: "}")) {
                closed = true
                return nil
            }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// Past a string that starts at `index` (its opening quote), escapes included.
    private mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return true
            default: index += 1
            }
        }
        return false
    }

    /// Past one value: a string, an object or array (brackets counted, strings skipped), or a
    /// scalar (up to the next delimiter).
    private mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            let start = index
            while index < bytes.count, !Self.isSpace(bytes[index]),
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index])
            {
                index += 1
            }
            return index > start
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
