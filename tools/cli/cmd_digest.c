/* webcrypto digest ALG [FILE]: streamed; cSHAKE (with --output-length) in
 * one call over the whole input. */
#include <stdlib.h>

#include "cli.h"

/* cSHAKE128/256: --output-length BITS, --function-name HEX, --customization
 * HEX; the input read whole (webcrypto_digest_params is one-shot). */
static int digest_with_params(cli *c, webcrypto_algorithm alg) {
    optset allowed, required;
    alg_options(alg, &allowed, &required);
    int rc = check_options(c, webcrypto_algorithm_name(alg), allowed | OPTBIT(OPT_OUT));
    char what[64];
    snprintf(what, sizeof what, "digest %s", webcrypto_algorithm_name(alg));
    if (!rc) rc = require_options(c, what, required);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    uint8_t *n = NULL, *s = NULL, *data = NULL, *out = NULL;
    size_t data_len = 0, data_cap = 0, out_len = 0;
    if (!rc)
        rc = parse_number(c, OPT_OUTPUT_LENGTH, WEBCRYPTO_OP_DIGEST, alg, SIZE_MAX, &p.output_length);
    const bool empty = !rc && p.output_length == 0; /* --output-length 0 (required: given) */
    if (empty) p.output_length = empty_output_stand_in(alg);
    if (!rc && c->opt[OPT_FUNCTION_NAME])
        rc = parse_hex("--function-name", c->opt[OPT_FUNCTION_NAME], &n, &p.function_name_len);
    if (!rc && c->opt[OPT_CUSTOMIZATION])
        rc = parse_hex("--customization", c->opt[OPT_CUSTOMIZATION], &s, &p.customization_len);
    p.function_name = n;
    p.customization = s;
    if (!rc) rc = get_backend(c);
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    if (!rc) rc = read_all(in_path, SIZE_MAX, &data, &data_len, &data_cap);
    webcrypto_status st = WEBCRYPTO_OK;
    if (!rc) {
        st = webcrypto_digest_params(c->backend, &p, data, data_len, NULL, 0, &out_len);
        if (!st) st = (out = malloc(out_len ? out_len : 1)) ? WEBCRYPTO_OK : WEBCRYPTO_ERR_NO_MEMORY;
        if (!st) st = webcrypto_digest_params(c->backend, &p, data, data_len, out, out_len, &out_len);
        if (st) rc = crypto_error(st);
        if (empty) out_len = 0;
    }
    free(data); /* the input to a digest: not secret here */
    free(n);
    free(s);
    if (!rc) {
        sink sk;
        rc = sink_open(&sk, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&sk, out, out_len);
    }
    free(out);
    return rc;
}

int cmd_digest(cli *c) {
    int rc = check_options(c, "digest",
                           OPTBIT(OPT_OUT) | OPTBIT(OPT_OUTPUT_LENGTH) |
                               OPTBIT(OPT_FUNCTION_NAME) | OPTBIT(OPT_CUSTOMIZATION));
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_algorithm hash;
    if (!rc) rc = lookup_algorithm(c->pos[1], &hash);
    if (rc) return rc;
    /* a digest of no fixed size takes its parameters (cSHAKE) */
    if (alg_has(hash, WEBCRYPTO_OP_DIGEST) && webcrypto_digest_size(hash) == 0)
        return digest_with_params(c, hash);
    rc = check_options(c, webcrypto_algorithm_name(hash), OPTBIT(OPT_OUT));
    if (!rc) rc = get_backend(c);
    if (rc) return rc;

    webcrypto_digest_ctx *ctx = NULL;
    webcrypto_status st = webcrypto_digest_init(c->backend, hash, &ctx);
    if (st) return crypto_error(st);
    FILE *in = NULL;
    uint8_t *buf = malloc(CHUNK);
    rc = buf ? open_input(c->npos > 2 ? c->pos[2] : NULL, &in) : no_memory();
    while (!rc) {
        size_t got;
        rc = read_chunk(in, c->pos[2], buf, CHUNK, &got);
        if (rc) break;
        st = webcrypto_digest_update(ctx, buf, got);
        if (st) rc = crypto_error(st);
        if (got < CHUNK) break;
    }
    close_input(in);
    uint8_t md[64];
    size_t md_len = 0;
    if (!rc) {
        st = webcrypto_digest_final(ctx, md, sizeof md, &md_len);
        if (st) rc = crypto_error(st);
    }
    webcrypto_digest_ctx_free(ctx);
    free(buf);
    if (rc) return rc;
    sink s;
    rc = sink_open(&s, c->opt[OPT_OUT]);
    return rc ? rc : sink_commit_hex(&s, md, md_len);
}
