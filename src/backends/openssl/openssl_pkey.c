/*
 * openssl_pkey.c - the openssl backend's asymmetric keys and operations:
 * RSA (PKCS#1 v1.5 and PSS signatures, OAEP), ECDSA and ECDH on P-256/384/521,
 * Ed25519, X25519, Ed448 and X448, over OpenSSL 3's EVP_PKEY interface.
 *
 * Design (see backend.h for the contract):
 *  - A key's state holds one EVP_PKEY, made once (EVP_PKEY_fromdata or
 *    EVP_PKEY_keygen) and only read afterwards, so threads may share a key.
 *  - Signatures: a key keeps prepared contexts, made on its first signature
 *    (or verification) of each kind and kept until it is freed; every call
 *    works on its own copy of one (EVP_PKEY_CTX_dup, EVP_MD_CTX_copy_ex).
 *    Making a context (EVP_DigestSignInit) fetches the signature and the
 *    digest by name in OpenSSL 3.0, and RSA sets its padding through
 *    parameters: a copy skips all that. ECDSA and RSA hash the message
 *    themselves (EVP_Digest with the digest fetched at init) and sign the
 *    hash with EVP_PKEY_sign / EVP_PKEY_verify, the calls EVP_DigestSign
 *    makes after hashing; EdDSA copies an EVP_MD_CTX made by
 *    EVP_DigestSignInit / EVP_DigestVerifyInit. The prepared contexts are
 *    only read (copied) after they are published in the key, which is done
 *    with an atomic compare-and-swap (the loser of a race frees its own), as
 *    backend.h allows.
 *  - The key's public members (pkey_fields) are read out of the EVP_PKEY
 *    once, at creation, into one buffer of the state; the private ones stay
 *    in the EVP_PKEY alone (its one copy) and are read out only to export
 *    the key (pkey_private_fields), into the core's buffer, which it wipes.
 *  - The EC groups are built once by init(). EC points are decoded here, so
 *    that a coordinate >= p (which OpenSSL would silently reduce) and the
 *    point at infinity are refused (hybrid encodings never get here: the
 *    core admits only 02, 03 and 04 points); the public point of a private
 *    key without one is computed from d.
 *  - RSA-OAEP and the EC point decoding and checks are in
 *    ../openssl_api_pkey.inc, #included here and by the boringssl backend.
 *  - Failures of OpenSSL carry OpenSSL's reason (wc_ossl_fail, which clears
 *    the error queue); verification failures are valid = false, with the
 *    queue cleared too.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "core/backend.h"
#include "core/ct.h"
#include "openssl_internal.h"

/* OpenSSL refuses a NULL message even when it is empty. */
static const uint8_t no_bytes[1] = {0};
#define BYTES_OR_EMPTY(p, n) ((n) ? (const unsigned char *)(p) : no_bytes)

enum { MAX_FIELD = 66, MAX_OKP = 57 /* Ed448 */ };

/* ---- curves, built by init ---- */

typedef struct curve_info {
    const char *group_name;   /* OpenSSL's name, for OSSL_PKEY_PARAM_GROUP_NAME */
    int nid;
    size_t fs;                /* field size in bytes */
    EC_GROUP *group;          /* read-only after init */
    uint8_t p[MAX_FIELD];     /* the field prime, fs bytes big-endian */
    uint8_t order[MAX_FIELD]; /* the group order n, fs bytes big-endian */
} curve_info;

static curve_info curves[] = {
    [WEBCRYPTO_CURVE_P256] = {"prime256v1", NID_X9_62_prime256v1, 32, NULL, {0}, {0}},
    [WEBCRYPTO_CURVE_P384] = {"secp384r1", NID_secp384r1, 48, NULL, {0}, {0}},
    [WEBCRYPTO_CURVE_P521] = {"secp521r1", NID_secp521r1, 66, NULL, {0}, {0}},
};

static const curve_info *curve_for(webcrypto_named_curve c) {
    if (c < WEBCRYPTO_CURVE_P256 || c > WEBCRYPTO_CURVE_P521) return NULL;
    return curves[c].group ? &curves[c] : NULL;
}

/* ---- key state ---- */

typedef enum key_type { KT_RSA, KT_EC, KT_OKP } key_type;

/* The prepared signature contexts of a key: [op][scheme][hash], op 0 sign,
 * 1 verify. RSA: EVP_PKEY_CTX with padding, digest and (PSS) MGF1 digest set,
 * per scheme and hash; EC: an EVP_PKEY_CTX without a digest, in [op][0][0];
 * OKP: an EVP_MD_CTX after EVP_DigestSignInit / VerifyInit, in [op][0][0].
 * NULL until first made. */
enum { PREP_SIGN, PREP_VERIFY, PREP_OPS, PREP_SCHEMES = 2 };

typedef struct pkey_state {
    key_type type;
    EVP_PKEY *pkey;
    const curve_info *curve; /* EC */
    size_t size;             /* RSA: modulus bytes; EC: field size; OKP: key bytes */
    wc_pkey_fields f;        /* pointers into mem */
    uint8_t *mem;
    size_t mem_len;
    _Atomic(void *) prep[PREP_OPS][PREP_SCHEMES][WC_HASH_COUNT];
} pkey_state;

/* ---- errors ---- */

/* ossl_fail's message, but DataError (a bad key rather than a failure). */
#define data_fail(what) wc_as_data_error(wc_ossl_fail(what))

static webcrypto_status no_memory(const char *what) {
    ERR_clear_error();
    return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "OpenSSL: out of memory (%s)", what);
}

/* ---- RSA-OAEP and EC points: the code shared with the boringssl backend ---- */

#define GLUE_FAIL(what) wc_ossl_fail(what)
#define GLUE_DATA_FAIL(what) data_fail(what)
#define GLUE_NO_MEMORY(what) no_memory(what)
#define GLUE_PKEY_CTX_NEW(pkey) EVP_PKEY_CTX_new_from_pkey(NULL, (pkey), NULL)
#define GLUE_PKEY_CTX_NEW_NAME "EVP_PKEY_CTX_new_from_pkey"
#define GLUE_OAEP_LABEL_LEN(n) ((int)(n)) /* oaep_md checked n <= INT_MAX */
#define GLUE_BYTES(p, n) BYTES_OR_EMPTY(p, n)
#include "backends/openssl_api_pkey.inc"

/* ---- init: builds the EC groups and probes each algorithm ---- */

