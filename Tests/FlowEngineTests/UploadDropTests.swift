import FlowDSL
import FlowDigest
import FlowEngine
import FlowSandbox
import Foundation
import Testing

/// Many chunks cut mid-body in one upload (`?drop-every=2`): after each cut, flow asks the server
/// where it stands before anything else, and no chunk ever goes out at an offset the server has
/// not just confirmed — not even the silent copy libcurl would send on a fresh connection.
///
/// The sandbox refuses a chunk at any offset but its own with 409 (tus) or 416 (Content-Range), so
/// a stale request shows up in its event log with that status.
@Suite(.serialized) final class UploadDropTests {
    private let harness: WorkflowHarness
    private let folder: URL

    init() async throws {
        harness = try await WorkflowHarness.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-drops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        let (harness, folder) = (harness, folder)
        Task { await harness.stop() }
        try? FileManager.default.removeItem(at: folder)
    }

    @Test(arguments: ["tus", "content-range"])
    func chunksCutMidBodyAreNeverSentAgainAtAStaleOffset(protocol name: String) async throws {
        // 32 KiB chunks, every second one cut halfway: 40 cuts.
        let size = 40 * (32_768 + 16_384) + 5_000
        let file = try makeFile(size: size)
        let url = name == "tus" ? "BASE/uploads/tus?drop-every=2" : "BASE/uploads/cr/many-drops?drop-every=2"
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              up:
                retry: { attempts: 3, delay: 1ms }
                upload:
                  file: \(file.path)
                  url: \(url)
                  protocol: \(name)
                  chunk-size: 32KiB
            """)
        let record = try #require(records["up"])
        #expect(record.state == .succeeded, "\(String(describing: record.error))")
        guard case .object(let result)? = record.output?.result, case .string(let location)? = result["location"]
        else {
            Issue.record("no result: \(String(describing: record.error))")
            return
        }
        let digest = SHA256.hash(data: try Data(contentsOf: file)).map { String(format: "%02x", $0) }.joined()
        #expect(result["sha256"] == .string(digest))
        let infoURL = name == "tus" ? location + "/info" : harness.sandbox.baseURL + "/uploads/cr/many-drops/info"
        let info = try await harness.client.execute(.init(url: infoURL)).value
        let held = try #require(try JSONSerialization.jsonObject(with: Data(info.body)) as? [String: Any])
        #expect(
            held["complete"] as? Bool == true && held["size"] as? Int == size && held["sha256"] as? String == digest)

        let chunkMethod = name == "tus" ? "PATCH" : "PUT"
        let requests = harness.sandbox.events().filter { $0.method == chunkMethod || $0.method == "HEAD" }
        let stale = requests.filter { [409, 416].contains($0.status) }
        #expect(stale.isEmpty, "chunks sent at an offset the server had not confirmed: \(stale)")
        let cuts = requests.indices.filter { requests[$0].method == chunkMethod && requests[$0].status == nil }
        #expect(cuts.count == 40, "\(cuts.count) chunks cut")
        for cut in cuts {
            // The request right after a cut asks: HEAD (tus), or `bytes */total` with no body.
            let next = try #require(cut + 1 < requests.count ? requests[cut + 1] : nil)
            let asks = name == "tus" ? next.method == "HEAD" : next.bytesReceived == 0 && next.status == 308
            #expect(asks, "after the cut chunk \(requests[cut].id) came \(next)")
        }
    }

    private func makeFile(size: Int) throws -> URL {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let url = folder.appendingPathComponent("data.bin")
        try Data(bytes).write(to: url)
        return url
    }
}
