/*
 * differential_errors.c - the differential test's second half: the same bad
 * input on every backend gives the same error kind, the one WebCrypto names.
 *
 * Bad CBC padding, malformed key imports of each class test_pkey_errors
 * covers (truncated and trailing DER, wrong curve, points off the curve or at
 * infinity, EC scalars out of range, malformed and inconsistent JWKs, wrong
 * key lengths, inconsistent RSA keys), wrong lengths and bad parameters.
 * A case whose algorithm a backend lacks is not run there (the backend list
 * says what it has); every other backend must return exactly the expected
 * status. Key material comes from the first backend that can generate it and
 * crosses to the others as bytes, as a user's keys would.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "differential_errors.h"

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

/* Keys exported once, as the bad inputs are made from them. */
static struct {
    blob p256_spki, p256_pkcs8, rsa_pkcs8, ed_pkcs8;
    char *p256_jwk, *rsa_jwk; /* private JWK text */
} m;

static const uint8_t key16[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                  0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
static const uint8_t iv16[16] = {0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
                                 0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f};
static const uint8_t F4[] = {0x01, 0x00, 0x01};

static blob export_blob(webcrypto_key_format fmt, const webcrypto_key *k) {
    blob b = {0};
    uint8_t *out = NULL;
    size_t n = 0;
    if (webcrypto_export_key(fmt, k, &out, &n) != WEBCRYPTO_OK) return b;
    b.p = malloc(n + 1);
    if (b.p) {
        memcpy(b.p, out, n);
        b.p[n] = 0;
        b.n = n;
    }
    webcrypto_buffer_free(out, n);
    return b;
}

/* A generated pair's private key in `fmt`, from the first backend that has alg. */
static blob make_private(const webcrypto_backend **bs, size_t n, const webcrypto_params *p,
                         unsigned usages, webcrypto_key_format fmt, blob *spki) {
    blob out = {0};
    for (size_t i = 0; i < n && !out.p; i++) {
        if (!webcrypto_backend_supports(bs[i], p->name)) continue;
        webcrypto_key *pub = NULL, *priv = NULL;
        if (webcrypto_generate_key_pair(bs[i], p, true, usages, &pub, &priv) == WEBCRYPTO_OK) {
            out = export_blob(fmt, priv);
            if (spki) *spki = export_blob(WEBCRYPTO_FORMAT_SPKI, pub);
        }
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    return out;
}

/* Replaces the value of the JWK member `name` (a string) with `value`. */
static char *jwk_with(const char *jwk, const char *name, const char *value) {
    if (!jwk) return NULL;
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":\"", name);
    const char *at = strstr(jwk, pat);
    if (!at) return NULL;
    const char *v = at + strlen(pat), *end = strchr(v, '"');
    if (!end) return NULL;
    size_t len = (size_t)(v - jwk) + strlen(value) + strlen(end) + 1;
    char *out = malloc(len);
    if (!out) return NULL;
    snprintf(out, len, "%.*s%s%s", (int)(v - jwk), jwk, value, end);
    return out;
}

/* ---- the cases ---- */

/* A case whose own set-up (not the bad input) failed: reported as such. */
static bool setup_failed;
#define SETUP_FAILED (setup_failed = true, WEBCRYPTO_ERR_NO_MEMORY)

typedef struct bad_case {
    const char *what;
    webcrypto_algorithm needs;
    webcrypto_status expected;
    webcrypto_status (*run)(const webcrypto_backend *b, const void *arg);
    const void *arg;
} bad_case;

static webcrypto_status import_as(const webcrypto_backend *b, webcrypto_key_format fmt,
                                  const uint8_t *data, size_t len, const webcrypto_params *p,
                                  unsigned usages) {
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(b, fmt, data, len, p, true, usages, &k);
    webcrypto_key_free(k);
    return st;
}

static webcrypto_key *aes(const webcrypto_backend *b, webcrypto_algorithm alg, unsigned usages) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *k = NULL;
    if (webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, key16, sizeof key16, &p, true, usages,
                             &k) != WEBCRYPTO_OK)
        return NULL;
    return k;
}

/* AES-CBC: a 32-byte ciphertext whose last plaintext block, the padding
 * block of a 16-byte message (sixteen 0x10 bytes), ends in `*arg` instead:
 * 0x00, over 16, or 0x02 after a byte that is not 0x02. */
