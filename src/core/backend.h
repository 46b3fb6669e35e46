/*
 * backend.h - the contract between the core and a backend.
 *
 * A backend is a table of primitive operations, registered under a name in
 * src/core/registry.c. The core validates and normalises every request with
 * WebCrypto's rules before it calls a backend, so a backend:
 *
 *  - never re-checks what the core guarantees (listed at each function),
 *  - is only called for algorithms its init() reported in *caps,
 *  - may leave an op NULL: the core then clears the *caps bits of the
 *    algorithms that need it (registry.c), so they are NotSupportedError,
 *  - gets an algorithm as its family's member (wc_hash, wc_aead, wc_okp, ...,
 *    below), never as webcrypto_algorithm, and switches over those small
 *    enums exhaustively,
 *  - reports failures by returning a status after setting a message with
 *    wc_error(); a failure of the underlying library is OPERATION (or
 *    NO_MEMORY), with the library's reason in the message.
 *
 * Thread safety: init() runs once per process (the core serialises it).
 * Key state returned by secret_key_new() is read-only afterwards and is used
 * by many threads at once; per-call mutable state is the backend's to make
 * (it may cache some in the key state, thread-safely: through atomic
 * operations, as the openssl backend's AES-GCM-SIV keeps spare contexts, or
 * per thread, as its other ciphers, HMAC and digests keep prepared contexts
 * in a per-thread table whose links to the key a mutex guards; whatever a
 * key caches is freed by its secret_key_free).
 * Contexts (digest, hmac) belong to one thread at a time.
 */
#ifndef WEBCRYPTO_CORE_BACKEND_H
#define WEBCRYPTO_CORE_BACKEND_H

#include "webcrypto.h"
#include "member_facts.h"

/* ---- capabilities: what a backend's init reports it implements ----
 * Two sets, so that either can grow without reaching the other (module ABI
 * 6; ABI 5 had one 64-bit word, algorithms from the bottom and features
 * from the top): `algs`, a bit per webcrypto_algorithm in as many words as
 * the algorithm count needs (wc_caps_add, wc_caps_has), and `features`, a
 * word of WC_CAP_* bits below. */

/* One past the last webcrypto_algorithm value: the size of tables indexed by
 * algorithm. Kept here, not in the public header, so that it can grow. */
#define WC_ALG_COUNT ((unsigned)WEBCRYPTO_ALG_ARGON2ID + 1u)
#define WC_CAP_ALG_WORDS ((WC_ALG_COUNT + 63u) / 64u)

typedef struct wc_caps {
    uint64_t algs[WC_CAP_ALG_WORDS]; /* bit alg % 64 of word alg / 64 */
    uint64_t features;               /* WC_CAP_* */
} wc_caps;
_Static_assert(sizeof(((wc_caps *)0)->algs) * 8 >= WC_ALG_COUNT,
               "wc_caps.algs has a bit for every algorithm");

static inline void wc_caps_add(wc_caps *c, webcrypto_algorithm alg) {
    if ((unsigned)alg < WC_ALG_COUNT)
        c->algs[(unsigned)alg / 64u] |= UINT64_C(1) << ((unsigned)alg % 64u);
}
static inline void wc_caps_remove(wc_caps *c, webcrypto_algorithm alg) {
    if ((unsigned)alg < WC_ALG_COUNT)
        c->algs[(unsigned)alg / 64u] &= ~(UINT64_C(1) << ((unsigned)alg % 64u));
}
static inline bool wc_caps_has(const wc_caps *c, webcrypto_algorithm alg) {
    return (unsigned)alg < WC_ALG_COUNT &&
           (c->algs[(unsigned)alg / 64u] >> ((unsigned)alg % 64u) & 1u) != 0;
}

/* Adds each algorithm of the list: wc_caps_add_all(&c, WEBCRYPTO_ALG_X, ...). */
static inline void wc_caps_add_list(wc_caps *c, const webcrypto_algorithm *algs) {
    for (; *algs != WEBCRYPTO_ALG_NONE; algs++) wc_caps_add(c, *algs);
}
#define wc_caps_add_all(c, ...) \
    wc_caps_add_list((c), (const webcrypto_algorithm[]){__VA_ARGS__, WEBCRYPTO_ALG_NONE})
static inline bool wc_caps_no_alg(const wc_caps *c) {
    for (unsigned i = 0; i < WC_CAP_ALG_WORDS; i++)
        if (c->algs[i]) return false;
    return true;
}

/* Feature bits (wc_caps.features):
 * WC_CAP_RSA_MULTI_PRIME, pkey_import takes RSA private keys with more than
 * two primes (f->oth_count > 0). Without it the core refuses such a key with
 * NotSupportedError and the backend never sees one. */
#define WC_CAP_RSA_MULTI_PRIME (UINT64_C(1) << 0)
/* SHA-3 as the hash of a keyed algorithm: a backend that has the SHA-3
 * digests may still lack one of these combinations (a JCA provider without
 * PBKDF2WithHmacSHA3-256, say). Bit set: the backend takes every SHA-3 hash
 * with that algorithm; unset: the core answers NotSupportedError for the
 * combination ("HMAC with SHA3-256"). The table's row names its bit
 * (wc_alg_info.sha3_cap). */
#define WC_CAP_SHA3_HMAC (UINT64_C(1) << 1)
#define WC_CAP_SHA3_HKDF (UINT64_C(1) << 2)
#define WC_CAP_SHA3_PBKDF2 (UINT64_C(1) << 3)
#define WC_CAP_SHA3_RSASSA_PKCS1_V1_5 (UINT64_C(1) << 4)
#define WC_CAP_SHA3_RSA_PSS (UINT64_C(1) << 5)
#define WC_CAP_SHA3_RSA_OAEP (UINT64_C(1) << 6)
#define WC_CAP_SHA3_ECDSA (UINT64_C(1) << 7)
/* cSHAKE with a non-empty function name or customization (SP 800-185
 * section 3.3); without it only the SHAKE case (both empty) is offered. */
#define WC_CAP_CSHAKE_CUSTOM (UINT64_C(1) << 8)
/* WC_CAP_XOF_ANY_LENGTH: xof takes any out_len. Without it (a JCA provider
 * whose MessageDigest "SHAKE128-256" / "SHAKE256-512" has a fixed length)
 * the core calls xof only with wc_xof_fixed_bits(kind) / 8 bytes and answers
 * NotSupportedError for any other outputLength. */
