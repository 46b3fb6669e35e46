/*
 * kem.c - key encapsulation: the draft's encapsulateBits/Key and
 * decapsulateBits/Key ("Modern Algorithms in the Web Cryptography API"),
 * for ML-KEM (FIPS 203). The checks are the draft's, in its order; the
 * backend does ML-KEM.Encaps / ML-KEM.Decaps only.
 */
#include <string.h>

#include "core.h"

/* The normalisation ("encapsulate" / "decapsulate"), the key's algorithm
 * and usage (InvalidAccessError), then the key's type: a public key
 * encapsulates, a private key decapsulates. */
static webcrypto_status check_kem_key(const webcrypto_params *alg, const webcrypto_key *key,
                                      unsigned usage, const char *operation) {
    webcrypto_status st = wc_check_key_op(alg, key, usage, usage, operation);
    if (st != WEBCRYPTO_OK) return st;
    bool encaps = usage & (WEBCRYPTO_USAGE_ENCAPSULATE_BITS | WEBCRYPTO_USAGE_ENCAPSULATE_KEY);
    webcrypto_key_type want = encaps ? WEBCRYPTO_KEY_PUBLIC : WEBCRYPTO_KEY_PRIVATE;
    if (key->type != want)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "%s needs a %s key", operation,
                        encaps ? "public" : "private");
    return WEBCRYPTO_OK;
}

/* Encapsulates with key into ct (cap checked) and shared[32]. */
static webcrypto_status encapsulate(const webcrypto_key *key, uint8_t *ct, size_t ct_cap,
                                    size_t *ct_len, uint8_t shared[WC_ML_KEM_SHARED_LEN]) {
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_ML_KEM: break;
    case WC_FAMILY_RSA: /* no encapsulate usage: wc_check_key_op refused them */
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_DSA:
    WC_CASE_SECRET_FAMILIES:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "encapsulate: not supported for %s",
                        webcrypto_algorithm_name(key->alg));
    }
    size_t n = wc_pkey_output_size(key);
    WC_REQUIRE(ct_len, "encapsulate: ciphertext_len must not be NULL");
    WC_REQUIRE(ct, "encapsulate: ciphertext must not be NULL");
    if (ct_cap < n) {
        *ct_len = n;
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "ciphertext buffer too small: %zu bytes needed, %zu given", n, ct_cap);
    }
    webcrypto_status st =
        key->backend->ops->ml_kem_encapsulate(key->state, wc_ml_kem_of(key->alg), ct, shared);
    if (st == WEBCRYPTO_OK) *ct_len = n;
    return st;
}

static webcrypto_status decapsulate(const webcrypto_key *key, const uint8_t *ct, size_t ct_len,
                                    uint8_t shared[WC_ML_KEM_SHARED_LEN]) {
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_ML_KEM: break;
    case WC_FAMILY_RSA: /* no decapsulate usage: wc_check_key_op refused them */
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_DSA:
    WC_CASE_SECRET_FAMILIES:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "decapsulate: not supported for %s",
                        webcrypto_algorithm_name(key->alg));
    }
    WC_REQUIRE(ct || ct_len == 0, "decapsulate: ciphertext must not be NULL");
    /* FIPS 203 7.3's input check: the ciphertext's length. The draft makes
     * a failure of ML-KEM.Decaps an OperationError. */
    size_t n = wc_pkey_output_size(key);
    if (ct_len != n)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "decapsulate: a %s ciphertext is %zu bytes, not %zu",
                        webcrypto_algorithm_name(key->alg), n, ct_len);
    return key->backend->ops->ml_kem_decapsulate(key->state, wc_ml_kem_of(key->alg), ct, shared);
}

/* The shared key's import (the draft: "raw-secret" of the shared key
 * algorithm), on the KEM key's backend. */
static webcrypto_status import_shared(const webcrypto_key *key, const uint8_t *bytes, size_t n,
                                      const webcrypto_params *shared_key_alg, bool extractable,
                                      unsigned usages, webcrypto_key **out) {
    return webcrypto_import_key(key->backend, WEBCRYPTO_FORMAT_RAW_SECRET, bytes, n,
                                shared_key_alg, extractable, usages, out);
}

webcrypto_status webcrypto_encapsulate_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                            uint8_t *ciphertext, size_t ciphertext_cap,
                                            size_t *ciphertext_len, uint8_t *shared_key,
                                            size_t shared_key_cap, size_t *shared_key_len) {
    WC_PARAMS_IN(alg, "encapsulate_bits");
    WC_REQUIRE(shared_key_len, "encapsulate_bits: shared_key_len must not be NULL");
    webcrypto_status st = check_kem_key(alg, key, WEBCRYPTO_USAGE_ENCAPSULATE_BITS,
                                        "encapsulateBits");
    if (st != WEBCRYPTO_OK) return st;
    WC_REQUIRE(shared_key, "encapsulate_bits: shared_key must not be NULL");
    if (shared_key_cap < WC_ML_KEM_SHARED_LEN) {
        *shared_key_len = WC_ML_KEM_SHARED_LEN;
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "shared key buffer too small: %d bytes needed, %zu given",
                        WC_ML_KEM_SHARED_LEN, shared_key_cap);
    }
    uint8_t k[WC_ML_KEM_SHARED_LEN];
    st = encapsulate(key, ciphertext, ciphertext_cap, ciphertext_len, k);
    if (st == WEBCRYPTO_OK) {
        memcpy(shared_key, k, sizeof k);
        *shared_key_len = sizeof k;
    }
    wc_wipe(k, sizeof k);
    return st;
}