uint64_t wc_ossl_pkey_init(void) {
    uint64_t c = 0;
    bool groups = true;
    for (int i = WEBCRYPTO_CURVE_P256; i <= WEBCRYPTO_CURVE_P521; i++) {
        curve_info *ci = &curves[i];
        if (!ci->group) ci->group = EC_GROUP_new_by_curve_name_ex(NULL, NULL, ci->nid);
        const BIGNUM *p = ci->group ? EC_GROUP_get0_field(ci->group) : NULL;
        const BIGNUM *order = ci->group ? EC_GROUP_get0_order(ci->group) : NULL;
        if (!p || !order || BN_bn2binpad(p, ci->p, (int)ci->fs) != (int)ci->fs ||
            BN_bn2binpad(order, ci->order, (int)ci->fs) != (int)ci->fs) {
            EC_GROUP_free(ci->group);
            ci->group = NULL;
            groups = false;
        }
    }

    /* Each algorithm needs its key management and its operation. */
    EVP_KEYMGMT *km_rsa = EVP_KEYMGMT_fetch(NULL, "RSA", NULL);
    EVP_KEYMGMT *km_ec = EVP_KEYMGMT_fetch(NULL, "EC", NULL);
    EVP_KEYMGMT *km_ed = EVP_KEYMGMT_fetch(NULL, "ED25519", NULL);
    EVP_KEYMGMT *km_x = EVP_KEYMGMT_fetch(NULL, "X25519", NULL);
    EVP_SIGNATURE *sig_rsa = EVP_SIGNATURE_fetch(NULL, "RSA", NULL);
    EVP_SIGNATURE *sig_ec = EVP_SIGNATURE_fetch(NULL, "ECDSA", NULL);
    EVP_SIGNATURE *sig_ed = EVP_SIGNATURE_fetch(NULL, "ED25519", NULL);
    EVP_ASYM_CIPHER *enc_rsa = EVP_ASYM_CIPHER_fetch(NULL, "RSA", NULL);
    EVP_KEYEXCH *kex_ec = EVP_KEYEXCH_fetch(NULL, "ECDH", NULL);
    EVP_KEYEXCH *kex_x = EVP_KEYEXCH_fetch(NULL, "X25519", NULL);
    EVP_KEYMGMT *km_ed448 = EVP_KEYMGMT_fetch(NULL, "ED448", NULL);
    EVP_KEYMGMT *km_x448 = EVP_KEYMGMT_fetch(NULL, "X448", NULL);
    EVP_SIGNATURE *sig_ed448 = EVP_SIGNATURE_fetch(NULL, "ED448", NULL);
    EVP_KEYEXCH *kex_x448 = EVP_KEYEXCH_fetch(NULL, "X448", NULL);

    /* Multi-prime RSA import: OpenSSL 3.0's RSA key management takes up to
     * five primes (rsa_import). */
    if (km_rsa) c |= WC_CAP_RSA_MULTI_PRIME;
    if (km_rsa && sig_rsa)
        c |= WC_CAP(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5) | WC_CAP(WEBCRYPTO_ALG_RSA_PSS);
    if (km_rsa && enc_rsa) c |= WC_CAP(WEBCRYPTO_ALG_RSA_OAEP);
    if (km_ec && groups && sig_ec) c |= WC_CAP(WEBCRYPTO_ALG_ECDSA);
    if (km_ec && groups && kex_ec) c |= WC_CAP(WEBCRYPTO_ALG_ECDH);
    if (km_ed && sig_ed) c |= WC_CAP(WEBCRYPTO_ALG_ED25519);
    if (km_x && kex_x) c |= WC_CAP(WEBCRYPTO_ALG_X25519);
    /* Ed448 without a context only: OpenSSL 3.0's EdDSA takes no context
     * string (its signature has no settable parameters; 3.2 added
     * "context-string"), so WC_CAP_ED448_CONTEXT stays unset and the core
     * answers NotSupportedError for a non-empty context. */
    if (km_ed448 && sig_ed448) c |= WC_CAP(WEBCRYPTO_ALG_ED448);
    if (km_x448 && kex_x448) c |= WC_CAP(WEBCRYPTO_ALG_X448);

    EVP_KEYMGMT_free(km_rsa);
    EVP_KEYMGMT_free(km_ec);
    EVP_KEYMGMT_free(km_ed);
    EVP_KEYMGMT_free(km_x);
    EVP_SIGNATURE_free(sig_rsa);
    EVP_SIGNATURE_free(sig_ec);
    EVP_SIGNATURE_free(sig_ed);
    EVP_ASYM_CIPHER_free(enc_rsa);
    EVP_KEYEXCH_free(kex_ec);
    EVP_KEYEXCH_free(kex_x);
    EVP_KEYMGMT_free(km_ed448);
    EVP_KEYMGMT_free(km_x448);
    EVP_SIGNATURE_free(sig_ed448);
    EVP_KEYEXCH_free(kex_x448);
    ERR_clear_error(); /* a missing algorithm only removes its bit */
    return c;
}

/* ---- reading a key's material into the state ---- */

static void state_free(pkey_state *s) {
    if (!s) return;
    for (size_t op = 0; op < PREP_OPS; op++)
        for (size_t sc = 0; sc < PREP_SCHEMES; sc++)
            for (size_t h = 0; h < WC_HASH_COUNT; h++) {
                void *c = atomic_load_explicit(&s->prep[op][sc][h], memory_order_acquire);
                if (s->type == KT_OKP)
                    EVP_MD_CTX_free(c);
                else
                    EVP_PKEY_CTX_free(c);
            }
    EVP_PKEY_free(s->pkey); /* the providers cleanse private key material */
    if (s->mem) {
        wc_wipe(s->mem, s->mem_len);
        free(s->mem);
    }
    wc_wipe(s, sizeof *s);
    free(s);
}

/* OpenSSL's RSA members, in wc_pkey_fields order: n, e, d, p, q, dp, dq, qi,
 * then r, d, t of the third to fifth primes (FACTORi, EXPONENTi and
 * COEFFICIENT(i-1): its COEFFICIENT1 is qi). */
#define OSSL_RSA_MAX_PRIMES 5 /* RSA_MAX_PRIME_NUM: its private key operations fail above */
#define RSA_MAX_MEMBERS (8 + 3 * (OSSL_RSA_MAX_PRIMES - 2))
static const char *const rsa_names[RSA_MAX_MEMBERS] = {
    OSSL_PKEY_PARAM_RSA_N,           OSSL_PKEY_PARAM_RSA_E,
    OSSL_PKEY_PARAM_RSA_D,           OSSL_PKEY_PARAM_RSA_FACTOR1,
    OSSL_PKEY_PARAM_RSA_FACTOR2,     OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2,   OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
    OSSL_PKEY_PARAM_RSA_FACTOR3,     OSSL_PKEY_PARAM_RSA_EXPONENT3,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT2, OSSL_PKEY_PARAM_RSA_FACTOR4,
    OSSL_PKEY_PARAM_RSA_EXPONENT4,   OSSL_PKEY_PARAM_RSA_COEFFICIENT3,
    OSSL_PKEY_PARAM_RSA_FACTOR5,     OSSL_PKEY_PARAM_RSA_EXPONENT5,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT4,
};

/* RSA members from..to-1 of rsa_names (n, e: 0, 1; the private ones: 2 ..
 * 8 + 3 oth_count - 1) into f, minimal big-endian: their bytes into buf
 * (cap bytes), or, buf NULL, into a new *alloc of *used bytes. */
static webcrypto_status rsa_read(const pkey_state *s, wc_pkey_fields *f, size_t from, size_t to,
                                 uint8_t *buf, size_t cap, uint8_t **alloc, size_t *used) {
    wc_bytes *dst[RSA_MAX_MEMBERS] = {&f->n, &f->e, &f->d, &f->p, &f->q, &f->dp, &f->dq, &f->qi};
    for (size_t i = 0; i < f->oth_count; i++) {
        dst[8 + 3 * i] = &f->oth[i].r;
        dst[8 + 3 * i + 1] = &f->oth[i].d;
        dst[8 + 3 * i + 2] = &f->oth[i].t;
    }
    BIGNUM *bn[RSA_MAX_MEMBERS] = {NULL};
    webcrypto_status st = WEBCRYPTO_OK;
    size_t total = 0;
    for (size_t i = from; i < to; i++) {
        if (EVP_PKEY_get_bn_param(s->pkey, rsa_names[i], &bn[i]) != 1) {
            st = wc_ossl_fail("reading the RSA key");
            goto done;
        }
        /* A member's byte length is public (ct.h): DER and JWK write it. */
        total += wc_ct_public_size((size_t)BN_num_bytes(bn[i]));
    }
    if (!buf) {
        if (!(buf = *alloc = malloc(total ? total : 1))) {
            st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
            goto done;
        }
    } else if (total > cap) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: the RSA key's members are too long");
        goto done;
    }
    *used = total;
    uint8_t *w = buf;
    for (size_t i = from; i < to; i++) {
        int n = BN_bn2bin(bn[i], w);
        WC_CT_PUBLIC(&n, sizeof n);
        dst[i]->p = w;
        dst[i]->n = (size_t)n;
        w += n;
    }