static webcrypto_status cbc_bad_padding(const webcrypto_backend *b, const void *arg) {
    const int pad = *(const int *)arg;
    webcrypto_key *k = aes(b, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
    if (!k) return SETUP_FAILED;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv16, .iv_len = 16);
    uint8_t ct[32], pt[32];
    size_t n = 0;
    webcrypto_status st = webcrypto_encrypt(&p, k, key16, 16, ct, sizeof ct, &n);
    if (st == WEBCRYPTO_OK) {
        ct[15] ^= (uint8_t)(0x10 ^ pad);
        st = webcrypto_decrypt(&p, k, ct, n, pt, sizeof pt, &n);
    }
    webcrypto_key_free(k);
    return st;
}

typedef struct cipher_arg {
    webcrypto_algorithm alg;
    bool encrypt;
    size_t iv_len, counter_len, length, tag_length, data_len;
} cipher_arg;

static webcrypto_status cipher_params(const webcrypto_backend *b, const void *arg) {
    const cipher_arg *a = arg;
    webcrypto_key *k = aes(b, a->alg, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
    if (!k) return SETUP_FAILED;
    uint8_t data[64] = {0}, out[128];
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = a->alg, .iv = a->iv_len ? iv16 : NULL, .iv_len = a->iv_len,
                                          .counter = a->counter_len ? iv16 : NULL, .counter_len = a->counter_len,
                                          .length = a->length, .tag_length = a->tag_length);
    size_t n = 0;
    webcrypto_status st = a->encrypt
                              ? webcrypto_encrypt(&p, k, data, a->data_len, out, sizeof out, &n)
                              : webcrypto_decrypt(&p, k, data, a->data_len, out, sizeof out, &n);
    webcrypto_key_free(k);
    return st;
}

static webcrypto_status aes_key_17(const webcrypto_backend *b, const void *arg) {
    const webcrypto_params p = WEBCRYPTO_PARAMS(.name = *(const webcrypto_algorithm *)arg);
    uint8_t k[17] = {0};
    return import_as(b, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &p,
                     WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
}

static webcrypto_status hmac_empty_key(const webcrypto_backend *b, const void *arg) {
    (void)arg;
    const webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    return import_as(b, WEBCRYPTO_FORMAT_RAW, key16, 0, &p, WEBCRYPTO_USAGE_SIGN);
}

/* AES-KW unwrap of a wrapped key with one byte changed. */
static webcrypto_status kw_tampered(const webcrypto_backend *b, const void *arg) {
    (void)arg;
    webcrypto_key *kek = aes(b, WEBCRYPTO_ALG_AES_KW,
                             WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY);
    webcrypto_key *data = aes(b, WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_USAGE_ENCRYPT);
    webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    uint8_t *w = NULL;
    size_t n = 0;
    webcrypto_status st = kek && data ? webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, data, kek, &kw,
                                                           &w, &n)
                                      : SETUP_FAILED;
    if (st == WEBCRYPTO_OK) {
        w[n / 2] ^= 1;
        webcrypto_key *out = NULL;
        st = webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w, n, kek, &kw, &gcm, true,
                                  WEBCRYPTO_USAGE_ENCRYPT, &out);
        webcrypto_key_free(out);
        webcrypto_buffer_free(w, n);
    }
    webcrypto_key_free(kek);
    webcrypto_key_free(data);
    return st;
}

typedef struct kdf_arg {
    webcrypto_algorithm alg;
    uint32_t iterations;
    size_t bits;
} kdf_arg;

static webcrypto_status kdf_params(const webcrypto_backend *b, const void *arg) {
    const kdf_arg *a = arg;
    webcrypto_params ip = WEBCRYPTO_PARAMS(.name = a->alg);
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, key16, sizeof key16, &ip,
                                               false, WEBCRYPTO_USAGE_DERIVE_BITS, &k);
    if (st != WEBCRYPTO_OK) return SETUP_FAILED;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = a->alg, .hash = WEBCRYPTO_ALG_SHA_256, .salt = iv16,
                                          .salt_len = 16, .info = iv16, .info_len = 4,
                                          .iterations = a->iterations);
    static uint8_t out[255 * 32 + 1]; /* room for HKDF's longest output and more */
    size_t dlen = 0;
    st = webcrypto_derive_bits(&p, k, a->bits, out, sizeof out, &dlen);
    webcrypto_key_free(k);
    return st;
}

