import FlowSandbox
import Foundation
import Testing

/// Redirects as flow follows them, through the built `flow`: two sandboxes on two ports are two
/// origins; an HTTPS peer (`Tests/Peers/tls_server.py --redirect-to`) redirects to plain http.
@Suite struct RedirectRunTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-redirect-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aHeaderHoldingASecretStaysWithItsOriginAndA307ResendsTheBody() async throws {
        let first = try await Sandbox.start()
        defer { Task { await first.stop() } }
        let other = try await Sandbox.start()
        defer { Task { await other.stop() } }
        let file = try write(
            """
            version: 1
            defaults:
              http:
                headers: { X-Api-Key: "${{ secrets.TOKEN }}", X-Plain: visible, Authorization: Basic eDp5 }
            steps:
              same:
                http: { url: \(first.baseURL)/redirect-to, query: { url: "\(first.baseURL)/echo" } }
                expect:
                  assert:
                    - result.json.headers['x-api-key'] == secrets.TOKEN
                    - result.json.headers['authorization'] == 'Basic eDp5'
              elsewhere:
                needs: [same]
                http: { url: \(first.baseURL)/redirect-to, query: { url: "\(other.baseURL)/echo" } }
                expect:
                  assert:
                    - result.json.headers['x-plain'] == 'visible'
                    - result.json.headers['x-api-key'] == null
                    - result.json.headers['authorization'] == null
              resent:
                needs: [elsewhere]
                http:
                  method: POST
                  url: \(first.baseURL)/redirect-to
                  query: { url: "\(other.baseURL)/echo", status: "307" }
                  json: { a: 1 }
                expect:
                  assert:
                    - result.json.method == 'POST'
                    - result.json.body == '{"a":1}'
                    - result.json.headers['x-api-key'] == null
              turned:
                needs: [resent]
                http:
                  method: POST
                  url: \(first.baseURL)/redirect-to
                  query: { url: "\(other.baseURL)/echo", status: "302" }
                  json: { a: 1 }
                expect:
                  assert: [result.json.method == 'GET', result.json.body == '']
            """)
        let outcome = try await FlowProcess.run(["run", file], environment: ["FLOW_SECRET_TOKEN": "tok-123456"])
        let output = outcome.stdout + outcome.stderr
        #expect(outcome.exitCode == 0, "\(output)")
        #expect(!output.contains("tok-123456"), "\(output)")
        let dropped =
            "flow: dropped X-Api-Key (holding a secret) on the redirect to \(other.baseURL)/echo, another origin"
        #expect(output.contains(dropped), "\(output)")
        #expect(output.components(separatedBy: "flow: dropped").count == 4, "once per request: \(output)")
        let seen = other.events().map { "\($0.method) \($0.path)" }
        #expect(seen == ["GET /echo", "POST /echo", "GET /echo"], "\(seen)")
    }

    @Test func anErrorAfterARedirectNamesTheURLThatFailed() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try write(
            """
            version: 1
            steps:
              away:
                http: { url: \(sandbox.baseURL)/redirect-to, query: { url: "http://127.0.0.1:1/x" } }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        let output = outcome.stdout + outcome.stderr
        #expect(outcome.exitCode == 1, "\(output)")
        #expect(output.contains("could not connect to http://127.0.0.1:1/x"), "\(output)")
        #expect(
            output.contains(
                "(the request to \(sandbox.baseURL)/redirect-to?url=http%3A%2F%2F127.0.0.1%3A1%2Fx got to "
                    + "http://127.0.0.1:1/x after a redirect)"), "\(output)")
    }

    @Test func aRedirectFromHTTPSToHTTPFailsUnlessTheStepAllowsIt() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let fixture = try await TLSFixture()
        defer { fixture.stop() }
        let port = try await fixture.server("server", options: ["--redirect-to", "\(sandbox.baseURL)/echo"])
        func workflow(allow: Bool) -> String {
            """
            version: 1
            steps:
              down:
                http:
                  url: https://127.0.0.1:\(port)/start
                  tls: { ca-file: certs/ca.pem }
            \(allow ? "      allow-insecure-redirect: true" : "")
            """
        }
        let refused = try await FlowProcess.run(["run", try fixture.write(workflow(allow: false), as: "refuse.yaml")])
        let output = refused.stdout + refused.stderr
        #expect(refused.exitCode == 1, "\(output)")
        #expect(
            output.contains(
                "refused the redirect (302) from https://127.0.0.1:\(port)/start to \(sandbox.baseURL)/echo"),
            "\(output)")
        #expect(output.contains("'allow-insecure-redirect: true'"), "\(output)")
        #expect(sandbox.events().isEmpty, "nothing reached the http server")

        let allowed = try await FlowProcess.run(["run", try fixture.write(workflow(allow: true), as: "allow.yaml")])
        #expect(allowed.exitCode == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(sandbox.events().map(\.path) == ["/echo"])
    }
}
