/*
 * test_differential.c - every pair of backends must agree byte for byte.
 *
 * For each pair of available backends (those compiled in, or those named in
 * $WEBCRYPTO_DIFF_BACKENDS; plus any "name:variant" listed in
 * $WEBCRYPTO_DIFF_EXTRA; lists separated by commas or spaces), on inputs
 * and keys drawn from a fixed seed ($WEBCRYPTO_DIFF_SEED overrides it), the
 * same key bytes are imported on both backends and every deterministic
 * operation is run on both: digests (one-shot and streamed),
 * HMAC, AES-CBC/CTR/GCM, AES-GCM-SIV, HKDF, PBKDF2. Outputs must be
 * identical, each backend must decrypt / verify what the other produced, and
 * both must reject the same tampered input with the same error. An algorithm
 * one backend of a pair lacks is counted as skipped, with the reason printed.
 *
 * Exits 77 (a CTest skip) when fewer than two backends can be started.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webcrypto.h"

#define MAX_BACKENDS 16
#define MAX_FAIL_PRINTS 40

/* ---- deterministic randomness (splitmix64) ---- */

static uint64_t rng_state;

static uint64_t rnd64(void) {
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform enough in [lo, hi] for test data. */
static size_t rnd_range(size_t lo, size_t hi) {
    return lo + (size_t)(rnd64() % (uint64_t)(hi - lo + 1));
}

static void rnd_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd64();
}

/* malloc that never returns NULL (at least 1 byte), filled with random data. */
static uint8_t *rnd_buf(size_t n) {
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    rnd_fill(p, n);
    return p;
}

/* ---- results ---- */

typedef struct pair_result {
    size_t identical, failed, skipped;
    char skip_reasons[1024];
} pair_result;

static pair_result *cur;
static const char *cur_a, *cur_b;
static size_t total_passed, total_failed, fail_prints;

static void pass(void) {
    cur->identical++;
    total_passed++;
}

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void fail(const char *fmt, ...) {
    cur->failed++;
    total_failed++;
    if (fail_prints++ >= MAX_FAIL_PRINTS) return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s vs %s: ", cur_a, cur_b);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* Records that an algorithm was skipped for the pair (the reason once). */
static void skip(const char *reason) {
    cur->skipped++;
    if (strstr(cur->skip_reasons, reason)) return;
    size_t used = strlen(cur->skip_reasons);
    snprintf(cur->skip_reasons + used, sizeof cur->skip_reasons - used, "%s%s",
             used ? "; " : "", reason);
}

/* Checks two outputs are equal; reports where they first differ. */
static void check_same(const char *what, size_t size, const uint8_t *x, size_t xl,
                       const uint8_t *y, size_t yl) {
    if (xl == yl && (xl == 0 || memcmp(x, y, xl) == 0)) {
        pass();
        return;
    }
    size_t i = 0;
    while (i < xl && i < yl && x[i] == y[i]) i++;
    fail("%s, %zu-byte input: outputs differ (lengths %zu and %zu, first difference at byte "
         "%zu)", what, size, xl, yl, i);
}

static void check_status(const char *what, size_t size, webcrypto_status got,
                         webcrypto_status expected) {
    if (got == expected) {
        pass();
        return;
    }
    fail("%s, %zu-byte input: %s, expected %s (%s)", what, size, webcrypto_status_name(got),
         webcrypto_status_name(expected), got ? webcrypto_error_message() : "no error");
}

/* The last error message, for failures that come with a status. */
#define LAST_ERROR webcrypto_error_message()

/* ---- helpers over the public API ---- */

static webcrypto_key *import(const webcrypto_backend *b, const webcrypto_params *p,
                             const uint8_t *raw, size_t len, unsigned usages) {
    webcrypto_key *k = NULL;
    webcrypto_status st =
        webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, len, p, false, usages, &k);
    if (st != WEBCRYPTO_OK) {
        fail("importing a %zu-byte %s key on %s: %s (%s)", len,
             webcrypto_algorithm_name(p->name), webcrypto_backend_name(b),
             webcrypto_status_name(st), webcrypto_error_message());
        return NULL;
    }
    return k;
}