typedef struct import_arg {
    webcrypto_key_format fmt;
    const blob *data; /* or */
    char *const *text;
    webcrypto_algorithm alg;
    webcrypto_named_curve curve;
    unsigned usages;
    int edit; /* what to do to the bytes, below */
    const char *member, *value; /* for EDIT_JWK_MEMBER */
} import_arg;

enum { EDIT_NONE, EDIT_TRUNCATE, EDIT_TRAILING, EDIT_LAST_BYTE, EDIT_JWK_MEMBER };

static webcrypto_status import_bad(const webcrypto_backend *b, const void *arg) {
    const import_arg *a = arg;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = a->alg, .named_curve = a->curve, .hash = WEBCRYPTO_ALG_SHA_256);
    const uint8_t *src = a->data ? a->data->p : (const uint8_t *)(a->text ? *a->text : NULL);
    size_t len = a->data ? a->data->n : src ? strlen((const char *)src) : 0;
    if (!src) return SETUP_FAILED; /* the key material could not be made */
    uint8_t *buf = malloc(len + 1);
    if (!buf) return WEBCRYPTO_ERR_NO_MEMORY;
    memcpy(buf, src, len);
    buf[len] = 0;
    char *edited = NULL;
    switch (a->edit) {
    case EDIT_TRUNCATE:
        len--;
        break;
    case EDIT_TRAILING:
        buf[len++] = 0; /* (buf has room for one more byte) */
        break;
    case EDIT_LAST_BYTE:
        buf[len - 1] ^= 0x01;
        break;
    case EDIT_JWK_MEMBER:
        edited = jwk_with((const char *)buf, a->member, a->value);
        if (!edited) {
            free(buf);
            return SETUP_FAILED;
        }
        break;
    }
    webcrypto_status st = edited ? import_as(b, a->fmt, (const uint8_t *)edited, strlen(edited),
                                             &p, a->usages)
                                 : import_as(b, a->fmt, buf, len, &p, a->usages);
    free(edited);
    free(buf);
    return st;
}

typedef struct raw_arg {
    webcrypto_algorithm alg;
    webcrypto_named_curve curve;
    const uint8_t *bytes;
    size_t len;
    webcrypto_key_format fmt;
    unsigned usages;
} raw_arg;

static webcrypto_status import_raw_bytes(const webcrypto_backend *b, const void *arg) {
    const raw_arg *a = arg;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = a->alg, .named_curve = a->curve);
    return import_as(b, a->fmt, a->bytes, a->len, &p, a->usages);
}

/* X25519 with a low-order peer (the all-zero output is an OperationError). */
static webcrypto_status x25519_low_order(const webcrypto_backend *b, const void *arg) {
    (void)arg;
    static const uint8_t zero[32];
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519);
    webcrypto_key *pub = NULL, *mine = NULL, *priv = NULL;
    webcrypto_status st = webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, zero, 32, &p, true, 0,
                                               &pub);
    if (st == WEBCRYPTO_OK)
        st = webcrypto_generate_key_pair(b, &p, false, WEBCRYPTO_USAGE_DERIVE_BITS, &mine, &priv);
    if (st == WEBCRYPTO_OK) {
        webcrypto_params d = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519, .public_key = pub);
        uint8_t out[32];
        size_t dlen = 0;
        st = webcrypto_derive_bits(&d, priv, 256, out, sizeof out, &dlen);
    } else {
        st = SETUP_FAILED;
    }
    webcrypto_key_free(pub);
    webcrypto_key_free(mine);
    webcrypto_key_free(priv);
    return st;
}

