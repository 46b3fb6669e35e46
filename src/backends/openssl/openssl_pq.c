/*
 * openssl_pq.c - ML-KEM (FIPS 203) and ML-DSA (FIPS 204) for the openssl
 * backend, from the running OpenSSL where it has them (3.5 and later; 3.0
 * has neither), and init's probe of them.
 *
 * The backend may be built against 3.0's headers and run on 3.5's
 * libcrypto, so nothing here names a 3.5 symbol: the key types are fetched
 * by name (OpenSSL's names are WebCrypto's, "ML-KEM-768", "ML-DSA-65"),
 * keys are made with EVP_PKEY_fromdata from the seed or the public key
 * ("seed" and "pub" parameters), ML-KEM runs through EVP_PKEY_encapsulate /
 * _decapsulate (in 3.0's API for RSASVE), and ML-DSA through one-shot
 * EVP_DigestSign / EVP_DigestVerify with the context as the signature's
 * "context-string" parameter (pure ML-DSA, hedged: OpenSSL's defaults).
 * Whether the running OpenSSL does all this right is decided once, at init,
 * per parameter set, by wc_ossl_pq_init's probe, never by its version.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "core/backend.h"
#include "core/ct.h"
#include "core/known_answers.h"
#include "openssl_internal.h"
#include "openssl_pkey.h"

/* ---- keys ---- */

webcrypto_status wc_ossl_pq_import(wc_family family, unsigned member, const wc_pkey_fields *f,
                                   void **state) {
    const char *name = NULL;
    key_type type = KT_ML_KEM;
    switch (family) {
    case WC_FAMILY_ML_KEM: name = wc_ml_kem_name((wc_ml_kem)member); type = KT_ML_KEM; break;
    case WC_FAMILY_ML_DSA: name = wc_ml_dsa_name((wc_ml_dsa)member); type = KT_ML_DSA; break;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP: break;
    }
    if (!name) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: not ML-KEM or ML-DSA");
    /* The contract: a private key is its seed alone (OpenSSL derives the
     * key pair from it: KeyGen_internal), a public key its encoding, whose
     * check (ML-KEM: the coefficients below q) is OpenSSL's: a refusal is
     * DataError. The parameter points at the caller's bytes; OpenSSL copies
     * them into its key, which it cleanses when freed. */
    OSSL_PARAM params[2] = {
        f->is_private ? OSSL_PARAM_construct_octet_string(WC_OSSL_PARAM_PQ_SEED, (void *)f->d.p,
                                                          f->d.n)
                      : OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                          (void *)f->x.p, f->x.n),
        OSSL_PARAM_construct_end()};
    EVP_PKEY *pkey = NULL;
    webcrypto_status st = WEBCRYPTO_OK;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, name, NULL);
    if (!ctx)
        st = wc_ossl_fail("EVP_PKEY_CTX_new_from_name");
    else if (EVP_PKEY_fromdata_init(ctx) != 1)
        st = wc_ossl_fail("EVP_PKEY_fromdata_init");
    else if (EVP_PKEY_fromdata(ctx, &pkey,
                               f->is_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                               params) != 1)
        st = data_fail("importing the key");
    EVP_PKEY_CTX_free(ctx);
    if (st != WEBCRYPTO_OK) return st;
    return wc_ossl_pkey_state_new(type, pkey, f->is_private, 0, NULL, state);
}

/* A private key's seed, read out of OpenSSL's key into buf (the core's,
 * which it wipes): OpenSSL keeps the seed of a key made from one. */
webcrypto_status wc_ossl_pq_seed(const pkey_state *s, uint8_t *buf, size_t cap, wc_bytes *out) {
    size_t want = s->type == KT_ML_KEM ? WC_ML_KEM_SEED_LEN : WC_ML_DSA_SEED_LEN, n = 0;
    if (cap < want) return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: no room for the seed");
    if (EVP_PKEY_get_octet_string_param(s->pkey, WC_OSSL_PARAM_PQ_SEED, buf, want, &n) != 1 ||
        n != want)
        return wc_ossl_fail("reading the private key's seed");
    *out = (wc_bytes){buf, n};
    return WEBCRYPTO_OK;
}

/* ---- ML-KEM ---- */

webcrypto_status wc_ossl_ml_kem_encapsulate(const void *state, wc_ml_kem kind, uint8_t *ct,
                                            uint8_t *shared) {
    const pkey_state *s = state;
    size_t ct_len = wc_ml_kem_ciphertext_len(kind), ss_len = WC_ML_KEM_SHARED_LEN;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, s->pkey, NULL);
    if (!c) return wc_ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_PKEY_encapsulate_init(c, NULL) != 1 ||
        EVP_PKEY_encapsulate(c, ct, &ct_len, shared, &ss_len) != 1 ||
        ct_len != wc_ml_kem_ciphertext_len(kind) || ss_len != WC_ML_KEM_SHARED_LEN) {
        wc_wipe(shared, WC_ML_KEM_SHARED_LEN);
        st = wc_ossl_fail("ML-KEM encapsulation (EVP_PKEY_encapsulate)");
    }
    EVP_PKEY_CTX_free(c);
    return st;
}

