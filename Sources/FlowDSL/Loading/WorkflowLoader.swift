/// Reads, parses and checks workflow files. Every problem comes back as a diagnostic; nothing
/// here crashes or throws on bad input.
package enum WorkflowLoader {
    /// Reads the file at `path` (refusing directories, unreadable and oversized files) and checks it.
    package static func load(path: String) -> CheckResult {
        load(path: path, context: UsesContext(root: path))
    }

    /// Reads and checks one file of a `uses` chain (`context` knows the chain and the files done).
    static func load(path: String, context: UsesContext) -> CheckResult {
        switch FileContents.read(path: path, limit: InputLimits.maximumFileSize) {
        case .success(let bytes):
            return check(bytes: bytes, file: path, context: context)
        case .failure(let problem):
            return CheckResult(
                workflow: nil,
                diagnostics: [.error(problem.message, at: nil, hint: problem.hint)],
                file: path,
                sourceLines: []
            )
        }
    }

    /// Checks workflow text; `file` names it in diagnostics.
    package static func check(source: String, file: String) -> CheckResult {
        check(bytes: Array(source.utf8), file: file)
    }

    /// Checks workflow bytes, which must be UTF-8 text; `file` names them in diagnostics.
    package static func check(bytes: [UInt8], file: String) -> CheckResult {
        check(bytes: bytes, file: file, context: UsesContext(root: file))
    }

    /// The same, on two cores (`true`) or one (`false`) whatever the size: the result must be
    /// the same either way (by default files of `StepStream.threshold` bytes and more get two).
    package static func check(bytes: [UInt8], file: String, twoCores: Bool) -> CheckResult {
        check(bytes: bytes, file: file, context: UsesContext(root: file), twoCores: twoCores)
    }

    static func check(bytes: [UInt8], file: String, context: UsesContext, twoCores: Bool? = nil) -> CheckResult {
        // A UTF-8 byte-order mark, as some Windows editors write, is not part of the text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return check(bytes: Array(bytes.dropFirst(3)), file: file, context: context, twoCores: twoCores)
        }
        func failure(_ message: String, line: Int? = nil, column: Int = 1, hint: String? = nil, lines: [Substring] = [])
            -> CheckResult
        {
            let location = line.map { SourceLocation(file: file, line: $0, column: column) }
            return CheckResult(
                workflow: nil,
                diagnostics: [.error(message, at: location, hint: hint)],
                file: file,
                sourceLines: lines
            )
        }
        if bytes.count > InputLimits.maximumFileSize {
            return failure(
                "the file is \(bytes.count) bytes; flow reads workflows of at most \(SizeSyntax.format(InputLimits.maximumFileSize))",
                hint: "see \"Limits\" in Grammar.md"
            )
        }
        if bytes.contains(0) {
            return failure("the file is binary, not YAML text (it contains NUL bytes)")
        }
        guard let source = String(validating: bytes, as: UTF8.self) else {
            return failure("the file is not UTF-8 text", hint: "workflow files are UTF-8 encoded YAML")
        }
        let lines = SourceLines.split(source)
        if source.allSatisfy({ $0.isWhitespace }) {
            return failure("the file is empty", hint: "a workflow starts with 'version: 1' and has 'steps:'")
        }
        // One libyaml pass checks the YAML and builds the tree the parsers read; a large file's
        // steps are parsed on a second core meanwhile.
        let stream = StepStream.start(file: file, wanted: twoCores ?? (bytes.count >= StepStream.threshold))
        let outcome = YAMLComposer.compose(bytes, stream: stream)
        var streamed: StepStream.Parsed?
        if let stream {
            if case .document = outcome { streamed = stream.finish(keep: true) } else { _ = stream.finish(keep: false) }
        }
        switch outcome {
        case .problems(let problems):
            let diagnostics = problems.map { LayoutHint.improve($0, lines: lines) }.map { problem in
                Diagnostic.error(
                    problem.message, at: SourceLocation(file: file, line: problem.line, column: problem.column),
                    length: problem.length, hint: problem.hint)
            }
            return CheckResult(workflow: nil, diagnostics: diagnostics, file: file, sourceLines: lines)
        case .noDocument:
            return failure("the file has no YAML document", hint: "a workflow starts with 'version: 1'")
        case .document(let root):
            return WorkflowChecker.check(
                root: root, file: file, sourceLines: lines, context: context, streamed: streamed,
                twoCores: stream != nil)
        }
    }
}
