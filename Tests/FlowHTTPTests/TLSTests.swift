import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
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
    private let process: ChildProcess
    private let folder: TemporaryFolder

    private init(port: Int, process: ChildProcess, folder: TemporaryFolder) {
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
        let process = try ChildProcess.start(
            "/usr/bin/openssl",
            ["s_server", "-www", "-accept", "0", "-cert", folder.path + "/cert.pem", "-key", folder.path + "/key.pem"]
        )
        // s_server prints `ACCEPT [::]:PORT` once it listens.
        var text = ""
        for _ in 0..<500 {
            text += String(decoding: process.readAvailable(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return TLSServer(port: port, process: process, folder: folder)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.kill()
        throw TestFailure("openssl s_server did not say where it listens: \(text)")
    }

    /// Kills the server (it ignores SIGTERM while serving).
    func stop() {
        process.kill()
    }
}
