/*
 * test_openssl_native.c - the openssl backend's two AES-GCM-SIV and two
 * Argon2 implementations held to the same bytes (issue #27): ours (POLYVAL
 * on OpenSSL's AES) against OpenSSL 3.2+'s own GCM-SIV cipher, and libargon2
 * against OpenSSL 3.2+'s own Argon2 KDFs. The backend chooses once, at init,
 * as WEBCRYPTO_OPENSSL_GCM_SIV / WEBCRYPTO_OPENSSL_ARGON2 force it, so each
 * side runs in a child process of its own with the variable set; the
 * children write their outputs to a pipe and this process compares them.
 * Registered to run on OpenSSL 3.5 (tests/openssl35.cmake), where OpenSSL's
 * side must be there: its absence fails. A build without libargon2 skips
 * the Argon2 half, saying so. With --openssl-absent (on OpenSSL 3.0) it
 * checks instead that forcing OpenSSL's offers nothing there.
 *
 * Inputs: from a fixed seed, random keys, nonces and AAD, message sizes
 * around the block and batch edges up to 200 KB; each child checks that it
 * opens its own output and refuses it with one bit changed, and that
 * sealing in place gives the same bytes. Argon2: the three types with
 * password, nonce, secret, associated data, lanes, memory, passes and
 * output length varied.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, fork, pipe */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "webcrypto.h"

#define NOT_OFFERED 3 /* a child's exit code: the forced implementation is not there */

static uint64_t seed;

static uint64_t next(void) { /* splitmix64 */
    uint64_t z = (seed += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)next();
}

/* ---- a child's side: records written to fd ---- */

static int out_fd;

static void record(const void *p, size_t n) {
    uint32_t len = (uint32_t)n;
    const uint8_t *b = p;
    if (write(out_fd, &len, sizeof len) != (ssize_t)sizeof len) exit(1);
    while (n > 0) {
        ssize_t w = write(out_fd, b, n);
        if (w <= 0) exit(1);
        b += w;
        n -= (size_t)w;
    }
}

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "  %s: ", getenv("WC_SIDE"));                                      \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, " (%s: %s)\n", webcrypto_status_name(st),                        \
                    webcrypto_error_message());                                                \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const size_t siv_sizes[] = {0,    1,    15,   16,   17,   31,   32,   33,    63,
                                   64,   65,   100,  255,  256,  257,  1000, 1024,  4095,
                                   4096, 4097, 8191, 8208, 65535, 65536, 65537, 200003};

static void siv_side(const webcrypto_backend *b) {
    seed = 8452;
    const size_t max = 200003 + 16;
    uint8_t *pt = malloc(max), *ct = malloc(max), *back = malloc(max), *aad = malloc(5000);
    if (!pt || !ct || !back || !aad) exit(1);
    webcrypto_status st = WEBCRYPTO_OK;
    for (size_t i = 0; i < 3 * sizeof siv_sizes / sizeof siv_sizes[0]; i++) {
        size_t len = siv_sizes[i % (sizeof siv_sizes / sizeof siv_sizes[0])];
        size_t key_len = next() & 1 ? 32 : 16;
        static const size_t aad_pick[] = {0, 1, 12, 16, 17, 64, 4999};
        size_t aad_len = i % 4 == 3 ? next() % 300 : aad_pick[next() % 7];
        uint8_t key[32], nonce[12];
        fill(key, key_len);
        fill(nonce, 12);
        fill(aad, aad_len);
        fill(pt, len);
        webcrypto_params kp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV);
        webcrypto_key *k = NULL;
        st = webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, key, key_len, &kp, false,
                                  WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k);
        CHECK(st == WEBCRYPTO_OK, "case %zu: importKey", i);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce,
                                              .iv_len = 12, .additional_data = aad,
                                              .additional_data_len = aad_len);
        size_t n = 0, m = 0;
        st = webcrypto_encrypt(&p, k, pt, len, ct, len + 16, &n);
        CHECK(st == WEBCRYPTO_OK && n == len + 16, "case %zu (%zu bytes): encrypt", i, len);
        record(ct, n); /* ciphertext || tag */
        st = webcrypto_decrypt(&p, k, ct, n, back, len, &m);
        CHECK(st == WEBCRYPTO_OK && m == len && memcmp(back, pt, len) == 0,
              "case %zu (%zu bytes): decrypt of its own output", i, len);
        record(back, m); /* the plaintext, as opened */
        memcpy(back, pt, len); /* in place */
        st = webcrypto_encrypt(&p, k, back, len, back, len + 16, &m);
        CHECK(st == WEBCRYPTO_OK && m == n && memcmp(back, ct, n) == 0,
              "case %zu (%zu bytes): encrypt in place", i, len);
        size_t bit = (size_t)(next() % (8 * n));
        ct[bit / 8] ^= (uint8_t)(1u << bit % 8);
        st = webcrypto_decrypt(&p, k, ct, n, back, len, &m);
        CHECK(st == WEBCRYPTO_ERR_OPERATION, "case %zu: decrypt with bit %zu changed", i, bit);
        webcrypto_key_free(k);
    }
    free(pt);
    free(ct);
    free(back);
    free(aad);
}