/* Encrypts or decrypts into a malloc'd buffer sized by a query. */
static webcrypto_status do_crypt(bool encrypt, const webcrypto_params *p, const webcrypto_key *k,
                              const uint8_t *in, size_t len, uint8_t **out, size_t *out_len) {
    size_t cap = 0;
    webcrypto_status st = encrypt ? webcrypto_encrypt(p, k, in, len, NULL, 0, &cap)
                                  : webcrypto_decrypt(p, k, in, len, NULL, 0, &cap);
    *out = NULL;
    *out_len = 0;
    if (st != WEBCRYPTO_OK) return st;
    *out = malloc(cap ? cap : 1);
    if (!*out) return WEBCRYPTO_ERR_NO_MEMORY;
    st = encrypt ? webcrypto_encrypt(p, k, in, len, *out, cap, out_len)
                 : webcrypto_decrypt(p, k, in, len, *out, cap, out_len);
    if (st != WEBCRYPTO_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                             WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
#define N_HASHES (sizeof hashes / sizeof *hashes)

/* True if both backends have alg (and hash, if not NONE); otherwise records
 * the skip and returns false. */
static bool both_support(const webcrypto_backend *a, const webcrypto_backend *b,
                         webcrypto_algorithm alg, webcrypto_algorithm hash) {
    const webcrypto_backend *sides[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        webcrypto_algorithm missing = !webcrypto_backend_supports(sides[i], alg) ? alg
                                      : hash != WEBCRYPTO_ALG_NONE &&
                                              !webcrypto_backend_supports(sides[i], hash)
                                          ? hash
                                          : WEBCRYPTO_ALG_NONE;
        if (missing != WEBCRYPTO_ALG_NONE) {
            char reason[160];
            snprintf(reason, sizeof reason, "%s: %s lacks %s", webcrypto_algorithm_name(alg),
                     webcrypto_backend_name(sides[i]), webcrypto_algorithm_name(missing));
            skip(reason);
            return false;
        }
    }
    return true;
}

/* ---- the operations ---- */

static void diff_digest(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    uint8_t *data = rnd_buf(n);
    for (size_t h = 0; h < N_HASHES; h++) {
        if (!both_support(a, b, hashes[h], WEBCRYPTO_ALG_NONE)) continue;
        char what[64];
        snprintf(what, sizeof what, "%s digest", webcrypto_algorithm_name(hashes[h]));
        uint8_t da[64], db[64], ds[64];
        size_t la = 0, lb = 0, ls = 0;
        webcrypto_status sa = webcrypto_digest(a, hashes[h], data, n, da, sizeof da, &la);
        webcrypto_status sb = webcrypto_digest(b, hashes[h], data, n, db, sizeof db, &lb);
        if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK) {
            fail("%s, %zu bytes: %s / %s (last error: %s)", what, n, webcrypto_status_name(sa),
                 webcrypto_status_name(sb), LAST_ERROR);
            continue;
        }
        check_same(what, n, da, la, db, lb);
        /* Streamed on b in random pieces: the same as a's one-shot digest. */
        webcrypto_digest_ctx *ctx = NULL;
        webcrypto_status st = webcrypto_digest_init(b, hashes[h], &ctx);
        for (size_t off = 0; st == WEBCRYPTO_OK && off < n;) {
            size_t piece = rnd_range(0, n - off < 300 ? n - off : 300);
            if (rnd64() % 8 == 0) piece = n - off;
            st = webcrypto_digest_update(ctx, data + off, piece);
            off += piece;
        }
        if (st == WEBCRYPTO_OK) st = webcrypto_digest_final(ctx, ds, sizeof ds, &ls);
        webcrypto_digest_ctx_free(ctx);
        snprintf(what, sizeof what, "%s digest streamed on %s", webcrypto_algorithm_name(hashes[h]),
                 webcrypto_backend_name(b));
        if (st != WEBCRYPTO_OK)
            fail("%s: %s (%s)", what, webcrypto_status_name(st), LAST_ERROR);
        else
            check_same(what, n, da, la, ds, ls);
    }
    free(data);
}

static void diff_hmac(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    webcrypto_algorithm hash = hashes[rnd64() % N_HASHES];
    if (!both_support(a, b, WEBCRYPTO_ALG_HMAC, hash)) return;
    size_t key_len = rnd64() % 4 == 0 ? rnd_range(129, 300) : rnd_range(1, 128);
    uint8_t *key = rnd_buf(key_len), *data = rnd_buf(n);
    webcrypto_params p = {.name = WEBCRYPTO_ALG_HMAC, .hash = hash};
    unsigned use = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    webcrypto_key *ka = import(a, &p, key, key_len, use), *kb = import(b, &p, key, key_len, use);
    char what[96];
    snprintf(what, sizeof what, "HMAC %s (%zu-byte key)", webcrypto_algorithm_name(hash), key_len);
    if (ka && kb) {
        uint8_t ma[64], mb[64];
        size_t la = 0, lb = 0;
        webcrypto_status sa = webcrypto_sign(&p, ka, data, n, ma, sizeof ma, &la);
        webcrypto_status sb = webcrypto_sign(&p, kb, data, n, mb, sizeof mb, &lb);
        if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK) {
            fail("%s sign, %zu bytes: %s / %s (last error: %s)", what, n, webcrypto_status_name(sa),
                 webcrypto_status_name(sb), LAST_ERROR);
        } else {
            check_same(what, n, ma, la, mb, lb);
            /* Each verifies the other's MAC, and both refuse a changed one. */
            const webcrypto_key *keys[2] = {kb, ka};
            uint8_t *macs[2] = {ma, mb};
            for (int i = 0; i < 2; i++) {
                bool valid = false;
                webcrypto_status st = webcrypto_verify(&p, keys[i], macs[i], la, data, n, &valid);
                if (st != WEBCRYPTO_OK || !valid)
                    fail("%s: %s does not verify the other's MAC (%s%s%s)", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(keys[i])),
                         webcrypto_status_name(st), st ? ": " : "", st ? LAST_ERROR : "");
                else
                    pass();
            }
            ma[rnd64() % la] ^= (uint8_t)(1u << (rnd64() % 8));
            for (int i = 0; i < 2; i++) {
                bool valid = true;
                webcrypto_status st = webcrypto_verify(&p, keys[i], ma, la, data, n, &valid);
                if (st != WEBCRYPTO_OK || valid)
                    fail("%s: %s accepts a changed MAC (%s%s%s)", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(keys[i])),
                         webcrypto_status_name(st), st ? ": " : "", st ? LAST_ERROR : "");
                else
                    pass();
            }
        }
    }
    webcrypto_key_free(ka);
    webcrypto_key_free(kb);
    free(key);
    free(data);
}

