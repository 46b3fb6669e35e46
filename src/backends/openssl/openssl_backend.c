/*
 * openssl_backend.c - the "openssl" backend, over OpenSSL 3's libcrypto.
 *
 * Design (see backend.h for the contract):
 *  - init() fetches every EVP_MD / EVP_CIPHER / EVP_KDF once into static
 *    storage; nothing is fetched per call by this file.
 *  - A secret key's state is prepared once and is read-only afterwards:
 *    AES keeps key-scheduled template EVP_CIPHER_CTXs; HMAC keeps the two
 *    digest contexts that have absorbed key^ipad and key^opad (RFC 2104) -
 *    copying those is about twice as fast as EVP_MAC_CTX_dup of a keyed HMAC.
 *  - Each thread keeps its own contexts per key and per hash
 *    (thread_cache.c): a thread's first call with a key copies the template;
 *    later calls only set the IV (AES) or copy the HMAC states into the
 *    thread's context, and digests re-initialise the thread's context. A new
 *    OpenSSL 3.0 context costs more than a 64-byte message and takes
 *    references on shared provider objects, on which threads contend.
 *    Templates are only read, so many threads may share a key state.
 *  - One-shot digests, HMAC and AES-GCM call their provider's own functions where
 *    init() found them (provider_direct.h), on per-thread provider contexts:
 *    at 64 bytes OpenSSL 3.0's EVP layer costs more than the work. EVP stays
 *    the path for everything else and wherever the lookup fails.
 *  - Every failure of OpenSSL becomes OPERATION (NO_MEMORY for allocation
 *    failures) with OpenSSL's reason in the message, and the OpenSSL error
 *    queue is cleared so that nothing leaks into later calls.
 */
#include <stdlib.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "core/backend.h"
#include "core/ct.h"
#include "gcm_siv.h"
#include "openssl_argon2.h"
#include "openssl_internal.h"

/* ---- init: fetches every part's algorithms (openssl_common.c keeps them)
 * and probes the asymmetric ones (wc_ossl_pkey_init), so it sits above the
 * parts ---- */

static const char *description_text;

