/*
 * test_pkey_errors.c - bad input to the asymmetric algorithms through the
 * public API, and the error kind WebCrypto gives for each: malformed DER
 * (every prefix, trailing bytes, the wrong algorithm identifier or curve),
 * points off the curve or at infinity, malformed and inconsistent JWKs,
 * usages that do not fit the key, keys used for the wrong operation, ECDH and
 * X25519 peers that do not match, low-order X25519 points, RSA-OAEP
 * decryption failures (one error, one message), RSA generation limits,
 * missing members and impossible exports.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

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

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static void bytes_free(bytes *b) {
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

static bytes export_ok(webcrypto_key_format fmt, const webcrypto_key *k) {
    uint8_t *out = NULL;
    size_t n = 0;
    tu_assert_status(webcrypto_export_key(fmt, k, &out, &n), WEBCRYPTO_OK);
    bytes b = {malloc(n + 1), n};
    assert_non_null(b.p);
    memcpy(b.p, out, n);
    b.p[n] = 0;
    webcrypto_buffer_free(out, n);
    return b;
}

static const uint8_t F4[] = {0x01, 0x00, 0x01};

static webcrypto_params rsa_alg(webcrypto_algorithm name, webcrypto_algorithm hash, size_t bits) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    p.hash = hash;
    p.modulus_length = bits;
    p.public_exponent = F4;
    p.public_exponent_len = sizeof F4;
    return p;
}

static webcrypto_params alg2(webcrypto_algorithm name, webcrypto_named_curve curve) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    p.named_curve = curve;
    return p;
}

/* importKey that must fail with `want`, leaving *out untouched. */
#define EXPECT_IMPORT(fmt, data, len, params, usages, want)                                  \
    do {                                                                                     \
        webcrypto_key *k_ = NULL;                                                            \
        EXPECT(webcrypto_import_key(tu_backend(), (fmt), (data), (len), (params), true,      \
                                    (usages), &k_),                                          \
               (want));                                                                      \
        if ((want) != WEBCRYPTO_OK) assert_null(k_);                                         \
        webcrypto_key_free(k_);                                                              \
    } while (0)

static webcrypto_key *import_ok(webcrypto_key_format fmt, const uint8_t *data, size_t len,
                                const webcrypto_params *p, unsigned usages) {
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), fmt, data, len, p, true, usages, &k),
                     WEBCRYPTO_OK);
    return k;
}

/* ------------------------------------------------------------------------ */
/* Keys shared by the tests, made once                                      */
/* ------------------------------------------------------------------------ */

enum { K_RSA, K_P256, K_P384, K_P521, K_ECDH256, K_ECDH384, K_ED, K_X, K_OAEP_A, K_OAEP_B, K_N };

static struct {
    webcrypto_params p;
    unsigned usages;
    webcrypto_key *pub, *priv;
    bytes spki, pkcs8, jwk_pub, jwk_priv;
} K[K_N];

static int setup(void **state) {
    (void)state;
    const unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    const unsigned dh = WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY;
    const unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    K[K_RSA].p = rsa_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256, 1024);
    K[K_RSA].usages = sv;
    K[K_P256].p = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256);
    K[K_P256].usages = sv;
    K[K_P384].p = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P384);
    K[K_P384].usages = sv;
    K[K_P521].p = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P521);
    K[K_P521].usages = sv;
    K[K_ECDH256].p = alg2(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P256);
    K[K_ECDH256].usages = dh;
    K[K_ECDH384].p = alg2(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P384);
    K[K_ECDH384].usages = dh;
    K[K_ED].p = alg2(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE);
    K[K_ED].usages = sv;
    K[K_X].p = alg2(WEBCRYPTO_ALG_X25519, WEBCRYPTO_CURVE_NONE);
    K[K_X].usages = dh;
    K[K_OAEP_A].p = rsa_alg(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_256, 1024);
    K[K_OAEP_A].usages = ed;
    K[K_OAEP_B].p = K[K_OAEP_A].p;
    K[K_OAEP_B].usages = ed;
    for (size_t i = 0; i < K_N; i++) {
        webcrypto_status st = webcrypto_generate_key_pair(tu_backend(), &K[i].p, true, K[i].usages,
                                                          &K[i].pub, &K[i].priv);
        if (st != WEBCRYPTO_OK) {
            printf("setup: generateKey %zu: %s: %s\n", i, webcrypto_status_name(st),
                   webcrypto_error_message());
            return -1;
        }
        K[i].spki = export_ok(WEBCRYPTO_FORMAT_SPKI, K[i].pub);
        K[i].pkcs8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, K[i].priv);
        K[i].jwk_pub = export_ok(WEBCRYPTO_FORMAT_JWK, K[i].pub);
        K[i].jwk_priv = export_ok(WEBCRYPTO_FORMAT_JWK, K[i].priv);
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    for (size_t i = 0; i < K_N; i++) {
        webcrypto_key_free(K[i].pub);
        webcrypto_key_free(K[i].priv);
        bytes_free(&K[i].spki);
        bytes_free(&K[i].pkcs8);
        bytes_free(&K[i].jwk_pub);
        bytes_free(&K[i].jwk_priv);
    }
    return 0;
}

static unsigned pub_usages(size_t i) {
    return K[i].usages & (WEBCRYPTO_USAGE_VERIFY | WEBCRYPTO_USAGE_ENCRYPT);
}

static unsigned priv_usages(size_t i) {
    return K[i].usages & ~(unsigned)(WEBCRYPTO_USAGE_VERIFY | WEBCRYPTO_USAGE_ENCRYPT);
}

/* ------------------------------------------------------------------------ */
/* DER                                                                      */
/* ------------------------------------------------------------------------ */

static void test_truncated_and_trailing_der(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_X25519);
    for (size_t i = 0; i < K_N; i++) {
        if (i == K_OAEP_B) continue;
        const bytes *forms[2] = {&K[i].spki, &K[i].pkcs8};
        webcrypto_key_format fmts[2] = {WEBCRYPTO_FORMAT_SPKI, WEBCRYPTO_FORMAT_PKCS8};
        unsigned usages[2] = {pub_usages(i), priv_usages(i)};
        for (size_t f = 0; f < 2; f++) {
            const bytes *b = forms[f];
            /* the whole thing imports */
            webcrypto_key *k = import_ok(fmts[f], b->p, b->n, &K[i].p, usages[f]);
            webcrypto_key_free(k);
            /* every proper prefix is DataError */
            for (size_t len = 0; len < b->n; len++) {
                webcrypto_key *t = NULL;
                webcrypto_status st = webcrypto_import_key(tu_backend(), fmts[f], b->p, len,
                                                           &K[i].p, true, usages[f], &t);
                if (st != WEBCRYPTO_ERR_DATA)
                    fail_msg("key %zu format %d: a %zu-byte prefix of %zu gave %s (%s), "
                             "expected DataError",
                             i, (int)fmts[f], len, b->n, webcrypto_status_name(st),
                             webcrypto_error_message());
                assert_null(t);
            }
            /* anything after the outer SEQUENCE is DataError */
            uint8_t *longer = malloc(b->n + 2);
            assert_non_null(longer);
            memcpy(longer, b->p, b->n);
            longer[b->n] = 0x00;
            longer[b->n + 1] = 0x00;
            EXPECT_IMPORT(fmts[f], longer, b->n + 1, &K[i].p, usages[f], WEBCRYPTO_ERR_DATA);
            EXPECT_IMPORT(fmts[f], longer, b->n + 2, &K[i].p, usages[f], WEBCRYPTO_ERR_DATA);
            /* an outer length one too long (claims the trailing byte) */
            if (b->p[1] & 0x80) {
                /* long form: bump the last length byte */
                size_t nlen = b->p[1] & 0x7f;
                longer[1 + nlen]++;
                EXPECT_IMPORT(fmts[f], longer, b->n + 1, &K[i].p, usages[f],
                              WEBCRYPTO_ERR_DATA);
            } else {
                longer[1]++;
                EXPECT_IMPORT(fmts[f], longer, b->n + 1, &K[i].p, usages[f],
                              WEBCRYPTO_ERR_DATA);
            }
            free(longer);
        }
    }
}

