/*
 * openssl_internal.h - what the openssl backend's files share: two helpers
 * of openssl_backend.c, and the asymmetric half (openssl_pkey.c), whose
 * functions follow backend.h's contract for the ops of the same names.
 */
#ifndef WEBCRYPTO_OPENSSL_INTERNAL_H
#define WEBCRYPTO_OPENSSL_INTERNAL_H

#include <openssl/evp.h>

#include "core/backend.h"

/* From openssl_backend.c: the digest fetched at init, and the error helper
 * (OpenSSL's reason in the message, its error queue cleared). */
/* The first member of every secret-key state: the key's family and member
 * (secret_key_free tells the states apart by it). */
typedef struct wc_ossl_key_head {
    wc_family family;
    unsigned member;
} wc_ossl_key_head;

const EVP_MD *wc_ossl_md(wc_hash hash);
webcrypto_status wc_ossl_fail(const char *what);
/* The backend's one-shot digest (the thread's provider context where it
 * can): out gets the hash's size, EVP_MD_get_size(wc_ossl_md(hash)). */
webcrypto_status wc_ossl_digest(wc_hash hash, const uint8_t *in, size_t len, uint8_t *out);

/* Fetches what the asymmetric algorithms need, once; returns their WC_CAP bits. */
uint64_t wc_ossl_pkey_init(void);
webcrypto_status wc_ossl_pkey_import(const void *bctx, wc_family family, unsigned member,
                                     const wc_pkey_fields *f, void **state);
webcrypto_status wc_ossl_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                       size_t modulus_bits, wc_bytes e,
                                       webcrypto_named_curve curve, void **state);
webcrypto_status wc_ossl_pkey_fields(const void *state, wc_pkey_fields *out);
webcrypto_status wc_ossl_pkey_private_fields(const void *state, wc_pkey_fields *out,
                                             uint8_t *buf, size_t cap);
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
