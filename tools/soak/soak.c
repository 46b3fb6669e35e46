/*
 * webcrypto-soak: runs every algorithm a backend supports, on inputs from 0
 * bytes to 16 MiB, on several threads for a given time, and checks each
 * result against a reference backend (openssl; boringssl for openssl itself),
 * never the backend under test - or by a round trip where the
 * operation is randomised - while it reports the process's resident memory.
 * Exits 0 if every check passed, 1 on any mismatch or error (a crash exits
 * non-zero by itself), 77 if the backend cannot start here. Not run in CI;
 * a 5-second form is in the test suite (tests/soak.cmake). See docs/JCA.md.
 *
 *   webcrypto-soak [--backend NAME] [--reference NAME] [--seconds N]
 *                  [--threads N] [--max-size BYTES] [--report SECONDS] [--seed N]
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "webcrypto.h"

#define MIB (1024u * 1024u)

typedef struct options {
    const char *backend, *reference;
    double seconds, report;
    int threads;
    size_t max_size;
    uint64_t seed;
} options;

static options opt;
static const webcrypto_backend *be, *ref;
static atomic_bool stop_flag;
static atomic_int failures;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

/* The kinds of operation, with per-kind counters for the report. */
enum {
    K_DIGEST, K_DIGEST_STREAM, K_HMAC, K_HMAC_STREAM, K_CBC, K_CTR, K_CIPHER_STREAM, K_GCM,
    K_GCM_SIV, K_HKDF, K_PBKDF2, K_RANDOM, K_GENERATE, K_COUNT
};
static const char *const kind_name[K_COUNT] = {
    "digest", "digest-stream", "hmac", "hmac-stream", "aes-cbc", "aes-ctr", "cipher-stream",
    "aes-gcm", "aes-gcm-siv", "hkdf", "pbkdf2", "random", "generate"};
static atomic_ullong kind_count[K_COUNT];
static atomic_ullong bytes_done;

typedef struct worker {
    int index;
    uint64_t rng;
    uint8_t *in, *out, *ref_out, *back;
    size_t cap; /* of each buffer */
    /* What the current operation is, for a failure's message. */
    char what[256];
} worker;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* VmRSS and VmHWM from /proc/self/status, in KiB (0 if unreadable). */
static void read_rss(long *rss, long *hwm) {
    *rss = *hwm = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmRSS:", 6) == 0) *rss = strtol(line + 6, NULL, 10);
        else if (strncmp(line, "VmHWM:", 6) == 0) *hwm = strtol(line + 6, NULL, 10);
    }
    fclose(f);
}

static void fail(worker *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void fail(worker *w, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&fail_lock);
    fprintf(stderr, "FAIL [thread %d] %s: %s\n", w->index, w->what, msg);
    fflush(stderr);
    pthread_mutex_unlock(&fail_lock);
    atomic_fetch_add(&failures, 1);
    atomic_store(&stop_flag, true);
}

/* A libwebcrypto call that must succeed; false (after reporting) if not. */
static bool ok(worker *w, webcrypto_status st, const char *call) {
    if (st == WEBCRYPTO_OK) return true;
    fail(w, "%s: %s: %s", call, webcrypto_status_name(st), webcrypto_error_message());
    return false;
}

static bool same(worker *w, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                 const char *what) {
    if (an == bn && (an == 0 || memcmp(a, b, an) == 0)) return true;
    size_t i = 0;
    while (i < an && i < bn && a[i] == b[i]) i++;
    fail(w, "%s differs: %zu bytes against %zu, first difference at byte %zu", what, an, bn, i);
    return false;
}

/* ---- random choices (xorshift64*; seeded per thread, reproducible) ---- */
static uint64_t rnd(worker *w) {
    uint64_t x = w->rng;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    w->rng = x;
    return x * UINT64_C(2685821657736338717);
}
static size_t below(worker *w, size_t n) { return n ? (size_t)(rnd(w) % n) : 0; }
static size_t between(worker *w, size_t lo, size_t hi) { return lo + below(w, hi - lo + 1); }
static void fill(worker *w, uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(rnd(w) >> 32);
}

