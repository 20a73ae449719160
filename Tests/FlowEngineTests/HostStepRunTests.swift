import Dispatch
import FlowDSL
import FlowEngine
import FlowTasks
import Foundation
import Testing

/// `call:` steps run the host program's handlers (`HostStepRegistry`) between declared requests.
@Suite struct HostStepRunTests {
    @Test func aHandlersOutputsAreReadByALaterRequest() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let seen = LockedBox<HostStepCall?>(nil)
        var hosts = HostStepRegistry()
        hosts.register("score-user") { call in
            seen.withLock { $0 = call }
            guard case .string(let token)? = call.inputs["token"], case .number(let limit, _)? = call.inputs["limit"]
            else { throw HarnessError(message: "inputs missing") }
            return ["score": .number(Double(token.count) + limit), "tier": .string("gold")]
        }
        let (records, _) = try await harness.run(
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
              score:
                needs: login
                call: score-user
                with:
                  token: ${{ steps.login.outputs.token }}
                  limit: 3
                  tags: [a, b]
                outputs:
                  label: ${{ result.outputs.tier }}-${{ result.outputs.score }}
              report:
                needs: score
                http:
                  url: /echo
                  query: { score: "${{ steps.score.outputs.score }}", label: "${{ steps.score.outputs.label }}" }
                outputs:
                  query: ${{ result.json.query }}
            """, secrets: ["PASSWORD": "s3cret"], hostSteps: hosts)
        #expect(records.values.allSatisfy { $0.state == .succeeded }, "\(records.mapValues(\.state))")
        let call = try #require(seen.withLock { $0 })
        #expect(call.name == "score-user")
        #expect(call.step == "score")
        #expect(call.attempt == 1)
        #expect(call.index == nil)
        #expect(call.inputs["tags"] == .array([.string("a"), .string("b")]))
        guard case .string(let token)? = call.inputs["token"] else {
            Issue.record("the token input must be the login's output")
            return
        }
        let score = "\(token.count + 3)"
        guard case .object(let query)? = records["report"]?.output?.outputs["query"] else {
            Issue.record("the echo must show the query")
            return
        }
        #expect(query["score"] == .string(score))
        #expect(query["label"] == .string("gold-\(score)"))
        #expect(harness.sandbox.events().contains { $0.path.hasPrefix("/echo?") && $0.path.contains("score=\(score)") })
    }

    @Test func aHandlerThatThrowsFailsItsStepNamedWithItsErrorMaskedAndEscaped() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let calls = LockedBox(0)
        var hosts = HostStepRegistry()
        hosts.register("charge") { call in
            calls.withLock { $0 += 1 }
            let key = call.inputs["key"]?.interpolated ?? ""
            throw HarnessError(message: "card declined for key \(key)\u{1B}[31m")
        }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              pay:
                call: charge
                with: { key: "${{ secrets.KEY }}" }
                retry: { attempts: 2, delay: 0s }
              receipt:
                needs: pay
                http: { url: BASE/health }
            """, secrets: ["KEY": "k-123456"], hostSteps: hosts)
        #expect(records["pay"]?.state == .failed)
        #expect(records["receipt"]?.state == .skipped)
        #expect(calls.withLock { $0 } == 2)
        let error = try #require(records["pay"]?.error as? StepError)
        #expect(error.message == "handler 'charge' failed: card declined for key ***\\u{1B}[31m")
        #expect(error.location.line == 4)
        #expect(error.location.column == 11)
        #expect(!harness.sandbox.events().contains { $0.path == "/health" })
    }

    @Test func aTimeoutCancelsTheHandlersTaskAndTheRunWaitsForIt() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let cancelled = LockedBox(false)
        let returned = LockedBox(false)
        var hosts = HostStepRegistry()
        hosts.register("slow") { _ in
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.withLock { $0 = error is CancellationError }
                // A handler may take a moment to wind down (a wait that cancellation does not cut
                // short); the run waits for it.
                await withCheckedContinuation { done in
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { done.resume() }
                }
                returned.withLock { $0 = true }
                throw error
            }
            return [:]
        }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              wait:
                call: slow
                timeout: 200ms
              after:
                needs: wait
                if: always()
                http: { url: BASE/health }
            """, hostSteps: hosts)
        #expect(records["wait"]?.state == .failed)
        let reason = records["wait"]?.error.map { String(describing: $0) } ?? ""
        #expect(reason.contains("timed out"), "\(reason)")
        #expect(records["after"]?.state == .succeeded)
        #expect(cancelled.withLock { $0 })
        #expect(returned.withLock { $0 }, "the run ended while the handler still ran")
    }

    @Test func cancellingTheRunCancelsARunningHandler() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let started = LockedBox(false)
        let cancelled = LockedBox(false)
        var hosts = HostStepRegistry()
        hosts.register("slow") { _ in
            started.withLock { $0 = true }
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.withLock { $0 = error is CancellationError }
                throw error
            }
            return [:]
        }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              wait:
                call: slow
            """, hostSteps: hosts,
            whileRunning: { run in
                for _ in 0..<1000 where !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
                run.cancel()
            })
        #expect(records["wait"]?.state == .cancelled)
        #expect(cancelled.withLock { $0 })
    }

    @Test func aForEachCallsTheHandlerPerItemWithinItsConcurrency() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let counts = LockedBox((inFlight: 0, most: 0))
        var hosts = HostStepRegistry()
        hosts.register("double") { call in
            counts.withLock {
                $0.inFlight += 1
                $0.most = max($0.most, $0.inFlight)
            }
            defer { counts.withLock { $0.inFlight -= 1 } }
            // The first three wait until three are in flight: proof that they run side by side
            // (with a concurrency of 1 this would wait its 10 seconds and the check below fail).
            if (call.index ?? 0) < 3 {
                for _ in 0..<2000 where counts.withLock({ $0.most }) < 3 { try await Task.sleep(for: .milliseconds(5)) }
            }
            guard case .number(let number, _)? = call.inputs["n"] else { return [:] }
            return ["doubled": .number(number * 2)]
        }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              each:
                for-each: ${{ range(0, 12) }}
                concurrency: 3
                call: double
                with: { n: "${{ item }}" }
              sum:
                needs: each
                http:
                  url: BASE/echo
                  query: { all: "${{ join(steps.each.outputs.doubled, ',') }}" }
                outputs:
                  all: ${{ result.json.query.all }}
            """, hostSteps: hosts)
        #expect(records["each"]?.state == .succeeded)
        let most = counts.withLock { $0.most }
        #expect(most == 3)
        #expect(records["sum"]?.output?.outputs["all"] == .string("0,2,4,6,8,10,12,14,16,18,20,22"))
    }
}
