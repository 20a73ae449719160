import FlowDSL
import FlowEngine
import Testing

/// A zero wait finishes as it starts (`PlannedStep.immediate`). Without outputs it captures
/// nothing of its step; with outputs it evaluates them as any step does (issue 32).
@Suite struct ZeroWaitTests {
    /// Both kinds side by side, with a dependent reading the outputs of the one that has some: a
    /// wait that lost its outputs, or one that gained the other's, fails these checks.
    @Test func aZeroWaitGivesItsOutputsOnlyWhenItDeclaresSome() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              plain:
                sleep: 0s
              with-outputs:
                sleep: 0s
                outputs:
                  answer: ${{ 42 }}
              reader:
                needs: [plain, with-outputs]
                sleep: 0s
                outputs:
                  seen: ${{ steps.with-outputs.outputs.answer }}
            """)
        for id in ["plain", "with-outputs", "reader"] {
            #expect(records[id]?.state == .succeeded, "\(id)")
            #expect(records[id]?.output?.attempts == 1, "\(id)")
        }
        #expect(records["plain"]?.output?.outputs.isEmpty == true)
        #expect(records["plain"]?.output?.result == .object([:]))
        #expect(records["with-outputs"]?.output?.outputs == ["answer": .number(42)])
        #expect(records["reader"]?.output?.outputs == ["seen": .number(42)])
    }
}
