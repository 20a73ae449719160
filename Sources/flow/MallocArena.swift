#if os(Linux)
    /// glibc's `mallopt(3)`, which Swift's Glibc module does not import (`malloc.h` is not in it).
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

    /// `M_ARENA_MAX` in glibc's `malloc.h`.
    private let mallocArenaMax: Int32 = -8
#endif

/// How the process's allocator is set up before any work starts.
enum MallocArena {
    /// Makes every thread allocate from glibc's main arena.
    ///
    /// By default each Dispatch worker thread that allocates gets an arena of its own, and glibc
    /// grows such an arena one `mprotect` call at a time, page by page: a `flow run` of the
    /// 10,000-step DAG made 3,839 `mprotect` calls and `flow validate` of it 1,706 (5–6% of their
    /// CPU), where the main arena grows by `brk` with 128 KiB to spare (72 and 69 calls with one
    /// arena). Each thread keeps its own cache of small blocks (tcache), so threads meet on the
    /// arena's lock only past it (issue 32). Must run before a second thread allocates: glibc
    /// fixes its arena limit the first time a thread needs an arena.
    static func shareOne() {
        #if os(Linux)
            _ = glibcMallopt(mallocArenaMax, 1)
        #endif
    }
}
