/*
 * differential_common.c - what the differential tests share
 * (test_differential.c, test_differential_modern.c): the seeded inputs,
 * the counts and failure reports of the pair being compared, imports and
 * exports, the operations run alike on both sides of a pair, and the driver
 * that opens the backends and runs every pair.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "differential_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FAIL_PRINTS 40

uint64_t rng_state;


uint64_t rnd64(void) {
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}


/* Uniform enough in [lo, hi] for test data. */
size_t rnd_range(size_t lo, size_t hi) {
    return lo + (size_t)(rnd64() % (uint64_t)(hi - lo + 1));
}


void rnd_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd64();
}


/* malloc that never returns NULL (at least 1 byte), filled with random data. */
uint8_t *rnd_buf(size_t n) {
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    rnd_fill(p, n);
    return p;
}




pair_result *cur;


const char *cur_a, *cur_b;


size_t total_passed, total_failed, total_skipped;
static size_t fail_prints;


void pass(void) {
    cur->identical++;
    total_passed++;
}


void fail(const char *fmt, ...) {
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
void skip(const char *reason) {
    cur->skipped++;
    total_skipped++;
    if (strstr(cur->skip_reasons, reason)) return;
    size_t used = strlen(cur->skip_reasons);
    snprintf(cur->skip_reasons + used, sizeof cur->skip_reasons - used, "%s%s",
             used ? "; " : "", reason);
}


/* Checks two outputs are equal; reports where they first differ. */
void check_same(const char *what, size_t size, const uint8_t *x, size_t xl,
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


void check_status(const char *what, size_t size, webcrypto_status got,
                         webcrypto_status expected) {
    if (got == expected) {
        pass();
        return;
    }
    fail("%s, %zu-byte input: %s, expected %s (%s)", what, size, webcrypto_status_name(got),
         webcrypto_status_name(expected), got ? webcrypto_error_message() : "no error");
}


webcrypto_key *import(const webcrypto_backend *b, const webcrypto_params *p,
                             const uint8_t *raw, size_t len, unsigned usages) {
    webcrypto_key *k = NULL;
    webcrypto_status st =
        webcrypto_import_key(b, diff_secret_format(p->name), raw, len, p, false, usages, &k);
    if (st != WEBCRYPTO_OK) {
        fail("importing a %zu-byte %s key on %s: %s (%s)", len,
             webcrypto_algorithm_name(p->name), webcrypto_backend_name(b),
             webcrypto_status_name(st), webcrypto_error_message());
        return NULL;
    }
    return k;
}


/* Encrypts or decrypts into a malloc'd buffer sized by a query. */
webcrypto_status do_crypt(bool encrypt, const webcrypto_params *p, const webcrypto_key *k,
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


/* True if both backends have alg (and hash, if not NONE); otherwise records
 * the skip and returns false. */
bool both_support(const webcrypto_backend *a, const webcrypto_backend *b,
                         webcrypto_algorithm alg, webcrypto_algorithm hash) {
    const webcrypto_backend *sides[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        /* the hash, and SHA-3 with the algorithm (per combination) */
        bool sha3 = hash == WEBCRYPTO_ALG_SHA3_256 || hash == WEBCRYPTO_ALG_SHA3_384 ||
                    hash == WEBCRYPTO_ALG_SHA3_512;
        webcrypto_algorithm missing =
            !webcrypto_backend_supports(sides[i], alg) ? alg
            : hash != WEBCRYPTO_ALG_NONE &&
                    (!webcrypto_backend_supports(sides[i], hash) ||
                     (sha3 && alg != hash && !webcrypto_backend_supports_hash(sides[i], alg, hash)))
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


/* Encrypts pt on both backends with p, compares, decrypts each side's
 * ciphertext on the other side, and (if tamper) checks that both refuse a
 * changed ciphertext with OperationError. */
void diff_cipher(const webcrypto_backend *a, const webcrypto_backend *b,
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


/* deriveBits on both with the same key bytes and params; compares. */
void diff_derive(const webcrypto_backend *a, const webcrypto_backend *b,
                        const webcrypto_params *p, const uint8_t *key, size_t key_len,
                        size_t out_len, const char *what) {
    webcrypto_params imp = WEBCRYPTO_PARAMS(.name = p->name);
    webcrypto_key *ka = import(a, &imp, key, key_len, WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *kb = import(b, &imp, key, key_len, WEBCRYPTO_USAGE_DERIVE_BITS);
    if (ka && kb) {
        uint8_t *oa = malloc(out_len ? out_len : 1), *ob = malloc(out_len ? out_len : 1);
        if (!oa || !ob) exit(2);
        size_t dlen = 0;
        webcrypto_status sa = webcrypto_derive_bits(p, ka, out_len * 8, oa, out_len, &dlen);
        webcrypto_status sb = webcrypto_derive_bits(p, kb, out_len * 8, ob, out_len, &dlen);
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






void blob_free(blob *b) {
    if (b->p) webcrypto_buffer_free(b->p, b->n);
    b->p = NULL;
    b->n = 0;
}

void pair_srcs_free(pair_src *srcs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        blob_free(&srcs[i].priv);
        blob_free(&srcs[i].pub);
    }
}

size_t backend_index(const webcrypto_backend *const *backends, size_t n,
                     const webcrypto_backend *b) {
    size_t i = 0;
    while (i < n && backends[i] != b) i++;
    return i;
}


/* Exports key in fmt into *out (fails the pair on error). */
bool export_to(webcrypto_key_format fmt, const webcrypto_key *key, blob *out,
                      const char *what) {
    out->p = NULL;
    out->n = 0;
    webcrypto_status st = webcrypto_export_key(fmt, key, &out->p, &out->n);
    if (st != WEBCRYPTO_OK) {
        fail("%s: exporting from %s: %s (%s)", what,
             webcrypto_backend_name(webcrypto_key_get_backend(key)), webcrypto_status_name(st),
             LAST_ERROR);
        return false;
    }
    return true;
}


webcrypto_key *import_fmt(const webcrypto_backend *b, webcrypto_key_format fmt,
                                 const blob *data, const webcrypto_params *p, unsigned usages,
                                 const char *what) {
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(b, fmt, data->p, data->n, p, true, usages, &k);
    if (st != WEBCRYPTO_OK) {
        fail("%s: importing on %s: %s (%s)", what, webcrypto_backend_name(b),
             webcrypto_status_name(st), LAST_ERROR);
        return NULL;
    }
    return k;
}


/* Generates a pair of alg on b and keeps its pkcs8 and spki in *src. */
void make_src(const webcrypto_backend *b, const webcrypto_params *alg, unsigned usages,
                     pair_src *src) {
    webcrypto_key *pub = NULL, *priv = NULL;
    src->label = webcrypto_backend_name(b);
    webcrypto_status st = webcrypto_generate_key_pair(b, alg, true, usages, &pub, &priv);
    if (st != WEBCRYPTO_OK) {
        fail("generating a %s key on %s: %s (%s)", webcrypto_algorithm_name(alg->name),
             webcrypto_backend_name(b), webcrypto_status_name(st), LAST_ERROR);
        return;
    }
    if (!export_to(WEBCRYPTO_FORMAT_PKCS8, priv, &src->priv, "generated key") ||
        !export_to(WEBCRYPTO_FORMAT_SPKI, pub, &src->pub, "generated key"))
        blob_free(&src->priv);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}




void both_free(both_keys *k) {
    for (int i = 0; i < 2; i++) {
        webcrypto_key_free(k->priv[i]);
        webcrypto_key_free(k->pub[i]);
    }
}


/* The exports of the same key on both sides must be byte-identical. */
void compare_export(webcrypto_key_format fmt, webcrypto_key *const k[2], const char *what) {
    static const char *const names[] = {"",    "raw",        "pkcs8",     "spki",
                                        "jwk", "raw-public", "raw-secret", "raw-seed"};
    char w[200];
    snprintf(w, sizeof w, "%s, %s export", what, names[fmt]);
    blob x, y;
    if (!export_to(fmt, k[0], &x, w)) return;
    if (export_to(fmt, k[1], &y, w)) {
        check_same(w, x.n, x.p, x.n, y.p, y.n);
        blob_free(&y);
    }
    blob_free(&x);
}


/* Imports src on a and b with p (private usages priv_use, public pub_use)
 * and compares every export. False (and nothing to free) on failure. */
bool import_both(const webcrypto_backend *a, const webcrypto_backend *b,
                        const pair_src *src, const webcrypto_params *p, unsigned priv_use,
                        unsigned pub_use, const char *what, both_keys *k) {
    memset(k, 0, sizeof *k);
    const webcrypto_backend *sides[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        k->priv[i] = import_fmt(sides[i], WEBCRYPTO_FORMAT_PKCS8, &src->priv, p, priv_use, what);
        k->pub[i] = import_fmt(sides[i], WEBCRYPTO_FORMAT_SPKI, &src->pub, p, pub_use, what);
        if (!k->priv[i] || !k->pub[i]) {
            both_free(k);
            return false;
        }
    }
    compare_export(WEBCRYPTO_FORMAT_PKCS8, k->priv, what);
    compare_export(WEBCRYPTO_FORMAT_SPKI, k->pub, what);
    compare_export(WEBCRYPTO_FORMAT_JWK, k->priv, what);
    compare_export(WEBCRYPTO_FORMAT_JWK, k->pub, what);
    if (p->name != WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 && p->name != WEBCRYPTO_ALG_RSA_PSS &&
        p->name != WEBCRYPTO_ALG_RSA_OAEP)
        compare_export(WEBCRYPTO_FORMAT_RAW, k->pub, what);
    return true;
}


/* Signs msg with k->priv[i] into *sig; reports failures. */
bool sign_on(const webcrypto_params *p, webcrypto_key *key, const uint8_t *msg, size_t n,
                    uint8_t *sig, size_t cap, size_t *len, const char *what) {
    webcrypto_status st = webcrypto_sign(p, key, msg, n, sig, cap, len);
    if (st != WEBCRYPTO_OK) {
        fail("%s sign on %s, %zu bytes: %s (%s)", what,
             webcrypto_backend_name(webcrypto_key_get_backend(key)), n,
             webcrypto_status_name(st), LAST_ERROR);
        return false;
    }
    return true;
}


/* verify on key must answer `expect`. */
void verify_expect(const webcrypto_params *p, webcrypto_key *key, const uint8_t *sig,
                          size_t sig_len, const uint8_t *msg, size_t n, bool expect,
                          const char *what) {
    bool valid = !expect;
    webcrypto_status st = webcrypto_verify(p, key, sig, sig_len, msg, n, &valid);
    if (st != WEBCRYPTO_OK || valid != expect)
        fail("%s, %zu bytes: verify on %s: %s, %s (expected %s)", what, n,
             webcrypto_backend_name(webcrypto_key_get_backend(key)), webcrypto_status_name(st),
             valid ? "valid" : "invalid", expect ? "valid" : "invalid");
    else
        pass();
}


/* Signs on both sides; deterministic schemes must give identical signatures;
 * each side's signature must verify on the other, and a changed one on neither. */
void sign_both(const webcrypto_params *p, both_keys *k, size_t n, bool deterministic,
                      const char *what) {
    uint8_t *msg = rnd_buf(n), sig[2][DIFF_MAX_SIG];
    size_t len[2] = {0, 0};
    bool ok = sign_on(p, k->priv[0], msg, n, sig[0], sizeof sig[0], &len[0], what) &&
              sign_on(p, k->priv[1], msg, n, sig[1], sizeof sig[1], &len[1], what);
    if (ok) {
        if (deterministic) check_same(what, n, sig[0], len[0], sig[1], len[1]);
        char w[240];
        for (int i = 0; i < 2; i++) {
            snprintf(w, sizeof w, "%s (signed on %s)", what,
                     webcrypto_backend_name(webcrypto_key_get_backend(k->priv[i])));
            verify_expect(p, k->pub[1 - i], sig[i], len[i], msg, n, true, w);
            verify_expect(p, k->pub[i], sig[i], len[i], msg, n, true, w);
        }
        sig[0][rnd64() % len[0]] ^= (uint8_t)(1u << (rnd64() % 8));
        snprintf(w, sizeof w, "%s, changed signature", what);
        for (int i = 0; i < 2; i++) verify_expect(p, k->pub[i], sig[0], len[0], msg, n, false, w);
        if (n > 0) {
            msg[rnd64() % n] ^= 1;
            snprintf(w, sizeof w, "%s, changed message", what);
            for (int i = 0; i < 2; i++)
                verify_expect(p, k->pub[i], sig[1], len[1], msg, n, false, w);
        }
    }
    free(msg);
}


/* deriveBits on both sides (the full secret and a length that is not a
 * multiple of 8) must agree. */
void derive_both(const webcrypto_params *alg, webcrypto_key *const priv[2],
                        webcrypto_key *const peer[2], size_t full, const char *what) {
    size_t lengths[2] = {WEBCRYPTO_LENGTH_FULL, full * 8 - 3};
    for (int l = 0; l < 2; l++) {
        uint8_t out[2][66];
        bool ok = true;
        for (int i = 0; i < 2; i++) {
            webcrypto_params p = *alg;
            p.public_key = peer[i];
            size_t dlen = 0;
            webcrypto_status st = webcrypto_derive_bits(&p, priv[i], lengths[l], out[i], full, &dlen);
            if (st != WEBCRYPTO_OK) {
                fail("%s: deriveBits on %s: %s (%s)", what,
                     webcrypto_backend_name(webcrypto_key_get_backend(priv[i])),
                     webcrypto_status_name(st), LAST_ERROR);
                ok = false;
            }
        }
        char w[240];
        snprintf(w, sizeof w, "%s, %s", what,
                 l == 0 ? "full secret" : "length not a multiple of 8");
        if (ok) check_same(w, full, out[0], full, out[1], full);
    }
}

webcrypto_key_format diff_secret_format(webcrypto_algorithm alg) {
    return webcrypto_algorithm_has_format(alg, WEBCRYPTO_FORMAT_RAW) ? WEBCRYPTO_FORMAT_RAW
                                                                     : WEBCRYPTO_FORMAT_RAW_SECRET;
}

/* ---- the driver ---- */

/* The names given in the environment, kept for the process's life (the
 * backend handles refer to them only by name, but the messages print them). */
static char list_buf[1024], extra_buf[1024];

int diff_open_backends(const webcrypto_backend **backends, size_t *n_out) {
    const char *names[DIFF_MAX_BACKENDS];
    size_t n_names = 0;
    /* $WEBCRYPTO_DIFF_BACKENDS, if set, replaces the list of built-in ones. */
    const char *only = getenv("WEBCRYPTO_DIFF_BACKENDS");
    if (only && *only)
        snprintf(list_buf, sizeof list_buf, "%s", only);
    else
        for (size_t i = 0; i < webcrypto_backend_count() && n_names < DIFF_MAX_BACKENDS; i++)
            names[n_names++] = webcrypto_backend_name_at(i);
    const char *extra = getenv("WEBCRYPTO_DIFF_EXTRA");
    if (extra) snprintf(extra_buf, sizeof extra_buf, "%s", extra);
    char *lists[2] = {list_buf, extra_buf};
    for (int l = 0; l < 2; l++)
        for (char *save = NULL, *t = strtok_r(lists[l], ", ", &save);
             t && n_names < DIFF_MAX_BACKENDS; t = strtok_r(NULL, ", ", &save)) {
            bool dup = false;
            for (size_t i = 0; i < n_names && !dup; i++) dup = strcmp(names[i], t) == 0;
            if (!dup) names[n_names++] = t;
        }

    size_t n = 0;
    for (size_t i = 0; i < n_names; i++) {
        const webcrypto_backend *b = NULL;
        if (webcrypto_backend_get(names[i], &b) != WEBCRYPTO_OK) {
            /* Every name here was built in or asked for: one that cannot
             * start is a failure, not a smaller comparison. */
            printf("backend %s: FAILED to start (%s)\n", names[i], webcrypto_error_message());
            total_failed++;
            continue;
        }
        const char *desc = webcrypto_backend_description(b);
        printf("backend %s: %s\n", names[i], desc);
        /* A run registered for one JDK (tests/jca.cmake's
         * WEBCRYPTO_TEST_JAVA_VERSION) must be on it: a JAVA_HOME that did
         * not take effect would compare the wrong JVM unnoticed. */
        const char *want = getenv("WEBCRYPTO_TEST_JAVA_VERSION");
        if (want && *want && strncmp(names[i], "jca", 3) == 0) {
            char java[64];
            snprintf(java, sizeof java, "Java %s", want);
            if (!strstr(desc, java)) {
                printf("backend %s: FAILED: not on %s, as the test was registered for\n",
                       names[i], java);
                total_failed++;
            }
        }
        backends[n++] = b;
    }
    *n_out = n;
    if (n_names < 2) {
        printf("SKIP: %zu backend(s) built; the differential test needs two\n", n_names);
        return 77;
    }
    if (n < 2) {
        diff_print_totals();
        return 1;
    }
    return 0;
}

uint64_t diff_seed(void) {
    uint64_t seed = UINT64_C(0x5eed0fd1ff);
    const char *seed_env = getenv("WEBCRYPTO_DIFF_SEED");
    if (seed_env && *seed_env) seed = strtoull(seed_env, NULL, 0);
    printf("seed 0x%llx\n", (unsigned long long)seed);
    return seed;
}

void diff_run_pairs(const webcrypto_backend *const *backends, size_t n, uint64_t seed,
                    void (*run_pair)(const webcrypto_backend *, const webcrypto_backend *,
                                     uint64_t)) {
    /* $WEBCRYPTO_DIFF_SELF_PAIRS=1 also pairs each backend with itself: a
     * check of the comparisons' own code for an algorithm only one
     * backend has yet (and of its determinism), not a differential. */
    const char *self = getenv("WEBCRYPTO_DIFF_SELF_PAIRS");
    size_t first = self && strcmp(self, "1") == 0 ? 0 : 1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + first; j < n; j++) {
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
            cur = NULL;
        }
}

void diff_print_totals(void) {
    printf("%zu passed, %zu failed, %zu skipped\n", total_passed, total_failed, total_skipped);
}
