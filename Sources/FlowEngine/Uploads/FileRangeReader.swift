import Dispatch
import FlowTasks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a range of a file through DispatchIO (no Dispatch worker waits on the disk) a piece of
/// at most 1 MiB at a time, handing each piece and its file offset to `onBytes` in order. The one
/// way the upload code reads a file for hashing (chunk checksums, catching up a resumed digest).
///
/// The next piece is asked for only once the last one was handed over: one read of the whole
/// range would let DispatchIO read far ahead of a slower `onBytes` (hashing), holding up to the
/// whole range in memory — a chunk's size for a checksum, the file's for a catch-up.
enum FileRangeReader {
    /// The most bytes read ahead of `onBytes`.
    static let piece: Int64 = 1 << 20

    /// Completes when all `length` bytes at `offset` were handed over; fails naming the file when
    /// it cannot be read or turns out shorter. Cancelling the future stops after the piece in hand.
    static func read(
        path: String, offset: Int64, length: Int64, queue: DispatchQueue,
        onBytes: @escaping @Sendable (_ offset: Int64, UnsafeRawBufferPointer) -> Void
    ) -> Future<Void> {
        let promise = Promise<Void>(on: queue)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            promise.fail(UploadFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))"))
            return promise.future
        }
        let channel = DispatchIO(type: .random, fileDescriptor: descriptor, queue: queue) { _ in close(descriptor) }
        channel.setLimit(highWater: Int(piece))
        PieceReads(channel: channel, queue: queue, path: path, end: offset + length, onBytes: onBytes, promise: promise)
            .read(from: offset)
        return promise.future
    }
}

/// One range being read by `FileRangeReader`, a piece after another.
private struct PieceReads: Sendable {
    let channel: DispatchIO
    let queue: DispatchQueue
    let path: String
    let end: Int64
    let onBytes: @Sendable (_ offset: Int64, UnsafeRawBufferPointer) -> Void
    let promise: Promise<Void>

    func read(from start: Int64) {
        guard start < end, !promise.isCompleted else {
            channel.close()
            promise.succeed(())
            return
        }
        let length = min(FileRangeReader.piece, end - start)
        // The handler runs on `queue`, one call after another: `position` has one owner at a time.
        let position = LockedBox(start)
        channel.read(offset: off_t(start), length: Int(length), queue: queue) { done, data, error in
            if let data, !data.isEmpty {
                data.regions.forEach { region in
                    region.withUnsafeBytes { bytes in
                        let at = position.withLock { at in
                            defer { at += Int64(bytes.count) }
                            return at
                        }
                        onBytes(at, bytes)
                    }
                }
            }
            guard done else { return }
            let reached = position.withLock { $0 }
            if error != 0 {
                channel.close()
                promise.fail(UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(error)))"))
            } else if reached != start + length {
                channel.close()
                promise.fail(UploadFileError(message: "'\(path)' became shorter while it was being uploaded"))
            } else {
                read(from: reached)
            }
        }
    }
}
