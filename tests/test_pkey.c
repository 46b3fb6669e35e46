/*
 * test_pkey.c - the asymmetric algorithms through the public API:
 *
 *  - known answers: RFC 8032 section 7.1 (Ed25519 TEST 1-3), RFC 7748
 *    sections 5.2 and 6.1 (X25519), and an RSASSA-PKCS1-v1_5 SHA-256
 *    signature on a fixed 2048-bit key (made with the openssl CLI; PKCS#1 v1.5
 *    is deterministic, so the signature is a known answer);
 *  - round trips of every format for every algorithm: generate, export,
 *    import, export again gives the same bytes, and the imported keys work
 *    with the other side's keys;
 *  - cross-format consistency (JWK -> pkcs8 -> import gives the same
 *    deterministic signatures), generateKeyPair's usage split and the key
 *    getters, RSA-OAEP with and without a label, ECDH/X25519 agreement both
 *    ways, deriveKey from ECDH, wrapKey/unwrapKey with RSA-OAEP, and a
 *    private key wrapped as pkcs8 and jwk.
 *
 * Every typed-in vector was checked independently with the openssl CLI and
 * Node's crypto.subtle.
 */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

/* A malloc'd byte string (free with bytes_free). */
typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static void bytes_free(bytes *b) {
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

static bytes unhex(const char *hex) {
    bytes b;
    b.p = tu_unhex(hex, &b.n);
    return b;
}

/* Concatenation of two hex strings, decoded. */
static bytes unhex2(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    assert_non_null(s);
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    bytes r = unhex(s);
    free(s);
    return r;
}

static void assert_same(const bytes *a, const bytes *b) {
    assert_int_equal(a->n, b->n);
    if (a->n) assert_memory_equal(a->p, b->p, a->n);
}

/* exportKey, copied into a malloc'd buffer (the library's is wiped/freed). */
static bytes export_ok(webcrypto_key_format fmt, const webcrypto_key *k) {
    uint8_t *out = NULL;
    size_t n = 0;
    tu_assert_status(webcrypto_export_key(fmt, k, &out, &n), WEBCRYPTO_OK);
    assert_non_null(out);
    bytes b = {malloc(n + 1), n};
    assert_non_null(b.p);
    memcpy(b.p, out, n);
    b.p[n] = 0; /* JWK text is then a C string */
    webcrypto_buffer_free(out, n);
    return b;
}

static webcrypto_key *import_ok(webcrypto_key_format fmt, const uint8_t *data, size_t len,
                                const webcrypto_params *p, bool extractable, unsigned usages) {
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), fmt, data, len, p, extractable, usages, &k),
                     WEBCRYPTO_OK);
    assert_non_null(k);
    return k;
}

static const uint8_t F4[] = {0x01, 0x00, 0x01};
static const uint8_t E3[] = {0x03};

static webcrypto_params rsa_alg(webcrypto_algorithm name, webcrypto_algorithm hash, size_t bits) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    p.hash = hash;
    p.modulus_length = bits;
    p.public_exponent = F4;
    p.public_exponent_len = sizeof F4;
    return p;
}

static webcrypto_params ec_alg(webcrypto_algorithm name, webcrypto_named_curve curve) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    p.named_curve = curve;
    return p;
}

static webcrypto_params plain_alg(webcrypto_algorithm name) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    return p;
}

static void gen_pair(const webcrypto_params *p, bool extractable, unsigned usages,
                     webcrypto_key **pub, webcrypto_key **priv) {
    *pub = *priv = NULL;
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), p, extractable, usages, pub, priv),
                     WEBCRYPTO_OK);
    assert_non_null(*pub);
    assert_non_null(*priv);
}

static bytes sign_ok(const webcrypto_params *p, const webcrypto_key *k, const uint8_t *msg,
                     size_t len) {
    size_t need = 0;
    tu_assert_status(webcrypto_sign(p, k, msg, len, NULL, 0, &need), WEBCRYPTO_OK);
    assert_true(need > 0);
    bytes s = {malloc(need), 0};
    assert_non_null(s.p);
    tu_assert_status(webcrypto_sign(p, k, msg, len, s.p, need, &s.n), WEBCRYPTO_OK);
    assert_true(s.n <= need);
    return s;
}

static bool verify_ok(const webcrypto_params *p, const webcrypto_key *k, const uint8_t *sig,
                      size_t sig_len, const uint8_t *msg, size_t len) {
    bool valid = true;
    tu_assert_status(webcrypto_verify(p, k, sig, sig_len, msg, len, &valid), WEBCRYPTO_OK);
    return valid;
}

static bytes crypt_ok(bool encrypt, const webcrypto_params *p, const webcrypto_key *k,
                      const uint8_t *in, size_t len) {
    size_t need = 0;
    webcrypto_status (*fn)(const webcrypto_params *, const webcrypto_key *, const uint8_t *,
                           size_t, uint8_t *, size_t, size_t *) =
        encrypt ? webcrypto_encrypt : webcrypto_decrypt;
    tu_assert_status(fn(p, k, in, len, NULL, 0, &need), WEBCRYPTO_OK);
    bytes out = {malloc(need + 1), 0};
    assert_non_null(out.p);
    tu_assert_status(fn(p, k, in, len, out.p, need, &out.n), WEBCRYPTO_OK);
    assert_true(out.n <= need);
    return out;
}

/* deriveBits of the full secret (WEBCRYPTO_LENGTH_FULL). */
static bytes derive_full(const webcrypto_key *priv, const webcrypto_key *peer, size_t expect_len) {
    webcrypto_params p = plain_alg(webcrypto_key_get_algorithm(priv));
    p.public_key = peer;
    bytes s = {malloc(expect_len), expect_len};
    assert_non_null(s.p);
    size_t dlen = 0;
    tu_assert_status(webcrypto_derive_bits(&p, priv, WEBCRYPTO_LENGTH_FULL, s.p, s.n, &dlen),
                     WEBCRYPTO_OK);
    assert_int_equal(dlen, expect_len);
    return s;
}

static const char B64URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* Unpadded base64url of b, malloc'd C string. */
static char *b64url(const bytes *b) {
    char *s = malloc(b->n / 3 * 4 + 5);
    assert_non_null(s);
    size_t o = 0;
    for (size_t i = 0; i < b->n; i += 3) {
        uint32_t v = (uint32_t)b->p[i] << 16;
        if (i + 1 < b->n) v |= (uint32_t)b->p[i + 1] << 8;
        if (i + 2 < b->n) v |= b->p[i + 2];
        size_t chars = b->n - i >= 3 ? 4 : b->n - i + 1;
        for (size_t j = 0; j < chars; j++) s[o++] = B64URL[(v >> (18 - 6 * j)) & 63];
    }
    s[o] = 0;
    return s;
}

/* The JWK text in b, parsed (fails the test if it is not a JSON object). */
static json_t *jwk_parse(const bytes *b) {
    json_error_t err;
    json_t *j = json_loadb((const char *)b->p, b->n, 0, &err);
    if (!j || !json_is_object(j)) fail_msg("exported JWK is not a JSON object: %s", err.text);
    return j;
}

static const char *jwk_str(const json_t *j, const char *name) {
    const char *s = json_string_value(json_object_get(j, name));
    if (!s) fail_msg("JWK has no string member \"%s\"", name);
    return s;
}

static const uint8_t MSG[] = "a message to sign, encrypt or wrap: 44 bytes";

/* ------------------------------------------------------------------------ */
/* RFC 8032 section 7.1: Ed25519 TEST 1, 2, 3                               */
/* ------------------------------------------------------------------------ */

#define PKCS8_ED25519 "302e020100300506032b657004220420" /* RFC 8410 section 7 */
#define SPKI_ED25519 "302a300506032b6570032100"
#define PKCS8_X25519 "302e020100300506032b656e04220420"
#define SPKI_X25519 "302a300506032b656e032100"

static const struct {
    const char *sk, *pk, *msg, *sig;
} RFC8032[] = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
     "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
     "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
    {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
     "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
};

static void test_ed25519_rfc8032(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED25519);
    webcrypto_params ed = plain_alg(WEBCRYPTO_ALG_ED25519);
    for (size_t i = 0; i < sizeof RFC8032 / sizeof RFC8032[0]; i++) {
        bytes p8 = unhex2(PKCS8_ED25519, RFC8032[i].sk);
        bytes pk = unhex(RFC8032[i].pk);
        bytes msg = unhex(RFC8032[i].msg);
        bytes want = unhex(RFC8032[i].sig);
        webcrypto_key *priv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8.p, p8.n, &ed, true,
                                        WEBCRYPTO_USAGE_SIGN);
        webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_RAW, pk.p, pk.n, &ed, true,
                                       WEBCRYPTO_USAGE_VERIFY);

        bytes sig = sign_ok(&ed, priv, msg.p, msg.n);
        assert_same(&sig, &want);
        assert_true(verify_ok(&ed, pub, want.p, want.n, msg.p, msg.n));
        want.p[10] ^= 0x01;
        assert_false(verify_ok(&ed, pub, want.p, want.n, msg.p, msg.n));
        want.p[10] ^= 0x01;
        /* another message (the empty one gets a byte) */
        uint8_t other[3] = {0x01, 0x02, 0x03};
        assert_false(verify_ok(&ed, pub, want.p, want.n, other, msg.n ? msg.n - 1 : 1));

        /* Exports: pkcs8 is the RFC 8410 form we built; the private JWK carries
         * the public key x (computed by the library from the seed) and d. */
        bytes e8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, priv);
        assert_same(&e8, &p8);
        bytes spki = export_ok(WEBCRYPTO_FORMAT_SPKI, pub);
        bytes want_spki = unhex2(SPKI_ED25519, RFC8032[i].pk);
        assert_same(&spki, &want_spki);
        bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, pub);
        assert_same(&raw, &pk);
        bytes jtext = export_ok(WEBCRYPTO_FORMAT_JWK, priv);
        json_t *j = jwk_parse(&jtext);
        char *x = b64url(&pk);
        bytes seed = unhex(RFC8032[i].sk);
        char *d = b64url(&seed);
        assert_string_equal(jwk_str(j, "kty"), "OKP");
        assert_string_equal(jwk_str(j, "crv"), "Ed25519");
        assert_string_equal(jwk_str(j, "alg"), "Ed25519"); /* w3c/webcrypto#401 */
        assert_string_equal(jwk_str(j, "x"), x);
        assert_string_equal(jwk_str(j, "d"), d);

        /* JWK -> key -> pkcs8 -> key: the same signature each way. */
        webcrypto_key *from_jwk = import_ok(WEBCRYPTO_FORMAT_JWK, jtext.p, jtext.n, &ed, true,
                                            WEBCRYPTO_USAGE_SIGN);
        bytes s2 = sign_ok(&ed, from_jwk, msg.p, msg.n);
        assert_same(&s2, &sig);
        bytes e8b = export_ok(WEBCRYPTO_FORMAT_PKCS8, from_jwk);
        assert_same(&e8b, &p8);
        webcrypto_key *again = import_ok(WEBCRYPTO_FORMAT_PKCS8, e8b.p, e8b.n, &ed, false,
                                         WEBCRYPTO_USAGE_SIGN);
        bytes s3 = sign_ok(&ed, again, msg.p, msg.n);
        assert_same(&s3, &sig);

        /* The public key as a JWK built from the RFC's bytes. */
        char pjwk[256];
        snprintf(pjwk, sizeof pjwk, "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"%s\"}", x);
        webcrypto_key *pub_jwk = import_ok(WEBCRYPTO_FORMAT_JWK, (const uint8_t *)pjwk,
                                           strlen(pjwk), &ed, true, WEBCRYPTO_USAGE_VERIFY);
        assert_int_equal(webcrypto_key_get_type(pub_jwk), WEBCRYPTO_KEY_PUBLIC);
        assert_true(verify_ok(&ed, pub_jwk, sig.p, sig.n, msg.p, msg.n));
        /* RFC 8037's "EdDSA" is accepted as the alg too. */
        snprintf(pjwk, sizeof pjwk,
                 "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"alg\":\"EdDSA\",\"x\":\"%s\"}", x);
        webcrypto_key *pub_eddsa = import_ok(WEBCRYPTO_FORMAT_JWK, (const uint8_t *)pjwk,
                                             strlen(pjwk), &ed, true, WEBCRYPTO_USAGE_VERIFY);
        assert_true(verify_ok(&ed, pub_eddsa, sig.p, sig.n, msg.p, msg.n));

        webcrypto_key_free(pub_eddsa);
        webcrypto_key_free(pub_jwk);
        webcrypto_key_free(again);
        webcrypto_key_free(from_jwk);
        json_decref(j);
        free(x);
        free(d);
        bytes_free(&seed);
        bytes_free(&s2);
        bytes_free(&s3);
        bytes_free(&e8b);
        bytes_free(&jtext);
        bytes_free(&raw);
        bytes_free(&want_spki);
        bytes_free(&spki);
        bytes_free(&e8);
        bytes_free(&sig);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
        bytes_free(&p8);
        bytes_free(&pk);
        bytes_free(&msg);
        bytes_free(&want);
    }
}

