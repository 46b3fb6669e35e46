/*
 * test_sha3.c - SHA-3 as the hash of the keyed algorithms, KMAC's keys and
 * parameters, and cSHAKE's parameters ("Modern Algorithms in the Web
 * Cryptography API"), on the backend under test. The known answers (FIPS
 * 202, SP 800-185) are in test_kat.c, the Wycheproof files in
 * test_wycheproof.c; here: each keyed algorithm with SHA-3 works where the
 * backend says it does (webcrypto_backend_supports_hash) and is
 * NotSupportedError where it says it does not, the JWK rules, and the error
 * kinds of bad parameters.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const webcrypto_algorithm sha3[] = {WEBCRYPTO_ALG_SHA3_256, WEBCRYPTO_ALG_SHA3_384,
                                           WEBCRYPTO_ALG_SHA3_512};
#define N_SHA3 (sizeof sha3 / sizeof *sha3)
#define SV (WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY)

/* Whether the backend offers alg with SHA-3; says so when it does not (the
 * caller then checks the NotSupportedError). */
static bool offers(webcrypto_algorithm alg, webcrypto_algorithm hash) {
    bool yes = webcrypto_backend_supports_hash(tu_backend(), alg, hash);
    if (!yes)
        printf("%s with %s: not offered by %s (checking NotSupportedError)\n",
               webcrypto_algorithm_name(alg), webcrypto_algorithm_name(hash),
               webcrypto_backend_name(tu_backend()));
    return yes;
}

static webcrypto_key *hmac_key(webcrypto_algorithm hash, const uint8_t *k, size_t n) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = hash);
    webcrypto_key *key = NULL;
    tu_assert_status(
        webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, k, n, &p, true, SV, &key),
        WEBCRYPTO_OK);
    return key;
}

static void hmac(webcrypto_algorithm hash, const uint8_t *k, size_t kn, const uint8_t *a,
                 size_t an, const uint8_t *b, size_t bn, uint8_t *out) {
    webcrypto_key *key = hmac_key(hash, k, kn);
    uint8_t *msg = malloc(an + bn + 1);
    assert_non_null(msg);
    if (an) memcpy(msg, a, an);
    if (bn) memcpy(msg + an, b, bn);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    size_t n = 0;
    tu_assert_status(webcrypto_sign(&p, key, msg, an + bn, out, 64, &n), WEBCRYPTO_OK);
    assert_int_equal(n, webcrypto_digest_size(hash));
    free(msg);
    webcrypto_key_free(key);
}

/* HMAC with SHA-3: no default key length (no block size is defined for
 * SHA-3: NotSupportedError without one, as Node 24); the JWK has no "alg"
 * (none is registered) and one with an "alg" is DataError; the MAC is RFC
 * 2104 over SHA-3, checked against a key longer than the block (hashed
 * first). */