/* Encrypts pt on both backends with p, compares, decrypts each side's
 * ciphertext on the other side, and (if tamper) checks that both refuse a
 * changed ciphertext with OperationError. */
static void diff_cipher(const webcrypto_backend *a, const webcrypto_backend *b,
                        const webcrypto_params *p, size_t key_len, const char *what,
                        const uint8_t *pt, size_t n, bool tamper) {
    uint8_t *key = rnd_buf(key_len);
    unsigned use = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    webcrypto_key *ka = import(a, p, key, key_len, use), *kb = import(b, p, key, key_len, use);
    free(key);
    if (!ka || !kb) goto out;
    uint8_t *ca = NULL, *cb = NULL;
    size_t la = 0, lb = 0;
    webcrypto_status sa = do_crypt(true, p, ka, pt, n, &ca, &la);
    webcrypto_status sb = do_crypt(true, p, kb, pt, n, &cb, &lb);
    if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK) {
        fail("%s encrypt, %zu bytes: %s / %s (last error: %s)", what, n, webcrypto_status_name(sa),
             webcrypto_status_name(sb), LAST_ERROR);
    } else {
        check_same(what, n, ca, la, cb, lb);
        const webcrypto_key *dec_keys[2] = {kb, ka};
        uint8_t *cts[2] = {ca, cb};
        size_t ct_lens[2] = {la, lb};
        for (int i = 0; i < 2; i++) {
            uint8_t *back = NULL;
            size_t back_len = 0;
            webcrypto_status st =
                do_crypt(false, p, dec_keys[i], cts[i], ct_lens[i], &back, &back_len);
            char w[160];
            snprintf(w, sizeof w, "%s decrypted on %s", what,
                     webcrypto_backend_name(webcrypto_key_get_backend(dec_keys[i])));
            if (st != WEBCRYPTO_OK)
                fail("%s, %zu bytes: %s (%s)", w, n, webcrypto_status_name(st), LAST_ERROR);
            else
                check_same(w, n, back, back_len, pt, n);
            free(back);
        }
        /* In place (out == data) on each side: encryption must match the
         * out-of-place ciphertext, and decryption must give the plaintext. */
        size_t cap = la > n ? la : n;
        uint8_t *buf = malloc(cap ? cap : 1);
        if (!buf) exit(2);
        char w[160];
        webcrypto_status st;
        for (int i = 0; i < 2; i++) {
            const webcrypto_key *k = i == 0 ? ka : kb;
            const char *bn = webcrypto_backend_name(webcrypto_key_get_backend(k));
            size_t got = 0;
            if (n) memcpy(buf, pt, n);
            st = webcrypto_encrypt(p, k, buf, n, buf, cap, &got);
            snprintf(w, sizeof w, "%s encrypted in place on %s", what, bn);
            if (st != WEBCRYPTO_OK)
                fail("%s, %zu bytes: %s (%s)", w, n, webcrypto_status_name(st), LAST_ERROR);
            else
                check_same(w, n, buf, got, ca, la);
            memcpy(buf, ca, la);
            st = webcrypto_decrypt(p, k, buf, la, buf, cap, &got);
            snprintf(w, sizeof w, "%s decrypted in place on %s", what, bn);
            if (st != WEBCRYPTO_OK)
                fail("%s, %zu bytes: %s (%s)", w, n, webcrypto_status_name(st), LAST_ERROR);
            else
                check_same(w, n, buf, got, pt, n);
        }
        free(buf);
        if (tamper && la > 0) {
            ca[rnd64() % la] ^= (uint8_t)(1u << (rnd64() % 8));
            for (int i = 0; i < 2; i++) {
                const webcrypto_key *k = i == 0 ? ka : kb;
                uint8_t *back = NULL;
                size_t back_len = 0;
                st = do_crypt(false, p, k, ca, la, &back, &back_len);
                snprintf(w, sizeof w, "%s, changed ciphertext, on %s", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(k)));
                check_status(w, n, st, WEBCRYPTO_ERR_OPERATION);
                free(back);
            }
        }
    }
    free(ca);
    free(cb);
