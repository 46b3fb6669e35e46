/* webcrypto generate-key, export and import. */
#include <stdlib.h>

#include "cli.h"

/* A key pair: both JWKs are written to temporary files first and renamed
 * into place only when both are complete; on any failure both destinations
 * are as they were (publish_pair). */
static int generate_pair(cli *c, webcrypto_params *p) {
    const char *name = webcrypto_algorithm_name(p->name);
    optset allowed = OPTBIT(OPT_OUT_PRIVATE) | OPTBIT(OPT_OUT_PUBLIC) | OPTBIT(OPT_USAGES) |
                     OPTBIT(OPT_EXTRACTABLE);
    if (is_rsa(p->name))
        allowed |= OPTBIT(OPT_MODULUS_LENGTH) | OPTBIT(OPT_HASH) | OPTBIT(OPT_PUBLIC_EXPONENT);
    if (is_ec(p->name)) allowed |= OPTBIT(OPT_CURVE);
    int rc = check_options(c, name, allowed);
    if (!rc) rc = require_options(c, "generate-key for a key pair",
                                  OPTBIT(OPT_OUT_PRIVATE) | OPTBIT(OPT_OUT_PUBLIC));
    if (!rc && is_rsa(p->name))
        rc = require_options(c, "generate-key for RSA", OPTBIT(OPT_MODULUS_LENGTH) | OPTBIT(OPT_HASH));
    static const uint8_t f4[] = {0x01, 0x00, 0x01};
    uint8_t *exponent = NULL;
    size_t exponent_len = 0;
    if (!rc && is_rsa(p->name)) {
        rc = parse_number(c, OPT_MODULUS_LENGTH, WEBCRYPTO_OP_GENERATE_KEY, p->name, SIZE_MAX,
                          &p->modulus_length);
        if (!rc && c->opt[OPT_PUBLIC_EXPONENT])
            rc = parse_hex("--public-exponent", c->opt[OPT_PUBLIC_EXPONENT], &exponent, &exponent_len);
        p->public_exponent = c->opt[OPT_PUBLIC_EXPONENT] ? exponent : f4;
        p->public_exponent_len = c->opt[OPT_PUBLIC_EXPONENT] ? exponent_len : sizeof f4;
    }
    if (!rc) rc = resolve_key_params(c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE], NULL,
                                     "generate-key", p);
    unsigned usages = 0;
    bool extractable = true;
    if (!rc) rc = usages_option(c, default_usages(p->name), &usages);
    if (!rc) rc = parse_extractable(c, &extractable);
    if (!rc) rc = get_backend(c);
    webcrypto_key *pub = NULL, *priv = NULL;
    webcrypto_status st;
    if (!rc) {
        st = webcrypto_generate_key_pair(c->backend, p, extractable, usages, &pub, &priv);
        if (st) rc = crypto_error(st);
    }
    uint8_t *priv_jwk = NULL, *pub_jwk = NULL;
    size_t priv_len = 0, pub_len = 0;
    if (!rc) {
        st = webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, priv, &priv_jwk, &priv_len);
        if (!st) st = webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, pub, &pub_jwk, &pub_len);
        if (st) rc = crypto_error(st);
    }
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    free(exponent);
    sink sp, sq;
    bool sp_open = false, sq_open = false;
    if (!rc) sp_open = (rc = sink_open(&sp, c->opt[OPT_OUT_PUBLIC])) == EXIT_OK;
    if (!rc) sq_open = (rc = sink_open(&sq, c->opt[OPT_OUT_PRIVATE])) == EXIT_OK;
    if (!rc) rc = sink_write(&sp, pub_jwk, pub_len);
    if (!rc) rc = sink_write(&sp, (const uint8_t *)"\n", 1);
    if (!rc) rc = sink_write(&sq, priv_jwk, priv_len);
    if (!rc) rc = sink_write(&sq, (const uint8_t *)"\n", 1);
    /* Both complete before either replaces anything. */
    if (!rc) {
        sp_open = sq_open = false;
        rc = publish_pair(&sq, &sp);
    }
    if (sp_open) sink_abort(&sp);
    if (sq_open) sink_abort(&sq);
    webcrypto_buffer_free(priv_jwk, priv_len);
    webcrypto_buffer_free(pub_jwk, pub_len);
    return rc;
}

