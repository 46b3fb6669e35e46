/*
 * test_errors.c - every WebCrypto error kind, provoked through the public API,
 * with the spec's precedence where it fixes one; plus the status names, the
 * per-thread error message and the key getters.
 *
 * References: W3C Web Cryptography API (https://w3c.github.io/webcrypto/),
 * the SubtleCrypto method steps and each algorithm's operations.
 */
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Asserts the status, and that a failure left a non-empty message. */
#define EXPECT(call, st)                                                                    \
    do {                                                                                    \
        webcrypto_status expect_st_ = (call);                                               \
        tu_assert_status_at(expect_st_, (st), #call, __FILE__, __LINE__);                   \
        if ((st) != WEBCRYPTO_OK && webcrypto_error_message()[0] == '\0')                   \
            fail_msg("%s:%d: %s failed with an empty error message", __FILE__, __LINE__,    \
                     #call);                                                                \
    } while (0)

static const uint8_t K16[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
static const uint8_t K32[32] = {0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
                                0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
                                0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
                                0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f};
static const uint8_t IV16[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
                                 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
static const uint8_t MSG[40] = "forty bytes of plaintext for the tests.";

/* Params with `name`; KDF params get a non-empty salt and info, so that only
 * the member under test is ever missing. */
static webcrypto_params P(webcrypto_algorithm name) {
    static const uint8_t salt[8] = {'s', 'a', 'l', 't', 's', 'a', 'l', 't'};
    static const uint8_t info[4] = {'i', 'n', 'f', 'o'};
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    if (name == WEBCRYPTO_ALG_HKDF || name == WEBCRYPTO_ALG_PBKDF2) {
        p.salt = salt;
        p.salt_len = sizeof salt;
        p.info = info;
        p.info_len = sizeof info;
    }
    return p;
}

/* Imports raw key bytes; the call must succeed. */
static webcrypto_key *import_raw(webcrypto_algorithm alg, webcrypto_algorithm hash,
                                 const uint8_t *data, size_t len, bool extractable,
                                 unsigned usages) {
    webcrypto_params p = P(alg);
    p.hash = hash;
    webcrypto_key *key = NULL;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, data, len, &p, extractable,
                                usages, &key),
           WEBCRYPTO_OK);
    assert_non_null(key);
    return key;
}

static webcrypto_params cbc_params(void) {
    webcrypto_params p = P(WEBCRYPTO_ALG_AES_CBC);
    p.iv = IV16;
    p.iv_len = 16;
    return p;
}

static webcrypto_params ctr_params(size_t counter_bits) {
    webcrypto_params p = P(WEBCRYPTO_ALG_AES_CTR);
    p.counter = IV16;
    p.counter_len = 16;
    p.length = counter_bits;
    return p;
}

static webcrypto_params gcm_params(void) {
    webcrypto_params p = P(WEBCRYPTO_ALG_AES_GCM);
    p.iv = IV16;
    p.iv_len = 12;
    return p;
}

static bool all_zero(const uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (buf[i] != 0) return false;
    return true;
}

/* After a failed AES-CBC decryption the buffer, pre-filled with 0xAA, holds
 * only wiped bytes (0) or the caller's own bytes (0xAA): no plaintext (the
 * plaintext blocks in these tests hold MSG's ASCII text). */
static bool no_plaintext(const uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (buf[i] != 0 && buf[i] != 0xAA) return false;
    return true;
}

/* ------------------------------------------------------------------------ */

static void test_status_names(void **state) {
    (void)state;
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_OK), "OK");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_NOT_SUPPORTED), "NotSupportedError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_SYNTAX), "SyntaxError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_INVALID_ACCESS),
                        "InvalidAccessError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_DATA), "DataError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_OPERATION), "OperationError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_QUOTA_EXCEEDED),
                        "QuotaExceededError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_INVALID_ARGUMENT), "TypeError");
    assert_string_equal(webcrypto_status_name(WEBCRYPTO_ERR_NO_MEMORY), "OutOfMemory");
    /* Never NULL, even for a value outside the enum. */
    assert_non_null(webcrypto_status_name((webcrypto_status)1000));
}

/* The algorithm list and the operations table (the spec's "supported
 * operations"), which the CLI and bindings read instead of lists of their own. */
static void test_algorithm_list(void **state) {
    (void)state;
    size_t n = webcrypto_algorithm_count();
    /* values are dense and stable: the last one known is the count (19
     * before the newer algorithms; then Ed448, X448, ML-KEM, ML-DSA, SHA-3,
     * cSHAKE, KMAC, ChaCha20-Poly1305, AES-OCB, Argon2d/i/id) */
    assert_true(n >= (size_t)WEBCRYPTO_ALG_ARGON2ID);
    assert_int_equal(webcrypto_algorithm_at(n - 1), (webcrypto_algorithm)n);
    assert_int_equal(webcrypto_algorithm_at(0), WEBCRYPTO_ALG_SHA_1);
    assert_int_equal(webcrypto_algorithm_at(n), WEBCRYPTO_ALG_NONE);
    for (size_t i = 0; i < n; i++) {
        webcrypto_algorithm a = webcrypto_algorithm_at(i), back;
        const char *name = webcrypto_algorithm_name(a);
        assert_non_null(name);
        assert_int_equal(webcrypto_algorithm_from_name(name, &back), WEBCRYPTO_OK);
        assert_int_equal(back, a);
        /* Every algorithm has at least one operation, and import or digest. */
        assert_true(webcrypto_algorithm_has_operation(a, WEBCRYPTO_OP_IMPORT_KEY) ||
                    webcrypto_algorithm_has_operation(a, WEBCRYPTO_OP_DIGEST));
    }
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_OP_ENCRYPT));
    assert_true(
        webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_OP_GET_KEY_LENGTH));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_OP_WRAP_KEY));
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_OP_WRAP_KEY));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_OP_ENCRYPT));
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_SHA_256, WEBCRYPTO_OP_DIGEST));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_SHA_256, WEBCRYPTO_OP_SIGN));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_OP_EXPORT_KEY));
    assert_false(
        webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_OP_GENERATE_KEY));
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_X25519, WEBCRYPTO_OP_DERIVE_KEY));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_X25519, WEBCRYPTO_OP_SIGN));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_NONE, WEBCRYPTO_OP_DIGEST));
    assert_false(
        webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_SHA_1, (webcrypto_operation)1000));
    assert_string_equal(webcrypto_operation_name(WEBCRYPTO_OP_GENERATE_KEY), "generateKey");
    assert_string_equal(webcrypto_operation_name(WEBCRYPTO_OP_GET_KEY_LENGTH), "get key length");
    assert_null(webcrypto_operation_name((webcrypto_operation)0));
    assert_null(webcrypto_operation_name((webcrypto_operation)1000));
}

/* The message is per thread: "" on a fresh thread, set by a failure there,
 * and a failure on one thread does not change another's. */
static void *message_thread(void *arg) {
    int *ok = arg;
    *ok = 0;
    if (webcrypto_error_message()[0] != '\0') return NULL;
    webcrypto_algorithm a;
    if (webcrypto_algorithm_from_name("no-such-algorithm", &a) != WEBCRYPTO_ERR_NOT_SUPPORTED)
        return NULL;
    if (webcrypto_error_message()[0] == '\0') return NULL;
    *ok = 1;
    return NULL;
}

