/* webcrypto sign and verify. */
#include <stdlib.h>

#include "cli.h"

/* HMAC (what the library signs incrementally): sign prints the MAC in hex;
 * verify prints true or false. Both stream. */
static int sign_verify_stream(cli *c, bool sign, webcrypto_params *p) {
    const char *cmd = sign ? "sign" : "verify";
    int rc = check_options(c, webcrypto_algorithm_name(p->name),
                           OPTBIT(OPT_KEY) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) |
                               (sign ? 0 : OPTBIT(OPT_SIGNATURE)));
    if (!rc) rc = require_options(c, cmd, OPTBIT(OPT_KEY) | (sign ? 0 : OPTBIT(OPT_SIGNATURE)));
    if (!rc) rc = check_key_source(c);
    uint8_t *sig = NULL;
    size_t sig_len = 0;
    if (!rc && !sign) rc = parse_hex("--signature", c->opt[OPT_SIGNATURE], &sig, &sig_len);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc) rc = import_jwk(c, p->name, sign ? WEBCRYPTO_USAGE_SIGN : WEBCRYPTO_USAGE_VERIFY, &key);
    webcrypto_sign_ctx *ctx = NULL;
    webcrypto_status st;
    if (!rc) {
        st = sign ? webcrypto_sign_init(p, key, &ctx) : webcrypto_verify_init(p, key, &ctx);
        if (st) rc = crypto_error(st);
    }
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    FILE *in = NULL;
    uint8_t *buf = NULL;
    if (!rc) {
        buf = malloc(CHUNK);
        rc = buf ? open_input(in_path, &in) : no_memory();
    }
    while (!rc) {
        size_t got;
        rc = read_chunk(in, in_path, buf, CHUNK, &got);
        if (rc) break;
        st = webcrypto_sign_update(ctx, buf, got);
        if (st) rc = crypto_error(st);
        if (got < CHUNK) break;
    }
    close_input(in);
    uint8_t mac[64];
    size_t mac_len = 0;
    bool valid = false;
    if (!rc) {
        st = sign ? webcrypto_sign_final(ctx, mac, sizeof mac, &mac_len)
                  : webcrypto_verify_final(ctx, sig, sig_len, &valid);
        if (st) rc = crypto_error(st);
    }
    webcrypto_sign_ctx_free(ctx);
    webcrypto_key_free(key);
    wipe_free(buf, buf ? CHUNK : 0);
    free(sig);
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sign ? sink_commit_hex(&s, mac, mac_len)
                           : sink_commit_text(&s, valid ? "true\n" : "false\n");
        if (!rc && !sign && !valid) rc = EXIT_VERIFY_FALSE;
    }
    wipe(mac, sizeof mac);
    return rc;
}

/* RSASSA-PKCS1-v1_5, RSA-PSS, ECDSA, Ed25519 and any other signature: one
 * shot over the whole input (the library signs these in one call). */
