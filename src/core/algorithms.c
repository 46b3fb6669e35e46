/*
 * The algorithm table (core.h's wc_alg_info) and the curve table, the names,
 * operations and usages read from them, and the normalisation checks shared
 * by operations.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

/* ---- DER object identifiers: the contents bytes (checked with
 * `openssl asn1parse -genstr OID:...`) ---- */
static const uint8_t OID_RSA[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};
static const uint8_t OID_EC_PUBLIC_KEY[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
static const uint8_t OID_EC_DH[] = {0x2b, 0x81, 0x04, 0x01, 0x0c};
static const uint8_t OID_P256[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
static const uint8_t OID_P384[] = {0x2b, 0x81, 0x04, 0x00, 0x22};
static const uint8_t OID_P521[] = {0x2b, 0x81, 0x04, 0x00, 0x23};
/* RFC 8410: 1.3.101.arc, arc from member_facts.h. */
#define OKP_OID(ID, nm, klen, olen, arc, kind) static const uint8_t OID_##ID[] = {0x2b, 0x65, arc};
WC_OKP_FACTS(OKP_OID)
/* NIST CSOR (2.16.840.1.101.3.4): ML-KEM 4.4.1-3 (draft-ietf-lamps-kyber-
 * certificates), ML-DSA 3.17-19 (RFC 9881). */
static const uint8_t OID_ML_KEM_512[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x01};
static const uint8_t OID_ML_KEM_768[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02};
static const uint8_t OID_ML_KEM_1024[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x03};
static const uint8_t OID_ML_DSA_44[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11};
static const uint8_t OID_ML_DSA_65[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12};
static const uint8_t OID_ML_DSA_87[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13};
#define OID(o) .oid = o, .oid_len = sizeof o

static const wc_curve_info wc_curves[] = {
    {WEBCRYPTO_CURVE_P256, "P-256", OID_P256, sizeof OID_P256, 32, "ES256"},
    {WEBCRYPTO_CURVE_P384, "P-384", OID_P384, sizeof OID_P384, 48, "ES384"},
    {WEBCRYPTO_CURVE_P521, "P-521", OID_P521, sizeof OID_P521, 66, "ES512"},
};

#define OPB(op) (1u << (unsigned)(WEBCRYPTO_OP_##op))
#define OPS_KEYED (OPB(GENERATE_KEY) | OPB(IMPORT_KEY) | OPB(EXPORT_KEY))
#define OPS_CIPHER (OPB(ENCRYPT) | OPB(DECRYPT) | OPS_KEYED | OPB(GET_KEY_LENGTH))
#define OPS_SIGNER (OPB(SIGN) | OPB(VERIFY) | OPS_KEYED)
#define OPS_KDF (OPB(DERIVE_BITS) | OPB(DERIVE_KEY) | OPB(IMPORT_KEY) | OPB(GET_KEY_LENGTH))
#define OPS_AGREE (OPB(DERIVE_BITS) | OPB(DERIVE_KEY) | OPS_KEYED)
/* Every algorithm with key pairs: getPublicKey (modern-algos draft). */
#define OPS_PAIR OPB(GET_PUBLIC_KEY)

/* ROW opens a row's initializer at its own index; the row (or HASH and RSA)
 * adds its fields and closes it. */
#define ROW(id, nm, fam)                                                                \
    [WEBCRYPTO_ALG_##id] = {.alg = WEBCRYPTO_ALG_##id, .name = nm, .family = fam
/* The hashes' rows, from member_facts.h. */
#define HASH(id, nm, size, block, sha3)                                                   \
    ROW(id, nm, WC_FAMILY_DIGEST), .member.hash = WC_HASH_##id, .ops = OPB(DIGEST),       \
        .digest_size = size, .block_bits = block },
/* AES modes: secret keys of 16, 24 (len24 = 0: not allowed) or 32 bytes;
 * the row adds its member and closes. */
#define AES(id, nm, fam, ops_, usages, len24, jwk_128, jwk_192, jwk_256)                 \
    ROW(id, nm, fam), .key_types = WC_KEYS_SECRET, .ops = ops_, .secret_usages = usages, \
        .key_lens = {16, len24, 32}, .formats = WC_FMTS_SECRET_RAW | WC_FMT(JWK),        \
        .jwk_kty = "oct", .jwk_use = "enc",                \
        .jwk_alg_by_len = {jwk_128, jwk_192, jwk_256}
#define RSA(id, nm, scheme, pub, priv, use, jwk_1, jwk_256, jwk_384, jwk_512)             \
    ROW(id, nm, WC_FAMILY_RSA), .member.rsa = scheme, .key_types = WC_KEYS_PAIR,         \
        .formats = WC_FMTS_PAIR,                                                          \
        .ops = (scheme == WC_RSA_SCHEME_OAEP ? OPB(ENCRYPT) | OPB(DECRYPT) | OPS_KEYED    \
                                             : OPS_SIGNER) | OPS_PAIR,                    \
        .public_usages = pub, .private_usages = priv, .jwk_kty = "RSA", .jwk_use = use,  \
        .jwk_alg_by_hash = {jwk_1, jwk_256, jwk_384, jwk_512}, OID(OID_RSA),                \
        .sha3_cap = WC_CAP_SHA3_##id }

/* OKP: key pairs of okp_key_len-byte keys; a signer (KIND SIGN) or a
 * key agreement (AGREE). */
#define OKP_SIGN(nm)                                                                       \
    .ops = OPS_SIGNER | OPS_PAIR, .public_usages = WEBCRYPTO_USAGE_VERIFY,                 \
    .private_usages = WEBCRYPTO_USAGE_SIGN, .jwk_use = "sig", .jwk_alg = nm,               \
    .jwk_alg_alt = "EdDSA"
#define OKP_AGREE(nm)                                                                      \
    .ops = OPS_AGREE | OPS_PAIR, .private_usages = WC_KDF_USAGES,                          \
    .public_key_for = WEBCRYPTO_USAGE_DERIVE_BITS, .jwk_use = "enc"
#define OKP(id, nm, klen, olen, arc, kind)                                                 \
    ROW(id, nm, WC_FAMILY_OKP), .member.okp = WC_OKP_##id, .key_types = WC_KEYS_PAIR,      \
        .formats = WC_FMTS_PAIR_RAW, OKP_##kind(nm), .okp_key_len = klen,                  \
        .okp_out_len = olen, .jwk_kty = "OKP", .jwk_crv = nm, OID(OID_##id) },

/* ML-KEM and ML-DSA: key pairs of a seed and a public key; spki, pkcs8
 * (seed form), raw-public, raw-seed and JWK "AKP" whose "alg" is the
 * algorithm's name; no "raw". */
#define WC_FMTS_SEEDED (WC_FMTS_PAIR | WC_FMT(RAW_PUBLIC) | WC_FMT(RAW_SEED))
#define ML_KEM(id, nm, pub, ct)                                                            \
    ROW(id, nm, WC_FAMILY_ML_KEM), .member.ml_kem = WC_##id, .key_types = WC_KEYS_PAIR,    \
        .formats = WC_FMTS_SEEDED,                                                         \
        .ops = OPB(ENCAPSULATE) | OPB(DECAPSULATE) | OPS_KEYED | OPS_PAIR,               \
        .public_usages = WEBCRYPTO_USAGE_ENCAPSULATE_KEY | WEBCRYPTO_USAGE_ENCAPSULATE_BITS, \
        .private_usages = WEBCRYPTO_USAGE_DECAPSULATE_KEY | WEBCRYPTO_USAGE_DECAPSULATE_BITS, \
        .pq_public_len = pub, .pq_seed_len = WC_ML_KEM_SEED_LEN, .pq_out_len = ct,        \
        .jwk_kty = "AKP", .jwk_use = "enc", .jwk_alg = nm, OID(OID_##id) },
#define ML_DSA(id, nm, pub, sig)                                                           \
    ROW(id, nm, WC_FAMILY_ML_DSA), .member.ml_dsa = WC_##id, .key_types = WC_KEYS_PAIR,    \
        .formats = WC_FMTS_SEEDED, .ops = OPS_SIGNER | OPS_PAIR,                         \
        .public_usages = WEBCRYPTO_USAGE_VERIFY, .private_usages = WEBCRYPTO_USAGE_SIGN,   \
        .pq_public_len = pub, .pq_seed_len = WC_ML_DSA_SEED_LEN, .pq_out_len = sig,       \
        .jwk_kty = "AKP", .jwk_use = "sig", .jwk_alg = nm, OID(OID_##id) },


const wc_alg_info wc_algs[WC_ALG_COUNT] = {
    /* SHA-1 .. SHA-512 and SHA-3 (FIPS 202). SHA-3's block_bits is 0: the
     * draft defines no block size for them, so an HMAC key with SHA-3 needs
     * an explicit length (NotSupportedError otherwise, as in Node 24); HMAC
     * itself uses the sponge's rate as its block (the library's). No JOSE
     * "alg" is registered for HMAC or RSA with SHA-3, so their columns in
     * jwk_alg_by_hash stay NULL: such keys export without "alg" and a JWK
     * that has one is DataError (the spec's "no applicable specification";
     * Node 24 ignores it). */
    WC_HASH_FACTS(HASH)
    ROW(HMAC, "HMAC", WC_FAMILY_HMAC), .key_types = WC_KEYS_SECRET,
        .formats = WC_FMTS_SECRET_RAW | WC_FMT(JWK),
        .ops = OPS_SIGNER | OPB(GET_KEY_LENGTH), .secret_usages = WC_HMAC_USAGES,
        .jwk_kty = "oct", .jwk_use = "sig", .jwk_alg_by_hash = {"HS1", "HS256", "HS384", "HS512"},
        .sha3_cap = WC_CAP_SHA3_HMAC},
    AES(AES_CBC, "AES-CBC", WC_FAMILY_CIPHER, OPS_CIPHER, WC_AES_USAGES, 24, "A128CBC", "A192CBC",
        "A256CBC"), .member.cipher = WC_CIPHER_AES_CBC},
    AES(AES_CTR, "AES-CTR", WC_FAMILY_CIPHER, OPS_CIPHER, WC_AES_USAGES, 24, "A128CTR", "A192CTR",
        "A256CTR"), .member.cipher = WC_CIPHER_AES_CTR},
    AES(AES_GCM, "AES-GCM", WC_FAMILY_AEAD, OPS_CIPHER, WC_AES_USAGES, 24, "A128GCM", "A192GCM",
        "A256GCM"), .member.aead = WC_AEAD_AES_GCM},
    ROW(HKDF, "HKDF", WC_FAMILY_KDF), .member.kdf = WC_KDF_HKDF, .key_types = WC_KEYS_SECRET,
        .formats = WC_FMTS_SECRET_RAW,
        .ops = OPS_KDF, .secret_usages = WC_KDF_USAGES, .hash_for = WEBCRYPTO_USAGE_DERIVE_BITS,
        .sha3_cap = WC_CAP_SHA3_HKDF},
    ROW(PBKDF2, "PBKDF2", WC_FAMILY_KDF), .member.kdf = WC_KDF_PBKDF2,
        .key_types = WC_KEYS_SECRET, .formats = WC_FMTS_SECRET_RAW, .ops = OPS_KDF,
        .secret_usages = WC_KDF_USAGES, .hash_for = WEBCRYPTO_USAGE_DERIVE_BITS,
        .sha3_cap = WC_CAP_SHA3_PBKDF2},
    /* A*GCMSIV is this library's name: JOSE registers none for GCM-SIV. */
    AES(AES_GCM_SIV, "AES-GCM-SIV", WC_FAMILY_AEAD, OPS_CIPHER, WC_AES_USAGES, 0, "A128GCMSIV",
        NULL, "A256GCMSIV"), .member.aead = WC_AEAD_AES_GCM_SIV},
    AES(AES_KW, "AES-KW", WC_FAMILY_KEYWRAP,
        OPB(WRAP_KEY) | OPB(UNWRAP_KEY) | OPS_KEYED | OPB(GET_KEY_LENGTH),
        WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY, 24, "A128KW", "A192KW", "A256KW")},
    RSA(RSASSA_PKCS1_V1_5, "RSASSA-PKCS1-v1_5", WC_RSA_SCHEME_PKCS1_V1_5, WEBCRYPTO_USAGE_VERIFY,
        WEBCRYPTO_USAGE_SIGN, "sig", "RS1", "RS256", "RS384", "RS512"),
    RSA(RSA_PSS, "RSA-PSS", WC_RSA_SCHEME_PSS, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN, "sig",
        "PS1", "PS256", "PS384", "PS512"),
    RSA(RSA_OAEP, "RSA-OAEP", WC_RSA_SCHEME_OAEP,
        WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY, WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY, "enc", "RSA-OAEP", "RSA-OAEP-256",
        "RSA-OAEP-384", "RSA-OAEP-512"),
    /* ECDSA's JWK alg depends on the curve (wc_curve_info). */
    ROW(ECDSA, "ECDSA", WC_FAMILY_EC), .member.ec = WC_EC_ECDSA, .key_types = WC_KEYS_PAIR,
        .formats = WC_FMTS_PAIR_RAW,
        .ops = OPS_SIGNER | OPS_PAIR, .public_usages = WEBCRYPTO_USAGE_VERIFY,
        .private_usages = WEBCRYPTO_USAGE_SIGN,
        .hash_for = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, .jwk_kty = "EC",
        .jwk_use = "sig", .jwk_alg_by_curve = true, OID(OID_EC_PUBLIC_KEY),
        .sha3_cap = WC_CAP_SHA3_ECDSA},
    /* id-ecDH (RFC 5480 2.1.2) restricts a key to ECDH: read for ECDH only,
     * never written (Node and Chrome write id-ecPublicKey). */
    ROW(ECDH, "ECDH", WC_FAMILY_EC), .member.ec = WC_EC_ECDH, .key_types = WC_KEYS_PAIR,
        .formats = WC_FMTS_PAIR_RAW,
        .ops = OPS_AGREE | OPS_PAIR, .private_usages = WC_KDF_USAGES,
        .public_key_for = WEBCRYPTO_USAGE_DERIVE_BITS, .jwk_kty = "EC", .jwk_use = "enc",
        OID(OID_EC_PUBLIC_KEY), .oid_alt = OID_EC_DH, .oid_alt_len = sizeof OID_EC_DH},
    /* OKP rows, from member_facts.h. RFC 8037: a signer's JWK alg may also be
     * "EdDSA"; its own name is written (as Node 24 writes Ed448's). Ed448's
     * sign and verify take params->context (0..255 bytes). X448 and Ed448:
     * "Secure Curves in the Web Cryptography API". */
    WC_OKP_FACTS(OKP)
    WC_ML_KEM_FACTS(ML_KEM)
    WC_ML_DSA_FACTS(ML_DSA)
    /* cSHAKE (SP 800-185): digests of outputLength bits with functionName N
     * and customization S; N and S empty is SHAKE (FIPS 202). */
    ROW(CSHAKE128, "cSHAKE128", WC_FAMILY_XOF), .member.xof = WC_XOF_CSHAKE128,
        .ops = OPB(DIGEST)},
    ROW(CSHAKE256, "cSHAKE256", WC_FAMILY_XOF), .member.xof = WC_XOF_CSHAKE256,
        .ops = OPB(DIGEST)},
    /* KMAC (SP 800-185): secret keys (default length 128 / 256 bits), MACs
     * of outputLength bits with customization S; JWK alg per the draft. */
    ROW(KMAC128, "KMAC128", WC_FAMILY_KMAC), .member.kmac = WC_KMAC_128,
        .key_types = WC_KEYS_SECRET, .formats = WC_FMT(RAW_SECRET) | WC_FMT(JWK),
        .ops = OPS_SIGNER | OPB(GET_KEY_LENGTH),
        .secret_usages = WC_HMAC_USAGES, .block_bits = 128, .jwk_kty = "oct", .jwk_use = "sig",
        .jwk_alg = "K128"},
    ROW(KMAC256, "KMAC256", WC_FAMILY_KMAC), .member.kmac = WC_KMAC_256,
        .key_types = WC_KEYS_SECRET, .formats = WC_FMT(RAW_SECRET) | WC_FMT(JWK),
        .ops = OPS_SIGNER | OPB(GET_KEY_LENGTH),
        .secret_usages = WC_HMAC_USAGES, .block_bits = 256, .jwk_kty = "oct", .jwk_use = "sig",
        .jwk_alg = "K256"},
    /* "Modern Algorithms in the Web Cryptography API": ChaCha20-Poly1305 has
     * one key length (its only slot is the 32-byte one) and JWK alg "C20P";
     * AES-OCB "A128OCB".."A256OCB"; Argon2 keys (passwords) are raw-secret only. */
    ROW(CHACHA20_POLY1305, "ChaCha20-Poly1305", WC_FAMILY_AEAD),
        .member.aead = WC_AEAD_CHACHA20_POLY1305, .key_types = WC_KEYS_SECRET,
        .formats = WC_FMT(RAW_SECRET) | WC_FMT(JWK), .ops = OPS_CIPHER,
        .secret_usages = WC_AES_USAGES, .key_lens = {0, 0, 32}, .jwk_kty = "oct",
        .jwk_use = "enc", .jwk_alg_by_len = {NULL, NULL, "C20P"}},
    /* AES-OCB: the AES row's fields, with the draft's formats (no raw). */
    ROW(AES_OCB, "AES-OCB", WC_FAMILY_AEAD), .member.aead = WC_AEAD_AES_OCB,
        .key_types = WC_KEYS_SECRET, .ops = OPS_CIPHER, .secret_usages = WC_AES_USAGES,
        .key_lens = {16, 24, 32}, .formats = WC_FMT(RAW_SECRET) | WC_FMT(JWK), .jwk_kty = "oct",
        .jwk_use = "enc", .jwk_alg_by_len = {"A128OCB", "A192OCB", "A256OCB"}},
    ROW(ARGON2D, "Argon2d", WC_FAMILY_KDF), .member.kdf = WC_KDF_ARGON2D,
        .key_types = WC_KEYS_SECRET, .formats = WC_FMT(RAW_SECRET), .ops = OPS_KDF,
        .secret_usages = WC_KDF_USAGES},
    ROW(ARGON2I, "Argon2i", WC_FAMILY_KDF), .member.kdf = WC_KDF_ARGON2I,
        .key_types = WC_KEYS_SECRET, .formats = WC_FMT(RAW_SECRET), .ops = OPS_KDF,
        .secret_usages = WC_KDF_USAGES},
    ROW(ARGON2ID, "Argon2id", WC_FAMILY_KDF), .member.kdf = WC_KDF_ARGON2ID,
        .key_types = WC_KEYS_SECRET, .formats = WC_FMT(RAW_SECRET), .ops = OPS_KDF,
        .secret_usages = WC_KDF_USAGES},
};

