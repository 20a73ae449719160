// Loaded with LD_PRELOAD by EndToEndTests' OpenSSLExitTests: stands in for libcrypto's
// OPENSSL_cleanup, appends "cleanup" to the file $OPENSSL_CLEANUP_SPY names, then runs the real one.
// OpenSSL registers the function with atexit unless initialised with OPENSSL_INIT_NO_ATEXIT, and
// takes its address through the GOT, so a process's exit comes here when it would clean up.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

void OPENSSL_cleanup(void) {
    const char *path = getenv("OPENSSL_CLEANUP_SPY");
    if (path != NULL) {
        int descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (descriptor >= 0) {
            (void)!write(descriptor, "cleanup\n", 8);
            close(descriptor);
        }
    }
    void (*real)(void) = (void (*)(void))dlsym(RTLD_NEXT, "OPENSSL_cleanup");
    if (real != NULL) real();
}