webcrypto_status webcrypto_encapsulate_key(const webcrypto_params *alg, const webcrypto_key *key,
                                           const webcrypto_params *shared_key_alg,
                                           bool extractable, unsigned usages, uint8_t *ciphertext,
                                           size_t ciphertext_cap, size_t *ciphertext_len,
                                           webcrypto_key **shared_key) {
    WC_PARAMS_IN(alg, "encapsulate_key");
    WC_PARAMS_IN(shared_key_alg, "encapsulate_key");
    WC_REQUIRE(shared_key && shared_key_alg,
               "encapsulate_key: shared_key_alg and shared_key must not be NULL");
    webcrypto_status st = check_kem_key(alg, key, WEBCRYPTO_USAGE_ENCAPSULATE_KEY,
                                        "encapsulateKey");
    if (st != WEBCRYPTO_OK) return st;
    /* The draft normalises the shared key's algorithm for importKey before
     * anything is encapsulated. */
    if ((st = wc_check_algorithm(key->backend, shared_key_alg->name, "encapsulateKey")) !=
        WEBCRYPTO_OK)
        return st;
    uint8_t k[WC_ML_KEM_SHARED_LEN];
    size_t n = 0;
    st = encapsulate(key, ciphertext, ciphertext_cap, &n, k);
    if (st == WEBCRYPTO_OK)
        st = import_shared(key, k, sizeof k, shared_key_alg, extractable, usages, shared_key);
    wc_wipe(k, sizeof k);
    if (st == WEBCRYPTO_OK) {
        if (ciphertext_len) *ciphertext_len = n;
    } else if (ciphertext && n) {
        wc_wipe(ciphertext, n); /* no ciphertext without its key */
    }
    return st;
}

webcrypto_status webcrypto_decapsulate_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                            const uint8_t *ciphertext, size_t ciphertext_len,
                                            uint8_t *shared_key, size_t shared_key_cap,
                                            size_t *shared_key_len) {
    WC_PARAMS_IN(alg, "decapsulate_bits");
    WC_REQUIRE(shared_key_len, "decapsulate_bits: shared_key_len must not be NULL");
    webcrypto_status st = check_kem_key(alg, key, WEBCRYPTO_USAGE_DECAPSULATE_BITS,
                                        "decapsulateBits");
    if (st != WEBCRYPTO_OK) return st;
    WC_REQUIRE(shared_key, "decapsulate_bits: shared_key must not be NULL");
    if (shared_key_cap < WC_ML_KEM_SHARED_LEN) {
        *shared_key_len = WC_ML_KEM_SHARED_LEN;
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "shared key buffer too small: %d bytes needed, %zu given",
                        WC_ML_KEM_SHARED_LEN, shared_key_cap);
    }
    uint8_t k[WC_ML_KEM_SHARED_LEN];
    st = decapsulate(key, ciphertext, ciphertext_len, k);
    if (st == WEBCRYPTO_OK) {
        memcpy(shared_key, k, sizeof k);
        *shared_key_len = sizeof k;
    }
    wc_wipe(k, sizeof k);
    return st;
}

webcrypto_status webcrypto_decapsulate_key(const webcrypto_params *alg, const webcrypto_key *key,
                                           const uint8_t *ciphertext, size_t ciphertext_len,
                                           const webcrypto_params *shared_key_alg,
                                           bool extractable, unsigned usages,
                                           webcrypto_key **shared_key) {
    WC_PARAMS_IN(alg, "decapsulate_key");
    WC_PARAMS_IN(shared_key_alg, "decapsulate_key");
    WC_REQUIRE(shared_key && shared_key_alg,
               "decapsulate_key: shared_key_alg and shared_key must not be NULL");
    webcrypto_status st = check_kem_key(alg, key, WEBCRYPTO_USAGE_DECAPSULATE_KEY,
                                        "decapsulateKey");
    if (st != WEBCRYPTO_OK) return st;
    if ((st = wc_check_algorithm(key->backend, shared_key_alg->name, "decapsulateKey")) !=
        WEBCRYPTO_OK)
        return st;
    uint8_t k[WC_ML_KEM_SHARED_LEN];
    st = decapsulate(key, ciphertext, ciphertext_len, k);
    if (st == WEBCRYPTO_OK)
        st = import_shared(key, k, sizeof k, shared_key_alg, extractable, usages, shared_key);
    wc_wipe(k, sizeof k);
    return st;
}
