import FlowDSL
import FlowEngine
import Testing

/// `expect.headers`, `result.duration`, case-insensitive `result.headers`, query lists, and what a
/// failed assertion says about its operands — against the sandbox.
@Suite struct ExpectationCheckTests {
    private func message(_ record: StepRecord<StepResult>?) -> String {
        record?.error.map { "\($0)" } ?? ""
    }

    @Test func expectedHeadersMatchExactlyOrAsAWholeRegex() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        // /health answers `Content-Type: application/json`.
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              exact:
                http: { url: "BASE/health" }
                expect: { headers: { content-type: application/json } }
              regex:
                http: { url: "BASE/health" }
                expect: { headers: { Content-Type: "application/.*" } }
              partial:
                http: { url: "BASE/health" }
                expect: { headers: { Content-Type: "json" } }
              missing:
                http: { url: "BASE/health" }
                expect: { headers: { X-Request-Id: ".+" } }
            """)
        #expect(records["exact"]?.state == .succeeded, "\(message(records["exact"]))")
        #expect(records["regex"]?.state == .succeeded, "\(message(records["regex"]))")
        #expect(records["partial"]?.state == .failed, "a regex must match the whole value")
        #expect(
            message(records["partial"]).contains(
                "expected header 'Content-Type' to match 'json', but it was 'application/json'"),
            "\(message(records["partial"]))")
        #expect(
            message(records["missing"]).contains("the response has no 'X-Request-Id'"), "\(message(records["missing"]))"
        )
    }

    @Test func durationHeadersInAnyCaseMatchesAndJSONPathAreUsable() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              fetch:
                http: { url: "BASE/health" }
                expect:
                  assert:
                    - result.duration > 0 && result.duration < 60
                    - result.headers['Content-Type'] == 'application/json'
                    - result.headers['content-type'] == result.headers['CONTENT-TYPE']
                    - matches(result.headers['content-type'], '^application/(json|xml)$')
                    - jsonPath(result.json, '$.status') == 'ok'
                    - jsonPath(result.body, '$.status') == 'ok'
                outputs:
                  seconds: ${{ result.duration }}
            """)
        #expect(records["fetch"]?.state == .succeeded, "\(message(records["fetch"]))")
        guard case .number(let seconds, _)? = records["fetch"]?.output?.outputs["seconds"] else {
            Issue.record("result.duration is a number")
            return
        }
        #expect(seconds > 0)
    }

    @Test func aFailedAssertionShowsEachOperandsActualValueMasked() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              compare:
                http: { url: "BASE/health" }
                expect:
                  assert: [ "result.json.status == 'down'" ]
              call:
                http: { url: "BASE/echo", headers: { X-Token: "${{ secrets.TOKEN }}" } }
                expect:
                  assert: [ "${{ result.status == 200 && contains(result.body, 'nope') }}" ]
            """, secrets: ["TOKEN": "hunter2-secret"])
        #expect(
            message(records["compare"]).contains(
                "assertion failed: result.json.status == 'down' (result.json.status was 'ok')"),
            "\(message(records["compare"]))")
        let call = message(records["call"])
        #expect(call.contains("(result.body was '{"), "\(call)")
        #expect(call.contains("***"), "\(call)")
        #expect(!call.contains("hunter2-secret"), "\(call)")
    }

    @Test func aQueryListRepeatsTheName() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              search:
                http:
                  url: BASE/reflect/200
                  query: { tag: [a b, "c&d"], page: 2 }
                expect:
                  assert: [ "contains(result.body, 'GET /reflect/200?tag=a%20b&tag=c%26d&page=2')" ]
            """)
        #expect(records["search"]?.state == .succeeded, "\(message(records["search"]))")
    }
}
