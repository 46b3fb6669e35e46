/* wrapKey/unwrapKey (AES-KW and encrypting algorithms) and deriveKey:
 * RFC 3394 known answers, round trips in every format, and the spec's errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const unsigned WRAP = WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY;
static const unsigned ED = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;

static webcrypto_key *import_raw(webcrypto_algorithm alg, const char *hex, bool extractable,
                                 unsigned usages) {
    size_t n;
    uint8_t *k = tu_unhex(hex, &n);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, k, n, &p,
                                          extractable, usages, &key),
                     WEBCRYPTO_OK);
    free(k);
    return key;
}

/* RFC 3394 section 4: every KEK size with every key size it allows. */
static void test_rfc3394(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_KW);
    static const struct {
        const char *kek, *data, *wrapped;
    } v[] = {
        {"000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
         "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"},
        {"000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF",
         "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"},
        {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF", "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"},
        {"000102030405060708090A0B0C0D0E0F1011121314151617",
         "00112233445566778899AABBCCDDEEFF0001020304050607",
         "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2"},
        {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF0001020304050607",
         "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1"},
        {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
         "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"},
    };
    webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        webcrypto_key *kek = import_raw(WEBCRYPTO_ALG_AES_KW, v[i].kek, false, WRAP);
        webcrypto_key *data = import_raw(WEBCRYPTO_ALG_AES_GCM, v[i].data, true, ED);
        uint8_t *wrapped = NULL;
        size_t n = 0;
        tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, data, kek, &kw, &wrapped, &n),
                         WEBCRYPTO_OK);
        tu_assert_hex(wrapped, n, v[i].wrapped);

        webcrypto_key *back = NULL;
        tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, n, kek, &kw, &gcm,
                                              true, WEBCRYPTO_USAGE_ENCRYPT, &back),
                         WEBCRYPTO_OK);
        uint8_t *raw = NULL;
        size_t rn = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, back, &raw, &rn), WEBCRYPTO_OK);
        tu_assert_hex(raw, rn, v[i].data);
        assert_int_equal(webcrypto_key_get_usages(back), WEBCRYPTO_USAGE_ENCRYPT);

        /* One flipped bit anywhere fails the integrity check. */
        wrapped[n / 2] ^= 0x10;
        webcrypto_key *bad = NULL;
        tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, n, kek, &kw, &gcm,
                                              true, WEBCRYPTO_USAGE_ENCRYPT, &bad),
                         WEBCRYPTO_ERR_OPERATION);
        assert_null(bad);
        webcrypto_buffer_free(raw, rn);
        webcrypto_buffer_free(wrapped, n);
        webcrypto_key_free(back);
        webcrypto_key_free(data);
        webcrypto_key_free(kek);
    }
}

/* JWK wrapped with AES-GCM, AES-CBC and AES-CTR, unwrapped to the same key. */
static void test_wrap_jwk_with_encryption(void **state) {
    (void)state;
    static const uint8_t iv[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    webcrypto_params algs[] = {
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12, .additional_data = iv,
                         .additional_data_len = 5),
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv, .iv_len = 16),
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR, .counter = iv, .counter_len = 16, .length = 64),
    };
    webcrypto_params hmac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_384);
    webcrypto_key *mac = NULL;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &hmac, true,
                                            WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &mac),
                     WEBCRYPTO_OK);
    uint8_t *jwk = NULL;
    size_t jwk_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, mac, &jwk, &jwk_len), WEBCRYPTO_OK);
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR);
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) {
        webcrypto_params g = WEBCRYPTO_PARAMS(.name = algs[i].name, .length = 256);
        webcrypto_key *kek = NULL;
        tu_assert_status(webcrypto_generate_key(tu_backend(), &g, true, WRAP, &kek), WEBCRYPTO_OK);
        uint8_t *wrapped = NULL;
        size_t n = 0;
        tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_JWK, mac, kek, &algs[i], &wrapped, &n),
                         WEBCRYPTO_OK);
        /* What wrapKey makes is the encryption of the JWK text: decrypted
         * with the same key material (imported again for decrypt), it is
         * exactly the JWK exportKey gives. */
        {
            uint8_t *kraw = NULL;
            size_t kraw_len = 0;
            tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, kek, &kraw, &kraw_len),
                             WEBCRYPTO_OK);
            webcrypto_params ip = WEBCRYPTO_PARAMS(.name = algs[i].name);
            webcrypto_key *dec = NULL;
            tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, kraw,
                                                  kraw_len, &ip, false, WEBCRYPTO_USAGE_DECRYPT,
                                                  &dec),
                             WEBCRYPTO_OK);
            uint8_t text[1024];
            size_t text_len = 0;
            tu_assert_status(webcrypto_decrypt(&algs[i], dec, wrapped, n, text, sizeof text,
                                               &text_len),
                             WEBCRYPTO_OK);
            assert_int_equal(text_len, jwk_len);
            assert_memory_equal(text, jwk, jwk_len);
            webcrypto_key_free(dec);
            webcrypto_buffer_free(kraw, kraw_len);
        }
        webcrypto_key *back = NULL;
        tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_JWK, wrapped, n, kek, &algs[i],
                                              &hmac, true, WEBCRYPTO_USAGE_VERIFY, &back),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_hash(back), WEBCRYPTO_ALG_SHA_384);
        uint8_t *a = NULL, *b = NULL;
        size_t an = 0, bn = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, mac, &a, &an), WEBCRYPTO_OK);
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, back, &b, &bn), WEBCRYPTO_OK);
        assert_int_equal(an, bn);
        assert_memory_equal(a, b, an);
        /* The wrapping key may not be used to decrypt: it has only the wrap usages. */
        uint8_t out[512];
        size_t on = 0;
        tu_assert_status(webcrypto_decrypt(&algs[i], kek, wrapped, n, out, sizeof out, &on),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        webcrypto_buffer_free(a, an);
        webcrypto_buffer_free(b, bn);
        webcrypto_buffer_free(wrapped, n);
        webcrypto_key_free(back);
        webcrypto_key_free(kek);
    }
    webcrypto_buffer_free(jwk, jwk_len);
    webcrypto_key_free(mac);
}