static void test_wrong_algorithm_identifier(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_X25519);
    const unsigned v = WEBCRYPTO_USAGE_VERIFY, s = WEBCRYPTO_USAGE_SIGN;
    webcrypto_params p384 = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P384);
    webcrypto_params p256 = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256);
    webcrypto_params ed = alg2(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE);
    webcrypto_params x = alg2(WEBCRYPTO_ALG_X25519, WEBCRYPTO_CURVE_NONE);
    webcrypto_params pss = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_256, 0);
    webcrypto_params ecdh256 = alg2(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P256);

    /* RSA as EC / OKP, EC / OKP as RSA */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_RSA].spki.p, K[K_RSA].spki.n, &p256, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_RSA].pkcs8.p, K[K_RSA].pkcs8.n, &p256, s,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_RSA].spki.p, K[K_RSA].spki.n, &ed, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_P256].spki.p, K[K_P256].spki.n, &pss, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_ED].pkcs8.p, K[K_ED].pkcs8.n, &pss, s,
                  WEBCRYPTO_ERR_DATA);
    /* a key on another curve */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_P256].spki.p, K[K_P256].spki.n, &p384, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_P256].pkcs8.p, K[K_P256].pkcs8.n, &p384, s,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_P521].spki.p, K[K_P521].spki.n, &p256, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_P256].jwk_pub.p, K[K_P256].jwk_pub.n, &p384, v,
                  WEBCRYPTO_ERR_DATA);
    bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, K[K_P256].pub);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, raw.p, raw.n, &p384, v, WEBCRYPTO_ERR_DATA);
    bytes_free(&raw);
    /* Ed25519 and X25519 are different identifiers */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_ED].spki.p, K[K_ED].spki.n, &x, 0,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_X].pkcs8.p, K[K_X].pkcs8.n, &ed, s,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_ED].pkcs8.p, K[K_ED].pkcs8.n, &x,
                  WEBCRYPTO_USAGE_DERIVE_BITS, WEBCRYPTO_ERR_DATA);
    /* id-ecPublicKey serves ECDSA and ECDH alike: not an error */
    webcrypto_key *k = import_ok(WEBCRYPTO_FORMAT_SPKI, K[K_P256].spki.p, K[K_P256].spki.n,
                                 &ecdh256, 0);
    webcrypto_key_free(k);

    /* the RSA algorithm identifier with non-NULL parameters */
    bytes spki = {malloc(K[K_RSA].spki.n), K[K_RSA].spki.n};
    assert_non_null(spki.p);
    memcpy(spki.p, K[K_RSA].spki.p, spki.n);
    /* 30 81 9f 30 0d 06 09 <9-byte OID> 05 00: the NULL is at offset 16 */
    assert_int_equal(spki.p[15], 0x01);
    assert_int_equal(spki.p[16], 0x05);
    assert_int_equal(spki.p[17], 0x00);
    spki.p[16] = 0x04; /* an empty OCTET STRING instead of NULL */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &K[K_RSA].p, v, WEBCRYPTO_ERR_DATA);
    spki.p[16] = 0x05;
    spki.p[15] ^= 0x01; /* rsaEncryption's last arc changed (1.1.1 -> 1.1.0) */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &K[K_RSA].p, v, WEBCRYPTO_ERR_DATA);
    bytes_free(&spki);
}

/* ------------------------------------------------------------------------ */
/* EC points                                                                */
/* ------------------------------------------------------------------------ */

static void test_ec_points(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_X25519);
    const unsigned v = WEBCRYPTO_USAGE_VERIFY;
    size_t which[] = {K_P256, K_P384, K_P521};
    /* x with no point on the curve (x^3 - 3x + b not a square mod p), found
     * with python and checked to be refused by `openssl pkey -pubin`. */
    unsigned no_point_x[] = {1, 1, 3};
    for (size_t c = 0; c < 3; c++) {
        size_t i = which[c];
        bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, K[i].pub);
        size_t fs = (raw.n - 1) / 2;

        /* y changed: off the curve (raw, spki and jwk) */
        raw.p[raw.n - 1] ^= 0x01;
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, raw.p, raw.n, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        bytes spki = {malloc(K[i].spki.n), K[i].spki.n};
        assert_non_null(spki.p);
        memcpy(spki.p, K[i].spki.p, spki.n);
        spki.p[spki.n - 1] ^= 0x01; /* the point ends the SPKI */
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        bytes_free(&spki);
        raw.p[raw.n - 1] ^= 0x01;

        /* (0, 0), and x = y = p - 1 .. all ff (beyond the field) */
        uint8_t pt[133];
        memset(pt, 0, sizeof pt);
        pt[0] = 0x04;
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + 2 * fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        memset(pt + 1, 0xff, 2 * fs);
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + 2 * fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);

        /* the point at infinity: the single byte 00 */
        uint8_t inf = 0x00;
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, &inf, 1, &K[i].p, v, WEBCRYPTO_ERR_DATA);

        /* wrong prefixes and lengths */
        memcpy(pt, raw.p, raw.n);
        pt[0] = 0x06; /* SEC1's hybrid form: not a WebCrypto format */
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, raw.n, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        pt[0] = 0x07;
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, raw.n, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        pt[0] = 0x02; /* compressed prefix on an uncompressed length */
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, raw.n, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        pt[0] = 0x04;
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, raw.n - 1, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 0, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        pt[0] = 0x05; /* no such prefix */
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);

        /* compressed: an x with no point, and x beyond the field */
        memset(pt, 0, sizeof pt);
        pt[0] = 0x02;
        pt[fs] = (uint8_t)no_point_x[c];
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        pt[0] = 0x03;
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        memset(pt + 1, 0xff, fs);
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, 1 + fs, &K[i].p, v, WEBCRYPTO_ERR_DATA);
        /* and a private key from a raw point is not a thing */
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, raw.p, raw.n, &K[i].p, WEBCRYPTO_USAGE_SIGN,
                      WEBCRYPTO_ERR_SYNTAX);
        bytes_free(&raw);
    }

    /* P-521 coordinates plus p (p = 2^521 - 1 fits 66 bytes with room to
     * spare, so x + p and y + p are encodable): SEC1 wants them below p.
     * On the EVP backends the core-side check names the reason (the
     * libraries would refuse them too, as a decoding error). */
    {
        bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, K[K_P521].pub);
        const size_t fs = 66;
        assert_int_equal(raw.n, 1 + 2 * fs);
        const char *bname = webcrypto_backend_name(tu_backend());
        bool evp = strcmp(bname, "openssl") == 0 || strcmp(bname, "boringssl") == 0;
        for (size_t coord = 0; coord < 2; coord++) {
            uint8_t pt[1 + 2 * 66];
            memcpy(pt, raw.p, raw.n);
            uint8_t *c = pt + 1 + coord * fs;
            /* c += 2^521 - 1, big-endian: add 2^521 (bit 1 of byte 0), then
             * subtract 1 */
            c[0] = (uint8_t)(c[0] + 2);
            for (size_t b = fs; b-- > 0;) {
                if (c[b]-- != 0) break; /* no borrow further */
            }
            EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, pt, raw.n, &K[K_P521].p, v, WEBCRYPTO_ERR_DATA);
            if (evp && !strstr(webcrypto_error_message(), "not below the field prime"))
                fail_msg("P-521 %s + p: unexpected message: %s", coord ? "y" : "x",
                         webcrypto_error_message());
        }
        bytes_free(&raw);
    }

    /* P-256 SPKI holding the point at infinity (BIT STRING 00 || 00) */
    size_t n = 0;
    uint8_t *inf_spki =
        tu_unhex("3019301306072a8648ce3d020106082a8648ce3d03010703020000", &n);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, inf_spki, n, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA);
    free(inf_spki);
}

