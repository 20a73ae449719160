import Foundation
import Testing

/// Hurl's own integration server (the Flask app of Orange-OpenSource/hurl's `integration/hurl`,
/// vendored in `Tests/Peers/hurl`), started by `scripts/hurl-peer` once for the suite that carries
/// the `.hurlServer` trait, on a free loopback port, and stopped when that suite ends.
enum HurlServer {
    /// `http://localhost:PORT` of the server the running suite started; nil outside that suite.
    @TaskLocal static var url: String?

    /// The folder of the vendored route files and the data files they and the translations read.
    static let files = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers/hurl/tests_ok")

    /// Starts the server on a free port, on another one when that port was taken in the meantime
    /// (the server exits with `Address already in use`), at most three times.
    static func start(log folder: URL) async throws -> (process: Process, url: String) {
        var lastError: Error = PeerError(message: "Hurl's server did not start")
        for _ in 0..<3 {
            let port = try freeLoopbackPort()
            let log = folder.appendingPathComponent("hurl-server-\(port).log")
            do {
                let process = try await startListening(
                    "scripts/hurl-peer", ["serve", String(port)], port: port,
                    name: "Hurl's integration server (scripts/hurl-peer)", log: log)
                // Something else may have answered on the port: the server must still be running.
                try await Task.sleep(for: .milliseconds(100))
                if process.isRunning { return (process, "http://localhost:\(port)") }
                lastError = PeerError(message: "Hurl's server exited after port \(port) answered")
            } catch {
                lastError = error
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                guard output.contains("Address already in use") else { throw error }
            }
        }
        throw lastError
    }

    /// Runs `workflow` (a flow file without its `version: 1` line) with the built `flow` against the
    /// server, and expects it to succeed. The workflow reads the server's address as
    /// `env.HURL_SERVER` and the vendored files' folder as `env.HURL_FILES`; `after` then checks
    /// the files the run wrote in the workflow's folder.
    static func check(
        _ name: String, _ workflow: String, sourceLocation: SourceLocation = #_sourceLocation,
        after: (URL) throws -> Void = { _ in }
    ) async throws {
        let server = try #require(url, "the suite needs the .hurlServer trait", sourceLocation: sourceLocation)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-hurl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).yaml")
        try ("version: 1\n" + workflow).write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(
            ["run", file.path, "--no-journal", "--log-format", "plain"],
            environment: ["HURL_SERVER": server, "HURL_FILES": files.path])
        #expect(
            outcome.exitCode == 0, "\(name).yaml:\n\(outcome.stdout)\(outcome.stderr)", sourceLocation: sourceLocation)
        try after(folder)
    }
}

/// Starts Hurl's server once around a whole suite (not around each test) and stops it after.
struct HurlServerScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-hurl-server-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try await HurlServer.start(log: folder)
        defer {
            stopProcess(server.process)
            try? FileManager.default.removeItem(at: folder)
        }
        try await HurlServer.$url.withValue(server.url) { try await function() }
    }
}

extension Trait where Self == HurlServerScope {
    /// Hurl's integration server for the suite's tests (see `HurlServer`).
    static var hurlServer: Self { Self() }
}
