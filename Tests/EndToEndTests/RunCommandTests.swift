import FlowSandbox
import FlowTestSupport
import Foundation
import Testing

/// `flow run` as a user runs it: the built binary against a sandbox, watched through its event log.
@Suite struct RunCommandTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-e2e-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Problems found as the run starts are rendered like parse errors: place, source line, caret.
    @Test func aMissingSecretIsShownAtItsPlaceWithTheSourceLine() async throws {
        let file = try write(
            """
            version: 1
            steps:
              say: { run: "echo ${{ secrets.NOT_SET_ANYWHERE }}" }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("\(file):3:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("error: secret 'NOT_SET_ANYWHERE' is not set"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("    3 |   say: { run: "), "\(outcome.stderr)")
    }

    @Test func parallelStepsOverlapAtTheServerAndTheRunSucceeds() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try write(
            """
            version: 1
            defaults:
              http: { base-url: \(sandbox.baseURL) }
            steps:
              first: { http: { url: /delay/300 } }
              second: { http: { url: /delay/300 } }
              joined: { needs: [first, second], run: "echo both done" }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("[joined] | both done"))
        #expect(outcome.stdout.contains("flow: succeeded — 3 succeeded, 0 failed, 0 skipped, 0 cancelled"))
        let delays = sandbox.events().filter { $0.path == "/delay/300" }
        #expect(delays.count == 2)
        if delays.count == 2, let firstEnd = delays[0].endedAt, let secondEnd = delays[1].endedAt {
            // Overlap in time: each started before the other ended.
            #expect(delays[0].startedAt < secondEnd && delays[1].startedAt < firstEnd)
        }
    }

    @Test func aFailedRunExitsOneAndKeepsSecretsOutOfOutputAndReports() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("flow-reports-\(UUID())")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let file = try write(
            """
            version: 1
            steps:
              say: { run: "echo token=${{ secrets.TOKEN }}" }
              call:
                needs: say
                http: { url: "\(sandbox.baseURL)/status/500", headers: { Authorization: "Bearer ${{ secrets.TOKEN }}" } }
                outputs: { echoed: "${{ secrets.TOKEN }}" }
              later: { needs: call, run: "echo never" }
            """)
        let json = reports.appendingPathComponent("run.json").path
        let junit = reports.appendingPathComponent("run.xml").path
        let outcome = try await FlowProcess.run(
            ["run", file, "--report", "json", json, "--report", "junit", junit],
            environment: ["FLOW_SECRET_TOKEN": "tok-9f8e7d6c"])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stdout.contains("[say] | token=***"))
        #expect(outcome.stdout.contains("✗ call (\(file):6:"))
        // Under it, the line it points at with a caret, as under a parse error.
        #expect(outcome.stdout.contains("    6 |     http: { url: "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("      |     ^"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("[later] skipped"))
        let jsonText = try String(contentsOfFile: json, encoding: .utf8)
        let junitText = try String(contentsOfFile: junit, encoding: .utf8)
        for text in [outcome.stdout, outcome.stderr, jsonText, junitText] {
            #expect(!text.contains("tok-9f8e7d6c"))
        }
        #expect(jsonText.contains(#""outcome" : "failed""#))
        #expect(junitText.contains(#"failures="1""#))
    }

    @Test func aMissingSecretIsAnInvalidRunNamingWhereItIsRead() async throws {
        let file = try write(
            """
            version: 1
            steps:
              say: { run: "echo ${{ secrets.NOT_SET_ANYWHERE }}" }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("\(file):3:"))
        #expect(outcome.stderr.contains("secret 'NOT_SET_ANYWHERE' is not set"))
    }

    @Test func sigintCancelsEverythingWritesTheReportAndExits130() async throws {
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("flow-int-\(UUID()).json").path
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-int-\(UUID()).pid").path
        let file = try write(
            """
            version: 1
            steps:
              work: { run: "sleep 30 & echo $! > \(pidFile); wait" }
              cleanup: { needs: work, if: always(), run: "echo cleaned" }
            """)
        let process = Process()
        process.executableURL = FlowProcess.binary
        process.arguments = ["run", file, "--report", "json", reportPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: pidFile) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(100))
        let grandchild =
            pid_t(
                (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                    ?? "") ?? 0
        let interruptedAt = Date()
        kill(process.processIdentifier, SIGINT)
        // Read on a thread of its own: blocking the concurrency pool could starve other tests.
        let text: String = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(interruptedAt) < 5)
        #expect(text.contains("[work] cancelled"))
        #expect(text.contains("[cleanup] | cleaned"))
        #expect(text.contains("flow: cancelled"))
        #expect(grandchild > 0 && !isRunning(grandchild), "the command's own children must not outlive the run")
        let report = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(report.contains(#""outcome" : "cancelled""#))
    }

    @Test func jsonLogFormatPrintsOneObjectPerEvent() async throws {
        let file = try write(
            """
            version: 1
            steps:
              hello: { run: "echo hi" }
            """)
        let outcome = try await FlowProcess.run(["run", file, "--log-format", "json"])
        #expect(outcome.exitCode == 0)
        let events = outcome.stdout.split(separator: "\n").filter { !$0.contains(#""event":"summary""#) }
        #expect(events.count == 3)
        for event in events {
            let object = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
            #expect(object?["step"] as? String == "hello")
        }
        #expect(events.contains { $0.contains(#""line":"hi""#) })
    }
}

@Suite struct LargeRunTests {
    @Test func aFiveThousandStepDAGRunsToTheEnd() async throws {
        var yaml = "version: 1\nconcurrency: 32\nsteps:\n"
        for index in 0..<5_000 {
            let needs = index < 50 ? "" : ", needs: [s\(index - 50), s\(index / 2)]"
            yaml += "  s\(index): { sleep: 0s\(needs) }\n"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-5000-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path, "--log-format", "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let summary = try #require(outcome.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "summary" && object["outcome"] as? String == "succeeded")
        #expect(object["succeeded"] as? Int == 5000 && object["failed"] as? Int == 0)
    }
}