/* An input length: mostly small, sometimes large, now and then an edge
 * (0, around a block, the maximum). */
static size_t pick_len(worker *w) {
    size_t r = below(w, 1000), max = opt.max_size;
    size_t n;
    if (r < 40) {
        static const size_t edges[] = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 4096};
        n = edges[below(w, sizeof edges / sizeof *edges)];
    } else if (r < 45) {
        n = max;
    } else if (r < 600) {
        n = below(w, 257);
    } else if (r < 850) {
        n = between(w, 257, 64 * 1024);
    } else if (r < 970) {
        n = between(w, 64 * 1024, MIB);
    } else {
        n = between(w, MIB, max);
    }
    return n > max ? max : n;
}

/* The input: a random offset into the thread's random buffer (so alignment
 * varies), with a few bytes changed each time. */
static const uint8_t *pick_input(worker *w, size_t len) {
    uint8_t *p = w->in + below(w, 16);
    for (int i = 0; i < 8 && len; i++) p[below(w, len)] = (uint8_t)rnd(w);
    return p;
}

static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                             WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
static webcrypto_algorithm pick_hash(worker *w) { return hashes[below(w, 4)]; }

static bool supported(webcrypto_algorithm a) {
    return webcrypto_backend_supports(be, a) && webcrypto_backend_supports(ref, a);
}

/* Imports the same raw key into the backend and the reference. */
static bool import_pair(worker *w, const webcrypto_params *p, const uint8_t *k, size_t klen,
                        bool extractable, unsigned usages, webcrypto_key **kb,
                        webcrypto_key **kr) {
    *kb = *kr = NULL;
    if (!ok(w, webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, klen, p, extractable, usages, kb),
            "import_key (backend)"))
        return false;
    if (!ok(w, webcrypto_import_key(ref, WEBCRYPTO_FORMAT_RAW, k, klen, p, extractable, usages,
                                    kr), "import_key (reference)")) {
        webcrypto_key_free(*kb);
        *kb = NULL;
        return false;
    }
    return true;
}

/* ---- the operations ---- */
static void op_digest(worker *w, bool stream) {
    webcrypto_algorithm h = pick_hash(w);
    size_t len = pick_len(w), n = 0, rn = 0;
    const uint8_t *in = pick_input(w, len);
    snprintf(w->what, sizeof w->what, "%s %s, %zu bytes", stream ? "streamed digest" : "digest",
             webcrypto_algorithm_name(h), len);
    if (!ok(w, webcrypto_digest(ref, h, in, len, w->ref_out, 64, &rn), "digest (reference)"))
        return;
    if (!stream) {
        if (!ok(w, webcrypto_digest(be, h, in, len, w->out, 64, &n), "digest")) return;
    } else {
        webcrypto_digest_ctx *ctx = NULL;
        if (!ok(w, webcrypto_digest_init(be, h, &ctx), "digest_init")) return;
        for (size_t pos = 0; pos < len;) {
            size_t chunk = between(w, 0, len - pos < 100000 ? len - pos : 100000);
            if (!ok(w, webcrypto_digest_update(ctx, in + pos, chunk), "digest_update")) {
                webcrypto_digest_ctx_free(ctx);
                return;
            }
            pos += chunk;
        }
        webcrypto_status st = webcrypto_digest_final(ctx, w->out, 64, &n);
        webcrypto_digest_ctx_free(ctx);
        if (!ok(w, st, "digest_final")) return;
    }
    if (same(w, w->out, n, w->ref_out, rn, "digest")) atomic_fetch_add(&bytes_done, len);
}

