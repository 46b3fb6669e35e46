/* Key objects: generateKey, importKey, exportKey, and the checks keyed operations share. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

webcrypto_status wc_key_new_secret(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                   webcrypto_algorithm hash, const uint8_t *bytes, size_t len,
                                   size_t length_bits, bool extractable, unsigned usages,
                                   webcrypto_key **out) {
    webcrypto_key *key = calloc(1, sizeof *key);
    if (!key) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory for a key");
    /* +1 so that an empty key still has a distinct allocation. */
    key->secret = malloc(len + 1);
    if (!key->secret) {
        free(key);
        return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory for a key");
    }
    if (len) memcpy(key->secret, bytes, len);
    key->secret_len = len;
    key->backend = backend;
    key->type = WEBCRYPTO_KEY_SECRET;
    key->alg = alg;
    key->hash = hash;
    key->length_bits = length_bits;
    key->extractable = extractable;
    key->usages = usages;
    wc_family family = WC_FAMILY_HMAC;
    unsigned member = 0;
    webcrypto_status st =
        wc_key_family(alg, hash, &family, &member)
            ? backend->ops->secret_key_new(backend->bctx, family, member, key->secret, len,
                                           &key->state)
            : wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s has no secret keys",
                       webcrypto_algorithm_name(alg));
    if (st != WEBCRYPTO_OK) {
        key->state = NULL;
        webcrypto_key_free(key);
        return st;
    }
    /* The raw bytes stay only where they are read again: an extractable
     * key's (exportKey, wrapKey) and a KDF key's (the backends' KDFs take
     * them per call). Any other key works from the backend's state alone,
     * so the core's copy of a non-extractable one goes now. */
    if (!extractable && family != WC_FAMILY_KDF) {
        wc_wipe(key->secret, len);
        free(key->secret);
        key->secret = NULL;
    }
    *out = key;
    return WEBCRYPTO_OK;
}

void webcrypto_key_free(webcrypto_key *key) {
    if (!key) return;
    if (key->state && wc_is_asymmetric(key->alg))
        key->backend->ops->pkey_free(key->state);
    else if (key->state)
        key->backend->ops->secret_key_free(key->state);
    if (key->secret) wc_wipe(key->secret, key->secret_len);
    free(key->secret);
    wc_wipe(key, sizeof *key);
    free(key);
}

void webcrypto_buffer_free(uint8_t *buf, size_t len) {
    if (!buf) return;
    wc_wipe(buf, len);
    free(buf);
}

webcrypto_status wc_normalize_op(const webcrypto_backend *backend, const webcrypto_params *alg,
                                 unsigned op, const char *operation) {
    webcrypto_status st = wc_check_algorithm(backend, alg->name, operation);
    if (st != WEBCRYPTO_OK) return st;
    const wc_alg_info *a = wc_alg(alg->name);
    if (!(wc_allowed_usages(alg->name) & op))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s does not support %s", a->name,
                        operation);
    if (a->hash_for & op) return wc_check_hash_for(backend, alg->name, alg->hash);
    if ((a->public_key_for & op) && !alg->public_key)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: the public_key member is required",
                        operation);
    return WEBCRYPTO_OK;
}

webcrypto_status wc_check_key_op_slow(const webcrypto_params *alg, const webcrypto_key *key,
                                      unsigned op, unsigned key_usage, const char *operation) {
    if (!alg || !key)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: algorithm and key are required",
                        operation);
    webcrypto_status st = wc_normalize_op(key->backend, alg, op, operation);
    if (st != WEBCRYPTO_OK) return st;
    if (alg->name != key->alg)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "%s: the key is a %s key, not %s", operation,
                        webcrypto_algorithm_name(key->alg), webcrypto_algorithm_name(alg->name));
    if (!(key->usages & key_usage))
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "%s: the key's usages do not include %s",
                        operation, webcrypto_usage_name(key_usage));
    return WEBCRYPTO_OK;
}

/* Usages outside what the algorithm allows are a SyntaxError (checked first
 * by every algorithm's generate and import steps). */
