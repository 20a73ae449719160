import Foundation
import Testing

@Suite struct HelpAndVersionTests {
    @Test func versionPrintsTheVersion() async throws {
        let outcome = try await FlowProcess.run(["--version"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func helpDescribesTheTool() async throws {
        let outcome = try await FlowProcess.run(["--help"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout.contains("USAGE: flow"))
        #expect(outcome.stdout.contains("workflows written in YAML"))
    }

    @Test func unknownOptionIsAUsageError() async throws {
        let outcome = try await FlowProcess.run(["--no-such-option"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.stderr.contains("no-such-option"))
    }
}
