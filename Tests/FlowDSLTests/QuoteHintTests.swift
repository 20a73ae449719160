import FlowDSL
import Testing

/// The "quote the value" hint gives a line that, pasted in, makes YAML read the value as written:
/// a backslash stays a backslash (in double quotes YAML would read `\0` as a NUL).
@Suite struct QuoteHintTests {
    @Test(arguments: [
        #"printf '%s\n' status: \0done"#, #"echo status: "done""#, "echo status: it's done", "echo status: done",
    ])
    func followingTheHintKeepsTheValue(script: String) throws {
        let broken = "version: 1\nsteps:\n  note:\n    run: \(script)\n"
        let hint = try #require(WorkflowLoader.check(source: broken, file: "q.yaml").diagnostics.first?.hint)
        let prefix = "quote the value: "
        try #require(hint.hasPrefix(prefix), "\(hint)")
        let line = hint.dropFirst(prefix.count).components(separatedBy: " (single quotes")[0]
        let fixed = "version: 1\nsteps:\n  note:\n    \(line)\n"
        let result = WorkflowLoader.check(source: fixed, file: "q.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        guard case .run(let run)? = result.workflow?.step("note")?.kind, case .script(let text) = run.command else {
            Issue.record("no run step in \(fixed)")
            return
        }
        #expect(text.text == script, "\(line)")
        #expect(script.contains("\\") == hint.contains("'\\' as written"), "\(hint)")
    }
}
