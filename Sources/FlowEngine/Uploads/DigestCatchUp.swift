import Dispatch
import FlowTasks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension StreamDigest {
    /// Hashes the file from what was hashed so far up to `end`: the bytes a server already holds
    /// from an earlier run, which this run does not send. Reads through DispatchIO (no Dispatch
    /// worker waits on the disk) in pieces of at most 1 MiB.
    func catchUp(path: String, to end: Int64, queue: DispatchQueue) -> Future<Void> {
        let promise = Promise<Void>(on: queue)
        let start = hashedBytes
        guard end > start else {
            promise.succeed(())
            return promise.future
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            promise.fail(UploadFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))"))
            return promise.future
        }
        let channel = DispatchIO(type: .random, fileDescriptor: descriptor, queue: queue) { _ in close(descriptor) }
        channel.setLimit(highWater: 1 << 20)
        let position = LockedBox(start)
        channel.read(offset: off_t(start), length: Int(end - start), queue: queue) { [self] done, data, error in
            if let data, !data.isEmpty {
                data.regions.forEach { region in
                    region.withUnsafeBytes { bytes in
                        let at = position.withLock { at in
                            defer { at += Int64(bytes.count) }
                            return at
                        }
                        feed(offset: at, bytes)
                    }
                }
            }
            guard done else { return }
            channel.close()
            if error != 0 {
                promise.fail(UploadFileError(message: "reading '\(path)' failed: \(String(cString: strerror(error)))"))
            } else if position.withLock({ $0 }) != end {
                promise.fail(UploadFileError(message: "'\(path)' became shorter while it was being uploaded"))
            } else {
                promise.succeed(())
            }
        }
        return promise.future
    }
}
