/*
 * openssl_aead.c - the openssl backend's AEADs: AES-GCM (through the
 * provider's functions where found), ChaCha20-Poly1305 and AES-OCB, and the
 * dispatch on the AEAD member (AES-GCM-SIV is gcm_siv.c).
 */
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "core/backend.h"
#include "gcm_siv.h"
#include "openssl_internal.h"

/* The IV OpenSSL is given: iv itself, or for one it cannot take, its
 * 16-byte equivalent, written to x. (The core has checked the sizes:
 * backend.h.) */
static webcrypto_status gcm_iv(const aes_state *s, const uint8_t **iv, size_t *iv_len,
                               uint8_t x[16]) {
    if (*iv_len <= GCM_MAX_NATIVE_IV) return WEBCRYPTO_OK;
    if (!s->have_h)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL: AES-GCM IVs over %d bytes need AES-CTR, which is unavailable",
                        GCM_MAX_NATIVE_IV);
    wc_ossl_gcm_reduce_iv(s->h, *iv, *iv_len, x);
    *iv = x;
    *iv_len = 16;
    return WEBCRYPTO_OK;
}

/* Starts a GCM call on EVP. */
static webcrypto_status gcm_start(const aes_state *s, int enc, const uint8_t *iv, size_t iv_len,
                                  EVP_CIPHER_CTX ***out) {
    uint8_t x[16];
    webcrypto_status st = gcm_iv(s, &iv, &iv_len, x);
    if (st == WEBCRYPTO_OK) st = wc_ossl_cipher_begin(s, enc, iv, iv_len, out);
    wc_wipe(x, sizeof x);
    return st;
}

/* A failed provider-path call: its context dropped, the error raised (a
 * tag mismatch when opening). Apart, so that aead_prov stays small enough
 * to inline. */
static webcrypto_status aead_prov_failed(const aes_state *s, void **slot, const char *what,
                                         bool sealing) {
    wc_ossl_prov_drop(s, slot);
    if (sealing) return wc_ossl_fail(what);
    ERR_clear_error();
    return wc_error(WEBCRYPTO_ERR_OPERATION,
                    "%s: the authentication tag does not match (wrong key, IV, additional data "
                    "or tag, or altered ciphertext)", what);
}

/* An AEAD call on the provider path (s->prov, the key's context both
 * ways, or OCB's one per direction): seals when m->tag_out is set, else
 * opens, checking m->tag_in; iv and iv_len replace m's nonce (GCM's long
 * IVs). what names the AEAD in messages. */
static inline webcrypto_status aead_prov(const aes_state *s, const char *what,
                                         const wc_aead_msg *m, const uint8_t *iv, size_t iv_len) {
    void **slot = NULL;
    /* OCB opens on a context of its own (prov_dec) */
    webcrypto_status st = wc_ossl_prov_ctx(s, !m->tag_out && s->prov_dec, &slot);
    if (st != WEBCRYPTO_OK) return st;
    /* Opening, the provider compares the tag in constant time (CRYPTO_memcmp). */
    bool ok = m->tag_out ? wc_prov_aead_seal(s->prov, *slot, iv, iv_len, m->aad, m->aad_len,
                                             m->in, m->len, m->out, m->tag_out, m->tag_len)
                         : wc_prov_aead_open(s->prov, *slot, iv, iv_len, m->aad, m->aad_len,
                                             m->in, m->len, m->tag_in, m->tag_len, m->out);
    return ok ? WEBCRYPTO_OK : aead_prov_failed(s, slot, what, m->tag_out != NULL);
}

/* AES-GCM on the provider path, either way (as aead_prov). An IV OpenSSL
 * cannot take is reduced apart (gcm_prov_long_iv), so that the common
 * call has no buffer to wipe. */
static webcrypto_status __attribute__((noinline))
gcm_prov_long_iv(const aes_state *s, const wc_aead_msg *m) {
    uint8_t x[16];
    const uint8_t *iv = m->nonce;
    size_t iv_len = m->nonce_len;
    webcrypto_status st = gcm_iv(s, &iv, &iv_len, x);
    if (st == WEBCRYPTO_OK)
        st = aead_prov(s, m->tag_out ? "AES-GCM encryption" : "AES-GCM", m, iv, iv_len);
    wc_wipe(x, sizeof x);
    return st;
}