static void *quota_thread(void *arg) {
    int *ok = arg;
    static uint8_t buf[65537];
    *ok = 0;
    if (webcrypto_error_message()[0] != '\0') return NULL;
    if (webcrypto_get_random_values(NULL, buf, sizeof buf) != WEBCRYPTO_ERR_QUOTA_EXCEEDED)
        return NULL;
    if (webcrypto_error_message()[0] == '\0') return NULL;
    *ok = 1;
    return NULL;
}

static void test_error_message_per_thread(void **state) {
    (void)state;
    (void)tu_backend();
    EXPECT(webcrypto_backend_get("nosuch", &(const webcrypto_backend *){NULL}),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    char mine[512];
    snprintf(mine, sizeof mine, "%s", webcrypto_error_message());

    void *(*fns[2])(void *) = {message_thread, quota_thread};
    for (size_t i = 0; i < 2; i++) {
        pthread_t t;
        int ok = 0;
        assert_int_equal(pthread_create(&t, NULL, fns[i], &ok), 0);
        assert_int_equal(pthread_join(t, NULL), 0);
        assert_int_equal(ok, 1);
        assert_string_equal(webcrypto_error_message(), mine);
    }
}

/* ------------------------------------------------------------------------ */
/* NotSupportedError                                                        */

static void test_not_supported(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_algorithm a = WEBCRYPTO_ALG_NONE;

    /* Unknown names; lookup is case-insensitive, but exact otherwise. */
    EXPECT(webcrypto_algorithm_from_name("AES-XTS", &a), WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_algorithm_from_name("SHA256", &a), WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_algorithm_from_name("AES-GCM ", &a), WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_algorithm_from_name("", &a), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_int_equal(a, WEBCRYPTO_ALG_NONE); /* untouched on failure */
    EXPECT(webcrypto_algorithm_from_name("aes-gcm", &a), WEBCRYPTO_OK);
    assert_int_equal(a, WEBCRYPTO_ALG_AES_GCM);
    EXPECT(webcrypto_algorithm_from_name("sHa-384", &a), WEBCRYPTO_OK);
    assert_int_equal(a, WEBCRYPTO_ALG_SHA_384);
    EXPECT(webcrypto_algorithm_from_name("hmac", &a), WEBCRYPTO_OK);
    assert_int_equal(a, WEBCRYPTO_ALG_HMAC);

    /* Unknown backend; *out untouched. */
    const webcrypto_backend *sentinel = b;
    EXPECT(webcrypto_backend_get("nosuch", &sentinel), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_ptr_equal(sentinel, b);
    EXPECT(webcrypto_backend_get("", &sentinel), WEBCRYPTO_ERR_NOT_SUPPORTED);

    /* Digest with an algorithm that has no digest operation. */
    uint8_t out[64];
    size_t out_len = 0;
    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_HMAC, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_AES_GCM, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    webcrypto_digest_ctx *dctx = NULL;
    EXPECT(webcrypto_digest_init(b, WEBCRYPTO_ALG_PBKDF2, &dctx), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(dctx);

    /* generateKey for algorithms without a generate operation. */
    webcrypto_key *key = NULL;
    webcrypto_params p = P(WEBCRYPTO_ALG_SHA_256);
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_HKDF);
    EXPECT(webcrypto_generate_key(b, &p, false, WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_PBKDF2);
    EXPECT(webcrypto_generate_key(b, &p, false, WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P((webcrypto_algorithm)99); /* a name no algorithm has */
    p.length = 128;
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(key);

    /* HMAC with a hash that is not a SHA-*. */
    p = P(WEBCRYPTO_ALG_HMAC);
    p.hash = WEBCRYPTO_ALG_AES_GCM;
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p.hash = WEBCRYPTO_ALG_HMAC;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);

    /* importKey: formats the algorithm does not have, algorithms without import. */
    p = P(WEBCRYPTO_ALG_AES_GCM);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, K16, 16, &p, true,
                                WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_AES_CBC);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_SPKI, K16, 16, &p, true,
                                WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_HMAC);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_SPKI, K16, 16, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_HKDF);
    static const char hkdf_jwk[] = "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\"}";
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)hkdf_jwk,
                                strlen(hkdf_jwk), &p, false, WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_PBKDF2);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, K16, 16, &p, false,
                                WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_SHA_1);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &p, false,
                                WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(key);

    /* Operations the named algorithm does not have: normalisation fails
     * before the key is looked at. */
    webcrypto_key *hmac = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, K32, 32, true,
                                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    webcrypto_key *gcm = import_raw(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE, K16, 16, true,
                                    WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
    p = P(WEBCRYPTO_ALG_HMAC);
    EXPECT(webcrypto_encrypt(&p, hmac, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_decrypt(&p, hmac, MSG, 32, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = gcm_params();
    EXPECT(webcrypto_sign(&p, gcm, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    bool valid = true;
    EXPECT(webcrypto_verify(&p, gcm, out, 32, MSG, sizeof MSG, &valid),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_SHA_256);
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&p, hmac, 256, out, sizeof out, &dlen), WEBCRYPTO_ERR_NOT_SUPPORTED);

    /* AES-GCM has no streaming (the tag must verify before any plaintext). */
    webcrypto_cipher_ctx *cctx = NULL;
    p = gcm_params();
    EXPECT(webcrypto_cipher_init(&p, gcm, true, &cctx), WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_cipher_init(&p, gcm, false, &cctx), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(cctx);

    /* exportKey of a secret key in a public/private-key format. */
    uint8_t *exp = NULL;
    size_t exp_len = 0;
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, gcm, &exp, &exp_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, hmac, &exp, &exp_len),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(exp);

    webcrypto_key *hkdf = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *pbkdf2 = import_raw(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                       WEBCRYPTO_USAGE_DERIVE_BITS);

    /* A KDF hash that is not SHA-*. */
    p = P(WEBCRYPTO_ALG_HKDF);
    p.hash = WEBCRYPTO_ALG_HMAC;
    EXPECT(webcrypto_derive_bits(&p, hkdf, 128, out, sizeof out, &dlen), WEBCRYPTO_ERR_NOT_SUPPORTED);
    p = P(WEBCRYPTO_ALG_PBKDF2);
    p.hash = WEBCRYPTO_ALG_AES_CTR;
    p.iterations = 1;
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 128, out, sizeof out, &dlen), WEBCRYPTO_ERR_NOT_SUPPORTED);

    webcrypto_key_free(hmac);
    webcrypto_key_free(gcm);
    webcrypto_key_free(hkdf);
    webcrypto_key_free(pbkdf2);
}

/* HKDF and PBKDF2 have no export operation. exportKey's step "if the key's
 * algorithm does not support the export key operation, throw a
 * NotSupportedError" comes before "if [[extractable]] is false, throw an
 * InvalidAccessError"; KDF keys are never extractable, so the order shows
 * (https://w3c.github.io/webcrypto/#SubtleCrypto-method-exportKey; WPT
 * WebCryptoAPI/export-key-error-order.https.any.js). */
static void test_export_kdf_key_not_supported(void **state) {
    (void)state;
    const webcrypto_algorithm kdf[2] = {WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_PBKDF2};
    const webcrypto_key_format fmt[2] = {WEBCRYPTO_FORMAT_RAW, WEBCRYPTO_FORMAT_JWK};
    for (size_t i = 0; i < 2; i++) {
        webcrypto_key *key = import_raw(kdf[i], WEBCRYPTO_ALG_NONE, K16, 16, false,
                                        WEBCRYPTO_USAGE_DERIVE_BITS);
        for (size_t f = 0; f < 2; f++) {
            uint8_t *exp = NULL;
            size_t exp_len = 0;
            webcrypto_status st = webcrypto_export_key(fmt[f], key, &exp, &exp_len);
            webcrypto_key_free(key); /* before a failing assertion can leak it */
            key = NULL;
            tu_assert_status(st, WEBCRYPTO_ERR_NOT_SUPPORTED);
            assert_null(exp);
            if (f == 0)
                key = import_raw(kdf[i], WEBCRYPTO_ALG_NONE, K16, 16, false,
                                 WEBCRYPTO_USAGE_DERIVE_BITS);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* SyntaxError, and its order against the other checks                      */

static void test_syntax(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_key *key = NULL;
    const webcrypto_algorithm aes[3] = {WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
                                        WEBCRYPTO_ALG_AES_GCM};

    for (size_t i = 0; i < 3; i++) {
        webcrypto_params p = P(aes[i]);
        p.length = 128;
        /* Usages outside {encrypt, decrypt, wrapKey, unwrapKey}. */
        EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_SIGN, &key),
               WEBCRYPTO_ERR_SYNTAX);
        EXPECT(webcrypto_generate_key(b, &p, true,
                                      WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DERIVE_BITS,
                                      &key),
               WEBCRYPTO_ERR_SYNTAX);
        /* Empty usages. */
        EXPECT(webcrypto_generate_key(b, &p, true, 0, &key), WEBCRYPTO_ERR_SYNTAX);
        /* Usages are checked before the length (OperationError). */
        p.length = 100;
        EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_VERIFY, &key),
               WEBCRYPTO_ERR_SYNTAX);

        /* importKey: bad usages first, even when the key data is bad too. */
        p = P(aes[i]);
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &p, true,
                                    WEBCRYPTO_USAGE_SIGN, &key),
               WEBCRYPTO_ERR_SYNTAX);
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 5, &p, true,
                                    WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_DERIVE_KEY, &key),
               WEBCRYPTO_ERR_SYNTAX);
        /* A well-formed JWK whose k has the wrong length: usages still first. */
        static const char short_jwk[] = "{\"kty\":\"oct\",\"k\":\"AAECAwQ\"}";
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)short_jwk,
                                    strlen(short_jwk), &p, true, WEBCRYPTO_USAGE_VERIFY, &key),
               WEBCRYPTO_ERR_SYNTAX);
        /* Good data, empty usages: SyntaxError after the import. */
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, 0, &key),
               WEBCRYPTO_ERR_SYNTAX);
    }

    /* HMAC. */
    webcrypto_params p = P(WEBCRYPTO_ALG_HMAC);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_SYNTAX);
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_WRAP_KEY,
                                  &key),
           WEBCRYPTO_ERR_SYNTAX);
    EXPECT(webcrypto_generate_key(b, &p, true, 0, &key), WEBCRYPTO_ERR_SYNTAX);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true,
                                WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_SYNTAX);
    /* Bad usages win over empty key data (DataError). */
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, NULL, 0, &p, true,
                                WEBCRYPTO_USAGE_DECRYPT, &key),
           WEBCRYPTO_ERR_SYNTAX);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, 0, &key),
           WEBCRYPTO_ERR_SYNTAX);

    /* HKDF / PBKDF2: usages within {deriveBits, deriveKey}, not extractable,
     * non-empty. */
    const webcrypto_algorithm kdf[2] = {WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_PBKDF2};
    for (size_t i = 0; i < 2; i++) {
        p = P(kdf[i]);
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &p, false,
                                    WEBCRYPTO_USAGE_SIGN, &key),
               WEBCRYPTO_ERR_SYNTAX);
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &p, true,
                                    WEBCRYPTO_USAGE_DERIVE_BITS, &key),
               WEBCRYPTO_ERR_SYNTAX);
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &p, false, 0, &key),
               WEBCRYPTO_ERR_SYNTAX);
    }
    assert_null(key);
}

