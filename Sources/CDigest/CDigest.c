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
