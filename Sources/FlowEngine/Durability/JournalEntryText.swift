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
    /// leaves every text as it is), keys in the sorted order `jsonText` writes them.
    static func unmasked(_ record: StepRecord<StepResult>) -> String {
        let result = record.produced
        var out: [UInt8] = []
        out.reserveCapacity(64 + (result?.items?.count ?? 0) * 64)
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
        if let items = result?.items {
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
        // The integers `jsonText` prints as integers (no float flag, whole, within 2^53).
        if case .number(let number, false) = value, number == number.rounded(),
            abs(number) <= 9_007_199_254_740_992
        {
            appendInteger(Int64(number), to: &out)
            return
        }
        value.appendJSON(to: &out)
    }

    /// The decimal digits of `number`, with a minus sign when negative: `String(number)`'s text.
    private static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var rest = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `PriorItem(item:outputs:).jsonText`: `{"item": …, "outputs": {…}}`.
    static func priorItem(item: Value, outputs: [String: Value]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        append(#"{"item":"#, to: &out)
        appendValue(item, to: &out)
        append(#","outputs":"#, to: &out)
        appendObject(outputs, to: &out)
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