static webcrypto_status gcm_prov(const aes_state *s, const wc_aead_msg *m) {
    if (m->nonce_len > GCM_MAX_NATIVE_IV) return gcm_prov_long_iv(s, m);
    return aead_prov(s, m->tag_out ? "AES-GCM encryption" : "AES-GCM", m, m->nonce, m->nonce_len);
}

static webcrypto_status ossl_aes_gcm_seal(const aes_state *s, const wc_aead_msg *m) {
    if (s->prov) return gcm_prov(s, m);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = gcm_start(s, 1, m->nonce, m->nonce_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    uint8_t rest[32];
    int got = 0;
    st = wc_ossl_cipher_update(c, NULL, m->aad, m->aad_len);
    if (st == WEBCRYPTO_OK) st = wc_ossl_cipher_update(c, m->out, m->in, m->len);
    if (st == WEBCRYPTO_OK) {
        if (EVP_CipherFinal_ex(c, rest, &got) != 1 || got != 0)
            st = wc_ossl_fail("EVP_CipherFinal_ex (AES-GCM)");
        else if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, (int)m->tag_len, m->tag_out) != 1)
            st = wc_ossl_fail("getting the AES-GCM tag");
    }
    return wc_ossl_cipher_done(slot, st);
}

static webcrypto_status ossl_aes_gcm_open(const aes_state *s, const wc_aead_msg *m) {
    if (s->prov) return gcm_prov(s, m);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = gcm_start(s, 0, m->nonce, m->nonce_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    uint8_t expected[16], rest[32];
    int got = 0;
    memcpy(expected, m->tag_in, m->tag_len); /* the ctrl takes a non-const pointer */
    if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)m->tag_len, expected) != 1)
        st = wc_ossl_fail("setting the AES-GCM tag");
    if (st == WEBCRYPTO_OK) st = wc_ossl_cipher_update(c, NULL, m->aad, m->aad_len);
    if (st == WEBCRYPTO_OK) st = wc_ossl_cipher_update(c, m->out, m->in, m->len);
    /* OpenSSL compares the tag in constant time (CRYPTO_memcmp). */
    if (st == WEBCRYPTO_OK && (EVP_CipherFinal_ex(c, rest, &got) != 1 || got != 0)) {
        ERR_clear_error();
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "AES-GCM: the authentication tag does not match (wrong key, IV, "
                      "additional data or tag, or altered ciphertext)");
    }
    return wc_ossl_cipher_done(slot, st);
}

/* ---- ChaCha20-Poly1305 and AES-OCB ----
 * The key's context (keyed once, both directions), per thread, as for GCM.
 * OCB holds back a partial last block until EVP_CipherFinal_ex, so the text
 * is fed in whole blocks (OSSL_CHUNK is a multiple of 16) and then its tail;
 * what final writes goes to a local buffer and then to the tail's place.
 * OCB's tag length enters its nonce block (RFC 7253 4.2), so it is set on
 * every call, before any data. */

/* *final_failed: EVP_CipherFinal_ex refused (on decryption: the tag); the
 * status is then OPERATION with no message set, for the caller's. */
static webcrypto_status evp_aead_run(EVP_CIPHER_CTX *c, const char *what, const uint8_t *aad,
                                     size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                                     bool *final_failed) {
    *final_failed = false;
    int got = 0;
    while (aad_len > 0) { /* out NULL: additional data */
        size_t n = aad_len < OSSL_CHUNK ? aad_len : OSSL_CHUNK;
        if (EVP_CipherUpdate(c, NULL, &got, aad, (int)n) != 1) return wc_ossl_fail(what);
        aad += n;
        aad_len -= n;
    }
    size_t done = 0, whole = len & ~(size_t)15;
    while (done < len) {
        size_t n = whole > done ? whole - done : len - done;
        if (n > OSSL_CHUNK) n = OSSL_CHUNK;
        if (EVP_CipherUpdate(c, out + done, &got, in + done, (int)n) != 1)
            return wc_ossl_fail(what);
        if (got < 0 || (size_t)got > n) /* never more than it was given */
            return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: %s output %d bytes for %zu", what,
                            got, n);
        if ((size_t)got != n) { /* a held-back tail: only the last, partial block */
            if (done + n != len || (size_t)got != n - (n & 15))
                return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: %s held back %zu bytes",
                                what, n - (size_t)got);
            done += (size_t)got;
            break;
        }
        done += n;
    }
    uint8_t rest[32];
    got = 0;
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_CipherFinal_ex(c, rest, &got) != 1) {
        st = WEBCRYPTO_ERR_OPERATION; /* the caller's message: a tag mismatch on decryption */
        *final_failed = true;
    } else if (got < 0 || (size_t)got != len - done) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: %s final gave %d bytes, expected %zu",
                      what, got, len - done);
    } else if (got > 0) {
        memcpy(out + done, rest, (size_t)got);
    }
    wc_wipe(rest, sizeof rest);
    return st;
}

