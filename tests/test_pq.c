/*
 * test_pq.c - the "Modern Algorithms in the Web Cryptography API" draft's
 * key formats (raw-public, raw-secret, raw-seed) on every backend, and
 * ML-KEM (FIPS 203) and ML-DSA (FIPS 204) where the backend has them (the
 * jca backend on a JDK 24 or later; the others skip those tests, saying so,
 * after checking that they answer NotSupportedError): key generation,
 * encapsulation with implicit rejection, signatures with the context, the
 * formats byte for byte (the LAMPS drafts' seed-form PKCS #8, the draft's
 * JWK "AKP"), bad input, and the Wycheproof files mlkem_768_test.json (keys
 * from seeds, decapsulation) and mldsa_65_verify_test.json.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define P(...) ((webcrypto_params)WEBCRYPTO_PARAMS(__VA_ARGS__))
#define KEM_PUB (WEBCRYPTO_USAGE_ENCAPSULATE_KEY | WEBCRYPTO_USAGE_ENCAPSULATE_BITS)
#define KEM_PRIV (WEBCRYPTO_USAGE_DECAPSULATE_KEY | WEBCRYPTO_USAGE_DECAPSULATE_BITS)

static void export_eq(webcrypto_key_format f, const webcrypto_key *k, const uint8_t *want,
                      size_t n) {
    uint8_t *out = NULL;
    size_t len = 0;
    tu_assert_status(webcrypto_export_key(f, k, &out, &len), WEBCRYPTO_OK);
    assert_int_equal(len, n);
    assert_memory_equal(out, want, n);
    webcrypto_buffer_free(out, len);
}

/* A vector's hex member, or an empty buffer when the member is absent. */
static uint8_t *hex_member(json_t *t, const char *name, size_t *n) {
    const char *h = json_string_value(json_object_get(t, name));
    return tu_unhex(h ? h : "", n);
}

/* ---- the formats on the existing algorithms (every backend) ---- */

/* raw-secret is raw's alias for the symmetric algorithms, both ways;
 * raw-public and raw-seed are not theirs. */
static void test_raw_secret_alias(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_HKDF);
    static const uint8_t k[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    webcrypto_params gcm = P(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *key = NULL, *key2 = NULL;
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SECRET, k, 16, &gcm, true,
                                          WEBCRYPTO_USAGE_ENCRYPT, &key),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_SECRET, key, k, 16);
    export_eq(WEBCRYPTO_FORMAT_RAW, key, k, 16);
    uint8_t *out = NULL;
    size_t n = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_PUBLIC, key, &out, &n),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SEED, key, &out, &n),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, k, 16, &gcm, true,
                                          WEBCRYPTO_USAGE_ENCRYPT, &key2),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_non_null(strstr(webcrypto_error_message(), "no raw-public format"));
    /* the same DataError for a bad length as raw */
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SECRET, k, 15, &gcm, true,
                                          WEBCRYPTO_USAGE_ENCRYPT, &key2),
                     WEBCRYPTO_ERR_DATA);
    webcrypto_key_free(key);
    webcrypto_params hmac = P(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SECRET, k, 16, &hmac, true,
                                          WEBCRYPTO_USAGE_SIGN, &key),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_SECRET, key, k, 16);
    webcrypto_key_free(key);
    webcrypto_params hkdf = P(.name = WEBCRYPTO_ALG_HKDF);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SECRET, k, 16, &hkdf, false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &key),
                     WEBCRYPTO_OK);
    webcrypto_key_free(key);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, k, 16, &hkdf, false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &key),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
}

