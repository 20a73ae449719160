extension Diagnostic {
    /// The compiler-style text: `file:line:col: error: message`, the source line with a caret
    /// under the problem, and the hint. `sourceLines` are the file's lines (without newlines);
    /// `file` names the file when the diagnostic has no location.
    package func rendered(sourceLines: [Substring], file: String) -> String {
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

    /// The source line at `location` with a caret under its column (as under a diagnostic), or ""
    /// when `sourceLines` has no such line: for runtime failures shown without the full diagnostic.
    package static func snippet(at location: SourceLocation, sourceLines: [Substring]) -> String {
        guard location.line >= 1, location.line <= sourceLines.count else { return "" }
        return snippet(sourceLines[location.line - 1], location: location, length: 1)
    }

    /// The widest source line a snippet shows; longer lines show a window around the column.
    package static let snippetWidth = 200

    /// The source line and the caret line under it, with a gutter wide enough for the line number.
    private static func snippet(_ line: Substring, location: SourceLocation, length: Int) -> String {
        let number = String(location.line)
        let width = max(4, number.count)
        let gutter = String(repeating: " ", count: width - number.count + 1) + number
        let blank = String(repeating: " ", count: width + 1)
        var scalars = Array(line.unicodeScalars)
        var column = location.column
        var prefix = ""
        var suffix = ""
        if scalars.count > snippetWidth {
            // A minified or hostile line: show the part around the problem only.
            let start = max(0, min(column - 1 - snippetWidth / 2, scalars.count - snippetWidth))
            let end = min(scalars.count, start + snippetWidth)
            prefix = start > 0 ? "…" : ""
            suffix = end < scalars.count ? "…" : ""
            scalars = Array(scalars[start..<end])
            column = column - start + (prefix.isEmpty ? 0 : 1)
            if !prefix.isEmpty { scalars.insert("…", at: 0) }
        }
        // Keep tabs from the source in the padding so the caret lines up in any terminal.
        var padding = ""
        for index in 0..<max(0, column - 1) {
            padding += index < scalars.count && scalars[index] == "\t" ? "\t" : " "
        }
        let available = max(1, scalars.count - (column - 1))
        let underline = "^" + String(repeating: "~", count: max(0, min(length, available) - 1))
        // One replacement character for each control or bidi character (tabs kept for the padding
        // above): the columns still line up, and the source cannot reorder or restyle the line.
        let printable = scalars.map { $0 != "\t" && Echo.isUnprintable($0) ? "\u{FFFD}" : $0 }
        var shown = String(String.UnicodeScalarView(printable))
        shown += suffix
        return "\(gutter) | \(shown)\n\(blank) | \(padding)\(underline)\n"
    }
}

/// A file's text split into lines the way line numbers count them (`\n` or `\r\n` ends a line).
enum SourceLines {
    /// Splits on `\n` bytes (a UTF-8 newline is never part of another character), dropping a
    /// `\r` before it: byte-wise, many times faster than splitting Characters.
    static func split(_ text: String) -> [Substring] {
        let utf8 = text.utf8
        // A plain loop over the bytes (and O(1) index offsets in a native UTF-8 string) costs a
        // fraction of the generic `split`, which calls a closure per byte.
        let lines = utf8.withContiguousStorageIfAvailable { bytes -> [Substring] in
            var lines: [Substring] = []
            var start = 0
            func add(_ end: Int) {
                let last = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
                let from = utf8.index(utf8.startIndex, offsetBy: start)
                lines.append(Substring(utf8[from..<utf8.index(from, offsetBy: last - start)]))
            }
            for position in 0..<bytes.count where bytes[position] == 0x0A {
                add(position)
                start = position + 1
            }
            add(bytes.count)
            return lines
        }
        return lines
            ?? utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { bytes in
                let line = Substring(bytes)
                return line.utf8.last == 0x0D ? Substring(line.utf8.dropLast()) : line
            }
    }
}
