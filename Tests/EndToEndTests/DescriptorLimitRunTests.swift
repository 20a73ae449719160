import FlowSandbox
import Foundation
import Testing

/// `flow run` under a low `ulimit -n`: more requests in flight than descriptors must not look
/// like a dead server.
@Suite struct DescriptorLimitRunTests {
    /// 400 requests at once, each held by the server for 300 ms, under a limit of 256 descriptors:
    /// a hard limit (flow caps its connections, the rest wait) and a soft one (flow raises it).
    @Test(arguments: ["ulimit -n 256", "ulimit -S -n 256"])
    func moreRequestsInFlightThanDescriptorsAllSucceed(limit: String) async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let count = 400
        let steps = (0..<count).map { "  s\($0): { http: { url: /delay/300 } }" }.joined(separator: "\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-e2e-\(UUID()).yaml").path
        try """
        version: 1
        concurrency: \(count)
        defaults:
          http: { base-url: \(sandbox.baseURL) }
        steps:
        \(steps)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await FlowProcess.run(["run", path], shell: limit)
        let output = outcome.stdout + outcome.stderr
        let failures = output.split(separator: "\n").filter { $0.contains("error") || $0.contains("failed") }
        #expect(outcome.exitCode == 0, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(!output.contains("Couldn't connect"))
        #expect(outcome.stdout.contains("\(count) succeeded, 0 failed"), "\(outcome.stdout.suffix(300))")
    }
}
