/* The command line: its option table and parsing, the parsing of values,
 * and how errors are reported (stderr and the exit code). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A volatile function pointer keeps the compiler from eliding the wipe. */
static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;

void wipe(void *p, size_t len) {
    if (p && len) wipe_memset(p, 0, len);
}

void wipe_free(void *p, size_t len) {
    wipe(p, len);
    free(p);
}

void print_error(const char *kind, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "webcrypto: %s: ", kind);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int usage_error(const char *fmt, ...) {
    va_list ap;
    fputs("webcrypto: UsageError: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'webcrypto --help'.\n", stderr);
    return EXIT_USAGE;
}

/* Reports a failed library call with the library's own error kind and text. */
int crypto_error(webcrypto_status st) {
    const char *msg = webcrypto_error_message();
    print_error(webcrypto_status_name(st), "%s", (msg && *msg) ? msg : "operation failed");
    return EXIT_CRYPTO;
}

int io_error(const char *what, const char *path, int err) {
    print_error("IOError", "%s %s: %s", what, path, strerror(err));
    return EXIT_IO;
}

int no_memory(void) {
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_NO_MEMORY), "out of memory");
    return EXIT_CRYPTO;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes option `opt`'s hex value; *out is NULL for an empty value. */
int parse_hex(const char *opt, const char *hex, uint8_t **out, size_t *out_len) {
    size_t n = strlen(hex);
    *out = NULL;
    *out_len = 0;
    if (n % 2 != 0) return usage_error("%s: odd number of hex digits", opt);
    for (size_t i = 0; i < n; i++)
        if (hex_value(hex[i]) < 0) return usage_error("%s: not a hex string", opt);
    if (n == 0) return EXIT_OK;
    uint8_t *buf = malloc(n / 2);
    if (!buf) return no_memory();
    for (size_t i = 0; i < n / 2; i++)
        buf[i] = (uint8_t)(hex_value(hex[2 * i]) << 4 | hex_value(hex[2 * i + 1]));
    *out = buf;
    *out_len = n / 2;
    return EXIT_OK;
}

/* A plain unsigned decimal: no sign, no spaces, no overflow. */
int parse_size(const char *opt, const char *s, size_t max, size_t *out) {
    size_t v = 0;
    if (!*s) return usage_error("%s: empty number", opt);
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return usage_error("%s: not a number: %s", opt, s);
        size_t d = (size_t)(*p - '0');
        if (v > (max - d) / 10) return usage_error("%s: number too large: %s", opt, s);
        v = v * 10 + d;
    }
    *out = v;
    return EXIT_OK;
}

static const char *const opt_names[OPT_COUNT] = {
    "--backend", "--key",     "--key-hex", "--iv",   "--aad",  "--tag-length", "--counter",
    "--length",  "--hash",    "--signature", "--salt", "--info", "--iterations", "--out",
    "--usages", "--extractable", "--curve", "--modulus-length", "--public-exponent",
    "--out-private", "--out-public", "--format", "--alg", "--salt-length", "--label",
    "--public-key", "--derived", "--derived-length", "--derived-hash", "--wrapping-key",
    "--wrap-alg", "--wrap-hash", "--output-length", "--customization", "--function-name",
    "--pem", "--context", "--nonce", "--memory", "--passes", "--parallelism", "--secret"};

/* The error WebCrypto gives an explicit 0 of option o (for operation op of
 * alg) where the library would read that 0 as "absent" (webcrypto_params:
 * a member left 0 is absent), with its message; WEBCRYPTO_OK where 0 means
 * 0 to the library too (--salt-length, derive-bits --length) or where the
 * library itself rejects it (--iterations, AES-CTR's --length, Argon2's
 * --memory, --passes, --parallelism). cSHAKE's and KMAC's --output-length
 * 0 is an empty output, which the commands give themselves
 * (empty_output_stand_in). The same list as the Node binding's
 * ZERO_IS_AN_ERROR, for the options the command has. */
