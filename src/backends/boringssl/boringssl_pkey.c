/*
 * boringssl_pkey.c - the boringssl backend's asymmetric keys and operations:
 * RSA (PKCS#1 v1.5 and PSS signatures, OAEP), ECDSA and ECDH on P-256/384/521,
 * Ed25519 and X25519, over BoringSSL's native interfaces (RSA, EC_KEY,
 * ECDSA_do_*, ECDH_compute_key, curve25519.h).
 *
 * Design (see backend.h for the contract):
 *  - A key's state holds BoringSSL's object (an RSA inside an EVP_PKEY, an
 *    EC_KEY, or the curve25519 key bytes), made once and only read
 *    afterwards. BoringSSL documents RSA signing/verification, ECDSA and ECDH
 *    on a const key as safe from many threads; RSA-OAEP makes an
 *    EVP_PKEY_CTX per call.
 *  - The key's public members (pkey_fields) are written once, at creation,
 *    into one buffer of the state; the private ones stay in BoringSSL's
 *    object alone and are read out only to export the key
 *    (pkey_private_fields), into the core's buffer, which it wipes.
 *  - Signatures hash the message with BoringSSL's one-shot SHA functions and
 *    sign the digest (RSA_sign, RSA_sign_pss_mgf1, ECDSA_do_sign).
 *  - EC groups are fetched once by init. EC points are decoded here with
 *    coordinates below p required (SEC1), infinity refused, and every key
 *    passes EC_KEY_check_key. RSA keys pass RSA_check_key (private) or the
 *    public checks below.
 *  - Failures carry BoringSSL's reason (wc_bssl_fail clears the error
 *    queue); an invalid signature is valid = false, the queue cleared too.
 *  - RSA-OAEP and the EC point decoding and checks are in
 *    ../evp_common/openssl_api_pkey.inc, #included here and by the openssl backend
 *    (compiled here against BoringSSL's headers).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/base.h>
#ifndef OPENSSL_IS_BORINGSSL
#error "boringssl_pkey.c must be compiled against BoringSSL's headers, not OpenSSL's"
#endif
#include <openssl/bn.h>
#include <openssl/curve25519.h>
#include <openssl/ec.h>
#include <openssl/ec_key.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/mem.h>
#include <openssl/nid.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>

#include "core/backend.h"
#include "boringssl_internal.h"

static const uint8_t no_bytes[1] = {0};
#define NONNULL(p, n) ((n) ? (const uint8_t *)(p) : no_bytes)

enum { MAX_FIELD = 66, OKP_LEN = 32, MAX_RSA_BITS = 16384 };

/* ---- curves, fetched by init ---- */

typedef struct curve_info {
    int nid;
    size_t fs;              /* field size in bytes */
    const EC_GROUP *group;  /* read-only after init */
    uint8_t p[MAX_FIELD];   /* the field prime, fs bytes big-endian */
} curve_info;

static curve_info curves[] = {
    [WEBCRYPTO_CURVE_P256] = {NID_X9_62_prime256v1, 32, NULL, {0}},
    [WEBCRYPTO_CURVE_P384] = {NID_secp384r1, 48, NULL, {0}},
    [WEBCRYPTO_CURVE_P521] = {NID_secp521r1, 66, NULL, {0}},
};

static const curve_info *curve_for(webcrypto_named_curve c) {
    if (c < WEBCRYPTO_CURVE_P256 || c > WEBCRYPTO_CURVE_P521) return NULL;
    return curves[c].group ? &curves[c] : NULL;
}

/* ---- key state ---- */

typedef enum key_type { KT_RSA, KT_EC, KT_ED25519, KT_X25519 } key_type;

typedef struct pkey_state {
    key_type type;
    EVP_PKEY *evp;           /* RSA: owns rsa (for RSA-OAEP's EVP_PKEY_CTX) */
    RSA *rsa;                /* RSA */
    EC_KEY *ec;              /* EC */
    const curve_info *curve; /* EC */
    /* Ed25519: BoringSSL's private key (seed || public key); X25519: the
     * private key in the first 32 bytes. */
    uint8_t okp_priv[64];
    uint8_t okp_pub[OKP_LEN];
    size_t size;             /* RSA: modulus bytes; EC: field size; OKP: 32 */
    wc_pkey_fields f;        /* pointers into mem (OKP: into the state) */
    uint8_t *mem;
    size_t mem_len;
} pkey_state;

/* ---- errors ---- */

/* wc_bssl_fail's message, but DataError (a bad key rather than a failure). */
#define data_fail(what) wc_as_data_error(wc_bssl_fail(what))

static webcrypto_status no_memory(const char *what) {
    ERR_clear_error();
    return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "BoringSSL: out of memory (%s)", what);
}

