import Dispatch
import FlowHTTP
import FlowTasks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a range of a file a piece of at most 1 MiB at a time, handing each piece and its file
/// offset to `onBytes` in order: the one way the upload code reads a file for hashing (chunk
/// checksums, S3 parts, catching up a resumed digest). The reads run on `FileReaderThreads`,
/// threads of their own (no Dispatch worker waits on the disk), with `pread` into a buffer each
/// thread keeps, or straight into the caller's when given one.
///
/// Not DispatchIO: it allocated every 1 MiB piece on libdispatch's threads and freed it on others,
/// which an allocator with per-thread heaps (mimalloc, jemalloc) keeps resident for a while, so
/// that an upload's peak memory grew with the pieces read (BENCHMARKS.md, issue 32, round eight).
/// A piece is read only once the last one was handed over, so a slower `onBytes` (hashing) never
/// has more than a piece read ahead of it.
enum FileRangeReader {
    /// The most bytes read at once, and the size of each reading thread's buffer.
    static let piece: Int64 = 1 << 20

    /// Completes (on `queue`) when all `length` bytes at `offset` were handed over; fails naming
    /// the file when it cannot be read or turns out shorter. Given `buffer` (of at least `length`
    /// bytes, which no request in flight sends), the range is read into it, its first byte at
    /// `offset`, and `onBytes` sees the pieces there. `onBytes` runs on the reading thread, one
    /// call after another. Cancelling the future stops after the piece in hand.
    static func read(
        path: String, offset: Int64, length: Int64, into buffer: ReusableBytes? = nil, queue: DispatchQueue,
        onBytes: @escaping @Sendable (_ offset: Int64, UnsafeRawBufferPointer) -> Void
    ) -> Future<Void> {
        let promise = Promise<Void>(on: queue)
        precondition(buffer.map { Int64($0.capacity) >= length } ?? true, "the buffer is smaller than the range")
        let read = FileRangeRead(
            path: path, offset: offset, length: length, buffer: buffer, onBytes: onBytes, promise: promise)
        FileReaderThreads.shared.submit(read)
        return promise.future
    }
}

/// One range for `FileRangeReader` to read, taken by one of `FileReaderThreads`.
struct FileRangeRead: Sendable {
    let path: String
    let offset: Int64
    let length: Int64
    let buffer: ReusableBytes?
    let onBytes: @Sendable (_ offset: Int64, UnsafeRawBufferPointer) -> Void
    let promise: Promise<Void>

    /// Reads the range on the calling thread (one of `FileReaderThreads`), into `buffer` when the
    /// caller gave one, else piece by piece into `piece`, the thread's own.
    func run(piece: UnsafeMutableRawBufferPointer) {
        guard !promise.isCompleted else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            promise.fail(UploadFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))"))
            return
        }
        defer { close(descriptor) }
        let end = offset + length
        var at = offset
        while at < end {
            // Cancelled (the promise completed by its cancel): stop after the piece in hand.
            guard !promise.isCompleted else { return }
            let count = Int(min(FileRangeReader.piece, end - at))
            let target =
                buffer.map { UnsafeMutableRawBufferPointer(rebasing: $0.mutableBytes[Int(at - offset)...]) } ?? piece
            let got = pread(descriptor, target.baseAddress!, count, off_t(at))
            if got < 0 {
                if errno == EINTR { continue }
                promise.fail(UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(errno)))"))
                return
            }
            guard got > 0 else {
                promise.fail(UploadFileError(message: "'\(path)' became shorter while it was being uploaded"))
                return
            }
            onBytes(at, UnsafeRawBufferPointer(rebasing: target[..<got]))
            at += Int64(got)
        }
        promise.succeed(())
    }
}