/* ------------------------------------------------------------------------ */
/* JWK                                                                      */
/* ------------------------------------------------------------------------ */

/* The JSON text of j, imported with (params, usages): must give want. */
static void expect_jwk(json_t *j, const webcrypto_params *p, unsigned usages,
                       webcrypto_status want, const char *what) {
    char *s = json_dumps(j, JSON_COMPACT);
    assert_non_null(s);
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                               (const uint8_t *)s, strlen(s), p, true, usages, &k);
    if (st != want)
        fail_msg("%s: importKey(jwk %s) gave %s (%s), expected %s", what, s,
                 webcrypto_status_name(st), webcrypto_error_message(),
                 webcrypto_status_name(want));
    if (want != WEBCRYPTO_OK) {
        assert_null(k);
        if (webcrypto_error_message()[0] == '\0') fail_msg("%s: empty error message", what);
    }
    webcrypto_key_free(k);
    free(s);
}

static json_t *jwk_of(const bytes *b) {
    json_error_t err;
    json_t *j = json_loadb((const char *)b->p, b->n, 0, &err);
    if (!j) fail_msg("exported JWK does not parse: %s", err.text);
    return j;
}

static void test_jwk_garbage(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_X25519);
    const unsigned v = WEBCRYPTO_USAGE_VERIFY;
    const char *bad[] = {
        "",
        "not json",
        "[]",
        "\"a string\"",
        "null",
        "{}",
        "{\"kty\":\"EC\"}",
        "{\"kty\":\"EC\",\"crv\":\"P-256\"}",
        "{\"kty\":1,\"crv\":\"P-256\",\"x\":\"AA\",\"y\":\"AA\"}",
        "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"AA\",\"y\":\"AA\"}", /* 1-byte coordinates */
        "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"AA\",\"y\":\"AA\"", /* unterminated */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, (const uint8_t *)bad[i], strlen(bad[i]),
                      &K[K_P256].p, v, WEBCRYPTO_ERR_DATA);
    }

    /* Corrupt members of a valid public EC JWK, one at a time. */
    json_t *base = jwk_of(&K[K_P256].jwk_pub);
    const char *x = json_string_value(json_object_get(base, "x"));
    assert_non_null(x);
    char buf[200];
    struct {
        const char *member;
        json_t *value; /* NULL: delete */
    } edits[] = {
        {"x", NULL},
        {"y", NULL},
        {"kty", NULL},
        {"crv", NULL},
        {"x", json_string("")},
        {"x", json_string("***not base64url***")},
        {"x", json_integer(5)},
        {"crv", json_string("P-256K")},
        {"crv", json_string("p-256")},
        {"kty", json_string("ec")},
        {"ext", json_string("true")},
        {"key_ops", json_string("verify")},
    };
    snprintf(buf, sizeof buf, "%s=", x); /* base64 padding is not base64url */
    json_t *padded = json_string(buf);
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        json_t *j = json_deep_copy(base);
        if (edits[i].value)
            json_object_set_new(j, edits[i].member, edits[i].value);
        else
            json_object_del(j, edits[i].member);
        expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA, edits[i].member);
        json_decref(j);
    }
    json_t *j = json_deep_copy(base);
    json_object_set_new(j, "x", padded);
    expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA, "padded x");
    json_decref(j);
    /* x with one byte too many (a leading zero): DataError */
    bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, K[K_P256].pub);
    j = json_deep_copy(base);
    {
        static const char B64[] =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        uint8_t x33[33] = {0};
        memcpy(x33 + 1, raw.p + 1, 32);
        char s[48];
        size_t o = 0;
        for (size_t i = 0; i < 33; i += 3) {
            uint32_t w = (uint32_t)x33[i] << 16 | (uint32_t)x33[i + 1] << 8 | x33[i + 2];
            for (int q = 0; q < 4; q++) s[o++] = B64[(w >> (18 - 6 * q)) & 63];
        }
        s[o] = 0;
        json_object_set_new(j, "x", json_string(s));
    }
    expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA, "33-byte x");
    json_decref(j);
    bytes_free(&raw);
    /* ext false with extractable requested; key_ops not covering the usages;
     * use "enc" on a signature key */
    j = json_deep_copy(base);
    json_object_set_new(j, "ext", json_false());
    expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA, "ext false");
    json_decref(j);
    j = json_deep_copy(base);
    json_object_set_new(j, "key_ops", json_pack("[s]", "sign"));
    expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA, "key_ops [sign]");
    json_decref(j);
    j = json_deep_copy(base);
    json_object_set_new(j, "use", json_string("enc"));
    expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_ERR_DATA, "use enc");
    json_decref(j);
    /* use "sig" is fine */
    j = json_deep_copy(base);
    json_object_set_new(j, "use", json_string("sig"));
    expect_jwk(j, &K[K_P256].p, v, WEBCRYPTO_OK, "use sig");
    json_decref(j);
    json_decref(base);
}

