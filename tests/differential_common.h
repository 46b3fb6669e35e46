/*
 * differential_common.h - what the differential tests share
 * (test_differential.c: the algorithms of WebCrypto and AES-GCM-SIV;
 * test_differential_modern.c: those the drafts added in 0.3). Every
 * comparison runs on a pair of backends (a, b); the counts go to the pair
 * being run (cur) and to the totals.
 */
#ifndef WEBCRYPTO_TEST_DIFFERENTIAL_COMMON_H
#define WEBCRYPTO_TEST_DIFFERENTIAL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "webcrypto.h"

#define DIFF_MAX_BACKENDS 16
/* The largest signature sign_both takes: ML-DSA-87's 4627 bytes. */
#define DIFF_MAX_SIG 4700

/* The last error message, for failures that come with a status. */
#define LAST_ERROR webcrypto_error_message()

/* ---- deterministic randomness (splitmix64), from the run's seed ---- */
extern uint64_t rng_state;
uint64_t rnd64(void);
size_t rnd_range(size_t lo, size_t hi); /* uniform enough in [lo, hi] */
void rnd_fill(uint8_t *p, size_t n);
/* malloc that never returns NULL (at least 1 byte), filled with random data. */
uint8_t *rnd_buf(size_t n);

/* ---- results ---- */
typedef struct pair_result {
    size_t identical, failed, skipped;
    char skip_reasons[1024];
} pair_result;

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

/* A key pair's exported pkcs8 and spki, or nothing (p NULL). */
typedef struct pair_src {
    blob priv, pub;
    const char *label; /* where it was generated */
} pair_src;

/* A key pair imported on both backends of the pair: k[0] on a, k[1] on b. */
typedef struct both_keys {
    webcrypto_key *priv[2], *pub[2];
} both_keys;

extern pair_result *cur;              /* the pair being run */
extern const char *cur_a, *cur_b;     /* its backends' names */
extern size_t total_passed, total_failed, total_skipped;

void pass(void);
/* A failed check of the pair (the first 40 are printed). */
void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Records that an algorithm was skipped for the pair (the reason once). */
void skip(const char *reason);
/* Checks two outputs are equal; reports where they first differ. */
void check_same(const char *what, size_t size, const uint8_t *x, size_t xl, const uint8_t *y,
                size_t yl);
void check_status(const char *what, size_t size, webcrypto_status got, webcrypto_status expected);

/* ---- helpers over the public API ---- */
/* The format of a secret key's bytes: raw, or raw-secret for the
 * algorithms that have no raw (the drafts': ChaCha20-Poly1305, AES-OCB,
 * KMAC, Argon2). */
webcrypto_key_format diff_secret_format(webcrypto_algorithm alg);
/* A secret key from its bytes, not extractable (fails the pair and
 * returns NULL on error). */
webcrypto_key *import(const webcrypto_backend *b, const webcrypto_params *p, const uint8_t *raw,
                      size_t len, unsigned usages);
/* Encrypts or decrypts into a malloc'd buffer sized by a query. */
webcrypto_status do_crypt(bool encrypt, const webcrypto_params *p, const webcrypto_key *k,
                          const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);
/* True if both backends have alg (and hash, if not NONE); otherwise records
 * the skip and returns false. */
bool both_support(const webcrypto_backend *a, const webcrypto_backend *b, webcrypto_algorithm alg,
                  webcrypto_algorithm hash);
void blob_free(blob *b);
/* Frees the blobs of n key sources. */
void pair_srcs_free(pair_src *srcs, size_t n);
/* The index of b in backends[0..n), or n if it is not there. */
size_t backend_index(const webcrypto_backend *const *backends, size_t n,
                     const webcrypto_backend *b);
/* Exports key in fmt into *out (fails the pair on error). */
bool export_to(webcrypto_key_format fmt, const webcrypto_key *key, blob *out, const char *what);
/* Imports data in fmt, extractable (fails the pair and returns NULL on error). */
webcrypto_key *import_fmt(const webcrypto_backend *b, webcrypto_key_format fmt, const blob *data,
                          const webcrypto_params *p, unsigned usages, const char *what);

