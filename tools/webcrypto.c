/*
 * webcrypto - command-line front end to libwebcrypto.
 *
 * Written only against the public header: keys are handed to the library as
 * JWK text, and every cryptographic decision (validation, error kinds) is the
 * library's. The tool adds argument parsing, I/O, and the guarantee that
 * nothing is written to the destination unless the whole operation succeeded.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fsync, fileno */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "bench.h"
#include "webcrypto.h"

/* Exit codes (documented in the usage text). */
enum {
    EXIT_OK = 0,
    EXIT_VERIFY_FALSE = 1,
    EXIT_USAGE = 2,
    EXIT_CRYPTO = 3,
    EXIT_IO = 4
};

#define CHUNK ((size_t)64 * 1024)

static const char usage_text[] =
    "Usage: webcrypto [--backend NAME] COMMAND [ARGS] [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  digest ALG [FILE]                      hex digest (SHA-1, SHA-256, SHA-384, SHA-512)\n"
    "  generate-key AES-GCM|AES-CBC|AES-CTR --length 128|192|256\n"
    "  generate-key HMAC --hash HASH [--length BITS]\n"
    "               [--usages LIST] [--extractable true|false]\n"
    "                                         print a new key as a JWK; by default\n"
    "                                         extractable, usages encrypt,decrypt (AES)\n"
    "                                         or sign,verify (HMAC)\n"
    "  encrypt|decrypt AES-GCM --key JWKFILE --iv HEX [--aad HEX] [--tag-length BITS] [FILE]\n"
    "  encrypt|decrypt AES-CBC --key JWKFILE --iv HEX [FILE]\n"
    "  encrypt|decrypt AES-CTR --key JWKFILE --counter HEX --length BITS [FILE]\n"
    "                                         raw ciphertext / plaintext (AES-GCM: data || tag)\n"
    "  sign HMAC --key JWKFILE [--hash HASH] [FILE]\n"
    "                                         hex MAC\n"
    "  verify HMAC --key JWKFILE --signature HEX [--hash HASH] [FILE]\n"
    "                                         print true (exit 0) or false (exit 1)\n"
    "  derive-bits HKDF --key-hex HEX --hash HASH --salt HEX --info HEX --length BITS\n"
    "  derive-bits PBKDF2 --key-hex HEX --hash HASH --salt HEX --iterations N --length BITS\n"
    "                                         hex derived bits\n"
    "  random N                               N random bytes (N <= 65536) as hex\n"
    "  uuid                                   a random version 4 UUID\n"
    "  backends                               compiled-in backends, availability, algorithms\n"
    "  bench [OPTIONS]                        backends side by side (webcrypto bench --help)\n"
    "                                         (with --backend NAME: that backend only)\n"
    "  help                                   this text (also --help, -h)\n"
    "  version                                the version (also --version)\n"
    "\n"
    "Options (before or after COMMAND, in any order; --opt=VALUE also works):\n"
    "  --backend NAME  use backend NAME (default: the library's default, openssl)\n"
    "  --key FILE      key as a JWK (JSON) file; it is imported with the single usage\n"
    "                  the command needs (encrypt, decrypt, sign or verify)\n"
    "  --hash HASH     HMAC: the key's hash, default from the JWK's alg (HS1..HS512)\n"
    "  --usages LIST   generate-key: comma-separated WebCrypto usages (\"sign,verify\")\n"
    "  --extractable B generate-key: true (default) or false; a non-extractable key\n"
    "                  cannot be printed (InvalidAccessError), as WebCrypto says\n"
    "  --out FILE      write the result to FILE instead of stdout: a temporary file in\n"
    "                  FILE's directory, renamed over FILE only on success (AES-CBC and\n"
    "                  AES-CTR then stream, so data need not fit in memory)\n"
    "  --              end of options\n"
    "FILE absent or \"-\" means standard input. HEX is an even number of hex digits\n"
    "(\"\" is empty). Output goes to stdout only after the whole operation succeeded.\n"
    "\n"
    "Errors are reported on stderr as \"webcrypto: KIND: MESSAGE\", KIND being a\n"
    "WebCrypto error name (DataError, OperationError, ...), UsageError or IOError.\n"
    "Exit status: 0 success; 1 verify printed false; 2 usage error;\n"
    "             3 WebCrypto error from the library; 4 I/O error.\n";