/* ------------------------------------------------------------------------ */
/* RFC 8032 section 7.4: Ed448 ("-----Blank", "-----1 octet", "-----1 octet */
/* (with context)"); RFC 7748 sections 5.2 and 6.2: X448                    */
/* ------------------------------------------------------------------------ */

#define PKCS8_ED448 "3047020100300506032b6571043b0439" /* RFC 8410 section 7 */
#define SPKI_ED448 "3043300506032b6571033a00"
#define PKCS8_X448 "3046020100300506032b656f043a0438"
#define SPKI_X448 "3042300506032b656f033900"

static const struct {
    const char *sk, *pk, *ctx, *msg, *sig;
} RFC8032_ED448[] = {
    {"6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3"
     "528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
     "", "",
     "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f"
     "2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980ff0d2028d4b18a"
     "9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4db"
     "b61149f05a7363268c71d95808ff2e652600"},
    {"c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463a"
     "fbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e",
     "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c086"
     "6aea01eb00742802b8438ea4cb82169c235160627b4c3a9480",
     "", "03",
     "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f435"
     "2541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd779805e0dbcc0aae1cb"
     "cee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0f"
     "f3348ab21aa4adafd1d234441cf807c03a00"},
    {"c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463a"
     "fbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e",
     "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c086"
     "6aea01eb00742802b8438ea4cb82169c235160627b4c3a9480",
     "666f6f", "03",
     "d4f8f6131770dd46f40867d6fd5d5055de43541f8c5e35abbcd001b32a89f7d2"
     "151f7647f11d8ca2ae279fb842d607217fce6e042f6815ea000c85741de5c8da"
     "1144a6a1aba7f96de42505d7a7298524fda538fccbbb754f578c1cad10d54d0d"
     "5428407e85dcbc98a49155c13764e66c3c00"},
};

/* An Ed25519 or Ed448 public key whose y has no x on the curve (y = 2 for
 * both: (y^2 - 1) / (d y^2 + 1), resp. (y^2 - 1) / (d y^2 - 1), is not a
 * square mod p; checked in Python with pow(a, (p - 1) / 2, p)) imports on
 * every backend (none decodes the point at import), and verify answers
 * false for any signature under it: OK, not OperationError (JDK's SunEC
 * refuses the key in Signature.initVerify; openssl and BouncyCastle decode
 * it in verify). */
static void test_eddsa_off_curve_public_key(void **state) {
    (void)state;
    static const webcrypto_algorithm algs[] = {WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_ED448};
    static const size_t key_len[] = {32, 57}, sig_len[] = {64, 114};
    static const uint8_t msg[] = "off the curve";
    int ran = 0;
    for (size_t i = 0; i < 2; i++) {
        if (!webcrypto_backend_supports(tu_backend(), algs[i])) {
            printf("%s: not on %s\n", webcrypto_algorithm_name(algs[i]),
                   webcrypto_backend_name(tu_backend()));
            continue;
        }
        uint8_t pk[57] = {2}, sig[114] = {0};
        webcrypto_params ed = plain_alg(algs[i]);
        webcrypto_key *pub =
            import_ok(WEBCRYPTO_FORMAT_RAW, pk, key_len[i], &ed, true, WEBCRYPTO_USAGE_VERIFY);
        for (int k = 0; k < 2; k++) { /* twice: the engine is reusable after it */
            bool valid = true;
            tu_assert_status(webcrypto_verify(&ed, pub, sig, sig_len[i], msg, sizeof msg, &valid),
                             WEBCRYPTO_OK);
            assert_false(valid);
        }
        webcrypto_key_free(pub);
        ran++;
    }
    if (!ran) skip();
}

static void test_ed448_rfc8032(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED448);
    for (size_t i = 0; i < sizeof RFC8032_ED448 / sizeof RFC8032_ED448[0]; i++) {
        webcrypto_params ed = plain_alg(WEBCRYPTO_ALG_ED448);
        bytes ctx = unhex(RFC8032_ED448[i].ctx);
        ed.context = ctx.p;
        ed.context_len = ctx.n;
        bytes p8 = unhex2(PKCS8_ED448, RFC8032_ED448[i].sk);
        bytes pk = unhex(RFC8032_ED448[i].pk);
        bytes msg = unhex(RFC8032_ED448[i].msg);
        bytes want = unhex(RFC8032_ED448[i].sig);
        webcrypto_key *priv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8.p, p8.n, &ed, true,
                                        WEBCRYPTO_USAGE_SIGN);
        webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_RAW, pk.p, pk.n, &ed, true,
                                       WEBCRYPTO_USAGE_VERIFY);
        /* The private key's public half is the RFC's. */
        bytes jtext = export_ok(WEBCRYPTO_FORMAT_JWK, priv);
        json_t *j = jwk_parse(&jtext);
        char *x = b64url(&pk);
        assert_string_equal(jwk_str(j, "kty"), "OKP");
        assert_string_equal(jwk_str(j, "crv"), "Ed448");
        assert_string_equal(jwk_str(j, "alg"), "Ed448");
        assert_string_equal(jwk_str(j, "x"), x);
        bytes e8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, priv);
        assert_same(&e8, &p8);
        bytes spki = export_ok(WEBCRYPTO_FORMAT_SPKI, pub);
        bytes want_spki = unhex2(SPKI_ED448, RFC8032_ED448[i].pk);
        assert_same(&spki, &want_spki);

        uint8_t sig[114];
        size_t sig_len = 0;
        webcrypto_status st = webcrypto_sign(&ed, priv, msg.p, msg.n, sig, sizeof sig, &sig_len);
        assert_int_equal(st == WEBCRYPTO_ERR_NOT_SUPPORTED && ctx.n > 0,
                         ctx.n > 0 && !webcrypto_backend_has_feature(
                                          tu_backend(), WEBCRYPTO_FEATURE_ED448_CONTEXT));
        if (ctx.n > 0 && st == WEBCRYPTO_ERR_NOT_SUPPORTED) {
            /* openssl: OpenSSL 3.0's EdDSA takes no context string. */
            printf("# SKIP Ed448 with context on %s: %s\n", webcrypto_backend_name(tu_backend()),
                   webcrypto_error_message());
            bool valid = true;
            tu_assert_status(webcrypto_verify(&ed, pub, want.p, want.n, msg.p, msg.n, &valid),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
            assert_false(valid);
        } else {
            tu_assert_status(st, WEBCRYPTO_OK);
            assert_int_equal(sig_len, 114);
            assert_memory_equal(sig, want.p, 114);
            assert_true(verify_ok(&ed, pub, want.p, want.n, msg.p, msg.n));
            want.p[20] ^= 0x01;
            assert_false(verify_ok(&ed, pub, want.p, want.n, msg.p, msg.n));
            want.p[20] ^= 0x01;
            /* The context is part of what is signed: another context fails. */
            webcrypto_params other = plain_alg(WEBCRYPTO_ALG_ED448);
            static const uint8_t bar[] = {0x62, 0x61, 0x72};
            other.context = ctx.n ? bar : NULL;
            other.context_len = ctx.n ? sizeof bar : 0;
            if (ctx.n == 0) {
                other.context = bar;
                other.context_len = sizeof bar;
            }
            st = webcrypto_verify(&other, pub, want.p, want.n, msg.p, msg.n, &(bool){true});
            if (st != WEBCRYPTO_ERR_NOT_SUPPORTED) {
                bool valid = true;
                tu_assert_status(webcrypto_verify(&other, pub, want.p, want.n, msg.p, msg.n,
                                                  &valid), WEBCRYPTO_OK);
                assert_false(valid);
            }
        }
        /* A context over 255 bytes: OperationError (the draft's Sign and
         * Verify step 3), on every backend. */
        static uint8_t big[256];
        webcrypto_params toolong = plain_alg(WEBCRYPTO_ALG_ED448);
        toolong.context = big;
        toolong.context_len = sizeof big;
        tu_assert_status(webcrypto_sign(&toolong, priv, msg.p, msg.n, sig, sizeof sig, &sig_len),
                         WEBCRYPTO_ERR_OPERATION);
        bool valid = true;
        tu_assert_status(webcrypto_verify(&toolong, pub, want.p, want.n, msg.p, msg.n, &valid),
                         WEBCRYPTO_ERR_OPERATION);
        assert_false(valid);

        json_decref(j);
        free(x);
        bytes_free(&jtext);
        bytes_free(&e8);
        bytes_free(&spki);
        bytes_free(&want_spki);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
        bytes_free(&ctx);
        bytes_free(&p8);
        bytes_free(&pk);
        bytes_free(&msg);
        bytes_free(&want);
    }
}

/* Ed25519 has no context in WebCrypto: a context member is ignored (the
 * same signature as without), as in Node 24. */
/* WebCrypto's Ed25519/Ed448 verify returns false when the public key A or
 * the signature's R is a small-order point, even where the cofactorless
 * equation [S]B = R + [k]A holds. These signatures were made for that: with
 * A the identity (y = 1), R = A_rfc and S = s_rfc mod L, where A_rfc =
 * [s_rfc]B is RFC 8032's first test key (TEST 1, "-----TEST blank" for
 * Ed448); with R the identity, A = A_rfc and S = k s_rfc mod L (k of R, A
 * and MSG as RFC 8032 computes it). OpenSSL 3.0 accepts them, so the rule
 * is the core's. */
static const struct {
    webcrypto_algorithm alg;
    const char *pk, *sig;
} SMALL_ORDER[] = {
    {WEBCRYPTO_ALG_ED25519, "0100000000000000000000000000000000000000000000000000000000000000",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
     "0100000000000000000000000000000000000000000000000000000000000000"
     "d37f3f205ea49cc858d51579e4fab59d9763b4314a95c29c70e018511cb6640d"},
    {WEBCRYPTO_ALG_ED448,
     "0100000000000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46"
     "c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f471dcfdb4b0feecb4594a443"
     "f7c7ed5566a2bac92339519cb905c036d81eeed17483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448,
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46"
     "c7061bd6783df1e50f6cd1fa1abeafe8256180",
     "0100000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000074302553d73aa3caae24d18c652ba06651f9a5"
     "56681fcccdfe500c46e6c46b49c8b57d09882a3e2b5b4d0732683e5279911ffc4300153d2e00"},
};

static void test_eddsa_small_order(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED25519);
    for (size_t i = 0; i < sizeof SMALL_ORDER / sizeof SMALL_ORDER[0]; i++) {
        if (!webcrypto_backend_supports(tu_backend(), SMALL_ORDER[i].alg)) {
            printf("# SKIP small-order case %zu: %s lacks %s\n", i,
                   webcrypto_backend_name(tu_backend()),
                   webcrypto_algorithm_name(SMALL_ORDER[i].alg));
            continue;
        }
        webcrypto_params ed = plain_alg(SMALL_ORDER[i].alg);
        bytes pk = unhex(SMALL_ORDER[i].pk);
        bytes sig = unhex(SMALL_ORDER[i].sig);
        webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_RAW, pk.p, pk.n, &ed, true,
                                       WEBCRYPTO_USAGE_VERIFY);
        bool valid = true;
        assert_int_equal(webcrypto_verify(&ed, pub, sig.p, sig.n, MSG, sizeof MSG - 1, &valid),
                         WEBCRYPTO_OK);
        assert_false(valid);
        webcrypto_key_free(pub);
        bytes_free(&pk);
        bytes_free(&sig);
    }
}

static void test_ed25519_context_ignored(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED25519);
    webcrypto_params ed = plain_alg(WEBCRYPTO_ALG_ED25519);
    bytes p8 = unhex2(PKCS8_ED25519, RFC8032[1].sk);
    bytes msg = unhex(RFC8032[1].msg);
    webcrypto_key *priv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8.p, p8.n, &ed, true,
                                    WEBCRYPTO_USAGE_SIGN);
    static uint8_t ctx[300];
    ed.context = ctx;
    ed.context_len = sizeof ctx;
    bytes sig = sign_ok(&ed, priv, msg.p, msg.n);
    tu_assert_hex(sig.p, sig.n, RFC8032[1].sig);
    bytes_free(&sig);
    webcrypto_key_free(priv);
    bytes_free(&p8);
    bytes_free(&msg);
}

/* X448(k, u) through pkcs8 and raw import. */
static void x448_call(const uint8_t k[56], const uint8_t u[56], uint8_t out[56]) {
    webcrypto_params x = plain_alg(WEBCRYPTO_ALG_X448);
    uint8_t p8[72];
    size_t n = 0;
    uint8_t *prefix = tu_unhex(PKCS8_X448, &n);
    assert_int_equal(n, 16);
    memcpy(p8, prefix, 16);
    memcpy(p8 + 16, k, 56);
    free(prefix);
    webcrypto_key *priv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8, sizeof p8, &x, false,
                                    WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_RAW, u, 56, &x, true, 0);
    x.public_key = pub;
    size_t dlen = 0;
    tu_assert_status(webcrypto_derive_bits(&x, priv, 448, out, 56, &dlen), WEBCRYPTO_OK);
    assert_int_equal(dlen, 56);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