static webcrypto_status check_usages(webcrypto_algorithm alg, unsigned usages) {
    unsigned bad = usages & ~wc_allowed_usages(alg);
    if (bad) {
        char list[128];
        wc_usages_to_string(bad, list, sizeof list);
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for %s keys: %s",
                        webcrypto_algorithm_name(alg), list);
    }
    return WEBCRYPTO_OK;
}

/* Bits that name no usage are the spec's TypeError (not a KeyUsage value). */
static webcrypto_status check_usage_bits(unsigned usages) {
    if (usages & ~WC_ALL_USAGES)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "usage bits 0x%x name no key usage",
                        usages & ~WC_ALL_USAGES);
    return WEBCRYPTO_OK;
}

static webcrypto_status check_not_empty(unsigned usages) {
    if (usages == 0)
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "a secret key must have at least one usage");
    return WEBCRYPTO_OK;
}

static const char *format_name(webcrypto_key_format f) {
    switch (f) {
    case WEBCRYPTO_FORMAT_RAW: return "raw";
    case WEBCRYPTO_FORMAT_PKCS8: return "pkcs8";
    case WEBCRYPTO_FORMAT_SPKI: return "spki";
    case WEBCRYPTO_FORMAT_JWK: return "jwk";
    case WEBCRYPTO_FORMAT_RAW_PUBLIC: return "raw-public";
    case WEBCRYPTO_FORMAT_RAW_SECRET: return "raw-secret";
    case WEBCRYPTO_FORMAT_RAW_SEED: return "raw-seed";
    }
    return "?";
}

webcrypto_status wc_check_format(webcrypto_algorithm alg, webcrypto_key_format *format,
                                 const char *operation) {
    const wc_alg_info *a = wc_alg(alg);
    if (!a || !(a->formats & (1u << (unsigned)*format)))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: %s keys have no %s format", operation,
                        a ? a->name : "these", format_name(*format));
    /* The drafts' aliases of raw: raw-secret for secret keys, raw-public
     * for the algorithms whose raw is a public key (EC, OKP). An algorithm
     * whose table has raw-public without raw (ML-KEM, ML-DSA) keeps it. */
    if (*format == WEBCRYPTO_FORMAT_RAW_SECRET ||
        (*format == WEBCRYPTO_FORMAT_RAW_PUBLIC && (a->formats & WC_FMT(RAW))))
        *format = WEBCRYPTO_FORMAT_RAW;
    return WEBCRYPTO_OK;
}

/* ---- the key-length rule of the secret-key algorithms ----
 * One place for what generateKey's length, deriveKey's "get key length" and
 * webcrypto_supports read: AES-* a length of the row's key_lens, required;
 * ChaCha20-Poly1305 its one length, no member; HMAC the length or the
 * hash's block size; KMAC the length or its default (the row's
 * block_bits), whole bytes. */

webcrypto_status wc_secret_key_normalize(const webcrypto_backend *backend,
                                         const webcrypto_params *alg, const char *operation) {
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP: /* fixed key lengths (key_lens) */
        /* ChaCha20-Poly1305: the draft's params have no length member (any
         * length given is ignored, as WebIDL ignores an unknown member). */
        if (!wc_single_key_bits(alg->name) && alg->length == 0)
            return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: the %s length is required",
                            operation, webcrypto_algorithm_name(alg->name));
        return WEBCRYPTO_OK;
    case WC_FAMILY_HMAC: return wc_check_hash_for(backend, alg->name, alg->hash);
    case WC_FAMILY_KMAC: return WEBCRYPTO_OK;
    /* HKDF, PBKDF2: "get key length" returns null (wc_secret_key_bits) */
    case WC_FAMILY_KDF: return WEBCRYPTO_OK;
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_DIGEST: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: %s keys have no length", operation,
                    webcrypto_algorithm_name(alg->name));
}

/* An HMAC or KMAC key of more than 16 MiB is refused (OperationError). The
 * spec sets no maximum (Node generates a 600,000-bit HMAC key); this one is
 * far beyond any key's use, and far below the 2^32 - 1 bits an IDL length
 * can ask for, which the Node binding relies on for the spec's "length 0 is
 * an OperationError" (bindings/node/lib/algorithms.js, ZERO_IS_AN_ERROR). */
#define MAX_SECRET_BITS ((size_t)16 * 1024 * 1024 * 8)

