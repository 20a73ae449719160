import Dispatch
import FlowDigest
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
        read(path: path, offset: offset, length: length, algorithm: algorithm, keep: false, queue: queue)
            .map(on: queue) { $0.header }
    }

    /// The `Upload-Checksum` value of `length` bytes at `offset`, and, with `keep`, those bytes:
    /// one read of the chunk both hashes it and gives the body to send.
    static func read(
        path: String, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm, keep: Bool, queue: DispatchQueue
    ) -> Future<(header: String, bytes: [UInt8]?)> {
        struct Reading {
            var hasher: AnyHasher
            var bytes: [UInt8]?
        }
        var start = Reading(hasher: AnyHasher(algorithm), bytes: nil)
        if keep {
            start.bytes = []
            start.bytes?.reserveCapacity(Int(length))
        }
        let reading = LockedBox(start)
        return FileRangeReader.read(path: path, offset: offset, length: length, queue: queue) { _, bytes in
            reading.withLock { reading in
                reading.hasher.update(bytes)
                reading.bytes?.append(contentsOf: bytes)
            }
        }
        .map(on: queue) {
            reading.withLock { reading in
                defer { reading.bytes = nil }
                return (algorithm.rawValue + " " + reading.hasher.base64Digest(), reading.bytes)
            }
        }
    }
}

extension ChunkChecksum {
    /// Chunks up to this size may be read with `readHere`.
    static let readHereLimit: Int64 = 1 << 20

    /// The `Upload-Checksum` value of `length` bytes at `offset`, and those bytes, read with
    /// `pread` on the calling thread: only for a thread that may wait on the disk (the HTTP
    /// client's, never a Dispatch worker) and a chunk of at most `readHereLimit`.
    static func readHere(
        path: String, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm
    ) throws(UploadFileError) -> (header: String, bytes: [UInt8]?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw UploadFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(length)) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = pread(
                    descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(offset) + off_t(count))
                if got > 0 {
                    count += got
                } else if got == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        if let failure {
            throw UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(failure)))")
        }
        guard bytes.count == Int(length) else {
            throw UploadFileError(message: "'\(path)' became shorter while it was being uploaded")
        }
        var hasher = AnyHasher(algorithm)
        bytes.withUnsafeBytes { hasher.update($0) }
        return (algorithm.rawValue + " " + hasher.base64Digest(), bytes)
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
