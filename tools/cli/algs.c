/* What the CLI knows of algorithms. Their names, and which commands take
 * them, are the library's (webcrypto_algorithm_count/_at and
 * webcrypto_algorithm_has_operation), so that an algorithm the library adds
 * appears here without an edit. What only the command line needs - which
 * options an algorithm's key and operation take - is one table; an
 * algorithm it lacks takes no options beyond the command's own. */
#include "cli.h"

static const struct alg_cli {
    webcrypto_algorithm alg;
    unsigned flags;           /* ALG_* */
    optset allowed, required; /* the options of its encrypt, sign or derive */
} alg_table[] = {
    {WEBCRYPTO_ALG_HMAC, ALG_KEY_HASH | ALG_KEY_LENGTH_OPT | ALG_STREAMS, 0, 0},
    {WEBCRYPTO_ALG_AES_CBC, ALG_KEY_LENGTH | ALG_STREAMS, OPTBIT(OPT_IV), OPTBIT(OPT_IV)},
    {WEBCRYPTO_ALG_AES_CTR, ALG_KEY_LENGTH | ALG_STREAMS, OPTBIT(OPT_COUNTER) | OPTBIT(OPT_LENGTH),
     OPTBIT(OPT_COUNTER) | OPTBIT(OPT_LENGTH)},
    {WEBCRYPTO_ALG_AES_GCM, ALG_KEY_LENGTH,
     OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH), OPTBIT(OPT_IV)},
    {WEBCRYPTO_ALG_AES_GCM_SIV, ALG_KEY_LENGTH,
     OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH), OPTBIT(OPT_IV)},
    {WEBCRYPTO_ALG_AES_KW, ALG_KEY_LENGTH, 0, 0},
    {WEBCRYPTO_ALG_HKDF, 0, OPTBIT(OPT_INFO), OPTBIT(OPT_INFO)},
    {WEBCRYPTO_ALG_PBKDF2, 0, OPTBIT(OPT_ITERATIONS), OPTBIT(OPT_ITERATIONS)},
    {WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, ALG_KEY_HASH | ALG_KEY_RSA, 0, 0},
    {WEBCRYPTO_ALG_RSA_PSS, ALG_KEY_HASH | ALG_KEY_RSA, OPTBIT(OPT_SALT_LENGTH),
     OPTBIT(OPT_SALT_LENGTH)},
    {WEBCRYPTO_ALG_RSA_OAEP, ALG_KEY_HASH | ALG_KEY_RSA, OPTBIT(OPT_LABEL), 0},
    /* ECDSA's --hash is the signature's, not the key's. */
    {WEBCRYPTO_ALG_ECDSA, ALG_KEY_CURVE, OPTBIT(OPT_HASH), OPTBIT(OPT_HASH)},
    {WEBCRYPTO_ALG_ECDH, ALG_KEY_CURVE, 0, 0},
    {WEBCRYPTO_ALG_ED448, 0, OPTBIT(OPT_CONTEXT), 0},
    /* ML-DSA: the optional signature context */
    {WEBCRYPTO_ALG_ML_DSA_44, 0, OPTBIT(OPT_CONTEXT), 0},
    {WEBCRYPTO_ALG_ML_DSA_65, 0, OPTBIT(OPT_CONTEXT), 0},
    {WEBCRYPTO_ALG_ML_DSA_87, 0, OPTBIT(OPT_CONTEXT), 0},
    /* cSHAKE's digest and KMAC's sign/verify: outputLength and S (and
     * cSHAKE's N) */
    {WEBCRYPTO_ALG_CSHAKE128, 0,
     OPTBIT(OPT_OUTPUT_LENGTH) | OPTBIT(OPT_CUSTOMIZATION) | OPTBIT(OPT_FUNCTION_NAME),
     OPTBIT(OPT_OUTPUT_LENGTH)},
    {WEBCRYPTO_ALG_CSHAKE256, 0,
     OPTBIT(OPT_OUTPUT_LENGTH) | OPTBIT(OPT_CUSTOMIZATION) | OPTBIT(OPT_FUNCTION_NAME),
     OPTBIT(OPT_OUTPUT_LENGTH)},
    {WEBCRYPTO_ALG_KMAC128, ALG_KEY_LENGTH_OPT, OPTBIT(OPT_OUTPUT_LENGTH) | OPTBIT(OPT_CUSTOMIZATION),
     OPTBIT(OPT_OUTPUT_LENGTH)},
    {WEBCRYPTO_ALG_KMAC256, ALG_KEY_LENGTH_OPT, OPTBIT(OPT_OUTPUT_LENGTH) | OPTBIT(OPT_CUSTOMIZATION),
     OPTBIT(OPT_OUTPUT_LENGTH)},
    /* "Modern Algorithms in the Web Cryptography API" */
    {WEBCRYPTO_ALG_CHACHA20_POLY1305, 0,
     OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH), OPTBIT(OPT_IV)},
    {WEBCRYPTO_ALG_AES_OCB, ALG_KEY_LENGTH,
     OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH), OPTBIT(OPT_IV)},
