/// Plain words for the YAML syntax errors that layout slips cause. libyaml reports where it
/// gave up ("did not find expected key", "mapping values are not allowed in this context") and
/// the block it was in; the user needs to hear which line is off and what to do about it.
enum LayoutHint {
    /// `problem` with a message and hint about the offending line, when it is one of the common
    /// slips: a key indented to match no mapping above it, a line indented deeper than the key
    /// before it (so YAML reads it as part of that value), or a value holding an unquoted `: `.
    static func improve(_ problem: YAMLComposer.Problem, lines: [Substring]) -> YAMLComposer.Problem {
        guard let error = problem.syntaxError, problem.line >= 1, problem.line <= lines.count else { return problem }
        let line = lines[problem.line - 1]
        if error.hasPrefix("did not find expected key"), let hint = misalignedKey(at: problem.line, lines: lines) {
            return YAMLComposer.Problem(
                message: "invalid YAML: line \(problem.line) is indented \(spaces(indent(of: line))), "
                    + "which lines up with no mapping above it",
                line: problem.line, column: indent(of: line) + 1, hint: hint, syntaxError: error)
        }
        if error.hasPrefix("mapping values are not allowed") {
            let characters = Array(line)
            let before = line.prefix(max(0, problem.column - 1))
            if let separator = keySeparator(in: before) {
                let start = indent(of: line)
                var key = String(characters[start..<(start + separator)])
                if key.hasPrefix("- ") { key = key.dropFirst(2).trimmingSpaces }
                let text = String(characters[(start + separator + 1)...]).trimmingSpaces
                return YAMLComposer.Problem(
                    message: "invalid YAML: the value of '\(Echo.text(key))' holds ': ', which YAML reads as a new key",
                    line: problem.line, column: problem.column,
                    hint: "quote the value: \(Echo.text(key)): \(Echo.text(quoted(text), limit: 80))"
                        + (text.contains("\\")
                            ? " (single quotes keep '\\' as written, as a '|' block does)" : ""),
                    syntaxError: error)
            }
            if let previous = previousContentLine(before: problem.line, lines: lines),
                indent(of: line) > indent(of: lines[previous - 1]), keySeparator(in: lines[previous - 1]) != nil
            {
                let above = lines[previous - 1]
                let key = String(above.dropFirst(indent(of: above)).prefix { $0 != ":" })
                return YAMLComposer.Problem(
                    message: "invalid YAML: line \(problem.line) is indented deeper than '\(Echo.text(key)):' "
                        + "on line \(previous), so YAML reads it as part of that value",
                    line: problem.line, column: indent(of: line) + 1,
                    hint: "line it up with '\(Echo.text(key)):' (\(spaces(indent(of: above)))), or quote the value "
                        + "if it really holds ': '",
                    syntaxError: error)
            }
        }
        return problem
    }

    /// For a key that ends a block at the wrong depth: the depths it could line up with.
    private static func misalignedKey(at number: Int, lines: [Substring]) -> String? {
        let depth = indent(of: lines[number - 1])
        var deeper: (line: Int, indent: Int)?
        var shallower: (line: Int, indent: Int)?
        var index = number - 1
        while index >= 1, shallower == nil {
            let candidate = lines[index - 1]
            index -= 1
            guard isContent(candidate) else { continue }
            let other = indent(of: candidate)
            if other > depth, deeper == nil { deeper = (index + 1, other) }
            if other < depth, keySeparator(in: candidate) != nil || candidate.dropFirst(other).hasPrefix("- ") {
                shallower = (index + 1, other)
            }
        }
        guard let deeper else { return nil }
        var options = "the keys at \(spaces(deeper.indent)) (line \(deeper.line))"
        // The line's keys end the block above; the depth of the block's own parent is the other choice.
        var siblingDepths = [Int]()
        for candidate in lines[(shallower?.line ?? 1) - 1..<(number - 1)] where isContent(candidate) {
            let other = indent(of: candidate)
            if depth > other, other > (shallower?.indent ?? -1), !siblingDepths.contains(other) {
                siblingDepths.append(other)
            }
        }
        if let sibling = siblingDepths.last {
            options += " or at \(spaces(sibling))"
        } else if let shallower {
            options += " or at \(spaces(shallower.indent)) (line \(shallower.line))"
        }
        return "line it up with \(options)"
    }

    /// The offset of the `:` that ends a key on this line (`key: value` or `key:`), if any.
    private static func keySeparator(in line: Substring) -> Int? {
        let scalars = Array(line)
        var quote: Character?
        for (offset, scalar) in scalars.enumerated() {
            if let open = quote {
                if scalar == open { quote = nil }
                continue
            }
            if scalar == "#", offset == 0 || scalars[offset - 1] == " " { return nil }
            if (scalar == "\"" || scalar == "'"), offset == indent(of: line) { quote = scalar }
            if scalar == ":", offset + 1 == scalars.count || scalars[offset + 1] == " " {
                return offset - indent(of: line)
            }
        }
        return nil
    }

    private static func previousContentLine(before number: Int, lines: [Substring]) -> Int? {
        var index = number - 1
        while index >= 1 {
            if isContent(lines[index - 1]) { return index }
            index -= 1
        }
        return nil
    }

    private static func isContent(_ line: Substring) -> Bool {
        let rest = line.drop { $0 == " " }
        return !rest.isEmpty && !rest.hasPrefix("#")
    }

    private static func indent(of line: Substring) -> Int {
        line.prefix { $0 == " " }.count
    }

    private static func spaces(_ count: Int) -> String {
        count == 1 ? "1 space" : "\(count) spaces"
    }

    /// `text` quoted so that YAML reads back exactly `text`: in double quotes when that is plain,
    /// in single quotes when it holds `"` or `\` (inside double quotes YAML reads `\0` as a NUL
    /// and `\n` as a line break; single quotes keep every character but `'`, which is doubled).
    static func quoted(_ text: String) -> String {
        guard text.contains("\"") || text.contains("\\") else { return "\"\(text)\"" }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }
}
