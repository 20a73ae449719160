import FlowEngine
import FlowTasks
import Testing

/// A `for-each` whose items finish at once (a zero wait) gives its queue back every
/// `ForEachRun.itemsInOneTurn` items: an interrupt and a decided race reach it while it runs, where
/// before they waited for the last of half a million items and the step succeeded.
@Suite struct ForEachTurnTests {
    /// Items enough that running them all takes seconds in a debug build.
    static let manyItems = 500_000

    @Test func anInterruptStopsAForEachWhoseItemsFinishAtOnce() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let started = LockedBox(false)
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              many:
                for-each: ${{ range(0, \(Self.manyItems)) }}
                sleep: 0s
            """,
            onEvent: { event in
                if event.id == "many", case .started = event.kind { started.withLock { $0 = true } }
            },
            whileRunning: { run in
                while !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                run.cancel()
            })
        #expect(records["many"]?.state == .cancelled, "\(String(describing: records["many"]))")
    }

    @Test func aRaceIsWonByAStepThatEndsWhileAForEachRuns() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              race:
                parallel: any
                steps:
                  quick: { sleep: 20ms }
                  many:
                    for-each: ${{ range(0, \(Self.manyItems)) }}
                    sleep: 0s
            """)
        #expect(records["race"]?.winner == "quick")
        #expect(records["many"]?.state == .cancelled, "\(String(describing: records["many"]))")
    }
}