static int ascii_casecmp(const char *a, const char *b) {
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
        if (cb >= 'A' && cb <= 'Z') cb += 'a' - 'A';
        if (ca != cb || ca == 0) return ca - cb;
    }
}

const wc_alg_info *wc_alg_by_name(const char *name) {
    for (unsigned i = 1; i < WC_ALG_COUNT; i++)
        if (ascii_casecmp(name, wc_algs[i].name) == 0) return &wc_algs[i];
    return NULL;
}

const wc_curve_info *wc_curve(webcrypto_named_curve curve) {
    for (size_t i = 0; i < sizeof wc_curves / sizeof wc_curves[0]; i++)
        if (wc_curves[i].curve == curve) return &wc_curves[i];
    return NULL;
}

size_t wc_curve_count(void) { return sizeof wc_curves / sizeof wc_curves[0]; }

const wc_curve_info *wc_curve_at(size_t index) {
    return index < wc_curve_count() ? &wc_curves[index] : NULL;
}

size_t wc_curve_field_size(webcrypto_named_curve curve) {
    const wc_curve_info *c = wc_curve(curve);
    return c ? c->field_size : 0;
}

bool wc_key_family(webcrypto_algorithm alg, webcrypto_algorithm hash, wc_family *family,
                   unsigned *member) {
    const wc_alg_info *a = wc_alg(alg);
    if (!a || !a->key_types) return false;
    *family = a->family;
    switch (a->family) {
    case WC_FAMILY_DIGEST: return false; /* no keys (key_types is 0) */
    case WC_FAMILY_HMAC: *member = (unsigned)wc_hash_of(hash); break;
    case WC_FAMILY_CIPHER: *member = (unsigned)a->member.cipher; break;
    case WC_FAMILY_AEAD: *member = (unsigned)a->member.aead; break;
    case WC_FAMILY_KEYWRAP: *member = 0; break;
    case WC_FAMILY_KDF: *member = (unsigned)a->member.kdf; break;
    case WC_FAMILY_RSA: *member = (unsigned)a->member.rsa; break;
    case WC_FAMILY_EC: *member = (unsigned)a->member.ec; break;
    case WC_FAMILY_OKP: *member = (unsigned)a->member.okp; break;
    case WC_FAMILY_ML_KEM: *member = (unsigned)a->member.ml_kem; break;
    case WC_FAMILY_ML_DSA: *member = (unsigned)a->member.ml_dsa; break;
    case WC_FAMILY_XOF: return false; /* no keys (key_types is 0) */
    case WC_FAMILY_KMAC: *member = (unsigned)a->member.kmac; break;
    }
    return true;
}

