import FlowDSL
import FlowDigest
import FlowHTTP
import Foundation
import Testing

@testable import FlowEngine

/// The next chunk read (and its tus checksum computed) while the one before is in flight, into
/// the buffer that chunk is not sent from (issue 32, round seven).
@Suite struct ChunkReadAheadTests {
    private func target(path: String, chunkSize: Int64) throws -> UploadTarget {
        UploadTarget(
            url: "http://127.0.0.1:1/upload", file: try UploadFile(path: path), uploadProtocol: .tus, method: "PATCH",
            chunkSize: chunkSize, headers: HTTPHeaders(), metadata: [], controlTimeout: .seconds(1),
            location: SourceLocation(file: "t.yaml", line: 1, column: 1))
    }

    private func sent(_ body: HTTPBody?) -> (buffer: ReusableBytes, bytes: [UInt8])? {
        guard case .reused(let buffer, let count)? = body else { return nil }
        return (buffer, Array(buffer.bytes(count: count)))
    }

    @Test func theNextChunkIsReadIntoTheBufferNotInFlightAndTakenOnce() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-ahead-\(UUID())").path
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 11) })
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let upload = try target(path: path, chunkSize: 102_400)
        let buffers = ChunkBuffer()
        let inFlight = buffers.free(for: upload)
        buffers.readAhead(target: upload, offset: 102_400, length: 102_400, algorithm: .sha256)
        let ready = try #require(buffers.take(offset: 102_400, length: 102_400, algorithm: .sha256))
        let range = bytes[102_400..<204_800]
        let body = try #require(sent(ready.body))
        #expect(body.buffer !== inFlight, "not the memory of the chunk in flight")
        #expect(body.bytes == Array(range))
        #expect(ready.checksum == "sha256 " + Data(SHA256.hash(data: range)).base64EncodedString())
        // The chunk after goes into the buffer the chunk before it was sent from.
        buffers.readAhead(target: upload, offset: 204_800, length: 95_200, algorithm: nil)
        let last = try #require(sent(buffers.take(offset: 204_800, length: 95_200, algorithm: nil)?.body))
        #expect(last.buffer === inFlight)
        #expect(last.bytes == Array(bytes[204_800...]))
        // A chunk read ahead that is not the one wanted (the server holds another offset) is dropped.
        buffers.readAhead(target: upload, offset: 204_800, length: 95_200, algorithm: nil)
        #expect(buffers.take(offset: 102_400, length: 102_400, algorithm: nil) == nil)
        #expect(buffers.take(offset: 204_800, length: 95_200, algorithm: nil) == nil)
        // Or read with another algorithm than the one the request sends.
        buffers.readAhead(target: upload, offset: 204_800, length: 95_200, algorithm: .sha1)
        #expect(buffers.take(offset: 204_800, length: 95_200, algorithm: .sha256) == nil)
        // A file that became shorter is not read ahead: sending it says why.
        buffers.readAhead(target: upload, offset: 250_000, length: 102_400, algorithm: nil)
        #expect(buffers.take(offset: 250_000, length: 102_400, algorithm: nil) == nil)
    }

    /// Chunks larger than 1 MiB are not read ahead, and share one buffer (memory stays at one chunk).
    @Test func largeChunksAreNotReadAheadAndUseOneBuffer() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-ahead-\(UUID())").path
        try Data(count: 3 << 20).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let upload = try target(path: path, chunkSize: 2 << 20)
        let buffers = ChunkBuffer()
        let first = buffers.free(for: upload)
        buffers.readAhead(target: upload, offset: 2 << 20, length: 1 << 20, algorithm: nil)
        #expect(buffers.take(offset: 2 << 20, length: 1 << 20, algorithm: nil) == nil)
        #expect(buffers.free(for: upload) === first)
    }
}