/* ---- RSA-OAEP and EC points: the code shared with the openssl backend ---- */

#define GLUE_FAIL(what) wc_bssl_fail(what)
#define GLUE_DATA_FAIL(what) data_fail(what)
#define GLUE_NO_MEMORY(what) no_memory(what)
#define GLUE_PKEY_CTX_NEW(pkey) EVP_PKEY_CTX_new((pkey), NULL)
#define GLUE_PKEY_CTX_NEW_NAME "EVP_PKEY_CTX_new"
#define GLUE_OAEP_LABEL_LEN(n) (n) /* BoringSSL takes a size_t */
#define GLUE_BYTES(p, n) NONNULL(p, n)
#include "backends/evp_common/openssl_api_pkey.inc"

/* ---- hashes ---- */

typedef struct hash_info {
    const EVP_MD *md;
    int nid;
    size_t len;
} hash_info;

static bool hash_of(wc_hash hash, hash_info *h) {
    *h = (hash_info){NULL, 0, 0};
    switch (hash) {
    case WC_HASH_SHA_1: *h = (hash_info){EVP_sha1(), NID_sha1, 20}; break;
    case WC_HASH_SHA_256: *h = (hash_info){EVP_sha256(), NID_sha256, 32}; break;
    case WC_HASH_SHA_384: *h = (hash_info){EVP_sha384(), NID_sha384, 48}; break;
    case WC_HASH_SHA_512: *h = (hash_info){EVP_sha512(), NID_sha512, 64}; break;
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512: /* BoringSSL has no SHA-3: init reports none */
    case WC_HASH_COUNT: return false;
    }
    return h->md != NULL;
}

/* out: SHA512_DIGEST_LENGTH bytes of room. The one-shot functions cannot fail. */
static void hash_message(wc_hash hash, const uint8_t *msg, size_t len, uint8_t *out) {
    msg = NONNULL(msg, len);
    switch (hash) {
    case WC_HASH_SHA_1: SHA1(msg, len, out); break;
    case WC_HASH_SHA_256: SHA256(msg, len, out); break;
    case WC_HASH_SHA_384: SHA384(msg, len, out); break;
    case WC_HASH_SHA_512:
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512:
    case WC_HASH_COUNT: SHA512(msg, len, out); break; /* SHA-3, COUNT: hash_of refused them */
    }
}

/* ---- init ---- */

void wc_bssl_pkey_init(wc_caps *c) {
    wc_caps_add_all(c, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS,
                    WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_X25519);
    bool groups = true;
    BIGNUM *p = BN_new();
    for (int i = WEBCRYPTO_CURVE_P256; i <= WEBCRYPTO_CURVE_P521; i++) {
        curve_info *ci = &curves[i];
        if (ci->group) continue;
        /* BoringSSL's built-in groups are static: nothing to free at exit. */
        EC_GROUP *g = EC_GROUP_new_by_curve_name(ci->nid);
        if (!g || !p || EC_GROUP_get_curve_GFp(g, p, NULL, NULL, NULL) != 1 ||
            BN_bn2bin_padded(ci->p, ci->fs, p) != 1) {
            EC_GROUP_free(g);
            groups = false;
            continue;
        }
        ci->group = g;
    }
    BN_free(p);
    if (groups) wc_caps_add_all(c, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH);
    ERR_clear_error(); /* a missing curve only removes the EC bits */
}

/* ---- the state and its material ---- */

static void state_free(pkey_state *s) {
    if (!s) return;
    EVP_PKEY_free(s->evp); /* BoringSSL's OPENSSL_free cleanses what it frees */
    EC_KEY_free(s->ec);
    if (s->mem) {
        wc_wipe(s->mem, s->mem_len);
        free(s->mem);
    }
    wc_wipe(s, sizeof *s); /* the curve25519 keys */
    free(s);
}

/* RSA members from..to-1 (n, e, d, p, q, dp, dq, qi) into f, minimal
 * big-endian: their bytes into buf (cap bytes), or, buf NULL, into a new
 * *alloc of *used bytes. */
