#ifndef FLOW_CHEAP_SHIM_PUBLIC_H
#define FLOW_CHEAP_SHIM_PUBLIC_H

// Transparent huge pages for the heap a short command is about to fill (issue 32): glibc's own
// switch for it (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) is read only from the environment at
// start-up, and `mallopt` is not visible through Swift's Glibc module.

#include <stddef.h>
#include <stdint.h>

/// Makes about `bytes` of the calling thread's malloc arena, grown in one piece, eligible for
/// transparent huge pages (`madvise(MADV_HUGEPAGE)`) before any of it is touched, so that the
/// allocations filling it take one page fault per 2 MiB rather than one per 4 KiB. Does nothing
/// (returns 0) unless the system's THP mode is `madvise` (with `always` the heap already is; with
/// `never` nothing would be), or when `bytes` is under 4 MiB or over 31 MiB (glibc's largest
/// dynamic mmap threshold is 32 MiB, which bounds what the arena grows by at once). Returns the advised
/// length and stores its start in `*start`.
///
/// Side effect, the way it works: glibc raises its mmap threshold to `bytes` (and its trim
/// threshold to twice that) when an mmapped block of that size is freed, so a block of `bytes` is
/// then carved from the arena in one `brk`. Meant for commands that load and exit (`flow validate`),
/// not for long runs whose arenas should keep trimming.
size_t flow_heap_reserve_huge_pages(size_t bytes, uintptr_t *start);

#endif
