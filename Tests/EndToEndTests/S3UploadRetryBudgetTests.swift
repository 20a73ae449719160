import Foundation
import Testing

extension S3UploadTests {
    /// A part whose connection is reset on each of the step's `retry` attempts spends the retry
    /// budget: the step fails, saying how many attempts it made and how many parts moto holds.
    @Test(.timeLimit(.minutes(2))) func aPartFailingEveryAttemptSpendsTheRetryBudget() async throws {
        let (peer, proxy, test) = try await Self.throughFaults(
            "budget", size: 6 * 1024 * 1024, faults: ["chunk=2:reset:10", "chunk=3:reset:10"],
            keys: "chunk-size: 5MiB\nchunks-in-flight: 1", stepKeys: "retry: 2")
        defer { proxy.stop(); test.remove() }
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