#define WC_CAP_XOF_ANY_LENGTH (UINT64_C(1) << 9)
/* WC_CAP_KMAC_ANY: kmac takes any out_len and customization. Without it (a
 * JCA provider whose Mac "KMAC128" / "KMAC256" fixes both) the core calls
 * kmac only with wc_kmac_fixed_bits(kind) / 8 bytes and an empty
 * customization, and answers NotSupportedError for anything else. */
#define WC_CAP_KMAC_ANY (UINT64_C(1) << 10)
/* WC_CAP_ED448_CONTEXT: okp_sign/okp_verify take a non-empty Ed448 context.
 * Without it the core answers NotSupportedError for one, and the backend is
 * only ever given an empty context. */
#define WC_CAP_ED448_CONTEXT (UINT64_C(1) << 11)
/* WC_CAP_ML_DSA_CONTEXT: ml_dsa_sign/ml_dsa_verify take a non-empty
 * context. Without it the core answers NotSupportedError for one (and
 * webcrypto_supports false), and the backend is only ever given an empty
 * context (the JDK's ML-DSA Signature takes no parameters). */
#define WC_CAP_ML_DSA_CONTEXT (UINT64_C(1) << 12)

/*
 * Families and their members, as a backend sees them. The core's algorithm
 * table (src/core/algorithms.c) gives each webcrypto_algorithm its family and
 * its member here; a backend switches over these small enums, exhaustively
 * and without `default:` (the build uses -Wswitch-enum), so a new member that
 * a backend does not handle fails its build. A new member is appended before
 * the family's _COUNT.
 */
typedef enum wc_family {
    WC_FAMILY_DIGEST, /* SHA-1, SHA-256, ...: wc_hash */
    WC_FAMILY_HMAC,   /* HMAC (its hash: wc_hash) */
    WC_FAMILY_CIPHER, /* unauthenticated block-cipher modes: wc_cipher */
    WC_FAMILY_AEAD,   /* wc_aead */
    WC_FAMILY_KEYWRAP,/* AES-KW */
    WC_FAMILY_KDF,    /* wc_kdf */
    WC_FAMILY_RSA,    /* RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP: wc_rsa_scheme */
    WC_FAMILY_EC,     /* ECDSA, ECDH over the NIST curves: wc_ec_op */
    WC_FAMILY_OKP,    /* Edwards and Montgomery curves (RFC 8037 "OKP"): wc_okp */
    WC_FAMILY_ML_KEM, /* FIPS 203 ML-KEM: wc_ml_kem */
    WC_FAMILY_ML_DSA, /* FIPS 204 ML-DSA: wc_ml_dsa */
    WC_FAMILY_XOF,    /* cSHAKE128, cSHAKE256 (digests of a chosen length): wc_xof */
    WC_FAMILY_KMAC    /* KMAC128, KMAC256 (SP 800-185): wc_kmac */
} wc_family;

typedef enum wc_hash {
    WC_HASH_SHA_1,
    WC_HASH_SHA_256,
    WC_HASH_SHA_384,
    WC_HASH_SHA_512,
    WC_HASH_SHA3_256, /* FIPS 202 */
    WC_HASH_SHA3_384,
    WC_HASH_SHA3_512,
    WC_HASH_COUNT
} wc_hash;

typedef enum wc_cipher { WC_CIPHER_AES_CBC, WC_CIPHER_AES_CTR, WC_CIPHER_COUNT } wc_cipher;

typedef enum wc_aead {
    WC_AEAD_AES_GCM,
    WC_AEAD_AES_GCM_SIV,
    WC_AEAD_CHACHA20_POLY1305, /* RFC 8439 section 2.8 */
    WC_AEAD_AES_OCB,           /* RFC 7253 */
    WC_AEAD_COUNT
} wc_aead;

typedef enum wc_kdf {
    WC_KDF_HKDF,
    WC_KDF_PBKDF2,
    WC_KDF_ARGON2D,  /* RFC 9106 type y = 0 */
    WC_KDF_ARGON2I,  /* y = 1 */
    WC_KDF_ARGON2ID, /* y = 2 */
    WC_KDF_COUNT
} wc_kdf;

typedef enum wc_rsa_scheme {
    WC_RSA_SCHEME_PKCS1_V1_5,
    WC_RSA_SCHEME_PSS,
    WC_RSA_SCHEME_OAEP,
    WC_RSA_SCHEME_COUNT
} wc_rsa_scheme;

/* A signature scheme's padding: PSS (true) or PKCS #1 v1.5 (false), for a
 * backend's rsa_sign/rsa_verify; false for OAEP, which does not sign. */
static inline bool wc_rsa_sig_is_pss(wc_rsa_scheme scheme, bool *pss) {
    switch (scheme) {
    case WC_RSA_SCHEME_PKCS1_V1_5: *pss = false; return true;
    case WC_RSA_SCHEME_PSS: *pss = true; return true;
    case WC_RSA_SCHEME_OAEP:
    case WC_RSA_SCHEME_COUNT: break;
    }
    return false;
}

typedef enum wc_ec_op { WC_EC_ECDSA, WC_EC_ECDH, WC_EC_COUNT } wc_ec_op;

typedef enum wc_okp {
    WC_OKP_ED25519, /* signatures (RFC 8032) */
    WC_OKP_X25519,  /* key agreement (RFC 7748) */
    WC_OKP_ED448,   /* signatures with a context (RFC 8032) */
    WC_OKP_X448,    /* key agreement (RFC 7748) */
    WC_OKP_COUNT
} wc_okp;

typedef enum wc_ml_kem {
    WC_ML_KEM_512,
    WC_ML_KEM_768,
    WC_ML_KEM_1024,
    WC_ML_KEM_COUNT
} wc_ml_kem;

typedef enum wc_ml_dsa {
    WC_ML_DSA_44,
    WC_ML_DSA_65,
    WC_ML_DSA_87,
    WC_ML_DSA_COUNT
} wc_ml_dsa;

/* Seeds and the shared key (FIPS 203 d || z, 64 bytes; FIPS 204 xi, 32
 * bytes; ML-KEM's K, 32 bytes): the same for every member. */
#define WC_ML_KEM_SEED_LEN 64
#define WC_ML_KEM_SHARED_LEN 32
#define WC_ML_DSA_SEED_LEN 32

typedef enum wc_xof { WC_XOF_CSHAKE128, WC_XOF_CSHAKE256, WC_XOF_COUNT } wc_xof;

