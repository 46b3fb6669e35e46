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
    wc_caps caps;
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
    /* A secret key's raw bytes, wiped on free; kept only for an extractable
     * key (export) and a KDF key (the backend's KDFs take them per call):
     * NULL for any other non-extractable key, which lives in the backend's
     * state alone (wc_key_new_secret). secret_len is kept either way. */
    uint8_t *secret;
    size_t secret_len;
    void *state; /* the backend's prepared state (pkey_* for public/private keys) */
};

/* WC_ALG_COUNT: backend.h (it sizes the capability set). */
/* One past the last wc_family (backend.h's family enum has no _COUNT member
 * of its own yet): what wc_family_of returns for no known algorithm. */
#define WC_FAMILY_COUNT ((wc_family)(WC_FAMILY_KMAC + 1))

#define WC_ALL_USAGES 0xfffu
#define WC_AES_USAGES                                                                     \
    (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_WRAP_KEY |     \
     WEBCRYPTO_USAGE_UNWRAP_KEY)
#define WC_HMAC_USAGES (WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY)
#define WC_KDF_USAGES (WEBCRYPTO_USAGE_DERIVE_KEY | WEBCRYPTO_USAGE_DERIVE_BITS)

/* ---- algorithms.c: the algorithm table ----
 * One row per webcrypto_algorithm holds what the core knows about it as data:
 * its name, family and member, key types, sizes, JWK and DER identifiers,
 * allowed usages and supported operations. Validation, usages, JWK, DER, the
 * names and the algorithm list read it; code switches over the family (and
 * the member where the family's members differ), never over the algorithm
 * with a default. tests/test_alg_table.c checks its consistency. */

/* wc_alg_info.key_types */
#define WC_KEYS_SECRET 1u /* secret keys (webcrypto_generate_key, raw/jwk import) */
#define WC_KEYS_PAIR 2u   /* public and private keys (generate_key_pair, spki/pkcs8/...) */
/* wc_alg_info.formats: a bit per webcrypto_key_format. */
#define WC_FMT(f) (1u << (unsigned)(WEBCRYPTO_FORMAT_##f))
/* Secret keys read from bytes: "raw", and its alias "raw-secret" (the
 * Modern Algorithms draft, for every symmetric algorithm of WebCrypto). */
#define WC_FMTS_SECRET_RAW (WC_FMT(RAW) | WC_FMT(RAW_SECRET))
/* Key pairs: spki, pkcs8, jwk; EC and OKP also raw and its alias raw-public. */
#define WC_FMTS_PAIR (WC_FMT(SPKI) | WC_FMT(PKCS8) | WC_FMT(JWK))
#define WC_FMTS_PAIR_RAW (WC_FMTS_PAIR | WC_FMT(RAW) | WC_FMT(RAW_PUBLIC))
/* The secret key lengths an algorithm of fixed key lengths may take (AES:
 * 16, 24, 32 bytes), slots of wc_alg_info.key_lens and jwk_alg_by_len. */
#define WC_KEY_LENS 3
/* The largest EC field size (P-521) and the largest key-agreement secret
 * (P-521 ECDH; X25519 gives 32): sizes of the core's stack buffers, checked
 * against the tables by test_alg_table. */
#define WC_MAX_FIELD_SIZE 66
#define WC_MAX_SHARED_SECRET 66
/* The largest digest (SHA-512): HMAC's stack buffers. */
#define WC_MAX_DIGEST_SIZE 64

/* A named curve of the EC family (RFC 5480, RFC 7518 6.2.1.1). */
typedef struct wc_curve_info {
    webcrypto_named_curve curve;
    const char *name;     /* WebCrypto namedCurve, which is also the JWK "crv" */
    const uint8_t *oid;   /* the namedCurve OID's DER contents (RFC 5480 2.1.1.1) */
    size_t oid_len;
    size_t field_size;    /* bytes of a coordinate or private scalar */
    const char *jwk_ecdsa_alg; /* an ECDSA key's JWK "alg" on this curve (RFC 7518 3.1) */
} wc_curve_info;