const char *webcrypto_algorithm_name(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a ? a->name : NULL;
}

size_t webcrypto_algorithm_count(void) { return WC_ALG_COUNT - 1; }

webcrypto_algorithm webcrypto_algorithm_at(size_t index) {
    if (index >= WC_ALG_COUNT - 1) return WEBCRYPTO_ALG_NONE;
    return wc_algs[index + 1].alg;
}

static const char *const wc_usage_names[] = {
    "encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey",
    "encapsulateKey", "encapsulateBits", "decapsulateKey", "decapsulateBits",
};

static const char *const wc_op_names[] = {
    [WEBCRYPTO_OP_ENCRYPT] = "encrypt",         [WEBCRYPTO_OP_DECRYPT] = "decrypt",
    [WEBCRYPTO_OP_SIGN] = "sign",               [WEBCRYPTO_OP_VERIFY] = "verify",
    [WEBCRYPTO_OP_DIGEST] = "digest",           [WEBCRYPTO_OP_GENERATE_KEY] = "generateKey",
    [WEBCRYPTO_OP_DERIVE_KEY] = "deriveKey",    [WEBCRYPTO_OP_DERIVE_BITS] = "deriveBits",
    [WEBCRYPTO_OP_IMPORT_KEY] = "importKey",    [WEBCRYPTO_OP_EXPORT_KEY] = "exportKey",
    [WEBCRYPTO_OP_WRAP_KEY] = "wrapKey",        [WEBCRYPTO_OP_UNWRAP_KEY] = "unwrapKey",
    [WEBCRYPTO_OP_GET_KEY_LENGTH] = "get key length",
    [WEBCRYPTO_OP_GET_PUBLIC_KEY] = "getPublicKey",
    [WEBCRYPTO_OP_ENCAPSULATE] = "encapsulate",   [WEBCRYPTO_OP_DECAPSULATE] = "decapsulate",
};

