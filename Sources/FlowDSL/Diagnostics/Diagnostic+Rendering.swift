extension Diagnostic {
    /// The compiler-style text: `file:line:col: error: message`, the source line with a caret
    /// under the problem, and the hint. `sourceLines` are the file's lines (without newlines);
    /// `file` names the file when the diagnostic has no location.
    public func rendered(sourceLines: [Substring], file: String) -> String {
        var text = ""
        if let location {
            text += "\(location): \(severity.rawValue): \(message)\n"
            if location.line >= 1, location.line <= sourceLines.count {
                text += Self.snippet(sourceLines[location.line - 1], location: location, length: length)
            }
        } else {
            text += "\(file): \(severity.rawValue): \(message)\n"
        }
        if let hint {
            text += "hint: \(hint)\n"
        }
        return text
    }

    /// The source line and the caret line under it, with a gutter wide enough for the line number.
    private static func snippet(_ line: Substring, location: SourceLocation, length: Int) -> String {
        let number = String(location.line)
        let width = max(4, number.count)
        let gutter = String(repeating: " ", count: width - number.count + 1) + number
        let blank = String(repeating: " ", count: width + 1)
        let scalars = Array(line.unicodeScalars)
        // Keep tabs from the source in the padding so the caret lines up in any terminal.
        var padding = ""
        for index in 0..<max(0, location.column - 1) {
            padding += index < scalars.count && scalars[index] == "\t" ? "\t" : " "
        }
        let available = max(1, scalars.count - (location.column - 1))
        let underline = "^" + String(repeating: "~", count: max(0, min(length, available) - 1))
        return "\(gutter) | \(line)\n\(blank) | \(padding)\(underline)\n"
    }
}

/// A file's text split into lines the way line numbers count them (`\n` or `\r\n` ends a line).
enum SourceLines {
    static func split(_ text: String) -> [Substring] {
        // Splits the UTF-8 bytes at "\n" (dropping a "\r" before it), which is what splitting the
        // Characters at "\n" and "\r\n" does, without grapheme breaking: that took a tenth of
        // checking a large file.
        var lines: [Substring] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index
                if end > start, bytes[bytes.index(before: end)] == UInt8(ascii: "\r") {
                    end = bytes.index(before: end)
                }
                lines.append(text[start..<end])
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        lines.append(text[start..<bytes.endIndex])
        return lines
    }
}