/* RSA-OAEP decryption of bytes that are no OAEP ciphertext. */
static webcrypto_status oaep_garbage(const webcrypto_backend *b, const void *arg) {
    (void)arg;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *k = NULL;
    if (!m.rsa_pkcs8.p ||
        webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, m.rsa_pkcs8.p, m.rsa_pkcs8.n, &p, false,
                             WEBCRYPTO_USAGE_DECRYPT, &k) != WEBCRYPTO_OK)
        return SETUP_FAILED;
    uint8_t ct[256], out[256];
    for (size_t i = 0; i < sizeof ct; i++) ct[i] = (uint8_t)(i * 7 + 1);
    ct[0] = 0x00; /* below the modulus */
    size_t n = 0;
    webcrypto_status st = webcrypto_decrypt(&p, k, ct, sizeof ct, out, sizeof out, &n);
    webcrypto_key_free(k);
    return st;
}

/* ECDH P-256 asked for more bits than the curve gives. */
static webcrypto_status ecdh_too_long(const webcrypto_backend *b, const void *arg) {
    (void)arg;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *pub = NULL, *priv = NULL;
    webcrypto_status st =
        webcrypto_generate_key_pair(b, &p, false, WEBCRYPTO_USAGE_DERIVE_BITS, &pub, &priv);
    if (st != WEBCRYPTO_OK) return SETUP_FAILED;
    webcrypto_params d = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = pub);
    uint8_t out[40];
    size_t dlen = 0;
    st = webcrypto_derive_bits(&d, priv, 264, out, sizeof out, &dlen);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    return st;
}

static const int pad_zero = 0x00, pad_17 = 0x11, pad_ff = 0xff, pad_two = 2;
static const cipher_arg cbc_partial = {WEBCRYPTO_ALG_AES_CBC, false, 16, 0, 0, 0, 20};
static const cipher_arg cbc_empty = {WEBCRYPTO_ALG_AES_CBC, false, 16, 0, 0, 0, 0};
static const cipher_arg cbc_iv15 = {WEBCRYPTO_ALG_AES_CBC, true, 15, 0, 0, 0, 16};
static const cipher_arg ctr_counter15 = {WEBCRYPTO_ALG_AES_CTR, true, 0, 15, 64, 0, 16};
static const cipher_arg ctr_length0 = {WEBCRYPTO_ALG_AES_CTR, true, 0, 16, 0, 0, 16};
static const cipher_arg ctr_length129 = {WEBCRYPTO_ALG_AES_CTR, true, 0, 16, 129, 0, 16};
static const cipher_arg gcm_no_iv = {WEBCRYPTO_ALG_AES_GCM, true, 0, 0, 0, 0, 16};
static const cipher_arg gcm_tag72 = {WEBCRYPTO_ALG_AES_GCM, true, 12, 0, 0, 72, 16};
static const cipher_arg gcm_short = {WEBCRYPTO_ALG_AES_GCM, false, 12, 0, 0, 0, 15};
static const cipher_arg gcm_forged = {WEBCRYPTO_ALG_AES_GCM, false, 12, 0, 0, 0, 48};
static const cipher_arg siv_nonce16 = {WEBCRYPTO_ALG_AES_GCM_SIV, true, 16, 0, 0, 0, 16};
static const cipher_arg siv_forged = {WEBCRYPTO_ALG_AES_GCM_SIV, false, 12, 0, 0, 0, 48};
static const webcrypto_algorithm alg_gcm = WEBCRYPTO_ALG_AES_GCM, alg_cbc = WEBCRYPTO_ALG_AES_CBC;
static const kdf_arg hkdf_12 = {WEBCRYPTO_ALG_HKDF, 0, 12};
static const kdf_arg hkdf_long = {WEBCRYPTO_ALG_HKDF, 0, (255 * 32 + 1) * 8};
static const kdf_arg pbkdf2_0 = {WEBCRYPTO_ALG_PBKDF2, 0, 256};
static const kdf_arg pbkdf2_12 = {WEBCRYPTO_ALG_PBKDF2, 1000, 12};

#define ECDSA_P256 WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256
static const import_arg spki_truncated = {WEBCRYPTO_FORMAT_SPKI, &m.p256_spki, NULL, ECDSA_P256,
                                          WEBCRYPTO_USAGE_VERIFY, EDIT_TRUNCATE, NULL, NULL};
static const import_arg spki_trailing = {WEBCRYPTO_FORMAT_SPKI, &m.p256_spki, NULL, ECDSA_P256,
                                         WEBCRYPTO_USAGE_VERIFY, EDIT_TRAILING, NULL, NULL};
