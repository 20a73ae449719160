import FlowKit
import FlowSandbox
import Foundation
import Testing

/// The request an `http` step sent reaches an app as a value beside the step's result, the same
/// line the JSON report writes, secrets masked; a step that sends no request has none.
@Suite struct FlowKitRequestLineTests {
    @Test func aStepsRequestIsAValueInItsEventTheOutcomeAndTheReport() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = try TestFolder()
        defer { folder.remove() }
        let workflow = try FlowWorkflow(
            yaml: """
                version: 1
                steps:
                  poll:
                    http:
                      url: \(sandbox.baseURL)/echo
                      query: { n: "${{ attempt }}", key: "${{ secrets.KEY }}" }
                    repeat: { until: "${{ attempt >= 2 }}", every: 0s, max-attempts: 3 }
                  local:
                    run: "true"
                """, baseFolder: folder.path)
        var options = FlowRunOptions()
        options.secrets = .values(["KEY": "k3y-value"])
        options.reports = [.json(folder.path + "/report.json")]
        let run = try workflow.start(options)
        var finished: [String: FlowStepResult] = [:]
        for await case .stepFinished(let result) in run.events { finished[result.step] = result }
        let outcome = await run.outcome
        #expect(outcome.state == .succeeded)
        // The last attempt's request, its secret masked.
        let expected = "GET \(sandbox.baseURL)/echo?n=2&key=***"
        let request = try #require(finished["poll"]?.request)
        #expect(request.method == "GET")
        #expect(request.description == expected)
        #expect(outcome.steps["poll"]?.request == request)
        #expect(finished["local"] != nil && finished["local"]?.request == nil)
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.first { $0["id"] as? String == "poll" }?["request"] as? String == expected)
        #expect(steps.first { $0["id"] as? String == "local" }?["request"] == nil)
    }
}