static void op_hmac(worker *w, bool stream) {
    webcrypto_algorithm h = pick_hash(w);
    uint8_t k[200];
    size_t klen = between(w, 1, sizeof k), len = pick_len(w), n = 0, rn = 0;
    fill(w, k, klen);
    const uint8_t *in = pick_input(w, len);
    snprintf(w->what, sizeof w->what, "%s HMAC-%s, key %zu bytes, %zu bytes",
             stream ? "streamed" : "one-shot", webcrypto_algorithm_name(h), klen, len);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = h);
    webcrypto_key *kb, *kr;
    if (!import_pair(w, &p, k, klen, false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &kb,
                     &kr))
        return;
    webcrypto_params sp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    if (!ok(w, webcrypto_sign(&sp, kr, in, len, w->ref_out, 64, &rn), "sign (reference)"))
        goto done;
    if (!stream) {
        if (!ok(w, webcrypto_sign(&sp, kb, in, len, w->out, 64, &n), "sign")) goto done;
    } else {
        webcrypto_sign_ctx *ctx = NULL;
        if (!ok(w, webcrypto_sign_init(&sp, kb, &ctx), "sign_init")) goto done;
        for (size_t pos = 0; pos < len;) {
            size_t chunk = between(w, 0, len - pos < 100000 ? len - pos : 100000);
            if (!ok(w, webcrypto_sign_update(ctx, in + pos, chunk), "sign_update")) {
                webcrypto_sign_ctx_free(ctx);
                goto done;
            }
            pos += chunk;
        }
        webcrypto_status st = webcrypto_sign_final(ctx, w->out, 64, &n);
        webcrypto_sign_ctx_free(ctx);
        if (!ok(w, st, "sign_final")) goto done;
    }
    if (!same(w, w->out, n, w->ref_out, rn, "HMAC")) goto done;
    /* verify: the right MAC, then one with a bit flipped. */
    bool valid = false;
    if (!ok(w, webcrypto_verify(&sp, kb, w->ref_out, rn, in, len, &valid), "verify")) goto done;
    if (!valid) {
        fail(w, "verify rejected the right MAC");
        goto done;
    }
    w->ref_out[below(w, rn)] ^= (uint8_t)(1u << below(w, 8));
    if (!ok(w, webcrypto_verify(&sp, kb, w->ref_out, rn, in, len, &valid), "verify")) goto done;
    if (valid) {
        fail(w, "verify accepted a wrong MAC");
        goto done;
    }
    atomic_fetch_add(&bytes_done, len);
done:
    webcrypto_key_free(kb);
    webcrypto_key_free(kr);
}

/* AES-CBC or AES-CTR, one-shot: encryption equals the reference's, and
 * decryption gives the input back. */
static void op_cbc_ctr(worker *w, webcrypto_algorithm alg) {
    static const size_t klens[] = {16, 24, 32};
    uint8_t k[32], iv[16];
    size_t klen = klens[below(w, 3)], len = pick_len(w), n = 0, rn = 0, bn = 0;
    fill(w, k, klen);
    fill(w, iv, 16);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    if (alg == WEBCRYPTO_ALG_AES_CBC) {
        p.iv = iv, p.iv_len = 16;
    } else {
        static const size_t bits[] = {128, 64, 32, 8};
        p.counter = iv, p.counter_len = 16;
        p.length = below(w, 4) ? bits[below(w, 4)] : between(w, 1, 128);
        /* At most 2^length blocks under one counter (the core refuses more). */
        if (p.length < 30 && len > ((size_t)16 << p.length)) len = (size_t)16 << p.length;
    }
    const uint8_t *in = pick_input(w, len);
    snprintf(w->what, sizeof w->what, "%s-%zu, %zu bytes%s%zu", webcrypto_algorithm_name(alg),
             klen * 8, len, alg == WEBCRYPTO_ALG_AES_CTR ? ", counter bits " : "",
             alg == WEBCRYPTO_ALG_AES_CTR ? p.length : (size_t)0);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *kb, *kr;
    if (!import_pair(w, &kp, k, klen, false, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                     &kb, &kr))
        return;
    if (ok(w, webcrypto_encrypt(&p, kr, in, len, w->ref_out, w->cap, &rn), "encrypt (reference)") &&
        ok(w, webcrypto_encrypt(&p, kb, in, len, w->out, w->cap, &n), "encrypt") &&
        same(w, w->out, n, w->ref_out, rn, "ciphertext") &&
        ok(w, webcrypto_decrypt(&p, kb, w->out, n, w->back, w->cap, &bn), "decrypt") &&
        same(w, w->back, bn, in, len, "decryption"))
        atomic_fetch_add(&bytes_done, len);
    webcrypto_key_free(kb);
    webcrypto_key_free(kr);
}