#define ARGON2_OPTS                                                                         \
    OPTBIT(OPT_NONCE) | OPTBIT(OPT_MEMORY) | OPTBIT(OPT_PASSES) | OPTBIT(OPT_PARALLELISM) |  \
        OPTBIT(OPT_SECRET) | OPTBIT(OPT_AAD)
#define ARGON2_REQUIRED                                                                     \
    OPTBIT(OPT_NONCE) | OPTBIT(OPT_MEMORY) | OPTBIT(OPT_PASSES) | OPTBIT(OPT_PARALLELISM)
    {WEBCRYPTO_ALG_ARGON2D, ALG_ARGON2, ARGON2_OPTS, ARGON2_REQUIRED},
    {WEBCRYPTO_ALG_ARGON2I, ALG_ARGON2, ARGON2_OPTS, ARGON2_REQUIRED},
    {WEBCRYPTO_ALG_ARGON2ID, ALG_ARGON2, ARGON2_OPTS, ARGON2_REQUIRED},
};

static const struct alg_cli *alg_row(webcrypto_algorithm a) {
    static const struct alg_cli none = {WEBCRYPTO_ALG_NONE, 0, 0, 0};
    for (size_t i = 0; i < sizeof alg_table / sizeof alg_table[0]; i++)
        if (alg_table[i].alg == a) return &alg_table[i];
    return &none;
}

unsigned alg_flags(webcrypto_algorithm a) { return alg_row(a)->flags; }

void alg_options(webcrypto_algorithm a, optset *allowed, optset *required) {
    *allowed = alg_row(a)->allowed;
    *required = alg_row(a)->required;
}

bool alg_has(webcrypto_algorithm a, webcrypto_operation op) {
    return webcrypto_algorithm_has_operation(a, op);
}

bool is_rsa(webcrypto_algorithm a) { return (alg_flags(a) & ALG_KEY_RSA) != 0; }
bool is_ec(webcrypto_algorithm a) { return (alg_flags(a) & ALG_KEY_CURVE) != 0; }
bool needs_hash(webcrypto_algorithm a) { return (alg_flags(a) & ALG_KEY_HASH) != 0; }

/* WebCrypto defines "get key length" for the algorithms whose keys are
 * secret bytes (AES, HMAC, HKDF, PBKDF2): one that generates keys without
 * it generates key pairs. */
bool is_pair_alg(webcrypto_algorithm a) {
    return alg_has(a, WEBCRYPTO_OP_GENERATE_KEY) && !alg_has(a, WEBCRYPTO_OP_GET_KEY_LENGTH);
}

size_t empty_output_stand_in(webcrypto_algorithm a) {
    /* jca's cSHAKE and KMAC have only these: 256 bits for the 128 members,
     * 512 for the 256 ones (webcrypto.h) */
    return a == WEBCRYPTO_ALG_CSHAKE256 || a == WEBCRYPTO_ALG_KMAC256 ? 512 : 256;
}

/* The usages WebCrypto allows a key of this algorithm and type: those of
 * its operations (an algorithm that encrypts also wraps), and of a key
 * pair's, the public key's encrypt, wrapKey and verify, the private key's
 * the rest. */
unsigned allowed_usages(webcrypto_algorithm a, webcrypto_key_type type) {
    const unsigned enc = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    const unsigned wrap = WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY;
    const unsigned derive = WEBCRYPTO_USAGE_DERIVE_KEY | WEBCRYPTO_USAGE_DERIVE_BITS;
    const unsigned pub = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY |
                         WEBCRYPTO_USAGE_VERIFY | WEBCRYPTO_USAGE_ENCAPSULATE_KEY |
                         WEBCRYPTO_USAGE_ENCAPSULATE_BITS;
    unsigned u = 0;
    if (alg_has(a, WEBCRYPTO_OP_ENCRYPT)) u |= enc | wrap;
    if (alg_has(a, WEBCRYPTO_OP_WRAP_KEY)) u |= wrap;
    if (alg_has(a, WEBCRYPTO_OP_SIGN)) u |= WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    if (alg_has(a, WEBCRYPTO_OP_DERIVE_BITS)) u |= derive;
    if (alg_has(a, WEBCRYPTO_OP_ENCAPSULATE))
        u |= WEBCRYPTO_USAGE_ENCAPSULATE_KEY | WEBCRYPTO_USAGE_ENCAPSULATE_BITS;
    if (alg_has(a, WEBCRYPTO_OP_DECAPSULATE))
        u |= WEBCRYPTO_USAGE_DECAPSULATE_KEY | WEBCRYPTO_USAGE_DECAPSULATE_BITS;
    if (!is_pair_alg(a)) return u;
    return type == WEBCRYPTO_KEY_PRIVATE ? u & ~pub : u & pub;
}

/* generate-key's and derive-key's usages when --usages is absent. */
unsigned default_usages(webcrypto_algorithm a) {
    if (!is_pair_alg(a) && alg_has(a, WEBCRYPTO_OP_ENCRYPT))
        return WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    if (is_pair_alg(a))
        return allowed_usages(a, WEBCRYPTO_KEY_PUBLIC) | allowed_usages(a, WEBCRYPTO_KEY_PRIVATE);
    return allowed_usages(a, WEBCRYPTO_KEY_SECRET);
}
