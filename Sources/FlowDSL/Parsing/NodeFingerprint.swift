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

    private mutating func addByte(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01b3
    }

    private mutating func addText(_ text: String) {
        for byte in text.utf8 { addByte(byte) }
        addByte(0xFF)
    }

    /// Adds `node`, leaving out the pairs of a top-level mapping whose key is in `skipping`.
    mutating func addNode(_ node: Node, skipping: Set<String>) {
        if let scalar = node.scalar {
            addByte(scalar.style.rawValue <= 1 ? UInt8(ascii: "p") : UInt8(ascii: "q"))
            addText(scalar.string)
        } else if case .sequence(let list) = node {
            addByte(UInt8(ascii: "["))
            for index in list.nodes.indices { addNode(list.nodes[index], skipping: []) }
            addByte(UInt8(ascii: "]"))
        } else if case .mapping(let mapping) = node {
            addMapping(mapping, skipping: skipping)
        }
    }

    private mutating func addMapping(_ mapping: Node.Mapping, skipping: Set<String>) {
        addByte(UInt8(ascii: "{"))
        // Key order does not count: pairs in the order of their keys' text.
        var keyed: [(key: String, index: Int)] = []
        keyed.reserveCapacity(mapping.pairs.count)
        for index in mapping.pairs.indices {
            let key = mapping.pairs[index].key.scalar?.string ?? ""
            if skipping.contains(key) { continue }
            keyed.append((key, index))
        }
        if keyed.count > 1 { keyed.sort { $0.key < $1.key } }
        for entry in keyed {
            addNode(mapping.pairs[entry.index].key, skipping: [])
            addNode(mapping.pairs[entry.index].value, skipping: [])
        }
        addByte(UInt8(ascii: "}"))
    }
}
