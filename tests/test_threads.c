/* One key shared by several threads: every thread gets the single-threaded
 * answer (keys are immutable; their backend state is read-only but for
 * atomic caches). */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

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
    webcrypto_params siv = {.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce, .iv_len = 12};
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
    webcrypto_params gcm = {.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv};
    webcrypto_params cbc = {.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = sizeof iv16};
    webcrypto_params mac = {.name = WEBCRYPTO_ALG_HMAC};
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

static void test_shared_key(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    struct job j = {0};
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)i;
    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    webcrypto_params g = {.name = WEBCRYPTO_ALG_AES_GCM, .length = 256};
    webcrypto_params c = {.name = WEBCRYPTO_ALG_AES_CBC, .length = 128};
    webcrypto_params h = {.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256};
    tu_assert_status(webcrypto_generate_key(b, &g, false, ed, &j.gcm), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_generate_key(b, &c, false, ed, &j.cbc), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_generate_key(b, &h, false,
                                            WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &j.hmac),
                     WEBCRYPTO_OK);
    webcrypto_params gcm = {.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = sizeof iv};
    webcrypto_params cbc = {.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = sizeof iv16};
    webcrypto_params mac = {.name = WEBCRYPTO_ALG_HMAC};
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
        webcrypto_params sg = {.name = WEBCRYPTO_ALG_AES_GCM_SIV, .length = 256};
        tu_assert_status(webcrypto_generate_key(b, &sg, false, ed, &j.siv), WEBCRYPTO_OK);
        static uint8_t ct[SIV_LEN + 16];
        for (int t = 0; t < THREADS; t++) {
            for (int r = 0; r < ROUNDS; r++) {
                uint8_t nonce[12];
                siv_nonce(nonce, t, r);
                webcrypto_params siv = {
                    .name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce, .iv_len = sizeof nonce};
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

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_shared_key)};
    return tu_run_group("threads", tests, NULL, NULL);
}
