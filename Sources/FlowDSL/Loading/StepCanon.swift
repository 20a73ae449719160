/// The bytes `NodeFingerprint` hashes for a step, written by `YAMLComposer` while it builds the
/// step's nodes, so that a step's definition fingerprint costs no second walk of its nodes
/// (issue 32: the walk cost 44 M instructions of a 10,000-step file, a node copied a visit).
///
/// A scalar is `p` (plain) or `q` (quoted), its UTF-8 and a 0xFF byte; a list `[`, its items, `]`;
/// a mapping `{`, its pairs in the order of their keys' text (`String`'s `<`, stable), `}`. The
/// composer writes each value in file order as it comes; a mapping's pairs are put in key order
/// when it ends (its values are finished, so each pair is one run of bytes). A step's fingerprint
/// is FNV-1a of its mapping's bytes without the pairs of `name` and `description`: the same value
/// `StepParser.fingerprint(of:)` computes from the nodes, which stays for what is not written here.
///
/// The buffers are raw memory grown by doubling (an `Array` checked its uniqueness and capacity
/// at each byte written, which cost as much as the walk saved); `release()` frees them.
struct StepCanon {
    /// The bytes written so far.
    private var bytes = Buffer<UInt8>()
    /// Where each node on the composer's stack starts in `bytes` (key, value, key, value... for a mapping).
    private var starts = Buffer<Int>()
    /// A mapping's pairs in key order, and their bytes while they are put in that order.
    private var order = Buffer<Int>()
    private var scratch = Buffer<UInt8>()

    /// How many bytes are written.
    var count: Int { bytes.count }

    mutating func release() {
        bytes.release()
        starts.release()
        order.release()
        scratch.release()
    }

    mutating func scalar(_ text: UnsafeBufferPointer<UInt8>, style: Node.Scalar.Style) {
        let length = text.count
        bytes.reserve(length + 2)
        let target = bytes.end
        target[0] = style.rawValue <= 1 ? UInt8(ascii: "p") : UInt8(ascii: "q")
        if let source = text.baseAddress { (target + 1).update(from: source, count: length) }
        target[length + 1] = 0xFF
        bytes.count += length + 2
    }

    mutating func append(_ byte: UInt8) {
        bytes.reserve(1)
        bytes.end[0] = byte
        bytes.count += 1
    }

    /// Drops the bytes from `start` on: a step's bytes once the step is done.
    mutating func truncate(to start: Int) {
        bytes.count = start
    }

    /// Records where the node pushed on the composer's stack starts.
    mutating func pushStart(_ start: Int) {
        starts.reserve(1)
        starts.end[0] = start
        starts.count += 1
    }

    /// Forgets the starts of the nodes popped off the composer's stack, which holds `count` now.
    mutating func popStarts(to count: Int) {
        starts.count = count
    }

