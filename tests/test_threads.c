/* One key shared by several threads: every thread gets the single-threaded
 * answer (keys are immutable; their backend state is read-only but for
 * atomic caches). */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define THREADS 4
#define ROUNDS 300

/* AES-GCM-SIV (where the backend has it) on a message longer than the
 * openssl backend's keystream batch (4096 bytes), under a nonce of its own
 * per thread and round: the message keys differ, so per-call state used by
 * two calls at once (the openssl backend lends contexts between calls)
 * would show as a wrong tag. */
#define SIV_LEN 5000

struct job {
    webcrypto_key *gcm, *hmac, *cbc, *siv; /* siv: NULL without AES-GCM-SIV */
    uint8_t expect_gcm[64 + 16], expect_mac[32], expect_cbc[80];
    uint8_t siv_tags[THREADS][ROUNDS][16]; /* computed by one thread first */
    pthread_barrier_t start;               /* all threads begin together */
    int failures;
};

struct worker_arg {
    struct job *job;
    int index;
};

static const uint8_t iv[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const uint8_t iv16[16] = {9};
static uint8_t msg[64], long_msg[SIV_LEN];

static void siv_nonce(uint8_t nonce[12], int t, int r) {
    memset(nonce, 0, 12);
    nonce[0] = (uint8_t)t;
    nonce[1] = (uint8_t)r;
    nonce[2] = (uint8_t)(r >> 8);
}

static void siv_round(struct job *j, int t, int r) {
    uint8_t nonce[12];
    siv_nonce(nonce, t, r);
    webcrypto_params siv = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce, .iv_len = 12);
    uint8_t out[SIV_LEN + 16], back[SIV_LEN];
    size_t n, m;
    if (webcrypto_encrypt(&siv, j->siv, long_msg, sizeof long_msg, out, sizeof out, &n) ||
        n != sizeof out || memcmp(out + SIV_LEN, j->siv_tags[t][r], 16))
        __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
    if (webcrypto_decrypt(&siv, j->siv, out, n, back, sizeof back, &m) || m != sizeof long_msg ||
        memcmp(back, long_msg, m))
        __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg) {
    struct job *j = ((struct worker_arg *)arg)->job;
    int t = ((struct worker_arg *)arg)->index;
    pthread_barrier_wait(&j->start);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv);
    webcrypto_params cbc = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = sizeof iv16);
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    for (int r = 0; r < ROUNDS; r++) {
        uint8_t out[96], back[96];
        size_t n, m;
        bool valid = false;
        if (webcrypto_encrypt(&gcm, j->gcm, msg, sizeof msg, out, sizeof out, &n) ||
            n != sizeof j->expect_gcm || memcmp(out, j->expect_gcm, n))
            __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
        if (webcrypto_decrypt(&gcm, j->gcm, out, n, back, sizeof back, &m) || m != sizeof msg ||
            memcmp(back, msg, m))
            __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
        if (webcrypto_sign(&mac, j->hmac, msg, sizeof msg, out, sizeof out, &n) || n != 32 ||
            memcmp(out, j->expect_mac, n))
            __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
        if (webcrypto_verify(&mac, j->hmac, out, n, msg, sizeof msg, &valid) || !valid)
            __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
        if (webcrypto_encrypt(&cbc, j->cbc, msg, sizeof msg, out, sizeof out, &n) ||
            n != sizeof j->expect_cbc || memcmp(out, j->expect_cbc, n))
            __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
        if (j->siv) siv_round(j, t, r);
    }
    return NULL;
}

/* Signature keys shared by threads from their first call: the openssl
 * backend makes a key's prepared signing contexts on first use and publishes
 * them atomically, so the threads race to make them here. Each thread signs
 * and verifies with every key, alternating the ECDSA hash and the RSA-PSS
 * salt length on the same key, and checks that a wrong hash, salt or a
 * changed signature is refused (per-call settings stay per call). */
#define SIG_THREADS 4
#define SIG_ROUNDS 12