webcrypto_status wc_secret_key_bits(const webcrypto_params *alg, const char *operation,
                                    size_t *bits) {
    const char *name = webcrypto_algorithm_name(alg->name);
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
        if (wc_single_key_bits(alg->name)) { /* the draft's "Return 256" */
            *bits = wc_single_key_bits(alg->name);
            return WEBCRYPTO_OK;
        }
        if (alg->length % 8 || !wc_aes_key_len_ok(alg->name, alg->length / 8))
            return wc_error(WEBCRYPTO_ERR_OPERATION,
                            "%s: %s key length must be 128%s or 256 bits, not %zu", operation,
                            name, wc_aes_key_len_ok(alg->name, 24) ? ", 192" : "", alg->length);
        *bits = alg->length;
        return WEBCRYPTO_OK;
    case WC_FAMILY_HMAC:
        *bits = alg->length ? alg->length : wc_hash_block_bits(alg->hash);
        if (*bits == 0)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "%s: HMAC with %s needs an explicit length (no block size is "
                            "defined for it)",
                            operation, webcrypto_algorithm_name(alg->hash));
        if (*bits > MAX_SECRET_BITS)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: HMAC key length %zu too large",
                            operation, *bits);
        return WEBCRYPTO_OK;
    case WC_FAMILY_KMAC:
        *bits = alg->length ? alg->length : wc_hash_block_bits(alg->name);
        /* whole bytes (the libraries take a key of bytes; SP 800-185 would
         * allow any bit string) */
        if (*bits % 8)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "%s: KMAC key lengths must be a multiple of 8 bits, not %zu",
                            operation, *bits);
        if (*bits > MAX_SECRET_BITS)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: KMAC key length %zu too large",
                            operation, *bits);
        return WEBCRYPTO_OK;
    case WC_FAMILY_KDF:
        /* HKDF's and PBKDF2's "get key length": null (deriveKey then asks
         * deriveBits for a null length: the whole secret of a key
         * agreement, an OperationError of a KDF), where the table gives the
         * algorithm that operation. */
        if (webcrypto_algorithm_has_operation(alg->name, WEBCRYPTO_OP_GET_KEY_LENGTH)) {
            *bits = WEBCRYPTO_LENGTH_FULL;
            return WEBCRYPTO_OK;
        }
        break;
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_DIGEST: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: %s keys have no length", operation, name);
}

webcrypto_status wc_generate_key_check(const webcrypto_backend *backend,
                                       const webcrypto_params *alg, unsigned usages,
                                       size_t *bits) {
    webcrypto_status st;
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_KMAC:
        /* The params' normalisation, then the usages, then the length (the
         * spec's order). */
        if ((st = wc_secret_key_normalize(backend, alg, "generateKey")) != WEBCRYPTO_OK)
            return st;
        if ((st = check_usages(alg->name, usages)) != WEBCRYPTO_OK) return st;
        return wc_secret_key_bits(alg, "generateKey", bits);
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "generateKey: %s makes key pairs (webcrypto_generate_key_pair)",
                        webcrypto_algorithm_name(alg->name));
    case WC_FAMILY_XOF:
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_KDF: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "generateKey: not supported for %s",
                    webcrypto_algorithm_name(alg->name));
}

webcrypto_status webcrypto_generate_key(const webcrypto_backend *backend,
                                        const webcrypto_params *alg, bool extractable,
                                        unsigned usages, webcrypto_key **out) {
    WC_PARAMS_IN(alg, "generate_key");
    WC_REQUIRE(alg && out, "generate_key: alg and out must not be NULL");
    webcrypto_status st = check_usage_bits(usages);
    if (st == WEBCRYPTO_OK) st = wc_backend_resolve(backend, &backend);
    if (st == WEBCRYPTO_OK) st = wc_check_algorithm(backend, alg->name, "generateKey");
    size_t bits = 0;
    if (st == WEBCRYPTO_OK) st = wc_generate_key_check(backend, alg, usages, &bits);
    if (st == WEBCRYPTO_OK) st = check_not_empty(usages);
    if (st != WEBCRYPTO_OK) return st;
    webcrypto_algorithm hash =
        wc_family_of(alg->name) == WC_FAMILY_HMAC ? alg->hash : WEBCRYPTO_ALG_NONE;

    size_t len = (bits + 7) / 8;
    uint8_t *buf = malloc(len);
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "generateKey: out of memory");
    st = backend->ops->random_bytes(backend->bctx, buf, len);
    if (st == WEBCRYPTO_OK) {
        if (bits % 8) buf[len - 1] &= (uint8_t)(0xff << (8 - bits % 8)); /* unused bits zero */
        st = wc_key_new_secret(backend, alg->name, hash, buf, len, bits, extractable, usages, out);
    }
    webcrypto_buffer_free(buf, len);
    return st;
}

