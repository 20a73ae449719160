import Dispatch
import FlowDigest
import FlowTasks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sha256 of a file as it is being written, computed a batch behind the writer on a queue of
/// its own, from the bytes read back (with `pread`, from the page cache) rather than
/// on the writer's thread: a `save-to` download's bytes are written by curl's thread, which then
/// goes on receiving while another core hashes, as `curl | tee FILE | sha256sum` does.
///
/// The writer says what it wrote (`wrote`, in order, from offset 0 or from where the file ended);
/// `caughtUp` completes once everything written so far is hashed. A write at offset 0 after
/// others starts over (the server sent the whole body again); callers wait for `caughtUp` before
/// a new response may rewrite the file, so no read is in flight when it does.
final class TrailingFileDigest: Sendable {
    /// Bytes written and not yet hashed before a read-back starts: one read a batch, not one a
    /// write of curl's.
    static let batch: Int64 = 1 << 20

    /// What the writer said; locked by both sides.
    private struct Marks {
        var generation = 0
        var written: Int64 = 0
        /// `Hashing.hashedUpTo` as of the last read-back.
        var hashed: Int64 = 0
        var reading = false
        var waiters: [Promise<Void>] = []
    }

    /// The hash itself, touched by read-backs (and by `finalHex` once caught up).
    private struct Hashing {
        var generation = 0
        var hasher = SHA256()
        var hashedUpTo: Int64 = 0
        /// A write out of order: the sha256 cannot be known (it is never guessed).
        var broken = false
    }