struct sig_job {
    webcrypto_key *ec_pub, *ec_priv, *ps_pub, *ps_priv, *ed_pub, *ed_priv;
    uint8_t ed_sigs[SIG_THREADS][64]; /* Ed25519 is deterministic: all equal */
    pthread_barrier_t start;
    int failures;
};

struct sig_arg {
    struct sig_job *job;
    int index;
};

/* Signs msg with priv and checks: verifies with pub under p, not under bad,
 * and not once a bit of the signature is changed. */
static bool sig_round(const webcrypto_params *p, const webcrypto_params *bad,
                      const webcrypto_key *pub, const webcrypto_key *priv, uint8_t *sig,
                      size_t cap, size_t want) {
    size_t n = 0;
    bool valid = false, ok = true;
    ok = ok && !webcrypto_sign(p, priv, msg, sizeof msg, sig, cap, &n) && n == want;
    ok = ok && !webcrypto_verify(p, pub, sig, n, msg, sizeof msg, &valid) && valid;
    if (bad) ok = ok && !webcrypto_verify(bad, pub, sig, n, msg, sizeof msg, &valid) && !valid;
    if (ok) sig[n / 2] ^= 0x10;
    ok = ok && !webcrypto_verify(p, pub, sig, n, msg, sizeof msg, &valid) && !valid;
    if (ok) sig[n / 2] ^= 0x10;
    return ok;
}

static void *sig_worker(void *arg) {
    struct sig_job *j = ((struct sig_arg *)arg)->job;
    int t = ((struct sig_arg *)arg)->index;
    pthread_barrier_wait(&j->start);
    webcrypto_params e256 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_params e384 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = WEBCRYPTO_ALG_SHA_384);
    webcrypto_params ps0 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_PSS, .salt_length = 0);
    webcrypto_params ps32 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_PSS, .salt_length = 32);
    webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
    for (int r = 0; r < SIG_ROUNDS; r++) {
        uint8_t sig[128];
        bool odd = (r + t) & 1;
        bool ok = sig_round(odd ? &e384 : &e256, odd ? &e256 : &e384, j->ec_pub, j->ec_priv, sig,
                            sizeof sig, 64);
        ok = sig_round(odd ? &ps32 : &ps0, odd ? &ps0 : &ps32, j->ps_pub, j->ps_priv, sig,
                       sizeof sig, 128) && ok;
        ok = sig_round(&ed, NULL, j->ed_pub, j->ed_priv, sig, sizeof sig, 64) && ok;
        if (r == 0) memcpy(j->ed_sigs[t], sig, 64);
        if (!ok) __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void test_shared_signing_keys(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_ED25519);
    static const uint8_t f4[] = {1, 0, 1};
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 3);
    unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    static struct sig_job j;
    memset(&j, 0, sizeof j);
    webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_params ps = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_PSS, .hash = WEBCRYPTO_ALG_SHA_256,
                                           .modulus_length = 1024, .public_exponent = f4,
                                           .public_exponent_len = sizeof f4);
    webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &ec, false, sv, &j.ec_pub, &j.ec_priv),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &ps, false, sv, &j.ps_pub, &j.ps_priv),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &ed, false, sv, &j.ed_pub, &j.ed_priv),
                     WEBCRYPTO_OK);
    assert_int_equal(pthread_barrier_init(&j.start, NULL, SIG_THREADS), 0);
    pthread_t th[SIG_THREADS];
    struct sig_arg args[SIG_THREADS];
    for (int t = 0; t < SIG_THREADS; t++) {
        args[t] = (struct sig_arg){&j, t};
        assert_int_equal(pthread_create(&th[t], NULL, sig_worker, &args[t]), 0);
    }
    for (int t = 0; t < SIG_THREADS; t++) assert_int_equal(pthread_join(th[t], NULL), 0);
    pthread_barrier_destroy(&j.start);
    assert_int_equal(j.failures, 0);
    /* Ed25519's signature is the one a single thread makes now. */
    uint8_t want[64];
    size_t n = 0;
    tu_assert_status(webcrypto_sign(&ed, j.ed_priv, msg, sizeof msg, want, sizeof want, &n),
                     WEBCRYPTO_OK);
    assert_int_equal(n, sizeof want);
    for (int t = 0; t < SIG_THREADS; t++) assert_memory_equal(j.ed_sigs[t], want, sizeof want);
    webcrypto_key_free(j.ec_pub);
    webcrypto_key_free(j.ec_priv);
    webcrypto_key_free(j.ps_pub);
    webcrypto_key_free(j.ps_priv);
    webcrypto_key_free(j.ed_pub);
    webcrypto_key_free(j.ed_priv);
}