static webcrypto_status rsa_read(const pkey_state *s, wc_pkey_fields *f, int from, int to,
                                 uint8_t *buf, size_t cap, uint8_t **alloc, size_t *used) {
    const BIGNUM *bn[8] = {NULL};
    RSA_get0_key(s->rsa, &bn[0], &bn[1], &bn[2]);
    RSA_get0_factors(s->rsa, &bn[3], &bn[4]);
    RSA_get0_crt_params(s->rsa, &bn[5], &bn[6], &bn[7]);
    wc_bytes *dst[8] = {&f->n, &f->e, &f->d, &f->p, &f->q, &f->dp, &f->dq, &f->qi};
    size_t total = 0;
    for (int i = from; i < to; i++) {
        if (!bn[i])
            return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: the RSA key lacks a member");
        total += BN_num_bytes(bn[i]);
    }
    if (!buf) {
        if (!(buf = *alloc = malloc(total ? total : 1)))
            return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    } else if (total > cap) {
        return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: the RSA key's members are too long");
    }
    *used = total;
    uint8_t *w = buf;
    for (int i = from; i < to; i++) {
        size_t n = BN_bn2bin(bn[i], w); /* minimal big-endian */
        *dst[i] = (wc_bytes){w, n};
        w += n;
    }
    return WEBCRYPTO_OK;
}

/* The state keeps the public members only; the private ones are
 * BoringSSL's object's alone, read out by wc_bssl_pkey_private_fields. */
static webcrypto_status rsa_fields(pkey_state *s) {
    webcrypto_status st = rsa_read(s, &s->f, 0, 2, NULL, 0, &s->mem, &s->mem_len);
    if (st != WEBCRYPTO_OK) return st;
    s->size = RSA_size(s->rsa);
    if (s->size != s->f.n.n)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: unexpected RSA key size");
    return WEBCRYPTO_OK;
}

static webcrypto_status ec_fields(pkey_state *s) {
    size_t fs = s->curve->fs;
    const EC_POINT *q = EC_KEY_get0_public_key(s->ec);
    BIGNUM *x = BN_new(), *y = BN_new();
    webcrypto_status st = WEBCRYPTO_OK;
    s->mem_len = 2 * fs;
    s->mem = malloc(s->mem_len);
    if (!x || !y || !s->mem) {
        st = no_memory("EC key material");
        goto done;
    }
    if (!q || EC_POINT_get_affine_coordinates_GFp(s->curve->group, q, x, y, NULL) != 1 ||
        BN_bn2bin_padded(s->mem, fs, x) != 1 || BN_bn2bin_padded(s->mem + fs, fs, y) != 1) {
        st = wc_bssl_fail("reading the EC public key");
        goto done;
    }
    s->f.x = (wc_bytes){s->mem, fs};
    s->f.y = (wc_bytes){s->mem + fs, fs};
    s->size = fs;
done:
    BN_free(x);
    BN_free(y);
    return st;
}