int cmd_generate_key(cli *c) {
    int rc = check_options(c, "generate-key",
                           OPTBIT(OPT_LENGTH) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) |
                               OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_CURVE) |
                               OPTBIT(OPT_MODULUS_LENGTH) | OPTBIT(OPT_PUBLIC_EXPONENT) |
                               OPTBIT(OPT_OUT_PRIVATE) | OPTBIT(OPT_OUT_PUBLIC));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (!alg_has(p.name, WEBCRYPTO_OP_GENERATE_KEY)) return not_supported("generate-key", p.name);
    if (is_pair_alg(p.name)) return generate_pair(c, &p);
    /* A secret key: HMAC's has a hash, AES's needs --length. */
    char what[64];
    snprintf(what, sizeof what, "generate-key %s", webcrypto_algorithm_name(p.name));
    if (needs_hash(p.name)) {
        rc = require_options(c, what, OPTBIT(OPT_HASH));
        if (!rc) rc = lookup_algorithm(c->opt[OPT_HASH], &p.hash);
    } else {
        rc = check_key_options(p.name, c->opt[OPT_HASH], "--hash", NULL);
        if (!rc && (alg_flags(p.name) & ALG_KEY_LENGTH))
            rc = require_options(c, what, OPTBIT(OPT_LENGTH));
    }
    if (!rc) rc = check_options(c, "secret keys",
                                OPTBIT(OPT_LENGTH) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) |
                                    OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE));
    if (!rc) rc = parse_number(c, OPT_LENGTH, WEBCRYPTO_OP_GENERATE_KEY, p.name, SIZE_MAX, &p.length);
    unsigned usages = 0;
    bool extractable = true;
    if (!rc) rc = usages_option(c, default_usages(p.name), &usages);
    if (!rc) rc = parse_extractable(c, &extractable);
    if (!rc) rc = get_backend(c);
    if (rc) return rc;

    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_generate_key(c->backend, &p, extractable, usages, &key);
    if (st) return crypto_error(st);
    rc = output_jwk(c, key);
    webcrypto_key_free(key);
    return rc;
}

/* export: a JWK key file to spki, pkcs8, raw or jwk (DER, or PEM with --pem). */
int cmd_export(cli *c) {
    int rc = check_options(c, "export",
                           OPTBIT(OPT_KEY) | OPTBIT(OPT_ALG) | OPTBIT(OPT_HASH) | OPTBIT(OPT_CURVE) |
                               OPTBIT(OPT_FORMAT) | OPTBIT(OPT_PEM) | OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 0, 0);
    if (!rc) rc = require_options(c, "export", OPTBIT(OPT_KEY) | OPTBIT(OPT_ALG) | OPTBIT(OPT_FORMAT));
    webcrypto_algorithm alg = WEBCRYPTO_ALG_NONE;
    webcrypto_key_format fmt = WEBCRYPTO_FORMAT_RAW;
    if (!rc) rc = lookup_algorithm(c->opt[OPT_ALG], &alg);
    if (!rc) rc = check_key_options(alg, c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE]);
    if (!rc) rc = parse_format(c->opt[OPT_FORMAT], &fmt);
    if (!rc && c->opt[OPT_PEM] && fmt != WEBCRYPTO_FORMAT_SPKI && fmt != WEBCRYPTO_FORMAT_PKCS8)
        rc = usage_error("--pem applies to the spki and pkcs8 formats only");
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = alg,
                      .hash_opt = c->opt[OPT_HASH], .hash_name = "--hash",
                      .curve_opt = c->opt[OPT_CURVE], .extractable = true, .usages_from_jwk = true};
    if (!rc) rc = import_key_file(c, &src, &key);
    uint8_t *out = NULL;
    size_t n = 0;
    if (!rc) {
        webcrypto_status st = webcrypto_export_key(fmt, key, &out, &n);
        if (st) rc = crypto_error(st);
    }
    webcrypto_key_free(key);
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) {
            if (c->opt[OPT_PEM]) rc = sink_write_pem(&s, fmt, out, n);
            else rc = sink_write(&s, out, n);
            if (!rc && fmt == WEBCRYPTO_FORMAT_JWK) rc = sink_write(&s, (const uint8_t *)"\n", 1);
            if (!rc) rc = sink_commit(&s, NULL, 0);
            else sink_abort(&s);
        }
    }
    webcrypto_buffer_free(out, n);
    return rc;
}

