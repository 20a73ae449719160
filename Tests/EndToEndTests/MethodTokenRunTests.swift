import FlowSandbox
import Foundation
import Testing

/// Methods beyond the seven common ones (WebDAV's, a cache's `PURGE`), through the built `flow`
/// against the sandbox's `/request`, which answers with the method as it arrived.
@Suite struct MethodTokenRunTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-method-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anyMethodTokenIsSentAsWrittenAndShownByTheDryRun() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try write(
            """
            version: 1
            steps:
              find:
                http: { method: PROPFIND, url: \(sandbox.baseURL)/request, headers: { Depth: "1" } }
                expect: { assert: [result.json.method == 'PROPFIND', result.request.method == 'PROPFIND'] }
              purge:
                http: { method: PURGE, url: \(sandbox.baseURL)/request }
                expect: { assert: ["result.json.method == 'PURGE'"] }
              common:
                http: { method: delete, url: \(sandbox.baseURL)/request }
                expect: { assert: ["result.json.method == 'DELETE'"] }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let seen = sandbox.events().map { "\($0.method) \($0.path)" }
        #expect(Set(seen) == ["PROPFIND /request", "PURGE /request", "DELETE /request"], "\(seen)")
        let dry = try await FlowProcess.run(["run", "--dry-run", file])
        #expect(dry.exitCode == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("find: PROPFIND \(sandbox.baseURL)/request"), "\(dry.stdout)")
        #expect(dry.stdout.contains("purge: PURGE \(sandbox.baseURL)/request"), "\(dry.stdout)")
    }

    @Test func validateRejectsAMethodThatIsNotATokenAtItsPlace() async throws {
        let file = try write(
            """
            version: 1
            steps:
              a:
                http: { method: "GET /x", url: http://127.0.0.1:9/ }
              b:
                http: { method: propfind, url: http://127.0.0.1:9/ }
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(file):4:21: error: 'GET /x' is not an HTTP method"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(file):6:21: error: unknown HTTP method 'propfind'"), "\(outcome.stderr)")
    }
}