/* Takes the state's object(s) and writes its material; frees s on failure. */
static webcrypto_status state_finish(pkey_state *s, void **state) {
    webcrypto_status st = WEBCRYPTO_OK;
    if (s->type == KT_RSA) {
        st = rsa_fields(s);
    } else if (s->type == KT_EC) {
        s->f.curve = (webcrypto_named_curve)(s->curve - curves);
        st = ec_fields(s);
    } else {
        s->f.x = (wc_bytes){s->okp_pub, OKP_LEN};
        s->size = OKP_LEN;
    }
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

static pkey_state *state_new(key_type type, bool is_private) {
    pkey_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->type = type;
    s->f.is_private = is_private;
    return s;
}

/* ---- RSA keys ---- */

/* Checks BoringSSL applies to every RSA public key (rsa_check_public_key),
 * made here so that a key it would refuse is refused at import, with a
 * reason: an odd modulus of at most 16384 bits; an odd exponent, > 1, < n,
 * of at most 33 bits. */
static webcrypto_status rsa_public_checks(const BIGNUM *n, const BIGNUM *e) {
    if (!BN_is_odd(n) || BN_num_bits(n) > MAX_RSA_BITS)
        return wc_error(WEBCRYPTO_ERR_DATA,
                        "RSA key: the modulus must be odd and at most %d bits", MAX_RSA_BITS);
    if (!BN_is_odd(e) || BN_is_one(e) || BN_ucmp(e, n) >= 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: invalid public exponent");
    if (BN_num_bits(e) > 33)
        return wc_error(WEBCRYPTO_ERR_DATA,
                        "RSA key: BoringSSL accepts public exponents of at most 33 bits, not %u",
                        BN_num_bits(e));
    return WEBCRYPTO_OK;
}

/* Builds an RSA key from bn (n, e; and d, p, q, dp, dq, qi if is_private),
 * taking ownership of each BIGNUM (set to NULL as it is taken); checks it. */
static webcrypto_status rsa_build(BIGNUM *bn[8], bool is_private,
                                  void **state) {
    webcrypto_status st = rsa_public_checks(bn[0], bn[1]);
    if (st != WEBCRYPTO_OK) return st;
    pkey_state *s = state_new(KT_RSA, is_private);
    if (!s) return no_memory("key state");
    RSA *rsa = RSA_new();
    if (!rsa) {
        free(s);
        return no_memory("RSA_new");
    }
    if (RSA_set0_key(rsa, bn[0], bn[1], is_private ? bn[2] : NULL) != 1) {
        st = wc_bssl_fail("RSA_set0_key");
        goto fail;
    }
    bn[0] = bn[1] = NULL;
    if (is_private) {
        bn[2] = NULL;
        if (RSA_set0_factors(rsa, bn[3], bn[4]) != 1) {
            st = wc_bssl_fail("RSA_set0_factors");
            goto fail;
        }
        bn[3] = bn[4] = NULL;
        if (RSA_set0_crt_params(rsa, bn[5], bn[6], bn[7]) != 1) {
            st = wc_bssl_fail("RSA_set0_crt_params");
            goto fail;
        }
        bn[5] = bn[6] = bn[7] = NULL;
        /* n = pq, d e = 1 mod (p-1) and (q-1), the CRT values (no primality test) */
        if (RSA_check_key(rsa) != 1) {
            st = data_fail("RSA private key check (RSA_check_key)");
            goto fail;
        }
    }
    s->evp = EVP_PKEY_new();
    if (!s->evp || EVP_PKEY_assign_RSA(s->evp, rsa) != 1) {
        st = no_memory("EVP_PKEY");
        goto fail;
    }
    s->rsa = rsa; /* owned by s->evp */
    return state_finish(s, state);
fail:
    RSA_free(rsa);
    EVP_PKEY_free(s->evp);
    free(s);
    return st;
}

static webcrypto_status rsa_import(const wc_pkey_fields *f,
                                   void **state) {
    /* Each member present, at most WC_RSA_MAX_MEMBER bytes (the contract). */
    const wc_bytes src[8] = {f->n, f->e, f->d, f->p, f->q, f->dp, f->dq, f->qi};
    int count = f->is_private ? 8 : 2;
    BIGNUM *bn[8] = {NULL};
    webcrypto_status st = WEBCRYPTO_OK;
    for (int i = 0; i < count && st == WEBCRYPTO_OK; i++)
        if (!(bn[i] = BN_bin2bn(src[i].p, src[i].n, NULL))) st = no_memory("BN_bin2bn");
    if (st == WEBCRYPTO_OK) st = rsa_build(bn, f->is_private, state);
    for (int i = 0; i < count; i++) BN_clear_free(bn[i]);
    return st;
}

static webcrypto_status rsa_generate(size_t modulus_bits, wc_bytes e,
                                     void **state) {
    /* modulus_bits (256..16384, a multiple of 8) and e's value (3 or 65537,
     * which BoringSSL takes) are the core's; e.n is not bounded (leading
     * zeros), and this backend has always refused more than 8 bytes. */
    if (e.n > 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA: unsupported modulus length or exponent");
    BIGNUM *bn_e = BN_bin2bn(e.p, e.n, NULL);
    if (!bn_e) return no_memory("BN_bin2bn");
    BIGNUM *bn[8] = {NULL};
    webcrypto_status st = WEBCRYPTO_OK;
    if (modulus_bits % 128 == 0) {
        RSA *rsa = RSA_new();
        if (!rsa) {
            st = no_memory("RSA_new");
        } else if (RSA_generate_key_ex(rsa, (int)modulus_bits, bn_e, NULL) != 1) {
            st = wc_bssl_fail("RSA_generate_key_ex");
        } else if (RSA_bits(rsa) != modulus_bits) {
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "BoringSSL: RSA_generate_key_ex made a %u-bit key, not %zu",
                          RSA_bits(rsa), modulus_bits);
        } else {
            /* The members are copied out so that one path builds and checks
             * every key (the copies are cleared below if that fails). */
            const BIGNUM *src[8];
            RSA_get0_key(rsa, &src[0], &src[1], &src[2]);
            RSA_get0_factors(rsa, &src[3], &src[4]);
            RSA_get0_crt_params(rsa, &src[5], &src[6], &src[7]);
            for (int i = 0; i < 8 && st == WEBCRYPTO_OK; i++)
                if (!src[i] || !(bn[i] = BN_dup(src[i]))) st = no_memory("BN_dup");
        }
        RSA_free(rsa);
    } else {
        /* RSA_generate_key_ex would round the size down to a multiple of 128
         * bits (asked for 1000, it gives 896: measured); generating RSA keys is
         * BoringSSL's to do, so other sizes are refused, not assembled here. */
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "BoringSSL generates RSA moduli in multiples of 128 bits only, not %zu",
                      modulus_bits);
    }
    BN_free(bn_e);
    if (st == WEBCRYPTO_OK) {
        st = rsa_build(bn, true, state);
        if (st == WEBCRYPTO_ERR_DATA) /* our own key failed its check */
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: the generated RSA key is invalid");
    }
    for (int i = 0; i < 8; i++) BN_clear_free(bn[i]);
    return st;
}

/* ---- EC keys ---- */

/* Whether the n bytes at a are all zero, with no branch on them (a is a
 * secret scalar; only the answer, which refuses the key, is revealed). */
static bool bytes_are_zero(const uint8_t *a, size_t n) {
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) acc |= a[i];
    return ((acc - 1) >> 8) & 1;
}