static void test_x448_rfc7748_5_2(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_X448);
    static const struct {
        const char *k, *u, *out;
    } v[] = {
        {"3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c"
         "984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
         "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031"
         "ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
         "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaad"
         "eb445fc66a01b0779d98223961111e21766282f73dd96b6f"},
        {"203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c538345dd7"
         "7c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
         "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b165d0158"
         "94e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
         "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7ad1b3ee3"
         "a5700df34321d62077e63633c575c1c954514e99da7c179d"},
    };
    for (size_t i = 0; i < 2; i++) {
        bytes k = unhex(v[i].k), u = unhex(v[i].u);
        uint8_t out[56];
        x448_call(k.p, u.p, out);
        tu_assert_hex(out, 56, v[i].out);
        bytes_free(&k);
        bytes_free(&u);
    }
    /* The iterated function: k = u = 5; then (k, u) = (X448(k, u), k). */
    uint8_t k[56] = {5}, u[56] = {5}, r[56];
    for (int i = 1; i <= 1000; i++) {
        x448_call(k, u, r);
        memcpy(u, k, 56);
        memcpy(k, r, 56);
        if (i == 1)
            tu_assert_hex(k, 56, "3f482c8a9f19b01e6c46ee9711d9dc14fd4bf67af30765c2ae2b846a4d23a8cd"
                                 "0db897086239492caf350b51f833868b9bc2b3bca9cf4113");
    }
    tu_assert_hex(k, 56, "aa3b4749d55b9daf1e5b00288826c467274ce3ebbdd5c17b975e09d4af6c67cf"
                         "10d087202db88286e2b79fceea3ec353ef54faa26e219f38");
}

#define ALICE448_SK "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf5" \
                    "74a9419744897391006382a6f127ab1d9ac2d8c0a598726b"
#define ALICE448_PK "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bb" \
                    "c836647241d953d40c5b12da88120d53177f80e532c41fa0"
#define BOB448_SK "1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120" \
                  "bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d"
#define BOB448_PK "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972" \
                  "fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609"
#define ALICE_BOB448_K "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56" \
                       "fd2464c335543936521c24403085d59a449a5037514a879d"

static void test_x448_rfc7748_6_2(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_X448);
    webcrypto_params x = plain_alg(WEBCRYPTO_ALG_X448);
    bytes a8 = unhex2(PKCS8_X448, ALICE448_SK), b8 = unhex2(PKCS8_X448, BOB448_SK);
    bytes apk = unhex(ALICE448_PK), bpk = unhex(BOB448_PK);
    unsigned dk = WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY;
    webcrypto_key *a = import_ok(WEBCRYPTO_FORMAT_PKCS8, a8.p, a8.n, &x, true, dk);
    webcrypto_key *b = import_ok(WEBCRYPTO_FORMAT_PKCS8, b8.p, b8.n, &x, true, dk);
    webcrypto_key *A = import_ok(WEBCRYPTO_FORMAT_RAW, apk.p, apk.n, &x, true, 0);
    webcrypto_key *B = import_ok(WEBCRYPTO_FORMAT_RAW, bpk.p, bpk.n, &x, true, 0);
    bytes k1 = derive_full(a, B, 56), k2 = derive_full(b, A, 56);
    tu_assert_hex(k1.p, k1.n, ALICE_BOB448_K);
    tu_assert_hex(k2.p, k2.n, ALICE_BOB448_K);

    /* The private key's JWK carries the RFC's public key (X448(a, 5)). */
    bytes ja = export_ok(WEBCRYPTO_FORMAT_JWK, a);
    json_t *j = jwk_parse(&ja);
    char *ax = b64url(&apk);
    assert_string_equal(jwk_str(j, "kty"), "OKP");
    assert_string_equal(jwk_str(j, "crv"), "X448");
    assert_string_equal(jwk_str(j, "x"), ax);
    assert_null(json_object_get(j, "alg"));
    json_decref(j);
    webcrypto_key *a2 = import_ok(WEBCRYPTO_FORMAT_JWK, ja.p, ja.n, &x, true, dk);
    bytes k3 = derive_full(a2, B, 56);
    tu_assert_hex(k3.p, k3.n, ALICE_BOB448_K);
    bytes e8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, a2);
    assert_same(&e8, &a8);
    bytes spki = export_ok(WEBCRYPTO_FORMAT_SPKI, B);
    bytes want_spki = unhex2(SPKI_X448, BOB448_PK);
    assert_same(&spki, &want_spki);
    /* Over 448 bits: OperationError. */
    uint8_t big[57];
    size_t dlen = 0;
    x.public_key = B;
    tu_assert_status(webcrypto_derive_bits(&x, a, 456, big, sizeof big, &dlen),
                     WEBCRYPTO_ERR_OPERATION);
    /* A small-order public key (u = 0) gives an all-zero secret: refused. */
    uint8_t zero[56] = {0};
    webcrypto_key *Z = NULL;
    webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, zero, 56, &x,
                                               true, 0, &Z);
    if (st == WEBCRYPTO_OK) {
        x.public_key = Z;
        tu_assert_status(webcrypto_derive_bits(&x, a, WEBCRYPTO_LENGTH_FULL, big, sizeof big,
                                               &dlen), WEBCRYPTO_ERR_OPERATION);
        webcrypto_key_free(Z);
    } else {
        tu_assert_status(st, WEBCRYPTO_ERR_DATA);
    }

    free(ax);
    bytes_free(&ja);
    bytes_free(&k1);
    bytes_free(&k2);
    bytes_free(&k3);
    bytes_free(&e8);
    bytes_free(&spki);
    bytes_free(&want_spki);
    webcrypto_key_free(a2);
    webcrypto_key_free(A);
    webcrypto_key_free(B);
    webcrypto_key_free(a);
    webcrypto_key_free(b);
    bytes_free(&a8);
    bytes_free(&b8);
    bytes_free(&apk);
    bytes_free(&bpk);
}

/* ------------------------------------------------------------------------ */
/* RFC 7748: X25519                                                         */
/* ------------------------------------------------------------------------ */

/* X25519(k, u) through pkcs8 and raw import. */
static void x25519_call(const uint8_t k[32], const uint8_t u[32], uint8_t out[32]) {
    webcrypto_params x = plain_alg(WEBCRYPTO_ALG_X25519);
    uint8_t p8[48];
    size_t n = 0;
    uint8_t *prefix = tu_unhex(PKCS8_X25519, &n);
    assert_int_equal(n, 16);
    memcpy(p8, prefix, 16);
    memcpy(p8 + 16, k, 32);
    free(prefix);
    webcrypto_key *priv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8, sizeof p8, &x, false,
                                    WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_RAW, u, 32, &x, true, 0);
    x.public_key = pub;
    size_t dlen = 0;
    tu_assert_status(webcrypto_derive_bits(&x, priv, 256, out, 32, &dlen), WEBCRYPTO_OK);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

