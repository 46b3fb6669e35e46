/*
 * openssl_pkey.c - the openssl backend's asymmetric keys and operations:
 * RSA (PKCS#1 v1.5 and PSS signatures, OAEP), ECDSA and ECDH on P-256/384/521,
 * Ed25519, X25519, Ed448 and X448, ML-KEM and ML-DSA (where the running
 * OpenSSL has them: 3.5), over OpenSSL 3's EVP_PKEY interface.
 * This file probes the algorithms at init, dispatches import on the family,
 * generates keys and reads them out; the families are in openssl_rsa.c,
 * openssl_ec.c, openssl_okp.c and openssl_pq.c, on openssl_pkey_common.c
 * (openssl_pkey.h).
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
 *    ../evp_common/openssl_api_pkey.inc, #included by openssl_rsa.c and openssl_ec.c
 *    and by the boringssl backend.
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
#include "openssl_pkey.h"

/* ---- init: builds the EC groups and probes each algorithm ---- */

void wc_ossl_pkey_init(wc_caps *c) {
    bool groups = true;
    for (int i = WEBCRYPTO_CURVE_P256; i <= WEBCRYPTO_CURVE_P521; i++) {
        curve_info *ci = &wc_ossl_pkey_curves[i];
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
     * five primes (wc_ossl_rsa_import). */
    if (km_rsa) c->features |= WC_CAP_RSA_MULTI_PRIME;
    /* RSA: a known signature verifies (openssl_rsa.c) */
    bool rsa_kat = km_rsa && sig_rsa && wc_ossl_rsa_kat();
    if (rsa_kat) wc_caps_add_all(c, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS);
    if (rsa_kat && enc_rsa) wc_caps_add(c, WEBCRYPTO_ALG_RSA_OAEP);
    /* EC: RFC 6979's P-256 example (openssl_ec.c) */
    bool ec_kat = km_ec && groups && sig_ec && kex_ec && wc_ossl_ec_kat();
    if (ec_kat) wc_caps_add_all(c, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH);
    /* OKP members: also their RFC 8032 / RFC 7748 known answers */
    if (km_ed && sig_ed && wc_ossl_okp_kat(WC_OKP_ED25519)) wc_caps_add(c, WEBCRYPTO_ALG_ED25519);
    if (km_x && kex_x && wc_ossl_okp_kat(WC_OKP_X25519)) wc_caps_add(c, WEBCRYPTO_ALG_X25519);
    /* Ed448's context where OpenSSL signs with one as RFC 8032 does (3.2
     * added the "context-string" parameter; 3.0's EdDSA has none, and
     * without WC_CAP_ED448_CONTEXT the core answers NotSupportedError for a
     * non-empty context). */
    if (km_ed448 && sig_ed448 && wc_ossl_okp_kat(WC_OKP_ED448)) {
        wc_caps_add(c, WEBCRYPTO_ALG_ED448);
        if (wc_ossl_ed448_context_probe()) c->features |= WC_CAP_ED448_CONTEXT;
    }
    if (km_x448 && kex_x448 && wc_ossl_okp_kat(WC_OKP_X448)) wc_caps_add(c, WEBCRYPTO_ALG_X448);

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
    wc_ossl_pq_init(c); /* ML-KEM, ML-DSA: each parameter set probed */
}

webcrypto_status wc_ossl_pkey_import(const void *bctx, wc_family family, unsigned member,
                                     const wc_pkey_fields *f, void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_RSA: return wc_ossl_rsa_import(f, state);
    case WC_FAMILY_EC: return wc_ossl_ec_import(f, state);
    case WC_FAMILY_OKP: return wc_ossl_okp_import((wc_okp)member, f, state);
    case WC_FAMILY_ML_KEM: /* where init's probe found them (openssl_pq.c) */
    case WC_FAMILY_ML_DSA: return wc_ossl_pq_import(family, member, f, state);
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
        ci = wc_ossl_pkey_curve_for(curve);
        if (!ci)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: this curve is not available");
        name = "EC";
    } else if (type == KT_OKP) {
        name = wc_ossl_okp_name((wc_okp)member);
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
        bn_e = wc_ossl_bn_from(e, false);
        if (!bn_e) {
            st = wc_ossl_no_memory("BN_bin2bn");
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
    return wc_ossl_pkey_state_new(type, pkey, true, 0, ci, state);
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
        return wc_ossl_rsa_read(s, out, 2, 8 + 3 * s->f.oth_count, buf, cap, NULL, &used);
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
    case KT_ML_KEM:
    case KT_ML_DSA: return wc_ossl_pq_seed(s, buf, cap, &out->d);
    }
    return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unknown key type");
}

void wc_ossl_pkey_free(void *state) { wc_ossl_pkey_state_free(state); }
