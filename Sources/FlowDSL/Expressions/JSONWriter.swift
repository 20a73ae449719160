/// The project's JSON writer: JSON as UTF-8 bytes, compact (what `Value.jsonText` prints) or
/// pretty-printed with sorted keys (what the JSON report is). One escaper serves both, so every
/// JSON text flow writes escapes strings the same way.
///
/// The pretty form is the text Foundation's `JSONEncoder` wrote with `.prettyPrinted`, `.sortedKeys`
/// and `.withoutEscapingSlashes`, byte for byte: two-space indents, `"key" : value`, an empty
/// container as `[` and `]` with an empty line between, numbers as `Double.description` without a
/// trailing `.0`. Writing a 100,000-item report through `JSONEncoder` took about half of what the
/// reports added to such a run (see BENCHMARKS.md, "Reports on a 100,000-item `for-each`").
///
/// The writer owns its buffer and writes into it through a pointer: a report's item record is a
/// dozen small pieces, and appending each to an `Array` (a uniqueness and a capacity check, a
/// generic copy) cost more than the bytes. Given a `sink`, it hands the buffer on each time it
/// fills, so a 15 MB report goes to its file through one small buffer (no 15 MB of fresh pages
/// to fault in and unmap). Not copyable: one writer owns one buffer.
package struct JSONWriter: ~Copyable {
    /// The buffer: `count` bytes written from `start`, room for `capacity`.
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Where a full buffer goes (and `flush()` sends the rest); nil to keep the whole text.
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    private let pretty: Bool
    /// How many containers are open.
    private var depth = 0
    /// Whether the innermost open container holds a member or element yet.
    private var filled = false
    /// `filled` of each enclosing container: bit `d - 1` for the one at depth `d` up to 64 (no
    /// array touched for a report's records), `deepEnclosing` beyond.
    private var enclosing: UInt64 = 0
    private var deepEnclosing: [Bool] = []
    /// Set after a key, so the value that follows goes on the key's line.
    private var afterKey = false

    /// A writer that keeps the whole text; `pretty` for indented output (the report's), compact
    /// otherwise. `capacity` is a first size of its buffer, which grows as needed.
    package init(pretty: Bool, capacity: Int = 64) {
        self.init(pretty: pretty, capacity: capacity, sink: nil)
    }

    /// A writer that hands its text to `sink` in pieces of about `bufferSize` bytes, each time its
    /// buffer is full and on `flush()` (call it at the end). A piece is valid only during the call.
    package init(pretty: Bool, bufferSize: Int, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.init(pretty: pretty, capacity: bufferSize, sink: sink)
    }

    private init(pretty: Bool, capacity: Int, sink: ((UnsafeRawBufferPointer) -> Void)?) {
        self.pretty = pretty
        self.capacity = max(capacity, 16)
        self.start = .allocate(capacity: self.capacity)
        self.sink = sink
    }

    deinit { start.deallocate() }

    /// The text written so far (with a sink: written since the last piece handed on).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// The text written so far, as a string.
    package var text: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

    /// Hands what is buffered to the sink (nothing without one).
    package mutating func flush() {
        guard let sink, count > 0 else { return }
        sink(UnsafeRawBufferPointer(start: start, count: count))
        count = 0
    }

    /// Ends the text with a line break, as the last line of a file does.
    package mutating func endLine() { put(UInt8(ascii: "\n")) }

    /// Opens an object; its members are written with `key` followed by a value.
    package mutating func beginObject() {
        beginValue()
        put(UInt8(ascii: "{"))
        open()
    }

    /// Closes the innermost object.
    package mutating func endObject() { endContainer(UInt8(ascii: "}")) }

    /// Opens an array.
    package mutating func beginArray() {
        beginValue()
        put(UInt8(ascii: "["))
        open()
    }

    /// Closes the innermost array.
    package mutating func endArray() { endContainer(UInt8(ascii: "]")) }

    /// The key of the next member of the innermost object. Callers write keys in sorted order.
    package mutating func key(_ name: String) {
        beginElement()
        putQuoted(name)
        endKey()
    }

    /// A key known to need no escaping (a field name of the caller's), copied as it is.
    package mutating func field(_ name: StaticString) {
        // The separator, the line and its indent, the quoted name and ` : ` written in one go:
        // a report's item records are mostly keys.
        name.withUTF8Buffer { name in
            var at = reserve(name.count + depth * 2 + 4 + Self.lineSlack)
            let first = at
            if filled {
                at.pointee = UInt8(ascii: ",")
                at += 1
            }
            filled = true
            if pretty { at = Self.line(depth: depth, at: at) }
            at.pointee = UInt8(ascii: "\"")
            at += 1
            if name.count > 0 { at.update(from: name.baseAddress!, count: name.count) }
            at += name.count
            at.pointee = UInt8(ascii: "\"")
            at += 1
            count += at - first
        }
        endKey()
    }

    private mutating func endKey() {
        if pretty {
            let at = reserve(3)
            at[0] = UInt8(ascii: " ")
            at[1] = UInt8(ascii: ":")
            at[2] = UInt8(ascii: " ")
            count += 3
        } else {
            put(UInt8(ascii: ":"))
        }
        afterKey = true
    }

    /// A string value.
    package mutating func string(_ text: String) {
        beginValue()
        putQuoted(text)
    }

    /// The string value `prefix`, the decimal digits of `number` and `suffix` make (`suffix` is
    /// copied as it is: it needs no escape), written as `string(_:)` writes their concatenation
    /// but without making it: a report's `for-each` item id, `fetch[3]`.
    package mutating func string(_ prefix: String, _ number: Int, _ suffix: StaticString) {
        beginValue()
        putQuoted(prefix, closed: false)
        putDigits(number)
        put(suffix)
        put(UInt8(ascii: "\""))
    }

    /// An integer value.
    package mutating func integer(_ number: Int) {
        beginValue()
        putDigits(number)
    }

    /// The decimal digits of `number` (with its sign), written in place without making a `String`.
    private mutating func putDigits(_ number: Int) {
        var magnitude = number.magnitude
        var length = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        let sign = number < 0 ? 1 : 0
        let at = reserve(length + sign)
        if sign == 1 { at.pointee = UInt8(ascii: "-") }
        var index = sign + length
        repeat {
            index -= 1
            at[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += length + sign
    }

    /// A number value as `JSONEncoder` writes a `Double` (`100`, `0.25`, `1e+20`); `null` for
    /// NaN and the infinities, which JSON cannot represent.
    /// `float` (a number written `1.0` or `1e3`) writes a whole value with its point, `1.0`, so the
    /// JSON reads back as a float.
    package mutating func number(_ number: Double, float: Bool = false) {
        beginValue()
        guard number.isFinite else {
            put("null" as StaticString)
            return
        }
        if float, number.magnitude < 1e15, number == number.rounded(.towardZero) {
            putText(number.description)
            return
        }
        // A whole number below 10^15 prints as its digits (`Double.description` writes `3.0`, less
        // the `.0`): the items of `range(…)` are such numbers, 100,000 of them in a big report.
        // -0 keeps its sign through `description`.
        if number.magnitude < 1e15, number == number.rounded(.towardZero),
            !(number == 0 && number.sign == .minus)
        {
            putDigits(Int(number))
            return
        }
        var text = number.description
        if text.utf8.count > 2, text.hasSuffix(".0") { text.removeLast(2) }
        putText(text)
    }

    /// A boolean value.
    package mutating func bool(_ flag: Bool) {
        beginValue()
        put(flag ? "true" : "false" as StaticString)
    }

    /// `null`.
    package mutating func null() {
        beginValue()
        put("null" as StaticString)
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
        output.append(UInt8(ascii: "\""))
        // Every character JSON escapes is ASCII, so escaping byte by byte is escaping by scalar:
        // the bytes of other characters (all 0x80 and above) are copied as they are, a run of
        // bytes that need no escape in one copy.
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices where needsEscape(utf8[index]) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { escape in
                    let length = Self.escape(utf8[index], at: escape.baseAddress!)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: escape[0..<length]))
                }
                run = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The most bytes `writeQuoted` writes for a text of `utf8Count` bytes: each escaped (6) and quoted.
    package static func quotedLimit(utf8Count: Int) -> Int { utf8Count * 6 + 2 }

    /// `text` quoted and escaped as `appendString` writes it, at `at`, which has room for
    /// `quotedLimit` of its UTF-8 count; returns the end. For a caller that reserves a line's room
    /// once and writes its pieces through a pointer (the event log's lines).
    package static func writeQuoted(_ text: String, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var text = text
        return text.withUTF8 { utf8 in
            at.pointee = UInt8(ascii: "\"")
            let end = writeEscaped(utf8, at: at + 1) { at, _ in at }
            end.pointee = UInt8(ascii: "\"")
            return end + 1
        }
    }

    /// `text` quoted and escaped as `appendString` writes it, into the writer's buffer; without its
    /// closing quote when not `closed` (the caller writes more of the string).
    private mutating func putQuoted(_ text: String, closed: Bool = true) {
        var text = text
        text.withUTF8 { utf8 in
            // Room for the text as it is and its quotes; each escape makes room for its own.
            var at = reserve(utf8.count + 2)
            at.pointee = UInt8(ascii: "\"")
            at = Self.writeEscaped(utf8, at: at + 1) { at, left in
                count = at - start
                return reserve(6 + left)
            }
            if closed {
                at.pointee = UInt8(ascii: "\"")
                at += 1
            }
            count = at - start
        }
    }

    /// `utf8` escaped for a JSON string (no quotes) at `at`, which has room for the bytes as they
    /// are; before each escape, `roomForEscape(at, bytes left)` gives where to go on with room for
    /// the escape and the rest (the same place when the room is already there). Returns the end.
    @inline(__always)
    private static func writeEscaped(
        _ utf8: UnsafeBufferPointer<UInt8>, at start: UnsafeMutablePointer<UInt8>,
        roomForEscape: (UnsafeMutablePointer<UInt8>, Int) -> UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var at = start
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time while none of them needs an escape: most texts are short
            // ASCII (ids, states) or have no character JSON escapes.
            if index + 8 <= utf8.count {
                let word = UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if !needsEscape(anyOf: word) {
                    UnsafeMutableRawPointer(at).storeBytes(of: word, as: UInt64.self)
                    at += 8
                    index += 8
                    continue
                }
            }
            let byte = utf8[index]
            if needsEscape(byte) {
                at = roomForEscape(at, utf8.count - index)
                at += escape(byte, at: at)
            } else {
                at.pointee = byte
                at += 1
            }
            index += 1
        }
        return at
    }

    /// Whether JSON escapes `byte`: `"`, `\` and the control characters. Every other byte, the
    /// bytes of non-ASCII characters (0x80 and above) among them, is written as it is.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the 8 bytes of `word` needs an escape (exact: the bit tricks below find
    /// whether a byte is below 0x20 or zero, and a byte of 0x80 or above never sets a flag).
    @inline(__always)
    private static func needsEscape(anyOf word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quoteFound = (quote &- ones) & ~quote & highs
        let backslashFound = (backslash &- ones) & ~backslash & highs
        return control | quoteFound | backslashFound != 0
    }

    /// Writes the escape of `byte` (one `needsEscape` accepts) at `at`; its length (2 or 6).
    private static func escape(_ byte: UInt8, at: UnsafeMutablePointer<UInt8>) -> Int {
        at[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): at[1] = byte
        case UInt8(ascii: "\n"): at[1] = UInt8(ascii: "n")
        case UInt8(ascii: "\r"): at[1] = UInt8(ascii: "r")
        case UInt8(ascii: "\t"): at[1] = UInt8(ascii: "t")
        case 0x08: at[1] = UInt8(ascii: "b")
        case 0x0C: at[1] = UInt8(ascii: "f")
        default:
            let hex: StaticString = "0123456789abcdef"
            at[1] = UInt8(ascii: "u")
            at[2] = UInt8(ascii: "0")
            at[3] = UInt8(ascii: "0")
            at[4] = hex.utf8Start[Int(byte >> 4)]
            at[5] = hex.utf8Start[Int(byte & 0xF)]
            return 6
        }
        return 2
    }

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
        var at = reserve(2 + depth * 2 + Self.lineSlack)
        let first = at
        if filled {
            at.pointee = UInt8(ascii: ",")
            at += 1
        }
        filled = true
        if pretty { at = Self.line(depth: depth, at: at) }
        count += at - first
    }

    private mutating func open() {
        if depth > 0 {
            if depth <= 64 {
                let bit: UInt64 = 1 << (depth - 1)
                enclosing = filled ? enclosing | bit : enclosing & ~bit
            } else {
                deepEnclosing.append(filled)
            }
        }
        depth += 1
        filled = false
    }

    private mutating func endContainer(_ close: UInt8) {
        let wasFilled = filled
        depth -= 1
        if depth == 0 {
            filled = false
        } else if depth <= 64 {
            filled = enclosing & (1 << (depth - 1)) != 0
        } else {
            filled = deepEnclosing.removeLast()
        }
        // JSONEncoder prints an empty container with an empty line inside.
        var at = reserve(3 + depth * 2 + Self.lineSlack)
        let first = at
        if pretty {
            if !wasFilled {
                at.pointee = UInt8(ascii: "\n")
                at += 1
            }
            at = Self.line(depth: depth, at: at)
        }
        at.pointee = close
        count += at - first + 1
    }

    /// What a caller of `line` reserves beyond the line itself: its last store may write up to 7
    /// bytes past the indent (bytes past `count` are not text: later writes replace them).
    private static let lineSlack = 8

    /// A line break and the indent of `depth` at `at` (which has room for them and `lineSlack`);
    /// the end. The indent is written 8 spaces a store: a `memset` call cost more than the short
    /// indents of a report's 700,000 lines.
    @inline(__always)
    private static func line(depth: Int, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        at.pointee = UInt8(ascii: "\n")
        let indent = UnsafeMutableRawPointer(at + 1)
        var offset = 0
        while offset < depth * 2 {
            indent.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        return at + 1 + depth * 2
    }

    // MARK: The buffer

    /// Room for `length` more bytes; where they go. Write them, then add to `count`.
    @inline(__always)
    private mutating func reserve(_ length: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < length { makeRoom(length) }
        return start + count
    }

    /// Hands a full buffer to the sink, or grows it (also when one piece is larger than it).
    @inline(never)
    private mutating func makeRoom(_ length: Int) {
        if let sink, count > 0 {
            sink(UnsafeRawBufferPointer(start: start, count: count))
            count = 0
            if capacity >= length { return }
        }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, count + length))
        grown.initialize(from: start, count: count)
        start.deallocate()
        start = grown
        capacity = max(capacity * 2, count + length)
    }

    private mutating func put(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    private mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { put($0) }
    }

    private mutating func putText(_ text: String) {
        var text = text
        text.withUTF8 { put($0) }
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count).update(from: from, count: bytes.count)
        count += bytes.count
    }
}