/* ------------------------------------------------------------------------ */
/* InvalidAccessError                                                       */

static void test_invalid_access(void **state) {
    (void)state;
    uint8_t out[128];
    size_t out_len = 0;
    bool valid = true;

    webcrypto_key *cbc_enc = import_raw(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE, K16, 16, true,
                                        WEBCRYPTO_USAGE_ENCRYPT);
    webcrypto_key *gcm_dec = import_raw(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE, K32, 32, false,
                                        WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_WRAP_KEY);
    webcrypto_key *hmac_sign = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, K32, 32,
                                          false, WEBCRYPTO_USAGE_SIGN);
    webcrypto_key *hmac_verify = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_1, K16, 16,
                                            true, WEBCRYPTO_USAGE_VERIFY);
    webcrypto_key *hkdf_dk = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                        WEBCRYPTO_USAGE_DERIVE_KEY);

    /* params.name differs from the key's algorithm. */
    webcrypto_params p = gcm_params();
    EXPECT(webcrypto_encrypt(&p, cbc_enc, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = ctr_params(64);
    EXPECT(webcrypto_encrypt(&p, cbc_enc, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = cbc_params();
    EXPECT(webcrypto_decrypt(&p, gcm_dec, MSG, 32, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_encrypt(&p, hmac_sign, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = P(WEBCRYPTO_ALG_HMAC);
    EXPECT(webcrypto_sign(&p, cbc_enc, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = P(WEBCRYPTO_ALG_PBKDF2);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    p.iterations = 1;
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&p, hkdf_dk, 128, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);

    /* The key lacks the usage. */
    p = cbc_params();
    EXPECT(webcrypto_decrypt(&p, cbc_enc, MSG, 32, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = gcm_params();
    EXPECT(webcrypto_encrypt(&p, gcm_dec, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = P(WEBCRYPTO_ALG_HMAC);
    EXPECT(webcrypto_sign(&p, hmac_verify, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_verify(&p, hmac_sign, out, 32, MSG, sizeof MSG, &valid),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = P(WEBCRYPTO_ALG_HKDF);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    EXPECT(webcrypto_derive_bits(&p, hkdf_dk, 128, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);

    /* Streaming checks the same. */
    webcrypto_sign_ctx *sctx = NULL;
    p = P(WEBCRYPTO_ALG_HMAC);
    EXPECT(webcrypto_sign_init(&p, hmac_verify, &sctx), WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_verify_init(&p, hmac_sign, &sctx), WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_sign_init(&p, cbc_enc, &sctx), WEBCRYPTO_ERR_INVALID_ACCESS);
    assert_null(sctx);
    webcrypto_cipher_ctx *cctx = NULL;
    p = cbc_params();
    EXPECT(webcrypto_cipher_init(&p, cbc_enc, false, &cctx), WEBCRYPTO_ERR_INVALID_ACCESS);
    p = ctr_params(64);
    EXPECT(webcrypto_cipher_init(&p, cbc_enc, true, &cctx), WEBCRYPTO_ERR_INVALID_ACCESS);
    assert_null(cctx);

    /* Order: the key checks come before the operation's parameter checks
     * (a bad IV is an OperationError only once the key is usable). */
    p = cbc_params();
    p.iv_len = 12;
    EXPECT(webcrypto_decrypt(&p, cbc_enc, MSG, 32, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = gcm_params();
    p.tag_length = 7;
    EXPECT(webcrypto_encrypt(&p, gcm_dec, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    p = P(WEBCRYPTO_ALG_HKDF);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    EXPECT(webcrypto_derive_bits(&p, hkdf_dk, 7, out, sizeof out, &dlen), WEBCRYPTO_ERR_INVALID_ACCESS);

    /* Export of a non-extractable key. */
    uint8_t *exp = NULL;
    size_t exp_len = 0;
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, gcm_dec, &exp, &exp_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, gcm_dec, &exp, &exp_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, hmac_sign, &exp, &exp_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, hmac_sign, &exp, &exp_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    /* exportKey checks [[extractable]] before running the algorithm's export
     * operation, which is where an unsupported format is rejected. */
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, gcm_dec, &exp, &exp_len),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    assert_null(exp);

    webcrypto_key_free(cbc_enc);
    webcrypto_key_free(gcm_dec);
    webcrypto_key_free(hmac_sign);
    webcrypto_key_free(hmac_verify);
    webcrypto_key_free(hkdf_dk);
}

/* ------------------------------------------------------------------------ */
/* DataError                                                                */

static void test_data(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_key *key = NULL;
    uint8_t big[33] = {0};
    const size_t bad_aes_len[] = {0, 1, 15, 17, 20, 31, 33};
    const webcrypto_algorithm aes[3] = {WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
                                        WEBCRYPTO_ALG_AES_GCM};

    for (size_t i = 0; i < 3; i++) {
        webcrypto_params p = P(aes[i]);
        for (size_t j = 0; j < sizeof bad_aes_len / sizeof bad_aes_len[0]; j++) {
            EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, big, bad_aes_len[j], &p, true,
                                        WEBCRYPTO_USAGE_ENCRYPT, &key),
                   WEBCRYPTO_ERR_DATA);
        }
        /* The DataError of the import wins over empty usages (SyntaxError),
         * which importKey checks only after the import itself. */
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, big, 15, &p, true, 0, &key),
               WEBCRYPTO_ERR_DATA);
        static const char bad_jwk[] = "{\"kty\":\"EC\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\"}";
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)bad_jwk,
                                    strlen(bad_jwk), &p, true, 0, &key),
               WEBCRYPTO_ERR_DATA);
    }

    /* HMAC: empty key data; length outside (bits - 8, bits]. */
    webcrypto_params p = P(WEBCRYPTO_ALG_HMAC);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, NULL, 0, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_DATA);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, NULL, 0, &p, true, 0, &key),
           WEBCRYPTO_ERR_DATA);
    p.length = 257;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_DATA);
    p.length = 512;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_DATA);
    p.length = 248;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_DATA);
    p.length = 8;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_DATA);
    assert_null(key);
    /* The edges that are allowed. */
    p.length = 249;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(key), 249);
    webcrypto_key_free(key);
    key = NULL;
    p.length = 256;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(key), 256);
    webcrypto_key_free(key);
    key = NULL;

    /* JWK key data that is not a JWK. */
    p = P(WEBCRYPTO_ALG_AES_GCM);
    static const char *const not_jwk[] = {"", "{", "not json", "[]", "null", "42",
                                          "\"{\\\"kty\\\":\\\"oct\\\"}\""};
    for (size_t i = 0; i < sizeof not_jwk / sizeof not_jwk[0]; i++) {
        EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)not_jwk[i],
                                    strlen(not_jwk[i]), &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
               WEBCRYPTO_ERR_DATA);
    }
    assert_null(key);
}

