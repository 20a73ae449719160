import Dispatch
import FlowTasks
import Foundation
internal import Subprocess
internal import SystemPackage

/// A local command to run: a shell script or an argv, with its environment and folder.
public struct ProcessSpec: Sendable, Equatable {
    /// What to execute.
    public enum Command: Sendable, Equatable {
        /// A script for `/bin/sh -c`. Values from expressions reach it as environment variables,
        /// never spliced into the text.
        case shell(String)
        /// An executable and its arguments, run without a shell. A name without `/` is looked up
        /// in `PATH`.
        case argv([String])
    }

    /// What to execute.
    public var command: Command
    /// Variables added to (or replacing those of) flow's own environment.
    public var environment: [String: String]
    /// The working folder; flow's own when nil.
    public var workingDirectory: String?
    /// The most bytes of each stream kept for `result.stdout`/`result.stderr`; lines beyond are
    /// still streamed to the output.
    public var captureLimit: Int
    /// How long a cancelled process gets between SIGTERM and SIGKILL.
    public var terminationGrace: Duration

    /// A command with the given environment additions and folder.
    public init(
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
public struct ProcessOutcome: Sendable, Equatable {
    /// The exit code, or 128 + the signal number when a signal ended it (as shells report it).
    public let exitCode: Int32
    /// The signal that ended it, if one did.
    public let signal: Int32?
    /// Standard output, up to the capture limit, with trailing newlines removed (as shell command
    /// substitution does), so `echo value` yields `value`.
    public let stdout: String
    /// Standard error, likewise.
    public let stderr: String
}

/// A command that could not be started.
public struct ProcessLaunchError: Error, Sendable, CustomStringConvertible {
    /// The command as the user wrote it.
    public let command: String
    /// Why it could not start.
    public let reason: String

    /// A message naming the command.
    public var description: String { "could not start '\(command)': \(reason)" }
}

/// Runs local commands through swift-subprocess and reports them as FlowTasks futures.
public enum ProcessRunner {
    /// Starts `spec` and streams each output line to `onLine` as it arrives; `onStart` gets the
    /// process id (which is also its process group id) once it is spawned.
    ///
    /// The process runs in its own process group. Cancelling the future terminates the whole group:
    /// SIGTERM, then SIGKILL after `terminationGrace`. The future fails only when the command could
    /// not start or was cancelled; a non-zero exit is an outcome, for the caller to judge.
    public static func run(
        _ spec: ProcessSpec, on queue: DispatchQueue,
        onLine: @escaping @Sendable (String, StepProgress.OutputStream) -> Void = { _, _ in },
        onStart: @escaping @Sendable (Int32) -> Void = { _ in }
    ) -> Future<ProcessOutcome> {
        let promise = Promise<ProcessOutcome>(on: queue)
        let group = LockedBox<pid_t>(0)
        // swift-subprocess is async; the process runs in a task, which suspends rather than blocks
        // while waiting.
        let task = Task {
            do {
                promise.succeed(
                    try await execute(spec, onLine: onLine) { pid in
                        group.withLock { $0 = pid }
                        onStart(pid)
                        // Cancelled between the spawn and now: stop it at once.
                        if promise.isCompleted { ProcessGroups.terminate(pid, grace: spec.terminationGrace) }
                    })
            } catch is CancellationError {
                promise.fail(FutureError.cancelled)
            } catch {
                promise.fail(error)
            }
        }
        promise.onCancel {
            // Signal the group ourselves rather than wait for the task's teardown: the run may end
            // (and flow exit) before a cancelled task gets to run.
            let pid = group.withLock { $0 }
            if pid > 0 { ProcessGroups.terminate(pid, grace: spec.terminationGrace) }
            task.cancel()
        }
        return promise.future
    }

    private static func execute(
        _ spec: ProcessSpec, onLine: @escaping @Sendable (String, StepProgress.OutputStream) -> Void,
        started: @escaping @Sendable (pid_t) -> Void
    ) async throws -> ProcessOutcome {
        let executable: Executable
        let arguments: Arguments
        let display: String
        switch spec.command {
        case .shell(let script):
            executable = .path(FilePath("/bin/sh"))
            arguments = Arguments(["-c", script])
            display = script
        case .argv(let argv):
            guard let first = argv.first, !first.isEmpty else {
                throw ProcessLaunchError(command: "", reason: "the command is empty")
            }
            executable = first.contains("/") ? .path(FilePath(first)) : .name(first)
            arguments = Arguments(Array(argv.dropFirst()))
            display = argv.joined(separator: " ")
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
        let limit = spec.captureLimit
        do {
            let result = try await Subprocess.run(
                executable, arguments: arguments, environment: .inherit.updating(additions),
                workingDirectory: spec.workingDirectory.map { FilePath($0) }, platformOptions: options,
                input: .none, output: .sequence, error: .sequence
            ) { execution in
                let pid = pid_t(execution.processIdentifier.value)
                ProcessGroups.add(pid)
                started(pid)
                defer { ProcessGroups.remove(pid) }
                return try await withThrowingTaskGroup(of: (StepProgress.OutputStream, String).self) { group in
                    group.addTask {
                        (.stdout, try await collect(execution.standardOutput, .stdout, limit: limit, onLine: onLine))
                    }
                    group.addTask {
                        (.stderr, try await collect(execution.standardError, .stderr, limit: limit, onLine: onLine))
                    }
                    var captured: [StepProgress.OutputStream: String] = [:]
                    for try await (stream, text) in group { captured[stream] = text }
                    return captured
                }
            }
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
                exitCode: exitCode, signal: signal, stdout: result.closureResult[.stdout] ?? "",
                stderr: result.closureResult[.stderr] ?? "")
        } catch let error as SubprocessError {
            if Task.isCancelled { throw CancellationError() }
            throw ProcessLaunchError(command: display, reason: "\(error)")
        }
    }

    /// Streams lines to `onLine` and keeps the first `limit` bytes.
    private static func collect(
        _ sequence: SubprocessOutputSequence, _ stream: StepProgress.OutputStream, limit: Int,
        onLine: @Sendable (String, StepProgress.OutputStream) -> Void
    ) async throws -> String {
        var captured = ""
        var capturedBytes = 0
        for try await line in sequence.strings() {
            onLine(line, stream)
            if capturedBytes < limit {
                captured += line + "\n"
                capturedBytes += line.utf8.count + 1
            }
        }
        while captured.hasSuffix("\n") { captured.removeLast() }
        return captured
    }
}
