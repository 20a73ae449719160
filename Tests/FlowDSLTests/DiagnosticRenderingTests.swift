import FlowDSL
import Testing

@Suite struct DiagnosticRenderingTests {
    @Test func rendersLikeACompiler() {
        let source = (1...11).map { _ in "#" } + ["    needs: [uplod]"]
        let diagnostic = Diagnostic.error(
            "step 'notify' needs unknown step 'uplod'",
            at: SourceLocation(file: "deploy.yaml", line: 12, column: 13),
            length: 5,
            hint: "did you mean 'upload'?"
        )
        let text = diagnostic.rendered(sourceLines: source.map { Substring($0) }, file: "deploy.yaml")
        #expect(
            text == """
                deploy.yaml:12:13: error: step 'notify' needs unknown step 'uplod'
                   12 |     needs: [uplod]
                      |             ^~~~~
                hint: did you mean 'upload'?

                """
        )
    }

    @Test func unlocatedDiagnosticNamesTheFile() {
        let diagnostic = Diagnostic.warning("something odd", at: nil)
        #expect(diagnostic.rendered(sourceLines: [], file: "a.yaml") == "a.yaml: warning: something odd\n")
    }

    @Test func caretKeepsTabsAndStaysOnTheLine() {
        let diagnostic = Diagnostic.error("bad", at: SourceLocation(file: "t.yaml", line: 1, column: 3), length: 40)
        let text = diagnostic.rendered(sourceLines: ["\tx: y"], file: "t.yaml")
        #expect(text.contains("     | \t ^~~\n"))
    }

    @Test func diagnosticsComeInFileOrder() {
        let result = WorkflowLoader.check(
            source: """
                version: 1
                steps:
                  b:
                    needs: nowhere
                    sleep: 1s
                  a:
                    sleep: never
                """,
            file: "order.yaml"
        )
        #expect(result.diagnostics.map(\.location?.line) == [4, 7])
        #expect(result.workflow == nil)
    }
}
