/* SubtleCrypto.deriveBits for HKDF and PBKDF2. */
#include "core.h"

webcrypto_status webcrypto_derive_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                       size_t length_bits, uint8_t *out, size_t out_cap) {
    webcrypto_status st = wc_check_key_op(alg, key, WEBCRYPTO_USAGE_DERIVE_BITS,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, "deriveBits");
    if (st != WEBCRYPTO_OK) return st;
    return wc_derive_bits(alg, key, length_bits, out, out_cap);
}

webcrypto_status wc_derive_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                size_t length_bits, uint8_t *out, size_t out_cap) {
    if (alg->name == WEBCRYPTO_ALG_ECDH || alg->name == WEBCRYPTO_ALG_X25519)
        return wc_pkey_derive(alg, key, length_bits, out, out_cap);
    webcrypto_status st;
    WC_REQUIRE(alg->salt || alg->salt_len == 0, "deriveBits: salt is NULL");
    WC_REQUIRE(alg->info || alg->info_len == 0, "deriveBits: info is NULL");
    if (length_bits % 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: length must be a multiple of 8, not %zu", length_bits);
    size_t n = length_bits / 8;
    if (alg->name == WEBCRYPTO_ALG_HKDF) {
        if (n > 255 * webcrypto_digest_size(alg->hash))
            return wc_error(WEBCRYPTO_ERR_OPERATION,
                            "deriveBits: HKDF-%s yields at most %zu bits, not %zu",
                            webcrypto_algorithm_name(alg->hash),
                            255 * 8 * webcrypto_digest_size(alg->hash), length_bits);
    } else if (alg->iterations == 0) {
        /* A length of 0 gives an empty result, as for HKDF (the spec since
         * w3c/webcrypto#380); iterations are checked first. */
        return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveBits: iterations must not be 0");
    }
    WC_REQUIRE(out || n == 0, "deriveBits: out must not be NULL");
    if (out_cap < n)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "output buffer too small: %zu bytes needed, %zu given", n, out_cap);
    if (n == 0) return WEBCRYPTO_OK;
    if (alg->name == WEBCRYPTO_ALG_HKDF)
        st = key->backend->ops->hkdf(key->backend->bctx, wc_hash_of(alg->hash), key->secret,
                                     key->secret_len, alg->salt, alg->salt_len, alg->info,
                                     alg->info_len, out, n);
    else
        st = key->backend->ops->pbkdf2(key->backend->bctx, wc_hash_of(alg->hash),
                                       key->secret, key->secret_len, alg->salt, alg->salt_len,
                                       alg->iterations, out, n);
    if (st != WEBCRYPTO_OK) wc_wipe(out, n);
    return st;
}