/* ------------------------------------------------------------------------ */
/* Errors and memory                                                        */
/* ------------------------------------------------------------------------ */

/* A volatile function pointer keeps the compiler from eliding the wipe. */
static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;

static void wipe(void *p, size_t len) {
    if (p && len) wipe_memset(p, 0, len);
}

static void wipe_free(void *p, size_t len) {
    wipe(p, len);
    free(p);
}

static void print_error(const char *kind, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "webcrypto: %s: ", kind);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int usage_error(const char *fmt, ...) {
    va_list ap;
    fputs("webcrypto: UsageError: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'webcrypto --help'.\n", stderr);
    return EXIT_USAGE;
}

/* Reports a failed library call with the library's own error kind and text. */
static int crypto_error(webcrypto_status st) {
    const char *msg = webcrypto_error_message();
    print_error(webcrypto_status_name(st), "%s", (msg && *msg) ? msg : "operation failed");
    return EXIT_CRYPTO;
}

static int io_error(const char *what, const char *path, int err) {
    print_error("IOError", "%s %s: %s", what, path, strerror(err));
    return EXIT_IO;
}

static int no_memory(void) {
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_NO_MEMORY), "out of memory");
    return EXIT_CRYPTO;
}

/* ------------------------------------------------------------------------ */
/* Parsing of values                                                        */
/* ------------------------------------------------------------------------ */

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes option `opt`'s hex value; *out is NULL for an empty value. */
static int parse_hex(const char *opt, const char *hex, uint8_t **out, size_t *out_len) {
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
static int parse_size(const char *opt, const char *s, size_t max, size_t *out) {
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

/* ------------------------------------------------------------------------ */
/* Input                                                                    */
/* ------------------------------------------------------------------------ */

static bool is_stdin(const char *path) { return !path || strcmp(path, "-") == 0; }

static const char *display_name(const char *path) {
    return is_stdin(path) ? "<stdin>" : path;
}

static int open_input(const char *path, FILE **out) {
    if (is_stdin(path)) {
        *out = stdin;
        return EXIT_OK;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp) return io_error("cannot open", path, errno);
    *out = fp;
    return EXIT_OK;
}

static void close_input(FILE *fp) {
    if (fp && fp != stdin) fclose(fp); /* read-only: nothing to lose */
}

/* Reads one chunk; a read error (not EOF) is reported. */
static int read_chunk(FILE *fp, const char *path, uint8_t *buf, size_t cap, size_t *got) {
    *got = fread(buf, 1, cap, fp);
    if (*got < cap && ferror(fp)) return io_error("cannot read", display_name(path), errno);
    return EXIT_OK;
}

/* Reads a whole file into memory. Growth copies and wipes, since the data may
 * be a key or plaintext. On success *out (never NULL) holds *out_len bytes in
 * an allocation of *out_cap bytes, all of which the caller wipes. */
static int read_all(const char *path, uint8_t **out, size_t *out_len, size_t *out_cap) {
    FILE *fp;
    int rc = open_input(path, &fp);
    if (rc) return rc;
    size_t cap = CHUNK, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        close_input(fp);
        return no_memory();
    }
    for (;;) {
        if (len == cap) {
            if (cap > SIZE_MAX / 2) {
                rc = no_memory();
                break;
            }
            uint8_t *nb = malloc(cap * 2);
            if (!nb) {
                rc = no_memory();
                break;
            }
            memcpy(nb, buf, len);
            wipe_free(buf, cap);
            buf = nb;
            cap *= 2;
        }
        size_t got;
        rc = read_chunk(fp, path, buf + len, cap - len, &got);
        if (rc) break;
        len += got;
        if (feof(fp)) break;
    }
    close_input(fp);
    if (rc) {
        wipe_free(buf, cap);
        return rc;
    }
    *out = buf;
    *out_len = len;
    *out_cap = cap;
    return EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* Output sink: stdout (buffered until commit) or --out FILE (temp + rename) */
/* ------------------------------------------------------------------------ */

typedef struct sink {
    const char *path; /* NULL: stdout */
    char *tmp_path;
    FILE *fp;
    uint8_t *buf; /* stdout mode: everything written so far */
    size_t len, cap;
} sink;

static int sink_open(sink *s, const char *path) {
    memset(s, 0, sizeof *s);
    s->path = path;
    if (!path) return EXIT_OK;
    /* The temporary file lives beside FILE so that rename() is atomic. */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    if (!*base) return usage_error("--out: not a file name: %s", path);
    size_t n = dir_len + 1 + strlen(base) + sizeof ".tmp.XXXXXX";
    s->tmp_path = malloc(n);
    if (!s->tmp_path) return no_memory();
    snprintf(s->tmp_path, n, "%.*s.%s.tmp.XXXXXX", (int)dir_len, path, base);
    int fd = mkstemp(s->tmp_path); /* mode 0600: the output may be plaintext */
    if (fd < 0) {
        int err = errno;
        free(s->tmp_path);
        s->tmp_path = NULL;
        return io_error("cannot create a temporary file for", path, err);
    }
    s->fp = fdopen(fd, "wb");
    if (!s->fp) {
        int err = errno;
        close(fd);
        unlink(s->tmp_path);
        free(s->tmp_path);
        s->tmp_path = NULL;
        return io_error("cannot open", path, err);
    }
    return EXIT_OK;
}

static int sink_write(sink *s, const uint8_t *data, size_t len) {
    if (len == 0) return EXIT_OK;
    if (s->fp) {
        if (fwrite(data, 1, len, s->fp) != len) return io_error("cannot write", s->path, errno);
        return EXIT_OK;
    }
    if (len > s->cap - s->len) {
        size_t ncap = s->cap ? s->cap : 256;
        while (len > ncap - s->len) {
            if (ncap > SIZE_MAX / 2) return no_memory();
            ncap *= 2;
        }
        uint8_t *nb = malloc(ncap);
        if (!nb) return no_memory();
        if (s->len) memcpy(nb, s->buf, s->len);
        wipe_free(s->buf, s->cap);
        s->buf = nb;
        s->cap = ncap;
    }
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    return EXIT_OK;
}

/* Discards everything: the temporary file is removed, FILE is untouched. */
static void sink_abort(sink *s) {
    if (s->fp) {
        fclose(s->fp);
        s->fp = NULL;
    }
    if (s->tmp_path) {
        unlink(s->tmp_path);
        free(s->tmp_path);
        s->tmp_path = NULL;
    }
    wipe_free(s->buf, s->cap);
    s->buf = NULL;
    s->len = s->cap = 0;
}

/* Writes `tail` after what was written before, then publishes the result.
 * On failure the sink is aborted. */
static int sink_commit(sink *s, const uint8_t *tail, size_t tail_len) {
    int rc = EXIT_OK;
    if (s->path) {
        rc = sink_write(s, tail, tail_len);
        if (rc == EXIT_OK && fflush(s->fp) != 0) rc = io_error("cannot write", s->path, errno);
        if (rc == EXIT_OK && fsync(fileno(s->fp)) != 0)
            rc = io_error("cannot write", s->path, errno);
        if (rc == EXIT_OK) {
            FILE *fp = s->fp;
            s->fp = NULL;
            if (fclose(fp) != 0) rc = io_error("cannot write", s->path, errno);
        }
        if (rc == EXIT_OK && rename(s->tmp_path, s->path) != 0)
            rc = io_error("cannot rename the temporary file to", s->path, errno);
        if (rc == EXIT_OK) {
            free(s->tmp_path);
            s->tmp_path = NULL;
        }
    } else {
        if ((s->len && fwrite(s->buf, 1, s->len, stdout) != s->len) ||
            (tail_len && fwrite(tail, 1, tail_len, stdout) != tail_len) || fflush(stdout) != 0)
            rc = io_error("cannot write", "<stdout>", errno);
    }
    sink_abort(s); /* frees what is left; after success there is no temp file */
    return rc;
}

/* Writes bytes as lowercase hex plus a newline and commits. */
static int sink_commit_hex(sink *s, const uint8_t *data, size_t len) {
    static const char digits[] = "0123456789abcdef";
    char line[129];
    int rc = EXIT_OK;
    size_t i = 0;
    do {
        size_t n = 0;
        for (; i < len && n + 2 < sizeof line; i++) {
            line[n++] = digits[data[i] >> 4];
            line[n++] = digits[data[i] & 15];
        }
        if (i == len) line[n++] = '\n';
        rc = sink_write(s, (const uint8_t *)line, n);
    } while (rc == EXIT_OK && i < len);
    wipe(line, sizeof line);
    if (rc) {
        sink_abort(s);
        return rc;
    }
    return sink_commit(s, NULL, 0);
}

static int sink_commit_text(sink *s, const char *text) {
    int rc = sink_write(s, (const uint8_t *)text, strlen(text));
    if (rc) {
        sink_abort(s);
        return rc;
    }
    return sink_commit(s, NULL, 0);
}

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */

enum opt_id {
    OPT_BACKEND,
    OPT_KEY,
    OPT_KEY_HEX,
    OPT_IV,
    OPT_AAD,
    OPT_TAG_LENGTH,
    OPT_COUNTER,
    OPT_LENGTH,
    OPT_HASH,
    OPT_SIGNATURE,
    OPT_SALT,
    OPT_INFO,
    OPT_ITERATIONS,
    OPT_OUT,
    OPT_USAGES,
    OPT_EXTRACTABLE,
    OPT_COUNT
};

static const char *const opt_names[OPT_COUNT] = {
    "--backend", "--key",     "--key-hex", "--iv",   "--aad",  "--tag-length", "--counter",
    "--length",  "--hash",    "--signature", "--salt", "--info", "--iterations", "--out",
    "--usages", "--extractable"};

#define OPTBIT(o) (1u << (o))
#define MAX_POS 8

typedef struct cli {
    const char *opt[OPT_COUNT];
    const char *pos[MAX_POS]; /* pos[0] is the command */
    size_t npos;
    bool help, version;
    const webcrypto_backend *backend;
} cli;

static int parse_args(int argc, char **argv, cli *c) {
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
            if (eq) {
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
static int check_key_source(const cli *c) {
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    if (c->opt[OPT_KEY] && is_stdin(c->opt[OPT_KEY]) && is_stdin(in_path))
        return usage_error("--key - needs the data in a FILE argument");
    return EXIT_OK;
}

/* Rejects options the command does not take. */
static int check_options(const cli *c, const char *what, unsigned allowed) {
    allowed |= OPTBIT(OPT_BACKEND);
    for (int k = 0; k < OPT_COUNT; k++)
        if (c->opt[k] && !(allowed & OPTBIT(k)))
            return usage_error("option %s does not apply to %s", opt_names[k], what);
    return EXIT_OK;
}

static int require_options(const cli *c, const char *what, unsigned required) {
    for (int k = 0; k < OPT_COUNT; k++)
        if ((required & OPTBIT(k)) && !c->opt[k])
            return usage_error("%s needs option %s", what, opt_names[k]);
    return EXIT_OK;
}

/* Positional arguments after the command: at least min, at most max. */
static int check_positionals(const cli *c, size_t min, size_t max) {
    size_t n = c->npos - 1;
    if (n < min) return usage_error("%s: missing argument", c->pos[0]);
    if (n > max) return usage_error("%s: unexpected argument %s", c->pos[0], c->pos[1 + max]);
    return EXIT_OK;
}

static int lookup_algorithm(const char *name, webcrypto_algorithm *out) {
    webcrypto_status st = webcrypto_algorithm_from_name(name, out);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

static int not_supported(const char *command, webcrypto_algorithm alg) {
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_NOT_SUPPORTED), "%s does not support %s",
                command, webcrypto_algorithm_name(alg));
    return EXIT_CRYPTO;
}

static bool is_aes(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_AES_CBC || a == WEBCRYPTO_ALG_AES_CTR || a == WEBCRYPTO_ALG_AES_GCM;
}

static int get_backend(cli *c) {
    webcrypto_status st = webcrypto_backend_get(c->opt[OPT_BACKEND], &c->backend);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */
/* ------------------------------------------------------------------------ */

/* jansson's allocations are wiped on free, as the JWK text holds the key
 * ("k" passes through the parser's buffers and string nodes). Each block
 * carries its size in a header; installed before any JSON is parsed, so the
 * library, finding a custom allocator, keeps this one. */
#define JSON_HEADER \
    (_Alignof(max_align_t) > sizeof(size_t) ? _Alignof(max_align_t) : sizeof(size_t))

static void *json_wiping_malloc(size_t n) {
    if (n > SIZE_MAX - JSON_HEADER) return NULL;
    unsigned char *p = malloc(JSON_HEADER + n);
    if (!p) return NULL;
    memcpy(p, &n, sizeof n);
    return p + JSON_HEADER;
}

static void json_wiping_free(void *ptr) {
    if (!ptr) return;
    unsigned char *p = (unsigned char *)ptr - JSON_HEADER;
    size_t n;
    memcpy(&n, p, sizeof n);
    wipe_free(p, JSON_HEADER + n);
}

/* The hash an HMAC JWK's "alg" names. *has_alg tells whether the text is a
 * JSON object with an "alg" member at all. Only a hint for choosing the
 * import parameters: the library does the real JWK validation. */
static webcrypto_algorithm jwk_hmac_hash(const uint8_t *jwk, size_t len, bool *has_alg) {
    static const struct {
        const char *alg;
        webcrypto_algorithm hash;
    } map[] = {{"HS1", WEBCRYPTO_ALG_SHA_1},
               {"HS256", WEBCRYPTO_ALG_SHA_256},
               {"HS384", WEBCRYPTO_ALG_SHA_384},
               {"HS512", WEBCRYPTO_ALG_SHA_512}};
    webcrypto_algorithm hash = WEBCRYPTO_ALG_NONE;
    json_t *root = json_loadb((const char *)jwk, len, 0, NULL);
    json_t *alg_node = json_object_get(root, "alg");
    const char *alg = json_string_value(alg_node);
    *has_alg = !json_is_object(root) || alg_node != NULL;
    for (size_t i = 0; alg && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(alg, map[i].alg) == 0) hash = map[i].hash;
    json_decref(root);
    return hash;
}

/* Imports the JWK in file --key for `alg` with the one usage the command
 * needs, not extractable. For HMAC the hash is --hash, else the JWK's alg.
 * A JWK the library rejects is its DataError, as importKey would say. */
static int import_jwk(const cli *c, webcrypto_algorithm alg, unsigned usage,
                      webcrypto_key **key) {
    webcrypto_params p = {0};
    p.name = alg;
    if (alg == WEBCRYPTO_ALG_HMAC && c->opt[OPT_HASH]) {
        int rc = lookup_algorithm(c->opt[OPT_HASH], &p.hash);
        if (rc) return rc;
    }
    uint8_t *jwk;
    size_t len, cap;
    int rc = read_all(c->opt[OPT_KEY], &jwk, &len, &cap);
    if (rc) return rc;
    if (alg == WEBCRYPTO_ALG_HMAC && p.hash == WEBCRYPTO_ALG_NONE) {
        bool has_alg;
        p.hash = jwk_hmac_hash(jwk, len, &has_alg);
        if (!has_alg) {
            wipe_free(jwk, cap);
            return usage_error("the JWK has no \"alg\": give the HMAC hash with --hash");
        }
        /* An alg that names no HMAC hash, or text that is no JSON object:
         * any hash will do, the library then reports the JWK's DataError. */
        if (p.hash == WEBCRYPTO_ALG_NONE) p.hash = WEBCRYPTO_ALG_SHA_256;
    }
    webcrypto_status st =
        webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_JWK, jwk, len, &p, false, usage, key);
    wipe_free(jwk, cap);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

/* ------------------------------------------------------------------------ */
/* Commands                                                                 */
/* ------------------------------------------------------------------------ */

static int cmd_digest(cli *c) {
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

static int cmd_generate_key(cli *c) {
    int rc = check_options(c, "generate-key",
                           OPTBIT(OPT_LENGTH) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) |
                               OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = {0};
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    unsigned usages;
    if (is_aes(p.name)) {
        if (c->opt[OPT_HASH]) return usage_error("option --hash does not apply to AES keys");
        rc = require_options(c, "generate-key for AES", OPTBIT(OPT_LENGTH));
        usages = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    } else if (p.name == WEBCRYPTO_ALG_HMAC) {
        rc = require_options(c, "generate-key HMAC", OPTBIT(OPT_HASH));
        if (!rc) rc = lookup_algorithm(c->opt[OPT_HASH], &p.hash);
        usages = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    } else {
        return not_supported("generate-key", p.name);
    }
    if (!rc && c->opt[OPT_LENGTH]) rc = parse_size("--length", c->opt[OPT_LENGTH], SIZE_MAX, &p.length);
    if (!rc && c->opt[OPT_USAGES]) rc = parse_usages(c->opt[OPT_USAGES], &usages);
    bool extractable = true;
    if (!rc && c->opt[OPT_EXTRACTABLE]) {
        if (strcmp(c->opt[OPT_EXTRACTABLE], "false") == 0) extractable = false;
        else if (strcmp(c->opt[OPT_EXTRACTABLE], "true") != 0)
            rc = usage_error("--extractable takes true or false");
    }
    if (!rc) rc = get_backend(c);
    if (rc) return rc;

    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_generate_key(c->backend, &p, extractable, usages, &key);
    if (st) return crypto_error(st);
    uint8_t *jwk = NULL;
    size_t jwk_len = 0;
    st = webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, key, &jwk, &jwk_len);
    webcrypto_key_free(key);
    if (st) return crypto_error(st);
    sink s;
    rc = sink_open(&s, c->opt[OPT_OUT]);
    if (!rc) rc = sink_write(&s, jwk, jwk_len);
    if (!rc) {
        rc = sink_commit(&s, (const uint8_t *)"\n", 1);
    } else {
        sink_abort(&s);
    }
    webcrypto_buffer_free(jwk, jwk_len);
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
                               OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_params p = {0};
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    unsigned allowed, required;
    switch (p.name) {
    case WEBCRYPTO_ALG_AES_GCM:
        allowed = OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH);
        required = OPTBIT(OPT_IV);
        break;
    case WEBCRYPTO_ALG_AES_CBC:
        allowed = required = OPTBIT(OPT_IV);
        break;
    case WEBCRYPTO_ALG_AES_CTR:
        allowed = required = OPTBIT(OPT_COUNTER) | OPTBIT(OPT_LENGTH);
        break;
    default:
        return not_supported(cmd, p.name);
    }
    rc = check_options(c, webcrypto_algorithm_name(p.name),
                       allowed | OPTBIT(OPT_KEY) | OPTBIT(OPT_OUT));
    if (!rc) rc = require_options(c, cmd, required | OPTBIT(OPT_KEY));
    if (!rc) rc = check_key_source(c);
    uint8_t *iv = NULL, *aad = NULL, *counter = NULL;
    size_t iv_len = 0, aad_len = 0, counter_len = 0;
    if (!rc && c->opt[OPT_IV]) rc = parse_hex("--iv", c->opt[OPT_IV], &iv, &iv_len);
    if (!rc && c->opt[OPT_AAD]) rc = parse_hex("--aad", c->opt[OPT_AAD], &aad, &aad_len);
    if (!rc && c->opt[OPT_COUNTER])
        rc = parse_hex("--counter", c->opt[OPT_COUNTER], &counter, &counter_len);
    if (!rc && c->opt[OPT_TAG_LENGTH])
        rc = parse_size("--tag-length", c->opt[OPT_TAG_LENGTH], SIZE_MAX, &p.tag_length);
    if (!rc && c->opt[OPT_LENGTH])
        rc = parse_size("--length", c->opt[OPT_LENGTH], SIZE_MAX, &p.length);
    p.iv = iv;
    p.iv_len = iv_len;
    p.additional_data = aad;
    p.additional_data_len = aad_len;
    p.counter = counter;
    p.counter_len = counter_len;
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc)
        rc = import_jwk(c, p.name, encrypt ? WEBCRYPTO_USAGE_ENCRYPT : WEBCRYPTO_USAGE_DECRYPT,
                        &key);
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;

    if (!rc && c->opt[OPT_OUT] && p.name != WEBCRYPTO_ALG_AES_GCM) {
        rc = cipher_stream(c, &p, key, encrypt, in_path);
    } else if (!rc) {
        /* One shot: the result exists only once the whole input was
         * processed (for AES-GCM decryption: once the tag verified). */
        uint8_t *data = NULL, *out = NULL;
        size_t data_len = 0, data_cap = 0, out_cap = 0, out_len = 0;
        webcrypto_status st;
        rc = read_all(in_path, &data, &data_len, &data_cap);
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
    free(iv);
    free(aad);
    free(counter);
    return rc;
}

/* sign prints the MAC in hex; verify prints true or false. Both stream. */
static int cmd_sign_verify(cli *c, bool sign) {
    const char *cmd = sign ? "sign" : "verify";
    unsigned allowed = OPTBIT(OPT_KEY) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT);
    if (!sign) allowed |= OPTBIT(OPT_SIGNATURE);
    int rc = check_options(c, cmd, allowed);
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_params p = {0};
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (p.name != WEBCRYPTO_ALG_HMAC) return not_supported(cmd, p.name);
    rc = require_options(c, cmd, OPTBIT(OPT_KEY) | (sign ? 0 : OPTBIT(OPT_SIGNATURE)));
    if (!rc) rc = check_key_source(c);
    uint8_t *sig = NULL;
    size_t sig_len = 0;
    if (!rc && !sign) rc = parse_hex("--signature", c->opt[OPT_SIGNATURE], &sig, &sig_len);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc) rc = import_jwk(c, p.name, sign ? WEBCRYPTO_USAGE_SIGN : WEBCRYPTO_USAGE_VERIFY, &key);
    webcrypto_sign_ctx *ctx = NULL;
    webcrypto_status st;
    if (!rc) {
        st = sign ? webcrypto_sign_init(&p, key, &ctx) : webcrypto_verify_init(&p, key, &ctx);
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

static int cmd_derive_bits(cli *c) {
    int rc = check_options(c, "derive-bits",
                           OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) |
                               OPTBIT(OPT_INFO) | OPTBIT(OPT_ITERATIONS) | OPTBIT(OPT_LENGTH) |
                               OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = {0};
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    unsigned common = OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) | OPTBIT(OPT_LENGTH);
    unsigned specific;
    if (p.name == WEBCRYPTO_ALG_HKDF) specific = OPTBIT(OPT_INFO);
    else if (p.name == WEBCRYPTO_ALG_PBKDF2) specific = OPTBIT(OPT_ITERATIONS);
    else return not_supported("derive-bits", p.name);
    rc = check_options(c, webcrypto_algorithm_name(p.name), common | specific | OPTBIT(OPT_OUT));
    if (!rc) rc = require_options(c, "derive-bits", common | specific);
    uint8_t *secret = NULL, *salt = NULL, *info = NULL;
    size_t secret_len = 0, salt_len = 0, info_len = 0, bits = 0, iterations = 0;
    if (!rc) rc = lookup_algorithm(c->opt[OPT_HASH], &p.hash);
    if (!rc) rc = parse_hex("--key-hex", c->opt[OPT_KEY_HEX], &secret, &secret_len);
    if (!rc) rc = parse_hex("--salt", c->opt[OPT_SALT], &salt, &salt_len);
    if (!rc && c->opt[OPT_INFO]) rc = parse_hex("--info", c->opt[OPT_INFO], &info, &info_len);
    if (!rc && c->opt[OPT_ITERATIONS])
        rc = parse_size("--iterations", c->opt[OPT_ITERATIONS], UINT32_MAX, &iterations);
    /* Bounded so that the output buffer stays allocatable (512 MiB). */
    if (!rc) rc = parse_size("--length", c->opt[OPT_LENGTH], UINT32_MAX, &bits);
    p.salt = salt;
    p.salt_len = salt_len;
    p.info = info;
    p.info_len = info_len;
    p.iterations = (uint32_t)iterations;
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc) {
        webcrypto_params ip = {0};
        ip.name = p.name;
        webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, secret,
                                                   secret_len, &ip, false,
                                                   WEBCRYPTO_USAGE_DERIVE_BITS, &key);
        if (st) rc = crypto_error(st);
    }
    size_t out_cap = (bits + 7) / 8;
    uint8_t *out = NULL;
    if (!rc) {
        out = malloc(out_cap ? out_cap : 1);
        if (!out) rc = no_memory();
    }
    if (!rc) {
        webcrypto_status st = webcrypto_derive_bits(&p, key, bits, out, out_cap);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&s, out, bits / 8);
    }
    webcrypto_key_free(key);
    wipe_free(secret, secret_len);
    wipe_free(out, out_cap);
    free(salt);
    free(info);
    return rc;
}

