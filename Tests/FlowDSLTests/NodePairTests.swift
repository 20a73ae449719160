import Testing

@testable import FlowDSL

/// A mapping's pair keeps a scalar key as its text, mark and style rather than as a second node
/// (issue 32: the pairs were the largest part of a checked file's heap, 80 bytes each), and gives
/// back the key node as it was written; a key written as a collection is kept whole.
@Suite struct NodePairTests {
    @Test func aPairTakes64Bytes() {
        #expect(MemoryLayout<Node.Pair>.stride == 64)
    }

    @Test func aScalarKeyComesBackWithItsTextStyleAndMark() throws {
        let mark = Node.Mark(line: 70_000, column: 12)
        let text = "a key longer than fifteen bytes"
        let keyNode = Node.scalar(Node.Scalar(string: text, style: .doubleQuoted, mark: mark))
        let value = Node.scalar(Node.Scalar(string: "v", style: .plain, mark: Node.Mark(line: 70_000, column: 50)))
        let pair = Node.Pair(keyNode: keyNode, value: value)
        #expect(pair.key == text)
        let scalar = try #require(pair.keyNode.scalar)
        #expect(scalar.string == pair.key)
        #expect(scalar.style == .doubleQuoted)
        #expect(scalar.mark.line == 70_000 && scalar.mark.column == 12)
        #expect(pair.value.scalar?.string == "v")
    }

    @Test func aCollectionKeyIsKeptWhole() throws {
        let item = Node.scalar(Node.Scalar(string: "x", style: .plain, mark: Node.Mark(line: 2, column: 4)))
        let keyNode = Node.sequence(Node.Sequence(nodes: [item, item], mark: Node.Mark(line: 2, column: 3)))
        let pair = Node.Pair(keyNode: keyNode, value: item)
        #expect(pair.key.isEmpty)
        guard case .sequence(let sequence) = pair.keyNode else {
            Issue.record("the key came back as \(pair.keyNode)")
            return
        }
        #expect(sequence.count == 2 && sequence.mark.line == 2 && sequence.mark.column == 3)
        #expect(pair.keyNode.sameValue(as: keyNode))
    }
}
