/*
 * bench/chunkput.c — the least a client can do to send a file in chunks: the same requests flow
 * sends, with libcurl, on one easy handle kept alive across them, nothing hashed. bench/chunkput.sh
 * builds it (cc against libcurl) and runs it beside flow on the same file and server (issue 32).
 *
 *   chunkput cr  URL FILE CHUNK   one PUT per chunk to URL with `Content-Range: bytes a-b/total`
 *   chunkput tus URL FILE CHUNK   `OPTIONS` to URL, the tus creation POST to URL (`Upload-Length`,
 *                                 `Upload-Metadata`), then one PATCH per chunk to its Location with
 *                                 `Upload-Offset: a` and `Upload-Checksum: sha256 …` (the sandbox
 *                                 offers the checksum extension, so flow sends it, and the server
 *                                 checks it: the same work on both sides of the wire)
 *
 * The same header lines as flow's requests (`Accept-Encoding`, a `User-Agent` as long), so the
 * server parses the same bytes. Each chunk is read with pread into one buffer and sent as the
 * request's body (no `Expect: 100-continue`, which would cost a round trip a chunk); a tus chunk
 * is hashed (SHA-256, libcrypto) for its checksum before it is sent. Prints `LOCATION=url` at the end (the
 * upload's URL, for the script's check of what the server stored); exits 1 at the first answer that
 * is not what the protocol says (2xx, or 308 for a Content-Range chunk before the last).
 */
#include <curl/curl.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The Location header of the last answer, kept by `header`. */
static char location[4096];

static size_t header(char *line, size_t size, size_t count, void *unused) {
    size_t length = size * count;
    (void)unused;
    if (length > 9 && strncasecmp(line, "location:", 9) == 0) {
        size_t start = 9;
        while (start < length && (line[start] == ' ' || line[start] == '\t')) start++;
        size_t end = length;
        while (end > start && (line[end - 1] == '\r' || line[end - 1] == '\n')) end--;
        if (end - start < sizeof location) {
            memcpy(location, line + start, end - start);
            location[end - start] = 0;
        }
    }
    return length;
}

/* Answers' bodies are small and not needed. */
static size_t discard(char *data, size_t size, size_t count, void *unused) {
    (void)data;
    (void)unused;
    return size * count;
}

/* Sends the request set up on `curl` and returns its status, or -1 when the transfer failed. */
static long perform(CURL *curl) {
    CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK) {
        fprintf(stderr, "chunkput: %s\n", curl_easy_strerror(code));
        return -1;
    }
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 5 || (strcmp(argv[1], "cr") != 0 && strcmp(argv[1], "tus") != 0)) {
        fprintf(stderr, "usage: chunkput cr|tus URL FILE CHUNK-BYTES\n");
        return 2;
    }
    int tus = strcmp(argv[1], "tus") == 0;
    const char *url = argv[2];
    long chunk = atol(argv[4]);
    int file = open(argv[3], O_RDONLY);
    struct stat status;
    if (file < 0 || fstat(file, &status) != 0 || chunk <= 0) {
        perror("chunkput");
        return 2;
    }
    long long total = status.st_size;
    char *buffer = malloc((size_t)chunk);
    if (buffer == NULL) return 2;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, header);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "flow (libcurl/7.88.1)");
    char target[4096];
    snprintf(target, sizeof target, "%s", url);

    if (tus) {
        /* Discovery, as flow asks it (flow sends it beside the creation; here before it). */
        struct curl_slist *resumable = curl_slist_append(NULL, "Tus-Resumable: 1.0.0");
        curl_easy_setopt(curl, CURLOPT_URL, url);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "OPTIONS");
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, resumable);
        long discovered = perform(curl);
        curl_slist_free_all(resumable);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, NULL);
        curl_easy_setopt(curl, CURLOPT_NOBODY, 0L);
        if (discovered < 200 || discovered > 299) {
            fprintf(stderr, "chunkput: OPTIONS answered %ld\n", discovered);
            return 1;
        }
        char length[64];
        snprintf(length, sizeof length, "Upload-Length: %lld", total);
        struct curl_slist *headers = NULL;
        headers = curl_slist_append(headers, "Tus-Resumable: 1.0.0");
        headers = curl_slist_append(headers, length);
        headers = curl_slist_append(headers, "Upload-Metadata: filename ZGF0YS5iaW4=,filetype YXBwbGljYXRpb24vb2N0ZXQtc3RyZWFt");
        headers = curl_slist_append(headers, "Content-Type:"); /* flow's empty POST sends none */
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        long answer = perform(curl);
        curl_slist_free_all(headers);
        if (answer != 201 || location[0] == 0) {
            fprintf(stderr, "chunkput: the creation POST answered %ld\n", answer);
            return 1;
        }
        if (strncmp(location, "http", 4) == 0) {
            snprintf(target, sizeof target, "%s", location);
        } else {
            /* A path: on the creation URL's origin. */
            const char *path = strchr(url + strlen("http://"), '/');
            size_t origin = path ? (size_t)(path - url) : strlen(url);
            size_t rest = strlen(location);
            if (origin + rest >= sizeof target) return 2;
            memcpy(target, url, origin);
            memcpy(target + origin, location, rest + 1);
        }
    }

    curl_easy_setopt(curl, CURLOPT_URL, target);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, tus ? "PATCH" : "PUT");
    for (long long offset = 0; offset < total; offset += chunk) {
        long long count = total - offset < chunk ? total - offset : chunk;
        ssize_t got = pread(file, buffer, (size_t)count, (off_t)offset);
        if (got != count) {
            perror("chunkput: pread");
            return 1;
        }
        char line[128];
        struct curl_slist *headers = NULL;
        if (tus) {
            unsigned char digest[SHA256_DIGEST_LENGTH];
            char checksum[128] = "Upload-Checksum: sha256 ";
            SHA256((const unsigned char *)buffer, (size_t)count, digest);
            EVP_EncodeBlock((unsigned char *)checksum + strlen(checksum), digest, SHA256_DIGEST_LENGTH);
            snprintf(line, sizeof line, "Upload-Offset: %lld", offset);
            headers = curl_slist_append(headers, "Tus-Resumable: 1.0.0");
            headers = curl_slist_append(headers, line);
            headers = curl_slist_append(headers, "Content-Type: application/offset+octet-stream");
            headers = curl_slist_append(headers, checksum);
        } else {
            snprintf(line, sizeof line, "Content-Range: bytes %lld-%lld/%lld", offset, offset + count - 1, total);
            headers = curl_slist_append(headers, line);
        }
        headers = curl_slist_append(headers, "Expect:");
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, buffer);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)count);
        long answer = perform(curl);
        curl_slist_free_all(headers);
        int last = offset + count >= total;
        int fine = tus ? answer == 204 : (answer >= 200 && answer < 300) || (!last && answer == 308);
        if (!fine) {
            fprintf(stderr, "chunkput: the chunk at %lld answered %ld\n", offset, answer);
            return 1;
        }
    }
    printf("LOCATION=%s\n", target);
    curl_easy_cleanup(curl);
    curl_global_cleanup();
    free(buffer);
    close(file);
    return 0;
}
