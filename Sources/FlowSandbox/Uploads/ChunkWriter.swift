import Crypto
import Foundation
internal import Hummingbird

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one chunk of an upload at its offset while hashing it; owned by the one request writing it.
struct ChunkWriter {
    let upload: Upload
    let descriptor: Int32
    let start: Int
    /// `?drop-at` chose this chunk: stop halfway and close the connection.
    let dropsHalfway: Bool
    private(set) var written = 0

    init(upload: Upload, descriptor: Int32, start: Int, dropsHalfway: Bool) {
        self.upload = upload
        self.descriptor = descriptor
        self.start = start
        self.dropsHalfway = dropsHalfway
    }

    /// Appends bytes at the end of what this chunk wrote so far.
    ///
    /// A `pwrite` of one body buffer lands in the page cache; it does not wait on the network.
    mutating func append(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = pwrite(
                    descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(start + written + done))
                guard count > 0 else { throw UploadFileError(operation: "write the upload", code: errno) }
                done += count
            }
        }
        upload.absorb(buffer)
        written += buffer.readableBytes
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
