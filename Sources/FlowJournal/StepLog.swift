import Foundation

/// The step changes of one batch for one run, as one `step_log` cell: a compact binary list, each
/// change a tag byte and its fields in order.
///
/// Why not a row a step: a row upsert a step was most of what the journal cost a 10,000-step run
/// (about 5 µs each in SQLite, on top of the run's own 20 µs; BENCHMARKS.md, "Run journal").
/// One cell a batch costs SQLite a few inserts a run; readers fold the changes in order into each
/// step's latest state (`StepLogFold`), with the same rules the upserts had.
///
/// Fields: text is a varint length and its UTF-8 bytes; counts are varints; an item is a varint of
/// index + 1 (0 for none); a date is its seconds since 1970 as the 8 bytes of a Double, little
/// endian; an optional is a byte 0 or 1 and then the value.
struct StepLogEncoder {
    private(set) var bytes: [UInt8] = []
    /// The `itemEnds` change being written, if one is open (see `addItemEnd`): its step, and the
    /// item and end date its next entry is written against.
    private var itemRun: (step: String, item: Int, finished: UInt64)?

    /// Adds `change` when it is a step change (a start, a finish, an unsafe send or a transfer);
    /// changes of the run itself are written as SQL (see `GatheredChanges`), not here.
    mutating func add(_ change: JournalChange) {
        closeItemEnds()
        switch change {
        case .stepStarted(_, let step, let item, let attempt, let at):
            bytes.append(StepLogTag.started.rawValue)
            text(step)
            self.item(item)
            count(attempt)
            date(at)
        case .stepFinished(
            _, let step, let item, let state, let attempts, let startedAt, let finishedAt, let outputs, let error):
            addFinished(
                step: step, item: item, state: state, attempts: attempts, startedAt: startedAt,
                finishedAt: finishedAt, outputs: outputs, error: error)
        case .unsafeSend(_, let step, let item, let at):
            bytes.append(StepLogTag.unsafeSend.rawValue)
            text(step)
            self.item(item)
            date(at)
        case .transfer(_, let step, let item, let kind, let target, let bytesConfirmed, let fileIdentity):
            bytes.append(StepLogTag.transfer.rawValue)
            text(step)
            self.item(item)
            text(kind)
            text(target)
            count(Int(clamping: max(0, bytesConfirmed)))
            text(fileIdentity)
        case .runFinished, .stepHashes, .sharedStepHashes, .pruneRuns, .deferred:
            break
        }
    }

    /// Adds a `stepFinished` change with these fields.
    mutating func addFinished(
        step: String, item: Int?, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
        outputs: JournalOutputs, error: String?
    ) {
        closeItemEnds()
        // Most finishes: a known state, a record that is that state alone, no error.
        if case .stateOnly = outputs, error == nil, let code = StepLogEncoder.stateCodes.firstIndex(of: state) {
            return addCompactFinish(
                step: step, item: item, code: UInt8(code), attempts: attempts, startedAt: startedAt,
                finishedAt: finishedAt)
        }
        guard let code = StepLogEncoder.stateCodes.firstIndex(of: state) else {
            bytes.append(StepLogTag.finished.rawValue)
            text(step)
            self.item(item)
            text(state.rawValue)
            count(attempts)
            optionalDate(startedAt)
            date(finishedAt)
            // The secret marker: never the outputs of a step that held a secret.
            self.outputs(outputs)
            bytes.append(outputs.containsSecret ? 1 : 0)
            optionalText(error)
            return
        }
        addCodedFinish(
            step: step, item: item, code: UInt8(code), attempts: attempts, startedAt: startedAt,
            finishedAt: finishedAt, outputs: outputs, error: error)
    }