static void test_shared_key(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    struct job j = {0};
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)i;
    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    webcrypto_params g = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256);
    webcrypto_params c = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .length = 128);
    webcrypto_params h = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    tu_assert_status(webcrypto_generate_key(b, &g, false, ed, &j.gcm), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_generate_key(b, &c, false, ed, &j.cbc), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_generate_key(b, &h, false,
                                            WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &j.hmac),
                     WEBCRYPTO_OK);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv);
    webcrypto_params cbc = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = sizeof iv16);
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    size_t n;
    tu_assert_status(webcrypto_encrypt(&gcm, j.gcm, msg, sizeof msg, j.expect_gcm,
                                       sizeof j.expect_gcm, &n),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign(&mac, j.hmac, msg, sizeof msg, j.expect_mac,
                                    sizeof j.expect_mac, &n),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_encrypt(&cbc, j.cbc, msg, sizeof msg, j.expect_cbc,
                                       sizeof j.expect_cbc, &n),
                     WEBCRYPTO_OK);
    if (webcrypto_backend_supports(b, WEBCRYPTO_ALG_AES_GCM_SIV)) {
        for (size_t i = 0; i < sizeof long_msg; i++) long_msg[i] = (uint8_t)(i * 7);
        webcrypto_params sg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV, .length = 256);
        tu_assert_status(webcrypto_generate_key(b, &sg, false, ed, &j.siv), WEBCRYPTO_OK);
        static uint8_t ct[SIV_LEN + 16];
        for (int t = 0; t < THREADS; t++) {
            for (int r = 0; r < ROUNDS; r++) {
                uint8_t nonce[12];
                siv_nonce(nonce, t, r);
                webcrypto_params siv = WEBCRYPTO_PARAMS(
                    .name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce, .iv_len = sizeof nonce);
                tu_assert_status(webcrypto_encrypt(&siv, j.siv, long_msg, sizeof long_msg, ct,
                                                   sizeof ct, &n),
                                 WEBCRYPTO_OK);
                memcpy(j.siv_tags[t][r], ct + SIV_LEN, 16);
            }
        }
    } else {
        printf("this backend has no AES-GCM-SIV: shared AES-GCM, AES-CBC and HMAC keys only\n");
    }
    pthread_t t[THREADS];
    struct worker_arg args[THREADS];
    assert_int_equal(pthread_barrier_init(&j.start, NULL, THREADS), 0);
    for (int i = 0; i < THREADS; i++) {
        args[i] = (struct worker_arg){.job = &j, .index = i};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &args[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&j.start);
    assert_int_equal(j.failures, 0);
    webcrypto_key_free(j.gcm);
    webcrypto_key_free(j.hmac);
    webcrypto_key_free(j.cbc);
    webcrypto_key_free(j.siv);
}

/* ---- keys and threads that end in any order ----
 * A backend may keep per-thread state per key (the openssl backend keeps
 * keyed contexts per thread): it must be freed with whichever ends first,
 * the key or the thread, and never reached again afterwards. */

enum { KEYS = 48 };

/* A set of keys of every kind a backend may cache per thread, with the
 * answers the main thread computed. */
struct keyset {
    int n;
    webcrypto_key *gcm[KEYS], *mac[KEYS], *cbc[KEYS], *ctr[KEYS];
    uint8_t gcm_out[KEYS][64 + 16], mac_out[KEYS][32], cbc_out[KEYS][80], ctr_out[KEYS][64];
    uint8_t digest_out[32];
};

static const uint8_t ctr_block[16] = {0xfe, 1, 2, 3};