static const import_arg spki_off_curve = {WEBCRYPTO_FORMAT_SPKI, &m.p256_spki, NULL, ECDSA_P256,
                                          WEBCRYPTO_USAGE_VERIFY, EDIT_LAST_BYTE, NULL, NULL};
static const import_arg spki_wrong_curve = {WEBCRYPTO_FORMAT_SPKI, &m.p256_spki, NULL,
                                            WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P384,
                                            WEBCRYPTO_USAGE_VERIFY, EDIT_NONE, NULL, NULL};
static const import_arg spki_sign_usage = {WEBCRYPTO_FORMAT_SPKI, &m.p256_spki, NULL, ECDSA_P256,
                                           WEBCRYPTO_USAGE_SIGN, EDIT_NONE, NULL, NULL};
static const import_arg pkcs8_truncated = {WEBCRYPTO_FORMAT_PKCS8, &m.p256_pkcs8, NULL,
                                           ECDSA_P256, WEBCRYPTO_USAGE_SIGN, EDIT_TRUNCATE,
                                           NULL, NULL};
static const import_arg ed_pkcs8_trailing = {WEBCRYPTO_FORMAT_PKCS8, &m.ed_pkcs8, NULL,
                                             WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE,
                                             WEBCRYPTO_USAGE_SIGN, EDIT_TRAILING, NULL, NULL};
static const import_arg rsa_pkcs8_truncated = {WEBCRYPTO_FORMAT_PKCS8, &m.rsa_pkcs8, NULL,
                                               WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_CURVE_NONE,
                                               WEBCRYPTO_USAGE_DECRYPT, EDIT_TRUNCATE, NULL, NULL};
#define P256_JWK(member, value) \
    {WEBCRYPTO_FORMAT_JWK, NULL, &m.p256_jwk, ECDSA_P256, WEBCRYPTO_USAGE_SIGN, \
     EDIT_JWK_MEMBER, member, value}