static void test_hmac_sha3(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HMAC);
    for (size_t i = 0; i < N_SHA3; i++) {
        webcrypto_params g = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = sha3[i]);
        webcrypto_key *key = NULL;
        tu_assert_status(webcrypto_generate_key(tu_backend(), &g, true, SV, &key),
                         WEBCRYPTO_ERR_NOT_SUPPORTED); /* no length: no default */
        /* supports() answers as generateKey does. */
        assert_false(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_GENERATE_KEY, &g,
                                        WEBCRYPTO_LENGTH_FULL, NULL));
        g.length = 264;
        assert_int_equal(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_GENERATE_KEY, &g,
                                            WEBCRYPTO_LENGTH_FULL, NULL),
                         offers(WEBCRYPTO_ALG_HMAC, sha3[i]));
        if (!offers(WEBCRYPTO_ALG_HMAC, sha3[i])) {
            tu_assert_status(webcrypto_generate_key(tu_backend(), &g, true, SV, &key),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
            continue;
        }
        tu_assert_status(webcrypto_generate_key(tu_backend(), &g, true, SV, &key), WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_length(key), 264);
        uint8_t *jwk = NULL;
        size_t jn = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, key, &jwk, &jn), WEBCRYPTO_OK);
        assert_null(strstr((const char *)jwk, "\"alg\""));
        webcrypto_key *back = NULL;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, jwk, jn, &g,
                                              true, SV, &back),
                         WEBCRYPTO_OK);
        webcrypto_key_free(back);
        webcrypto_buffer_free(jwk, jn);
        webcrypto_key_free(key);
        static const char with_alg[] =
            "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\",\"alg\":\"HS256\"}";
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                              (const uint8_t *)with_alg, strlen(with_alg), &g,
                                              true, SV, &back),
                         WEBCRYPTO_ERR_DATA);
        /* a 200-byte key (longer than every SHA-3 block) is replaced by its
         * digest: HMAC(K) = HMAC(SHA3(K)) */
        uint8_t long_key[200], kd[64], m1[64], m2[64];
        for (size_t k = 0; k < sizeof long_key; k++) long_key[k] = (uint8_t)(k * 7);
        size_t kdn = 0;
        tu_assert_status(webcrypto_digest(tu_backend(), sha3[i], long_key, sizeof long_key, kd,
                                          sizeof kd, &kdn),
                         WEBCRYPTO_OK);
        static const uint8_t msg[] = "The quick brown fox";
        hmac(sha3[i], long_key, sizeof long_key, msg, sizeof msg, NULL, 0, m1);
        hmac(sha3[i], kd, kdn, msg, sizeof msg, NULL, 0, m2);
        assert_memory_equal(m1, m2, webcrypto_digest_size(sha3[i]));
    }
}

/* HKDF and PBKDF2 with SHA-3, against their definitions over this
 * backend's HMAC: HKDF (RFC 5869) T(1) = HMAC(HMAC(salt, IKM), info || 01);
 * PBKDF2 (RFC 8018) with one iteration: U_1 = HMAC(P, S || 00000001). */
static void test_kdf_sha3(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_PBKDF2);
    static const uint8_t ikm[22] = {0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
                                    0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
                                    0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b};
    static const uint8_t salt[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const uint8_t info[10] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9};
    static const uint8_t one[1] = {1}, be1[4] = {0, 0, 0, 1};
    for (size_t i = 0; i < N_SHA3; i++) {
        size_t hl = webcrypto_digest_size(sha3[i]);
        uint8_t prk[64], t1[64], got[64];
        size_t n = 0;
        /* HKDF */
        webcrypto_params ip = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
        webcrypto_key *k = NULL;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, ikm, sizeof ikm,
                                              &ip, false, WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                         WEBCRYPTO_OK);
        webcrypto_params hp =
            WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = sha3[i], .salt = salt,
                             .salt_len = sizeof salt, .info = info, .info_len = sizeof info);
        webcrypto_status st = webcrypto_derive_bits(&hp, k, hl * 8, got, sizeof got, &n);
        if (offers(WEBCRYPTO_ALG_HKDF, sha3[i])) {
            tu_assert_status(st, WEBCRYPTO_OK);
            assert_int_equal(n, hl);
            hmac(sha3[i], salt, sizeof salt, ikm, sizeof ikm, NULL, 0, prk);
            hmac(sha3[i], prk, hl, info, sizeof info, one, 1, t1);
            assert_memory_equal(got, t1, hl);
        } else {
            tu_assert_status(st, WEBCRYPTO_ERR_NOT_SUPPORTED);
        }
        webcrypto_key_free(k);
        /* PBKDF2 */
        webcrypto_params pp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2);
        static const uint8_t pw[8] = "password";
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, pw, sizeof pw,
                                              &pp, false, WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                         WEBCRYPTO_OK);
        webcrypto_params dp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = sha3[i],
                                               .salt = salt, .salt_len = sizeof salt,
                                               .iterations = 1);
        st = webcrypto_derive_bits(&dp, k, hl * 8, got, sizeof got, &n);
        if (offers(WEBCRYPTO_ALG_PBKDF2, sha3[i])) {
            tu_assert_status(st, WEBCRYPTO_OK);
            hmac(sha3[i], pw, sizeof pw, salt, sizeof salt, be1, sizeof be1, t1);
            assert_memory_equal(got, t1, hl);
        } else {
            tu_assert_status(st, WEBCRYPTO_ERR_NOT_SUPPORTED);
        }
        webcrypto_key_free(k);
    }
}

