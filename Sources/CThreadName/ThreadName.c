// See CThreadName.h: names the calling thread for the system (prctl and pthread_setname_np are not
// callable from Swift on Linux: one is variadic, the other needs _GNU_SOURCE).
#define _GNU_SOURCE
#include "CThreadName.h"
#include <pthread.h>

void flow_name_this_thread(const char *name) {
#if defined(__APPLE__)
    pthread_setname_np(name);
#else
    pthread_setname_np(pthread_self(), name);
#endif
}
