/*
 * test_jwk.c - JSON Web Key import and export of secret keys (RFC 7517,
 * RFC 7518 section 6.4, and the WebCrypto importKey/exportKey "jwk" steps for
 * AES-CBC/CTR/GCM and HMAC): round trips, known keys from the RFCs, and every
 * rejection the spec lists (all DataError).
 */
#include "testutil.h"

#include <jansson.h>
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

/* Key material, base64url without padding (checked with `base64`). */
#define K128 "AAECAwQFBgcICQoLDA0ODw"                    /* 00..0f */
#define K120 "AAECAwQFBgcICQoLDA0O"                      /* 00..0e: 15 bytes */
#define K136 "AAECAwQFBgcICQoLDA0ODxA"                   /* 00..10: 17 bytes */
#define K192 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"          /* 00..17 */
#define KFF256 "__________________________________________8" /* 32 x ff */
/* RFC 7515 appendix A.1 / RFC 7517 appendix A.3: the HS256 example key. */
#define KRFC                                                                               \
    "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
#define KRFC_HEX                                                                           \
    "0323354b2b0fa5bc837e0665777ba68f5ab328e6f054c928a90f84b2d2502ebf"                     \
    "d3fb5a92d20647ef968ab4c377623d223d2e2172052e4f08c0cd9af567d080a3"

static const uint8_t MSG[40] = "forty bytes of plaintext for the tests.";
static const uint8_t IV16[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
                                 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};

/* ------------------------------------------------------------------------ */
/* base64url (RFC 4648 section 5), strict, for checking exports             */

static const char B64URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int b64url_value(char c) {
    const char *p = c ? strchr(B64URL, c) : NULL;
    return p ? (int)(p - B64URL) : -1;
}

/* Decodes unpadded base64url; false on any character outside the alphabet,
 * an impossible length, or non-zero unused bits. *out is malloc'd. */
static bool b64url_decode(const char *in, size_t len, uint8_t **out, size_t *out_len) {
    if (len % 4 == 1) return false;
    uint8_t *buf = malloc(len * 3 / 4 + 1);
    assert_non_null(buf);
    size_t o = 0;
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = b64url_value(in[i]);
        if (v < 0) {
            free(buf);
            return false;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (acc != 0) { /* non-canonical trailing bits */
        free(buf);
        return false;
    }
    *out = buf;
    *out_len = o;
    return true;
}

static void test_b64url_helper(void **state) {
    (void)state;
    /* RFC 4648 section 10 vectors, padding removed. */
    static const char *const enc[] = {"", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"};
    static const char *const dec = "foobar";
    for (size_t i = 0; i < 7; i++) {
        uint8_t *out = NULL;
        size_t n = 0;
        assert_true(b64url_decode(enc[i], strlen(enc[i]), &out, &n));
        assert_int_equal(n, i);
        if (n) assert_memory_equal(out, dec, n);
        free(out);
    }
    uint8_t *out = NULL;
    size_t n = 0;
    assert_true(b64url_decode(KRFC, strlen(KRFC), &out, &n));
    tu_assert_hex(out, n, KRFC_HEX);
    free(out);
    assert_false(b64url_decode("Zg==", 4, &out, &n));
    assert_false(b64url_decode("Zh", 2, &out, &n)); /* unused bits set */
    assert_false(b64url_decode("Z+9v", 4, &out, &n));
    assert_false(b64url_decode("Zm9vY", 5, &out, &n));
}

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

static webcrypto_params P(webcrypto_algorithm name, webcrypto_algorithm hash) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    p.hash = hash;
    return p;
}

static webcrypto_status import_jwk(webcrypto_algorithm alg, webcrypto_algorithm hash,
                                   const char *json, bool extractable, unsigned usages,
                                   webcrypto_key **out) {
    webcrypto_params p = P(alg, hash);
    return webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, (const uint8_t *)json,
                                strlen(json), &p, extractable, usages, out);
}

static const char *aes_suffix(webcrypto_algorithm alg) {
    if (alg == WEBCRYPTO_ALG_AES_CBC) return "CBC";
    if (alg == WEBCRYPTO_ALG_AES_CTR) return "CTR";
    if (alg == WEBCRYPTO_ALG_AES_GCM) return "GCM";
    fail_msg("not an AES algorithm: %d", (int)alg);
    return NULL;
}

static const char *hmac_jwk_alg(webcrypto_algorithm hash) {
    if (hash == WEBCRYPTO_ALG_SHA_1) return "HS1";
    if (hash == WEBCRYPTO_ALG_SHA_256) return "HS256";
    if (hash == WEBCRYPTO_ALG_SHA_384) return "HS384";
    if (hash == WEBCRYPTO_ALG_SHA_512) return "HS512";
    fail_msg("not a hash: %d", (int)hash);
    return NULL;
}

/* Checks an exported JWK: compact JSON, NUL after it, kty "oct", alg,
 * key_ops exactly the usages (no duplicates), ext true, and k the unpadded
 * base64url of raw. */
