import FlowDSL
import Testing

/// The fields of `result` are known per kind of step: a misspelt one is an error with "did you
/// mean", not a `null` found after the run.
@Suite struct ResultFieldCheckTests {
    private func diagnostics(_ steps: String) -> [Diagnostic] {
        let result = WorkflowLoader.check(source: "version: 1\nsteps:\n" + steps, file: "r.yaml")
        return result.diagnostics.filter { $0.severity == .error }
    }

    @Test func misspeltFieldsAreErrorsWithTheirPlaceAndASuggestion() throws {
        let found = diagnostics(
            """
              a:
                http: { url: "http://127.0.0.1:9/x" }
                expect: { assert: ["${{ result.stauts == 200 }}"] }
                outputs: { id: "${{ result.jsn.id }}" }
            """)
        #expect(
            found.map(\.message) == [
                "'result' of a 'http' step has no field 'stauts'", "'result' of a 'http' step has no field 'jsn'",
            ])
        #expect(found.map(\.hint) == ["did you mean 'result.status'?", "did you mean 'result.json'?"])
        #expect(found.first?.location?.line == 5)
    }

    @Test func eachKindHasItsOwnFields() {
        #expect(
            diagnostics(
                """
                  r:
                    run: echo hi
                    outputs: { code: "${{ result.exit_code }}", out: "${{ result.stdout }}", s: "${{ result.status }}" }
                """
            ).map(\.message) == ["'result' of a 'run' step has no field 'status'"])
        #expect(
            diagnostics(
                """
                  d:
                    http: { url: "http://127.0.0.1:9/x", save-to: out.bin }
                    outputs: { f: "${{ result.file }}", h: "${{ result.sha256 }}", u: "${{ result.request.url }}" }
                  u:
                    upload: { file: a.bin, url: "http://127.0.0.1:9/up", protocol: tus }
                    outputs: { l: "${{ result.location }}", s: "${{ result.sha256 }}" }
                """
            ).isEmpty)
        // A step whose kind did not parse reports that, not its result's fields.
        #expect(
            diagnostics("  h:\n    http: { method: GET }\n    outputs: { x: \"${{ result.status }}\" }\n").allSatisfy {
                !$0.message.contains("'result'")
            })
        #expect(
            diagnostics(
                "  h:\n    http: { url: \"http://127.0.0.1:9/x\" }\n    outputs: { f: \"${{ result.file }}\" }\n"
            )
            .map(\.message) == ["'result' of a 'http' step has no field 'file'"])
    }

    @Test func previousHasTheFieldsOfResult() {
        let found = diagnostics(
            """
              poll:
                http: { url: "http://127.0.0.1:9/job" }
                repeat: { until: "${{ result.json.done || previous.jsno.done }}", max-attempts: 3 }
            """)
        #expect(found.map(\.message) == ["'previous' of a 'http' step has no field 'jsno'"])
        #expect(found.first?.hint == "did you mean 'previous.json'?")
    }
}