/* Streamed CBC or CTR on the backend, in random pieces, against the
 * reference's one-shot result; then streamed decryption. */
static void op_cipher_stream(worker *w) {
    webcrypto_algorithm alg = below(w, 2) ? WEBCRYPTO_ALG_AES_CBC : WEBCRYPTO_ALG_AES_CTR;
    if (!supported(alg)) return;
    uint8_t k[32], iv[16];
    size_t klen = 16 + 8 * below(w, 3), len = pick_len(w), rn = 0;
    fill(w, k, klen);
    fill(w, iv, 16);
    memset(iv, 0, 4); /* CTR: keep clear of the 2^length limit with length 96 */
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .iv = iv, .iv_len = 16, .counter = iv, .counter_len = 16,
                                          .length = alg == WEBCRYPTO_ALG_AES_CTR ? 96 : 0);
    const uint8_t *in = pick_input(w, len);
    snprintf(w->what, sizeof w->what, "streamed %s-%zu, %zu bytes", webcrypto_algorithm_name(alg),
             klen * 8, len);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *kb, *kr;
    if (!import_pair(w, &kp, k, klen, false, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                     &kb, &kr))
        return;
    if (!ok(w, webcrypto_encrypt(&p, kr, in, len, w->ref_out, w->cap, &rn), "encrypt (reference)"))
        goto done;
    for (int dir = 0; dir < 2; dir++) {
        const uint8_t *src = dir == 0 ? in : w->ref_out;
        size_t src_len = dir == 0 ? len : rn, pos = 0, n = 0, m = 0;
        uint8_t *dst = dir == 0 ? w->out : w->back;
        webcrypto_cipher_ctx *ctx = NULL;
        if (!ok(w, webcrypto_cipher_init(&p, kb, dir == 0, &ctx), "cipher_init")) goto done;
        while (pos < src_len) {
            size_t chunk = between(w, 0, src_len - pos < 100000 ? src_len - pos : 100000);
            if (!ok(w, webcrypto_cipher_update(ctx, src + pos, chunk, dst + n, w->cap - n, &m),
                    "cipher_update")) {
                webcrypto_cipher_ctx_free(ctx);
                goto done;
            }
            pos += chunk;
            n += m;
        }
        webcrypto_status st = webcrypto_cipher_final(ctx, dst + n, w->cap - n, &m);
        webcrypto_cipher_ctx_free(ctx);
        if (!ok(w, st, "cipher_final")) goto done;
        n += m;
        if (dir == 0 ? !same(w, dst, n, w->ref_out, rn, "streamed ciphertext")
                     : !same(w, dst, n, in, len, "streamed decryption"))
            goto done;
    }
    atomic_fetch_add(&bytes_done, len);
done:
    webcrypto_key_free(kb);
    webcrypto_key_free(kr);
}

/* AES-GCM or AES-GCM-SIV: encryption equals the reference's, decryption
 * gives the input back, and a changed tag is refused with nothing released. */
