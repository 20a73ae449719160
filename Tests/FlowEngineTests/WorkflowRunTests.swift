import FlowDSL
import FlowEngine
import FlowSandbox
import Foundation
import Testing

@Suite struct WorkflowRunTests {
    @Test func loginThenUsersAndReportsThenImportCarriesOutputs() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, lines) = try await harness.run(
            """
            version: 1
            defaults:
              http: { base-url: BASE }
            steps:
              login:
                http:
                  method: POST
                  url: /login
                  json: { user: demo, password: "${{ secrets.PASSWORD }}" }
                outputs:
                  token: ${{ result.json.token }}
              users:
                needs: login
                http:
                  url: /api/users
                  headers: { Authorization: "Bearer ${{ steps.login.outputs.token }}" }
                outputs:
                  count: ${{ length(result.json) }}
              reports:
                needs: login
                http:
                  url: /api/reports
                  headers: { Authorization: "Bearer ${{ steps.login.outputs.token }}" }
              import:
                needs: [users, reports]
                run: echo "imported ${{ steps.users.outputs.count }} users"
            """, secrets: ["PASSWORD": "s3cret"])
        #expect(records.values.allSatisfy { $0.state == .succeeded }, "\(records.mapValues(\.state))")
        guard case .number(let count, _)? = records["users"]?.output?.outputs["count"] else {
            Issue.record("count must keep its number type")
            return
        }
        #expect(count > 0)
        #expect(lines == ["import: imported \(Int(count)) users"])
        let events = harness.sandbox.events()
        let login = try #require(events.first { $0.path == "/login" })
        let users = try #require(events.first { $0.path == "/api/users" })
        let reports = try #require(events.first { $0.path == "/api/reports" })
        #expect(users.startedAt >= login.endedAt ?? .infinity)
        #expect(reports.startedAt >= login.endedAt ?? .infinity)
    }

    @Test func aRaceTakesTheFirstSuccessAndTheServerSeesTheLoserHangUp() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, lines) = try await harness.run(
            """
            version: 1
            steps:
              mirror:
                parallel: any
                steps:
                  fast-broken: { http: { url: "BASE/mirror/eu?ms=10&status=503" } }
                  good: { http: { url: "BASE/mirror/us?ms=150" } }
                  slow: { http: { url: "BASE/mirror/asia?ms=5000" } }
                outputs:
                  good-status: ${{ steps.good.status }}
              report:
                needs: mirror
                run: echo "winner ${{ steps.mirror.winner }}, good ${{ steps.mirror.outputs.good-status }}"
            """)
        #expect(records["mirror"]?.state == .succeeded)
        #expect(records["mirror"]?.winner == "good")
        #expect(records["fast-broken"]?.state == .failed)
        #expect(records["slow"]?.state == .cancelled)
        #expect(lines == ["report: winner good, good succeeded"])
        var slow: SandboxEvent?
        for _ in 0..<200 {
            slow = harness.sandbox.events().first { $0.path.hasPrefix("/mirror/asia") }
            if slow?.endedAt != nil { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(slow?.clientDisconnected == true)
    }

    @Test func transientFailuresAreRetriedHonouringRetryAfterButAPostIsNot() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              flaky-get:
                retry: { attempts: 4, delay: 10ms }
                http: { url: "BASE/flaky/get-key?fail=2&status=503&retry-after=0" }
              flaky-post:
                retry: { attempts: 4, delay: 10ms }
                http: { method: POST, url: "BASE/flaky/post-key?fail=2&status=503" }
            """)
        #expect(records["flaky-get"]?.state == .succeeded)
        #expect(records["flaky-get"]?.output?.attempts == 3)
        #expect(records["flaky-post"]?.state == .failed)
        let posts = harness.sandbox.events().filter { $0.path.hasPrefix("/flaky/post-key") }
        #expect(posts.count == 1)
        let message = "\(records["flaky-post"]?.error ?? HarnessError(message: ""))"
        #expect(message.contains("expected status 2xx, got 503"))
    }

    @Test func aStepTimeoutAbortsTheRequest() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              slow:
                timeout: 200ms
                http: { url: "BASE/delay/5000" }
            """)
        #expect(records["slow"]?.state == .failed)
        var event: SandboxEvent?
        for _ in 0..<200 {
            event = harness.sandbox.events().first { $0.path == "/delay/5000" }
            if event?.endedAt != nil { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(event?.clientDisconnected == true)
    }

    @Test func anInputIsNeverExecutedByARunStep() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("flow-pwned-\(UUID())").path
        let (records, lines) = try await harness.run(
            """
            version: 1
            inputs:
              name: { type: string }
            steps:
              greet:
                run: echo "hello ${{ inputs.name }}"
            """, inputs: ["name": .string("$(touch \(marker))")])
        #expect(records["greet"]?.state == .succeeded)
        #expect(lines == ["greet: hello $(touch \(marker))"])
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func secretsAreMaskedInStepOutputAndErrors() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, lines) = try await harness.run(
            """
            version: 1
            steps:
              leak:
                run: echo "the key is ${{ secrets.KEY }}"
              echo-back:
                http:
                  url: "BASE/status/500"
                  headers: { X-Key: "${{ secrets.KEY }}" }
            """, secrets: ["KEY": "hunter2-very-secret"])
        #expect(lines == ["leak: the key is ***"])
        #expect(records["echo-back"]?.state == .failed)
        let message = String(describing: records["echo-back"]?.error)
        #expect(!message.contains("hunter2"))
    }

    @Test func skipRulesFailureAndAlwaysAndContinueOnError() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              broken: { http: { url: "BASE/status/404" } }
              after-broken: { needs: broken, run: "true" }
              on-failure: { needs: after-broken, if: failure(), run: "true" }
              cleanup: { needs: broken, if: "${{ always() }}", run: "true" }
              tolerated: { continue-on-error: true, run: "exit 4" }
              after-tolerated: { needs: tolerated, run: "true" }
              gated: { needs: tolerated, if: "${{ steps.tolerated.status == 'failed' }}", run: "true" }
            """)
        #expect(records["broken"]?.state == .failed)
        #expect(records["after-broken"]?.state == .skipped)
        #expect(records["on-failure"]?.state == .succeeded)
        #expect(records["cleanup"]?.state == .succeeded)
        #expect(records["tolerated"]?.state == .failed)
        #expect(records["after-tolerated"]?.state == .succeeded)
        #expect(records["gated"]?.state == .succeeded)
    }

    @Test func aMissingSecretIsRefusedBeforeAnythingRuns() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        do {
            _ = try await harness.run(
                """
                version: 1
                steps:
                  login: { http: { url: "BASE/health", headers: { X-Token: "${{ secrets.TOKEN }}" } } }
                """)
            Issue.record("a missing secret must stop the run before it starts")
        } catch let error as RunSetupError {
            #expect(error.description.contains("test.yaml:3:"))
            #expect(error.description.contains("secret 'TOKEN' is not set"))
        }
        #expect(harness.sandbox.events().isEmpty)
    }

    @Test func aFailingChildCancelsItsAllGroupSiblingsAtTheServer() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              notify:
                parallel: all
                steps:
                  quick-fail: { http: { url: "BASE/mirror/a?ms=50&status=500" } }
                  slow-one: { http: { url: "BASE/delay/5000" } }
                  slow-two: { http: { url: "BASE/mirror/b?ms=5000" } }
            """)
        #expect(records["notify"]?.state == .failed)
        #expect(records["slow-one"]?.state == .cancelled)
        #expect(records["slow-two"]?.state == .cancelled)
        var disconnected: [String] = []
        for _ in 0..<200 {
            disconnected = harness.sandbox.events().filter(\.clientDisconnected).map(\.path)
            if disconnected.count == 2 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(Set(disconnected) == ["/delay/5000", "/mirror/b?ms=5000"])
    }

    @Test func typesSurviveFromOutputsToExpressionsAndAssertions() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              produce:
                http: { method: POST, url: "BASE/echo", json: { n: 41, ok: true, tags: [a, b] } }
                expect:
                  status: 200
                  assert:
                    - ${{ result.json.method == 'POST' }}
                outputs:
                  body: ${{ fromJSON(result.json.body) }}
              consume:
                needs: produce
                http:
                  method: POST
                  url: BASE/echo
                  json: { next: "${{ steps.produce.outputs.body.n }}", flag: "${{ steps.produce.outputs.body.ok }}" }
                expect:
                  assert:
                    - ${{ fromJSON(result.json.body).next == 41 }}
                    - ${{ fromJSON(result.json.body).flag == true }}
                    - ${{ length(steps.produce.outputs.body.tags) == 2 }}
                outputs:
                  seen: ${{ fromJSON(result.json.body) }}
              fail-assert:
                needs: consume
                http: { url: BASE/health }
                expect:
                  assert:
                    - ${{ result.json.status == 'down' }}
                outputs:
                  unused: ${{ steps.consume.outputs.seen }}
            """)
        #expect(records["produce"]?.state == .succeeded)
        #expect(records["consume"]?.state == .succeeded, "\(String(describing: records["consume"]?.error))")
        #expect(records["fail-assert"]?.state == .failed)
        let error = try #require(records["fail-assert"]?.error as? StepError)
        #expect(error.message == "assertion failed: ${{ result.json.status == 'down' }} (result.json.status was 'ok')")
        #expect(error.location.line == 29)
    }

    @Test func aFailingCommandIsRetriedUnderItsPolicy() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let counter = FileManager.default.temporaryDirectory.appendingPathComponent("flow-count-\(UUID())").path
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              flaky:
                retry: { attempts: 3, delay: 10ms }
                run: echo x >> \(counter); test $(wc -l < \(counter)) -ge 2
            """)
        #expect(records["flaky"]?.state == .succeeded)
        #expect(records["flaky"]?.output?.attempts == 2)
    }
}
