/* SubtleCrypto.deriveBits for HKDF, PBKDF2 and Argon2 (ECDH and X25519: pkey.c). */
#include "core.h"

/* Argon2's parameters, in the draft's order (its deriveBits steps 1-5),
 * then what RFC 9106 section 3.1 bounds, which the draft leaves to "if the
 * key derivation operation fails" (OperationError): a nonce of 8 bytes or
 * more, and the 32-bit lengths. nonce is a required member: NULL is
 * TypeError (absent), a short one OperationError. */
static webcrypto_status argon2_check(const webcrypto_params *alg, size_t length_bits) {
    const char *name = webcrypto_algorithm_name(alg->name);
    WC_REQUIRE(alg->nonce, "deriveBits: Argon2's nonce member is required");
    WC_REQUIRE(alg->secret_value || alg->secret_value_len == 0,
               "deriveBits: secret_value is NULL");
    WC_REQUIRE(alg->additional_data || alg->additional_data_len == 0,
               "deriveBits: additional_data is NULL");
    if (length_bits < 32 || length_bits % 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: %s length must be a multiple of 8 and at least 32, not %zu",
                        name, length_bits);
    if (alg->version != 0 && alg->version != 0x13)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: %s version must be 19 (0x13), not %u", name,
                        (unsigned)alg->version);
    if (alg->parallelism == 0 || alg->parallelism > 0xffffffu)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: %s parallelism must be 1 to 16777215, not %u", name,
                        (unsigned)alg->parallelism);
    if ((uint64_t)alg->memory < UINT64_C(8) * alg->parallelism)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: %s memory must be at least 8 * parallelism (%u KiB), not %u",
                        name, (unsigned)(8 * alg->parallelism), (unsigned)alg->memory);
    if (alg->passes == 0)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveBits: %s passes must not be 0", name);
    if (alg->nonce_len < 8 || (uint64_t)alg->nonce_len > UINT32_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: %s nonce must be 8 to 2^32 - 1 bytes, not %zu", name,
                        alg->nonce_len);
    if ((uint64_t)alg->secret_value_len > UINT32_MAX ||
        (uint64_t)alg->additional_data_len > UINT32_MAX || (uint64_t)length_bits / 8 > UINT32_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: %s secret, associated data and output are at most 2^32 - 1 "
                        "bytes", name);
    return WEBCRYPTO_OK;
}

/* The embedder's limits (webcrypto_set_limits), after the draft's own
 * checks: a valid request this host will not spend the work on. Not part of
 * wc_derive_bits_check: webcrypto_supports does not consult the limits. */
static webcrypto_status kdf_limits(const webcrypto_params *alg) {
    const char *name = webcrypto_algorithm_name(alg->name);
    switch (wc_kdf_of(alg->name)) {
    case WC_KDF_PBKDF2: {
        /* as workerd's checkPbkdfLimits: before any iteration is computed */
        uint32_t max_iterations = wc_limit_pbkdf2_iterations();
        if (alg->iterations > max_iterations)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "deriveBits: PBKDF2 with %u iterations is over this process's limit "
                            "of %u (webcrypto_set_limits, max_pbkdf2_iterations)",
                            (unsigned)alg->iterations, (unsigned)max_iterations);
        return WEBCRYPTO_OK;
    }
    case WC_KDF_ARGON2D:
    case WC_KDF_ARGON2I:
    case WC_KDF_ARGON2ID: break;
    case WC_KDF_HKDF:
    case WC_KDF_COUNT: return WEBCRYPTO_OK;
    }
    uint32_t max_memory = wc_limit_argon2_memory(), max_passes = wc_limit_argon2_passes();
    if (alg->memory > max_memory)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "deriveBits: %s memory of %u KiB is over this process's limit of %u KiB "
                        "(webcrypto_set_limits, max_argon2_memory)",
                        name, (unsigned)alg->memory, (unsigned)max_memory);
    if (alg->passes > max_passes)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "deriveBits: %s passes (%u) are over this process's limit of %u "
                        "(webcrypto_set_limits, max_argon2_passes)",
                        name, (unsigned)alg->passes, (unsigned)max_passes);
    return WEBCRYPTO_OK;
}