out:
    webcrypto_key_free(ka);
    webcrypto_key_free(kb);
}

static size_t aes_key_len(void) { return (size_t)16 + 8 * (size_t)(rnd64() % 3); }

static void diff_aes_cbc(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE)) return;
    uint8_t iv[16], *pt = rnd_buf(n);
    rnd_fill(iv, sizeof iv);
    webcrypto_params p = {.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv, .iv_len = 16};
    size_t kl = aes_key_len();
    char what[64];
    snprintf(what, sizeof what, "AES-CBC-%zu", kl * 8);
    diff_cipher(a, b, &p, kl, what, pt, n, false);
    free(pt);
}

static void diff_aes_ctr(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_NONE)) return;
    static const size_t lengths[] = {128, 64, 32, 16};
    size_t bits = rnd64() % 2 ? lengths[rnd64() % 4] : rnd_range(1, 128);
    size_t blocks = (n + 15) / 16;
    while (bits < 64 && blocks > ((size_t)1 << bits)) bits++; /* the data must fit */
    uint8_t counter[16], *pt = rnd_buf(n);
    rnd_fill(counter, sizeof counter);
    if (rnd64() % 2) {
        /* Low `bits` bits just below their wrap, so the counter wraps inside
         * the data (the core splits there; both must agree). */
        for (size_t i = 0; i < bits; i++) counter[15 - i / 8] |= (uint8_t)(1u << (i % 8));
        if (bits >= 2) counter[15] ^= (uint8_t)(rnd64() % 4);
    }
    webcrypto_params p = {.name = WEBCRYPTO_ALG_AES_CTR, .counter = counter, .counter_len = 16,
                          .length = bits};
    size_t kl = aes_key_len();
    char what[64];
    snprintf(what, sizeof what, "AES-CTR-%zu (length %zu)", kl * 8, bits);
    diff_cipher(a, b, &p, kl, what, pt, n, false);
    free(pt);
}