static void test_wrap_errors(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_KW);
    webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    const char *k16 = "000102030405060708090A0B0C0D0E0F";
    webcrypto_key *kek = import_raw(WEBCRYPTO_ALG_AES_KW, k16, false, WRAP);
    webcrypto_key *only_unwrap = import_raw(WEBCRYPTO_ALG_AES_KW, k16, false,
                                            WEBCRYPTO_USAGE_UNWRAP_KEY);
    webcrypto_key *data = import_raw(WEBCRYPTO_ALG_AES_GCM, k16, true, ED);
    webcrypto_key *locked = import_raw(WEBCRYPTO_ALG_AES_GCM, k16, false, ED);
    uint8_t *w = NULL;
    size_t n = 0;

    /* Usages: AES-KW keys only wrap and unwrap. */
    webcrypto_key *k = NULL;
    size_t kn;
    uint8_t *kb = tu_unhex(k16, &kn);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, kb, kn, &kw, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &k),
                     WEBCRYPTO_ERR_SYNTAX);
    free(kb);
    /* AES-KW has no encrypt operation. */
    uint8_t buf[64];
    size_t bn = 0;
    tu_assert_status(webcrypto_encrypt(&kw, kek, buf, 16, buf, sizeof buf, &bn),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* The wrapping key needs wrapKey, and must be of the named algorithm. */
    tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, data, only_unwrap, &kw, &w, &n),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, data, kek, &gcm, &w, &n),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    /* The wrapped key must be extractable. */
    tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, locked, kek, &kw, &w, &n),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    /* A JWK's text is rarely a multiple of 8 bytes: AES-KW refuses it then. */
    uint8_t *jwk = NULL;
    size_t jn = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, data, &jwk, &jn), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_JWK, data, kek, &kw, &w, &n),
                     jn % 8 ? WEBCRYPTO_ERR_OPERATION : WEBCRYPTO_OK);
    if (jn % 8 == 0) webcrypto_buffer_free(w, n);
    webcrypto_buffer_free(jwk, jn);
    /* Unwrap: too short, not a multiple of 8, wrong key. */
    tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, data, kek, &kw, &w, &n), WEBCRYPTO_OK);
    webcrypto_key *out = NULL;
    tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w, 16, kek, &kw, &gcm, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &out),
                     WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w, n - 1, kek, &kw, &gcm, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &out),
                     WEBCRYPTO_ERR_OPERATION);
    webcrypto_key *other = import_raw(WEBCRYPTO_ALG_AES_KW, "0f0e0d0c0b0a09080706050403020100",
                                      false, WRAP);
    tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w, n, other, &kw, &gcm, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &out),
                     WEBCRYPTO_ERR_OPERATION);
    /* Unwrapped bytes that do not import: the import's error. */
    webcrypto_params hkdf = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
    tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_JWK, w, n, kek, &kw, &gcm, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &out),
                     WEBCRYPTO_ERR_DATA);
    tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w, n, kek, &kw, &hkdf, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &out),
                     WEBCRYPTO_ERR_SYNTAX);
    /* unwrapKey usage required. */
    webcrypto_key *only_wrap = import_raw(WEBCRYPTO_ALG_AES_KW, k16, false, WEBCRYPTO_USAGE_WRAP_KEY);
    tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w, n, only_wrap, &kw, &gcm, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &out),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    assert_null(out);
    webcrypto_buffer_free(w, n);
    webcrypto_key_free(only_wrap);
    webcrypto_key_free(other);
    webcrypto_key_free(locked);
    webcrypto_key_free(data);
    webcrypto_key_free(only_unwrap);
    webcrypto_key_free(kek);
}