    /// Ends the mapping whose `{` is at `open` and whose keys and values start at the starts from
    /// `first` on: puts its pairs in key order and writes `}`. With `fingerprint`, returns the
    /// FNV-1a of its bytes without the pairs of `name` and `description`.
    mutating func closeMapping(open: Int, first: Int, fingerprint: Bool) -> UInt64? {
        let pairs = (starts.count - first) / 2
        let end = bytes.count
        let keys = starts.base + first
        order.reserve(pairs)
        let order = self.order.base
        let buffer = bytes.base
        // A stable insertion sort of the pairs by their keys' text.
        var permuted = false
        for pair in 0..<pairs {
            var slot = pair
            while slot > 0, Self.less(pair, than: order[slot - 1], keys: keys, in: buffer) {
                order[slot] = order[slot - 1]
                slot -= 1
            }
            order[slot] = pair
            if slot != pair { permuted = true }
        }
        func span(_ pair: Int) -> Range<Int> {
            keys[2 * pair]..<(pair + 1 < pairs ? keys[2 * pair + 2] : end)
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if fingerprint {
            let prime: UInt64 = 0x0000_0100_0000_01b3
            hash = (hash ^ UInt64(buffer[open])) &* prime
            for slot in 0..<pairs {
                let pair = order[slot]
                if Self.isUndefining(Self.keyText(pair, keys: keys, in: buffer), in: buffer) { continue }
                for index in span(pair) { hash = (hash ^ UInt64(buffer[index])) &* prime }
            }
            hash = (hash ^ UInt64(UInt8(ascii: "}"))) &* prime
        }
        if permuted {
            let from = keys[0]
            scratch.count = 0
            scratch.reserve(end - from)
            let saved = scratch.base
            saved.update(from: buffer + from, count: end - from)
            var write = from
            for slot in 0..<pairs {
                let pairSpan = span(order[slot])
                (buffer + write).update(from: saved + (pairSpan.lowerBound - from), count: pairSpan.count)
                write += pairSpan.count
            }
        }
        append(UInt8(ascii: "}"))
        return fingerprint ? hash : nil
    }

    /// The text of pair `pair`'s key, without its style byte and its 0xFF; empty for a key that
    /// is a collection (as `NodeFingerprint` reads it) or an alias (not written here).
    private static func keyText(_ pair: Int, keys: UnsafeMutablePointer<Int>, in buffer: UnsafeMutablePointer<UInt8>)
        -> Range<Int>
    {
        let start = keys[2 * pair]
        let valueStart = keys[2 * pair + 1]
        guard start + 2 <= valueStart, buffer[start] == UInt8(ascii: "p") || buffer[start] == UInt8(ascii: "q")
        else { return start..<start }
        return (start + 1)..<(valueStart - 1)
    }

    /// Whether pair `left`'s key comes before pair `right`'s by `String`'s `<` of their texts.
    private static func less(
        _ left: Int, than right: Int, keys: UnsafeMutablePointer<Int>, in buffer: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let a = keyText(left, keys: keys, in: buffer)
        let b = keyText(right, keys: keys, in: buffer)
        var high: UInt8 = 0
        for index in a { high |= buffer[index] }
        for index in b { high |= buffer[index] }
        guard high < 0x80 else {
            // Outside ASCII, `String` compares by canonical equivalence, not by bytes.
            return String(decoding: UnsafeBufferPointer(start: buffer + a.lowerBound, count: a.count), as: UTF8.self)
                < String(decoding: UnsafeBufferPointer(start: buffer + b.lowerBound, count: b.count), as: UTF8.self)
        }
        let common = min(a.count, b.count)
        for offset in 0..<common {
            let x = buffer[a.lowerBound + offset]
            let y = buffer[b.lowerBound + offset]
            if x != y { return x < y }
        }
        return a.count < b.count
    }

    /// `name` and `description`: the keys `StepParser.undefiningKeys` leaves out of a step's fingerprint.
    private static func isUndefining(_ key: Range<Int>, in buffer: UnsafeMutablePointer<UInt8>) -> Bool {
        func equals(_ word: StaticString) -> Bool {
            guard key.count == word.utf8CodeUnitCount else { return false }
            let pointer = word.utf8Start
            for offset in 0..<key.count where buffer[key.lowerBound + offset] != pointer[offset] { return false }
            return true
        }
        return equals("name") || equals("description")
    }

    /// Raw memory for `count` elements, grown by doubling.
    private struct Buffer<Element> {
        private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 64)
        private var capacity = 64
        var count = 0

        /// Where the next element goes.
        var end: UnsafeMutablePointer<Element> { base + count }

        /// Makes room for `extra` more elements.
        mutating func reserve(_ extra: Int) {
            guard count + extra > capacity else { return }
            var grown = capacity * 2
            while grown < count + extra { grown *= 2 }
            let moved = UnsafeMutablePointer<Element>.allocate(capacity: grown)
            moved.moveInitialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = grown
        }

        func release() {
            base.deallocate()
        }
    }
}