const char *webcrypto_operation_name(webcrypto_operation op) {
    if ((unsigned)op >= sizeof wc_op_names / sizeof *wc_op_names) return NULL;
    return wc_op_names[op];
}

bool webcrypto_algorithm_has_operation(webcrypto_algorithm alg, webcrypto_operation op) {
    const wc_alg_info *a = wc_alg(alg);
    if (!a || !webcrypto_operation_name(op)) return false;
    return (a->ops & (1u << (unsigned)op)) != 0;
}

/* ML-KEM's sizes, from the table (kem.c has the operations). */
size_t webcrypto_kem_ciphertext_size(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a && a->family == WC_FAMILY_ML_KEM ? a->pq_out_len : 0;
}

size_t webcrypto_kem_shared_key_size(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a && a->family == WC_FAMILY_ML_KEM ? WC_ML_KEM_SHARED_LEN : 0;
}

bool webcrypto_algorithm_has_format(webcrypto_algorithm alg, webcrypto_key_format format) {
    const wc_alg_info *a = wc_alg(alg);
    if (!a || format < WEBCRYPTO_FORMAT_RAW || format > WEBCRYPTO_FORMAT_RAW_SEED) return false;
    return (a->formats & (1u << (unsigned)format)) != 0;
}

webcrypto_status webcrypto_algorithm_from_name(const char *name, webcrypto_algorithm *out) {
    WC_REQUIRE(name && out, "algorithm_from_name: name and out must not be NULL");
    const wc_alg_info *a = wc_alg_by_name(name);
    if (!a)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "unrecognized algorithm name \"%s\"", name);
    *out = a->alg;
    return WEBCRYPTO_OK;
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

