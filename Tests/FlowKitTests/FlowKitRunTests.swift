import FlowKit
import FlowSandbox
import Foundation
import Testing

/// FlowKit as an app uses it: load, dry-run, run against the sandbox, observe, cancel.
@Suite struct FlowKitRunTests {
    @Test func aLoadErrorIsAValueWithItsPlaceAndHint() throws {
        let yaml = """
            version: 1
            steps:
              ping:
                htp: { url: "http://127.0.0.1:1/" }
            """
        #expect(throws: FlowError.self) { try FlowWorkflow(yaml: yaml, baseFolder: "/tmp", fileName: "app.yaml") }
        let problems = FlowWorkflow.validate(yaml: yaml, baseFolder: "/tmp", fileName: "app.yaml")
        let error = try #require(problems.first { $0.severity == .error })
        #expect(error.location?.file == "/tmp/app.yaml")
        // The step with the misspelt key, and the key it meant.
        #expect(error.location?.line == 3)
        #expect(error.description.contains("http"))
    }

    @Test func aDryRunGivesThePlannedRequestsAsValues() throws {
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                inputs:
                  user: { type: string }
                steps:
                  login:
                    http:
                      method: POST
                      url: https://api.example.com/login?user=${{ inputs.user }}
                      json: { user: "${{ inputs.user }}" }
                    outputs: { token: "${{ result.json.token }}" }
                  me:
                    needs: login
                    http:
                      url: https://api.example.com/me
                      headers: { Authorization: "Bearer ${{ steps.login.outputs.token }}" }
                """, baseFolder: "/tmp")
        let plan = try workflow.dryRun(inputs: ["user": "ada"])
        #expect(plan.requests.map(\.step) == ["login", "me"])
        #expect(plan.requests[0].method == "POST")
        #expect(plan.requests[0].url == "https://api.example.com/login?user=ada")
        #expect(plan.requests[0].body == #"{"user":"ada"}"#)
        #expect(plan.requests[1].headers.contains { $0.name == "Authorization" && $0.value.contains("<steps.login") })
        #expect(plan.text.contains("dry run"))
        #expect(throws: FlowError.self) { try workflow.dryRun(inputs: ["usr": "ada"]) }
    }

    @Test func eventsAndOutcomeCarryStatesAndTypedOutputs() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  login:
                    http:
                      method: POST
                      url: \(sandbox.baseURL)/login
                      json: { user: demo, password: "${{ secrets.PASSWORD }}" }
                    outputs: { token: "${{ result.json.token }}", ok: "${{ result.status == 200 }}" }
                  missing:
                    needs: login
                    http: { url: "\(sandbox.baseURL)/status/404" }
                    expect: { status: 200 }
                  after:
                    needs: missing
                    run: "true"
                """, baseFolder: NSTemporaryDirectory())
        var options = FlowRunOptions()
        options.secrets = .values(["PASSWORD": "s3cret"])
        let run = try workflow.start(options)
        let events = await allEvents(of: run)
        let outcome = await run.outcome
        #expect(outcome.state == .failed)
        let login = try #require(outcome.steps["login"])
        #expect(login.state == .succeeded)
        guard case .string(let token)? = login.outputs["token"] else {
            Issue.record("no token: \(login.outputs)")
            return
        }
        #expect(!token.isEmpty)
        #expect(login.outputs["ok"] == .bool(true))
        let missing = try #require(outcome.steps["missing"]?.failure)
        // The `expect` that failed.
        #expect(missing.location?.line == 12)
        #expect(outcome.steps["after"]?.state == .skipped)
        // The workflow's own steps' events in order, and the run's end last.
        let states = events.compactMap { event -> String? in
            switch event {
            case .stepStarted(let step): return "started \(step)"
            case .stepFinished(let result): return "\(result.state.rawValue) \(result.step)"
            default: return nil
            }
        }
        #expect(states == ["started login", "succeeded login", "started missing", "failed missing", "skipped after"])
        guard case .runFinished(let last)? = events.last else {
            Issue.record("the last event is not runFinished")
            return
        }
        #expect(last.state == .failed)
        #expect(events.contains { if case .attempt("login", 1) = $0 { true } else { false } })
    }

    @Test func cancellingMidUploadStopsTheCommandRunsAlwaysStepsAndWritesTheReport() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = try TestFolder()
        defer { folder.remove() }
        let file = try folder.file("big.bin", bytes: 2_000_000)
        let pidFile = folder.path + "/pid"
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  work:
                    parallel: all
                    steps:
                      send:
                        upload:
                          file: \(file)
                          url: \(sandbox.baseURL)/uploads/cr/big?pace-ms=300
                          protocol: content-range
                          chunk-size: 100KiB
                      busy:
                        run: 'echo $$ > \(pidFile); exec sleep 60'
                  tidy:
                    needs: work
                    if: ${{ always() }}
                    run: 'echo tidy'
                """, baseFolder: folder.path)
        var options = FlowRunOptions()
        options.reports = [.json(folder.path + "/report.json")]
        let run = try workflow.start(options)
        var sawBytes = false
        var outputs: [String] = []
        for await event in run.events {
            switch event {
            case .progress("send", _, let bytes, _) where bytes > 0 && !sawBytes:
                sawBytes = true
                run.cancel()
            case .output(let step, let line, _): outputs.append("\(step): \(line)")
            default: break
            }
        }
        let outcome = await run.outcome
        #expect(sawBytes)
        #expect(outcome.state == .cancelled)
        #expect(outcome.steps["send"]?.state == .cancelled)
        #expect(outcome.steps["tidy"]?.state == .succeeded)
        #expect(outputs.contains("tidy: tidy"))
        // The command was stopped, not left behind.
        let pid = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) != 0)
        let report = try String(contentsOfFile: folder.path + "/report.json", encoding: .utf8)
        #expect(report.contains("\"cancelled\""))
    }

    @Test func cancellingTheTaskThatAwaitsTheOutcomeCancelsTheRun() async throws {
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  wait:
                    sleep: 60
                  always:
                    needs: wait
                    if: ${{ always() }}
                    run: "true"
                """, baseFolder: NSTemporaryDirectory())
        let run = try workflow.start()
        let waiter = Task { await run.outcome }
        for await event in run.events {
            if case .stepStarted("wait") = event { waiter.cancel() }
        }
        let outcome = await waiter.value
        #expect(outcome.state == .cancelled)
        #expect(outcome.steps["wait"]?.state == .cancelled)
        #expect(outcome.steps["always"]?.state == .succeeded)
    }

    @Test func twoRunsAtOnceEachEndOnlyTheirOwnCommands() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        func workflow(_ name: String) throws -> FlowWorkflow {
            try FlowWorkflow(
                yaml: """
                    version: 1
                    steps:
                      busy:
                        run: 'echo $$ > \(folder.path)/\(name); exec sleep 60'
                    """, baseFolder: folder.path)
        }
        let first = try workflow("first").start()
        let second = try workflow("second").start()
        for run in [first, second] {
            for await event in run.events {
                if case .stepStarted = event { break }
            }
        }
        // Both commands have written their pid.
        var pids: [Int32] = []
        for name in ["first", "second"] {
            var text = ""
            for _ in 0..<500 where text.isEmpty {
                text = (try? String(contentsOfFile: "\(folder.path)/\(name)", encoding: .utf8)) ?? ""
                if text.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            }
            pids.append(try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))))
        }
        first.cancel()
        #expect(await first.outcome.state == .cancelled)
        #expect(await Self.ends(pids[0]))
        // The other run's command is still running: ending one run ended only its own processes.
        #expect(kill(pids[1], 0) == 0)
        second.cancel()
        #expect(await second.outcome.state == .cancelled)
        #expect(await Self.ends(pids[1]))
    }

    /// Whether process `pid` is gone within 5 s. The outcome comes once no live member of the
    /// command's group is left (`ProcessGroups.terminateAll` skips zombies), but its zombie still
    /// answers `kill(pid, 0)` until swift-subprocess reaps it (seen once in a loaded full suite).
    private static func ends(_ pid: Int32) async -> Bool {
        for _ in 0..<500 {
            if kill(pid, 0) != 0 { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func aRunOf100000ItemsKeepsItsEventsBoundedForASlowConsumer() async throws {
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  each:
                    for-each: ${{ range(0, 100000) }}
                    sleep: 0s
                  done:
                    needs: each
                    sleep: 0s
                """, baseFolder: NSTemporaryDirectory())
        var options = FlowRunOptions()
        options.eventBufferLimit = 100
        let run = try workflow.start(options)
        // The slowest consumer: it reads nothing until the run is over.
        let outcome = await run.outcome
        #expect(outcome.state == .succeeded)
        let events = await allEvents(of: run)
        // 2 steps: 2 state events each, 6 coalesced kinds each, `dropped`, `runFinished`, and the limit.
        let bound = 100 + 2 * 2 + 2 * 6 + 2
        #expect(run.peakBufferedEvents <= bound)
        #expect(events.count <= bound)
        guard
            case .items("each", let finished, let failed, let total)? = events.first(where: {
                if case .items = $0 { true } else { false }
            })
        else {
            Issue.record("no items event")
            return
        }
        #expect(finished == 100_000 && failed == 0 && total == 100_000)
        guard case .runFinished? = events.last else {
            Issue.record("the last event is not runFinished")
            return
        }
    }
}
