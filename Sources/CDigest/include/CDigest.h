#ifndef FLOW_CDIGEST_H
#define FLOW_CDIGEST_H
// sha256, sha1 and md5 from the system's libcrypto (OpenSSL, already on every machine that has
// libcurl4-openssl-dev), behind functions of our own: OpenSSL 3 marks the one-shot-context
// functions deprecated, and a warning is an error in this package. The contexts are plain
// structs, so a Swift value holding one copies its state (a hash can be forked midway).
#include <stddef.h>
#include <stdint.h>
#include <openssl/sha.h>
#include <openssl/md5.h>

void flow_sha256_init(SHA256_CTX *context);
void flow_sha256_update(SHA256_CTX *context, const void *bytes, size_t count);
void flow_sha256_final(SHA256_CTX *context, unsigned char digest[32]);

void flow_sha1_init(SHA_CTX *context);
void flow_sha1_update(SHA_CTX *context, const void *bytes, size_t count);
void flow_sha1_final(SHA_CTX *context, unsigned char digest[20]);

void flow_md5_init(MD5_CTX *context);
void flow_md5_update(MD5_CTX *context, const void *bytes, size_t count);
void flow_md5_final(MD5_CTX *context, unsigned char digest[16]);

/// HMAC-SHA256 of `count` bytes under a key of `key_count` bytes (AWS Signature Version 4).
void flow_hmac_sha256(const void *key, size_t key_count, const void *bytes, size_t count, unsigned char digest[32]);

/// CRC-32C (Castagnoli) of `count` more bytes after `crc` (0 to start; the result is the final
/// checksum of everything so far, and the `crc` to pass with the next bytes): the SSE4.2 `crc32`
/// instruction when the CPU has it, otherwise slicing-by-8 in software.
uint32_t flow_crc32c_update(uint32_t crc, const void *bytes, size_t count);
/// The same, always in software (slicing-by-8), for tests comparing the two.
uint32_t flow_crc32c_software(uint32_t crc, const void *bytes, size_t count);

/// Initialises OpenSSL without its exit-time cleanup (`OPENSSL_INIT_NO_ATEXIT`), so that exit()
/// frees none of OpenSSL's global state under threads still using it. Has an effect only as the
/// process's first OpenSSL initialisation: CDigest runs it before main (OpenSSLExit.c); callers
/// that set OpenSSL up themselves (curl_global_init) call it first all the same.
void flow_openssl_keep_state_at_exit(void);

#endif
