import Dispatch
import FlowTasks

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
