/*
 * openssl_okp.c - the OKP keys for the openssl backend (Ed25519, X25519,
 * Ed448, X448): import, EdDSA signatures and X25519 / X448.
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

webcrypto_status wc_ossl_okp_import(wc_okp kind, const wc_pkey_fields *f, void **state) {
    const char *name = wc_ossl_okp_name(kind);
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
    return wc_ossl_pkey_state_new(KT_OKP, pkey, f->is_private, 0, NULL, state);
}

/* ---- OKP signatures: EdDSA, pure (one-shot, no digest), for every
 * signature member (OpenSSL knows the scheme from the key) ---- */

static webcrypto_status okp_md_ctx_make(const pkey_state *s, bool sign, const void *arg,
                                        void **out) {
    (void)arg;
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = wc_ossl_md_ctx_start(s, NULL, sign, &m, NULL);
    if (st == WEBCRYPTO_OK) *out = m;
    return st;
}

/* The call's own copy of s's wc_ossl_pkey_prepared EdDSA context. OpenSSL 3.0.0 copies no
 * context without a digest (3.0.1 does): there, a context of the call's own. */
static webcrypto_status okp_md_ctx(const pkey_state *s, bool sign, EVP_MD_CTX **out) {
    void *prep = NULL;
    webcrypto_status st =
        wc_ossl_pkey_prepared(s, wc_ossl_prep_slot(s, sign, 0, 0), sign, NULL, okp_md_ctx_make, wc_ossl_md_ctx_free, &prep);
    if (st != WEBCRYPTO_OK) return st;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (!m) return wc_ossl_no_memory("EVP_MD_CTX_new");
    if (EVP_MD_CTX_copy_ex(m, prep) != 1) {
        EVP_MD_CTX_free(m);
        ERR_clear_error();
        return wc_ossl_md_ctx_start(s, NULL, sign, out, NULL);
    }
    *out = m;
    return WEBCRYPTO_OK;
}

/* The call's context: the key's prepared one without a context string (the
 * common case, and Ed25519's only one), else one made for this context
 * (init reported WC_CAP_ED448_CONTEXT only where OpenSSL signs with it right:
 * wc_ossl_ed448_context_probe). */
static webcrypto_status okp_call_ctx(const pkey_state *s, bool sign, const uint8_t *context,
                                     size_t context_len, EVP_MD_CTX **out) {
    if (context_len > 0) return wc_ossl_md_ctx_with_context(s, sign, context, context_len, out);
    return okp_md_ctx(s, sign, out);
}

webcrypto_status wc_ossl_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                                  size_t context_len, const uint8_t *msg, size_t len,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len) {
    const pkey_state *s = state;
    const size_t want = wc_okp_sig_len(kind);
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = okp_call_ctx(s, true, context, context_len, &m);
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
    const pkey_state *s = state;
    *valid = false;
    if (sig_len != wc_okp_sig_len(kind)) return WEBCRYPTO_OK;
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = okp_call_ctx(s, false, context, context_len, &m);
    if (st != WEBCRYPTO_OK) return st;
    *valid = EVP_DigestVerify(m, sig, sig_len, BYTES_OR_EMPTY(msg, len), len) == 1;
    ERR_clear_error();
    EVP_MD_CTX_free(m);
    return WEBCRYPTO_OK;
}

/* Whether the running OpenSSL makes kind's known public key from its known
 * private key (RFC 8032, RFC 7748: known_answers.h) and, for a signature
 * member, signs RFC 8032's message as RFC 8032 does: init offers the
 * member only then. */
