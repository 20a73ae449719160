import FlowDSL

/// One secret value as a matcher over UTF-8 text that finds it in every encoding it takes on the
/// wire, one character at a time, so that no list of encodings has to be kept in step with
/// libcurl, flow or the servers it talks to.
///
/// Each character may appear as itself or:
/// - percent-encoded, byte by byte, in upper- or lower-case hex, whatever set of characters the
///   encoder left alone (libcurl and flow keep `-._~`, form encoders keep `*`, Foundation keeps
///   `/` and `:`); a space also as `+` (form encoding);
/// - JSON-escaped: `\"`, `\\`, `\/`, `\n`, `\r`, `\t`, `\b`, `\f` or `\uXXXX` (surrogate pairs
///   for characters beyond U+FFFF), behind any number of backslashes, so JSON text that was itself
///   put in a JSON string (a server echoing a JSON request body) is found too;
/// - as an HTML character reference: `&quot;`, `&amp;`, `&lt;`, `&gt;`, `&apos;`, `&#NN;`, `&#xHH;`.
///
/// Mixed forms match as well; a text that spells the secret in two encodings at once still
/// spells the secret.
struct EncodedSecret: Sendable {
    /// The value's characters (Unicode scalars) and their UTF-8 bytes.
    private let scalars: [Unicode.Scalar]
    private let utf8: [[UInt8]]

    /// A matcher for `value`, which must not be empty.
    init(_ value: String) {
        scalars = Array(value.unicodeScalars)
        utf8 = scalars.map { Array(String($0).utf8) }
    }

    /// The number of UTF-8 bytes of the plain value.
    var byteCount: Int { utf8.reduce(0) { $0 + $1.count } }

