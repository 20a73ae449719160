import Dispatch
import FlowDigest
import FlowTestSupport
import Foundation
import Testing

@testable import FlowEngine

/// The SHA-256 a signed `aws-sigv4` payload names for a file body, hashed as `FileRangeReader`
/// reads the file (on its threads, into their kept buffers) rather than into new memory a piece.
@Suite struct AWSPayloadHashTests {
    private let queue = DispatchQueue(label: "test.aws-payload-hash")

    /// A range that spans several of the reader's 1 MiB pieces hashes to the range's own SHA-256.
    @Test func aRangeOfAFileHashesToItsBytesSHA256() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/body.bin"
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 10) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let hex = try await AWSRequestSigning.sha256(path: path, offset: 123, length: 2_500_000, queue: queue).value
        #expect(hex == Hex.encode(SHA256.hash(data: bytes[123..<2_500_123])))
    }

    /// A file shorter than the range fails naming the file rather than signing a wrong hash.
    @Test func aFileShorterThanTheRangeFails() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/short.bin"
        try Data(repeating: 1, count: 1_000).write(to: URL(fileURLWithPath: path))
        await #expect(throws: (any Error).self) {
            try await AWSRequestSigning.sha256(path: path, offset: 0, length: 2_000, queue: queue).value
        }
    }
}