/* deriveKey is deriveBits of the key's length, imported raw. */
static void test_derive_key(void **state) {
    (void)state;
    size_t ikm_len, salt_len, info_len;
    uint8_t *ikm = tu_unhex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", &ikm_len);
    uint8_t *salt = tu_unhex("000102030405060708090a0b0c", &salt_len);
    uint8_t *info = tu_unhex("f0f1f2f3f4f5f6f7f8f9", &info_len);
    webcrypto_params hkdf_imp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
    webcrypto_key *base = NULL, *bits_only = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, ikm, ikm_len,
                                          &hkdf_imp, false,
                                          WEBCRYPTO_USAGE_DERIVE_KEY | WEBCRYPTO_USAGE_DERIVE_BITS,
                                          &base),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, ikm, ikm_len,
                                          &hkdf_imp, false, WEBCRYPTO_USAGE_DERIVE_BITS,
                                          &bits_only),
                     WEBCRYPTO_OK);
    webcrypto_params hkdf = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256,
                                             .salt = salt, .salt_len = salt_len, .info = info,
                                             .info_len = info_len);
    webcrypto_params aes = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256);
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &aes, true, ED, &k), WEBCRYPTO_OK);
    uint8_t *raw = NULL;
    size_t n = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, k, &raw, &n), WEBCRYPTO_OK);
    /* RFC 5869 test case 1's OKM, first 32 bytes. */
    tu_assert_hex(raw, n, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf");
    assert_int_equal(webcrypto_key_get_length(k), 256);
    webcrypto_buffer_free(raw, n);
    webcrypto_key_free(k);
    k = NULL;

    /* HMAC without a length takes the hash's block size: 512 bits of OKM. */
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &mac, false, WEBCRYPTO_USAGE_SIGN, &k),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(k), 512);
    assert_false(webcrypto_key_get_extractable(k));
    webcrypto_key_free(k);
    k = NULL;

    /* Errors, in the spec's order. */
    webcrypto_params aes_bad = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 100);
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &aes_bad, true, ED, &k),
                     WEBCRYPTO_ERR_OPERATION);
    webcrypto_params aes_none = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &aes_none, true, ED, &k),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    webcrypto_params sha = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_SHA_256);
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &sha, true, ED, &k),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    tu_assert_status(webcrypto_derive_key(&hkdf, bits_only, &aes, true, ED, &k),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_params pbkdf2 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = WEBCRYPTO_ALG_SHA_256,
                                               .salt = salt, .salt_len = salt_len, .iterations = 2);
    tu_assert_status(webcrypto_derive_key(&pbkdf2, base, &aes, true, ED, &k),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &aes, true, WEBCRYPTO_USAGE_SIGN, &k),
                     WEBCRYPTO_ERR_SYNTAX);
    /* The base key's checks come before the derived key's length rules, and
     * the params' normalisation (a hash present) before the base key's. */
    tu_assert_status(webcrypto_derive_key(&hkdf, bits_only, &aes_bad, true, ED, &k),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_params no_hash = hkdf;
    no_hash.hash = WEBCRYPTO_ALG_NONE;
    tu_assert_status(webcrypto_derive_key(&no_hash, bits_only, &aes, true, ED, &k),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    uint8_t okm[32];
    size_t dlen = 0;
    tu_assert_status(webcrypto_derive_bits(&no_hash, bits_only, 256, okm, sizeof okm, &dlen),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* An HMAC length beyond what any key may have fails before allocating. */
    webcrypto_params huge = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256,
                                             .length = (size_t)1 << 33);
    tu_assert_status(webcrypto_derive_key(&hkdf, base, &huge, true, WEBCRYPTO_USAGE_SIGN, &k),
                     WEBCRYPTO_ERR_OPERATION);
    assert_null(k);
    webcrypto_key_free(base);
    webcrypto_key_free(bits_only);
    free(ikm);
    free(salt);
    free(info);
}

/* deriveKey's derivedKeyType as the spec has it: HKDF and PBKDF2 have a null
 * "get key length", so a key agreement derives its whole secret for them and
 * a KDF fails (OperationError, as Node 24: not NotSupportedError); the key is
 * imported as the importKey normalisation and as long as the "get key
 * length" one says (webcrypto_derive_key_as); an HMAC key may be longer
 * than 64 KiB (the spec has no maximum: 600,000 bits, as Node makes). */
static void test_derive_key_types(void **state) {
    (void)state;
    if (!webcrypto_backend_supports(tu_backend(), WEBCRYPTO_ALG_ECDH)) {
        /* jca:SunJCE: no EC key agreement */
        printf("skipped: deriveKey's key types: the backend has no ECDH\n");
        return;
    }
    webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH,
                                           .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *pub = NULL, *priv = NULL, *k = NULL;
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &ec, false,
                                                 WEBCRYPTO_USAGE_DERIVE_KEY, &pub, &priv),
                     WEBCRYPTO_OK);
    webcrypto_params ecdh = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = pub);
    webcrypto_params hkdf_type = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
    tu_assert_status(webcrypto_derive_key(&ecdh, priv, &hkdf_type, false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_algorithm(k), WEBCRYPTO_ALG_HKDF);
    uint8_t salt[4] = {1, 2, 3, 4}, out[16];
    size_t n = 0;
    webcrypto_params hkdf = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256,
                                             .salt = salt, .salt_len = sizeof salt, .info = salt,
                                             .info_len = 0);
    tu_assert_status(webcrypto_derive_bits(&hkdf, k, 128, out, sizeof out, &n), WEBCRYPTO_OK);
    assert_int_equal(n, 16);
    webcrypto_key_free(k);
    k = NULL;
    /* an HKDF key is never extractable (SyntaxError), derived or imported */
    tu_assert_status(webcrypto_derive_key(&ecdh, priv, &hkdf_type, true,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_ERR_SYNTAX);
    /* HKDF to HKDF or PBKDF2: deriveBits with a null length */
    webcrypto_key *ikm = NULL;
    webcrypto_params hkdf_imp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, salt, sizeof salt,
                                          &hkdf_imp, false, WEBCRYPTO_USAGE_DERIVE_KEY, &ikm),
                     WEBCRYPTO_OK);
    webcrypto_params pbkdf2_type = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2);
    tu_assert_status(webcrypto_derive_key(&hkdf, ikm, &hkdf_type, false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(webcrypto_derive_key(&hkdf, ikm, &pbkdf2_type, false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_ERR_OPERATION);
    assert_null(k);
    /* imported as AES-GCM, as long as AES-CBC's length of 128 says */
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256);
    webcrypto_params cbc = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .length = 128);
    tu_assert_status(webcrypto_derive_key_as(&hkdf, ikm, &gcm, &cbc, false,
                                             WEBCRYPTO_USAGE_ENCRYPT, &k),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_algorithm(k), WEBCRYPTO_ALG_AES_GCM);
    assert_int_equal(webcrypto_key_get_length(k), 128);
    webcrypto_key_free(k);
    k = NULL;
    /* the length type is normalised too: AES-CBC without its length */
    webcrypto_params cbc_none = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC);
    tu_assert_status(webcrypto_derive_key_as(&hkdf, ikm, &gcm, &cbc_none, false,
                                             WEBCRYPTO_USAGE_ENCRYPT, &k),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* HMAC keys longer than 64 KiB */
    webcrypto_params big = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC,
                                            .hash = WEBCRYPTO_ALG_SHA_256, .length = 600000);
    tu_assert_status(webcrypto_generate_key(tu_backend(), &big, false, WEBCRYPTO_USAGE_SIGN, &k),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(k), 600000);
    webcrypto_key_free(k);
    webcrypto_key_free(ikm);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc3394),
        cmocka_unit_test(test_wrap_jwk_with_encryption),
        cmocka_unit_test(test_wrap_errors),
        cmocka_unit_test(test_derive_key),
        cmocka_unit_test(test_derive_key_types),
    };
    return tu_run_group("wrap", tests, NULL, NULL);
}
