/// Warns about `${{ }}` the shell will never expand: a script's n-th expression becomes
/// `${FLOW_EXPR_n}`, and inside single quotes (or a heredoc with a quoted delimiter) the shell
/// prints that reference as it stands instead of the value.
enum ShellQuoteCheck {
    /// A warning for each `${{ }}` of every shell script (steps and services) the shell does not expand.
    static func diagnostics(in workflow: Workflow) -> [Diagnostic] {
        var scripts: [ScalarText] = []
        for service in workflow.services {
            if case .script(let script) = service.command { scripts.append(script) }
        }
        for step in workflow.allSteps {
            if case .run(let run) = step.kind, case .script(let script) = run.command { scripts.append(script) }
        }
        return scripts.flatMap(diagnostics(in:))
    }

    static func diagnostics(in script: ScalarText) -> [Diagnostic] {
        guard let template = script.template, !template.isLiteral else { return [] }
        let characters = Array(script.text)
        let literal = literalRanges(characters)
        return template.expressions.enumerated().compactMap { number, embedded in
            guard let quoting = literal.first(where: { $0.range.contains(embedded.openingOffset) })?.quoting else {
                return nil
            }
            // A block script has no column mapping onto the file: name the script's own line.
            let line = characters[..<embedded.openingOffset].filter { $0 == "\n" }.count + 1
            let place = script.textStart == nil && characters.contains("\n") ? " (line \(line) of the script)" : ""
            return .warning(
                "'${{ }}' inside \(quoting)\(place): the shell does not expand it, so the command sees the text "
                    + "'${FLOW_EXPR_\(number + 1)}' instead of the value",
                at: script.location(ofOffset: embedded.openingOffset),
                length: embedded.length,
                hint: "put it in double quotes (\"${{ … }}\"), or set it in the step's env: and read \"$NAME\""
            )
        }
    }

    /// The character ranges of `text` the shell takes literally: single-quoted strings and the
    /// bodies of heredocs whose delimiter is quoted (`<<'EOF'`, `<<"EOF"`, `<<\EOF`). The body of
    /// a heredoc with a plain delimiter is expanded, quotes in it included, so it is skipped.
    static func literalRanges(_ text: [Character]) -> [(range: Range<Int>, quoting: String)] {
        var ranges: [(range: Range<Int>, quoting: String)] = []
        var pendingHeredocs: [(delimiter: String, quoted: Bool)] = []
        var index = 0
        var inDouble = false
        var atWordStart = true
        while index < text.count {
            let character = text[index]
            if character == "\n" {
                index += 1
                // Heredoc bodies start on the line after their `<<`.
                for (delimiter, quoted) in pendingHeredocs {
                    let start = index
                    while index < text.count {
                        let end = text[index...].firstIndex(of: "\n") ?? text.count
                        let line = String(text[index..<end]).drop { $0 == "\t" }
                        index = min(end + 1, text.count)
                        if line == delimiter || end == text.count {
                            if quoted { ranges.append((start..<index, "a heredoc with a quoted delimiter")) }
                            break
                        }
                    }
                }
                pendingHeredocs = []
                atWordStart = true
                continue
            }
            if inDouble {
                if character == "\\" {
                    index += 2
                    continue
                }
                if character == "\"" { inDouble = false }
                index += 1
                continue
            }
            switch character {
            case "\\":
                index += 2
                atWordStart = false
                continue
            case "\"":
                inDouble = true
            case "'":
                let end = text[(index + 1)...].firstIndex(of: "'") ?? text.count
                ranges.append((index..<min(end + 1, text.count), "single quotes"))
                index = end + 1
                atWordStart = false
                continue
            case "#" where atWordStart:
                // A comment: nothing in it runs.
                index = text[index...].firstIndex(of: "\n") ?? text.count
                continue
            case "<" where index + 1 < text.count && text[index + 1] == "<":
                if let (delimiter, quoted, next) = heredocDelimiter(text, after: index + 2) {
                    pendingHeredocs.append((delimiter, quoted))
                    index = next
                    continue
                }
            default:
                break
            }
            atWordStart =
                character == " " || character == "\t" || character == ";" || character == "|"
                || character == "&" || character == "(" || character == ")"
            index += 1
        }
        return ranges
    }

    /// The delimiter of a heredoc (`<<EOF`, `<<-EOF`), whether it is quoted (`<<'EOF'`, `<<"EOF"`,
    /// `<<\EOF`: the body is then literal), and the offset after it; nil when `<<` starts no heredoc.
    private static func heredocDelimiter(_ text: [Character], after start: Int) -> (String, Bool, Int)? {
        var index = start
        if index < text.count, text[index] == "-" { index += 1 }
        while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 }
        guard index < text.count else { return nil }
        let quote = text[index]
        if quote == "'" || quote == "\"" {
            guard let end = text[(index + 1)...].firstIndex(of: quote) else { return nil }
            return (String(text[(index + 1)..<end]), true, end + 1)
        }
        let quoted = quote == "\\"
        if quoted { index += 1 }
        var end = index
        while end < text.count, text[end].isLetter || text[end].isNumber || text[end] == "_" { end += 1 }
        guard end > index else { return nil }
        return (String(text[index..<end]), quoted, end)
    }
}