static void check_exported_jwk(const uint8_t *json, size_t len, const char *alg,
                               unsigned usages, const uint8_t *raw, size_t raw_len) {
    const char *text = (const char *)json;
    assert_int_equal(json[len], '\0');
    assert_int_equal(strlen(text), len);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r')
            fail_msg("exported JWK is not compact: %s", text);
    }

    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) fail_msg("exported JWK is not JSON (%s): %s", err.text, text);
    assert_true(json_is_object(root));

    const char *kty = json_string_value(json_object_get(root, "kty"));
    assert_non_null(kty);
    assert_string_equal(kty, "oct");

    const char *a = json_string_value(json_object_get(root, "alg"));
    if (!a) fail_msg("exported JWK has no string alg: %s", text);
    assert_string_equal(a, alg);

    assert_true(json_is_true(json_object_get(root, "ext")));

    json_t *ops = json_object_get(root, "key_ops");
    if (!json_is_array(ops)) fail_msg("exported JWK has no key_ops array: %s", text);
    unsigned seen = 0;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const char *op = json_string_value(json_array_get(ops, i));
        assert_non_null(op);
        unsigned u = 0;
        EXPECT(webcrypto_usage_from_name(op, &u), WEBCRYPTO_OK);
        if (seen & u) fail_msg("duplicate key_ops entry %s: %s", op, text);
        seen |= u;
    }
    assert_int_equal(seen, usages);

    const char *k = json_string_value(json_object_get(root, "k"));
    assert_non_null(k);
    size_t klen = strlen(k);
    assert_int_equal(klen, (raw_len * 8 + 5) / 6); /* unpadded length */
    assert_null(strpbrk(k, "=+/"));
    uint8_t *dec = NULL;
    size_t dec_len = 0;
    if (!b64url_decode(k, klen, &dec, &dec_len)) fail_msg("k is not base64url: %s", k);
    assert_int_equal(dec_len, raw_len);
    assert_memory_equal(dec, raw, raw_len);
    free(dec);
    json_decref(root);
}

static void export_buf(webcrypto_key_format fmt, const webcrypto_key *key, uint8_t **out,
                       size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    EXPECT(webcrypto_export_key(fmt, key, out, out_len), WEBCRYPTO_OK);
    assert_non_null(*out);
}

/* Encrypts MSG with both keys under the same params; the outputs match. */
static void assert_same_encryption(webcrypto_algorithm alg, const webcrypto_key *a,
                                   const webcrypto_key *b) {
    webcrypto_params p = P(alg, WEBCRYPTO_ALG_NONE);
    if (alg == WEBCRYPTO_ALG_AES_CTR) {
        p.counter = IV16;
        p.counter_len = 16;
        p.length = 64;
    } else {
        p.iv = IV16;
        p.iv_len = alg == WEBCRYPTO_ALG_AES_GCM ? 12 : 16;
    }
    uint8_t ca[sizeof MSG + 16], cb[sizeof MSG + 16];
    size_t la = 0, lb = 0;
    EXPECT(webcrypto_encrypt(&p, a, MSG, sizeof MSG, ca, sizeof ca, &la), WEBCRYPTO_OK);
    EXPECT(webcrypto_encrypt(&p, b, MSG, sizeof MSG, cb, sizeof cb, &lb), WEBCRYPTO_OK);
    assert_true(la >= sizeof MSG);
    assert_int_equal(la, lb);
    assert_memory_equal(ca, cb, la);
}

