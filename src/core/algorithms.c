/* Algorithm and usage names, and the normalisation checks shared by operations. */
#include <stdio.h>
#include <string.h>

#include "core.h"

static const char *const wc_alg_names[WC_ALG_COUNT] = {
    [WEBCRYPTO_ALG_SHA_1] = "SHA-1",     [WEBCRYPTO_ALG_SHA_256] = "SHA-256",
    [WEBCRYPTO_ALG_SHA_384] = "SHA-384", [WEBCRYPTO_ALG_SHA_512] = "SHA-512",
    [WEBCRYPTO_ALG_HMAC] = "HMAC",       [WEBCRYPTO_ALG_AES_CBC] = "AES-CBC",
    [WEBCRYPTO_ALG_AES_CTR] = "AES-CTR", [WEBCRYPTO_ALG_AES_GCM] = "AES-GCM",
    [WEBCRYPTO_ALG_HKDF] = "HKDF",       [WEBCRYPTO_ALG_PBKDF2] = "PBKDF2",
    [WEBCRYPTO_ALG_AES_GCM_SIV] = "AES-GCM-SIV", [WEBCRYPTO_ALG_AES_KW] = "AES-KW",
    [WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5] = "RSASSA-PKCS1-v1_5",
    [WEBCRYPTO_ALG_RSA_PSS] = "RSA-PSS",     [WEBCRYPTO_ALG_RSA_OAEP] = "RSA-OAEP",
    [WEBCRYPTO_ALG_ECDSA] = "ECDSA",         [WEBCRYPTO_ALG_ECDH] = "ECDH",
    [WEBCRYPTO_ALG_ED25519] = "Ed25519",     [WEBCRYPTO_ALG_X25519] = "X25519",
};

static const char *const wc_usage_names[] = {
    "encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey",
};

const char *webcrypto_algorithm_name(webcrypto_algorithm alg) {
    if ((unsigned)alg >= WC_ALG_COUNT) return NULL;
    return wc_alg_names[alg];
}

size_t webcrypto_algorithm_count(void) { return WC_ALG_COUNT - 1; }

webcrypto_algorithm webcrypto_algorithm_at(size_t index) {
    if (index >= WC_ALG_COUNT - 1) return WEBCRYPTO_ALG_NONE;
    return (webcrypto_algorithm)(index + 1);
}

#define OPB(op) (1u << (unsigned)(WEBCRYPTO_OP_##op))
#define OPS_KEYED (OPB(GENERATE_KEY) | OPB(IMPORT_KEY) | OPB(EXPORT_KEY))
#define OPS_CIPHER (OPB(ENCRYPT) | OPB(DECRYPT) | OPS_KEYED | OPB(GET_KEY_LENGTH))
#define OPS_SIGNER (OPB(SIGN) | OPB(VERIFY) | OPS_KEYED)
#define OPS_KDF (OPB(DERIVE_BITS) | OPB(DERIVE_KEY) | OPB(IMPORT_KEY) | OPB(GET_KEY_LENGTH))
#define OPS_AGREE (OPB(DERIVE_BITS) | OPB(DERIVE_KEY) | OPS_KEYED)

static const unsigned wc_alg_ops[WC_ALG_COUNT] = {
    [WEBCRYPTO_ALG_SHA_1] = OPB(DIGEST),
    [WEBCRYPTO_ALG_SHA_256] = OPB(DIGEST),
    [WEBCRYPTO_ALG_SHA_384] = OPB(DIGEST),
    [WEBCRYPTO_ALG_SHA_512] = OPB(DIGEST),
    [WEBCRYPTO_ALG_HMAC] = OPS_SIGNER | OPB(GET_KEY_LENGTH),
    [WEBCRYPTO_ALG_AES_CBC] = OPS_CIPHER,
    [WEBCRYPTO_ALG_AES_CTR] = OPS_CIPHER,
    [WEBCRYPTO_ALG_AES_GCM] = OPS_CIPHER,
    [WEBCRYPTO_ALG_HKDF] = OPS_KDF,
    [WEBCRYPTO_ALG_PBKDF2] = OPS_KDF,
    [WEBCRYPTO_ALG_AES_GCM_SIV] = OPS_CIPHER,
    [WEBCRYPTO_ALG_AES_KW] = OPB(WRAP_KEY) | OPB(UNWRAP_KEY) | OPS_KEYED | OPB(GET_KEY_LENGTH),
    [WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5] = OPS_SIGNER,
    [WEBCRYPTO_ALG_RSA_PSS] = OPS_SIGNER,
    [WEBCRYPTO_ALG_RSA_OAEP] = OPB(ENCRYPT) | OPB(DECRYPT) | OPS_KEYED,
    [WEBCRYPTO_ALG_ECDSA] = OPS_SIGNER,
    [WEBCRYPTO_ALG_ECDH] = OPS_AGREE,
    [WEBCRYPTO_ALG_ED25519] = OPS_SIGNER,
    [WEBCRYPTO_ALG_X25519] = OPS_AGREE,
};

