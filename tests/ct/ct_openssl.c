/*
 * ct_openssl.c - the operations whose secret-dependent steps are ours, on
 * the openssl backend through the public API, under valgrind's memcheck
 * with the key bytes marked undefined (tests/ct.cmake, docs/ROBUSTNESS.md
 * "Constant time, checked"). Secret: every key imported here (raw bytes,
 * and the private members inside PKCS #8), hence everything computed from
 * them (plaintexts, MACs, shared secrets). Covered: AES-GCM-SIV seal and
 * open (key derivation, POLYVAL, the tag compare: gcm_siv.c); AES-GCM with
 * a long IV (the GHASH algebra that reduces it: openssl_ghash.c); AES-CBC
 * unpadding (cipher.c, one-shot both ways and streamed); AES-KW wrap and
 * unwrap (the integrity check is OpenSSL's); HMAC and KMAC verify (sign.c's
 * compare); PKCS #8 import and export of RSA, EC, Ed25519, X25519, Ed448,
 * X448 (der.c, pkey.c); the X25519 and X448 all-zero check (pkey.c).
 * Results are declassified before the test checks them. Exit 0 after "all
 * checks passed", 3 when a check fails, 77 when the backend is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct.h"
#include "der.h"
#include "webcrypto.h"

static int failures;
static const webcrypto_backend *be;

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "ct_openssl: FAILED at line %d: ", __LINE__);               \
            fprintf(stderr, __VA_ARGS__);                                               \
            fprintf(stderr, " (%s)\n", webcrypto_error_message());                      \
            failures++;                                                                 \
        }                                                                               \
    } while (0)

static void fill(uint8_t *p, size_t n, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)(x >> 24);
    }
}

/* A secret key imported from bytes marked undefined. */
static webcrypto_key *secret_key(webcrypto_key_format fmt, const webcrypto_params *alg,
                                 size_t len, uint32_t seed, unsigned usages) {
    uint8_t k[64];
    fill(k, len, seed);
    WC_CT_SECRET(k, len);
    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_import_key(be, fmt, k, len, alg, true, usages, &key);
    CHECK(st == WEBCRYPTO_OK, "import %s key", webcrypto_algorithm_name(alg->name));
    return st == WEBCRYPTO_OK ? key : NULL;
}

#define ENC_DEC (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT)

/* Encrypts msg, decrypts it back, then decrypts with one bit of the last
 * byte flipped, which must fail (AEAD: the tag; CBC: almost always the
 * padding, and at least never the same plaintext). */
static void round_trip(const char *what, const webcrypto_params *p, const webcrypto_key *key,
                       size_t msg_len, bool aead) {
    uint8_t msg[200], ct[256], pt[256];
    size_t n = 0, m = 0;
    fill(msg, msg_len, 7);
    webcrypto_status st = webcrypto_encrypt(p, key, msg, msg_len, ct, sizeof ct, &n);
    CHECK(st == WEBCRYPTO_OK, "%s: encrypt", what);
    if (st != WEBCRYPTO_OK) return;
    WC_CT_PUBLIC(ct, n); /* ciphertext is public */
    st = webcrypto_decrypt(p, key, ct, n, pt, sizeof pt, &m);
    WC_CT_PUBLIC(pt, sizeof pt);
    CHECK(st == WEBCRYPTO_OK && m == msg_len && memcmp(pt, msg, msg_len) == 0, "%s: decrypt",
          what);
    if (!aead) { /* CBC: the one-shot path without room for the padding (out_cap n - 1) */
        st = webcrypto_decrypt(p, key, ct, n, pt, n - 1, &m);
        WC_CT_PUBLIC(pt, sizeof pt);
        CHECK(st == WEBCRYPTO_OK && m == msg_len && memcmp(pt, msg, msg_len) == 0,
              "%s: decrypt into an exact buffer", what);
    }
    ct[n - 1] ^= 1;
    st = webcrypto_decrypt(p, key, ct, n, pt, sizeof pt, &m);
    WC_CT_PUBLIC(pt, sizeof pt);
    CHECK(st == WEBCRYPTO_ERR_OPERATION || (!aead && st == WEBCRYPTO_OK &&
                                             (m != msg_len || memcmp(pt, msg, msg_len) != 0)),
          "%s: altered ciphertext", what);
}