static int cmd_random(cli *c) {
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

static int cmd_uuid(cli *c) {
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

/* One block per backend: "NAME: available - DESCRIPTION" then its
 * algorithms, or "NAME: unavailable - REASON". */
static int describe_backend(sink *s, const char *name, const char *default_name) {
    const webcrypto_backend *b = NULL;
    webcrypto_status st = webcrypto_backend_get(name, &b);
    char line[1024];
    bool is_default = default_name && strcmp(name, default_name) == 0;
    if (st) {
        snprintf(line, sizeof line, "%s%s: unavailable - %s: %s\n", name,
                 is_default ? " (default)" : "", webcrypto_status_name(st),
                 webcrypto_error_message());
        return sink_write(s, (const uint8_t *)line, strlen(line));
    }
    snprintf(line, sizeof line, "%s%s: available - %s\n  algorithms:", name,
             is_default ? " (default)" : "", webcrypto_backend_description(b));
    int rc = sink_write(s, (const uint8_t *)line, strlen(line));
    for (int a = WEBCRYPTO_ALG_NONE + 1; !rc && a < WEBCRYPTO_ALG_COUNT; a++) {
        if (!webcrypto_backend_supports(b, (webcrypto_algorithm)a)) continue;
        snprintf(line, sizeof line, " %s", webcrypto_algorithm_name((webcrypto_algorithm)a));
        rc = sink_write(s, (const uint8_t *)line, strlen(line));
    }
    if (!rc) rc = sink_write(s, (const uint8_t *)"\n", 1);
    return rc;
}

static int cmd_backends(cli *c) {
    int rc = check_options(c, "backends", OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 0, 0);
    if (rc) return rc;
    const webcrypto_backend *def = NULL;
    const char *default_name =
        webcrypto_backend_get(NULL, &def) == WEBCRYPTO_OK ? webcrypto_backend_name(def) : NULL;
    const char *only = c->opt[OPT_BACKEND];
    size_t count = webcrypto_backend_count();
    if (only) {
        bool known = false;
        for (size_t i = 0; i < count; i++)
            if (strcmp(webcrypto_backend_name_at(i), only) == 0) known = true;
        if (!known) {
            rc = get_backend(c); /* the library's error for an unknown name */
            if (rc) return rc;
        }
    }
    sink s;
    rc = sink_open(&s, c->opt[OPT_OUT]);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < count; i++) {
        const char *name = webcrypto_backend_name_at(i);
        if (!name || (only && strcmp(name, only) != 0)) continue;
        rc = describe_backend(&s, name, default_name);
    }
    if (rc) {
        sink_abort(&s);
        return rc;
    }
    return sink_commit(&s, NULL, 0);
}

/* Help and version go to stdout; their write errors count too. */
static int print_text(const char *text) {
    if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
        return io_error("cannot write", "<stdout>", errno);
    return EXIT_OK;
}

int main(int argc, char **argv) {
    /* `webcrypto bench ...` is the benchmark harness, with its own options
     * (docs/BENCHMARKS.md). */
    if (argc > 1 && strcmp(argv[1], "bench") == 0) {
        static char name[] = "webcrypto bench";
        argv[1] = name;
        return webcrypto_bench_main(argc - 1, argv + 1);
    }
    json_set_alloc_funcs(json_wiping_malloc, json_wiping_free);
    cli c;
    int rc = parse_args(argc, argv, &c);
    if (rc) return rc;
    const char *cmd = c.npos ? c.pos[0] : NULL;
    if (c.help || (cmd && strcmp(cmd, "help") == 0)) {
        rc = print_text(usage_text);
    } else if (c.version || (cmd && strcmp(cmd, "version") == 0)) {
        rc = print_text("webcrypto " WEBCRYPTO_VERSION "\n");
    } else if (!cmd) {
        rc = usage_error("no command given");
    } else if (strcmp(cmd, "digest") == 0) {
        rc = cmd_digest(&c);
    } else if (strcmp(cmd, "generate-key") == 0) {
        rc = cmd_generate_key(&c);
    } else if (strcmp(cmd, "encrypt") == 0 || strcmp(cmd, "decrypt") == 0) {
        rc = cmd_cipher(&c, cmd[0] == 'e');
    } else if (strcmp(cmd, "sign") == 0 || strcmp(cmd, "verify") == 0) {
        rc = cmd_sign_verify(&c, cmd[0] == 's');
    } else if (strcmp(cmd, "derive-bits") == 0) {
        rc = cmd_derive_bits(&c);
    } else if (strcmp(cmd, "random") == 0) {
        rc = cmd_random(&c);
    } else if (strcmp(cmd, "uuid") == 0) {
        rc = cmd_uuid(&c);
    } else if (strcmp(cmd, "backends") == 0) {
        rc = cmd_backends(&c);
    } else {
        rc = usage_error("unknown command %s", cmd);
    }
    /* A late write error (e.g. on close) must not pass silently. */
    if (fclose(stdout) != 0 && (rc == EXIT_OK || rc == EXIT_VERIFY_FALSE)) {
        print_error("IOError", "cannot write <stdout>: %s", strerror(errno));
        rc = EXIT_IO;
    }
    return rc;
}
