/*
 * openssl_internal.h - what the openssl backend's files share: the helpers
 * and fetched algorithms of openssl_common.c, the key states and the
 * functions each part gives the ops table (openssl_backend.c), and the
 * asymmetric half (openssl_pkey.c), whose functions follow backend.h's
 * contract for the ops of the same names. The parts never call
 * openssl_backend.c.
 */
#ifndef WEBCRYPTO_OPENSSL_INTERNAL_H
#define WEBCRYPTO_OPENSSL_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "core/backend.h"
#include "provider_direct.h"
#include "thread_cache.h"

/* The first member of every secret-key state: the key's family and member
 * (secret_key_free tells the states apart by it). */
typedef struct wc_ossl_key_head {
    wc_family family;
    unsigned member;
} wc_ossl_key_head;

/* EVP_*Update take int lengths: feed larger inputs in chunks of this many
 * bytes (a multiple of the AES block, so chunking never splits a block). */
#define OSSL_CHUNK ((size_t)INT_MAX & ~(size_t)15)

/* The longest GCM IV OpenSSL 3.0's provider accepts (bytes); longer ones are
 * reduced to an equivalent 16-byte IV (see gcm_reduce_iv). */
#define GCM_MAX_NATIVE_IV 128
enum { N_HASH = WC_HASH_COUNT, N_AES = 3 };
_Static_assert((int)N_HASH == (int)WC_TC_HASHES, "a thread keeps one digest context per hash");
/* OpenSSL 3.0's KMAC limits (providers/implementations/macs/kmac_prov.c):
 * keys of 4..512 bytes, a customization of at most 512 bytes, an output of
 * at most 0xFFFFFF / 8 bytes. SP 800-185 and WebCrypto have none of these;
 * beyond them the backend answers NotSupportedError. */
#define OSSL_KMAC_MIN_KEY 4
#define OSSL_KMAC_MAX_KEY 512
#define OSSL_KMAC_MAX_CUSTOM 512
#define OSSL_KMAC_MAX_OUT (0xFFFFFF / 8)

/* ---- secret key state ---- */

typedef struct hmac_state {
    wc_ossl_key_head head; /* HMAC and the hash; first, as in every key state */
    size_t md_size;
    wc_tc_key tc;      /* the threads' contexts for this key */
    /* The states that have absorbed K0 ^ ipad and K0 ^ opad: provider
     * contexts where the hash's provider functions were found with dupctx
     * (pd set; provider_direct.h), else EVP contexts. Every HMAC - one-shot,
     * streamed, inside HKDF and PBKDF2 - starts from copies of them. */
    const wc_prov_digest *pd;
    void *pinner, *pouter;
    EVP_MD_CTX *inner;
    EVP_MD_CTX *outer;
} hmac_state;

typedef struct aes_state {
    wc_ossl_key_head head;   /* CIPHER, AEAD (GCM, OCB, ChaCha20-Poly1305) or KEYWRAP; first */
    EVP_CIPHER_CTX *enc;     /* keyed for encryption (CTR and the AEADs: both ways) */
    EVP_CIPHER_CTX *dec;     /* CBC and KW: keyed for decryption */
    bool have_h;             /* GCM: h holds the hash subkey AES_K(0^128) */
    uint8_t h[16];
    const wc_prov_cipher *prov; /* through the provider's functions (then enc, dec NULL):
                                 * GCM, OCB, ChaCha20-Poly1305 (wc_prov_aead_*), CBC, CTR and
                                 * KW's ECB (wc_prov_mode_*) */
    void *prov_enc, *prov_dec;  /* ... on copies of these, keyed once (CTR, GCM and
                                 * ChaCha20-Poly1305: prov_enc only, used both ways) */
    wc_tc_key tc;            /* the threads' contexts for this key */
} aes_state;
typedef struct kmac_state {
    wc_ossl_key_head head;
    size_t key_len;
    uint8_t key[OSSL_KMAC_MAX_KEY];
} kmac_state;

