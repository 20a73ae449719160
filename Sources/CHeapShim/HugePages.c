// See CHeapShim.h: one arena growth, advised for huge pages before it is touched.
#include "CHeapShim.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__linux__)
/// Whether /sys says THP is on for advised memory only ("always [madvise] never").
static int thp_mode_is_madvise(void) {
    int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[128];
    ssize_t length = read(fd, text, sizeof text - 1);
    close(fd);
    if (length <= 0) return 0;
    text[length] = 0;
    return strstr(text, "[madvise]") != NULL;
}

size_t flow_heap_reserve_huge_pages(size_t bytes, uintptr_t *start) {
    *start = 0;
    const size_t huge = 2u << 20;
    if (bytes < 2 * huge || bytes > (31u << 20) || !thp_mode_is_madvise()) return 0;
    // A block this large is mmapped; freeing it raises glibc's dynamic mmap threshold to its size
    // (up to 32 MiB, `DEFAULT_MMAP_THRESHOLD_MAX`).
    void *mapped = malloc(bytes + 65536);
    if (mapped == NULL) return 0;
    // Seen by the compiler as used: clang otherwise removes a malloc and free of a block never read.
    __asm__ volatile("" : : "r"(mapped) : "memory");
    free(mapped);
    // Now a block of `bytes` comes from the arena, which grows by it at once; only its first and
    // last pages have been written (malloc's headers).
    char *block = malloc(bytes);
    if (block == NULL) return 0;
    uintptr_t first = ((uintptr_t)block + huge - 1) & ~(uintptr_t)(huge - 1);
    uintptr_t end = ((uintptr_t)block + bytes) & ~(uintptr_t)(huge - 1);
    size_t length = 0;
    if (end > first && madvise((void *)first, end - first, MADV_HUGEPAGE) == 0) {
        *start = first;
        length = end - first;
    }
    // Back to the arena's free top (under the raised trim threshold, so not given back): the
    // allocations that follow are carved from it.
    free(block);
    return length;
}
#else
// Transparent huge pages and glibc's thresholds are Linux's: elsewhere there is nothing to advise.
size_t flow_heap_reserve_huge_pages(size_t bytes, uintptr_t *start) {
    (void)bytes;
    *start = 0;
    return 0;
}
#endif