static void test_x25519_rfc7748_5_2(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_X25519);
    static const struct {
        const char *k, *u, *out;
    } v[] = {
        {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
        /* u has its top bit set: RFC 7748 section 5 masks it. */
        {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"},
    };
    for (size_t i = 0; i < 2; i++) {
        bytes k = unhex(v[i].k), u = unhex(v[i].u);
        uint8_t out[32];
        x25519_call(k.p, u.p, out);
        tu_assert_hex(out, 32, v[i].out);
        bytes_free(&k);
        bytes_free(&u);
    }

    /* The iterated function: k = u = 9; then (k, u) = (X25519(k, u), k). */
    uint8_t k[32] = {9}, u[32] = {9}, r[32];
    for (int i = 1; i <= 1000; i++) {
        x25519_call(k, u, r);
        memcpy(u, k, 32);
        memcpy(k, r, 32);
        if (i == 1)
            tu_assert_hex(k, 32, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    }
    tu_assert_hex(k, 32, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
}

#define ALICE_SK "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
#define ALICE_PK "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
#define BOB_SK "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"
#define BOB_PK "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
#define ALICE_BOB_K "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"

static void test_x25519_rfc7748_6_1(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_X25519);
    webcrypto_params x = plain_alg(WEBCRYPTO_ALG_X25519);
    bytes a8 = unhex2(PKCS8_X25519, ALICE_SK), b8 = unhex2(PKCS8_X25519, BOB_SK);
    bytes apk = unhex(ALICE_PK), bpk = unhex(BOB_PK);
    unsigned dk = WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY;
    webcrypto_key *a = import_ok(WEBCRYPTO_FORMAT_PKCS8, a8.p, a8.n, &x, true, dk);
    webcrypto_key *b = import_ok(WEBCRYPTO_FORMAT_PKCS8, b8.p, b8.n, &x, true, dk);
    webcrypto_key *A = import_ok(WEBCRYPTO_FORMAT_RAW, apk.p, apk.n, &x, true, 0);
    webcrypto_key *B = import_ok(WEBCRYPTO_FORMAT_RAW, bpk.p, bpk.n, &x, true, 0);

    bytes k1 = derive_full(a, B, 32), k2 = derive_full(b, A, 32);
    tu_assert_hex(k1.p, k1.n, ALICE_BOB_K);
    tu_assert_hex(k2.p, k2.n, ALICE_BOB_K);

    /* The private keys' JWKs carry the RFC's public keys (X25519(a, 9)). */
    bytes ja = export_ok(WEBCRYPTO_FORMAT_JWK, a);
    json_t *j = jwk_parse(&ja);
    char *ax = b64url(&apk);
    assert_string_equal(jwk_str(j, "kty"), "OKP");
    assert_string_equal(jwk_str(j, "crv"), "X25519");
    assert_string_equal(jwk_str(j, "x"), ax);
    assert_null(json_object_get(j, "alg")); /* X25519 defines no JWK alg */
    json_decref(j);

    /* Alice's key from that JWK, Bob's public from a JWK: the same secret. */
    webcrypto_key *a2 = import_ok(WEBCRYPTO_FORMAT_JWK, ja.p, ja.n, &x, true, dk);
    char *bx = b64url(&bpk);
    char bj[200];
    snprintf(bj, sizeof bj, "{\"kty\":\"OKP\",\"crv\":\"X25519\",\"x\":\"%s\"}", bx);
    webcrypto_key *B2 = import_ok(WEBCRYPTO_FORMAT_JWK, (const uint8_t *)bj, strlen(bj), &x, true,
                                  0);
    bytes k3 = derive_full(a2, B2, 32);
    tu_assert_hex(k3.p, k3.n, ALICE_BOB_K);
    bytes e8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, a2);
    assert_same(&e8, &a8);
    bytes spki = export_ok(WEBCRYPTO_FORMAT_SPKI, B2);
    bytes want_spki = unhex2(SPKI_X25519, BOB_PK);
    assert_same(&spki, &want_spki);

    /* Shorter lengths are the secret's first bits. */
    uint8_t part[4];
    x.public_key = B;
    size_t dlen = 0;
    tu_assert_status(webcrypto_derive_bits(&x, a, 32, part, sizeof part, &dlen), WEBCRYPTO_OK);
    tu_assert_hex(part, 4, "4a5d9d5b");
    tu_assert_status(webcrypto_derive_bits(&x, a, 12, part, 2, &dlen), WEBCRYPTO_OK);
    tu_assert_hex(part, 2, "4a50");

    free(ax);
    free(bx);
    bytes_free(&want_spki);
    bytes_free(&spki);
    bytes_free(&e8);
    bytes_free(&k3);
    bytes_free(&ja);
    bytes_free(&k1);
    bytes_free(&k2);
    webcrypto_key_free(B2);
    webcrypto_key_free(a2);
    webcrypto_key_free(a);
    webcrypto_key_free(b);
    webcrypto_key_free(A);
    webcrypto_key_free(B);
    bytes_free(&a8);
    bytes_free(&b8);
    bytes_free(&apk);
    bytes_free(&bpk);
}

/* ------------------------------------------------------------------------ */
/* RSASSA-PKCS1-v1_5 known answer                                          */
/* ------------------------------------------------------------------------ */

/* A 2048-bit key made with `openssl genpkey -algorithm RSA`, as PKCS #8 (the
 * form `openssl pkcs8 -topk8 -nocrypt` and Node's exportKey("pkcs8") both
 * write) and SPKI; and `openssl dgst -sha256 -sign` of RSA_KAT_MSG with it
 * (also checked with Node's subtle.sign). */
static const char RSA_KAT_PKCS8[] =
    "308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100ad53815b37746d7f3903"
    "6f4e708df1cb11f2c2829e7ad38bcf1aa03af5a6b7be77bcc4751e00b99042bf8a1c431d9fabf064df685b1824552a7c"
    "05b6bf6ee01f3aecae8c6777dc0b362a3e876993a6c792fe75b9022307f942ac83863f4aa568a451d96758f7b7af3ecc"
    "7afff60ddc25fa3c928e9df96821f7e0e5611dce1fb4fec4ef13fc9297f78a1c07a029e7fa983a1760b9fbbababa0574"
    "73a811734815c319f53c1a1b28c1e83d5dc15487bf05499d00a033efd9bb539bd1c9b3cdd29c1b6210a91b87bf121277"
    "ee053ed9a9c3dc76bfeefd8942211d2de44767d176f7f84ff8ef23c48f204fd56e74d424c43665074b7108f5778831be"
    "8a16a6d669890203010001028201000620f06f56994f508850e41bff44304b35e9ece6cc23c65c7dde3b26da8e229676"
    "e01332464aa59a6c41c99310ec7890e3d72d447609772a166e7c3a9204f6f7ce659566718cd36db20f470168179dcb6b"
    "6f2e9fc96b8e59f4a43fa2523feec95c70bdcc8c60cb5099afdbf4365c6c6f0b5773a1dcaeccf7d12eaa985c82c556da"
    "24f6fe86e52ef52e54a79ae032ff855866d16a69e4bfc8fc08ea9a6b0a4724ccc41255bbde5f944e0fafc2139db32837"
    "ff3c3e7226ed1b3c2c8af5d9105d37e9371de043a93f57a96171d5ebc8755131f1500faa566b2e9694b16e9f1d541024"
    "93ecf373fe3452ae62a6674e8e26f7390c90249a990acc740dd9a02b00da6102818100d70bf94430d4be4a67dcde1517"
    "f41d9cdb42df54ddfdddeee1c854a11719203418b0f0b677bc78c8a4d4932fc66cc71ee4e1265787fbc875241fa2d254"
    "fcb15e9cb060beb200e933d526da290bc0ba5d5c2e1bb6460424b6f484e6c38df8079e333ce1bdc6ce8995f87a2f8cd2"
    "100e0e08f44eb3cab96986a0d0d54faf7f319702818100ce558e9d108f8ac2596d58bad0c9c47e2d77cd8ee08e21af06"
    "97a6772edc1fbc1d7fccf0798e9e976ccce610bd8f2c45c98b5da21c303efdde7f399a212674dfb178a305a3b055ea3c"
    "e65fef5107ba30f79c60f256cfa03fd666b4adeacb3cf5d51f4b6776b3b422a3f350a901c5bd8490aeb1c8b956db061c"
    "9ae33f3cc061df02818061bd7c7704e6bcf29e9061941ec6026b97b0a647317ac05361e5a6a96d112b74e24011b82d65"
    "c95410aed9931e51b493131e4e49fc7170e3e51e47e7e75eced31cce81ba4ab76546fcbb62eec2fbbef8cdfbdaf6968e"
    "2d8dc6475d874650944dd025fcc83fc301ffdae6d613e02a11e94922995ed8663b534866827d6c5b985302818016845f"
    "bbe442c5f1cfb08f2e53fab0e6d42f6ecf58d229fadfcd4ced54bfd0f6c6815bec2257de16c858d4029fad3037ad76f8"
    "10e8e29afd397ac8de791fa941802c9a1dd36f3af105145f03cee3f8fdbf07e1cc908cb8003f7595e224ed6909aae86f"
    "622b221156766de72f8a71f9ecad9d62e974d075b68508a224148d2a21028181009e104385fd79dcaf4f2626e8da4a34"
    "1da97726634c0d415947b6b82f0d1d8e04d8c88e5fa98ddbd7a0ec68b4215aea5ea29a49811893c430871136903037d5"
    "a03e465c77bb442e6d1b85c88550ce963a14874c569355bc6f21509e484300e47a1cbe7c6f7b65d206759a776ef66220"
    "1a46cd603fb2d33b30fa025a7a69a170c2";
static const char RSA_KAT_SPKI[] =
    "30820122300d06092a864886f70d01010105000382010f003082010a0282010100ad53815b37746d7f39036f4e708df1"
    "cb11f2c2829e7ad38bcf1aa03af5a6b7be77bcc4751e00b99042bf8a1c431d9fabf064df685b1824552a7c05b6bf6ee0"
    "1f3aecae8c6777dc0b362a3e876993a6c792fe75b9022307f942ac83863f4aa568a451d96758f7b7af3ecc7afff60ddc"
    "25fa3c928e9df96821f7e0e5611dce1fb4fec4ef13fc9297f78a1c07a029e7fa983a1760b9fbbababa057473a8117348"
    "15c319f53c1a1b28c1e83d5dc15487bf05499d00a033efd9bb539bd1c9b3cdd29c1b6210a91b87bf121277ee053ed9a9"
    "c3dc76bfeefd8942211d2de44767d176f7f84ff8ef23c48f204fd56e74d424c43665074b7108f5778831be8a16a6d669"
    "890203010001";
static const char RSA_KAT_MSG[] = "libwebcrypto RSASSA-PKCS1-v1_5 known answer";
static const char RSA_KAT_SIG[] =
    "162a7d778051b3a6e459977b1d46afea4cf5c773dc57ffa08c230c36fede9c6469646abc4ed90707d615d071c9451f3d"
    "67db71a75071113c33db3e6ba8c8d1c79bdf1fa80e4f0a840ab7d865f0976d1759c9443889aa179b1225ad523f9585d6"
    "a42b771737d82be85aff39c9f3f918b4187b9203dbe000f666f7a62177b96cd09722ca91b74f2596ea914e3f4b4cb67d"
    "bf279f302380974166108a8c091af7976a6524babfa8e70099d62a694fca40eaa2111bb62ec96ef4fb71206e5eaff8fe"
    "d1ce66fff414f13943a92d0dbcff6cb3ba815b46a0d5605961dfee71e0aa46fddc80f8a7a3e52160fde8cd2b94ce7687"
    "112f96586a9fc338bef6cb2ac0f27ccb";

static void test_rsa_pkcs1_kat(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS);
    webcrypto_params rs = plain_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    rs.hash = WEBCRYPTO_ALG_SHA_256;
    bytes p8 = unhex(RSA_KAT_PKCS8), spki = unhex(RSA_KAT_SPKI), want = unhex(RSA_KAT_SIG);
    const uint8_t *msg = (const uint8_t *)RSA_KAT_MSG;
    size_t mlen = strlen(RSA_KAT_MSG);

    webcrypto_key *priv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8.p, p8.n, &rs, true,
                                    WEBCRYPTO_USAGE_SIGN);
    webcrypto_key *pub = import_ok(WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &rs, true,
                                   WEBCRYPTO_USAGE_VERIFY);
    assert_int_equal(webcrypto_key_get_modulus_length(priv), 2048);
    assert_int_equal(webcrypto_key_get_modulus_length(pub), 2048);
    uint8_t e[8];
    assert_int_equal(webcrypto_key_get_public_exponent(pub, e, sizeof e), 3);
    tu_assert_hex(e, 3, "010001");
    assert_int_equal(webcrypto_key_get_hash(priv), WEBCRYPTO_ALG_SHA_256);
    assert_int_equal(webcrypto_key_get_type(priv), WEBCRYPTO_KEY_PRIVATE);
    assert_int_equal(webcrypto_key_get_type(pub), WEBCRYPTO_KEY_PUBLIC);

    bytes sig = sign_ok(&rs, priv, msg, mlen);
    assert_same(&sig, &want);
    assert_true(verify_ok(&rs, pub, want.p, want.n, msg, mlen));
    assert_false(verify_ok(&rs, pub, want.p, want.n, msg, mlen - 1));
    want.p[want.n - 1] ^= 0x80;
    assert_false(verify_ok(&rs, pub, want.p, want.n, msg, mlen));
    want.p[want.n - 1] ^= 0x80;

    /* Export gives back the exact DER imported. */
    bytes e8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, priv), es = export_ok(WEBCRYPTO_FORMAT_SPKI, pub);
    assert_same(&e8, &p8);
    assert_same(&es, &spki);

    /* pkcs8 -> JWK -> key -> pkcs8 again: same bytes, same signature. */
    bytes jtext = export_ok(WEBCRYPTO_FORMAT_JWK, priv);
    json_t *j = jwk_parse(&jtext);
    assert_string_equal(jwk_str(j, "kty"), "RSA");
    assert_string_equal(jwk_str(j, "alg"), "RS256");
    assert_string_equal(jwk_str(j, "e"), "AQAB");
    json_decref(j);
    webcrypto_key *from_jwk = import_ok(WEBCRYPTO_FORMAT_JWK, jtext.p, jtext.n, &rs, true,
                                        WEBCRYPTO_USAGE_SIGN);
    bytes sig2 = sign_ok(&rs, from_jwk, msg, mlen);
    assert_same(&sig2, &want);
    bytes e8b = export_ok(WEBCRYPTO_FORMAT_PKCS8, from_jwk);
    assert_same(&e8b, &p8);
    webcrypto_key *again = import_ok(WEBCRYPTO_FORMAT_PKCS8, e8b.p, e8b.n, &rs, false,
                                     WEBCRYPTO_USAGE_SIGN);
    bytes sig3 = sign_ok(&rs, again, msg, mlen);
    assert_same(&sig3, &want);

    /* The public JWK -> spki is the same SPKI. */
    bytes pj = export_ok(WEBCRYPTO_FORMAT_JWK, pub);
    webcrypto_key *pub2 = import_ok(WEBCRYPTO_FORMAT_JWK, pj.p, pj.n, &rs, true,
                                    WEBCRYPTO_USAGE_VERIFY);
    bytes es2 = export_ok(WEBCRYPTO_FORMAT_SPKI, pub2);
    assert_same(&es2, &spki);
    assert_true(verify_ok(&rs, pub2, want.p, want.n, msg, mlen));

    /* The key is bound to its hash: under SHA-384 the signature is wrong. */
    webcrypto_params rs384 = rs;
    rs384.hash = WEBCRYPTO_ALG_SHA_384;
    webcrypto_key *pub384 = import_ok(WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &rs384, true,
                                      WEBCRYPTO_USAGE_VERIFY);
    assert_false(verify_ok(&rs384, pub384, want.p, want.n, msg, mlen));

    /* The same key material serves RSA-PSS too (random salt: round trip). */
    webcrypto_params ps = plain_alg(WEBCRYPTO_ALG_RSA_PSS);
    ps.hash = WEBCRYPTO_ALG_SHA_256;
    webcrypto_key *ppriv = import_ok(WEBCRYPTO_FORMAT_PKCS8, p8.p, p8.n, &ps, false,
                                     WEBCRYPTO_USAGE_SIGN);
    webcrypto_key *ppub = import_ok(WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &ps, false,
                                    WEBCRYPTO_USAGE_VERIFY);
    ps.salt_length = 32;
    bytes psig = sign_ok(&ps, ppriv, msg, mlen);
    assert_int_equal(psig.n, 256);
    assert_true(verify_ok(&ps, ppub, psig.p, psig.n, msg, mlen));
    assert_false(verify_ok(&ps, ppub, want.p, want.n, msg, mlen)); /* a PKCS1 signature */

    bytes_free(&psig);
    webcrypto_key_free(ppub);
    webcrypto_key_free(ppriv);
    webcrypto_key_free(pub384);
    bytes_free(&es2);
    webcrypto_key_free(pub2);
    bytes_free(&pj);
    bytes_free(&sig3);
    webcrypto_key_free(again);
    bytes_free(&e8b);
    bytes_free(&sig2);
    webcrypto_key_free(from_jwk);
    bytes_free(&jtext);
    bytes_free(&e8);
    bytes_free(&es);
    bytes_free(&sig);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    bytes_free(&p8);
    bytes_free(&spki);
    bytes_free(&want);
}

/* ------------------------------------------------------------------------ */
/* Round trips through every format, for every algorithm                    */
/* ------------------------------------------------------------------------ */

typedef struct alg_case {
    const char *name;
    webcrypto_algorithm alg;
    webcrypto_algorithm hash;       /* RSA: the key's hash */
    webcrypto_named_curve curve;    /* EC */
    webcrypto_algorithm op_hash;    /* ECDSA: the hash of sign/verify */
    size_t salt_length;             /* RSA-PSS */
    size_t sig_len;                 /* signatures / ciphertexts / secrets */
    unsigned pub_usages, priv_usages;
} alg_case;

#define U_SV WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN
#define U_OAEP (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY), \
               (WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY)
#define U_DH 0, (WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY)

