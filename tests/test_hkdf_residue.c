/* HKDF leaves no PRK on the stack (issue 25: BoringSSL's HKDF() keeps it in
 * a local it does not clear). RFC 5869 test case 1, whose PRK is known: a
 * thread whose stack is a zeroed block of the test's derives the test
 * case's OKM and ends, and the block is searched for the PRK. The jca
 * backend is skipped: its PRK lives in the Java heap (docs/JCA.md). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define STACK (1024 * 1024) /* the measured thread's stack: zeroed, then searched */

/* RFC 5869, A.1 */
static const char *const ikm_hex = "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b";
static const char *const salt_hex = "000102030405060708090a0b0c";
static const char *const info_hex = "f0f1f2f3f4f5f6f7f8f9";
static const char *const prk_hex =
    "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5";
static const char *const okm_hex = "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                                   "34007208d5b887185865";

static void derive(void) {
    size_t ikm_len, salt_len, info_len;
    uint8_t *ikm = tu_unhex(ikm_hex, &ikm_len), *salt = tu_unhex(salt_hex, &salt_len),
            *info = tu_unhex(info_hex, &info_len);
    webcrypto_key *k = NULL;
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, ikm, ikm_len, &alg,
                                          false, WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_OK);
    webcrypto_params p =
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256, .salt = salt,
                         .salt_len = salt_len, .info = info, .info_len = info_len);
    uint8_t *okm = malloc(42);
    assert_non_null(okm);
    size_t n = 0;
    tu_assert_status(webcrypto_derive_bits(&p, k, 42 * 8, okm, 42, &n), WEBCRYPTO_OK);
    assert_int_equal(n, 42);
    tu_assert_hex(okm, n, okm_hex);
    webcrypto_key_free(k);
    free(okm);
    free(ikm);
    free(salt);
    free(info);
}

__attribute__((noinline)) static void plant(const uint8_t *prk) {
    volatile uint8_t b[32];
    for (int i = 0; i < 32; i++) b[i] = prk[i];
    (void)b[0];
}

/* The work runs 64 KiB below the thread's first frame: what the thread's
 * exit runs afterwards (key destructors, glibc's own) stays above it. */
__attribute__((noinline)) static void deep(const uint8_t *prk) {
    volatile uint8_t pad[65536];
    for (size_t i = 0; i < sizeof pad; i++) pad[i] = 0;
    if (prk)
        plant(prk);
    else
        derive();
    (void)pad[0];
}

static void *work(void *arg) {
    deep(arg);
    return NULL;
}

/* Runs work (HKDF, or a planted copy of the PRK) on a thread whose stack is a zeroed block of ours, then counts
 * the copies of needle the block holds once the thread has ended (its
 * frames, and the thread's static TLS glibc puts at the block's top). */
static int residue(const uint8_t *plant_this, const uint8_t *needle, size_t len) {
    void *stack = NULL;
    assert_int_equal(posix_memalign(&stack, 4096, STACK), 0);
    memset(stack, 0, STACK);
    pthread_attr_t a;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&a), 0);
    assert_int_equal(pthread_attr_setstack(&a, stack, STACK), 0);
    assert_int_equal(pthread_create(&t, &a, work, (void *)plant_this), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&a);
    int found = 0;
    for (size_t i = 0; i + len <= STACK; i++)
        if (memcmp((uint8_t *)stack + i, needle, len) == 0) found++;
    free(stack);
    return found;
}

static void test_hkdf_prk_not_on_stack(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HKDF);
    size_t prk_len;
    uint8_t *prk = tu_unhex(prk_hex, &prk_len);
    /* the search works: a copy left on the stack is found */
    assert_int_equal(residue(prk, prk, prk_len), 1);
    int copies = residue(NULL, prk, prk_len);
    printf("  PRK copies on the thread's stack after HKDF: %d\n", copies);
    free(prk);
    assert_int_equal(copies, 0);
}

int main(void) {
    const webcrypto_backend *b = tu_backend();
    if (strncmp(webcrypto_backend_name(b), "jca", 3) == 0) {
        /* the JVM guards an attached thread's stack with protected pages */
        printf("SKIP: jca keeps its PRK in the Java heap (docs/JCA.md); the stack search "
               "runs on a stack of the test's own, which a JVM-attached thread cannot use\n");
        return 77;
    }
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hkdf_prk_not_on_stack),
    };
    return tu_run_group("hkdf_residue", tests, NULL, NULL);
}
