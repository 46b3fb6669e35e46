/*
 * boringssl_internal.h - what boringssl_backend.c and boringssl_pkey.c share
 * inside the module (hidden symbols: the module is built -fvisibility=hidden).
 */
#ifndef WEBCRYPTO_BORINGSSL_INTERNAL_H
#define WEBCRYPTO_BORINGSSL_INTERNAL_H

#include "core/backend.h"

/* Sets the error from BoringSSL's queue (the queue is cleared): OPERATION,
 * or NO_MEMORY for an allocation failure. */
webcrypto_status wc_bssl_fail(const char *what);

/* Fetches the EC groups; adds to *c the asymmetric
 * algorithms that work. */
void wc_bssl_pkey_init(wc_caps *c);

webcrypto_status wc_bssl_pkey_import(const void *bctx, wc_family family, unsigned member,
                                     const wc_pkey_fields *f, void **state);
webcrypto_status wc_bssl_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                       size_t modulus_bits, wc_bytes e,
                                       webcrypto_named_curve curve, void **state);
webcrypto_status wc_bssl_pkey_fields(const void *state, wc_pkey_fields *out);
webcrypto_status wc_bssl_pkey_private_fields(const void *state, wc_pkey_fields *out,
                                             uint8_t *buf, size_t cap);
void wc_bssl_pkey_free(void *state);
webcrypto_status wc_bssl_rsa_sign(const void *state, wc_rsa_scheme scheme,
                                  wc_hash hash, size_t salt_len, const uint8_t *msg,
                                  size_t len, uint8_t *sig, size_t *sig_len);
webcrypto_status wc_bssl_rsa_verify(const void *state, wc_rsa_scheme scheme,
                                    wc_hash hash, size_t salt_len, const uint8_t *msg,
                                    size_t len, const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status wc_bssl_rsa_oaep_encrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len);
webcrypto_status wc_bssl_rsa_oaep_decrypt(const void *state, wc_hash hash,
                                          const uint8_t *label, size_t label_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          size_t *out_len);
webcrypto_status wc_bssl_ecdsa_sign(const void *state, wc_hash hash,
                                    const uint8_t *msg, size_t len, uint8_t *sig,
                                    size_t *sig_len);
webcrypto_status wc_bssl_ecdsa_verify(const void *state, wc_hash hash,
                                      const uint8_t *msg, size_t len, const uint8_t *sig,
                                      size_t sig_len, bool *valid);
webcrypto_status wc_bssl_ecdh(const void *private_state, const void *public_state,
                              uint8_t *out, size_t *out_len);
webcrypto_status wc_bssl_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                                  size_t context_len, const uint8_t *msg, size_t len,
                                  uint8_t *sig, size_t sig_cap, size_t *sig_len);
webcrypto_status wc_bssl_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                    size_t context_len, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status wc_bssl_okp_derive(const void *private_state, const void *public_state,
                                    wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len);

/* The backend's ops, ungated: boringssl_gate.c wraps each in the fork
 * gate, and that table (wc_backend_boringssl) is the one the core sees. */
extern const wc_backend_ops wc_backend_boringssl_ungated;

#endif /* WEBCRYPTO_BORINGSSL_INTERNAL_H */