typedef struct wc_alg_info {
    webcrypto_algorithm alg; /* the row's own index, checked by the test */
    const char *name;        /* WebCrypto name */
    wc_family family;
    union { /* the member in the family; none for HMAC (per key: its hash) and KEYWRAP */
        wc_hash hash;
        wc_cipher cipher;
        wc_aead aead;
        wc_kdf kdf;
        wc_rsa_scheme rsa;
        wc_ec_op ec;
        wc_okp okp;
        wc_ml_kem ml_kem;
        wc_ml_dsa ml_dsa;
        wc_xof xof;
        wc_kmac kmac;
    } member;
    unsigned key_types; /* WC_KEYS_* bits; 0 for digests */
    /* The key formats importKey (and exportKey, where the algorithm
     * exports) take: WC_FMT bits, per the drafts (docs/ARCHITECTURE.md,
     * "Adding an algorithm"). Which key type a format carries is the
     * format's (pkey.c, key.c); this says only whether the algorithm has it. */
    unsigned formats;
    unsigned ops;       /* bit 1 << webcrypto_operation per supported operation */
    /* The usages keys may have: a secret key; a public and a private key. */
    unsigned secret_usages, public_usages, private_usages;
    /* The usages (of an operation's `op`) whose params need a hash member,
     * and those that need public_key (wc_normalize_op). */
    unsigned hash_for, public_key_for;
    /* Sizes. DIGEST: digest bytes and block bits (HMAC's default key length).
     * Fixed-length secret keys (AES): the allowed lengths in bytes, 0 for a
     * slot not allowed. OKP: key bytes (public and private) and output bytes
     * (signature or shared secret). */
    size_t digest_size, block_bits;
    size_t key_lens[WC_KEY_LENS];
    size_t okp_key_len, okp_out_len;
    /* ML-KEM, ML-DSA: the encoded public key's bytes, the seed's (raw-seed,
     * pkcs8, JWK "priv"), and the output's (ML-KEM: the ciphertext; ML-DSA:
     * the signature). */
    size_t pq_public_len, pq_seed_len, pq_out_len;
    /* JWK (RFC 7517/7518/8037): kty, "use" for the key's usages, crv (OKP;
     * EC: the curve table), "alg" (one, also accepted: jwk_alg_alt), per
     * hash (HMAC, RSA: indexed by wc_hash), per key length (AES: by
     * key_lens slot); jwk_alg_by_curve: ECDSA's (from wc_curve_info, checked
     * on import and not exported). jwk_kty NULL: no JWK form. */
    const char *jwk_kty, *jwk_use, *jwk_crv, *jwk_alg, *jwk_alg_alt;
    const char *jwk_alg_by_hash[WC_HASH_COUNT];
    const char *jwk_alg_by_len[WC_KEY_LENS];
    bool jwk_alg_by_curve;
    /* DER (RFC 5280 AlgorithmIdentifier): the OID spki/pkcs8 write and read,
     * and one more read on import (id-ecDH for ECDH). Contents bytes. */
    const uint8_t *oid;
    size_t oid_len;
    const uint8_t *oid_alt;
    size_t oid_alt_len;
    /* A keyed algorithm that takes a hash: the backend's feature bit
     * (backend.h's WC_CAP_SHA3_*) that says it takes the SHA-3 hashes with
     * it; 0: SHA-3 is not a hash this algorithm takes. */
    uint64_t sha3_cap;
} wc_alg_info;

/* The case labels of the families without key pairs, for a switch over
 * wc_family that handles RSA, EC and OKP (so that a new family still fails
 * the build there until it is placed). */
#define WC_CASE_SECRET_FAMILIES                                                      \
    case WC_FAMILY_DIGEST:                                                          \
    case WC_FAMILY_HMAC:                                                            \
    case WC_FAMILY_CIPHER:                                                          \
    case WC_FAMILY_AEAD:                                                            \
    case WC_FAMILY_KEYWRAP:                                                         \
    case WC_FAMILY_KDF:                                                             \
    case WC_FAMILY_XOF:                                                             \
    case WC_FAMILY_KMAC

/* The table (algorithms.c), indexed by webcrypto_algorithm; row 0 (NONE)
 * unused. Read through wc_alg. */
extern const wc_alg_info wc_algs[WC_ALG_COUNT];

/* The row of a known algorithm; NULL for NONE and values past the table.
 * Inline, with the family and member lookups below: every operation asks
 * them several times. */
static inline const wc_alg_info *wc_alg(webcrypto_algorithm alg) {
    if ((unsigned)alg >= WC_ALG_COUNT || alg == WEBCRYPTO_ALG_NONE) return NULL;
    return &wc_algs[alg];
}
/* An algorithm's row by its WebCrypto name, ignoring ASCII case; NULL if none. */
const wc_alg_info *wc_alg_by_name(const char *name);
/* The curve's row; NULL for NONE and unknown values. Curves are indexed 0..
 * wc_curve_count()-1 by wc_curve_at. */