/* RSA (PKCS #1 v1.5, PSS, OAEP) and ECDSA with SHA-3: sign/verify and
 * encrypt/decrypt round trips where offered, NotSupportedError where not;
 * an RSA JWK of a SHA-3 key has no "alg", and one with an "alg" does not
 * import. One 2048-bit RSA key (PKCS #8) is generated and re-imported per
 * scheme and hash. */
static void test_pkey_sha3(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_SHA3_256);
    static const uint8_t msg[] = "message for SHA-3 signatures";
    webcrypto_key *pub = NULL, *priv = NULL;
    uint8_t *pk8 = NULL, *spki = NULL;
    size_t pk8_n = 0, spki_n = 0;
    if (webcrypto_backend_supports(tu_backend(), WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5)) {
        webcrypto_params g = WEBCRYPTO_PARAMS(
            .name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, .hash = WEBCRYPTO_ALG_SHA_256,
            .modulus_length = 2048, .public_exponent = (const uint8_t *)"\x01\x00\x01",
            .public_exponent_len = 3);
        tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &g, true, SV, &pub, &priv),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, priv, &pk8, &pk8_n),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, pub, &spki, &spki_n),
                         WEBCRYPTO_OK);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    static const webcrypto_algorithm rsa[] = {WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
                                              WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP};
    for (size_t r = 0; pk8 && r < 3; r++) {
        if (!webcrypto_backend_supports(tu_backend(), rsa[r])) continue;
        bool oaep = rsa[r] == WEBCRYPTO_ALG_RSA_OAEP;
        unsigned upriv = oaep ? WEBCRYPTO_USAGE_DECRYPT : WEBCRYPTO_USAGE_SIGN;
        unsigned upub = oaep ? WEBCRYPTO_USAGE_ENCRYPT : WEBCRYPTO_USAGE_VERIFY;
        for (size_t i = 0; i < N_SHA3; i++) {
            webcrypto_params ip = WEBCRYPTO_PARAMS(.name = rsa[r], .hash = sha3[i]);
            webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_PKCS8, pk8,
                                                       pk8_n, &ip, true, upriv, &priv);
            if (!offers(rsa[r], sha3[i])) {
                tu_assert_status(st, WEBCRYPTO_ERR_NOT_SUPPORTED);
                continue;
            }
            tu_assert_status(st, WEBCRYPTO_OK);
            tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_SPKI, spki,
                                                  spki_n, &ip, true, upub, &pub),
                             WEBCRYPTO_OK);
            webcrypto_params op = WEBCRYPTO_PARAMS(.name = rsa[r], .salt_length = 32);
            uint8_t out[256], back[256];
            size_t n = 0, bn = 0;
            bool valid = false;
            if (oaep) {
                tu_assert_status(
                    webcrypto_encrypt(&op, pub, msg, sizeof msg, out, sizeof out, &n),
                    WEBCRYPTO_OK);
                tu_assert_status(webcrypto_decrypt(&op, priv, out, n, back, sizeof back, &bn),
                                 WEBCRYPTO_OK);
                assert_int_equal(bn, sizeof msg);
                assert_memory_equal(back, msg, bn);
            } else {
                tu_assert_status(webcrypto_sign(&op, priv, msg, sizeof msg, out, sizeof out, &n),
                                 WEBCRYPTO_OK);
                assert_int_equal(n, 256);
                tu_assert_status(webcrypto_verify(&op, pub, out, n, msg, sizeof msg, &valid),
                                 WEBCRYPTO_OK);
                assert_true(valid);
                out[10] ^= 1;
                tu_assert_status(webcrypto_verify(&op, pub, out, n, msg, sizeof msg, &valid),
                                 WEBCRYPTO_OK);
                assert_false(valid);
            }
            /* JWK: no "alg" for RSA with SHA-3, and one that has an "alg"
             * (here PS256 / RS256 / RSA-OAEP-256's) is DataError */
            uint8_t *jwk = NULL;
            size_t jn = 0;
            tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, pub, &jwk, &jn),
                             WEBCRYPTO_OK);
            assert_null(strstr((const char *)jwk, "\"alg\""));
            webcrypto_key *j = NULL;
            tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, jwk, jn, &ip,
                                                  true, upub, &j),
                             WEBCRYPTO_OK);
            webcrypto_key_free(j);
            char *with_alg = malloc(jn + 32);
            assert_non_null(with_alg);
            snprintf(with_alg, jn + 32, "{\"alg\":\"%s\",%s",
                     oaep ? "RSA-OAEP-256" : r == 0 ? "RS256" : "PS256", (const char *)jwk + 1);
            tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                                  (const uint8_t *)with_alg, strlen(with_alg),
                                                  &ip, true, upub, &j),
                             WEBCRYPTO_ERR_DATA);
            free(with_alg);
            webcrypto_buffer_free(jwk, jn);
            webcrypto_key_free(pub);
            webcrypto_key_free(priv);
        }
    }
    webcrypto_buffer_free(pk8, pk8_n);
    webcrypto_buffer_free(spki, spki_n);

    /* ECDSA P-256 and P-384: the hash is per call */
    if (!webcrypto_backend_supports(tu_backend(), WEBCRYPTO_ALG_ECDSA)) return;
    static const webcrypto_named_curve curves[] = {WEBCRYPTO_CURVE_P256, WEBCRYPTO_CURVE_P384};
    for (size_t c = 0; c < 2; c++) {
        webcrypto_params g =
            WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = curves[c]);
        tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &g, true, SV, &pub, &priv),
                         WEBCRYPTO_OK);
        for (size_t i = 0; i < N_SHA3; i++) {
            webcrypto_params sp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = sha3[i]);
            uint8_t sig[132];
            size_t n = 0;
            webcrypto_status st = webcrypto_sign(&sp, priv, msg, sizeof msg, sig, sizeof sig, &n);
            if (!offers(WEBCRYPTO_ALG_ECDSA, sha3[i])) {
                tu_assert_status(st, WEBCRYPTO_ERR_NOT_SUPPORTED);
                continue;
            }
            tu_assert_status(st, WEBCRYPTO_OK);
            assert_int_equal(n, c == 0 ? 64 : 96);
            bool valid = false;
            tu_assert_status(webcrypto_verify(&sp, pub, sig, n, msg, sizeof msg, &valid),
                             WEBCRYPTO_OK);
            assert_true(valid);
            /* signed with SHA3-x, verified with SHA-256: not valid */
            webcrypto_params other =
                WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = WEBCRYPTO_ALG_SHA_256);
            tu_assert_status(webcrypto_verify(&other, pub, sig, n, msg, sizeof msg, &valid),
                             WEBCRYPTO_OK);
            assert_false(valid);
        }
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
}

