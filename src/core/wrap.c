/* SubtleCrypto.wrapKey, unwrapKey and deriveKey: compositions of export or
 * import with encryption or key derivation, so the checks of each step apply. */
#include <stdlib.h>

#include "core.h"

/* The operation a wrapping algorithm performs: AES-KW wraps, the others
 * encrypt. Returns the usage bit naming that operation. */
static unsigned wrap_op(webcrypto_algorithm alg, bool wrap) {
    if (alg == WEBCRYPTO_ALG_AES_KW) return wrap ? WEBCRYPTO_USAGE_WRAP_KEY : WEBCRYPTO_USAGE_UNWRAP_KEY;
    return wrap ? WEBCRYPTO_USAGE_ENCRYPT : WEBCRYPTO_USAGE_DECRYPT;
}

/* Runs the wrapping cipher into a buffer it allocates. */
static webcrypto_status wrap_bytes(bool wrap, const webcrypto_params *alg,
                                   const webcrypto_key *key, const uint8_t *in, size_t len,
                                   uint8_t **out, size_t *out_len) {
    webcrypto_status st;
    size_t cap;
    if (alg->name == WEBCRYPTO_ALG_AES_KW) {
        /* RFC 3394 works on 64-bit blocks, at least two of them. */
        if (len % 8 || len < (wrap ? 16u : 24u))
            return wc_error(WEBCRYPTO_ERR_OPERATION,
                            "AES-KW: %s takes a multiple of 8 bytes, at least %u, not %zu",
                            wrap ? "wrapping" : "unwrapping", wrap ? 16u : 24u, len);
        cap = wrap ? len + 8 : len - 8;
    } else if ((st = wc_cipher_oneshot(wrap, alg, key, in, len, NULL, 0, &cap)) != WEBCRYPTO_OK) {
        return st;
    }
    uint8_t *buf = malloc(cap + 1);
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory wrapping a key");
    size_t n = cap;
    if (alg->name != WEBCRYPTO_ALG_AES_KW)
        st = wc_cipher_oneshot(wrap, alg, key, in, len, buf, cap, &n);
    else if (wrap)
        st = key->backend->ops->aes_kw_wrap(key->state, in, len, buf);
    else
        st = key->backend->ops->aes_kw_unwrap(key->state, in, len, buf);
    if (st != WEBCRYPTO_OK) {
        webcrypto_buffer_free(buf, cap + 1);
        return st;
    }
    *out = buf;
    *out_len = n;
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_wrap_key(webcrypto_key_format format, const webcrypto_key *key,
                                    const webcrypto_key *wrapping_key,
                                    const webcrypto_params *wrap_alg, uint8_t **out,
                                    size_t *out_len) {
    WC_PARAMS_IN(wrap_alg, "wrap_key");
    WC_REQUIRE(key && wrapping_key && wrap_alg && out && out_len,
               "wrap_key: key, wrapping_key, wrap_alg, out and out_len must not be NULL");
    webcrypto_status st = wc_check_key_op(wrap_alg, wrapping_key, wrap_op(wrap_alg->name, true),
                                          WEBCRYPTO_USAGE_WRAP_KEY, "wrapKey");
    if (st != WEBCRYPTO_OK) return st;
    uint8_t *bytes = NULL;
    size_t n = 0;
    if ((st = webcrypto_export_key(format, key, &bytes, &n)) != WEBCRYPTO_OK) return st;
    st = wrap_bytes(true, wrap_alg, wrapping_key, bytes, n, out, out_len);
    webcrypto_buffer_free(bytes, n);
    return st;
}

webcrypto_status webcrypto_unwrap_key(webcrypto_key_format format, const uint8_t *wrapped,
                                      size_t wrapped_len, const webcrypto_key *unwrapping_key,
                                      const webcrypto_params *unwrap_alg,
                                      const webcrypto_params *unwrapped_key_alg, bool extractable,
                                      unsigned usages, webcrypto_key **out) {
    WC_PARAMS_IN(unwrap_alg, "unwrap_key");
    WC_PARAMS_IN(unwrapped_key_alg, "unwrap_key (unwrapped_key_alg)");
    WC_REQUIRE(unwrapping_key && unwrap_alg && unwrapped_key_alg && out,
               "unwrap_key: unwrapping_key, the algorithms and out must not be NULL");
    WC_REQUIRE(wrapped || wrapped_len == 0, "unwrap_key: wrapped must not be NULL");
    webcrypto_status st =
        wc_check_algorithm(unwrapping_key->backend, unwrapped_key_alg->name, "unwrapKey");
    if (st == WEBCRYPTO_OK)
        st = wc_check_key_op(unwrap_alg, unwrapping_key, wrap_op(unwrap_alg->name, false),
                             WEBCRYPTO_USAGE_UNWRAP_KEY, "unwrapKey");
    if (st != WEBCRYPTO_OK) return st;
    uint8_t *bytes = NULL;
    size_t n = 0, cap = 0;
    st = wrap_bytes(false, unwrap_alg, unwrapping_key, wrapped, wrapped_len, &bytes, &n);
    if (st != WEBCRYPTO_OK) return st;
    cap = n;
    st = webcrypto_import_key(unwrapping_key->backend, format, bytes, n, unwrapped_key_alg,
                              extractable, usages, out);
    webcrypto_buffer_free(bytes, cap);
    return st;
}

/* deriveKey's derivedKeyType, normalised as importKey's algorithm (an
 * importable secret-key algorithm; the members it requires). */
static webcrypto_status normalize_derived_type(const webcrypto_backend *backend,
                                              const webcrypto_params *type) {
    webcrypto_status st = wc_check_algorithm(backend, type->name, "deriveKey");
    if (st != WEBCRYPTO_OK) return st;
    if (wc_single_key_bits(type->name)) return WEBCRYPTO_OK; /* ChaCha20-Poly1305: 256 */
    if (wc_has_key_lens(type->name)) {
        if (type->length == 0)
            return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "deriveKey: the AES length is required");
        return WEBCRYPTO_OK;
    }
    if (type->name == WEBCRYPTO_ALG_HMAC) return wc_check_hash_for(backend, type->name, type->hash);
    if (wc_family_of(type->name) == WC_FAMILY_KMAC) return WEBCRYPTO_OK;
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "deriveKey: cannot derive %s keys",
                    webcrypto_algorithm_name(type->name));
}