/* ---- operations on both sides of the pair ---- */
/* Encrypts pt on both backends with p (a random raw key of key_len bytes),
 * compares, decrypts each side's ciphertext on the other side, in place
 * too, and (if tamper) checks that both refuse a changed ciphertext with
 * OperationError. */
void diff_cipher(const webcrypto_backend *a, const webcrypto_backend *b, const webcrypto_params *p,
                 size_t key_len, const char *what, const uint8_t *pt, size_t n, bool tamper);
/* deriveBits on both with the same raw key bytes and params; compares. */
void diff_derive(const webcrypto_backend *a, const webcrypto_backend *b, const webcrypto_params *p,
                 const uint8_t *key, size_t key_len, size_t out_len, const char *what);
/* Generates a pair of alg on b and keeps its pkcs8 and spki in *src. */
void make_src(const webcrypto_backend *b, const webcrypto_params *alg, unsigned usages,
              pair_src *src);
void both_free(both_keys *k);
/* The exports of the same key on both sides must be byte-identical. */
void compare_export(webcrypto_key_format fmt, webcrypto_key *const k[2], const char *what);
/* Imports src on a and b with p (private usages priv_use, public pub_use)
 * and compares every export (raw too, except for RSA). False (and nothing
 * to free) on failure. */
bool import_both(const webcrypto_backend *a, const webcrypto_backend *b, const pair_src *src,
                 const webcrypto_params *p, unsigned priv_use, unsigned pub_use, const char *what,
                 both_keys *k);
/* Signs msg with key into sig (cap bytes); reports failures. */
bool sign_on(const webcrypto_params *p, webcrypto_key *key, const uint8_t *msg, size_t n,
             uint8_t *sig, size_t cap, size_t *len, const char *what);
/* verify on key must answer `expect`. */
void verify_expect(const webcrypto_params *p, webcrypto_key *key, const uint8_t *sig,
                   size_t sig_len, const uint8_t *msg, size_t n, bool expect, const char *what);
/* Signs an n-byte random message on both sides; deterministic schemes must
 * give identical signatures; each side's signature must verify on the
 * other, and a changed one on neither. */
void sign_both(const webcrypto_params *p, both_keys *k, size_t n, bool deterministic,
               const char *what);
/* deriveBits on both sides (the full secret of `full` bytes and a length
 * that is not a multiple of 8) must agree. */
void derive_both(const webcrypto_params *alg, webcrypto_key *const priv[2],
                 webcrypto_key *const peer[2], size_t full, const char *what);

/* ---- the driver ---- */
/* Opens the backends: those compiled in, or those named in
 * $WEBCRYPTO_DIFF_BACKENDS, plus any "name:variant" in $WEBCRYPTO_DIFF_EXTRA
 * (commas or spaces). One that cannot start is a failure, and so is a jca
 * backend not on $WEBCRYPTO_TEST_JAVA_VERSION when that is set. Returns 0 with
 * backends[0..*n) set, else the exit code: 77 (fewer than two listed), 1
 * (fewer than two started). */
int diff_open_backends(const webcrypto_backend **backends, size_t *n);
/* The run's seed: a fixed one, or $WEBCRYPTO_DIFF_SEED; printed. */
uint64_t diff_seed(void);
/* run_pair on every pair (each starting from seed), with a line of counts
 * per pair; with $WEBCRYPTO_DIFF_SELF_PAIRS=1 also each backend with
 * itself (to exercise the comparisons of an algorithm one backend has). */
void diff_run_pairs(const webcrypto_backend *const *backends, size_t n, uint64_t seed,
                    void (*run_pair)(const webcrypto_backend *, const webcrypto_backend *,
                                     uint64_t));
/* "N passed, N failed, N skipped" */
void diff_print_totals(void);

#endif
