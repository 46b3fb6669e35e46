/* webcrypto derive-bits and derive-key. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The base key of an ECDH or X25519 derivation: --key (private, with
 * `usage`) and --public-key (the peer's), which p->public_key then points to. */
static int import_agreement_keys(cli *c, webcrypto_params *p, unsigned usage, webcrypto_key **priv,
                                 webcrypto_key **pub) {
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = p->name,
                      .curve_opt = c->opt[OPT_CURVE], .usages = usage};
    int rc = import_key_file(c, &src, priv);
    if (!rc) {
        src.path = c->opt[OPT_PUBLIC_KEY];
        src.what = "--public-key";
        src.usages = 0; /* public ECDH and X25519 keys have no usages */
        rc = import_key_file(c, &src, pub);
    }
    p->public_key = *pub;
    return rc;
}

static int derive_bits_agreement(cli *c, webcrypto_params *p) {
    int rc = check_options(c, webcrypto_algorithm_name(p->name),
                           OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY) | OPTBIT(OPT_LENGTH) |
                               OPTBIT(OPT_OUT) | (is_ec(p->name) ? OPTBIT(OPT_CURVE) : 0));
    if (!rc) rc = require_options(c, "derive-bits", OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY));
    if (!rc) rc = check_stdin_once(c, NULL, false);
    size_t bits = WEBCRYPTO_LENGTH_FULL;
    if (!rc) rc = parse_number(c, OPT_LENGTH, WEBCRYPTO_OP_DERIVE_BITS, p->name, 65536, &bits);
    if (!rc) rc = get_backend(c);
    webcrypto_key *priv = NULL, *pub = NULL;
    if (!rc) rc = import_agreement_keys(c, p, WEBCRYPTO_USAGE_DERIVE_BITS, &priv, &pub);
    uint8_t out[66]; /* the longest secret: P-521 */
    size_t n = 0;
    if (!rc) {
        webcrypto_status st = webcrypto_derive_bits(p, priv, bits, out, sizeof out, &n);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&s, out, n);
    }
    wipe(out, sizeof out);
    webcrypto_key_free(priv);
    webcrypto_key_free(pub);
    return rc;
}

/* HKDF, PBKDF2 and Argon2's members from the options; the secret (Argon2:
 * the password) is --key-hex. */
typedef struct kdf_bufs {
    uint8_t *secret, *salt, *info, *nonce, *argon2_secret, *aad;
    size_t secret_len, argon2_secret_len;
} kdf_bufs;

/* Argon2: --nonce, --parallelism, --memory (KiB), --passes, and the optional
 * --secret (secretValue) and --aad (associatedData); version 0x13. */
static int parse_argon2(const cli *c, webcrypto_params *p, kdf_bufs *b) {
    size_t v = 0;
    int rc = parse_hex("--key-hex", c->opt[OPT_KEY_HEX], &b->secret, &b->secret_len);
    if (!rc) rc = parse_hex("--nonce", c->opt[OPT_NONCE], &b->nonce, &p->nonce_len);
    if (!rc && c->opt[OPT_SECRET])
        rc = parse_hex("--secret", c->opt[OPT_SECRET], &b->argon2_secret, &b->argon2_secret_len);
    if (!rc && c->opt[OPT_AAD])
        rc = parse_hex("--aad", c->opt[OPT_AAD], &b->aad, &p->additional_data_len);
    if (!rc) rc = parse_number(c, OPT_PARALLELISM, WEBCRYPTO_OP_DERIVE_BITS, p->name, UINT32_MAX, &v);
    p->parallelism = (uint32_t)v;
    if (!rc) rc = parse_number(c, OPT_MEMORY, WEBCRYPTO_OP_DERIVE_BITS, p->name, UINT32_MAX, &v);
    p->memory = (uint32_t)v;
    if (!rc) rc = parse_number(c, OPT_PASSES, WEBCRYPTO_OP_DERIVE_BITS, p->name, UINT32_MAX, &v);
    p->passes = (uint32_t)v;
    /* parse_hex gives NULL for an empty value: the nonce is required, so an
     * empty one is a present, empty (too short) nonce. */
    static const uint8_t empty[1] = {0};
    p->nonce = b->nonce ? b->nonce : empty;
    p->secret_value = b->argon2_secret;
    p->secret_value_len = b->argon2_secret_len;
    p->additional_data = b->aad;
    return rc;
}

