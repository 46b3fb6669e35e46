/* webcrypto wrap-key and unwrap-key. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The wrapping algorithm (--wrap-alg) and its options, shared by wrap-key
 * and unwrap-key. */
static int wrap_alg_params(cli *c, const char *cmd, optset others, webcrypto_params *wp,
                           cipher_bufs *bufs) {
    memset(bufs, 0, sizeof *bufs);
    int rc = lookup_algorithm(c->opt[OPT_WRAP_ALG], &wp->name);
    if (rc) return rc;
    optset allowed, required;
    if (!cipher_options(wp->name, true, &allowed, &required)) return not_supported(cmd, wp->name);
    if (needs_hash(wp->name)) allowed |= OPTBIT(OPT_WRAP_HASH); /* RSA-OAEP */
    rc = check_options(c, webcrypto_algorithm_name(wp->name), allowed | others);
    if (!rc) rc = require_options(c, cmd, required);
    if (!rc) rc = parse_cipher_values(c, wp, bufs);
    return rc;
}

/* The wrapping key (--wrapping-key, a JWK of --wrap-alg) with `usage`. */
static int import_wrapping_key(cli *c, webcrypto_algorithm alg, unsigned usage, webcrypto_key **key) {
    key_source src = {.path = c->opt[OPT_WRAPPING_KEY], .what = "--wrapping-key", .alg = alg,
                      .hash_opt = c->opt[OPT_WRAP_HASH], .hash_name = "--wrap-hash",
                      .usages = usage};
    return import_key_file(c, &src, key);
}

#define WRAP_CIPHER_OPTS                                                                         \
    (OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH) | OPTBIT(OPT_COUNTER) |          \
     OPTBIT(OPT_LENGTH) | OPTBIT(OPT_LABEL) | OPTBIT(OPT_WRAP_HASH))

/* wrap-key: exports --key in --format and wraps it; writes the wrapped bytes. */
int cmd_wrap_key(cli *c) {
    const optset others = OPTBIT(OPT_KEY) | OPTBIT(OPT_ALG) | OPTBIT(OPT_HASH) | OPTBIT(OPT_CURVE) |
                          OPTBIT(OPT_WRAPPING_KEY) | OPTBIT(OPT_WRAP_ALG) | OPTBIT(OPT_FORMAT) |
                          OPTBIT(OPT_OUT);
    int rc = check_options(c, "wrap-key", others | WRAP_CIPHER_OPTS);
    if (!rc) rc = check_positionals(c, 0, 0);
    if (!rc) rc = require_options(c, "wrap-key", OPTBIT(OPT_KEY) | OPTBIT(OPT_ALG) |
                                                    OPTBIT(OPT_WRAPPING_KEY) | OPTBIT(OPT_WRAP_ALG) |
                                                    OPTBIT(OPT_FORMAT));
    webcrypto_params wp = WEBCRYPTO_PARAMS_INIT;
    webcrypto_algorithm alg = WEBCRYPTO_ALG_NONE;
    webcrypto_key_format fmt = WEBCRYPTO_FORMAT_RAW;
    cipher_bufs bufs;
    memset(&bufs, 0, sizeof bufs);
    if (!rc) rc = lookup_algorithm(c->opt[OPT_ALG], &alg);
    if (!rc) rc = check_key_options(alg, c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE]);
    if (!rc) rc = wrap_alg_params(c, "wrap-key", others, &wp, &bufs);
    if (!rc) rc = parse_format(c->opt[OPT_FORMAT], &fmt);
    if (!rc) rc = check_stdin_once(c, NULL, false);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL, *wrapping = NULL;
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = alg,
                      .hash_opt = c->opt[OPT_HASH], .hash_name = "--hash",
                      .curve_opt = c->opt[OPT_CURVE], .extractable = true, .usages_from_jwk = true};
    if (!rc) rc = import_key_file(c, &src, &key);
    if (!rc) rc = import_wrapping_key(c, wp.name, WEBCRYPTO_USAGE_WRAP_KEY, &wrapping);
    uint8_t *out = NULL;
    size_t n = 0;
    if (!rc) {
        webcrypto_status st = webcrypto_wrap_key(fmt, key, wrapping, &wp, &out, &n);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit(&s, out, n);
    }
    webcrypto_buffer_free(out, n);
    webcrypto_key_free(key);
    webcrypto_key_free(wrapping);
    cipher_bufs_free(&bufs);
    return rc;
}

/* unwrap-key: unwraps FILE with --wrapping-key and imports the result as a
 * key of --alg in --format; prints it as a JWK. */
int cmd_unwrap_key(cli *c) {
    const optset others = OPTBIT(OPT_ALG) | OPTBIT(OPT_HASH) | OPTBIT(OPT_CURVE) |
                          OPTBIT(OPT_WRAPPING_KEY) | OPTBIT(OPT_WRAP_ALG) | OPTBIT(OPT_FORMAT) |
                          OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_OUT);
    int rc = check_options(c, "unwrap-key", others | WRAP_CIPHER_OPTS);
    if (!rc) rc = check_positionals(c, 0, 1);
    if (!rc) rc = require_options(c, "unwrap-key", OPTBIT(OPT_ALG) | OPTBIT(OPT_WRAPPING_KEY) |
                                                      OPTBIT(OPT_WRAP_ALG) | OPTBIT(OPT_FORMAT));
    webcrypto_params wp = WEBCRYPTO_PARAMS_INIT, ip = WEBCRYPTO_PARAMS_INIT;
    webcrypto_key_format fmt = WEBCRYPTO_FORMAT_RAW;
    cipher_bufs bufs;
    memset(&bufs, 0, sizeof bufs);
    if (!rc) rc = lookup_algorithm(c->opt[OPT_ALG], &ip.name);
    if (!rc) rc = check_key_options(ip.name, c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE]);
    if (!rc) rc = wrap_alg_params(c, "unwrap-key", others, &wp, &bufs);
    if (!rc) rc = parse_format(c->opt[OPT_FORMAT], &fmt);
    if (!rc) rc = resolve_key_params(c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE], NULL,
                                     "unwrap-key", &ip);
    unsigned usages = 0;
    bool extractable = true;
    if (!rc) rc = usages_option(c, allowed_usages(ip.name, type_of_format(ip.name, fmt, NULL)), &usages);
    if (!rc) rc = parse_extractable(c, &extractable);
    const char *in_path = c->npos > 1 ? c->pos[1] : NULL;
    if (!rc) rc = check_stdin_once(c, in_path, true);
    if (!rc) rc = get_backend(c);
    webcrypto_key *unwrapping = NULL, *key = NULL;
    if (!rc) rc = import_wrapping_key(c, wp.name, WEBCRYPTO_USAGE_UNWRAP_KEY, &unwrapping);
    uint8_t *data = NULL;
    size_t len = 0, cap = 0;
    if (!rc) rc = read_all(in_path, SIZE_MAX, &data, &len, &cap);
    if (!rc) {
        webcrypto_status st = webcrypto_unwrap_key(fmt, data, len, unwrapping, &wp, &ip, extractable,
                                                   usages, &key);
        if (st) rc = crypto_error(st);
    }
    if (!rc) rc = output_jwk(c, key);
    if (data) wipe_free(data, cap);
    webcrypto_key_free(key);
    webcrypto_key_free(unwrapping);
    cipher_bufs_free(&bufs);
    return rc;
}
