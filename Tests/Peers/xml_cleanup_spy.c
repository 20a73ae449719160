// Loaded with LD_PRELOAD by EndToEndTests' LibXMLExitTests: stands in for libc's
// pthread_key_delete and appends the path of the library that called it to the file
// $XML_CLEANUP_SPY names, then runs the real one. libxml2's exit-time cleanup (xmlCleanupParser,
// run by its ELF destructor) deletes its per-thread key; its own calls to xmlCleanupParser do not
// go through the PLT, this one does, so a process's exit shows up here as a line naming libxml2.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pthread_key_delete(pthread_key_t key) {
    const char *path = getenv("XML_CLEANUP_SPY");
    Dl_info caller;
    if (path != NULL && dladdr(__builtin_return_address(0), &caller) != 0 && caller.dli_fname != NULL) {
        int descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (descriptor >= 0) {
            (void)!write(descriptor, caller.dli_fname, strlen(caller.dli_fname));
            (void)!write(descriptor, "\n", 1);
            close(descriptor);
        }
    }
    int (*real)(pthread_key_t) = (int (*)(pthread_key_t))dlsym(RTLD_NEXT, "pthread_key_delete");
    return real != NULL ? real(key) : 0;
}
