/*
 * test_hostile.c - inputs a caller should not send but may: lengths beyond
 * what a library call takes (over 2^31 and 2^32 bytes, from sparse
 * read-only mappings that cost no memory), HKDF info longer than OpenSSL's
 * KDF accepts, NULL buffers with a length, and the messages of failed
 * authentication, which must read the same on every backend.
 *
 * Expected answers come from identities, never from the code under test
 * alone: PBKDF2 with one iteration and HashLen bytes is HMAC(P, S || 1);
 * an HMAC key longer than the hash block is replaced by its digest
 * (RFC 2104), so is a PBKDF2 password and an HKDF salt; HKDF is RFC 5869's
 * two HMACs. The tests over 2^31 bytes hash 2 to 4 GiB a few times
 * (seconds each): they run when WEBCRYPTO_TEST_SLOW=1, which the CTest
 * entries test_hostile_slow.* (label "slow") set.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define GIB (UINT64_C(1) << 30)

static bool slow_enabled(void) {
    const char *s = getenv("WEBCRYPTO_TEST_SLOW");
    return s && strcmp(s, "1") == 0;
}

/* len bytes of zeros, read-only, backed by nothing until read (and then by
 * the shared zero page). */
static const uint8_t *zeros_map(size_t len) {
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) fail_msg("mmap of %zu bytes failed", len);
    return p;
}

static void zeros_unmap(const uint8_t *p, size_t len) { munmap((void *)p, len); }

static webcrypto_key *import_secret(const webcrypto_backend *b, webcrypto_algorithm alg,
                                    webcrypto_algorithm hash, const uint8_t *k, size_t len,
                                    unsigned usages) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .hash = hash);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, k, len, &p, false, usages, &key),
                     WEBCRYPTO_OK);
    return key;
}

/* HMAC-SHA-256(key, a || b) through the incremental API of backend b. */
static void hmac2(const webcrypto_backend *b, const uint8_t *key, size_t key_len,
                  const uint8_t *a, size_t a_len, const uint8_t *c, size_t c_len,
                  uint8_t out[32]) {
    webcrypto_key *k =
        import_secret(b, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, key, key_len,
                      WEBCRYPTO_USAGE_SIGN);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    webcrypto_sign_ctx *ctx = NULL;
    size_t n = 0;
    tu_assert_status(webcrypto_sign_init(&p, k, &ctx), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign_update(ctx, a, a_len), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign_update(ctx, c, c_len), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign_final(ctx, out, 32, &n), WEBCRYPTO_OK);
    assert_int_equal(n, 32);
    webcrypto_sign_ctx_free(ctx);
    webcrypto_key_free(k);
}

static webcrypto_status pbkdf2(const webcrypto_backend *b, const uint8_t *pw, size_t pw_len,
                               const uint8_t *salt, size_t salt_len, uint32_t iterations,
                               uint8_t *out, size_t out_len) {
    webcrypto_key *k = import_secret(b, WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, pw, pw_len,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = WEBCRYPTO_ALG_SHA_256,
                                          .salt = salt, .salt_len = salt_len, .iterations = iterations);
    size_t dlen = 0;
    webcrypto_status st = webcrypto_derive_bits(&p, k, out_len * 8, out, out_len, &dlen);
    webcrypto_key_free(k);
    return st;
}

static webcrypto_status hkdf(const webcrypto_backend *b, const uint8_t *ikm, size_t ikm_len,
                             const uint8_t *salt, size_t salt_len, const uint8_t *info,
                             size_t info_len, uint8_t *out, size_t out_len) {
    webcrypto_key *k = import_secret(b, WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, ikm, ikm_len,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256,
                                          .salt = salt, .salt_len = salt_len, .info = info, .info_len = info_len);
    size_t dlen = 0;
    webcrypto_status st = webcrypto_derive_bits(&p, k, out_len * 8, out, out_len, &dlen);
    webcrypto_key_free(k);
    return st;
}

static void sha256(const webcrypto_backend *b, const uint8_t *in, size_t len, uint8_t out[32]) {
    size_t n = 0;
    tu_assert_status(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, in, len, out, 32, &n),
                     WEBCRYPTO_OK);
}

