import FlowDSL
import FlowEngine
import FlowSandbox
import Foundation
import Testing

/// `repeat:` against the sandbox's jobs and pages: polling, running out, pagination, `previous`
/// and `attempt` in the request, and how it composes with `retry` and `timeout`.
@Suite struct RepeatRunTests {
    @Test func pollingStopsWhenTheJobIsDoneAndOutputsReadTheLastAttempt() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            defaults:
              http: { base-url: BASE }
            steps:
              submit:
                http: { method: POST, url: "/jobs?polls=2" }
                outputs: { id: "${{ result.json.id }}" }
              wait-job:
                needs: submit
                http: { url: "/jobs/${{ steps.submit.outputs.id }}?try=${{ attempt }}" }
                repeat:
                  until: ${{ result.json.state == 'done' }}
                  every: 10ms
                  max-attempts: 10
                outputs: { result: "${{ result.json.result }}", tries: "${{ attempt }}" }
            """)
        let wait = try #require(records["wait-job"])
        #expect(wait.state == .succeeded, "\(String(describing: wait.error))")
        #expect(wait.output?.outputs["result"] == .string("ok-1"))
        #expect(wait.output?.outputs["tries"] == .number(3))
        #expect(wait.output?.repetitions == 3)
        let polls = harness.sandbox.events().filter { $0.method == "GET" }.map(\.path)
        #expect(polls == ["/jobs/1?try=1", "/jobs/1?try=2", "/jobs/1?try=3"])
    }

    @Test func runningOutSaysWhichConditionAndTheLastValueItRead() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            defaults:
              http: { base-url: BASE }
            steps:
              submit:
                http: { method: POST, url: "/jobs?polls=50" }
                outputs: { id: "${{ result.json.id }}" }
              wait-job:
                needs: submit
                http: { url: "/jobs/${{ steps.submit.outputs.id }}" }
                repeat:
                  until: ${{ result.json.state == 'done' }}
                  every: 0s
                  max-attempts: 3
              secret-poll:
                run: echo "${{ secrets.TOKEN }}"
                repeat: { while: "${{ result.stdout != 'ready' }}", every: 0s, max-attempts: 2 }
            """, secrets: ["TOKEN": "hunter2-secret"])
        let wait = try #require(records["wait-job"])
        #expect(wait.state == .failed)
        #expect(
            String(describing: try #require(wait.error))
                == "repeat until 'result.json.state == 'done'' still false after 3 attempts; result.json.state was 'pending'"
        )
        #expect(WorkflowRun.location(of: wait.error) == "test.yaml:12:14")
        #expect(harness.sandbox.events().filter { $0.method == "GET" }.count == 3)
        let secret = String(describing: try #require(records["secret-poll"]?.error))
        #expect(
            secret == "repeat while 'result.stdout != 'ready'' still true after 2 attempts; result.stdout was '***'")
    }

    @Test func paginationFollowsNextLinksAndCollectsEveryPage() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, lines) = try await harness.run(
            """
            version: 1
            defaults:
              http: { base-url: BASE }
            steps:
              all-items:
                http: { url: "${{ previous.json.next || '/pages?per-page=3&count=10' }}" }
                repeat:
                  while: ${{ result.json.next != null }}
                  every: 0s
                  collect: { items: "${{ result.json.items }}", pages: "${{ result.json.page }}" }
                outputs: { last-page: "${{ result.json.page }}" }
              count:
                needs: all-items
                run: echo "${{ length(steps.all-items.outputs.items) }} items in ${{ toJSON(steps.all-items.outputs.pages) }}, last ${{ steps.all-items.outputs.last-page }}"
            """)
        let all = try #require(records["all-items"])
        #expect(all.state == .succeeded, "\(String(describing: all.error))")
        #expect(all.output?.outputs["items"] == .array((1...10).map { .number(Double($0)) }))
        #expect(all.output?.repetitions == 4)
        #expect(lines == ["count: 10 items in [1,2,3,4], last 4"])
        let paths = harness.sandbox.events().map(\.path)
        #expect(paths.count == 4)
        #expect(paths.first == "/pages?per-page=3&count=10")
        #expect(paths.last == "/pages?page=4&per-page=3&count=10")
    }

    @Test func previousAndAttemptReachTheRequestAndEveryStepKind() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, lines) = try await harness.run(
            """
            version: 1
            defaults:
              http: { base-url: BASE }
            steps:
              echo:
                http: { url: "/echo?attempt=${{ attempt }}&previous=${{ previous.json.query.attempt || 'none' }}" }
                repeat: { until: "${{ attempt == 3 }}", every: 0s, collect: { seen: "${{ result.json.query.previous }}" } }
              count:
                run: echo "run ${{ attempt }} after ${{ previous.stdout || 'nothing' }}"
                repeat: { until: "${{ result.stdout == 'run 2 after run 1 after nothing' }}", every: 0s }
              wait:
                sleep: 0s
                repeat: { while: "${{ attempt < 4 }}", every: 0s }
            """)
        let echo = try #require(records["echo"])
        #expect(echo.output?.outputs["seen"] == .array([.string("none"), .string("1"), .string("2")]))
        #expect(records["count"]?.state == .succeeded, "\(String(describing: records["count"]?.error))")
        #expect(records["count"]?.output?.repetitions == 2)
        #expect(lines == ["count: run 1 after nothing", "count: run 2 after run 1 after nothing"])
        #expect(records["wait"]?.output?.repetitions == 4)
    }

    @Test func errorsInAnAttemptAreRetriedAndTimeoutBoundsTheWholeRepetition() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            defaults:
              http: { base-url: BASE }
            steps:
              flaky-poll:
                http: { url: "/flaky/repeat?fail=1" }
                retry: { attempts: 2, delay: 10ms }
                repeat: { until: "${{ attempt == 2 }}", every: 0s }
              submit:
                http: { method: POST, url: "/jobs?polls=1000" }
                outputs: { id: "${{ result.json.id }}" }
              slow-poll:
                needs: submit
                timeout: 300ms
                http: { url: "/jobs/${{ steps.submit.outputs.id }}" }
                repeat: { until: "${{ result.json.state == 'done' }}", every: 60s }
            """)
        let flaky = try #require(records["flaky-poll"])
        #expect(flaky.state == .succeeded, "\(String(describing: flaky.error))")
        #expect(flaky.output?.attempts == 3)
        #expect(flaky.output?.repetitions == 2)
        let slow = try #require(records["slow-poll"])
        #expect(slow.state == .failed)
        #expect(String(describing: try #require(slow.error)).contains("timed out"))
        // The pause of 60s was cancelled by the timeout: one poll only, and the run is over.
        #expect(harness.sandbox.events().filter { $0.path.hasPrefix("/jobs/") }.count == 1)
    }
}