    /// Whether an occurrence can start with `byte`.
    func canStart(with byte: UInt8) -> Bool {
        byte == utf8[0][0] || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "&")
            || (byte == UInt8(ascii: "+") && scalars[0] == " ")
    }

    /// Where the longest occurrence starting at `start` ends, or nil when none starts there.
    ///
    /// Follows every way the text can spell each character at once (a set of positions per
    /// character, as an NFA does), so it never backtracks and never recurses deeper than a
    /// character's bytes. `positions` and `next` are the caller's scratch space, reused so that
    /// matching allocates nothing once they have grown.
    func end(
        in text: UnsafeBufferPointer<UInt8>, from start: Int, positions: inout [Int], next: inout [Int]
    ) -> Int? {
        // Most candidates fail at the first byte; decide those at once.
        let first = text[start]
        if first == UInt8(ascii: "%") {
            guard start + 2 < text.count, let high = hexDigitValue(text[start + 1]),
                let low = hexDigitValue(text[start + 2]), high << 4 | low == utf8[0][0] || first == utf8[0][0]
            else { return nil }
        } else if !canStart(with: first) {
            return nil
        }
        positions.removeAll(keepingCapacity: true)
        appendEnds(of: 0, in: text, from: start, into: &positions)
        var index = 1
        while !positions.isEmpty, index < scalars.count {
            next.removeAll(keepingCapacity: true)
            for position in positions {
                appendEnds(of: index, in: text, from: position, into: &next)
            }
            if next.count > 1 { Self.sortAndRemoveDuplicates(&next) }
            swap(&positions, &next)
            index += 1
        }
        return positions.max()
    }

    private static func sortAndRemoveDuplicates(_ positions: inout [Int]) {
        positions.sort()
        var kept = 1
        for index in 1..<positions.count where positions[index] != positions[kept - 1] {
            positions[kept] = positions[index]
            kept += 1
        }
        positions.removeLast(positions.count - kept)
    }

    /// Every position where character `index` of the secret, spelled in one of its forms starting
    /// at `start`, ends.
    private func appendEnds(of index: Int, in text: UnsafeBufferPointer<UInt8>, from start: Int, into ends: inout [Int])
    {
        guard start < text.count else { return }
        appendPlainOrPercentEnds(of: utf8[index], from: 0, in: text, at: start, into: &ends)
        let scalar = scalars[index]
        let first = text[start]
        if scalar == " ", first == UInt8(ascii: "+") { ends.append(start + 1) }
        if first == UInt8(ascii: "\\") { appendEscapeEnds(of: scalar, in: text, from: start, into: &ends) }
        if first == UInt8(ascii: "&") { appendReferenceEnds(of: scalar, in: text, from: start, into: &ends) }
    }

    /// The character's bytes from `byteIndex` on, each as itself or as `%XX`, starting at `position`.
    private func appendPlainOrPercentEnds(
        of bytes: [UInt8], from byteIndex: Int, in text: UnsafeBufferPointer<UInt8>, at position: Int,
        into ends: inout [Int]
    ) {
        guard byteIndex < bytes.count else {
            ends.append(position)
            return
        }
        guard position < text.count else { return }
        let byte = bytes[byteIndex]
        if text[position] == byte {
            appendPlainOrPercentEnds(of: bytes, from: byteIndex + 1, in: text, at: position + 1, into: &ends)
        }
        if text[position] == UInt8(ascii: "%"), position + 2 < text.count,
            let high = hexDigitValue(text[position + 1]), let low = hexDigitValue(text[position + 2]),
            high << 4 | low == byte
        {
            appendPlainOrPercentEnds(of: bytes, from: byteIndex + 1, in: text, at: position + 3, into: &ends)
        }
    }

    /// JSON escapes behind one or more backslashes; a backslash itself as any run of them.
    private func appendEscapeEnds(
        of scalar: Unicode.Scalar, in text: UnsafeBufferPointer<UInt8>, from start: Int, into ends: inout [Int]
    ) {
        let count = text.count
        var afterRun = start
        while afterRun < count, text[afterRun] == UInt8(ascii: "\\") { afterRun += 1 }
        if scalar == "\\", afterRun >= start + 2 {
            // 1 (itself, matched as plain text), 2 (escaped), 4 (escaped twice)…: any part of the run.
            for end in (start + 2)...afterRun { ends.append(end) }
        }
        guard afterRun < count else { return }
        if let letter = Self.escapeLetter(scalar), text[afterRun] == letter { ends.append(afterRun + 1) }
        if scalar.value <= 0xFFFF {
            if let end = Self.unicodeEscapeEnd(UInt16(scalar.value), in: text, at: afterRun) { ends.append(end) }
        } else {
            let high = UInt16(0xD800 + ((scalar.value - 0x10000) >> 10))
            let low = UInt16(0xDC00 + ((scalar.value - 0x10000) & 0x3FF))
            guard let middle = Self.unicodeEscapeEnd(high, in: text, at: afterRun) else { return }
            var lowStart = middle
            while lowStart < count, text[lowStart] == UInt8(ascii: "\\") { lowStart += 1 }
            if lowStart > middle, let end = Self.unicodeEscapeEnd(low, in: text, at: lowStart) { ends.append(end) }
        }
    }

    /// HTML character references: the five named ones and numeric ones.
    private func appendReferenceEnds(
        of scalar: Unicode.Scalar, in text: UnsafeBufferPointer<UInt8>, from start: Int, into ends: inout [Int]
    ) {
        let count = text.count
        var semicolon = start + 1
        while semicolon < count, semicolon - start <= 10, text[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < count, text[semicolon] == UInt8(ascii: ";") else { return }
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[(start + 1)..<semicolon]), as: UTF8.self)
        let named: [String: Unicode.Scalar] = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">", "apos": "'"]
        var value: UInt32?
        if let scalarNamed = named[name] {
            value = scalarNamed.value
        } else if name.hasPrefix("#x") || name.hasPrefix("#X") {
            value = UInt32(name.dropFirst(2), radix: 16)
        } else if name.hasPrefix("#") {
            value = UInt32(name.dropFirst(), radix: 10)
        }
        if value == scalar.value { ends.append(semicolon + 1) }
    }

    /// The end of `uXXXX` spelling `unit` at `position`, if it is there.
    private static func unicodeEscapeEnd(_ unit: UInt16, in text: UnsafeBufferPointer<UInt8>, at position: Int) -> Int?
    {
        guard position + 4 < text.count, text[position] == UInt8(ascii: "u") else { return nil }
        var value: UInt16 = 0
        for offset in 1...4 {
            guard let digit = hexDigitValue(text[position + offset]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value == unit ? position + 5 : nil
    }

    /// The letter after a backslash that JSON uses for `scalar`, if it has one.
    private static func escapeLetter(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "\"": UInt8(ascii: "\"")
        case "/": UInt8(ascii: "/")
        case "\n": UInt8(ascii: "n")
        case "\r": UInt8(ascii: "r")
        case "\t": UInt8(ascii: "t")
        case "\u{08}": UInt8(ascii: "b")
        case "\u{0C}": UInt8(ascii: "f")
        default: nil
        }
    }

}