/* The spec's "get key length" of a normalised derived key type, in bits. */
static webcrypto_status derived_key_length(const webcrypto_params *type, size_t *bits) {
    if (wc_single_key_bits(type->name)) { /* the draft's "Return 256" */
        *bits = wc_single_key_bits(type->name);
        return WEBCRYPTO_OK;
    }
    if (wc_has_key_lens(type->name)) {
        if (type->length % 8 || !wc_aes_key_len_ok(type->name, type->length / 8))
            return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveKey: %zu is not a %s key length",
                            type->length, webcrypto_algorithm_name(type->name));
        *bits = type->length;
        return WEBCRYPTO_OK;
    }
    /* HMAC: the hash's block size; KMAC: 128 or 256 (the row's block_bits). */
    *bits = type->length ? type->length
                         : wc_hash_block_bits(wc_family_of(type->name) == WC_FAMILY_KMAC
                                                  ? type->name
                                                  : type->hash);
    if (*bits == 0) /* HMAC with SHA-3: no block size, no default length */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "deriveKey: HMAC with %s needs an explicit length",
                        webcrypto_algorithm_name(type->hash));
    /* The same bound as generateKey, checked before anything is allocated. */
    if (*bits > 65536 * 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveKey: HMAC key length %zu too large", *bits);
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_derive_key(const webcrypto_params *alg, const webcrypto_key *base_key,
                                      const webcrypto_params *derived_key_type, bool extractable,
                                      unsigned usages, webcrypto_key **out) {
    WC_PARAMS_IN(alg, "derive_key");
    WC_PARAMS_IN(derived_key_type, "derive_key (derived_key_type)");
    WC_REQUIRE(alg && base_key && derived_key_type && out,
               "derive_key: alg, base_key, derived_key_type and out must not be NULL");
    /* The spec's order: both algorithms normalised, then the base key's
     * checks, then the derived key's length. */
    size_t bits = 0;
    webcrypto_status st =
        wc_normalize_op(base_key->backend, alg, WEBCRYPTO_USAGE_DERIVE_BITS, "deriveKey");
    if (st == WEBCRYPTO_OK) st = normalize_derived_type(base_key->backend, derived_key_type);
    if (st == WEBCRYPTO_OK)
        st = wc_check_key_op(alg, base_key, WEBCRYPTO_USAGE_DERIVE_BITS,
                             WEBCRYPTO_USAGE_DERIVE_KEY, "deriveKey");
    if (st == WEBCRYPTO_OK) st = derived_key_length(derived_key_type, &bits);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = bits / 8 + (bits % 8 != 0);
    uint8_t *buf = malloc(n + 1);
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory deriving a key");
    st = wc_derive_bits(alg, base_key, bits, buf, n);
    if (st == WEBCRYPTO_OK)
        /* "raw-secret", as the Modern Algorithms draft has deriveKey import
         * (algorithms such as ChaCha20-Poly1305 have no "raw"). */
        st = webcrypto_import_key(base_key->backend, WEBCRYPTO_FORMAT_RAW_SECRET, buf, n,
                                  derived_key_type, extractable, usages, out);
    webcrypto_buffer_free(buf, n + 1);
    return st;
}
