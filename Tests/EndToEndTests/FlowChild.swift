import FlowTasks
import Foundation

/// A `flow` run started in the background, for tests that signal it while it runs: its output is
/// drained on threads of their own (counting stdout's lines as they come) and its exit is awaited
/// with a bound.
final class FlowChild: Sendable {
    let process: Process
    private let stdout = LockedBox<[UInt8]>([])
    private let stderr = LockedBox<[UInt8]>([])
    private let newlines = LockedBox(0)
    private let exited = LockedBox(false)

    /// Starts `flow` with `arguments`; `keepOutput: false` counts stdout's lines without keeping
    /// them (for floods); `stdoutPause` leaves stdout unread for that long first (a terminal that
    /// cannot keep up).
    init(
        _ arguments: [String], keepOutput: Bool = true, stdoutPause: Duration = .zero,
        environment: [String: String] = [:]
    ) throws {
        let process = Process()
        process.executableURL = FlowProcess.binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        self.process = process
        try process.run()
        let (stdout, stderr, newlines, exited) = (stdout, stderr, newlines, exited)
        Thread {
            Thread.sleep(forTimeInterval: Double(stdoutPause.components.seconds))
            let handle = out.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let count = data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                newlines.withLock { $0 += count }
                if keepOutput { stdout.withLock { $0.append(contentsOf: data) } }
            }
        }.start()
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            stderr.withLock { $0.append(contentsOf: data) }
            process.waitUntilExit()
            exited.withLock { $0 = true }
        }.start()
    }

    var pid: pid_t { process.processIdentifier }
    /// Lines flow printed on stdout so far.
    var linesPrinted: Int { newlines.withLock { $0 } }
    var output: String { String(decoding: stdout.withLock { $0 }, as: UTF8.self) }
    var errors: String { String(decoding: stderr.withLock { $0 }, as: UTF8.self) }

    /// Waits until `condition` holds, checking every 20 ms for at most `limit`; whether it held.
    static func wait(for limit: Duration, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Waits for flow to exit (and its stderr to be read) for at most `limit`; its exit code, or
    /// nil after killing it when it did not exit in time.
    func exitCode(within limit: Duration, meanwhile: () -> Void = {}) async -> Int32? {
        let exited = exited
        let done = await Self.wait(for: limit) {
            meanwhile()
            return exited.withLock { $0 }
        }
        guard done else {
            kill(pid, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    /// The peak resident memory of the running flow process (VmHWM), in bytes.
    var peakMemory: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}

/// The process ids written (space or newline separated) to `path`, once the file holds `count` of
/// them; empty when it does not within 30 s.
func pids(in path: String, count: Int) async -> [pid_t] {
    var found: [pid_t] = []
    _ = await FlowChild.wait(for: .seconds(30)) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        found = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }
        return found.count >= count
    }
    return found.count >= count ? found : []
}
