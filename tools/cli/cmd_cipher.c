/* webcrypto encrypt and decrypt; the cipher options wrap-key shares. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The options of an algorithm that encrypts (the library says which);
 * AES-KW, which only wraps, when wrapping. */
bool cipher_options(webcrypto_algorithm a, bool wrapping, optset *allowed, optset *required) {
    if (!alg_has(a, WEBCRYPTO_OP_ENCRYPT) && !(wrapping && alg_has(a, WEBCRYPTO_OP_WRAP_KEY)))
        return false;
    alg_options(a, allowed, required);
    return true;
}

void cipher_bufs_free(cipher_bufs *b) {
    free(b->iv);
    free(b->aad);
    free(b->counter);
    free(b->label);
}

int parse_cipher_values(const cli *c, webcrypto_params *p, cipher_bufs *b) {
    int rc = EXIT_OK;
    memset(b, 0, sizeof *b);
    if (c->opt[OPT_IV]) rc = parse_hex("--iv", c->opt[OPT_IV], &b->iv, &p->iv_len);
    if (!rc && c->opt[OPT_AAD])
        rc = parse_hex("--aad", c->opt[OPT_AAD], &b->aad, &p->additional_data_len);
    if (!rc && c->opt[OPT_COUNTER])
        rc = parse_hex("--counter", c->opt[OPT_COUNTER], &b->counter, &p->counter_len);
    if (!rc && c->opt[OPT_LABEL]) rc = parse_hex("--label", c->opt[OPT_LABEL], &b->label, &p->label_len);
    /* encrypt's rules are decrypt's, wrapKey's and unwrapKey's */
    if (!rc)
        rc = parse_number(c, OPT_TAG_LENGTH, WEBCRYPTO_OP_ENCRYPT, p->name, SIZE_MAX, &p->tag_length);
    if (!rc) rc = parse_number(c, OPT_LENGTH, WEBCRYPTO_OP_ENCRYPT, p->name, SIZE_MAX, &p->length);
    p->iv = b->iv;
    p->additional_data = b->aad;
    p->counter = b->counter;
    p->label = b->label;
    return rc;
}

/* AES-CBC/CTR to --out: streamed in bounded memory. */
static int cipher_stream(cli *c, const webcrypto_params *p, const webcrypto_key *key,
                         bool encrypt, const char *in_path) {
    webcrypto_cipher_ctx *ctx = NULL;
    webcrypto_status st = webcrypto_cipher_init(p, key, encrypt, &ctx);
    if (st) return crypto_error(st);
    const size_t out_cap = CHUNK + 32; /* update writes at most len + 15, final 16 */
    uint8_t *in_buf = malloc(CHUNK), *out_buf = malloc(out_cap);
    FILE *in = NULL;
    sink s;
    bool sink_ok = false;
    int rc = (in_buf && out_buf) ? EXIT_OK : no_memory();
    if (!rc) rc = open_input(in_path, &in);
    if (!rc) {
        rc = sink_open(&s, c->opt[OPT_OUT]);
        sink_ok = rc == EXIT_OK;
    }
    size_t got = 0, n = 0;
    while (!rc) {
        rc = read_chunk(in, in_path, in_buf, CHUNK, &got);
        if (rc) break;
        st = webcrypto_cipher_update(ctx, in_buf, got, out_buf, out_cap, &n);
        if (st) {
            rc = crypto_error(st);
            break;
        }
        rc = sink_write(&s, out_buf, n);
        if (got < CHUNK) break;
    }
    if (!rc) {
        st = webcrypto_cipher_final(ctx, out_buf, out_cap, &n);
        if (st) rc = crypto_error(st);
    }
    if (!rc) rc = sink_commit(&s, out_buf, n);
    else if (sink_ok) sink_abort(&s);
    close_input(in);
    webcrypto_cipher_ctx_free(ctx);
    wipe_free(in_buf, in_buf ? CHUNK : 0);
    wipe_free(out_buf, out_buf ? out_cap : 0);
    return rc;
}

static int cmd_cipher(cli *c, bool encrypt) {
    const char *cmd = encrypt ? "encrypt" : "decrypt";
    int rc = check_options(c, cmd,
                           OPTBIT(OPT_KEY) | OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) |
                               OPTBIT(OPT_TAG_LENGTH) | OPTBIT(OPT_COUNTER) | OPTBIT(OPT_LENGTH) |
                               OPTBIT(OPT_LABEL) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    optset allowed, required;
    if (!cipher_options(p.name, false, &allowed, &required)) return not_supported(cmd, p.name);
    if (needs_hash(p.name)) allowed |= OPTBIT(OPT_HASH); /* the key's hash (RSA-OAEP) */
    rc = check_options(c, webcrypto_algorithm_name(p.name),
                       allowed | OPTBIT(OPT_KEY) | OPTBIT(OPT_OUT));
    if (!rc) rc = require_options(c, cmd, required | OPTBIT(OPT_KEY));
    if (!rc) rc = check_key_source(c);
    cipher_bufs bufs;
    if (!rc) rc = parse_cipher_values(c, &p, &bufs);
    else memset(&bufs, 0, sizeof bufs);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc)
        rc = import_jwk(c, p.name, encrypt ? WEBCRYPTO_USAGE_ENCRYPT : WEBCRYPTO_USAGE_DECRYPT,
                        &key);
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;

    if (!rc && c->opt[OPT_OUT] && (alg_flags(p.name) & ALG_STREAMS)) {
        rc = cipher_stream(c, &p, key, encrypt, in_path);
    } else if (!rc) {
        /* One shot: the result exists only once the whole input was
         * processed (for AES-GCM decryption: once the tag verified). */
        uint8_t *data = NULL, *out = NULL;
        size_t data_len = 0, data_cap = 0, out_cap = 0, out_len = 0;
        webcrypto_status st;
        rc = read_all(in_path, SIZE_MAX, &data, &data_len, &data_cap);
        if (!rc) {
            st = encrypt ? webcrypto_encrypt(&p, key, data, data_len, NULL, 0, &out_cap)
                         : webcrypto_decrypt(&p, key, data, data_len, NULL, 0, &out_cap);
            if (st) rc = crypto_error(st);
        }
        if (!rc) {
            out = malloc(out_cap ? out_cap : 1);
            if (!out) rc = no_memory();
        }
        if (!rc) {
            st = encrypt ? webcrypto_encrypt(&p, key, data, data_len, out, out_cap, &out_len)
                         : webcrypto_decrypt(&p, key, data, data_len, out, out_cap, &out_len);
            if (st) rc = crypto_error(st);
        }
        if (!rc) {
            sink s;
            rc = sink_open(&s, c->opt[OPT_OUT]);
            if (!rc) rc = sink_commit(&s, out, out_len);
        }
        wipe_free(data, data_cap);
        wipe_free(out, out_cap);
    }
    webcrypto_key_free(key);
    cipher_bufs_free(&bufs);
    return rc;
}

int cmd_encrypt(cli *c) { return cmd_cipher(c, true); }
int cmd_decrypt(cli *c) { return cmd_cipher(c, false); }
