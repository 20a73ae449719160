import Dispatch
import FlowTasks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a range of a file through DispatchIO (no Dispatch worker waits on the disk) in pieces of
/// at most 1 MiB, handing each piece and its file offset to `onBytes` in order. The one way the
/// upload code reads a file for hashing (chunk checksums, catching up a resumed digest).
enum FileRangeReader {
    /// Completes when all `length` bytes at `offset` were handed over; fails naming the file when
    /// it cannot be read or turns out shorter.
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
        channel.setLimit(highWater: 1 << 20)
        let position = LockedBox(offset)
        channel.read(offset: off_t(offset), length: Int(length), queue: queue) { done, data, error in
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
            channel.close()
            if error != 0 {
                promise.fail(UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(error)))"))
            } else if position.withLock({ $0 }) != offset + length {
                promise.fail(UploadFileError(message: "'\(path)' became shorter while it was being uploaded"))
            } else {
                promise.succeed(())
            }
        }
        return promise.future
    }
}
