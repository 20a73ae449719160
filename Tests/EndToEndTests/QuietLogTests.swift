import Foundation
import Testing

/// The log says what a reader needs once: an unread output is one warning line in `flow run`
/// (validate explains it), a fast `repeat` prints at tenths, and concurrent uploads of a
/// `for-each` name their item on their progress lines.
@Suite struct QuietLogTests {
    @Test func anUnreadOutputIsOneLineInRunAndExplainedInValidate() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "unread.yaml",
            """
            version: 1
            steps:
              one:
                run: echo hi
                outputs: { text: "${{ result.stdout }}", code: "${{ result.exit_code }}" }
            """)
        let run = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("never read") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains("flow: warning: 2 declared outputs are never read (\(file):5:16, "), "\(run.stderr)")
        #expect(!run.stderr.contains("hint:"), "\(run.stderr)")
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.stderr.contains("warning: output 'text' of step 'one' is never read"), "\(validate.stderr)")
        #expect(validate.stderr.contains("read it as ${{ steps.one.outputs.text }}"), "\(validate.stderr)")
    }

    @Test func aFastRepeatPrintsAtTenthsNotEveryAttempt() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "poll.yaml",
            """
            version: 1
            steps:
              poll:
                sleep: 0s
                repeat:
                  until: ${{ attempt >= 2000 }}
                  every: 0s
                  max-attempts: 2000
            """)
        let run = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").filter { $0.contains("[poll] repeat ") }
        #expect(lines.count >= 10 && lines.count <= 15, "\(lines.count) lines: \(lines.prefix(20))")
        #expect(run.stdout.contains("[poll] repeat 2/2000"))
        #expect(run.stdout.contains("[poll] repeat 200/2000"))
        #expect(run.stdout.contains("(repeat 2000/2000)"))
    }

    @Test func concurrentUploadsNameTheirItemOnProgressLines() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        _ = try scratch.write("data/a.bin", String(repeating: "a", count: 300_000))
        _ = try scratch.write("data/b.bin", String(repeating: "b", count: 300_000))
        let file = try scratch.write(
            "uploads.yaml",
            """
            version: 1
            services:
              sandbox:
                run: ["${{ flow.executable }}", sandbox, --port, "${{ services.sandbox.port }}"]
                ready: { http: "${{ services.sandbox.url }}/health" }
            steps:
              up:
                for-each: [a, b]
                concurrency: 2
                upload:
                  file: "\(scratch.folder.path)/data/${{ item }}.bin"
                  url: "${{ services.sandbox.url }}/uploads/cr/quiet-${{ item }}"
                  protocol: content-range
                  chunk-size: 100KiB
            """)
        let run = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let progress = run.stdout.split(separator: "\n").filter { $0.contains("%)") }
        #expect(!progress.isEmpty, "\(run.stdout)")
        #expect(progress.allSatisfy { $0.contains("[up[0]]") || $0.contains("[up[1]]") }, "\(progress)")
        #expect(progress.contains { $0.contains("[up[0]]") } && progress.contains { $0.contains("[up[1]]") })
    }
}