static int parse_kdf(const cli *c, webcrypto_params *p, kdf_bufs *b) {
    size_t iterations = 0;
    memset(b, 0, sizeof *b);
    if (alg_flags(p->name) & ALG_ARGON2) return parse_argon2(c, p, b);
    int rc = lookup_algorithm(c->opt[OPT_HASH], &p->hash);
    if (!rc) rc = parse_hex("--key-hex", c->opt[OPT_KEY_HEX], &b->secret, &b->secret_len);
    if (!rc) rc = parse_hex("--salt", c->opt[OPT_SALT], &b->salt, &p->salt_len);
    if (!rc && c->opt[OPT_INFO]) rc = parse_hex("--info", c->opt[OPT_INFO], &b->info, &p->info_len);
    if (!rc)
        rc = parse_number(c, OPT_ITERATIONS, WEBCRYPTO_OP_DERIVE_BITS, p->name, UINT32_MAX,
                          &iterations);
    p->salt = b->salt;
    p->info = b->info;
    p->iterations = (uint32_t)iterations;
    return rc;
}

static void kdf_bufs_free(kdf_bufs *b) {
    wipe_free(b->secret, b->secret_len);
    wipe_free(b->argon2_secret, b->argon2_secret_len);
    free(b->salt);
    free(b->info);
    free(b->nonce);
    free(b->aad);
}

/* The options every KDF's derive-bits and derive-key take (--length
 * aside): --key-hex, and HKDF's and PBKDF2's --hash and --salt. */
static optset kdf_common(webcrypto_algorithm a) {
    return OPTBIT(OPT_KEY_HEX) |
           ((alg_flags(a) & ALG_ARGON2) ? 0 : OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT));
}

/* Every KDF option, for the commands' first check. */
#define ALL_KDF_OPTS                                                                       \
    (OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) | OPTBIT(OPT_INFO) |          \
     OPTBIT(OPT_ITERATIONS) | OPTBIT(OPT_NONCE) | OPTBIT(OPT_MEMORY) | OPTBIT(OPT_PASSES) |  \
     OPTBIT(OPT_PARALLELISM) | OPTBIT(OPT_SECRET) | OPTBIT(OPT_AAD))

/* HKDF, PBKDF2 or Argon2's base key: the --key-hex secret as a raw (or
 * raw-secret) key. */
static int import_kdf_key(const cli *c, webcrypto_algorithm alg, const kdf_bufs *b, unsigned usage,
                          webcrypto_key **key) {
    webcrypto_params ip = WEBCRYPTO_PARAMS_INIT;
    ip.name = alg;
    webcrypto_status st = webcrypto_import_key(c->backend, secret_raw_format(alg), b->secret,
                                               b->secret_len, &ip, false, usage, key);
    return st ? crypto_error(st) : EXIT_OK;
}

int cmd_derive_bits(cli *c) {
    int rc = check_options(c, "derive-bits",
                           ALL_KDF_OPTS | OPTBIT(OPT_LENGTH) | OPTBIT(OPT_KEY) |
                               OPTBIT(OPT_PUBLIC_KEY) | OPTBIT(OPT_CURVE) | OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (!alg_has(p.name, WEBCRYPTO_OP_DERIVE_BITS)) return not_supported("derive-bits", p.name);
    /* A key agreement (ECDH, X25519) derives from a key pair, a KDF (HKDF,
     * PBKDF2) from a secret. */
    if (is_pair_alg(p.name)) return derive_bits_agreement(c, &p);
    optset common = kdf_common(p.name) | OPTBIT(OPT_LENGTH);
    optset specific, specific_required; /* HKDF: --info; PBKDF2: --iterations; Argon2's */
    alg_options(p.name, &specific, &specific_required);
    rc = check_options(c, webcrypto_algorithm_name(p.name), common | specific | OPTBIT(OPT_OUT));
    if (!rc) rc = require_options(c, "derive-bits", common | specific_required);
    kdf_bufs b;
    size_t bits = 0, out_cap = 0, out_len = 0;
    if (!rc) rc = parse_kdf(c, &p, &b);
    else memset(&b, 0, sizeof b);
    /* Bounded so that the output buffer stays allocatable (512 MiB). */
    if (!rc) rc = parse_number(c, OPT_LENGTH, WEBCRYPTO_OP_DERIVE_BITS, p.name, UINT32_MAX, &bits);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc) rc = import_kdf_key(c, p.name, &b, WEBCRYPTO_USAGE_DERIVE_BITS, &key);
    if (!rc) {
        /* The size query makes the library's length checks (HKDF's 255
         * HashLen, a multiple of 8) before the output buffer is needed: a
         * length that can never succeed is refused before it is allocated. */
        webcrypto_status st = webcrypto_derive_bits(&p, key, bits, NULL, 0, &out_cap);
        if (st) rc = crypto_error(st);
    }
    uint8_t *out = NULL;
    if (!rc) {
        out = malloc(out_cap ? out_cap : 1);
        if (!out) rc = no_memory();
    }
    if (!rc) {
        webcrypto_status st = webcrypto_derive_bits(&p, key, bits, out, out_cap, &out_len);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&s, out, out_len);
    }
    webcrypto_key_free(key);
    kdf_bufs_free(&b);
    wipe_free(out, out_cap);
    return rc;
}