static void test_gcm_siv(void) {
    for (size_t len = 16; len <= 32; len += 16) {
        webcrypto_params a = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV);
        webcrypto_key *key =
            secret_key(WEBCRYPTO_FORMAT_RAW_SECRET, &a, len, (uint32_t)len, ENC_DEC);
        if (!key) continue;
        uint8_t nonce[12], aad[40];
        fill(nonce, sizeof nonce, 1);
        fill(aad, sizeof aad, 2);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce,
                                              .iv_len = 12, .additional_data = aad,
                                              .additional_data_len = sizeof aad);
        round_trip("AES-GCM-SIV", &p, key, 0, true);
        round_trip("AES-GCM-SIV", &p, key, 37, true);
        round_trip("AES-GCM-SIV", &p, key, 200, true);
        webcrypto_key_free(key);
    }
}

static void test_gcm(void) {
    webcrypto_params a = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *key = secret_key(WEBCRYPTO_FORMAT_RAW, &a, 32, 3, ENC_DEC);
    if (!key) return;
    uint8_t iv[200];
    fill(iv, sizeof iv, 4);
    size_t iv_lens[] = {12, 200}; /* 200: over OpenSSL's limit, reduced by our GHASH */
    for (size_t i = 0; i < 2; i++) {
        webcrypto_params p =
            WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = iv_lens[i]);
        round_trip(i ? "AES-GCM (200-byte IV)" : "AES-GCM", &p, key, 45, true);
    }
    webcrypto_key_free(key);
}

static void test_cbc(void) {
    webcrypto_params a = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC);
    webcrypto_key *key = secret_key(WEBCRYPTO_FORMAT_RAW, &a, 16, 5, ENC_DEC);
    if (!key) return;
    uint8_t iv[16];
    fill(iv, sizeof iv, 6);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv, .iv_len = 16);
    for (size_t len = 0; len <= 33; len += 11) round_trip("AES-CBC", &p, key, len, false);
    /* random blocks: their padding is bad (or by chance good): both answers */
    uint8_t junk[48], out[48];
    size_t n = 0;
    for (uint32_t s = 0; s < 4; s++) {
        fill(junk, sizeof junk, 100 + s);
        webcrypto_status st = webcrypto_decrypt(&p, key, junk, sizeof junk, out, sizeof out, &n);
        CHECK(st == WEBCRYPTO_OK || st == WEBCRYPTO_ERR_OPERATION, "AES-CBC: junk");
    }
    /* streamed: the last block's padding is checked in cipher_final */
    uint8_t msg[40], ct[64], pt[64];
    fill(msg, sizeof msg, 8);
    webcrypto_status st = webcrypto_encrypt(&p, key, msg, sizeof msg, ct, sizeof ct, &n);
    CHECK(st == WEBCRYPTO_OK, "AES-CBC: encrypt");
    WC_CT_PUBLIC(ct, n);
    webcrypto_cipher_ctx *c = NULL;
    size_t a1 = 0, a2 = 0;
    st = webcrypto_cipher_init(&p, key, false, &c);
    if (st == WEBCRYPTO_OK) st = webcrypto_cipher_update(c, ct, n, pt, sizeof pt, &a1);
    if (st == WEBCRYPTO_OK) st = webcrypto_cipher_final(c, pt + a1, sizeof pt - a1, &a2);
    WC_CT_PUBLIC(pt, sizeof pt);
    CHECK(st == WEBCRYPTO_OK && a1 + a2 == sizeof msg && memcmp(pt, msg, sizeof msg) == 0,
          "AES-CBC: streamed decryption");
    webcrypto_cipher_ctx_free(c);
    webcrypto_key_free(key);
}

