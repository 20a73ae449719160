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

    /// 300 commands at once under `ulimit -n 256` (the workflow): each needs its pipes and
    /// its process descriptor, so they cannot all start together. They wait for descriptors instead
    /// of crashing flow (swift-subprocess trapped in a descriptor's deinit: SIGILL, exit 132, no
    /// summary, children left running).
    @Test func moreCommandsAtOnceThanDescriptorsWaitAndNoneIsLeftRunning() async throws {
        // A duration no other process has, to find this test's `sleep`s among the machine's.
        let token = "0.3\(Int.random(in: 10_000...99_999))"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-e2e-\(UUID()).yaml").path
        try """
        version: 1
        concurrency: 300
        steps:
          many: { for-each: "${{ range(0, 300) }}", concurrency: 300, run: sleep \(token) }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await FlowProcess.run(["run", path, "--no-journal"], shell: "ulimit -n 256")
        let leftovers = Self.processes(withArgument: token)
        leftovers.forEach { kill($0, SIGKILL) }
        #expect(outcome.exitCode != 132, "flow crashed: \(outcome.stderr.suffix(500))")
        // Every item either ran or failed with flow's own message.
        let failures = outcome.stdout.split(separator: "\n").filter { $0.contains("could not start") }
        #expect(failures.allSatisfy { $0.contains("too many open files (ulimit -n 256)") }, "\(failures.prefix(3))")
        #expect(
            outcome.stdout.contains("300 items: 300 succeeded") || !failures.isEmpty,
            "\(outcome.stdout.suffix(400))\(outcome.stderr.suffix(400))")
        #expect(outcome.stdout.contains("flow: "), "no summary: \(outcome.stdout.suffix(400))")
        #expect(leftovers.isEmpty, "still running after flow exited: \(leftovers)")
    }

    /// Under limits so low that flow itself barely starts, a command either runs or fails with
    /// flow's message naming the limit: never a crash, never a library's message.
    @Test func aCommandThatCannotHaveItsDescriptorsFailsWithFlowsMessage() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-e2e-\(UUID()).yaml").path
        try """
        version: 1
        steps:
          one: { run: echo hi }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var messages = 0
        for limit in stride(from: 24, through: 8, by: -2) {
            let outcome = try await FlowProcess.run(["run", path, "--no-journal"], shell: "ulimit -n \(limit)")
            let output = outcome.stdout + outcome.stderr
            #expect(outcome.exitCode == 0 || outcome.exitCode == 1, "ulimit -n \(limit): exit \(outcome.exitCode)")
            guard output.contains("could not start") else { continue }
            #expect(
                output.contains("could not start 'echo hi': too many open files (ulimit -n \(limit))"),
                "ulimit -n \(limit): \(output)")
            messages += 1
        }
        #expect(messages > 0, "no limit was low enough to stop the command")
    }

    /// Live processes with `argument` among their arguments (zombies count as gone).
    static func processes(withArgument argument: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                data.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == argument }),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
            return state == "Z" || state == "X" ? nil : pid
        }
    }
}
