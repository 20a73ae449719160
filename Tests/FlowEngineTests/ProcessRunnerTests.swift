import Dispatch
import FlowEngine
import FlowTasks
import Foundation
import Synchronization
import Testing

@Suite struct ProcessRunnerTests {
    let queue = DispatchQueue(label: "process.tests")

    @Test func argvRunsWithoutAShellAndCapturesOutput() async throws {
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .argv(["echo", "hello", "$HOME", "; rm -rf /"])), on: queue
        ).value
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout == "hello $HOME ; rm -rf /")
    }

    @Test func valuesReachAScriptAsVariablesAndAreNeverExecuted() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("flow-injected-\(UUID())")
        let hostile = "$(touch \(marker.path)); `touch \(marker.path)`"
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("printf '%s' \"$FLOW_VALUE\""), environment: ["FLOW_VALUE": hostile]),
            on: queue
        ).value
        #expect(outcome.stdout == hostile)
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test func aNonZeroExitIsReportedWithStderr() async throws {
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("echo broken >&2; exit 3")), on: queue
        ).value
        #expect(outcome.exitCode == 3)
        #expect(outcome.stderr == "broken")
        #expect(outcome.signal == nil)
    }

    @Test func linesStreamAsTheyArriveFromBothStreams() async throws {
        let lines = Mutex<[String]>([])
        _ = try await ProcessRunner.run(
            ProcessSpec(command: .shell("echo one; echo two >&2; echo three")), on: queue,
            onLine: { line, stream in lines.withLock { $0.append("\(stream.rawValue): \(line)") } }
        ).value
        let seen = lines.withLock { $0 }
        #expect(seen.filter { $0.hasPrefix("stdout") } == ["stdout: one", "stdout: three"])
        #expect(seen.contains("stderr: two"))
    }

    @Test func theWorkingFolderAndEnvironmentAreApplied() async throws {
        let folder = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        let outcome = try await ProcessRunner.run(
            ProcessSpec(
                command: .shell("pwd; echo \"$GREETING\""), environment: ["GREETING": "hi"], workingDirectory: folder),
            on: queue
        ).value
        #expect(outcome.stdout == "\(folder)\nhi")
    }

    @Test func captureIsBoundedButTheExitStillCounts() async throws {
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("for i in $(seq 1 1000); do echo line$i; done"), captureLimit: 100), on: queue
        ).value
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout.utf8.count < 120)
        #expect(outcome.stdout.hasPrefix("line1\nline2\n"))
    }

    @Test func cancellingKillsTheWholeProcessGroup() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-pid-\(UUID())")
        let future = ProcessRunner.run(
            ProcessSpec(
                command: .shell("sleep 30 & echo $! > \(pidFile.path); wait"),
                terminationGrace: .milliseconds(200)),
            on: queue)
        var grandchild: pid_t = 0
        for _ in 0..<500 where grandchild == 0 {
            try await Task.sleep(for: .milliseconds(10))
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                grandchild = pid
            }
        }
        #expect(grandchild > 0)
        future.cancel()
        await #expect(throws: FutureError.cancelled) { try await future.value }
        var gone = false
        for _ in 0..<300 where !gone {
            try await Task.sleep(for: .milliseconds(10))
            gone = kill(grandchild, 0) != 0
        }
        #expect(gone, "the background child of the script must be killed with its group")
    }

    @Test func anUnknownCommandFailsToStartWithItsName() async throws {
        await #expect(throws: ProcessLaunchError.self) {
            try await ProcessRunner.run(ProcessSpec(command: .argv(["flow-no-such-command"])), on: queue).value
        }
        await #expect(throws: ProcessLaunchError.self) {
            try await ProcessRunner.run(ProcessSpec(command: .argv([])), on: queue).value
        }
    }
}