/* ---- openssl_common.c: the algorithms fetched by init(), indexed by hash
 * or key size ---- */
extern const uint8_t wc_ossl_empty_buf[1];
extern EVP_MD *wc_ossl_md_by_hash[N_HASH]; /* [wc_hash] */
extern EVP_CIPHER *wc_ossl_aes_cbc_ciphers[N_AES]; /* [0] 128, [1] 192, [2] 256 bits */
extern EVP_CIPHER *wc_ossl_aes_ctr_ciphers[N_AES];
extern EVP_CIPHER *wc_ossl_aes_gcm_ciphers[N_AES];
extern wc_prov_digest wc_ossl_prov_digests[N_HASH]; /* [wc_hash] */
extern wc_prov_cipher wc_ossl_prov_gcms[N_AES];
extern wc_prov_cipher wc_ossl_prov_cbcs[N_AES], wc_ossl_prov_ctrs[N_AES];
extern wc_prov_cipher wc_ossl_prov_ecbs[N_AES];
extern wc_prov_cipher wc_ossl_prov_chacha20_poly1305;
extern wc_prov_cipher wc_ossl_prov_ocbs[N_AES];
extern EVP_CIPHER *wc_ossl_aes_kw_ciphers[N_AES]; /* AES-*-ECB, for RFC 3394 */
extern EVP_KDF *wc_ossl_kdf_pbkdf2;
extern EVP_MD *wc_ossl_md_shake[WC_XOF_COUNT];   /* [wc_xof] */
extern EVP_MD *wc_ossl_md_cshake[WC_XOF_COUNT];  /* [wc_xof]: Keccak with cSHAKE's padding */
extern EVP_MAC *wc_ossl_mac_kmac[WC_KMAC_COUNT]; /* [wc_kmac] */
extern EVP_CIPHER *wc_ossl_aes_ocb_ciphers[N_AES];
extern EVP_CIPHER *wc_ossl_chacha20_poly1305_cipher;

/* The digest fetched at init, and the error helper (OpenSSL's reason in the
 * message, its error queue cleared). */

const EVP_MD *wc_ossl_md(wc_hash hash);
webcrypto_status wc_ossl_fail(const char *what);
/* The backend's one-shot digest (the thread's provider context where it
 * can): out gets the hash's size, EVP_MD_get_size(wc_ossl_md(hash)). */
webcrypto_status wc_ossl_digest(wc_hash hash, const uint8_t *in, size_t len, uint8_t *out);

/* openssl_common.c */
const char *wc_ossl_kdf_digest_name(wc_hash hash);
webcrypto_status wc_ossl_no_memory(const char *what);
webcrypto_status wc_ossl_random_bytes(const void *bctx, uint8_t *out, size_t len);
webcrypto_status wc_ossl_digest_oneshot(const void *bctx, wc_hash hash,
                                        const uint8_t *in, size_t len, uint8_t *out);
webcrypto_status wc_ossl_digest_new(const void *bctx, wc_hash hash, void **ctx);
webcrypto_status wc_ossl_digest_update(void *ctx, const uint8_t *in, size_t len);
webcrypto_status wc_ossl_digest_final(void *ctx, uint8_t *out);
void wc_ossl_digest_free(void *ctx);

/* openssl_cipher.c: the provider path of a key with s->prov: the calling
 * thread's copy of the key's context for a direction (dec: prov_dec's;
 * made on its first call), and dropping one whose call failed. */
