/* webcrypto digest ALG [FILE]: streamed. */
#include <stdlib.h>

#include "cli.h"

int cmd_digest(cli *c) {
    int rc = check_options(c, "digest", OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_algorithm hash;
    if (!rc) rc = lookup_algorithm(c->pos[1], &hash);
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
