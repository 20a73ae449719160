import Dispatch
import FlowDigest
import FlowTasks
import Foundation

extension StreamDigest {
    /// Hashes the file from what was hashed so far up to `end`: the bytes a server already holds
    /// from an earlier run, which this run does not send (read with `FileRangeReader`).
    func catchUp(path: String, to end: Int64, queue: DispatchQueue) -> Future<Void> {
        let start = hashedBytes
        guard end > start else { return Future.succeeded((), on: queue) }
        return FileRangeReader.read(path: path, offset: start, length: end - start, queue: queue) { [self] at, bytes in
            feed(offset: at, bytes)
        }
    }
}

/// The md5 and crc32c of a whole file, read again with `FileRangeReader`: for a server that
/// reports them (as GCS does) when the upload did not compute them as it sent (see
/// `StreamDigest.gcsDigests`).
enum GCSDigests {
    static func compute(path: String, size: Int64, queue: DispatchQueue) -> Future<(md5: String, crc32c: String)> {
        let hashes = LockedBox((Insecure.MD5(), CRC32C()))
        return FileRangeReader.read(path: path, offset: 0, length: size, queue: queue) { _, bytes in
            hashes.withLock { hashes in
                hashes.0.update(bufferPointer: bytes)
                hashes.1.update(bytes)
            }
        }
        .map(on: queue) {
            hashes.withLock { hashes in
                (md5: Data(hashes.0.finalize()).base64EncodedString(), crc32c: hashes.1.base64)
            }
        }
    }
}
