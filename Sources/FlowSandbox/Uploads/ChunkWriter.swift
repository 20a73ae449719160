import FlowDigest
import Foundation
internal import Hummingbird
internal import NIOCore
internal import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one chunk of an upload at its offset while hashing it; owned by the one request writing it.
///
/// Bytes are hashed as they arrive and written in batches of up to `batchSize` on NIO's blocking-I/O
/// thread pool, so a disk stall (writeback throttling during a 1 GiB upload) never blocks the
/// threads that run request handlers, and memory stays bounded by one batch.
struct ChunkWriter {
    static let batchSize = 256 << 10

    let upload: Upload
    let descriptor: Int32
    let start: Int
    /// `?drop-at` chose this chunk: stop halfway and close the connection.
    let dropsHalfway: Bool
    /// Bytes on disk so far; the upload's offset becomes `start + written` when the chunk is kept.
    private(set) var written = 0
    /// Bytes received so far, on disk or still in the batch.
    var received: Int { written + batch.readableBytes }
    private var batch = ByteBuffer()

    init(upload: Upload, descriptor: Int32, start: Int, dropsHalfway: Bool) {
        self.upload = upload
        self.descriptor = descriptor
        self.start = start
        self.dropsHalfway = dropsHalfway
    }

    /// Takes bytes that follow what this chunk received so far.
    mutating func append(_ buffer: ByteBuffer) async throws {
        upload.absorb(buffer)
        batch.writeImmutableBuffer(buffer)
        if batch.readableBytes >= Self.batchSize { try await flush() }
    }

    /// Writes the batch to the file; call before the chunk ends.
    mutating func flush() async throws {
        guard batch.readableBytes > 0 else { return }
        let bytes = batch
        let descriptor = self.descriptor
        let offset = start + written
        do {
            try await NIOThreadPool.singleton.runIfActive {
                try Self.write(bytes, to: descriptor, at: offset)
            }
        } catch let error as UploadFileError {
            throw error
        } catch {
            throw UploadFileError(operation: "write the upload", reason: "\(error)")
        }
        written += bytes.readableBytes
        batch.clear()
    }

    private static func write(_ buffer: ByteBuffer, to descriptor: Int32, at offset: Int) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                guard count > 0 else { throw UploadFileError(operation: "write the upload", code: errno) }
                done += count
            }
        }
    }
}

/// A per-chunk checksum (tus checksum extension): sha1 or sha256 of the chunk's bytes.
struct ChunkChecksum {
    /// The algorithms advertised in `Tus-Checksum-Algorithm`.
    static let algorithms = ["sha1", "sha256"]

    private enum Hasher {
        case sha1(Insecure.SHA1)
        case sha256(SHA256)
    }

    private var hasher: Hasher
    private let expected: [UInt8]

    /// Parses `Upload-Checksum: <algorithm> <base64>`; nil when the algorithm or the encoding is unknown.
    init?(header: String) {
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let expected = Data(base64Encoded: String(parts[1])).map(Array.init) else { return nil }
        switch parts[0].lowercased() {
        case "sha1": hasher = .sha1(Insecure.SHA1())
        case "sha256": hasher = .sha256(SHA256())
        default: return nil
        }
        self.expected = expected
    }

    mutating func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { bytes in
            switch hasher {
            case .sha1(var sha1):
                sha1.update(bufferPointer: bytes)
                hasher = .sha1(sha1)
            case .sha256(var sha256):
                sha256.update(bufferPointer: bytes)
                hasher = .sha256(sha256)
            }
        }
    }

    /// Whether the bytes seen match the header's digest.
    var matches: Bool {
        switch hasher {
        case .sha1(let sha1): Array(sha1.finalize()) == expected
        case .sha256(let sha256): Array(sha256.finalize()) == expected
        }
    }
}
