/*
 * openssl_common.c - what every part of the openssl backend uses: OpenSSL's
 * errors, the algorithms init() fetches once (init itself is in
 * openssl_backend.c, above the parts it probes), random bytes
 * and the digests (one-shot on the thread's context, and streamed).
 */
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include "core/backend.h"
#include "openssl_internal.h"

/* Stands in for an empty buffer: OpenSSL rejects some NULL, 0 parameters
 * (an HKDF key given as NULL, 0 is "missing key"). */
const uint8_t wc_ossl_empty_buf[1] = {0};

/* ---- algorithms fetched by init(), indexed by hash or key size ---- */

EVP_MD *wc_ossl_md_by_hash[N_HASH];    /* [wc_hash] */
EVP_CIPHER *wc_ossl_aes_cbc_ciphers[N_AES]; /* [0] 128, [1] 192, [2] 256 bits */
EVP_CIPHER *wc_ossl_aes_ctr_ciphers[N_AES];
EVP_CIPHER *wc_ossl_aes_gcm_ciphers[N_AES];
/* Their providers' own functions (provider_direct.h), where found. */
wc_prov_digest wc_ossl_prov_digests[N_HASH]; /* [wc_hash] */
wc_prov_cipher wc_ossl_prov_gcms[N_AES];        /* [0] 128, [1] 192, [2] 256 bits */
wc_prov_cipher wc_ossl_prov_cbcs[N_AES], wc_ossl_prov_ctrs[N_AES]; /* likewise */
wc_prov_cipher wc_ossl_prov_ecbs[N_AES]; /* AES-ECB, for AES-KW */
wc_prov_cipher wc_ossl_prov_chacha20_poly1305;
wc_prov_cipher wc_ossl_prov_ocbs[N_AES];
EVP_CIPHER *wc_ossl_aes_kw_ciphers[N_AES]; /* AES-*-ECB, for RFC 3394 (aes_kw_run) */
EVP_KDF *wc_ossl_kdf_pbkdf2;
EVP_MD *wc_ossl_md_shake[WC_XOF_COUNT];  /* [wc_xof]: SHAKE128, SHAKE256 */
EVP_MD *wc_ossl_md_cshake[WC_XOF_COUNT]; /* [wc_xof]: KECCAK-KMAC-128, -256 (cSHAKE's padding) */
EVP_MAC *wc_ossl_mac_kmac[WC_KMAC_COUNT]; /* [wc_kmac]: KMAC-128, KMAC-256 */
EVP_CIPHER *wc_ossl_aes_ocb_ciphers[N_AES];
EVP_CIPHER *wc_ossl_chacha20_poly1305_cipher;

/* Names OpenSSL's KDFs take for their "digest" parameter. */
const char *wc_ossl_kdf_digest_name(wc_hash hash) {
    switch (hash) {
    case WC_HASH_SHA_1: return "SHA1";
    case WC_HASH_SHA_256: return "SHA2-256";
    case WC_HASH_SHA_384: return "SHA2-384";
    case WC_HASH_SHA_512: return "SHA2-512";
    case WC_HASH_SHA3_256: return "SHA3-256";
    case WC_HASH_SHA3_384: return "SHA3-384";
    case WC_HASH_SHA3_512: return "SHA3-512";
    case WC_HASH_COUNT: break;
    }
    return NULL;
}

/* ---- errors ---- */

/* Sets the thread's message from OpenSSL's most recent error, clears the
 * OpenSSL error queue, and returns OPERATION (NO_MEMORY for malloc failures). */
webcrypto_status wc_ossl_fail(const char *what) {
    unsigned long e = ERR_peek_last_error();
    webcrypto_status st = WEBCRYPTO_ERR_OPERATION;
    char reason[256];
    if (e != 0) {
        ERR_error_string_n(e, reason, sizeof reason);
        if (ERR_GET_REASON(e) == ERR_R_MALLOC_FAILURE) st = WEBCRYPTO_ERR_NO_MEMORY;
    } else {
        strcpy(reason, "no reason given");
    }
    ERR_clear_error();
    return wc_error(st, "OpenSSL: %s failed: %s", what, reason);
}