static void test_jwk_private_members(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_X25519);
    const unsigned v = WEBCRYPTO_USAGE_VERIFY, s = WEBCRYPTO_USAGE_SIGN;
    /* RSA: a public JWK with a private member but no d */
    static const char *const privs[] = {"p", "q", "dp", "dq", "qi"};
    json_t *pub = jwk_of(&K[K_RSA].jwk_pub), *priv = jwk_of(&K[K_RSA].jwk_priv);
    for (size_t i = 0; i < 5; i++) {
        json_t *j = json_deep_copy(pub);
        json_object_set(j, privs[i], json_object_get(priv, privs[i]));
        expect_jwk(j, &K[K_RSA].p, v, WEBCRYPTO_ERR_DATA, privs[i]);
        json_decref(j);
    }
    /* a private JWK missing one of them */
    for (size_t i = 0; i < 5; i++) {
        json_t *j = json_deep_copy(priv);
        json_object_del(j, privs[i]);
        expect_jwk(j, &K[K_RSA].p, s, WEBCRYPTO_ERR_DATA, privs[i]);
        json_decref(j);
    }
    /* inconsistent RSA private key: q swapped for another key's q */
    json_t *other = jwk_of(&K[K_OAEP_B].jwk_priv);
    json_t *j = json_deep_copy(priv);
    json_object_set(j, "q", json_object_get(other, "q"));
    expect_jwk(j, &K[K_RSA].p, s, WEBCRYPTO_ERR_DATA, "another key's q");
    json_decref(j);
    j = json_deep_copy(priv);
    json_object_set(j, "d", json_object_get(other, "d"));
    expect_jwk(j, &K[K_RSA].p, s, WEBCRYPTO_ERR_DATA, "another key's d");
    json_decref(j);
    json_decref(other);
    json_decref(pub);
    json_decref(priv);

    /* EC: d with another key's x and y */
    json_t *a = jwk_of(&K[K_P256].jwk_priv);
    json_t *b = jwk_of(&K[K_ECDH256].jwk_priv);
    json_object_set(a, "d", json_object_get(b, "d"));
    expect_jwk(a, &K[K_P256].p, s, WEBCRYPTO_ERR_DATA, "EC d of another key");
    json_decref(a);
    json_decref(b);
    /* OKP: d with another key's x */
    json_t *e = jwk_of(&K[K_ED].jwk_priv);
    json_t *f = jwk_of(&K[K_ED].jwk_pub);
    webcrypto_key *pub2 = NULL, *priv2 = NULL;
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &K[K_ED].p, true, s | v, &pub2,
                                                 &priv2),
                     WEBCRYPTO_OK);
    bytes other_pub = export_ok(WEBCRYPTO_FORMAT_JWK, pub2);
    json_t *g = jwk_of(&other_pub);
    json_object_set(e, "x", json_object_get(g, "x"));
    expect_jwk(e, &K[K_ED].p, s, WEBCRYPTO_ERR_DATA, "Ed25519 d with another key's x");
    json_decref(e);
    json_decref(f);
    json_decref(g);
    bytes_free(&other_pub);
    webcrypto_key_free(pub2);
    webcrypto_key_free(priv2);
}

static void test_jwk_mismatches(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_RSA_PSS);
    const unsigned v = WEBCRYPTO_USAGE_VERIFY, s = WEBCRYPTO_USAGE_SIGN;
    /* crv */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_P384].jwk_pub.p, K[K_P384].jwk_pub.n, &K[K_P256].p,
                  v, WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_X].jwk_pub.p, K[K_X].jwk_pub.n, &K[K_ED].p, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_ED].jwk_pub.p, K[K_ED].jwk_pub.n, &K[K_X].p, 0,
                  WEBCRYPTO_ERR_DATA);
    /* kty */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_P256].jwk_pub.p, K[K_P256].jwk_pub.n, &K[K_RSA].p,
                  v, WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_pub.p, K[K_RSA].jwk_pub.n, &K[K_P256].p, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_ED].jwk_pub.p, K[K_ED].jwk_pub.n, &K[K_P256].p, v,
                  WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_priv.p, K[K_RSA].jwk_priv.n, &K[K_ED].p, s,
                  WEBCRYPTO_ERR_DATA);
    /* alg: RS256 is not RSASSA with SHA-384, nor RSA-PSS; ES256 is not P-384 */
    webcrypto_params rs384 = rsa_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_384, 0);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_pub.p, K[K_RSA].jwk_pub.n, &rs384, v,
                  WEBCRYPTO_ERR_DATA);
    webcrypto_params ps256 = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_256, 0);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_pub.p, K[K_RSA].jwk_pub.n, &ps256, v,
                  WEBCRYPTO_ERR_DATA);
    webcrypto_params oaep = rsa_alg(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_256, 0);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_pub.p, K[K_RSA].jwk_pub.n, &oaep,
                  WEBCRYPTO_USAGE_ENCRYPT, WEBCRYPTO_ERR_DATA);
    json_t *j = jwk_of(&K[K_P384].jwk_pub);
    json_object_set_new(j, "alg", json_string("ES256"));
    expect_jwk(j, &K[K_P384].p, v, WEBCRYPTO_ERR_DATA, "ES256 on P-384");
    json_decref(j);
    j = jwk_of(&K[K_ED].jwk_pub);
    json_object_set_new(j, "alg", json_string("ES256"));
    expect_jwk(j, &K[K_ED].p, v, WEBCRYPTO_ERR_DATA, "ES256 on Ed25519");
    json_object_set_new(j, "alg", json_string("ed25519")); /* case matters */
    expect_jwk(j, &K[K_ED].p, v, WEBCRYPTO_ERR_DATA, "ed25519 on Ed25519");
    json_decref(j);
    /* without alg the RSA JWK takes the hash it is imported with */
    j = jwk_of(&K[K_RSA].jwk_pub);
    json_object_del(j, "alg");
    expect_jwk(j, &rs384, v, WEBCRYPTO_OK, "RSA without alg");
    json_decref(j);
    /* ECDH defines no JWK alg: whatever is there is not checked */
    j = jwk_of(&K[K_ECDH256].jwk_pub);
    json_object_set_new(j, "alg", json_string("ECDH-ES"));
    expect_jwk(j, &K[K_ECDH256].p, 0, WEBCRYPTO_OK, "ECDH with alg ECDH-ES");
    json_decref(j);
}

/* Ed448 and X448: a private JWK whose x is another key's is DataError (the
 * backend derives the public key from d and compares); with its own x, or
 * as PKCS #8 (no x), it imports and exports the generated public key. */