bool wc_is_hash(webcrypto_algorithm alg) { return wc_family_of(alg) == WC_FAMILY_DIGEST; }

bool wc_has_key_lens(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    for (size_t i = 0; a && i < WC_KEY_LENS; i++)
        if (a->key_lens[i]) return true;
    return false;
}

bool wc_aes_key_len_ok(webcrypto_algorithm alg, size_t len) {
    const wc_alg_info *a = wc_alg(alg);
    for (size_t i = 0; a && len && i < WC_KEY_LENS; i++)
        if (a->key_lens[i] == len) return true;
    return false;
}

size_t wc_single_key_bits(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    size_t only = 0, count = 0;
    for (size_t i = 0; a && i < WC_KEY_LENS; i++)
        if (a->key_lens[i]) only = a->key_lens[i], count++;
    return count == 1 ? only * 8 : 0;
}

size_t webcrypto_digest_size(webcrypto_algorithm hash) {
    const wc_alg_info *a = wc_alg(hash);
    return a ? a->digest_size : 0;
}

size_t wc_hash_block_bits(webcrypto_algorithm hash) {
    const wc_alg_info *a = wc_alg(hash);
    return a ? a->block_bits : 0;
}

bool wc_is_rsa(webcrypto_algorithm alg) { return wc_family_of(alg) == WC_FAMILY_RSA; }