done:
    for (size_t i = from; i < to; i++) BN_clear_free(bn[i]);
    return st;
}

/* The state keeps the public members only (n, e; x, y; x): a private
 * key's private members are the EVP_PKEY's alone, read out on demand by
 * wc_ossl_pkey_private_fields into the caller's buffer. */

/* RSA: n and e. */
static webcrypto_status rsa_fields(pkey_state *s) {
    webcrypto_status st = rsa_read(s, &s->f, 0, 2, NULL, 0, &s->mem, &s->mem_len);
    if (st != WEBCRYPTO_OK) return st;
    int bytes = EVP_PKEY_get_size(s->pkey);
    if (bytes <= 0 || (size_t)bytes != s->f.n.n)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unexpected RSA key size");
    s->size = (size_t)bytes;
    return WEBCRYPTO_OK;
}

/* EC: x and y, each the field size. */
static webcrypto_status ec_fields(pkey_state *s) {
    size_t fs = s->curve->fs;
    uint8_t pub[1 + 2 * MAX_FIELD];
    size_t pub_len = 0;
    if (EVP_PKEY_get_octet_string_param(s->pkey, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof pub,
                                        &pub_len) != 1)
        return wc_ossl_fail("reading the EC public key");
    if (pub_len != 1 + 2 * fs || pub[0] != 0x04)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: the EC public key is not uncompressed");
    s->mem_len = 2 * fs;
    s->mem = malloc(s->mem_len);
    if (!s->mem) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    memcpy(s->mem, pub + 1, 2 * fs);
    s->f.x = (wc_bytes){s->mem, fs};
    s->f.y = (wc_bytes){s->mem + fs, fs};
    s->size = fs;
    return WEBCRYPTO_OK;
}

/* OKP: x, the key type's length (EVP_PKEY_get_raw_public_key with a NULL
 * buffer gives it). */
static webcrypto_status okp_fields(pkey_state *s) {
    size_t len = 0;
    if (EVP_PKEY_get_raw_public_key(s->pkey, NULL, &len) != 1 || len == 0 || len > MAX_OKP)
        return wc_ossl_fail("reading the public key's length");
    s->mem_len = len;
    s->mem = malloc(s->mem_len);
    if (!s->mem) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    size_t n = len;
    if (EVP_PKEY_get_raw_public_key(s->pkey, s->mem, &n) != 1 || n != len)
        return wc_ossl_fail("reading the public key");
    s->f.x = (wc_bytes){s->mem, len};
    s->size = len;
    return WEBCRYPTO_OK;
}

/* Takes pkey into a new state and reads its material (an RSA private key's
 * oth_count further primes too); frees pkey on failure. */
static webcrypto_status state_new(key_type type, EVP_PKEY *pkey, bool is_private,
                                  size_t oth_count, const curve_info *curve, void **state) {
    pkey_state *s = calloc(1, sizeof *s);
    if (!s) {
        EVP_PKEY_free(pkey);
        return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    }
    s->type = type;
    s->pkey = pkey;
    s->curve = curve;
    for (size_t op = 0; op < PREP_OPS; op++)
        for (size_t sc = 0; sc < PREP_SCHEMES; sc++)
            for (size_t h = 0; h < WC_HASH_COUNT; h++) atomic_init(&s->prep[op][sc][h], NULL);
    s->f.is_private = is_private;
    s->f.oth_count = oth_count;
    s->f.curve = curve ? (webcrypto_named_curve)(curve - curves) : WEBCRYPTO_CURVE_NONE;
    webcrypto_status st = s->type == KT_RSA  ? rsa_fields(s)
                          : s->type == KT_EC ? ec_fields(s)
                                             : okp_fields(s);
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- import ---- */

/* EVP_PKEY_fromdata for key type `name`; a refusal is DataError. */
static webcrypto_status from_data(const char *name, int selection, OSSL_PARAM_BLD *bld,
                                  EVP_PKEY **out) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    if (!params) return no_memory("OSSL_PARAM_BLD_to_param");
    webcrypto_status st = WEBCRYPTO_OK;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, name, NULL);
    if (!ctx)
        st = wc_ossl_fail("EVP_PKEY_CTX_new_from_name");
    else if (EVP_PKEY_fromdata_init(ctx) != 1)
        st = wc_ossl_fail("EVP_PKEY_fromdata_init");
    else if (EVP_PKEY_fromdata(ctx, out, selection, params) != 1)
        st = data_fail("importing the key");
    EVP_PKEY_CTX_free(ctx);
    /* Private values were pushed as secure BIGNUMs, which OSSL_PARAM_free
     * clears (they live in the secure part of the block). */
    OSSL_PARAM_free(params);
    return st;
}

/* Runs one of EVP_PKEY_{public,pairwise}_check; a failure is DataError. */
static webcrypto_status check_key(EVP_PKEY *pkey, int (*check)(EVP_PKEY_CTX *),
                                  const char *what) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    if (!ctx) return wc_ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    int r = check(ctx);
    EVP_PKEY_CTX_free(ctx);
    if (r == 1) return WEBCRYPTO_OK;
    webcrypto_status st = wc_ossl_fail(what);
    return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_DATA;
}

static BIGNUM *bn_from(wc_bytes b, bool secret) {
    if (b.n > INT_MAX) return NULL;
    BIGNUM *bn = secret ? BN_secure_new() : BN_new();
    if (!bn) return NULL;
    if (!BN_bin2bn(BYTES_OR_EMPTY(b.p, b.n), (int)b.n, bn)) {
        BN_clear_free(bn);
        return NULL;
    }
    return bn;
}

/* ---- constant-time comparisons of secret values ---- */

/* 1 if a < b as n-byte big-endian numbers, else 0: a subtraction whose borrow
 * runs through every byte, with no branch on the values. */
static unsigned ct_less(const uint8_t *a, const uint8_t *b, size_t n) {
    unsigned borrow = 0;
    for (size_t i = n; i-- > 0;) borrow = (((unsigned)a[i] - b[i] - borrow) >> 8) & 1;
    return borrow;
}

/* 1 if a (n >= 1 bytes, big-endian) equals the byte value v, else 0, without
 * a branch on a. */
static unsigned ct_equals_small(const uint8_t *a, size_t n, uint8_t v) {
    unsigned acc = (unsigned)a[n - 1] ^ v;
    for (size_t i = 0; i + 1 < n; i++) acc |= a[i];
    return ((acc - 1) >> 8) & 1;
}

/* bn as k big-endian bytes into out. BN_bn2binpad reads the whole allocation
 * whatever the value (and sizes a BN_FLG_CONSTTIME number without a branch).
 * Returns 1 if it fits in k bytes (k is public), else 0 and out unchanged: a
 * value that wide is larger than any member of a valid key. */
static unsigned bn_bytes(const BIGNUM *bn, uint8_t *out, size_t k) {
    return (unsigned)(BN_bn2binpad(bn, out, (int)k) == (int)k);
}

/* m made 1 if it is not positive, so that it can be a modulus. Only a key
 * with p or q below 2 gets there, refused anyway (rsa_consistent's ok), and
 * the test reads only m's sign and length, not its digits. 1 done, 0 error. */
static int usable_modulus(BIGNUM *m) {
    return BN_is_zero(m) || BN_is_negative(m) ? BN_one(m) : 1;
}