static void test_okp448_jwk_mismatch(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED448, WEBCRYPTO_ALG_X448);
    static const struct {
        webcrypto_algorithm alg;
        unsigned usages, priv_usage;
    } cases[] = {
        {WEBCRYPTO_ALG_ED448, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN},
        {WEBCRYPTO_ALG_X448, WEBCRYPTO_USAGE_DERIVE_BITS, WEBCRYPTO_USAGE_DERIVE_BITS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        webcrypto_params p = alg2(cases[i].alg, WEBCRYPTO_CURVE_NONE);
        webcrypto_key *pub1 = NULL, *priv1 = NULL, *pub2 = NULL, *priv2 = NULL;
        tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &p, true, cases[i].usages,
                                                     &pub1, &priv1),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &p, true, cases[i].usages,
                                                     &pub2, &priv2),
                         WEBCRYPTO_OK);
        bytes j1 = export_ok(WEBCRYPTO_FORMAT_JWK, priv1), j2 = export_ok(WEBCRYPTO_FORMAT_JWK, pub2);
        json_t *a = jwk_of(&j1), *b = jwk_of(&j2);
        json_t *mixed = json_deep_copy(a);
        json_object_set(mixed, "x", json_object_get(b, "x"));
        expect_jwk(mixed, &p, cases[i].priv_usage, WEBCRYPTO_ERR_DATA,
                   cases[i].alg == WEBCRYPTO_ALG_ED448 ? "Ed448 d with another key's x"
                                                       : "X448 d with another key's x");
        expect_jwk(a, &p, cases[i].priv_usage, WEBCRYPTO_OK, "its own x");
        /* PKCS #8 carries no public key: it is derived, and equals pub1's. */
        bytes p8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, priv1), raw1 = export_ok(WEBCRYPTO_FORMAT_RAW, pub1);
        webcrypto_key *k = NULL;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_PKCS8, p8.p, p8.n, &p,
                                              true, cases[i].priv_usage, &k),
                         WEBCRYPTO_OK);
        webcrypto_key *kp = NULL;
        tu_assert_status(webcrypto_get_public_key(k, cases[i].alg == WEBCRYPTO_ALG_ED448
                                                         ? WEBCRYPTO_USAGE_VERIFY
                                                         : 0,
                                                  &kp),
                         WEBCRYPTO_OK);
        bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, kp);
        assert_int_equal(raw.n, cases[i].alg == WEBCRYPTO_ALG_ED448 ? 57 : 56);
        assert_int_equal(raw.n, raw1.n);
        assert_memory_equal(raw.p, raw1.p, raw.n);
        bytes_free(&raw);
        bytes_free(&raw1);
        bytes_free(&p8);
        webcrypto_key_free(kp);
        webcrypto_key_free(k);
        json_decref(mixed);
        json_decref(a);
        json_decref(b);
        bytes_free(&j1);
        bytes_free(&j2);
        webcrypto_key_free(pub1);
        webcrypto_key_free(priv1);
        webcrypto_key_free(pub2);
        webcrypto_key_free(priv2);
    }
}

/* ------------------------------------------------------------------------ */
/* Usages                                                                   */
/* ------------------------------------------------------------------------ */

static void test_import_usages(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_X25519);
    const unsigned v = WEBCRYPTO_USAGE_VERIFY, s = WEBCRYPTO_USAGE_SIGN;
    /* JWK with d and a public usage; without d and a private usage */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_P256].jwk_priv.p, K[K_P256].jwk_priv.n, &K[K_P256].p,
                  v, WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_P256].jwk_priv.p, K[K_P256].jwk_priv.n, &K[K_P256].p,
                  s | v, WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_P256].jwk_pub.p, K[K_P256].jwk_pub.n, &K[K_P256].p, s,
                  WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_priv.p, K[K_RSA].jwk_priv.n, &K[K_RSA].p, v,
                  WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_ED].jwk_priv.p, K[K_ED].jwk_priv.n, &K[K_ED].p, v,
                  WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_ECDH256].jwk_pub.p, K[K_ECDH256].jwk_pub.n,
                  &K[K_ECDH256].p, WEBCRYPTO_USAGE_DERIVE_BITS, WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_OAEP_A].jwk_pub.p, K[K_OAEP_A].jwk_pub.n,
                  &K[K_OAEP_A].p, WEBCRYPTO_USAGE_DECRYPT, WEBCRYPTO_ERR_SYNTAX);
    /* spki / raw with private usages, pkcs8 with public ones */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_RSA].spki.p, K[K_RSA].spki.n, &K[K_RSA].p, s,
                  WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_X].spki.p, K[K_X].spki.n, &K[K_X].p,
                  WEBCRYPTO_USAGE_DERIVE_KEY, WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_P384].pkcs8.p, K[K_P384].pkcs8.n, &K[K_P384].p, v,
                  WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_OAEP_A].pkcs8.p, K[K_OAEP_A].pkcs8.n,
                  &K[K_OAEP_A].p, WEBCRYPTO_USAGE_ENCRYPT, WEBCRYPTO_ERR_SYNTAX);
    /* usages the algorithm never has */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_RSA].pkcs8.p, K[K_RSA].pkcs8.n, &K[K_RSA].p,
                  WEBCRYPTO_USAGE_DECRYPT, WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_ED].pkcs8.p, K[K_ED].pkcs8.n, &K[K_ED].p,
                  WEBCRYPTO_USAGE_DERIVE_BITS, WEBCRYPTO_ERR_SYNTAX);
    /* a private key with no usage at all */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_PKCS8, K[K_P256].pkcs8.p, K[K_P256].pkcs8.n, &K[K_P256].p, 0,
                  WEBCRYPTO_ERR_SYNTAX);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_X].jwk_priv.p, K[K_X].jwk_priv.n, &K[K_X].p, 0,
                  WEBCRYPTO_ERR_SYNTAX);
    /* a public key with no usage is fine */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_P256].spki.p, K[K_P256].spki.n, &K[K_P256].p, 0,
                  WEBCRYPTO_OK);
}

/* ------------------------------------------------------------------------ */
/* Keys used for the wrong operation                                        */
/* ------------------------------------------------------------------------ */

