import FlowSandbox
import Foundation
import Testing

/// `delay:` on an http step: the request reaches the sandbox only after the delay (the step takes
/// at least that long: a lower bound, so not a timing race), a retried step's attempts all made,
/// and `--dry-run` shows it.
@Suite struct RequestDelayRunTests {
    @Test func aDelayIsWaitedBeforeTheFirstAttemptAndShownByTheDryRun() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-delay-\(UUID()).yaml").path
        try """
        version: 1
        steps:
          later:
            http: { url: \(sandbox.baseURL)/request, delay: 400ms }
          flaky:
            http: { url: "\(sandbox.baseURL)/flaky/delay-\(UUID())?fail=2", delay: 300ms }
            retry: { attempts: 3, delay: 10ms }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path, "--log-format", "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        var durations: [String: Double] = [:]
        for line in outcome.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "finished", let step = object["step"] as? String,
                let duration = object["duration"] as? Double
            else { continue }
            durations[step] = duration
        }
        #expect((durations["later"] ?? 0) >= 0.4, "\(outcome.stdout)")
        // The delay comes before the first of the three attempts; the retries wait their 10 ms.
        #expect((durations["flaky"] ?? 0) >= 0.3, "\(outcome.stdout)")
        let flaky = sandbox.events().filter { $0.path.hasPrefix("/flaky") }
        #expect(flaky.count == 3, "\(flaky)")
        let dry = try await FlowProcess.run(["run", "--dry-run", path])
        #expect(dry.stdout.contains("      delay 400ms before sending\n"), "\(dry.stdout)")
    }
}