    /// A `finishedCoded` change: a `finished` one with its state as a code, written into a buffer
    /// and appended at once (each `for-each` item's end with its outputs; a field at a time, the
    /// appends' checks were most of what recording an item cost the run's queue).
    private mutating func addCodedFinish(
        step: String, item: Int?, code: UInt8, attempts: Int, startedAt: Date?, finishedAt: Date,
        outputs: JournalOutputs, error: String?
    ) {
        var (step, json) = (step, outputs.json ?? "")
        // Rare (an item's failure): copied, so that one write below serves both cases.
        let error = error.map { Array($0.utf8) }
        step.withUTF8 { id in
            json.withUTF8 { json in
                // The tag, the id, the item, the code, the attempts, two dates, the outputs, the
                // secret flag, the error: each text at most 10 bytes of length before it.
                let most =
                    1 + 10 + id.count + 10 + 1 + 10 + 9 + 8 + 1 + 10 + json.count + 1 + 1 + 10
                    + (error?.count ?? 0)
                // On the stack when small (an item's end nearly always), then appended at once.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: most) { buffer in
                    var out = ByteWriter(buffer.baseAddress!)
                    out.finishHead(
                        .finishedCoded, id: id, item: item, code: code, attempts: attempts, startedAt: startedAt,
                        finishedAt: finishedAt)
                    switch outputs {
                    case .none, .secret: out.byte(0)
                    case .stateOnly: out.byte(2)
                    case .json:
                        out.byte(1)
                        out.count(json.count)
                        out.bytes(json)
                    }
                    out.byte(outputs.containsSecret ? 1 : 0)
                    if let error {
                        out.byte(1)
                        out.count(error.count)
                        error.withUnsafeBufferPointer { out.bytes($0) }
                    } else {
                        out.byte(0)
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: out.written))
                }
            }
        }
    }

    /// A `finishedCoded` change of an item whose outputs are `{"item":N}`, without an error: the
    /// bytes `addFinished` writes for that text, the digits written from the number, no `String`.
    mutating func addItemFinished(
        step: String, item: Int, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
        wholeNumber: Int64
    ) {
        closeItemEnds()
        guard let code = StepLogEncoder.stateCodes.firstIndex(of: state) else {
            return addFinished(
                step: step, item: item, state: state, attempts: attempts, startedAt: startedAt,
                finishedAt: finishedAt, outputs: .json(#"{"item":\#(wholeNumber)}"#), error: nil)
        }
        var step = step
        step.withUTF8 { id in
            // The head, the outputs' flag and text, the secret flag, the error's flag.
            let most = 1 + 10 + id.count + 10 + 1 + 10 + 9 + 8 + 1 + ByteWriter.itemTextMost + 1 + 1
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: most) { buffer in
                var out = ByteWriter(buffer.baseAddress!)
                out.finishHead(
                    .finishedCoded, id: id, item: item, code: UInt8(code), attempts: attempts, startedAt: startedAt,
                    finishedAt: finishedAt)
                out.byte(1)
                out.itemText(wholeNumber)
                out.byte(0)
                out.byte(0)
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: out.written))
            }
        }
    }

    /// An item's end whose outputs are `{"item":N}`, without an error (a `for-each` item of a
    /// whole number without outputs: nearly every item of a long list), as an entry of an
    /// `itemEnds` change (format 6): the same change `addItemFinished` writes, in about a seventh
    /// of its bytes. Consecutive ends of one step share the change's tag and id; each entry is its
    /// state's code + 1, then varints: the item against the one before (zigzag of the difference
    /// from the next index), the attempts, the end date's bits XOR the entry before's (0 in the
    /// first), the start date's bits XOR the end's, + 1 (0: none), and N against the item (zigzag
    /// of the difference). Lossless: the dates are the same 8-byte doubles, only the bits that
    /// differ from a date close by are written. A byte 0 ends the change (`closeItemEnds`).
    ///
    /// Why: the journal's bytes were most of what it cost a long `for-each` — 46 bytes an item,
    /// written to the write-ahead log, then read back and copied into the database by its
    /// checkpoint (BENCHMARKS.md, "Run journal", round nine).
    mutating func addItemEnd(
        step: String, item: Int, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
        wholeNumber: Int64
    ) {
        let finished = finishedAt.timeIntervalSince1970.bitPattern
        let start = startedAt.map { $0.timeIntervalSince1970.bitPattern ^ finished }
        // A start whose bits differ from the end's in every one cannot be written + 1 (none in
        // practice: a date before 1970 and one after), nor a state without a code.
        guard start != UInt64.max, let code = StepLogEncoder.stateCodes.firstIndex(of: state) else {
            return addItemFinished(
                step: step, item: item, state: state, attempts: attempts, startedAt: startedAt,
                finishedAt: finishedAt, wholeNumber: wholeNumber)
        }
        if itemRun?.step != step {
            closeItemEnds()
            bytes.append(StepLogTag.itemEnds.rawValue)
            text(step)
            itemRun = (step, -1, 0)
        }
        let (previous, previousEnd) = (itemRun!.item, itemRun!.finished)
        // The code, then five varints of at most 10 bytes each.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 + 5 * 10) { buffer in
            var out = ByteWriter(buffer.baseAddress!)
            out.byte(UInt8(code) + 1)
            out.bits(Self.zigzag(item &- (previous &+ 1)))
            out.count(attempts)
            out.bits(finished ^ previousEnd)
            out.bits(start.map { $0 &+ 1 } ?? 0)
            out.bits(Self.zigzag(Int(wholeNumber) &- item))
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: out.written))
        }
        // In place: the step's id is not copied again an entry.
        itemRun!.item = item
        itemRun!.finished = finished
    }

    /// Ends the `itemEnds` change being written, if any (every other change and every reader of
    /// `bytes` comes after this).
    mutating func closeItemEnds() {
        guard itemRun != nil else { return }
        bytes.append(0)
        itemRun = nil
    }

    /// A signed difference as an unsigned number small when it is near 0 either way.
    @inline(__always)
    static func zigzag(_ value: Int) -> UInt64 {
        UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
    }

    /// The inverse of `zigzag`.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int {
        Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
    }

    /// A `finishedStateOnly` change, the change of nearly every step: written into a buffer on the
    /// stack and appended at once (a field at a time, the appends' checks were most of its cost).
    private mutating func addCompactFinish(
        step: String, item: Int?, code: UInt8, attempts: Int, startedAt: Date?, finishedAt: Date
    ) {
        var step = step
        step.withUTF8 { id in
            // The tag, the id's length and bytes, the item, the code, the attempts, two dates.
            let most = 1 + 10 + id.count + 10 + 1 + 10 + 9 + 8
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: most) { buffer in
                var out = ByteWriter(buffer.baseAddress!)
                out.finishHead(
                    .finishedStateOnly, id: id, item: item, code: code, attempts: attempts, startedAt: startedAt,
                    finishedAt: finishedAt)
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: out.written))
            }
        }
    }

    /// Makes room for `count` more bytes.
    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Adds the changes `other` encoded, after this one's.
    mutating func append(_ other: StepLogEncoder) {
        closeItemEnds()
        if bytes.isEmpty {
            bytes = other.bytes
        } else {
            bytes.append(contentsOf: other.bytes)
        }
    }

    private mutating func count(_ value: Int) {
        Self.varint(value) { bytes.append($0) }
    }

    /// Gives `value` (0 when negative) as a varint, a byte at a time: 7 bits a byte, low bits
    /// first, the high bit set on every byte but the last; at most 10 bytes.
    @inline(__always)
    static func varint(_ value: Int, _ emit: (UInt8) -> Void) {
        var rest = UInt64(max(0, value))
        while rest >= 0x80 {
            emit(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        emit(UInt8(rest))
    }

    private mutating func item(_ item: Int?) {
        count(item.map { $0 + 1 } ?? 0)
    }

    private mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    private mutating func date(_ value: Date) {
        var bits = value.timeIntervalSince1970.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    /// The states a `finishedStateOnly` change names by their place in this list (stored: never
    /// reorder it).
    static let stateCodes: [JournalStepState] = [.succeeded, .failed, .skipped, .cancelled, .running, .pending]

    /// Outputs: 0 none (or not kept: a secret, whose flag follows), 1 and the text, 2 for a
    /// record that is its state alone (`JournalOutputs.stateOnly`).
    private mutating func outputs(_ value: JournalOutputs) {
        switch value {
        case .none, .secret: bytes.append(0)
        case .stateOnly: bytes.append(2)
        case .json(let json):
            bytes.append(1)
            text(json)
        }
    }

    private mutating func optionalText(_ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        text(value)
    }

    private mutating func optionalDate(_ value: Date?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        date(value)
    }
}

/// Writes a change's fields, as `StepLogEncoder` lays them out, into memory with room for them.
private struct ByteWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private(set) var written = 0

    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
    }

    mutating func byte(_ value: UInt8) {
        start[written] = value
        written += 1
    }

    /// A varint (`StepLogEncoder.varint`): at most 10 bytes.
    mutating func count(_ value: Int) {
        StepLogEncoder.varint(value) { byte($0) }
    }

    /// All 64 bits of `value` as a varint (7 bits a byte, low bits first): at most 10 bytes.
    mutating func bits(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            byte(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        byte(UInt8(rest))
    }

    mutating func bytes(_ values: UnsafeBufferPointer<UInt8>) {
        guard let base = values.baseAddress, !values.isEmpty else { return }
        (start + written).update(from: base, count: values.count)
        written += values.count
    }

    /// The most bytes `itemText` writes: a length byte, `{"item":`, 20 characters of an `Int64`, `}`.
    static let itemTextMost = 1 + 8 + 20 + 1

    /// The text `{"item":N}`, with its length before it, as `count` and `bytes` would write the
    /// `String`: the digits straight from the number.
    mutating func itemText(_ number: Int64) {
        let head: StaticString = #"{"item":"#
        var digits = 1
        var rest = number.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let sign = number < 0 ? 1 : 0
        // The length is below 128: one byte of varint.
        byte(UInt8(head.utf8CodeUnitCount + sign + digits + 1))
        bytes(UnsafeBufferPointer(start: head.utf8Start, count: head.utf8CodeUnitCount))
        if sign == 1 { byte(UInt8(ascii: "-")) }
        // The digits in place, last first.
        rest = number.magnitude
        written += digits
        var at = written
        repeat {
            at -= 1
            start[at] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        byte(UInt8(ascii: "}"))
    }

    /// A date as the 8 little-endian bytes of its seconds since 1970.
    mutating func date(_ value: Date) {
        UnsafeMutableRawPointer(start + written).storeBytes(
            of: value.timeIntervalSince1970.bitPattern.littleEndian, as: UInt64.self)
        written += 8
    }

    /// What a `finishedStateOnly` and a `finishedCoded` change begin with: the tag, the id's length
    /// and bytes, the item + 1 (0 for none), the state's code, the attempts, the start if any (a
    /// flag byte, then the date) and the end. At most 1 + 10 + id + 10 + 1 + 10 + 9 + 8 bytes.
    mutating func finishHead(
        _ tag: StepLogTag, id: UnsafeBufferPointer<UInt8>, item: Int?, code: UInt8, attempts: Int, startedAt: Date?,
        finishedAt: Date
    ) {
        byte(tag.rawValue)
        count(id.count)
        bytes(id)
        count(item.map { $0 + 1 } ?? 0)
        byte(code)
        count(attempts)
        if let startedAt {
            byte(1)
            date(startedAt)
        } else {
            byte(0)
        }
        date(finishedAt)
    }
}

/// The kinds of change in a `step_log` cell.
enum StepLogTag: UInt8 {
    case started = 1
    case finished = 2
    case unsafeSend = 3
    case transfer = 4
    /// A finish whose record is its state alone, without an error (most steps): the
    /// state as its place in `StepLogEncoder.stateCodes`, a third fewer bytes (format 3).
    case finishedStateOnly = 5
    /// A `finished` change with its state as its place in `StepLogEncoder.stateCodes` rather
    /// than its name (format 5): a `for-each` item's end, most often.
    case finishedCoded = 6
    /// One step's `for-each` items' ends whose outputs are `{"item":N}`, without an error, each
    /// in a few bytes (format 6; see `StepLogEncoder.addItemEnd`).
    case itemEnds = 7
}

/// A `step_log` cell that is not what `StepLogEncoder` writes.
struct StepLogDamage: Error, CustomStringConvertible {
    let description: String
}

/// Reads a `step_log` cell's changes in order; every read is bounds-checked, so a damaged cell
/// throws `StepLogDamage` and never crashes.
struct StepLogDecoder {
    private let bytes: [UInt8]
    private var index = 0
    /// Whether the changes' outputs, errors and transfer fields are skipped (given as nil or ""):
    /// counting steps by state (`StepStateFold`) needs each change's step and state only.
    private let statesOnly: Bool
    /// The `itemEnds` change being read, if one is: its step, and the item and end date of the
    /// entry before.
    private var itemRun: (step: String, item: Int, finished: UInt64)?

    init(_ bytes: [UInt8], statesOnly: Bool = false) {
        self.bytes = bytes
        self.statesOnly = statesOnly
    }

    /// One change of the log, in the reader's terms.
    enum Change {
        case started(key: StepLogKey, attempt: Int, at: Date)
        case finished(
            key: StepLogKey, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date,
            outputs: JournalOutputs,
            error: String?)
        case unsafeSend(key: StepLogKey, at: Date)
        case transfer(key: StepLogKey, kind: String, target: String, bytesConfirmed: Int64, fileIdentity: String)
    }

    /// The next change, or nil at the end.
    mutating func next() throws(StepLogDamage) -> Change? {
        if itemRun != nil, let change = try itemEnd() { return change }
        guard index < bytes.count else { return nil }
        let tag = bytes[index]
        index += 1
        switch StepLogTag(rawValue: tag) {
        case .started:
            return .started(key: try key(), attempt: try count(), at: try date())
        case .finished:
            let key = try key()
            let at = index
            let state: JournalStepState
            do {
                state = try JournalStateText.step(try text(), step: key.step, item: key.item)
            } catch {
                throw StepLogDamage(description: "\(error) (byte \(at))")
            }
            return try finished(key: key, state: state)
        case .finishedStateOnly:
            let key = try key()
            let state = try stateCode()
            let attempts = try count()
            let startedAt = try flag() ? try date() : nil
            return .finished(
                key: key, state: state, attempts: attempts, startedAt: startedAt, finishedAt: try date(),
                outputs: .stateOnly, error: nil)
        case .finishedCoded:
            let key = try key()
            let state = try stateCode()
            return try finished(key: key, state: state)
        case .itemEnds:
            itemRun = (try text(), -1, 0)
            return try next()
        case .unsafeSend:
            return .unsafeSend(key: try key(), at: try date())
        case .transfer:
            return .transfer(
                key: try key(), kind: try payload(), target: try payload(), bytesConfirmed: Int64(try count()),
                fileIdentity: try payload())
        case nil:
            throw StepLogDamage(description: "unknown change \(tag) at byte \(index - 1)")
        }
    }

    /// The rest of a `finished` or `finishedCoded` change, after its key and state.
    private mutating func finished(key: StepLogKey, state: JournalStepState) throws(StepLogDamage) -> Change {
        let attempts = try count()
        let startedAt = try flag() ? try date() : nil
        let finishedAt = try date()
        var outputs: JournalOutputs
        switch try byte() {
        case 0: outputs = .none
        case 1:
            let json = try payload()
            outputs = statesOnly ? .none : .json(json)
        case 2: outputs = .stateOnly
        case let other: throw StepLogDamage(description: "outputs marked \(other) at byte \(index - 1)")
        }
        if try flag() { outputs = .secret }
        let error = try flag() ? try payload() : nil
        return .finished(
            key: key, state: state, attempts: attempts, startedAt: startedAt, finishedAt: finishedAt,
            outputs: outputs, error: error)
    }

    /// The next entry of the `itemEnds` change being read, or nil at its end (see
    /// `StepLogEncoder.addItemEnd`).
    private mutating func itemEnd() throws(StepLogDamage) -> Change? {
        guard let run = itemRun else { return nil }
        let marker = try byte()
        guard marker != 0 else {
            itemRun = nil
            return nil
        }
        let code = Int(marker) - 1
        guard code < StepLogEncoder.stateCodes.count else {
            throw StepLogDamage(description: "state \(code) at byte \(index - 1)")
        }
        let item = run.item &+ 1 &+ StepLogEncoder.unzigzag(try bits())
        guard item >= 0 else { throw StepLogDamage(description: "item \(item) at byte \(index)") }
        let attempts = try count()
        let finished = try bits() ^ run.finished
        let start = try bits()
        let number = Int64(item &+ StepLogEncoder.unzigzag(try bits()))
        itemRun = (run.step, item, finished)
        return .finished(
            key: StepLogKey(step: run.step, item: item), state: StepLogEncoder.stateCodes[code], attempts: attempts,
            startedAt: start == 0 ? nil : Date(timeIntervalSince1970: Double(bitPattern: (start &- 1) ^ finished)),
            finishedAt: Date(timeIntervalSince1970: Double(bitPattern: finished)),
            outputs: statesOnly ? .none : .json(#"{"item":\#(number)}"#), error: nil)
    }

    /// All 64 bits written by `ByteWriter.bits`.
    private mutating func bits() throws(StepLogDamage) -> UInt64 {
        try groupsOfSeven(below: 64)
    }

    /// A number written 7 bits a byte, low bits first, the high bit set on every byte but the last;
    /// a number whose groups reach `limit` bits is damage.
    private mutating func groupsOfSeven(below limit: UInt64) throws(StepLogDamage) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { break }
            shift += 7
            guard shift < limit else { throw StepLogDamage(description: "a number too long at byte \(index)") }
        }
        return value
    }

    /// A state written as its place in `StepLogEncoder.stateCodes`.
    private mutating func stateCode() throws(StepLogDamage) -> JournalStepState {
        let code = Int(try byte())
        guard code < StepLogEncoder.stateCodes.count else {
            throw StepLogDamage(description: "state \(code) at byte \(index - 1)")
        }
        return StepLogEncoder.stateCodes[code]
    }

    private mutating func key() throws(StepLogDamage) -> StepLogKey {
        let step = try text()
        let item = try count()
        return StepLogKey(step: step, item: item == 0 ? nil : item - 1)
    }

    private mutating func byte() throws(StepLogDamage) -> UInt8 {
        guard index < bytes.count else { throw StepLogDamage(description: "cut short at byte \(index)") }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func flag() throws(StepLogDamage) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw StepLogDamage(description: "a flag of \(other) at byte \(index - 1)")
        }
    }

    private mutating func count() throws(StepLogDamage) -> Int {
        // Nine groups of 7 bits are 63 bits: more cannot be an Int this encoder wrote.
        Int(try groupsOfSeven(below: 63))
    }

    private mutating func text() throws(StepLogDamage) -> String {
        let range = try textBytes()
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// A text that `statesOnly` skips: outputs, an error, a transfer's fields.
    private mutating func payload() throws(StepLogDamage) -> String {
        let range = try textBytes()
        return statesOnly ? "" : String(decoding: bytes[range], as: UTF8.self)
    }

    /// Where the next text's bytes are; reads past them.
    private mutating func textBytes() throws(StepLogDamage) -> Range<Int> {
        let length = try count()
        guard length <= bytes.count - index else {
            throw StepLogDamage(description: "text of \(length) bytes past the end at byte \(index)")
        }
        defer { index += length }
        return index..<index + length
    }

    private mutating func date() throws(StepLogDamage) -> Date {
        guard bytes.count - index >= 8 else { throw StepLogDamage(description: "a date cut short at byte \(index)") }
        var bits: UInt64 = 0
        for offset in 0..<8 { bits |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
        index += 8
        return Date(timeIntervalSince1970: Double(bitPattern: bits))
    }
}

/// A step, or one item of a `for-each` step, as the log names it.
struct StepLogKey: Hashable {
    var step: String
    var item: Int?
}
