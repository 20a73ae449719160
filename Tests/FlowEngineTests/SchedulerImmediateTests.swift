import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Testing

/// Leaves whose result is known as they start (a zero wait) give it without a future
/// (`PlannedStep.immediate`); the run's events keep the order they had with one (issue 32).
@Suite struct SchedulerImmediateTests {
    /// A layered graph: `width` steps a layer, each needing two steps of the layer before; step
    /// `fail` (if any) fails. `immediate` chooses how the leaves give their result.
    private func layers(
        _ count: Int, width: Int, immediate: Bool, fail: String? = nil, runnerCalls: LockedBox<Int>
    ) -> [PlannedStep<String>] {
        var steps: [PlannedStep<String>] = []
        for layer in 0..<count {
            for index in 0..<width {
                let id = "s\(layer)-\(index)"
                let needs = layer == 0 ? [] : ["s\(layer - 1)-\(index)", "s\(layer - 1)-\((index + 1) % width)"]
                let result: Result<String, any Error> = id == fail ? .failure(TestFailure("boom")) : .success(id)
                let done: @Sendable (StepStart<String>) -> Result<String, any Error> = { start in
                    start.report(.attempt(1))
                    return result
                }
                let work = StepWork<String>.leaf { start in
                    runnerCalls.withLock { $0 += 1 }
                    switch done(start) {
                    case .success(let value): return Future.succeeded(value, on: start.queue)
                    case .failure(let error): return Future.failed(error, on: start.queue)
                    }
                }
                steps.append(PlannedStep(id: id, needs: needs, work: work, immediate: immediate ? done : nil))
            }
        }
        return steps
    }

    @Test func leavesDoneAtOnceKeepTheEventsOfCompletedFutures() async throws {
        let calls = LockedBox(0)
        let (futureRecords, futureEvents) = try await run(
            layers(6, width: 8, immediate: false, runnerCalls: calls), concurrency: 3)
        #expect(calls.withLock { $0 } == 48)
        calls.withLock { $0 = 0 }
        let (records, events) = try await run(layers(6, width: 8, immediate: true, runnerCalls: calls), concurrency: 3)
        // No runner was called, no future made: the same events, in the same order.
        #expect(calls.withLock { $0 } == 0)
        #expect(events == futureEvents)
        #expect(events.count == 48 * 3)
        #expect(records.count == futureRecords.count)
        #expect(records.values.allSatisfy { $0.state == .succeeded && $0.output == $0.id })
    }

    @Test func aLeafFailingAtOnceFailsAsItsFutureWould() async throws {
        let calls = LockedBox(0)
        let (futureRecords, futureEvents) = try await run(
            layers(3, width: 4, immediate: false, fail: "s1-2", runnerCalls: calls))
        let (records, events) = try await run(layers(3, width: 4, immediate: true, fail: "s1-2", runnerCalls: calls))
        #expect(events == futureEvents)
        #expect(records["s1-2"]?.state == .failed)
        #expect((records["s1-2"]?.error as? TestFailure)?.message == "boom")
        #expect(records["s2-1"]?.state == .skipped)
        #expect(records["s2-2"]?.state == .skipped)
        #expect(records.mapValues(\.state) == futureRecords.mapValues(\.state))
    }

    @Test func aLeafWithATimeoutKeepsItsFuture() async throws {
        let calls = LockedBox(0)
        let done: @Sendable (StepStart<String>) -> Result<String, any Error> = { _ in .success("at once") }
        let (records, _) = try await run([
            PlannedStep(
                id: "bounded", timeout: .seconds(30),
                work: .leaf { start in
                    calls.withLock { $0 += 1 }
                    return Future.succeeded("through the future", on: start.queue)
                }, immediate: done)
        ])
        #expect(calls.withLock { $0 } == 1)
        #expect(records["bounded"]?.output == "through the future")
    }
}