/* Runs every operation with key i of k; true if all answers are k's. */
static bool use_key(struct keyset *k, int i) {
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv);
    /* a second IV length, so a cached context's IV length must follow */
    webcrypto_params gcm16 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv16, .iv_len = sizeof iv16);
    webcrypto_params cbc = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = sizeof iv16);
    webcrypto_params ctr = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR, .counter = ctr_block,
                                            .counter_len = sizeof ctr_block, .length = 64);
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    uint8_t out[96], back[96];
    size_t n, m;
    bool valid = false, ok = true;
    ok = ok && !webcrypto_encrypt(&gcm16, k->gcm[i], msg, sizeof msg, out, sizeof out, &n);
    ok = ok && !webcrypto_encrypt(&gcm, k->gcm[i], msg, sizeof msg, out, sizeof out, &n) &&
         n == sizeof k->gcm_out[i] && !memcmp(out, k->gcm_out[i], n);
    ok = ok && !webcrypto_decrypt(&gcm, k->gcm[i], out, n, back, sizeof back, &m) &&
         m == sizeof msg && !memcmp(back, msg, m);
    out[0] ^= 1; /* a failed open must not spoil the next call */
    ok = ok && webcrypto_decrypt(&gcm, k->gcm[i], out, n, back, sizeof back, &m) ==
                   WEBCRYPTO_ERR_OPERATION;
    ok = ok && !webcrypto_sign(&mac, k->mac[i], msg, sizeof msg, out, sizeof out, &n) &&
         n == 32 && !memcmp(out, k->mac_out[i], n);
    ok = ok && !webcrypto_verify(&mac, k->mac[i], out, n, msg, sizeof msg, &valid) && valid;
    ok = ok && !webcrypto_encrypt(&cbc, k->cbc[i], msg, sizeof msg, out, sizeof out, &n) &&
         n == sizeof k->cbc_out[i] && !memcmp(out, k->cbc_out[i], n);
    ok = ok && !webcrypto_decrypt(&cbc, k->cbc[i], out, n, back, sizeof back, &m) &&
         m == sizeof msg && !memcmp(back, msg, m);
    ok = ok && !webcrypto_encrypt(&ctr, k->ctr[i], msg, sizeof msg, out, sizeof out, &n) &&
         n == sizeof k->ctr_out[i] && !memcmp(out, k->ctr_out[i], n);
    ok = ok && !webcrypto_digest(tu_backend(), WEBCRYPTO_ALG_SHA_256, msg, sizeof msg, out,
                                 sizeof out, &n) &&
         n == 32 && !memcmp(out, k->digest_out, n);
    return ok;
}

/* Imports n keys (distinct bytes per key and kind) and computes their answers. */
static void keyset_make(struct keyset *k, int n, unsigned seed) {
    const webcrypto_backend *b = tu_backend();
    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    webcrypto_params g = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_params c = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC);
    webcrypto_params t = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR);
    webcrypto_params h = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv);
    webcrypto_params cbc = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = sizeof iv16);
    webcrypto_params ctr = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR, .counter = ctr_block,
                                            .counter_len = sizeof ctr_block, .length = 64);
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    size_t len;
    k->n = n;
    for (int i = 0; i < n; i++) {
        uint8_t raw[32];
        for (size_t j = 0; j < sizeof raw; j++) raw[j] = (uint8_t)(seed * 131 + (unsigned)i * 7 + j);
        tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, 32, &g, false, ed,
                                              &k->gcm[i]),
                         WEBCRYPTO_OK);
        raw[0] ^= 1;
        tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, 16, &c, false, ed,
                                              &k->cbc[i]),
                         WEBCRYPTO_OK);
        raw[0] ^= 2;
        tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, 32, &t, false, ed,
                                              &k->ctr[i]),
                         WEBCRYPTO_OK);
        raw[0] ^= 4;
        tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, 20 + (size_t)(i % 13),
                                              &h, false, sv, &k->mac[i]),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_encrypt(&gcm, k->gcm[i], msg, sizeof msg, k->gcm_out[i],
                                           sizeof k->gcm_out[i], &len),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_sign(&mac, k->mac[i], msg, sizeof msg, k->mac_out[i],
                                        sizeof k->mac_out[i], &len),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_encrypt(&cbc, k->cbc[i], msg, sizeof msg, k->cbc_out[i],
                                           sizeof k->cbc_out[i], &len),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_encrypt(&ctr, k->ctr[i], msg, sizeof msg, k->ctr_out[i],
                                           sizeof k->ctr_out[i], &len),
                         WEBCRYPTO_OK);
    }
    tu_assert_status(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, msg, sizeof msg, k->digest_out,
                                      sizeof k->digest_out, &len),
                     WEBCRYPTO_OK);
}

