import FlowDSL
import FlowDigest
import FlowEngine
import Foundation
import Testing

/// `multipart:` bodies against the sandbox's `/multipart`, which reports each part it received.
@Suite struct MultipartStepTests {
    private func message(_ record: StepRecord<StepResult>?) -> String {
        record?.error.map { "\($0)" } ?? ""
    }

    /// A small binary file (every byte value) in a fresh folder; returns its path and sha256.
    private func binaryFile() throws -> (path: String, sha256: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-multipart-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = folder.appendingPathComponent("data.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return (path, digest)
    }

    @Test func textAndFilePartsArriveIntact() async throws {
        let file = try binaryFile()
        defer { try? FileManager.default.removeItem(atPath: (file.path as NSString).deletingLastPathComponent) }
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let textDigest = SHA256.hash(data: Data("héllo wörld".utf8)).map { String(format: "%02x", $0) }.joined()
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              send:
                http:
                  method: POST
                  url: BASE/multipart
                  multipart:
                    greeting: héllo wörld
                    meta: { value: '{"a": 1}', content-type: application/json }
                    upload: { file: "\(file.path)", filename: "${{ 'report' }}.bin", content-type: application/x-test }
                    plain: { file: "\(file.path)" }
                outputs:
                  parts: ${{ toJSON(result.json.parts) }}
            """)
        #expect(records["send"]?.state == .succeeded, "\(message(records["send"]))")
        let text = records["send"]?.output?.outputs["parts"]?.interpolated ?? ""
        let parts = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parts.map { $0["name"] as? String } == ["greeting", "meta", "upload", "plain"])
        #expect(parts[0]["sha256"] as? String == textDigest)
        #expect(parts[0]["filename"] == nil)
        #expect(parts[1]["contentType"] as? String == "application/json")
        #expect(parts[1]["size"] as? Int == 8)
        #expect(parts[2]["sha256"] as? String == file.sha256)
        #expect(parts[2]["size"] as? Int == 3000)
        #expect(parts[2]["filename"] as? String == "report.bin")
        #expect(parts[2]["contentType"] as? String == "application/x-test")
        #expect(parts[3]["sha256"] as? String == file.sha256)
        #expect(parts[3]["filename"] as? String == "data.bin", "the path's last component by default")
    }

    @Test func aRetriedRequestSendsTheWholeBodyAgain() async throws {
        let file = try binaryFile()
        defer { try? FileManager.default.removeItem(atPath: (file.path as NSString).deletingLastPathComponent) }
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        // The first request is answered 503 after its body was read; the retry must send all of it.
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              send:
                http:
                  method: POST
                  url: BASE/multipart
                  headers: { Idempotency-Key: upload-1 }
                  query: { key: resend, fail: 1 }
                  multipart: { file: { file: "\(file.path)" } }
                retry: { attempts: 2, delay: 10ms }
                expect:
                  assert:
                    - result.json.attempt == 2
                    - result.json.parts[0].size == 3000
                    - result.json.parts[0].sha256 == '\(file.sha256)'
            """)
        #expect(records["send"]?.state == .succeeded, "\(message(records["send"]))")
        #expect(records["send"]?.output?.attempts == 2)
    }

    @Test func aMissingFileFailsNamingThePartAndThePlace() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              send:
                http:
                  method: POST
                  url: BASE/multipart
                  multipart:
                    report: { file: /nonexistent/flow-report.csv }
            """)
        let error = try #require(records["send"]?.error as? StepError)
        #expect(error.message.contains("multipart part 'report'"), "\(error.message)")
        #expect(error.message.contains("'/nonexistent/flow-report.csv' does not exist"), "\(error.message)")
        #expect(error.location.line == 8, "the file's place: \(error.location)")
        let events = harness.sandbox.events()
        #expect(!events.contains { $0.path.hasPrefix("/multipart") }, "nothing was sent")
    }
}
