import Dispatch
import FlowHTTP
import FlowTasks
import Foundation
internal import Subprocess
internal import SystemPackage

/// A local command to run: a shell script or an argv, with its environment and folder.
package struct ProcessSpec: Sendable, Equatable {
    /// What to execute.
    package enum Command: Sendable, Equatable {
        /// A script for `/bin/sh -c`. Values from expressions reach it as environment variables,
        /// never spliced into the text.
        case shell(String)
        /// An executable and its arguments, run without a shell. A name without `/` is looked up
        /// in `PATH`.
        case argv([String])
    }

    /// What to execute.
    package var command: Command
    /// Variables added to (or replacing those of) flow's own environment.
    package var environment: [String: String]
    /// The working folder; flow's own when nil.
    package var workingDirectory: String?
    /// The most bytes of each stream kept for `result.stdout`/`result.stderr`; lines beyond are
    /// still streamed to the output.
    package var captureLimit: Int
    /// How long a cancelled process gets between SIGTERM and SIGKILL.
    package var terminationGrace: Duration

    /// A command with the given environment additions and folder.
    package init(
        command: Command, environment: [String: String] = [:], workingDirectory: String? = nil,
        captureLimit: Int = 1 << 20, terminationGrace: Duration = .seconds(2)
    ) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.captureLimit = captureLimit
        self.terminationGrace = terminationGrace
    }
}

/// How a process ended and what it printed (bounded).
package struct ProcessOutcome: Sendable, Equatable {
    /// The exit code, or 128 + the signal number when a signal ended it (as shells report it).
    package let exitCode: Int32
    /// The signal that ended it, if one did.
    package let signal: Int32?
    /// Standard output, up to the capture limit, with trailing newlines removed (as shell command
    /// substitution does), so `echo value` yields `value`.
    package let stdout: String
    /// Standard error, likewise.
    package let stderr: String
}

/// A command that could not be started.
package struct ProcessLaunchError: Error, Sendable, CustomStringConvertible {
    /// The command as the user wrote it.
    package let command: String
    /// Why it could not start.
    package let reason: String

    /// A message naming the command.
    package var description: String { "could not start '\(command)': \(reason)" }
}

