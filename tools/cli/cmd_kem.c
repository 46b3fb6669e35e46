/* webcrypto encapsulate and decapsulate (ML-KEM; the draft's
 * encapsulateBits and decapsulateBits). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* The command's algorithm, which must encapsulate (op) or decapsulate. */
static int kem_alg(cli *c, const char *cmd, webcrypto_operation op, size_t max_pos,
                   webcrypto_params *p) {
    int rc = check_options(c, cmd, OPTBIT(OPT_KEY) | OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, max_pos);
    if (!rc) rc = require_options(c, cmd, OPTBIT(OPT_KEY));
    if (!rc) rc = lookup_algorithm(c->pos[1], &p->name);
    if (!rc && !alg_has(p->name, op)) rc = not_supported(cmd, p->name);
    if (!rc) rc = check_key_source(c);
    if (!rc) rc = get_backend(c);
    return rc;
}

static char hex_digit(unsigned v) { return "0123456789abcdef"[v & 15]; }

/* The ciphertext in hex, a newline, the shared key in hex, a newline. */
int cmd_encapsulate(cli *c) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    int rc = kem_alg(c, "encapsulate", WEBCRYPTO_OP_ENCAPSULATE, 1, &p);
    webcrypto_key *key = NULL;
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = p.name,
                      .usages = WEBCRYPTO_USAGE_ENCAPSULATE_BITS};
    if (!rc) rc = import_key_file(c, &src, &key);
    size_t ct_cap = webcrypto_kem_ciphertext_size(p.name), ct_len = 0, k_len = 0;
    uint8_t *ct = NULL, k[32];
    char *text = NULL;
    size_t text_len = 0;
    if (!rc) rc = (ct = malloc(ct_cap ? ct_cap : 1)) ? EXIT_OK : no_memory();
    if (!rc) {
        webcrypto_status st =
            webcrypto_encapsulate_bits(&p, key, ct, ct_cap, &ct_len, k, sizeof k, &k_len);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        text_len = 2 * ct_len + 1 + 2 * k_len + 2;
        rc = (text = malloc(text_len)) ? EXIT_OK : no_memory();
    }
    if (!rc) {
        char *w = text;
        for (size_t i = 0; i < ct_len; i++) {
            *w++ = hex_digit(ct[i] >> 4);
            *w++ = hex_digit(ct[i]);
        }
        *w++ = '\n';
        for (size_t i = 0; i < k_len; i++) {
            *w++ = hex_digit(k[i] >> 4);
            *w++ = hex_digit(k[i]);
        }
        *w++ = '\n';
        *w = '\0';
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_text(&s, text);
    }
    wipe(k, sizeof k);
    wipe_free(text, text ? text_len : 0);
    free(ct); /* the ciphertext: nothing secret */
    webcrypto_key_free(key);
    return rc;
}

/* The shared key in hex, from the ciphertext (raw bytes) in FILE or on
 * standard input. */
int cmd_decapsulate(cli *c) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    int rc = kem_alg(c, "decapsulate", WEBCRYPTO_OP_DECAPSULATE, 2, &p);
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    if (!rc) rc = check_stdin_once(c, in_path, true);
    webcrypto_key *key = NULL;
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = p.name,
                      .usages = WEBCRYPTO_USAGE_DECAPSULATE_BITS};
    if (!rc) rc = import_key_file(c, &src, &key);
    uint8_t *ct = NULL, k[32];
    size_t ct_len = 0, ct_cap = 0, k_len = 0;
    if (!rc) rc = read_all(in_path, 1 << 16, &ct, &ct_len, &ct_cap);
    if (!rc) {
        webcrypto_status st = webcrypto_decapsulate_bits(&p, key, ct, ct_len, k, sizeof k, &k_len);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&s, k, k_len);
    }
    wipe(k, sizeof k);
    free(ct);
    webcrypto_key_free(key);
    return rc;
}