/* A backend whose library cannot take a length refuses with OperationError
 * and a message that names the limit (docs/ROBUSTNESS.md); any other
 * outcome must be the right answer. Returns true if the backend refused. */
static bool refused(webcrypto_status st, const char *what) {
    if (st == WEBCRYPTO_OK) return false;
    const char *m = webcrypto_error_message();
    if (st != WEBCRYPTO_ERR_OPERATION || !strstr(m, "2147483647"))
        fail_msg("%s: %s: %s (expected the right answer, or OperationError naming the limit)",
                 what, webcrypto_status_name(st), m);
    printf("  %s: refused: %s\n", what, m);
    return true;
}

/* ---- 1. lengths over 2^31 and 2^32 ---- */

/* PBKDF2 salt of 2^31 + 5 bytes (OpenSSL's KDF takes it as an int: it
 * crashed) and 2^32 + 16 (it wrapped to 16 bytes and gave that answer). */
static void pbkdf2_long_salt(size_t len) {
    tu_require(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    const webcrypto_backend *b = tu_backend();
    const uint8_t *salt = zeros_map(len);
    static const uint8_t pw[] = "password";
    static const uint8_t one[4] = {0, 0, 0, 1};
    uint8_t got[32], want[32];
    char what[64];
    snprintf(what, sizeof what, "PBKDF2 salt of %zu bytes", len);
    if (!refused(pbkdf2(b, pw, sizeof pw - 1, salt, len, 1, got, 32), what)) {
        hmac2(b, pw, sizeof pw - 1, salt, len, one, 4, want);
        assert_memory_equal(got, want, 32);
    }
    zeros_unmap(salt, len);
}

static void test_pbkdf2_salt_2g(void **state) {
    (void)state;
    if (!slow_enabled()) skip();
    pbkdf2_long_salt((size_t)2 * GIB + 5);
}

static void test_pbkdf2_salt_4g(void **state) {
    (void)state;
    if (!slow_enabled()) skip();
    pbkdf2_long_salt((size_t)4 * GIB + 16);
}

/* PBKDF2 output of 2^31 + 32 bytes (OpenSSL's KDF keeps the output length
 * in an int: 2^31 crashed, 2^32 + 32 gave 32 bytes and OK). With one
 * iteration, block i is HMAC(P, S || INT(i)): the first, the one that ends
 * at 2^31 and the last are checked. */
static void test_pbkdf2_output_2g(void **state) {
    (void)state;
    if (!slow_enabled()) skip();
    tu_require(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    const webcrypto_backend *b = tu_backend();
    if (strncmp(webcrypto_backend_name(b), "jca", 3) == 0) {
        /* jca derives lengths over INT32_MAX / 8 bytes one HMAC block per
         * JNI call (67 million here): minutes, not seconds, so not here. */
        printf("skipped: 2 GiB of PBKDF2 output on %s (one JNI call per block)\n",
               webcrypto_backend_name(b));
        skip();
    }
    const size_t len = (size_t)2 * GIB + 32;
    uint8_t *out = mmap(NULL, len, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (out == MAP_FAILED) fail_msg("mmap of %zu bytes failed", len);
    static const uint8_t pw[] = "password", salt[] = "salt";
    if (!refused(pbkdf2(b, pw, sizeof pw - 1, salt, sizeof salt - 1, 1, out, len),
                 "PBKDF2 output of 2^31 + 32 bytes")) {
        const size_t blocks[] = {1, (size_t)2 * GIB / 32, len / 32};
        for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
            const size_t n = blocks[i];
            const uint8_t be[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8),
                                   (uint8_t)n};
            uint8_t want[32];
            hmac2(b, pw, sizeof pw - 1, salt, sizeof salt - 1, be, 4, want);
            assert_memory_equal(out + (n - 1) * 32, want, 32);
        }
    }
    munmap(out, len);
}

/* A password longer than the block is its SHA-256 (HMAC's key rule). */
static void pbkdf2_long_password(size_t len) {
    tu_require(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_SHA_256);
    const webcrypto_backend *b = tu_backend();
    const uint8_t *pw = zeros_map(len);
    static const uint8_t salt[] = "salt";
    uint8_t got[40], want[40], h[32];
    char what[64];
    snprintf(what, sizeof what, "PBKDF2 password of %zu bytes", len);
    if (!refused(pbkdf2(b, pw, len, salt, 4, 2, got, sizeof got), what)) {
        sha256(b, pw, len, h);
        tu_assert_status(pbkdf2(b, h, 32, salt, 4, 2, want, sizeof want), WEBCRYPTO_OK);
        assert_memory_equal(got, want, sizeof got);
    }
    zeros_unmap(pw, len);
}

static void test_pbkdf2_password_4g(void **state) {
    (void)state;
    if (!slow_enabled()) skip();
    pbkdf2_long_password((size_t)4 * GIB + 16);
}

/* HKDF's salt is the HMAC key of Extract: one longer than the block is its
 * digest. */
static void hkdf_long_salt(size_t len) {
    tu_require(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_SHA_256);
    const webcrypto_backend *b = tu_backend();
    const uint8_t *salt = zeros_map(len);
    static const uint8_t ikm[] = "input keying material";
    static const uint8_t info[] = "info";
    uint8_t got[48], want[48], h[32];
    char what[64];
    snprintf(what, sizeof what, "HKDF salt of %zu bytes", len);
    if (!refused(hkdf(b, ikm, sizeof ikm - 1, salt, len, info, 4, got, sizeof got), what)) {
        sha256(b, salt, len, h);
        tu_assert_status(hkdf(b, ikm, sizeof ikm - 1, h, 32, info, 4, want, sizeof want),
                         WEBCRYPTO_OK);
        assert_memory_equal(got, want, sizeof got);
    }
    zeros_unmap(salt, len);
}

static void test_hkdf_salt_2g(void **state) {
    (void)state;
    if (!slow_enabled()) skip();
    hkdf_long_salt((size_t)2 * GIB + 5);
}

static void test_hkdf_salt_4g(void **state) {
    (void)state;
    if (!slow_enabled()) skip();
    hkdf_long_salt((size_t)4 * GIB + 16);
}

/* ---- 2. HKDF info of any length ---- */

/* RFC 5869: PRK = HMAC(salt, IKM); T(1) = HMAC(PRK, info || 1),
 * T(2) = HMAC(PRK, T(1) || info || 2). Checked on the backend under test
 * and compared with the openssl and boringssl backends when available. */
static void test_hkdf_long_info(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    const webcrypto_backend *b = tu_backend();
    static const uint8_t ikm[] = "input keying material";
    static const uint8_t salt[] = "salt";
    const size_t lens[] = {32768, 32769, 100000};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t n = lens[i];
        uint8_t *info = malloc(n + 32);
        assert_non_null(info);
        for (size_t j = 0; j < n; j++) info[j] = (uint8_t)(j * 7 + 1);
        uint8_t got[64], prk[32], want[64];
        tu_assert_status(hkdf(b, ikm, sizeof ikm - 1, salt, 4, info, n, got, 64), WEBCRYPTO_OK);
        hmac2(b, salt, 4, ikm, sizeof ikm - 1, NULL, 0, prk);
        uint8_t c = 1;
        hmac2(b, prk, 32, info, n, &c, 1, want);
        /* T(2): T(1) || info || 2, as T(1) || (info || 2). */
        memcpy(info + n, (uint8_t[]){2}, 1);
        hmac2(b, prk, 32, want, 32, info, n + 1, want + 32);
        assert_memory_equal(got, want, 64);
        /* Not jca from another backend's test: a JVM there would defeat
         * LeakSanitizer (tests/jca.cmake); jca's own tests compare with these. */
        const char *others[] = {"openssl", "boringssl"};
        for (size_t o = 0; o < 2; o++) {
            const webcrypto_backend *ob = NULL;
            if (webcrypto_backend_get(others[o], &ob) != WEBCRYPTO_OK) continue;
            uint8_t other[64];
            tu_assert_status(hkdf(ob, ikm, sizeof ikm - 1, salt, 4, info, n, other, 64),
                             WEBCRYPTO_OK);
            if (memcmp(other, got, 64) != 0)
                fail_msg("HKDF with %zu bytes of info: %s differs", n, others[o]);
        }
        free(info);
    }
}