/* RSA private key consistency (RFC 8017 section 3.2): n is the product of
 * the primes p, q, r_3.. (each > 1), each prime's CRT exponent is d mod
 * (prime - 1) with e exp = 1 mod (prime - 1), qi q = 1 mod p with qi < p,
 * and each further prime's coefficient t_i (r_1 ... r_(i-1)) = 1 mod r_i
 * with t_i < r_i (so e d = 1 mod lambda(n), and the primes are pairwise
 * coprime). Like BoringSSL's RSA_check_key, the primes are not tested for
 * primality: OpenSSL's EVP_PKEY_pairwise_check does, and costs about 100 ms
 * per 2048-bit key (measured), on every import.
 * The members are secret: they are flagged BN_FLG_CONSTTIME (OpenSSL's
 * constant-time division and sizing) and every check runs whatever the
 * others found, comparing the values as bytes of n's length in constant time
 * (CRYPTO_memcmp, ct_less) into one flag. Each value is encoded once: the
 * encoding costs more than the comparisons.
 * bn: n, e, d, p, q, dp, dq, qi, then r, d, t of each of the oth further
 * primes; only the flags of d onwards change. Returns 1 consistent, 0 not,
 * -1 error. */
static int rsa_consistent(BIGNUM *const *bn, size_t oth) {
    const BIGNUM *n = bn[0], *e = bn[1], *d = bn[2], *p = bn[3], *q = bn[4], *qi = bn[7];
    size_t k = (size_t)BN_num_bytes(n), members = 8 + 3 * oth;
    if (k == 0) return 0;
    for (size_t i = 2; i < members; i++) BN_set_flags(bn[i], BN_FLG_CONSTTIME);
    /* n, a prime, and two for the values compared (zeroed: BN_bn2binpad
     * leaves a buffer as it was when the value does not fit) */
    uint8_t *buf = OPENSSL_zalloc(4 * k);
    BN_CTX *ctx = BN_CTX_secure_new();
    int ret = -1;
    if (!buf || !ctx) goto out;
    uint8_t *nb = buf, *pb = buf + k, *sa = buf + 2 * k, *sb = buf + 3 * k;
    BN_CTX_start(ctx);
    BIGNUM *t = BN_CTX_get(ctx), *m = BN_CTX_get(ctx), *prod = BN_CTX_get(ctx);
    if (!prod || !bn_bytes(n, nb, k)) goto done;
    /* BN_CTX_get clears the flag; these hold values derived from secrets */
    BN_set_flags(t, BN_FLG_CONSTTIME);
    BN_set_flags(m, BN_FLG_CONSTTIME);
    BN_set_flags(prod, BN_FLG_CONSTTIME);
    unsigned ok = 1;
    /* each prime > 1, and its CRT exponent: (p, dp), (q, dq), then (r, d) */
    for (size_t i = 0; i < 2 + oth; i++) {
        const BIGNUM *prime = i == 0 ? p : i == 1 ? q : bn[8 + 3 * (i - 2)];
        const BIGNUM *exp = i == 0 ? bn[5] : i == 1 ? bn[6] : bn[8 + 3 * (i - 2) + 1];
        ok &= bn_bytes(prime, sa, k);
        ok &= (ct_equals_small(sa, k, 0) | ct_equals_small(sa, k, 1)) ^ 1u;
        if (!BN_sub(m, prime, BN_value_one()) || !usable_modulus(m) || !BN_mod(t, d, m, ctx))
            goto done;
        ok &= bn_bytes(t, sa, k) & bn_bytes(exp, sb, k);
        ok &= (unsigned)(CRYPTO_memcmp(sa, sb, k) == 0);
        if (!BN_mod_mul(t, e, exp, m, ctx)) goto done;
        ok &= bn_bytes(t, sa, k) & ct_equals_small(sa, k, 1);
    }
    /* qi = q^-1 mod p */
    ok &= bn_bytes(p, pb, k) & bn_bytes(qi, sa, k) & ct_less(sa, pb, k);
    if (!BN_copy(m, p) || !usable_modulus(m) || !BN_mod_mul(t, qi, q, m, ctx)) goto done;
    ok &= bn_bytes(t, sa, k) & ct_equals_small(sa, k, 1);
    /* t_i = (product of the primes before r_i)^-1 mod r_i; then n = the
     * product of all */
    if (!BN_mul(prod, p, q, ctx)) goto done;
    for (size_t i = 0; i < oth; i++) {
        const BIGNUM *r = bn[8 + 3 * i], *coef = bn[8 + 3 * i + 2];
        ok &= bn_bytes(r, pb, k) & bn_bytes(coef, sa, k) & ct_less(sa, pb, k);
        if (!BN_copy(m, r) || !usable_modulus(m) || !BN_mod_mul(t, coef, prod, m, ctx) ||
            !BN_mul(prod, prod, r, ctx))
            goto done;
        ok &= bn_bytes(t, sa, k) & ct_equals_small(sa, k, 1);
    }
    ok &= bn_bytes(prod, sa, k) & (unsigned)(CRYPTO_memcmp(sa, nb, k) == 0);
    ret = (int)ok;
done:
    BN_CTX_end(ctx); /* clears the secure temporaries */
out:
    BN_CTX_free(ctx);
    OPENSSL_clear_free(buf, 4 * k);
    return ret;
}

/* The most primes OpenSSL 3.0 accepts in a key of `bits` (its
 * ossl_rsa_multip_cap, which EVP_PKEY_check and key generation apply; not
 * exported): 2 below 1024 bits, 3 below 4096, 4 below 8192, else 5. */
static size_t ossl_max_primes(int bits) {
    return bits < 1024 ? 2 : bits < 4096 ? 3 : bits < 8192 ? 4 : OSSL_RSA_MAX_PRIMES;
}

static webcrypto_status rsa_import(const wc_pkey_fields *f,
                                   void **state) {
    /* Each member present, at most WC_RSA_MAX_MEMBER bytes (the contract). */
    size_t oth = f->oth_count; /* 0 for a public key (the contract) */
    if (oth > OSSL_RSA_MAX_PRIMES - 2)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL: RSA keys with more than %d primes are not supported (%zu)",
                        OSSL_RSA_MAX_PRIMES, oth + 2);
    wc_bytes src[RSA_MAX_MEMBERS] = {f->n, f->e, f->d, f->p, f->q, f->dp, f->dq, f->qi};
    for (size_t i = 0; i < oth; i++) {
        src[8 + 3 * i] = f->oth[i].r;
        src[8 + 3 * i + 1] = f->oth[i].d;
        src[8 + 3 * i + 2] = f->oth[i].t;
    }
    size_t count = f->is_private ? 8 + 3 * oth : 2;
    BIGNUM *bn[RSA_MAX_MEMBERS] = {NULL};
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    EVP_PKEY *pkey = NULL;
    webcrypto_status st = WEBCRYPTO_OK;
    if (!bld) {
        st = no_memory("OSSL_PARAM_BLD_new");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        bn[i] = bn_from(src[i], i >= 2);
        if (!bn[i]) {
            st = no_memory("BN_bin2bn");
            goto done;
        }
        if (OSSL_PARAM_BLD_push_BN(bld, rsa_names[i], bn[i]) != 1) {
            st = wc_ossl_fail("OSSL_PARAM_BLD_push_BN");
            goto done;
        }
    }
    /* Any RSA key: an odd modulus of at most OpenSSL's 16384 bits, an odd
     * exponent in [3, n). */
    if (!BN_is_odd(bn[0]) || BN_num_bits(bn[0]) > 16384 || !BN_is_odd(bn[1]) ||
        BN_is_one(bn[1]) || BN_cmp(bn[1], bn[0]) >= 0) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "RSA key: invalid modulus or public exponent");
        goto done;
    }
    if (oth + 2 > ossl_max_primes(BN_num_bits(bn[0]))) {
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                      "OpenSSL: a %d-bit RSA key may have at most %zu primes, not %zu",
                      BN_num_bits(bn[0]), ossl_max_primes(BN_num_bits(bn[0])), oth + 2);
        goto done;
    }
    if (f->is_private) {
        /* Whether the key is consistent is public (ct.h): the import fails or not. */
        int r = rsa_consistent(bn, oth);
        WC_CT_PUBLIC(&r, sizeof r);
        if (r < 0) {
            st = wc_ossl_fail("checking the RSA private key");
            goto done;
        }
        if (r == 0) {
            st = wc_error(WEBCRYPTO_ERR_DATA, "RSA key: the private key is inconsistent");
            goto done;
        }
    }
    st = from_data("RSA", f->is_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, bld, &pkey);
