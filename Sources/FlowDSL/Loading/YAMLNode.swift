/// One YAML value as `YAMLComposer` builds it from libyaml's events: what the parsers read and
/// where it starts. Aliases are resolved to the node they name, as YAML's composition does;
/// tags never get this far (the composer refuses them).
enum Node {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    /// A 1-based line and column; columns count Unicode scalars, as libyaml's marks do. Kept
    /// as 32-bit numbers (files are at most `InputLimits`' size): every node carries one, and
    /// smaller nodes are less memory to fill and walk (issue 32).
    struct Mark {
        private let storedLine: UInt32
        private let storedColumn: UInt32

        var line: Int { Int(storedLine) }
        var column: Int { Int(storedColumn) }

        init(line: Int, column: Int) {
            storedLine = UInt32(truncatingIfNeeded: line)
            storedColumn = UInt32(truncatingIfNeeded: column)
        }
    }

    /// A scalar's text, how it was written and where.
    struct Scalar {
        /// How a scalar is written; the raw values are libyaml's `yaml_scalar_style_t`.
        enum Style: UInt32 {
            case any = 0
            case plain
            case singleQuoted
            case doubleQuoted
            case literal
            case folded
        }

        let string: String
        let style: Style
        let mark: Mark
    }

    /// One key of a mapping with its value. The parsers read a mapping's pairs as they are stored
    /// (`NodeReader.Entry`), so none copies them into an array of its own (issue 32).
    ///
    /// A scalar key (the usual case) is not stored a second time as a node: its text is `key` and
    /// its mark and style are kept beside it, 64 bytes a pair instead of 80 (issue 32: the pairs
    /// were the largest part of a checked file's heap). A key written as a collection is kept
    /// whole, in a box.
    struct Pair {
        /// The key's text when the key is a scalar; empty for a key written as a collection.
        let key: String
        private let collectionKey: CollectionKey?
        private let keyMark: Mark
        let value: Node
        private let keyStyle: Scalar.Style

        init(keyNode: Node, value: Node) {
            self.value = value
            if case .scalar(let scalar) = keyNode {
                key = scalar.string
                collectionKey = nil
                keyMark = scalar.mark
                keyStyle = scalar.style
            } else {
                key = ""
                collectionKey = CollectionKey(node: keyNode)
                keyMark = keyNode.mark
                keyStyle = .any
            }
        }

        /// The key as a node, as it was written.
        var keyNode: Node {
            if let collectionKey { return collectionKey.node }
            return .scalar(Scalar(string: key, style: keyStyle, mark: keyMark))
        }
    }

    /// A mapping key written as a collection (rare; the parsers refuse it), kept whole.
    final class CollectionKey {
        let node: Node

        init(node: Node) {
            self.node = node
        }
    }

    /// A mapping's pairs in file order (keys are unique: the composer refuses repeats).
    struct Mapping: RandomAccessCollection {
        let entries: [Pair]
        /// The fingerprint's value; an optional `UInt64` would take 9 bytes and make every node
        /// 8 bytes larger (issue 32).
        private let fingerprintValue: UInt64
        let mark: Mark
        /// Whether every key is a scalar (the usual case: `entries` then serve the parsers as they are).
        let scalarKeys: Bool
        private let hasFingerprint: Bool

        init(entries: [Pair], scalarKeys: Bool, mark: Mark, fingerprint: UInt64? = nil) {
            self.entries = entries
            self.fingerprintValue = fingerprint ?? 0
            self.mark = mark
            self.scalarKeys = scalarKeys
            self.hasFingerprint = fingerprint != nil
        }

        /// A step's definition fingerprint, when the composer took it as it built the step (see
        /// `StepCanon`); nil for other mappings.
        var fingerprint: UInt64? { hasFingerprint ? fingerprintValue : nil }

        var startIndex: Int { entries.startIndex }
        var endIndex: Int { entries.endIndex }
        subscript(position: Int) -> (key: Node, value: Node) { (entries[position].keyNode, entries[position].value) }
    }

    /// A list's items in order.
    struct Sequence: RandomAccessCollection {
        let nodes: [Node]
        let mark: Mark

        var startIndex: Int { nodes.startIndex }
        var endIndex: Int { nodes.endIndex }
        subscript(position: Int) -> Node { nodes[position] }
    }

    /// Where the node starts.
    var mark: Mark {
        switch self {
        case .scalar(let scalar): return scalar.mark
        case .mapping(let mapping): return mapping.mark
        case .sequence(let sequence): return sequence.mark
        }
    }

    /// The scalar, when the node is one.
    var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// Whether two nodes hold the same value, wherever they are written (YAML's key equality:
    /// scalars by their text, collections item by item).
    func sameValue(as other: Node) -> Bool {
        switch (self, other) {
        case (.scalar(let left), .scalar(let right)):
            return left.string == right.string
        case (.sequence(let left), .sequence(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.sameValue(as: $1) }
        case (.mapping(let left), .mapping(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.key.sameValue(as: $1.key) && $0.value.sameValue(as: $1.value) }
        default:
            return false
        }
    }
}