static webcrypto_status zero_error(enum opt_id o, webcrypto_operation op, webcrypto_algorithm alg,
                                   char *msg, size_t cap) {
    const char *name = webcrypto_algorithm_name(alg);
    const unsigned f = alg_flags(alg);
    if (o == OPT_TAG_LENGTH) {
        /* AES-GCM, AES-GCM-SIV, AES-OCB, ChaCha20-Poly1305: the spec's
         * "tagLength is not one of ..." step */
        snprintf(msg, cap, "0 is not a valid %s tag length (--tag-length 0; without it the "
                 "tag is 128 bits)", name);
        return WEBCRYPTO_ERR_OPERATION;
    }
    if (o == OPT_MODULUS_LENGTH) {
        snprintf(msg, cap, "generateKey: 0 is not a valid %s modulus length", name);
        return WEBCRYPTO_ERR_OPERATION;
    }
    if ((o == OPT_LENGTH && op == WEBCRYPTO_OP_GENERATE_KEY) ||
        (o == OPT_DERIVED_LENGTH && op == WEBCRYPTO_OP_GET_KEY_LENGTH)) {
        const char *call = op == WEBCRYPTO_OP_GENERATE_KEY ? "generateKey" : "deriveKey";
        if (f & ALG_KEY_LENGTH) { /* AES-*: "length is not 128, 192 or 256" */
            snprintf(msg, cap, "%s: 0 is not a valid %s key length", call, name);
            return WEBCRYPTO_ERR_OPERATION;
        }
        if (f & ALG_KEY_LENGTH_OPT) {
            /* HMAC, KMAC: generateKey's "length is zero" is OperationError,
             * "get key length"'s TypeError */
            snprintf(msg, cap, "%s: the %s key length must not be 0 (%s 0; without it the "
                     "length is the default)", call, name, opt_names[o]);
            return op == WEBCRYPTO_OP_GENERATE_KEY ? WEBCRYPTO_ERR_OPERATION
                                                   : WEBCRYPTO_ERR_INVALID_ARGUMENT;
        }
    }
    return WEBCRYPTO_OK;
}

int parse_number(const cli *c, enum opt_id o, webcrypto_operation op, webcrypto_algorithm alg,
                 size_t max, size_t *out) {
    const char *s = c->opt[o];
    if (!s) return EXIT_OK;
    size_t v = 0; /* set by parse_size when it returns 0 (gcc -O3 cannot see it) */
    int rc = parse_size(opt_names[o], s, max, &v);
    if (rc) return rc;
    if (v == 0) {
        char msg[256];
        webcrypto_status st = zero_error(o, op, alg, msg, sizeof msg);
        if (st) {
            print_error(webcrypto_status_name(st), "%s", msg);
            return EXIT_CRYPTO;
        }
    }
    *out = v;
    return EXIT_OK;
}

const char *option_name(int opt) { return opt >= 0 && opt < OPT_COUNT ? opt_names[opt] : "?"; }

int parse_args(int argc, char **argv, cli *c) {
    bool options_done = false;
    memset(c, 0, sizeof *c);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && a[0] == '-' && a[1] != '\0') {
            if (strcmp(a, "--") == 0) {
                options_done = true;
                continue;
            }
            if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
                c->help = true;
                continue;
            }
            if (strcmp(a, "--version") == 0) {
                c->version = true;
                continue;
            }
            const char *eq = strchr(a, '=');
            size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
            int id = -1;
            for (int k = 0; k < OPT_COUNT; k++)
                if (strlen(opt_names[k]) == name_len && strncmp(a, opt_names[k], name_len) == 0)
                    id = k;
            if (id < 0) return usage_error("unknown option %.*s", (int)name_len, a);
            const char *value;
            if (id == OPT_PEM) {
                if (eq) return usage_error("option --pem takes no value");
                value = "";
            } else if (eq) {
                value = eq + 1;
            } else {
                if (i + 1 >= argc) return usage_error("option %s needs a value", a);
                value = argv[++i];
            }
            if (c->opt[id]) return usage_error("option %s given twice", opt_names[id]);
            c->opt[id] = value;
            continue;
        }
        if (c->npos == MAX_POS) return usage_error("too many arguments");
        c->pos[c->npos++] = a;
    }
    return EXIT_OK;
}

/* The key and the data cannot both come from standard input. */
int check_key_source(const cli *c) {
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    if (c->opt[OPT_KEY] && is_stdin(c->opt[OPT_KEY]) && is_stdin(in_path))
        return usage_error("--key - needs the data in a FILE argument");
    return EXIT_OK;
}

/* Rejects options the command does not take. */
int check_options(const cli *c, const char *what, optset allowed) {
    allowed |= OPTBIT(OPT_BACKEND);
    for (int k = 0; k < OPT_COUNT; k++)
        if (c->opt[k] && !(allowed & OPTBIT(k)))
            return usage_error("option %s does not apply to %s", opt_names[k], what);
    return EXIT_OK;
}