/* KMAC keys: generateKey's default lengths (128 / 256 bits), JWK kty "oct"
 * with alg K128 / K256 (another alg is DataError), raw import with and
 * without length; the errors of bad keys and parameters; the customization
 * and the output length change the MAC; deriveKey makes a KMAC key. */
static void test_kmac_keys(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_ALG_KMAC256);
    static const webcrypto_algorithm kmac[] = {WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_ALG_KMAC256};
    static const char *const algs[] = {"K128", "K256"};
    static const uint8_t data[] = "KMAC data";
    for (size_t i = 0; i < 2; i++) {
        webcrypto_params g = WEBCRYPTO_PARAMS(.name = kmac[i]);
        webcrypto_key *key = NULL, *back = NULL;
        tu_assert_status(webcrypto_generate_key(tu_backend(), &g, true, SV, &key), WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_length(key), i == 0 ? 128 : 256);
        uint8_t *jwk = NULL, *raw = NULL;
        size_t jn = 0, rn = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, key, &jwk, &jn), WEBCRYPTO_OK);
        char want[32];
        snprintf(want, sizeof want, "\"alg\":\"%s\"", algs[i]);
        assert_non_null(strstr((const char *)jwk, want));
        assert_non_null(strstr((const char *)jwk, "\"kty\":\"oct\""));
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, jwk, jn, &g,
                                              true, SV, &back),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, back, &raw, &rn),
                         WEBCRYPTO_OK);
        assert_int_equal(rn, i == 0 ? 16 : 32);
        webcrypto_key_free(back);
        /* the other KMAC's JWK does not import */
        webcrypto_params other = WEBCRYPTO_PARAMS(.name = kmac[1 - i]);
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, jwk, jn, &other,
                                              true, SV, &back),
                         WEBCRYPTO_ERR_DATA);
        /* raw with length: equal to the data's bits, else DataError */
        webcrypto_params il = WEBCRYPTO_PARAMS(.name = kmac[i], .length = rn * 8);
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, raw, rn, &il,
                                              true, SV, &back),
                         WEBCRYPTO_OK);
        webcrypto_key_free(back);
        il.length = rn * 8 - 8;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, raw, rn, &il,
                                              true, SV, &back),
                         WEBCRYPTO_ERR_DATA);
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, raw, 0, &g,
                                              true, SV, &back),
                         WEBCRYPTO_ERR_DATA);
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_SPKI, raw, rn, &g,
                                              true, SV, &back),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, raw, rn, &g,
                                              true, WEBCRYPTO_USAGE_ENCRYPT, &back),
                         WEBCRYPTO_ERR_SYNTAX);
        /* generateKey: a length that is not whole bytes */
        webcrypto_params g12 = WEBCRYPTO_PARAMS(.name = kmac[i], .length = 12);
        tu_assert_status(webcrypto_generate_key(tu_backend(), &g12, true, SV, &back),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);

        /* sign: output_length required (TypeError), whole bytes
         * (NotSupportedError); the customization and the length change it.
         * A backend whose KMAC has one length (256 bits for KMAC128, 512 for
         * KMAC256) and no customization (a JCA provider's) answers
         * NotSupportedError for the others, and supports() says so. */
        const size_t fixed = i == 0 ? 256 : 512, other_len = i == 0 ? 512 : 256;
        uint8_t m1[64], m2[64], m3[64];
        size_t n1 = 0, n2 = 0, n3 = 0;
        webcrypto_params sp = WEBCRYPTO_PARAMS(.name = kmac[i]);
        tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m1, sizeof m1, &n1),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT);
        sp.output_length = 100;
        tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m1, sizeof m1, &n1),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
        sp.output_length = fixed;
        assert_true(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_SIGN, &sp, 0, NULL));
        n1 = 0;
        tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, NULL, 0, &n1), WEBCRYPTO_OK);
        assert_int_equal(n1, fixed / 8); /* a size query */
        tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m1, fixed / 8 - 1, &n1),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT);
        tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m1, sizeof m1, &n1),
                         WEBCRYPTO_OK);
        sp.customization = (const uint8_t *)"x";
        sp.customization_len = 1;
        bool valid = true;
        if (webcrypto_supports(tu_backend(), WEBCRYPTO_OP_SIGN, &sp, 0, NULL)) {
            tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m2, sizeof m2, &n2),
                             WEBCRYPTO_OK);
            assert_memory_not_equal(m1, m2, n1);
            tu_assert_status(webcrypto_verify(&sp, key, m1, n1, data, sizeof data, &valid),
                             WEBCRYPTO_OK);
            assert_false(valid); /* m1 was made without the customization */
        } else {
            tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m2, sizeof m2, &n2),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
            printf("%s with a customization: not applicable on %s: %s\n",
                   webcrypto_algorithm_name(kmac[i]), webcrypto_backend_name(tu_backend()),
                   webcrypto_error_message());
            tu_assert_status(webcrypto_verify(&sp, key, m1, n1, data, sizeof data, &valid),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
        }
        sp.customization = NULL;
        sp.customization_len = 0;
        sp.output_length = other_len; /* KMAC's L is in the input: not an extension of m1 */
        if (webcrypto_supports(tu_backend(), WEBCRYPTO_OP_SIGN, &sp, 0, NULL)) {
            tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m3, sizeof m3, &n3),
                             WEBCRYPTO_OK);
            assert_int_equal(n3, other_len / 8);
            assert_memory_not_equal(m1, m3, n1 < n3 ? n1 : n3);
        } else {
            tu_assert_status(webcrypto_sign(&sp, key, data, sizeof data, m3, sizeof m3, &n3),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
            printf("%s with output_length %zu: not applicable on %s: %s\n",
                   webcrypto_algorithm_name(kmac[i]), other_len, webcrypto_backend_name(tu_backend()),
                   webcrypto_error_message());
            /* the refusal is the core's, naming the one length and the asked one */
            char msg[96];
            snprintf(msg, sizeof msg, "only with output_length %zu and an empty", fixed);
            assert_non_null(strstr(webcrypto_error_message(), msg));
            snprintf(msg, sizeof msg, "not output_length %zu with 0 bytes", other_len);
            assert_non_null(strstr(webcrypto_error_message(), msg));
        }
        webcrypto_buffer_free(raw, rn);
        webcrypto_buffer_free(jwk, jn);
        webcrypto_key_free(key);
    }
    /* deriveKey: HKDF to a KMAC128 key of the default length */
    if (webcrypto_backend_supports(tu_backend(), WEBCRYPTO_ALG_HKDF)) {
        static const uint8_t ikm[16] = {1};
        webcrypto_params ip = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
        webcrypto_key *base = NULL, *derived = NULL;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, ikm, sizeof ikm,
                                              &ip, false, WEBCRYPTO_USAGE_DERIVE_KEY, &base),
                         WEBCRYPTO_OK);
        webcrypto_params hp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF,
                                               .hash = WEBCRYPTO_ALG_SHA_256);
        webcrypto_params dt = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_KMAC128);
        tu_assert_status(webcrypto_derive_key(&hp, base, &dt, true, SV, &derived), WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_algorithm(derived), WEBCRYPTO_ALG_KMAC128);
        assert_int_equal(webcrypto_key_get_length(derived), 128);
        webcrypto_key_free(derived);
        webcrypto_key_free(base);
    }
}