done:
    for (size_t i = 0; i < count; i++) BN_clear_free(bn[i]);
    OSSL_PARAM_BLD_free(bld);
    if (st != WEBCRYPTO_OK) {
        EVP_PKEY_free(pkey);
        return st;
    }
    return state_new(KT_RSA, pkey, f->is_private, oth, NULL, state);
}

static webcrypto_status ec_import(const wc_pkey_fields *f,
                                  void **state) {
    const curve_info *ci = curve_for(f->curve);
    if (!ci) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: this curve is not available");
    size_t fs = ci->fs;
    /* The contract: a point or x and y of fs bytes (always for a public
     * key), d of fs bytes for a private one. */
    bool have_pub = f->point.n > 0 || f->x.n > 0;

    webcrypto_status st = WEBCRYPTO_OK;
    BN_CTX *bnctx = BN_CTX_secure_new();
    EC_POINT *q = EC_POINT_new(ci->group), *qd = EC_POINT_new(ci->group);
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *d = NULL;
    EVP_PKEY *pkey = NULL;
    uint8_t enc[1 + 2 * MAX_FIELD];
    if (!bnctx || !q || !qd || !bld) {
        st = no_memory("EC import");
        goto done;
    }
    if (f->point.n > 0) {
        st = glue_ec_decode_point(ci->group, fs, ci->p, f->point.p, f->point.n, q, bnctx);
    } else if (have_pub) {
        enc[0] = 0x04;
        memcpy(enc + 1, f->x.p, fs);
        memcpy(enc + 1 + fs, f->y.p, fs);
        st = glue_ec_decode_point(ci->group, fs, ci->p, enc, 1 + 2 * fs, q, bnctx);
    }
    if (st != WEBCRYPTO_OK) goto done;

    if (f->is_private) {
        /* d in [1, n-1], compared as bytes in constant time (OpenSSL 3.0
         * range-checks d only in EVP_PKEY_private_check, with BN_cmp, which
         * is not); its public point computed (a constant-time
         * multiplication) and, if a point was given, compared with it. */
        if (!wc_ct_public_uint((ct_equals_small(f->d.p, fs, 0) ^ 1u) &
                               ct_less(f->d.p, ci->order, fs))) {
            st = wc_error(WEBCRYPTO_ERR_DATA, "EC key: the private key is out of range");
            goto done;
        }
        d = bn_from(f->d, true);
        if (!d) {
            st = no_memory("BN_bin2bn");
            goto done;
        }
        BN_set_flags(d, BN_FLG_CONSTTIME);
        st = glue_ec_public_of(ci->group, d, have_pub ? q : NULL, qd, bnctx);
        if (st == WEBCRYPTO_OK && !have_pub && EC_POINT_copy(q, qd) != 1)
            st = wc_ossl_fail("EC_POINT_copy");
        if (st != WEBCRYPTO_OK) goto done;
    }

    size_t enc_len = EC_POINT_point2oct(ci->group, q, POINT_CONVERSION_UNCOMPRESSED, enc,
                                        sizeof enc, bnctx);
    if (enc_len != 1 + 2 * fs) {
        st = wc_ossl_fail("EC_POINT_point2oct");
        goto done;
    }
    if (OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, ci->group_name, 0) != 1 ||
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, enc, enc_len) != 1 ||
        (d && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) != 1)) {
        st = wc_ossl_fail("OSSL_PARAM_BLD_push");
        goto done;
    }
    st = from_data("EC", f->is_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, bld, &pkey);
    /* The point: on the curve and not infinity. P-256/384/521 have cofactor
     * 1, so that point has the group's order: the quick check suffices and
     * spares the full check's scalar multiplication (which made generating an
     * EC key pair 4x slower, measured with webcrypto bench). */
    if (st == WEBCRYPTO_OK)
        st = check_key(pkey, EVP_PKEY_public_check_quick, "EC public key check");
done:
    BN_clear_free(d);
    EC_POINT_clear_free(qd);
    EC_POINT_free(q);
    BN_CTX_free(bnctx);
    OSSL_PARAM_BLD_free(bld);
    if (st != WEBCRYPTO_OK) {
        EVP_PKEY_free(pkey);
        return st;
    }
    return state_new(KT_EC, pkey, f->is_private, 0, ci, state);
}

/* OpenSSL's name of an OKP key type; NULL for a member it does not have. */
static const char *okp_name(wc_okp kind) {
    switch (kind) {
    case WC_OKP_ED25519: return "ED25519";
    case WC_OKP_X25519: return "X25519";
    case WC_OKP_ED448: return "ED448";
    case WC_OKP_X448: return "X448";
    case WC_OKP_COUNT: break;
    }
    return NULL;
}

static webcrypto_status okp_import(wc_okp kind, const wc_pkey_fields *f, void **state) {
    const char *name = okp_name(kind);
    const char *shown = wc_okp_name(kind);
    if (!name) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such OKP key");
    /* The contract: d of wc_okp_key_len(kind) bytes for a private key; x of
     * that length, or empty for a private key. */
    const size_t len = wc_okp_key_len(kind);
    EVP_PKEY *pkey;
    /* From the private key OpenSSL derives the public one. */
    if (f->is_private)
        pkey = EVP_PKEY_new_raw_private_key_ex(NULL, name, NULL, f->d.p, len);
    else
        pkey = EVP_PKEY_new_raw_public_key_ex(NULL, name, NULL, f->x.p, len);
    if (!pkey) return data_fail("importing the key");
    if (f->is_private && f->x.n > 0) {
        uint8_t x[MAX_OKP];
        size_t n = sizeof x;
        if (EVP_PKEY_get_raw_public_key(pkey, x, &n) != 1 || n != len) {
            EVP_PKEY_free(pkey);
            return wc_ossl_fail("EVP_PKEY_get_raw_public_key");
        }
        WC_CT_PUBLIC(x, n); /* derived from the secret, but a public key (ct.h) */
        if (!wc_equal_ct(x, f->x.p, len)) {
            EVP_PKEY_free(pkey);
            return wc_error(WEBCRYPTO_ERR_DATA,
                            "%s key: the public key does not match the private key", shown);
        }
    }
    return state_new(KT_OKP, pkey, f->is_private, 0, NULL, state);
}

webcrypto_status wc_ossl_pkey_import(const void *bctx, wc_family family, unsigned member,
                                     const wc_pkey_fields *f, void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_RSA: return rsa_import(f, state);
    case WC_FAMILY_EC: return ec_import(f, state);
    case WC_FAMILY_OKP: return okp_import((wc_okp)member, f, state);
    case WC_FAMILY_ML_KEM: /* OpenSSL 3.0 has neither (3.5 has both): no capability bit */
    case WC_FAMILY_ML_DSA:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL 3.0 has no ML-KEM or ML-DSA");
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: not an asymmetric algorithm");
}

/* ---- generate ---- */