static void keyset_free(struct keyset *k, int from, int to) {
    for (int i = from; i < to; i++) {
        webcrypto_key_free(k->gcm[i]);
        webcrypto_key_free(k->mac[i]);
        webcrypto_key_free(k->cbc[i]);
        webcrypto_key_free(k->ctr[i]);
        k->gcm[i] = k->mac[i] = k->cbc[i] = k->ctr[i] = NULL;
    }
}

/* Two phases a worker goes through, with the main thread in between. */
struct phases {
    struct keyset *k;
    pthread_barrier_t step;
    int failures;
};

static void *use_all(void *arg) {
    struct phases *p = arg;
    for (int i = 0; i < p->k->n; i++)
        if (!use_key(p->k, i)) __atomic_add_fetch(&p->failures, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* Phase 1: every key; wait while the main thread frees the first half;
 * phase 2: the second half again (a thread's cache with freed keys' entries
 * gone must still find the rest), and new keys made by this thread. */
static void *use_free_use(void *arg) {
    struct phases *p = arg;
    struct keyset *k = p->k;
    for (int i = 0; i < k->n; i++)
        if (!use_key(k, i)) __atomic_add_fetch(&p->failures, 1, __ATOMIC_RELAXED);
    pthread_barrier_wait(&p->step); /* main frees keys 0 .. n/2 - 1 */
    pthread_barrier_wait(&p->step);
    for (int i = k->n / 2; i < k->n; i++)
        if (!use_key(k, i)) __atomic_add_fetch(&p->failures, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* Threads use keys and exit while the keys live; the keys still work on
 * the main thread and on new threads, and are freed after. */
static void test_threads_exit_before_keys(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
               WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    static struct keyset k;
    keyset_make(&k, KEYS, 1);
    struct phases p = {.k = &k};
    for (int round = 0; round < 3; round++) {
        pthread_t t[THREADS];
        for (int i = 0; i < THREADS; i++)
            assert_int_equal(pthread_create(&t[i], NULL, use_all, &p), 0);
        for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
        for (int i = 0; i < k.n; i++) assert_true(use_key(&k, i));
    }
    assert_int_equal(p.failures, 0);
    keyset_free(&k, 0, k.n);
}

/* The main thread frees keys that idle (live) threads used last; the
 * threads then go on with the other keys. */
static void test_keys_freed_while_threads_idle(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
               WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    static struct keyset k;
    keyset_make(&k, KEYS, 2);
    struct phases p = {.k = &k};
    pthread_t t[THREADS];
    assert_int_equal(pthread_barrier_init(&p.step, NULL, THREADS + 1), 0);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, use_free_use, &p), 0);
    pthread_barrier_wait(&p.step);
    keyset_free(&k, 0, k.n / 2);
    /* New keys, likely at the freed keys' addresses: their answers must be
     * theirs, not a stale context's. */
    static struct keyset fresh;
    keyset_make(&fresh, KEYS / 2, 3);
    pthread_barrier_wait(&p.step);
    struct phases q = {.k = &fresh};
    pthread_t u;
    assert_int_equal(pthread_create(&u, NULL, use_all, &q), 0);
    for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(pthread_join(u, NULL), 0);
    pthread_barrier_destroy(&p.step);
    assert_int_equal(p.failures, 0);
    assert_int_equal(q.failures, 0);
    keyset_free(&k, k.n / 2, k.n);
    keyset_free(&fresh, 0, fresh.n);
}

/* Threads with many keys at once, more than the openssl backend keeps per
 * thread (1024: a per-thread table must grow, evict, and shrink again as
 * keys go); the main thread frees half of them between the two rounds. */
enum { SETS = 12 }; /* 12 x 48 x 4 = 2304 keys */
static struct keyset many[SETS];

struct many_job {
    int first, step; /* the sets used: first, first + step, ... */
    int failures;
};

static void *use_many(void *arg) {
    struct many_job *m = arg;
    for (int pass = 0; pass < 2; pass++)
        for (int s = m->first; s < SETS; s += m->step)
            for (int i = 0; i < KEYS; i++)
                if (!use_key(&many[s], i)) __atomic_add_fetch(&m->failures, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void test_many_keys(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
               WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    for (int s = 0; s < SETS; s++) keyset_make(&many[s], KEYS, 10 + (unsigned)s);
    struct many_job all = {.first = 0, .step = 1}, odd = {.first = 1, .step = 2};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, use_many, &all), 0);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int s = 0; s < SETS; s += 2) keyset_free(&many[s], 0, KEYS);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, use_many, &odd), 0);
    use_many(&odd);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int s = 1; s < SETS; s += 2) keyset_free(&many[s], 0, KEYS);
    assert_int_equal(all.failures, 0);
    assert_int_equal(odd.failures, 0);
}

