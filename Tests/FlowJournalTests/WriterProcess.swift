import Foundation

/// The `BenchJournal` program (bench/journal-writer) run as another process writing the same
/// journal: what a second `flow run` of the same file does to it.
final class WriterProcess: @unchecked Sendable {
    // Safe to share: `process` is set once in init; `output` only through `lock`.
    let process = Process()
    private let lock = NSLock()
    private var output = ""

    /// The program SwiftPM built next to the test bundle.
    static var binary: URL {
        let testExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testExecutable.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("BenchJournal")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "BenchJournal")
    }

    init(_ arguments: [String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        Thread { [self] in
            let handle = pipe.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lock.withLock { output += String(decoding: data, as: UTF8.self) }
            }
        }.start()
    }

    var printed: String { lock.withLock { output } }

    /// Waits (checking every 10 ms, at most `seconds`) until the output contains `text`, without
    /// holding a thread of the test pool.
    func wait(for text: String, seconds: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !printed.contains(text), process.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // The last output may arrive just after the process ends.
        try? await Task.sleep(for: .milliseconds(20))
        return printed.contains(text)
    }

    /// Waits for the process to end (at most `seconds`); its exit status, nil when it did not end.
    func exitStatus(seconds: Double = 60) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// The run id the program printed ("run ID").
    var runID: String? {
        printed.split(separator: "\n").first { $0.hasPrefix("run ") }.map { String($0.dropFirst(4)) }
    }
}
