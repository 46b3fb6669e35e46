/*
 * openssl_ec.c - EC keys for the openssl backend: import (points decoded
 * and checked by ../evp_common/openssl_api_pkey.inc), ECDSA and ECDH.
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

/* The EC half of the code shared with the boringssl backend is used here,
 * the OAEP half in openssl_rsa.c: the other half's static functions are unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "backends/evp_common/openssl_api_pkey.inc"
#pragma GCC diagnostic pop

webcrypto_status wc_ossl_ec_import(const wc_pkey_fields *f,
                                   void **state) {
    const curve_info *ci = wc_ossl_pkey_curve_for(f->curve);
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
        st = wc_ossl_no_memory("EC import");
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
        if (!wc_ct_public_uint((wc_ossl_ct_equals_small(f->d.p, fs, 0) ^ 1u) &
                               wc_ossl_ct_less(f->d.p, ci->order, fs))) {
            st = wc_error(WEBCRYPTO_ERR_DATA, "EC key: the private key is out of range");
            goto done;
        }
        d = wc_ossl_bn_from(f->d, true);
        if (!d) {
            st = wc_ossl_no_memory("BN_bin2bn");
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
    st = wc_ossl_from_data("EC", f->is_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, bld, &pkey);
    /* The point: on the curve and not infinity. P-256/384/521 have cofactor
     * 1, so that point has the group's order: the quick check suffices and
     * spares the full check's scalar multiplication (which made generating an
     * EC key pair 4x slower, measured with webcrypto bench). */
    if (st == WEBCRYPTO_OK)
        st = wc_ossl_check_key(pkey, EVP_PKEY_public_check_quick, "EC public key check");
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
    return wc_ossl_pkey_state_new(KT_EC, pkey, f->is_private, 0, ci, state);
}

/* ---- ECDSA ---- */

/* The call's ECDSA context (wc_ossl_pkey_prepared without a digest). */
static webcrypto_status ecdsa_ctx(const pkey_state *s, wc_hash hash, bool sign,
                                  EVP_PKEY_CTX **out) {
    return wc_ossl_pkey_ctx_copy(s, sign, WC_RSA_SCHEME_PKCS1_V1_5, hash, NULL, out);
}

