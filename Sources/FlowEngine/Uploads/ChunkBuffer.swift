import FlowHTTP
import FlowTasks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The memory an upload's chunks are read into and sent from, made at the first chunk and reused
/// for every later one (see `ReusableBytes`): chunks go one at a time, and the next is read only
/// after the last one's answer.
final class ChunkBuffer: Sendable {
    private let buffer = LockedBox<ReusableBytes?>(nil)

    /// Chunks up to this size may be read with `readHere`.
    static let readHereLimit: Int64 = 1 << 20

    /// The buffer, made on first use: a chunk's size, or the file's when smaller.
    func bytes(for target: UploadTarget) -> ReusableBytes {
        buffer.withLock { buffer in
            if let buffer { return buffer }
            let made = ReusableBytes(capacity: Int(min(target.chunkSize, target.file.size)))
            buffer = made
            return made
        }
    }

    /// Reads `length` bytes at `offset` of `path` into `buffer` (at least `length` bytes, which no
    /// request in flight sends) with `pread` on the calling thread: only for a thread that may
    /// wait on the disk (the HTTP client's, never a Dispatch worker) and a chunk of at most
    /// `readHereLimit`. One read of the chunk, as a minimal client makes: the body is then sent
    /// from memory, and the upload's digest sees it after it went out (`HTTPRequest.bodyObserver`).
    static func readHere(
        path: String, offset: Int64, length: Int64, into buffer: ReusableBytes
    ) throws(UploadFileError) -> HTTPBody {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw UploadFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let target = buffer.mutableBytes
        let wanted = min(Int(length), target.count)
        var count = 0
        while count < wanted {
            let got = pread(descriptor, target.baseAddress! + count, wanted - count, off_t(offset) + off_t(count))
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(errno)))")
            }
        }
        guard count == Int(length) else {
            throw UploadFileError(message: "'\(path)' became shorter while it was being uploaded")
        }
        return .reused(buffer, count: count)
    }
}