/* ---- key churn: many keys made and freed while two threads use them ----
 * The main thread imports a batch of keys, two workers use each one, the
 * main thread frees them (the workers idle, their caches holding the keys),
 * and so on; the workers are replaced every few batches, exiting while the
 * batch's keys live. The resident set must not grow with the number of
 * keys (jca's excepted: a JVM's heap grows). $WEBCRYPTO_CHURN_KEYS sets
 * the count (default 100000 on openssl, whose per-thread caches this is
 * about, else 10000; at least two pairs of workers' worth, 40000). */

enum { CHURN_WORKERS = 2, CHURN_BATCH = 50, CHURN_EPOCH = 200 /* batches per pair of workers */ };

struct churn {
    webcrypto_key *gcm[CHURN_BATCH], *mac[CHURN_BATCH];
    uint8_t gcm_out[CHURN_BATCH][64 + 16], mac_out[CHURN_BATCH][32];
    int batches; /* in this epoch */
    pthread_barrier_t step;
    int failures;
};

static void *churn_worker(void *arg) {
    struct churn *c = arg;
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv);
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    for (int b = 0; b < c->batches; b++) {
        pthread_barrier_wait(&c->step); /* the batch is made */
        for (int i = 0; i < CHURN_BATCH; i++) {
            uint8_t out[96];
            size_t n;
            if (webcrypto_encrypt(&gcm, c->gcm[i], msg, sizeof msg, out, sizeof out, &n) ||
                n != sizeof c->gcm_out[i] || memcmp(out, c->gcm_out[i], n))
                __atomic_add_fetch(&c->failures, 1, __ATOMIC_RELAXED);
            if (webcrypto_sign(&mac, c->mac[i], msg, sizeof msg, out, sizeof out, &n) ||
                n != 32 || memcmp(out, c->mac_out[i], n))
                __atomic_add_fetch(&c->failures, 1, __ATOMIC_RELAXED);
        }
        pthread_barrier_wait(&c->step); /* used: the main thread frees it */
    }
    return NULL;
}

/* gcc says it builds with a sanitizer by __SANITIZE_*__, clang by __has_feature. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED_BY_FEATURE 1
#endif
#endif
#ifndef SANITIZED_BY_FEATURE
#define SANITIZED_BY_FEATURE 0
#endif

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = -1, resident = -1;
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Makes, checks and frees batch after batch; the answers come from the main
 * thread, which uses every key first (so it caches them too). */
