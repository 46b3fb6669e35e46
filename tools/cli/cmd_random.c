/* webcrypto random and uuid. */
#include <stdlib.h>

#include "cli.h"

int cmd_random(cli *c) {
    int rc = check_options(c, "random", OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 1);
    size_t n = 0;
    /* Bounded so that the buffer below can be allocated; the library, not
     * this bound, rejects everything over 65536 bytes. */
    if (!rc) rc = parse_size("random", c->pos[1], UINT32_MAX, &n);
    if (!rc) rc = get_backend(c);
    if (rc) return rc;
    /* The library owns the quota, so it gets a real buffer of the size asked
     * for (untouched, hence not resident, when the quota refuses it). */
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return no_memory();
    webcrypto_status st = webcrypto_get_random_values(c->backend, buf, n);
    if (st) {
        free(buf); /* never filled: nothing to wipe */
        return crypto_error(st);
    }
    sink s;
    rc = sink_open(&s, c->opt[OPT_OUT]);
    if (!rc) rc = sink_commit_hex(&s, buf, n);
    wipe_free(buf, n);
    return rc;
}

int cmd_uuid(cli *c) {
    int rc = check_options(c, "uuid", OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 0, 0);
    if (!rc) rc = get_backend(c);
    if (rc) return rc;
    char uuid[37];
    webcrypto_status st = webcrypto_random_uuid(c->backend, uuid);
    if (st) return crypto_error(st);
    char line[38];
    snprintf(line, sizeof line, "%s\n", uuid);
    sink s;
    rc = sink_open(&s, c->opt[OPT_OUT]);
    return rc ? rc : sink_commit_text(&s, line);
}