/* ---- 3. NULL iv / counter with a length: TypeError ---- */

static void expect_type_error(webcrypto_status st, const char *what) {
    if (st != WEBCRYPTO_ERR_INVALID_ARGUMENT)
        fail_msg("%s: %s (%s), expected TypeError", what, webcrypto_status_name(st),
                 webcrypto_error_message());
    if (!strstr(webcrypto_error_message(), "NULL"))
        fail_msg("%s: the message does not say NULL: %s", what, webcrypto_error_message());
}

static void test_null_iv_type_error(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    static const uint8_t k[32] = {1};
    static const uint8_t msg[32] = {2};
    uint8_t out[128];
    size_t out_len;
    const struct {
        webcrypto_algorithm alg;
        size_t iv_len;
    } cases[] = {{WEBCRYPTO_ALG_AES_CBC, 16},
                 {WEBCRYPTO_ALG_AES_CTR, 16},
                 {WEBCRYPTO_ALG_AES_GCM, 12},
                 {WEBCRYPTO_ALG_AES_GCM_SIV, 12}};
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        webcrypto_algorithm alg = cases[i].alg;
        if (!webcrypto_backend_supports(b, alg)) continue;
        ran++;
        webcrypto_key *key =
            import_secret(b, alg, WEBCRYPTO_ALG_NONE, k, 32,
                          WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
        if (alg == WEBCRYPTO_ALG_AES_CTR) {
            p.counter_len = cases[i].iv_len;
            p.length = 64;
        } else {
            p.iv_len = cases[i].iv_len;
        }
        char what[96];
        snprintf(what, sizeof what, "%s encrypt", webcrypto_algorithm_name(alg));
        expect_type_error(webcrypto_encrypt(&p, key, msg, sizeof msg, out, sizeof out, &out_len),
                          what);
        snprintf(what, sizeof what, "%s decrypt", webcrypto_algorithm_name(alg));
        expect_type_error(webcrypto_decrypt(&p, key, out, 48, out, sizeof out, &out_len), what);
        if (alg == WEBCRYPTO_ALG_AES_CBC || alg == WEBCRYPTO_ALG_AES_CTR) {
            for (int enc = 0; enc < 2; enc++) {
                webcrypto_cipher_ctx *ctx = NULL;
                snprintf(what, sizeof what, "%s cipher_init(%s)", webcrypto_algorithm_name(alg),
                         enc ? "encrypt" : "decrypt");
                expect_type_error(webcrypto_cipher_init(&p, key, enc, &ctx), what);
                assert_null(ctx);
            }
        }
        /* NULL with length 0 stays the spec's OperationError (wrong length). */
        p.iv_len = p.counter_len = 0;
        webcrypto_status st = webcrypto_encrypt(&p, key, msg, sizeof msg, out, sizeof out, &out_len);
        if (st != WEBCRYPTO_ERR_OPERATION)
            fail_msg("%s with an empty iv: %s", webcrypto_algorithm_name(alg),
                     webcrypto_status_name(st));
        webcrypto_key_free(key);
    }
    assert_true(ran > 0);
}