void wc_ossl_prov_drop(const aes_state *s, void **slot);
/* Inline: it is on every small message's path. */
static inline webcrypto_status wc_ossl_prov_ctx(const aes_state *s, bool dec, void ***slot) {
    wc_tc_entry *e = wc_tc_entry_get(&s->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    void **p = dec ? &e->prov_dec : &e->prov;
    if (!*p) {
        if (!(*p = s->prov->dupctx(dec ? s->prov_dec : s->prov_enc)))
            return wc_ossl_no_memory("AES context");
        e->prov_free = s->prov->freectx;
    }
    *slot = p;
    return WEBCRYPTO_OK;
}

/* openssl_probe.c: init's known answers (core/known_answers.h), each
 * through the EVP object the backend keeps. */
bool wc_ossl_kat_digest(const EVP_MD *md, wc_hash h);
bool wc_ossl_kat_shake(const EVP_MD *md, wc_xof k);
bool wc_ossl_kat_kmac(EVP_MAC *mac, wc_kmac k);
bool wc_ossl_kat_pbkdf2(EVP_KDF *kdf, const EVP_MD *sha1);
bool wc_ossl_kat_aes(const EVP_CIPHER *aes128);
bool wc_ossl_kat_chacha20_poly1305(const EVP_CIPHER *cipher);

/* openssl_mac_kdf.c */
bool wc_ossl_cshake_probe(void);
void wc_ossl_hmac_state_free(hmac_state *s);
webcrypto_status wc_ossl_hmac_key_new(wc_hash hash, const uint8_t *key,
                                      size_t key_len, void **state);
webcrypto_status wc_ossl_kmac_key_new(wc_kmac kind, const uint8_t *key, size_t key_len,
                                      void **state);
webcrypto_status wc_ossl_kmac(const void *key_state, wc_kmac kind, const uint8_t *cust,
                              size_t cust_len, const uint8_t *in, size_t len, uint8_t *out,
                              size_t out_len);
webcrypto_status wc_ossl_xof(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                             const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                             uint8_t *out, size_t out_len);
webcrypto_status wc_ossl_hmac(const void *key_state, const uint8_t *in, size_t len,
                              uint8_t *out);
webcrypto_status wc_ossl_hmac_new(const void *key_state, void **ctx);
webcrypto_status wc_ossl_hmac_update(void *ctx, const uint8_t *in, size_t len);
webcrypto_status wc_ossl_hmac_final(void *ctx, uint8_t *out);
void wc_ossl_hmac_free(void *ctx);
webcrypto_status wc_ossl_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm,
                              size_t ikm_len,
                              const uint8_t *salt, size_t salt_len, const uint8_t *info,
                              size_t info_len, uint8_t *out, size_t out_len);
webcrypto_status wc_ossl_pbkdf2(const void *bctx, wc_hash hash,
                                const uint8_t *password,
                                size_t password_len, const uint8_t *salt, size_t salt_len,
                                uint32_t iterations, uint8_t *out, size_t out_len);

/* openssl_cipher.c */
void wc_ossl_aes_state_free(aes_state *s);
webcrypto_status wc_ossl_aes_key_new(wc_family family, unsigned member, const uint8_t *key,
                                     size_t key_len, void **state);
webcrypto_status wc_ossl_cipher_start(const EVP_CIPHER_CTX *tpl, int enc, const uint8_t *iv,
                                      size_t iv_len, EVP_CIPHER_CTX **out);
webcrypto_status wc_ossl_cipher_begin(const aes_state *s, int enc, const uint8_t *iv,
                                      size_t iv_len, EVP_CIPHER_CTX ***slot);
webcrypto_status wc_ossl_cipher_done(EVP_CIPHER_CTX **slot, webcrypto_status st);
webcrypto_status wc_ossl_cipher_update(EVP_CIPHER_CTX *c, uint8_t *out, const uint8_t *in,
                                       size_t len);
webcrypto_status wc_ossl_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                                const uint8_t iv[16], const uint8_t *in, size_t len,
                                uint8_t *out);

/* openssl_ghash.c */
void wc_ossl_gcm_reduce_iv(const uint8_t h_bytes[16], const uint8_t *iv, size_t iv_len,
                           uint8_t x_out[16]);