/* ------------------------------------------------------------------------ */
/* OperationError                                                           */

static void test_operation(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    uint8_t out[256];
    size_t out_len = 0;
    webcrypto_key *key = NULL;

    /* generateKey AES with a length other than 128/192/256. */
    const size_t bad_len[] = {64, 100, 127, 129, 255, 257, 512};
    for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++) {
        webcrypto_params p = P(WEBCRYPTO_ALG_AES_GCM);
        p.length = bad_len[i];
        EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
               WEBCRYPTO_ERR_OPERATION);
        p.name = WEBCRYPTO_ALG_AES_CBC;
        EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_DECRYPT, &key),
               WEBCRYPTO_ERR_OPERATION);
    }
    assert_null(key);

    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    webcrypto_key *cbc = import_raw(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE, K16, 16, true, ed);
    webcrypto_key *ctr = import_raw(WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_NONE, K16, 16, true, ed);
    webcrypto_key *gcm = import_raw(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE, K16, 16, true, ed);

    /* AES-CBC: iv not 16 bytes; ciphertext not a whole number of blocks. */
    webcrypto_params p = cbc_params();
    p.iv_len = 12;
    EXPECT(webcrypto_encrypt(&p, cbc, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    p.iv_len = 15;
    EXPECT(webcrypto_decrypt(&p, cbc, MSG, 32, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    uint8_t iv17[17] = {0};
    p.iv = iv17;
    p.iv_len = 17;
    EXPECT(webcrypto_encrypt(&p, cbc, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    p = cbc_params();
    EXPECT(webcrypto_decrypt(&p, cbc, MSG, 17, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_decrypt(&p, cbc, MSG, 15, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_decrypt(&p, cbc, NULL, 0, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);

    /* AES-CBC bad padding. Encrypt MSG[0..16) || 16 zero bytes; the first
     * two ciphertext blocks then decrypt to text ending in a zero byte, which
     * is not valid padding. The output must then hold no plaintext. */
    {
        uint8_t in[32] = {0}, ct[48];
        size_t ct_len = 0;
        memcpy(in, MSG, 16);
        EXPECT(webcrypto_encrypt(&p, cbc, in, 32, ct, sizeof ct, &ct_len), WEBCRYPTO_OK);
        assert_int_equal(ct_len, 48);
        size_t max = 0;
        EXPECT(webcrypto_decrypt(&p, cbc, ct, 32, NULL, 0, &max), WEBCRYPTO_OK);
        assert_true(max >= 31 && max <= 32);
        uint8_t pt[32];
        memset(pt, 0xAA, sizeof pt);
        EXPECT(webcrypto_decrypt(&p, cbc, ct, 32, pt, max, &out_len), WEBCRYPTO_ERR_OPERATION);
        assert_true(no_plaintext(pt, max));
        /* The whole ciphertext with its last padding byte made 0x11 (flip the
         * same bit of the previous ciphertext block). */
        ct[31] ^= 0x01;
        uint8_t pt48[48];
        memset(pt48, 0xAA, sizeof pt48);
        EXPECT(webcrypto_decrypt(&p, cbc, ct, 48, pt48, sizeof pt48, &out_len),
               WEBCRYPTO_ERR_OPERATION);
        assert_true(no_plaintext(pt48, sizeof pt48));
        /* With room for the padding block (one backend call) and without it
         * (the last block decrypted apart): the same error, the same
         * message, nothing left in the output. */
        char first[256];
        snprintf(first, sizeof first, "%s", webcrypto_error_message());
        memset(pt48, 0xAA, sizeof pt48);
        EXPECT(webcrypto_decrypt(&p, cbc, ct, 48, pt48, 47, &out_len), WEBCRYPTO_ERR_OPERATION);
        assert_true(no_plaintext(pt48, 47));
        assert_string_equal(webcrypto_error_message(), first);
    }

    /* AES-CTR: counter not 16 bytes, length 0 or > 128, counter wrap. */
    p = ctr_params(64);
    p.counter_len = 8;
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    p.counter_len = 17;
    uint8_t counter17[17] = {0};
    p.counter = counter17;
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    p = ctr_params(0);
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    p = ctr_params(129);
    EXPECT(webcrypto_decrypt(&p, ctr, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    /* length 1: two distinct counter blocks, so 32 bytes are fine and 33
     * would reuse a counter block. length 2: four blocks. */
    p = ctr_params(1);
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, 32, out, sizeof out, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 32);
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, 33, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    {
        uint8_t big[65] = {0};
        p = ctr_params(2);
        EXPECT(webcrypto_encrypt(&p, ctr, big, 64, out, sizeof out, &out_len), WEBCRYPTO_OK);
        EXPECT(webcrypto_decrypt(&p, ctr, big, 65, out, sizeof out, &out_len),
               WEBCRYPTO_ERR_OPERATION);
    }

    /* AES-GCM: empty iv, bad tag lengths, input shorter than the tag. */
    p = gcm_params();
    p.iv = NULL;
    p.iv_len = 0;
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, sizeof MSG, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    const size_t bad_tag[] = {8, 16, 31, 33, 48, 65, 100, 127, 136, 256};
    for (size_t i = 0; i < sizeof bad_tag / sizeof bad_tag[0]; i++) {
        p = gcm_params();
        p.tag_length = bad_tag[i];
        EXPECT(webcrypto_encrypt(&p, gcm, MSG, sizeof MSG, out, sizeof out, &out_len),
               WEBCRYPTO_ERR_OPERATION);
        EXPECT(webcrypto_decrypt(&p, gcm, MSG, sizeof MSG, out, sizeof out, &out_len),
               WEBCRYPTO_ERR_OPERATION);
    }
    p = gcm_params();
    EXPECT(webcrypto_decrypt(&p, gcm, MSG, 15, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_decrypt(&p, gcm, NULL, 0, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);
    p.tag_length = 32;
    EXPECT(webcrypto_decrypt(&p, gcm, MSG, 3, out, sizeof out, &out_len),
           WEBCRYPTO_ERR_OPERATION);

    webcrypto_key_free(cbc);
    webcrypto_key_free(ctr);
    webcrypto_key_free(gcm);

    /* HKDF: length not a multiple of 8, or over 255 * hash length. */
    webcrypto_key *hkdf = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    size_t cap = 255 * 32 + 1;
    uint8_t *dk = malloc(cap);
    assert_non_null(dk);
    p = P(WEBCRYPTO_ALG_HKDF);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&p, hkdf, 7, dk, cap, &dlen), WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&p, hkdf, 129, dk, cap, &dlen), WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&p, hkdf, (255 * 32 + 1) * 8, dk, cap, &dlen),
           WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&p, hkdf, 255 * 32 * 8, dk, cap, &dlen), WEBCRYPTO_OK);
    p.hash = WEBCRYPTO_ALG_SHA_1;
    EXPECT(webcrypto_derive_bits(&p, hkdf, (255 * 20 + 1) * 8, dk, cap, &dlen),
           WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&p, hkdf, 255 * 20 * 8, dk, cap, &dlen), WEBCRYPTO_OK);
    /* 0 bits is allowed for HKDF: an empty result. */
    EXPECT(webcrypto_derive_bits(&p, hkdf, 0, NULL, 0, &dlen), WEBCRYPTO_OK);
    free(dk);
    webcrypto_key_free(hkdf);

    /* PBKDF2: length not a multiple of 8; iterations 0 (even for length 0);
     * length 0 itself gives an empty result (w3c/webcrypto#380). */
    webcrypto_key *pbkdf2 = import_raw(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                       WEBCRYPTO_USAGE_DERIVE_BITS);
    p = P(WEBCRYPTO_ALG_PBKDF2);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    p.salt = K32;
    p.salt_len = 16;
    p.iterations = 1;
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 0, NULL, 0, &dlen), WEBCRYPTO_OK);
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 12, out, sizeof out, &dlen), WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 255, out, sizeof out, &dlen), WEBCRYPTO_ERR_OPERATION);
    p.iterations = 0;
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 256, out, sizeof out, &dlen), WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 0, NULL, 0, &dlen), WEBCRYPTO_ERR_OPERATION);
    webcrypto_key_free(pbkdf2);
}