bool wc_ossl_okp_kat(wc_okp kind) {
    const char *sk_hex = NULL, *pk_hex = NULL, *sig_hex = NULL, *msg_hex = "";
    switch (kind) {
    case WC_OKP_ED25519:
        sk_hex = WC_KAT_ED25519_SK, pk_hex = WC_KAT_ED25519_PK, sig_hex = WC_KAT_ED25519_SIG;
        break;
    case WC_OKP_X25519: sk_hex = WC_KAT_X25519_SK, pk_hex = WC_KAT_X25519_PK; break;
    case WC_OKP_ED448:
        sk_hex = WC_KAT_ED448_SK, pk_hex = WC_KAT_ED448_PK, sig_hex = WC_KAT_ED448_SIG;
        msg_hex = WC_KAT_ED448_MSG;
        break;
    case WC_OKP_X448: sk_hex = WC_KAT_X448_SK, pk_hex = WC_KAT_X448_PK; break;
    case WC_OKP_COUNT: return false;
    }
    const size_t n = wc_okp_key_len(kind), sig_len = wc_okp_sig_len(kind),
                 msg_len = strlen(msg_hex) / 2;
    uint8_t sk[MAX_OKP], pk[MAX_OKP], sig[2 * MAX_OKP], want[2 * MAX_OKP], msg[1];
    if (n > MAX_OKP || sig_len > sizeof sig || msg_len > sizeof msg) return false;
    wc_kat_unhex(sk_hex, sk, n);
    wc_kat_unhex(pk_hex, pk, n);
    wc_kat_unhex(msg_hex, msg, msg_len);
    wc_pkey_fields f = {0};
    f.is_private = true;
    f.d = (wc_bytes){sk, n};
    void *state = NULL;
    bool ok = wc_ossl_okp_import(kind, &f, &state) == WEBCRYPTO_OK;
    if (ok) {
        const pkey_state *s = state;
        ok = s->f.x.n == n && memcmp(s->f.x.p, pk, n) == 0;
    }
    if (ok && sig_hex) {
        size_t got = 0;
        wc_kat_unhex(sig_hex, want, sig_len);
        ok = wc_ossl_okp_sign(state, kind, NULL, 0, msg, msg_len, sig, sizeof sig, &got) ==
                 WEBCRYPTO_OK &&
             got == sig_len && memcmp(sig, want, sig_len) == 0;
    }
    wc_ossl_pkey_free(state);
    wc_wipe(sk, sizeof sk);
    ERR_clear_error();
    return ok;
}

/* Whether Ed448 signs with a context string as RFC 8032 says: its "1 octet
 * (with context)" signature (known_answers.h), byte for byte. OpenSSL 3.0's
 * EdDSA refuses the parameter; one that took it and ignored it would give
 * the signature without the context, which this tells apart. */
bool wc_ossl_ed448_context_probe(void) {
    uint8_t sk[57], want[114], sig[114], msg[1], foo[3];
    wc_kat_unhex(WC_KAT_ED448_SK, sk, sizeof sk);
    wc_kat_unhex(WC_KAT_ED448_SIG_CONTEXT, want, sizeof want);
    wc_kat_unhex(WC_KAT_ED448_MSG, msg, sizeof msg);
    wc_kat_unhex(WC_KAT_ED448_CONTEXT, foo, sizeof foo);
    wc_pkey_fields f = {0};
    f.is_private = true;
    f.d = (wc_bytes){sk, sizeof sk};
    void *state = NULL;
    size_t n = 0;
    bool ok = wc_ossl_okp_import(WC_OKP_ED448, &f, &state) == WEBCRYPTO_OK &&
              wc_ossl_okp_sign(state, WC_OKP_ED448, foo, sizeof foo, msg, sizeof msg, sig,
                               sizeof sig, &n) == WEBCRYPTO_OK &&
              n == sizeof want && memcmp(sig, want, sizeof want) == 0;
    bool valid = false;
    /* and verifies it only with that context */
    ok = ok &&
         wc_ossl_okp_verify(state, WC_OKP_ED448, foo, sizeof foo, msg, sizeof msg, want,
                            sizeof want, &valid) == WEBCRYPTO_OK &&
         valid &&
         wc_ossl_okp_verify(state, WC_OKP_ED448, NULL, 0, msg, sizeof msg, want, sizeof want,
                            &valid) == WEBCRYPTO_OK &&
         !valid;
    wc_ossl_pkey_free(state);
    wc_wipe(sk, sizeof sk);
    ERR_clear_error();
    return ok;
}

/* The core refuses an all-zero result (backend.h); OpenSSL refuses it too. */
webcrypto_status wc_ossl_okp_derive(const void *private_state, const void *public_state,
                                    wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len) {
    const size_t want = wc_okp_key_len(kind);
    if (out_cap < want) return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL backend: no room");
    webcrypto_status st = wc_ossl_pkey_derive(private_state, public_state, out, want);
    if (st == WEBCRYPTO_OK) *out_len = want;
    return st;
}