/* ---- 10. the same failure, the same message on every backend ---- */

static void expect_prefix(webcrypto_status st, const char *prefix, const char *what) {
    if (st != WEBCRYPTO_ERR_OPERATION)
        fail_msg("%s: %s, expected OperationError", what, webcrypto_status_name(st));
    const char *m = webcrypto_error_message();
    if (strncmp(m, prefix, strlen(prefix)) != 0)
        fail_msg("%s: message \"%s\" does not start with \"%s\"", what, m, prefix);
}

static void test_auth_failure_messages(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    static const uint8_t k[32] = {3};
    static const uint8_t iv[12] = {4};
    static const uint8_t msg[32] = {5};
    uint8_t ct[64], out[64];
    size_t ct_len, out_len;
    int ran = 0;
    const webcrypto_algorithm aead[] = {WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_GCM_SIV};
    const char *const prefix[] = {"AES-GCM: the authentication tag does not match",
                                  "AES-GCM-SIV: the authentication tag does not match"};
    for (size_t i = 0; i < 2; i++) {
        if (!webcrypto_backend_supports(b, aead[i])) continue;
        ran++;
        webcrypto_key *key = import_secret(b, aead[i], WEBCRYPTO_ALG_NONE, k, 32,
                                           WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
        const size_t tags[] = {128, 96, 64, 32};
        for (size_t t = 0; t < (aead[i] == WEBCRYPTO_ALG_AES_GCM ? 4u : 1u); t++) {
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = aead[i], .iv = iv, .iv_len = 12,
                                                  .tag_length = tags[t]);
            tu_assert_status(webcrypto_encrypt(&p, key, msg, sizeof msg, ct, sizeof ct, &ct_len),
                             WEBCRYPTO_OK);
            ct[ct_len - 1] ^= 1;
            expect_prefix(webcrypto_decrypt(&p, key, ct, ct_len, out, sizeof out, &out_len),
                          prefix[i], prefix[i]);
        }
        webcrypto_key_free(key);
    }
    if (webcrypto_backend_supports(b, WEBCRYPTO_ALG_AES_KW)) {
        ran++;
        webcrypto_key *key = import_secret(b, WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_ALG_NONE, k, 16,
                                           WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY);
        uint8_t wrapped[24] = {6};
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
        webcrypto_params what = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
        webcrypto_key *got = NULL;
        expect_prefix(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, sizeof wrapped, key, &p,
                                           &what, true, WEBCRYPTO_USAGE_ENCRYPT, &got),
                      "AES-KW: the wrapped key failed its integrity check", "AES-KW unwrap");
        webcrypto_key_free(key);
    }
    if (webcrypto_backend_supports(b, WEBCRYPTO_ALG_RSA_OAEP)) {
        ran++;
        webcrypto_params g = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP, .hash = WEBCRYPTO_ALG_SHA_256,
                                              .modulus_length = 1024,
                                              .public_exponent = (const uint8_t[]){1, 0, 1},
                                              .public_exponent_len = 3);
        webcrypto_key *pub = NULL, *priv = NULL;
        tu_assert_status(webcrypto_generate_key_pair(b, &g, false,
                                                     WEBCRYPTO_USAGE_ENCRYPT |
                                                         WEBCRYPTO_USAGE_DECRYPT,
                                                     &pub, &priv),
                         WEBCRYPTO_OK);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP);
        uint8_t c[128], pt[128];
        size_t c_len = 0, pt_len = 0;
        tu_assert_status(webcrypto_encrypt(&p, pub, msg, sizeof msg, c, sizeof c, &c_len),
                         WEBCRYPTO_OK);
        c[5] ^= 1;
        expect_prefix(webcrypto_decrypt(&p, priv, c, c_len, pt, sizeof pt, &pt_len),
                      "RSA-OAEP: decryption error", "RSA-OAEP decrypt");
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    assert_true(ran > 0);
}