/* Implicit rejection is OpenSSL's: a ciphertext that does not decrypt gives
 * the key FIPS 203 derives from z, not an error. */
webcrypto_status wc_ossl_ml_kem_decapsulate(const void *state, wc_ml_kem kind, const uint8_t *ct,
                                            uint8_t *shared) {
    const pkey_state *s = state;
    size_t ss_len = WC_ML_KEM_SHARED_LEN;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, s->pkey, NULL);
    if (!c) return wc_ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_PKEY_decapsulate_init(c, NULL) != 1 ||
        EVP_PKEY_decapsulate(c, shared, &ss_len, ct, wc_ml_kem_ciphertext_len(kind)) != 1 ||
        ss_len != WC_ML_KEM_SHARED_LEN) {
        wc_wipe(shared, WC_ML_KEM_SHARED_LEN);
        st = wc_ossl_fail("ML-KEM decapsulation (EVP_PKEY_decapsulate)");
    }
    EVP_PKEY_CTX_free(c);
    return st;
}

/* ---- ML-DSA ---- */

webcrypto_status wc_ossl_ml_dsa_sign(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                     size_t ctx_len, const uint8_t *msg, size_t len,
                                     uint8_t *sig) {
    const pkey_state *s = state;
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = wc_ossl_md_ctx_with_context(s, true, ctx, ctx_len, &m);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = wc_ml_dsa_sig_len(kind);
    if (EVP_DigestSign(m, sig, &n, BYTES_OR_EMPTY(msg, len), len) != 1 ||
        n != wc_ml_dsa_sig_len(kind))
        st = wc_ossl_fail("ML-DSA signing (EVP_DigestSign)");
    EVP_MD_CTX_free(m);
    return st;
}

webcrypto_status wc_ossl_ml_dsa_verify(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                       size_t ctx_len, const uint8_t *msg, size_t len,
                                       const uint8_t *sig, size_t sig_len, bool *valid) {
    const pkey_state *s = state;
    *valid = false;
    if (sig_len != wc_ml_dsa_sig_len(kind)) return WEBCRYPTO_OK; /* not a signature */
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = wc_ossl_md_ctx_with_context(s, false, ctx, ctx_len, &m);
    if (st != WEBCRYPTO_OK) return st;
    *valid = EVP_DigestVerify(m, sig, sig_len, BYTES_OR_EMPTY(msg, len), len) == 1;
    ERR_clear_error();
    EVP_MD_CTX_free(m);
    return WEBCRYPTO_OK;
}

/* ---- init: the probe ---- */

/* A key pair from the seed 00 01 02 ... (seed_len bytes) and its public
 * half imported from the pair's public key, with the pair's public key
 * hashing to the known answer (known_answers.h) and its seed read back. */
static bool probe_keys(wc_family family, unsigned member, size_t seed_len, const char *want_hex,
                       void **priv, void **pub) {
    uint8_t seed[WC_ML_KEM_SEED_LEN], back[WC_ML_KEM_SEED_LEN], want[32], got[32];
    for (size_t i = 0; i < seed_len; i++) seed[i] = (uint8_t)i;
    wc_kat_unhex(want_hex, want, sizeof want);
    wc_pkey_fields f = {0};
    f.is_private = true;
    f.d = (wc_bytes){seed, seed_len};
    *priv = *pub = NULL;
    if (wc_ossl_pq_import(family, member, &f, priv) != WEBCRYPTO_OK) return false;
    const pkey_state *s = *priv;
    size_t n = 0;
    wc_bytes b = {0};
    if (EVP_Q_digest(NULL, "SHA256", NULL, s->f.x.p, s->f.x.n, got, &n) != 1 || n != 32 ||
        memcmp(got, want, 32) != 0 || wc_ossl_pq_seed(s, back, sizeof back, &b) != WEBCRYPTO_OK ||
        memcmp(back, seed, seed_len) != 0)
        return false;
    wc_pkey_fields pf = {0};
    pf.x = s->f.x;
    return wc_ossl_pq_import(family, member, &pf, pub) == WEBCRYPTO_OK;
}

/* ML-KEM: the known public key; an encapsulation to the public key that
 * the private one decapsulates to the same secret; and implicit rejection
 * (an altered ciphertext gives another secret, not an error). */