/* derive-key: HKDF, PBKDF2, ECDH or X25519 to an AES or HMAC key, printed
 * as a JWK. */
int cmd_derive_key(cli *c) {
    const optset derived = OPTBIT(OPT_DERIVED) | OPTBIT(OPT_DERIVED_LENGTH) |
                           OPTBIT(OPT_DERIVED_HASH) | OPTBIT(OPT_USAGES) |
                           OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_OUT);
    int rc = check_options(c, "derive-key",
                           derived | ALL_KDF_OPTS | OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY) |
                               OPTBIT(OPT_CURVE));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (!alg_has(p.name, WEBCRYPTO_OP_DERIVE_KEY)) return not_supported("derive-key", p.name);
    optset base, extra = 0;
    bool agreement = is_pair_alg(p.name); /* as in derive-bits */
    if (agreement) {
        base = OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY);
        if (is_ec(p.name)) extra = OPTBIT(OPT_CURVE);
    } else {
        optset specific, specific_required;
        alg_options(p.name, &specific, &specific_required);
        base = kdf_common(p.name) | specific_required;
        extra = specific & ~specific_required;
    }
    rc = check_options(c, webcrypto_algorithm_name(p.name), base | extra | derived);
    if (!rc) rc = require_options(c, "derive-key", base | OPTBIT(OPT_DERIVED));
    /* The derived key's type; its checks are the library's. */
    webcrypto_params dt = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->opt[OPT_DERIVED], &dt.name);
    if (!rc)
        rc = parse_number(c, OPT_DERIVED_LENGTH, WEBCRYPTO_OP_GET_KEY_LENGTH, dt.name, SIZE_MAX,
                          &dt.length);
    if (!rc && c->opt[OPT_DERIVED_HASH]) rc = lookup_algorithm(c->opt[OPT_DERIVED_HASH], &dt.hash);
    unsigned usages = 0;
    bool extractable = true;
    if (!rc) rc = usages_option(c, default_usages(dt.name), &usages);
    if (!rc) rc = parse_extractable(c, &extractable);
    kdf_bufs b;
    memset(&b, 0, sizeof b);
    if (!rc && !agreement) rc = parse_kdf(c, &p, &b);
    if (!rc && agreement) rc = check_stdin_once(c, NULL, false);
    if (!rc) rc = get_backend(c);
    webcrypto_key *base_key = NULL, *pub = NULL, *key = NULL;
    if (!rc)
        rc = agreement ? import_agreement_keys(c, &p, WEBCRYPTO_USAGE_DERIVE_KEY, &base_key, &pub)
                       : import_kdf_key(c, p.name, &b, WEBCRYPTO_USAGE_DERIVE_KEY, &base_key);
    if (!rc) {
        webcrypto_status st = webcrypto_derive_key(&p, base_key, &dt, extractable, usages, &key);
        if (st) rc = crypto_error(st);
    }
    if (!rc) rc = output_jwk(c, key);
    webcrypto_key_free(key);
    webcrypto_key_free(base_key);
    webcrypto_key_free(pub);
    kdf_bufs_free(&b);
    return rc;
}
