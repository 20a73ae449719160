import Foundation
import Testing

/// `tls:` through the built `flow`, against Python `ssl` servers on loopback using certificates
/// the test makes with openssl: a private CA, a client certificate the server requires, an
/// expired certificate and one for another host name.
@Suite struct TLSRunTests {
    private func workflow(port: Int, host: String = "127.0.0.1", tls: String?, extra: String = "") -> String {
        """
        version: 1
        steps:
          fetch:
            http:
              url: https://\(host):\(port)/hello
        \(tls.map { "      tls: \($0)" } ?? "")
        \(extra)
        """
    }

    @Test func aPrivateCAIsTrustedThroughCAFileOrSSLCertFileAndNamedInTheErrorWithout() async throws {
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let port = try await fixture.server("server")
        // Relative to the workflow file's folder, wherever flow runs from.
        let trusted = try fixture.write(workflow(port: port, tls: "{ ca-file: certs/ca.pem }"), as: "trusted.yaml")
        let ok = try await FlowProcess.run(["run", trusted])
        #expect(ok.exitCode == 0, "\(ok.stdout)\(ok.stderr)")

        let plain = try fixture.write(workflow(port: port, tls: nil), as: "plain.yaml")
        let refused = try await FlowProcess.run(
            ["run", plain], environment: ["SSL_CERT_FILE": "", "CURL_CA_BUNDLE": ""])
        let output = refused.stdout + refused.stderr
        #expect(refused.exitCode == 1, "\(output)")
        #expect(output.contains("certificate of 127.0.0.1:\(port) is not trusted"), "\(output)")
        #expect(output.contains("'tls.ca-file'") && output.contains("'tls.insecure: true'"), "\(output)")

        let fromEnvironment = try await FlowProcess.run(
            ["run", plain], environment: ["SSL_CERT_FILE": fixture.cert("ca.pem"), "CURL_CA_BUNDLE": ""])
        #expect(fromEnvironment.exitCode == 0, "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
    }

    @Test func insecureSucceedsAndWarnsOnEveryRunNamingTheSteps() async throws {
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let port = try await fixture.server("server")
        let file = try fixture.write(workflow(port: port, tls: "{ insecure: true }"), as: "insecure.yaml")
        for _ in 0..<2 {
            let outcome = try await FlowProcess.run(["run", file], environment: ["SSL_CERT_FILE": ""])
            #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
            #expect(
                outcome.stderr.contains(
                    "warning: TLS certificates are not checked (tls.insecure: true) for step fetch"),
                "\(outcome.stderr)")
        }
    }

    @Test func aServerThatRequiresAClientCertificateTakesCertFileAndKeyFile() async throws {
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let port = try await fixture.server("server", clientCA: true)
        let without = try fixture.write(workflow(port: port, tls: "{ ca-file: certs/ca.pem }"), as: "without.yaml")
        let refused = try await FlowProcess.run(["run", without])
        let output = refused.stdout + refused.stderr
        #expect(refused.exitCode == 1, "\(output)")
        #expect(output.contains("asks for a client certificate") && output.contains("'tls.cert-file'"), "\(output)")

        let with = try fixture.write(
            workflow(
                port: port, tls: "{ ca-file: certs/ca.pem, cert-file: certs/client.pem, key-file: certs/client.key }",
                extra: "    expect: { assert: [\"result.json.client == 'flow-client'\"] }"),
            as: "with.yaml")
        let accepted = try await FlowProcess.run(["run", with])
        #expect(accepted.exitCode == 0, "\(accepted.stdout)\(accepted.stderr)")
    }

    /// A TLS 1.2 server's `alert handshake failure` and a reset right after the handshake are what
    /// servers wanting a client certificate do too: without `tls.cert-file` the message says so.
    @Test func aTLS12RefusalAndAResetAfterTheHandshakeHintAtAMissingClientCertificate() async throws {
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let tls12 = try await fixture.server("server", clientCA: true, options: ["--max-tls", "1.2"])
        let resetting = try await fixture.server("server", clientCA: true, options: ["--reset-without-client-cert"])
        for (port, what) in [(tls12, "alert handshake failure"), (resetting, "right after the TLS handshake")] {
            let file = try fixture.write(
                workflow(port: port, tls: "{ ca-file: certs/ca.pem }"), as: "without-\(port).yaml")
            let refused = try await FlowProcess.run(["run", file])
            let output = refused.stdout + refused.stderr
            #expect(refused.exitCode == 1, "\(output)")
            #expect(output.contains(what), "\(output)")
            #expect(
                output.contains(
                    "a server that requires a client certificate does this when none is given: "
                        + "if 127.0.0.1:\(port) does, set 'tls.cert-file'"),
                "\(output)")
            let with = try fixture.write(
                workflow(
                    port: port,
                    tls: "{ ca-file: certs/ca.pem, cert-file: certs/client.pem, key-file: certs/client.key }"),
                as: "with-\(port).yaml")
            let accepted = try await FlowProcess.run(["run", with])
            #expect(accepted.exitCode == 0, "\(accepted.stdout)\(accepted.stderr)")
        }
    }

    @Test func anExpiredCertificateAndOneForAnotherHostFailSayingSo() async throws {
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let expiredPort = try await fixture.server("expired")
        let wrongPort = try await fixture.server("wronghost")
        let expired = try fixture.write(
            workflow(port: expiredPort, tls: "{ ca-file: certs/ca.pem }"), as: "expired.yaml")
        let outcome = try await FlowProcess.run(["run", expired])
        let output = outcome.stdout + outcome.stderr
        #expect(outcome.exitCode == 1, "\(output)")
        #expect(output.contains("certificate of 127.0.0.1:\(expiredPort) has expired"), "\(output)")

        let wrong = try fixture.write(
            workflow(port: wrongPort, host: "localhost", tls: "{ ca-file: certs/ca.pem }"), as: "wrong.yaml")
        let mismatch = try await FlowProcess.run(["run", wrong])
        let text = mismatch.stdout + mismatch.stderr
        #expect(mismatch.exitCode == 1, "\(text)")
        #expect(
            text.contains("certificate of localhost:\(wrongPort) is not made out for the host name 'localhost'"),
            "\(text)")
    }

    @Test func aMissingCAFileFailsBeforeAnyRequestNamingTheKeyAndTheDryRunShowsTLS() async throws {
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let file = try fixture.write(
            """
            version: 1
            defaults:
              http:
                tls: { ca-file: certs/missing.pem }
            steps:
              fetch:
                http: { url: "https://127.0.0.1:9/x", tls: { cert-file: certs/client.pem, key-file: certs/client.key } }
            """, as: "missing.yaml")
        let outcome = try await FlowProcess.run(["run", file])
        let output = outcome.stdout + outcome.stderr
        #expect(outcome.exitCode == 2, "\(output)")
        #expect(output.contains("missing.yaml:4:"), "\(output)")
        #expect(output.contains("tls.ca-file 'certs/missing.pem'"), "\(output)")
        #expect(output.contains("does not exist"), "\(output)")

        let dry = try await FlowProcess.run(["run", file, "--dry-run"])
        #expect(dry.stdout.contains("tls.ca-file \(fixture.folder.path)/certs/missing.pem"), "\(dry.stdout)")
        #expect(dry.stdout.contains("tls.cert-file \(fixture.folder.path)/certs/client.pem"), "\(dry.stdout)")
    }
}