static void argon2_side(const webcrypto_backend *b) {
    seed = 9106;
    static const webcrypto_algorithm types[3] = {WEBCRYPTO_ALG_ARGON2D, WEBCRYPTO_ALG_ARGON2I,
                                                 WEBCRYPTO_ALG_ARGON2ID};
    webcrypto_status st = WEBCRYPTO_OK;
    for (size_t i = 0; i < 61; i++) {
        uint8_t pw[64], nonce[40], secret[32], ad[32], out[80];
        size_t pw_len = next() % 65, nonce_len = 8 + next() % 33;
        size_t secret_len = next() % 3 ? 0 : next() % 33, ad_len = next() % 3 ? 0 : next() % 33;
        uint32_t lanes = 1 + (uint32_t)(next() % 5);
        uint32_t memory = 8 * lanes + (uint32_t)(next() % 200), passes = 1 + (uint32_t)(next() % 3);
        size_t out_len = 4 + next() % 77;
        if (i == 60) { /* one larger: 4 MiB over 4 lanes, two passes */
            lanes = 4;
            memory = 4096;
            passes = 2;
        }
        fill(pw, pw_len);
        fill(nonce, nonce_len);
        fill(secret, secret_len);
        fill(ad, ad_len);
        webcrypto_algorithm alg = types[i % 3];
        webcrypto_params kp = WEBCRYPTO_PARAMS(.name = alg);
        webcrypto_key *k = NULL;
        st = webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SECRET, pw, pw_len, &kp, false,
                                  WEBCRYPTO_USAGE_DERIVE_BITS, &k);
        CHECK(st == WEBCRYPTO_OK, "case %zu: importKey (%zu-byte password)", i, pw_len);
        webcrypto_params p = WEBCRYPTO_PARAMS(
            .name = alg, .nonce = nonce, .nonce_len = nonce_len, .secret_value = secret,
            .secret_value_len = secret_len, .additional_data = ad, .additional_data_len = ad_len,
            .parallelism = lanes, .memory = memory, .passes = passes, .version = 0x13);
        size_t n = 0;
        st = webcrypto_derive_bits(&p, k, 8 * out_len, out, sizeof out, &n);
        CHECK(st == WEBCRYPTO_OK && n == out_len,
              "case %zu: deriveBits (p=%u m=%u t=%u, %zu bytes)", i, (unsigned)lanes,
              (unsigned)memory, (unsigned)passes, out_len);
        record(out, n);
        webcrypto_key_free(k);
    }
}

/* Runs one side in a child with var=value; returns its exit code (or -1),
 * its records in *buf. */
