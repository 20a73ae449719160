/// A 64-bit FNV-1a fingerprint of a YAML value, taken while the step is parsed: what a resumed
/// run compares to find the steps whose definition changed (see `Step.definitionFingerprint`).
///
/// It depends on the value only: comments, spacing, flow or block style, key order and where the
/// value is in the file do not count; a scalar's text does, and whether it was written plain
/// (`true` is a boolean, `"true"` a string). Each text is followed by a byte UTF-8 never uses, so
/// `ab` + `c` and `a` + `bc` differ. Reading the node tree the parser already holds costs a
/// fraction of parsing it; the reflection it replaces cost more than running the steps.
struct NodeFingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    private mutating func addByte(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= Self.prime
    }

    private mutating func addText(_ text: String) {
        // Over the contiguous bytes, with the value in a local (issue 19).
        var text = text
        var value = self.value
        text.withUTF8 { bytes in
            for byte in bytes {
                value ^= UInt64(byte)
                value &*= Self.prime
            }
        }
        self.value = value
        addByte(0xFF)
    }

    /// Adds `node`, leaving out the pairs of a top-level mapping whose key is in `skipping`.
    mutating func addNode(_ node: Node, skipping: [String] = []) {
        switch node {
        case .scalar(let scalar):
            addByte(scalar.style.rawValue <= 1 ? UInt8(ascii: "p") : UInt8(ascii: "q"))
            addText(scalar.string)
        case .sequence(let list):
            addByte(UInt8(ascii: "["))
            for index in list.nodes.indices { addNode(list.nodes[index]) }
            addByte(UInt8(ascii: "]"))
        case .mapping(let mapping):
            addMapping(mapping, skipping: skipping)
        }
    }

    private static func keyText(_ key: Node) -> String {
        if case .scalar(let scalar) = key { return scalar.string }
        return ""
    }

    private mutating func addMapping(_ mapping: Node.Mapping, skipping: [String]) {
        addByte(UInt8(ascii: "{"))
        // Key order does not count: pairs in the order of their keys' text (a stable insertion
        // sort of their positions, in a buffer on the stack rather than an array per mapping).
        let pairs = mapping
        withUnsafeTemporaryAllocation(of: Int.self, capacity: pairs.count) { order in
            var count = 0
            for index in pairs.indices {
                let key = Self.keyText(pairs[index].key)
                if !skipping.isEmpty, skipping.contains(key) { continue }
                var slot = count
                while slot > 0, key < Self.keyText(pairs[order[slot - 1]].key) {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = index
                count += 1
            }
            for slot in 0..<count {
                addNode(pairs[order[slot]].key)
                addNode(pairs[order[slot]].value)
            }
        }
        addByte(UInt8(ascii: "}"))
    }
}
