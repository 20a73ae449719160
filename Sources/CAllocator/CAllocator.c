#include "CAllocator.h"

#include <mimalloc.h>

// A reference to mimalloc from an object file of the executable, so that a linker that drops
// unused libraries (`--as-needed`) keeps it: its `malloc` replaces glibc's only while it is loaded.
int flow_allocator_version(void) {
    return mi_version();
}

// mimalloc's settings before `flow_allocator_prefer_large_pages`, for `..._ordinary_pages`.
static bool ordinary_large_os_pages;
static long ordinary_eager_commit_delay;

bool flow_allocator_prefer_large_pages(size_t bytes) {
    ordinary_large_os_pages = mi_option_is_enabled(mi_option_large_os_pages);
    ordinary_eager_commit_delay = mi_option_get(mi_option_eager_commit_delay);
    // The option is read each time mimalloc maps memory, so it applies to the reservation and to
    // every segment after it (mimalloc's os.c: `madvise(MADV_HUGEPAGE)` where MAP_HUGETLB fails).
    mi_option_enable(mi_option_large_os_pages);
    // A thread's first segment is otherwise committed lazily and never from large pages.
    mi_option_set(mi_option_eager_commit_delay, 0);
    // Committed, because mimalloc maps large pages only for committed memory; committing maps the
    // range readable and writable, and the kernel still makes resident only what is touched.
    return mi_reserve_os_memory(bytes, true, true) == 0;
}

void flow_allocator_prefer_ordinary_pages(void) {
    mi_option_set_enabled(mi_option_large_os_pages, ordinary_large_os_pages);
    mi_option_set(mi_option_eager_commit_delay, ordinary_eager_commit_delay);
}
