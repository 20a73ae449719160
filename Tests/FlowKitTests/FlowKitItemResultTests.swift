import FlowKit
import Foundation
import Testing

@Suite struct FlowKitItemResultTests {
    /// The dictionary's one word: the address of its table (the shared empty one when nothing
    /// was allocated for it).
    private static func table(_ fields: [String: FlowValue]) -> UInt {
        unsafeBitCast(fields, to: UInt.self)
    }

    /// A `for-each` finish lists every item: an item without outputs must not hold a table of its
    /// own (it did: 112 bytes each, 11 MB of a 100,000-item run's peak; issue 32).
    @Test func itemsAndStepsWithoutOutputsShareTheEmptyOutputs() async throws {
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  each:
                    for-each: ${{ range(0, 200) }}
                    sleep: 0s
                  named:
                    for-each: ${{ range(0, 2) }}
                    run: "true"
                    outputs:
                      value: ${{ result.exit_code }}
                """, baseFolder: NSTemporaryDirectory())
        let outcome = await (try workflow.start(FlowRunOptions())).outcome
        #expect(outcome.state == .succeeded)
        let empty = Self.table([:])
        let each = try #require(outcome.steps["each"])
        #expect(Self.table(each.outputs) == empty)
        let items = try #require(each.items)
        #expect(items.count == 200)
        #expect(items.allSatisfy { Self.table($0.outputs) == empty })
        // Outputs there are still given, as typed values.
        let named = try #require(outcome.steps["named"]?.items)
        #expect(named.map { $0.outputs["value"] } == [.number(0), .number(0)])
    }
}