static void op_aead(worker *w, webcrypto_algorithm alg) {
    static const size_t tags[] = {32, 64, 96, 104, 112, 120, 128};
    bool siv = alg == WEBCRYPTO_ALG_AES_GCM_SIV;
    uint8_t k[32], iv[64], aad[256];
    size_t klen = siv ? (below(w, 2) ? 16 : 32) : 16 + 8 * below(w, 3);
    size_t ivlen = siv ? 12 : (below(w, 4) ? 12 : between(w, 1, sizeof iv));
    size_t aadlen = below(w, 3) ? 0 : below(w, sizeof aad + 1);
    size_t tag = siv ? 128 : (below(w, 2) ? 128 : tags[below(w, 7)]);
    size_t len = pick_len(w), n = 0, rn = 0, bn = 0;
    fill(w, k, klen);
    fill(w, iv, ivlen);
    fill(w, aad, aadlen);
    const uint8_t *in = pick_input(w, len);
    snprintf(w->what, sizeof w->what, "%s-%zu, iv %zu, aad %zu, tag %zu bits, %zu bytes",
             webcrypto_algorithm_name(alg), klen * 8, ivlen, aadlen, tag, len);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .iv = iv, .iv_len = ivlen, .additional_data = aad,
                                          .additional_data_len = aadlen, .tag_length = tag);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *kb, *kr;
    if (!import_pair(w, &kp, k, klen, false, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                     &kb, &kr))
        return;
    if (!ok(w, webcrypto_encrypt(&p, kr, in, len, w->ref_out, w->cap, &rn), "encrypt (reference)") ||
        !ok(w, webcrypto_encrypt(&p, kb, in, len, w->out, w->cap, &n), "encrypt") ||
        !same(w, w->out, n, w->ref_out, rn, "ciphertext and tag") ||
        !ok(w, webcrypto_decrypt(&p, kb, w->out, n, w->back, w->cap, &bn), "decrypt") ||
        !same(w, w->back, bn, in, len, "decryption"))
        goto done;
    /* A changed byte (in the tag or the ciphertext) must be refused. */
    w->out[below(w, n)] ^= (uint8_t)(1u << below(w, 8));
    memset(w->back, 0xa5, len);
    webcrypto_status st = webcrypto_decrypt(&p, kb, w->out, n, w->back, w->cap, &bn);
    if (st != WEBCRYPTO_ERR_OPERATION) {
        fail(w, "decrypt of a changed ciphertext gave %s, not OperationError",
             webcrypto_status_name(st));
        goto done;
    }
    for (size_t i = 0; i < len; i++)
        if (w->back[i] != 0xa5 && w->back[i] != 0) {
            fail(w, "a refused decryption left plaintext in the output (byte %zu)", i);
            goto done;
        }
    atomic_fetch_add(&bytes_done, len);
done:
    webcrypto_key_free(kb);
    webcrypto_key_free(kr);
}

static void op_kdf(worker *w, webcrypto_algorithm alg) {
    webcrypto_algorithm h = pick_hash(w);
    uint8_t k[128], salt[128], info[128];
    size_t klen = below(w, sizeof k + 1), slen = below(w, sizeof salt + 1);
    size_t ilen = below(w, sizeof info + 1);
    if (alg == WEBCRYPTO_ALG_PBKDF2 && klen == 0) klen = 1;
    fill(w, k, klen);
    fill(w, salt, slen);
    fill(w, info, ilen);
    size_t hlen = webcrypto_digest_size(h);
    size_t out_len = alg == WEBCRYPTO_ALG_HKDF ? between(w, 1, 255 * hlen) : between(w, 1, 3 * hlen);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .hash = h, .salt = salt, .salt_len = slen, .info = info,
                                          .info_len = ilen, .iterations = (uint32_t)between(w, 1, 2000));
    snprintf(w->what, sizeof w->what, "%s-%s, key %zu, salt %zu, info %zu, iterations %u, %zu bytes",
             webcrypto_algorithm_name(alg), webcrypto_algorithm_name(h), klen, slen, ilen,
             alg == WEBCRYPTO_ALG_PBKDF2 ? p.iterations : 0, out_len);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *kb, *kr;
    if (!import_pair(w, &kp, k, klen, false, WEBCRYPTO_USAGE_DERIVE_BITS, &kb, &kr)) return;
    size_t dlen = 0;
    if (ok(w, webcrypto_derive_bits(&p, kr, out_len * 8, w->ref_out, w->cap, &dlen), "deriveBits (reference)") &&
        ok(w, webcrypto_derive_bits(&p, kb, out_len * 8, w->out, w->cap, &dlen), "deriveBits"))
        same(w, w->out, out_len, w->ref_out, out_len, "derived bits");
    webcrypto_key_free(kb);
    webcrypto_key_free(kr);
}

/* Random output cannot be compared: check that it succeeds, that a UUID is
 * well formed, and that 64 bytes are not all the same (a failure rate of
 * 2^-504 for a working generator). */
