import FlowHTTP
import FlowTasks
import Foundation
import Synchronization
import Testing

@Suite struct TLSTests {
    @Test func selfSignedCertificateFailsVerificationAndWorksWithoutIt() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = "https://localhost:\(server.port)/"

        let error = try #require(await httpError(client.execute(HTTPRequest(url: url, timeout: .seconds(10)))))
        #expect(error.kind == .tls)
        #expect(!error.isTransient)
        #expect(error.message.contains("certificate"), "\(error.message)")
        #expect(error.message.contains(url))

        let response = try await client.execute(HTTPRequest(url: url, timeout: .seconds(10), verifyTLS: false)).value
        #expect(response.status == 200)
        #expect(response.text.contains("s_server"))
    }
}

/// `openssl s_server -www` on a free port with a self-signed certificate made for the test.
final class TLSServer: Sendable {
    let port: Int
    private let process: Process
    private let folder: TemporaryFolder

    private init(port: Int, process: Process, folder: TemporaryFolder) {
        self.port = port
        self.process = process
        self.folder = folder
    }

    static func start() async throws -> TLSServer {
        let folder = try TemporaryFolder()
        let made = try await runCommand(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-keyout", folder.path + "/key.pem", "-out", folder.path + "/cert.pem",
            ])
        guard made.status == 0 else { throw TestFailure("openssl req failed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "s_server", "-www", "-accept", "0", "-cert", folder.path + "/cert.pem", "-key", folder.path + "/key.pem",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // s_server prints `ACCEPT [::]:PORT` once it listens.
        let port: Int = try await withCheckedThrowingContinuation { continuation in
            let seen = Mutex((text: "", resumed: false))
            output.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                let port: Int?? = seen.withLock { seen in
                    guard !seen.resumed else { return .none }
                    if data.isEmpty {
                        seen.resumed = true
                        return .some(nil)
                    }
                    seen.text += String(decoding: data, as: UTF8.self)
                    guard let line = seen.text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                        let port = line.split(separator: ":").last.flatMap({ Int($0) })
                    else { return .none }
                    seen.resumed = true
                    return .some(port)
                }
                switch port {
                case .none:
                    return
                case .some(nil):
                    handle.readabilityHandler = nil
                    continuation.resume(throwing: TestFailure("openssl s_server exited without listening"))
                case .some(let port?):
                    handle.readabilityHandler = nil
                    continuation.resume(returning: port)
                }
            }
        }
        return TLSServer(port: port, process: process, folder: folder)
    }

    /// Kills the server. Not waiting: Foundation reaps it, and `waitUntilExit` off the main
    /// thread can spin forever on Linux.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
    }
}