/* ChaCha20-Poly1305 and AES-OCB through EVP: what names the AEAD in
 * messages; set_tag_len, the tag length is set before the data (OCB). The
 * member's switch in wc_ossl_aead_seal/_open chooses both. */
static webcrypto_status ossl_evp_aead_seal(const aes_state *s, const char *what,
                                           bool set_tag_len, const wc_aead_msg *m) {
    if (s->prov) /* on the provider path */
        return aead_prov(s, what, m, m->nonce, m->nonce_len);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = wc_ossl_cipher_begin(s, 1, m->nonce, m->nonce_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    if (set_tag_len &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)m->tag_len, NULL) != 1)
        st = wc_ossl_fail("setting the AES-OCB tag length");
    bool final_failed = false;
    if (st == WEBCRYPTO_OK) {
        st = evp_aead_run(c, what, m->aad, m->aad_len, m->in, m->len, m->out, &final_failed);
        if (final_failed) st = wc_ossl_fail(what);
    }
    if (st == WEBCRYPTO_OK &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)m->tag_len, m->tag_out) != 1)
        st = wc_ossl_fail("getting the AEAD tag");
    return wc_ossl_cipher_done(slot, st);
}

static webcrypto_status ossl_evp_aead_open(const aes_state *s, const char *what,
                                           bool set_tag_len, const wc_aead_msg *m) {
    if (s->prov) /* on the provider path */
        return aead_prov(s, what, m, m->nonce, m->nonce_len);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = wc_ossl_cipher_begin(s, 0, m->nonce, m->nonce_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    uint8_t expected[16];
    memcpy(expected, m->tag_in, m->tag_len); /* the ctrl takes a non-const pointer */
    if (set_tag_len &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)m->tag_len, NULL) != 1)
        st = wc_ossl_fail("setting the AES-OCB tag length");
    else if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)m->tag_len, expected) != 1)
        st = wc_ossl_fail("setting the AEAD tag");
    /* OpenSSL compares the tag in constant time (CRYPTO_memcmp) at final;
     * what update wrote to out the core wipes on failure. */
    bool final_failed = false;
    if (st == WEBCRYPTO_OK) {
        st = evp_aead_run(c, what, m->aad, m->aad_len, m->in, m->len, m->out, &final_failed);
        if (final_failed) {
            ERR_clear_error();
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "%s: the authentication tag does not match (wrong key, nonce, "
                          "additional data or tag, or altered ciphertext)", what);
        }
    }
    return wc_ossl_cipher_done(slot, st);
}

webcrypto_status wc_ossl_aead_seal(const void *key_state, const wc_aead_msg *m) {
    switch (m->kind) {
    case WC_AEAD_AES_GCM: return ossl_aes_gcm_seal(key_state, m);
    case WC_AEAD_AES_GCM_SIV: /* nonce 12, tag 16 bytes: the core's */
        return wc_ossl_gcm_siv_seal(key_state, m->nonce, m->aad, m->aad_len, m->in, m->len,
                                    m->out, m->tag_out);
    case WC_AEAD_CHACHA20_POLY1305:
        return ossl_evp_aead_seal(key_state, "ChaCha20-Poly1305", false, m);
    case WC_AEAD_AES_OCB: return ossl_evp_aead_seal(key_state, "AES-OCB", true, m);
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such AEAD");
}

webcrypto_status wc_ossl_aead_open(const void *key_state, const wc_aead_msg *m) {
    switch (m->kind) {
    case WC_AEAD_AES_GCM: return ossl_aes_gcm_open(key_state, m);
    case WC_AEAD_AES_GCM_SIV:
        return wc_ossl_gcm_siv_open(key_state, m->nonce, m->aad, m->aad_len, m->in, m->len,
                                    m->tag_in, m->out);
    case WC_AEAD_CHACHA20_POLY1305:
        return ossl_evp_aead_open(key_state, "ChaCha20-Poly1305", false, m);
    case WC_AEAD_AES_OCB: return ossl_evp_aead_open(key_state, "AES-OCB", true, m);
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such AEAD");
}