static void diff_aes_gcm(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE)) return;
    static const size_t iv_lens[] = {12, 12, 12, 1, 8, 16, 60, 128, 129, 257};
    static const size_t tags[] = {0, 128, 120, 112, 104, 96, 64, 32};
    size_t iv_len = iv_lens[rnd64() % (sizeof iv_lens / sizeof *iv_lens)];
    size_t tag = tags[rnd64() % (sizeof tags / sizeof *tags)];
    size_t aad_len = rnd64() % 3 == 0 ? 0 : rnd_range(1, 300);
    uint8_t *iv = rnd_buf(iv_len), *aad = rnd_buf(aad_len), *pt = rnd_buf(n);
    webcrypto_params p = {.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = iv_len,
                          .additional_data = aad_len ? aad : NULL,
                          .additional_data_len = aad_len, .tag_length = tag};
    size_t kl = aes_key_len();
    char what[96];
    snprintf(what, sizeof what, "AES-GCM-%zu (%zu-byte IV, %zu-bit tag, %zu-byte AAD)", kl * 8,
             iv_len, tag ? tag : 128, aad_len);
    diff_cipher(a, b, &p, kl, what, pt, n, true);
    free(iv);
    free(aad);
    free(pt);
}

static void diff_aes_gcm_siv(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_GCM_SIV, WEBCRYPTO_ALG_NONE)) return;
    size_t aad_len = rnd64() % 3 == 0 ? 0 : rnd_range(1, 300);
    uint8_t nonce[12], *aad = rnd_buf(aad_len), *pt = rnd_buf(n);
    rnd_fill(nonce, sizeof nonce);
    webcrypto_params p = {.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce, .iv_len = 12,
                          .additional_data = aad_len ? aad : NULL,
                          .additional_data_len = aad_len};
    size_t kl = rnd64() % 2 ? 16 : 32;
    char what[96];
    snprintf(what, sizeof what, "AES-GCM-SIV-%zu (%zu-byte AAD)", kl * 8, aad_len);
    diff_cipher(a, b, &p, kl, what, pt, n, true);
    free(aad);
    free(pt);
}

