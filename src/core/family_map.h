/*
 * family_map.h - webcrypto_algorithm to the backend contract's family
 * members (backend.h), for the core's calls into backends.
 *
 * PROVISIONAL: written beside the algorithm descriptor table being built in
 * src/core/algorithms.c, so as not to depend on it; after the merge, replace
 * these with the table's mappings (wc_hash_of, wc_okp_of, ...) and delete
 * this file. Each is called only with an algorithm the core has already
 * validated for the family (a hash for wc_hash_from_alg, and so on); the
 * fallbacks below are never reached then.
 */
#ifndef WEBCRYPTO_CORE_FAMILY_MAP_H
#define WEBCRYPTO_CORE_FAMILY_MAP_H

#include "backend.h"

static inline wc_hash wc_hash_from_alg(webcrypto_algorithm a) {
    switch (a) {
    case WEBCRYPTO_ALG_SHA_1: return WC_HASH_SHA_1;
    case WEBCRYPTO_ALG_SHA_256: return WC_HASH_SHA_256;
    case WEBCRYPTO_ALG_SHA_384: return WC_HASH_SHA_384;
    case WEBCRYPTO_ALG_SHA_512: return WC_HASH_SHA_512;
    case WEBCRYPTO_ALG_NONE:
    case WEBCRYPTO_ALG_HMAC:
    case WEBCRYPTO_ALG_AES_CBC:
    case WEBCRYPTO_ALG_AES_CTR:
    case WEBCRYPTO_ALG_AES_GCM:
    case WEBCRYPTO_ALG_HKDF:
    case WEBCRYPTO_ALG_PBKDF2:
    case WEBCRYPTO_ALG_AES_GCM_SIV:
    case WEBCRYPTO_ALG_AES_KW:
    case WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5:
    case WEBCRYPTO_ALG_RSA_PSS:
    case WEBCRYPTO_ALG_RSA_OAEP:
    case WEBCRYPTO_ALG_ECDSA:
    case WEBCRYPTO_ALG_ECDH:
    case WEBCRYPTO_ALG_ED25519:
    case WEBCRYPTO_ALG_X25519: break;
    }
    return WC_HASH_COUNT; /* not a hash: no backend accepts it */
}

static inline wc_okp wc_okp_from_alg(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_X25519 ? WC_OKP_X25519 : WC_OKP_ED25519;
}

static inline bool wc_family_set_(wc_family *f, unsigned *m, wc_family family, unsigned member) {
    *f = family;
    *m = member;
    return true;
}

/* The family of an algorithm whose keys reach a backend, and its member
 * there (secret_key_new, pkey_import, pkey_generate). hash is the key's hash
 * (HMAC's member). false for an algorithm with no backend keys. */
static inline bool wc_family_from_alg(webcrypto_algorithm a, webcrypto_algorithm hash,
                                      wc_family *f, unsigned *m) {
    switch (a) {
    case WEBCRYPTO_ALG_HMAC: return wc_family_set_(f, m, WC_FAMILY_HMAC, wc_hash_from_alg(hash));
    case WEBCRYPTO_ALG_AES_CBC: return wc_family_set_(f, m, WC_FAMILY_CIPHER, WC_CIPHER_AES_CBC);
    case WEBCRYPTO_ALG_AES_CTR: return wc_family_set_(f, m, WC_FAMILY_CIPHER, WC_CIPHER_AES_CTR);
    case WEBCRYPTO_ALG_AES_GCM: return wc_family_set_(f, m, WC_FAMILY_AEAD, WC_AEAD_AES_GCM);
    case WEBCRYPTO_ALG_AES_GCM_SIV:
        return wc_family_set_(f, m, WC_FAMILY_AEAD, WC_AEAD_AES_GCM_SIV);
    case WEBCRYPTO_ALG_AES_KW: return wc_family_set_(f, m, WC_FAMILY_KEYWRAP, 0);
    case WEBCRYPTO_ALG_HKDF: return wc_family_set_(f, m, WC_FAMILY_KDF, WC_KDF_HKDF);
    case WEBCRYPTO_ALG_PBKDF2: return wc_family_set_(f, m, WC_FAMILY_KDF, WC_KDF_PBKDF2);
    case WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5:
        return wc_family_set_(f, m, WC_FAMILY_RSA, WC_RSA_SCHEME_PKCS1_V1_5);
    case WEBCRYPTO_ALG_RSA_PSS: return wc_family_set_(f, m, WC_FAMILY_RSA, WC_RSA_SCHEME_PSS);
    case WEBCRYPTO_ALG_RSA_OAEP: return wc_family_set_(f, m, WC_FAMILY_RSA, WC_RSA_SCHEME_OAEP);
    case WEBCRYPTO_ALG_ECDSA: return wc_family_set_(f, m, WC_FAMILY_EC, WC_EC_ECDSA);
    case WEBCRYPTO_ALG_ECDH: return wc_family_set_(f, m, WC_FAMILY_EC, WC_EC_ECDH);
    case WEBCRYPTO_ALG_ED25519: return wc_family_set_(f, m, WC_FAMILY_OKP, WC_OKP_ED25519);
    case WEBCRYPTO_ALG_X25519: return wc_family_set_(f, m, WC_FAMILY_OKP, WC_OKP_X25519);
    case WEBCRYPTO_ALG_NONE:
    case WEBCRYPTO_ALG_SHA_1:
    case WEBCRYPTO_ALG_SHA_256:
    case WEBCRYPTO_ALG_SHA_384:
    case WEBCRYPTO_ALG_SHA_512: break;
    }
    return false;
}

#endif