static void churn_run(struct churn *c, int batches, int *batch_no) {
    const webcrypto_backend *b = tu_backend();
    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    webcrypto_params g = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_params h = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv);
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    pthread_t t[CHURN_WORKERS];
    c->batches = batches;
    for (int i = 0; i < CHURN_WORKERS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, churn_worker, c), 0);
    for (int n = 0; n < batches; n++, (*batch_no)++) {
        for (int i = 0; i < CHURN_BATCH; i++) {
            uint8_t raw[32];
            size_t len;
            for (size_t j = 0; j < sizeof raw; j++)
                raw[j] = (uint8_t)((unsigned)*batch_no * 31 + (unsigned)i * 5 + j);
            tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, 32, &g, false,
                                                  ed, &c->gcm[i]),
                             WEBCRYPTO_OK);
            tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, 32, &h, false,
                                                  sv, &c->mac[i]),
                             WEBCRYPTO_OK);
            tu_assert_status(webcrypto_encrypt(&gcm, c->gcm[i], msg, sizeof msg, c->gcm_out[i],
                                               sizeof c->gcm_out[i], &len),
                             WEBCRYPTO_OK);
            tu_assert_status(webcrypto_sign(&mac, c->mac[i], msg, sizeof msg, c->mac_out[i],
                                            sizeof c->mac_out[i], &len),
                             WEBCRYPTO_OK);
        }
        pthread_barrier_wait(&c->step);
        pthread_barrier_wait(&c->step);
        if (n == batches - 1) {
            /* The workers exit with this batch's keys alive. */
            for (int i = 0; i < CHURN_WORKERS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
        }
        for (int i = 0; i < CHURN_BATCH; i++) {
            webcrypto_key_free(c->gcm[i]);
            webcrypto_key_free(c->mac[i]);
        }
    }
}

static void test_key_churn(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    const char *env = getenv("WEBCRYPTO_CHURN_KEYS");
    bool openssl = strcmp(webcrypto_backend_name(tu_backend()), "openssl") == 0;
    long keys = env && *env ? atol(env) : openssl ? 100000 : 10000;
    /* keys counts both kinds: a batch makes CHURN_BATCH of each */
    int batches = (int)(keys / (2 * CHURN_BATCH));
    if (batches < 2 * CHURN_EPOCH) batches = 2 * CHURN_EPOCH;
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)i;
    static struct churn c;
    assert_int_equal(pthread_barrier_init(&c.step, NULL, CHURN_WORKERS + 1), 0);
    int batch_no = 0;
    /* The first epoch warms up the allocator, OpenSSL and the caches. */
    churn_run(&c, CHURN_EPOCH, &batch_no);
    long before = rss_kib();
    while (batch_no < batches)
        churn_run(&c, batches - batch_no < CHURN_EPOCH ? batches - batch_no : CHURN_EPOCH,
                  &batch_no);
    long after = rss_kib();
    pthread_barrier_destroy(&c.step);
    assert_int_equal(c.failures, 0);
    printf("key churn: %d keys (%d batches, workers replaced every %d batches), RSS %ld KiB "
           "after the first %d keys, %ld KiB at the end\n",
           batch_no * 2 * CHURN_BATCH, batch_no, CHURN_EPOCH, before,
           CHURN_EPOCH * 2 * CHURN_BATCH, after);
    if (before < 0 || after < 0) {
        printf("no /proc/self/statm: the resident set was not checked\n");
        return;
    }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || SANITIZED_BY_FEATURE
    /* Freed memory waits in the sanitizer's quarantine; LeakSanitizer
     * checks for leaks in this build instead. */
    printf("sanitizer build: the resident set was not checked\n");
    return;
#endif
    if (strncmp(webcrypto_backend_name(tu_backend()), "jca", 3) == 0) {
        /* The JVM's heap grows until its collector runs, whatever is freed. */
        printf("jca: the resident set is the JVM heap's and was not checked\n");
        return;
    }
    /* A leaked context per thread and key would be hundreds of MiB here;
     * allocator noise is a few. */
    assert_true(after - before < 8 * 1024);
}

/* ---- ML-KEM-768 and ML-DSA-65: two key pairs used in turn by THREADS
 * threads at once (the jca backend keeps, per thread, the Encapsulator,
 * Decapsulator and Signature of the last key it used): every encapsulation
 * decapsulates to its key under its own private key only (another gives
 * implicit rejection's key), every signature verifies under its own public
 * key only; then the threads exit while the keys live, and the main thread
 * uses them. ---- */

enum { PQ_ROUNDS = 12, PQ_CT = 1088, PQ_SIG = 3309 };