static void test_kw(void) {
    webcrypto_params a = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
    webcrypto_key *kek = secret_key(WEBCRYPTO_FORMAT_RAW, &a, 32, 9,
                                    WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY);
    webcrypto_params h = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC,
                                          .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *mac = secret_key(WEBCRYPTO_FORMAT_RAW, &h, 32, 10,
                                    WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    if (!kek || !mac) return;
    uint8_t *wrapped = NULL;
    size_t wlen = 0;
    webcrypto_status st =
        webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, mac, kek, &a, &wrapped, &wlen);
    CHECK(st == WEBCRYPTO_OK, "AES-KW: wrap");
    if (st == WEBCRYPTO_OK) {
        WC_CT_PUBLIC(wrapped, wlen);
        webcrypto_key *back = NULL;
        st = webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, wlen, kek, &a, &h, true,
                                  WEBCRYPTO_USAGE_SIGN, &back);
        CHECK(st == WEBCRYPTO_OK, "AES-KW: unwrap");
        webcrypto_key_free(back);
        wrapped[3] ^= 1;
        st = webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, wlen, kek, &a, &h, true,
                                  WEBCRYPTO_USAGE_SIGN, &back);
        CHECK(st == WEBCRYPTO_ERR_OPERATION, "AES-KW: altered wrapped key refused");
        webcrypto_buffer_free(wrapped, wlen);
    }
    webcrypto_key_free(kek);
    webcrypto_key_free(mac);
}

/* sign, then verify the MAC, and one with a bit flipped */
static void mac_verify(const char *what, const webcrypto_params *p, const webcrypto_key *key) {
    uint8_t data[100], sig[64];
    size_t n = 0;
    fill(data, sizeof data, 11);
    webcrypto_status st = webcrypto_sign(p, key, data, sizeof data, sig, sizeof sig, &n);
    CHECK(st == WEBCRYPTO_OK, "%s: sign", what);
    if (st != WEBCRYPTO_OK) return;
    WC_CT_PUBLIC(sig, n); /* a MAC is public once sent */
    bool valid = false;
    st = webcrypto_verify(p, key, sig, n, data, sizeof data, &valid);
    CHECK(st == WEBCRYPTO_OK && valid, "%s: verify", what);
    sig[n - 1] ^= 1;
    st = webcrypto_verify(p, key, sig, n, data, sizeof data, &valid);
    CHECK(st == WEBCRYPTO_OK && !valid, "%s: a wrong MAC is not valid", what);
    sig[n - 1] ^= 1;
    if (p->name != WEBCRYPTO_ALG_HMAC) return;
    webcrypto_sign_ctx *c = NULL;
    st = webcrypto_verify_init(p, key, &c);
    if (st == WEBCRYPTO_OK) st = webcrypto_sign_update(c, data, sizeof data);
    if (st == WEBCRYPTO_OK) st = webcrypto_verify_final(c, sig, n, &valid);
    CHECK(st == WEBCRYPTO_OK && valid, "%s: streamed verify", what);
    webcrypto_sign_ctx_free(c);
}

static void test_macs(void) {
    webcrypto_params h = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC,
                                          .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *key = secret_key(WEBCRYPTO_FORMAT_RAW, &h, 40, 12,
                                    WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    if (key) mac_verify("HMAC", &h, key);
    webcrypto_key_free(key);
    webcrypto_params k = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_KMAC128);
    if (!webcrypto_backend_supports(be, WEBCRYPTO_ALG_KMAC128)) {
        printf("KMAC128: not offered by this OpenSSL, not checked\n");
        return;
    }
    key = secret_key(WEBCRYPTO_FORMAT_RAW_SECRET, &k, 32, 13,
                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_KMAC128, .output_length = 256);
    if (key) mac_verify("KMAC128", &kp, key);
    webcrypto_key_free(key);
}

/* Imports PKCS #8 der with its private members marked secret (located by
 * parsing it first, unmarked). */