/* The KDFs' checks of their members and of the length, before anything is
 * derived (or a size is reported); the limits are kdf_limits'. */
static webcrypto_status kdf_params_check(const webcrypto_params *alg, size_t length_bits) {
    switch (wc_kdf_of(alg->name)) {
    case WC_KDF_ARGON2D:
    case WC_KDF_ARGON2I:
    case WC_KDF_ARGON2ID: return argon2_check(alg, length_bits);
    case WC_KDF_HKDF:
    case WC_KDF_PBKDF2:
    case WC_KDF_COUNT: break; /* checked below */
    }
    WC_REQUIRE(alg->salt || alg->salt_len == 0, "deriveBits: salt is NULL");
    WC_REQUIRE(alg->info || alg->info_len == 0, "deriveBits: info is NULL");
    if (length_bits == WEBCRYPTO_LENGTH_FULL) /* the spec's "If length is null" */
        return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveBits: %s needs a length, not null",
                        webcrypto_algorithm_name(alg->name));
    if (length_bits % 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "deriveBits: length must be a multiple of 8, not %zu", length_bits);
    switch (wc_kdf_of(alg->name)) {
    case WC_KDF_HKDF:
        if (length_bits / 8 > 255 * webcrypto_digest_size(alg->hash))
            return wc_error(WEBCRYPTO_ERR_OPERATION,
                            "deriveBits: HKDF-%s yields at most %zu bits, not %zu",
                            webcrypto_algorithm_name(alg->hash),
                            255 * 8 * webcrypto_digest_size(alg->hash), length_bits);
        break;
    case WC_KDF_PBKDF2: {
        /* A length of 0 gives an empty result, as for HKDF (the spec since
         * w3c/webcrypto#380); iterations are checked first. */
        if (alg->iterations == 0)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveBits: iterations must not be 0");
        break; /* the embedder's limit: kdf_limits, after */
    }
    case WC_KDF_ARGON2D:
    case WC_KDF_ARGON2I:
    case WC_KDF_ARGON2ID: break; /* argon2_check, above */
    case WC_KDF_COUNT: /* not a KDF: wc_check_key_op gave it no deriveBits usage */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "deriveBits: not supported for this key");
    }
    return WEBCRYPTO_OK;
}

static webcrypto_status kdf_check(const webcrypto_params *alg, size_t length_bits) {
    webcrypto_status st = kdf_params_check(alg, length_bits);
    return st == WEBCRYPTO_OK ? kdf_limits(alg) : st;
}

webcrypto_status wc_agreement_length_check(webcrypto_algorithm alg, size_t full,
                                           size_t length_bits) {
    if (length_bits != WEBCRYPTO_LENGTH_FULL && length_bits > full * 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "deriveBits: %s gives at most %zu bits, not %zu",
                        webcrypto_algorithm_name(alg), full * 8, length_bits);
    return WEBCRYPTO_OK;
}

webcrypto_status wc_derive_bits_check(const webcrypto_params *alg, size_t length_bits) {
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_KDF: return kdf_params_check(alg, length_bits);
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP: /* key agreement: the secret is the size of the peer's key's */
        return wc_agreement_length_check(alg->name, wc_pkey_output_size(alg->public_key),
                                         length_bits);
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_RSA:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "deriveBits: not supported for %s",
                    webcrypto_algorithm_name(alg->name));
}

/* How many bytes deriveBits writes for length_bits. ECDH and X25519: the
 * secret's size for WEBCRYPTO_LENGTH_FULL, else the bytes the bits take
 * (a length beyond the secret is OperationError, as when deriving). */
static webcrypto_status derived_size(const webcrypto_params *alg, const webcrypto_key *key,
                                     size_t length_bits, size_t *n) {
    if (wc_is_asymmetric(alg->name)) { /* key agreement: ECDH, X25519 */
        size_t full = wc_pkey_output_size(key);
        webcrypto_status st = wc_agreement_length_check(key->alg, full, length_bits);
        if (st == WEBCRYPTO_OK) *n = length_bits == WEBCRYPTO_LENGTH_FULL ? full : (length_bits + 7) / 8;
        return st;
    }
    webcrypto_status st = kdf_check(alg, length_bits);
    if (st == WEBCRYPTO_OK) *n = length_bits / 8;
    return st;
}

