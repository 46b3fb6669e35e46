/*
 * openssl_rsa.c - RSA for the openssl backend: import (with the private
 * key's consistency check), PKCS#1 v1.5 and PSS signatures, and OAEP
 * (../evp_common/openssl_api_pkey.inc).
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
#include "core/known_answers.h"
#include "openssl_internal.h"
#include "openssl_pkey.h"

/* The OAEP half of the code shared with the boringssl backend is used here,
 * the EC half in openssl_ec.c: the other half's static functions are unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "backends/evp_common/openssl_api_pkey.inc"
#pragma GCC diagnostic pop

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
 * (CRYPTO_memcmp, wc_ossl_ct_less) into one flag. Each value is encoded once: the
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
    if (!prod || !wc_ossl_bn_bytes(n, nb, k)) goto done;
    /* BN_CTX_get clears the flag; these hold values derived from secrets */
    BN_set_flags(t, BN_FLG_CONSTTIME);
    BN_set_flags(m, BN_FLG_CONSTTIME);
    BN_set_flags(prod, BN_FLG_CONSTTIME);
    unsigned ok = 1;
    /* each prime > 1, and its CRT exponent: (p, dp), (q, dq), then (r, d) */
    for (size_t i = 0; i < 2 + oth; i++) {
        const BIGNUM *prime = i == 0 ? p : i == 1 ? q : bn[8 + 3 * (i - 2)];
        const BIGNUM *exp = i == 0 ? bn[5] : i == 1 ? bn[6] : bn[8 + 3 * (i - 2) + 1];
        ok &= wc_ossl_bn_bytes(prime, sa, k);
        ok &= (wc_ossl_ct_equals_small(sa, k, 0) | wc_ossl_ct_equals_small(sa, k, 1)) ^ 1u;
        if (!BN_sub(m, prime, BN_value_one()) || !usable_modulus(m) || !BN_mod(t, d, m, ctx))
            goto done;
        ok &= wc_ossl_bn_bytes(t, sa, k) & wc_ossl_bn_bytes(exp, sb, k);
        ok &= (unsigned)(CRYPTO_memcmp(sa, sb, k) == 0);
        if (!BN_mod_mul(t, e, exp, m, ctx)) goto done;
        ok &= wc_ossl_bn_bytes(t, sa, k) & wc_ossl_ct_equals_small(sa, k, 1);
    }
    /* qi = q^-1 mod p */
    ok &= wc_ossl_bn_bytes(p, pb, k) & wc_ossl_bn_bytes(qi, sa, k) & wc_ossl_ct_less(sa, pb, k);
    if (!BN_copy(m, p) || !usable_modulus(m) || !BN_mod_mul(t, qi, q, m, ctx)) goto done;
    ok &= wc_ossl_bn_bytes(t, sa, k) & wc_ossl_ct_equals_small(sa, k, 1);
    /* t_i = (product of the primes before r_i)^-1 mod r_i; then n = the
     * product of all */
    if (!BN_mul(prod, p, q, ctx)) goto done;
    for (size_t i = 0; i < oth; i++) {
        const BIGNUM *r = bn[8 + 3 * i], *coef = bn[8 + 3 * i + 2];
        ok &= wc_ossl_bn_bytes(r, pb, k) & wc_ossl_bn_bytes(coef, sa, k) & wc_ossl_ct_less(sa, pb, k);
        if (!BN_copy(m, r) || !usable_modulus(m) || !BN_mod_mul(t, coef, prod, m, ctx) ||
            !BN_mul(prod, prod, r, ctx))
            goto done;
        ok &= wc_ossl_bn_bytes(t, sa, k) & wc_ossl_ct_equals_small(sa, k, 1);
    }
    ok &= wc_ossl_bn_bytes(prod, sa, k) & (unsigned)(CRYPTO_memcmp(sa, nb, k) == 0);
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

