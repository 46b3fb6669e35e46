/*
 * supports.c - webcrypto_supports, SubtleCrypto.supports of the "Modern
 * Algorithms in the Web Cryptography API" draft: whether an operation with
 * these parameters would get past normalisation on this backend, asked
 * without keys or data. It reads the algorithm table and the backend's
 * capabilities, and checks the members each operation's params dictionary
 * requires, with the values the operation would refuse before touching a
 * key (an AES length, a hash the backend lacks, a deriveBits length).
 * Errors are not reported: every failure is false, and the thread's error
 * message is left as it was.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

#define OPBIT(op) (1u << (unsigned)(op))

static bool has_op(const wc_alg_info *a, webcrypto_operation op) {
    return (a->ops & OPBIT(op)) != 0;
}

/* A hash member the backend implements for this algorithm (SHA-3 only
 * where the library has the combination). */
static bool hash_ok(const webcrypto_backend *b, const webcrypto_params *p) {
    return wc_is_hash(p->hash) && webcrypto_backend_supports_hash(b, p->name, p->hash);
}

/* The members an operation's params need, per family (the draft's
 * normalisation of the op's dictionary type, plus the value checks an
 * operation makes before it looks at a key). */
static bool members_ok(const webcrypto_backend *b, webcrypto_operation op,
                       const webcrypto_params *p, const wc_alg_info *a) {
    switch (op) {
    case WEBCRYPTO_OP_GENERATE_KEY:
        switch (a->family) {
        case WC_FAMILY_CIPHER:
        case WC_FAMILY_AEAD:
        case WC_FAMILY_KEYWRAP:
            return p->length % 8 == 0 && wc_aes_key_len_ok(p->name, p->length / 8);
        /* A SHA-3 hash defines no block size, so no default length
         * (generateKey refuses it: NotSupportedError). */
        case WC_FAMILY_HMAC: return hash_ok(b, p) && (p->length || wc_hash_block_bits(p->hash));
        case WC_FAMILY_RSA:
            return hash_ok(b, p) && p->modulus_length && p->public_exponent &&
                   p->public_exponent_len;
        case WC_FAMILY_EC: return webcrypto_curve_name(p->named_curve) != NULL;
        case WC_FAMILY_KMAC: return p->length % 8 == 0; /* whole bytes; 0: the default */
        case WC_FAMILY_OKP:
        case WC_FAMILY_ML_KEM:
        case WC_FAMILY_ML_DSA:
        case WC_FAMILY_DIGEST:
        case WC_FAMILY_XOF:
        case WC_FAMILY_KDF: return true;
        }
        return false;
    case WEBCRYPTO_OP_IMPORT_KEY:
        switch (a->family) {
        case WC_FAMILY_HMAC:
        case WC_FAMILY_RSA: return hash_ok(b, p);
        case WC_FAMILY_EC: return webcrypto_curve_name(p->named_curve) != NULL;
        case WC_FAMILY_CIPHER:
        case WC_FAMILY_AEAD:
        case WC_FAMILY_KEYWRAP:
        case WC_FAMILY_KDF:
        case WC_FAMILY_OKP:
        case WC_FAMILY_ML_KEM:
        case WC_FAMILY_ML_DSA:
        case WC_FAMILY_XOF:
        case WC_FAMILY_KMAC:
        case WC_FAMILY_DIGEST: return true;
        }
        return false;
    case WEBCRYPTO_OP_ENCRYPT:
    case WEBCRYPTO_OP_DECRYPT:
        switch (a->family) {
        case WC_FAMILY_CIPHER:
            if (a->member.cipher == WC_CIPHER_AES_CTR)
                return p->counter && p->counter_len && p->length;
            return p->iv && p->iv_len;
        case WC_FAMILY_AEAD: return p->iv && p->iv_len;
        case WC_FAMILY_RSA:
        case WC_FAMILY_HMAC:
        case WC_FAMILY_KEYWRAP:
        case WC_FAMILY_KDF:
        case WC_FAMILY_EC:
        case WC_FAMILY_OKP:
        case WC_FAMILY_ML_KEM:
        case WC_FAMILY_ML_DSA:
        case WC_FAMILY_XOF:
        case WC_FAMILY_KMAC:
        case WC_FAMILY_DIGEST: return true;
        }
        return false;
    case WEBCRYPTO_OP_SIGN:
    case WEBCRYPTO_OP_VERIFY:
        if (a->hash_for & WEBCRYPTO_USAGE_SIGN) return hash_ok(b, p);
        /* KMAC: outputLength, required, in whole bytes here */
        if (a->family == WC_FAMILY_KMAC)
            return p->output_length && p->output_length % 8 == 0 &&
                   ((b->caps & WC_CAP_KMAC_ANY) ||
                    (p->output_length == wc_kmac_fixed_bits(a->member.kmac) &&
                     p->customization_len == 0));
        /* ML-DSA: a context of at most 255 bytes (OperationError beyond). */
        if (a->family == WC_FAMILY_ML_DSA) return p->context_len <= 255;
        /* Ed448: the same, and a non-empty one only where the backend takes it. */
        if (a->family == WC_FAMILY_OKP && a->member.okp == WC_OKP_ED448)
            return p->context_len == 0 ||
                   (p->context_len <= 255 && (b->caps & WC_CAP_ED448_CONTEXT));
        return true;
    case WEBCRYPTO_OP_DERIVE_BITS:
        if (a->hash_for & WEBCRYPTO_USAGE_DERIVE_BITS) return hash_ok(b, p);
        if (a->public_key_for & WEBCRYPTO_USAGE_DERIVE_BITS) return p->public_key != NULL;
        return true;
    case WEBCRYPTO_OP_DIGEST:
        /* cSHAKE: outputLength, required, in whole bytes; a function name or
         * customization only where the library has real cSHAKE */
        if (a->family == WC_FAMILY_XOF)
            return p->output_length && p->output_length % 8 == 0 &&
                   ((p->function_name_len == 0 && p->customization_len == 0) ||
                    (b->caps & WC_CAP_CSHAKE_CUSTOM)) &&
                   ((b->caps & WC_CAP_XOF_ANY_LENGTH) ||
                    p->output_length == wc_xof_fixed_bits(a->member.xof));
        return true;
    case WEBCRYPTO_OP_DERIVE_KEY:
    case WEBCRYPTO_OP_EXPORT_KEY:
    case WEBCRYPTO_OP_WRAP_KEY:
    case WEBCRYPTO_OP_UNWRAP_KEY:
    case WEBCRYPTO_OP_GET_KEY_LENGTH:
    case WEBCRYPTO_OP_GET_PUBLIC_KEY:
    case WEBCRYPTO_OP_ENCAPSULATE:
    case WEBCRYPTO_OP_DECAPSULATE: return true;
    }
    return false;
}

