import FlowSandbox
import Foundation
import Testing

/// `compressed: false` (on a request or in `defaults.http`): no `Accept-Encoding` is offered, as
/// the sandbox's `/request` sees it; by default flow offers every encoding its libcurl decodes.
@Suite struct CompressionRunTests {
    @Test func compressedFalseOffersNoAcceptEncodingAndTheDryRunSaysSo() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-gzip-\(UUID()).yaml").path
        try """
        version: 1
        defaults:
          http: { compressed: false }
        steps:
          plain:
            http: { url: \(sandbox.baseURL)/request }
            expect: { assert: ["result.json.headers['accept-encoding'] == null"] }
          offered:
            http: { url: \(sandbox.baseURL)/request, compressed: true }
            expect: { assert: ["contains(result.json.headers['accept-encoding'][0], 'gzip')"] }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let dry = try await FlowProcess.run(["run", "--dry-run", path])
        let lines = dry.stdout.split(separator: "\n").map(String.init)
        let plain = lines.drop { !$0.contains("plain: GET") }.prefix(4)
        #expect(plain.contains("      compressed: false (no Accept-Encoding offered)"), "\(dry.stdout)")
        #expect(dry.stdout.components(separatedBy: "compressed: false").count == 2, "\(dry.stdout)")
    }
}