typedef enum wc_kmac { WC_KMAC_128, WC_KMAC_256, WC_KMAC_COUNT } wc_kmac;

/* A byte string the caller owns (not NUL-terminated). */
typedef struct wc_bytes {
    const uint8_t *p;
    size_t n;
} wc_bytes;

/* The most primes an RSA key may have here (RFC 8017 sets no limit; OpenSSL
 * 3.0, the only backend library that takes more than two, uses at most 5). */
#define WC_RSA_MAX_PRIMES 8

/* A third or further prime of a multi-prime RSA key (RFC 8017 A.1.2
 * OtherPrimeInfo, RFC 7518 6.3.2.7 "oth"): the prime r, its CRT exponent
 * d mod (r - 1), and its CRT coefficient t = (product of the primes before
 * it)^-1 mod r. */
typedef struct wc_rsa_prime {
    wc_bytes r, d, t;
} wc_rsa_prime;

/*
 * An asymmetric key's material, named as in JWK (RFC 7518 section 6).
 * Integers are unsigned big-endian, possibly with leading zero bytes.
 *   RSA     n, e (public); and d, p, q, dp, dq, qi (private: all present);
 *           a private key with more than two primes has the others in
 *           oth[0 .. oth_count - 1] (oth_count <= WC_RSA_MAX_PRIMES - 2;
 *           0 for a two-prime key and every other key)
 *   EC      curve, and x, y (affine coordinates, field-size bytes) or point
 *           (a SEC1 point, compressed or not: raw, spki and pkcs8 import);
 *           d (private, field-size bytes)
 *   OKP     x (public key), d (private key): wc_okp_key_len bytes each
 *           (Ed25519, X25519: 32; Ed448: 57; X448: 56)
 *   ML-KEM, ML-DSA  x (the encoded public key: FIPS 203 ek, FIPS 204 pk),
 *           d (the seed: d || z, 64 bytes; xi, 32 bytes)
 * Unused members are {NULL, 0}. What pkey_import may rely on exactly is
 * stated at pkey_import.
 */
typedef struct wc_pkey_fields {
    bool is_private;
    wc_bytes n, e, d, p, q, dp, dq, qi;
    webcrypto_named_curve curve;
    wc_bytes x, y, point;
    /* Last, so that the members above keep their offsets for a backend
     * module built before they were added. */
    size_t oth_count;
    wc_rsa_prime oth[WC_RSA_MAX_PRIMES - 2];
} wc_pkey_fields;

/* The longest RSA member (n, e, d, p, q, dp, dq, qi; oth's r, d, t)
 * pkey_import is given, in bytes, leading zeros counted: 32768 bits, twice
 * the largest modulus (16384 bits) the backends accept. */
#define WC_RSA_MAX_MEMBER 4096

/* The room pkey_private_fields is given: every private member of an RSA key
 * of the largest modulus (16384 bits: d, p, q, dp, dq, qi and three members
 * per further prime, none longer than the modulus) - more than an EC, OKP
 * or seeded key needs. */
#define WC_PKEY_PRIVATE_MAX ((6 + 3 * (WC_RSA_MAX_PRIMES - 2)) * 2048)

/* ---- per-member facts a backend needs, header-only (modules cannot reach
 * the core's functions). Each switch is exhaustive, without `default:`:
 * a new member that is not added here fails the build. ---- */

/* Hashes, OKP, ML-KEM and ML-DSA members: from member_facts.h, the lines
 * the core's table is built from too. A case per fact line; a member in the
 * enum without a line there is a missing case here. */
#define WC_FACT_CASE_(ID, value) case WC_##ID: return value;

/* The digest size of a hash, in bytes. */
#define WC_HASH_SIZE_(ID, nm, size, block, sha3) WC_FACT_CASE_(HASH_##ID, size)
static inline size_t wc_hash_size(wc_hash h) {
    switch (h) {
    WC_HASH_FACTS(WC_HASH_SIZE_)
    case WC_HASH_COUNT: break;
    }
    return 0;
}

/* A hash's webcrypto_algorithm: for a backend's capability bits (wc_caps_add). */
#define WC_HASH_ALG_(ID, nm, size, block, sha3) WC_FACT_CASE_(HASH_##ID, WEBCRYPTO_ALG_##ID)
static inline webcrypto_algorithm wc_hash_algorithm(wc_hash h) {
    switch (h) {
    WC_HASH_FACTS(WC_HASH_ALG_)
    case WC_HASH_COUNT: break;
    }
    return WEBCRYPTO_ALG_NONE;
}

/* The WebCrypto name of a hash ("SHA-256"), for messages. */
#define WC_HASH_NAME_(ID, nm, size, block, sha3) WC_FACT_CASE_(HASH_##ID, nm)
static inline const char *wc_hash_name(wc_hash h) {
    switch (h) {
    WC_HASH_FACTS(WC_HASH_NAME_)
    case WC_HASH_COUNT: break;
    }
    return "?";
}

/* Whether a hash is one of SHA-3's (for WC_CAP_SHA3_*). */
#define WC_HASH_SHA3_(ID, nm, size, block, sha3) WC_FACT_CASE_(HASH_##ID, sha3)
static inline bool wc_hash_is_sha3(wc_hash h) {
    switch (h) {
    WC_HASH_FACTS(WC_HASH_SHA3_)
    case WC_HASH_COUNT: break;
    }
    return false;
}

/* The WebCrypto name of a cSHAKE or KMAC member, for messages. */
static inline const char *wc_xof_name(wc_xof x) {
    switch (x) {
    case WC_XOF_CSHAKE128: return "cSHAKE128";
    case WC_XOF_CSHAKE256: return "cSHAKE256";
    case WC_XOF_COUNT: break;
    }
    return "?";
}
static inline const char *wc_kmac_name(wc_kmac k) {
    switch (k) {
    case WC_KMAC_128: return "KMAC128";
    case WC_KMAC_256: return "KMAC256";
    case WC_KMAC_COUNT: break;
    }
    return "?";
}

/* The one output length, in bits, of a backend without WC_CAP_XOF_ANY_LENGTH
 * (cSHAKE) or WC_CAP_KMAC_ANY (KMAC): twice the member's security strength,
 * the length of SHAKE128-256 / SHAKE256-512 and of BouncyCastle's KMAC. */