/* AES-GCM decryption that fails leaves no plaintext in the caller's buffer. */
static void test_gcm_failure_wipes_output(void **state) {
    (void)state;
    webcrypto_key *gcm = import_raw(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE, K32, 32, false,
                                    WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
    static const uint8_t aad[5] = {1, 2, 3, 4, 5};
    webcrypto_params p = gcm_params();
    p.additional_data = aad;
    p.additional_data_len = sizeof aad;

    uint8_t ct[sizeof MSG + 16];
    size_t ct_len = 0;
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, sizeof MSG, ct, sizeof ct, &ct_len), WEBCRYPTO_OK);
    assert_int_equal(ct_len, sizeof MSG + 16);

    size_t max = 0;
    EXPECT(webcrypto_decrypt(&p, gcm, ct, ct_len, NULL, 0, &max), WEBCRYPTO_OK);
    assert_int_equal(max, sizeof MSG);

    /* The untampered ciphertext decrypts (so the failures below are due to
     * the tampering alone). */
    uint8_t pt[sizeof MSG];
    size_t pt_len = 0;
    EXPECT(webcrypto_decrypt(&p, gcm, ct, ct_len, pt, sizeof pt, &pt_len), WEBCRYPTO_OK);
    assert_int_equal(pt_len, sizeof MSG);
    assert_memory_equal(pt, MSG, sizeof MSG);

    /* Tampered tag, tampered ciphertext, wrong AAD, wrong IV. */
    for (int c = 0; c < 4; c++) {
        uint8_t bad[sizeof ct];
        memcpy(bad, ct, sizeof bad);
        webcrypto_params q = p;
        static const uint8_t aad2[5] = {1, 2, 3, 4, 6};
        if (c == 0) bad[ct_len - 1] ^= 0x80;
        if (c == 1) bad[3] ^= 0x01;
        if (c == 2) q.additional_data = aad2;
        if (c == 3) q.iv = IV16 + 1;
        memset(pt, 0xAA, sizeof pt);
        EXPECT(webcrypto_decrypt(&q, gcm, bad, ct_len, pt, sizeof pt, &pt_len),
               WEBCRYPTO_ERR_OPERATION);
        assert_true(all_zero(pt, sizeof pt));
    }

    /* A shorter tag: the same rules. */
    p.tag_length = 96;
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, sizeof MSG, ct, sizeof ct, &ct_len), WEBCRYPTO_OK);
    assert_int_equal(ct_len, sizeof MSG + 12);
    ct[ct_len - 12] ^= 0x01;
    memset(pt, 0xAA, sizeof pt);
    EXPECT(webcrypto_decrypt(&p, gcm, ct, ct_len, pt, sizeof pt, &pt_len),
           WEBCRYPTO_ERR_OPERATION);
    assert_true(all_zero(pt, sizeof pt));

    webcrypto_key_free(gcm);
}

/* ------------------------------------------------------------------------ */
/* QuotaExceededError                                                       */