/* raw-public is raw's alias for the EC and OKP algorithms; RSA has neither. */
static void test_raw_public_alias(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    tu_require(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_RSA_PSS);
    /* RFC 8032 7.1, TEST 1's public key */
    size_t n = 0;
    uint8_t *pub = tu_unhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", &n);
    webcrypto_params ed = P(.name = WEBCRYPTO_ALG_ED25519);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, pub, n, &ed, true,
                                          WEBCRYPTO_USAGE_VERIFY, &key),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_PUBLIC, key, pub, n);
    export_eq(WEBCRYPTO_FORMAT_RAW, key, pub, n);
    uint8_t *out = NULL;
    size_t len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, key, &out, &len),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    webcrypto_key_free(key);
    /* an ECDSA pair: raw-public of the public key, InvalidAccessError for the
     * private one (raw is for public keys), raw-seed not ECDSA's */
    webcrypto_params ec = P(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *pk = NULL, *sk = NULL;
    tu_assert_status(webcrypto_generate_key_pair(b, &ec, true,
                                                 WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                                                 &pk, &sk),
                     WEBCRYPTO_OK);
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, pk, &raw, &raw_len), WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_PUBLIC, pk, raw, raw_len);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_PUBLIC, sk, &out, &len),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SEED, sk, &out, &len),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, raw, raw_len, &ec, true,
                                          WEBCRYPTO_USAGE_VERIFY, &key),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW, key, raw, raw_len);
    webcrypto_key_free(key);
    webcrypto_key_free(pk);
    webcrypto_key_free(sk);
    /* RSA: no raw, so no raw-public either (before the data is read) */
    webcrypto_params rsa = P(.name = WEBCRYPTO_ALG_RSA_PSS, .hash = WEBCRYPTO_ALG_SHA_256);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, raw, raw_len, &rsa,
                                          true, WEBCRYPTO_USAGE_VERIFY, &key),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    webcrypto_buffer_free(raw, raw_len);
    free(pub);
}

/* A backend without ML-KEM / ML-DSA says so (NotSupportedError naming the
 * backend and the algorithm); one with them skips this, saying so. */
static void test_pq_not_supported_elsewhere(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    if (webcrypto_backend_supports(b, WEBCRYPTO_ALG_ML_KEM_768)) {
        printf("skipped: backend %s has ML-KEM (the NotSupportedError path is for the others)\n",
               webcrypto_backend_name(b));
        skip();
    }
    webcrypto_key *pk = NULL, *sk = NULL;
    webcrypto_params kem = P(.name = WEBCRYPTO_ALG_ML_KEM_768);
    tu_assert_status(webcrypto_generate_key_pair(b, &kem, true, KEM_PUB | KEM_PRIV, &pk, &sk),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    char want[128];
    snprintf(want, sizeof want, "the %s backend does not support ML-KEM-768",
             webcrypto_backend_name(b));
    assert_non_null(strstr(webcrypto_error_message(), want));
    uint8_t seed[32] = {0};
    webcrypto_params dsa = P(.name = WEBCRYPTO_ALG_ML_DSA_65);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, 32, &dsa, true,
                                          WEBCRYPTO_USAGE_SIGN, &sk),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_non_null(strstr(webcrypto_error_message(), "does not support ML-DSA-65"));
}

/* ---- ML-KEM ---- */

static const webcrypto_algorithm KEMS[3] = {WEBCRYPTO_ALG_ML_KEM_512, WEBCRYPTO_ALG_ML_KEM_768,
                                            WEBCRYPTO_ALG_ML_KEM_1024};