static const import_arg jwk_d_zero = P256_JWK("d", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
static const import_arg jwk_d_max = P256_JWK("d", "__________________________________________8");
static const import_arg jwk_x_short = P256_JWK("x", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
static const import_arg jwk_kty_rsa = P256_JWK("kty", "RSA");
static const import_arg jwk_crv_p384 = P256_JWK("crv", "P-384");
static const import_arg jwk_bad_b64 = P256_JWK("y", "not+base64url/");
static const import_arg jwk_rsa_bad_d = {WEBCRYPTO_FORMAT_JWK, NULL, &m.rsa_jwk,
                                         WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_CURVE_NONE,
                                         WEBCRYPTO_USAGE_DECRYPT, EDIT_JWK_MEMBER, "qi",
                                         "AQAB"};

static const uint8_t point_infinity[1] = {0x00};
static const uint8_t ed_short[31] = {1};
static const raw_arg raw_infinity = {WEBCRYPTO_ALG_ECDH, WEBCRYPTO_CURVE_P256, point_infinity, 1,
                                     WEBCRYPTO_FORMAT_RAW, 0};
static const raw_arg raw_ed_short = {WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE, ed_short, 31,
                                     WEBCRYPTO_FORMAT_RAW, WEBCRYPTO_USAGE_VERIFY};
static const char jwk_garbage[] = "{\"kty\":\"EC\",";
static const raw_arg jwk_truncated_text = {WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256,
                                           (const uint8_t *)jwk_garbage, sizeof jwk_garbage - 1,
                                           WEBCRYPTO_FORMAT_JWK, WEBCRYPTO_USAGE_VERIFY};

#define OPERATION WEBCRYPTO_ERR_OPERATION
#define DATA WEBCRYPTO_ERR_DATA
static const bad_case cases[] = {
    {"AES-CBC padding byte 0x00", WEBCRYPTO_ALG_AES_CBC, OPERATION, cbc_bad_padding, &pad_zero},
    {"AES-CBC padding byte 0x11", WEBCRYPTO_ALG_AES_CBC, OPERATION, cbc_bad_padding, &pad_17},
    {"AES-CBC padding byte 0xff", WEBCRYPTO_ALG_AES_CBC, OPERATION, cbc_bad_padding, &pad_ff},
    {"AES-CBC padding 02 after a non-02 byte", WEBCRYPTO_ALG_AES_CBC, OPERATION, cbc_bad_padding,
     &pad_two},
    {"AES-CBC ciphertext not whole blocks", WEBCRYPTO_ALG_AES_CBC, OPERATION, cipher_params,
     &cbc_partial},
    {"AES-CBC empty ciphertext", WEBCRYPTO_ALG_AES_CBC, OPERATION, cipher_params, &cbc_empty},
    {"AES-CBC 15-byte iv", WEBCRYPTO_ALG_AES_CBC, OPERATION, cipher_params, &cbc_iv15},
    {"AES-CTR 15-byte counter", WEBCRYPTO_ALG_AES_CTR, OPERATION, cipher_params, &ctr_counter15},
    {"AES-CTR length 0", WEBCRYPTO_ALG_AES_CTR, OPERATION, cipher_params, &ctr_length0},
    {"AES-CTR length 129", WEBCRYPTO_ALG_AES_CTR, OPERATION, cipher_params, &ctr_length129},
    {"AES-GCM empty iv", WEBCRYPTO_ALG_AES_GCM, OPERATION, cipher_params, &gcm_no_iv},
    {"AES-GCM tag length 72", WEBCRYPTO_ALG_AES_GCM, OPERATION, cipher_params, &gcm_tag72},
    {"AES-GCM ciphertext shorter than the tag", WEBCRYPTO_ALG_AES_GCM, OPERATION, cipher_params,
     &gcm_short},
    {"AES-GCM forged ciphertext", WEBCRYPTO_ALG_AES_GCM, OPERATION, cipher_params, &gcm_forged},
    {"AES-GCM-SIV 16-byte nonce", WEBCRYPTO_ALG_AES_GCM_SIV, OPERATION, cipher_params,
     &siv_nonce16},
    {"AES-GCM-SIV forged ciphertext", WEBCRYPTO_ALG_AES_GCM_SIV, OPERATION, cipher_params,
     &siv_forged},
    {"AES-GCM 17-byte raw key", WEBCRYPTO_ALG_AES_GCM, DATA, aes_key_17, &alg_gcm},
    {"AES-CBC 17-byte raw key", WEBCRYPTO_ALG_AES_CBC, DATA, aes_key_17, &alg_cbc},
    {"HMAC empty raw key", WEBCRYPTO_ALG_HMAC, DATA, hmac_empty_key, NULL},
    {"AES-KW tampered unwrap", WEBCRYPTO_ALG_AES_KW, OPERATION, kw_tampered, NULL},
    {"HKDF 12 bits", WEBCRYPTO_ALG_HKDF, OPERATION, kdf_params, &hkdf_12},
    {"HKDF over 255 blocks", WEBCRYPTO_ALG_HKDF, OPERATION, kdf_params, &hkdf_long},
    {"PBKDF2 0 iterations", WEBCRYPTO_ALG_PBKDF2, OPERATION, kdf_params, &pbkdf2_0},
    {"PBKDF2 12 bits", WEBCRYPTO_ALG_PBKDF2, OPERATION, kdf_params, &pbkdf2_12},
    {"P-256 SPKI truncated", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &spki_truncated},
    {"P-256 SPKI with a trailing byte", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &spki_trailing},
    {"P-256 SPKI point off the curve", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &spki_off_curve},
    {"P-256 SPKI imported as P-384", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &spki_wrong_curve},
    {"P-256 SPKI with the sign usage", WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ERR_SYNTAX, import_bad,
     &spki_sign_usage},
    {"P-256 PKCS#8 truncated", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &pkcs8_truncated},
    {"P-256 raw point at infinity", WEBCRYPTO_ALG_ECDH, DATA, import_raw_bytes, &raw_infinity},
    {"P-256 JWK d = 0", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &jwk_d_zero},
    {"P-256 JWK d = 2^256 - 1", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &jwk_d_max},
    {"P-256 JWK x of 31 bytes", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &jwk_x_short},
    {"P-256 JWK with kty RSA", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &jwk_kty_rsa},
    {"P-256 JWK with crv P-384", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &jwk_crv_p384},
    {"P-256 JWK y not base64url", WEBCRYPTO_ALG_ECDSA, DATA, import_bad, &jwk_bad_b64},
    {"JWK text cut short", WEBCRYPTO_ALG_ECDSA, DATA, import_raw_bytes, &jwk_truncated_text},
    {"Ed25519 31-byte raw public key", WEBCRYPTO_ALG_ED25519, DATA, import_raw_bytes,
     &raw_ed_short},
    {"Ed25519 PKCS#8 with a trailing byte", WEBCRYPTO_ALG_ED25519, DATA, import_bad,
     &ed_pkcs8_trailing},
    {"RSA PKCS#8 truncated", WEBCRYPTO_ALG_RSA_OAEP, DATA, import_bad, &rsa_pkcs8_truncated},
    {"RSA JWK with a wrong qi", WEBCRYPTO_ALG_RSA_OAEP, DATA, import_bad, &jwk_rsa_bad_d},
    {"RSA-OAEP decryption of garbage", WEBCRYPTO_ALG_RSA_OAEP, OPERATION, oaep_garbage, NULL},
    {"X25519 with a low-order peer", WEBCRYPTO_ALG_X25519, OPERATION, x25519_low_order, NULL},
    {"ECDH P-256 asked for 264 bits", WEBCRYPTO_ALG_ECDH, OPERATION, ecdh_too_long, NULL},
};

size_t diff_errors(const webcrypto_backend **bs, size_t n, size_t *checks) {
    webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
    webcrypto_params rsa = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP, .hash = WEBCRYPTO_ALG_SHA_256,
                                            .modulus_length = 2048, .public_exponent = F4,
                                            .public_exponent_len = sizeof F4);
    const unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    m.p256_pkcs8 = make_private(bs, n, &ec, sv, WEBCRYPTO_FORMAT_PKCS8, &m.p256_spki);
    blob j = make_private(bs, n, &ec, sv, WEBCRYPTO_FORMAT_JWK, NULL);
    m.p256_jwk = (char *)j.p;
    m.ed_pkcs8 = make_private(bs, n, &ed, sv, WEBCRYPTO_FORMAT_PKCS8, NULL);
    m.rsa_pkcs8 = make_private(bs, n, &rsa, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                               WEBCRYPTO_FORMAT_PKCS8, NULL);
    webcrypto_key *rk = NULL;
    for (size_t i = 0; i < n && !m.rsa_jwk && m.rsa_pkcs8.p; i++) {
        if (webcrypto_import_key(bs[i], WEBCRYPTO_FORMAT_PKCS8, m.rsa_pkcs8.p, m.rsa_pkcs8.n, &rsa,
                                 true, WEBCRYPTO_USAGE_DECRYPT, &rk) != WEBCRYPTO_OK)
            continue;
        m.rsa_jwk = (char *)export_blob(WEBCRYPTO_FORMAT_JWK, rk).p;
        webcrypto_key_free(rk);
    }

    size_t failed = 0, run = 0;
    /* $WEBCRYPTO_DIFF_VERBOSE: every status and message, not only failures. */
    const bool verbose = getenv("WEBCRYPTO_DIFF_VERBOSE") != NULL;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t ran_here = 0;
        for (size_t i = 0; i < n; i++) {
            if (!webcrypto_backend_supports(bs[i], cases[c].needs)) continue;
            setup_failed = false;
            webcrypto_status st = cases[c].run(bs[i], cases[c].arg);
            run++;
            ran_here++;
            bool ok = st == cases[c].expected;
            if (!ok) failed++;
            if (!ok || verbose)
                printf("%s errors: %s on %s: %s (%s), expected %s\n", ok ? "ok" : "FAIL",
                       cases[c].what, webcrypto_backend_name(bs[i]), webcrypto_status_name(st),
                       setup_failed ? "the case's own set-up failed" : webcrypto_error_message(),
                       webcrypto_status_name(cases[c].expected));
        }
        if (ran_here < 2) printf("errors: %s ran on %zu backend(s) only\n", cases[c].what, ran_here);
    }
    printf("errors: %zu cases, %zu checks on %zu backends, %zu FAILED\n",
           sizeof cases / sizeof *cases, run, n, failed);
    free(m.p256_spki.p);
    free(m.p256_pkcs8.p);
    free(m.rsa_pkcs8.p);
    free(m.ed_pkcs8.p);
    free(m.p256_jwk);
    free(m.rsa_jwk);
    *checks = run;
    return failed;
}
