import CHeapShim
import Foundation

/// The heap `flow validate` fills, on transparent huge pages where the system gives them on
/// request (THP mode `madvise`): checking a 10,000-step file fills some 30 MiB of heap, and
/// faulting it in 4 KiB at a time was about 8,800 page faults, a sixth of the command's time
/// (BENCHMARKS.md, Validate, round nine).
enum HugePageHeap {
    /// Heap bytes the check of a workflow takes per byte of its file (about 30 MiB for the
    /// 0.9 MiB 10,000-step file, 12 MiB for the 0.45 MiB layered one, beyond start-up).
    static let bytesPerFileByte = 32

    /// Prepares the calling thread's arena for checking `files`: one growth of about what their
    /// check will take (at most 31 MiB), advised for huge pages. Files under 128 KiB in all are
    /// left alone (`flow_heap_reserve_huge_pages` takes 4 MiB and up).
    static func prepare(forChecking files: [String]) {
        var total = 0
        for file in files {
            var info = stat()
            if stat(file, &info) == 0 { total += Int(info.st_size) }
        }
        // Bounded before multiplying: a path may name a file far larger than flow reads.
        let wanted = min(total, (31 << 20) / bytesPerFileByte) * bytesPerFileByte
        var start: UInt = 0
        _ = flow_heap_reserve_huge_pages(wanted, &start)
    }
}
