import FlowSandbox
import Foundation
import Testing

/// `http-version` chooses the protocol and `result.version` reads the one the response came in:
/// against the sandbox (HTTP/1.x) and against nginx, which says in its body which protocol each
/// request arrived in (HTTP/2 over cleartext with prior knowledge, and over TLS by ALPN).
@Suite struct HTTPVersionRunTests {
    @Test func theSandboxAnswersOneOneWhateverVersionIsAsked() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        // `tls-one` waits for `alpn`: started together, `alpn` would wait for `tls-one`'s handshake
        // (CURLOPT_PIPEWAIT) and then reuse its HTTP/1.1 connection (see Grammar.md, `http-version`).
        let file = try scratch.write(
            "versions.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              old:
                http: { url: /health, http-version: "1.0" }
                outputs: { version: "${{ result.version }}" }
              current:
                http: { url: /health, http-version: 1.1 }
                expect:
                  assert: [ "result.version == '1.1'" ]
              plain:
                http: { url: /health }
                expect:
                  assert: [ "result.version == '1.1'" ]
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let wrong = try scratch.write(
            "wrong.yaml",
            """
            version: 1
            steps:
              old:
                http: { url: "\(sandbox.baseURL)/health", http-version: "1.2" }
            """)
        let refused = try await FlowProcess.run(["validate", wrong])
        #expect(refused.exitCode != 0)
        #expect(refused.stderr.contains("unknown 'http-version' '1.2'"), "\(refused.stderr)")
    }

    @Test(.enabled(if: NginxPeer.installed))
    func eachVersionIsSentAsAskedAndReadFromTheResponse() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let nginx = try await NginxPeer.start(in: scratch.folder)
        defer { nginx.stop() }
        let file = try scratch.write(
            "versions.yaml",
            """
            version: 1
            steps:
              old:
                http: { url: "http://127.0.0.1:\(nginx.plainPort)/", http-version: "1.0" }
                expect: { assert: [ "result.body == 'HTTP/1.0'" ] }
              current:
                http: { url: "http://127.0.0.1:\(nginx.plainPort)/", http-version: "1.1" }
                expect: { assert: [ "result.body == 'HTTP/1.1' && result.version == '1.1'" ] }
              cleartext:
                http: { url: "http://127.0.0.1:\(nginx.h2cPort)/", http-version: 2 }
                expect: { assert: [ "result.body == 'HTTP/2.0' && result.version == '2'" ] }
              alpn:
                http: { url: "https://127.0.0.1:\(nginx.tlsPort)/", http-version: "2", tls: { insecure: true } }
                expect: { assert: [ "result.body == 'HTTP/2.0' && result.version == '2'" ] }
              tls-one:
                needs: alpn
                http: { url: "https://127.0.0.1:\(nginx.tlsPort)/", http-version: "1.1", tls: { insecure: true } }
                expect: { assert: [ "result.body == 'HTTP/1.1' && result.version == '1.1'" ] }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
    }
}