/* deriveBits on both with the same key bytes and params; compares. */
static void diff_derive(const webcrypto_backend *a, const webcrypto_backend *b,
                        const webcrypto_params *p, const uint8_t *key, size_t key_len,
                        size_t out_len, const char *what) {
    webcrypto_params imp = {.name = p->name};
    webcrypto_key *ka = import(a, &imp, key, key_len, WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *kb = import(b, &imp, key, key_len, WEBCRYPTO_USAGE_DERIVE_BITS);
    if (ka && kb) {
        uint8_t *oa = malloc(out_len ? out_len : 1), *ob = malloc(out_len ? out_len : 1);
        if (!oa || !ob) exit(2);
        webcrypto_status sa = webcrypto_derive_bits(p, ka, out_len * 8, oa, out_len);
        webcrypto_status sb = webcrypto_derive_bits(p, kb, out_len * 8, ob, out_len);
        if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK)
            fail("%s: %s / %s (last error: %s)", what, webcrypto_status_name(sa),
                 webcrypto_status_name(sb), LAST_ERROR);
        else
            check_same(what, key_len, oa, out_len, ob, out_len);
        free(oa);
        free(ob);
    }
    webcrypto_key_free(ka);
    webcrypto_key_free(kb);
}

static void diff_hkdf(const webcrypto_backend *a, const webcrypto_backend *b) {
    webcrypto_algorithm hash = hashes[rnd64() % N_HASHES];
    if (!both_support(a, b, WEBCRYPTO_ALG_HKDF, hash)) return;
    size_t ikm_len = rnd_range(1, 100), salt_len = rnd64() % 4 ? rnd_range(0, 100) : 0;
    size_t info_len = rnd64() % 4 ? rnd_range(0, 100) : 0;
    size_t max = 255 * webcrypto_digest_size(hash);
    size_t out_len = rnd64() % 8 == 0 ? max : rnd_range(0, 200);
    uint8_t *ikm = rnd_buf(ikm_len), *salt = rnd_buf(salt_len), *info = rnd_buf(info_len);
    webcrypto_params p = {.name = WEBCRYPTO_ALG_HKDF, .hash = hash, .salt = salt,
                          .salt_len = salt_len, .info = info, .info_len = info_len};
    char what[128];
    snprintf(what, sizeof what, "HKDF %s (%zu-byte salt, %zu-byte info, %zu bytes out)",
             webcrypto_algorithm_name(hash), salt_len, info_len, out_len);
    diff_derive(a, b, &p, ikm, ikm_len, out_len, what);
    free(ikm);
    free(salt);
    free(info);
}

static void diff_pbkdf2(const webcrypto_backend *a, const webcrypto_backend *b) {
    webcrypto_algorithm hash = hashes[rnd64() % N_HASHES];
    if (!both_support(a, b, WEBCRYPTO_ALG_PBKDF2, hash)) return;
    size_t pw_len = rnd_range(1, 80), salt_len = rnd_range(0, 64);
    size_t out_len = rnd_range(1, 150);
    uint32_t iterations = rnd64() % 4 == 0 ? 1 : (uint32_t)rnd_range(2, 1500);
    uint8_t *pw = rnd_buf(pw_len), *salt = rnd_buf(salt_len);
    webcrypto_params p = {.name = WEBCRYPTO_ALG_PBKDF2, .hash = hash, .salt = salt,
                          .salt_len = salt_len, .iterations = iterations};
    char what[128];
    snprintf(what, sizeof what, "PBKDF2 %s (%zu-byte salt, %u iterations, %zu bytes out)",
             webcrypto_algorithm_name(hash), salt_len, (unsigned)iterations, out_len);
    diff_derive(a, b, &p, pw, pw_len, out_len, what);
    free(pw);
    free(salt);
}

/* ---- driver ---- */

/* Input sizes: the block-boundary cases, random ones up to 4 KiB, and a few
 * large ones (over 1 MiB, odd lengths). */
static size_t make_sizes(size_t *out, size_t cap) {
    static const size_t fixed[] = {0,   1,   2,   15,  16,   17,   31,   32,   33,   47,
                                   48,  63,  64,  65,  100,  111,  112,  113,  127,  128,
                                   129, 255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096};
    size_t n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed && n < cap; i++) out[n++] = fixed[i];
    for (int i = 0; i < 10 && n < cap; i++) out[n++] = rnd_range(0, 4096);
    static const size_t large[] = {65536 + 7, (size_t)1 << 20, ((size_t)3 << 20) + 5};
    for (size_t i = 0; i < sizeof large / sizeof *large && n < cap; i++) out[n++] = large[i];
    return n;
}