static void test_quota(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    size_t cap = (size_t)1 << 20;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    EXPECT(webcrypto_get_random_values(b, buf, 65537), WEBCRYPTO_ERR_QUOTA_EXCEEDED);
    EXPECT(webcrypto_get_random_values(NULL, buf, 65537), WEBCRYPTO_ERR_QUOTA_EXCEEDED);
    EXPECT(webcrypto_get_random_values(b, buf, 100000), WEBCRYPTO_ERR_QUOTA_EXCEEDED);
    EXPECT(webcrypto_get_random_values(b, buf, cap), WEBCRYPTO_ERR_QUOTA_EXCEEDED);
    /* The limit itself is allowed, and so is nothing. */
    EXPECT(webcrypto_get_random_values(b, buf, 65536), WEBCRYPTO_OK);
    EXPECT(webcrypto_get_random_values(b, NULL, 0), WEBCRYPTO_OK);
    free(buf);
}

/* ------------------------------------------------------------------------ */
/* TypeError: missing required members, NULL arguments, short buffers      */

static void test_type_error_members(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_key *key = NULL;
    uint8_t out[64];

    /* HMAC without hash. */
    webcrypto_params p = P(WEBCRYPTO_ALG_HMAC);
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 32, &p, true, WEBCRYPTO_USAGE_SIGN,
                                &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    static const char jwk[] = "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\"}";
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)jwk, strlen(jwk), &p,
                                true, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* Normalisation (TypeError) comes before the usages check (SyntaxError). */
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);

    /* AES generateKey without length. */
    const webcrypto_algorithm aes[3] = {WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
                                        WEBCRYPTO_ALG_AES_GCM};
    for (size_t i = 0; i < 3; i++) {
        p = P(aes[i]);
        EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
               WEBCRYPTO_ERR_INVALID_ARGUMENT);
    }
    /* The algorithm name itself is a required member. */
    p = P(WEBCRYPTO_ALG_NONE);
    p.length = 128;
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_null(key);

    /* KDFs without hash. */
    webcrypto_key *hkdf = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *pbkdf2 = import_raw(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                       WEBCRYPTO_USAGE_DERIVE_BITS);
    p = P(WEBCRYPTO_ALG_HKDF);
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&p, hkdf, 128, out, sizeof out, &dlen), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    p = P(WEBCRYPTO_ALG_PBKDF2);
    p.iterations = 1000;
    EXPECT(webcrypto_derive_bits(&p, pbkdf2, 128, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);

    /* Enumerations out of range, as WebIDL rejects an unknown enum string
     * with a TypeError: a key format, a usage name (case-sensitive). */
    p = P(WEBCRYPTO_ALG_AES_GCM);
    EXPECT(webcrypto_import_key(b, (webcrypto_key_format)99, K16, 16, &p, true,
                                WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_null(key);
    unsigned u = 0;
    EXPECT(webcrypto_usage_from_name("Encrypt", &u), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    EXPECT(webcrypto_usage_from_name("derivebits", &u), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    EXPECT(webcrypto_usage_from_name("", &u), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(u, 0);
    EXPECT(webcrypto_usage_from_name("deriveBits", &u), WEBCRYPTO_OK);
    assert_int_equal(u, WEBCRYPTO_USAGE_DERIVE_BITS);
    assert_null(webcrypto_usage_name(WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT));
    assert_null(webcrypto_usage_name(0));
    assert_string_equal(webcrypto_usage_name(WEBCRYPTO_USAGE_UNWRAP_KEY), "unwrapKey");

    webcrypto_key_free(hkdf);
    webcrypto_key_free(pbkdf2);
}

/* A usage bit that names no KeyUsage is the C form of a usages sequence
 * holding a string outside the KeyUsage enum, which WebIDL rejects with a
 * TypeError before any algorithm step runs (so not the SyntaxError of a
 * known usage the algorithm does not allow). */
static void test_unknown_usage_bit_type_error(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_key *key = NULL;
    webcrypto_params p = P(WEBCRYPTO_ALG_AES_GCM);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &p, true,
                                WEBCRYPTO_USAGE_ENCRYPT | (1u << 12), &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT); /* past decapsulateBits (1 << 11) */
    p.length = 128;
    EXPECT(webcrypto_generate_key(b, &p, true, WEBCRYPTO_USAGE_ENCRYPT | (1u << 31), &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_null(key);
}

static void test_type_error_null(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_key *key = NULL;
    uint8_t out[64];
    size_t out_len = 0;
    bool valid = false;
    webcrypto_key *aes = import_raw(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE, K16, 16, true,
                                    WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
    webcrypto_key *hmac = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, K32, 32, true,
                                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    webcrypto_key *hkdf = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_params gen = P(WEBCRYPTO_ALG_AES_GCM);
    gen.length = 128;
    webcrypto_params cbc = cbc_params();
    webcrypto_params mac = P(WEBCRYPTO_ALG_HMAC);
    webcrypto_params kdf = P(WEBCRYPTO_ALG_HKDF);
    kdf.hash = WEBCRYPTO_ALG_SHA_256;

    const webcrypto_status T = WEBCRYPTO_ERR_INVALID_ARGUMENT;
    EXPECT(webcrypto_algorithm_from_name(NULL, &(webcrypto_algorithm){0}), T);
    EXPECT(webcrypto_algorithm_from_name("AES-GCM", NULL), T);
    EXPECT(webcrypto_backend_get(NULL, NULL), T);
    EXPECT(webcrypto_generate_key(b, NULL, true, WEBCRYPTO_USAGE_ENCRYPT, &key), T);
    EXPECT(webcrypto_generate_key(b, &gen, true, WEBCRYPTO_USAGE_ENCRYPT, NULL), T);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, NULL, 16, &cbc, true,
                                WEBCRYPTO_USAGE_ENCRYPT, &key),
           T);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, NULL, true,
                                WEBCRYPTO_USAGE_ENCRYPT, &key),
           T);
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K16, 16, &cbc, true,
                                WEBCRYPTO_USAGE_ENCRYPT, NULL),
           T);
    assert_null(key);
    uint8_t *exp = NULL;
    size_t exp_len = 0;
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, NULL, &exp, &exp_len), T);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, aes, NULL, &exp_len), T);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, aes, &exp, NULL), T);
    assert_null(exp);

    EXPECT(webcrypto_encrypt(NULL, aes, MSG, 16, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_encrypt(&cbc, NULL, MSG, 16, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_encrypt(&cbc, aes, NULL, 16, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_encrypt(&cbc, aes, MSG, 16, out, sizeof out, NULL), T);
    EXPECT(webcrypto_decrypt(&cbc, NULL, MSG, 32, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_sign(&mac, NULL, MSG, 16, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_sign(NULL, hmac, MSG, 16, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_sign(&mac, hmac, MSG, 16, out, sizeof out, NULL), T);
    EXPECT(webcrypto_verify(&mac, hmac, out, 32, MSG, 16, NULL), T);
    EXPECT(webcrypto_verify(&mac, NULL, out, 32, MSG, 16, &valid), T);
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&kdf, NULL, 128, out, sizeof out, &dlen), T);
    EXPECT(webcrypto_derive_bits(NULL, hkdf, 128, out, sizeof out, &dlen), T);
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 128, out, sizeof out, NULL), T);
    /* out == NULL is the size query (the header's convention), not a
     * TypeError; a short buffer is, and reports the size needed. */
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 128, NULL, 16, &dlen), WEBCRYPTO_OK);
    assert_int_equal(dlen, 16);
    dlen = 0;
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 128, out, 15, &dlen), T);
    assert_int_equal(dlen, 16);
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 128, out, sizeof out, &dlen), WEBCRYPTO_OK);
    assert_int_equal(dlen, 16);
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 12, NULL, 0, &dlen), WEBCRYPTO_ERR_OPERATION);

    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, NULL, 5, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, MSG, 5, out, sizeof out, NULL), T);
    EXPECT(webcrypto_digest_init(b, WEBCRYPTO_ALG_SHA_256, NULL), T);
    EXPECT(webcrypto_digest_update(NULL, MSG, 5), T);
    EXPECT(webcrypto_digest_final(NULL, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_sign_init(&mac, hmac, NULL), T);
    EXPECT(webcrypto_sign_init(&mac, NULL, &(webcrypto_sign_ctx *){NULL}), T);
    EXPECT(webcrypto_sign_update(NULL, MSG, 5), T);
    EXPECT(webcrypto_cipher_init(&cbc, aes, true, NULL), T);
    EXPECT(webcrypto_cipher_init(&cbc, NULL, true, &(webcrypto_cipher_ctx *){NULL}), T);
    EXPECT(webcrypto_cipher_update(NULL, MSG, 16, out, sizeof out, &out_len), T);
    EXPECT(webcrypto_cipher_final(NULL, out, sizeof out, &out_len), T);

    EXPECT(webcrypto_get_random_values(b, NULL, 16), T);
    EXPECT(webcrypto_random_uuid(b, NULL), T);

    /* The _free functions accept NULL. */
    webcrypto_key_free(NULL);
    webcrypto_digest_ctx_free(NULL);
    webcrypto_sign_ctx_free(NULL);
    webcrypto_cipher_ctx_free(NULL);
    webcrypto_buffer_free(NULL, 0);

    webcrypto_key_free(aes);
    webcrypto_key_free(hmac);
    webcrypto_key_free(hkdf);
}

