import FlowDSL
import Testing

/// `save-to`, `resume` and `max-body` of `http` steps and `defaults.http`.
@Suite struct ResponseBodyParsingTests {
    private func check(_ yaml: String) -> CheckResult {
        WorkflowLoader.check(source: yaml, file: "body.yaml")
    }

    @Test func theKeysAreReadWithTheirDefaults() throws {
        let checked = check(
            """
            version: 1
            defaults:
              http: { max-body: 1MiB }
            steps:
              save:
                http: { url: http://x/a, save-to: "out/${{ inputs.name }}.bin", resume: true, max-body: 2KB }
              plain:
                http: { url: http://x/b }
            inputs:
              name: { default: a }
            """)
        #expect(!checked.hasErrors, "\(checked.diagnostics.map(\.message))")
        let workflow = try #require(checked.workflow)
        #expect(workflow.defaults.http.maxBody == 1 << 20)
        guard case .http(let save)? = workflow.step("save")?.kind, case .http(let plain)? = workflow.step("plain")?.kind
        else {
            Issue.record("not http steps")
            return
        }
        #expect(save.responseBody.saveTo?.text == "out/${{ inputs.name }}.bin")
        #expect(save.responseBody.resume)
        #expect(save.responseBody.maxBody == 2000)
        #expect(plain.responseBody == ResponseBodyOptions())
    }

    @Test(arguments: [
        ("http: { url: http://x, resume: true }", "'resume' needs 'save-to'"),
        ("http: { url: http://x, method: POST, save-to: f, resume: true }", "'resume' works only with GET, not POST"),
        ("http: { url: http://x, max-body: lots }", "'max-body' 'lots' is not a size"),
        ("http: { url: http://x, save-to: '' }", "'save-to' is empty"),
    ])
    func mistakesAreLocatedErrors(_ step: String, _ expected: String) {
        let checked = check("version: 1\nsteps:\n  a:\n    \(step)\n")
        let messages = checked.diagnostics.map(\.message)
        #expect(checked.hasErrors)
        #expect(messages.contains { $0.contains(expected) }, "\(messages)")
    }
}
