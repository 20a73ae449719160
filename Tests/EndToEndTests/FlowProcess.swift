import FlowTasks
import Foundation

/// Runs the built `flow` binary as a user would and captures what it prints.
struct FlowProcess {
    struct Outcome {
        var exitCode: Int32
        var stdout: String
        var stderr: String
    }

    /// The `flow` binary SwiftPM built next to the test bundle, or `$FLOW_BINARY`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["FLOW_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        let testExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testExecutable.deletingLastPathComponent()
        // On Linux the tests run from `.build/debug/<name>.xctest`; on macOS from inside a bundle.
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("flow")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "flow")
    }

    /// Runs `flow` with `arguments` and waits for it to exit without blocking the Swift concurrency
    /// pool: tests that host a server in-process (the sandbox) need the pool free to answer `flow`,
    /// and on a 2-core machine the pool has only two threads.
    /// `shell`, when given, runs in bash before `flow` replaces it (`ulimit -n 256`).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], shell: String? = nil
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let waiter = Thread {
                continuation.resume(
                    with: Result { try runBlocking(arguments, environment: environment, shell: shell) })
            }
            waiter.start()
        }
    }

    /// Runs `flow` with `arguments` and blocks the calling thread until it exits.
    static func runBlocking(
        _ arguments: [String], environment: [String: String] = [:], shell: String? = nil
    ) throws -> Outcome {
        let process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "\(shell) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Drain stderr on its own thread while this one drains stdout: reading one pipe to its end
        // first would deadlock once the child fills the other (a sanitizer's reports, a chatty run).
        let errData = LockedBox(Data())
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            errDone.signal()
        }.start()
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.waitUntilExit()
        return Outcome(
            exitCode: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self)
        )
    }

    /// Runs another program (a peer's script, a compiler) off the concurrency pool, as `run` does,
    /// and returns its exit status and its stdout and stderr together.
    static func runTool(_ executable: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runToolBlocking(executable, arguments) }) }.start()
        }
    }

    /// Runs another program and blocks the calling thread until it exits; its stdout and stderr
    /// share one pipe, so neither can fill while the other is read.
    static func runToolBlocking(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