static void test_key_type_vs_operation(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_RSA_PSS);
    static const uint8_t msg[] = "message";
    uint8_t out[256];
    memset(out, 0, sizeof out);
    size_t n = 0;
    bool valid = true;
    webcrypto_params rs = WEBCRYPTO_PARAMS_INIT;
    rs.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5;
    webcrypto_params ec = WEBCRYPTO_PARAMS_INIT;
    ec.name = WEBCRYPTO_ALG_ECDSA;
    ec.hash = WEBCRYPTO_ALG_SHA_256;
    webcrypto_params ed = WEBCRYPTO_PARAMS_INIT;
    ed.name = WEBCRYPTO_ALG_ED25519;
    webcrypto_params oaep = WEBCRYPTO_PARAMS_INIT;
    oaep.name = WEBCRYPTO_ALG_RSA_OAEP;

    /* sign with the public key (usage verify), verify with the private key */
    EXPECT(webcrypto_sign(&rs, K[K_RSA].pub, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_sign(&ec, K[K_P256].pub, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_sign(&ed, K[K_ED].pub, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_verify(&rs, K[K_RSA].priv, out, 128, msg, sizeof msg, &valid),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_verify(&ed, K[K_ED].priv, out, 64, msg, sizeof msg, &valid),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    /* encrypt with the private key, decrypt with the public key */
    EXPECT(webcrypto_encrypt(&oaep, K[K_OAEP_A].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_decrypt(&oaep, K[K_OAEP_A].pub, out, 128, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    /* the algorithm named is not the key's */
    EXPECT(webcrypto_sign(&ec, K[K_RSA].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_params pss = WEBCRYPTO_PARAMS_INIT;
    pss.name = WEBCRYPTO_ALG_RSA_PSS;
    EXPECT(webcrypto_sign(&pss, K[K_RSA].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_sign(&ed, K[K_P256].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    /* an operation the algorithm does not have */
    EXPECT(webcrypto_encrypt(&rs, K[K_RSA].pub, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    EXPECT(webcrypto_sign(&oaep, K[K_OAEP_A].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* ECDSA needs a hash per call */
    webcrypto_params nohash = ec;
    nohash.hash = WEBCRYPTO_ALG_NONE;
    EXPECT(webcrypto_sign(&nohash, K[K_P256].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    EXPECT(webcrypto_verify(&nohash, K[K_P256].pub, out, 64, msg, sizeof msg, &valid),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    nohash.hash = WEBCRYPTO_ALG_AES_GCM;
    EXPECT(webcrypto_sign(&nohash, K[K_P256].priv, msg, sizeof msg, out, sizeof out, &n),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* a short output buffer is the C API's TypeError, with the size needed */
    n = 0;
    EXPECT(webcrypto_sign(&ec, K[K_P256].priv, msg, sizeof msg, out, 63, &n),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(n, 64);
    /* ECDSA signatures of the wrong size verify false, not an error */
    memset(out, 0x11, sizeof out);
    for (size_t len = 0; len <= 130; len += 13) {
        valid = true;
        EXPECT(webcrypto_verify(&ec, K[K_P256].pub, out, len, msg, sizeof msg, &valid),
               WEBCRYPTO_OK);
        assert_false(valid);
    }
    valid = true;
    EXPECT(webcrypto_verify(&ed, K[K_ED].pub, out, 63, msg, sizeof msg, &valid), WEBCRYPTO_OK);
    assert_false(valid);
    valid = true;
    EXPECT(webcrypto_verify(&rs, K[K_RSA].pub, out, 127, msg, sizeof msg, &valid), WEBCRYPTO_OK);
    assert_false(valid);
    /* incremental sign is HMAC only here */
    webcrypto_sign_ctx *ctx = NULL;
    EXPECT(webcrypto_sign_init(&ed, K[K_ED].priv, &ctx), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(ctx);
}

/* ------------------------------------------------------------------------ */
/* ECDH / X25519 peers, lengths and low-order points                        */
/* ------------------------------------------------------------------------ */

static void test_derive_peer_errors(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_X25519);
    uint8_t out[66];
    webcrypto_params dh = WEBCRYPTO_PARAMS_INIT;
    dh.name = WEBCRYPTO_ALG_ECDH;
    /* another curve, another algorithm, a private key as the peer */
    dh.public_key = K[K_ECDH384].pub;
    size_t dlen = 0;
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    dh.public_key = K[K_P256].pub; /* ECDSA P-256 */
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    dh.public_key = K[K_X].pub;
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    dh.public_key = K[K_ECDH256].priv;
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    dh.public_key = NULL; /* a required member */
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* the base key must be the private key with deriveBits */
    dh.public_key = K[K_ECDH256].pub;
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].pub, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_params x = WEBCRYPTO_PARAMS_INIT;
    x.name = WEBCRYPTO_ALG_X25519;
    x.public_key = K[K_ECDH256].pub;
    EXPECT(webcrypto_derive_bits(&x, K[K_X].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    /* the algorithm named is not the key's */
    x.public_key = K[K_X].pub;
    EXPECT(webcrypto_derive_bits(&x, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    /* deriveBits asked of a key that only has deriveKey */
    webcrypto_key *pub = NULL, *priv = NULL;
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &K[K_X].p, false,
                                                 WEBCRYPTO_USAGE_DERIVE_KEY, &pub, &priv),
                     WEBCRYPTO_OK);
    EXPECT(webcrypto_derive_bits(&x, priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);

    /* more bits than the secret has: OperationError; a short buffer */
    dh.public_key = K[K_ECDH256].pub;
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, 257, out, sizeof out, &dlen),
           WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&x, K[K_X].priv, 264, out, sizeof out, &dlen), WEBCRYPTO_ERR_OPERATION);
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, WEBCRYPTO_LENGTH_FULL, out, 31, &dlen),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    EXPECT(webcrypto_derive_bits(&dh, K[K_ECDH256].priv, 129, out, 16, &dlen),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* deriveKey wanting more than the secret: AES-256 from... HMAC SHA-512's
     * default length is 1024 bits, beyond P-256's 256 */
    webcrypto_params hm = WEBCRYPTO_PARAMS_INIT;
    hm.name = WEBCRYPTO_ALG_HMAC;
    hm.hash = WEBCRYPTO_ALG_SHA_512;
    webcrypto_key *dk = NULL;
    EXPECT(webcrypto_derive_key(&dh, K[K_ECDH256].priv, &hm, true, WEBCRYPTO_USAGE_SIGN, &dk),
           WEBCRYPTO_ERR_OPERATION);
    assert_null(dk);
}

static void test_x25519_low_order(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_X25519);
    /* Points whose X25519 product is zero for every scalar: u = 0, 1, the
     * order-8 points of RFC 7748 / Wycheproof, p - 1, p and p + 1 (the last
     * two non-canonical forms of 0 and 1). WebCrypto: OperationError. */
    static const char *const low[] = {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    };
    webcrypto_params x = WEBCRYPTO_PARAMS_INIT;
    x.name = WEBCRYPTO_ALG_X25519;
    for (size_t i = 0; i < sizeof low / sizeof low[0]; i++) {
        size_t n = 0;
        uint8_t *u = tu_unhex(low[i], &n);
        /* the import itself is fine: only 32 bytes are required */
        webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_RAW, u, n, &x, 0);
        x.public_key = pub;
        uint8_t out[32];
        memset(out, 0xa5, sizeof out);
        size_t dlen = 0;
        webcrypto_status st = webcrypto_derive_bits(&x, K[K_X].priv, WEBCRYPTO_LENGTH_FULL, out,
                                                    sizeof out, &dlen);
        if (st != WEBCRYPTO_ERR_OPERATION)
            fail_msg("X25519 with low-order u=%s gave %s, expected OperationError", low[i],
                     webcrypto_status_name(st));
        for (size_t b = 0; b < sizeof out; b++)
            if (out[b] != 0xa5 && out[b] != 0) fail_msg("output written on failure");
        EXPECT(webcrypto_derive_bits(&x, K[K_X].priv, 128, out, sizeof out, &dlen),
               WEBCRYPTO_ERR_OPERATION);
        webcrypto_params aes = WEBCRYPTO_PARAMS_INIT;
        aes.name = WEBCRYPTO_ALG_AES_GCM;
        aes.length = 128;
        webcrypto_key *dk = NULL;
        EXPECT(webcrypto_derive_key(&x, K[K_X].priv, &aes, true, WEBCRYPTO_USAGE_ENCRYPT, &dk),
               WEBCRYPTO_ERR_OPERATION);
        assert_null(dk);
        webcrypto_key_free(pub);
        free(u);
    }
    /* wrong sizes at import */
    uint8_t b33[33] = {9};
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, b33, 31, &x, 0, WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, b33, 33, &x, 0, WEBCRYPTO_ERR_DATA);
    webcrypto_params ed = WEBCRYPTO_PARAMS_INIT;
    ed.name = WEBCRYPTO_ALG_ED25519;
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, b33, 31, &ed, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_DATA);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, b33, 33, &ed, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_DATA);
}

/* ------------------------------------------------------------------------ */
/* RSA-OAEP failures                                                        */
/* ------------------------------------------------------------------------ */

/* Decrypts and expects OperationError with no plaintext left in out;
 * returns a copy of the message. */
static char *decrypt_fails(const webcrypto_params *p, const webcrypto_key *k, const uint8_t *ct,
                           size_t len) {
    uint8_t out[128];
    memset(out, 0xa5, sizeof out);
    size_t n = 12345;
    EXPECT(webcrypto_decrypt(p, k, ct, len, out, sizeof out, &n), WEBCRYPTO_ERR_OPERATION);
    for (size_t i = 0; i < sizeof out; i++)
        if (out[i] != 0xa5 && out[i] != 0) fail_msg("decrypt failed but left data in out");
    char *m = strdup(webcrypto_error_message());
    assert_non_null(m);
    return m;
}

static void test_rsa_oaep_failures(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_RSA_PSS);
    static const uint8_t label[] = "label";
    static const uint8_t msg[] = "secret message";
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_RSA_OAEP;
    p.label = label;
    p.label_len = sizeof label;
    uint8_t ct[128];
    size_t n = 0;
    EXPECT(webcrypto_encrypt(&p, K[K_OAEP_A].pub, msg, sizeof msg, ct, sizeof ct, &n),
           WEBCRYPTO_OK);
    assert_int_equal(n, 128);

    webcrypto_params wrong_label = p;
    static const uint8_t other[] = "lebal";
    wrong_label.label = other;
    wrong_label.label_len = sizeof other;
    char *m1 = decrypt_fails(&wrong_label, K[K_OAEP_A].priv, ct, sizeof ct);
    webcrypto_params no_label = p;
    no_label.label = NULL;
    no_label.label_len = 0;
    char *m2 = decrypt_fails(&no_label, K[K_OAEP_A].priv, ct, sizeof ct);
    ct[60] ^= 0x10;
    char *m3 = decrypt_fails(&p, K[K_OAEP_A].priv, ct, sizeof ct);
    ct[60] ^= 0x10;
    char *m4 = decrypt_fails(&p, K[K_OAEP_B].priv, ct, sizeof ct);
    ct[0] ^= 0x01;
    char *m5 = decrypt_fails(&p, K[K_OAEP_A].priv, ct, sizeof ct);
    ct[0] ^= 0x01;
    /* one message for all: it must not say which check failed */
    assert_string_equal(m1, m2);
    assert_string_equal(m1, m3);
    assert_string_equal(m1, m4);
    assert_string_equal(m1, m5);
    free(m1);
    free(m2);
    free(m3);
    free(m4);
    free(m5);
    /* the original still decrypts */
    uint8_t out[128];
    EXPECT(webcrypto_decrypt(&p, K[K_OAEP_A].priv, ct, sizeof ct, out, sizeof out, &n),
           WEBCRYPTO_OK);
    assert_int_equal(n, sizeof msg);
    assert_memory_equal(out, msg, sizeof msg);

    /* ciphertexts of the wrong length, and one beyond the modulus */
    free(decrypt_fails(&p, K[K_OAEP_A].priv, ct, 127));
    uint8_t big[129];
    memset(big, 0xff, sizeof big);
    free(decrypt_fails(&p, K[K_OAEP_A].priv, big, 128));
    free(decrypt_fails(&p, K[K_OAEP_A].priv, big, 129));
    free(decrypt_fails(&p, K[K_OAEP_A].priv, big, 0));

    /* plaintext too long for the key: 128 - 2 * 32 - 2 = 62 bytes at most */
    uint8_t m63[63] = {0};
    EXPECT(webcrypto_encrypt(&p, K[K_OAEP_A].pub, m63, 62, ct, sizeof ct, &n), WEBCRYPTO_OK);
    EXPECT(webcrypto_encrypt(&p, K[K_OAEP_A].pub, m63, 63, ct, sizeof ct, &n),
           WEBCRYPTO_ERR_OPERATION);
    /* RSA-PSS: a salt that does not fit (128 - 32 - 2 = 94 bytes at most) */
    webcrypto_params pk = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_256, 0);
    webcrypto_key *pss = import_ok(WEBCRYPTO_FORMAT_PKCS8, K[K_RSA].pkcs8.p, K[K_RSA].pkcs8.n, &pk,
                                   WEBCRYPTO_USAGE_SIGN);
    webcrypto_params ps = WEBCRYPTO_PARAMS_INIT;
    ps.name = WEBCRYPTO_ALG_RSA_PSS;
    ps.salt_length = 95;
    EXPECT(webcrypto_sign(&ps, pss, msg, sizeof msg, ct, sizeof ct, &n), WEBCRYPTO_ERR_OPERATION);
    ps.salt_length = 94;
    EXPECT(webcrypto_sign(&ps, pss, msg, sizeof msg, ct, sizeof ct, &n), WEBCRYPTO_OK);
    webcrypto_key_free(pss);
}

/* ------------------------------------------------------------------------ */
/* Generation limits and missing members                                    */
/* ------------------------------------------------------------------------ */

static void expect_generate(const webcrypto_params *p, unsigned usages, webcrypto_status want) {
    webcrypto_key *pub = NULL, *priv = NULL;
    EXPECT(webcrypto_generate_key_pair(tu_backend(), p, true, usages, &pub, &priv), want);
    assert_null(pub);
    assert_null(priv);
}

static void test_rsa_generate_limits(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_OAEP);
    const unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    webcrypto_params p = rsa_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256, 255);
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.modulus_length = 248;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.modulus_length = 16392;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.modulus_length = 1004; /* not a multiple of 8 (1000 is one) */
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.modulus_length = 1025;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.modulus_length = 1024;
    static const uint8_t e5[] = {0x05}, e17[] = {0x11}, e2[] = {0x02};
    static const uint8_t e_big[] = {0x01, 0x00, 0x00, 0x01};
    p.public_exponent = e5;
    p.public_exponent_len = 1;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.public_exponent = e17;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.public_exponent = e2;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    p.public_exponent = e_big;
    p.public_exponent_len = sizeof e_big;
    expect_generate(&p, sv, WEBCRYPTO_ERR_OPERATION);
    /* usages are checked before the parameters: SyntaxError wins */
    p.modulus_length = 255;
    expect_generate(&p, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_SIGN, WEBCRYPTO_ERR_SYNTAX);
    /* no private usage */
    p = rsa_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256, 1024);
    expect_generate(&p, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_SYNTAX);
    expect_generate(&p, 0, WEBCRYPTO_ERR_SYNTAX);
    webcrypto_params o = rsa_alg(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_256, 1024);
    expect_generate(&o, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY, WEBCRYPTO_ERR_SYNTAX);
    expect_generate(&o, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_DECRYPT, WEBCRYPTO_ERR_SYNTAX);
    webcrypto_params dh = alg2(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P256);
    expect_generate(&dh, 0, WEBCRYPTO_ERR_SYNTAX);
    expect_generate(&dh, WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_SIGN, WEBCRYPTO_ERR_SYNTAX);
    webcrypto_params ed = alg2(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE);
    expect_generate(&ed, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_SYNTAX);
    expect_generate(&ed, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_ENCRYPT, WEBCRYPTO_ERR_SYNTAX);
    /* secret-key generation refuses key-pair algorithms, and vice versa */
    webcrypto_key *k = NULL;
    EXPECT(webcrypto_generate_key(tu_backend(), &ed, true, WEBCRYPTO_USAGE_SIGN, &k),
           WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(k);
    webcrypto_params aes = WEBCRYPTO_PARAMS_INIT;
    aes.name = WEBCRYPTO_ALG_AES_GCM;
    aes.length = 128;
    expect_generate(&aes, WEBCRYPTO_USAGE_ENCRYPT, WEBCRYPTO_ERR_NOT_SUPPORTED);
}

static void test_missing_members(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ECDSA,
               WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS);
    const unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    webcrypto_params p = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_NONE, 1024);
    expect_generate(&p, sv, WEBCRYPTO_ERR_INVALID_ARGUMENT); /* no hash */
    p = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_256, 0);
    expect_generate(&p, sv, WEBCRYPTO_ERR_INVALID_ARGUMENT); /* no modulus_length */
    p = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_256, 1024);
    p.public_exponent = NULL;
    p.public_exponent_len = 0;
    expect_generate(&p, sv, WEBCRYPTO_ERR_INVALID_ARGUMENT); /* no public_exponent */
    p = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_AES_CBC, 1024);
    expect_generate(&p, sv, WEBCRYPTO_ERR_NOT_SUPPORTED); /* not a hash */
    webcrypto_params e = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_NONE);
    expect_generate(&e, sv, WEBCRYPTO_ERR_INVALID_ARGUMENT); /* no named_curve */
    e.named_curve = (webcrypto_named_curve)7;
    expect_generate(&e, sv, WEBCRYPTO_ERR_NOT_SUPPORTED); /* no such curve */
    webcrypto_params dh = alg2(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_NONE);
    expect_generate(&dh, WEBCRYPTO_USAGE_DERIVE_BITS, WEBCRYPTO_ERR_INVALID_ARGUMENT);

    /* import: an RSA key without hash, an EC key without curve */
    webcrypto_params rs = rsa_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_NONE, 0);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_RSA].spki.p, K[K_RSA].spki.n, &rs,
                  WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_INVALID_ARGUMENT);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_JWK, K[K_RSA].jwk_pub.p, K[K_RSA].jwk_pub.n, &rs,
                  WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_INVALID_ARGUMENT);
    webcrypto_params ec = alg2(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_NONE);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_SPKI, K[K_P256].spki.p, K[K_P256].spki.n, &ec,
                  WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_INVALID_ARGUMENT);
    bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, K[K_P256].pub);
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, raw.p, raw.n, &ec, WEBCRYPTO_USAGE_VERIFY,
                  WEBCRYPTO_ERR_INVALID_ARGUMENT);
    bytes_free(&raw);
}