static webcrypto_key *import_marked(const webcrypto_params *alg, uint8_t *der, size_t len,
                                    unsigned usages, const char *what) {
    wc_pkey_fields f;
    webcrypto_status st = wc_der_parse_pkcs8(alg->name, der, len, &f);
    CHECK(st == WEBCRYPTO_OK, "%s: parse %s", webcrypto_algorithm_name(alg->name), what);
    if (st != WEBCRYPTO_OK) return NULL;
    const wc_bytes m[] = {f.d, f.p, f.q, f.dp, f.dq, f.qi};
    for (size_t i = 0; i < 6; i++)
        if (m[i].p) {
            /* with the sign octet, if any: the top bit of the value decides it */
            const uint8_t *p = m[i].p;
            size_t n = m[i].n;
            if ((p[0] & 0x80) && p[-1] == 0x00) p--, n++;
            WC_CT_SECRET(p, n);
        }
    webcrypto_key *priv = NULL;
    st = webcrypto_import_key(be, WEBCRYPTO_FORMAT_PKCS8, der, len, alg, true, usages, &priv);
    CHECK(st == WEBCRYPTO_OK, "%s: import %s", webcrypto_algorithm_name(alg->name), what);
    return st == WEBCRYPTO_OK ? priv : NULL;
}

/* An OKP key's PKCS #8 v1 made v2 (RFC 5958 OneAsymmetricKey) with its
 * public key x as [1]: the backend then checks the pair (the public key it
 * derives against x). Returns the new length, 0 if it does not fit. */
static size_t okp_v2(const uint8_t *v1, size_t len, const uint8_t *x, size_t xlen, uint8_t *out,
                     size_t cap) {
    size_t hdr = v1[1] < 0x80 ? 2 : 2 + (v1[1] & 0x7fu);
    size_t body = len - hdr, nbody = body + 3 + xlen;
    if (xlen + 1 >= 0x80 || nbody > 255 || nbody + 3 > cap || v1[hdr + 2] != 0) return 0;
    size_t o = 0;
    out[o++] = 0x30;
    if (nbody >= 0x80) out[o++] = 0x81;
    out[o++] = (uint8_t)nbody;
    memcpy(out + o, v1 + hdr, body);
    out[o + 2] = 0x01; /* version 1 (v2) */
    o += body;
    out[o++] = 0x81; /* [1] IMPLICIT BIT STRING */
    out[o++] = (uint8_t)(xlen + 1);
    out[o++] = 0x00;
    memcpy(out + o, x, xlen);
    return o + xlen;
}

/* A private key of a generated pair, exported as PKCS #8 and imported again
 * with its private members marked secret; an OKP key also as v2 with its
 * public key. */
static webcrypto_key *secret_private(const webcrypto_params *alg, unsigned usages,
                                     webcrypto_key **pub) {
    webcrypto_key *priv0 = NULL, *priv = NULL;
    *pub = NULL;
    webcrypto_status st = webcrypto_generate_key_pair(be, alg, true, usages, pub, &priv0);
    CHECK(st == WEBCRYPTO_OK, "%s: generate", webcrypto_algorithm_name(alg->name));
    if (st != WEBCRYPTO_OK) return NULL;
    uint8_t *der = NULL;
    size_t len = 0;
    st = webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, priv0, &der, &len);
    webcrypto_key_free(priv0);
    CHECK(st == WEBCRYPTO_OK, "%s: export", webcrypto_algorithm_name(alg->name));
    if (st != WEBCRYPTO_OK) return NULL;
    WC_CT_PUBLIC(der, len);
    unsigned priv_usages = usages & (WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_DECRYPT |
                                     WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY);
    bool okp = alg->name == WEBCRYPTO_ALG_ED25519 || alg->name == WEBCRYPTO_ALG_ED448 ||
               alg->name == WEBCRYPTO_ALG_X25519 || alg->name == WEBCRYPTO_ALG_X448;
    if (okp) {
        uint8_t *x = NULL, v2[256];
        size_t xlen = 0;
        st = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, *pub, &x, &xlen);
        CHECK(st == WEBCRYPTO_OK, "%s: export the public key", webcrypto_algorithm_name(alg->name));
        size_t n = st == WEBCRYPTO_OK ? okp_v2(der, len, x, xlen, v2, sizeof v2) : 0;
        CHECK(n > 0, "%s: PKCS #8 v2", webcrypto_algorithm_name(alg->name));
        if (n) webcrypto_key_free(import_marked(alg, v2, n, priv_usages, "PKCS #8 v2"));
        if (st == WEBCRYPTO_OK) webcrypto_buffer_free(x, xlen);
    }
    priv = import_marked(alg, der, len, priv_usages, "PKCS #8");
    webcrypto_buffer_free(der, len);
    if (!priv) return NULL;
    /* and out again: der.c's writer on the backend's fields */
    st = webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, priv, &der, &len);
    CHECK(st == WEBCRYPTO_OK, "%s: export again", webcrypto_algorithm_name(alg->name));
    if (st == WEBCRYPTO_OK) webcrypto_buffer_free(der, len);
    return priv;
}