static void assert_same_mac(const webcrypto_key *a, const webcrypto_key *b) {
    webcrypto_params p = P(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_NONE);
    uint8_t ma[64], mb[64];
    size_t la = 0, lb = 0;
    EXPECT(webcrypto_sign(&p, a, MSG, sizeof MSG, ma, sizeof ma, &la), WEBCRYPTO_OK);
    EXPECT(webcrypto_sign(&p, b, MSG, sizeof MSG, mb, sizeof mb, &lb), WEBCRYPTO_OK);
    assert_true(la >= 20);
    assert_int_equal(la, lb);
    assert_memory_equal(ma, mb, la);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                              */

static void test_aes_round_trip(void **state) {
    (void)state;
    const webcrypto_algorithm algs[3] = {WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
                                         WEBCRYPTO_ALG_AES_GCM};
    const size_t lens[3] = {128, 192, 256};
    const unsigned usage_sets[3] = {
        WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
        WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY,
        WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_WRAP_KEY |
            WEBCRYPTO_USAGE_UNWRAP_KEY};

    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++) {
            webcrypto_algorithm alg = algs[i];
            unsigned usages = usage_sets[(i + j) % 3];
            char jwk_alg[16];
            snprintf(jwk_alg, sizeof jwk_alg, "A%zu%s", lens[j], aes_suffix(alg));

            webcrypto_params p = P(alg, WEBCRYPTO_ALG_NONE);
            p.length = lens[j];
            webcrypto_key *key = NULL;
            EXPECT(webcrypto_generate_key(tu_backend(), &p, true, usages, &key), WEBCRYPTO_OK);

            uint8_t *raw, *json;
            size_t raw_len, json_len;
            export_buf(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len);
            assert_int_equal(raw_len, lens[j] / 8);
            export_buf(WEBCRYPTO_FORMAT_JWK, key, &json, &json_len);
            check_exported_jwk(json, json_len, jwk_alg, usages, raw, raw_len);

            /* Import it again: same bytes, same behaviour. */
            webcrypto_key *back = NULL;
            EXPECT(import_jwk(alg, WEBCRYPTO_ALG_NONE, (const char *)json, true, usages, &back),
                   WEBCRYPTO_OK);
            assert_int_equal(webcrypto_key_get_algorithm(back), alg);
            assert_int_equal(webcrypto_key_get_length(back), lens[j]);
            assert_int_equal(webcrypto_key_get_usages(back), usages);
            assert_true(webcrypto_key_get_extractable(back));
            uint8_t *raw2;
            size_t raw2_len;
            export_buf(WEBCRYPTO_FORMAT_RAW, back, &raw2, &raw2_len);
            assert_int_equal(raw2_len, raw_len);
            assert_memory_equal(raw2, raw, raw_len);
            assert_same_encryption(alg, key, back);
            webcrypto_buffer_free(raw2, raw2_len);
            webcrypto_key_free(back);
            back = NULL;

            /* A subset of key_ops is fine; a usage outside it is not. */
            EXPECT(import_jwk(alg, WEBCRYPTO_ALG_NONE, (const char *)json, false,
                              WEBCRYPTO_USAGE_ENCRYPT, &back),
                   WEBCRYPTO_OK);
            assert_false(webcrypto_key_get_extractable(back));
            assert_int_equal(webcrypto_key_get_usages(back), WEBCRYPTO_USAGE_ENCRYPT);
            assert_same_encryption(alg, key, back);
            uint8_t *none = NULL;
            size_t none_len = 0;
            EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, back, &none, &none_len),
                   WEBCRYPTO_ERR_INVALID_ACCESS);
            EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, back, &none, &none_len),
                   WEBCRYPTO_ERR_INVALID_ACCESS);
            assert_null(none);
            webcrypto_key_free(back);
            back = NULL;
            unsigned missing = (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT |
                                WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY) &
                               ~usages;
            if (missing) {
                EXPECT(import_jwk(alg, WEBCRYPTO_ALG_NONE, (const char *)json, true,
                                  usages | missing, &back),
                       WEBCRYPTO_ERR_DATA);
                assert_null(back);
            }
            /* Its alg names this algorithm: another AES mode refuses it. */
            webcrypto_algorithm other = algs[(i + 1) % 3];
            EXPECT(import_jwk(other, WEBCRYPTO_ALG_NONE, (const char *)json, true,
                              WEBCRYPTO_USAGE_ENCRYPT, &back),
                   WEBCRYPTO_ERR_DATA);
            assert_null(back);

            webcrypto_buffer_free(json, json_len);
            webcrypto_buffer_free(raw, raw_len);
            webcrypto_key_free(key);
        }
    }
}

static void test_hmac_round_trip(void **state) {
    (void)state;
    const webcrypto_algorithm hashes[4] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                           WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
    const size_t block_bytes[4] = {64, 64, 128, 128};
    for (size_t i = 0; i < 5; i++) {
        /* Case 4: SHA-512 with an explicit 256-bit length. */
        webcrypto_algorithm hash = hashes[i < 4 ? i : 3];
        size_t bytes = i < 4 ? block_bytes[i] : 32;
        unsigned usages = i % 2 ? WEBCRYPTO_USAGE_SIGN
                                : WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
        webcrypto_params p = P(WEBCRYPTO_ALG_HMAC, hash);
        if (i == 4) p.length = 256;
        webcrypto_key *key = NULL;
        EXPECT(webcrypto_generate_key(tu_backend(), &p, true, usages, &key), WEBCRYPTO_OK);

        uint8_t *raw, *json;
        size_t raw_len, json_len;
        export_buf(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len);
        assert_int_equal(raw_len, bytes);
        export_buf(WEBCRYPTO_FORMAT_JWK, key, &json, &json_len);
        check_exported_jwk(json, json_len, hmac_jwk_alg(hash), usages, raw, raw_len);

        webcrypto_key *back = NULL;
        EXPECT(import_jwk(WEBCRYPTO_ALG_HMAC, hash, (const char *)json, true, usages, &back),
               WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_algorithm(back), WEBCRYPTO_ALG_HMAC);
        assert_int_equal(webcrypto_key_get_hash(back), hash);
        assert_int_equal(webcrypto_key_get_length(back), bytes * 8);
        assert_int_equal(webcrypto_key_get_usages(back), usages);
        uint8_t *raw2;
        size_t raw2_len;
        export_buf(WEBCRYPTO_FORMAT_RAW, back, &raw2, &raw2_len);
        assert_int_equal(raw2_len, raw_len);
        assert_memory_equal(raw2, raw, raw_len);
        assert_same_mac(key, back);
        webcrypto_buffer_free(raw2, raw2_len);
        webcrypto_key_free(back);
        back = NULL;

        /* The alg pins the hash: importing under another hash is refused. */
        webcrypto_algorithm other = hashes[(i + 1) % 4];
        if (other == hash) other = hashes[0];
        EXPECT(import_jwk(WEBCRYPTO_ALG_HMAC, other, (const char *)json, true,
                          WEBCRYPTO_USAGE_SIGN, &back),
               WEBCRYPTO_ERR_DATA);
        /* verify is not in key_ops when only sign was exported. */
        if (!(usages & WEBCRYPTO_USAGE_VERIFY)) {
            EXPECT(import_jwk(WEBCRYPTO_ALG_HMAC, hash, (const char *)json, true,
                              WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &back),
                   WEBCRYPTO_ERR_DATA);
        }
        assert_null(back);

        webcrypto_buffer_free(json, json_len);
        webcrypto_buffer_free(raw, raw_len);
        webcrypto_key_free(key);
    }
}

