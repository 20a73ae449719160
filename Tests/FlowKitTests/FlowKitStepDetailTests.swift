import FlowKit
import Foundation
import Testing

/// What `flow run` prints of a step, an app gets as values: each item of a `for-each` as it ends,
/// the attempts of a `repeat`, a step's time, and the steps that failed the run in order.
@Suite struct FlowKitStepDetailTests {
    @Test func itemsRepetitionsAndFailedStepsAreValues() async throws {
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  poll:
                    run: "true"
                    repeat: { until: "${{ attempt >= 3 }}", every: 0s, max-attempts: 5 }
                  each:
                    needs: poll
                    for-each: [1, 2, 3]
                    fail-fast: false
                    run: "test ${{ item }} -ne 2"
                  late:
                    run: "exit 3"
                """, baseFolder: NSTemporaryDirectory(), fileName: "detail.yaml")
        var options = FlowRunOptions()
        options.eventBufferLimit = 100_000
        let run = try workflow.start(options)
        var items: [FlowItemEvent] = []
        var repetitions: [Int] = []
        for await event in run.events {
            switch event {
            case .item(let item): items.append(item)
            case .repetition("poll", let number, let limit, _):
                #expect(limit == 5)
                repetitions.append(number)
            default: break
            }
        }
        let outcome = await run.outcome
        #expect(outcome.state == .failed)
        // Coalesced for a slow consumer: the latest attempt is never lost.
        #expect(repetitions.last == 3)
        #expect(outcome.steps["poll"]?.repetitions?.count == 3)
        #expect(outcome.steps["poll"]?.repetitions?.limit == 5)
        #expect(outcome.steps["poll"]?.duration != nil)
        // Each item started, then ended; the second failed, with why.
        #expect(items.filter { $0.state == .running }.count == 3)
        let failed = try #require(items.first { $0.state == .failed })
        #expect(failed.step == "each" && failed.index == 1 && failed.label == "2" && failed.total == 3)
        #expect(failed.error?.isEmpty == false)
        let results = try #require(outcome.steps["each"]?.items)
        #expect(results.map(\.state) == [.succeeded, .failed, .succeeded])
        #expect(results[1].label == "2")
        // The steps that failed the run, in declaration order, each at its place in the file.
        #expect(outcome.failedSteps.map(\.step) == ["each", "late"])
        #expect((outcome.failedSteps.last?.location?.line ?? 0) >= 11)
        #expect(outcome.failedSteps.last?.location?.file.hasSuffix("detail.yaml") == true)
    }
}
