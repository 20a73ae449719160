import FlowSandbox
import Foundation
import Testing

/// A fast `repeat` prints at tenths of its attempts and when an attempt's answer changes: a poll
/// whose server turns from 202 to 200 between two tenths says so when it happens.
@Suite struct RepeatChangeLineTests {
    @Test func aRepeatPrintsALineWhenTheAnswerChanges() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "poll.yaml",
            """
            version: 1
            steps:
              poll:
                http:
                  url: "\(sandbox.baseURL)/status/${{ attempt > 33 && 200 || 202 }}"
                repeat:
                  until: ${{ attempt >= 100 }}
                  every: 0s
                  max-attempts: 100
            """)
        let plain = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(plain.exitCode == 0, "\(plain.stdout)\(plain.stderr)")
        let lines = plain.stdout.split(separator: "\n").filter { $0.contains("[poll] repeat ") }
        // 2, each tenth (10, 20, …, 100) and 35, the first attempt after the answer changed.
        #expect(lines.count >= 12 && lines.count <= 14, "\(lines)")
        #expect(plain.stdout.contains("[poll] repeat 2/100 (previous: status 202)"), "\(plain.stdout)")
        #expect(plain.stdout.contains("[poll] repeat 35/100 (previous: status 200)"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("[poll] repeat 36/100"), "\(plain.stdout)")

        let json = try await FlowProcess.run(["run", file, "--no-journal", "--log-format", "json"])
        #expect(json.exitCode == 0, "\(json.stdout)\(json.stderr)")
        #expect(
            json.stdout.contains(#""attempt":35,"event":"repeat","max-attempts":100,"previous":"status 200""#),
            "\(json.stdout)")
    }
}