static void test_pkcs8(void) {
    webcrypto_params rsa = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_PSS,
                                            .hash = WEBCRYPTO_ALG_SHA_256, .modulus_length = 1024,
                                            .public_exponent = (const uint8_t *)"\x01\x00\x01",
                                            .public_exponent_len = 3);
    webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA,
                                           .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
    webcrypto_params ed448 = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED448);
    const webcrypto_params *algs[] = {&rsa, &ec, &ed, &ed448};
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        webcrypto_key *pub = NULL, *priv;
        unsigned usages = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
        priv = secret_private(algs[i], usages, &pub);
        webcrypto_key_free(priv);
        webcrypto_key_free(pub);
    }
}

/* X25519 and X448: both sides' shared secrets, with the private keys
 * secret, agree; the all-zero check (pkey.c) runs on each. */
static void test_xdh(void) {
    const webcrypto_algorithm algs[] = {WEBCRYPTO_ALG_X25519, WEBCRYPTO_ALG_X448};
    for (size_t i = 0; i < 2; i++) {
        webcrypto_params a = WEBCRYPTO_PARAMS(.name = algs[i]);
        webcrypto_key *pa = NULL, *pb = NULL;
        webcrypto_key *sa = secret_private(&a, WEBCRYPTO_USAGE_DERIVE_BITS, &pa);
        webcrypto_key *sb = secret_private(&a, WEBCRYPTO_USAGE_DERIVE_BITS, &pb);
        if (sa && sb) {
            uint8_t x[64], y[64];
            size_t nx = 0, ny = 0;
            webcrypto_params da = WEBCRYPTO_PARAMS(.name = algs[i], .public_key = pb);
            webcrypto_params db = WEBCRYPTO_PARAMS(.name = algs[i], .public_key = pa);
            webcrypto_status st =
                webcrypto_derive_bits(&da, sa, WEBCRYPTO_LENGTH_FULL, x, sizeof x, &nx);
            if (st == WEBCRYPTO_OK)
                st = webcrypto_derive_bits(&db, sb, WEBCRYPTO_LENGTH_FULL, y, sizeof y, &ny);
            WC_CT_PUBLIC(x, sizeof x);
            WC_CT_PUBLIC(y, sizeof y);
            CHECK(st == WEBCRYPTO_OK && nx == ny && memcmp(x, y, nx) == 0, "%s: derive",
                  webcrypto_algorithm_name(algs[i]));
        }
        webcrypto_key_free(sa);
        webcrypto_key_free(sb);
        webcrypto_key_free(pa);
        webcrypto_key_free(pb);
    }
}

/* HKDF and PBKDF2 (the openssl backend computes both from its HMAC), and
 * deriveKey into an AES key; ECDH on P-256 (the core trims the bits). */