static const char *const wc_op_names[] = {
    [WEBCRYPTO_OP_ENCRYPT] = "encrypt",         [WEBCRYPTO_OP_DECRYPT] = "decrypt",
    [WEBCRYPTO_OP_SIGN] = "sign",               [WEBCRYPTO_OP_VERIFY] = "verify",
    [WEBCRYPTO_OP_DIGEST] = "digest",           [WEBCRYPTO_OP_GENERATE_KEY] = "generateKey",
    [WEBCRYPTO_OP_DERIVE_KEY] = "deriveKey",    [WEBCRYPTO_OP_DERIVE_BITS] = "deriveBits",
    [WEBCRYPTO_OP_IMPORT_KEY] = "importKey",    [WEBCRYPTO_OP_EXPORT_KEY] = "exportKey",
    [WEBCRYPTO_OP_WRAP_KEY] = "wrapKey",        [WEBCRYPTO_OP_UNWRAP_KEY] = "unwrapKey",
    [WEBCRYPTO_OP_GET_KEY_LENGTH] = "get key length",
};

const char *webcrypto_operation_name(webcrypto_operation op) {
    if ((unsigned)op >= sizeof wc_op_names / sizeof *wc_op_names) return NULL;
    return wc_op_names[op];
}

bool webcrypto_algorithm_has_operation(webcrypto_algorithm alg, webcrypto_operation op) {
    if ((unsigned)alg >= WC_ALG_COUNT || !webcrypto_operation_name(op)) return false;
    return (wc_alg_ops[alg] & (1u << (unsigned)op)) != 0;
}

static int ascii_casecmp(const char *a, const char *b) {
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
        if (cb >= 'A' && cb <= 'Z') cb += 'a' - 'A';
        if (ca != cb || ca == 0) return ca - cb;
    }
}

webcrypto_status webcrypto_algorithm_from_name(const char *name, webcrypto_algorithm *out) {
    WC_REQUIRE(name && out, "algorithm_from_name: name and out must not be NULL");
    for (unsigned i = 1; i < WC_ALG_COUNT; i++) {
        if (wc_alg_names[i] && ascii_casecmp(name, wc_alg_names[i]) == 0) {
            *out = (webcrypto_algorithm)i;
            return WEBCRYPTO_OK;
        }
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "unrecognized algorithm name \"%s\"", name);
}

const char *webcrypto_usage_name(unsigned usage) {
    for (unsigned i = 0; i < sizeof wc_usage_names / sizeof *wc_usage_names; i++)
        if (usage == 1u << i) return wc_usage_names[i];
    return NULL;
}

webcrypto_status webcrypto_usage_from_name(const char *name, unsigned *out) {
    WC_REQUIRE(name && out, "usage_from_name: name and out must not be NULL");
    for (unsigned i = 0; i < sizeof wc_usage_names / sizeof *wc_usage_names; i++) {
        if (strcmp(name, wc_usage_names[i]) == 0) {
            *out = 1u << i;
            return WEBCRYPTO_OK;
        }
    }
    return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "\"%s\" is not a key usage", name);
}

void wc_usages_to_string(unsigned usages, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof wc_usage_names / sizeof *wc_usage_names; i++) {
        if (!(usages & (1u << i))) continue;
        int w = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", wc_usage_names[i]);
        if (w < 0 || (size_t)w >= cap - n) return;
        n += (size_t)w;
    }
}

bool wc_is_hash(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_SHA_1 || alg == WEBCRYPTO_ALG_SHA_256 ||
           alg == WEBCRYPTO_ALG_SHA_384 || alg == WEBCRYPTO_ALG_SHA_512;
}

bool wc_is_aes(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_AES_CBC || alg == WEBCRYPTO_ALG_AES_CTR ||
           alg == WEBCRYPTO_ALG_AES_GCM || alg == WEBCRYPTO_ALG_AES_GCM_SIV ||
           alg == WEBCRYPTO_ALG_AES_KW;
}

bool wc_aes_key_len_ok(webcrypto_algorithm alg, size_t len) {
    if (alg == WEBCRYPTO_ALG_AES_GCM_SIV) return len == 16 || len == 32;
    return len == 16 || len == 24 || len == 32;
}

