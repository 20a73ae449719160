import Foundation

/// The repository's root, for its scripts and `Tests/Peers`.
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A loopback port nothing listens on now: bound by a listener, then released.
func freeLoopbackPort() throws -> Int {
    let listener = try LoopbackListener()
    let port = Int(listener.port)
    listener.close()
    return port
}

/// Starts `executable` and waits until it accepts connections on `port` (a first start may make a
/// virtual environment with pip: a few minutes at most). Its output goes to `log`, since servers
/// print tracebacks for the connections the fault proxy breaks on purpose.
func startListening(_ executable: String, _ arguments: [String], port: Int, name: String, log: URL) async throws
    -> Process
{
    let process = Process()
    process.executableURL = repository.appendingPathComponent(executable)
    process.arguments = arguments
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: log)
    process.standardError = process.standardOutput
    try process.run()
    for _ in 0..<1800 {
        if TusPeer.accepts(port) { return process }
        guard process.isRunning else { break }
        try await Task.sleep(for: .milliseconds(100))
    }
    stopProcess(process)
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    throw PeerError(message: "\(name) did not start on port \(port): \(output.suffix(2000))")
}

func stopProcess(_ process: Process) {
    guard process.isRunning else { return }
    // SIGKILL: the test process may hand its children a signal mask that blocks SIGTERM.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}

/// gcp-storage-emulator, an independent Google Cloud Storage emulator from PyPI started by
/// `scripts/gcs-peer`: the Content-Range (Google resumable upload) peer. Objects are stored as
/// files, so a test reads exactly what the server kept.
struct GCSPeer {
    let process: Process
    let folder: URL
    let port: Int

    static func start() async throws -> GCSPeer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-gcs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try freeLoopbackPort()
        let process = try await startListening(
            "scripts/gcs-peer", [String(port), folder.appendingPathComponent("data").path], port: port,
            name: "gcp-storage-emulator (scripts/gcs-peer)", log: folder.appendingPathComponent("gcs-peer.log"))
        return GCSPeer(process: process, folder: folder, port: port)
    }

    /// The bytes stored as `name` in the bucket `flow-tests`, nil when there is no such object.
    func object(_ name: String) -> Data? {
        try? Data(contentsOf: folder.appendingPathComponent("data/.cloudstorage/flow-tests/\(name)"))
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: folder)
    }
}

/// `Tests/Peers/fault_proxy.py` in front of a peer: forwards HTTP, logs every request, and
/// injects the faults it is given (see the script: `chunk=K:cut:N`, `chunk=K:drop-response`, …).
struct FaultProxy {
    let process: Process
    let port: Int
    let log: URL

    static func start(to upstream: Int, faults: [String], folder: URL) async throws -> FaultProxy {
        let port = try freeLoopbackPort()
        let log = folder.appendingPathComponent("proxy-\(UUID().uuidString).log")
        let process = try await startListening(
            "Tests/Peers/fault_proxy.py", [String(port), String(upstream), log.path] + faults, port: port,
            name: "the fault proxy", log: folder.appendingPathComponent("proxy-\(port).out"))
        return FaultProxy(process: process, port: port, log: log)
    }

    /// The log's lines: `<n> conn=<c> reused=<0|1> <METHOD> <range or offset> <length>` per
    /// request, `<n> fault <kind>` per fault.
    func lines() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        stopProcess(process)
    }
}
