import FlowDSL

/// The journal's JSON texts written straight as bytes, when no secret needs masking: the same text
/// as building the `Value` and asking its `jsonText`, without the `Value` tree in between.
///
/// Why: a finished 100,000-item `for-each` step's entry (every item's value, state and outputs)
/// was built as 100,000 dictionaries, sorted and written, about 100 ms after the run's last item
/// and tens of MiB at its peak; each item's own text was a dictionary too (BENCHMARKS.md, "Run
/// journal", issue 32).
enum JournalEntryText {
    /// `StepRecordsFile.encode(record, masker: masker).jsonText` for a masker with no secret (which
    /// leaves every text as it is), keys in the sorted order `jsonText` writes them. With
    /// `itemsInLog` (the journal holds each item's own end, value and outputs), a `for-each` step
    /// whose items all succeeded is written with their count (`JournalEntry.itemsInLogKey`)
    /// instead of `items`: a reader rebuilds them from the items' ends (`JournalEntry.decode`).
    static func unmasked(_ record: StepRecord<StepResult>, itemsInLog: Bool = false) -> String {
        let result = record.produced
        // Whether the items are left to their own ends: read in place, each item's state alone (an
        // element at a time, a `for-each` of 100,000 copied each item's value and outputs).
        let itemsLeft =
            itemsInLog
            && result?.items.map { items in
                !items.isEmpty && items.indices.allSatisfy { items[$0].state == .succeeded }
            } == true
        var out: [UInt8] = []
        out.reserveCapacity(64 + (itemsLeft ? 0 : result?.items?.count ?? 0) * 64)
        var writer = ObjectBytes()
        writer.open(&out)
        if let error = record.error {
            writer.key("error", &out)
            JSONWriter.appendString(String(describing: error), to: &out)
        }
        if record.failureIgnored {
            writer.key("failure-ignored", &out)
            out += "true".utf8
        }
        if let items = result?.items, itemsLeft {
            // Not the items again: 100,000 items' values and states were 6.5 MB written in series
            // after the last item, which its end already holds (BENCHMARKS.md, "Run journal").
            writer.key("items-in-log", &out)
            appendInteger(Int64(items.count), to: &out)
        } else if let items = result?.items {
            writer.key("items", &out)
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        writer.key("outputs", &out)
        Value.object(result?.outputs ?? [:]).appendJSON(to: &out)
        writer.key("status", &out)
        JSONWriter.appendString(record.state.rawValue, to: &out)
        if let winner = record.winner {
            writer.key("winner", &out)
            JSONWriter.appendString(winner, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// An item's entry in `items`: `{attempts, error, item, outputs, status}`, its keys written as
    /// constant bytes (a 100,000-item step writes half a million of them).
    private static func append(_ item: ItemResult, to out: inout [UInt8]) {
        append(#"{"attempts":"#, to: &out)
        // What `Value.number(Double(attempts))` prints: an integer without a point.
        appendInteger(Int64(item.attempts), to: &out)
        if let error = item.error {
            append(#","error":"#, to: &out)
            JSONWriter.appendString(error, to: &out)
        }
        append(#","item":"#, to: &out)
        appendValue(item.item, to: &out)
        append(#","outputs":"#, to: &out)
        appendObject(item.outputs, to: &out)
        append(#","status":"#, to: &out)
        JSONWriter.appendString(item.state.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `value`'s JSON, a whole number (most items: `range()`'s, indexes) without making its text
    /// as a `String` first; anything else as `jsonText` writes it.
    private static func appendValue(_ value: Value, to out: inout [UInt8]) {
        if let number = wholeNumber(value) {
            appendInteger(number, to: &out)
            return
        }
        value.appendJSON(to: &out)
    }

    /// The number, when `jsonText` prints `value` as an integer (no float flag, whole, within 2^53).
    private static func wholeNumber(_ value: Value) -> Int64? {
        guard case .number(let number, false) = value, number == number.rounded(), abs(number) <= 9_007_199_254_740_992
        else { return nil }
        return Int64(number)
    }

    /// The item's number when its `PriorItem.jsonText` is `{"item":N}` with N that number's
    /// digits (`String(N)`): a whole number without outputs, nearly every `range` item.
    static func wholeNumberItem(item: Value, outputs: [String: Value]) -> Int64? {
        outputs.isEmpty ? wholeNumber(item) : nil
    }

    /// The decimal digits of `number`, with a minus sign when negative: `String(number)`'s text.
    private static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        digits(of: number) { out.append(contentsOf: $0) }
    }

    /// Gives `number`'s text (`String(number)`'s bytes) to `body`, made on the stack.
    private static func digits(of number: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var rest = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var count = 0
            repeat {
                digits[20 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            if number < 0 {
                digits[20 - count] = UInt8(ascii: "-")
                count += 1
            }
            body(UnsafeBufferPointer(rebasing: digits[(21 - count)...]))
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `PriorItem(item:outputs:).jsonText`: `{"item": …, "outputs": {…}}`, or `{"item": …}` for
    /// an item without outputs (most: journal format 5). A whole number's text is made on the
    /// stack: short enough for a `String` held inline, such an item's text allocates nothing.
    static func priorItem(item: Value, outputs: [String: Value]) -> String {
        if outputs.isEmpty, let number = wholeNumber(item) {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
                var count = 0
                func add(_ text: StaticString) {
                    (buffer.baseAddress! + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                    count += text.utf8CodeUnitCount
                }
                add(#"{"item":"#)
                digits(of: number) { bytes in
                    (buffer.baseAddress! + count).update(from: bytes.baseAddress!, count: bytes.count)
                    count += bytes.count
                }
                add("}")
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        append(#"{"item":"#, to: &out)
        appendValue(item, to: &out)
        if !outputs.isEmpty {
            append(#","outputs":"#, to: &out)
            appendObject(outputs, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// An object of values; most items have no outputs.
    private static func appendObject(_ members: [String: Value], to out: inout [UInt8]) {
        if members.isEmpty {
            out += "{}".utf8
        } else {
            Value.object(members).appendJSON(to: &out)
        }
    }

    /// The commas between an object's members.
    private struct ObjectBytes {
        private var first = true

        mutating func open(_ out: inout [UInt8]) {
            out.append(UInt8(ascii: "{"))
        }

        mutating func key(_ name: StaticString, _ out: inout [UInt8]) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out += #"":"#.utf8
        }
    }
}