static const alg_case CASES[] = {
    {"roundtrip RSASSA-PKCS1-v1_5 SHA-256 1024", WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
     WEBCRYPTO_ALG_SHA_256, WEBCRYPTO_CURVE_NONE, WEBCRYPTO_ALG_NONE, 0, 128, U_SV},
    {"roundtrip RSA-PSS SHA-384 1024", WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_384,
     WEBCRYPTO_CURVE_NONE, WEBCRYPTO_ALG_NONE, 48, 128, U_SV},
    {"roundtrip RSA-OAEP SHA-1 1024", WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_1,
     WEBCRYPTO_CURVE_NONE, WEBCRYPTO_ALG_NONE, 0, 128, U_OAEP},
    {"roundtrip ECDSA P-256", WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_P256,
     WEBCRYPTO_ALG_SHA_256, 0, 64, U_SV},
    {"roundtrip ECDSA P-384", WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_P384,
     WEBCRYPTO_ALG_SHA_384, 0, 96, U_SV},
    {"roundtrip ECDSA P-521", WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_P521,
     WEBCRYPTO_ALG_SHA_512, 0, 132, U_SV},
    {"roundtrip ECDH P-256", WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_P256,
     WEBCRYPTO_ALG_NONE, 0, 32, U_DH},
    {"roundtrip ECDH P-384", WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_P384,
     WEBCRYPTO_ALG_NONE, 0, 48, U_DH},
    {"roundtrip ECDH P-521", WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_P521,
     WEBCRYPTO_ALG_NONE, 0, 66, U_DH},
    {"roundtrip Ed25519", WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_NONE,
     WEBCRYPTO_ALG_NONE, 0, 64, U_SV},
    {"roundtrip X25519", WEBCRYPTO_ALG_X25519, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_NONE,
     WEBCRYPTO_ALG_NONE, 0, 32, U_DH},
    {"roundtrip Ed448", WEBCRYPTO_ALG_ED448, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_NONE,
     WEBCRYPTO_ALG_NONE, 0, 114, U_SV},
    {"roundtrip X448", WEBCRYPTO_ALG_X448, WEBCRYPTO_ALG_NONE, WEBCRYPTO_CURVE_NONE,
     WEBCRYPTO_ALG_NONE, 0, 56, U_DH},
};
#define N_CASES (sizeof CASES / sizeof CASES[0])

static bool is_rsa(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || a == WEBCRYPTO_ALG_RSA_PSS ||
           a == WEBCRYPTO_ALG_RSA_OAEP;
}

static bool is_dh(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_ECDH || a == WEBCRYPTO_ALG_X25519 || a == WEBCRYPTO_ALG_X448;
}

/* Key parameters for generate/import. */
static webcrypto_params case_key_params(const alg_case *c) {
    webcrypto_params p = is_rsa(c->alg) ? rsa_alg(c->alg, c->hash, 1024) : plain_alg(c->alg);
    p.named_curve = c->curve;
    return p;
}

/* Parameters of sign/verify/encrypt/decrypt. */
static webcrypto_params case_op_params(const alg_case *c) {
    webcrypto_params p = plain_alg(c->alg);
    p.hash = c->op_hash;
    p.salt_length = c->salt_length;
    return p;
}

/* The operation of the algorithm between a public and a private key works. */
static void check_pair(const alg_case *c, const webcrypto_key *pub, const webcrypto_key *priv) {
    webcrypto_params op = case_op_params(c);
    if (c->alg == WEBCRYPTO_ALG_RSA_OAEP) {
        bytes ct = crypt_ok(true, &op, pub, MSG, sizeof MSG);
        assert_int_equal(ct.n, c->sig_len);
        bytes pt = crypt_ok(false, &op, priv, ct.p, ct.n);
        assert_int_equal(pt.n, sizeof MSG);
        assert_memory_equal(pt.p, MSG, sizeof MSG);
        bytes_free(&ct);
        bytes_free(&pt);
        /* with a label */
        static const uint8_t label[] = "the label";
        op.label = label;
        op.label_len = sizeof label;
        ct = crypt_ok(true, &op, pub, MSG, sizeof MSG);
        pt = crypt_ok(false, &op, priv, ct.p, ct.n);
        assert_int_equal(pt.n, sizeof MSG);
        assert_memory_equal(pt.p, MSG, sizeof MSG);
        bytes_free(&ct);
        bytes_free(&pt);
        return;
    }
    bytes sig = sign_ok(&op, priv, MSG, sizeof MSG);
    assert_int_equal(sig.n, c->sig_len);
    assert_true(verify_ok(&op, pub, sig.p, sig.n, MSG, sizeof MSG));
    assert_false(verify_ok(&op, pub, sig.p, sig.n, MSG, sizeof MSG - 1));
    sig.p[sig.n / 2] ^= 0x04;
    assert_false(verify_ok(&op, pub, sig.p, sig.n, MSG, sizeof MSG));
    sig.p[sig.n / 2] ^= 0x04;
    /* A truncated or extended signature is false, not an error. */
    assert_false(verify_ok(&op, pub, sig.p, sig.n - 1, MSG, sizeof MSG));
    uint8_t longer[200] = {0};
    memcpy(longer, sig.p, sig.n);
    assert_false(verify_ok(&op, pub, longer, sig.n + 1, MSG, sizeof MSG));
    bytes_free(&sig);
}

/* Exports `key` in fmt, imports that, exports again: identical bytes. The
 * imported key is returned. */
static webcrypto_key *reimport(const alg_case *c, webcrypto_key_format fmt,
                               const webcrypto_key *key, unsigned usages) {
    webcrypto_params kp = case_key_params(c);
    bytes e1 = export_ok(fmt, key);
    webcrypto_key *k = import_ok(fmt, e1.p, e1.n, &kp, true, usages);
    bytes e2 = export_ok(fmt, k);
    if (e1.n != e2.n || memcmp(e1.p, e2.p, e1.n) != 0)
        fail_msg("%s: format %d does not round trip (%zu bytes, then %zu)", c->name, (int)fmt,
                 e1.n, e2.n);
    assert_int_equal(webcrypto_key_get_type(k), webcrypto_key_get_type(key));
    assert_int_equal(webcrypto_key_get_algorithm(k), c->alg);
    assert_int_equal(webcrypto_key_get_named_curve(k), c->curve);
    assert_int_equal(webcrypto_key_get_hash(k), webcrypto_key_get_hash(key));
    assert_int_equal(webcrypto_key_get_modulus_length(k), webcrypto_key_get_modulus_length(key));
    assert_int_equal(webcrypto_key_get_usages(k), usages);
    bytes_free(&e1);
    bytes_free(&e2);
    return k;
}

static void test_roundtrip(void **state) {
    tu_require(((const alg_case *)*state)->alg);
    const alg_case *c = *state;
    webcrypto_params kp = case_key_params(c);
    webcrypto_key *pub = NULL, *priv = NULL;
    gen_pair(&kp, true, c->pub_usages | c->priv_usages, &pub, &priv);
    assert_int_equal(webcrypto_key_get_usages(pub), c->pub_usages);
    assert_int_equal(webcrypto_key_get_usages(priv), c->priv_usages);

    /* Public: spki, jwk, raw (not RSA); each import gives the same SPKI. */
    webcrypto_key_format pub_fmts[] = {WEBCRYPTO_FORMAT_SPKI, WEBCRYPTO_FORMAT_JWK,
                                       WEBCRYPTO_FORMAT_RAW};
    size_t n_pub = is_rsa(c->alg) ? 2 : 3;
    webcrypto_key *pubs[4] = {pub};
    bytes spki = export_ok(WEBCRYPTO_FORMAT_SPKI, pub);
    for (size_t i = 0; i < n_pub; i++) {
        pubs[i + 1] = reimport(c, pub_fmts[i], pub, c->pub_usages);
        bytes s = export_ok(WEBCRYPTO_FORMAT_SPKI, pubs[i + 1]);
        assert_same(&s, &spki);
        bytes_free(&s);
    }
    /* Private: pkcs8, jwk; each import gives the same PKCS #8. */
    webcrypto_key_format priv_fmts[] = {WEBCRYPTO_FORMAT_PKCS8, WEBCRYPTO_FORMAT_JWK};
    webcrypto_key *privs[3] = {priv};
    bytes p8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, priv);
    for (size_t i = 0; i < 2; i++) {
        privs[i + 1] = reimport(c, priv_fmts[i], priv, c->priv_usages);
        bytes s = export_ok(WEBCRYPTO_FORMAT_PKCS8, privs[i + 1]);
        assert_same(&s, &p8);
        bytes_free(&s);
    }
    /* The private JWK's public members are the public JWK's. */
    bytes jpub = export_ok(WEBCRYPTO_FORMAT_JWK, pub), jpriv = export_ok(WEBCRYPTO_FORMAT_JWK, priv);
    json_t *a = jwk_parse(&jpub), *b = jwk_parse(&jpriv);
    static const char *const pub_members[] = {"kty", "n", "e", "crv", "x", "y", "alg"};
    for (size_t i = 0; i < sizeof pub_members / sizeof pub_members[0]; i++) {
        const json_t *va = json_object_get(a, pub_members[i]);
        const json_t *vb = json_object_get(b, pub_members[i]);
        assert_true((va == NULL) == (vb == NULL));
        if (va) assert_true(json_equal(va, vb));
    }
    assert_null(json_object_get(a, "d"));
    assert_non_null(json_object_get(b, "d"));
    assert_true(json_is_true(json_object_get(a, "ext")));
    json_decref(a);
    json_decref(b);
    bytes_free(&jpub);
    bytes_free(&jpriv);

    if (is_dh(c->alg)) {
        /* Every private key with the other party's public key, and the other
         * party with every public key: one secret. */
        webcrypto_key *opub = NULL, *opriv = NULL;
        gen_pair(&kp, false, c->priv_usages, &opub, &opriv);
        bytes ref = derive_full(opriv, pub, c->sig_len);
        for (size_t i = 0; i < 3; i++) {
            bytes s = derive_full(privs[i], opub, c->sig_len);
            assert_same(&s, &ref);
            bytes_free(&s);
        }
        for (size_t i = 0; i <= n_pub; i++) {
            bytes s = derive_full(opriv, pubs[i], c->sig_len);
            assert_same(&s, &ref);
            bytes_free(&s);
        }
        bytes_free(&ref);
        webcrypto_key_free(opub);
        webcrypto_key_free(opriv);
    } else {
        for (size_t i = 0; i < 3; i++)
            for (size_t j = 0; j <= n_pub; j++) check_pair(c, pubs[j], privs[i]);
    }

    for (size_t i = 0; i < 3; i++) webcrypto_key_free(privs[i]);
    for (size_t i = 0; i <= n_pub; i++) webcrypto_key_free(pubs[i]);
    bytes_free(&spki);
    bytes_free(&p8);
}

/* ------------------------------------------------------------------------ */
/* generateKeyPair: usages, extractability, getters                         */
/* ------------------------------------------------------------------------ */