/// Runs local commands through swift-subprocess and reports them as FlowTasks futures.
package enum ProcessRunner {
    /// Starts `spec` and streams each output line to `onLine` as it arrives; `onStart` gets the
    /// process id (which is also its process group id) once it is spawned.
    ///
    /// The process runs in its own process group. Cancelling the future terminates the whole group:
    /// SIGTERM, then SIGKILL after `terminationGrace`. When the command exits, whatever it left
    /// running in its group is killed. The future fails only when the command could not start or
    /// was cancelled; a non-zero exit is an outcome, for the caller to judge.
    ///
    /// Each line comes with an `OutputHold`: while more than a MiB of a stream's lines are held,
    /// reading that stream pauses, so a command printing faster than its lines are consumed waits
    /// on its pipe instead of filling flow's memory.
    package static func run(
        _ spec: ProcessSpec, on queue: DispatchQueue, groups: ProcessGroups = ProcessGroups(),
        onLine: @escaping @Sendable (String, StepProgress.OutputStream, OutputHold) -> Void = { _, _, _ in },
        onStart: @escaping @Sendable (Int32) -> Void = { _ in }
    ) -> Future<ProcessOutcome> {
        let promise = Promise<ProcessOutcome>(on: queue)
        let group = LockedBox<pid_t>(0)
        // swift-subprocess is async; the process runs in a task, which suspends rather than blocks
        // while waiting.
        let task = Task {
            do {
                let outcome = try await execute(
                    spec, groups: groups, onLine: onLine, isFinished: { promise.isCompleted },
                    started: { pid in
                        group.withLock { $0 = pid }
                        onStart(pid)
                        // Cancelled between the spawn and now: stop it at once.
                        if promise.isCompleted { groups.terminate(pid, grace: spec.terminationGrace) }
                    })
                promise.succeed(outcome)
            } catch is CancellationError {
                promise.fail(FutureError.cancelled)
            } catch {
                promise.fail(error)
            }
        }
        promise.onCancel {
            // Signal the group ourselves rather than wait for the task's teardown: the run may end
            // before a cancelled task gets to run. The group stays listed until it is gone, so flow
            // still waits for it before exiting (ProcessGroups.terminateAll).
            let pid = group.withLock { $0 }
            if pid > 0 { groups.terminate(pid, grace: spec.terminationGrace) }
            task.cancel()
        }
        return promise.future
    }

    private static func execute(
        _ spec: ProcessSpec, groups: ProcessGroups,
        onLine: @escaping @Sendable (String, StepProgress.OutputStream, OutputHold) -> Void,
        isFinished: @escaping @Sendable () -> Bool, started: @escaping @Sendable (pid_t) -> Void
    ) async throws -> ProcessOutcome {
        let display: String
        switch spec.command {
        case .shell(let script): display = script
        case .argv(let argv): display = argv.joined(separator: " ")
        }
        // A place in the descriptor budget first: past it, commands wait for one to end.
        var holding = await ProcessBudget.acquire()
        guard holding else { throw CancellationError() }
        defer { if holding { ProcessBudget.release() } }
        while true {
            do {
                return try await attempt(
                    spec, groups: groups, display: display, onLine: onLine, isFinished: isFinished, started: started)
            } catch is DescriptorsExhausted {
                // Something else holds more descriptors than the budget allowed for: wait for a
                // command to end and try again; with none running, waiting would not help.
                guard ProcessBudget.shrinkAfterExhaustion() else {
                    throw ProcessLaunchError(command: display, reason: Self.exhausted)
                }
                ProcessBudget.release()
                holding = await ProcessBudget.acquire()
                guard holding else { throw CancellationError() }
            }
        }
    }

    /// Why a command could not start when the descriptor limit stopped it.
    private static var exhausted: String {
        DescriptorLimit.exhaustedReason + "; run fewer commands at once or raise the limit"
    }

    /// The descriptor limit stopped a start before anything was spawned.
    private struct DescriptorsExhausted: Error {}

    /// One start of the command, with pipes of flow's own (see `CommandPipes`).
    private static func attempt(
        _ spec: ProcessSpec, groups: ProcessGroups, display: String,
        onLine: @escaping @Sendable (String, StepProgress.OutputStream, OutputHold) -> Void,
        isFinished: @escaping @Sendable () -> Bool, started: @escaping @Sendable (pid_t) -> Void
    ) async throws -> ProcessOutcome {
        let executable: Executable
        let arguments: Arguments
        switch spec.command {
        case .shell(let script):
            executable = .path(FilePath("/bin/sh"))
            arguments = Arguments(["-c", script])
        case .argv(let argv):
            guard let first = argv.first, !first.isEmpty else {
                throw ProcessLaunchError(command: "", reason: "the command is empty")
            }
            if first.contains("/") {
                executable = .path(FilePath(first))
            } else {
                // The step's PATH wins, as it would for swift-subprocess; an empty one is kept.
                let path = spec.environment["PATH"] ?? getenv("PATH").map { String(cString: $0) }
                executable = ExecutableSearch.find(first, path: path).map { .path(FilePath($0)) } ?? .name(first)
            }
            arguments = Arguments(Array(argv.dropFirst()))
        }
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [
            .gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: spec.terminationGrace)
        ]
        var additions: [Environment.Key: String?] = [:]
        for (name, value) in spec.environment {
            guard let key = Environment.Key(rawValue: name) else { continue }
            additions[key] = value
        }
        let pipes: CommandPipes
        let nullInput: Int32
        do {
            nullInput = try CommandPipes.nullInput()
            pipes = try CommandPipes.make()
        } catch {
            if CommandPipes.isExhaustion(error.code) { throw DescriptorsExhausted() }
            throw ProcessLaunchError(command: display, reason: String(cString: strerror(error.code)))
        }
        let stdout = PipeReader(descriptor: pipes.stdoutRead)
        let stderr = PipeReader(descriptor: pipes.stderrRead)
        defer {
            stdout.close()
            stderr.close()
        }
        let limit = spec.captureLimit
        let spawned = LockedBox<pid_t>(0)
        do {
            let result = try await Subprocess.run(
                executable, arguments: arguments, environment: .inherit.updating(additions),
                workingDirectory: spec.workingDirectory.map { FilePath($0) }, platformOptions: options,
                input: .fileDescriptor(FileDescriptor(rawValue: nullInput), closeAfterSpawningProcess: false),
                output: .fileDescriptor(FileDescriptor(rawValue: pipes.stdoutWrite), closeAfterSpawningProcess: true),
                error: .fileDescriptor(FileDescriptor(rawValue: pipes.stderrWrite), closeAfterSpawningProcess: true)
            ) { execution in
                let pid = pid_t(execution.processIdentifier.value)
                spawned.withLock { $0 = pid }
                groups.add(pid)
                started(pid)
                let exitWatch = ExitWatch(pid: pid, descriptor: execution.processIdentifier.processDescriptor)
                return await withTaskGroup(of: (StepProgress.OutputStream, [UInt8])?.self) { group in
                    let reader = OutputReader(limit: limit, isFinished: isFinished, onLine: onLine)
                    group.addTask { (.stdout, await reader.read(stdout, .stdout)) }
                    group.addTask { (.stderr, await reader.read(stderr, .stderr)) }
                    group.addTask {
                        await exitWatch.killLeftoversOnExit()
                        // What the command wrote is in its pipes now: read it, then stop, even
                        // where a process that left the group still holds a pipe open.
                        stdout.finish()
                        stderr.finish()
                        return nil
                    }
                    var captured: [StepProgress.OutputStream: [UInt8]] = [:]
                    while captured.count < 2, let next = await group.next() {
                        if case (let stream, let bytes)? = next { captured[stream] = bytes }
                    }
                    group.cancelAll()
                    return captured
                }
            }
            await groups.commandExited(spawned.withLock { $0 })
            let exitCode: Int32
            let signal: Int32?
            switch result.terminationStatus {
            case .exited(let code):
                exitCode = Int32(truncatingIfNeeded: code)
                signal = nil
            case .signaled(let code):
                exitCode = 128 + Int32(truncatingIfNeeded: code)
                signal = Int32(truncatingIfNeeded: code)
            }
            try Task.checkCancellation()
            return ProcessOutcome(
                exitCode: exitCode, signal: signal, stdout: capturedText(result.closureResult[.stdout] ?? []),
                stderr: capturedText(result.closureResult[.stderr] ?? []))
        } catch {
            let pid = spawned.withLock { $0 }
            if pid > 0 { await groups.commandExited(pid) }
            if Task.isCancelled { throw CancellationError() }
            guard let error = error as? SubprocessError else { throw error }
            if let code = error.underlyingError?.rawValue, CommandPipes.isExhaustion(code) {
                // Nothing spawned: worth waiting for descriptors. Spawned but not watched (the
                // library could not set up its monitor): it was torn down, say why.
                if pid == 0 { throw DescriptorsExhausted() }
                throw ProcessLaunchError(command: display, reason: Self.exhausted)
            }
            throw ProcessLaunchError(command: display, reason: "\(error)")
        }
    }

    /// The captured bytes as text, with trailing line breaks removed (as shell command
    /// substitution does).
    static func capturedText(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