/* import: a key file (PEM, DER, raw or JWK) to a JWK. */
int cmd_import(cli *c) {
    int rc = check_options(c, "import",
                           OPTBIT(OPT_ALG) | OPTBIT(OPT_HASH) | OPTBIT(OPT_CURVE) | OPTBIT(OPT_FORMAT) |
                               OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 0, 1);
    if (!rc) rc = require_options(c, "import", OPTBIT(OPT_ALG));
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    webcrypto_key_format fmt = WEBCRYPTO_FORMAT_RAW;
    if (!rc) rc = lookup_algorithm(c->opt[OPT_ALG], &p.name);
    if (!rc) rc = check_key_options(p.name, c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE]);
    if (!rc && !c->opt[OPT_FORMAT]) fmt = secret_raw_format(p.name);
    if (!rc && c->opt[OPT_FORMAT]) rc = parse_format(c->opt[OPT_FORMAT], &fmt);
    bool extractable = true;
    if (!rc) rc = parse_extractable(c, &extractable);
    if (!rc) rc = get_backend(c);
    if (rc) return rc;
    const char *in_path = c->npos > 1 ? c->pos[1] : NULL;
    uint8_t *data;
    size_t len, cap;
    rc = read_all(in_path, MAX_KEY_FILE, &data, &len, &cap);
    if (rc) return rc;
    size_t key_len = len;
    if (starts_with(data, len, "-----BEGIN ")) {
        webcrypto_key_format pem_fmt = WEBCRYPTO_FORMAT_SPKI;
        rc = pem_decode(data, len, &key_len, &pem_fmt);
        if (!rc && c->opt[OPT_FORMAT] && fmt != pem_fmt)
            rc = usage_error("%s is PEM %s, not --format %s", display_name(in_path),
                             pem_label(pem_fmt), c->opt[OPT_FORMAT]);
        fmt = pem_fmt;
    } else if (!c->opt[OPT_FORMAT]) {
        rc = usage_error("import needs --format for a key that is not PEM");
    }
    jwk_hints h;
    if (!rc && fmt == WEBCRYPTO_FORMAT_JWK) read_jwk_hints(data, key_len, &h);
    const jwk_hints *hp = fmt == WEBCRYPTO_FORMAT_JWK ? &h : NULL;
    if (!rc) rc = resolve_key_params(c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE], hp,
                                     display_name(in_path), &p);
    unsigned usages = 0;
    if (!rc) {
        usages = allowed_usages(p.name, type_of_format(p.name, fmt, hp));
        if (hp && h.has_ops) usages &= h.ops;
        rc = usages_option(c, usages, &usages);
    }
    webcrypto_key *key = NULL;
    if (!rc) {
        webcrypto_status st =
            webcrypto_import_key(c->backend, fmt, data, key_len, &p, extractable, usages, &key);
        if (st) rc = crypto_error(st);
    }
    wipe_free(data, cap);
    if (!rc) rc = output_jwk(c, key);
    webcrypto_key_free(key);
    return rc;
}