/* Encapsulate, decapsulate, the key forms, and implicit rejection. */
static void test_kem_round_trip(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    tu_require(WEBCRYPTO_ALG_ML_KEM_512, WEBCRYPTO_ALG_ML_KEM_768, WEBCRYPTO_ALG_ML_KEM_1024,
               WEBCRYPTO_ALG_AES_GCM);
    static const size_t ct_len[3] = {768, 1088, 1568};
    for (int i = 0; i < 3; i++) {
        webcrypto_params p = P(.name = KEMS[i]);
        webcrypto_key *pk = NULL, *sk = NULL;
        tu_assert_status(webcrypto_generate_key_pair(b, &p, false, KEM_PUB | KEM_PRIV, &pk, &sk),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_usages(pk), KEM_PUB);
        assert_int_equal(webcrypto_key_get_usages(sk), KEM_PRIV);
        assert_int_equal(webcrypto_kem_ciphertext_size(KEMS[i]), ct_len[i]);
        uint8_t ct[1568], k1[32], k2[32], k3[32];
        size_t cn = 0, kn = 0;
        tu_assert_status(webcrypto_encapsulate_bits(&p, pk, ct, sizeof ct, &cn, k1, sizeof k1,
                                                    &kn),
                         WEBCRYPTO_OK);
        assert_int_equal(cn, ct_len[i]);
        assert_int_equal(kn, 32);
        tu_assert_status(webcrypto_decapsulate_bits(&p, sk, ct, cn, k2, sizeof k2, &kn),
                         WEBCRYPTO_OK);
        assert_memory_equal(k1, k2, 32);
        /* Implicit rejection (FIPS 203): an altered ciphertext decapsulates
         * without error to another key - the same one each time (it is a
         * function of z and the ciphertext). */
        ct[cn / 2] ^= 0x01;
        tu_assert_status(webcrypto_decapsulate_bits(&p, sk, ct, cn, k2, sizeof k2, &kn),
                         WEBCRYPTO_OK);
        assert_int_equal(kn, 32);
        assert_memory_not_equal(k1, k2, 32);
        tu_assert_status(webcrypto_decapsulate_bits(&p, sk, ct, cn, k3, sizeof k3, &kn),
                         WEBCRYPTO_OK);
        assert_memory_equal(k2, k3, 32);
        ct[cn / 2] ^= 0x01;
        /* A ciphertext of the wrong length is OperationError. */
        tu_assert_status(webcrypto_decapsulate_bits(&p, sk, ct, cn - 1, k2, sizeof k2, &kn),
                         WEBCRYPTO_ERR_OPERATION);
        /* Short buffers: TypeError and the size. */
        tu_assert_status(webcrypto_encapsulate_bits(&p, pk, ct, cn - 1, &cn, k1, 32, &kn),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT);
        assert_int_equal(cn, ct_len[i]);
        tu_assert_status(webcrypto_decapsulate_bits(&p, sk, ct, cn, k2, 31, &kn),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT);
        /* The wrong key type or usage: InvalidAccessError. */
        tu_assert_status(webcrypto_encapsulate_bits(&p, sk, ct, sizeof ct, &cn, k1, 32, &kn),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        tu_assert_status(webcrypto_decapsulate_bits(&p, pk, ct, cn, k2, 32, &kn),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        webcrypto_params other = P(.name = KEMS[(i + 1) % 3]);
        tu_assert_status(webcrypto_encapsulate_bits(&other, pk, ct, sizeof ct, &cn, k1, 32, &kn),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        /* encapsulateKey / decapsulateKey: the shared key as an AES-GCM key */
        webcrypto_params gcm = P(.name = WEBCRYPTO_ALG_AES_GCM);
        webcrypto_key *ek = NULL, *dk = NULL;
        tu_assert_status(webcrypto_encapsulate_key(&p, pk, &gcm, true, WEBCRYPTO_USAGE_ENCRYPT,
                                                   ct, sizeof ct, &cn, &ek),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_decapsulate_key(&p, sk, ct, cn, &gcm, true,
                                                   WEBCRYPTO_USAGE_DECRYPT, &dk),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_length(dk), 256);
        uint8_t *a = NULL, *c = NULL;
        size_t an = 0, bn = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, ek, &a, &an),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, dk, &c, &bn), WEBCRYPTO_OK);
        assert_int_equal(an, 32);
        assert_int_equal(bn, 32);
        assert_memory_equal(a, c, 32);
        webcrypto_buffer_free(a, an);
        webcrypto_buffer_free(c, bn);
        webcrypto_key_free(ek);
        webcrypto_key_free(dk);
        /* the shared key's import errors are the import's */
        webcrypto_params bad = P(.name = WEBCRYPTO_ALG_AES_GCM);
        tu_assert_status(webcrypto_decapsulate_key(&p, sk, ct, cn, &bad, true,
                                                   WEBCRYPTO_USAGE_SIGN, &dk),
                         WEBCRYPTO_ERR_SYNTAX);
        /* a key with the Bits usages only cannot encapsulateKey */
        webcrypto_key *bits_only = NULL;
        uint8_t *raw = NULL;
        size_t raw_n = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_PUBLIC, pk, &raw, &raw_n),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, raw, raw_n, &p, true,
                                              WEBCRYPTO_USAGE_ENCAPSULATE_BITS, &bits_only),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_encapsulate_key(&p, bits_only, &gcm, true,
                                                   WEBCRYPTO_USAGE_ENCRYPT, ct, sizeof ct, &cn,
                                                   &ek),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        webcrypto_buffer_free(raw, raw_n);
        webcrypto_key_free(bits_only);
        /* not extractable: no export of the private key */
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SEED, sk, &raw, &raw_n),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        webcrypto_key_free(pk);
        webcrypto_key_free(sk);
    }
}

