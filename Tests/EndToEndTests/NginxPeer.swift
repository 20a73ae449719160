import Foundation

/// Debian's nginx (`scripts/install-deps.sh nginx`) answering every request with the protocol it
/// arrived in (`$server_protocol`: `HTTP/1.0`, `HTTP/1.1`, `HTTP/2.0`), on three ports: plain
/// HTTP/1.x, h2c with prior knowledge only (`listen … http2` without TLS), and TLS offering h2
/// and http/1.1 by ALPN. One process (`master_process off`), so stopping it leaves no worker.
struct NginxPeer {
    static let binary = "/usr/sbin/nginx"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let process: Process
    let plainPort: Int
    let h2cPort: Int
    let tlsPort: Int

    static func start(in folder: URL) async throws -> NginxPeer {
        let root = folder.path
        let made = try await runTool(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-keyout", root + "/nginx-key.pem", "-out", root + "/nginx-cert.pem",
            ])
        guard made == 0 else { throw PeerError(message: "openssl req failed") }
        let plainPort = try freeLoopbackPort()
        let h2cPort = try freeLoopbackPort()
        let tlsPort = try freeLoopbackPort()
        let config = folder.appendingPathComponent("nginx.conf")
        try """
        daemon off;
        master_process off;
        pid \(root)/nginx.pid;
        error_log \(root)/nginx-error.log;
        events { worker_connections 64; }
        http {
            access_log off;
            client_body_temp_path \(root);
            proxy_temp_path \(root);
            fastcgi_temp_path \(root);
            uwsgi_temp_path \(root);
            scgi_temp_path \(root);
            server {
                listen 127.0.0.1:\(plainPort);
                listen 127.0.0.1:\(h2cPort) http2;
                listen 127.0.0.1:\(tlsPort) ssl http2;
                ssl_certificate \(root)/nginx-cert.pem;
                ssl_certificate_key \(root)/nginx-key.pem;
                default_type text/plain;
                location / { return 200 "$server_protocol"; }
            }
        }

        """.write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", root, "-c", config.path, "-e", root + "/nginx-error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if TusPeer.accepts(plainPort), TusPeer.accepts(h2cPort), TusPeer.accepts(tlsPort) {
                return NginxPeer(process: process, plainPort: plainPort, h2cPort: h2cPort, tlsPort: tlsPort)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        stopProcess(process)
        throw PeerError(message: "nginx did not start; see \(root)/nginx-error.log")
    }

    func stop() { stopProcess(process) }
}
