// The functions that clean text a server or a command supplied before it becomes a path, a URL
// or a name: path parts, replacing, splitting, case, trimming, substrings, URL encoding and
// conversions. Argument types are checked from `Functions.parameterTypes` before these run.

extension Functions {
    /// The string functions' results; `nil` when `name` is not one of them.
    static func stringFunction(_ name: String, _ arguments: [Value]) throws(Failure) -> Value? {
        func text(_ index: Int) -> String { arguments[index].interpolated }
        switch name {
        case "basename": return .string(basename(text(0)))
        case "dirname": return .string(dirname(text(0)))
        case "replace":
            guard !text(1).isEmpty else { throw Failure(message: "replace() cannot replace the empty string") }
            return .string(text(0).replacing(text(1), with: text(2)))
        case "split": return .array(split(text(0), by: text(1)).map(Value.string))
        case "lower": return .string(text(0).lowercased())
        case "upper": return .string(text(0).uppercased())
        case "trim": return .string(text(0).trimmingWhitespace())
        case "substring":
            // `Value` is nil-literal convertible: a missing length is spelled `.none`, not `nil`.
            let length: Value? = arguments.count > 2 ? arguments[2] : .none
            return try characters(of: text(0), from: arguments[1], count: length)
        case "urlEncode": return .string(urlEncode(text(0)))
        case "toString": return .string(arguments[0].interpolated)
        case "toNumber": return try toNumber(arguments[0])
        default: return nil
        }
    }

    /// The last part of a `/`-separated path, trailing slashes ignored: `a/b/c.txt` → `c.txt`,
    /// `a/b/` → `b`, `/` and `` → ``. `..` stays `..`: it is a part like any other.
    static func basename(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.last.map(String.init) ?? ""
    }

    /// Everything before the last part, as POSIX `dirname`: `a/b/c.txt` → `a/b`, `c.txt` → `.`,
    /// `/c.txt` → `/`, `a/b/` → `a`.
    static func dirname(_ path: String) -> String {
        var trimmed = path[...]
        while trimmed.count > 1, trimmed.last == "/" { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var folder = trimmed[..<slash]
        while folder.count > 1, folder.last == "/" { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// `split(text, separator)`: the pieces between separators, empty ones kept (so `join` with the
    /// same separator gives the text back); an empty separator splits into characters.
    private static func split(_ text: String, by separator: String) -> [String] {
        if separator.isEmpty { return text.map(String.init) }
        return text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    /// `substring(text, start, length)`: characters as users count them (as `length()` does),
    /// from `start` (from 0; negative counts from the end), at most `length` of them (all the
    /// rest without it). Past the end is the empty string.
    private static func characters(of text: String, from start: Value, count length: Value?) throws(Failure) -> Value {
        guard case .number(let startNumber, _) = start, let from = Int(exactly: startNumber) else {
            throw Failure(message: "substring() expects a whole number as argument 2, got \(start.interpolated)")
        }
        var count = Int.max
        if let length {
            guard case .number(let lengthNumber, _) = length, let wanted = Int(exactly: lengthNumber), wanted >= 0
            else {
                throw Failure(
                    message:
                        "substring() expects a whole number of characters, 0 or more, as argument 3, got \(length.interpolated)"
                )
            }
            count = wanted
        }
        let characters = Array(text)
        let first = from < 0 ? max(0, characters.count + from) : min(from, characters.count)
        let last = count >= characters.count - first ? characters.count : first + count
        return .string(String(characters[first..<last]))
    }

    /// Percent-encoding of every UTF-8 byte but RFC 3986's unreserved characters (`A-Z a-z 0-9
    /// - . _ ~`): safe as one path segment or one query value. The same set as the query encoder
    /// of requests (`PercentEncoding` in FlowHTTP, which FlowDSL cannot import; a test keeps them equal).
    static func urlEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(out)
    }

    /// `toNumber(value)`: a number is itself, a boolean 1 or 0, a string its decimal number
    /// (white space around it ignored: `' 42 '`, `-1.5`, `1e3`); other text is an error rather
    /// than NaN, so a bad value stops where it is read.
    private static func toNumber(_ value: Value) throws(Failure) -> Value {
        switch value {
        case .number: return value
        case .bool(let flag): return .number(flag ? 1 : 0)
        case .string(let text):
            let trimmed = text.trimmingWhitespace()
            let decimal = trimmed.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) }
            guard decimal, trimmed.utf8.contains(where: \.isASCIIDigit), let number = Double(trimmed),
                number.isFinite
            else {
                throw Failure(message: "toNumber() cannot read '\(Echo.text(text))' as a decimal number")
            }
            return .number(number)
        default:
            throw Failure(message: "toNumber() expects a string, number or boolean, got \(value.typeName)")
        }
    }
}
