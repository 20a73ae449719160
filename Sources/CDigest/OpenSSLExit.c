// See CDigest.h: OpenSSL is set up so that exit() leaves its state alone.
#include "CDigest.h"
#include <openssl/crypto.h>

void flow_openssl_keep_state_at_exit(void) { OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL); }

// Before main, so before any other use of OpenSSL in the process (curl_global_init, a digest, a
// FlowKit host's own calls): only the first initialisation decides whether OpenSSL registers
// OPENSSL_cleanup with atexit. That cleanup frees OpenSSL's global state (providers, locks,
// thread-local keys) while other threads may still be in it: exit() does not stop them. A run of
// HTTPS requests cancelled by Ctrl-C crashed (SIGSEGV) in curl's loop thread, still opening a TLS
// connection (SSL_CTX_new_ex) after the cleanup; Dispatch workers signing with HMAC can do the
// same. The process's memory goes back to the system at exit anyway; OpenSSL 4 no longer
// registers the handler at all.
__attribute__((constructor)) static void flow_openssl_keep_state_at_exit_before_main(void) {
    flow_openssl_keep_state_at_exit();
}
