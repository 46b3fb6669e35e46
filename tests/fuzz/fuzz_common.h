/*
 * fuzz_common.h - what the fuzz targets (tests/fuzz/, docs/FUZZING.md) and the
 * seed generator share: the algorithms importKey takes, as a table, and the
 * import-then-export round trip every successful import is checked with.
 */
#ifndef WEBCRYPTO_FUZZ_COMMON_H
#define WEBCRYPTO_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webcrypto.h"

/* A finding the sanitizers cannot see (a broken invariant): libFuzzer reports
 * abort() as a crash and saves the input. */
#define FUZZ_CHECK(cond)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: invariant failed: %s (%s)\n", __FILE__, __LINE__,   \
                    #cond, webcrypto_error_message());                                  \
            abort();                                                                    \
        }                                                                               \
    } while (0)

#define U_ENC (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT)
#define U_WRAP (WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY)
#define U_DERIVE (WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY)

/* One algorithm as importKey is asked for it: its params, the usages of a
 * secret / public key and of a private key. */
typedef struct fuzz_alg {
    webcrypto_algorithm name, hash;
    webcrypto_named_curve curve;
    unsigned public_usages, private_usages; /* secret keys: private_usages */
} fuzz_alg;

static const fuzz_alg FUZZ_ALGS[] = {
    {WEBCRYPTO_ALG_AES_CBC, 0, 0, 0, U_ENC},
    {WEBCRYPTO_ALG_AES_CTR, 0, 0, 0, U_ENC},
    {WEBCRYPTO_ALG_AES_GCM, 0, 0, 0, U_ENC | U_WRAP},
    {WEBCRYPTO_ALG_AES_KW, 0, 0, 0, U_WRAP},
    {WEBCRYPTO_ALG_AES_GCM_SIV, 0, 0, 0, U_ENC},
    {WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_1, 0, 0, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, 0, 0, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY},
    {WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_384, 0, 0, WEBCRYPTO_USAGE_VERIFY},
    {WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_512, 0, 0, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_HKDF, 0, 0, 0, U_DERIVE},
    {WEBCRYPTO_ALG_PBKDF2, 0, 0, 0, WEBCRYPTO_USAGE_DERIVE_BITS},
    {WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256, 0, WEBCRYPTO_USAGE_VERIFY,
     WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_SHA_384, 0, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_1, 0, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY,
     WEBCRYPTO_USAGE_DECRYPT},
    {WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_SHA_256, 0, WEBCRYPTO_USAGE_ENCRYPT,
     WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY},
    {WEBCRYPTO_ALG_ECDSA, 0, WEBCRYPTO_CURVE_P256, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_ECDSA, 0, WEBCRYPTO_CURVE_P384, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_ECDSA, 0, WEBCRYPTO_CURVE_P521, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_ECDH, 0, WEBCRYPTO_CURVE_P256, 0, U_DERIVE},
    {WEBCRYPTO_ALG_ECDH, 0, WEBCRYPTO_CURVE_P384, 0, WEBCRYPTO_USAGE_DERIVE_BITS},
    {WEBCRYPTO_ALG_ECDH, 0, WEBCRYPTO_CURVE_P521, 0, WEBCRYPTO_USAGE_DERIVE_KEY},
    {WEBCRYPTO_ALG_ED25519, 0, 0, WEBCRYPTO_USAGE_VERIFY, WEBCRYPTO_USAGE_SIGN},
    {WEBCRYPTO_ALG_X25519, 0, 0, 0, U_DERIVE},
};
#define FUZZ_NALGS (sizeof FUZZ_ALGS / sizeof FUZZ_ALGS[0])

/* The second selector byte: a format, and for JWK (which holds either kind
 * of asymmetric key) whether the public or the private usages are asked. */
enum {
    FUZZ_RAW,
    FUZZ_SPKI,
    FUZZ_PKCS8,
    FUZZ_JWK_PUBLIC,
    FUZZ_JWK_PRIVATE,
    FUZZ_RAW_PUBLIC, /* the Modern Algorithms draft's formats */
    FUZZ_RAW_SECRET,
    FUZZ_RAW_SEED,
    FUZZ_NFORMATS
};

/* The table has no digests: everything before RSA is a secret-key algorithm. */
static inline bool fuzz_secret(const fuzz_alg *a) {
    return a->name < WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5;
}

