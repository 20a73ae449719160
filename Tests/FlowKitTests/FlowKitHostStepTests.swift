import FlowKit
import Foundation
import Testing

/// `call` steps through FlowKit: the app's handlers, their outputs, a throw, items, a missing one.
@Suite struct FlowKitHostStepTests {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused by the app" }
    }

    static let yaml = """
        version: 1
        steps:
          score:
            for-each: [ada, grace, linus]
            call: score-user
            with: { name: "${{ item }}" }
            outputs: { score: "${{ result.outputs.score }}" }
          judge:
            needs: score
            call: judge
            with: { scores: "${{ steps.score.outputs.score }}" }
        """

    @Test func handlersRunForEachItemAndAThrowFailsTheStepAtItsPlace() async throws {
        let workflow = try FlowWorkflow(yaml: Self.yaml, baseFolder: NSTemporaryDirectory())
        var options = FlowRunOptions()
        options.hostSteps.register("score-user") { call in
            guard case .string(let name)? = call.inputs["name"] else { return [:] }
            return ["score": .number(Double(name.count))]
        }
        options.hostSteps.register("judge") { call in
            #expect(call.inputs["scores"] == .array([.number(3), .number(5), .number(5)]))
            throw Refused()
        }
        let outcome = await (try workflow.start(options)).outcome
        #expect(outcome.steps["score"]?.state == .succeeded)
        #expect(outcome.steps["score"]?.outputs["score"] == .array([.number(3), .number(5), .number(5)]))
        let failure = try #require(outcome.steps["judge"]?.failure)
        #expect(failure.message.contains("refused by the app"))
        // The `call:` line of the step.
        #expect(failure.location?.line == 10)
        #expect(outcome.state == .failed)
    }

    @Test func aRunCallingAnUnregisteredHandlerDoesNotStart() throws {
        let workflow = try FlowWorkflow(yaml: Self.yaml, baseFolder: NSTemporaryDirectory())
        var options = FlowRunOptions()
        options.hostSteps.register("score-user") { _ in [:] }
        #expect {
            _ = try workflow.start(options)
        } throws: { error in
            (error as? FlowError)?.diagnostics.contains { $0.message.contains("'judge'") } == true
        }
    }
}