/* The formats byte for byte: raw-seed is d || z; pkcs8 is the LAMPS
 * draft's seed form, SEQUENCE { 0, { id-alg-ml-kem-768 }, OCTET STRING {
 * [0] seed } }; spki wraps the raw public key; JWK is kty "AKP" with alg,
 * pub and priv. Each imports again to the same key. */
static void formats_of(webcrypto_algorithm alg, size_t seed_len, size_t pub_len,
                       const char *pkcs8_prefix_hex, const char *spki_prefix_hex,
                       unsigned pub_usages, unsigned priv_usages) {
    const webcrypto_backend *b = tu_backend();
    webcrypto_params p = P(.name = alg);
    uint8_t seed[64];
    for (size_t i = 0; i < sizeof seed; i++) seed[i] = (uint8_t)(i * 7 + 1);
    webcrypto_key *sk = NULL, *pk = NULL, *again = NULL;
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, seed_len, &p, true,
                                          priv_usages, &sk),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_type(sk), WEBCRYPTO_KEY_PRIVATE);
    export_eq(WEBCRYPTO_FORMAT_RAW_SEED, sk, seed, seed_len);
    size_t pre_n = 0, spre_n = 0;
    uint8_t *pre = tu_unhex(pkcs8_prefix_hex, &pre_n), *spre = tu_unhex(spki_prefix_hex, &spre_n);
    uint8_t *der = malloc(pre_n + seed_len);
    memcpy(der, pre, pre_n);
    memcpy(der + pre_n, seed, seed_len);
    export_eq(WEBCRYPTO_FORMAT_PKCS8, sk, der, pre_n + seed_len);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, der, pre_n + seed_len, &p,
                                          true, priv_usages, &again),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_SEED, again, seed, seed_len);
    webcrypto_key_free(again);
    /* the JWK of the private key: its pub is the public key's raw-public */
    uint8_t *jwk = NULL;
    size_t jwk_n = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, sk, &jwk, &jwk_n), WEBCRYPTO_OK);
    json_error_t jerr;
    json_t *j = json_loadb((const char *)jwk, jwk_n, 0, &jerr);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "kty")), "AKP");
    assert_string_equal(json_string_value(json_object_get(j, "alg")),
                        webcrypto_algorithm_name(alg));
    assert_non_null(json_object_get(j, "priv"));
    assert_non_null(json_object_get(j, "pub"));
    assert_null(json_object_get(j, "d"));
    assert_int_equal(strlen(json_string_value(json_object_get(j, "priv"))), (seed_len * 4 + 2) / 3);
    assert_int_equal(strlen(json_string_value(json_object_get(j, "pub"))), (pub_len * 4 + 2) / 3);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, jwk, jwk_n, &p, true,
                                          priv_usages, &again),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_SEED, again, seed, seed_len);
    webcrypto_key_free(again);
    /* the public key from the JWK without priv: its spki is prefix || pub */
    json_t *pubj = json_deep_copy(j);
    json_object_del(pubj, "priv");
    json_object_del(pubj, "key_ops"); /* the private key's */
    char *pub_text = json_dumps(pubj, JSON_COMPACT);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)pub_text,
                                          strlen(pub_text), &p, true, pub_usages, &pk),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_type(pk), WEBCRYPTO_KEY_PUBLIC);
    uint8_t *raw = NULL, *spki = NULL;
    size_t raw_n = 0, spki_n = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_PUBLIC, pk, &raw, &raw_n),
                     WEBCRYPTO_OK);
    assert_int_equal(raw_n, pub_len);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, pk, &spki, &spki_n),
                     WEBCRYPTO_OK);
    assert_int_equal(spki_n, spre_n + pub_len);
    assert_memory_equal(spki, spre, spre_n);
    assert_memory_equal(spki + spre_n, raw, pub_len);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_SPKI, spki, spki_n, &p, true,
                                          pub_usages, &again),
                     WEBCRYPTO_OK);
    export_eq(WEBCRYPTO_FORMAT_RAW_PUBLIC, again, raw, raw_n);
    webcrypto_key_free(again);
    uint8_t *out = NULL;
    size_t out_n = 0;
    /* a key's formats are its type's */
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SEED, pk, &out, &out_n),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_PUBLIC, sk, &out, &out_n),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, pk, &out, &out_n),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* bad input: seed and key lengths (DataError), usages (SyntaxError),
     * the other private key forms (NotSupportedError), no raw */
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, seed_len - 1, &p,
                                          true, priv_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, seed_len + 1, &p,
                                          true, priv_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, raw, raw_n - 1, &p,
                                          true, pub_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, seed_len, &p, true,
                                          pub_usages, &again),
                     WEBCRYPTO_ERR_SYNTAX);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, seed_len, &p, true,
                                          0, &again),
                     WEBCRYPTO_ERR_SYNTAX);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, raw, raw_n, &p, true,
                                          pub_usages, &again),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* pkcs8 with the [0] seed one byte short: DataError; the expandedKey
     * form (an OCTET STRING in its place): NotSupportedError */
    der[pre_n - 1] = (uint8_t)(seed_len - 1);
    der[pre_n - 3] = (uint8_t)(seed_len + 1);
    der[1] = (uint8_t)(der[1] - 1);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, der, pre_n + seed_len - 1,
                                          &p, true, priv_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    der[1] = (uint8_t)(der[1] + 1);
    der[pre_n - 3] = (uint8_t)(seed_len + 2);
    der[pre_n - 2] = 0x04; /* expandedKey OCTET STRING, here of seed_len bytes */
    der[pre_n - 1] = (uint8_t)seed_len;
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, der, pre_n + seed_len, &p,
                                          true, priv_usages, &again),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* a JWK whose pub is not its priv's public key: DataError */
    uint8_t other_seed[64];
    memcpy(other_seed, seed, sizeof other_seed);
    other_seed[0] ^= 1;
    webcrypto_key *other = NULL;
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, other_seed, seed_len, &p,
                                          true, priv_usages, &other),
                     WEBCRYPTO_OK);
    uint8_t *ojwk = NULL;
    size_t ojwk_n = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, other, &ojwk, &ojwk_n),
                     WEBCRYPTO_OK);
    json_t *oj = json_loadb((const char *)ojwk, ojwk_n, 0, &jerr);
    json_t *mixed = json_deep_copy(j);
    json_object_set(mixed, "pub", json_object_get(oj, "pub"));
    char *mixed_text = json_dumps(mixed, JSON_COMPACT);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)mixed_text,
                                          strlen(mixed_text), &p, true, priv_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    /* a JWK of another parameter set's alg, or another kty: DataError */
    json_t *wrong = json_deep_copy(j);
    json_object_set_new(wrong, "alg", json_string("ML-KEM-512x"));
    char *wrong_text = json_dumps(wrong, JSON_COMPACT);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)wrong_text,
                                          strlen(wrong_text), &p, true, priv_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    free(wrong_text);
    json_object_set_new(wrong, "alg", json_string(webcrypto_algorithm_name(alg)));
    json_object_set_new(wrong, "kty", json_string("OKP"));
    wrong_text = json_dumps(wrong, JSON_COMPACT);
    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)wrong_text,
                                          strlen(wrong_text), &p, true, priv_usages, &again),
                     WEBCRYPTO_ERR_DATA);
    free(wrong_text);
    json_decref(wrong);
    free(mixed_text);
    json_decref(mixed);
    json_decref(oj);
    webcrypto_buffer_free(ojwk, ojwk_n);
    webcrypto_key_free(other);
    free(pub_text);
    json_decref(pubj);
    json_decref(j);
    webcrypto_buffer_free(jwk, jwk_n);
    webcrypto_buffer_free(raw, raw_n);
    webcrypto_buffer_free(spki, spki_n);
    free(der);
    free(pre);
    free(spre);
    webcrypto_key_free(pk);
    webcrypto_key_free(sk);
}

