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
const EVP_MD *wc_ossl_md(webcrypto_algorithm hash);
webcrypto_status wc_ossl_fail(const char *what);

/* Fetches what the asymmetric algorithms need, once; returns their WC_CAP bits. */
uint64_t wc_ossl_pkey_init(void);
webcrypto_status wc_ossl_pkey_import(const void *bctx, webcrypto_algorithm kind,
                                     const wc_pkey_fields *f, void **state);
webcrypto_status wc_ossl_pkey_generate(const void *bctx, webcrypto_algorithm kind,
                                       size_t modulus_bits, wc_bytes e,
                                       webcrypto_named_curve curve, void **state);
webcrypto_status wc_ossl_pkey_fields(const void *state, wc_pkey_fields *out);
void wc_ossl_pkey_free(void *state);
webcrypto_status wc_ossl_rsa_sign(const void *state, wc_rsa_padding padding,
                                  webcrypto_algorithm hash, size_t salt_len, const uint8_t *msg,
                                  size_t len, uint8_t *sig, size_t *sig_len);
webcrypto_status wc_ossl_rsa_verify(const void *state, wc_rsa_padding padding,
                                    webcrypto_algorithm hash, size_t salt_len, const uint8_t *msg,
                                    size_t len, const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status wc_ossl_rsa_oaep_encrypt(const void *state, webcrypto_algorithm hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len);
webcrypto_status wc_ossl_rsa_oaep_decrypt(const void *state, webcrypto_algorithm hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len);
webcrypto_status wc_ossl_ecdsa_sign(const void *state, webcrypto_algorithm hash,
                                    const uint8_t *msg, size_t len, uint8_t *sig,
                                    size_t *sig_len);
webcrypto_status wc_ossl_ecdsa_verify(const void *state, webcrypto_algorithm hash,
                                      const uint8_t *msg, size_t len, const uint8_t *sig,
                                      size_t sig_len, bool *valid);
webcrypto_status wc_ossl_ed25519_sign(const void *state, const uint8_t *msg, size_t len,
                                      uint8_t sig[64]);
webcrypto_status wc_ossl_ed25519_verify(const void *state, const uint8_t *msg, size_t len,
                                        const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status wc_ossl_ecdh(const void *private_state, const void *public_state,
                              uint8_t *out, size_t *out_len);
webcrypto_status wc_ossl_x25519(const void *private_state, const void *public_state,
                                uint8_t out[32]);

#endif /* WEBCRYPTO_OPENSSL_INTERNAL_H */