/* "JWK or raw bytes": a secret key's bytes from its format, *data and *len
 * pointing at them (JWK: decoded into *owned, which the caller frees with
 * webcrypto_buffer_free(*owned, *owned_len)). wc_check_format let only raw
 * and jwk through for these algorithms. */
static webcrypto_status secret_bytes(webcrypto_key_format format, const uint8_t **data,
                                     size_t *len, const webcrypto_params *alg,
                                     webcrypto_algorithm hash, bool extractable, unsigned usages,
                                     uint8_t **owned, size_t *owned_len) {
    *owned = NULL;
    *owned_len = 0;
    if (format == WEBCRYPTO_FORMAT_RAW) return WEBCRYPTO_OK;
    if (format != WEBCRYPTO_FORMAT_JWK)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "importKey: %s keys are imported from raw or jwk only",
                        webcrypto_algorithm_name(alg->name));
    webcrypto_status st = wc_jwk_import_secret(*data, *len, alg->name, hash, extractable, usages,
                                               owned, owned_len);
    if (st != WEBCRYPTO_OK) return st;
    *data = *owned;
    *len = *owned_len;
    return WEBCRYPTO_OK;
}

static webcrypto_status import_aes(const webcrypto_backend *backend, webcrypto_key_format format,
                                   const uint8_t *data, size_t len, const webcrypto_params *alg,
                                   bool extractable, unsigned usages, webcrypto_key **out) {
    webcrypto_status st = check_usages(alg->name, usages);
    if (st != WEBCRYPTO_OK) return st;
    if (format == WEBCRYPTO_FORMAT_RAW) {
        if (wc_single_key_bits(alg->name) && !wc_aes_key_len_ok(alg->name, len))
            return wc_error(WEBCRYPTO_ERR_DATA, "importKey: %s key data must be %zu bytes, not %zu",
                            webcrypto_algorithm_name(alg->name),
                            wc_single_key_bits(alg->name) / 8, len);
        if (!wc_aes_key_len_ok(alg->name, len))
            return wc_error(WEBCRYPTO_ERR_DATA,
                            "importKey: %s key data must be 16%s or 32 bytes, not %zu",
                            webcrypto_algorithm_name(alg->name),
                            wc_aes_key_len_ok(alg->name, 24) ? ", 24" : "", len);
    }
    uint8_t *bytes = NULL;
    size_t n = 0;
    st = secret_bytes(format, &data, &len, alg, WEBCRYPTO_ALG_NONE, extractable, usages, &bytes,
                      &n);
    if (st == WEBCRYPTO_OK) st = check_not_empty(usages);
    if (st == WEBCRYPTO_OK)
        st = wc_key_new_secret(backend, alg->name, WEBCRYPTO_ALG_NONE, data, len, len * 8,
                               extractable, usages, out);
    webcrypto_buffer_free(bytes, n);
    return st;
}