static inline webcrypto_key_format fuzz_format(unsigned f) {
    static const webcrypto_key_format formats[FUZZ_NFORMATS] = {
        WEBCRYPTO_FORMAT_RAW,        WEBCRYPTO_FORMAT_SPKI,       WEBCRYPTO_FORMAT_PKCS8,
        WEBCRYPTO_FORMAT_JWK,        WEBCRYPTO_FORMAT_JWK,        WEBCRYPTO_FORMAT_RAW_PUBLIC,
        WEBCRYPTO_FORMAT_RAW_SECRET, WEBCRYPTO_FORMAT_RAW_SEED};
    return formats[f % FUZZ_NFORMATS];
}

/* The usages an import of `a` in selector format f asks for. */
static inline unsigned fuzz_usages(const fuzz_alg *a, unsigned f) {
    f %= FUZZ_NFORMATS;
    if (fuzz_secret(a) || f == FUZZ_PKCS8 || f == FUZZ_JWK_PRIVATE || f == FUZZ_RAW_SEED)
        return a->private_usages;
    return a->public_usages;
}

static inline webcrypto_params fuzz_params(const fuzz_alg *a) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = a->name, .hash = a->hash, .named_curve = a->curve);
    return p;
}

/* HKDF and PBKDF2 keys cannot be extractable; every other import asks for an
 * extractable key so that it can be exported again. */
static inline bool fuzz_extractable(const fuzz_alg *a) {
    return a->name != WEBCRYPTO_ALG_HKDF && a->name != WEBCRYPTO_ALG_PBKDF2;
}

/* The round trip of an imported key: exported in each format it allows, each
 * export imports again (same algorithm, usages, extractability) and exports
 * to the same bytes - every export format is canonical. A raw secret key
 * exports as the bytes it was imported from. */
static inline void fuzz_round_trip(const fuzz_alg *a, const webcrypto_key *key,
                                   webcrypto_key_format in_format, const uint8_t *in,
                                   size_t in_len) {
    static const webcrypto_key_format formats[] = {
        WEBCRYPTO_FORMAT_RAW,        WEBCRYPTO_FORMAT_SPKI,       WEBCRYPTO_FORMAT_PKCS8,
        WEBCRYPTO_FORMAT_JWK,        WEBCRYPTO_FORMAT_RAW_PUBLIC, WEBCRYPTO_FORMAT_RAW_SECRET,
        WEBCRYPTO_FORMAT_RAW_SEED};
    webcrypto_params p = fuzz_params(a);
    if (a->name == WEBCRYPTO_ALG_HMAC) p.length = webcrypto_key_get_length(key);
    unsigned usages = webcrypto_key_get_usages(key);
    bool extractable = webcrypto_key_get_extractable(key);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        uint8_t *out = NULL, *out2 = NULL;
        size_t n = 0, n2 = 0;
        if (webcrypto_export_key(formats[i], key, &out, &n) != WEBCRYPTO_OK) continue;
        bool raw_in = in_format == WEBCRYPTO_FORMAT_RAW || in_format == WEBCRYPTO_FORMAT_RAW_SECRET;
        bool raw_out = formats[i] == WEBCRYPTO_FORMAT_RAW || formats[i] == WEBCRYPTO_FORMAT_RAW_SECRET;
        if (raw_in && raw_out && fuzz_secret(a))
            FUZZ_CHECK(n == in_len && memcmp(out, in, n) == 0);
        webcrypto_key *again = NULL;
        FUZZ_CHECK(webcrypto_import_key(NULL, formats[i], out, n, &p, extractable, usages,
                                        &again) == WEBCRYPTO_OK);
        FUZZ_CHECK(webcrypto_key_get_type(again) == webcrypto_key_get_type(key));
        FUZZ_CHECK(webcrypto_key_get_length(again) == webcrypto_key_get_length(key));
        FUZZ_CHECK(webcrypto_export_key(formats[i], again, &out2, &n2) == WEBCRYPTO_OK);
        FUZZ_CHECK(n == n2 && memcmp(out, out2, n) == 0);
        webcrypto_buffer_free(out2, n2);
        webcrypto_buffer_free(out, n);
        webcrypto_key_free(again);
    }
}

#endif /* WEBCRYPTO_FUZZ_COMMON_H */
