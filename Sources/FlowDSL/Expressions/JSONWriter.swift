/// The project's JSON writer: JSON as UTF-8 bytes, compact (what `Value.jsonText` prints) or
/// pretty-printed with sorted keys (what the JSON report is). One escaper serves both, so every
/// JSON text flow writes escapes strings the same way.
///
/// The pretty form is the text Foundation's `JSONEncoder` wrote with `.prettyPrinted`, `.sortedKeys`
/// and `.withoutEscapingSlashes`, byte for byte: two-space indents, `"key" : value`, an empty
/// container as `[` and `]` with an empty line between, numbers as `Double.description` without a
/// trailing `.0`. Writing a 100,000-item report through `JSONEncoder` took about half of what the
/// reports added to such a run (see BENCHMARKS.md, "Reports on a 100,000-item `for-each`").
package struct JSONWriter {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    /// How many containers are open.
    private var depth = 0
    /// Whether the innermost open container holds a member or element yet.
    private var filled = false
    /// `filled` of each enclosing container, kept apart so writing an element touches no array.
    private var enclosing: [Bool] = []
    /// Set after a key, so the value that follows goes on the key's line.
    private var afterKey = false

    /// A writer; `pretty` for indented output (the report's), compact otherwise.
    package init(pretty: Bool, capacity: Int = 64) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far, as a string.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Ends the text with a line break, as the last line of a file does.
    package mutating func endLine() { bytes.append(UInt8(ascii: "\n")) }

    /// Opens an object; its members are written with `key` followed by a value.
    package mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    /// Closes the innermost object.
    package mutating func endObject() { endContainer(UInt8(ascii: "}")) }

    /// Opens an array.
    package mutating func beginArray() {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        open()
    }

    /// Closes the innermost array.
    package mutating func endArray() { endContainer(UInt8(ascii: "]")) }

    /// The key of the next member of the innermost object. Callers write keys in sorted order.
    package mutating func key(_ name: String) {
        beginElement()
        JSONWriter.appendString(name, to: &bytes)
        endKey()
    }

    /// A key known to need no escaping (a field name of the caller's), copied as it is.
    package mutating func field(_ name: StaticString) {
        beginElement()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        endKey()
    }

    private mutating func endKey() {
        if pretty {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
        afterKey = true
    }

    /// A string value.
    package mutating func string(_ text: String) {
        beginValue()
        JSONWriter.appendString(text, to: &bytes)
    }

    /// An integer value.
    package mutating func integer(_ number: Int) {
        beginValue()
        JSONWriter.appendDigits(number, to: &bytes)
    }

    /// The decimal digits of `number` (with its sign), written without making a `String`.
    private static func appendDigits(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // 20 digits hold any UInt64; filled from the end, then copied in one go.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// A number value as `JSONEncoder` writes a `Double` (`100`, `0.25`, `1e+20`); `null` for
    /// NaN and the infinities, which JSON cannot represent.
    /// `float` (a number written `1.0` or `1e3`) writes a whole value with its point, `1.0`, so the
    /// JSON reads back as a float.
    package mutating func number(_ number: Double, float: Bool = false) {
        beginValue()
        guard number.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if float, number.magnitude < 1e15, number == number.rounded(.towardZero) {
            bytes.append(contentsOf: number.description.utf8)
            return
        }
        // A whole number below 10^15 prints as its digits (`Double.description` writes `3.0`, less
        // the `.0`): the items of `range(…)` are such numbers, 100,000 of them in a big report.
        // -0 keeps its sign through `description`.
        if number.magnitude < 1e15, number == number.rounded(.towardZero),
            !(number == 0 && number.sign == .minus)
        {
            JSONWriter.appendDigits(Int(number), to: &bytes)
            return
        }
        let text = number.description.utf8
        if text.count > 2, text.last == UInt8(ascii: "0"), text.dropLast().last == UInt8(ascii: ".") {
            bytes.append(contentsOf: text.dropLast(2))
        } else {
            bytes.append(contentsOf: text)
        }
    }

    /// A boolean value.
    package mutating func bool(_ flag: Bool) {
        beginValue()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    /// `null`.
    package mutating func null() {
        beginValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A value, object keys sorted; numbers as `number(_:)` writes them.
    package mutating func value(_ value: Value) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number, let float): self.number(number, float: float)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            object(members) { writer, member in writer.value(member) }
        }
    }

    /// An object of `members` with sorted keys, each value written by `write`.
    package mutating func object<Member>(_ members: [String: Member], _ write: (inout JSONWriter, Member) -> Void) {
        beginObject()
        // Most outputs hold one member or none: no sorted copy for them.
        if members.count < 2 {
            for (name, member) in members {
                key(name)
                write(&self, member)
            }
            endObject()
            return
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            key(name)
            write(&self, member)
        }
        endObject()
    }

    /// `text` as a JSON string, quoted and escaped, appended to `output`: `"`, `\` and the control
    /// characters are escaped (`\n`, `\u001b`); `/` and every other character are written as they are.
    package static func appendString(_ text: String, to output: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        output.append(UInt8(ascii: "\""))
        // Every character JSON escapes is ASCII, so escaping byte by byte is escaping by scalar:
        // the bytes of other characters (all 0x80 and above) are copied as they are, a run of
        // bytes that need no escape in one copy.
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == backslash else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscaped(byte, to: &output)
                run = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The escape of `byte`, one of the bytes JSON escapes (`"`, `\` and the control characters).
    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""): output += [backslash, UInt8(ascii: "\"")]
        case backslash: output += [backslash, backslash]
        case UInt8(ascii: "\n"): output += [backslash, UInt8(ascii: "n")]
        case UInt8(ascii: "\r"): output += [backslash, UInt8(ascii: "r")]
        case UInt8(ascii: "\t"): output += [backslash, UInt8(ascii: "t")]
        case 0x08: output += [backslash, UInt8(ascii: "b")]
        case 0x0C: output += [backslash, UInt8(ascii: "f")]
        case 0..<0x20:
            output += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
            output += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
        default:
            output.append(byte)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Before a value: in an array, the separator and line of a new element; after a key, nothing.
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
        } else if depth > 0 {
            beginElement()
        }
    }

    /// The comma after the previous member or element and, pretty, a new line at the right indent.
    private mutating func beginElement() {
        if filled { bytes.append(UInt8(ascii: ",")) }
        filled = true
        if pretty { newLine(depth: depth) }
    }

    private mutating func open() {
        if depth > 0 { enclosing.append(filled) }
        depth += 1
        filled = false
    }

    private mutating func endContainer(_ close: UInt8) {
        let wasFilled = filled
        depth -= 1
        filled = depth > 0 ? enclosing.removeLast() : false
        // JSONEncoder prints an empty container with an empty line inside.
        if pretty {
            if !wasFilled { bytes.append(UInt8(ascii: "\n")) }
            newLine(depth: depth)
        }
        bytes.append(close)
    }

    private mutating func newLine(depth: Int) {
        // A line break and the indent copied from one prepared line: a report's 100,000 item
        // records are 700,000 lines.
        let length = 1 + depth * 2
        if length <= JSONWriter.indents.count {
            bytes.append(contentsOf: JSONWriter.indents[0..<length])
        } else {
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
    }

    /// A line break and the indent of 32 levels.
    private static let indents: [UInt8] = [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 64)
}