/* The hash: wc_import_key_check, before. */
static webcrypto_status import_hmac(const webcrypto_backend *backend, webcrypto_key_format format,
                                    const uint8_t *data, size_t len, const webcrypto_params *alg,
                                    bool extractable, unsigned usages, webcrypto_key **out) {
    webcrypto_status st = check_usages(alg->name, usages);
    if (st != WEBCRYPTO_OK) return st;
    uint8_t *bytes = NULL;
    size_t n = 0;
    st = secret_bytes(format, &data, &len, alg, alg->hash, extractable, usages, &bytes, &n);
    if (st != WEBCRYPTO_OK) return st;
    size_t bits = len * 8;
    if (len == 0) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "importKey: HMAC key data must not be empty");
    } else if (alg->length) {
        /* The spec's rule: the length names the key's bits within the last byte. */
        if (alg->length > bits || alg->length + 8 <= bits)
            st = wc_error(WEBCRYPTO_ERR_DATA,
                          "importKey: length %zu does not match %zu bytes of key data",
                          alg->length, len);
        bits = alg->length;
    }
    if (st == WEBCRYPTO_OK) st = check_not_empty(usages);
    if (st == WEBCRYPTO_OK)
        st = wc_key_new_secret(backend, alg->name, alg->hash, data, len, bits, extractable,
                               usages, out);
    webcrypto_buffer_free(bytes, n);
    return st;
}

/* KMAC keys: raw or jwk (kty "oct", alg "K128" / "K256"); length, when
 * given, must be the data's length in bits. */
static webcrypto_status import_kmac(const webcrypto_backend *backend, webcrypto_key_format format,
                                    const uint8_t *data, size_t len, const webcrypto_params *alg,
                                    bool extractable, unsigned usages, webcrypto_key **out) {
    webcrypto_status st = check_usages(alg->name, usages);
    if (st != WEBCRYPTO_OK) return st;
    uint8_t *bytes = NULL;
    size_t n = 0;
    st = secret_bytes(format, &data, &len, alg, WEBCRYPTO_ALG_NONE, extractable, usages, &bytes,
                      &n);
    if (st != WEBCRYPTO_OK) return st;
    size_t bits = 0;
    if (len == 0)
        st = wc_error(WEBCRYPTO_ERR_DATA, "importKey: %s key data must not be empty",
                      webcrypto_algorithm_name(alg->name));
    else if (alg->length && alg->length != len * 8)
        st = wc_error(WEBCRYPTO_ERR_DATA,
                      "importKey: length %zu does not match %zu bytes of key data", alg->length,
                      len);
    if (st == WEBCRYPTO_OK) {
        /* the data's length, under the same rule as a generated key's */
        webcrypto_params given = *alg;
        given.length = len * 8;
        st = wc_secret_key_bits(&given, "importKey", &bits);
    }
    if (st == WEBCRYPTO_OK) st = check_not_empty(usages);
    if (st == WEBCRYPTO_OK)
        st = wc_key_new_secret(backend, alg->name, WEBCRYPTO_ALG_NONE, data, len, len * 8,
                               extractable, usages, out);
    webcrypto_buffer_free(bytes, n);
    return st;
}

static webcrypto_status import_kdf(const webcrypto_backend *backend, webcrypto_key_format format,
                                   const uint8_t *data, size_t len, const webcrypto_params *alg,
                                   bool extractable, unsigned usages, webcrypto_key **out) {
    if (format != WEBCRYPTO_FORMAT_RAW)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "importKey: %s keys are imported raw only",
                        webcrypto_algorithm_name(alg->name));
    webcrypto_status st = check_usages(alg->name, usages);
    if (st != WEBCRYPTO_OK) return st;
    if (extractable)
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "importKey: %s keys cannot be extractable",
                        webcrypto_algorithm_name(alg->name));
    if ((st = check_not_empty(usages)) != WEBCRYPTO_OK) return st;
    return wc_key_new_secret(backend, alg->name, WEBCRYPTO_ALG_NONE, data, len, len * 8, false,
                             usages, out);
}