static void test_kem_formats(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ML_KEM_768);
    /* PrivateKeyInfo { 0, { 2.16.840.1.101.3.4.4.2 }, OCTET STRING { [0] 64 bytes } } */
    formats_of(WEBCRYPTO_ALG_ML_KEM_768, 64, 1184,
               "3054020100300b060960864801650304040204428040",
               "308204b2300b0609608648016503040402038204a100", KEM_PUB, KEM_PRIV);
}

/* Wycheproof mlkem_768_test.json: each seed's key has the vector's ek, and
 * decapsulating c gives K (implicit rejection included: the "Strcmp"
 * vector and the modified ciphertexts are valid). Invalid vectors have a
 * seed or a ciphertext of the wrong length: DataError / OperationError. */
static void test_kem_wycheproof(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    tu_require(WEBCRYPTO_ALG_ML_KEM_768);
    const char *dir = tu_wycheproof_dir();
    if (!dir) {
        printf("skipped: no Wycheproof directory\n");
        skip();
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/mlkem_768_test.json", dir);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root) fail_msg("cannot read %s: %s", path, jerr.text);
    webcrypto_params p = P(.name = WEBCRYPTO_ALG_ML_KEM_768);
    size_t valid = 0, invalid = 0;
    json_t *groups = json_object_get(root, "testGroups"), *g, *t;
    size_t gi, ti;
    json_array_foreach(groups, gi, g) {
        assert_string_equal(json_string_value(json_object_get(g, "parameterSet")), "ML-KEM-768");
        json_array_foreach(json_object_get(g, "tests"), ti, t) {
            long id = (long)json_integer_value(json_object_get(t, "tcId"));
            bool ok = strcmp(json_string_value(json_object_get(t, "result")), "valid") == 0;
            size_t sn = 0, en = 0, cn = 0, kn = 0;
            uint8_t *seed = hex_member(t, "seed", &sn);
            uint8_t *ek = hex_member(t, "ek", &en);
            uint8_t *c = hex_member(t, "c", &cn);
            uint8_t *k = hex_member(t, "K", &kn);
            webcrypto_key *sk = NULL;
            webcrypto_status st = webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_SEED, seed, sn, &p,
                                                       true, KEM_PRIV, &sk);
            uint8_t got[32];
            size_t got_n = 0;
            if (st == WEBCRYPTO_OK) {
                /* the public key of the seed is ek (when the vector gives one) */
                uint8_t *jwk = NULL;
                size_t jn = 0;
                if (en) {
                    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, sk, &jwk, &jn),
                                     WEBCRYPTO_OK);
                    json_t *j = json_loadb((const char *)jwk, jn, 0, &jerr);
                    const char *pub = json_string_value(json_object_get(j, "pub"));
                    /* compare through raw-public of a public import of pub */
                    webcrypto_key *pk = NULL;
                    tu_assert_status(webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, ek, en,
                                                          &p, true, KEM_PUB, &pk),
                                     WEBCRYPTO_OK);
                    uint8_t *pjwk = NULL;
                    size_t pjn = 0;
                    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, pk, &pjwk, &pjn),
                                     WEBCRYPTO_OK);
                    json_t *pj = json_loadb((const char *)pjwk, pjn, 0, &jerr);
                    if (strcmp(pub, json_string_value(json_object_get(pj, "pub"))) != 0)
                        fail_msg("tcId %ld: the seed's public key is not ek", id);
                    json_decref(pj);
                    webcrypto_buffer_free(pjwk, pjn);
                    webcrypto_key_free(pk);
                    json_decref(j);
                    webcrypto_buffer_free(jwk, jn);
                }
                st = webcrypto_decapsulate_bits(&p, sk, c, cn, got, sizeof got, &got_n);
            }
            if (ok) {
                if (st != WEBCRYPTO_OK)
                    fail_msg("tcId %ld (valid): %s: %s", id, webcrypto_status_name(st),
                             webcrypto_error_message());
                assert_int_equal(got_n, 32);
                if (kn != 32 || memcmp(got, k, 32) != 0) fail_msg("tcId %ld: wrong K", id);
                valid++;
            } else {
                if (st != WEBCRYPTO_ERR_DATA && st != WEBCRYPTO_ERR_OPERATION)
                    fail_msg("tcId %ld (invalid): %s", id, webcrypto_status_name(st));
                /* which check: a seed of another length is DataError, a
                 * ciphertext of another length OperationError */
                if (sn != 64) assert_int_equal(st, WEBCRYPTO_ERR_DATA);
                else assert_int_equal(st, WEBCRYPTO_ERR_OPERATION);
                invalid++;
            }
            webcrypto_key_free(sk);
            free(seed);
            free(ek);
            free(c);
            free(k);
        }
    }
    printf("mlkem_768_test.json: %zu valid, %zu invalid vectors passed\n", valid, invalid);
    assert_true(valid >= 150 && invalid >= 30);
    json_decref(root);
}