    let path: String
    private let marks = LockedBox(Marks())
    private let hashing = LockedBox(Hashing())
    private let queue = DispatchQueue(label: "flow.download.digest")
    /// What each read-back reads into, made once (read-backs run one at a time: `Marks.reading`).
    private let buffer = LockedBox(UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64))

    /// Told of each piece hashed, on the thread that read it: lets tests see where reads run.
    private let onPiece: (@Sendable (_ offset: Int64, _ count: Int) -> Void)?

    init(path: String, onPiece: (@Sendable (_ offset: Int64, _ count: Int) -> Void)? = nil) {
        self.path = path
        self.onPiece = onPiece
    }

    deinit {
        buffer.withLock { $0.deallocate() }
    }

    /// The writer wrote `count` bytes at `offset` (curl's thread, for each piece of the body).
    func wrote(offset: Int64, count: Int) {
        let start = marks.withLock { marks -> Bool in
            if offset == 0, marks.written > 0 {
                marks.generation += 1
                marks.written = 0
                marks.hashed = 0
            }
            if offset != marks.written {
                // Out of order cannot happen (the file is written in order); refuse to guess.
                marks.generation += 1
                marks.written = -1
                return false
            }
            marks.written += Int64(count)
            guard !marks.reading, marks.written - marks.hashed >= Self.batch else { return false }
            marks.reading = true
            return true
        }
        if start { queue.async { self.readBack() } }
    }

    /// Forgets the hash and hashes the file's first `size` bytes again (a resumed download's
    /// partial file, whose hash this run does not hold). That read-back runs on
    /// `FileReaderThreads`, not on `queue`: the partial file was written by an earlier attempt or
    /// run, so its bytes may have left the page cache and the reads may wait on the disk, which
    /// no Dispatch worker may do (DESIGN.md). `Marks.reading` keeps it the only read-back.
    func restart(from size: Int64) {
        let start = marks.withLock { marks -> Bool in
            marks.generation += 1
            marks.written = size
            marks.hashed = 0
            guard !marks.reading, size > 0 else { return false }
            marks.reading = true
            return true
        }
        if start { FileReaderThreads.shared.submit { _ in self.readBack() } }
    }

    /// Completes once all bytes written so far are hashed (or the hash is known to be lost).
    func caughtUp(on queue: DispatchQueue) -> Future<Void> {
        let promise = Promise<Void>(on: queue)
        let start = marks.withLock { marks -> Bool in
            guard marks.written > marks.hashed else {
                promise.succeed(())
                return false
            }
            marks.waiters.append(promise)
            guard !marks.reading else { return false }
            marks.reading = true
            return true
        }
        if start { self.queue.async { self.readBack() } }
        return promise.future
    }

    /// The lower-case hex sha256 of the first `size` bytes, when exactly those are hashed.
    func finalHex(size: Int64) -> String? {
        let (generation, written) = marks.withLock { ($0.generation, $0.written) }
        guard written == size else { return nil }
        return hashing.withLock { hashing in
            hashing.generation == generation && !hashing.broken && hashing.hashedUpTo == size
                ? Hex.encode(hashing.hasher.finalize()) : nil
        }
    }

    /// Reads back and hashes what was written since the last read-back, then goes on while a
    /// batch (or a waiter) is pending. On `queue` (or, after `restart`, on `FileReaderThreads`),
    /// one at a time (`Marks.reading`). A loop, not a call from `finishReadBack`: a writer that
    /// stays ahead for a whole download would otherwise deepen the stack a batch at a time.
    private func readBack() {
        while readBackOnce() {}
    }

    /// One read-back; true when another is due.
    private func readBackOnce() -> Bool {
        let (generation, written) = marks.withLock { ($0.generation, $0.written) }
        let from = hashing.withLock { hashing -> Int64 in
            if hashing.generation != generation {
                hashing = Hashing(generation: generation, broken: written < 0)
            }
            return hashing.broken ? written : hashing.hashedUpTo
        }
        guard written > from else { return finishReadBack() }
        // pread(2) into one buffer kept for the digest's life: behind the writer (on `queue`) the
        // bytes were just written, so they come from the page cache without waiting on a disk
        // (a restart's older bytes are read on `FileReaderThreads`, which may wait), and no
        // buffer is allocated a read (DispatchIO's 1 MiB pieces, freed on other threads, grew
        // malloc's per-thread arenas by 20 MiB and more over a 1 GiB download).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            defer { close(descriptor) }
            var at = from
            buffer.withLock { buffer in
                while at < written {
                    let count = pread(descriptor, buffer.baseAddress!, min(buffer.count, Int(written - at)), off_t(at))
                    guard count > 0 else {
                        // The file is shorter than what was written to it: something else
                        // truncated or replaced it. Its hash cannot be known; reading again
                        // would find the same end forever.
                        hashing.withLock { if $0.generation == generation { $0.broken = true } }
                        break
                    }
                    let stillCurrent = hashing.withLock { hashing -> Bool in
                        guard hashing.generation == generation, at == hashing.hashedUpTo else { return false }
                        hashing.hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                        hashing.hashedUpTo += Int64(count)
                        return true
                    }
                    guard stillCurrent else { break }
                    onPiece?(at, count)
                    at += Int64(count)
                }
            }
        } else {
            // The file is gone (removed under the download): as with a short read, its hash is lost.
            hashing.withLock { if $0.generation == generation { $0.broken = true } }
        }
        // A failed read (the file shortened by a new response) ends here; the next generation's
        // read-back or `caughtUp` starts from its own marks.
        return finishReadBack()
    }

    /// After a read-back: true when another one is due, else wakes the waiters that are caught up.
    private func finishReadBack() -> Bool {
        let (generation, hashed, broken) = hashing.withLock { ($0.generation, $0.hashedUpTo, $0.broken) }
        let (again, ready) = marks.withLock { marks -> (Bool, [Promise<Void>]) in
            if marks.generation == generation { marks.hashed = broken ? marks.written : hashed }
            let pending = marks.written - marks.hashed
            if pending >= Self.batch || (pending > 0 && !marks.waiters.isEmpty) || marks.generation != generation {
                return (true, [])
            }
            marks.reading = false
            defer { marks.waiters = [] }
            return (false, marks.waiters)
        }
        if again { return true }
        for waiter in ready { waiter.succeed(()) }
        return false
    }
}