webcrypto_status wc_import_key_check(const webcrypto_backend *backend,
                                     const webcrypto_params *alg) {
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_HMAC: return wc_check_hash_for(backend, alg->name, alg->hash);
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: return wc_pkey_params_check(backend, alg);
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_KMAC:
    case WC_FAMILY_XOF:
    case WC_FAMILY_DIGEST: break;
    }
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_import_key(const webcrypto_backend *backend,
                                      webcrypto_key_format format, const uint8_t *key_data,
                                      size_t key_data_len, const webcrypto_params *alg,
                                      bool extractable, unsigned usages, webcrypto_key **out) {
    WC_PARAMS_IN(alg, "import_key");
    WC_REQUIRE(alg && out, "import_key: alg and out must not be NULL");
    WC_REQUIRE(key_data || key_data_len == 0, "import_key: key_data must not be NULL");
    if (format < WEBCRYPTO_FORMAT_RAW || format > WEBCRYPTO_FORMAT_RAW_SEED)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "import_key: unknown key format %d",
                        (int)format);
    webcrypto_status st = check_usage_bits(usages);
    if (st == WEBCRYPTO_OK) st = wc_backend_resolve(backend, &backend);
    if (st == WEBCRYPTO_OK) st = wc_check_algorithm(backend, alg->name, "importKey");
    if (st == WEBCRYPTO_OK) st = wc_check_format(alg->name, &format, "importKey");
    if (st == WEBCRYPTO_OK) st = wc_import_key_check(backend, alg);
    if (st != WEBCRYPTO_OK) return st;
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
        return import_aes(backend, format, key_data, key_data_len, alg, extractable, usages, out);
    case WC_FAMILY_HMAC:
        return import_hmac(backend, format, key_data, key_data_len, alg, extractable, usages,
                           out);
    case WC_FAMILY_KDF:
        return import_kdf(backend, format, key_data, key_data_len, alg, extractable, usages, out);
    case WC_FAMILY_KMAC:
        return import_kmac(backend, format, key_data, key_data_len, alg, extractable, usages,
                           out);
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        return wc_pkey_import(backend, format, key_data, key_data_len, alg, extractable, usages,
                              out);
    case WC_FAMILY_XOF:
    case WC_FAMILY_DIGEST: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "importKey: not supported for %s",
                    webcrypto_algorithm_name(alg->name));
}

webcrypto_status webcrypto_export_key(webcrypto_key_format format, const webcrypto_key *key,
                                      uint8_t **out, size_t *out_len) {
    WC_REQUIRE(key && out && out_len, "export_key: key, out and out_len must not be NULL");
    if (format < WEBCRYPTO_FORMAT_RAW || format > WEBCRYPTO_FORMAT_RAW_SEED)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "export_key: unknown key format %d",
                        (int)format);
    /* The spec's order: an algorithm without export, then extractability,
     * then the format. */
    if (!webcrypto_algorithm_has_operation(key->alg, WEBCRYPTO_OP_EXPORT_KEY))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "exportKey: %s keys cannot be exported",
                        webcrypto_algorithm_name(key->alg));
    if (!key->extractable)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "exportKey: the key is not extractable");
    webcrypto_status st = wc_check_format(key->alg, &format, "exportKey");
    if (st != WEBCRYPTO_OK) return st;
    if (wc_is_asymmetric(key->alg)) return wc_pkey_export(format, key, out, out_len);
    if (format == WEBCRYPTO_FORMAT_JWK) return wc_jwk_export_secret(key, out, out_len);
    if (format != WEBCRYPTO_FORMAT_RAW)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "exportKey: %s keys do not export to %s",
                        webcrypto_algorithm_name(key->alg),
                        format == WEBCRYPTO_FORMAT_PKCS8 ? "pkcs8" : "spki");
    uint8_t *buf = malloc(key->secret_len + 1);
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: out of memory");
    if (key->secret_len) memcpy(buf, key->secret, key->secret_len);
    *out = buf;
    *out_len = key->secret_len;
    return WEBCRYPTO_OK;
}

webcrypto_key_type webcrypto_key_get_type(const webcrypto_key *key) {
    return key ? key->type : (webcrypto_key_type)0;
}
webcrypto_algorithm webcrypto_key_get_algorithm(const webcrypto_key *key) {
    return key ? key->alg : WEBCRYPTO_ALG_NONE;
}
webcrypto_algorithm webcrypto_key_get_hash(const webcrypto_key *key) {
    return key ? key->hash : WEBCRYPTO_ALG_NONE;
}
size_t webcrypto_key_get_length(const webcrypto_key *key) { return key ? key->length_bits : 0; }
bool webcrypto_key_get_extractable(const webcrypto_key *key) {
    return key ? key->extractable : false;
}
unsigned webcrypto_key_get_usages(const webcrypto_key *key) { return key ? key->usages : 0; }
const webcrypto_backend *webcrypto_key_get_backend(const webcrypto_key *key) {
    return key ? key->backend : NULL;
}