static int run_side(const char *var, const char *value, webcrypto_algorithm alg,
                    void (*side)(const webcrypto_backend *), uint8_t **buf, size_t *len) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        close(fds[0]);
        out_fd = fds[1];
        setenv(var, value, 1);
        setenv("WC_SIDE", value, 1);
        const webcrypto_backend *b = NULL;
        webcrypto_status st = webcrypto_backend_get("openssl", &b);
        CHECK(st == WEBCRYPTO_OK, "the openssl backend");
        printf("  %s=%s: %s\n", var, value, webcrypto_backend_description(b));
        if (!webcrypto_backend_supports(b, alg)) _exit(NOT_OFFERED);
        if (side) side(b);
        close(out_fd);
        exit(0);
    }
    close(fds[1]);
    size_t cap = 1 << 16;
    *len = 0;
    *buf = malloc(cap);
    for (;;) {
        if (*len == cap && !(*buf = realloc(*buf, cap *= 2))) abort();
        ssize_t r = read(fds[0], *buf + *len, cap - *len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        *len += (size_t)r;
    }
    close(fds[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

/* Compares the two sides' records; returns whether they agree. */
static bool same_records(const char *what, const uint8_t *a, size_t an, const uint8_t *b,
                         size_t bn) {
    size_t off = 0, rec = 0;
    while (off < an && off < bn) {
        uint32_t la, lb;
        memcpy(&la, a + off, 4);
        memcpy(&lb, b + off, 4);
        if (la != lb || off + 4 + la > an || off + 4 + lb > bn ||
            memcmp(a + off + 4, b + off + 4, la) != 0) {
            printf("FAIL: %s: record %zu differs (%u and %u bytes)\n", what, rec, la, lb);
            return false;
        }
        off += 4 + la;
        rec++;
    }
    if (an != bn) {
        printf("FAIL: %s: %zu and %zu bytes of records\n", what, an, bn);
        return false;
    }
    printf("%s: %zu records, %zu bytes, the same both ways\n", what, rec, an);
    return rec > 0;
}

/* With --openssl-absent (run on OpenSSL 3.0, which has neither): forcing
 * OpenSSL's must offer nothing, while ours is still offered. */
int main(int argc, char **argv) {
    bool absent = argc > 1 && strcmp(argv[1], "--openssl-absent") == 0;
    static const struct {
        const char *what, *var, *ours, *openssl;
        webcrypto_algorithm alg;
        void (*side)(const webcrypto_backend *);
        bool ours_optional; /* libargon2 is an optional dependency */
    } parts[] = {
        {"AES-GCM-SIV", "WEBCRYPTO_OPENSSL_GCM_SIV", "ours", "openssl", WEBCRYPTO_ALG_AES_GCM_SIV,
         siv_side, false},
        {"Argon2", "WEBCRYPTO_OPENSSL_ARGON2", "libargon2", "openssl", WEBCRYPTO_ALG_ARGON2ID,
         argon2_side, true},
    };
    int failed = 0, compared = 0;
    for (size_t i = 0; i < 2; i++) {
        uint8_t *a = NULL, *o = NULL;
        size_t an = 0, on = 0;
        printf("%s:\n", parts[i].what);
        if (absent) {
            int ro = run_side(parts[i].var, parts[i].openssl, parts[i].alg, NULL, &o, &on);
            int ra = run_side(parts[i].var, parts[i].ours, parts[i].alg, NULL, &a, &an);
            bool ok = ro == NOT_OFFERED &&
                      (ra == 0 || (ra == NOT_OFFERED && parts[i].ours_optional));
            printf("%s: %s=%s %s, %s=%s %s\n", ok ? "ok" : "FAIL", parts[i].var,
                   parts[i].openssl, ro == NOT_OFFERED ? "offers none" : "offers it",
                   parts[i].var, parts[i].ours, ra == 0 ? "offers it" : "offers none");
            failed += !ok;
            compared += ok;
            free(a);
            free(o);
            continue;
        }
        int ra = run_side(parts[i].var, parts[i].ours, parts[i].alg, parts[i].side, &a, &an);
        int ro = run_side(parts[i].var, parts[i].openssl, parts[i].alg, parts[i].side, &o, &on);
        if (ro == NOT_OFFERED) {
            printf("FAIL: %s: %s=%s offers none: OpenSSL's is missing or failed its probe\n",
                   parts[i].what, parts[i].var, parts[i].openssl);
            failed++;
        } else if (ra == NOT_OFFERED && parts[i].ours_optional) {
            printf("SKIP: %s: this build has no %s to compare OpenSSL's with\n", parts[i].what,
                   parts[i].ours);
        } else if (ra != 0 || ro != 0) {
            printf("FAIL: %s: the sides exited with %d (%s) and %d (%s)\n", parts[i].what, ra,
                   parts[i].ours, ro, parts[i].openssl);
            failed++;
        } else if (!same_records(parts[i].what, a, an, o, on)) {
            failed++;
        } else {
            compared++;
        }
        free(a);
        free(o);
    }
    if (failed) return 1;
    if (!compared) {
        printf("SKIP: nothing compared\n");
        return 77;
    }
    return 0;
}