/* ------------------------------------------------------------------------ */
/* Keys from the RFCs                                                       */

static void test_rfc7515_a1_hs256(void **state) {
    (void)state;
    /* RFC 7515 appendix A.1: the JWS Signing Input (ASCII of the encoded
     * header "." encoded payload) and its HMAC SHA-256 (the base64url
     * signature dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk, in hex).
     * Checked with: printf %s "$SI" | openssl dgst -sha256 -mac HMAC
     * -macopt hexkey:$KRFC_HEX. */
    static const char signing_input[] =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290"
        "Ijp0cnVlfQ";
    static const char sig_hex[] =
        "7418dfb49799e0254ffa607dd8adbbba16d4254d69d6bff05b58055853848d79";
    /* As written in RFC 7517 appendix A.3 (kid is ignored). */
    static const char jwk[] = "{\"kty\":\"oct\",\n \"k\":\"" KRFC "\",\n"
                              " \"kid\":\"HMAC key used in JWS spec Appendix A.1 example\"}";

    webcrypto_key *key = NULL;
    EXPECT(import_jwk(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, jwk, true,
                      WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &key),
           WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(key), 512);
    assert_int_equal(webcrypto_key_get_hash(key), WEBCRYPTO_ALG_SHA_256);

    webcrypto_params p = P(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_NONE);
    uint8_t mac[32];
    size_t mac_len = 0;
    EXPECT(webcrypto_sign(&p, key, (const uint8_t *)signing_input, strlen(signing_input), mac,
                          sizeof mac, &mac_len),
           WEBCRYPTO_OK);
    tu_assert_hex(mac, mac_len, sig_hex);
    size_t sig_len = 0;
    uint8_t *sig = tu_unhex(sig_hex, &sig_len);
    bool valid = false;
    EXPECT(webcrypto_verify(&p, key, sig, sig_len, (const uint8_t *)signing_input,
                            strlen(signing_input), &valid),
           WEBCRYPTO_OK);
    assert_true(valid);
    free(sig);

    uint8_t *raw;
    size_t raw_len;
    export_buf(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len);
    tu_assert_hex(raw, raw_len, KRFC_HEX);
    webcrypto_buffer_free(raw, raw_len);
    /* Exported again, k is the RFC's text exactly. */
    uint8_t *json;
    size_t json_len;
    export_buf(WEBCRYPTO_FORMAT_JWK, key, &json, &json_len);
    json_t *root = json_loadb((const char *)json, json_len, 0, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "k")), KRFC);
    json_decref(root);
    webcrypto_buffer_free(json, json_len);
    webcrypto_key_free(key);
    key = NULL;

    /* With the alg the RFC uses for it, and "use":"sig": accepted. */
    static const char jwk_alg[] =
        "{\"kty\":\"oct\",\"alg\":\"HS256\",\"use\":\"sig\",\"k\":\"" KRFC "\"}";
    EXPECT(import_jwk(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, jwk_alg, false,
                      WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_OK);
    EXPECT(webcrypto_sign(&p, key, (const uint8_t *)signing_input, strlen(signing_input), mac,
                          sizeof mac, &mac_len),
           WEBCRYPTO_OK);
    tu_assert_hex(mac, mac_len, sig_hex);
    webcrypto_key_free(key);
    key = NULL;

    /* params.length within (bits - 8, bits]: 505..512 for this 64-byte key. */
    p = P(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256);
    p.length = 505;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, (const uint8_t *)jwk,
                                strlen(jwk), &p, false, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(key), 505);
    webcrypto_key_free(key);
    key = NULL;
    p.length = 504;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, (const uint8_t *)jwk,
                                strlen(jwk), &p, false, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_DATA);
    p.length = 513;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, (const uint8_t *)jwk,
                                strlen(jwk), &p, false, WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_DATA);
    assert_null(key);
}

static void test_rfc7517_a3_aes(void **state) {
    (void)state;
    /* RFC 7517 appendix A.3, first key: an A128KW key. As an AES-GCM key its
     * alg does not match; without alg it is a 128-bit AES key. */
    static const char with_alg[] =
        "{\"kty\":\"oct\",\n \"alg\":\"A128KW\",\n \"k\":\"GawgguFyGrWKav7AX4VKUg\"}";
    static const char no_alg[] = "{\"kty\":\"oct\",\"k\":\"GawgguFyGrWKav7AX4VKUg\"}";
    webcrypto_key *key = NULL;
    EXPECT(import_jwk(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE, with_alg, true,
                      WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_DATA);
    assert_null(key);
    EXPECT(import_jwk(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE, no_alg, true,
                      WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &key),
           WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(key), 128);
    uint8_t *raw;
    size_t raw_len;
    export_buf(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len);
    tu_assert_hex(raw, raw_len, "19ac2082e1721ab58a6afec05f854a52");

    /* Same behaviour as the raw import of those bytes. */
    webcrypto_params p = P(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE);
    webcrypto_key *rawkey = NULL;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, raw, raw_len, &p, false,
                                WEBCRYPTO_USAGE_ENCRYPT, &rawkey),
           WEBCRYPTO_OK);
    assert_same_encryption(WEBCRYPTO_ALG_AES_CBC, key, rawkey);
    webcrypto_buffer_free(raw, raw_len);
    webcrypto_key_free(rawkey);
    webcrypto_key_free(key);
}