struct pq_job {
    webcrypto_key *kem_pub[2], *kem_priv[2], *dsa_pub[2], *dsa_priv[2];
    int failures;
};

static bool pq_round(struct pq_job *j, int r) {
    webcrypto_params kem = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ML_KEM_768);
    webcrypto_params dsa = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ML_DSA_65);
    const int a = r & 1, b = !a;
    uint8_t ct[2][PQ_CT], key[2][32], back[32], sig[2][PQ_SIG];
    size_t cn = 0, kn = 0, sn = 0;
    bool valid = false;
    for (int i = 0; i < 2; i++)
        if (webcrypto_encapsulate_bits(&kem, j->kem_pub[i], ct[i], PQ_CT, &cn, key[i], 32, &kn) !=
                WEBCRYPTO_OK ||
            cn != PQ_CT || kn != 32)
            return false;
    for (int n = 0, i = b; n < 2; n++, i = !i) /* this round's order */
        if (webcrypto_decapsulate_bits(&kem, j->kem_priv[i], ct[i], PQ_CT, back, 32, &kn) !=
                WEBCRYPTO_OK ||
            memcmp(back, key[i], 32) != 0)
            return false;
    if (webcrypto_decapsulate_bits(&kem, j->kem_priv[a], ct[b], PQ_CT, back, 32, &kn) !=
            WEBCRYPTO_OK ||
        memcmp(back, key[b], 32) == 0)
        return false;
    for (int n = 0, i = a; n < 2; n++, i = !i)
        if (webcrypto_sign(&dsa, j->dsa_priv[i], msg, sizeof msg, sig[i], PQ_SIG, &sn) !=
                WEBCRYPTO_OK ||
            sn != PQ_SIG)
            return false;
    for (int i = 0; i < 2; i++) {
        if (webcrypto_verify(&dsa, j->dsa_pub[i], sig[i], PQ_SIG, msg, sizeof msg, &valid) !=
                WEBCRYPTO_OK ||
            !valid)
            return false;
        if (webcrypto_verify(&dsa, j->dsa_pub[i], sig[!i], PQ_SIG, msg, sizeof msg, &valid) !=
                WEBCRYPTO_OK ||
            valid)
            return false;
    }
    return true;
}

static void *pq_worker(void *arg) {
    struct pq_job *j = arg;
    for (int r = 0; r < PQ_ROUNDS; r++)
        if (!pq_round(j, r)) __atomic_add_fetch(&j->failures, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void test_pq_two_keys(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ML_KEM_768, WEBCRYPTO_ALG_ML_DSA_65);
    struct pq_job j = {0};
    webcrypto_params kem = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ML_KEM_768);
    webcrypto_params dsa = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ML_DSA_65);
    const unsigned kem_pub = WEBCRYPTO_USAGE_ENCAPSULATE_BITS,
                   kem_priv = WEBCRYPTO_USAGE_DECAPSULATE_BITS;
    for (int i = 0; i < 2; i++) {
        tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &kem, false,
                                                     kem_pub | kem_priv, &j.kem_pub[i],
                                                     &j.kem_priv[i]),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &dsa, false,
                                                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                                                     &j.dsa_pub[i], &j.dsa_priv[i]),
                         WEBCRYPTO_OK);
    }
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_create(&t[i], NULL, pq_worker, &j), 0);
    for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int r = 0; r < 2; r++) assert_true(pq_round(&j, r));
    assert_int_equal(j.failures, 0);
    for (int i = 0; i < 2; i++) {
        webcrypto_key_free(j.kem_pub[i]);
        webcrypto_key_free(j.kem_priv[i]);
        webcrypto_key_free(j.dsa_pub[i]);
        webcrypto_key_free(j.dsa_priv[i]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_key),
        cmocka_unit_test(test_shared_signing_keys),
        cmocka_unit_test(test_threads_exit_before_keys),
        cmocka_unit_test(test_keys_freed_while_threads_idle),
        cmocka_unit_test(test_many_keys),
        cmocka_unit_test(test_key_churn),
        cmocka_unit_test(test_pq_two_keys),
    };
    return tu_run_group("threads", tests, NULL, NULL);
}
