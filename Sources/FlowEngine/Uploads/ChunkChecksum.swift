import Crypto
import Dispatch
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

/// Computes a chunk's checksum before it is sent, reading the file range through DispatchIO (no
/// Dispatch worker waits on the disk) in pieces of at most 1 MiB.
enum ChunkChecksum {
    /// The `Upload-Checksum` value (`<algorithm> <base64 digest>`) of `length` bytes at `offset`.
    static func header(
        path: String, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm, queue: DispatchQueue
    ) -> Future<String> {
        let promise = Promise<String>(on: queue)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            promise.fail(UploadFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))"))
            return promise.future
        }
        let channel = DispatchIO(type: .random, fileDescriptor: descriptor, queue: queue) { _ in close(descriptor) }
        channel.setLimit(highWater: 1 << 20)
        let hasher = LockedBox(AnyHasher(algorithm))
        let received = LockedBox<Int64>(0)
        channel.read(offset: off_t(offset), length: Int(length), queue: queue) { done, data, error in
            if let data, !data.isEmpty {
                data.regions.forEach { region in
                    region.withUnsafeBytes { bytes in hasher.withLock { $0.update(bytes) } }
                }
                received.withLock { $0 += Int64(data.count) }
            }
            guard done else { return }
            channel.close()
            if error != 0 {
                promise.fail(UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(error)))"))
            } else if received.withLock({ $0 }) != length {
                promise.fail(UploadFileError(message: "'\(path)' became shorter while it was being uploaded"))
            } else {
                promise.succeed(algorithm.rawValue + " " + hasher.withLock { $0.base64Digest() })
            }
        }
        return promise.future
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
