/*
 * openssl_pkey_common.c - what the openssl backend's asymmetric files share: the
 * EC groups, a key's state (made, read into, freed), building keys from
 * parameters, constant-time comparisons of secret values, the prepared
 * signature contexts, and key agreement.
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
#include "openssl_pkey.h"

/* ---- wc_ossl_pkey_curves, built by init ---- */

curve_info wc_ossl_pkey_curves[] = {
    [WEBCRYPTO_CURVE_P256] = {"prime256v1", NID_X9_62_prime256v1, 32, NULL, {0}, {0}},
    [WEBCRYPTO_CURVE_P384] = {"secp384r1", NID_secp384r1, 48, NULL, {0}, {0}},
    [WEBCRYPTO_CURVE_P521] = {"secp521r1", NID_secp521r1, 66, NULL, {0}, {0}},
};

const curve_info *wc_ossl_pkey_curve_for(webcrypto_named_curve c) {
    if (c < WEBCRYPTO_CURVE_P256 || c > WEBCRYPTO_CURVE_P521) return NULL;
    return wc_ossl_pkey_curves[c].group ? &wc_ossl_pkey_curves[c] : NULL;
}

/* ---- reading a key's material into the state ---- */

void wc_ossl_pkey_state_free(pkey_state *s) {
    if (!s) return;
    for (size_t op = 0; op < PREP_OPS; op++)
        for (size_t sc = 0; sc < PREP_SCHEMES; sc++)
            for (size_t h = 0; h < WC_HASH_COUNT; h++) {
                void *c = atomic_load_explicit(&s->prep[op][sc][h], memory_order_acquire);
                switch (s->type) {
                case KT_OKP: EVP_MD_CTX_free(c); break;
                case KT_RSA:
                case KT_EC: EVP_PKEY_CTX_free(c); break;
                case KT_ML_KEM: /* nothing prepared: each call makes its context */
                case KT_ML_DSA: break;
                }
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

const char *const wc_ossl_rsa_names[RSA_MAX_MEMBERS] = {
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

/* RSA members from..to-1 of wc_ossl_rsa_names (n, e: 0, 1; the private ones: 2 ..
 * 8 + 3 oth_count - 1) into f, minimal big-endian: their bytes into buf
 * (cap bytes), or, buf NULL, into a new *alloc of *used bytes. */
webcrypto_status wc_ossl_rsa_read(const pkey_state *s, wc_pkey_fields *f, size_t from, size_t to,
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
        if (EVP_PKEY_get_bn_param(s->pkey, wc_ossl_rsa_names[i], &bn[i]) != 1) {
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
    webcrypto_status st = wc_ossl_rsa_read(s, &s->f, 0, 2, NULL, 0, &s->mem, &s->mem_len);
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

/* ML-KEM, ML-DSA: x, the public key (encapsulation key, pk), its length
 * from OpenSSL's "pub" (a NULL buffer gives it). */
static webcrypto_status pq_fields(pkey_state *s) {
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(s->pkey, OSSL_PKEY_PARAM_PUB_KEY, NULL, 0, &len) != 1 ||
        len == 0)
        return wc_ossl_fail("reading the public key's length");
    s->mem_len = len;
    s->mem = malloc(s->mem_len);
    if (!s->mem) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    size_t n = 0;
    if (EVP_PKEY_get_octet_string_param(s->pkey, OSSL_PKEY_PARAM_PUB_KEY, s->mem, len, &n) != 1 ||
        n != len)
        return wc_ossl_fail("reading the public key");
    s->f.x = (wc_bytes){s->mem, len};
    s->size = len;
    return WEBCRYPTO_OK;
}

/* Takes pkey into a new state and reads its material (an RSA private key's
 * oth_count further primes too); frees pkey on failure. */
webcrypto_status wc_ossl_pkey_state_new(key_type type, EVP_PKEY *pkey, bool is_private,
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
    s->f.curve = curve ? (webcrypto_named_curve)(curve - wc_ossl_pkey_curves) : WEBCRYPTO_CURVE_NONE;
    webcrypto_status st = WEBCRYPTO_OK;
    switch (type) {
    case KT_RSA: st = rsa_fields(s); break;
    case KT_EC: st = ec_fields(s); break;
    case KT_OKP: st = okp_fields(s); break;
    case KT_ML_KEM:
    case KT_ML_DSA: st = pq_fields(s); break;
    }
    if (st != WEBCRYPTO_OK) {
        wc_ossl_pkey_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- import ---- */

/* EVP_PKEY_fromdata for key type `name`; a refusal is DataError. */
webcrypto_status wc_ossl_from_data(const char *name, int selection, OSSL_PARAM_BLD *bld,
                                   EVP_PKEY **out) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    if (!params) return wc_ossl_no_memory("OSSL_PARAM_BLD_to_param");
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
webcrypto_status wc_ossl_check_key(EVP_PKEY *pkey, int (*check)(EVP_PKEY_CTX *),
                                   const char *what) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    if (!ctx) return wc_ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    int r = check(ctx);
    EVP_PKEY_CTX_free(ctx);
    if (r == 1) return WEBCRYPTO_OK;
    webcrypto_status st = wc_ossl_fail(what);
    return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_DATA;
}

BIGNUM *wc_ossl_bn_from(wc_bytes b, bool secret) {
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
unsigned wc_ossl_ct_less(const uint8_t *a, const uint8_t *b, size_t n) {
    unsigned borrow = 0;
    for (size_t i = n; i-- > 0;) borrow = (((unsigned)a[i] - b[i] - borrow) >> 8) & 1;
    return borrow;
}

/* 1 if a (n >= 1 bytes, big-endian) equals the byte value v, else 0, without
 * a branch on a. */
unsigned wc_ossl_ct_equals_small(const uint8_t *a, size_t n, uint8_t v) {
    unsigned acc = (unsigned)a[n - 1] ^ v;
    for (size_t i = 0; i + 1 < n; i++) acc |= a[i];
    return ((acc - 1) >> 8) & 1;
}

/* bn as k big-endian bytes into out. BN_bn2binpad reads the whole allocation
 * whatever the value (and sizes a BN_FLG_CONSTTIME number without a branch).
 * Returns 1 if it fits in k bytes (k is public), else 0 and out unchanged: a
 * value that wide is larger than any member of a valid key. */
unsigned wc_ossl_bn_bytes(const BIGNUM *bn, uint8_t *out, size_t k) {
    return (unsigned)(BN_bn2binpad(bn, out, (int)k) == (int)k);
}

/* OpenSSL's name of an OKP key type; NULL for a member it does not have. */
const char *wc_ossl_okp_name(wc_okp kind) {
    switch (kind) {
    case WC_OKP_ED25519: return "ED25519";
    case WC_OKP_X25519: return "X25519";
    case WC_OKP_ED448: return "ED448";
    case WC_OKP_X448: return "X448";
    case WC_OKP_COUNT: break;
    }
    return NULL;
}

/* ---- signatures ---- */

/* A digest-sign or digest-verify context on s's key; md NULL for EdDSA. */
webcrypto_status wc_ossl_md_ctx_start(const pkey_state *s, const EVP_MD *md, bool sign,
                                      EVP_MD_CTX **out, EVP_PKEY_CTX **pctx) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (!m) return wc_ossl_no_memory("EVP_MD_CTX_new");
    int r = sign ? EVP_DigestSignInit(m, pctx, md, NULL, s->pkey)
                 : EVP_DigestVerifyInit(m, pctx, md, NULL, s->pkey);
    if (r != 1) {
        EVP_MD_CTX_free(m);
        return wc_ossl_fail(sign ? "EVP_DigestSignInit" : "EVP_DigestVerifyInit");
    }
    *out = m;
    return WEBCRYPTO_OK;
}

/* A one-shot sign or verify context on s's key (EdDSA, ML-DSA: no digest)
 * with the context string C, made for this call: OpenSSL takes C as the
 * signature's "context-string" parameter (3.2+ for Ed448, 3.5 for ML-DSA;
 * 3.0 refuses the parameter, so init's probes leave the capabilities
 * unset there). An empty C sets no parameter. */
webcrypto_status wc_ossl_md_ctx_with_context(const pkey_state *s, bool sign,
                                             const uint8_t *context, size_t context_len,
                                             EVP_MD_CTX **out) {
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end()};
    if (context_len > 0)
        params[0] = OSSL_PARAM_construct_octet_string(WC_OSSL_PARAM_CONTEXT_STRING,
                                                      (void *)context, context_len);
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (!m) return wc_ossl_no_memory("EVP_MD_CTX_new");
    int r = sign ? EVP_DigestSignInit_ex(m, NULL, NULL, NULL, NULL, s->pkey, params)
                 : EVP_DigestVerifyInit_ex(m, NULL, NULL, NULL, NULL, s->pkey, params);
    if (r != 1) {
        EVP_MD_CTX_free(m);
        return wc_ossl_fail(sign ? "EVP_DigestSignInit_ex" : "EVP_DigestVerifyInit_ex");
    }
    *out = m;
    return WEBCRYPTO_OK;
}

/* The slot of s's wc_ossl_pkey_prepared context for (sign, scheme index, hash). The key
 * state is shared read-only by the contract; its prep slots are its only
 * mutable part, and they are atomic (the state was allocated non-const). */
_Atomic(void *) *wc_ossl_prep_slot(const pkey_state *s, bool sign, size_t scheme, size_t hash) {
    pkey_state *m = (pkey_state *)s;
    return &m->prep[sign ? PREP_SIGN : PREP_VERIFY][scheme][hash];
}

/* The context in *slot: made (by make, with arg) and published first if the
 * slot is empty. When another thread published one first, ours is freed
 * and theirs answered. */
webcrypto_status wc_ossl_pkey_prepared(const pkey_state *s, _Atomic(void *) *slot, bool sign,
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
void wc_ossl_md_ctx_free(void *c) { EVP_MD_CTX_free(c); }

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

/* The call's own copy of s's wc_ossl_pkey_prepared EVP_PKEY_CTX: for RSA, per scheme and
 * hash (md is hash's digest); for ECDSA (md NULL), one per operation. */
webcrypto_status wc_ossl_pkey_ctx_copy(const pkey_state *s, bool sign, wc_rsa_scheme scheme,
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
        wc_ossl_pkey_prepared(s, wc_ossl_prep_slot(s, sign, sc, h), sign, &su, pkey_ctx_make, pkey_ctx_free, &prep);
    if (st != WEBCRYPTO_OK) return st;
    *out = EVP_PKEY_CTX_dup(prep);
    return *out ? WEBCRYPTO_OK : wc_ossl_fail("EVP_PKEY_CTX_dup");
}

/* The message's hash, what EVP_DigestSign would sign (out: EVP_MAX_MD_SIZE),
 * and the hash's EVP_MD. */
webcrypto_status wc_ossl_hash_message(wc_hash hash, const uint8_t *msg, size_t len,
                                      uint8_t *out, size_t *out_len, const EVP_MD **md) {
    *md = wc_ossl_md(hash);
    if (!*md) return wc_hash_unavailable("OpenSSL", hash);
    webcrypto_status st = wc_ossl_digest(hash, msg, len, out);
    if (st == WEBCRYPTO_OK) *out_len = (size_t)EVP_MD_get_size(*md);
    return st;
}

/* ---- key agreement ---- */

webcrypto_status wc_ossl_pkey_derive(const pkey_state *priv, const pkey_state *pub, uint8_t *out,
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
