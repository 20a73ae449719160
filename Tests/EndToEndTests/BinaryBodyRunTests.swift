import FlowSandbox
import Foundation
import Testing

/// Binary request bodies written inline (`body: { base64: … }`, `body: { hex: … }`), sent byte for
/// byte to the sandbox's `/request` (which answers with the body in hex), shown by `--dry-run`,
/// and checked by `flow validate`.
@Suite struct BinaryBodyRunTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-binary-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func base64AndHexBodiesAreSentByteExactAndShownByTheDryRun() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try write(
            """
            version: 1
            steps:
              encoded:
                http: { method: POST, url: \(sandbox.baseURL)/request, body: { base64: AAH+/wqA } }
                expect: { assert: ["result.json.hex == '0001feff0a80'", "result.json.size == 6"] }
              digits:
                http:
                  method: PUT
                  url: \(sandbox.baseURL)/request
                  headers: { Content-Type: application/octet-stream }
                  body: { hex: "de ad be ef 00" }
                expect:
                  assert:
                    - result.json.hex == 'deadbeef00'
                    - result.json.headers['content-type'][0] == 'application/octet-stream'
              computed:
                http: { method: POST, url: \(sandbox.baseURL)/request, body: { base64: "${{ base64Encode('hi') }}" } }
                expect: { assert: ["result.json.hex == '6869'"] }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let dry = try await FlowProcess.run(["run", "--dry-run", file])
        #expect(dry.exitCode == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("      body 6 bytes: 00 01 fe ff 0a 80\n"), "\(dry.stdout)")
        #expect(dry.stdout.contains("      body 5 bytes: de ad be ef 00\n"), "\(dry.stdout)")
        #expect(dry.stdout.contains("      body 2 bytes: 68 69\n"), "\(dry.stdout)")
    }

    @Test func validateNamesTheBodyThatCannotBeDecoded() async throws {
        let file = try write(
            """
            version: 1
            steps:
              a:
                http: { method: POST, url: http://127.0.0.1:9/, body: { hex: "0g" } }
              b:
                http: { method: POST, url: http://127.0.0.1:9/, body: { base64: "A=B" } }
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("\(file):4:66: error: the 'hex' body cannot be decoded: it is not hex"),
            "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("\(file):6:69: error: the 'base64' body cannot be decoded: it is not base64"),
            "\(outcome.stderr)")
    }
}
