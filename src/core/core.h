/*
 * core.h - what the core's files share: the backend handle, the key object,
 * and the validation helpers every operation uses. Not installed.
 */
#ifndef WEBCRYPTO_CORE_CORE_H
#define WEBCRYPTO_CORE_CORE_H

#include <stdatomic.h>

#include "backend.h"
#include "params.h"

struct webcrypto_backend {
    const char *name;
    bool module;               /* loaded from webcrypto-<name>.so on first use */
    const wc_backend_ops *ops; /* set at start for modules */
    bool variants;             /* accepts "name:variant" */
    const char *variant;       /* for a variant handle: what follows the colon */
    void *bctx;                /* the backend's context from init */
    atomic_int state; /* 0: not started, 1: ready, 2: failed (see init_status) */
    uint64_t caps;
    const char *description;
    webcrypto_status init_status;
    char init_message[512]; /* room for a module's path and both ABI versions */
};

struct webcrypto_key {
    const webcrypto_backend *backend;
    webcrypto_key_type type;
    webcrypto_algorithm alg;
    webcrypto_algorithm hash; /* HMAC and RSA */
    size_t length_bits;       /* AES and HMAC; RSA: the modulus length */
    webcrypto_named_curve curve; /* ECDSA, ECDH */
    uint8_t exponent[16];        /* RSA public exponent, big-endian */
    size_t exponent_len;
    bool extractable;
    unsigned usages;
    uint8_t *secret; /* raw key bytes, wiped on free */
    size_t secret_len;
    void *state; /* the backend's prepared state (pkey_* for public/private keys) */
};

/* One past the last webcrypto_algorithm value: the size of tables indexed by
 * algorithm. Kept here, not in the public header, so that it can grow. */
#define WC_ALG_COUNT ((unsigned)WEBCRYPTO_ALG_X25519 + 1u)

#define WC_ALL_USAGES 0xffu
#define WC_AES_USAGES                                                                     \
    (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_WRAP_KEY |     \
     WEBCRYPTO_USAGE_UNWRAP_KEY)
#define WC_HMAC_USAGES (WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY)
#define WC_KDF_USAGES (WEBCRYPTO_USAGE_DERIVE_KEY | WEBCRYPTO_USAGE_DERIVE_BITS)

/* ---- algorithms.c ---- */
bool wc_is_hash(webcrypto_algorithm alg);
bool wc_is_aes(webcrypto_algorithm alg);
bool wc_is_rsa(webcrypto_algorithm alg);
bool wc_is_ec(webcrypto_algorithm alg);
bool wc_is_okp(webcrypto_algorithm alg);
bool wc_is_asymmetric(webcrypto_algorithm alg);
/* The usages a public / private key of an asymmetric algorithm may have. */
unsigned wc_public_usages(webcrypto_algorithm alg);
unsigned wc_private_usages(webcrypto_algorithm alg);
/* Whether an AES algorithm takes keys of this many bytes (GCM-SIV: 16, 32). */
bool wc_aes_key_len_ok(webcrypto_algorithm alg, size_t len);
/* Block size of a SHA hash in bits (HMAC's default key length). */
size_t wc_hash_block_bits(webcrypto_algorithm hash);
/* The usages an algorithm's keys may have. */
unsigned wc_allowed_usages(webcrypto_algorithm alg);
/* Normalises a hash member: absent is TypeError, a non-hash NotSupportedError,
 * one the backend lacks NotSupportedError. */
webcrypto_status wc_check_hash(const webcrypto_backend *backend, webcrypto_algorithm hash);
/* A known algorithm that `backend` implements, else NotSupportedError. */
webcrypto_status wc_check_algorithm(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                    const char *operation);
/* "encrypt, decrypt" for messages. */
void wc_usages_to_string(unsigned usages, char *buf, size_t cap);

/* ---- jvm.c: the JavaVM* a host handed over (NULL if none); the jca
 * backend's init reads it and then calls wc_host_java_vm_lock() so that later
 * webcrypto_jca_set_java_vm calls fail. ---- */
void *wc_host_java_vm(void);
void wc_host_java_vm_lock(void);
/* The jca backend's side of webcrypto_jca_use_provider (arguments checked
 * non-NULL by jvm.c). */
webcrypto_status wc_jca_use_provider(const char *variant_name, void *provider);

/* ---- registry.c ---- */
/* Resolves NULL to the default backend and makes sure it is initialised. */
webcrypto_status wc_backend_resolve(const webcrypto_backend *in, const webcrypto_backend **out);

/* ---- key.c ---- */
/* Makes a secret key from raw bytes (copied); the backend prepares its state.
 * Checks nothing WebCrypto-level: callers did. */
webcrypto_status wc_key_new_secret(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                   webcrypto_algorithm hash, const uint8_t *bytes, size_t len,
                                   size_t length_bits, bool extractable, unsigned usages,
                                   webcrypto_key **out);
/* The checks every keyed operation starts with: params and key present, the
 * algorithm implemented and offering `op` (a usage bit naming the operation:
 * NotSupportedError), params->name equal to the key's algorithm, and the key
 * granted `key_usage` (InvalidAccessError otherwise). key_usage differs from op
 * when wrapKey encrypts (op ENCRYPT, key_usage WRAP_KEY) or deriveKey derives
 * bits. */