bool wc_is_ec(webcrypto_algorithm alg) { return wc_family_of(alg) == WC_FAMILY_EC; }

bool wc_is_okp(webcrypto_algorithm alg) { return wc_family_of(alg) == WC_FAMILY_OKP; }

bool wc_is_seeded(webcrypto_algorithm alg) {
    wc_family f = wc_family_of(alg);
    return f == WC_FAMILY_ML_KEM || f == WC_FAMILY_ML_DSA;
}

bool wc_is_asymmetric(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a && (a->key_types & WC_KEYS_PAIR);
}

unsigned wc_public_usages(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a ? a->public_usages : 0;
}

unsigned wc_private_usages(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    return a ? a->private_usages : 0;
}

const char *webcrypto_curve_name(webcrypto_named_curve curve) {
    const wc_curve_info *c = wc_curve(curve);
    return c ? c->name : NULL;
}

webcrypto_status webcrypto_curve_from_name(const char *name, webcrypto_named_curve *out) {
    WC_REQUIRE(name && out, "curve_from_name: name and out must not be NULL");
    for (size_t i = 0; i < wc_curve_count(); i++) {
        if (strcmp(name, wc_curves[i].name) == 0) {
            *out = wc_curves[i].curve;
            return WEBCRYPTO_OK;
        }
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "unrecognized curve name \"%s\"", name);
}

