/// The composer's stack of finished nodes waiting for their collection to end, in raw memory so
/// that a collection's nodes are moved into its array, not copied and then released one by one
/// off an `Array` (issue 32: a retain and a release per node, most of them atomic). The owner
/// calls `release()` once, as `StepCanon`'s owner does.
struct NodeStack {
    private var base: UnsafeMutablePointer<Node>
    private var capacity: Int
    /// How many nodes are on the stack.
    private(set) var count = 0

    init() {
        capacity = 256
        base = .allocate(capacity: capacity)
    }

    /// Pushes `node`, growing the memory by doubling.
    mutating func append(_ node: consuming Node) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Node>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: node)
        count += 1
    }

    /// The node at `position`, copied.
    subscript(position: Int) -> Node {
        base[position]
    }

    /// Whether the node at `position` is a scalar whose text is `text`, read in place.
    func isScalar(_ position: Int, _ text: String) -> Bool {
        guard case .scalar(let scalar) = base[position] else { return false }
        return scalar.string == text
    }

    /// The nodes from `start` on, moved into a mapping's pairs (key, value, key, value...); the
    /// stack then ends at `start`.
    mutating func movePairs(from start: Int) -> [Node.Pair] {
        var pairs: [Node.Pair] = []
        pairs.reserveCapacity((count - start) / 2)
        var position = start
        while position + 1 < count {
            pairs.append(Node.Pair(keyNode: (base + position).move(), value: (base + position + 1).move()))
            position += 2
        }
        // An odd node left (none in a well-formed mapping) is dropped like the rest.
        if position < count { (base + position).deinitialize(count: 1) }
        count = start
        return pairs
    }

    /// The nodes from `start` on, moved into a list's items; the stack then ends at `start`.
    mutating func moveItems(from start: Int) -> [Node] {
        var items: [Node] = []
        items.reserveCapacity(count - start)
        for position in start..<count { items.append((base + position).move()) }
        count = start
        return items
    }

    /// Calls `body` with the nodes in place (no copy of the stack).
    func withNodes<Result>(_ body: (UnsafeBufferPointer<Node>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Frees the nodes left and the memory.
    mutating func release() {
        base.deinitialize(count: count)
        base.deallocate()
        count = 0
        capacity = 0
    }
}