/* ------------------------------------------------------------------------ */
/* Rejections: all DataError                                                */

struct jwk_case {
    webcrypto_algorithm alg;
    webcrypto_algorithm hash;
    bool extractable;
    unsigned usages;
    const char *json;
};

#define ED (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT)
#define SV (WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY)
#define GCM WEBCRYPTO_ALG_AES_GCM
#define CBC WEBCRYPTO_ALG_AES_CBC
#define CTR WEBCRYPTO_ALG_AES_CTR
#define HMAC WEBCRYPTO_ALG_HMAC
#define NOH WEBCRYPTO_ALG_NONE
#define S1 WEBCRYPTO_ALG_SHA_1
#define S256 WEBCRYPTO_ALG_SHA_256

static const struct jwk_case rejected[] = {
    /* Not a JSON object. */
    {GCM, NOH, true, ED, ""},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K128 "\""},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K128 "\"} x"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K128 "\",}"},
    {GCM, NOH, true, ED, "{'kty':'oct','k':'" K128 "'}"},
    {GCM, NOH, true, ED, "[{\"kty\":\"oct\",\"k\":\"" K128 "\"}]"},
    {GCM, NOH, true, ED, "\"oct\""},
    {GCM, NOH, true, ED, "null"},
    {HMAC, S256, true, SV, "[]"},
    /* kty. */
    {GCM, NOH, true, ED, "{\"kty\":\"EC\",\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"RSA\",\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"OCT\",\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, ED, "{\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":1,\"k\":\"" K128 "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"EC\",\"k\":\"" KRFC "\"}"},
    {HMAC, S256, true, SV, "{\"k\":\"" KRFC "\"}"},
    /* k missing, of the wrong type, not base64url. */
    {GCM, NOH, true, ED, "{\"kty\":\"oct\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":12345}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":null}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":[\"" K128 "\"]}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"k\":true}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K128 "==\"}"},
    {CBC, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K192 "=\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"k\":\"Zm9vYg==\"}"},
    {CTR, NOH, true, ED,
     "{\"kty\":\"oct\",\"k\":\"//////////////////////////////////////////8\"}"},
    {HMAC, S256, true, SV,
     "{\"kty\":\"oct\",\"k\":\"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ+EstJQLr_T+1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow\"}"},
    {HMAC, S256, true, SV,
     "{\"kty\":\"oct\",\"k\":\"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr/T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcI CQoLDA0ODw\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcI*QoLDA0ODw\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0OD\"}"}, /* 21 chars */
    /* k of a length AES does not have; empty k for HMAC. */
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K120 "\"}"},
    {CBC, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"" K136 "\"}"},
    {CTR, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"AAECAwQ\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"k\":\"\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"k\":\"\"}"},
    /* alg not the one for this algorithm and key length. */
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A128GCM\",\"k\":\"" KFF256 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A256CBC\",\"k\":\"" KFF256 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A256KW\",\"k\":\"" KFF256 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"a256gcm\",\"k\":\"" KFF256 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"\",\"k\":\"" KFF256 "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":256,\"k\":\"" KFF256 "\"}"},
    {CBC, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A128CTR\",\"k\":\"" K128 "\"}"},
    {CBC, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A192CBC\",\"k\":\"" K128 "\"}"},
    {CTR, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A128CTR\",\"k\":\"" K192 "\"}"},
    {CTR, NOH, true, ED, "{\"kty\":\"oct\",\"alg\":\"A192GCM\",\"k\":\"" K192 "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"alg\":\"HS512\",\"k\":\"" KRFC "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"alg\":\"HS1\",\"k\":\"" KRFC "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"alg\":\"A256GCM\",\"k\":\"" KRFC "\"}"},
    {HMAC, S1, true, SV, "{\"kty\":\"oct\",\"alg\":\"HS256\",\"k\":\"" KRFC "\"}"},
    {HMAC, WEBCRYPTO_ALG_SHA_384, true, SV,
     "{\"kty\":\"oct\",\"alg\":\"HS512\",\"k\":\"" KRFC "\"}"},
    /* use: "enc" for AES and "sig" for HMAC only. */
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"use\":\"sig\",\"k\":\"" K128 "\"}"},
    {CBC, NOH, true, WEBCRYPTO_USAGE_ENCRYPT,
     "{\"kty\":\"oct\",\"use\":\"ENC\",\"k\":\"" K128 "\"}"},
    {CTR, NOH, true, WEBCRYPTO_USAGE_DECRYPT, "{\"kty\":\"oct\",\"use\":1,\"k\":\"" K128 "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"use\":\"enc\",\"k\":\"" KRFC "\"}"},
    /* key_ops: must contain every usage, only strings, no duplicates (of any
     * value: RFC 7517 allows other values than WebCrypto's usages). */
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"key_ops\":[\"encrypt\"],\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, WEBCRYPTO_USAGE_ENCRYPT,
     "{\"kty\":\"oct\",\"key_ops\":[],\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, WEBCRYPTO_USAGE_WRAP_KEY,
     "{\"kty\":\"oct\",\"key_ops\":[\"encrypt\",\"decrypt\"],\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, ED,
     "{\"kty\":\"oct\",\"key_ops\":[\"encrypt\",\"decrypt\",\"encrypt\"],\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, ED,
     "{\"kty\":\"oct\",\"key_ops\":[\"encrypt\",\"decrypt\",\"x\",\"x\"],\"k\":\"" K128
     "\"}"},
    {GCM, NOH, true, ED, /* usage names are case-sensitive: "Encrypt" grants nothing */
     "{\"kty\":\"oct\",\"key_ops\":[\"Encrypt\",\"decrypt\"],\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, WEBCRYPTO_USAGE_ENCRYPT,
     "{\"kty\":\"oct\",\"key_ops\":\"encrypt\",\"k\":\"" K128 "\"}"},
    {GCM, NOH, true, WEBCRYPTO_USAGE_ENCRYPT,
     "{\"kty\":\"oct\",\"key_ops\":[\"encrypt\",1],\"k\":\"" K128 "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"key_ops\":[\"sign\"],\"k\":\"" KRFC "\"}"},
    {HMAC, S256, true, WEBCRYPTO_USAGE_SIGN,
     "{\"kty\":\"oct\",\"key_ops\":[\"sign\",\"sign\"],\"k\":\"" KRFC "\"}"},
    /* ext: false while extractable is requested; not a boolean. */
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"ext\":false,\"k\":\"" K128 "\"}"},
    {HMAC, S256, true, SV, "{\"kty\":\"oct\",\"ext\":false,\"k\":\"" KRFC "\"}"},
    {GCM, NOH, true, ED, "{\"kty\":\"oct\",\"ext\":\"true\",\"k\":\"" K128 "\"}"},
    {GCM, NOH, false, ED, "{\"kty\":\"oct\",\"ext\":1,\"k\":\"" K128 "\"}"},
    {CBC, NOH, false, ED, "{\"kty\":\"oct\",\"ext\":null,\"k\":\"" K128 "\"}"},
};