webcrypto_status wc_ossl_ecdsa_sign(const void *state, wc_hash hash,
                                    const uint8_t *msg, size_t len, uint8_t *sig,
                                    size_t *sig_len) {
    const pkey_state *s = state;
    size_t fs = s->size;
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    EVP_PKEY_CTX *pc = NULL;
    const EVP_MD *md = NULL;
    webcrypto_status st = wc_ossl_hash_message(hash, msg, len, dg, &dg_len, &md);
    if (st == WEBCRYPTO_OK) st = ecdsa_ctx(s, hash, true, &pc);
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

/* Verifies sig (r || s) over the message's hash dg, for wc_ossl_ecdsa_verify
 * and init's known answer. */
static webcrypto_status ecdsa_verify_digest(const pkey_state *s, wc_hash hash, const uint8_t *dg,
                                            size_t dg_len, const uint8_t *sig, size_t sig_len,
                                            bool *valid) {
    *valid = false;
    size_t fs = s->size;
    if (sig_len != 2 * fs) return WEBCRYPTO_OK; /* not r || s: invalid */

    webcrypto_status st = WEBCRYPTO_OK;
    const BIGNUM *order = EC_GROUP_get0_order(s->curve->group);
    BIGNUM *r = BN_bin2bn(sig, (int)fs, NULL), *sv = BN_bin2bn(sig + fs, (int)fs, NULL);
    ECDSA_SIG *es = ECDSA_SIG_new();
    unsigned char *der = NULL;
    EVP_PKEY_CTX *pc = NULL;
    if (!r || !sv || !es) {
        st = wc_ossl_no_memory("ECDSA signature");
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
    st = ecdsa_ctx(s, hash, false, &pc);
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

webcrypto_status wc_ossl_ecdsa_verify(const void *state, wc_hash hash,
                                      const uint8_t *msg, size_t len, const uint8_t *sig,
                                      size_t sig_len, bool *valid) {
    const pkey_state *s = state;
    *valid = false;
    if (!wc_ossl_md(hash)) return wc_hash_unavailable("OpenSSL", hash);
    if (sig_len != 2 * s->size) return WEBCRYPTO_OK; /* not r || s: invalid, unhashed */
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dg_len = 0;
    const EVP_MD *md = NULL;
    webcrypto_status st = wc_ossl_hash_message(hash, msg, len, dg, &dg_len, &md);
    if (st != WEBCRYPTO_OK) return st;
    return ecdsa_verify_digest(s, hash, dg, dg_len, sig, sig_len, valid);
}

webcrypto_status wc_ossl_ecdh(const void *private_state, const void *public_state,
                              uint8_t *out, size_t *out_len) {
    const pkey_state *priv = private_state;
    webcrypto_status st = wc_ossl_pkey_derive(priv, public_state, out, priv->size);
    if (st == WEBCRYPTO_OK) *out_len = priv->size;
    return st;
}

/* Whether P-256 works as RFC 6979's example says: the private key x
 * imports with its public key (the import checks that x makes it), that
 * public key verifies the example's signature of "sample" (and not of
 * another message), and ECDH of x with the base point gives Ux. init offers
 * ECDSA and ECDH only then (the curves share OpenSSL's EC code). The
 * messages are hashed here with EVP_Digest, as in wc_ossl_rsa_kat. */
bool wc_ossl_ec_kat(void) {
    uint8_t x[32], ux[32], uy[32], gx[32], gy[32], sig[64], out[32];
    wc_kat_unhex(WC_KAT_P256_X, x, 32);
    wc_kat_unhex(WC_KAT_P256_UX, ux, 32);
    wc_kat_unhex(WC_KAT_P256_UY, uy, 32);
    wc_kat_unhex(WC_KAT_P256_GX, gx, 32);
    wc_kat_unhex(WC_KAT_P256_GY, gy, 32);
    wc_kat_unhex(WC_KAT_P256_SIG, sig, 64);
    wc_pkey_fields f = {0};
    f.curve = WEBCRYPTO_CURVE_P256;
    f.is_private = true;
    f.d = (wc_bytes){x, 32};
    f.x = (wc_bytes){ux, 32};
    f.y = (wc_bytes){uy, 32};
    wc_pkey_fields g = {0};
    g.curve = WEBCRYPTO_CURVE_P256;
    g.x = (wc_bytes){gx, 32};
    g.y = (wc_bytes){gy, 32};
    void *priv = NULL, *base = NULL;
    bool valid = false, other = true;
    size_t n = 0;
    uint8_t dg[2][32];
    const EVP_MD *md = wc_ossl_md(WC_HASH_SHA_256);
    bool ok = md && EVP_MD_get_size(md) == 32 &&
              EVP_Digest("sample", 6, dg[0], NULL, md, NULL) == 1 &&
              EVP_Digest("simple", 6, dg[1], NULL, md, NULL) == 1 &&
              wc_ossl_ec_import(&f, &priv) == WEBCRYPTO_OK &&
              ecdsa_verify_digest(priv, WC_HASH_SHA_256, dg[0], 32, sig, sizeof sig, &valid) ==
                  WEBCRYPTO_OK &&
              valid &&
              ecdsa_verify_digest(priv, WC_HASH_SHA_256, dg[1], 32, sig, sizeof sig, &other) ==
                  WEBCRYPTO_OK &&
              !other && wc_ossl_ec_import(&g, &base) == WEBCRYPTO_OK &&
              wc_ossl_ecdh(priv, base, out, &n) == WEBCRYPTO_OK && n == 32 &&
              memcmp(out, ux, 32) == 0;
    wc_ossl_pkey_free(priv);
    wc_ossl_pkey_free(base);
    wc_wipe(x, sizeof x);
    ERR_clear_error();
    return ok;
}