/* Makes the state for an EC key on ci from a public point q and/or a private
 * scalar d (either may be NULL, not both); checks it. */
static webcrypto_status ec_build(const curve_info *ci,
                                 const EC_POINT *q, const BIGNUM *d, void **state) {
    pkey_state *s = state_new(KT_EC, d != NULL);
    if (!s) return no_memory("key state");
    s->curve = ci;
    webcrypto_status st = WEBCRYPTO_OK;
    EC_POINT *qd = NULL;
    s->ec = EC_KEY_new();
    if (!s->ec || EC_KEY_set_group(s->ec, ci->group) != 1) {
        st = no_memory("EC_KEY_new");
        goto done;
    }
    if (d) {
        /* d below n: EC_KEY_set_private_key refuses d >= n, converting it
         * with ec_bignum_to_scalar, which compares the words in constant
         * time (the source says so, not ec_key.h; seen refusing n and n + 1
         * on Android 13's BoringSSL, which accepts 0: ec_import refused it).
         * Its public point computed, and compared with q. */
        if (EC_KEY_set_private_key(s->ec, d) != 1) {
            /* The openssl backend's words, not BoringSSL's "WRONG_ORDER". */
            st = data_fail("EC_KEY_set_private_key");
            if (st == WEBCRYPTO_ERR_DATA)
                st = wc_error(WEBCRYPTO_ERR_DATA, "EC key: the private key is out of range");
            goto done;
        }
        qd = EC_POINT_new(ci->group);
        if (!qd) {
            st = no_memory("EC_POINT_new");
            goto done;
        }
        st = glue_ec_public_of(ci->group, d, q, qd, NULL);
        if (st != WEBCRYPTO_OK) goto done;
        q = qd;
    }
    if (EC_KEY_set_public_key(s->ec, q) != 1) {
        st = data_fail("EC_KEY_set_public_key");
        goto done;
    }
    if (EC_KEY_check_key(s->ec) != 1) {
        st = data_fail("EC key check (EC_KEY_check_key)");
        goto done;
    }
done:
    EC_POINT_free(qd);
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    return state_finish(s, state);
}

static webcrypto_status ec_import(const wc_pkey_fields *f,
                                  void **state) {
    const curve_info *ci = curve_for(f->curve);
    if (!ci) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL: this curve is not available");
    size_t fs = ci->fs;
    /* The contract: a point or x and y of fs bytes (always for a public
     * key), d of fs bytes for a private one. */
    bool have_pub = f->point.n > 0 || f->x.n > 0;
    if (f->is_private && bytes_are_zero(f->d.p, fs))
        return wc_error(WEBCRYPTO_ERR_DATA, "EC key: the private key is out of range");

    webcrypto_status st = WEBCRYPTO_OK;
    EC_POINT *q = NULL;
    BIGNUM *d = NULL;
    if (have_pub) {
        q = EC_POINT_new(ci->group);
        if (!q) return no_memory("EC_POINT_new");
        if (f->point.n > 0) {
            st = glue_ec_decode_point(ci->group, fs, ci->p, f->point.p, f->point.n, q, NULL);
        } else {
            uint8_t enc[1 + 2 * MAX_FIELD];
            enc[0] = 0x04;
            memcpy(enc + 1, f->x.p, fs);
            memcpy(enc + 1 + fs, f->y.p, fs);
            st = glue_ec_decode_point(ci->group, fs, ci->p, enc, 1 + 2 * fs, q, NULL);
        }
    }
    if (st == WEBCRYPTO_OK && f->is_private && !(d = BN_bin2bn(f->d.p, f->d.n, NULL)))
        st = no_memory("BN_bin2bn");
    if (st == WEBCRYPTO_OK) st = ec_build(ci, q, d, state);
    BN_clear_free(d);
    EC_POINT_free(q);
    return st;
}

static webcrypto_status ec_generate(webcrypto_named_curve curve,
                                    void **state) {
    const curve_info *ci = curve_for(curve);
    if (!ci) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL: this curve is not available");
    pkey_state *s = state_new(KT_EC, true);
    if (!s) return no_memory("key state");
    s->curve = ci;
    s->ec = EC_KEY_new();
    webcrypto_status st = WEBCRYPTO_OK;
    if (!s->ec || EC_KEY_set_group(s->ec, ci->group) != 1)
        st = no_memory("EC_KEY_new");
    else if (EC_KEY_generate_key(s->ec) != 1)
        st = wc_bssl_fail("EC_KEY_generate_key");
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    return state_finish(s, state);
}

