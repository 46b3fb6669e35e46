/*
 * provider_direct.h - the openssl backend's calls into a provider's own
 * functions, for the small-message paths where OpenSSL 3.0's EVP layer
 * costs more than the work (docs/ARCHITECTURE.md, "Provider calls").
 *
 * EVP itself only looks an algorithm up in its provider's dispatch table
 * and calls the functions it finds there; these do the same, once, at the
 * backend's init. A digest or cipher is taken only if exactly one of its
 * provider's implementations carries its name and, on a probe, the
 * functions answer exactly as EVP does; otherwise the caller stays on EVP.
 * The EVP_MD / EVP_CIPHER the functions came from must outlive every
 * context made with them (it holds the provider loaded): the backend keeps
 * its fetched algorithms for the life of the process.
 */
#ifndef WEBCRYPTO_OPENSSL_PROVIDER_DIRECT_H
#define WEBCRYPTO_OPENSSL_PROVIDER_DIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

/* Whether the provider paths may be used: false when
 * WEBCRYPTO_OPENSSL_PROVIDER_DIRECT=0 (docs/ENVIRONMENT.md). Read once. */
bool wc_prov_direct_enabled(void);

/* A fixed-length digest's functions (newctx NULL: not found). */
typedef struct wc_prov_digest {
    OSSL_FUNC_digest_newctx_fn *newctx;
    OSSL_FUNC_digest_init_fn *init;
    OSSL_FUNC_digest_update_fn *update;
    OSSL_FUNC_digest_final_fn *final;
    OSSL_FUNC_digest_freectx_fn *freectx;
    OSSL_FUNC_digest_dupctx_fn *dupctx; /* NULL if absent or not as EVP on the probe */
    void *provctx; /* the provider's context, for newctx */
    size_t size;   /* the digest's length in bytes */
} wc_prov_digest;

/* Fills *pd from md's provider, or zeroes it. Leaves errors on OpenSSL's
 * queue for the caller to clear. */
void wc_prov_digest_find(const EVP_MD *md, wc_prov_digest *pd);

/* One digest of in[0..len) into out (pd->size bytes) on c, a context from
 * pd->newctx, used or not. */
bool wc_prov_digest_run(const wc_prov_digest *pd, void *c, const uint8_t *in, size_t len,
                        uint8_t *out);

/* Finishes a copy of c (pd->dupctx) after absorbing a, b and d (any may be
 * empty) into out, and frees the copy; c is unchanged. For HMAC, whose key
 * state is two digest contexts that have absorbed the padded key. */
bool wc_prov_digest_finish_copy(const wc_prov_digest *pd, const void *c, const uint8_t *a,
                                size_t a_len, const uint8_t *b, size_t b_len, const uint8_t *d,
                                size_t d_len, uint8_t *out);

/* A cipher's functions (newctx NULL: not found): an AEAD (AES-GCM,
 * AES-OCB, ChaCha20-Poly1305), or AES-CBC or AES-CTR (the "modes" below). A context is keyed once (wc_prov_aead_new,
 * wc_prov_mode_new), copied per thread with dupctx, and freed with freectx,
 * which cleanses the key schedule. */
typedef struct wc_prov_cipher {
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_dupctx_fn *dupctx;
    OSSL_FUNC_cipher_encrypt_init_fn *einit;
    OSSL_FUNC_cipher_decrypt_init_fn *dinit;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_cipher_fn *cipher; /* the one-shot EVP_Cipher calls; NULL if absent */
    OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
    void *provctx;
    size_t key_len; /* bytes */
    bool ocb;       /* AES-OCB: its tag length is set at init */
} wc_prov_cipher;

/* Fills *pg from cipher's provider (an AES-GCM, AES-OCB or
 * ChaCha20-Poly1305 EVP_CIPHER), or zeroes it. Leaves errors on OpenSSL's queue for the
 * caller to clear. */
void wc_prov_aead_find(const EVP_CIPHER *cipher, wc_prov_cipher *pg);

/* A new context keyed with key (pg->key_len bytes), or NULL. One context
 * serves both ways, but for OCB, whose provider chooses its bulk function
 * by the direction the key was set for: it takes one keyed with enc false
 * to open. */
void *wc_prov_aead_new(const wc_prov_cipher *pg, const uint8_t *key, bool enc);

/* Seals on c (keyed by wc_prov_aead_new, possibly a dupctx copy): iv of
 * 1..128 bytes (ChaCha20-Poly1305: 12; OCB: 1..15), aad, in -> out (len
 * bytes), then tag_len (1..16; OCB: the tag length it computes for) bytes
 * of tag. False on any failure (the context should then be dropped). */
bool wc_prov_aead_seal(const wc_prov_cipher *pg, void *c, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      uint8_t *out, uint8_t *tag, size_t tag_len);

/* Opens on c: writes len bytes to out and answers whether the tag verified
 * (the provider compares it in constant time). False also on any other
 * failure; out then holds unauthenticated bytes the caller must discard. */
bool wc_prov_aead_open(const wc_prov_cipher *pg, void *c, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out);

/* AES-CBC (no padding: whole blocks), AES-CTR or AES-ECB (whole blocks;
 * AES-KW's, which then calls update alone, block by block, on a context
 * re-initialised by wc_prov_mode_run or fresh from dupctx), cipher's mode:
 * fills *pc
 * from cipher's provider, or zeroes it, as wc_prov_aead_find (its probe:
 * EVP's output both ways, each re-initialised with another IV). */
void wc_prov_mode_find(const EVP_CIPHER *cipher, wc_prov_cipher *pc);

/* A new context keyed with key (pc->key_len bytes) for encryption (enc) or
 * decryption, CBC without padding; NULL on failure. */
void *wc_prov_mode_new(const wc_prov_cipher *pc, const uint8_t *key, bool enc);

/* len bytes (CBC: whole blocks) through c, keyed by wc_prov_mode_new (or a
 * dupctx copy) in the direction enc, from the IV or initial counter block
 * iv. False on any failure (the context should then be dropped; out holds
 * nothing the caller may use). */
static inline bool wc_prov_mode_run(const wc_prov_cipher *pc, void *c, bool enc,
                                    const uint8_t iv[16], const uint8_t *in, size_t len,
                                    uint8_t *out) {
    /* Inline: it is every small CBC and CTR message's path. */
    size_t n = 0, m = 0;
    /* init with only an IV keeps the key schedule and resets the chaining
     * (CBC) or counter and keystream position (CTR). */
    if ((enc ? pc->einit : pc->dinit)(c, NULL, 0, iv, 16, NULL) != 1) return false;
    /* The provider's one-shot function where it has one: the mode's work
     * alone, without update's block buffering or a final (the probe holds
     * it to EVP's output as it does update). */
    if (pc->cipher) return len == 0 || (pc->cipher(c, out, &n, len, in, len) == 1 && n == len);
    uint8_t rest[16];
    if (len > 0 && (pc->update(c, out, &n, len, in, len) != 1 || n != len)) return false;
    return pc->final(c, rest, &m, sizeof rest) == 1 && m == 0;
}

#endif /* WEBCRYPTO_OPENSSL_PROVIDER_DIRECT_H */
