import FlowDSL
import FlowEngine
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct RunReportTests {
    let report = RunReport(
        workflow: "deploy <prod>", file: "deploy.yaml", outcome: .failed, startedAt: "2026-11-21T05:00:00Z",
        durationSeconds: 1.5,
        steps: [
            StepReport(
                id: "login", kind: "http", location: "deploy.yaml:5:3", state: .succeeded, startedAtSeconds: 0,
                durationSeconds: 0.25, attempts: 1,
                outputs: ["token": .string("***"), "count": .number(3), "tags": .array([.string("a")])]),
            StepReport(
                id: "upload", name: "Upload & check", kind: "upload", location: "deploy.yaml:9:3", state: .failed,
                startedAtSeconds: 0.25, durationSeconds: 1.0, attempts: 3,
                error: "expected status 2xx, got 503 \"Service Unavailable\""),
            StepReport(id: "notify", kind: "http", location: "deploy.yaml:15:3", state: .skipped),
            StepReport(
                id: "race", kind: "parallel", location: "deploy.yaml:18:3", state: .cancelled, error: "cancelled"),
        ])

    @Test func junitHasOneCasePerStepWithFailuresLocated() throws {
        let xml = report.junitText()
        #expect(xml.contains(#"<testsuite name="deploy &lt;prod&gt;" tests="4" failures="1" errors="1" skipped="1""#))
        #expect(
            xml.contains(
                #"<testcase name="login" classname="deploy &lt;prod&gt;.http" file="deploy.yaml:5:3" time="0.250"/>"#))
        #expect(
            xml.contains(
                #"<failure message="deploy.yaml:9:3: expected status 2xx, got 503 &quot;Service Unavailable&quot;" type="failed">"#
            ))
        #expect(xml.contains(#"<testcase name="upload (Upload &amp; check)""#))
        #expect(xml.contains("<skipped/>"))
        #expect(xml.contains(#"<error message="deploy.yaml:18:3: cancelled" type="cancelled"/>"#))
        // Well-formed: Foundation's parser accepts it.
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse())
    }

    @Test func jsonRoundTripsWithEveryField() throws {
        let text = try report.jsonText()
        let decoded = try JSONDecoder().decode(RunReport.self, from: Data(text.utf8))
        #expect(decoded == report)
        #expect(text.contains(#""attempts" : 3"#))
        // Outputs keep their JSON types: a number is a number, not JSON text inside a string.
        #expect(text.contains(#""count" : 3"#))
        #expect(text.contains(#""token" : "***""#))
        #expect(text.contains(#""state" : "skipped""#))
    }

    @Test func controlCharactersCannotBreakTheXML() {
        let odd = RunReport(
            workflow: "w", file: "f", outcome: .failed, startedAt: "t", durationSeconds: 0,
            steps: [
                StepReport(id: "s", kind: "run", location: "f:1:1", state: .failed, error: "bad\u{0}\u{7}byte\nnext")
            ])
        let parser = XMLParser(data: Data(odd.junitText().utf8))
        #expect(parser.parse())
    }
}