/* ---- ML-DSA ---- */

static void test_dsa_round_trip(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    tu_require(WEBCRYPTO_ALG_ML_DSA_44, WEBCRYPTO_ALG_ML_DSA_65, WEBCRYPTO_ALG_ML_DSA_87);
    static const webcrypto_algorithm algs[3] = {WEBCRYPTO_ALG_ML_DSA_44, WEBCRYPTO_ALG_ML_DSA_65,
                                                WEBCRYPTO_ALG_ML_DSA_87};
    static const size_t sig_len[3] = {2420, 3309, 4627};
    static const uint8_t msg[] = "the draft's sign and verify";
    for (int i = 0; i < 3; i++) {
        webcrypto_params p = P(.name = algs[i]);
        webcrypto_key *pk = NULL, *sk = NULL;
        tu_assert_status(webcrypto_generate_key_pair(b, &p, true,
                                                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                                                     &pk, &sk),
                         WEBCRYPTO_OK);
        uint8_t sig[4627];
        size_t n = 0;
        bool valid = false;
        tu_assert_status(webcrypto_sign(&p, sk, NULL, 0, NULL, 0, &n), WEBCRYPTO_OK);
        assert_int_equal(n, sig_len[i]);
        tu_assert_status(webcrypto_sign(&p, sk, msg, sizeof msg, sig, sizeof sig, &n),
                         WEBCRYPTO_OK);
        assert_int_equal(n, sig_len[i]);
        tu_assert_status(webcrypto_verify(&p, pk, sig, n, msg, sizeof msg, &valid), WEBCRYPTO_OK);
        assert_true(valid);
        tu_assert_status(webcrypto_verify(&p, pk, sig, n, msg, sizeof msg - 1, &valid),
                         WEBCRYPTO_OK);
        assert_false(valid);
        tu_assert_status(webcrypto_verify(&p, pk, sig, n - 1, msg, sizeof msg, &valid),
                         WEBCRYPTO_OK);
        assert_false(valid);
        /* a context over 255 bytes: OperationError (FIPS 204 5.2) */
        uint8_t ctx[256] = {0};
        webcrypto_params pc = P(.name = algs[i], .context = ctx, .context_len = 256);
        tu_assert_status(webcrypto_sign(&pc, sk, msg, sizeof msg, sig, sizeof sig, &n),
                         WEBCRYPTO_ERR_OPERATION);
        tu_assert_status(webcrypto_verify(&pc, pk, sig, sig_len[i], msg, sizeof msg, &valid),
                         WEBCRYPTO_ERR_OPERATION);
        /* a context of 1..255 bytes: signed with it and verified only with
         * it, or NotSupportedError where the library has no context (the
         * JDK's ML-DSA: no parameters) */
        pc.context_len = 255;
        webcrypto_status st = webcrypto_sign(&pc, sk, msg, sizeof msg, sig, sizeof sig, &n);
        if (st == WEBCRYPTO_ERR_NOT_SUPPORTED) {
            printf("note: %s: %s\n", webcrypto_backend_name(b), webcrypto_error_message());
            assert_non_null(strstr(webcrypto_error_message(), "context"));
        } else {
            tu_assert_status(st, WEBCRYPTO_OK);
            tu_assert_status(webcrypto_verify(&pc, pk, sig, n, msg, sizeof msg, &valid),
                             WEBCRYPTO_OK);
            assert_true(valid);
            tu_assert_status(webcrypto_verify(&p, pk, sig, n, msg, sizeof msg, &valid),
                             WEBCRYPTO_OK);
            assert_false(valid);
        }
        /* the wrong key type */
        tu_assert_status(webcrypto_sign(&p, pk, msg, sizeof msg, sig, sizeof sig, &n),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        webcrypto_key_free(pk);
        webcrypto_key_free(sk);
    }
}

static void test_dsa_formats(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ML_DSA_65);
    /* PrivateKeyInfo { 0, { 2.16.840.1.101.3.4.3.18 }, OCTET STRING { [0] 32 bytes } } */
    formats_of(WEBCRYPTO_ALG_ML_DSA_65, 32, 1952,
               "3034020100300b060960864801650304031204228020",
               "308207b2300b0609608648016503040312038207a100", WEBCRYPTO_USAGE_VERIFY,
               WEBCRYPTO_USAGE_SIGN);
}