static int sign_verify_pkey(cli *c, bool sign, webcrypto_params *p) {
    const char *cmd = sign ? "sign" : "verify";
    optset allowed = OPTBIT(OPT_KEY) | OPTBIT(OPT_OUT) | (sign ? 0 : OPTBIT(OPT_SIGNATURE));
    optset required = OPTBIT(OPT_KEY) | (sign ? 0 : OPTBIT(OPT_SIGNATURE));
    optset op_allowed, op_required; /* RSA-PSS: --salt-length; ECDSA: the signature's --hash */
    alg_options(p->name, &op_allowed, &op_required);
    allowed |= op_allowed;
    required |= op_required;
    if (needs_hash(p->name)) allowed |= OPTBIT(OPT_HASH); /* the key's hash (RSA) */
    if (is_ec(p->name)) allowed |= OPTBIT(OPT_CURVE);
    int rc = check_options(c, webcrypto_algorithm_name(p->name), allowed);
    if (!rc) rc = require_options(c, cmd, required);
    if (!rc) rc = check_key_source(c);
    uint8_t *sig = NULL;
    size_t sig_len = 0;
    if (!rc && !sign) rc = parse_hex("--signature", c->opt[OPT_SIGNATURE], &sig, &sig_len);
    if (!rc) rc = parse_number(c, OPT_SALT_LENGTH, WEBCRYPTO_OP_SIGN, p->name, SIZE_MAX, &p->salt_length);
    uint8_t *context = NULL; /* Ed448's and ML-DSA's --context */
    if (!rc && c->opt[OPT_CONTEXT]) {
        rc = parse_hex("--context", c->opt[OPT_CONTEXT], &context, &p->context_len);
        p->context = context;
    }
    if (!rc && (op_allowed & OPTBIT(OPT_HASH)) && c->opt[OPT_HASH])
        rc = lookup_algorithm(c->opt[OPT_HASH], &p->hash);
    uint8_t *custom = NULL; /* KMAC: --output-length, --customization */
    if (!rc)
        rc = parse_number(c, OPT_OUTPUT_LENGTH, WEBCRYPTO_OP_SIGN, p->name, SIZE_MAX,
                          &p->output_length);
    /* KMAC's --output-length 0: an empty MAC, which only an empty signature
     * verifies */
    const bool empty = !rc && c->opt[OPT_OUTPUT_LENGTH] && p->output_length == 0;
    if (empty) p->output_length = empty_output_stand_in(p->name);
    if (!rc && c->opt[OPT_CUSTOMIZATION]) {
        rc = parse_hex("--customization", c->opt[OPT_CUSTOMIZATION], &custom,
                       &p->customization_len);
        p->customization = custom;
    }
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = p->name,
                      .hash_opt = needs_hash(p->name) ? c->opt[OPT_HASH] : NULL, .hash_name = "--hash",
                      .curve_opt = c->opt[OPT_CURVE],
                      .usages = sign ? WEBCRYPTO_USAGE_SIGN : WEBCRYPTO_USAGE_VERIFY};
    if (!rc) rc = import_key_file(c, &src, &key);
    uint8_t *data = NULL, *out = NULL;
    size_t data_len = 0, data_cap = 0, out_cap = 0, out_len = 0;
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    if (!rc) rc = read_all(in_path, SIZE_MAX, &data, &data_len, &data_cap);
    webcrypto_status st;
    bool valid = false;
    if (!rc && sign) {
        st = webcrypto_sign(p, key, data, data_len, NULL, 0, &out_cap);
        if (!st) st = (out = malloc(out_cap ? out_cap : 1)) ? WEBCRYPTO_OK : WEBCRYPTO_ERR_NO_MEMORY;
        if (!st) st = webcrypto_sign(p, key, data, data_len, out, out_cap, &out_len);
        if (st) rc = st == WEBCRYPTO_ERR_NO_MEMORY && !out ? no_memory() : crypto_error(st);
        if (empty) out_len = 0;
    } else if (!rc) {
        st = webcrypto_verify(p, key, sig, sig_len, data, data_len, &valid);
        if (st) rc = crypto_error(st);
        if (empty) valid = sig_len == 0;
    }
    webcrypto_key_free(key);
    wipe_free(data, data_cap);
    free(sig);
    free(context);
    free(custom);
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sign ? sink_commit_hex(&s, out, out_len)
                           : sink_commit_text(&s, valid ? "true\n" : "false\n");
        if (!rc && !sign && !valid) rc = EXIT_VERIFY_FALSE;
    }
    free(out); /* a signature: nothing secret */
    return rc;
}

static int cmd_sign_verify(cli *c, bool sign) {
    const char *cmd = sign ? "sign" : "verify";
    optset allowed = OPTBIT(OPT_KEY) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) | OPTBIT(OPT_CURVE) |
                     OPTBIT(OPT_SALT_LENGTH) | OPTBIT(OPT_CONTEXT) | OPTBIT(OPT_OUTPUT_LENGTH) |
                     OPTBIT(OPT_CUSTOMIZATION);
    if (!sign) allowed |= OPTBIT(OPT_SIGNATURE);
    int rc = check_options(c, cmd, allowed);
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (!alg_has(p.name, WEBCRYPTO_OP_SIGN)) return not_supported(cmd, p.name);
    if (alg_flags(p.name) & ALG_STREAMS) return sign_verify_stream(c, sign, &p);
    return sign_verify_pkey(c, sign, &p);
}

int cmd_sign(cli *c) { return cmd_sign_verify(c, true); }
int cmd_verify(cli *c) { return cmd_sign_verify(c, false); }