const wc_curve_info *wc_curve(webcrypto_named_curve curve);
size_t wc_curve_count(void);
const wc_curve_info *wc_curve_at(size_t index);
/* Field size in bytes of a NIST curve (32, 48, 66); 0 for NONE. */
size_t wc_curve_field_size(webcrypto_named_curve curve);

/* From the table: an algorithm's family (WC_FAMILY_COUNT for an unknown
 * one) and its member in that family (the family's _COUNT when alg is not
 * of that family). backend.h's wc_hash_algorithm is wc_hash_of's
 * inverse. */
static inline wc_family wc_family_of(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a ? a->family : WC_FAMILY_COUNT;
}
/* The member of alg when it belongs to family `fam`, else `none`. */
#define WC_MEMBER_OF(type, fn, fam, field, none)                    \
    static inline type fn(webcrypto_algorithm alg) {                \
        const wc_alg_info *a = wc_alg(alg);                         \
        return a && a->family == (fam) ? a->member.field : (none);  \
    }
WC_MEMBER_OF(wc_hash, wc_hash_of, WC_FAMILY_DIGEST, hash, WC_HASH_COUNT)
WC_MEMBER_OF(wc_cipher, wc_cipher_of, WC_FAMILY_CIPHER, cipher, WC_CIPHER_COUNT)
WC_MEMBER_OF(wc_aead, wc_aead_of, WC_FAMILY_AEAD, aead, WC_AEAD_COUNT)
WC_MEMBER_OF(wc_kdf, wc_kdf_of, WC_FAMILY_KDF, kdf, WC_KDF_COUNT)
WC_MEMBER_OF(wc_rsa_scheme, wc_rsa_scheme_of, WC_FAMILY_RSA, rsa, WC_RSA_SCHEME_COUNT)
WC_MEMBER_OF(wc_ec_op, wc_ec_op_of, WC_FAMILY_EC, ec, WC_EC_COUNT)
WC_MEMBER_OF(wc_okp, wc_okp_of, WC_FAMILY_OKP, okp, WC_OKP_COUNT)
WC_MEMBER_OF(wc_ml_kem, wc_ml_kem_of, WC_FAMILY_ML_KEM, ml_kem, WC_ML_KEM_COUNT)
WC_MEMBER_OF(wc_ml_dsa, wc_ml_dsa_of, WC_FAMILY_ML_DSA, ml_dsa, WC_ML_DSA_COUNT)
WC_MEMBER_OF(wc_xof, wc_xof_of, WC_FAMILY_XOF, xof, WC_XOF_COUNT)
WC_MEMBER_OF(wc_kmac, wc_kmac_of, WC_FAMILY_KMAC, kmac, WC_KMAC_COUNT)
#undef WC_MEMBER_OF
/* The family and member a backend's secret_key_new, pkey_import and
 * pkey_generate take for a key of alg (HMAC: the member is the key's hash);
 * false for an algorithm without keys. */
bool wc_key_family(webcrypto_algorithm alg, webcrypto_algorithm hash, wc_family *family,
                   unsigned *member);

/* Predicates over the table's families and key types. wc_has_key_lens: an
 * algorithm of fixed secret key lengths (the row's key_lens: the AES modes
 * and ChaCha20-Poly1305; named for what it reads, not "is AES", which
 * ChaCha20-Poly1305 is not). */
bool wc_is_hash(webcrypto_algorithm alg);
bool wc_has_key_lens(webcrypto_algorithm alg);
bool wc_is_rsa(webcrypto_algorithm alg);
bool wc_is_ec(webcrypto_algorithm alg);
bool wc_is_okp(webcrypto_algorithm alg);
/* ML-KEM or ML-DSA: keys that are a seed and a public key (pq_*_len). */
bool wc_is_seeded(webcrypto_algorithm alg);
bool wc_is_asymmetric(webcrypto_algorithm alg);
/* The usages a public / private key of an asymmetric algorithm may have. */
unsigned wc_public_usages(webcrypto_algorithm alg);
unsigned wc_private_usages(webcrypto_algorithm alg);
/* Whether an algorithm of fixed key lengths takes keys of this many bytes
 * (GCM-SIV: 16, 32). */
bool wc_aes_key_len_ok(webcrypto_algorithm alg, size_t len);
/* The one key length in bits of an algorithm of fixed key lengths that has
 * only one (ChaCha20-Poly1305: 256, whose generateKey and "get key length"
 * take no length); 0 for every other algorithm. */