static void test_generate_split_and_getters(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ED25519,
               WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_RSA_PSS,
               WEBCRYPTO_ALG_X25519);
    webcrypto_key *pub = NULL, *priv = NULL;
    uint8_t e[16];

    /* RSA-OAEP, all four usages, not extractable: the public key is always
     * extractable and gets the public usages. */
    webcrypto_params p = rsa_alg(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_256, 1024);
    gen_pair(&p, false,
             WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_WRAP_KEY |
                 WEBCRYPTO_USAGE_UNWRAP_KEY,
             &pub, &priv);
    assert_int_equal(webcrypto_key_get_type(pub), WEBCRYPTO_KEY_PUBLIC);
    assert_int_equal(webcrypto_key_get_type(priv), WEBCRYPTO_KEY_PRIVATE);
    assert_true(webcrypto_key_get_extractable(pub));
    assert_false(webcrypto_key_get_extractable(priv));
    assert_int_equal(webcrypto_key_get_usages(pub),
                     WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY);
    assert_int_equal(webcrypto_key_get_usages(priv),
                     WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY);
    assert_int_equal(webcrypto_key_get_algorithm(pub), WEBCRYPTO_ALG_RSA_OAEP);
    assert_int_equal(webcrypto_key_get_algorithm(priv), WEBCRYPTO_ALG_RSA_OAEP);
    assert_int_equal(webcrypto_key_get_hash(pub), WEBCRYPTO_ALG_SHA_256);
    assert_int_equal(webcrypto_key_get_hash(priv), WEBCRYPTO_ALG_SHA_256);
    assert_int_equal(webcrypto_key_get_modulus_length(pub), 1024);
    assert_int_equal(webcrypto_key_get_modulus_length(priv), 1024);
    memset(e, 0, sizeof e);
    assert_int_equal(webcrypto_key_get_public_exponent(pub, e, sizeof e), 3);
    tu_assert_hex(e, 3, "010001");
    assert_int_equal(webcrypto_key_get_public_exponent(priv, NULL, 0), 3);
    assert_int_equal(webcrypto_key_get_named_curve(pub), WEBCRYPTO_CURVE_NONE);
    assert_ptr_equal(webcrypto_key_get_backend(pub), tu_backend());
    assert_ptr_equal(webcrypto_key_get_backend(priv), tu_backend());
    uint8_t *out = NULL;
    size_t out_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, priv, &out, &out_len),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, priv, &out, &out_len),
                     WEBCRYPTO_ERR_INVALID_ACCESS);
    bytes spki = export_ok(WEBCRYPTO_FORMAT_SPKI, pub);
    bytes_free(&spki);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);

    /* Exponent 3, only the private usage asked for. */
    p = rsa_alg(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_512, 1024);
    p.public_exponent = E3;
    p.public_exponent_len = sizeof E3;
    gen_pair(&p, true, WEBCRYPTO_USAGE_SIGN, &pub, &priv);
    assert_int_equal(webcrypto_key_get_usages(pub), 0);
    assert_int_equal(webcrypto_key_get_usages(priv), WEBCRYPTO_USAGE_SIGN);
    assert_true(webcrypto_key_get_extractable(priv));
    memset(e, 0, sizeof e);
    assert_int_equal(webcrypto_key_get_public_exponent(priv, e, sizeof e), 1);
    assert_int_equal(e[0], 3);
    bytes jwk = export_ok(WEBCRYPTO_FORMAT_JWK, pub);
    json_t *j = jwk_parse(&jwk);
    assert_string_equal(jwk_str(j, "e"), "Aw");
    assert_string_equal(jwk_str(j, "alg"), "RS512");
    json_decref(j);
    bytes_free(&jwk);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);

    /* A modulus that is a multiple of 8 but not of 64: WebCrypto allows it;
     * a backend whose library cannot make it (BoringSSL makes multiples of
     * 128 bits) refuses with OperationError, never a key of another size. */
    p = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_1, 1000);
    webcrypto_status gst = webcrypto_generate_key_pair(
        tu_backend(), &p, true, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
    if (gst == WEBCRYPTO_ERR_OPERATION) {
        printf("note: backend %s cannot generate a 1000-bit RSA key: %s\n",
               webcrypto_backend_name(tu_backend()), webcrypto_error_message());
    } else {
        tu_assert_status(gst, WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_modulus_length(pub), 1000);
        assert_int_equal(webcrypto_key_get_modulus_length(priv), 1000);
        webcrypto_params ps = plain_alg(WEBCRYPTO_ALG_RSA_PSS);
        ps.salt_length = 20;
        bytes sig = sign_ok(&ps, priv, MSG, sizeof MSG);
        assert_int_equal(sig.n, 125);
        assert_true(verify_ok(&ps, pub, sig.p, sig.n, MSG, sizeof MSG));
        bytes_free(&sig);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }

    /* EC: the curve, no modulus or exponent. */
    webcrypto_named_curve curves[] = {WEBCRYPTO_CURVE_P256, WEBCRYPTO_CURVE_P384,
                                      WEBCRYPTO_CURVE_P521};
    for (size_t i = 0; i < 3; i++) {
        p = ec_alg(WEBCRYPTO_ALG_ECDSA, curves[i]);
        gen_pair(&p, false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
        assert_int_equal(webcrypto_key_get_named_curve(pub), curves[i]);
        assert_int_equal(webcrypto_key_get_named_curve(priv), curves[i]);
        assert_int_equal(webcrypto_key_get_modulus_length(priv), 0);
        assert_int_equal(webcrypto_key_get_public_exponent(priv, e, sizeof e), 0);
        assert_int_equal(webcrypto_key_get_usages(pub), WEBCRYPTO_USAGE_VERIFY);
        assert_int_equal(webcrypto_key_get_usages(priv), WEBCRYPTO_USAGE_SIGN);
        assert_true(webcrypto_key_get_extractable(pub));
        assert_false(webcrypto_key_get_extractable(priv));
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    /* ECDH: the public key has no usages at all. */
    p = ec_alg(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P521);
    gen_pair(&p, true, WEBCRYPTO_USAGE_DERIVE_KEY, &pub, &priv);
    assert_int_equal(webcrypto_key_get_usages(pub), 0);
    assert_int_equal(webcrypto_key_get_usages(priv), WEBCRYPTO_USAGE_DERIVE_KEY);
    assert_int_equal(webcrypto_key_get_algorithm(pub), WEBCRYPTO_ALG_ECDH);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);

    /* OKP */
    p = plain_alg(WEBCRYPTO_ALG_ED25519);
    gen_pair(&p, false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
    assert_int_equal(webcrypto_key_get_named_curve(pub), WEBCRYPTO_CURVE_NONE);
    assert_int_equal(webcrypto_key_get_usages(pub), WEBCRYPTO_USAGE_VERIFY);
    assert_int_equal(webcrypto_key_get_usages(priv), WEBCRYPTO_USAGE_SIGN);
    bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, pub);
    assert_int_equal(raw.n, 32);
    bytes_free(&raw);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    p = plain_alg(WEBCRYPTO_ALG_X25519);
    gen_pair(&p, true, WEBCRYPTO_USAGE_DERIVE_BITS, &pub, &priv);
    assert_int_equal(webcrypto_key_get_usages(pub), 0);
    assert_int_equal(webcrypto_key_get_usages(priv), WEBCRYPTO_USAGE_DERIVE_BITS);
    assert_int_equal(webcrypto_key_get_algorithm(priv), WEBCRYPTO_ALG_X25519);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* ------------------------------------------------------------------------ */
/* ECDSA with every hash; RSA-PSS salt lengths                              */
/* ------------------------------------------------------------------------ */

static void test_ecdsa_hashes(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDSA);
    webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                    WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
    webcrypto_params kp = ec_alg(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P384);
    webcrypto_key *pub, *priv;
    gen_pair(&kp, false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
    for (size_t i = 0; i < 4; i++) {
        webcrypto_params op = plain_alg(WEBCRYPTO_ALG_ECDSA);
        op.hash = hashes[i];
        bytes s1 = sign_ok(&op, priv, MSG, sizeof MSG);
        bytes s2 = sign_ok(&op, priv, MSG, sizeof MSG);
        assert_int_equal(s1.n, 96);
        assert_int_equal(s2.n, 96);
        /* k is random: two signatures differ, both verify */
        assert_memory_not_equal(s1.p, s2.p, 96);
        assert_true(verify_ok(&op, pub, s1.p, s1.n, MSG, sizeof MSG));
        assert_true(verify_ok(&op, pub, s2.p, s2.n, MSG, sizeof MSG));
        /* verified under another hash: false */
        op.hash = hashes[(i + 1) % 4];
        assert_false(verify_ok(&op, pub, s1.p, s1.n, MSG, sizeof MSG));
        /* r || s with s = 0, and all-zero: false, not an error */
        uint8_t zero[96] = {0};
        assert_false(verify_ok(&op, pub, zero, sizeof zero, MSG, sizeof MSG));
        bytes_free(&s1);
        bytes_free(&s2);
    }
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

static void test_rsa_pss_salt(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSA_PSS);
    webcrypto_params kp = rsa_alg(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_256, 1024);
    webcrypto_key *pub, *priv;
    gen_pair(&kp, false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
    webcrypto_params op = plain_alg(WEBCRYPTO_ALG_RSA_PSS);
    /* salt 0: deterministic */
    bytes a = sign_ok(&op, priv, MSG, sizeof MSG), b = sign_ok(&op, priv, MSG, sizeof MSG);
    assert_same(&a, &b);
    assert_true(verify_ok(&op, pub, a.p, a.n, MSG, sizeof MSG));
    /* salt 32: random, and the verifier's salt length must match */
    op.salt_length = 32;
    bytes c = sign_ok(&op, priv, MSG, sizeof MSG), d = sign_ok(&op, priv, MSG, sizeof MSG);
    assert_memory_not_equal(c.p, d.p, c.n);
    assert_true(verify_ok(&op, pub, c.p, c.n, MSG, sizeof MSG));
    assert_false(verify_ok(&op, pub, a.p, a.n, MSG, sizeof MSG));
    op.salt_length = 0;
    assert_false(verify_ok(&op, pub, c.p, c.n, MSG, sizeof MSG));
    /* the largest salt a 1024-bit key with SHA-256 holds: 128 - 32 - 2 */
    op.salt_length = 94;
    bytes m = sign_ok(&op, priv, MSG, sizeof MSG);
    assert_true(verify_ok(&op, pub, m.p, m.n, MSG, sizeof MSG));
    bytes_free(&a);
    bytes_free(&b);
    bytes_free(&c);
    bytes_free(&d);
    bytes_free(&m);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* ------------------------------------------------------------------------ */
/* RSA-OAEP: labels, sizes                                                  */
/* ------------------------------------------------------------------------ */

static void test_rsa_oaep(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSA_OAEP);
    webcrypto_params kp = rsa_alg(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_256, 1024);
    webcrypto_key *pub, *priv;
    gen_pair(&kp, false, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &pub, &priv);
    webcrypto_params op = plain_alg(WEBCRYPTO_ALG_RSA_OAEP);
    /* the longest message: 128 - 2 * 32 - 2 = 62 bytes; and the empty one */
    uint8_t m62[62];
    for (size_t i = 0; i < sizeof m62; i++) m62[i] = (uint8_t)(i * 7 + 1);
    bytes ct = crypt_ok(true, &op, pub, m62, sizeof m62);
    assert_int_equal(ct.n, 128);
    bytes ct2 = crypt_ok(true, &op, pub, m62, sizeof m62);
    assert_memory_not_equal(ct.p, ct2.p, 128); /* randomised */
    bytes pt = crypt_ok(false, &op, priv, ct.p, ct.n);
    assert_int_equal(pt.n, sizeof m62);
    assert_memory_equal(pt.p, m62, sizeof m62);
    bytes_free(&pt);
    bytes e = crypt_ok(true, &op, pub, NULL, 0);
    pt = crypt_ok(false, &op, priv, e.p, e.n);
    assert_int_equal(pt.n, 0);
    bytes_free(&pt);

    /* a label must match; an empty label equals no label */
    static const uint8_t label[] = {0x00, 0x01, 0x02};
    webcrypto_params lab = op;
    lab.label = label;
    lab.label_len = sizeof label;
    bytes lct = crypt_ok(true, &lab, pub, MSG, sizeof MSG);
    pt = crypt_ok(false, &lab, priv, lct.p, lct.n);
    assert_int_equal(pt.n, sizeof MSG);
    assert_memory_equal(pt.p, MSG, sizeof MSG);
    bytes_free(&pt);
    uint8_t buf[128];
    size_t n = 0;
    tu_assert_status(webcrypto_decrypt(&op, priv, lct.p, lct.n, buf, sizeof buf, &n),
                     WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(webcrypto_decrypt(&lab, priv, ct.p, ct.n, buf, sizeof buf, &n),
                     WEBCRYPTO_ERR_OPERATION);
    webcrypto_params empty = op;
    empty.label = label;
    empty.label_len = 0;
    pt = crypt_ok(false, &empty, priv, ct.p, ct.n);
    assert_int_equal(pt.n, sizeof m62);
    bytes_free(&pt);

    bytes_free(&e);
    bytes_free(&lct);
    bytes_free(&ct);
    bytes_free(&ct2);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* ------------------------------------------------------------------------ */
/* ECDH: both ways, lengths, deriveKey                                      */
/* ------------------------------------------------------------------------ */

static void test_ecdh_lengths_and_derive_key(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_X25519);
    struct {
        webcrypto_algorithm alg;
        webcrypto_named_curve curve;
        size_t full, aes_bits;
    } v[] = {
        {WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P256, 32, 256},
        {WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P384, 48, 256},
        {WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P521, 66, 128},
        {WEBCRYPTO_ALG_X25519, WEBCRYPTO_CURVE_NONE, 32, 256},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        webcrypto_params kp = ec_alg(v[i].alg, v[i].curve);
        unsigned u = WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY;
        webcrypto_key *apub, *apriv, *bpub, *bpriv;
        gen_pair(&kp, false, u, &apub, &apriv);
        gen_pair(&kp, false, u, &bpub, &bpriv);
        bytes s1 = derive_full(apriv, bpub, v[i].full), s2 = derive_full(bpriv, apub, v[i].full);
        assert_same(&s1, &s2);

        /* the full length in bits, a byte, some bits, nothing */
        webcrypto_params dp = plain_alg(v[i].alg);
        dp.public_key = bpub;
        uint8_t buf[66];
        memset(buf, 0xee, sizeof buf);
        size_t dlen = 0;
        tu_assert_status(webcrypto_derive_bits(&dp, apriv, v[i].full * 8, buf, v[i].full, &dlen),
                         WEBCRYPTO_OK);
        assert_int_equal(dlen, v[i].full);
        assert_memory_equal(buf, s1.p, v[i].full);
        memset(buf, 0xee, sizeof buf);
        tu_assert_status(webcrypto_derive_bits(&dp, apriv, 8, buf, 1, &dlen), WEBCRYPTO_OK);
        assert_int_equal(dlen, 1);
        assert_int_equal(buf[0], s1.p[0]);
        assert_int_equal(buf[1], 0xee); /* nothing written past the length */
        tu_assert_status(webcrypto_derive_bits(&dp, apriv, 13, buf, 2, &dlen), WEBCRYPTO_OK);
        assert_int_equal(dlen, 2);
        assert_int_equal(buf[0], s1.p[0]);
        assert_int_equal(buf[1], s1.p[1] & 0xf8);
        tu_assert_status(webcrypto_derive_bits(&dp, apriv, 0, buf, 0, &dlen), WEBCRYPTO_OK);
        assert_int_equal(dlen, 0);

        /* deriveKey into AES-GCM: the key is the secret's first bits, and both
         * parties' keys decrypt each other's messages. */
        webcrypto_params aes = plain_alg(WEBCRYPTO_ALG_AES_GCM);
        aes.length = v[i].aes_bits;
        webcrypto_key *ka = NULL, *kb = NULL;
        tu_assert_status(webcrypto_derive_key(&dp, apriv, &aes, true,
                                              WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                                              &ka),
                         WEBCRYPTO_OK);
        webcrypto_params dq = plain_alg(v[i].alg);
        dq.public_key = apub;
        tu_assert_status(webcrypto_derive_key(&dq, bpriv, &aes, false, WEBCRYPTO_USAGE_DECRYPT,
                                              &kb),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_algorithm(ka), WEBCRYPTO_ALG_AES_GCM);
        assert_int_equal(webcrypto_key_get_length(ka), v[i].aes_bits);
        bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, ka);
        assert_int_equal(raw.n, v[i].aes_bits / 8);
        assert_memory_equal(raw.p, s1.p, raw.n);
        static const uint8_t iv[12] = {1, 2, 3};
        webcrypto_params gcm = plain_alg(WEBCRYPTO_ALG_AES_GCM);
        gcm.iv = iv;
        gcm.iv_len = sizeof iv;
        bytes ct = crypt_ok(true, &gcm, ka, MSG, sizeof MSG);
        bytes pt = crypt_ok(false, &gcm, kb, ct.p, ct.n);
        assert_int_equal(pt.n, sizeof MSG);
        assert_memory_equal(pt.p, MSG, sizeof MSG);

        bytes_free(&ct);
        bytes_free(&pt);
        bytes_free(&raw);
        webcrypto_key_free(ka);
        webcrypto_key_free(kb);
        bytes_free(&s1);
        bytes_free(&s2);
        webcrypto_key_free(apub);
        webcrypto_key_free(apriv);
        webcrypto_key_free(bpub);
        webcrypto_key_free(bpriv);
    }
}

/* deriveBits with out == NULL: the size query (the API's bulk-output
 * convention), which derives nothing - 0 bytes for 0 bits, the secret's size
 * for WEBCRYPTO_LENGTH_FULL, the bytes the bits take otherwise, and the
 * length rule's OperationError. Last in the list: a sanitizer stop here
 * (memcpy to NULL) would otherwise hide the tests after it. */
static void test_derive_bits_empty_null(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_X25519);
    webcrypto_params kp = ec_alg(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P256);
    webcrypto_key *pub, *priv;
    gen_pair(&kp, false, WEBCRYPTO_USAGE_DERIVE_BITS, &pub, &priv);
    webcrypto_params dp = plain_alg(WEBCRYPTO_ALG_ECDH);
    dp.public_key = pub;
    size_t dlen = 99;
    tu_assert_status(webcrypto_derive_bits(&dp, priv, 0, NULL, 0, &dlen), WEBCRYPTO_OK);
    assert_int_equal(dlen, 0);
    tu_assert_status(webcrypto_derive_bits(&dp, priv, WEBCRYPTO_LENGTH_FULL, NULL, 0, &dlen),
                     WEBCRYPTO_OK);
    assert_int_equal(dlen, 32);
    tu_assert_status(webcrypto_derive_bits(&dp, priv, 9, NULL, 0, &dlen), WEBCRYPTO_OK);
    assert_int_equal(dlen, 2);
    tu_assert_status(webcrypto_derive_bits(&dp, priv, 264, NULL, 0, &dlen),
                     WEBCRYPTO_ERR_OPERATION);
    webcrypto_params xp = plain_alg(WEBCRYPTO_ALG_X25519);
    webcrypto_key *xpub, *xpriv;
    gen_pair(&xp, false, WEBCRYPTO_USAGE_DERIVE_BITS, &xpub, &xpriv);
    xp.public_key = xpub;
    dlen = 99;
    tu_assert_status(webcrypto_derive_bits(&xp, xpriv, 0, NULL, 0, &dlen), WEBCRYPTO_OK);
    assert_int_equal(dlen, 0);
    tu_assert_status(webcrypto_derive_bits(&xp, xpriv, WEBCRYPTO_LENGTH_FULL, NULL, 0, &dlen),
                     WEBCRYPTO_OK);
    assert_int_equal(dlen, 32);
    webcrypto_key_free(xpub);
    webcrypto_key_free(xpriv);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* ------------------------------------------------------------------------ */
/* EC raw import: compressed points                                         */
/* ------------------------------------------------------------------------ */

static void test_ec_compressed_point(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDSA);
    webcrypto_named_curve curves[] = {WEBCRYPTO_CURVE_P256, WEBCRYPTO_CURVE_P384,
                                      WEBCRYPTO_CURVE_P521};
    for (size_t i = 0; i < 3; i++) {
        webcrypto_params kp = ec_alg(WEBCRYPTO_ALG_ECDSA, curves[i]);
        webcrypto_key *pub, *priv;
        gen_pair(&kp, false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
        bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, pub);
        size_t fs = (raw.n - 1) / 2;
        assert_int_equal(raw.p[0], 0x04);
        /* SEC1 2.3.3: 02 or 03 by the parity of y, then x */
        uint8_t comp[67];
        comp[0] = (uint8_t)(0x02 | (raw.p[raw.n - 1] & 1));
        memcpy(comp + 1, raw.p + 1, fs);
        webcrypto_key *k = import_ok(WEBCRYPTO_FORMAT_RAW, comp, fs + 1, &kp, true,
                                     WEBCRYPTO_USAGE_VERIFY);
        bytes back = export_ok(WEBCRYPTO_FORMAT_RAW, k);
        assert_same(&back, &raw); /* exported uncompressed */
        webcrypto_params op = plain_alg(WEBCRYPTO_ALG_ECDSA);
        op.hash = WEBCRYPTO_ALG_SHA_256;
        bytes sig = sign_ok(&op, priv, MSG, sizeof MSG);
        assert_true(verify_ok(&op, k, sig.p, sig.n, MSG, sizeof MSG));
        /* the other parity is the point's negation: a valid key, another point */
        comp[0] ^= 1;
        webcrypto_key *neg = import_ok(WEBCRYPTO_FORMAT_RAW, comp, fs + 1, &kp, true,
                                       WEBCRYPTO_USAGE_VERIFY);
        bytes nraw = export_ok(WEBCRYPTO_FORMAT_RAW, neg);
        assert_memory_equal(nraw.p, raw.p, 1 + fs);
        assert_memory_not_equal(nraw.p + 1 + fs, raw.p + 1 + fs, fs);
        assert_false(verify_ok(&op, neg, sig.p, sig.n, MSG, sizeof MSG));
        bytes_free(&nraw);
        webcrypto_key_free(neg);
        bytes_free(&sig);
        bytes_free(&back);
        webcrypto_key_free(k);
        bytes_free(&raw);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
}

/* ------------------------------------------------------------------------ */
/* wrapKey / unwrapKey with RSA-OAEP                                        */
/* ------------------------------------------------------------------------ */

static void test_rsa_oaep_wrap(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_RSA_OAEP);
    /* 2048 bits with SHA-384: room for 256 - 2 * 48 - 2 = 158 bytes, enough
     * for an AES key's JWK. */
    webcrypto_params kp = rsa_alg(WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_384, 2048);
    webcrypto_key *pub, *priv;
    gen_pair(&kp, false, WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY, &pub, &priv);
    webcrypto_params aes = plain_alg(WEBCRYPTO_ALG_AES_GCM);
    aes.length = 256;
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &aes, true,
                                            WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                                            &k),
                     WEBCRYPTO_OK);
    bytes raw = export_ok(WEBCRYPTO_FORMAT_RAW, k), jwk = export_ok(WEBCRYPTO_FORMAT_JWK, k);

    static const uint8_t label[] = "wrapping label";
    webcrypto_params w = plain_alg(WEBCRYPTO_ALG_RSA_OAEP);
    webcrypto_key_format fmts[] = {WEBCRYPTO_FORMAT_RAW, WEBCRYPTO_FORMAT_JWK};
    for (size_t with_label = 0; with_label < 2; with_label++) {
        w.label = with_label ? label : NULL;
        w.label_len = with_label ? sizeof label : 0;
        for (size_t f = 0; f < 2; f++) {
            uint8_t *wrapped = NULL;
            size_t wn = 0;
            tu_assert_status(webcrypto_wrap_key(fmts[f], k, pub, &w, &wrapped, &wn),
                             WEBCRYPTO_OK);
            assert_int_equal(wn, 256);
            webcrypto_key *back = NULL;
            tu_assert_status(webcrypto_unwrap_key(fmts[f], wrapped, wn, priv, &w, &aes, true,
                                                  WEBCRYPTO_USAGE_ENCRYPT |
                                                      WEBCRYPTO_USAGE_DECRYPT,
                                                  &back),
                             WEBCRYPTO_OK);
            bytes r2 = export_ok(WEBCRYPTO_FORMAT_RAW, back), j2 = export_ok(WEBCRYPTO_FORMAT_JWK, back);
            assert_same(&r2, &raw);
            assert_same(&j2, &jwk);
            bytes_free(&r2);
            bytes_free(&j2);
            webcrypto_key_free(back);
            /* another label (or none): OperationError */
            webcrypto_params wrong = w;
            static const uint8_t other[] = "another label";
            wrong.label = with_label ? NULL : other;
            wrong.label_len = with_label ? 0 : sizeof other;
            back = NULL;
            tu_assert_status(webcrypto_unwrap_key(fmts[f], wrapped, wn, priv, &wrong, &aes, true,
                                                  WEBCRYPTO_USAGE_ENCRYPT, &back),
                             WEBCRYPTO_ERR_OPERATION);
            assert_null(back);
            webcrypto_buffer_free(wrapped, wn);
        }
    }
    bytes_free(&raw);
    bytes_free(&jwk);
    webcrypto_key_free(k);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* An asymmetric private key wrapped as pkcs8 and jwk with AES-GCM, and
 * unwrapped: the import half of unwrapKey for key pairs. */
static void test_wrap_private_key(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_ECDSA);
    webcrypto_params ec = ec_alg(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P384);
    webcrypto_key *pub, *priv;
    gen_pair(&ec, true, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pub, &priv);
    webcrypto_params aes = plain_alg(WEBCRYPTO_ALG_AES_GCM);
    aes.length = 128;
    webcrypto_key *kek = NULL;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &aes, false,
                                            WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY,
                                            &kek),
                     WEBCRYPTO_OK);
    static const uint8_t iv[12] = {9, 8, 7};
    webcrypto_params gcm = plain_alg(WEBCRYPTO_ALG_AES_GCM);
    gcm.iv = iv;
    gcm.iv_len = sizeof iv;
    bytes p8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, priv);
    webcrypto_key_format fmts[] = {WEBCRYPTO_FORMAT_PKCS8, WEBCRYPTO_FORMAT_JWK};
    for (size_t f = 0; f < 2; f++) {
        uint8_t *w = NULL;
        size_t wn = 0;
        tu_assert_status(webcrypto_wrap_key(fmts[f], priv, kek, &gcm, &w, &wn), WEBCRYPTO_OK);
        webcrypto_key *back = NULL;
        tu_assert_status(webcrypto_unwrap_key(fmts[f], w, wn, kek, &gcm, &ec, true,
                                              WEBCRYPTO_USAGE_SIGN, &back),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_type(back), WEBCRYPTO_KEY_PRIVATE);
        assert_int_equal(webcrypto_key_get_named_curve(back), WEBCRYPTO_CURVE_P384);
        bytes b8 = export_ok(WEBCRYPTO_FORMAT_PKCS8, back);
        assert_same(&b8, &p8);
        bytes_free(&b8);
        webcrypto_key_free(back);
        /* unwrapped bytes that do not import as asked: the import's DataError */
        webcrypto_params p256 = ec_alg(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256);
        back = NULL;
        tu_assert_status(webcrypto_unwrap_key(fmts[f], w, wn, kek, &gcm, &p256, true,
                                              WEBCRYPTO_USAGE_SIGN, &back),
                         WEBCRYPTO_ERR_DATA);
        assert_null(back);
        webcrypto_buffer_free(w, wn);
    }
    bytes_free(&p8);
    webcrypto_key_free(kek);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* ------------------------------------------------------------------------ */
