/*
 * member_facts.h - the per-member facts that both the core's algorithm table
 * (algorithms.c) and the backends need, written once. backend.h turns them
 * into its header-only helpers (wc_hash_size, wc_okp_key_len, ...), which a
 * backend module can call without the core; algorithms.c builds its rows
 * from the same lines. So a fact cannot differ between the table and a
 * backend, and test_alg_table's comparison of the two is a check of the
 * expansion, not of two copies.
 *
 * The enums themselves stay written out in backend.h: a member added to an
 * enum but not here makes the helpers' switches (-Wswitch-enum) and the
 * count checks below name this file.
 */
#ifndef WEBCRYPTO_CORE_MEMBER_FACTS_H
#define WEBCRYPTO_CORE_MEMBER_FACTS_H

/* X(ID, name, digest bytes, block bits, is SHA-3): ID is both the
 * WC_HASH_ and the WEBCRYPTO_ALG_ suffix. block bits 0: the draft gives
 * SHA-3 no block size (an HMAC key with SHA-3 needs a length). */
#define WC_HASH_FACTS(X)                                                                   \
    X(SHA_1, "SHA-1", 20, 512, false)                                                      \
    X(SHA_256, "SHA-256", 32, 512, false)                                                  \
    X(SHA_384, "SHA-384", 48, 1024, false)                                                 \
    X(SHA_512, "SHA-512", 64, 1024, false)                                                 \
    X(SHA3_256, "SHA3-256", 32, 0, true)                                                   \
    X(SHA3_384, "SHA3-384", 48, 0, true)                                                   \
    X(SHA3_512, "SHA3-512", 64, 0, true)

/* X(ID, name, key bytes, output bytes, OID arc, KIND): ID is both the
 * WC_OKP_ and the WEBCRYPTO_ALG_ suffix; the key length is the public and
 * the private key's (RFC 8032, RFC 7748); the output is the signature
 * (KIND SIGN) or the shared secret (KIND AGREE); the OID is RFC 8410's
 * 1.3.101.arc. */
#define WC_OKP_FACTS(X)                                                                    \
    X(ED25519, "Ed25519", 32, 64, 0x70, SIGN)                                              \
    X(X25519, "X25519", 32, 32, 0x6e, AGREE)                                               \
    X(ED448, "Ed448", 57, 114, 0x71, SIGN)                                                 \
    X(X448, "X448", 56, 56, 0x6f, AGREE)

/* X(ID, name, public key bytes, ciphertext bytes): FIPS 203 table 3; ID is
 * the WC_ and WEBCRYPTO_ALG_ suffix. */
#define WC_ML_KEM_FACTS(X)                                                                 \
    X(ML_KEM_512, "ML-KEM-512", 800, 768)                                                  \
    X(ML_KEM_768, "ML-KEM-768", 1184, 1088)                                                \
    X(ML_KEM_1024, "ML-KEM-1024", 1568, 1568)

/* X(ID, name, public key bytes, signature bytes): FIPS 204 table 2. */
#define WC_ML_DSA_FACTS(X)                                                                 \
    X(ML_DSA_44, "ML-DSA-44", 1312, 2420)                                                  \
    X(ML_DSA_65, "ML-DSA-65", 1952, 3309)                                                  \
    X(ML_DSA_87, "ML-DSA-87", 2592, 4627)

#endif /* WEBCRYPTO_CORE_MEMBER_FACTS_H */
