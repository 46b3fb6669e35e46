/*
 * gcm_siv.h - AES-GCM-SIV (RFC 8452) for the openssl backend, built from
 * OpenSSL's AES (ECB) and our POLYVAL, since OpenSSL 3.0 has no GCM-SIV.
 * The functions follow backend.h's contract for secret_key_new (WC_FAMILY_AEAD,
 * WC_AEAD_AES_GCM_SIV), secret_key_free, aead_seal and aead_open (nonce 12
 * and tag 16 bytes).
 */
#ifndef WEBCRYPTO_OPENSSL_GCM_SIV_H
#define WEBCRYPTO_OPENSSL_GCM_SIV_H

#include "core/backend.h"

/* Fetches AES-128-ECB and AES-256-ECB; called once from the backend's init.
 * Returns false if either is missing (then GCM-SIV is not offered); fetch
 * errors are left on OpenSSL's queue for init to clear. */
bool wc_ossl_gcm_siv_init(void);

webcrypto_status wc_ossl_gcm_siv_key_new(const uint8_t *key, size_t key_len, void **state);
void wc_ossl_gcm_siv_key_free(void *state);

webcrypto_status wc_ossl_gcm_siv_seal(const void *key_state, const uint8_t nonce[12],
                                      const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t len, uint8_t *out, uint8_t tag[16]);
webcrypto_status wc_ossl_gcm_siv_open(const void *key_state, const uint8_t nonce[12],
                                      const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t len, const uint8_t tag[16], uint8_t *out);

#endif /* WEBCRYPTO_OPENSSL_GCM_SIV_H */
