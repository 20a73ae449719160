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

    @Test func aVeryLongLineShowsAWindowAroundTheProblem() {
        let line = String(repeating: "a", count: 1000) + "XYZ" + String(repeating: "b", count: 1000)
        let diagnostic = Diagnostic.error("here", at: SourceLocation(file: "l.yaml", line: 1, column: 1001), length: 3)
        let lines = diagnostic.rendered(sourceLines: [Substring(line)], file: "l.yaml").split(separator: "\n")
        #expect(lines.count == 3)
        let source = lines[1].dropFirst("    1 | ".count)
        let caret = lines[2].dropFirst("      | ".count)
        #expect(source.hasPrefix("…a") && source.hasSuffix("b…"))
        #expect(source.count == Diagnostic.snippetWidth + 2)
        let caretOffset = caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) }
        let markOffset = source.firstIndex(of: "X").map { source.distance(from: source.startIndex, to: $0) }
        #expect(caretOffset == markOffset)
        #expect(caret.hasSuffix("^~~"))
    }

    @Test func windowsLineEndingsRenderCleanly() {
        let source = "version: 1\r\nsteps:\r\n  a:\r\n    sleep: never\r\n"
        let result = WorkflowLoader.check(source: source, file: "w.yaml")
        #expect(
            result.renderedDiagnostics() == """
                w.yaml:4:12: error: 'sleep' 'never' is not a duration
                    4 |     sleep: never
                      |            ^~~~~
                hint: write a duration like 250ms, 10s, 1m30s or 1h, or a number of seconds

                """
        )
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

@Suite struct OutputWarningTests {
    @Test func outputsReadAsAWholeCountAsRead() {
        let result = WorkflowLoader.check(
            source: """
                version: 1
                steps:
                  count:
                    run: echo 3
                    outputs:
                      value: ${{ result.stdout }}
                      other: ${{ result.stderr }}
                  show:
                    needs: count
                    run: echo "${{ toJSON(steps.count.outputs) }}"
                """,
            file: "whole.yaml"
        )
        #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
    }

    @Test func oneUnreadOutputIsOneWarning() {
        let result = WorkflowLoader.check(
            source: """
                version: 1
                steps:
                  count:
                    run: echo 3
                    outputs:
                      value: ${{ result.stdout }}
                      other: ${{ result.stderr }}
                  show:
                    needs: count
                    run: echo "${{ steps.count.outputs.value }}"
                """,
            file: "one.yaml"
        )
        #expect(result.diagnostics.map(\.message) == ["output 'other' of step 'count' is never read"])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.workflow != nil)
    }
}