static inline size_t wc_xof_fixed_bits(wc_xof x) {
    switch (x) {
    case WC_XOF_CSHAKE128: return 256;
    case WC_XOF_CSHAKE256: return 512;
    case WC_XOF_COUNT: break;
    }
    return 0;
}
static inline size_t wc_kmac_fixed_bits(wc_kmac k) {
    switch (k) {
    case WC_KMAC_128: return 256;
    case WC_KMAC_256: return 512;
    case WC_KMAC_COUNT: break;
    }
    return 0;
}

/* The WebCrypto name of an AEAD member ("AES-GCM"), for messages. */
static inline const char *wc_aead_name(wc_aead a) {
    switch (a) {
    case WC_AEAD_AES_GCM: return "AES-GCM";
    case WC_AEAD_AES_GCM_SIV: return "AES-GCM-SIV";
    case WC_AEAD_CHACHA20_POLY1305: return "ChaCha20-Poly1305";
    case WC_AEAD_AES_OCB: return "AES-OCB";
    case WC_AEAD_COUNT: break;
    }
    return "?";
}

/* An OKP member's key length (public and private alike), in bytes. */
#define WC_OKP_KEY_LEN_(ID, nm, klen, olen, arc, kind) WC_FACT_CASE_(OKP_##ID, klen)
static inline size_t wc_okp_key_len(wc_okp k) {
    switch (k) {
    WC_OKP_FACTS(WC_OKP_KEY_LEN_)
    case WC_OKP_COUNT: break;
    }
    return 0;
}