static void test_rejections(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
        const struct jwk_case *c = &rejected[i];
        webcrypto_key *key = NULL;
        webcrypto_status st = import_jwk(c->alg, c->hash, c->json, c->extractable, c->usages,
                                         &key);
        if (st != WEBCRYPTO_ERR_DATA) {
            fail_msg("case %zu: importing %s as %s gave %s (%s), expected DataError", i, c->json,
                     webcrypto_algorithm_name(c->alg), webcrypto_status_name(st),
                     webcrypto_error_message());
        }
        if (webcrypto_error_message()[0] == '\0') fail_msg("case %zu: empty message", i);
        assert_null(key);
    }
}

/* Errors of other kinds that a JWK import can meet, and their order. */
static void test_jwk_error_order(void **state) {
    (void)state;
    webcrypto_key *key = NULL;
    /* Bad usages are a SyntaxError before the key data is looked at. */
    EXPECT(import_jwk(GCM, NOH, "{\"kty\":\"oct\",\"k\":\"" K120 "\"}", true,
                      WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_SYNTAX);
    EXPECT(import_jwk(HMAC, S256, "{\"kty\":\"EC\",\"k\":\"" KRFC "\"}", true,
                      WEBCRYPTO_USAGE_ENCRYPT, &key),
           WEBCRYPTO_ERR_SYNTAX);
    /* Bad key data wins over empty usages. */
    EXPECT(import_jwk(GCM, NOH, "{\"kty\":\"oct\",\"k\":\"" K120 "\"}", true, 0, &key),
           WEBCRYPTO_ERR_DATA);
    EXPECT(import_jwk(CBC, NOH, "{\"kty\":\"oct\",\"alg\":\"A256CBC\",\"k\":\"" K128 "\"}", true,
                      0, &key),
           WEBCRYPTO_ERR_DATA);
    /* use is only checked when usages are requested; then the empty usages
     * are the SyntaxError. Likewise an empty key_ops covers no usages. */
    EXPECT(import_jwk(GCM, NOH, "{\"kty\":\"oct\",\"use\":\"sig\",\"k\":\"" K128 "\"}", true, 0,
                      &key),
           WEBCRYPTO_ERR_SYNTAX);
    EXPECT(import_jwk(GCM, NOH, "{\"kty\":\"oct\",\"key_ops\":[],\"k\":\"" K128 "\"}", true, 0,
                      &key),
           WEBCRYPTO_ERR_SYNTAX);
    /* HMAC without hash: TypeError, whatever the JWK. */
    EXPECT(import_jwk(HMAC, NOH, "{\"kty\":\"oct\",\"k\":\"" KRFC "\"}", true,
                      WEBCRYPTO_USAGE_SIGN, &key),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* KDF keys have no jwk format. */
    EXPECT(import_jwk(WEBCRYPTO_ALG_HKDF, NOH, "{\"kty\":\"oct\",\"k\":\"" K128 "\"}", false,
                      WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(import_jwk(WEBCRYPTO_ALG_PBKDF2, NOH, "{\"kty\":\"oct\",\"k\":\"" K128 "\"}", false,
                      WEBCRYPTO_USAGE_DERIVE_BITS, &key),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(key);
}

/* ------------------------------------------------------------------------ */
/* Acceptances                                                              */

static webcrypto_key *accept(webcrypto_algorithm alg, webcrypto_algorithm hash,
                             const char *json, bool extractable, unsigned usages) {
    webcrypto_key *key = NULL;
    webcrypto_status st = import_jwk(alg, hash, json, extractable, usages, &key);
    if (st != WEBCRYPTO_OK) {
        fail_msg("importing %s as %s gave %s (%s), expected OK", json,
                 webcrypto_algorithm_name(alg), webcrypto_status_name(st),
                 webcrypto_error_message());
    }
    assert_non_null(key);
    assert_int_equal(webcrypto_key_get_algorithm(key), alg);
    assert_int_equal(webcrypto_key_get_extractable(key), extractable);
    assert_int_equal(webcrypto_key_get_usages(key), usages);
    return key;
}

/* A JSON syntax error is reported by position only: jansson's own text
 * quotes the token it stopped at, which may be the start of the key. */
static void test_json_error_hides_key(void **state) {
    (void)state;
    static const char bad[] = "{\"kty\":\"oct\",\"k\":\"q83vEjRWeJCr\x01\"}";
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                          (const uint8_t *)bad, sizeof bad - 1, &p, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &key),
                     WEBCRYPTO_ERR_DATA);
    assert_null(strstr(webcrypto_error_message(), "q83v"));
    assert_non_null(strstr(webcrypto_error_message(), "column"));
}

static void test_acceptances(void **state) {
    (void)state;
    webcrypto_params rawp = P(GCM, NOH);
    size_t k16_len = 0;
    uint8_t *k16 = tu_unhex("000102030405060708090a0b0c0d0e0f", &k16_len);
    webcrypto_key *ref = NULL;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, k16, k16_len, &rawp, false,
                                WEBCRYPTO_USAGE_ENCRYPT, &ref),
           WEBCRYPTO_OK);

    static const char *const good[] = {
        /* Members in any order, all of them valid. */
        "{\"k\":\"" K128 "\",\"ext\":true,\"key_ops\":[\"decrypt\",\"encrypt\"],"
        "\"alg\":\"A128GCM\",\"use\":\"enc\",\"kty\":\"oct\"}",
        /* Unknown members ignored, of any JSON type. */
        "{\"kty\":\"oct\",\"kid\":\"my key\",\"x5t\":\"abc\",\"foo\":{\"bar\":[1,2.5,null]},"
        "\"n\":7,\"k\":\"" K128 "\",\"zzz\":false}",
        /* key_ops with a value that is not a WebCrypto usage: RFC 7517 4.3
         * allows "other values", and WebCrypto ignores them. */
        "{\"kty\":\"oct\",\"key_ops\":[\"encrypt\",\"decrypt\",\"frobnicate\"],\"k\":\"" K128
        "\"}",
        /* key_ops a superset of the usages; use "enc". */
        "{\"kty\":\"oct\",\"use\":\"enc\",\"key_ops\":[\"wrapKey\",\"unwrapKey\",\"decrypt\","
        "\"encrypt\",\"sign\"],\"k\":\"" K128 "\"}",
        /* Whitespace anywhere JSON allows it. */
        " \n\t{ \"kty\" : \"oct\" ,\r\n \"k\" : \"" K128 "\" ,\"alg\":\"A128GCM\" } \n",
        /* ext true with extractable requested false (checked below). */
        "{\"kty\":\"oct\",\"ext\":true,\"k\":\"" K128 "\"}",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        for (int ext = 0; ext < 2; ext++) {
            webcrypto_key *key = accept(GCM, NOH, good[i], ext == 1, ED);
            assert_int_equal(webcrypto_key_get_length(key), 128);
            assert_same_encryption(GCM, key, ref);
            uint8_t *raw = NULL;
            size_t raw_len = 0;
            webcrypto_status st = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len);
            if (ext) {
                tu_assert_status(st, WEBCRYPTO_OK);
                assert_memory_equal(raw, k16, k16_len);
                webcrypto_buffer_free(raw, raw_len);
            } else {
                /* ext:true in the JWK does not make the key extractable. */
                tu_assert_status(st, WEBCRYPTO_ERR_INVALID_ACCESS);
            }
            webcrypto_key_free(key);
        }
    }

    /* ext false is fine for a non-extractable key. */
    webcrypto_key *key =
        accept(CBC, NOH, "{\"kty\":\"oct\",\"ext\":false,\"k\":\"" K128 "\"}", false, ED);
    webcrypto_key_free(key);
    /* The right alg for every AES mode and length. */
    key = accept(CBC, NOH, "{\"kty\":\"oct\",\"alg\":\"A192CBC\",\"k\":\"" K192 "\"}", true,
                 WEBCRYPTO_USAGE_DECRYPT);
    assert_int_equal(webcrypto_key_get_length(key), 192);
    webcrypto_key_free(key);
    key = accept(CTR, NOH, "{\"kty\":\"oct\",\"alg\":\"A256CTR\",\"k\":\"" KFF256 "\"}", true,
                 WEBCRYPTO_USAGE_WRAP_KEY);
    assert_int_equal(webcrypto_key_get_length(key), 256);
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    export_buf(WEBCRYPTO_FORMAT_RAW, key, &raw, &raw_len);
    tu_assert_hex(raw, raw_len,
                  "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
    webcrypto_buffer_free(raw, raw_len);
    webcrypto_key_free(key);
    key = accept(GCM, NOH, "{\"kty\":\"oct\",\"alg\":\"A192GCM\",\"k\":\"" K192 "\"}", false,
                 WEBCRYPTO_USAGE_UNWRAP_KEY);
    webcrypto_key_free(key);
    /* HMAC: use "sig", key_ops superset, HS1 for SHA-1, unknown members. */
    key = accept(HMAC, S1,
                 "{\"use\":\"sig\",\"kty\":\"oct\",\"key_ops\":[\"verify\",\"sign\"],"
                 "\"alg\":\"HS1\",\"kid\":\"1\",\"k\":\"" K128 "\"}",
                 true, WEBCRYPTO_USAGE_VERIFY);
    assert_int_equal(webcrypto_key_get_hash(key), S1);
    assert_int_equal(webcrypto_key_get_length(key), 128);
    webcrypto_key_free(key);
    key = accept(HMAC, WEBCRYPTO_ALG_SHA_384,
                 "{\"kty\":\"oct\",\"alg\":\"HS384\",\"k\":\"" KRFC "\"}", false, SV);
    webcrypto_key_free(key);

    /* key_data is (pointer, length): bytes after the length are not read. */
    static const char padded[] = "{\"kty\":\"oct\",\"k\":\"" K128 "\"}garbage\"]}";
    webcrypto_params p = P(GCM, NOH);
    key = NULL;
    EXPECT(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, (const uint8_t *)padded,
                                strlen(padded) - strlen("garbage\"]}"), &p, false, ED, &key),
           WEBCRYPTO_OK);
    assert_same_encryption(GCM, key, ref);
    webcrypto_key_free(key);

    free(k16);
    webcrypto_key_free(ref);
}

