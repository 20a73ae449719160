import FlowDSL
import Testing

@Suite struct SmokeTests {
    @Test func languageExample() throws {
        let result = WorkflowLoader.load(path: "/tmp/dslsmoke/lang.yaml")
        print(result.renderedDiagnostics())
        print(result.workflow?.waves ?? [])
        let bad = WorkflowLoader.check(source: "version: 1\nsteps:\n  upload: { sleep: 1s }\n  notify:\n    needs: [uplod]\n    run: echo\n  x:\n    http: { url: /a, method: GTE }\n    needs: x\n", file: "deploy.yaml")
        print(bad.renderedDiagnostics())
    }
}
