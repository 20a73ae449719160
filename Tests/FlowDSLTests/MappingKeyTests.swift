import FlowDSL
import Testing

/// The parsers read a mapping's pairs as the composer stored them when every key is a scalar
/// (issue 32); a key written as an alias or a collection takes the other path. Both must read
/// the same workflow and report the same places.
@Suite struct MappingKeyTests {
    @Test func anAliasKeyIsReadAsTheScalarItNames() throws {
        let source = """
            version: 1
            steps:
              a:
                name: &kind sleep
                *kind : 1s
              b:
                needs: a
                sleep: 2s
            """
        let result = WorkflowLoader.check(source: source, file: "alias.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.message))")
        let steps = try #require(result.workflow).steps
        #expect(steps.map(\.id) == ["a", "b"])
        #expect(steps.first?.name == "sleep")
        guard case .sleep(let duration) = steps.first?.kind else {
            Issue.record("step a is not a sleep: \(String(describing: steps.first?.kind))")
            return
        }
        #expect(duration == .seconds(1))
    }

    @Test func aCollectionKeyIsReportedWhereItIsWritten() {
        let source = """
            version: 1
            steps:
              a:
                ? [x, y]
                : 1
                sleep: 1s
                bogus: 2
            """
        let result = WorkflowLoader.check(source: source, file: "key.yaml")
        let found = result.diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
        #expect(found.contains("4:7 keys in step 'a' must be plain names, not a list"), "\(found)")
        // The scalar keys beside it are still read: the unknown one is reported at its place.
        #expect(found.contains("7:5 unknown key 'bogus' in step 'a'"), "\(found)")
    }
}