webcrypto_status wc_ossl_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                       size_t modulus_bits, wc_bytes e,
                                       webcrypto_named_curve curve, void **state) {
    (void)bctx;
    key_type type = KT_RSA;
    switch (family) {
    case WC_FAMILY_RSA: type = KT_RSA; break;
    case WC_FAMILY_EC: type = KT_EC; break;
    case WC_FAMILY_OKP: type = KT_OKP; break;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL backend: not an asymmetric algorithm");
    }
    const curve_info *ci = NULL;
    const char *name = "RSA";
    if (type == KT_EC) {
        ci = curve_for(curve);
        if (!ci)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: this curve is not available");
        name = "EC";
    } else if (type == KT_OKP) {
        name = okp_name((wc_okp)member);
        if (!name) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such OKP key");
    } else if (e.n > 8) {
        /* modulus_bits (at most 16384) and e's value (3 or 65537) are the
         * core's; e.n is not bounded (leading zeros), and this backend has
         * always refused more than 8 bytes. */
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA: unsupported modulus length or exponent");
    }

    webcrypto_status st = WEBCRYPTO_OK;
    EVP_PKEY *pkey = NULL;
    BIGNUM *bn_e = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, name, NULL);
    if (!ctx) return wc_ossl_fail("EVP_PKEY_CTX_new_from_name");
    if (EVP_PKEY_keygen_init(ctx) != 1) {
        st = wc_ossl_fail("EVP_PKEY_keygen_init");
        goto done;
    }
    if (type == KT_RSA) {
        bn_e = bn_from(e, false);
        if (!bn_e) {
            st = no_memory("BN_bin2bn");
            goto done;
        }
        if (EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)modulus_bits) != 1 ||
            EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx, bn_e) != 1) {
            st = wc_ossl_fail("setting the RSA key generation parameters");
            goto done;
        }
    } else if (type == KT_EC && EVP_PKEY_CTX_set_group_name(ctx, ci->group_name) != 1) {
        st = wc_ossl_fail("EVP_PKEY_CTX_set_group_name");
        goto done;
    }
    if (EVP_PKEY_keygen(ctx, &pkey) != 1) st = wc_ossl_fail("EVP_PKEY_keygen");
done:
    BN_free(bn_e);
    EVP_PKEY_CTX_free(ctx);
    if (st != WEBCRYPTO_OK) {
        EVP_PKEY_free(pkey);
        return st;
    }
    return state_new(type, pkey, true, 0, ci, state);
}

webcrypto_status wc_ossl_pkey_fields(const void *state, wc_pkey_fields *out) {
    const pkey_state *s = state;
    *out = s->f;
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_pkey_private_fields(const void *state, wc_pkey_fields *out,
                                             uint8_t *buf, size_t cap) {
    const pkey_state *s = state;
    *out = s->f;
    switch (s->type) {
    case KT_RSA: {
        size_t used = 0;
        return rsa_read(s, out, 2, 8 + 3 * s->f.oth_count, buf, cap, NULL, &used);
    }
    case KT_EC: {
        size_t fs = s->curve->fs;
        if (cap < fs) return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: no room for the key");
        BIGNUM *d = NULL;
        if (EVP_PKEY_get_bn_param(s->pkey, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1)
            return wc_ossl_fail("reading the EC private key");
        int n = BN_bn2binpad(d, buf, (int)fs);
        BN_clear_free(d);
        if (n != (int)fs)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: EC private key too long");
        out->d = (wc_bytes){buf, fs};
        return WEBCRYPTO_OK;
    }
    case KT_OKP: {
        /* Not EVP_PKEY_get_raw_private_key: OpenSSL 3.0 answers it by
         * exporting the key through an OSSL_PARAM_BLD block, which it frees
         * without clearing (tests/test_residue.c finds the key there under
         * ASan, whose quarantine keeps freed blocks unreused). The
         * parameter is copied straight into buf. */
        size_t n = 0;
        if (cap < s->size) return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: no room for the key");
        if (EVP_PKEY_get_octet_string_param(s->pkey, OSSL_PKEY_PARAM_PRIV_KEY, buf, s->size, &n) !=
                1 ||
            n != s->size)
            return wc_ossl_fail("reading the private key");
        out->d = (wc_bytes){buf, n};
        return WEBCRYPTO_OK;
    }
    }
    return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unknown key type");
}

void wc_ossl_pkey_free(void *state) { state_free(state); }

/* ---- signatures ---- */

/* A digest-sign or digest-verify context on s's key; md NULL for EdDSA. */
static webcrypto_status md_ctx_start(const pkey_state *s, const EVP_MD *md, bool sign,
                                     EVP_MD_CTX **out, EVP_PKEY_CTX **pctx) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (!m) return no_memory("EVP_MD_CTX_new");
    int r = sign ? EVP_DigestSignInit(m, pctx, md, NULL, s->pkey)
                 : EVP_DigestVerifyInit(m, pctx, md, NULL, s->pkey);
    if (r != 1) {
        EVP_MD_CTX_free(m);
        return wc_ossl_fail(sign ? "EVP_DigestSignInit" : "EVP_DigestVerifyInit");
    }
    *out = m;
    return WEBCRYPTO_OK;
}

/* The slot of s's prepared context for (sign, scheme index, hash). The key
 * state is shared read-only by the contract; its prep slots are its only
 * mutable part, and they are atomic (the state was allocated non-const). */
static _Atomic(void *) *prep_slot(const pkey_state *s, bool sign, size_t scheme, size_t hash) {
    pkey_state *m = (pkey_state *)s;
    return &m->prep[sign ? PREP_SIGN : PREP_VERIFY][scheme][hash];
}

/* The context in *slot: made (by make, with arg) and published first if the
 * slot is empty. When another thread published one first, ours is freed
 * and theirs answered. */
static webcrypto_status prepared(const pkey_state *s, _Atomic(void *) *slot, bool sign,
                                 const void *arg,
                                 webcrypto_status (*make)(const pkey_state *, bool, const void *,
                                                          void **),
                                 void (*free_ctx)(void *), void **out) {
    void *c = atomic_load_explicit(slot, memory_order_acquire);
    if (!c) {
        webcrypto_status st = make(s, sign, arg, &c);
        if (st != WEBCRYPTO_OK) return st;
        void *theirs = NULL;
        if (!atomic_compare_exchange_strong_explicit(slot, &theirs, c, memory_order_acq_rel,
                                                     memory_order_acquire)) {
            free_ctx(c);
            c = theirs;
        }
    }
    *out = c;
    return WEBCRYPTO_OK;
}

static void pkey_ctx_free(void *c) { EVP_PKEY_CTX_free(c); }
static void md_ctx_free(void *c) { EVP_MD_CTX_free(c); }

/* What an RSA context is prepared for; ECDSA's is {NULL, any}. */
typedef struct sig_setup {
    const EVP_MD *md;
    wc_rsa_scheme scheme;
} sig_setup;

/* An EVP_PKEY_CTX ready for EVP_PKEY_sign / EVP_PKEY_verify with s's key:
 * RSA with the digest, then the padding (and MGF1 with the same digest), in
 * the order EVP_DigestSignInit and the per-call setting used to; ECDSA
 * without a digest (it takes the hash of any length, as ECDSA_sign does). */
static webcrypto_status pkey_ctx_make(const pkey_state *s, bool sign, const void *arg,
                                      void **out) {
    const sig_setup *su = arg;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(NULL, s->pkey, NULL);
    if (!pc) return wc_ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    if ((sign ? EVP_PKEY_sign_init(pc) : EVP_PKEY_verify_init(pc)) != 1) {
        EVP_PKEY_CTX_free(pc);
        return wc_ossl_fail(sign ? "EVP_PKEY_sign_init" : "EVP_PKEY_verify_init");
    }
    if (su->md) {
        int ok = EVP_PKEY_CTX_set_signature_md(pc, su->md) == 1 &&
                 (su->scheme == WC_RSA_SCHEME_PSS
                      ? EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
                            EVP_PKEY_CTX_set_rsa_mgf1_md(pc, su->md) == 1
                      : EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PADDING) == 1);
        if (!ok) {
            EVP_PKEY_CTX_free(pc);
            return wc_ossl_fail("setting the RSA signature padding");
        }
    }
    *out = pc;
    return WEBCRYPTO_OK;
}