/* A private EC scalar of n (the group order): BoringSSL's own reason was
 * "WRONG_ORDER"; every backend now says what the openssl backend says. */
static void test_ec_range_message(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDSA);
    const webcrypto_backend *b = tu_backend();
    static const char jwk[] =
        "{\"kty\":\"EC\",\"crv\":\"P-256\","
        "\"x\":\"axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpY\","
        "\"y\":\"T-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU\","
        "\"d\":\"_____wAAAAD__________7zm-q2nF56E87nKwvxjJVE\"}";
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)jwk,
                                               sizeof jwk - 1, &p, false, WEBCRYPTO_USAGE_SIGN,
                                               &key);
    if (st != WEBCRYPTO_ERR_DATA)
        fail_msg("d = n: %s, expected DataError", webcrypto_status_name(st));
    const char *m = webcrypto_error_message();
    if (strstr(m, "WRONG_ORDER") || strncmp(m, "EC key: ", 8) != 0)
        fail_msg("d = n: message \"%s\" is not the WebCrypto-level one", m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_iv_type_error),
        cmocka_unit_test(test_auth_failure_messages),
        cmocka_unit_test(test_ec_range_message),
        cmocka_unit_test(test_hkdf_long_info),
        cmocka_unit_test(test_pbkdf2_salt_2g),
        cmocka_unit_test(test_pbkdf2_output_2g),
        cmocka_unit_test(test_hkdf_salt_2g),
        cmocka_unit_test(test_pbkdf2_salt_4g),
        cmocka_unit_test(test_pbkdf2_password_4g),
        cmocka_unit_test(test_hkdf_salt_4g),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
