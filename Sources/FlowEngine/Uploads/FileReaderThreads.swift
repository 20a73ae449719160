internal import CThreadName
import Foundation

/// The threads that read files for `FileRangeReader` (and for `TrailingFileDigest`'s restart):
/// threads of their own, not Dispatch workers, since a read may wait on the disk (see DESIGN.md).
/// Started as reads are asked for, up to `limit` (reads beyond wait their turn, in order), and
/// kept for the process's life, each with one buffer of `FileRangeReader.piece` bytes made on it
/// once: memory allocated and freed on the same thread, once, rather than a piece a read (see
/// `FileRangeReader`).
final class FileReaderThreads: @unchecked Sendable {
    /// The process's readers: an upload reads one range at a time, so a few serve several uploads.
    static let shared = FileReaderThreads(limit: 4)

    /// The threads' name, as debuggers and /proc show it.
    static let threadName = "flow.files"

    // Safe to share: every mutable field below is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var waiting: [@Sendable (UnsafeMutableRawBufferPointer) -> Void] = []
    private var idle = 0
    private var started = 0
    /// The most threads started.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Hands `read` to an idle thread, or to a new one while fewer than `limit` run.
    func submit(_ read: FileRangeRead) {
        submit { piece in read.run(piece: piece) }
    }

    /// Hands `reading` (work that reads a file, given the thread's buffer) to a thread as `submit`
    /// does a range: for readers whose bookkeeping is their own, as a download's resumed digest.
    func submit(_ reading: @escaping @Sendable (_ piece: UnsafeMutableRawBufferPointer) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        waiting.append(reading)
        if waiting.count > idle, started < limit {
            started += 1
            Thread { [self] in
                // Named from inside, for the system: see CThreadName.h for why not `Thread.name`.
                flow_name_this_thread(Self.threadName)
                serve()
            }.start()
        }
        condition.signal()
    }

    /// One thread's life: takes the reads in turn, each into this thread's one buffer.
    private func serve() {
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(FileRangeReader.piece), alignment: 64)
        while true {
            condition.lock()
            while waiting.isEmpty {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let reading = waiting.removeFirst()
            condition.unlock()
            reading(piece)
        }
    }
}