/* An OKP member's signature length in bytes; 0 for a key-agreement member. */
#define WC_OKP_SIG_LEN_SIGN(olen) olen
#define WC_OKP_SIG_LEN_AGREE(olen) 0
#define WC_OKP_SIG_LEN_(ID, nm, klen, olen, arc, kind)                                     \
    WC_FACT_CASE_(OKP_##ID, WC_OKP_SIG_LEN_##kind(olen))
static inline size_t wc_okp_sig_len(wc_okp k) {
    switch (k) {
    WC_OKP_FACTS(WC_OKP_SIG_LEN_)
    case WC_OKP_COUNT: break;
    }
    return 0;
}

/* The WebCrypto name of an OKP member ("Ed25519"), for messages. */
#define WC_OKP_NAME_(ID, nm, klen, olen, arc, kind) WC_FACT_CASE_(OKP_##ID, nm)
static inline const char *wc_okp_name(wc_okp k) {
    switch (k) {
    WC_OKP_FACTS(WC_OKP_NAME_)
    case WC_OKP_COUNT: break;
    }
    return "?";
}

/* The last arc of an OKP member's RFC 8410 OID, 1.3.101.arc (0: none). */
#define WC_OKP_OID_ARC_(ID, nm, klen, olen, arc, kind) WC_FACT_CASE_(OKP_##ID, arc)
static inline unsigned wc_okp_oid_arc(wc_okp k) {
    switch (k) {
    WC_OKP_FACTS(WC_OKP_OID_ARC_)
    case WC_OKP_COUNT: break;
    }
    return 0;
}

/* The longest OKP key, in bytes (for buffers). */
#define WC_OKP_KEY_ROOM_(ID, nm, klen, olen, arc, kind) unsigned char ID[klen];
union wc_okp_key_room_ { WC_OKP_FACTS(WC_OKP_KEY_ROOM_) };
#define WC_OKP_MAX_KEY_LEN sizeof(union wc_okp_key_room_)

/* ML-KEM's encapsulation key and ciphertext lengths (FIPS 203 table 3). */
#define WC_ML_KEM_PUB_(ID, nm, pub, ct) WC_FACT_CASE_(ID, pub)
#define WC_ML_KEM_CT_(ID, nm, pub, ct) WC_FACT_CASE_(ID, ct)
#define WC_ML_KEM_NAME_(ID, nm, pub, ct) WC_FACT_CASE_(ID, nm)
static inline size_t wc_ml_kem_public_len(wc_ml_kem k) {
    switch (k) {
    WC_ML_KEM_FACTS(WC_ML_KEM_PUB_)
    case WC_ML_KEM_COUNT: break;
    }
    return 0;
}
static inline size_t wc_ml_kem_ciphertext_len(wc_ml_kem k) {
    switch (k) {
    WC_ML_KEM_FACTS(WC_ML_KEM_CT_)
    case WC_ML_KEM_COUNT: break;
    }
    return 0;
}
static inline const char *wc_ml_kem_name(wc_ml_kem k) {
    switch (k) {
    WC_ML_KEM_FACTS(WC_ML_KEM_NAME_)
    case WC_ML_KEM_COUNT: break;
    }
    return "?";
}

/* A parameter set's webcrypto_algorithm (for wc_caps_add). */
#define WC_ML_KEM_ALG_(ID, nm, pub, ct) WC_FACT_CASE_(ID, WEBCRYPTO_ALG_##ID)
static inline webcrypto_algorithm wc_ml_kem_algorithm(wc_ml_kem k) {
    switch (k) {
    WC_ML_KEM_FACTS(WC_ML_KEM_ALG_)
    case WC_ML_KEM_COUNT: break;
    }
    return WEBCRYPTO_ALG_NONE;
}

/* ML-DSA's public key and signature lengths (FIPS 204 table 2). */
#define WC_ML_DSA_PUB_(ID, nm, pub, sig) WC_FACT_CASE_(ID, pub)
#define WC_ML_DSA_SIG_(ID, nm, pub, sig) WC_FACT_CASE_(ID, sig)
#define WC_ML_DSA_NAME_(ID, nm, pub, sig) WC_FACT_CASE_(ID, nm)
static inline size_t wc_ml_dsa_public_len(wc_ml_dsa k) {
    switch (k) {
    WC_ML_DSA_FACTS(WC_ML_DSA_PUB_)
    case WC_ML_DSA_COUNT: break;
    }
    return 0;
}
static inline size_t wc_ml_dsa_sig_len(wc_ml_dsa k) {
    switch (k) {
    WC_ML_DSA_FACTS(WC_ML_DSA_SIG_)
    case WC_ML_DSA_COUNT: break;
    }
    return 0;
}
static inline const char *wc_ml_dsa_name(wc_ml_dsa k) {
    switch (k) {
    WC_ML_DSA_FACTS(WC_ML_DSA_NAME_)
    case WC_ML_DSA_COUNT: break;
    }
    return "?";
}
#define WC_ML_DSA_ALG_(ID, nm, pub, sig) WC_FACT_CASE_(ID, WEBCRYPTO_ALG_##ID)
static inline webcrypto_algorithm wc_ml_dsa_algorithm(wc_ml_dsa k) {
    switch (k) {
    WC_ML_DSA_FACTS(WC_ML_DSA_ALG_)
    case WC_ML_DSA_COUNT: break;
    }
    return WEBCRYPTO_ALG_NONE;
}

/* The NOT_SUPPORTED a backend returns when its library lacks a hash
 * (library names the library in the message). */
#define wc_hash_unavailable(library, hash)                                                  \
    wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: %s is not available", (library),            \
             wc_hash_name(hash))

/* A library failure's status as DataError: for imports, where the library
 * refusing a key means the key is bad (NO_MEMORY stays NO_MEMORY). */
static inline webcrypto_status wc_as_data_error(webcrypto_status st) {
    return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_DATA;
}


/* One AEAD message, as the core hands it to aead_seal and aead_open (in one
 * struct: the backends' layers pass a pointer, not eleven arguments).
 * Seal reads in and writes out and tag_out (tag_in NULL); open reads in and
 * tag_in and writes out (tag_out NULL). */
typedef struct wc_aead_msg {
    wc_aead kind; /* the key's member */
    const uint8_t *nonce;
    size_t nonce_len;
    const uint8_t *aad; /* may be NULL when aad_len is 0 */
    size_t aad_len;
    const uint8_t *in;
    size_t len; /* of in and out, the tag not included */
    uint8_t *out;
    uint8_t *tag_out;
    const uint8_t *tag_in;
    size_t tag_len;
} wc_aead_msg;

typedef struct wc_backend_ops {
    const char *name;

    /* Once per process and variant, before any other call: start the library,
     * fetch the algorithms, add to *caps (zeroed by the core) what works
     * (wc_caps_add; feature bits in caps->features) and set
     * *description to a static one-line description (library and version).
     * variant is NULL for the plain name, or what follows "name:" (for
     * example the JCA provider in "jca:BC"); a backend without variants
     * refuses a non-NULL one. *bctx is the backend's context for this variant,
     * passed back to every call that has no key state (may stay NULL). A
     * failure makes the backend unavailable (NotSupportedError). */
    webcrypto_status (*init)(const char *variant, void **bctx, wc_caps *caps,
                             const char **description);

    /* Fills out with len (<= 65536) secure random bytes. */
    webcrypto_status (*random_bytes)(const void *bctx, uint8_t *out, size_t len);

    /* ---- digest: out has room for wc_hash_size(hash) bytes ---- */
    webcrypto_status (*digest)(const void *bctx, wc_hash hash, const uint8_t *in, size_t len,
                               uint8_t *out);
    webcrypto_status (*digest_new)(const void *bctx, wc_hash hash, void **ctx);
    webcrypto_status (*digest_update)(void *ctx, const uint8_t *in, size_t len);
    webcrypto_status (*digest_final)(void *ctx, uint8_t *out);
    void (*digest_free)(void *ctx);

    /* ---- secret keys ----
     * Prepares the backend's state for a secret key of a family and member:
     *   WC_FAMILY_HMAC     member: the key's wc_hash; key_len may be anything, 0 included
     *   WC_FAMILY_CIPHER   member: wc_cipher; key_len 16, 24 or 32
     *   WC_FAMILY_AEAD     member: wc_aead; key_len 16, 24 or 32 (AES-GCM-SIV: 16 or 32;
     *                      ChaCha20-Poly1305: 32)
     *   WC_FAMILY_KEYWRAP  member: 0 (AES-KW); key_len 16, 24 or 32
     *   WC_FAMILY_KDF      member: wc_kdf (the KDFs get the key bytes per call)
     *   WC_FAMILY_KMAC     member: wc_kmac; key_len >= 1 (whole bytes)
     * (key schedules, MAC contexts). The core calls it with no other family.
     * The core keeps its own copy of the raw bytes only for an extractable
     * key (export) and a KDF key (passed per call); of any other key it
     * wipes its copy when this returns, so key is valid during the call
     * only. The backend may keep a copy where its state needs one (then
     * the only one of a non-extractable key: include/webcrypto.h says
     * which), and must wipe it in secret_key_free. *state may be set to
     * NULL if nothing is needed. */
    webcrypto_status (*secret_key_new)(const void *bctx, wc_family family, unsigned member,
                                       const uint8_t *key, size_t key_len, void **state);
    void (*secret_key_free)(void *state);

    /* ---- HMAC: out has room for the key's hash's digest size ---- */
    webcrypto_status (*hmac)(const void *key_state, const uint8_t *in, size_t len,
                             uint8_t *out);
    webcrypto_status (*hmac_new)(const void *key_state, void **ctx);
    webcrypto_status (*hmac_update)(void *ctx, const uint8_t *in, size_t len);
    webcrypto_status (*hmac_final)(void *ctx, uint8_t *out);
    void (*hmac_free)(void *ctx);

    /* ---- unauthenticated modes (WC_FAMILY_CIPHER), one shape: a 16-byte
     * block of state in, no padding, out may equal in (otherwise no overlap):
     *   WC_CIPHER_AES_CBC  iv is the IV; len is a multiple of 16 (0 allowed).
     *                      The core does PKCS#7 padding and chains the IV
     *                      across calls.
     *   WC_CIPHER_AES_CTR  iv is the counter block, incremented as a 128-bit
     *                      big-endian integer per block; encrypt is ignored
     *                      (CTR is its own inverse); len is any size. The
     *                      core guarantees the segment does not wrap the
     *                      caller's counter bits (it splits the data there).
     * kind is the key's member (secret_key_new). ---- */
    webcrypto_status (*cipher)(const void *key_state, wc_cipher kind, bool encrypt,
                               const uint8_t iv[16], const uint8_t *in, size_t len, uint8_t *out);

    /* ---- AEADs (WC_FAMILY_AEAD); kind is the key's member. The core has
     * checked the sizes per kind:
     *   WC_AEAD_AES_GCM      nonce_len >= 1; tag_len 4, 8 or 12..16
     *   WC_AEAD_AES_GCM_SIV  (RFC 8452) nonce_len 12; tag_len 16
     *   WC_AEAD_CHACHA20_POLY1305  (RFC 8439) nonce_len 12; tag_len 16
     *   WC_AEAD_AES_OCB      (RFC 7253) nonce_len 1..15; tag_len 8, 12 or 16
     *                        (the tag length enters OCB's nonce block)
     * aead_seal writes len bytes of ciphertext to out and tag_len bytes of
     * tag to tag_out. aead_open checks tag_in in constant time, before it
     * releases any plaintext where the mode allows (GCM-SIV), and returns
     * WEBCRYPTO_ERR_OPERATION on a mismatch; the core wipes out on any
     * failure, so the backend need not. out may equal in. A backend reports
     * wc_caps_add only for the kinds it has. ---- */
    webcrypto_status (*aead_seal)(const void *key_state, const wc_aead_msg *m);
    webcrypto_status (*aead_open)(const void *key_state, const wc_aead_msg *m);

    /* ---- AES-KW (WC_FAMILY_KEYWRAP, RFC 3394, default IV): len is a multiple
     * of 8 and at least 16; wrap writes len + 8 bytes, unwrap len - 8 bytes
     * and returns WEBCRYPTO_ERR_OPERATION when the integrity check fails (the
     * core wipes out then). out does not overlap in. NULL if the backend
     * lacks AES-KW. ---- */
    webcrypto_status (*aes_kw_wrap)(const void *key_state, const uint8_t *in, size_t len,
                                    uint8_t *out);
    webcrypto_status (*aes_kw_unwrap)(const void *key_state, const uint8_t *in, size_t len,
                                      uint8_t *out);

    /* ---- asymmetric keys ----
     * family is WC_FAMILY_RSA, WC_FAMILY_EC, WC_FAMILY_OKP, WC_FAMILY_ML_KEM
     * or WC_FAMILY_ML_DSA (the core calls with no other) and member the
     * key's algorithm in it: a wc_rsa_scheme (the schemes share RSA keys), a
     * wc_ec_op (ECDSA and ECDH share EC keys), a wc_okp (which decides the
     * key type: Ed25519, X25519), a wc_ml_kem or wc_ml_dsa (the parameter
     * set). ML-KEM and ML-DSA keys are never generated by the backend: the
     * core draws the seed (random_bytes) and imports it, so pkey_generate
     * is not called for them.
     * pkey_import is called from importKey (every format, so also unwrapKey)
     * and for the public half of a generated pair (f then holds the public
     * members pkey_fields gave for the private key). On every call the core
     * has checked (pkey.c's check_fields, after the format's parser) that f
     * has this shape, so the backend relies on it and checks none of it again:
     *   RSA   n and e non-NULL, 1..WC_RSA_MAX_MEMBER bytes each (leading
     *         zeros possible); with f->is_private also d, p, q, dp, dq, qi,
     *         each the same. f->oth_count is 0 unless the backend reported
     *         WC_CAP_RSA_MULTI_PRIME; then a private key may have oth_count
     *         1..WC_RSA_MAX_PRIMES - 2, each r, d, t the same as the others
     *         (a public key has 0). Nothing about their values (a zero, an
     *         even n).
     *   EC    f->curve a known curve of the key's (WEBCRYPTO_CURVE_*; which
     *         groups the backend built is its own matter). A public point,
     *         always present for a public key, optional for a private one,
     *         given as either f->point, exactly 1 + fs bytes starting 02 or
     *         03, or 1 + 2 fs bytes starting 04 (fs the field size), or
     *         (point empty) f->x and f->y, non-NULL, exactly fs bytes each.
     *         With f->is_private, f->d non-NULL and exactly fs bytes.
     *   OKP   f->x non-NULL and exactly wc_okp_key_len(member) bytes, or,
     *         for a private key only, empty; with f->is_private, f->d
     *         non-NULL and exactly wc_okp_key_len(member) bytes.
     *   ML-KEM, ML-DSA  a public key: f->x non-NULL and exactly
     *         wc_ml_kem_public_len / wc_ml_dsa_public_len(member) bytes. A
     *         private key: f->d non-NULL, exactly WC_ML_KEM_SEED_LEN /
     *         WC_ML_DSA_SEED_LEN bytes, and f->x empty: the backend makes
     *         the key pair from the seed (FIPS 203 ML-KEM.KeyGen_internal(d,
     *         z), FIPS 204 ML-DSA.KeyGen_internal(xi)), and its pkey_fields
     *         give the seed as d and the public key as x (the core compares
     *         a JWK's "pub" with that x). An ML-KEM public key's check
     *         (FIPS 203 7.2, the coefficients below q) is the backend's:
     *         DataError.
     * The backend checks the mathematics: coordinates below the field prime
     * and the point on the curve and not infinity (DataError), a private EC
     * scalar in [1, n-1], a given public key matching the private one, an RSA
     * key's values (odd modulus, exponent, private key consistent:
     * DataError), and decodes f->point. State is read-only afterwards,
     * shared by threads.
     * pkey_fields exposes the key's material (for export and to derive a
     * public key from a private one): pointers into the state, valid while
     * it lives; RSA keys give n and e (non-empty) and, for a private key,
     * the other members, oth included, EC keys always give x and y
     * of the field size, OKP keys x of wc_okp_key_len bytes (so a generated
     * pair's public half passes the checks above). A backend that has
     * pkey_private_fields need give only the public members here (the
     * private ones {NULL, 0}), so that its state keeps no second copy of
     * them; the core reads private members through pkey_private_fields
     * only. */
    webcrypto_status (*pkey_import)(const void *bctx, wc_family family, unsigned member,
                                    const wc_pkey_fields *f, void **state);
    /* Generates a private key of family and member (as pkey_import): RSA
     * with modulus_bits (256..16384, a multiple of 8) and exponent e, whose
     * value is 3 or 65537, big-endian, e.n >= 1 bytes, possibly with leading
     * zero bytes (so e.n is not bounded); EC on curve (a known curve); OKP. */
    webcrypto_status (*pkey_generate)(const void *bctx, wc_family family, unsigned member,
                                      size_t modulus_bits, wc_bytes e,
                                      webcrypto_named_curve curve, void **state);
    webcrypto_status (*pkey_fields)(const void *state, wc_pkey_fields *out);
    void (*pkey_free)(void *state);

    /* RSA signatures: scheme WC_RSA_SCHEME_PKCS1_V1_5 or WC_RSA_SCHEME_PSS
     * (MGF1 with the same hash, salt_len bytes; 0 for PKCS#1 v1.5). sig has
     * room for the modulus size; *sig_len gets it. verify answers *valid (a
     * wrong signature is not an error). */
    webcrypto_status (*rsa_sign)(const void *state, wc_rsa_scheme scheme, wc_hash hash,
                                 size_t salt_len, const uint8_t *msg, size_t len, uint8_t *sig,
                                 size_t *sig_len);
    webcrypto_status (*rsa_verify)(const void *state, wc_rsa_scheme scheme, wc_hash hash,
                                   size_t salt_len, const uint8_t *msg, size_t len,
                                   const uint8_t *sig, size_t sig_len, bool *valid);
    /* RSA-OAEP with MGF1 and the same hash. out has room for the modulus
     * size. Too long a plaintext is OperationError; every decryption failure
     * is OperationError with one message that does not say which check failed. */
    webcrypto_status (*rsa_oaep_encrypt)(const void *state, wc_hash hash, const uint8_t *label,
                                         size_t label_len, const uint8_t *in, size_t len,
                                         uint8_t *out, size_t *out_len);
    webcrypto_status (*rsa_oaep_decrypt)(const void *state, wc_hash hash, const uint8_t *label,
                                         size_t label_len, const uint8_t *in, size_t len,
                                         uint8_t *out, size_t *out_len);
    /* ECDSA with r || s signatures (each the curve's field size, big-endian). */
    webcrypto_status (*ecdsa_sign)(const void *state, wc_hash hash, const uint8_t *msg,
                                   size_t len, uint8_t *sig, size_t *sig_len);
    webcrypto_status (*ecdsa_verify)(const void *state, wc_hash hash, const uint8_t *msg,
                                     size_t len, const uint8_t *sig, size_t sig_len, bool *valid);
    /* ECDH: the x coordinate (field-size bytes) of a private and a public key
     * of the same curve. */
    webcrypto_status (*ecdh)(const void *private_state, const void *public_state, uint8_t *out,
                             size_t *out_len);

    /* ---- OKP (WC_FAMILY_OKP); kind is the keys' member ----
     * okp_sign / okp_verify: a signature member (wc_okp_sig_len(kind) > 0;
     * Ed25519 and Ed448: RFC 8032, pure). context is Ed448's context string
     * C (RFC 8032 5.2), 0..255 bytes (the core refused longer ones); it is
     * always empty for Ed25519 (WebCrypto's Ed25519 has none), and for
     * Ed448 unless the backend reported WC_CAP_ED448_CONTEXT. sig_cap >= wc_okp_sig_len(kind); *sig_len
     * gets the length written. verify answers *valid (a wrong signature, of
     * any length, is not an error). ABI 4 added the context. */
    webcrypto_status (*okp_sign)(const void *state, wc_okp kind, const uint8_t *context,
                                 size_t context_len, const uint8_t *msg, size_t len,
                                 uint8_t *sig, size_t sig_cap, size_t *sig_len);
    webcrypto_status (*okp_verify)(const void *state, wc_okp kind, const uint8_t *context,
                                   size_t context_len, const uint8_t *msg, size_t len,
                                   const uint8_t *sig, size_t sig_len, bool *valid);
    /* okp_derive: a key-agreement member (X25519, X448: RFC 7748): the shared
     * secret of a private and a public key of kind. out_cap >=
     * wc_okp_key_len(kind); *out_len gets the length written. The core
     * refuses an all-zero result (RFC 7748 section 6.1, a small-order public
     * key) itself, in constant time, so the backend does not check it (it
     * may fail first, as some libraries do: OperationError). */
    webcrypto_status (*okp_derive)(const void *private_state, const void *public_state,
                                   wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len);

    /* ---- ML-KEM (WC_FAMILY_ML_KEM); kind is the key's member ----
     * ml_kem_encapsulate: FIPS 203 ML-KEM.Encaps with a public key: writes
     * wc_ml_kem_ciphertext_len(kind) bytes to ct and WC_ML_KEM_SHARED_LEN
     * bytes to shared. ml_kem_decapsulate: ML-KEM.Decaps with a private key
     * of a ciphertext of exactly wc_ml_kem_ciphertext_len(kind) bytes (the
     * core checked the length); implicit rejection is the library's (an
     * altered ciphertext gives a pseudo-random key, not an error). */
    webcrypto_status (*ml_kem_encapsulate)(const void *state, wc_ml_kem kind, uint8_t *ct,
                                           uint8_t *shared);
    webcrypto_status (*ml_kem_decapsulate)(const void *state, wc_ml_kem kind, const uint8_t *ct,
                                           uint8_t *shared);
    /* ---- ML-DSA (WC_FAMILY_ML_DSA); kind is the key's member ----
     * FIPS 204 ML-DSA.Sign (hedged) / ML-DSA.Verify with the context ctx,
     * ctx_len <= 255 (the core checked it; ctx may be NULL when ctx_len is
     * 0; a non-empty one only where the backend reported
     * WC_CAP_ML_DSA_CONTEXT). sign writes wc_ml_dsa_sig_len(kind) bytes.
     * verify answers *valid (a wrong signature, of any length, is not an
     * error). */
    webcrypto_status (*ml_dsa_sign)(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                    size_t ctx_len, const uint8_t *msg, size_t len, uint8_t *sig);
    webcrypto_status (*ml_dsa_verify)(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                      size_t ctx_len, const uint8_t *msg, size_t len,
                                      const uint8_t *sig, size_t sig_len, bool *valid);

    /* ---- KDFs (WC_FAMILY_KDF): out_len >= 1 and within the algorithm's
     * limit. Two slots rather than one kdf_derive: their inputs differ (HKDF
     * takes salt and info, PBKDF2 salt and an iteration count), so one
     * signature would carry parameters each member ignores; a new KDF with
     * a shape of its own gets its own slot. ---- */
    webcrypto_status (*hkdf)(const void *bctx, wc_hash hash, const uint8_t *ikm, size_t ikm_len,
                             const uint8_t *salt, size_t salt_len, const uint8_t *info,
                             size_t info_len, uint8_t *out, size_t out_len);
    /* iterations >= 1 */
    webcrypto_status (*pbkdf2)(const void *bctx, wc_hash hash, const uint8_t *password,
                               size_t password_len, const uint8_t *salt, size_t salt_len,
                               uint32_t iterations, uint8_t *out, size_t out_len);

    /* ---- XOF (WC_FAMILY_XOF): cSHAKE (SP 800-185 section 3) of in with
     * function name n and customization s, out_len (>= 1) bytes to out. With
     * n and s both empty it is SHAKE128 / SHAKE256 (FIPS 202). The core
     * calls with a non-empty n or s only when the backend reported
     * WC_CAP_CSHAKE_CUSTOM. ---- */
    webcrypto_status (*xof)(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                            const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                            uint8_t *out, size_t out_len);

    /* ---- KMAC (WC_FAMILY_KMAC, SP 800-185 section 4): the MAC of in under
     * the key (secret_key_new's state; kind is its member), customization s
     * (any length), out_len bytes (>= 1; KMAC's L is out_len * 8). A length
     * the library cannot take is NotSupportedError with its limit in the
     * message. The core compares tags for verify, in constant time. ---- */
    webcrypto_status (*kmac)(const void *key_state, wc_kmac kind, const uint8_t *s, size_t s_len,
                             const uint8_t *in, size_t len, uint8_t *out, size_t out_len);

    /* Argon2 (RFC 9106), kind WC_KDF_ARGON2D, _ARGON2I or _ARGON2ID. The core
     * has checked: password_len, secret_len, ad_len and out_len at most
     * 2^32 - 1 (out_len >= 4), nonce_len 8 .. 2^32 - 1, parallelism
     * 1 .. 2^24 - 1, memory (KiB) >= 8 * parallelism, passes >= 1, version
     * 0x13. secret and ad may be NULL when their lengths are 0. Added in
     * module ABI 4. */
    webcrypto_status (*argon2)(const void *bctx, wc_kdf kind, const uint8_t *password,
                               size_t password_len, const uint8_t *nonce, size_t nonce_len,
                               const uint8_t *secret, size_t secret_len, const uint8_t *ad,
                               size_t ad_len, uint32_t parallelism, uint32_t memory,
                               uint32_t passes, uint32_t version, uint8_t *out, size_t out_len);

    /* A private key's members for export (added in module ABI 5): *out as
     * pkey_fields gives it, and the private members (d; RSA d, p, q, dp,
     * dq, qi, oth) read out of the backend's key into buf, cap bytes
     * (WC_PKEY_PRIVATE_MAX), which the core wipes once it has encoded them.
     * So a backend keeps one copy of a private key, its library's. NULL: the
     * backend's pkey_fields gives the private members, from its state. */
    webcrypto_status (*pkey_private_fields)(const void *state, wc_pkey_fields *out, uint8_t *buf,
                                            size_t cap);

    /* An object a host hands to variant `variant` of this backend before
     * that variant starts (webcrypto_jca_use_provider: jca's
     * java.security.Provider for "jca:NAME"). The core calls it through the
     * registry, from any thread, without init, possibly before the backend
     * has started at all; both arguments are non-NULL. NULL: the backend
     * takes none (NotSupportedError). Added in module ABI 6. */
    webcrypto_status (*use_provider)(const char *variant, void *provider);
} wc_backend_ops;

/* ---- backends built as loadable modules ----
 * A backend whose library would clash with another in one process (BoringSSL
 * and OpenSSL export the same symbol names) is built as a module: the same
 * backend source, linked with src/core/util.c and src/core/module_shim.c into
 * webcrypto-<name>.so. The core loads it with its symbols bound inside the
 * module first (RTLD_DEEPBIND), and hands it the host services below; the
 * module's wc_error/wc_wipe calls then reach the core through them. Memory
 * never changes owner across the boundary: the module frees what it allocates.
 *
 * The handshake: the core calls the module's one exported function,
 * WC_MODULE_ENTRY, with its wc_host_api; the module answers with its
 * wc_module_info. Each side states its WC_MODULE_ABI and its
 * sizeof(wc_backend_ops), and each refuses the other unless both equal its
 * own: the module by answering ops = NULL (it must not call a host it does
 * not know), the core by not using the module, with an error naming both
 * versions. The members marked "frozen" keep their type and place in every
 * ABI, so that a core and a module of any two versions can read each
 * other's version. Bump WC_MODULE_ABI on any change to wc_backend_ops or to
 * the host services (a new member makes the ops size differ anyway, but a
 * changed signature does not). ABI 1 had the entry point
 * webcrypto_backend_module_v1 and no ops size; ABI 2 had slots per
 * algorithm (ed25519_sign, x25519, aes_gcm_seal, aes_gcm_siv_seal, aes_cbc,
 * aes_ctr) and hashes as webcrypto_algorithm; ABI 3 has the operations per
 * family with the member as a parameter; ABI 4 gives okp_sign and
 * okp_verify Ed448's context, adds ML-KEM's and ML-DSA's operations (before
 * the KDFs), xof, kmac and argon2 (and the SHA-3 hash members); ABI 5 adds
 * pkey_private_fields (a backend's state need not keep a private key's
 * members twice); ABI 6 has init report a wc_caps (algorithm and feature
 * capabilities apart) for ABI 5's one 64-bit word. */
#define WC_MODULE_ABI 6
#define WC_MODULE_ENTRY "webcrypto_backend_module"
#define WC_MODULE_ENTRY_V1 "webcrypto_backend_module_v1"
typedef struct wc_host_api {
    unsigned abi;    /* frozen: the core's WC_MODULE_ABI */
    size_t ops_size; /* frozen: the core's sizeof(wc_backend_ops) */
    void (*set_error)(const char *message);
} wc_host_api;
typedef struct wc_module_info {
    unsigned abi;              /* frozen: the module's WC_MODULE_ABI */
    size_t ops_size;           /* frozen: the module's sizeof(wc_backend_ops) */
    const wc_backend_ops *ops; /* frozen: NULL if the module refuses the host */
} wc_module_info;
/* Returns the module's static answer, never NULL (a core treats NULL as a
 * refusal that gives no versions). */
typedef const wc_module_info *(*wc_module_entry_fn)(const wc_host_api *host);

/* The core's side of set_error: copies message to the thread's error text. */
void wc_set_error_message(const char *message);

/* Sets the calling thread's error message (printf-style) and returns status,
 * so that `return wc_error(WEBCRYPTO_ERR_DATA, "...");` reads naturally. */
webcrypto_status wc_error(webcrypto_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Wipes len bytes at p in a way the compiler cannot elide. */
void wc_wipe(void *p, size_t len);

/* Compares two buffers in time independent of their contents; true if equal. */
bool wc_equal_ct(const uint8_t *a, const uint8_t *b, size_t len);

#endif /* WEBCRYPTO_CORE_BACKEND_H */