/* The draft's "check support for an algorithm": alg normalises for op on b. */
static bool check(const webcrypto_backend *b, webcrypto_operation op, const webcrypto_params *p) {
    const wc_alg_info *a = wc_alg(p->name);
    if (!a || !(b->caps & WC_CAP(p->name))) return false;
    if (!has_op(a, op)) return false;
    return members_ok(b, op, p, a);
}

/* deriveBits' length: the KDFs need one, a multiple of 8 (the draft's HKDF
 * and PBKDF2 refuse null and other lengths); a key agreement at most its
 * secret (ECDH: the public key's curve). */
static bool derive_length_ok(const webcrypto_params *p, size_t length_bits) {
    const wc_alg_info *a = wc_alg(p->name);
    switch (a->family) {
    case WC_FAMILY_KDF: return length_bits != WEBCRYPTO_LENGTH_FULL && length_bits % 8 == 0;
    case WC_FAMILY_EC: {
        size_t fs = p->public_key ? wc_curve_field_size(p->public_key->curve) : 0;
        return fs && (length_bits == WEBCRYPTO_LENGTH_FULL || length_bits <= fs * 8);
    }
    case WC_FAMILY_OKP:
        return length_bits == WEBCRYPTO_LENGTH_FULL || length_bits <= a->okp_out_len * 8;
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
    return false;
}

/* "get key length" of deriveKey's derived key type, in bits; false where it
 * is null or an error (the KDFs: deriveKey of a KDF key is then refused). */
static bool key_length(const webcrypto_params *t, size_t *bits) {
    const wc_alg_info *a = wc_alg(t->name);
    if (!a || !has_op(a, WEBCRYPTO_OP_GET_KEY_LENGTH)) return false;
    if (wc_has_key_lens(t->name)) {
        if (t->length % 8 || !wc_aes_key_len_ok(t->name, t->length / 8)) return false;
        *bits = t->length;
        return true;
    }
    if (a->family != WC_FAMILY_HMAC) return false; /* HKDF, PBKDF2: null */
    *bits = t->length ? t->length : wc_hash_block_bits(t->hash);
    return *bits != 0;
}

bool webcrypto_supports(const webcrypto_backend *backend, webcrypto_operation op,
                        const webcrypto_params *alg, size_t length_bits,
                        const webcrypto_params *additional_alg) {
    if (!alg || !webcrypto_operation_name(op) || op == WEBCRYPTO_OP_GET_KEY_LENGTH) return false;
    /* A copy-in, as every entry point makes; its failure is false too.
     * Errors set while asking are not the caller's: the message is kept. */
    char saved[512];
    snprintf(saved, sizeof saved, "%s", webcrypto_error_message());
    webcrypto_params local, local2;
    const webcrypto_params *p = alg, *extra = additional_alg;
    bool ok = wc_params_in(&p, &local, "supports") == WEBCRYPTO_OK &&
              wc_params_in(&extra, &local2, "supports") == WEBCRYPTO_OK &&
              wc_backend_resolve(backend, &backend) == WEBCRYPTO_OK;
    if (ok) {
        switch (op) {
        case WEBCRYPTO_OP_DERIVE_KEY: {
            size_t bits = 0;
            ok = extra && check(backend, WEBCRYPTO_OP_IMPORT_KEY, extra) &&
                 key_length(extra, &bits) && check(backend, WEBCRYPTO_OP_DERIVE_BITS, p) &&
                 derive_length_ok(p, bits);
            break;
        }
        case WEBCRYPTO_OP_DERIVE_BITS:
            ok = check(backend, op, p) && derive_length_ok(p, length_bits);
            break;
        case WEBCRYPTO_OP_WRAP_KEY:
            ok = extra && check(backend, WEBCRYPTO_OP_EXPORT_KEY, extra) &&
                 (check(backend, op, p) || check(backend, WEBCRYPTO_OP_ENCRYPT, p));
            break;
        case WEBCRYPTO_OP_UNWRAP_KEY:
            ok = extra && check(backend, WEBCRYPTO_OP_IMPORT_KEY, extra) &&
                 (check(backend, op, p) || check(backend, WEBCRYPTO_OP_DECRYPT, p));
            break;
        case WEBCRYPTO_OP_ENCRYPT:
        case WEBCRYPTO_OP_DECRYPT:
        case WEBCRYPTO_OP_SIGN:
        case WEBCRYPTO_OP_VERIFY:
        case WEBCRYPTO_OP_DIGEST:
        case WEBCRYPTO_OP_GENERATE_KEY:
        case WEBCRYPTO_OP_IMPORT_KEY:
        case WEBCRYPTO_OP_EXPORT_KEY:
        case WEBCRYPTO_OP_GET_PUBLIC_KEY:
        case WEBCRYPTO_OP_ENCAPSULATE:
        case WEBCRYPTO_OP_DECAPSULATE: ok = check(backend, op, p); break;
        case WEBCRYPTO_OP_GET_KEY_LENGTH: ok = false; break; /* not a SubtleCrypto method */
        }
    }
    wc_error(WEBCRYPTO_OK, "%s", saved);
    return ok;
}