static void op_random(worker *w) {
    size_t len = below(w, 4) ? below(w, 65537) : 64;
    snprintf(w->what, sizeof w->what, "getRandomValues, %zu bytes", len);
    memset(w->out, 0, len);
    if (!ok(w, webcrypto_get_random_values(be, w->out, len), "get_random_values")) return;
    if (len >= 64) {
        size_t i = 1;
        while (i < 64 && w->out[i] == w->out[0]) i++;
        if (i == 64) {
            fail(w, "64 random bytes all equal to %u", w->out[0]);
            return;
        }
    }
    char uuid[37];
    snprintf(w->what, sizeof w->what, "randomUUID");
    if (!ok(w, webcrypto_random_uuid(be, uuid), "random_uuid")) return;
    static const char hex[] = "0123456789abcdef";
    bool good = strlen(uuid) == 36 && uuid[14] == '4' && strchr("89ab", uuid[19]) != NULL;
    for (int i = 0; i < 36 && good; i++)
        good = (i == 8 || i == 13 || i == 18 || i == 23) ? uuid[i] == '-'
                                                         : strchr(hex, uuid[i]) != NULL;
    if (!good) fail(w, "malformed UUID %s", uuid);
}

/* generateKey on the backend, exported and imported into the reference:
 * both then encrypt the same. */
static void op_generate(worker *w) {
    uint8_t iv[12];
    size_t bits = 128 + 64 * below(w, 3), len = below(w, 4097), n = 0, rn = 0;
    fill(w, iv, 12);
    const uint8_t *in = pick_input(w, len);
    snprintf(w->what, sizeof w->what, "generateKey AES-GCM-%zu, %zu bytes", bits, len);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = bits);
    webcrypto_key *kb = NULL, *kr = NULL;
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    const unsigned u = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    if (!ok(w, webcrypto_generate_key(be, &kp, true, u, &kb), "generate_key")) return;
    if (!ok(w, webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, kb, &raw, &raw_len), "export_key"))
        goto done;
    if (raw_len * 8 != bits) {
        fail(w, "exported %zu bytes", raw_len);
        goto done;
    }
    if (!ok(w, webcrypto_import_key(ref, WEBCRYPTO_FORMAT_RAW, raw, raw_len, &kp, false, u, &kr),
            "import_key (reference)"))
        goto done;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12);
    if (ok(w, webcrypto_encrypt(&p, kr, in, len, w->ref_out, w->cap, &rn), "encrypt (reference)") &&
        ok(w, webcrypto_encrypt(&p, kb, in, len, w->out, w->cap, &n), "encrypt"))
        same(w, w->out, n, w->ref_out, rn, "ciphertext under a generated key");
done:
    webcrypto_buffer_free(raw, raw_len);
    webcrypto_key_free(kb);
    webcrypto_key_free(kr);
}

/* Which kinds run: those whose algorithms both backends support. */
static bool kind_ok[K_COUNT];

static void *worker_main(void *arg) {
    worker *w = arg;
    while (!atomic_load(&stop_flag)) {
        int k = (int)below(w, K_COUNT);
        if (!kind_ok[k]) continue;
        switch (k) {
        case K_DIGEST: op_digest(w, false); break;
        case K_DIGEST_STREAM: op_digest(w, true); break;
        case K_HMAC: op_hmac(w, false); break;
        case K_HMAC_STREAM: op_hmac(w, true); break;
        case K_CBC: op_cbc_ctr(w, WEBCRYPTO_ALG_AES_CBC); break;
        case K_CTR: op_cbc_ctr(w, WEBCRYPTO_ALG_AES_CTR); break;
        case K_CIPHER_STREAM: op_cipher_stream(w); break;
        case K_GCM: op_aead(w, WEBCRYPTO_ALG_AES_GCM); break;
        case K_GCM_SIV: op_aead(w, WEBCRYPTO_ALG_AES_GCM_SIV); break;
        case K_HKDF: op_kdf(w, WEBCRYPTO_ALG_HKDF); break;
        case K_PBKDF2: op_kdf(w, WEBCRYPTO_ALG_PBKDF2); break;
        case K_RANDOM: op_random(w); break;
        case K_GENERATE: op_generate(w); break;
        default: break;
        }
        atomic_fetch_add(&kind_count[k], 1);
    }
    return NULL;
}