size_t wc_single_key_bits(webcrypto_algorithm alg);
/* Block size of a SHA hash in bits (HMAC's default key length); 0 for a
 * non-hash. */
size_t wc_hash_block_bits(webcrypto_algorithm hash);
/* The usages an algorithm's keys may have (of a row: wc_row_usages). */
static inline unsigned wc_row_usages(const wc_alg_info *a) {
    return a->secret_usages | a->public_usages | a->private_usages;
}
static inline unsigned wc_allowed_usages(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a ? wc_row_usages(a) : 0;
}
/* Normalises a hash member: absent is TypeError, a non-hash NotSupportedError,
 * one the backend lacks NotSupportedError. */
webcrypto_status wc_check_hash(const webcrypto_backend *backend, webcrypto_algorithm hash);
/* wc_check_hash, and then whether `alg` takes that hash on this backend: a
 * SHA-3 hash needs the row's sha3_cap (NotSupportedError "HMAC with
 * SHA3-256" otherwise). Every place that checks a keyed algorithm's hash
 * calls this one. */
webcrypto_status wc_check_hash_for(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                   webcrypto_algorithm hash);
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

/* ---- registry.c ---- */
/* Resolves NULL to the default backend and makes sure it is initialised. */
webcrypto_status wc_backend_resolve(const webcrypto_backend *in, const webcrypto_backend **out);
/* Calls backend `name`'s use_provider op (backend.h; arguments non-NULL)
 * without starting it: NotSupportedError if the build has no such backend
 * or it takes no provider. */
webcrypto_status wc_backend_use_provider(const char *name, const char *variant, void *provider);

/* ---- key.c ---- */
/* NotSupportedError unless the algorithm's table row has *format; then
 * maps the drafts' aliases of raw (raw-secret, and raw-public where the
 * algorithm has raw) to raw, so the code after sees raw only. */
webcrypto_status wc_check_format(webcrypto_algorithm alg, webcrypto_key_format *format,
                                 const char *operation);
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
webcrypto_status wc_check_key_op_slow(const webcrypto_params *alg, const webcrypto_key *key,
                                      unsigned op, unsigned key_usage, const char *operation);
/* Inline, as it starts every keyed call: the common case, every check
 * passing and no member to check, returns here; anything else (a failure,
 * or a hash or public_key to check) takes wc_check_key_op_slow, which runs
 * the checks in the spec's order, so that the error raised is its first. */
static inline webcrypto_status wc_check_key_op(const webcrypto_params *alg,
                                               const webcrypto_key *key, unsigned op,
                                               unsigned key_usage, const char *operation) {
    const wc_alg_info *a = alg && key && alg->name == key->alg ? wc_alg(alg->name) : NULL;
    if (a && (key->usages & key_usage) && wc_caps_has(&key->backend->caps, alg->name) &&
        (wc_row_usages(a) & op) &&
        !((a->hash_for | a->public_key_for) & op))
        return WEBCRYPTO_OK;
    return wc_check_key_op_slow(alg, key, op, key_usage, operation);
}
/* The spec's normalisation of an operation's params, which comes before any
 * check of the key: the algorithm known, implemented and offering `op`
 * (NotSupportedError, or TypeError when absent), and the members the
 * operation requires (ECDSA sign/verify and HKDF/PBKDF2 deriveBits: a hash;
 * ECDH/X25519 deriveBits: public_key). wc_check_key_op starts with it. */
webcrypto_status wc_normalize_op(const webcrypto_backend *backend, const webcrypto_params *alg,
                                 unsigned op, const char *operation);

/* ---- the operations' key-free checks ----
 * What an operation checks of its params before it touches a key or data
 * (the family's and member's rules, lengths, hashes, the backend's feature
 * bits), each a function the operation itself calls and webcrypto_supports
 * (supports.c) calls too, so that supports() answers from the same rules.
 * None reads the embedder's limits (webcrypto_set_limits), which the
 * operations check after these and supports() does not consult. */
/* key.c: the key-length rule of the secret-key algorithms. normalize: the
 * members the params must have (AES-*: length, TypeError; HMAC: its hash);
 * bits: the key's length from them ("get key length", generateKey's
 * length: AES-* 128/192/256 as the row's key_lens, OperationError;
 * ChaCha20-Poly1305 256; HMAC the length or the hash's block size; KMAC the
 * length or the row's block_bits, whole bytes). Other families:
 * NotSupportedError. */
webcrypto_status wc_secret_key_normalize(const webcrypto_backend *backend,
                                         const webcrypto_params *alg, const char *operation);