/* The call's own copy of s's prepared EVP_PKEY_CTX: for RSA, per scheme and
 * hash (md is hash's digest); for ECDSA (md NULL), one per operation. */
static webcrypto_status pkey_ctx_copy(const pkey_state *s, bool sign, wc_rsa_scheme scheme,
                                      wc_hash hash, const EVP_MD *md, EVP_PKEY_CTX **out) {
    size_t sc = 0, h = 0;
    if (md) {
        sc = scheme == WC_RSA_SCHEME_PSS ? 1 : 0;
        h = (size_t)hash;
        if (h >= WC_HASH_COUNT) return wc_hash_unavailable("OpenSSL", hash);
    }
    const sig_setup su = {md, scheme};
    void *prep = NULL;
    webcrypto_status st =
        prepared(s, prep_slot(s, sign, sc, h), sign, &su, pkey_ctx_make, pkey_ctx_free, &prep);
    if (st != WEBCRYPTO_OK) return st;
    *out = EVP_PKEY_CTX_dup(prep);
    return *out ? WEBCRYPTO_OK : wc_ossl_fail("EVP_PKEY_CTX_dup");
}

/* The message's hash, what EVP_DigestSign would sign (out: EVP_MAX_MD_SIZE),
 * and the hash's EVP_MD. */
static webcrypto_status hash_message(wc_hash hash, const uint8_t *msg, size_t len,
                                     uint8_t *out, size_t *out_len, const EVP_MD **md) {
    *md = wc_ossl_md(hash);
    if (!*md) return wc_hash_unavailable("OpenSSL", hash);
    webcrypto_status st = wc_ossl_digest(hash, msg, len, out);
    if (st == WEBCRYPTO_OK) *out_len = (size_t)EVP_MD_get_size(*md);
    return st;
}

/* The RSA context for the call, the PSS salt length set (salt_len <= INT_MAX),
 * and the message's hash. */
static webcrypto_status rsa_sig_start(const pkey_state *s, wc_rsa_scheme scheme,
                                      wc_hash hash, size_t salt_len, bool sign,
                                      const uint8_t *msg, size_t len, uint8_t *dg,
                                      size_t *dg_len, EVP_PKEY_CTX **out) {
    const EVP_MD *md = NULL;
    webcrypto_status st = hash_message(hash, msg, len, dg, dg_len, &md);
    if (st != WEBCRYPTO_OK) return st;
    st = pkey_ctx_copy(s, sign, scheme, hash, md, out);
    if (st != WEBCRYPTO_OK || scheme != WC_RSA_SCHEME_PSS) return st;
    /* The parameter EVP_PKEY_CTX_set_rsa_pss_saltlen sets (as a string). */
    int salt = (int)salt_len;
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, &salt),
                            OSSL_PARAM_construct_end()};
    if (EVP_PKEY_CTX_set_params(*out, params) != 1) {
        EVP_PKEY_CTX_free(*out);
        *out = NULL;
        return wc_ossl_fail("setting the RSA-PSS salt length");
    }
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_rsa_sign(const void *state, wc_rsa_scheme scheme,
                                  wc_hash hash, size_t salt_len, const uint8_t *msg,
                                  size_t len, uint8_t *sig, size_t *sig_len) {
    const pkey_state *s = state;
    if (scheme == WC_RSA_SCHEME_PSS && salt_len > INT_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-PSS: the salt is too long for the key");
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    EVP_PKEY_CTX *pc = NULL;
    webcrypto_status st = rsa_sig_start(s, scheme, hash, salt_len, true, msg, len, dg, &dg_len, &pc);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = s->size;
    if (EVP_PKEY_sign(pc, sig, &n, dg, dg_len) != 1)
        st = wc_ossl_fail("RSA signing (EVP_PKEY_sign)");
    else
        *sig_len = n;
    EVP_PKEY_CTX_free(pc);
    return st;
}

webcrypto_status wc_ossl_rsa_verify(const void *state, wc_rsa_scheme scheme,
                                    wc_hash hash, size_t salt_len, const uint8_t *msg,
                                    size_t len, const uint8_t *sig, size_t sig_len, bool *valid) {
    const pkey_state *s = state;
    *valid = false;
    /* RFC 8017 8.1.2 / 8.2.2: a signature of another length is invalid; so
     * is a PSS salt no key could hold. */
    if (sig_len != s->size || (scheme == WC_RSA_SCHEME_PSS && salt_len > INT_MAX))
        return WEBCRYPTO_OK;
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    EVP_PKEY_CTX *pc = NULL;
    webcrypto_status st =
        rsa_sig_start(s, scheme, hash, salt_len, false, msg, len, dg, &dg_len, &pc);
    if (st != WEBCRYPTO_OK) return st;
    *valid = EVP_PKEY_verify(pc, sig, sig_len, dg, dg_len) == 1;
    ERR_clear_error();
    EVP_PKEY_CTX_free(pc);
    return WEBCRYPTO_OK;
}

/* ---- RSA-OAEP (openssl_api_pkey.inc) ---- */

/* The hash, and a label OpenSSL can take (its length is an int). */
static webcrypto_status oaep_md(wc_hash hash, size_t label_len, const EVP_MD **md) {
    *md = wc_ossl_md(hash);
    if (!*md) return wc_hash_unavailable("OpenSSL", hash);
    if (label_len > INT_MAX) return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-OAEP: label too long");
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_rsa_oaep_encrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len) {
    const pkey_state *s = state;
    const EVP_MD *md = NULL;
    webcrypto_status st = oaep_md(hash, label_len, &md);
    if (st != WEBCRYPTO_OK) return st;
    return glue_oaep_encrypt(s->pkey, s->size, md, label, label_len, in, len, out, out_len);
}

webcrypto_status wc_ossl_rsa_oaep_decrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len) {
    const pkey_state *s = state;
    const EVP_MD *md = NULL;
    webcrypto_status st = oaep_md(hash, label_len, &md);
    if (st != WEBCRYPTO_OK) return st;
    return glue_oaep_decrypt(s->pkey, s->size, md, label, label_len, in, len, out, out_len);
}

/* ---- ECDSA ---- */

/* The call's ECDSA context (prepared without a digest) and the message's hash. */
static webcrypto_status ecdsa_start(const pkey_state *s, wc_hash hash, bool sign,
                                    const uint8_t *msg, size_t len, uint8_t *dg,
                                    size_t *dg_len, EVP_PKEY_CTX **out) {
    const EVP_MD *md = NULL;
    webcrypto_status st = hash_message(hash, msg, len, dg, dg_len, &md);
    if (st != WEBCRYPTO_OK) return st;
    return pkey_ctx_copy(s, sign, WC_RSA_SCHEME_PKCS1_V1_5, hash, NULL, out);
}