webcrypto_status wc_ossl_rsa_import(const wc_pkey_fields *f,
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
        st = wc_ossl_no_memory("OSSL_PARAM_BLD_new");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        bn[i] = wc_ossl_bn_from(src[i], i >= 2);
        if (!bn[i]) {
            st = wc_ossl_no_memory("BN_bin2bn");
            goto done;
        }
        if (OSSL_PARAM_BLD_push_BN(bld, wc_ossl_rsa_names[i], bn[i]) != 1) {
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
    st = wc_ossl_from_data("RSA", f->is_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, bld, &pkey);
done:
    for (size_t i = 0; i < count; i++) BN_clear_free(bn[i]);
    OSSL_PARAM_BLD_free(bld);
    if (st != WEBCRYPTO_OK) {
        EVP_PKEY_free(pkey);
        return st;
    }
    return wc_ossl_pkey_state_new(KT_RSA, pkey, f->is_private, oth, NULL, state);
}

/* The RSA context for the call, the PSS salt length set (salt_len <= INT_MAX). */
static webcrypto_status rsa_sig_ctx(const pkey_state *s, wc_rsa_scheme scheme, wc_hash hash,
                                    const EVP_MD *md, size_t salt_len, bool sign,
                                    EVP_PKEY_CTX **out) {
    webcrypto_status st = wc_ossl_pkey_ctx_copy(s, sign, scheme, hash, md, out);
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

/* Verifies sig over the message's hash dg (md's), for wc_ossl_rsa_verify
 * and init's known answer. */
static webcrypto_status rsa_verify_digest(const pkey_state *s, wc_rsa_scheme scheme, wc_hash hash,
                                          const EVP_MD *md, size_t salt_len, const uint8_t *dg,
                                          size_t dg_len, const uint8_t *sig, size_t sig_len,
                                          bool *valid) {
    EVP_PKEY_CTX *pc = NULL;
    webcrypto_status st = rsa_sig_ctx(s, scheme, hash, md, salt_len, false, &pc);
    if (st != WEBCRYPTO_OK) return st;
    *valid = EVP_PKEY_verify(pc, sig, sig_len, dg, dg_len) == 1;
    ERR_clear_error();
    EVP_PKEY_CTX_free(pc);
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_rsa_sign(const void *state, wc_rsa_scheme scheme,
                                  wc_hash hash, size_t salt_len, const uint8_t *msg,
                                  size_t len, uint8_t *sig, size_t *sig_len) {
    const pkey_state *s = state;
    bool pss = false;
    if (!wc_rsa_sig_is_pss(scheme, &pss))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: not an RSA signature scheme");
    if (pss && salt_len > INT_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-PSS: the salt is too long for the key");
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    EVP_PKEY_CTX *pc = NULL;
    const EVP_MD *md = NULL;
    webcrypto_status st = wc_ossl_hash_message(hash, msg, len, dg, &dg_len, &md);
    if (st == WEBCRYPTO_OK) st = rsa_sig_ctx(s, scheme, hash, md, salt_len, true, &pc);
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
    bool pss = false;
    if (!wc_rsa_sig_is_pss(scheme, &pss))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: not an RSA signature scheme");
    /* RFC 8017 8.1.2 / 8.2.2: a signature of another length is invalid; so
     * is a PSS salt no key could hold. */
    if (sig_len != s->size || (pss && salt_len > INT_MAX))
        return WEBCRYPTO_OK;
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    const EVP_MD *md = NULL;
    webcrypto_status st = wc_ossl_hash_message(hash, msg, len, dg, &dg_len, &md);
    if (st != WEBCRYPTO_OK) return st;
    return rsa_verify_digest(s, scheme, hash, md, salt_len, dg, dg_len, sig, sig_len, valid);
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

/* Whether RSA verifies a known RSASSA-PKCS1-v1_5 signature (known_answers.h)
 * and refuses it over another message: init offers the RSA algorithms only
 * then. The public operation alone: a private one costs too much at every
 * start, and RSA-PSS and RSA-OAEP share the key and its arithmetic. The
 * messages are hashed here with EVP_Digest, not the backend's digest, whose
 * thread cache init (under the registry's lock) must not touch: its fork
 * handler takes that cache's lock before the registry's. */
bool wc_ossl_rsa_kat(void) {
    uint8_t n[256], e[3] = {1, 0, 1}, sig[256], dg[2][32];
    wc_kat_unhex(WC_KAT_RSA_N, n, sizeof n);
    wc_kat_unhex(WC_KAT_RSA_SIG, sig, sizeof sig);
    wc_pkey_fields f = {0};
    f.n = (wc_bytes){n, sizeof n};
    f.e = (wc_bytes){e, sizeof e};
    void *pub = NULL;
    static const char msg[] = WC_KAT_RSA_MSG;
    const EVP_MD *md = wc_ossl_md(WC_HASH_SHA_256);
    bool valid = false, other = true;
    bool ok = md && EVP_MD_get_size(md) == 32 &&
              EVP_Digest(msg, sizeof msg - 1, dg[0], NULL, md, NULL) == 1 &&
              EVP_Digest(msg, sizeof msg - 2, dg[1], NULL, md, NULL) == 1 &&
              wc_ossl_rsa_import(&f, &pub) == WEBCRYPTO_OK &&
              rsa_verify_digest(pub, WC_RSA_SCHEME_PKCS1_V1_5, WC_HASH_SHA_256, md, 0, dg[0], 32,
                                sig, sizeof sig, &valid) == WEBCRYPTO_OK &&
              valid &&
              rsa_verify_digest(pub, WC_RSA_SCHEME_PKCS1_V1_5, WC_HASH_SHA_256, md, 0, dg[1], 32,
                                sig, sizeof sig, &other) == WEBCRYPTO_OK &&
              !other;
    wc_ossl_pkey_free(pub);
    ERR_clear_error();
    return ok;
}