/* cSHAKE's parameters: output_length required (TypeError); a length of
 * bits that are not whole bytes; webcrypto_digest, which has no parameters, refuses it. */
static void test_cshake_params(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_CSHAKE128, WEBCRYPTO_ALG_CSHAKE256);
    uint8_t out[64];
    size_t n = 0;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CSHAKE256);
    tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* 20 bits: three bytes, the last one's low four bits zero (SHAKE256's
     * 46 b9 dd; Node 24 gives 46b9d0 too). A backend whose SHAKE256 has one
     * length (512 bits: a JCA provider's) refuses it, and supports() says so
     * for a whole-byte length (it is false for 20 bits on every backend). */
    p.output_length = 24;
    bool any_length = webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL);
    p.output_length = 20;
    if (any_length) {
        tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n),
                         WEBCRYPTO_OK);
        tu_assert_hex(out, n, "46b9d0");
        p.output_length = 1024;
        tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT); /* 128 bytes do not fit in 64 */
        assert_int_equal(n, 128);
    } else {
        tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
        printf("cSHAKE256 with output_length 20: not applicable on %s: %s\n",
               webcrypto_backend_name(tu_backend()), webcrypto_error_message());
        p.output_length = 1024;
        assert_false(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL));
        tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
        /* the refusal is the core's, naming the one length and the asked one */
        assert_non_null(strstr(webcrypto_error_message(), "only with output_length 512, not 1024"));
        p.output_length = 512; /* its one length: SHAKE256("") */
        assert_true(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL));
        tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n),
                         WEBCRYPTO_OK);
        tu_assert_hex(out, 3, "46b9dd");
    }
    tu_assert_status(
        webcrypto_digest(tu_backend(), WEBCRYPTO_ALG_CSHAKE256, NULL, 0, out, sizeof out, &n),
        WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* a function name alone is cSHAKE too */
    p.output_length = 256;
    p.function_name = (const uint8_t *)"N";
    p.function_name_len = 1;
    webcrypto_status st =
        webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &n);
    if (st != WEBCRYPTO_OK) tu_assert_status(st, WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_int_equal(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL),
                     st == WEBCRYPTO_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hmac_sha3),    cmocka_unit_test(test_kdf_sha3),
        cmocka_unit_test(test_pkey_sha3),    cmocka_unit_test(test_kmac_keys),
        cmocka_unit_test(test_cshake_params),
    };
    return tu_run_group("sha3", tests, NULL, NULL);
}
