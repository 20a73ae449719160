/// Reads a secrets file written the way `.env` files are (the dotenv conventions):
///
/// - `NAME=value` lines, optionally starting with `export `; spaces around `=` are ignored;
/// - lines end with LF, CRLF or CR (a file saved on Windows reads the same as one saved on Linux);
/// - blank lines and lines starting with `#` are ignored; in an unquoted value, ` #` (a `#` after
///   a space or tab) starts a comment, and trailing spaces are dropped;
/// - `'single quotes'` keep everything literally; `"double quotes"` understand `\n`, `\r`, `\t`,
///   `\"` and `\\` (any other backslash stays as it is); both may span lines (a CRLF inside reads
///   as LF) and may be followed by a comment;
/// - a name given twice takes its last value.
///
/// Problems name the line an entry starts on, never the value.
struct SecretsFileParser {
    /// What is wrong, on which 1-based line.
    struct Problem: Error {
        let line: Int
        let message: String
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    private init(_ text: String) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        self.scalars = scalars
    }

    /// The `(name, value)` entries of `text`, in order.
    static func entries(in text: String) throws(Problem) -> [(name: String, value: String)] {
        var parser = SecretsFileParser(text)
        return try parser.readEntries()
    }

    private mutating func readEntries() throws(Problem) -> [(name: String, value: String)] {
        var entries: [(name: String, value: String)] = []
        while true {
            skipBlanks()
            guard let scalar = peek else { return entries }
            if isLineEnd(scalar) {
                skipLineEnd()
            } else if scalar == "#" {
                skipToLineEnd()
                skipLineEnd()
            } else {
                let start = line
                let name = try readName()
                let value = try readValue(for: name, startingOn: start)
                entries.append((name, value))
                skipLineEnd()
            }
        }
    }

    /// `[export ]NAME=`, leaving the index after `=` and any blanks.
    private mutating func readName() throws(Problem) -> String {
        var key = ""
        while let scalar = peek, scalar != "=", !isLineEnd(scalar) {
            key.unicodeScalars.append(scalar)
            index += 1
        }
        guard peek == "=" else { throw Problem(line: line, message: "expected KEY=VALUE") }
        index += 1
        var name = key.trimmingBlanks
        if name.hasPrefix("export"), let next = name.unicodeScalars.dropFirst(6).first, next == " " || next == "\t" {
            name = String(name.dropFirst(6)).trimmingBlanks
        }
        guard Self.isValidName(name) else {
            throw Problem(
                line: line,
                message: "'\(name)' is not a secret name (letters, digits and '_', not starting with a digit)")
        }
        skipBlanks()
        return name
    }

    private mutating func readValue(for name: String, startingOn start: Int) throws(Problem) -> String {
        switch peek {
        case "'"?, "\""?:
            let quote = peek ?? "'"
            index += 1
            let value = try readQuoted(until: quote, escapes: quote == "\"", for: name, startingOn: start)
            skipBlanks()
            if let next = peek, !isLineEnd(next) {
                guard next == "#" else {
                    throw Problem(line: line, message: "unexpected text after the closing quote of \(name)'s value")
                }
                skipToLineEnd()
            }
            return value
        default:
            var value = ""
            // `NAME= #note` is an empty value with a comment; `NAME=#x` is the value `#x`.
            var previous = scalars[index - 1]
            while let scalar = peek, !isLineEnd(scalar) {
                if scalar == "#", previous == " " || previous == "\t" {
                    skipToLineEnd()
                    break
                }
                value.unicodeScalars.append(scalar)
                previous = scalar
                index += 1
            }
            return value.trimmingBlanks
        }
    }

    private mutating func readQuoted(
        until quote: Unicode.Scalar, escapes: Bool, for name: String, startingOn start: Int
    ) throws(Problem) -> String {
        var value = ""
        while let scalar = peek {
            index += 1
            if scalar == quote { return value }
            if scalar == "\r" || scalar == "\n" {
                if scalar == "\r", peek == "\n" { index += 1 }
                line += 1
                value += "\n"
            } else if escapes, scalar == "\\", let next = peek {
                index += 1
                switch next {
                case "n": value += "\n"
                case "r": value += "\r"
                case "t": value += "\t"
                case "\"", "\\": value.unicodeScalars.append(next)
                default:
                    // Not an escape dotenv knows: both characters stay (a Windows path, a regex).
                    value.unicodeScalars.append(scalar)
                    index -= 1
                }
            } else {
                value.unicodeScalars.append(scalar)
            }
        }
        throw Problem(line: start, message: "the value of \(name) opens a quote (\(quote)) that is never closed")
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func isLineEnd(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" }

    private mutating func skipBlanks() {
        while let scalar = peek, scalar == " " || scalar == "\t" { index += 1 }
    }

    private mutating func skipToLineEnd() {
        while let scalar = peek, !isLineEnd(scalar) { index += 1 }
    }

    /// Steps over one LF, CRLF or CR, if there is one.
    private mutating func skipLineEnd() {
        guard let scalar = peek, isLineEnd(scalar) else { return }
        index += 1
        if scalar == "\r", peek == "\n" { index += 1 }
        line += 1
    }

    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingBlanks: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