webcrypto_status wc_secret_key_bits(const webcrypto_params *alg, const char *operation,
                                    size_t *bits);
/* key.c: generateKey of a secret key (normalisation, `usages` allowed, the
 * length into *bits); importKey's params (HMAC's hash, wc_pkey_params_check). */
webcrypto_status wc_generate_key_check(const webcrypto_backend *backend,
                                       const webcrypto_params *alg, unsigned usages,
                                       size_t *bits);
webcrypto_status wc_import_key_check(const webcrypto_backend *backend,
                                     const webcrypto_params *alg);
/* pkey.c: the members every RSA or EC import and generate need (RSA: the
 * hash; EC: a known named_curve); generateKey of a key pair (also the RSA
 * modulus and exponent, `usages` allowed); sign/verify's context (ML-DSA,
 * Ed448: at most 255 bytes, Ed448's non-empty one only with
 * WC_CAP_ED448_CONTEXT). */
webcrypto_status wc_pkey_params_check(const webcrypto_backend *backend,
                                      const webcrypto_params *alg);
webcrypto_status wc_pkey_generate_check(const webcrypto_backend *backend,
                                        const webcrypto_params *alg, unsigned usages);
webcrypto_status wc_pkey_sign_check(const webcrypto_backend *backend,
                                    const webcrypto_params *alg);
/* cipher.c: encrypt/decrypt's params (AES-CBC iv, AES-CTR counter and
 * length, the AEADs' iv and tag length, RSA-OAEP's label). */
webcrypto_status wc_cipher_params_check(const webcrypto_params *alg);
/* sign.c: sign/verify's params after wc_normalize_op (KMAC's
 * output_length and customization; wc_pkey_sign_check). */
webcrypto_status wc_sign_check(const webcrypto_backend *backend, const webcrypto_params *alg);
/* digest.c: digest's algorithm and params (cSHAKE: output_length,
 * function name and customization); *n the output's bytes. */
webcrypto_status wc_digest_check(const webcrypto_backend *backend, const webcrypto_params *alg,
                                 size_t *n);
/* derive.c: deriveBits' params and length after wc_normalize_op (the KDFs'
 * members; a key agreement at most the secret of alg->public_key's size);
 * the key agreements' length rule, for a secret of `full` bytes. */
webcrypto_status wc_derive_bits_check(const webcrypto_params *alg, size_t length_bits);
webcrypto_status wc_agreement_length_check(webcrypto_algorithm alg, size_t full,
                                           size_t length_bits);
/* wrap.c: deriveKey's (both algorithms normalised, the derived key's
 * length derivable by alg and importable as raw-secret); wrapKey's or
 * unwrapKey's wrapping algorithm (its operation, then its cipher params). */
webcrypto_status wc_derive_key_check(const webcrypto_backend *backend,
                                     const webcrypto_params *alg,
                                     const webcrypto_params *derived_key_type);
webcrypto_status wc_wrap_check(const webcrypto_backend *backend, const webcrypto_params *alg,
                               bool wrap);

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

/* ---- limits.c: the limits an embedder sets (webcrypto_set_limits), the
 * values in force; each checked where the work it bounds is asked for. ---- */
uint32_t wc_limit_pbkdf2_iterations(void);
uint32_t wc_limit_argon2_memory(void); /* KiB */
uint32_t wc_limit_argon2_passes(void);
uint32_t wc_limit_rsa_generate_bits(void);
uint32_t wc_limit_rsa_import_bits(void);
uint32_t wc_limit_jwk_bytes(void);
uint32_t wc_limit_jwk_key_ops(void);

/* ---- shared argument checks ---- */
/* Output-buffer convention: with out == NULL, report `needed` and succeed
 * (returns 1); with a short buffer, TypeError and report needed (returns -1
 * via *st); else 0 and the caller proceeds. */
int wc_output_check_slow(size_t needed, const uint8_t *out, size_t out_cap, size_t *out_len,
                         webcrypto_status *st);
/* Inline, as every call with an output passes it: a buffer with room is 0
 * here. */
static inline int wc_output_check(size_t needed, const uint8_t *out, size_t out_cap,
                                  size_t *out_len, webcrypto_status *st) {
    if (out && out_cap >= needed) return 0;
    return wc_output_check_slow(needed, out, out_cap, out_len, st);
}

#define WC_REQUIRE(cond, what)                                                    \
    do {                                                                          \
        if (!(cond)) return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s", what); \
    } while (0)

#endif /* WEBCRYPTO_CORE_CORE_H */