webcrypto_status wc_ossl_no_memory(const char *what) {
    ERR_clear_error();
    return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "OpenSSL: out of memory (%s)", what);
}

const EVP_MD *wc_ossl_md(wc_hash hash) {
    if ((unsigned)hash >= N_HASH) return NULL;
    return wc_ossl_md_by_hash[hash];
}

/* ---- random ---- */

webcrypto_status wc_ossl_random_bytes(const void *bctx, uint8_t *out, size_t len) {
    (void)bctx;
    while (len > 0) {
        size_t n = len < OSSL_CHUNK ? len : OSSL_CHUNK;
        if (RAND_bytes(out, (int)n) != 1) return wc_ossl_fail("RAND_bytes");
        out += n;
        len -= n;
    }
    return WEBCRYPTO_OK;
}

/* ---- digest ---- */

/* One-shot digests reuse the thread's context for the hash: the provider's
 * own context where init() found the digest's functions (provider_direct.h:
 * EVP_DigestInit_ex would free and re-allocate it on every call), else an
 * EVP context. A context that failed is dropped, not reused. */
webcrypto_status wc_ossl_digest_oneshot(const void *bctx, wc_hash hash,
                                        const uint8_t *in, size_t len, uint8_t *out) {
    (void)bctx;
    const EVP_MD *md = wc_ossl_md(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    wc_tc_digest *slot = wc_tc_digest_slot((unsigned)hash);
    if (!slot) return WEBCRYPTO_ERR_NO_MEMORY;
    const wc_prov_digest *pd = &wc_ossl_prov_digests[hash];
    if (pd->newctx) {
        if (!slot->prov) {
            if (!(slot->prov = pd->newctx(pd->provctx))) return wc_ossl_no_memory("digest context");
            slot->prov_free = pd->freectx;
        }
        if (!wc_prov_digest_run(pd, slot->prov, in, len, out)) {
            pd->freectx(slot->prov);
            slot->prov = NULL;
            return wc_ossl_fail("digest");
        }
        return WEBCRYPTO_OK;
    }
    EVP_MD_CTX *c = slot->evp;
    int ok;
    if (c) {
        ok = EVP_DigestInit_ex(c, NULL, NULL);
    } else {
        if (!(c = EVP_MD_CTX_new())) return wc_ossl_no_memory("EVP_MD_CTX_new");
        slot->evp = c;
        ok = EVP_DigestInit_ex2(c, md, NULL);
    }
    if (ok != 1 || (len > 0 && EVP_DigestUpdate(c, in, len) != 1) ||
        EVP_DigestFinal_ex(c, out, NULL) != 1) {
        EVP_MD_CTX_free(c);
        slot->evp = NULL;
        return wc_ossl_fail("digest");
    }
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_digest(wc_hash hash, const uint8_t *in, size_t len, uint8_t *out) {
    return wc_ossl_digest_oneshot(NULL, hash, in, len, out);
}

webcrypto_status wc_ossl_digest_new(const void *bctx, wc_hash hash, void **ctx) {
    (void)bctx;
    const EVP_MD *md = wc_ossl_md(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_MD_CTX_new");
    if (EVP_DigestInit_ex2(c, md, NULL) != 1) {
        EVP_MD_CTX_free(c);
        return wc_ossl_fail("EVP_DigestInit_ex2");
    }
    *ctx = c;
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_digest_update(void *ctx, const uint8_t *in, size_t len) {
    if (len == 0) return WEBCRYPTO_OK;
    if (EVP_DigestUpdate(ctx, in, len) != 1) return wc_ossl_fail("EVP_DigestUpdate");
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_digest_final(void *ctx, uint8_t *out) {
    if (EVP_DigestFinal_ex(ctx, out, NULL) != 1) return wc_ossl_fail("EVP_DigestFinal_ex");
    return WEBCRYPTO_OK;
}

void wc_ossl_digest_free(void *ctx) { EVP_MD_CTX_free(ctx); }
