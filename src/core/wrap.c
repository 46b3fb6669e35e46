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

webcrypto_status wc_wrap_check(const webcrypto_backend *backend, const webcrypto_params *alg,
                               bool wrap) {
    webcrypto_status st =
        wc_normalize_op(backend, alg, wrap_op(alg->name, wrap), wrap ? "wrapKey" : "unwrapKey");
    if (st != WEBCRYPTO_OK || alg->name == WEBCRYPTO_ALG_AES_KW) return st;
    return wc_cipher_params_check(alg); /* what wrap_bytes' cipher checks */
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
    return wc_secret_key_normalize(backend, type, "deriveKey");
}

/* The format deriveKey imports the derived bits in: "raw-secret", as the
 * Modern Algorithms draft has it (ChaCha20-Poly1305 and KMAC have no
 * "raw"), or "raw" for an algorithm without it (HKDF, PBKDF2: WebCrypto's
 * deriveKey). */
static webcrypto_key_format derived_format(webcrypto_algorithm name) {
    const wc_alg_info *a = wc_alg(name);
    return a && (a->formats & WC_FMT(RAW_SECRET)) ? WEBCRYPTO_FORMAT_RAW_SECRET
                                                  : WEBCRYPTO_FORMAT_RAW;
}

/* The bytes deriveKey asks deriveBits for: the length's, or for a null one
 * (HKDF, PBKDF2) the whole secret of a key agreement (a KDF refuses a null
 * length: OperationError, in wc_derive_bits). */
static size_t derived_bytes(const webcrypto_key *base_key, size_t bits) {
    if (bits != WEBCRYPTO_LENGTH_FULL) return bits / 8 + (bits % 8 != 0);
    return wc_is_asymmetric(base_key->alg) ? wc_pkey_output_size(base_key) : 0;
}

webcrypto_status wc_derive_key_check(const webcrypto_backend *backend,
                                     const webcrypto_params *alg,
                                     const webcrypto_params *derived_key_type) {
    size_t bits = 0;
    webcrypto_key_format raw = derived_format(derived_key_type->name);
    webcrypto_status st = wc_normalize_op(backend, alg, WEBCRYPTO_USAGE_DERIVE_BITS, "deriveKey");
    if (st == WEBCRYPTO_OK) st = normalize_derived_type(backend, derived_key_type);
    if (st == WEBCRYPTO_OK) st = wc_secret_key_bits(derived_key_type, "deriveKey", &bits);
    if (st == WEBCRYPTO_OK) st = wc_derive_bits_check(alg, bits);
    /* the import of the derived bits (webcrypto_derive_key's last step) */
    if (st == WEBCRYPTO_OK) st = wc_check_format(derived_key_type->name, &raw, "deriveKey");
    if (st == WEBCRYPTO_OK) st = wc_import_key_check(backend, derived_key_type);
    return st;
}

webcrypto_status webcrypto_derive_key_as(const webcrypto_params *alg,
                                         const webcrypto_key *base_key,
                                         const webcrypto_params *import_type,
                                         const webcrypto_params *length_type, bool extractable,
                                         unsigned usages, webcrypto_key **out) {
    WC_PARAMS_IN(alg, "derive_key");
    WC_PARAMS_IN(import_type, "derive_key (import_type)");
    WC_PARAMS_IN(length_type, "derive_key (length_type)");
    WC_REQUIRE(alg && base_key && import_type && length_type && out,
               "derive_key: alg, base_key, import_type, length_type and out must not be NULL");
    /* The spec's order: the three algorithms normalised, then the base
     * key's checks, then the derived key's length. */
    size_t bits = 0;
    webcrypto_status st =
        wc_normalize_op(base_key->backend, alg, WEBCRYPTO_USAGE_DERIVE_BITS, "deriveKey");
    /* import_type as importKey's algorithm (an AES one needs no length
     * here), length_type as "get key length"'s (an AES one does). */
    if (st == WEBCRYPTO_OK) st = wc_check_algorithm(base_key->backend, import_type->name, "deriveKey");
    if (st == WEBCRYPTO_OK) st = wc_import_key_check(base_key->backend, import_type);
    if (st == WEBCRYPTO_OK) st = normalize_derived_type(base_key->backend, length_type);
    if (st == WEBCRYPTO_OK)
        st = wc_check_key_op(alg, base_key, WEBCRYPTO_USAGE_DERIVE_BITS,
                             WEBCRYPTO_USAGE_DERIVE_KEY, "deriveKey");
    if (st == WEBCRYPTO_OK) st = wc_secret_key_bits(length_type, "deriveKey", &bits);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = derived_bytes(base_key, bits);
    uint8_t *buf = malloc(n + 1);
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory deriving a key");
    st = wc_derive_bits(alg, base_key, bits, buf, n);
    if (st == WEBCRYPTO_OK)
        st = webcrypto_import_key(base_key->backend, derived_format(import_type->name), buf, n,
                                  import_type, extractable, usages, out);
    webcrypto_buffer_free(buf, n + 1);
    return st;
}

webcrypto_status webcrypto_derive_key(const webcrypto_params *alg, const webcrypto_key *base_key,
                                      const webcrypto_params *derived_key_type, bool extractable,
                                      unsigned usages, webcrypto_key **out) {
    return webcrypto_derive_key_as(alg, base_key, derived_key_type, derived_key_type,
                                   extractable, usages, out);
}