static void usage(FILE *f) {
    fputs("usage: webcrypto-soak [options]\n"
          "  --backend NAME    backend under test (default openssl; e.g. jca, jca:BC)\n"
          "  --reference NAME  backend the results are checked against, never the backend\n"
          "                    itself (default openssl; boringssl for --backend openssl)\n"
          "  --seconds N       how long to run (default 600)\n"
          "  --threads N       worker threads (default 4)\n"
          "  --max-size BYTES  largest input (default 16777216)\n"
          "  --report SECONDS  resident memory report interval (default 30)\n"
          "  --seed N          random seed (default: from the clock; printed)\n"
          "Exit: 0 all checks passed, 1 a mismatch or error, 77 the backend cannot start.\n",
          f);
}

static double parse_num(const char *s, const char *what) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= 0)) {
        fprintf(stderr, "webcrypto-soak: bad %s: %s\n", what, s);
        exit(2);
    }
    return v;
}

static void parse(int argc, char **argv) {
    opt.backend = "openssl";
    opt.reference = NULL;
    opt.seconds = 600;
    opt.threads = 4;
    opt.max_size = 16 * MIB;
    opt.report = 30;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    opt.seed = (uint64_t)ts.tv_sec * 1000003u + (uint64_t)ts.tv_nsec;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        }
        if (!v) {
            usage(stderr);
            exit(2);
        }
        i++;
        if (strcmp(a, "--backend") == 0) opt.backend = v;
        else if (strcmp(a, "--reference") == 0) opt.reference = v;
        else if (strcmp(a, "--seconds") == 0) opt.seconds = parse_num(v, "--seconds");
        else if (strcmp(a, "--threads") == 0) opt.threads = (int)parse_num(v, "--threads");
        else if (strcmp(a, "--max-size") == 0) opt.max_size = (size_t)parse_num(v, "--max-size");
        else if (strcmp(a, "--report") == 0) opt.report = parse_num(v, "--report");
        else if (strcmp(a, "--seed") == 0) opt.seed = (uint64_t)strtoull(v, NULL, 0);
        else {
            usage(stderr);
            exit(2);
        }
    }
    if (opt.threads < 1 || opt.threads > 256) {
        fprintf(stderr, "webcrypto-soak: --threads 1 to 256\n");
        exit(2);
    }
    /* A backend checked against itself proves only that it does not crash. */
    if (!opt.reference) opt.reference = strcmp(opt.backend, "openssl") == 0 ? "boringssl" : "openssl";
    if (strcmp(opt.reference, opt.backend) == 0) {
        fprintf(stderr, "webcrypto-soak: the reference must be another backend than %s\n",
                opt.backend);
        exit(2);
    }
    if (opt.report <= 0) opt.report = 30;
    if (opt.max_size > 256 * MIB) opt.max_size = 256 * MIB;
}