static void test_kdfs(void) {
    uint8_t salt[16], info[8], out[80], out2[80];
    fill(salt, sizeof salt, 14);
    fill(info, sizeof info, 15);
    const webcrypto_algorithm kdfs[] = {WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_PBKDF2};
    for (size_t i = 0; i < 2; i++) {
        webcrypto_params a = WEBCRYPTO_PARAMS(.name = kdfs[i]);
        webcrypto_key *key = NULL;
        uint8_t k[40];
        fill(k, sizeof k, (uint32_t)(16 + i));
        WC_CT_SECRET(k, sizeof k);
        webcrypto_status st =
            webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &a, false,
                                 WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY, &key);
        CHECK(st == WEBCRYPTO_OK, "%s: import", webcrypto_algorithm_name(kdfs[i]));
        if (st != WEBCRYPTO_OK) continue;
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = kdfs[i], .hash = WEBCRYPTO_ALG_SHA_256,
                                              .salt = salt, .salt_len = sizeof salt, .info = info,
                                              .info_len = sizeof info, .iterations = 3);
        size_t n = 0, n2 = 0;
        st = webcrypto_derive_bits(&p, key, 8 * sizeof out, out, sizeof out, &n);
        if (st == WEBCRYPTO_OK)
            st = webcrypto_derive_bits(&p, key, 8 * sizeof out2, out2, sizeof out2, &n2);
        WC_CT_PUBLIC(out, sizeof out);
        WC_CT_PUBLIC(out2, sizeof out2);
        CHECK(st == WEBCRYPTO_OK && n == sizeof out && n2 == n && memcmp(out, out2, n) == 0,
              "%s: deriveBits", webcrypto_algorithm_name(kdfs[i]));
        webcrypto_params aes = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256);
        webcrypto_key *derived = NULL;
        st = webcrypto_derive_key(&p, key, &aes, false, ENC_DEC, &derived);
        CHECK(st == WEBCRYPTO_OK, "%s: deriveKey", webcrypto_algorithm_name(kdfs[i]));
        webcrypto_key_free(derived);
        webcrypto_key_free(key);
    }
    webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH,
                                           .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *pa = NULL, *pb = NULL;
    webcrypto_key *sa = secret_private(&ec, WEBCRYPTO_USAGE_DERIVE_BITS, &pa);
    webcrypto_key *sb = secret_private(&ec, WEBCRYPTO_USAGE_DERIVE_BITS, &pb);
    if (sa && sb) {
        webcrypto_params da = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = pb);
        webcrypto_params db = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = pa);
        size_t nx = 0, ny = 0;
        webcrypto_status st = webcrypto_derive_bits(&da, sa, 251, out, sizeof out, &nx);
        if (st == WEBCRYPTO_OK) st = webcrypto_derive_bits(&db, sb, 251, out2, sizeof out2, &ny);
        WC_CT_PUBLIC(out, sizeof out);
        WC_CT_PUBLIC(out2, sizeof out2);
        CHECK(st == WEBCRYPTO_OK && nx == 32 && ny == 32 && memcmp(out, out2, 32) == 0 &&
                  (out[31] & 0x1f) == 0,
              "ECDH: 251 bits");
    }
    webcrypto_key_free(sa);
    webcrypto_key_free(sb);
    webcrypto_key_free(pa);
    webcrypto_key_free(pb);
}

int main(void) {
    if (webcrypto_backend_get("openssl", &be) != WEBCRYPTO_OK) {
        printf("SKIP: the openssl backend cannot start: %s\n", webcrypto_error_message());
        return 77;
    }
    test_gcm_siv();
    test_gcm();
    test_cbc();
    test_kw();
    test_macs();
    test_pkcs8();
    test_xdh();
    test_kdfs();
    if (failures) {
        fprintf(stderr, "ct_openssl: %d checks failed\n", failures);
        return 3;
    }
    printf("ct_openssl: all checks passed\n");
    return 0;
}