/* getPublicKey and supports (modern-algos draft)                           */
/* ------------------------------------------------------------------------ */

#define GP_SV (WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY)
#define GP_DH (WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY)
#define GP_OAEP (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT)

static void test_get_public_key(void **state) {
    (void)state;
    static const struct {
        webcrypto_algorithm alg;
        webcrypto_named_curve curve;
        unsigned usages, pub_usages;
    } v[] = {
        {WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256, GP_SV, WEBCRYPTO_USAGE_VERIFY},
        {WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P384, GP_DH, 0},
        {WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE, GP_SV, WEBCRYPTO_USAGE_VERIFY},
        {WEBCRYPTO_ALG_X25519, WEBCRYPTO_CURVE_NONE, GP_DH, 0},
        {WEBCRYPTO_ALG_ED448, WEBCRYPTO_CURVE_NONE, GP_SV, WEBCRYPTO_USAGE_VERIFY},
        {WEBCRYPTO_ALG_X448, WEBCRYPTO_CURVE_NONE, GP_DH, 0},
        {WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_CURVE_NONE, GP_SV, WEBCRYPTO_USAGE_VERIFY},
        {WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_CURVE_NONE, GP_OAEP,
         WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY},
    };
    size_t done = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        if (!webcrypto_backend_supports(tu_backend(), v[i].alg)) {
            printf("# SKIP getPublicKey %s: not on %s\n", webcrypto_algorithm_name(v[i].alg),
                   webcrypto_backend_name(tu_backend()));
            continue;
        }
        done++;
        webcrypto_params p = webcrypto_algorithm_has_operation(v[i].alg, WEBCRYPTO_OP_ENCRYPT) ||
                                     v[i].alg == WEBCRYPTO_ALG_RSA_PSS
                                 ? rsa_alg(v[i].alg, WEBCRYPTO_ALG_SHA_256, 1024)
                                 : plain_alg(v[i].alg);
        p.named_curve = v[i].curve;
        webcrypto_key *pub = NULL, *priv = NULL, *got = NULL;
        /* a non-extractable private key: the public key is extractable */
        gen_pair(&p, false, v[i].usages, &pub, &priv);
        tu_assert_status(webcrypto_get_public_key(priv, v[i].pub_usages, &got), WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_type(got), WEBCRYPTO_KEY_PUBLIC);
        assert_true(webcrypto_key_get_extractable(got));
        assert_int_equal(webcrypto_key_get_usages(got), v[i].pub_usages);
        assert_int_equal(webcrypto_key_get_algorithm(got), v[i].alg);
        assert_int_equal(webcrypto_key_get_named_curve(got), v[i].curve);
        assert_int_equal(webcrypto_key_get_hash(got), webcrypto_key_get_hash(priv));
        assert_int_equal(webcrypto_key_get_modulus_length(got),
                         webcrypto_key_get_modulus_length(priv));
        /* The same key as the pair's public half. */
        bytes s1 = export_ok(WEBCRYPTO_FORMAT_SPKI, got), s2 = export_ok(WEBCRYPTO_FORMAT_SPKI, pub);
        assert_same(&s1, &s2);
        bytes_free(&s1);
        bytes_free(&s2);
        webcrypto_key_free(got);
        got = NULL;
        /* empty usages are allowed */
        tu_assert_status(webcrypto_get_public_key(priv, 0, &got), WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_usages(got), 0);
        webcrypto_key_free(got);
        got = NULL;
        /* a usage a public key cannot have: SyntaxError */
        tu_assert_status(webcrypto_get_public_key(priv, WEBCRYPTO_USAGE_SIGN | v[i].pub_usages,
                                                  &got),
                         WEBCRYPTO_ERR_SYNTAX);
        tu_assert_status(webcrypto_get_public_key(priv, WEBCRYPTO_USAGE_DECRYPT, &got),
                         WEBCRYPTO_ERR_SYNTAX);
        /* a public key: InvalidAccessError (before the usages) */
        tu_assert_status(webcrypto_get_public_key(pub, WEBCRYPTO_USAGE_SIGN, &got),
                         WEBCRYPTO_ERR_INVALID_ACCESS);
        /* bits that are no usage: TypeError */
        tu_assert_status(webcrypto_get_public_key(priv, 1u << 12, &got),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT);
        assert_null(got);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    /* A secret key: NotSupportedError. */
    if (webcrypto_backend_supports(tu_backend(), WEBCRYPTO_ALG_HMAC)) {
        static const uint8_t k[16] = {1};
        webcrypto_params h = plain_alg(WEBCRYPTO_ALG_HMAC);
        h.hash = WEBCRYPTO_ALG_SHA_256;
        webcrypto_key *sk = import_ok(WEBCRYPTO_FORMAT_RAW, k, sizeof k, &h, true,
                                      WEBCRYPTO_USAGE_SIGN);
        webcrypto_key *got = NULL;
        tu_assert_status(webcrypto_get_public_key(sk, 0, &got), WEBCRYPTO_ERR_NOT_SUPPORTED);
        webcrypto_key_free(sk);
    }
    tu_assert_status(webcrypto_get_public_key(NULL, 0, &(webcrypto_key *){NULL}),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    if (done == 0)
        printf("# SKIP getPublicKey of key pairs: %s has no algorithm with key pairs\n",
               webcrypto_backend_name(tu_backend()));
}

static void test_supports(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    const size_t FULL = WEBCRYPTO_LENGTH_FULL;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT, x = WEBCRYPTO_PARAMS_INIT;
    /* Every algorithm the backend lists: importKey or digest, per the table
     * (with the members those need); none the backend lacks. */
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm a = webcrypto_algorithm_at(i);
        p = plain_alg(a);
        p.hash = WEBCRYPTO_ALG_SHA_256;
        p.named_curve = WEBCRYPTO_CURVE_P256;
        /* cSHAKE's digest needs it: the length every backend with it takes
         * (the jca variants' SHAKE256 has only 512 bits) */
        p.output_length = a == WEBCRYPTO_ALG_CSHAKE256 ? 512 : 256;
        webcrypto_operation op = webcrypto_algorithm_has_operation(a, WEBCRYPTO_OP_DIGEST)
                                     ? WEBCRYPTO_OP_DIGEST
                                     : WEBCRYPTO_OP_IMPORT_KEY;
        assert_int_equal(webcrypto_supports(b, op, &p, FULL, NULL),
                         webcrypto_backend_supports(b, a));
        assert_int_equal(webcrypto_supports(b, WEBCRYPTO_OP_GET_PUBLIC_KEY, &p, FULL, NULL),
                         webcrypto_backend_supports(b, a) &&
                             webcrypto_algorithm_has_operation(a, WEBCRYPTO_OP_GENERATE_KEY) &&
                             webcrypto_algorithm_has_operation(a, WEBCRYPTO_OP_GET_PUBLIC_KEY));
    }
    p = plain_alg(WEBCRYPTO_ALG_AES_GCM);
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, FULL, NULL));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_GET_PUBLIC_KEY, &p, FULL, NULL));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_GENERATE_KEY, &p, FULL, NULL)); /* no length */
    p.length = 100;
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_GENERATE_KEY, &p, FULL, NULL));
    p.length = 256;
    assert_true(webcrypto_supports(b, WEBCRYPTO_OP_GENERATE_KEY, &p, FULL, NULL));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_ENCRYPT, &p, FULL, NULL)); /* no iv */
    static const uint8_t iv[12] = {0};
    p.iv = iv;
    p.iv_len = sizeof iv;
    assert_true(webcrypto_supports(b, WEBCRYPTO_OP_ENCRYPT, &p, FULL, NULL));
    /* wrapKey: AES-GCM encrypts; the wrapped key's algorithm must export. */
    x = plain_alg(WEBCRYPTO_ALG_HMAC);
    x.hash = WEBCRYPTO_ALG_SHA_256;
    assert_true(webcrypto_supports(b, WEBCRYPTO_OP_WRAP_KEY, &p, FULL, &x));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_WRAP_KEY, &p, FULL, NULL));
    x = plain_alg(WEBCRYPTO_ALG_HKDF); /* HKDF keys do not export */
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_WRAP_KEY, &p, FULL, &x));
    assert_true(webcrypto_supports(b, WEBCRYPTO_OP_UNWRAP_KEY, &p, FULL, &x));
    /* HKDF deriveBits: a length that is a multiple of 8 (not null). */
    p = plain_alg(WEBCRYPTO_ALG_HKDF);
    p.hash = WEBCRYPTO_ALG_SHA_256;
    assert_true(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, 256, NULL));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, 255, NULL));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, FULL, NULL));
    x = plain_alg(WEBCRYPTO_ALG_AES_GCM);
    x.length = 256;
    assert_true(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_KEY, &p, FULL, &x));
    x.length = 0;
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_KEY, &p, FULL, &x));
    p.hash = WEBCRYPTO_ALG_NONE;
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, 256, NULL));
    /* ECDSA sign needs its hash. */
    p = plain_alg(WEBCRYPTO_ALG_ECDSA);
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, FULL, NULL));
    p.hash = WEBCRYPTO_ALG_SHA_384;
    assert_int_equal(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, FULL, NULL),
                     webcrypto_backend_supports(b, WEBCRYPTO_ALG_ECDSA));
    /* Ed448 and X448: sign with a context of at most 255 bytes; deriveBits
     * needs the public key and at most 448 bits. */
    p = plain_alg(WEBCRYPTO_ALG_ED448);
    bool ed448 = webcrypto_backend_supports(b, WEBCRYPTO_ALG_ED448);
    assert_int_equal(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, FULL, NULL), ed448);
    assert_int_equal(webcrypto_supports(b, WEBCRYPTO_OP_GENERATE_KEY, &p, FULL, NULL), ed448);
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_ENCRYPT, &p, FULL, NULL));
    p.context_len = 3;
    p.context = (const uint8_t[3]){0x66, 0x6f, 0x6f};
    assert_int_equal(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, FULL, NULL),
                     ed448 && webcrypto_backend_has_feature(b, WEBCRYPTO_FEATURE_ED448_CONTEXT));
    p.context_len = 256;
    p.context = (const uint8_t[256]){0};
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, FULL, NULL));
    if (webcrypto_backend_supports(b, WEBCRYPTO_ALG_X448)) {
        p = plain_alg(WEBCRYPTO_ALG_X448);
        assert_false(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, 448, NULL));
        webcrypto_key *pub = NULL, *priv = NULL;
        gen_pair(&p, false, GP_DH, &pub, &priv);
        p.public_key = pub;
        assert_true(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, 448, NULL));
        assert_true(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, FULL, NULL));
        assert_false(webcrypto_supports(b, WEBCRYPTO_OP_DERIVE_BITS, &p, 456, NULL));
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    /* Nonsense: false, and the thread's message is left alone. */
    assert_false(webcrypto_supports(b, (webcrypto_operation)99, &p, FULL, NULL));
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_SIGN, NULL, FULL, NULL));
    webcrypto_params bad = {0}; /* size 0: no layout */
    bad.name = WEBCRYPTO_ALG_HMAC;
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_IMPORT_KEY, &bad, FULL, NULL));
    p = plain_alg((webcrypto_algorithm)999);
    assert_false(webcrypto_supports(b, WEBCRYPTO_OP_IMPORT_KEY, &p, FULL, NULL));
}