size_t webcrypto_digest_size(webcrypto_algorithm hash) {
    switch (hash) {
    case WEBCRYPTO_ALG_SHA_1: return 20;
    case WEBCRYPTO_ALG_SHA_256: return 32;
    case WEBCRYPTO_ALG_SHA_384: return 48;
    case WEBCRYPTO_ALG_SHA_512: return 64;
    default: return 0;
    }
}

size_t wc_hash_block_bits(webcrypto_algorithm hash) {
    return (hash == WEBCRYPTO_ALG_SHA_384 || hash == WEBCRYPTO_ALG_SHA_512) ? 1024 : 512;
}

bool wc_is_rsa(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || alg == WEBCRYPTO_ALG_RSA_PSS ||
           alg == WEBCRYPTO_ALG_RSA_OAEP;
}

bool wc_is_ec(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_ECDSA || alg == WEBCRYPTO_ALG_ECDH;
}

bool wc_is_okp(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_ED25519 || alg == WEBCRYPTO_ALG_X25519;
}

bool wc_is_asymmetric(webcrypto_algorithm alg) {
    return wc_is_rsa(alg) || wc_is_ec(alg) || wc_is_okp(alg);
}

unsigned wc_public_usages(webcrypto_algorithm alg) {
    if (alg == WEBCRYPTO_ALG_RSA_OAEP) return WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY;
    if (alg == WEBCRYPTO_ALG_ECDH || alg == WEBCRYPTO_ALG_X25519) return 0;
    return wc_is_asymmetric(alg) ? WEBCRYPTO_USAGE_VERIFY : 0;
}

unsigned wc_private_usages(webcrypto_algorithm alg) {
    if (alg == WEBCRYPTO_ALG_RSA_OAEP) return WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY;
    if (alg == WEBCRYPTO_ALG_ECDH || alg == WEBCRYPTO_ALG_X25519) return WC_KDF_USAGES;
    return wc_is_asymmetric(alg) ? WEBCRYPTO_USAGE_SIGN : 0;
}

const char *webcrypto_curve_name(webcrypto_named_curve curve) {
    switch (curve) {
    case WEBCRYPTO_CURVE_P256: return "P-256";
    case WEBCRYPTO_CURVE_P384: return "P-384";
    case WEBCRYPTO_CURVE_P521: return "P-521";
    default: return NULL;
    }
}

webcrypto_status webcrypto_curve_from_name(const char *name, webcrypto_named_curve *out) {
    WC_REQUIRE(name && out, "curve_from_name: name and out must not be NULL");
    for (int c = WEBCRYPTO_CURVE_P256; c <= WEBCRYPTO_CURVE_P521; c++) {
        if (strcmp(name, webcrypto_curve_name((webcrypto_named_curve)c)) == 0) {
            *out = (webcrypto_named_curve)c;
            return WEBCRYPTO_OK;
        }
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "unrecognized curve name \"%s\"", name);
}

unsigned wc_allowed_usages(webcrypto_algorithm alg) {
    if (wc_is_asymmetric(alg)) return wc_public_usages(alg) | wc_private_usages(alg);
    if (alg == WEBCRYPTO_ALG_AES_KW) return WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY;
    if (wc_is_aes(alg)) return WC_AES_USAGES;
    if (alg == WEBCRYPTO_ALG_HMAC) return WC_HMAC_USAGES;
    if (alg == WEBCRYPTO_ALG_HKDF || alg == WEBCRYPTO_ALG_PBKDF2) return WC_KDF_USAGES;
    return 0;
}

webcrypto_status wc_check_algorithm(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                    const char *operation) {
    if (alg == WEBCRYPTO_ALG_NONE)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: algorithm name is missing",
                        operation);
    const char *name = webcrypto_algorithm_name(alg);
    if (!name)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: unknown algorithm %d", operation,
                        (int)alg);
    if (!(backend->caps & WC_CAP(alg)))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: the %s backend does not support %s",
                        operation, backend->name, name);
    return WEBCRYPTO_OK;
}

webcrypto_status wc_check_hash(const webcrypto_backend *backend, webcrypto_algorithm hash) {
    if (hash == WEBCRYPTO_ALG_NONE)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "the hash member is required");
    if (!wc_is_hash(hash))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s is not a hash algorithm",
                        webcrypto_algorithm_name(hash) ? webcrypto_algorithm_name(hash)
                                                       : "that value");
    return wc_check_algorithm(backend, hash, "hash");
}

int wc_output_check(size_t needed, const uint8_t *out, size_t out_cap, size_t *out_len,
                    webcrypto_status *st) {
    if (!out) {
        *out_len = needed;
        *st = WEBCRYPTO_OK;
        return 1;
    }
    if (out_cap < needed) {
        *out_len = needed;
        *st = wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                       "output buffer too small: %zu bytes needed, %zu given", needed, out_cap);
        return 1;
    }
    return 0;
}