/* out == NULL reports the size; a short buffer is TypeError with the size
 * needed in *out_len. */
static void test_type_error_short_buffers(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    uint8_t out[128];
    size_t out_len = 0;
    const webcrypto_status T = WEBCRYPTO_ERR_INVALID_ARGUMENT;

    /* Digest. */
    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, MSG, 5, NULL, 0, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 32);
    out_len = 0;
    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_384, MSG, 5, out, 47, &out_len), T);
    assert_int_equal(out_len, 48);
    out_len = 0;
    EXPECT(webcrypto_digest(b, WEBCRYPTO_ALG_SHA_1, MSG, 5, out, 0, &out_len), T);
    assert_int_equal(out_len, 20);
    webcrypto_digest_ctx *dctx = NULL;
    EXPECT(webcrypto_digest_init(b, WEBCRYPTO_ALG_SHA_512, &dctx), WEBCRYPTO_OK);
    EXPECT(webcrypto_digest_update(dctx, MSG, 5), WEBCRYPTO_OK);
    out_len = 0;
    EXPECT(webcrypto_digest_final(dctx, out, 63, &out_len), T);
    assert_int_equal(out_len, 64);
    webcrypto_digest_ctx_free(dctx);

    /* Sign. */
    webcrypto_key *hmac = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_512, K32, 32, true,
                                     WEBCRYPTO_USAGE_SIGN);
    webcrypto_params mac = P(WEBCRYPTO_ALG_HMAC);
    out_len = 0;
    EXPECT(webcrypto_sign(&mac, hmac, MSG, 5, NULL, 0, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 64);
    out_len = 0;
    EXPECT(webcrypto_sign(&mac, hmac, MSG, 5, out, 32, &out_len), T);
    assert_int_equal(out_len, 64);
    webcrypto_sign_ctx *sctx = NULL;
    EXPECT(webcrypto_sign_init(&mac, hmac, &sctx), WEBCRYPTO_OK);
    out_len = 0;
    EXPECT(webcrypto_sign_final(sctx, out, 10, &out_len), T);
    assert_int_equal(out_len, 64);
    webcrypto_sign_ctx_free(sctx);
    webcrypto_key_free(hmac);

    /* Encrypt: GCM adds the tag, CTR keeps the size, CBC pads to a block. */
    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    webcrypto_key *gcm = import_raw(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE, K16, 16, true, ed);
    webcrypto_key *ctr = import_raw(WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_NONE, K16, 16, true, ed);
    webcrypto_key *cbc = import_raw(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE, K16, 16, true, ed);
    webcrypto_params p = gcm_params();
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, 10, NULL, 0, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 26);
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, 10, out, 25, &out_len), T);
    assert_int_equal(out_len, 26);
    p.tag_length = 64;
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, 10, out, 17, &out_len), T);
    assert_int_equal(out_len, 18);
    EXPECT(webcrypto_encrypt(&p, gcm, MSG, 10, out, 18, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 18);

    p = ctr_params(64);
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, 10, NULL, 0, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 10);
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, ctr, MSG, 10, out, 9, &out_len), T);
    assert_int_equal(out_len, 10);

    p = cbc_params();
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, cbc, MSG, 10, NULL, 0, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 16);
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, cbc, MSG, 16, out, 31, &out_len), T);
    assert_int_equal(out_len, 32);
    out_len = 0;
    EXPECT(webcrypto_encrypt(&p, cbc, MSG, 16, out, 32, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 32);
    /* Decrypt into too little room for even the largest possible result. */
    size_t need = 0;
    EXPECT(webcrypto_decrypt(&p, cbc, out, 32, NULL, 0, &need), WEBCRYPTO_OK);
    assert_true(need >= 16 && need <= 32);
    uint8_t pt[32];
    out_len = 0;
    EXPECT(webcrypto_decrypt(&p, cbc, out, 32, pt, 15, &out_len), T);
    assert_true(out_len >= 16);

    webcrypto_key_free(gcm);
    webcrypto_key_free(ctr);
    webcrypto_key_free(cbc);

    /* deriveBits into a buffer smaller than length / 8. */
    webcrypto_key *hkdf = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_params kdf = P(WEBCRYPTO_ALG_HKDF);
    kdf.hash = WEBCRYPTO_ALG_SHA_256;
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 256, out, 31, &dlen), T);
    EXPECT(webcrypto_derive_bits(&kdf, hkdf, 256, out, 32, &dlen), WEBCRYPTO_OK);
    webcrypto_key_free(hkdf);
}

/* ------------------------------------------------------------------------ */
/* verify with a wrong MAC is not an error                                  */