/* ------------------------------------------------------------------------ */
/* Export                                                                   */
/* ------------------------------------------------------------------------ */

static void test_export_errors(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_RSA_OAEP);
    uint8_t *out = NULL;
    size_t n = 0;
    for (size_t i = 0; i < K_N; i++) {
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, K[i].priv, &out, &n),
               WEBCRYPTO_ERR_INVALID_ACCESS);
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, K[i].pub, &out, &n),
               WEBCRYPTO_ERR_INVALID_ACCESS);
        bool rsa = i == K_RSA || i == K_OAEP_A || i == K_OAEP_B;
        /* raw: EC and OKP public keys only. RSA has no raw format at all, so
         * the spec's exportKey steps end in NotSupportedError for both types
         * (its InvalidAccessError is inside the spki/pkcs8/raw branches an
         * algorithm has). */
        EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, K[i].priv, &out, &n),
               rsa ? WEBCRYPTO_ERR_NOT_SUPPORTED : WEBCRYPTO_ERR_INVALID_ACCESS);
        if (rsa)
            EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, K[i].pub, &out, &n),
                   WEBCRYPTO_ERR_NOT_SUPPORTED);
    }
    assert_null(out);
    /* raw RSA import */
    EXPECT_IMPORT(WEBCRYPTO_FORMAT_RAW, K[K_RSA].spki.p, K[K_RSA].spki.n, &K[K_RSA].p,
                  WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* a non-extractable private key exports nothing, in any format */
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_PKCS8, K[K_P256].pkcs8.p,
                                          K[K_P256].pkcs8.n, &K[K_P256].p, false,
                                          WEBCRYPTO_USAGE_SIGN, &k),
                     WEBCRYPTO_OK);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, k, &out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    EXPECT(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, k, &out, &n), WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_key_free(k);
    /* a non-extractable key cannot be wrapped */
    webcrypto_params oaep = WEBCRYPTO_PARAMS_INIT;
    oaep.name = WEBCRYPTO_ALG_RSA_OAEP;
    webcrypto_key *kw = NULL;
    webcrypto_params aes = WEBCRYPTO_PARAMS_INIT;
    aes.name = WEBCRYPTO_ALG_AES_GCM;
    aes.length = 128;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &aes, false, WEBCRYPTO_USAGE_ENCRYPT,
                                            &kw),
                     WEBCRYPTO_OK);
    EXPECT(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, kw, K[K_OAEP_A].pub, &oaep, &out, &n),
           WEBCRYPTO_ERR_INVALID_ACCESS);
    webcrypto_key_free(kw);
    assert_null(out);
}

