extension Parser {
    /// The tree and reference of an expression that is one plain path, `steps.fetch.outputs.v`
    /// (names and dots only, no spaces between them), read in one pass over the codes; `nil` for
    /// anything else, which the full parser reads. Most `${{ }}` in a workflow are such paths, and
    /// the token-by-token descent through every precedence level cost thousands of instructions
    /// for each (issue 32). The result is what the full parser makes of the same text.
    static func parsePlainPath(_ text: SourceText) -> (root: SyntaxNode, reference: Reference)? {
        let count = text.count
        var position = 0
        while position < count, text.isWhitespace(position) { position += 1 }
        guard position < count, Lexer.isIdentifierStart(text[position]) else { return nil }
        let rootStart = position
        skipName(text, &position)
        let rootName = text.text(rootStart..<position)
        // `true`, `false` and `null` are literals, not roots.
        switch position - rootStart {
        case 4, 5:
            if rootName == "true" || rootName == "false" || rootName == "null" { return nil }
        default: break
        }
        let rootSpan = Span(offset: rootStart, length: position - rootStart)
        var accessors: [SyntaxNode.Accessor] = []
        var path: [PathComponent] = []
        while position < count, text[position] == UInt8(ascii: ".") {
            let dot = position
            position += 1
            guard position < count, Lexer.isIdentifierStart(text[position]) else { return nil }
            let nameStart = position
            skipName(text, &position)
            // After a dot the keywords are plain names, spelled as written.
            let key = text.text(nameStart..<position)
            if accessors.isEmpty {
                accessors.reserveCapacity(4)
                path.reserveCapacity(4)
            }
            accessors.append(.key(key, Span(offset: dot, length: position - dot)))
            path.append(.key(key))
        }
        let end = position
        while position < count, text.isWhitespace(position) { position += 1 }
        guard position == count else { return nil }
        let root = SyntaxNode.root(rootName, rootSpan)
        return (
            accessors.isEmpty ? root : .access(root, accessors),
            Reference(root: rootName, path: path, offset: rootStart, length: end - rootStart)
        )
    }

    private static func skipName(_ text: SourceText, _ position: inout Int) {
        while position < text.count, Lexer.isIdentifierPart(text[position]) { position += 1 }
    }
}