int require_options(const cli *c, const char *what, optset required) {
    for (int k = 0; k < OPT_COUNT; k++)
        if ((required & OPTBIT(k)) && !c->opt[k])
            return usage_error("%s needs option %s", what, opt_names[k]);
    return EXIT_OK;
}

/* Positional arguments after the command: at least min, at most max. */
int check_positionals(const cli *c, size_t min, size_t max) {
    size_t n = c->npos - 1;
    if (n < min) return usage_error("%s: missing argument", c->pos[0]);
    if (n > max) return usage_error("%s: unexpected argument %s", c->pos[0], c->pos[1 + max]);
    return EXIT_OK;
}

int lookup_algorithm(const char *name, webcrypto_algorithm *out) {
    webcrypto_status st = webcrypto_algorithm_from_name(name, out);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

int not_supported(const char *command, webcrypto_algorithm alg) {
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_NOT_SUPPORTED), "%s does not support %s",
                command, webcrypto_algorithm_name(alg));
    return EXIT_CRYPTO;
}

int get_backend(cli *c) {
    webcrypto_status st = webcrypto_backend_get(c->opt[OPT_BACKEND], &c->backend);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

webcrypto_key_format secret_raw_format(webcrypto_algorithm alg) {
    return webcrypto_algorithm_has_format(alg, WEBCRYPTO_FORMAT_RAW) ? WEBCRYPTO_FORMAT_RAW
                                                                     : WEBCRYPTO_FORMAT_RAW_SECRET;
}

int parse_format(const char *name, webcrypto_key_format *out) {
    static const struct {
        const char *name;
        webcrypto_key_format f;
    } map[] = {{"raw", WEBCRYPTO_FORMAT_RAW},
               {"pkcs8", WEBCRYPTO_FORMAT_PKCS8},
               {"spki", WEBCRYPTO_FORMAT_SPKI},
               {"jwk", WEBCRYPTO_FORMAT_JWK},
               {"raw-public", WEBCRYPTO_FORMAT_RAW_PUBLIC},
               {"raw-secret", WEBCRYPTO_FORMAT_RAW_SECRET},
               {"raw-seed", WEBCRYPTO_FORMAT_RAW_SEED}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(name, map[i].name) == 0) {
            *out = map[i].f;
            return EXIT_OK;
        }
    /* importKey's format is an enum: anything else is a TypeError */
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_INVALID_ARGUMENT),
                "--format must be raw, raw-public, raw-secret, raw-seed, pkcs8, spki or jwk, "
                "not \"%s\"",
                name);
    return EXIT_CRYPTO;
}

/* --extractable B (default true). */
int parse_extractable(const cli *c, bool *out) {
    *out = true;
    if (!c->opt[OPT_EXTRACTABLE]) return EXIT_OK;
    if (strcmp(c->opt[OPT_EXTRACTABLE], "false") == 0) *out = false;
    else if (strcmp(c->opt[OPT_EXTRACTABLE], "true") != 0)
        return usage_error("--extractable takes true or false");
    return EXIT_OK;
}

/* At most one of the inputs may be standard input. */
int check_stdin_once(const cli *c, const char *in_path, bool reads_input) {
    static const int key_opts[] = {OPT_KEY, OPT_PUBLIC_KEY, OPT_WRAPPING_KEY};
    int n = reads_input && is_stdin(in_path);
    for (size_t i = 0; i < sizeof key_opts / sizeof key_opts[0]; i++)
        if (c->opt[key_opts[i]] && is_stdin(c->opt[key_opts[i]])) n++;
    if (n > 1) return usage_error("only one input can be standard input (\"-\")");
    return EXIT_OK;
}

/* "sign,verify" -> usage bits; names are checked by the library (TypeError). */
static int parse_usages(const char *list, unsigned *out) {
    unsigned usages = 0;
    char name[32];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, p, n);
        name[n] = 0;
        unsigned u;
        webcrypto_status st = webcrypto_usage_from_name(name, &u);
        if (st) return crypto_error(st);
        usages |= u;
        p += strcspn(p, ",");
        if (*p == ',') p++;
    }
    *out = usages;
    return EXIT_OK;
}

/* --usages LIST, else `def`. */
int usages_option(const cli *c, unsigned def, unsigned *out) {
    *out = def;
    return c->opt[OPT_USAGES] ? parse_usages(c->opt[OPT_USAGES], out) : EXIT_OK;
}
