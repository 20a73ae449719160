#ifndef FLOW_CALLOCATOR_H
#define FLOW_CALLOCATOR_H
// The `flow` executable's memory allocator: mimalloc (Debian's libmimalloc-dev), linked into the
// executable so that it replaces glibc's malloc for the whole process. Why: see "Dependencies" in
// README.md and BENCHMARKS.md, "Issue 32, round eight". Linking this target is what puts mimalloc
// in the process; `flow validate` also asks it for large pages before checking large files.

#include <stdbool.h>
#include <stddef.h>

/// mimalloc's version as it reports it (for example 209 for 2.0.9): 0 is never returned.
int flow_allocator_version(void);

/// From now on, backs the memory mimalloc takes from the system with 2 MiB pages where the system
/// allows it (transparent huge pages in `madvise` mode), and reserves `bytes` of such memory at
/// once: what is built next is faulted in 2 MiB at a time instead of 4 KiB. The reservation is
/// address space; only the pages touched become resident. For the rest of the process: call it
/// only where the process ends soon after (a command that checks and exits). False when the
/// reservation could not be made (the allocator then goes on as before).
bool flow_allocator_prefer_large_pages(size_t bytes);

/// Undoes `flow_allocator_prefer_large_pages` for what is mapped from now on (the reservation
/// stays, with whatever was built in it): for a process that goes on, such as `flow run` after
/// checking its file, whose memory bounds were measured with ordinary pages.
void flow_allocator_prefer_ordinary_pages(void);

#endif
