/// Cuts a command's output stream into lines as its bytes arrive, holding at most one partial line.
///
/// A line ends at `\n`, `\r\n` or a lone `\r` (a progress bar redrawing itself). A line longer than
/// `maxLine` bytes is passed on in pieces of at most `maxLine` bytes, cut between characters, so one
/// endless line (a minified file, a binary blob) neither fails the step nor grows without bound.
struct LineSplitter {
    /// The longest piece of a line passed on at once.
    static let defaultMaxLine = 64 << 10

    private let maxLine: Int
    private var partial: [UInt8] = []
    /// The previous chunk ended in `\r`: a `\n` starting the next one belongs to it.
    private var afterCarriageReturn = false

    init(maxLine: Int = defaultMaxLine) {
        self.maxLine = max(maxLine, 4)
    }

    /// The complete lines (and long-line pieces) in `bytes`, given what came before.
    mutating func split(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var lines: [String] = []
        var start = 0
        var index = 0
        if afterCarriageReturn, bytes.first == UInt8(ascii: "\n") {
            start = 1
            index = 1
        }
        afterCarriageReturn = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), into: &lines)
                lines.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
                if byte == UInt8(ascii: "\r") {
                    if index + 1 == bytes.count {
                        afterCarriageReturn = true
                    } else if bytes[index + 1] == UInt8(ascii: "\n") {
                        index += 1
                    }
                }
                start = index + 1
            }
            index += 1
        }
        append(UnsafeRawBufferPointer(rebasing: bytes[start..<bytes.count]), into: &lines)
        return lines
    }

    /// What is left when the stream ends: the last line, if it had no line break.
    mutating func finish() -> String? {
        defer { partial.removeAll() }
        return partial.isEmpty ? nil : String(decoding: partial, as: UTF8.self)
    }

    /// Adds `bytes` to the partial line, passing on full pieces when it grows past `maxLine`.
    private mutating func append(_ bytes: UnsafeRawBufferPointer, into lines: inout [String]) {
        partial.append(contentsOf: bytes)
        while partial.count > maxLine {
            var cut = maxLine
            // Back up over UTF-8 continuation bytes (10xxxxxx) so no character is split.
            while cut > maxLine - 3, partial[cut] & 0xC0 == 0x80 { cut -= 1 }
            lines.append(String(decoding: partial[..<cut], as: UTF8.self))
            partial.removeFirst(cut)
        }
    }
}
