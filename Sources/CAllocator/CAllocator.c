#include "CAllocator.h"

#include <mimalloc.h>

// A reference to mimalloc from an object file of the executable, so that a linker that drops
// unused libraries (`--as-needed`) keeps it: its `malloc` replaces glibc's only while it is loaded.
int flow_allocator_version(void) {
    return mi_version();
}
