import Dispatch
import Foundation

#if canImport(CAllocator)
    import CAllocator
#endif

/// Where `flow validate` and `flow run` check large files: the check builds about 32 bytes of node
/// tree, steps and texts for each byte of YAML (25 MiB for a 10,000-step file of 0.9 MB,
/// BENCHMARKS.md, Validate, round nine), and faulting that in 4 KiB at a time was a fifth of the
/// check's time. For large files mimalloc reserves it in 2 MiB pages, and the check runs on a
/// thread of its own so that what it allocates comes from that reservation: the main thread's heap
/// already has memory of ordinary pages from start-up, which it would fill first (Validate,
/// "round ten").
enum LargeCheckHeap {
    /// Files smaller than this in all are checked on the main thread's heap as it is: a 2 MiB page
    /// would cost more zeroing than their few faults.
    static let threshold = 128 * 1024
    /// Bytes reserved for each byte of the files.
    static let bytesPerByte = 32
    /// The most reserved at once (the allocator maps more as it needs it).
    static let largest = 1 << 30
    /// The checking thread's stack: the main thread's usual 8 MiB, for the same nesting.
    static let stackSize = 8 << 20

    /// The result of `check`, run on a thread of its own over large pages when `files` are large,
    /// else here. For a command that exits soon after: the allocator keeps using large pages.
    static func run<Result: Sendable>(files: [String], _ check: @escaping @Sendable () -> Result) -> Result {
        guard reserve(for: files) else { return check() }
        let result = Locked<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread {
            let checked = check()
            result.withLock { $0 = checked }
            done.signal()
        }
        // The main thread, not a Dispatch worker, waits: it has nothing else to do meanwhile.
        done.wait()
        return result.withLock { $0 }!
    }

    /// The result of `check` run on a thread of its own over large pages, with ordinary pages
    /// again afterwards for the rest of the process (a run's memory bounds were measured with
    /// them); nil, with nothing run, when `files` are small.
    static func runBeforeMore<Result: Sendable>(
        files: [String], _ check: @escaping @Sendable () -> Result
    ) async -> Result? {
        guard reserve(for: files) else { return nil }
        let result = await withCheckedContinuation { continuation in
            startThread { continuation.resume(returning: check()) }
        }
        #if canImport(CAllocator)
            flow_allocator_prefer_ordinary_pages()
        #endif
        return result
    }

    /// Whether large pages were reserved for checking `files` (only when they are large).
    private static func reserve(for files: [String]) -> Bool {
        #if canImport(CAllocator)
            let total = files.reduce(0) { $0 + size(of: $1) }
            return total >= threshold && flow_allocator_prefer_large_pages(min(total * bytesPerByte, largest))
        #else
            return false
        #endif
    }

    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = stackSize
        thread.start()
    }

    /// The size of a regular file at `path`; 0 for anything else (the check reports what it cannot read).
    private static func size(of path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(status.st_size)
    }
}