/* ---- Ed25519, X25519 keys ---- */

/* The key type of an OKP member; false for one BoringSSL lacks. */
static bool okp_type(wc_okp kind, key_type *type) {
    switch (kind) {
    case WC_OKP_ED25519: *type = KT_ED25519; return true;
    case WC_OKP_X25519: *type = KT_X25519; return true;
    case WC_OKP_ED448: /* BoringSSL has neither Curve448 member */
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    return false;
}

static webcrypto_status okp_import(wc_okp kind, const wc_pkey_fields *f, void **state) {
    key_type type;
    if (!okp_type(kind, &type))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such OKP key");
    const char *shown = wc_okp_name(kind);
    /* The contract: d of 32 bytes for a private key; x of 32 bytes, or empty
     * for a private key. */
    pkey_state *s = state_new(type, f->is_private);
    if (!s) return no_memory("key state");
    if (f->is_private) {
        /* The public key is computed from the private one; a given one must match. */
        if (type == KT_ED25519) {
            ED25519_keypair_from_seed(s->okp_pub, s->okp_priv, f->d.p);
        } else {
            memcpy(s->okp_priv, f->d.p, OKP_LEN);
            X25519_public_from_private(s->okp_pub, s->okp_priv);
        }
        if (f->x.n > 0 && !wc_equal_ct(s->okp_pub, f->x.p, OKP_LEN)) {
            state_free(s);
            return wc_error(WEBCRYPTO_ERR_DATA,
                            "%s key: the public key does not match the private key", shown);
        }
    } else {
        memcpy(s->okp_pub, f->x.p, OKP_LEN);
    }
    return state_finish(s, state);
}

static webcrypto_status okp_generate(wc_okp kind, void **state) {
    key_type type;
    if (!okp_type(kind, &type))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such OKP key");
    pkey_state *s = state_new(type, true);
    if (!s) return no_memory("key state");
    if (type == KT_ED25519) {
        /* From a seed, so that the seed (the RFC 8032 private key) is kept. */
        uint8_t seed[OKP_LEN];
        if (RAND_bytes(seed, sizeof seed) != 1) {
            state_free(s);
            return wc_bssl_fail("RAND_bytes");
        }
        ED25519_keypair_from_seed(s->okp_pub, s->okp_priv, seed);
        wc_wipe(seed, sizeof seed);
    } else {
        X25519_keypair(s->okp_pub, s->okp_priv);
    }
    return state_finish(s, state);
}

/* ---- the ops: keys ---- */

webcrypto_status wc_bssl_pkey_import(const void *bctx, wc_family family, unsigned member,
                                     const wc_pkey_fields *f, void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_RSA: return rsa_import(f, state);
    case WC_FAMILY_EC: return ec_import(f, state);
    case WC_FAMILY_OKP: return okp_import((wc_okp)member, f, state);
    case WC_FAMILY_ML_KEM: /* not in Debian's BoringSSL 13: no capability bit */
    case WC_FAMILY_ML_DSA:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "this BoringSSL has no ML-KEM or ML-DSA");
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: not an asymmetric algorithm");
}

webcrypto_status wc_bssl_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                       size_t modulus_bits, wc_bytes e,
                                       webcrypto_named_curve curve, void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_RSA: return rsa_generate(modulus_bits, e, state);
    case WC_FAMILY_EC: return ec_generate(curve, state);
    case WC_FAMILY_OKP: return okp_generate((wc_okp)member, state);
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: not an asymmetric algorithm");
}

webcrypto_status wc_bssl_pkey_fields(const void *state, wc_pkey_fields *out) {
    const pkey_state *s = state;
    *out = s->f;
    return WEBCRYPTO_OK;
}

webcrypto_status wc_bssl_pkey_private_fields(const void *state, wc_pkey_fields *out,
                                             uint8_t *buf, size_t cap) {
    const pkey_state *s = state;
    *out = s->f;
    switch (s->type) {
    case KT_RSA: {
        size_t used = 0;
        return rsa_read(s, out, 2, 8, buf, cap, NULL, &used);
    }
    case KT_EC: {
        size_t fs = s->curve->fs;
        const BIGNUM *d = EC_KEY_get0_private_key(s->ec);
        if (cap < fs || !d || BN_bn2bin_padded(buf, fs, d) != 1)
            return wc_bssl_fail("reading the EC private key");
        out->d = (wc_bytes){buf, fs};
        return WEBCRYPTO_OK;
    }
    case KT_ED25519:
    case KT_X25519:
        if (cap < OKP_LEN) return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: no room");
        memcpy(buf, s->okp_priv, OKP_LEN); /* Ed25519: the seed */
        out->d = (wc_bytes){buf, OKP_LEN};
        return WEBCRYPTO_OK;
    }
    return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: unknown key type");
}

