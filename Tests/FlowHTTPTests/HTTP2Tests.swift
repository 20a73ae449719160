import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@Suite struct HTTP2Tests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: NginxServer.binary)))
    func http2IsUsedWhereTheServerOffersItOverTLS() async throws {
        let server = try await NginxServer.start()
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = "https://127.0.0.1:\(server.port)/item"
        let futures = (0..<10).map { _ in client.execute(HTTPRequest(url: url, verifyTLS: false)) }
        for future in futures {
            let response = try await future.value
            #expect(response.status == 200)
            #expect(response.httpVersion == "2")
            #expect(response.text == "hello over h2\n")
        }
        let connections = try server.connectionsLogged(port: server.port)
        #expect(connections.count == 10, "one log line per request")
        #expect(Set(connections).count == 1, "the ten requests share one multiplexed connection")
        let plain = try await client.execute(HTTPRequest(url: "http://127.0.0.1:\(server.plainPort)/item")).value
        #expect(plain.httpVersion == "1.1", "HTTP/2 only where TLS offers it")
    }
}

/// Debian's nginx serving one file over TLS with HTTP/2 and over plain HTTP/1.1, one process.
final class NginxServer: Sendable {
    static let binary = "/usr/sbin/nginx"
    let port: Int
    let plainPort: Int
    private let process: ChildProcess
    private let folder: TemporaryFolder

    private init(port: Int, plainPort: Int, process: ChildProcess, folder: TemporaryFolder) {
        self.port = port
        self.plainPort = plainPort
        self.process = process
        self.folder = folder
    }

    static func start() async throws -> NginxServer {
        let folder = try TemporaryFolder()
        let root = folder.path
        let made = try await runCommand(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-keyout", root + "/key.pem", "-out", root + "/cert.pem",
            ])
        guard made.status == 0 else { throw TestFailure("openssl req failed") }
        try FileManager.default.createDirectory(atPath: root + "/www", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/logs", withIntermediateDirectories: true)
        _ = try folder.write(Array("hello over h2\n".utf8), to: "www/item")
        let port = try closedPort()
        let plainPort = try closedPort()
        let configuration = """
            daemon off;
            master_process off;
            pid \(root)/nginx.pid;
            error_log \(root)/logs/error.log;
            events { worker_connections 256; }
            http {
                log_format connections '$server_port $connection';
                access_log \(root)/logs/access.log connections;
                client_body_temp_path \(root);
                proxy_temp_path \(root);
                fastcgi_temp_path \(root);
                uwsgi_temp_path \(root);
                scgi_temp_path \(root);
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    listen 127.0.0.1:\(plainPort);
                    ssl_certificate \(root)/cert.pem;
                    ssl_certificate_key \(root)/key.pem;
                    root \(root)/www;
                }
            }
            """
        _ = try folder.write(Array(configuration.utf8), to: "nginx.conf")
        let process = try ChildProcess.start(
            binary, ["-p", root, "-c", root + "/nginx.conf", "-e", root + "/logs/error.log"])
        let server = NginxServer(port: port, plainPort: plainPort, process: process, folder: folder)
        let probe = HTTPClient()
        defer { probe.shutdown() }
        for _ in 0..<100 {
            let request = HTTPRequest(url: "http://127.0.0.1:\(plainPort)/item", timeout: .seconds(1))
            if (try? await probe.execute(request).value) != nil { return server }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.stop()
        throw TestFailure("nginx did not start; see \(root)/logs/error.log")
    }

    /// The connection serial number of each request nginx logged on `port`, in order.
    func connectionsLogged(port: Int) throws -> [String] {
        let log = try String(contentsOfFile: folder.path + "/logs/access.log", encoding: .utf8)
        return log.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count == 2 && fields[0] == "\(port)" ? String(fields[1]) : nil
        }
    }

    /// Kills the single nginx process (`master_process off`, so no orphaned workers).
    func stop() {
        process.kill()
    }
}
