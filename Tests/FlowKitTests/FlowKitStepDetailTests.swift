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

/// The language's JSON Schema, as `flow schema` prints it, is a value an app can hand to an editor.
@Suite struct FlowKitSchemaTests {
    @Test func theSchemaIsJSONSchemaOfTheLanguage() throws {
        let data = Data(FlowWorkflow.schema.utf8)
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((schema["$schema"] as? String)?.contains("2020-12") == true)
        #expect(FlowWorkflow.schema.contains("\"steps\""))
    }
}

/// `flow validate` as a value: a file's problems, their text as flow prints it, and its steps.
@Suite struct FlowKitCheckTests {
    @Test func aCallOfAHandlerTheAppHasNotIsAnErrorAtItsPlace() throws {
        let path = NSTemporaryDirectory() + "flowkit-check-\(UUID()).yaml"
        try """
        version: 1
        steps:
          score:
            call: score-user
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outside = FlowWorkflow.check(contentsOf: path, hostSteps: [])
        #expect(!outside.isValid)
        let error = try #require(outside.diagnostics.first { $0.severity == .error })
        #expect(error.location?.line == 4)
        // Compiler-style, with the source line and a caret under it.
        #expect(outside.rendered.contains("\(path):4:"))
        #expect(outside.rendered.contains("call: score-user"))
        #expect(outside.rendered.contains("^"))
        let inside = FlowWorkflow.check(contentsOf: path, hostSteps: ["score-user"])
        #expect(inside.isValid && inside.stepCount == 1 && inside.rendered.isEmpty)
        #expect(inside.workflow?.mermaidGraph.contains("score") == true)
        // Unchecked calls: a file checked before its app is known.
        #expect(FlowWorkflow.check(contentsOf: path, hostSteps: nil).isValid)
    }
}