void wc_bssl_pkey_free(void *state) { state_free(state); }

/* ---- RSA signatures ---- */


webcrypto_status wc_bssl_rsa_sign(const void *state, wc_rsa_scheme scheme,
                                  wc_hash hash, size_t salt_len, const uint8_t *msg,
                                  size_t len, uint8_t *sig, size_t *sig_len) {
    const pkey_state *s = state;
    hash_info h;
    if (!hash_of(hash, &h)) return wc_hash_unavailable("BoringSSL", hash);
    bool pss = false;
    if (!wc_rsa_sig_is_pss(scheme, &pss))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL: not an RSA signature scheme");
    if (pss && salt_len > INT_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-PSS: the salt is too long for the key");
    uint8_t digest[SHA512_DIGEST_LENGTH];
    hash_message(hash, msg, len, digest);
    if (pss) {
        size_t n = 0;
        if (RSA_sign_pss_mgf1(s->rsa, &n, sig, s->size, digest, h.len, h.md, h.md,
                              (int)salt_len) != 1)
            return wc_bssl_fail("RSA-PSS signing (RSA_sign_pss_mgf1)");
        *sig_len = n;
    } else {
        unsigned n = 0;
        if (RSA_sign(h.nid, digest, (unsigned)h.len, sig, &n, s->rsa) != 1)
            return wc_bssl_fail("RSASSA-PKCS1-v1_5 signing (RSA_sign)");
        *sig_len = n;
    }
    return WEBCRYPTO_OK;
}

webcrypto_status wc_bssl_rsa_verify(const void *state, wc_rsa_scheme scheme,
                                    wc_hash hash, size_t salt_len, const uint8_t *msg,
                                    size_t len, const uint8_t *sig, size_t sig_len, bool *valid) {
    const pkey_state *s = state;
    *valid = false;
    hash_info h;
    if (!hash_of(hash, &h)) return wc_hash_unavailable("BoringSSL", hash);
    bool pss = false;
    if (!wc_rsa_sig_is_pss(scheme, &pss))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL: not an RSA signature scheme");
    /* RFC 8017 8.1.2 / 8.2.2: a signature of another length is invalid; so
     * is a PSS salt no key could hold. */
    if (sig_len != s->size || (pss && salt_len > INT_MAX))
        return WEBCRYPTO_OK;
    uint8_t digest[SHA512_DIGEST_LENGTH];
    hash_message(hash, msg, len, digest);
    if (pss)
        *valid = RSA_verify_pss_mgf1(s->rsa, digest, h.len, h.md, h.md, (int)salt_len, sig,
                                     sig_len) == 1;
    else
        *valid = RSA_verify(h.nid, digest, h.len, sig, sig_len, s->rsa) == 1;
    ERR_clear_error();
    return WEBCRYPTO_OK;
}

/* ---- RSA-OAEP (openssl_api_pkey.inc) ---- */

webcrypto_status wc_bssl_rsa_oaep_encrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len) {
    const pkey_state *s = state;
    hash_info h;
    if (!hash_of(hash, &h)) return wc_hash_unavailable("BoringSSL", hash);
    return glue_oaep_encrypt(s->evp, s->size, h.md, label, label_len, in, len, out, out_len);
}

webcrypto_status wc_bssl_rsa_oaep_decrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len) {
    const pkey_state *s = state;
    hash_info h;
    if (!hash_of(hash, &h)) return wc_hash_unavailable("BoringSSL", hash);
    return glue_oaep_decrypt(s->evp, s->size, h.md, label, label_len, in, len, out, out_len);
}

/* ---- ECDSA ---- */

webcrypto_status wc_bssl_ecdsa_sign(const void *state, wc_hash hash,
                                    const uint8_t *msg, size_t len, uint8_t *sig,
                                    size_t *sig_len) {
    const pkey_state *s = state;
    hash_info h;
    if (!hash_of(hash, &h)) return wc_hash_unavailable("BoringSSL", hash);
    uint8_t digest[SHA512_DIGEST_LENGTH];
    hash_message(hash, msg, len, digest);
    ECDSA_SIG *es = ECDSA_do_sign(digest, h.len, s->ec);
    if (!es) return wc_bssl_fail("ECDSA signing (ECDSA_do_sign)");
    size_t fs = s->size;
    webcrypto_status st = WEBCRYPTO_OK;
    const BIGNUM *r = NULL, *sv = NULL;
    ECDSA_SIG_get0(es, &r, &sv);
    if (BN_bn2bin_padded(sig, fs, r) != 1 || BN_bn2bin_padded(sig + fs, fs, sv) != 1)
        st = wc_bssl_fail("encoding the ECDSA signature");
    else
        *sig_len = 2 * fs;
    ECDSA_SIG_free(es);
    return st;
}

