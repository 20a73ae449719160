import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Foundation
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
        let lines = LockedBox<[String]>([])
        _ = try await ProcessRunner.run(
            ProcessSpec(command: .shell("echo one; echo two >&2; echo three")), on: queue,
            onLine: { line, stream, _ in lines.withLock { $0.append("\(stream.rawValue): \(line)") } }
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

    @Test func aLineLongerThan128KiBIsShownInPiecesAndKeptWhole() async throws {
        let pieces = LockedBox<[Int]>([])
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("head -c 300000 /dev/zero | tr '\\0' x; echo; echo after")), on: queue,
            onLine: { line, _, _ in pieces.withLock { $0.append(line.utf8.count) } }
        ).value
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout == String(repeating: "x", count: 300_000) + "\nafter")
        #expect(pieces.withLock { $0 } == [65536, 65536, 65536, 65536, 37856, 5])
    }

    @Test func linesEndAtNewlinesCarriageReturnsOrBoth() async throws {
        let lines = LockedBox<[String]>([])
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("printf 'one\\r\\ntwo\\rthree\\n\\nlast'")), on: queue,
            onLine: { line, _, _ in lines.withLock { $0.append(line) } }
        ).value
        #expect(lines.withLock { $0 } == ["one", "two", "three", "", "last"])
        #expect(outcome.stdout == "one\r\ntwo\rthree\n\nlast")
    }

    @Test func theCaptureLimitNeverSplitsACharacter() async throws {
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("printf 'a\\303\\251b'; printf 'c' >&2"), captureLimit: 2), on: queue
        ).value
        #expect(outcome.stdout == "a")
        #expect(outcome.stderr == "c")
    }

    @Test func aCommandEndsWhenItExitsEvenIfABackgroundChildHoldsItsOutput() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-pid-\(UUID())")
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .shell("sleep 41 & echo $! > \(pidFile.path); echo done")), on: queue
        ).timeout(after: .seconds(20)).value
        #expect(outcome.stdout == "done")
        let pid =
            pid_t(
                (try? String(contentsOf: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                    ?? "") ?? 0
        #expect(pid > 0 && !isRunning(pid), "the background child must be killed when the command ends")
    }

    @Test func aCommandWaitsWhileItsLinesAreNotConsumed() async throws {
        // A printer that has fallen behind keeps the holds of the lines it has not written yet:
        // the command must wait on its pipe rather than have flow buffer its 20 MB.
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("flow-flood-\(UUID())").path
        let stalled = LockedBox(true)
        let held = LockedBox<[OutputHold]>([])
        let received = LockedBox(0)
        let future = ProcessRunner.run(
            ProcessSpec(
                command: .shell("head -c 20000000 /dev/zero | tr '\\0' x | fold -w 99; echo finished > \(marker)")),
            on: queue,
            onLine: { line, _, hold in
                received.withLock { $0 += line.utf8.count + 1 }
                if stalled.withLock({ $0 }) { held.withLock { $0.append(hold) } }
            })
        var started = false
        for _ in 0..<3000 where !started {
            try await Task.sleep(for: .milliseconds(20))
            started = received.withLock { $0 } > 512 << 10
        }
        #expect(started)
        // Given a while to run ahead, it must not.
        try await Task.sleep(for: .seconds(1))
        let whileStalled = received.withLock { $0 }
        #expect(whileStalled < 3 << 20, "\(whileStalled) bytes passed on while nothing was consumed")
        #expect(!FileManager.default.fileExists(atPath: marker))
        stalled.withLock { $0 = false }
        held.withLock { $0.removeAll() }
        let outcome = try await future.timeout(after: .seconds(120)).value
        #expect(outcome.exitCode == 0)
        #expect(received.withLock { $0 } > 20_000_000)
        #expect(outcome.stdout.utf8.count == 1 << 20)
        #expect(FileManager.default.fileExists(atPath: marker))
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
            gone = !isRunning(grandchild)
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

    /// A name is found in `PATH` as swift-subprocess finds it (now by flow, before one start
    /// instead of a start per folder): the step's own `PATH` wins, relative entries are skipped,
    /// and a folder or a file without execute permission of that name is passed over.
    @Test func aNameIsFoundInTheStepsPathPassingOverFoldersAndPlainFiles() async throws {
        let root = try TemporaryFolder()
        for folder in ["folder", "plain", "real", "later"] {
            let made = "\(root.path)/\(folder)"
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        }
        let folderOfTheName = "\(root.path)/folder/flow-tool"
        try FileManager.default.createDirectory(atPath: folderOfTheName, withIntermediateDirectories: true)
        _ = try root.write(Array("#!/bin/sh\necho plain\n".utf8), to: "plain/flow-tool")
        for (folder, word) in [("real", "real"), ("later", "later")] {
            let text = "#!/bin/sh\necho \(word) \"$0\" \"$1\"\n"
            let script = try root.write(Array(text.utf8), to: "\(folder)/flow-tool")
            chmod(script, 0o755)
        }
        let path = "relative/bin::\(root.path)/folder:\(root.path)/plain:\(root.path)/real:\(root.path)/later"
        let outcome = try await ProcessRunner.run(
            ProcessSpec(command: .argv(["flow-tool", "x y"]), environment: ["PATH": path]), on: queue
        ).value
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout == "real \(root.path)/real/flow-tool x y")

        // Found nowhere: the same launch error as before, naming the command.
        let missing = ProcessSpec(command: .argv(["flow-tool"]), environment: ["PATH": "\(root.path)/folder"])
        await #expect(throws: ProcessLaunchError.self) { try await ProcessRunner.run(missing, on: self.queue).value }
    }

    /// The thread that waits on commands' pipes carries its name in the kernel, as `top -H` and
    /// crash reports show it: its name used to be set before `start`, which Foundation ignores.
    @Test func thePipesThreadIsNamedForTheSystem() async throws {
        _ = try await ProcessRunner.run(ProcessSpec(command: .argv(["true"])), on: queue).value
        let names = threadNamesOfThisProcess()
        #expect(names.contains("flow.pipes"), "threads: \(names)")
    }
}