/* Wycheproof mldsa_65_verify_test.json. A public key of the wrong length
 * is DataError at import, a context over 255 bytes OperationError (both
 * "invalid"); a vector with a non-empty context where the backend has no
 * context (NotSupportedError) is counted and printed, not passed. */
static void test_dsa_wycheproof(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    tu_require(WEBCRYPTO_ALG_ML_DSA_65);
    const char *dir = tu_wycheproof_dir();
    if (!dir) {
        printf("skipped: no Wycheproof directory\n");
        skip();
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/mldsa_65_verify_test.json", dir);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root) fail_msg("cannot read %s: %s", path, jerr.text);
    webcrypto_params p = P(.name = WEBCRYPTO_ALG_ML_DSA_65);
    size_t passed = 0, no_context = 0;
    json_t *g, *t;
    size_t gi, ti;
    json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
        size_t kn = 0;
        uint8_t *pub = tu_unhex(json_string_value(json_object_get(g, "publicKey")), &kn);
        webcrypto_key *pk = NULL;
        webcrypto_status kst = webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW_PUBLIC, pub, kn, &p,
                                                    true, WEBCRYPTO_USAGE_VERIFY, &pk);
        json_array_foreach(json_object_get(g, "tests"), ti, t) {
            long id = (long)json_integer_value(json_object_get(t, "tcId"));
            bool ok = strcmp(json_string_value(json_object_get(t, "result")), "valid") == 0;
            size_t mn = 0, sn = 0, cn = 0;
            uint8_t *m = tu_unhex(json_string_value(json_object_get(t, "msg")), &mn);
            uint8_t *s = tu_unhex(json_string_value(json_object_get(t, "sig")), &sn);
            json_t *jctx = json_object_get(t, "ctx");
            uint8_t *ctx = jctx ? tu_unhex(json_string_value(jctx), &cn) : NULL;
            webcrypto_params pc = P(.name = WEBCRYPTO_ALG_ML_DSA_65, .context = ctx,
                                    .context_len = cn);
            bool valid = false;
            webcrypto_status st = kst;
            if (st == WEBCRYPTO_OK) st = webcrypto_verify(&pc, pk, s, sn, m, mn, &valid);
            if (st == WEBCRYPTO_ERR_NOT_SUPPORTED && cn > 0 && cn <= 255) {
                no_context++; /* the backend has no context: printed below */
            } else if (ok) {
                if (st != WEBCRYPTO_OK || !valid)
                    fail_msg("tcId %ld (valid): %s %d: %s", id, webcrypto_status_name(st), valid,
                             webcrypto_error_message());
                passed++;
            } else {
                if (st == WEBCRYPTO_OK && valid) fail_msg("tcId %ld (invalid) verified", id);
                if (st != WEBCRYPTO_OK && st != WEBCRYPTO_ERR_DATA &&
                    st != WEBCRYPTO_ERR_OPERATION)
                    fail_msg("tcId %ld (invalid): %s", id, webcrypto_status_name(st));
                passed++;
            }
            free(m);
            free(s);
            free(ctx);
        }
        webcrypto_key_free(pk);
        free(pub);
    }
    printf("mldsa_65_verify_test.json: %zu vectors passed", passed);
    if (no_context)
        printf("; %zu with a non-empty context NOT RUN: %s has no ML-DSA context", no_context,
               webcrypto_backend_name(b));
    printf("\n");
    assert_true(passed >= 200);
    json_decref(root);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_secret_alias),
        cmocka_unit_test(test_raw_public_alias),
        cmocka_unit_test(test_pq_not_supported_elsewhere),
        cmocka_unit_test(test_kem_round_trip),
        cmocka_unit_test(test_kem_formats),
        cmocka_unit_test(test_kem_wycheproof),
        cmocka_unit_test(test_dsa_round_trip),
        cmocka_unit_test(test_dsa_formats),
        cmocka_unit_test(test_dsa_wycheproof),
    };
    return tu_run_group("pq", tests, NULL, NULL);
}
