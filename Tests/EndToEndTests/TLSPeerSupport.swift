import Foundation

/// The repository's root, for `Tests/Peers`.
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A folder with certificates made for the test by `Tests/Peers/make_test_certs.sh` (openssl) under
/// `certs/`, HTTPS servers (`Tests/Peers/tls_server.py`) using them, and workflow files next to them.
final class TLSFixture: @unchecked Sendable {
    let folder: URL
    private var processes: [Process] = []

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-tls-\(UUID().uuidString)")
        let certs = folder.appendingPathComponent("certs")
        try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
        let status = try await runTool(
            repository.appendingPathComponent("Tests/Peers/make_test_certs.sh").path, [certs.path])
        guard status == 0 else { throw PeerError(message: "make_test_certs.sh (openssl) failed with \(status)") }
    }

    /// The path of `certs/<name>`.
    func cert(_ name: String) -> String { folder.appendingPathComponent("certs/\(name)").path }

    /// Starts an HTTPS server on loopback with `certs/<name>.pem`; with `clientCA` it requires a
    /// client certificate signed by the test CA. Returns its port. `options` go to the server as
    /// they are (`--max-tls 1.2`, `--reset-without-client-cert`).
    func server(_ name: String, clientCA: Bool = false, options: [String] = []) async throws -> Int {
        let port = try freeLoopbackPort()
        var arguments =
            ["--cert", cert("\(name).pem"), "--key", cert("\(name).key"), "--port", String(port)] + options
        if clientCA { arguments += ["--client-ca", cert("ca.pem")] }
        let process = try await startListening(
            "Tests/Peers/tls_server.py", arguments + ["--lifetime", "120"], port: port, name: "tls_server.py",
            log: folder.appendingPathComponent("server-\(port).log"))
        processes.append(process)
        return port
    }

    /// Writes `yaml` as `<name>` in the folder; returns its path.
    func write(_ yaml: String, as name: String) throws -> String {
        let file = folder.appendingPathComponent(name)
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func stop() {
        for process in processes { stopProcess(process) }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// tinyproxy (Debian's) on a free loopback port with its own config and log in `folder`; it
/// names itself `flow-test-proxy` in the `Via` header it adds to each request it forwards.
struct TinyProxy {
    let process: Process
    let port: Int
    let log: URL

    static let name = "flow-test-proxy"

    static func start(in folder: URL) async throws -> TinyProxy {
        let port = try freeLoopbackPort()
        let log = folder.appendingPathComponent("tinyproxy.log")
        let config = folder.appendingPathComponent("tinyproxy.conf")
        try """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        MaxClients 20
        LogFile "\(log.path)"
        LogLevel Info
        ViaProxyName "\(name)"

        """.write(to: config, atomically: true, encoding: .utf8)
        let binary = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let binary else {
            throw PeerError(message: "tinyproxy is not installed: run scripts/install-deps.sh")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-d", "-c", config.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if TusPeer.accepts(port) { return TinyProxy(process: process, port: port, log: log) }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        stopProcess(process)
        throw PeerError(message: "tinyproxy did not start on port \(port)")
    }

    /// How many requests the proxy's log shows it took.
    func requestCount() -> Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("Request (file descriptor") }.count
    }

    func stop() { stopProcess(process) }
}

/// Runs a tool to its end on its own thread (not the concurrency pool's); its exit status.
func runTool(_ path: String, _ arguments: [String]) async throws -> Int32 {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: path)
                    process.arguments = arguments
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    process.waitUntilExit()
                    return process.terminationStatus
                })
        }.start()
    }
}