static void test_verify_wrong_mac(void **state) {
    (void)state;
    webcrypto_key *hmac = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, K32, 32, false,
                                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    webcrypto_params mac = P(WEBCRYPTO_ALG_HMAC);
    uint8_t sig[32];
    size_t sig_len = 0;
    EXPECT(webcrypto_sign(&mac, hmac, MSG, sizeof MSG, sig, sizeof sig, &sig_len), WEBCRYPTO_OK);
    assert_int_equal(sig_len, 32);

    bool valid = false;
    EXPECT(webcrypto_verify(&mac, hmac, sig, sig_len, MSG, sizeof MSG, &valid), WEBCRYPTO_OK);
    assert_true(valid);

    /* Each bit position class: first, middle, last byte. */
    const size_t flip[3] = {0, 15, 31};
    for (size_t i = 0; i < 3; i++) {
        uint8_t bad[32];
        memcpy(bad, sig, sizeof bad);
        bad[flip[i]] ^= 0x01;
        valid = true;
        EXPECT(webcrypto_verify(&mac, hmac, bad, sizeof bad, MSG, sizeof MSG, &valid),
               WEBCRYPTO_OK);
        assert_false(valid);
    }
    /* Wrong lengths: truncated, extended, empty. */
    uint8_t longer[33];
    memcpy(longer, sig, 32);
    longer[32] = 0;
    valid = true;
    EXPECT(webcrypto_verify(&mac, hmac, sig, 31, MSG, sizeof MSG, &valid), WEBCRYPTO_OK);
    assert_false(valid);
    valid = true;
    EXPECT(webcrypto_verify(&mac, hmac, longer, 33, MSG, sizeof MSG, &valid), WEBCRYPTO_OK);
    assert_false(valid);
    valid = true;
    EXPECT(webcrypto_verify(&mac, hmac, NULL, 0, MSG, sizeof MSG, &valid), WEBCRYPTO_OK);
    assert_false(valid);
    /* The right MAC over different data. */
    valid = true;
    EXPECT(webcrypto_verify(&mac, hmac, sig, sig_len, MSG, sizeof MSG - 1, &valid), WEBCRYPTO_OK);
    assert_false(valid);

    /* Streaming verify: the same. */
    webcrypto_sign_ctx *ctx = NULL;
    EXPECT(webcrypto_verify_init(&mac, hmac, &ctx), WEBCRYPTO_OK);
    EXPECT(webcrypto_sign_update(ctx, MSG, sizeof MSG), WEBCRYPTO_OK);
    sig[7] ^= 0x40;
    valid = true;
    EXPECT(webcrypto_verify_final(ctx, sig, sig_len, &valid), WEBCRYPTO_OK);
    assert_false(valid);
    webcrypto_sign_ctx_free(ctx);

    webcrypto_key_free(hmac);
}

/* ------------------------------------------------------------------------ */
/* Key getters after generate and import                                    */

static void check_key(const webcrypto_key *key, webcrypto_algorithm alg,
                      webcrypto_algorithm hash, size_t length, bool extractable,
                      unsigned usages) {
    assert_int_equal(webcrypto_key_get_type(key), WEBCRYPTO_KEY_SECRET);
    assert_int_equal(webcrypto_key_get_algorithm(key), alg);
    assert_int_equal(webcrypto_key_get_hash(key), hash);
    if (length) assert_int_equal(webcrypto_key_get_length(key), length);
    assert_int_equal(webcrypto_key_get_extractable(key), extractable);
    assert_int_equal(webcrypto_key_get_usages(key), usages);
    assert_ptr_equal(webcrypto_key_get_backend(key), tu_backend());
}

static void test_key_getters(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    webcrypto_key *key = NULL;

    /* AES, generated. */
    const webcrypto_algorithm aes[3] = {WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
                                        WEBCRYPTO_ALG_AES_GCM};
    const size_t lens[3] = {128, 192, 256};
    const unsigned aes_usages[3] = {WEBCRYPTO_USAGE_ENCRYPT,
                                    WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY,
                                    WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT |
                                        WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY};
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++) {
            webcrypto_params p = P(aes[i]);
            p.length = lens[j];
            bool ext = (i + j) % 2 == 0;
            EXPECT(webcrypto_generate_key(b, &p, ext, aes_usages[j], &key), WEBCRYPTO_OK);
            check_key(key, aes[i], WEBCRYPTO_ALG_NONE, lens[j], ext, aes_usages[j]);
            webcrypto_key_free(key);
            key = NULL;
        }
    }
    /* AES, imported: the length comes from the data. */
    uint8_t k24[24];
    memcpy(k24, K32, sizeof k24);
    webcrypto_key *imp = import_raw(WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_NONE, k24, 24, false,
                                    WEBCRYPTO_USAGE_WRAP_KEY);
    check_key(imp, WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_NONE, 192, false,
              WEBCRYPTO_USAGE_WRAP_KEY);
    webcrypto_key_free(imp);

    /* HMAC generated without length: the hash's block size. */
    const webcrypto_algorithm hashes[4] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                           WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
    const size_t block_bits[4] = {512, 512, 1024, 1024};
    const unsigned mac_usages[2] = {WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                                    WEBCRYPTO_USAGE_VERIFY};
    for (size_t i = 0; i < 4; i++) {
        webcrypto_params p = P(WEBCRYPTO_ALG_HMAC);
        p.hash = hashes[i];
        unsigned u = mac_usages[i % 2];
        EXPECT(webcrypto_generate_key(b, &p, true, u, &key), WEBCRYPTO_OK);
        check_key(key, WEBCRYPTO_ALG_HMAC, hashes[i], block_bits[i], true, u);
        uint8_t *raw = NULL;
        size_t raw_len = 0;
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len), WEBCRYPTO_OK);
        assert_int_equal(raw_len, block_bits[i] / 8);
        webcrypto_buffer_free(raw, raw_len);
        webcrypto_key_free(key);
        key = NULL;
    }
    /* HMAC generated with an explicit length. */
    webcrypto_params p = P(WEBCRYPTO_ALG_HMAC);
    p.hash = WEBCRYPTO_ALG_SHA_512;
    p.length = 256;
    EXPECT(webcrypto_generate_key(b, &p, false, WEBCRYPTO_USAGE_SIGN, &key), WEBCRYPTO_OK);
    check_key(key, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_512, 256, false, WEBCRYPTO_USAGE_SIGN);
    webcrypto_key_free(key);
    key = NULL;

    /* HMAC imported: length is the data's, or the given one. */
    imp = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_1, K32, 20, true,
                     WEBCRYPTO_USAGE_SIGN);
    check_key(imp, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_1, 160, true, WEBCRYPTO_USAGE_SIGN);
    webcrypto_key_free(imp);
    p = P(WEBCRYPTO_ALG_HMAC);
    p.hash = WEBCRYPTO_ALG_SHA_384;
    p.length = 157;
    EXPECT(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, K32, 20, &p, false,
                                WEBCRYPTO_USAGE_VERIFY, &key),
           WEBCRYPTO_OK);
    check_key(key, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_384, 157, false,
              WEBCRYPTO_USAGE_VERIFY);
    webcrypto_key_free(key);
    key = NULL;

    /* KDF keys: never extractable. */
    imp = import_raw(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, K16, 16, false,
                     WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY);
    check_key(imp, WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, 0, false,
              WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY);
    webcrypto_key_free(imp);
    imp = import_raw(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, K16, 3, false,
                     WEBCRYPTO_USAGE_DERIVE_KEY);
    check_key(imp, WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, 0, false,
              WEBCRYPTO_USAGE_DERIVE_KEY);
    webcrypto_key_free(imp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_algorithm_list),
        cmocka_unit_test(test_error_message_per_thread),
        cmocka_unit_test(test_not_supported),
        cmocka_unit_test(test_export_kdf_key_not_supported),
        cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_invalid_access),
        cmocka_unit_test(test_data),
        cmocka_unit_test(test_operation),
        cmocka_unit_test(test_gcm_failure_wipes_output),
        cmocka_unit_test(test_quota),
        cmocka_unit_test(test_type_error_members),
        cmocka_unit_test(test_unknown_usage_bit_type_error),
        cmocka_unit_test(test_type_error_null),
        cmocka_unit_test(test_type_error_short_buffers),
        cmocka_unit_test(test_verify_wrong_mac),
        cmocka_unit_test(test_key_getters),
    };
    return tu_run_group("errors", tests, NULL, NULL);
}
