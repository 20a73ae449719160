import Dispatch
import FlowDigest
import FlowHTTP
import FlowTasks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A tus checksum algorithm (the checksum extension): sha256 when the server offers it, else
/// sha1, the one the protocol requires servers to support.
enum ChecksumAlgorithm: String, Sendable {
    case sha256
    case sha1

    /// The algorithm to use among those a server lists in `Tus-Checksum-Algorithm`, if any.
    static func preferred(in offered: [String]) -> ChecksumAlgorithm? {
        let names = Set(offered.map { $0.lowercased() })
        if names.contains("sha256") { return .sha256 }
        if names.contains("sha1") { return .sha1 }
        return nil
    }
}

/// Computes a chunk's checksum before it is sent, reading the file range with `FileRangeReader`.
enum ChunkChecksum {
    /// Chunks up to this size are kept in memory from the read that hashes them and sent from
    /// there, rather than read from the file a second time (see `read`).
    static let keptChunkLimit: Int64 = 8 << 20

    /// The `Upload-Checksum` value (`<algorithm> <base64 digest>`) of `length` bytes at `offset`.
    static func header(
        path: String, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm, queue: DispatchQueue
    ) -> Future<String> {
        read(path: path, offset: offset, length: length, algorithm: algorithm, into: nil, queue: queue)
            .map(on: queue) { $0.header }
    }

    /// The `Upload-Checksum` value of `length` bytes at `offset`, and, given a `buffer` (of at
    /// least `length` bytes, which no request in flight sends), those bytes in it as the body to
    /// send: one read of the chunk both hashes it and gives the body.
    static func read(
        path: String, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm, into buffer: ReusableBytes?,
        queue: DispatchQueue
    ) -> Future<(header: String, body: HTTPBody?)> {
        let hasher = LockedBox(AnyHasher(algorithm))
        let kept = buffer.flatMap { $0.capacity >= length ? $0 : nil }
        // Read straight into the kept buffer, when there is one: no copy of the chunk.
        return FileRangeReader.read(path: path, offset: offset, length: length, into: kept, queue: queue) { _, bytes in
            hasher.withLock { $0.update(bytes) }
        }
        .map(on: queue) {
            let header = algorithm.rawValue + " " + hasher.withLock { $0.base64Digest() }
            return (header, kept.map { .reused($0, count: Int(length)) })
        }
    }
}

extension ChunkChecksum {
    /// The `Upload-Checksum` value of `length` bytes at `offset`, and those bytes as the body to
    /// send, read into `buffer` by `ChunkBuffer.readHere` (on the HTTP client's thread).
    static func readHere(
        path: String, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm, into buffer: ReusableBytes
    ) throws(UploadFileError) -> (header: String, body: HTTPBody) {
        let body = try ChunkBuffer.readHere(path: path, offset: offset, length: length, into: buffer)
        var hasher = AnyHasher(algorithm)
        hasher.update(buffer.bytes(count: Int(length)))
        return (algorithm.rawValue + " " + hasher.base64Digest(), body)
    }
}

/// sha256 or sha1, behind one face.
private struct AnyHasher {
    private var sha256: SHA256?
    private var sha1: Insecure.SHA1?

    init(_ algorithm: ChecksumAlgorithm) {
        switch algorithm {
        case .sha256: sha256 = SHA256()
        case .sha1: sha1 = Insecure.SHA1()
        }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha256?.update(bufferPointer: bytes)
        sha1?.update(bufferPointer: bytes)
    }

    func base64Digest() -> String {
        let digest: [UInt8] = sha256.map { Array($0.finalize()) } ?? sha1.map { Array($0.finalize()) } ?? []
        return Data(digest).base64EncodedString()
    }
}