webcrypto_status wc_check_algorithm(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                    const char *operation) {
    if (alg == WEBCRYPTO_ALG_NONE)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: algorithm name is missing",
                        operation);
    const wc_alg_info *a = wc_alg(alg);
    if (!a)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: unknown algorithm %d", operation,
                        (int)alg);
    /* The backend's description names its library and version ("OpenSSL
     * 3.0.19 ..."): what lacks the algorithm, and what would have it. */
    if (!wc_caps_has(&backend->caps, alg))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: the %s backend does not support %s (%s)",
                        operation, backend->name, a->name,
                        backend->description ? backend->description : backend->name);
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

webcrypto_status wc_check_hash_for(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                   webcrypto_algorithm hash) {
    webcrypto_status st = wc_check_hash(backend, hash);
    if (st != WEBCRYPTO_OK || !wc_hash_is_sha3(wc_hash_of(hash))) return st;
    const wc_alg_info *a = wc_alg(alg);
    if (!a || !a->sha3_cap)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s does not take %s as its hash",
                        a ? a->name : "that algorithm", webcrypto_algorithm_name(hash));
    if (!(backend->caps.features & a->sha3_cap))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "the %s backend does not support %s with %s (its library lacks the "
                        "combination)",
                        backend->name, a->name, webcrypto_algorithm_name(hash));
    return WEBCRYPTO_OK;
}

int wc_output_check_slow(size_t needed, const uint8_t *out, size_t out_cap, size_t *out_len,
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