int main(void) {
    struct CMUnitTest tests[21 + N_CASES] = {
        cmocka_unit_test(test_ed25519_rfc8032),
        cmocka_unit_test(test_eddsa_off_curve_public_key),
        cmocka_unit_test(test_eddsa_small_order),
        cmocka_unit_test(test_ed25519_context_ignored),
        cmocka_unit_test(test_ed448_rfc8032),
        cmocka_unit_test(test_x448_rfc7748_5_2),
        cmocka_unit_test(test_x448_rfc7748_6_2),
        cmocka_unit_test(test_x25519_rfc7748_5_2),
        cmocka_unit_test(test_x25519_rfc7748_6_1),
        cmocka_unit_test(test_rsa_pkcs1_kat),
        cmocka_unit_test(test_generate_split_and_getters),
        cmocka_unit_test(test_ecdsa_hashes),
        cmocka_unit_test(test_rsa_pss_salt),
        cmocka_unit_test(test_rsa_oaep),
        cmocka_unit_test(test_ecdh_lengths_and_derive_key),
        cmocka_unit_test(test_ec_compressed_point),
        cmocka_unit_test(test_rsa_oaep_wrap),
        cmocka_unit_test(test_wrap_private_key),
    };
    size_t n = 18;
    for (size_t i = 0; i < N_CASES; i++)
        tests[n++] = (struct CMUnitTest){CASES[i].name, test_roundtrip, NULL, NULL,
                                         (void *)&CASES[i]};
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_derive_bits_empty_null);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_get_public_key);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_supports);
    return tu_run_tests("pkey", tests, n, NULL, NULL);
}
