import Foundation
import Testing

/// The S3 peer itself (`scripts/s3-peer`, moto with signature checks on): what the S3 and SigV4
/// suites rely on.
@Suite(.serialized, .s3Peer) struct S3PeerTests {
    @Test func motoStoresWhatBoto3SendsAndChecksItByteForByte() async throws {
        let peer = try S3Peer.required()
        #expect(peer.checked)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-s3-peer-test-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("object.bin")
        try TusPeerTests.randomBytes(70_000).write(to: file)
        let other = folder.appendingPathComponent("other.bin")
        try TusPeerTests.randomBytes(70_000).write(to: other)

        try await peer.createBucket("flow-peer-test")
        let put = try await peer.tool(["put", "flow-peer-test", "dir/object.bin", file.path])
        #expect(put.status == 0, "\(put.output)")
        try await peer.expectObject("flow-peer-test", "dir/object.bin", equals: file)
        let differs = try await peer.tool(["check", "flow-peer-test", "dir/object.bin", other.path])
        #expect(differs.status == 1, "\(differs.output)")
        #expect(differs.output.contains("they differ from byte"))
    }
}