static void run_pair(const webcrypto_backend *a, const webcrypto_backend *b, uint64_t seed) {
    rng_state = seed; /* every pair sees the same inputs */
    size_t sizes[64];
    size_t n_sizes = make_sizes(sizes, sizeof sizes / sizeof *sizes);
    for (size_t i = 0; i < n_sizes; i++) {
        size_t n = sizes[i];
        diff_digest(a, b, n);
        diff_hmac(a, b, n);
        diff_aes_cbc(a, b, n);
        diff_aes_ctr(a, b, n);
        diff_aes_gcm(a, b, n);
        diff_aes_gcm_siv(a, b, n);
    }
    for (int i = 0; i < 40; i++) diff_hkdf(a, b);
    for (int i = 0; i < 25; i++) diff_pbkdf2(a, b);
}

int main(void) {
    const char *names[MAX_BACKENDS];
    char list_buf[1024] = "", extra_buf[1024] = "";
    size_t n_names = 0;
    /* $WEBCRYPTO_DIFF_BACKENDS, if set, replaces the list of built-in ones. */
    const char *only = getenv("WEBCRYPTO_DIFF_BACKENDS");
    if (only && *only)
        snprintf(list_buf, sizeof list_buf, "%s", only);
    else
        for (size_t i = 0; i < webcrypto_backend_count() && n_names < MAX_BACKENDS; i++)
            names[n_names++] = webcrypto_backend_name_at(i);
    const char *extra = getenv("WEBCRYPTO_DIFF_EXTRA");
    if (extra) snprintf(extra_buf, sizeof extra_buf, "%s", extra);
    char *lists[2] = {list_buf, extra_buf};
    for (int l = 0; l < 2; l++)
        for (char *save = NULL, *t = strtok_r(lists[l], ", ", &save); t && n_names < MAX_BACKENDS;
             t = strtok_r(NULL, ", ", &save)) {
            bool dup = false;
            for (size_t i = 0; i < n_names && !dup; i++) dup = strcmp(names[i], t) == 0;
            if (!dup) names[n_names++] = t;
        }

    const webcrypto_backend *backends[MAX_BACKENDS];
    size_t n = 0;
    for (size_t i = 0; i < n_names; i++) {
        const webcrypto_backend *b = NULL;
        if (webcrypto_backend_get(names[i], &b) != WEBCRYPTO_OK) {
            printf("backend %s: unavailable (%s)\n", names[i], webcrypto_error_message());
            continue;
        }
        printf("backend %s: %s\n", names[i], webcrypto_backend_description(b));
        backends[n++] = b;
    }
    if (n < 2) {
        printf("SKIP: %zu backend(s) available; the differential test needs two\n", n);
        return 77;
    }

    uint64_t seed = UINT64_C(0x5eed0fd1ff);
    const char *seed_env = getenv("WEBCRYPTO_DIFF_SEED");
    if (seed_env && *seed_env) seed = strtoull(seed_env, NULL, 0);
    printf("seed 0x%llx\n", (unsigned long long)seed);

    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            pair_result r = {0};
            cur = &r;
            cur_a = webcrypto_backend_name(backends[i]);
            cur_b = webcrypto_backend_name(backends[j]);
            run_pair(backends[i], backends[j], seed);
            printf("%s vs %s: %zu operations identical, %zu skipped%s%s%s", cur_a, cur_b,
                   r.identical, r.skipped, r.skipped ? " (" : "", r.skip_reasons,
                   r.skipped ? ")" : "");
            if (r.failed) printf(", %zu FAILED", r.failed);
            printf("\n");
        }
    printf("%zu passed, %zu failed\n", total_passed, total_failed);
    return total_failed == 0 ? 0 : 1;
}
