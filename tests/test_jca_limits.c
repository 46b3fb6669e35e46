/* The jca backend's Java-array limit on data a Java engine keeps whole
 * (docs/ROBUSTNESS.md, "Lengths beyond a library's integer types"): AES-GCM
 * additional data (SunJCE buffers it until the first update), Ed25519 and
 * ML-DSA messages (EdDSA and the JDK's ML-DSA keep the whole message) over
 * 2^31 - 1 bytes are refused at once with OperationError naming the limit.
 * Before, they ran ~25 s and several GB of Java heap into OutOfMemory.
 * The data is a read-only sparse mapping of 2^31 + 5 zero bytes: untouched
 * pages cost nothing, and a refusal reads none of them. Other backends
 * stream such data (test_hostile_slow covers long inputs there): skipped. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "testutil.h"

#define BIG ((size_t)1 << 31) + 5
/* A refusal is immediate; seconds would mean Java was fed the data. */
#define PROMPT_S 3.0

static const uint8_t *big;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void expect_refused(webcrypto_status st, double t0, const char *what) {
    double s = now() - t0;
    const char *m = webcrypto_error_message();
    printf("  %s: %s in %.2f s: %s\n", what, webcrypto_status_name(st), s, m);
    if (st != WEBCRYPTO_ERR_OPERATION || !strstr(m, "2147483647"))
        fail_msg("%s: %s: %s (expected OperationError naming the limit)", what,
                 webcrypto_status_name(st), m);
    if (s > PROMPT_S) fail_msg("%s: refused after %.1f s, not at once", what, s);
}

static int setup(void **state) {
    (void)state;
    void *p = mmap(NULL, BIG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        printf("cannot map %zu bytes\n", BIG);
        return -1;
    }
    big = p;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    munmap((void *)big, BIG);
    return 0;
}

static void test_gcm_additional_data(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *k = NULL;
    webcrypto_params g = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 128);
    tu_assert_status(webcrypto_generate_key(tu_backend(), &g, false,
                                            WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k),
                     WEBCRYPTO_OK);
    static const uint8_t iv[12], msg[16];
    uint8_t out[64];
    size_t n = 0;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12,
                                          .additional_data = big, .additional_data_len = BIG);
    double t0 = now();
    expect_refused(webcrypto_encrypt(&p, k, msg, sizeof msg, out, sizeof out, &n), t0,
                   "AES-GCM encrypt, additional data of 2^31 + 5 bytes");
    /* a ciphertext of the right form, so that only the additional data is wrong */
    webcrypto_params small = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12);
    tu_assert_status(webcrypto_encrypt(&small, k, msg, sizeof msg, out, sizeof out, &n),
                     WEBCRYPTO_OK);
    uint8_t back[64];
    size_t m = 0;
    t0 = now();
    expect_refused(webcrypto_decrypt(&p, k, out, n, back, sizeof back, &m), t0,
                   "AES-GCM decrypt, additional data of 2^31 + 5 bytes");
    webcrypto_key_free(k);
}

static void sign_verify(webcrypto_algorithm alg, const char *name) {
    webcrypto_key *pub = NULL, *priv = NULL;
    webcrypto_params g = WEBCRYPTO_PARAMS(.name = alg);
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &g, false,
                                                 WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                                                 &pub, &priv),
                     WEBCRYPTO_OK);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    static uint8_t sig[8192];
    size_t n = 0;
    char what[96];
    snprintf(what, sizeof what, "%s sign, 2^31 + 5 bytes", name);
    double t0 = now();
    expect_refused(webcrypto_sign(&p, priv, big, BIG, sig, sizeof sig, &n), t0, what);
    /* a signature of the right length, so that only the data is wrong */
    tu_assert_status(webcrypto_sign(&p, priv, sig, 16, sig + 16, sizeof sig - 16, &n),
                     WEBCRYPTO_OK);
    bool valid = true;
    snprintf(what, sizeof what, "%s verify, 2^31 + 5 bytes", name);
    t0 = now();
    expect_refused(webcrypto_verify(&p, pub, sig + 16, n, big, BIG, &valid), t0, what);
    assert_false(valid);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

static void test_ed25519_data(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED25519);
    sign_verify(WEBCRYPTO_ALG_ED25519, "Ed25519");
}

static void test_ml_dsa_data(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ML_DSA_44);
    sign_verify(WEBCRYPTO_ALG_ML_DSA_44, "ML-DSA-44");
}

int main(void) {
    const webcrypto_backend *b = tu_backend();
    if (strncmp(webcrypto_backend_name(b), "jca", 3) != 0) {
        printf("SKIP: the Java-array limit is the jca backend's (%s streams such data)\n",
               webcrypto_backend_name(b));
        return 77;
    }
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gcm_additional_data),
        cmocka_unit_test(test_ed25519_data),
        cmocka_unit_test(test_ml_dsa_data),
    };
    return tu_run_group("jca_limits", tests, setup, teardown);
}