webcrypto_status webcrypto_derive_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                       size_t length_bits, uint8_t *out, size_t out_cap,
                                       size_t *out_len) {
    WC_PARAMS_IN(alg, "deriveBits");
    WC_REQUIRE(out_len, "derive_bits: out_len must not be NULL");
    webcrypto_status st = wc_check_key_op(alg, key, WEBCRYPTO_USAGE_DERIVE_BITS,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, "deriveBits");
    if (st != WEBCRYPTO_OK) return st;
    size_t n = 0;
    if (!out) {
        /* The size query: the checks that need no derivation, then the size. */
        if ((st = derived_size(alg, key, length_bits, &n)) == WEBCRYPTO_OK) *out_len = n;
        return st;
    }
    /* Deriving: wc_derive_bits makes every check in the spec's order (for
     * ECDH the peer key before the length) and reports a short buffer. */
    if ((st = wc_derive_bits(alg, key, length_bits, out, out_cap)) != WEBCRYPTO_OK) {
        /* A short buffer reports the size needed, as everywhere. */
        if (st == WEBCRYPTO_ERR_INVALID_ARGUMENT &&
            derived_size(alg, key, length_bits, &n) == WEBCRYPTO_OK && n > out_cap)
            *out_len = n;
        return st;
    }
    /* A KDF's size is not checked again: its limits may have been lowered
     * meanwhile (webcrypto_set_limits), which must not fail a call that has
     * derived. */
    if (!wc_is_asymmetric(alg->name)) {
        *out_len = length_bits / 8;
        return WEBCRYPTO_OK;
    }
    if ((st = derived_size(alg, key, length_bits, &n)) == WEBCRYPTO_OK) *out_len = n;
    return st;
}

webcrypto_status wc_derive_bits(const webcrypto_params *alg, const webcrypto_key *key,
                                size_t length_bits, uint8_t *out, size_t out_cap) {
    if (wc_is_asymmetric(alg->name)) /* key agreement: ECDH, X25519 */
        return wc_pkey_derive(alg, key, length_bits, out, out_cap);
    webcrypto_status st = kdf_check(alg, length_bits);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = length_bits / 8;
    WC_REQUIRE(out || n == 0, "deriveBits: out must not be NULL");
    if (out_cap < n)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "output buffer too small: %zu bytes needed, %zu given", n, out_cap);
    if (n == 0) return WEBCRYPTO_OK;
    switch (wc_kdf_of(alg->name)) {
    case WC_KDF_HKDF:
        st = key->backend->ops->hkdf(key->backend->bctx, wc_hash_of(alg->hash), key->secret,
                                     key->secret_len, alg->salt, alg->salt_len, alg->info,
                                     alg->info_len, out, n);
        break;
    case WC_KDF_PBKDF2:
        st = key->backend->ops->pbkdf2(key->backend->bctx, wc_hash_of(alg->hash), key->secret,
                                       key->secret_len, alg->salt, alg->salt_len, alg->iterations,
                                       out, n);
        break;
    case WC_KDF_ARGON2D:
    case WC_KDF_ARGON2I:
    case WC_KDF_ARGON2ID:
        if ((uint64_t)key->secret_len > UINT32_MAX)
            return wc_error(WEBCRYPTO_ERR_OPERATION,
                            "deriveBits: an Argon2 password is at most 2^32 - 1 bytes");
        /* The draft passes 0x13 as v whatever the (checked) version member. */
        st = key->backend->ops->argon2(key->backend->bctx, wc_kdf_of(alg->name), key->secret,
                                       key->secret_len, alg->nonce, alg->nonce_len,
                                       alg->secret_value, alg->secret_value_len,
                                       alg->additional_data, alg->additional_data_len,
                                       alg->parallelism, alg->memory, alg->passes, 0x13, out, n);
        break;
    case WC_KDF_COUNT: /* kdf_check refused it */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "deriveBits: not supported for this key");
    }
    if (st != WEBCRYPTO_OK) wc_wipe(out, n);
    return st;
}
