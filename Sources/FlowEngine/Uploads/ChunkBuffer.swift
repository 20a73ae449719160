import FlowHTTP
import FlowTasks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The memory an upload's chunks are read into and sent from: two buffers, each made at first use
/// and reused for every later chunk (see `ReusableBytes`), so that the next chunk can be read (and
/// its checksum computed) while the current one is in flight, and sent the moment the answer says
/// the server wants it. Chunks go one at a time: the buffer the last chunk was not sent from is
/// free once that chunk's answer came, or, while it is in flight, for reading the next one ahead.
final class ChunkBuffer: Sendable {
    /// A chunk read ahead (see `readAhead`), waiting for its turn.
    struct ReadAhead: Sendable {
        let offset: Int64
        let length: Int64
        /// The algorithm of `checksum`, nil when none was computed.
        let algorithm: ChecksumAlgorithm?
        /// The `Upload-Checksum` value, when an algorithm was given.
        let checksum: String?
        let body: HTTPBody
        /// Which of the two buffers holds it.
        fileprivate let index: Int
    }

    private struct State {
        var buffers: [ReusableBytes?] = [nil, nil]
        /// The buffer handed out last (a chunk sent or read ahead): the other one is free.
        var latest = 1
        var ready: ReadAhead?
    }

    private let state = LockedBox(State())

    /// Chunks up to this size may be read with `readHere`, and read ahead.
    static let readHereLimit: Int64 = 1 << 20

    /// A buffer no request in flight sends, made on first use (a chunk's size, or the file's when
    /// smaller): the other one than the last handed out. A chunk read ahead into it is dropped.
    func free(for target: UploadTarget) -> ReusableBytes {
        claim(for: target).buffer
    }

    private func claim(for target: UploadTarget) -> (buffer: ReusableBytes, index: Int) {
        let size = min(target.chunkSize, target.file.size)
        return state.withLock { state in
            // Chunks too large to be read ahead need no second buffer: one is free between chunks.
            let index = size > Self.readHereLimit ? 0 : 1 - state.latest
            state.latest = index
            if state.ready?.index == index { state.ready = nil }
            if let buffer = state.buffers[index] { return (buffer, index) }
            let made = ReusableBytes(capacity: Int(size))
            state.buffers[index] = made
            return (made, index)
        }
    }

    /// The chunk read ahead, when it is `length` bytes at `offset` with a checksum by `algorithm`;
    /// whatever was read ahead is dropped either way (it is read ahead for one request).
    func take(offset: Int64, length: Int64, algorithm: ChecksumAlgorithm?) -> ReadAhead? {
        state.withLock { state in
            defer { state.ready = nil }
            guard let ready = state.ready, ready.offset == offset, ready.length == length,
                ready.algorithm == algorithm
            else { return nil }
            return ready
        }
    }

    /// Reads `length` bytes at `offset` of the target's file into the free buffer, with their
    /// checksum by `algorithm` if given, for `take` to hand over. On the HTTP client's thread
    /// (see `readHere`), while the chunk before is in flight: the read and the hashing then
    /// overlap the server's work instead of waiting between its answer and the next request. A
    /// chunk that cannot be read is not kept: it is read again when it is sent, which says why.
    func readAhead(target: UploadTarget, offset: Int64, length: Int64, algorithm: ChecksumAlgorithm?) {
        // By the upload's chunk size, not this chunk's: with larger chunks there is one buffer
        // (see `claim`), which the chunk in flight is sent from.
        guard min(target.chunkSize, target.file.size) <= Self.readHereLimit, length <= Self.readHereLimit else {
            return
        }
        let (buffer, index) = claim(for: target)
        let read: (checksum: String?, body: HTTPBody)
        do {
            if let algorithm {
                let made = try ChunkChecksum.readHere(
                    path: target.file.path, offset: offset, length: length, algorithm: algorithm, into: buffer)
                read = (made.header, made.body)
            } else {
                read = (nil, try Self.readHere(path: target.file.path, offset: offset, length: length, into: buffer))
            }
        } catch {
            return
        }
        state.withLock { state in
            state.ready = ReadAhead(
                offset: offset, length: length, algorithm: algorithm, checksum: read.checksum, body: read.body,
                index: index)
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