/* An EC private scalar outside [1, n-1] is DataError, whatever the backend's
 * library would do with it (PKCS #8 without the public key, so that the
 * backend computes the point from d and nothing else can catch it). */
static void test_ec_scalar_range(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDSA);
    static const char prefix[] = "3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420";
    static const char *const bad[] = {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", /* n */
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", /* n + 1 */
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    };
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    char hex[256];
    for (size_t i = 0; i <= sizeof bad / sizeof *bad; i++) {
        const char *d = i < sizeof bad / sizeof *bad
                            ? bad[i]
                            : "0000000000000000000000000000000000000000000000000000000000000001";
        snprintf(hex, sizeof hex, "%s%s", prefix, d);
        size_t n;
        uint8_t *der = tu_unhex(hex, &n);
        webcrypto_key *key = NULL;
        webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_PKCS8, der, n,
                                                   &p, false, WEBCRYPTO_USAGE_SIGN, &key);
        /* d = 1 (the last case) is in range: the generator is its public key. */
        tu_assert_status(st, i < sizeof bad / sizeof *bad ? WEBCRYPTO_ERR_DATA : WEBCRYPTO_OK);
        webcrypto_key_free(key);
        free(der);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated_and_trailing_der),
        cmocka_unit_test(test_wrong_algorithm_identifier),
        cmocka_unit_test(test_ec_points),
        cmocka_unit_test(test_jwk_garbage),
        cmocka_unit_test(test_jwk_private_members),
        cmocka_unit_test(test_jwk_mismatches),
        cmocka_unit_test(test_okp448_jwk_mismatch),
        cmocka_unit_test(test_import_usages),
        cmocka_unit_test(test_key_type_vs_operation),
        cmocka_unit_test(test_derive_peer_errors),
        cmocka_unit_test(test_x25519_low_order),
        cmocka_unit_test(test_rsa_oaep_failures),
        cmocka_unit_test(test_rsa_generate_limits),
        cmocka_unit_test(test_missing_members),
        cmocka_unit_test(test_export_errors),
        cmocka_unit_test(test_ec_scalar_range),
    };
    /* The group's setup makes a key of every asymmetric kind. */
    static const webcrypto_algorithm kinds[] = {
        WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
        WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_X25519};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (!webcrypto_backend_supports(tu_backend(), kinds[i])) {
            printf("skipped: backend %s lacks %s\n", webcrypto_backend_name(tu_backend()),
                   webcrypto_algorithm_name(kinds[i]));
            return 77;
        }
    }
    return tu_run_group("pkey_errors", tests, setup, teardown);
}