webcrypto_status wc_ossl_ecdsa_sign(const void *state, wc_hash hash,
                                    const uint8_t *msg, size_t len, uint8_t *sig,
                                    size_t *sig_len) {
    const pkey_state *s = state;
    size_t fs = s->size;
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    EVP_PKEY_CTX *pc = NULL;
    webcrypto_status st = ecdsa_start(s, hash, true, msg, len, dg, &dg_len, &pc);
    if (st != WEBCRYPTO_OK) return st;
    /* DER ECDSA-Sig-Value: SEQUENCE of two INTEGERs of at most fs + 1 bytes. */
    uint8_t der[2 * (MAX_FIELD + 4) + 8];
    size_t der_len = sizeof der;
    ECDSA_SIG *es = NULL;
    if (EVP_PKEY_sign(pc, der, &der_len, dg, dg_len) != 1) {
        st = wc_ossl_fail("ECDSA signing (EVP_PKEY_sign)");
    } else {
        const unsigned char *p = der;
        es = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
        const BIGNUM *r = NULL, *sv = NULL;
        if (es) ECDSA_SIG_get0(es, &r, &sv);
        if (!es || p != der + der_len || BN_bn2binpad(r, sig, (int)fs) != (int)fs ||
            BN_bn2binpad(sv, sig + fs, (int)fs) != (int)fs)
            st = wc_ossl_fail("decoding OpenSSL's ECDSA signature");
        else
            *sig_len = 2 * fs;
    }
    ECDSA_SIG_free(es);
    EVP_PKEY_CTX_free(pc);
    return st;
}

webcrypto_status wc_ossl_ecdsa_verify(const void *state, wc_hash hash,
                                      const uint8_t *msg, size_t len, const uint8_t *sig,
                                      size_t sig_len, bool *valid) {
    const pkey_state *s = state;
    *valid = false;
    if (!wc_ossl_md(hash)) return wc_hash_unavailable("OpenSSL", hash);
    size_t fs = s->size;
    if (sig_len != 2 * fs) return WEBCRYPTO_OK; /* not r || s: invalid */

    webcrypto_status st = WEBCRYPTO_OK;
    const BIGNUM *order = EC_GROUP_get0_order(s->curve->group);
    BIGNUM *r = BN_bin2bn(sig, (int)fs, NULL), *sv = BN_bin2bn(sig + fs, (int)fs, NULL);
    ECDSA_SIG *es = ECDSA_SIG_new();
    unsigned char *der = NULL;
    EVP_PKEY_CTX *pc = NULL;
    if (!r || !sv || !es) {
        st = no_memory("ECDSA signature");
        goto done;
    }
    /* r and s in [1, n-1], else invalid (OpenSSL checks too; this keeps
     * out-of-range values from reaching the DER encoder at all). */
    if (BN_is_zero(r) || BN_is_zero(sv) || BN_cmp(r, order) >= 0 || BN_cmp(sv, order) >= 0)
        goto done;
    if (ECDSA_SIG_set0(es, r, sv) != 1) {
        st = wc_ossl_fail("ECDSA_SIG_set0");
        goto done;
    }
    r = sv = NULL; /* owned by es */
    int der_len = i2d_ECDSA_SIG(es, &der);
    if (der_len <= 0) {
        st = wc_ossl_fail("i2d_ECDSA_SIG");
        goto done;
    }
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    st = ecdsa_start(s, hash, false, msg, len, dg, &dg_len, &pc);
    if (st != WEBCRYPTO_OK) goto done;
    *valid = EVP_PKEY_verify(pc, der, (size_t)der_len, dg, dg_len) == 1;
done:
    ERR_clear_error();
    EVP_PKEY_CTX_free(pc);
    OPENSSL_free(der);
    ECDSA_SIG_free(es);
    BN_free(r);
    BN_free(sv);
    return st;
}

/* ---- OKP signatures: EdDSA, pure (one-shot, no digest), for every
 * signature member (OpenSSL knows the scheme from the key) ---- */

static webcrypto_status okp_md_ctx_make(const pkey_state *s, bool sign, const void *arg,
                                        void **out) {
    (void)arg;
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = md_ctx_start(s, NULL, sign, &m, NULL);
    if (st == WEBCRYPTO_OK) *out = m;
    return st;
}

/* The call's own copy of s's prepared EdDSA context. OpenSSL 3.0.0 copies no
 * context without a digest (3.0.1 does): there, a context of the call's own. */
static webcrypto_status okp_md_ctx(const pkey_state *s, bool sign, EVP_MD_CTX **out) {
    void *prep = NULL;
    webcrypto_status st =
        prepared(s, prep_slot(s, sign, 0, 0), sign, NULL, okp_md_ctx_make, md_ctx_free, &prep);
    if (st != WEBCRYPTO_OK) return st;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (!m) return no_memory("EVP_MD_CTX_new");
    if (EVP_MD_CTX_copy_ex(m, prep) != 1) {
        EVP_MD_CTX_free(m);
        ERR_clear_error();
        return md_ctx_start(s, NULL, sign, out, NULL);
    }
    *out = m;
    return WEBCRYPTO_OK;
}

/* context is always empty: this backend does not report WC_CAP_ED448_CONTEXT
 * (OpenSSL 3.0's EdDSA takes no context string; see wc_ossl_pkey_init). */
webcrypto_status wc_ossl_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                                  size_t context_len, const uint8_t *msg, size_t len,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len) {
    (void)context;
    const pkey_state *s = state;
    const size_t want = wc_okp_sig_len(kind);
    (void)context_len;
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = okp_md_ctx(s, true, &m);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = sig_cap;
    if (EVP_DigestSign(m, sig, &n, BYTES_OR_EMPTY(msg, len), len) != 1 || n != want)
        st = wc_ossl_fail("EdDSA signing (EVP_DigestSign)");
    else
        *sig_len = n;
    EVP_MD_CTX_free(m);
    return st;
}

webcrypto_status wc_ossl_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                    size_t context_len, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t sig_len, bool *valid) {
    (void)context;
    const pkey_state *s = state;
    *valid = false;
    (void)context_len;
    if (sig_len != wc_okp_sig_len(kind)) return WEBCRYPTO_OK;
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = okp_md_ctx(s, false, &m);
    if (st != WEBCRYPTO_OK) return st;
    *valid = EVP_DigestVerify(m, sig, sig_len, BYTES_OR_EMPTY(msg, len), len) == 1;
    ERR_clear_error();
    EVP_MD_CTX_free(m);
    return WEBCRYPTO_OK;
}

/* ---- key agreement ---- */

static webcrypto_status derive(const pkey_state *priv, const pkey_state *pub, uint8_t *out,
                               size_t want) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, priv->pkey, NULL);
    if (!ctx) return wc_ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    webcrypto_status st = WEBCRYPTO_OK;
    size_t n = want;
    /* The peer was validated when it was imported: no second check. */
    if (EVP_PKEY_derive_init(ctx) != 1 || EVP_PKEY_derive_set_peer_ex(ctx, pub->pkey, 0) != 1)
        st = wc_ossl_fail("setting up the key agreement");
    else if (EVP_PKEY_derive(ctx, out, &n) != 1)
        st = wc_ossl_fail("key agreement (EVP_PKEY_derive)");
    else if (n != want) {
        wc_wipe(out, n < want ? n : want);
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: the shared secret has %zu bytes, not %zu",
                      n, want);
    }
    EVP_PKEY_CTX_free(ctx);
    return st;
}

webcrypto_status wc_ossl_ecdh(const void *private_state, const void *public_state,
                              uint8_t *out, size_t *out_len) {
    const pkey_state *priv = private_state;
    webcrypto_status st = derive(priv, public_state, out, priv->size);
    if (st == WEBCRYPTO_OK) *out_len = priv->size;
    return st;
}

/* The core refuses an all-zero result (backend.h); OpenSSL refuses it too. */
webcrypto_status wc_ossl_okp_derive(const void *private_state, const void *public_state,
                                    wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len) {
    const size_t want = wc_okp_key_len(kind);
    if (out_cap < want) return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL backend: no room");
    webcrypto_status st = derive(private_state, public_state, out, want);
    if (st == WEBCRYPTO_OK) *out_len = want;
    return st;
}