static webcrypto_status ossl_init(const char *variant, void **bctx, wc_caps *caps,
                                  const char **description) {
    (void)bctx;
    if (variant)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "the openssl backend has no variant \"%s\"",
                        variant);

    static const char *const cbc_names[N_AES] = {"AES-128-CBC", "AES-192-CBC", "AES-256-CBC"};
    static const char *const ctr_names[N_AES] = {"AES-128-CTR", "AES-192-CTR", "AES-256-CTR"};
    static const char *const gcm_names[N_AES] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM"};
    /* AES-KW is RFC 3394 here on AES-ECB, not OpenSSL's "AES-*-WRAP": 3.0's
     * wrap ciphers run AES_encrypt, its table-based AES, not AES-NI
     * (aes_kw_run). */
    static const char *const kw_names[N_AES] = {"AES-128-ECB", "AES-192-ECB", "AES-256-ECB"};
    static const char *const ocb_names[N_AES] = {"AES-128-OCB", "AES-192-OCB", "AES-256-OCB"};
    wc_caps c = {{0}, 0};
    bool any_md = false;

    if (OPENSSL_init_crypto(0, NULL) != 1) return wc_ossl_fail("OPENSSL_init_crypto");

    /* A missing algorithm only removes its capability bit, so fetch failures
     * are expected here and must not leave errors on the queue. */
    bool direct = wc_prov_direct_enabled();
    for (int i = 0; i < N_HASH; i++) {
        wc_ossl_md_by_hash[i] = EVP_MD_fetch(NULL, wc_ossl_kdf_digest_name((wc_hash)i), NULL);
        /* offered only if it hashes "abc" as its standard says (openssl_probe.c) */
        if (wc_ossl_md_by_hash[i] && !wc_ossl_kat_digest(wc_ossl_md_by_hash[i], (wc_hash)i)) {
            EVP_MD_free(wc_ossl_md_by_hash[i]);
            wc_ossl_md_by_hash[i] = NULL;
        }
        if (wc_ossl_md_by_hash[i]) {
            wc_caps_add(&c, wc_hash_algorithm((wc_hash)i));
            any_md = true;
            if (direct) wc_prov_digest_find(wc_ossl_md_by_hash[i], &wc_ossl_prov_digests[i]);
        }
    }
    bool cbc = true, ctr = true, gcm = true, kw = true, ocb = true;
    for (int i = 0; i < N_AES; i++) {
        wc_ossl_aes_cbc_ciphers[i] = EVP_CIPHER_fetch(NULL, cbc_names[i], NULL);
        wc_ossl_aes_ctr_ciphers[i] = EVP_CIPHER_fetch(NULL, ctr_names[i], NULL);
        wc_ossl_aes_gcm_ciphers[i] = EVP_CIPHER_fetch(NULL, gcm_names[i], NULL);
        cbc = cbc && wc_ossl_aes_cbc_ciphers[i];
        ctr = ctr && wc_ossl_aes_ctr_ciphers[i];
        gcm = gcm && wc_ossl_aes_gcm_ciphers[i];
        if (wc_ossl_aes_gcm_ciphers[i] && direct) wc_prov_aead_find(wc_ossl_aes_gcm_ciphers[i], &wc_ossl_prov_gcms[i]);
        if (wc_ossl_aes_cbc_ciphers[i] && direct) wc_prov_mode_find(wc_ossl_aes_cbc_ciphers[i], &wc_ossl_prov_cbcs[i]);
        if (wc_ossl_aes_ctr_ciphers[i] && direct) wc_prov_mode_find(wc_ossl_aes_ctr_ciphers[i], &wc_ossl_prov_ctrs[i]);
        wc_ossl_aes_kw_ciphers[i] = EVP_CIPHER_fetch(NULL, kw_names[i], NULL);
        if (wc_ossl_aes_kw_ciphers[i] && direct) wc_prov_mode_find(wc_ossl_aes_kw_ciphers[i], &wc_ossl_prov_ecbs[i]);
        kw = kw && wc_ossl_aes_kw_ciphers[i];
        wc_ossl_aes_ocb_ciphers[i] = EVP_CIPHER_fetch(NULL, ocb_names[i], NULL);
        ocb = ocb && wc_ossl_aes_ocb_ciphers[i];
        if (wc_ossl_aes_ocb_ciphers[i] && direct) wc_prov_aead_find(wc_ossl_aes_ocb_ciphers[i], &wc_ossl_prov_ocbs[i]);
    }
    /* Each mode's AES-128 must give its standard's example (openssl_probe.c). */
    cbc = cbc && wc_ossl_kat_aes(wc_ossl_aes_cbc_ciphers[0]);
    ctr = ctr && wc_ossl_kat_aes(wc_ossl_aes_ctr_ciphers[0]);
    gcm = gcm && wc_ossl_kat_aes(wc_ossl_aes_gcm_ciphers[0]);
    kw = kw && wc_ossl_kat_aes(wc_ossl_aes_kw_ciphers[0]);
    ocb = ocb && wc_ossl_kat_aes(wc_ossl_aes_ocb_ciphers[0]);
    wc_ossl_chacha20_poly1305_cipher = EVP_CIPHER_fetch(NULL, "ChaCha20-Poly1305", NULL);
    bool chacha = wc_ossl_chacha20_poly1305_cipher &&
                  wc_ossl_kat_chacha20_poly1305(wc_ossl_chacha20_poly1305_cipher);
    if (wc_ossl_chacha20_poly1305_cipher && direct)
        wc_prov_aead_find(wc_ossl_chacha20_poly1305_cipher, &wc_ossl_prov_chacha20_poly1305);
    webcrypto_status tc = wc_tc_init();
    if (tc != WEBCRYPTO_OK) return tc;
    wc_ossl_kdf_pbkdf2 = EVP_KDF_fetch(NULL, "PBKDF2", NULL);
    bool gcm_siv = wc_ossl_gcm_siv_init();
    /* SHAKE (cSHAKE with N and S empty), cSHAKE with them (on the Keccak
     * KMAC uses: OpenSSL's own CSHAKE EVP_MD came in 3.6; probed below) and
     * KMAC. */
    wc_ossl_md_shake[WC_XOF_CSHAKE128] = EVP_MD_fetch(NULL, "SHAKE128", NULL);
    wc_ossl_md_shake[WC_XOF_CSHAKE256] = EVP_MD_fetch(NULL, "SHAKE256", NULL);
    wc_ossl_md_cshake[WC_XOF_CSHAKE128] = EVP_MD_fetch(NULL, "KECCAK-KMAC-128", NULL);
    wc_ossl_md_cshake[WC_XOF_CSHAKE256] = EVP_MD_fetch(NULL, "KECCAK-KMAC-256", NULL);
    wc_ossl_mac_kmac[WC_KMAC_128] = EVP_MAC_fetch(NULL, "KMAC-128", NULL);
    wc_ossl_mac_kmac[WC_KMAC_256] = EVP_MAC_fetch(NULL, "KMAC-256", NULL);
    ERR_clear_error();
    /* each checked against FIPS 202's / SP 800-185's examples (openssl_probe.c) */
    for (int i = 0; i < WC_XOF_COUNT; i++)
        if (wc_ossl_md_shake[i] && !wc_ossl_kat_shake(wc_ossl_md_shake[i], (wc_xof)i)) {
            EVP_MD_free(wc_ossl_md_shake[i]);
            wc_ossl_md_shake[i] = NULL;
        }
    for (int i = 0; i < WC_KMAC_COUNT; i++)
        if (wc_ossl_mac_kmac[i] && !wc_ossl_kat_kmac(wc_ossl_mac_kmac[i], (wc_kmac)i)) {
            EVP_MAC_free(wc_ossl_mac_kmac[i]);
            wc_ossl_mac_kmac[i] = NULL;
        }
    if (wc_ossl_md_shake[WC_XOF_CSHAKE128]) wc_caps_add(&c, WEBCRYPTO_ALG_CSHAKE128);
    if (wc_ossl_md_shake[WC_XOF_CSHAKE256]) wc_caps_add(&c, WEBCRYPTO_ALG_CSHAKE256);
    if (wc_ossl_mac_kmac[WC_KMAC_128]) wc_caps_add(&c, WEBCRYPTO_ALG_KMAC128);
    if (wc_ossl_mac_kmac[WC_KMAC_256]) wc_caps_add(&c, WEBCRYPTO_ALG_KMAC256);
    /* OpenSSL's SHAKE and KMAC take any output length, KMAC any customization:
     * the known answers above asked for lengths other than the defaults and
     * (KMAC256) a customization. */
    if (wc_ossl_md_shake[WC_XOF_CSHAKE128] || wc_ossl_md_shake[WC_XOF_CSHAKE256])
        c.features |= WC_CAP_XOF_ANY_LENGTH;
    if (wc_ossl_mac_kmac[WC_KMAC_128] || wc_ossl_mac_kmac[WC_KMAC_256]) c.features |= WC_CAP_KMAC_ANY;
    if (wc_ossl_md_shake[WC_XOF_CSHAKE128] && wc_ossl_md_shake[WC_XOF_CSHAKE256] &&
        wc_ossl_cshake_probe())
        c.features |= WC_CAP_CSHAKE_CUSTOM;
    /* SHA-3 with the keyed algorithms: HMAC, HKDF and PBKDF2 are built here
     * on the digests, and OpenSSL's RSA (PKCS #1 v1.5 DigestInfo, PSS, OAEP)
     * and ECDSA take any fetched digest, SHA-3 included. */
    if (wc_ossl_md_by_hash[WC_HASH_SHA3_256] && wc_ossl_md_by_hash[WC_HASH_SHA3_384] &&
        wc_ossl_md_by_hash[WC_HASH_SHA3_512])
        c.features |= WC_CAP_SHA3_HMAC | WC_CAP_SHA3_HKDF | WC_CAP_SHA3_PBKDF2 |
                      WC_CAP_SHA3_RSASSA_PKCS1_V1_5 | WC_CAP_SHA3_RSA_PSS |
                      WC_CAP_SHA3_RSA_OAEP | WC_CAP_SHA3_ECDSA;

    /* HMAC is built on the digests (RFC 2104), so it needs only them; a key
     * whose hash is missing is refused when it is made. */
    if (any_md) wc_caps_add(&c, WEBCRYPTO_ALG_HMAC);
    if (cbc) wc_caps_add(&c, WEBCRYPTO_ALG_AES_CBC);
    if (ctr) wc_caps_add(&c, WEBCRYPTO_ALG_AES_CTR);
    if (gcm) wc_caps_add(&c, WEBCRYPTO_ALG_AES_GCM);
    if (kw) wc_caps_add(&c, WEBCRYPTO_ALG_AES_KW);
    if (gcm_siv) wc_caps_add(&c, WEBCRYPTO_ALG_AES_GCM_SIV);
    if (any_md) wc_caps_add(&c, WEBCRYPTO_ALG_HKDF); /* built on HMAC, below */
    /* PBKDF2: RFC 6070's first case, on SHA-1 (openssl_probe.c) */
    if (wc_ossl_kdf_pbkdf2 && wc_ossl_md_by_hash[WC_HASH_SHA_1] &&
        wc_ossl_kat_pbkdf2(wc_ossl_kdf_pbkdf2, wc_ossl_md_by_hash[WC_HASH_SHA_1]))
        wc_caps_add(&c, WEBCRYPTO_ALG_PBKDF2);
    if (chacha) wc_caps_add(&c, WEBCRYPTO_ALG_CHACHA20_POLY1305);
    if (ocb) wc_caps_add(&c, WEBCRYPTO_ALG_AES_OCB);
    if (wc_ossl_argon2_init()) /* OpenSSL's KDFs or libargon2 */
        wc_caps_add_all(&c, WEBCRYPTO_ALG_ARGON2D, WEBCRYPTO_ALG_ARGON2I, WEBCRYPTO_ALG_ARGON2ID);
    wc_ossl_pkey_init(&c); /* RSA, EC, OKP, ML-KEM, ML-DSA: each probed */
    if (wc_caps_no_alg(&c)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: no algorithm could be fetched");

    description_text = OpenSSL_version(OPENSSL_VERSION);
    *caps = c;
    *description = description_text;
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_secret_key_new(const void *bctx, wc_family family,
                                            unsigned member, const uint8_t *key, size_t key_len,
                                            void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_HMAC: return wc_ossl_hmac_key_new((wc_hash)member, key, key_len, state);
    case WC_FAMILY_AEAD:
        switch ((wc_aead)member) {
        case WC_AEAD_AES_GCM:
        case WC_AEAD_CHACHA20_POLY1305:
        case WC_AEAD_AES_OCB: return wc_ossl_aes_key_new(family, member, key, key_len, state);
        case WC_AEAD_AES_GCM_SIV: return wc_ossl_gcm_siv_key_new(key, key_len, state);
        case WC_AEAD_COUNT: break;
        }
        break;
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_KEYWRAP: return wc_ossl_aes_key_new(family, member, key, key_len, state);
    case WC_FAMILY_KDF:
        /* The KDFs take the raw key from the core on every call. */
        *state = NULL;
        return WEBCRYPTO_OK;
    case WC_FAMILY_KMAC: return wc_ossl_kmac_key_new((wc_kmac)member, key, key_len, state);
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_XOF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such secret key");
}

static void ossl_secret_key_free(void *state) {
    if (!state) return;
    /* The state's kind is its head's family and member, as secret_key_new
     * chose it (the KDFs keep none: state is NULL). */
    const wc_ossl_key_head *head = state;
    switch (head->family) {
    case WC_FAMILY_HMAC: wc_ossl_hmac_state_free(state); return;
    case WC_FAMILY_KMAC:
        wc_wipe(state, sizeof(kmac_state));
        free(state);
        return;
    case WC_FAMILY_AEAD:
        switch ((wc_aead)head->member) {
        case WC_AEAD_AES_GCM_SIV: wc_ossl_gcm_siv_key_free(state); return;
        case WC_AEAD_AES_GCM:
        case WC_AEAD_CHACHA20_POLY1305:
        case WC_AEAD_AES_OCB: wc_ossl_aes_state_free(state); return;
        case WC_AEAD_COUNT: break;
        }
        break;
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_KEYWRAP: wc_ossl_aes_state_free(state); return;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_KDF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF: break;
    }
}

/* The backend's functions, called through the fork and exit gate (gate.c). */
const wc_backend_ops wc_backend_openssl_ungated = {
    .name = "openssl",
    .init = ossl_init,
    .random_bytes = wc_ossl_random_bytes,
    .digest = wc_ossl_digest_oneshot,
    .digest_new = wc_ossl_digest_new,
    .digest_update = wc_ossl_digest_update,
    .digest_final = wc_ossl_digest_final,
    .digest_free = wc_ossl_digest_free,
    .secret_key_new = ossl_secret_key_new,
    .secret_key_free = ossl_secret_key_free,
    .hmac = wc_ossl_hmac,
    .hmac_new = wc_ossl_hmac_new,
    .hmac_update = wc_ossl_hmac_update,
    .hmac_final = wc_ossl_hmac_final,
    .hmac_free = wc_ossl_hmac_free,
    .cipher = wc_ossl_cipher,
    .aead_seal = wc_ossl_aead_seal,
    .aead_open = wc_ossl_aead_open,
    .aes_kw_wrap = wc_ossl_aes_kw_wrap,
    .aes_kw_unwrap = wc_ossl_aes_kw_unwrap,
    .pkey_import = wc_ossl_pkey_import,
    .pkey_generate = wc_ossl_pkey_generate,
    .pkey_fields = wc_ossl_pkey_fields,
    .pkey_private_fields = wc_ossl_pkey_private_fields,
    .pkey_free = wc_ossl_pkey_free,
    .rsa_sign = wc_ossl_rsa_sign,
    .rsa_verify = wc_ossl_rsa_verify,
    .rsa_oaep_encrypt = wc_ossl_rsa_oaep_encrypt,
    .rsa_oaep_decrypt = wc_ossl_rsa_oaep_decrypt,
    .ecdsa_sign = wc_ossl_ecdsa_sign,
    .ecdsa_verify = wc_ossl_ecdsa_verify,
    .ecdh = wc_ossl_ecdh,
    .okp_sign = wc_ossl_okp_sign,
    .okp_verify = wc_ossl_okp_verify,
    .okp_derive = wc_ossl_okp_derive,
    .ml_kem_encapsulate = wc_ossl_ml_kem_encapsulate,
    .ml_kem_decapsulate = wc_ossl_ml_kem_decapsulate,
    .ml_dsa_sign = wc_ossl_ml_dsa_sign,
    .ml_dsa_verify = wc_ossl_ml_dsa_verify,
    .hkdf = wc_ossl_hkdf,
    .pbkdf2 = wc_ossl_pbkdf2,
    .xof = wc_ossl_xof,
    .kmac = wc_ossl_kmac,
    .argon2 = wc_ossl_argon2,
};