static bool probe_ml_kem(wc_ml_kem k) {
    void *priv = NULL, *pub = NULL;
    uint8_t ct[1568], s1[WC_ML_KEM_SHARED_LEN], s2[WC_ML_KEM_SHARED_LEN],
        s3[WC_ML_KEM_SHARED_LEN];
    bool ok = wc_ml_kem_ciphertext_len(k) <= sizeof ct &&
              probe_keys(WC_FAMILY_ML_KEM, k, WC_ML_KEM_SEED_LEN, wc_kat_ml_kem_public_sha256(k),
                         &priv, &pub) &&
              wc_ossl_ml_kem_encapsulate(pub, k, ct, s1) == WEBCRYPTO_OK &&
              wc_ossl_ml_kem_decapsulate(priv, k, ct, s2) == WEBCRYPTO_OK &&
              memcmp(s1, s2, sizeof s1) == 0;
    if (ok) {
        ct[0] ^= 1;
        ok = wc_ossl_ml_kem_decapsulate(priv, k, ct, s3) == WEBCRYPTO_OK &&
             memcmp(s1, s3, sizeof s1) != 0;
    }
    wc_ossl_pkey_free(priv);
    wc_ossl_pkey_free(pub);
    wc_wipe(s1, sizeof s1);
    wc_wipe(s2, sizeof s2);
    wc_wipe(s3, sizeof s3);
    return ok;
}

/* ML-DSA: the known public key and a signature the public key verifies;
 * *context: whether a signature with a context verifies with that context
 * only (so that OpenSSL uses it, rather than taking and ignoring it). */
static bool probe_ml_dsa(wc_ml_dsa k, bool *context) {
    void *priv = NULL, *pub = NULL;
    static const uint8_t msg[3] = {'a', 'b', 'c'}, foo[3] = {'f', 'o', 'o'},
                         fop[3] = {'f', 'o', 'p'};
    uint8_t *sig = malloc(wc_ml_dsa_sig_len(k));
    size_t n = wc_ml_dsa_sig_len(k);
    bool valid = false, ok = sig &&
                            probe_keys(WC_FAMILY_ML_DSA, k, WC_ML_DSA_SEED_LEN,
                                       wc_kat_ml_dsa_public_sha256(k), &priv, &pub) &&
                            wc_ossl_ml_dsa_sign(priv, k, NULL, 0, msg, 3, sig) == WEBCRYPTO_OK &&
                            wc_ossl_ml_dsa_verify(pub, k, NULL, 0, msg, 3, sig, n, &valid) ==
                                WEBCRYPTO_OK &&
                            valid;
    *context = ok && wc_ossl_ml_dsa_sign(priv, k, foo, 3, msg, 3, sig) == WEBCRYPTO_OK &&
               wc_ossl_ml_dsa_verify(pub, k, foo, 3, msg, 3, sig, n, &valid) == WEBCRYPTO_OK &&
               valid &&
               wc_ossl_ml_dsa_verify(pub, k, fop, 3, msg, 3, sig, n, &valid) == WEBCRYPTO_OK &&
               !valid &&
               wc_ossl_ml_dsa_verify(pub, k, NULL, 0, msg, 3, sig, n, &valid) == WEBCRYPTO_OK &&
               !valid;
    free(sig);
    wc_ossl_pkey_free(priv);
    wc_ossl_pkey_free(pub);
    return ok;
}

/* Each parameter set the running OpenSSL has (its key management fetched)
 * and that answers the probe; the ML-DSA context where every ML-DSA set
 * offered takes it. On 3.0 the fetches fail and nothing is probed. */
void wc_ossl_pq_init(wc_caps *c) {
    for (int i = 0; i < WC_ML_KEM_COUNT; i++) {
        wc_ml_kem k = (wc_ml_kem)i;
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(NULL, wc_ml_kem_name(k), NULL);
        EVP_KEM *kem = EVP_KEM_fetch(NULL, wc_ml_kem_name(k), NULL);
        if (km && kem && probe_ml_kem(k)) wc_caps_add(c, wc_ml_kem_algorithm(k));
        EVP_KEYMGMT_free(km);
        EVP_KEM_free(kem);
    }
    bool any = false, all_context = true;
    for (int i = 0; i < WC_ML_DSA_COUNT; i++) {
        wc_ml_dsa k = (wc_ml_dsa)i;
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(NULL, wc_ml_dsa_name(k), NULL);
        EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(NULL, wc_ml_dsa_name(k), NULL);
        bool context = false;
        if (km && sig && probe_ml_dsa(k, &context)) {
            wc_caps_add(c, wc_ml_dsa_algorithm(k));
            any = true;
            all_context = all_context && context;
        }
        EVP_KEYMGMT_free(km);
        EVP_SIGNATURE_free(sig);
    }
    if (any && all_context) c->features |= WC_CAP_ML_DSA_CONTEXT;
    ERR_clear_error(); /* a missing algorithm only leaves its bit unset */
}