/* openssl_aead.c */
webcrypto_status wc_ossl_aead_seal(const void *key_state, const wc_aead_msg *m);
webcrypto_status wc_ossl_aead_open(const void *key_state, const wc_aead_msg *m);

/* openssl_argon2.c */
webcrypto_status wc_ossl_argon2(const void *bctx, wc_kdf kind, const uint8_t *password,
                                size_t password_len, const uint8_t *nonce, size_t nonce_len,
                                const uint8_t *secret, size_t secret_len, const uint8_t *ad,
                                size_t ad_len, uint32_t parallelism, uint32_t memory,
                                uint32_t passes, uint32_t version, uint8_t *out,
                                size_t out_len);

/* openssl_kw.c */
webcrypto_status wc_ossl_aes_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                     uint8_t *out);
webcrypto_status wc_ossl_aes_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                       uint8_t *out);

/* Fetches what the asymmetric algorithms need, once; adds them to *caps. */
void wc_ossl_pkey_init(wc_caps *c);
webcrypto_status wc_ossl_pkey_import(const void *bctx, wc_family family, unsigned member,
                                     const wc_pkey_fields *f, void **state);
webcrypto_status wc_ossl_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                       size_t modulus_bits, wc_bytes e,
                                       webcrypto_named_curve curve, void **state);
webcrypto_status wc_ossl_pkey_fields(const void *state, wc_pkey_fields *out);
webcrypto_status wc_ossl_pkey_private_fields(const void *state, wc_pkey_fields *out,
                                             uint8_t *buf, size_t cap);
webcrypto_status wc_ossl_ml_kem_encapsulate(const void *state, wc_ml_kem kind, uint8_t *ct,
                                            uint8_t *shared);
webcrypto_status wc_ossl_ml_kem_decapsulate(const void *state, wc_ml_kem kind, const uint8_t *ct,
                                            uint8_t *shared);
webcrypto_status wc_ossl_ml_dsa_sign(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                     size_t ctx_len, const uint8_t *msg, size_t len, uint8_t *sig);
webcrypto_status wc_ossl_ml_dsa_verify(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                       size_t ctx_len, const uint8_t *msg, size_t len,
                                       const uint8_t *sig, size_t sig_len, bool *valid);
void wc_ossl_pkey_free(void *state);
webcrypto_status wc_ossl_rsa_sign(const void *state, wc_rsa_scheme scheme,
                                  wc_hash hash, size_t salt_len, const uint8_t *msg,
                                  size_t len, uint8_t *sig, size_t *sig_len);
webcrypto_status wc_ossl_rsa_verify(const void *state, wc_rsa_scheme scheme,
                                    wc_hash hash, size_t salt_len, const uint8_t *msg,
                                    size_t len, const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status wc_ossl_rsa_oaep_encrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len);
webcrypto_status wc_ossl_rsa_oaep_decrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len);
webcrypto_status wc_ossl_ecdsa_sign(const void *state, wc_hash hash,
                                    const uint8_t *msg, size_t len, uint8_t *sig,
                                    size_t *sig_len);
webcrypto_status wc_ossl_ecdsa_verify(const void *state, wc_hash hash,
                                      const uint8_t *msg, size_t len, const uint8_t *sig,
                                      size_t sig_len, bool *valid);
webcrypto_status wc_ossl_ecdh(const void *private_state, const void *public_state,
                              uint8_t *out, size_t *out_len);
webcrypto_status wc_ossl_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                                  size_t context_len, const uint8_t *msg, size_t len,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len);
webcrypto_status wc_ossl_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                    size_t context_len, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status wc_ossl_okp_derive(const void *private_state, const void *public_state,
                                    wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len);

/* The backend's ops (openssl_backend.c); the registry is given
 * wc_backend_openssl, the same ops through the fork and exit gate (gate.c). */
extern const wc_backend_ops wc_backend_openssl_ungated;

#endif /* WEBCRYPTO_OPENSSL_INTERNAL_H */
