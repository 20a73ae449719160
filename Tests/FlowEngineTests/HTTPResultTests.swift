import FlowDSL
import FlowEngine
import Testing

/// `result.json` of bodies that are not JSON, and the time limit of requests nobody limited.
@Suite struct HTTPResultTests {
    private func message(_ record: StepRecord<StepResult>?) -> String {
        record?.error.map { "\($0)" } ?? ""
    }

    @Test func readingJSONOfABodyThatIsNotJSONFailsTheStepWithTheOffset() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        // /bytes/5 answers 200 with "xxxxx".
        let (records, lines) = try await harness.run(
            """
            version: 1
            steps:
              fetch:
                http: { url: "BASE/bytes/5" }
                outputs:
                  token: ${{ result.json.token }}
              use:
                needs: fetch
                run: echo "token=${{ steps.fetch.outputs.token }}"
              asserted:
                http: { url: "BASE/bytes/5" }
                expect:
                  assert:
                    - ${{ result['json'] == null }}
            """)
        #expect(records["fetch"]?.state == .failed)
        let fetch = message(records["fetch"])
        #expect(fetch.contains("the response body is not valid JSON"), "\(fetch)")
        #expect(fetch.contains("at offset 0"), "\(fetch)")
        #expect(records["use"]?.state == .skipped)
        #expect(lines.isEmpty, "a dependent must not run on an empty token: \(lines)")
        #expect(records["asserted"]?.state == .failed)
        #expect(message(records["asserted"]).contains("not valid JSON"), "\(message(records["asserted"]))")
    }

    @Test func aStepThatNeverReadsJSONSucceedsWithAnyBody() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              fetch:
                http: { url: "BASE/bytes/5" }
                expect:
                  assert: [ "${{ result.body == 'xxxxx' }}" ]
                outputs:
                  body: ${{ result.body }}
                  status: ${{ result.status }}
              empty:
                http: { url: "BASE/bytes/0" }
                expect:
                  assert: [ "${{ result.json == null }}" ]
                outputs:
                  json: ${{ result.json }}
              valid:
                http: { url: "BASE/echo" }
                outputs:
                  method: ${{ result.json.method }}
            """)
        #expect(records.values.allSatisfy { $0.state == .succeeded }, "\(records.mapValues { message($0) })")
        #expect(records["fetch"]?.output?.outputs["body"] == .string("xxxxx"))
        #expect(records["empty"]?.output?.outputs["json"] == .null)
        #expect(records["valid"]?.output?.outputs["method"] == .string("GET"))
    }

    @Test func aRequestNobodyLimitedStopsAtTheDefaultLimit() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        // The default is 5 minutes; the run is given a shorter one so the test is quick.
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              unlimited:
                http: { url: "BASE/delay/20000" }
              own-request-limit:
                http: { url: "BASE/delay/1000", timeout: 20s }
              step-limit:
                timeout: 20s
                http: { url: "BASE/delay/1000" }
            """, defaultRequestTimeout: .milliseconds(300))
        #expect(records["unlimited"]?.state == .failed)
        let unlimited = message(records["unlimited"])
        #expect(unlimited.contains("timed out"), "\(unlimited)")
        #expect(unlimited.contains("flow's default limit for a request"), "\(unlimited)")
        #expect(records["own-request-limit"]?.state == .succeeded, "\(message(records["own-request-limit"]))")
        #expect(records["step-limit"]?.state == .succeeded, "\(message(records["step-limit"]))")
    }
}