/* ------------------------------------------------------------------------ */
/* Export refusals                                                          */

static void test_export_refusals(void **state) {
    (void)state;
    webcrypto_params p = P(GCM, NOH);
    p.length = 256;
    webcrypto_key *locked = NULL, *open = NULL;
    EXPECT(webcrypto_generate_key(tu_backend(), &p, false, ED, &locked), WEBCRYPTO_OK);
    EXPECT(webcrypto_generate_key(tu_backend(), &p, true, ED, &open), WEBCRYPTO_OK);
    webcrypto_params h = P(HMAC, S256);
    webcrypto_key *hlocked = NULL, *hopen = NULL;
    EXPECT(webcrypto_generate_key(tu_backend(), &h, false, SV, &hlocked), WEBCRYPTO_OK);
    EXPECT(webcrypto_generate_key(tu_backend(), &h, true, SV, &hopen), WEBCRYPTO_OK);

    uint8_t *out = NULL;
    size_t out_len = 0;
    const webcrypto_key *locked_keys[2] = {locked, hlocked};
    const webcrypto_key *open_keys[2] = {open, hopen};
    for (size_t i = 0; i < 2; i++) {
        /* A non-extractable key exports in no format. exportKey checks
         * [[extractable]] (InvalidAccessError) before it runs the export
         * operation, which is what rejects pkcs8/spki for a secret key. */
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, locked_keys[i], &out, &out_len),
               WEBCRYPTO_ERR_INVALID_ACCESS);
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, locked_keys[i], &out, &out_len),
               WEBCRYPTO_ERR_INVALID_ACCESS);
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, locked_keys[i], &out, &out_len),
               WEBCRYPTO_ERR_INVALID_ACCESS);
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, locked_keys[i], &out, &out_len),
               WEBCRYPTO_ERR_INVALID_ACCESS);
        /* An extractable secret key has no pkcs8/spki form. */
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, open_keys[i], &out, &out_len),
               WEBCRYPTO_ERR_NOT_SUPPORTED);
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, open_keys[i], &out, &out_len),
               WEBCRYPTO_ERR_NOT_SUPPORTED);
        assert_null(out);
        assert_int_equal(out_len, 0);
    }
    webcrypto_key_free(locked);
    webcrypto_key_free(open);
    webcrypto_key_free(hlocked);
    webcrypto_key_free(hopen);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_b64url_helper),
        cmocka_unit_test(test_aes_round_trip),
        cmocka_unit_test(test_hmac_round_trip),
        cmocka_unit_test(test_rfc7515_a1_hs256),
        cmocka_unit_test(test_rfc7517_a3_aes),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_jwk_error_order),
        cmocka_unit_test(test_acceptances),
        cmocka_unit_test(test_json_error_hides_key),
        cmocka_unit_test(test_export_refusals),
    };
    return tu_run_group("jwk", tests, NULL, NULL);
}