static void print_rss(const char *when, double t) {
    long rss, hwm;
    read_rss(&rss, &hwm);
    unsigned long long total = 0;
    for (int k = 0; k < K_COUNT; k++) total += atomic_load(&kind_count[k]);
    printf("rss %-8s t=%7.1fs  VmRSS %8ld KiB  VmHWM %8ld KiB  ops %llu  MiB checked %.1f\n", when,
           t, rss, hwm, total, (double)atomic_load(&bytes_done) / MIB);
    fflush(stdout);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    parse(argc, argv);
    printf("webcrypto-soak: backend %s, reference %s, %d threads, %.0f s, inputs 0..%zu bytes, "
           "seed %" PRIu64 "\n",
           opt.backend, opt.reference, opt.threads, opt.seconds, opt.max_size, opt.seed);
    print_rss("before", 0);
    webcrypto_status st = webcrypto_backend_get(opt.backend, &be);
    if (st != WEBCRYPTO_OK) {
        printf("SKIP: backend %s cannot start here: %s\n", opt.backend, webcrypto_error_message());
        return 77;
    }
    if (webcrypto_backend_get(opt.reference, &ref) != WEBCRYPTO_OK) {
        fprintf(stderr, "webcrypto-soak: reference backend %s: %s\n", opt.reference,
                webcrypto_error_message());
        return 1;
    }
    printf("backend: %s\nreference: %s\n", webcrypto_backend_description(be),
           webcrypto_backend_description(ref));

    bool sha = true;
    for (int i = 0; i < 4; i++) sha = sha && supported(hashes[i]);
    kind_ok[K_DIGEST] = kind_ok[K_DIGEST_STREAM] = sha;
    kind_ok[K_HMAC] = kind_ok[K_HMAC_STREAM] = sha && supported(WEBCRYPTO_ALG_HMAC);
    kind_ok[K_CBC] = supported(WEBCRYPTO_ALG_AES_CBC);
    kind_ok[K_CTR] = supported(WEBCRYPTO_ALG_AES_CTR);
    kind_ok[K_CIPHER_STREAM] = kind_ok[K_CBC] && kind_ok[K_CTR];
    kind_ok[K_GCM] = kind_ok[K_GENERATE] = supported(WEBCRYPTO_ALG_AES_GCM);
    kind_ok[K_GCM_SIV] = supported(WEBCRYPTO_ALG_AES_GCM_SIV);
    kind_ok[K_HKDF] = sha && supported(WEBCRYPTO_ALG_HKDF);
    kind_ok[K_PBKDF2] = sha && supported(WEBCRYPTO_ALG_PBKDF2);
    kind_ok[K_RANDOM] = true;
    printf("operations:");
    bool any = false;
    for (int k = 0; k < K_COUNT; k++) {
        if (kind_ok[k]) printf(" %s", kind_name[k]), any = true;
    }
    printf("\nnot run (unsupported by the backend or the reference):");
    for (int k = 0; k < K_COUNT; k++)
        if (!kind_ok[k]) printf(" %s", kind_name[k]);
    printf("\n");
    if (!any) return 1;

    worker *ws = calloc((size_t)opt.threads, sizeof *ws);
    pthread_t *tids = calloc((size_t)opt.threads, sizeof *tids);
    if (!ws || !tids) return 1;
    size_t cap = opt.max_size + 64;
    for (int i = 0; i < opt.threads; i++) {
        worker *w = &ws[i];
        w->index = i;
        w->rng = opt.seed * 0x9e3779b97f4a7c15u + (uint64_t)i * 0xbf58476d1ce4e5b9u + 1;
        w->cap = cap;
        w->in = malloc(cap);
        w->out = malloc(cap);
        w->ref_out = malloc(cap);
        w->back = malloc(cap);
        if (!w->in || !w->out || !w->ref_out || !w->back) {
            fprintf(stderr, "webcrypto-soak: out of memory\n");
            return 1;
        }
        fill(w, w->in, cap);
        /* Touched now (not zero, which the compiler may turn into calloc's
         * untouched pages), so the start RSS already counts them. */
        memset(w->out, 0x5a, cap);
        memset(w->ref_out, 0x5a, cap);
        memset(w->back, 0x5a, cap);
    }
    double t0 = now_s();
    print_rss("start", 0);
    int started = 0;
    for (; started < opt.threads; started++)
        if (pthread_create(&tids[started], NULL, worker_main, &ws[started]) != 0) {
            fprintf(stderr, "webcrypto-soak: pthread_create failed\n");
            atomic_store(&stop_flag, true);
            atomic_fetch_add(&failures, 1);
            break;
        }
    double next = opt.report;
    while (!atomic_load(&stop_flag)) {
        double t = now_s() - t0;
        if (t >= opt.seconds) break;
        if (t >= next) {
            print_rss("", t);
            next += opt.report;
        }
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    atomic_store(&stop_flag, true);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    print_rss("end", now_s() - t0);
    printf("operations:");
    for (int k = 0; k < K_COUNT; k++)
        if (kind_ok[k]) printf(" %s=%llu", kind_name[k], atomic_load(&kind_count[k]));
    printf("\n");
    for (int i = 0; i < opt.threads; i++) {
        free(ws[i].in);
        free(ws[i].out);
        free(ws[i].ref_out);
        free(ws[i].back);
    }
    free(ws);
    free(tids);
    int f = atomic_load(&failures);
    printf("%s: %d failure%s (seed %" PRIu64 ")\n", f ? "FAILED" : "PASSED", f, f == 1 ? "" : "s",
           opt.seed);
    return f ? 1 : 0;
}
