// See CDigest.h: thin calls into libcrypto's digest functions.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "CDigest.h"

void flow_sha256_init(SHA256_CTX *context) { SHA256_Init(context); }
void flow_sha256_update(SHA256_CTX *context, const void *bytes, size_t count) { SHA256_Update(context, bytes, count); }
void flow_sha256_final(SHA256_CTX *context, unsigned char digest[32]) { SHA256_Final(digest, context); }

void flow_sha1_init(SHA_CTX *context) { SHA1_Init(context); }
void flow_sha1_update(SHA_CTX *context, const void *bytes, size_t count) { SHA1_Update(context, bytes, count); }
void flow_sha1_final(SHA_CTX *context, unsigned char digest[20]) { SHA1_Final(digest, context); }

void flow_md5_init(MD5_CTX *context) { MD5_Init(context); }
void flow_md5_update(MD5_CTX *context, const void *bytes, size_t count) { MD5_Update(context, bytes, count); }
void flow_md5_final(MD5_CTX *context, unsigned char digest[16]) { MD5_Final(digest, context); }

#include <openssl/evp.h>
#include <openssl/hmac.h>

void flow_hmac_sha256(const void *key, size_t key_count, const void *bytes, size_t count, unsigned char digest[32]) {
    unsigned int length = 32;
    // HMAC() reads nothing from an empty key or message, but wants a pointer all the same (Swift
    // hands NULL for an empty array).
    static const unsigned char nothing = 0;
    HMAC(EVP_sha256(), key_count ? key : &nothing, (int)key_count, count ? bytes : &nothing, count, digest, &length);
}

// CRC-32C (Castagnoli), reflected, polynomial 0x82F63B78: the x86-64 SSE4.2 `crc32` instruction
// when the CPU has it (checked once at run time), else slicing-by-8 tables (8 bytes a step).
#include <pthread.h>
#include <stdint.h>
#include <string.h>

static uint32_t flow_crc32c_table[8][256];

static void flow_crc32c_make_table(void) {
    for (uint32_t index = 0; index < 256; index++) {
        uint32_t crc = index;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        flow_crc32c_table[0][index] = crc;
    }
    for (uint32_t index = 0; index < 256; index++) {
        uint32_t crc = flow_crc32c_table[0][index];
        for (int slice = 1; slice < 8; slice++) {
            crc = flow_crc32c_table[0][crc & 0xFF] ^ (crc >> 8);
            flow_crc32c_table[slice][index] = crc;
        }
    }
}

uint32_t flow_crc32c_software(uint32_t crc, const void *bytes, size_t count) {
    // Once, whichever thread comes first; the others wait for it (two threads writing the table at
    // once would write the same values, but that is still a data race).
    static pthread_once_t made = PTHREAD_ONCE_INIT;
    pthread_once(&made, flow_crc32c_make_table);
    const unsigned char *next = bytes;
    crc = ~crc;
    while (count > 0 && ((uintptr_t)next & 7) != 0) {
        crc = flow_crc32c_table[0][(crc ^ *next++) & 0xFF] ^ (crc >> 8);
        count--;
    }
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, next, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        word ^= crc;
        crc = flow_crc32c_table[7][word & 0xFF] ^ flow_crc32c_table[6][(word >> 8) & 0xFF]
            ^ flow_crc32c_table[5][(word >> 16) & 0xFF] ^ flow_crc32c_table[4][(word >> 24) & 0xFF]
            ^ flow_crc32c_table[3][(word >> 32) & 0xFF] ^ flow_crc32c_table[2][(word >> 40) & 0xFF]
            ^ flow_crc32c_table[1][(word >> 48) & 0xFF] ^ flow_crc32c_table[0][word >> 56];
        next += 8;
        count -= 8;
    }
    while (count > 0) {
        crc = flow_crc32c_table[0][(crc ^ *next++) & 0xFF] ^ (crc >> 8);
        count--;
    }
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t flow_crc32c_sse42(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *next = bytes;
    uint64_t state = ~crc;
    while (count > 0 && ((uintptr_t)next & 7) != 0) {
        state = __builtin_ia32_crc32qi((uint32_t)state, *next++);
        count--;
    }
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, next, 8);
        state = __builtin_ia32_crc32di(state, word);
        next += 8;
        count -= 8;
    }
    while (count > 0) {
        state = __builtin_ia32_crc32qi((uint32_t)state, *next++);
        count--;
    }
    return ~(uint32_t)state;
}
#endif

uint32_t flow_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
#if defined(__x86_64__)
    static int hardware = -1;
    int known = __atomic_load_n(&hardware, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("sse4.2") ? 1 : 0;
        __atomic_store_n(&hardware, known, __ATOMIC_RELAXED);
    }
    if (known) return flow_crc32c_sse42(crc, bytes, count);
#endif
    return flow_crc32c_software(crc, bytes, count);
}
