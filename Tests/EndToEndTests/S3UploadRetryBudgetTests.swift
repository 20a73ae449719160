import Foundation
import Testing

extension S3UploadTests {
    /// A part whose connection is reset on each of the step's `retry` attempts spends the retry
    /// budget: the step fails, saying how many attempts it made and how many parts moto holds.
    @Test(.timeLimit(.minutes(2))) func aPartFailingEveryAttemptSpendsTheRetryBudget() async throws {
        let peer = try S3Peer.required()
        let proxy = try await FaultProxy.start(
            to: peer.port, faults: ["chunk=2:reset:10", "chunk=3:reset:10"],
            folder: FileManager.default.temporaryDirectory)
        defer { proxy.stop() }
        let test = try Case(
            "budget", size: 6 * 1024 * 1024, endpoint: "http://127.0.0.1:\(proxy.port)",
            keys: "chunk-size: 5MiB\nchunks-in-flight: 1", stepKeys: "retry: 2")
        defer { test.remove() }
        try await peer.createBucket(test.bucket)
        let run = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        let output = run.stdout + run.stderr
        #expect(
            output.contains("(gave up after 2 attempts without a part confirmed; 1 of 2 parts are on the server)"),
            "\(output)")
        #expect(output.contains("sending it again"), "\(output)")
    }
}