webcrypto_status wc_bssl_ecdsa_verify(const void *state, wc_hash hash,
                                      const uint8_t *msg, size_t len, const uint8_t *sig,
                                      size_t sig_len, bool *valid) {
    const pkey_state *s = state;
    *valid = false;
    hash_info h;
    if (!hash_of(hash, &h)) return wc_hash_unavailable("BoringSSL", hash);
    size_t fs = s->size;
    if (sig_len != 2 * fs) return WEBCRYPTO_OK; /* not r || s: invalid */
    ECDSA_SIG *es = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(sig, fs, NULL), *sv = BN_bin2bn(sig + fs, fs, NULL);
    if (!es || !r || !sv || ECDSA_SIG_set0(es, r, sv) != 1) {
        ECDSA_SIG_free(es);
        BN_free(r);
        BN_free(sv);
        return no_memory("ECDSA signature");
    }
    /* es owns r and s now; ECDSA_do_verify refuses r, s outside [1, n-1]. */
    uint8_t digest[SHA512_DIGEST_LENGTH];
    hash_message(hash, msg, len, digest);
    *valid = ECDSA_do_verify(digest, h.len, es, s->ec) == 1;
    ERR_clear_error();
    ECDSA_SIG_free(es);
    return WEBCRYPTO_OK;
}

/* ---- OKP signatures ---- */

/* context is always empty for Ed25519, the one signature BoringSSL has. */
webcrypto_status wc_bssl_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                                  size_t context_len, const uint8_t *msg, size_t len,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len) {
    (void)context, (void)context_len;
    const pkey_state *s = state;
    switch (kind) {
    case WC_OKP_ED25519:
        if (sig_cap < 64) break;
        if (ED25519_sign(sig, NONNULL(msg, len), len, s->okp_priv) != 1)
            return wc_bssl_fail("ED25519_sign");
        *sig_len = 64;
        return WEBCRYPTO_OK;
    case WC_OKP_X25519:
    case WC_OKP_ED448:
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such signature");
}

webcrypto_status wc_bssl_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                    size_t context_len, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t sig_len, bool *valid) {
    (void)context, (void)context_len;
    const pkey_state *s = state;
    *valid = false;
    switch (kind) {
    case WC_OKP_ED25519:
        *valid = sig_len == 64 && ED25519_verify(NONNULL(msg, len), len, sig, s->okp_pub) == 1;
        ERR_clear_error();
        return WEBCRYPTO_OK;
    case WC_OKP_X25519:
    case WC_OKP_ED448:
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such signature");
}

/* ---- key agreement ---- */

webcrypto_status wc_bssl_ecdh(const void *private_state, const void *public_state,
                              uint8_t *out, size_t *out_len) {
    const pkey_state *priv = private_state, *pub = public_state;
    size_t fs = priv->size;
    /* The peer's point was checked when it was imported. */
    int n = ECDH_compute_key(out, fs, EC_KEY_get0_public_key(pub->ec), priv->ec, NULL);
    if (n < 0) return wc_bssl_fail("ECDH (ECDH_compute_key)");
    if ((size_t)n != fs) {
        wc_wipe(out, fs);
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "BoringSSL: the shared secret has %d bytes, not %zu", n, fs);
    }
    *out_len = fs;
    return WEBCRYPTO_OK;
}

webcrypto_status wc_bssl_okp_derive(const void *private_state, const void *public_state,
                                    wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len) {
    const pkey_state *priv = private_state, *pub = public_state;
    switch (kind) {
    case WC_OKP_X25519:
        if (out_cap < 32) break;
        /* X25519 returns 0 for an all-zero result (RFC 7748 section 6.1: a
         * small-order public key), which the core refuses too. */
        if (X25519(out, priv->okp_priv, pub->okp_pub) != 1) {
            ERR_clear_error();
            wc_wipe(out, 32);
            return wc_error(WEBCRYPTO_ERR_OPERATION, "X25519: the shared secret is all zeros "
                                                     "(the public key has small order)");
        }
        *out_len = 32;
        return WEBCRYPTO_OK;
    case WC_OKP_ED25519:
    case WC_OKP_ED448:
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such key agreement");
}