webcrypto_status wc_check_key_op(const webcrypto_params *alg, const webcrypto_key *key,
                                 unsigned op, unsigned key_usage, const char *operation);
/* The spec's normalisation of an operation's params, which comes before any
 * check of the key: the algorithm known, implemented and offering `op`
 * (NotSupportedError, or TypeError when absent), and the members the
 * operation requires (ECDSA sign/verify and HKDF/PBKDF2 deriveBits: a hash;
 * ECDH/X25519 deriveBits: public_key). wc_check_key_op starts with it. */
webcrypto_status wc_normalize_op(const webcrypto_backend *backend, const webcrypto_params *alg,
                                 unsigned op, const char *operation);

/* ---- cipher.c / derive.c: the operations after the key checks ---- */
webcrypto_status wc_cipher_oneshot(bool encrypt, const webcrypto_params *alg,
                                   const webcrypto_key *key, const uint8_t *data, size_t data_len,
                                   uint8_t *out, size_t out_cap, size_t *out_len);
webcrypto_status wc_derive_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                size_t length_bits, uint8_t *out, size_t out_cap);

/* ---- pkey.c: asymmetric keys ---- */
webcrypto_status wc_pkey_import(const webcrypto_backend *backend, webcrypto_key_format format,
                                const uint8_t *data, size_t len, const webcrypto_params *alg,
                                bool extractable, unsigned usages, webcrypto_key **out);
webcrypto_status wc_pkey_export(webcrypto_key_format format, const webcrypto_key *key,
                                uint8_t **out, size_t *out_len);
/* The sizes of what a key's operations write: signature, ciphertext, secret. */
size_t wc_pkey_output_size(const webcrypto_key *key);
/* sign.c / cipher.c / derive.c call these for asymmetric algorithms after the
 * key checks. */
webcrypto_status wc_pkey_sign(const webcrypto_params *alg, const webcrypto_key *key,
                              const uint8_t *data, size_t len, uint8_t *out, size_t out_cap,
                              size_t *out_len);
webcrypto_status wc_pkey_verify(const webcrypto_params *alg, const webcrypto_key *key,
                                const uint8_t *sig, size_t sig_len, const uint8_t *data,
                                size_t len, bool *valid);
webcrypto_status wc_pkey_crypt(bool encrypt, const webcrypto_params *alg, const webcrypto_key *key,
                               const uint8_t *data, size_t len, uint8_t *out, size_t out_cap,
                               size_t *out_len);
webcrypto_status wc_pkey_derive(const webcrypto_params *alg, const webcrypto_key *key,
                                size_t length_bits, uint8_t *out, size_t out_cap);

/* ---- jwk.c ---- */
/* What an asymmetric JWK import is asked for. */
typedef struct wc_pkey_request {
    webcrypto_algorithm alg, hash;
    webcrypto_named_curve curve;
    bool extractable;
    unsigned usages, public_usages, private_usages;
    size_t json_len; /* set by wc_jwk_import_pkey */
} wc_pkey_request;
/* A parsed asymmetric JWK: f points into buf, which is wiped on free. */
typedef struct wc_jwk_pkey {
    wc_pkey_fields f;
    uint8_t *buf;
    size_t buf_len, buf_cap;
} wc_jwk_pkey;
webcrypto_status wc_jwk_import_pkey(const uint8_t *json, size_t json_len,
                                    const wc_pkey_request *req, wc_jwk_pkey *out);
void wc_jwk_pkey_free(wc_jwk_pkey *k);
webcrypto_status wc_jwk_export_pkey(const webcrypto_key *key, const wc_pkey_fields *f,
                                    uint8_t **out, size_t *out_len);
/* What a secret JWK holds once parsed and checked against the request. */
webcrypto_status wc_jwk_import_secret(const uint8_t *json, size_t json_len,
                                      webcrypto_algorithm alg, webcrypto_algorithm hash,
                                      bool extractable, unsigned usages, uint8_t **key,
                                      size_t *key_len);
webcrypto_status wc_jwk_export_secret(const webcrypto_key *key, uint8_t **out, size_t *out_len);
/* The JWK "alg" for a secret key of this algorithm, hash and byte length. */
const char *wc_jwk_alg_name(webcrypto_algorithm alg, webcrypto_algorithm hash, size_t key_len);
/* Strict base64url without padding (RFC 7515 section 2). decode returns
 * false on any character outside the alphabet, '=', or non-zero spare bits. */
size_t wc_base64url_encoded_len(size_t len);
void wc_base64url_encode(const uint8_t *in, size_t len, char *out);
bool wc_base64url_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len);

/* ---- shared argument checks ---- */
/* Output-buffer convention: with out == NULL, report `needed` and succeed
 * (returns 1); with a short buffer, TypeError and report needed (returns -1
 * via *st); else 0 and the caller proceeds. */
int wc_output_check(size_t needed, const uint8_t *out, size_t out_cap, size_t *out_len,
                    webcrypto_status *st);

#define WC_REQUIRE(cond, what)                                                    \
    do {                                                                          \
        if (!(cond)) return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s", what); \
    } while (0)

#endif /* WEBCRYPTO_CORE_CORE_H */
