import FlowSandbox
import Foundation
import Testing

/// `keep-credentials-on-redirect: true`: a redirect to another origin (a second sandbox on another
/// port) keeps `Authorization`, `Cookie` and a secret-holding header, still masked in the output.
@Suite struct TrustedRedirectRunTests {
    @Test func aTrustedRedirectKeepsTheCredentialsAndMasksThem() async throws {
        let first = try await Sandbox.start()
        defer { Task { await first.stop() } }
        let other = try await Sandbox.start()
        defer { Task { await other.stop() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-trust-\(UUID()).yaml").path
        try """
        version: 1
        steps:
          trusted:
            http:
              url: \(first.baseURL)/redirect-to
              query: { url: "\(other.baseURL)/request" }
              headers: { X-Api-Key: "${{ secrets.TOKEN }}", Cookie: "a=1" }
              auth: { bearer: "${{ secrets.TOKEN }}" }
              keep-credentials-on-redirect: true
            expect:
              assert:
                - result.json.headers['x-api-key'][0] == secrets.TOKEN
                - contains(result.json.headers['authorization'][0], secrets.TOKEN)
                - result.json.headers['cookie'][0] == 'a=1'
                - result.json.headers['x-api-key'][0] == 'never'
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path], environment: ["FLOW_SECRET_TOKEN": "tok-7654321"])
        let output = outcome.stdout + outcome.stderr
        // The last assertion fails on purpose, so the output shows the response holding the secret.
        #expect(outcome.exitCode == 1, "\(output)")
        #expect(output.contains("(result.json.headers['x-api-key'][0] was '***')"), "\(output)")
        #expect(!output.contains("tok-7654321"), "\(output)")
        #expect(!output.contains("flow: dropped"), "\(output)")
        let dry = try await FlowProcess.run(
            ["run", "--dry-run", path], environment: ["FLOW_SECRET_TOKEN": "tok-7654321"])
        #expect(dry.stdout.contains("keep-credentials-on-redirect: true"), "\(dry.stdout)")
        #expect(!dry.stdout.contains("tok-7654321"), "\(dry.stdout)")
    }
}
