/*
 * webcrypto - command-line front end to libwebcrypto.
 *
 * Written only against the public header: keys are handed to the library as
 * JWK text, and every cryptographic decision (validation, error kinds) is the
 * library's. The tool adds argument parsing, I/O, and the guarantee that
 * nothing is written to the destination unless the whole operation succeeded.
 */
#define _XOPEN_SOURCE 700 /* mkstemp, fsync, fileno, realpath, sigaction, fchown */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
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
/* Key files (JWK, PEM, DER) larger than this are refused before parsing. */
#define MAX_KEY_FILE ((size_t)1 << 20)

/* Descriptors 0-2 that were closed when the program started (now /dev/null,
 * so that no file the program opens takes their place). */
static bool stdin_closed, stdout_closed;

static const char usage_text[] =
    "Usage: webcrypto [--backend NAME] COMMAND [ARGS] [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  digest ALG [FILE]                      hex digest (SHA-1, SHA-256, SHA-384, SHA-512)\n"
    "  generate-key AES-GCM|AES-CBC|AES-CTR|AES-KW --length 128|192|256\n"
    "  generate-key AES-GCM-SIV --length 128|256\n"
    "  generate-key HMAC --hash HASH [--length BITS]\n"
    "               [--usages LIST] [--extractable true|false]\n"
    "                                         print a new key as a JWK; by default\n"
    "                                         extractable, usages encrypt,decrypt (AES),\n"
    "                                         wrapKey,unwrapKey (AES-KW) or sign,verify (HMAC)\n"
    "  generate-key RSASSA-PKCS1-v1_5|RSA-PSS|RSA-OAEP --modulus-length BITS --hash HASH\n"
    "               [--public-exponent HEX] --out-private FILE --out-public FILE\n"
    "  generate-key ECDSA|ECDH --curve P-256|P-384|P-521 --out-private FILE --out-public FILE\n"
    "  generate-key Ed25519|X25519 --out-private FILE --out-public FILE\n"
    "               [--usages LIST] [--extractable true|false]\n"
    "                                         a key pair as two JWK files, written only\n"
    "                                         when both are complete; by default all the\n"
    "                                         usages of the algorithm, exponent 010001\n"
    "  export --key JWKFILE --alg ALG --format spki|pkcs8|raw|jwk [--pem]\n"
    "               [--hash HASH] [--curve CURVE]\n"
    "                                         the key in another format: DER (spki, pkcs8),\n"
    "                                         PEM with --pem, raw bytes, or JWK\n"
    "  import --alg ALG [--format spki|pkcs8|raw|jwk] [--hash HASH] [--curve CURVE]\n"
    "               [--usages LIST] [--extractable true|false] [FILE]\n"
    "                                         a key file as a JWK; PEM (BEGIN PUBLIC KEY,\n"
    "                                         BEGIN PRIVATE KEY) is recognised by its header,\n"
    "                                         anything else needs --format\n"
    "  encrypt|decrypt AES-GCM --key JWKFILE --iv HEX [--aad HEX] [--tag-length BITS] [FILE]\n"
    "  encrypt|decrypt AES-GCM-SIV --key JWKFILE --iv HEX(12-byte nonce) [--aad HEX] [FILE]\n"
    "  encrypt|decrypt AES-CBC --key JWKFILE --iv HEX [FILE]\n"
    "  encrypt|decrypt AES-CTR --key JWKFILE --counter HEX --length BITS [FILE]\n"
    "  encrypt|decrypt RSA-OAEP --key JWKFILE [--label HEX] [FILE]\n"
    "                                         raw ciphertext / plaintext (AES-GCM, AES-GCM-SIV:\n"
    "                                         data || tag)\n"
    "  sign HMAC|RSASSA-PKCS1-v1_5|Ed25519 --key JWKFILE [FILE]\n"
    "  sign RSA-PSS --key JWKFILE --salt-length BYTES [FILE]\n"
    "  sign ECDSA --key JWKFILE --hash HASH [FILE]\n"
    "                                         hex MAC or signature (ECDSA: r || s)\n"
    "  verify ALG (as sign) --key JWKFILE --signature HEX [FILE]\n"
    "                                         print true (exit 0) or false (exit 1)\n"
    "  derive-bits HKDF --key-hex HEX --hash HASH --salt HEX --info HEX --length BITS\n"
    "  derive-bits PBKDF2 --key-hex HEX --hash HASH --salt HEX --iterations N --length BITS\n"
    "  derive-bits ECDH|X25519 --key JWKFILE --public-key JWKFILE [--length BITS]\n"
    "                                         hex derived bits (ECDH, X25519: the whole\n"
    "                                         shared secret without --length)\n"
    "  derive-key HKDF|PBKDF2|ECDH|X25519 (the derive-bits options, without --length)\n"
    "               --derived AES-GCM|AES-GCM-SIV|AES-CBC|AES-CTR|AES-KW|HMAC\n"
    "               [--derived-length BITS]\n"
    "               [--derived-hash HASH] [--usages LIST] [--extractable true|false]\n"
    "                                         the derived key as a JWK (HMAC: --derived-hash)\n"
    "  wrap-key --key JWKFILE --alg ALG --format raw|pkcs8|spki|jwk --wrapping-key JWKFILE\n"
    "               --wrap-alg AES-KW|AES-GCM|AES-GCM-SIV|AES-CBC|AES-CTR|RSA-OAEP [the wrap-alg's\n"
    "               encrypt options: --iv, --aad, --tag-length, --counter, --length, --label]\n"
    "                                         the wrapped key's bytes\n"
    "  unwrap-key --wrapping-key JWKFILE --wrap-alg ALG [its options] --format FORMAT\n"
    "               --alg ALG [--hash HASH] [--curve CURVE] [--usages LIST]\n"
    "               [--extractable true|false] [FILE]\n"
    "                                         the unwrapped key as a JWK\n"
    "  random N                               N random bytes (N <= 65536) as hex\n"
    "  uuid                                   a random version 4 UUID\n"
    "  backends                               compiled-in backends, availability, algorithms\n"
    "                                         (with --backend NAME: that backend only)\n"
    "  bench [OPTIONS]                        backends side by side (webcrypto bench --help)\n"
    "  help                                   this text (also --help, -h)\n"
    "  version                                the version (also --version)\n"
    "\n"
    "Options (before or after COMMAND, in any order; --opt=VALUE also works):\n"
    "  --backend NAME  use backend NAME (default: the library's default, openssl)\n"
    "  --key FILE      key as a JWK (JSON) file; it is imported with the single usage\n"
    "                  the command needs (encrypt, decrypt, sign, verify, deriveBits, ...)\n"
    "  --hash HASH     HMAC and RSA keys: the key's hash, default from the JWK's alg\n"
    "                  (HS256, RS384, PS512, RSA-OAEP-256, ...); ECDSA sign/verify: the\n"
    "                  signature's hash; HKDF, PBKDF2: the KDF's hash\n"
    "  --curve CURVE   ECDSA and ECDH keys: P-256, P-384 or P-521, default from the\n"
    "                  JWK's crv\n"
    "  --alg ALG       export, import, wrap-key, unwrap-key: the algorithm of the key\n"
    "  --format F      raw, pkcs8 (DER), spki (DER) or jwk\n"
    "  --pem           export: spki or pkcs8 as PEM (BEGIN PUBLIC KEY / PRIVATE KEY)\n"
    "  --public-key F  ECDH, X25519: the peer's public key (JWK file)\n"
    "  --wrapping-key F  wrap-key, unwrap-key: the wrapping key (JWK file) of --wrap-alg;\n"
    "                  --wrap-hash HASH is its hash (RSA-OAEP) if its JWK has no alg\n"
    "  --salt-length N RSA-PSS: the salt length in bytes\n"
    "  --label HEX     RSA-OAEP: the label (default: none)\n"
    "  --usages LIST   generate-key, import, derive-key, unwrap-key: comma-separated\n"
    "                  WebCrypto usages (\"sign,verify\"); by default all the key allows\n"
    "  --extractable B generate-key, import, derive-key, unwrap-key: true (default) or\n"
    "                  false; a non-extractable key cannot be printed (InvalidAccessError),\n"
    "                  as WebCrypto says\n"
    "  --out FILE      write the result to FILE instead of stdout: a temporary file in\n"
    "                  FILE's directory, renamed over FILE only on success (AES-CBC and\n"
    "                  AES-CTR then stream, so data need not fit in memory). An existing\n"
    "                  FILE keeps its mode (and owner, as root); a new one is made 0600;\n"
    "                  a symbolic link stays and the file it names is replaced (hard\n"
    "                  links to FILE then keep the old content). A device, FIFO or socket\n"
    "                  is written in place, never replaced, and its write errors count\n"
    "                  (--out /dev/full fails). SIGINT, SIGTERM, SIGHUP, SIGQUIT and\n"
    "                  SIGPIPE remove the temporary file; SIGKILL can leave .FILE.tmp.*\n"
    "  --out-private FILE, --out-public FILE  generate-key for key pairs: the two JWKs,\n"
    "                  written only when both are complete; on any failure both files\n"
    "                  are as they were\n"
    "  --              end of options\n"
    "FILE absent or \"-\" means standard input (an error if it is closed). Key files\n"
    "(JWK, PEM, DER) are at most 1 MiB (DataError). HEX is an even number of hex digits\n"
    "(\"\" is empty). Output goes to stdout only after the whole operation succeeded.\n"
    "\n"
    "Errors are reported on stderr as \"webcrypto: KIND: MESSAGE\", KIND being a\n"
    "WebCrypto error name (DataError, OperationError, ...), UsageError or IOError;\n"
    "a malformed PEM file is a DataError, like malformed DER.\n"
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

static void print_error(const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void print_error(const char *kind, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "webcrypto: %s: ", kind);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
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
        if (stdin_closed) return io_error("cannot read", "<stdin>", EBADF);
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
 * an allocation of *out_cap bytes, all of which the caller wipes. More than
 * `max` bytes (SIZE_MAX: no limit) is a DataError, found before reading
 * further (a key file of /dev/zero ends there). */
static int read_all(const char *path, size_t max, uint8_t **out, size_t *out_len,
                    size_t *out_cap) {
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
        if (len > max) {
            print_error(webcrypto_status_name(WEBCRYPTO_ERR_DATA),
                        "%s: a key file is at most %zu bytes", display_name(path), max);
            rc = EXIT_CRYPTO;
            break;
        }
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
    const char *path;   /* NULL: stdout */
    const char *target; /* the file replaced: path, or what its symbolic link names */
    char *resolved;     /* target's storage when path is a symbolic link */
    char *tmp_path;
    FILE *fp;
    bool direct;    /* a device, FIFO or socket: written in place, never replaced */
    bool had_old;   /* target existed: its mode and owner are kept */
    struct stat old;
    uint8_t *buf; /* stdout mode: everything written so far */
    size_t len, cap;
} sink;

/* Temporary files hold output that is not yet valid (unauthenticated
 * plaintext, half a key pair): a signal that ends the program removes them.
 * The handler only unlinks registered names and re-raises the signal with
 * its default action (both async-signal-safe); registration changes with
 * those signals blocked. SIGKILL cannot be caught: it can leave a
 * .NAME.tmp.XXXXXX file (mode 0600) beside NAME. */
#define MAX_TEMPS 3
static char *volatile temp_files[MAX_TEMPS];
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
#define N_CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

static void on_fatal_signal(int sig) {
    for (int i = 0; i < MAX_TEMPS; i++) {
        char *t = temp_files[i];
        if (t) unlink(t);
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: sig is blocked in it */
}

static void install_signal_cleanup(void) {
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++) {
        struct sigaction old;
        if (sigaction(cleanup_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* e.g. nohup's SIGHUP stays ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < N_CLEANUP_SIGNALS; j++) sigaddset(&sa.sa_mask, cleanup_signals[j]);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static void signals_block(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++) sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void signals_restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* Call with the signals blocked. */
static void temp_register(char *path) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temp_files[i]) {
            temp_files[i] = path;
            return;
        }
}

static void temp_unregister(const char *path) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp_files[i] == path) temp_files[i] = NULL;
}

/* A name beside `target` ("DIR/.BASE<suffix>"); caller frees. */
static char *name_beside(const char *target, const char *suffix) {
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    size_t n = strlen(target) + 2 + strlen(suffix);
    char *out = malloc(n);
    if (out) snprintf(out, n, "%.*s.%s%s", (int)dir_len, target, target + dir_len, suffix);
    return out;
}

/* Removes and forgets the temporary file, if any. */
static void sink_abort_path(sink *s) {
    if (s->tmp_path) {
        sigset_t old;
        signals_block(&old);
        unlink(s->tmp_path);
        temp_unregister(s->tmp_path);
        signals_restore(&old);
        free(s->tmp_path);
        s->tmp_path = NULL;
    }
    free(s->resolved);
    s->resolved = NULL;
}

static int sink_open(sink *s, const char *path) {
    memset(s, 0, sizeof *s);
    s->path = path;
    if (!path) return EXIT_OK;
    const char *slash = strrchr(path, '/');
    if (!*(slash ? slash + 1 : path)) return usage_error("--out: not a file name: %s", path);
    /* What FILE is decides how it is written (--help, docs/ROBUSTNESS.md). */
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return io_error("cannot write to", path, EISDIR);
        if (!S_ISREG(st.st_mode)) {
            /* A device, FIFO or socket is written in place: replacing it by a
             * regular file would break it (and /dev/full must report ENOSPC). */
            int fd = open(path, O_WRONLY | O_NOCTTY | O_APPEND);
            if (fd < 0) return io_error("cannot open", path, errno);
            s->fp = fdopen(fd, "wb");
            if (!s->fp) {
                int err = errno;
                close(fd);
                return io_error("cannot open", path, err);
            }
            s->direct = true;
            return EXIT_OK;
        }
        s->had_old = true;
        s->old = st;
    } else if (errno != ENOENT) {
        return io_error("cannot open", path, errno);
    }
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* The file the link names is replaced; the link stays. */
        if (!s->had_old)
            return io_error("cannot write through the dangling symbolic link", path, ENOENT);
        s->resolved = realpath(path, NULL);
        if (!s->resolved) return io_error("cannot resolve", path, errno);
    }
    s->target = s->resolved ? s->resolved : path;
    /* The temporary file lives beside the target so that rename() is atomic. */
    s->tmp_path = name_beside(s->target, ".tmp.XXXXXX");
    if (!s->tmp_path) {
        free(s->resolved);
        return no_memory();
    }
    sigset_t old;
    signals_block(&old);
    int fd = mkstemp(s->tmp_path); /* mode 0600 while the output may be invalid */
    if (fd >= 0) temp_register(s->tmp_path);
    signals_restore(&old);
    if (fd < 0) {
        int err = errno;
        free(s->tmp_path);
        free(s->resolved);
        s->tmp_path = s->resolved = NULL;
        return io_error("cannot create a temporary file for", path, err);
    }
    s->fp = fdopen(fd, "wb");
    if (!s->fp) {
        int err = errno;
        close(fd);
        s->fp = NULL;
        sink_abort_path(s);
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

/* Discards everything: the temporary file is removed, FILE is untouched
 * (a special file keeps what was already written to it). */
static void sink_abort(sink *s) {
    if (s->fp) {
        fclose(s->fp);
        s->fp = NULL;
    }
    sink_abort_path(s);
    wipe_free(s->buf, s->cap);
    s->buf = NULL;
    s->len = s->cap = 0;
}

/* Writes `tail`, flushes, and readies the temporary file to replace the
 * target (the target's mode, and owner where allowed); closes the file. On
 * failure the sink is aborted. A special file is done after this. */
static int sink_finish(sink *s, const uint8_t *tail, size_t tail_len) {
    int rc = sink_write(s, tail, tail_len);
    if (rc == EXIT_OK && fflush(s->fp) != 0) rc = io_error("cannot write", s->path, errno);
    if (rc == EXIT_OK && !s->direct) {
        int fd = fileno(s->fp);
        if (fsync(fd) != 0) rc = io_error("cannot write", s->path, errno);
        if (rc == EXIT_OK && s->had_old) {
            /* An owner that cannot be given (not root) stays ours. */
            if (fchown(fd, s->old.st_uid, s->old.st_gid) != 0 && errno != EPERM)
                rc = io_error("cannot set the owner of", s->path, errno);
            if (rc == EXIT_OK && fchmod(fd, s->old.st_mode & 07777) != 0)
                rc = io_error("cannot set the mode of", s->path, errno);
        }
    }
    if (rc == EXIT_OK) {
        FILE *fp = s->fp;
        s->fp = NULL;
        if (fclose(fp) != 0) rc = io_error("cannot write", s->path, errno);
    }
    if (rc) sink_abort(s);
    return rc;
}

/* Renames the finished temporary file over the target; call with the
 * signals blocked. Returns errno's value, 0 on success. */
static int sink_publish_blocked(sink *s) {
    if (s->direct || !s->tmp_path) return 0;
    if (rename(s->tmp_path, s->target) != 0) return errno;
    temp_unregister(s->tmp_path);
    free(s->tmp_path);
    s->tmp_path = NULL;
    return 0;
}

/* Writes `tail` after what was written before, then publishes the result.
 * On failure the sink is aborted. */
static int sink_commit(sink *s, const uint8_t *tail, size_t tail_len) {
    int rc = EXIT_OK;
    if (s->path) {
        rc = sink_finish(s, tail, tail_len);
        if (rc) return rc;
        sigset_t old;
        signals_block(&old);
        int err = sink_publish_blocked(s);
        signals_restore(&old);
        if (err) rc = io_error("cannot rename the temporary file to", s->path, err);
    } else if (stdout_closed) {
        rc = io_error("cannot write", "<stdout>", EBADF);
    } else {
        if ((s->len && fwrite(s->buf, 1, s->len, stdout) != s->len) ||
            (tail_len && fwrite(tail, 1, tail_len, stdout) != tail_len) || fflush(stdout) != 0)
            rc = io_error("cannot write", "<stdout>", errno);
    }
    sink_abort(s); /* frees what is left; after success there is no temp file */
    return rc;
}

/* The absolute form of an output path: its directory resolved (symbolic
 * links, "." and ".."), then its last component; NULL if the directory does
 * not exist. Caller frees. */
static char *output_path_canonical(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dir_len = slash ? (size_t)(slash - path) : 0;
    char dir[PATH_MAX];
    if (dir_len >= sizeof dir) return NULL;
    if (slash) {
        memcpy(dir, path, dir_len);
        dir[dir_len] = 0;
        if (dir_len == 0) strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    char resolved[PATH_MAX];
    if (!realpath(dir, resolved)) return NULL;
    size_t n = strlen(resolved) + 1 + strlen(base) + 1;
    char *out = malloc(n);
    if (out) snprintf(out, n, "%s/%s", strcmp(resolved, "/") == 0 ? "" : resolved, base);
    return out;
}

/* Whether two output paths name one file: the same inode when both exist,
 * else the same canonical path ("k.jwk" and "./k.jwk" included). */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ca = output_path_canonical(a), *cb = output_path_canonical(b);
    bool same = ca && cb ? strcmp(ca, cb) == 0 : strcmp(a, b) == 0;
    free(ca);
    free(cb);
    return same;
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
    OPT_CURVE,
    OPT_MODULUS_LENGTH,
    OPT_PUBLIC_EXPONENT,
    OPT_OUT_PRIVATE,
    OPT_OUT_PUBLIC,
    OPT_FORMAT,
    OPT_ALG,
    OPT_SALT_LENGTH,
    OPT_LABEL,
    OPT_PUBLIC_KEY,
    OPT_DERIVED,
    OPT_DERIVED_LENGTH,
    OPT_DERIVED_HASH,
    OPT_WRAPPING_KEY,
    OPT_WRAP_ALG,
    OPT_WRAP_HASH,
    OPT_PEM, /* a flag: takes no value */
    OPT_COUNT
};

static const char *const opt_names[OPT_COUNT] = {
    "--backend", "--key",     "--key-hex", "--iv",   "--aad",  "--tag-length", "--counter",
    "--length",  "--hash",    "--signature", "--salt", "--info", "--iterations", "--out",
    "--usages", "--extractable", "--curve", "--modulus-length", "--public-exponent",
    "--out-private", "--out-public", "--format", "--alg", "--salt-length", "--label",
    "--public-key", "--derived", "--derived-length", "--derived-hash", "--wrapping-key",
    "--wrap-alg", "--wrap-hash", "--pem"};

/* A set of options, one bit each. */
typedef uint64_t optset;
#define OPTBIT(o) ((optset)1 << (o))
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
static int check_key_source(const cli *c) {
    const char *in_path = c->npos > 2 ? c->pos[2] : NULL;
    if (c->opt[OPT_KEY] && is_stdin(c->opt[OPT_KEY]) && is_stdin(in_path))
        return usage_error("--key - needs the data in a FILE argument");
    return EXIT_OK;
}

/* Rejects options the command does not take. */
static int check_options(const cli *c, const char *what, optset allowed) {
    allowed |= OPTBIT(OPT_BACKEND);
    for (int k = 0; k < OPT_COUNT; k++)
        if (c->opt[k] && !(allowed & OPTBIT(k)))
            return usage_error("option %s does not apply to %s", opt_names[k], what);
    return EXIT_OK;
}

static int require_options(const cli *c, const char *what, optset required) {
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
    return a == WEBCRYPTO_ALG_AES_CBC || a == WEBCRYPTO_ALG_AES_CTR || a == WEBCRYPTO_ALG_AES_GCM ||
           a == WEBCRYPTO_ALG_AES_GCM_SIV || a == WEBCRYPTO_ALG_AES_KW;
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
 * carries its size in a header. The library never changes jansson's
 * allocator (it is process-wide); the CLI, as the host program, chooses to
 * install this one, before any JSON is parsed - what webcrypto.h suggests a
 * host do to have the parser's own buffers wiped too. */
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

/* What a JWK says about itself, read only to choose import parameters (the
 * library does the real JWK validation and reports its DataError). */
typedef struct jwk_hints {
    bool object;                /* the text is a JSON object */
    bool has_alg;               /* it has an "alg" member */
    bool has_d, is_oct;         /* a private key ("d"), a secret key (kty "oct") */
    bool has_ops;               /* it has "key_ops"; ops then holds the known ones */
    unsigned ops;
    webcrypto_algorithm hash;   /* the hash its "alg" names (HS256, RS384, PS512, RSA-OAEP-256) */
    char crv[16];               /* its "crv", if short */
} jwk_hints;

static void read_jwk_hints(const uint8_t *jwk, size_t len, jwk_hints *h) {
    static const struct {
        const char *alg;
        webcrypto_algorithm hash;
    } map[] = {{"HS1", WEBCRYPTO_ALG_SHA_1},       {"HS256", WEBCRYPTO_ALG_SHA_256},
               {"HS384", WEBCRYPTO_ALG_SHA_384},   {"HS512", WEBCRYPTO_ALG_SHA_512},
               {"RS1", WEBCRYPTO_ALG_SHA_1},       {"RS256", WEBCRYPTO_ALG_SHA_256},
               {"RS384", WEBCRYPTO_ALG_SHA_384},   {"RS512", WEBCRYPTO_ALG_SHA_512},
               {"PS1", WEBCRYPTO_ALG_SHA_1},       {"PS256", WEBCRYPTO_ALG_SHA_256},
               {"PS384", WEBCRYPTO_ALG_SHA_384},   {"PS512", WEBCRYPTO_ALG_SHA_512},
               {"RSA-OAEP", WEBCRYPTO_ALG_SHA_1},  {"RSA-OAEP-256", WEBCRYPTO_ALG_SHA_256},
               {"RSA-OAEP-384", WEBCRYPTO_ALG_SHA_384}, {"RSA-OAEP-512", WEBCRYPTO_ALG_SHA_512}};
    memset(h, 0, sizeof *h);
    json_t *root = json_loadb((const char *)jwk, len, 0, NULL);
    h->object = json_is_object(root);
    json_t *alg_node = json_object_get(root, "alg");
    const char *alg = json_string_value(alg_node);
    h->has_alg = alg_node != NULL;
    for (size_t i = 0; alg && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(alg, map[i].alg) == 0) h->hash = map[i].hash;
    h->has_d = json_object_get(root, "d") != NULL;
    const char *kty = json_string_value(json_object_get(root, "kty"));
    h->is_oct = kty && strcmp(kty, "oct") == 0;
    const char *crv = json_string_value(json_object_get(root, "crv"));
    if (crv && strlen(crv) < sizeof h->crv) strcpy(h->crv, crv);
    json_t *ops = json_object_get(root, "key_ops");
    h->has_ops = json_is_array(ops);
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op) {
        unsigned u;
        const char *name = json_string_value(op);
        if (name && webcrypto_usage_from_name(name, &u) == WEBCRYPTO_OK) h->ops |= u;
    }
    json_decref(root);
}

static bool is_rsa(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || a == WEBCRYPTO_ALG_RSA_PSS ||
           a == WEBCRYPTO_ALG_RSA_OAEP;
}
static bool is_ec(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_ECDSA || a == WEBCRYPTO_ALG_ECDH;
}
static bool is_pair_alg(webcrypto_algorithm a) {
    return is_rsa(a) || is_ec(a) || a == WEBCRYPTO_ALG_ED25519 || a == WEBCRYPTO_ALG_X25519;
}

/* The usages WebCrypto allows a key of this algorithm and type. */
static unsigned allowed_usages(webcrypto_algorithm a, webcrypto_key_type type) {
    const unsigned enc = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    const unsigned wrap = WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY;
    const unsigned derive = WEBCRYPTO_USAGE_DERIVE_KEY | WEBCRYPTO_USAGE_DERIVE_BITS;
    bool priv = type == WEBCRYPTO_KEY_PRIVATE;
    switch (a) {
    case WEBCRYPTO_ALG_AES_GCM:
    case WEBCRYPTO_ALG_AES_GCM_SIV:
    case WEBCRYPTO_ALG_AES_CBC:
    case WEBCRYPTO_ALG_AES_CTR: return enc | wrap;
    case WEBCRYPTO_ALG_AES_KW: return wrap;
    case WEBCRYPTO_ALG_HMAC: return WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    case WEBCRYPTO_ALG_HKDF:
    case WEBCRYPTO_ALG_PBKDF2: return derive;
    case WEBCRYPTO_ALG_RSA_OAEP:
        return priv ? WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY
                    : WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY;
    case WEBCRYPTO_ALG_ECDH:
    case WEBCRYPTO_ALG_X25519: return priv ? derive : 0;
    default: return priv ? WEBCRYPTO_USAGE_SIGN : WEBCRYPTO_USAGE_VERIFY;
    }
}

static bool needs_hash(webcrypto_algorithm a) { return a == WEBCRYPTO_ALG_HMAC || is_rsa(a); }

/* The hash (HMAC, RSA-*) and curve (ECDSA, ECDH) of a key to import: the
 * options' values, else what the JWK (h, NULL for other formats) says. A
 * JWK that is no object, or names no hash or curve we know, gets any: the
 * library then reports its DataError. */
static int resolve_key_params(const char *hash_opt, const char *hash_name, const char *curve_opt,
                              const jwk_hints *h, const char *what, webcrypto_params *p) {
    const char *name = webcrypto_algorithm_name(p->name);
    if (needs_hash(p->name)) {
        if (hash_opt) {
            int rc = lookup_algorithm(hash_opt, &p->hash);
            if (rc) return rc;
        } else if (!h) {
            return usage_error("%s: a %s key needs its hash: give it with %s", what, name, hash_name);
        } else if (h->object && !h->has_alg) {
            return usage_error("the JWK in %s has no \"alg\": give the %s hash with %s", what, name,
                               hash_name);
        } else {
            p->hash = h->hash != WEBCRYPTO_ALG_NONE ? h->hash : WEBCRYPTO_ALG_SHA_256;
        }
    }
    if (is_ec(p->name)) {
        if (curve_opt) {
            webcrypto_status st = webcrypto_curve_from_name(curve_opt, &p->named_curve);
            if (st) return crypto_error(st);
        } else if (!h) {
            return usage_error("%s: a %s key needs its curve: give it with --curve", what, name);
        } else if (h->object && !h->crv[0]) {
            return usage_error("the JWK in %s has no \"crv\": give the curve with --curve", what);
        } else if (webcrypto_curve_from_name(h->crv, &p->named_curve) != WEBCRYPTO_OK) {
            p->named_curve = WEBCRYPTO_CURVE_P256;
        }
    }
    return EXIT_OK;
}

/* Options that describe a key must fit its algorithm. */
static int check_key_options(webcrypto_algorithm a, const char *hash_opt, const char *hash_name,
                             const char *curve_opt) {
    if (hash_opt && !needs_hash(a))
        return usage_error("option %s does not apply to %s keys", hash_name, webcrypto_algorithm_name(a));
    if (curve_opt && !is_ec(a))
        return usage_error("option --curve does not apply to %s keys", webcrypto_algorithm_name(a));
    return EXIT_OK;
}

/* How a key file is imported: the algorithm, and where its hash and curve
 * come from when the JWK does not say (option values, NULL if none). */
typedef struct key_source {
    const char *path;      /* the JWK file */
    const char *what;      /* its option, for messages: "--key" */
    webcrypto_algorithm alg;
    const char *hash_opt;  /* HMAC, RSA-*: the key's hash */
    const char *hash_name; /* the option that gives it: "--hash" */
    const char *curve_opt; /* ECDSA, ECDH */
    bool extractable;
    bool usages_from_jwk;  /* usages: all the JWK's type allows (and its key_ops) */
    unsigned usages;       /* otherwise these */
} key_source;

/* Reads a JWK file and imports it. For HMAC and RSA keys the hash is the
 * option's, else the one the JWK's "alg" names; for EC keys the curve is
 * --curve's, else the JWK's "crv". */
static int import_key_file(const cli *c, const key_source *src, webcrypto_key **key) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = src->alg;
    uint8_t *jwk;
    size_t len, cap;
    int rc = read_all(src->path, MAX_KEY_FILE, &jwk, &len, &cap);
    if (rc) return rc;
    jwk_hints h;
    read_jwk_hints(jwk, len, &h);
    rc = resolve_key_params(src->hash_opt, src->hash_name, src->curve_opt, &h, src->what, &p);
    if (rc) {
        wipe_free(jwk, cap);
        return rc;
    }
    unsigned usages = src->usages;
    if (src->usages_from_jwk) {
        webcrypto_key_type type = h.is_oct  ? WEBCRYPTO_KEY_SECRET
                                  : h.has_d ? WEBCRYPTO_KEY_PRIVATE
                                            : WEBCRYPTO_KEY_PUBLIC;
        usages = allowed_usages(src->alg, type);
        if (h.has_ops) usages &= h.ops;
    }
    webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_JWK, jwk, len, &p,
                                               src->extractable, usages, key);
    wipe_free(jwk, cap);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

/* Imports the JWK in file --key for `alg` with the one usage the command
 * needs, not extractable; the hash is --hash's (HMAC, RSA-*), the curve
 * --curve's (ECDSA, ECDH), else the JWK's. */
static int import_jwk(const cli *c, webcrypto_algorithm alg, unsigned usage,
                      webcrypto_key **key) {
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = alg,
                      .hash_opt = c->opt[OPT_HASH], .hash_name = "--hash",
                      .curve_opt = c->opt[OPT_CURVE], .usages = usage};
    return import_key_file(c, &src, key);
}

/* ------------------------------------------------------------------------ */
/* PEM: base64 of the DER between BEGIN and END lines (RFC 7468)            */
/* ------------------------------------------------------------------------ */

static const char b64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static const char *pem_label(webcrypto_key_format f) {
    return f == WEBCRYPTO_FORMAT_SPKI ? "PUBLIC KEY" : "PRIVATE KEY";
}

/* Writes DER as PEM to the sink: 64 base64 characters a line. */
static int sink_write_pem(sink *s, webcrypto_key_format f, const uint8_t *der, size_t len) {
    char line[80];
    int n = snprintf(line, sizeof line, "-----BEGIN %s-----\n", pem_label(f));
    int rc = sink_write(s, (const uint8_t *)line, (size_t)n);
    for (size_t i = 0; !rc && i < len;) {
        size_t k = 0;
        for (; i < len && k < 64; i += 3) {
            uint32_t v = (uint32_t)der[i] << 16;
            if (i + 1 < len) v |= (uint32_t)der[i + 1] << 8;
            if (i + 2 < len) v |= der[i + 2];
            line[k++] = b64_digits[v >> 18 & 63];
            line[k++] = b64_digits[v >> 12 & 63];
            line[k++] = i + 1 < len ? b64_digits[v >> 6 & 63] : '=';
            line[k++] = i + 2 < len ? b64_digits[v & 63] : '=';
        }
        line[k++] = '\n';
        rc = sink_write(s, (const uint8_t *)line, k);
    }
    wipe(line, sizeof line);
    if (!rc) {
        n = snprintf(line, sizeof line, "-----END %s-----\n", pem_label(f));
        rc = sink_write(s, (const uint8_t *)line, (size_t)n);
    }
    return rc;
}

static int pem_error(const char *what) {
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_DATA), "not a PEM key: %s", what);
    return EXIT_CRYPTO;
}

static bool starts_with(const uint8_t *p, size_t n, const char *prefix) {
    size_t k = strlen(prefix);
    return n >= k && memcmp(p, prefix, k) == 0;
}

/* Decodes PEM text in place (the DER is never longer than its base64) and
 * tells its format from the label: PUBLIC KEY is spki, PRIVATE KEY pkcs8.
 * Whitespace between base64 characters is allowed, nothing else. */
static int pem_decode(uint8_t *text, size_t len, size_t *der_len, webcrypto_key_format *format) {
    static const char begin[] = "-----BEGIN ";
    if (!starts_with(text, len, begin)) return pem_error("no BEGIN line");
    size_t i = sizeof begin - 1, label_start = i;
    while (i < len && text[i] != '-' && text[i] != '\n') i++;
    size_t label_len = i - label_start;
    if (!starts_with(text + i, len - i, "-----")) return pem_error("a malformed BEGIN line");
    char label[32];
    if (label_len >= sizeof label) return pem_error("an unknown label");
    memcpy(label, text + label_start, label_len);
    label[label_len] = 0;
    if (strcmp(label, "PUBLIC KEY") == 0) *format = WEBCRYPTO_FORMAT_SPKI;
    else if (strcmp(label, "PRIVATE KEY") == 0) *format = WEBCRYPTO_FORMAT_PKCS8;
    else {
        print_error(webcrypto_status_name(WEBCRYPTO_ERR_DATA),
                    "PEM \"%s\" is not a key format WebCrypto knows: use PUBLIC KEY (spki) or "
                    "PRIVATE KEY (pkcs8)", label);
        return EXIT_CRYPTO;
    }
    i += 5;
    size_t out = 0, pad = 0;
    uint32_t acc = 0;
    unsigned nacc = 0;
    for (;; i++) {
        if (i >= len) return pem_error("no END line");
        uint8_t ch = text[i];
        if (ch == '-') break;
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') continue;
        if (ch == '=') {
            pad++;
            acc <<= 6;
            nacc++;
        } else {
            const char *d = memchr(b64_digits, ch, 64);
            if (!d || pad) return pem_error("a character that is not base64");
            acc = acc << 6 | (uint32_t)(d - b64_digits);
            nacc++;
        }
        if (nacc == 4) {
            uint8_t b[3] = {(uint8_t)(acc >> 16), (uint8_t)(acc >> 8), (uint8_t)acc};
            if (pad > 2) return pem_error("bad base64 padding");
            memcpy(text + out, b, 3 - pad);
            out += 3 - pad;
            acc = 0;
            nacc = 0;
        }
    }
    if (nacc != 0) return pem_error("base64 that is not a multiple of 4 characters");
    char end[64];
    int n = snprintf(end, sizeof end, "-----END %s-----", label);
    if (!starts_with(text + i, len - i, end)) return pem_error("an END line that does not match");
    for (i += (size_t)n; i < len; i++)
        if (text[i] != '\r' && text[i] != '\n' && text[i] != ' ' && text[i] != '\t')
            return pem_error("text after the END line");
    *der_len = out;
    return EXIT_OK;
}

static int parse_format(const char *name, webcrypto_key_format *out) {
    static const struct {
        const char *name;
        webcrypto_key_format f;
    } map[] = {{"raw", WEBCRYPTO_FORMAT_RAW}, {"pkcs8", WEBCRYPTO_FORMAT_PKCS8},
               {"spki", WEBCRYPTO_FORMAT_SPKI}, {"jwk", WEBCRYPTO_FORMAT_JWK}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(name, map[i].name) == 0) {
            *out = map[i].f;
            return EXIT_OK;
        }
    /* importKey's format is an enum: anything else is a TypeError */
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_INVALID_ARGUMENT),
                "--format must be raw, pkcs8, spki or jwk, not \"%s\"", name);
    return EXIT_CRYPTO;
}

/* --extractable B (default true). */
static int parse_extractable(const cli *c, bool *out) {
    *out = true;
    if (!c->opt[OPT_EXTRACTABLE]) return EXIT_OK;
    if (strcmp(c->opt[OPT_EXTRACTABLE], "false") == 0) *out = false;
    else if (strcmp(c->opt[OPT_EXTRACTABLE], "true") != 0)
        return usage_error("--extractable takes true or false");
    return EXIT_OK;
}

/* At most one of the inputs may be standard input. */
static int check_stdin_once(const cli *c, const char *in_path, bool reads_input) {
    static const int key_opts[] = {OPT_KEY, OPT_PUBLIC_KEY, OPT_WRAPPING_KEY};
    int n = reads_input && is_stdin(in_path);
    for (size_t i = 0; i < sizeof key_opts / sizeof key_opts[0]; i++)
        if (c->opt[key_opts[i]] && is_stdin(c->opt[key_opts[i]])) n++;
    if (n > 1) return usage_error("only one input can be standard input (\"-\")");
    return EXIT_OK;
}

/* Prints a key as its JWK text and a newline (to --out or stdout). */
static int output_jwk(const cli *c, const webcrypto_key *key) {
    uint8_t *jwk = NULL;
    size_t jwk_len = 0;
    webcrypto_status st = webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, key, &jwk, &jwk_len);
    if (st) return crypto_error(st);
    sink s;
    int rc = sink_open(&s, c->opt[OPT_OUT]);
    if (!rc) {
        rc = sink_write(&s, jwk, jwk_len);
        if (!rc) rc = sink_commit(&s, (const uint8_t *)"\n", 1);
        else sink_abort(&s);
    }
    webcrypto_buffer_free(jwk, jwk_len);
    return rc;
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

/* generate-key's and derive-key's usages when --usages is absent. */
static unsigned default_usages(webcrypto_algorithm a) {
    if (a == WEBCRYPTO_ALG_AES_GCM || a == WEBCRYPTO_ALG_AES_GCM_SIV ||
        a == WEBCRYPTO_ALG_AES_CBC || a == WEBCRYPTO_ALG_AES_CTR)
        return WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    if (is_pair_alg(a))
        return allowed_usages(a, WEBCRYPTO_KEY_PUBLIC) | allowed_usages(a, WEBCRYPTO_KEY_PRIVATE);
    return allowed_usages(a, WEBCRYPTO_KEY_SECRET);
}

/* --usages LIST, else `def`. */
static int usages_option(const cli *c, unsigned def, unsigned *out) {
    *out = def;
    return c->opt[OPT_USAGES] ? parse_usages(c->opt[OPT_USAGES], out) : EXIT_OK;
}

/* Puts a finished pair in place, the private key first, with the signals
 * blocked throughout: the old private key is kept as a hard link until the
 * public key is in place, so that a failed second rename restores it (and a
 * new private key with no old one is removed). Only SIGKILL or a crash
 * between the two renames can leave the new private key beside the old
 * public one (and the .NAME.old.XXXXXX link, which then holds the old
 * private key). Both sinks are aborted on failure. */
static int publish_pair(sink *priv, sink *pub) {
    int rc = sink_finish(priv, NULL, 0);
    if (rc) {
        sink_abort(pub);
        return rc;
    }
    rc = sink_finish(pub, NULL, 0);
    if (rc) {
        sink_abort(priv);
        return rc;
    }
    char *backup = NULL;
    sigset_t old;
    signals_block(&old);
    if (!priv->direct && priv->had_old) {
        backup = name_beside(priv->target, ".old.XXXXXX");
        int fd = backup ? mkstemp(backup) : -1; /* reserves a unique name */
        if (fd >= 0) {
            close(fd);
            temp_register(backup);
            if (unlink(backup) != 0 || link(priv->target, backup) != 0)
                rc = io_error("cannot keep the old private key", priv->path, errno);
        } else {
            rc = backup ? io_error("cannot keep the old private key", priv->path, errno)
                        : no_memory();
            free(backup);
            backup = NULL;
        }
    }
    int err = 0;
    bool keep_backup = false;
    if (!rc && (err = sink_publish_blocked(priv)) != 0)
        rc = io_error("cannot rename the temporary file to", priv->path, err);
    if (!rc && (err = sink_publish_blocked(pub)) != 0) {
        rc = io_error("cannot rename the temporary file to", pub->path, err);
        /* Undo the first rename. */
        if (priv->direct) {
            /* nothing was replaced */
        } else if (backup) {
            keep_backup = rename(backup, priv->target) != 0;
            if (keep_backup) io_error("cannot restore the old private key from", backup, errno);
        } else {
            unlink(priv->target);
        }
    }
    if (backup) {
        if (!keep_backup) unlink(backup); /* ENOENT after a restore */
        temp_unregister(backup);
        free(backup);
    }
    signals_restore(&old);
    sink_abort(priv);
    sink_abort(pub);
    return rc;
}

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
    if (!rc && same_file(c->opt[OPT_OUT_PRIVATE], c->opt[OPT_OUT_PUBLIC]))
        rc = usage_error("--out-private and --out-public name the same file");
    static const uint8_t f4[] = {0x01, 0x00, 0x01};
    uint8_t *exponent = NULL;
    size_t exponent_len = 0;
    if (!rc && is_rsa(p->name)) {
        rc = parse_size("--modulus-length", c->opt[OPT_MODULUS_LENGTH], SIZE_MAX, &p->modulus_length);
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

static int cmd_generate_key(cli *c) {
    int rc = check_options(c, "generate-key",
                           OPTBIT(OPT_LENGTH) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) |
                               OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_CURVE) |
                               OPTBIT(OPT_MODULUS_LENGTH) | OPTBIT(OPT_PUBLIC_EXPONENT) |
                               OPTBIT(OPT_OUT_PRIVATE) | OPTBIT(OPT_OUT_PUBLIC));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (is_pair_alg(p.name)) return generate_pair(c, &p);
    if (is_aes(p.name)) {
        if (c->opt[OPT_HASH]) return usage_error("option --hash does not apply to AES keys");
        rc = require_options(c, "generate-key for AES", OPTBIT(OPT_LENGTH));
    } else if (p.name == WEBCRYPTO_ALG_HMAC) {
        rc = require_options(c, "generate-key HMAC", OPTBIT(OPT_HASH));
        if (!rc) rc = lookup_algorithm(c->opt[OPT_HASH], &p.hash);
    } else {
        return not_supported("generate-key", p.name);
    }
    if (!rc) rc = check_options(c, "secret keys",
                                OPTBIT(OPT_LENGTH) | OPTBIT(OPT_HASH) | OPTBIT(OPT_OUT) |
                                    OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE));
    if (!rc && c->opt[OPT_LENGTH]) rc = parse_size("--length", c->opt[OPT_LENGTH], SIZE_MAX, &p.length);
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
static int cmd_export(cli *c) {
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

/* The type a key in `fmt` will have: what default usages are chosen for. */
static webcrypto_key_type type_of_format(webcrypto_algorithm alg, webcrypto_key_format fmt,
                                         const jwk_hints *h) {
    if (!is_pair_alg(alg)) return WEBCRYPTO_KEY_SECRET;
    switch (fmt) {
    case WEBCRYPTO_FORMAT_PKCS8: return WEBCRYPTO_KEY_PRIVATE;
    case WEBCRYPTO_FORMAT_JWK: return !h || h->has_d ? WEBCRYPTO_KEY_PRIVATE : WEBCRYPTO_KEY_PUBLIC;
    default: return WEBCRYPTO_KEY_PUBLIC;
    }
}

/* import: a key file (PEM, DER, raw or JWK) to a JWK. */
static int cmd_import(cli *c) {
    int rc = check_options(c, "import",
                           OPTBIT(OPT_ALG) | OPTBIT(OPT_HASH) | OPTBIT(OPT_CURVE) | OPTBIT(OPT_FORMAT) |
                               OPTBIT(OPT_USAGES) | OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 0, 1);
    if (!rc) rc = require_options(c, "import", OPTBIT(OPT_ALG));
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    webcrypto_key_format fmt = WEBCRYPTO_FORMAT_RAW;
    if (!rc) rc = lookup_algorithm(c->opt[OPT_ALG], &p.name);
    if (!rc) rc = check_key_options(p.name, c->opt[OPT_HASH], "--hash", c->opt[OPT_CURVE]);
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

/* The options of each encrypting algorithm; AES-KW only when wrapping. */
static bool cipher_options(webcrypto_algorithm a, bool wrapping, optset *allowed, optset *required) {
    switch (a) {
    case WEBCRYPTO_ALG_AES_GCM:
    case WEBCRYPTO_ALG_AES_GCM_SIV:
        *allowed = OPTBIT(OPT_IV) | OPTBIT(OPT_AAD) | OPTBIT(OPT_TAG_LENGTH);
        *required = OPTBIT(OPT_IV);
        return true;
    case WEBCRYPTO_ALG_AES_CBC:
        *allowed = *required = OPTBIT(OPT_IV);
        return true;
    case WEBCRYPTO_ALG_AES_CTR:
        *allowed = *required = OPTBIT(OPT_COUNTER) | OPTBIT(OPT_LENGTH);
        return true;
    case WEBCRYPTO_ALG_RSA_OAEP:
        *allowed = OPTBIT(OPT_LABEL);
        *required = 0;
        return true;
    case WEBCRYPTO_ALG_AES_KW:
        *allowed = *required = 0;
        return wrapping;
    default:
        return false;
    }
}

/* The decoded hex options of a cipher call; free with cipher_bufs_free. */
typedef struct cipher_bufs {
    uint8_t *iv, *aad, *counter, *label;
} cipher_bufs;

static void cipher_bufs_free(cipher_bufs *b) {
    free(b->iv);
    free(b->aad);
    free(b->counter);
    free(b->label);
}

static int parse_cipher_values(const cli *c, webcrypto_params *p, cipher_bufs *b) {
    int rc = EXIT_OK;
    memset(b, 0, sizeof *b);
    if (c->opt[OPT_IV]) rc = parse_hex("--iv", c->opt[OPT_IV], &b->iv, &p->iv_len);
    if (!rc && c->opt[OPT_AAD])
        rc = parse_hex("--aad", c->opt[OPT_AAD], &b->aad, &p->additional_data_len);
    if (!rc && c->opt[OPT_COUNTER])
        rc = parse_hex("--counter", c->opt[OPT_COUNTER], &b->counter, &p->counter_len);
    if (!rc && c->opt[OPT_LABEL]) rc = parse_hex("--label", c->opt[OPT_LABEL], &b->label, &p->label_len);
    if (!rc && c->opt[OPT_TAG_LENGTH])
        rc = parse_size("--tag-length", c->opt[OPT_TAG_LENGTH], SIZE_MAX, &p->tag_length);
    if (!rc && c->opt[OPT_LENGTH]) rc = parse_size("--length", c->opt[OPT_LENGTH], SIZE_MAX, &p->length);
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
    if (p.name == WEBCRYPTO_ALG_RSA_OAEP) allowed |= OPTBIT(OPT_HASH); /* the key's hash */
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

    if (!rc && c->opt[OPT_OUT] &&
        (p.name == WEBCRYPTO_ALG_AES_CBC || p.name == WEBCRYPTO_ALG_AES_CTR)) {
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

/* HMAC: sign prints the MAC in hex; verify prints true or false. Both stream. */
static int sign_verify_hmac(cli *c, bool sign, webcrypto_params *p) {
    const char *cmd = sign ? "sign" : "verify";
    int rc = check_options(c, "HMAC",
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

/* RSASSA-PKCS1-v1_5, RSA-PSS, ECDSA, Ed25519: one shot over the whole input
 * (the library signs these in one call). */
static int sign_verify_pkey(cli *c, bool sign, webcrypto_params *p) {
    const char *cmd = sign ? "sign" : "verify";
    optset allowed = OPTBIT(OPT_KEY) | OPTBIT(OPT_OUT) | (sign ? 0 : OPTBIT(OPT_SIGNATURE));
    optset required = OPTBIT(OPT_KEY) | (sign ? 0 : OPTBIT(OPT_SIGNATURE));
    if (is_rsa(p->name)) allowed |= OPTBIT(OPT_HASH); /* the key's hash */
    if (p->name == WEBCRYPTO_ALG_RSA_PSS) {
        allowed |= OPTBIT(OPT_SALT_LENGTH);
        required |= OPTBIT(OPT_SALT_LENGTH);
    }
    if (p->name == WEBCRYPTO_ALG_ECDSA) { /* the hash of this signature */
        allowed |= OPTBIT(OPT_HASH) | OPTBIT(OPT_CURVE);
        required |= OPTBIT(OPT_HASH);
    }
    int rc = check_options(c, webcrypto_algorithm_name(p->name), allowed);
    if (!rc) rc = require_options(c, cmd, required);
    if (!rc) rc = check_key_source(c);
    uint8_t *sig = NULL;
    size_t sig_len = 0;
    if (!rc && !sign) rc = parse_hex("--signature", c->opt[OPT_SIGNATURE], &sig, &sig_len);
    if (!rc && c->opt[OPT_SALT_LENGTH])
        rc = parse_size("--salt-length", c->opt[OPT_SALT_LENGTH], SIZE_MAX, &p->salt_length);
    if (!rc && p->name == WEBCRYPTO_ALG_ECDSA) rc = lookup_algorithm(c->opt[OPT_HASH], &p->hash);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = p->name,
                      .hash_opt = is_rsa(p->name) ? c->opt[OPT_HASH] : NULL, .hash_name = "--hash",
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
    } else if (!rc) {
        st = webcrypto_verify(p, key, sig, sig_len, data, data_len, &valid);
        if (st) rc = crypto_error(st);
    }
    webcrypto_key_free(key);
    wipe_free(data, data_cap);
    free(sig);
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
                     OPTBIT(OPT_SALT_LENGTH);
    if (!sign) allowed |= OPTBIT(OPT_SIGNATURE);
    int rc = check_options(c, cmd, allowed);
    if (!rc) rc = check_positionals(c, 1, 2);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (p.name == WEBCRYPTO_ALG_HMAC) return sign_verify_hmac(c, sign, &p);
    if (p.name == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || p.name == WEBCRYPTO_ALG_RSA_PSS ||
        p.name == WEBCRYPTO_ALG_ECDSA || p.name == WEBCRYPTO_ALG_ED25519)
        return sign_verify_pkey(c, sign, &p);
    return not_supported(cmd, p.name);
}

/* The base key of an ECDH or X25519 derivation: --key (private, with
 * `usage`) and --public-key (the peer's), which p->public_key then points to. */
static int import_agreement_keys(cli *c, webcrypto_params *p, unsigned usage, webcrypto_key **priv,
                                 webcrypto_key **pub) {
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = p->name,
                      .curve_opt = c->opt[OPT_CURVE], .usages = usage};
    int rc = import_key_file(c, &src, priv);
    if (!rc) {
        src.path = c->opt[OPT_PUBLIC_KEY];
        src.what = "--public-key";
        src.usages = 0; /* public ECDH and X25519 keys have no usages */
        rc = import_key_file(c, &src, pub);
    }
    p->public_key = *pub;
    return rc;
}

static int derive_bits_agreement(cli *c, webcrypto_params *p) {
    int rc = check_options(c, webcrypto_algorithm_name(p->name),
                           OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY) | OPTBIT(OPT_LENGTH) |
                               OPTBIT(OPT_OUT) | (is_ec(p->name) ? OPTBIT(OPT_CURVE) : 0));
    if (!rc) rc = require_options(c, "derive-bits", OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY));
    if (!rc) rc = check_stdin_once(c, NULL, false);
    size_t bits = WEBCRYPTO_LENGTH_FULL;
    if (!rc && c->opt[OPT_LENGTH]) rc = parse_size("--length", c->opt[OPT_LENGTH], 65536, &bits);
    if (!rc) rc = get_backend(c);
    webcrypto_key *priv = NULL, *pub = NULL;
    if (!rc) rc = import_agreement_keys(c, p, WEBCRYPTO_USAGE_DERIVE_BITS, &priv, &pub);
    uint8_t out[66]; /* the longest secret: P-521 */
    size_t n = 0;
    if (!rc) {
        webcrypto_status st = webcrypto_derive_bits(p, priv, bits, out, sizeof out, &n);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&s, out, n);
    }
    wipe(out, sizeof out);
    webcrypto_key_free(priv);
    webcrypto_key_free(pub);
    return rc;
}

/* HKDF and PBKDF2's members from the options; the secret is --key-hex. */
typedef struct kdf_bufs {
    uint8_t *secret, *salt, *info;
    size_t secret_len;
} kdf_bufs;

static int parse_kdf(const cli *c, webcrypto_params *p, kdf_bufs *b) {
    size_t iterations = 0;
    memset(b, 0, sizeof *b);
    int rc = lookup_algorithm(c->opt[OPT_HASH], &p->hash);
    if (!rc) rc = parse_hex("--key-hex", c->opt[OPT_KEY_HEX], &b->secret, &b->secret_len);
    if (!rc) rc = parse_hex("--salt", c->opt[OPT_SALT], &b->salt, &p->salt_len);
    if (!rc && c->opt[OPT_INFO]) rc = parse_hex("--info", c->opt[OPT_INFO], &b->info, &p->info_len);
    if (!rc && c->opt[OPT_ITERATIONS])
        rc = parse_size("--iterations", c->opt[OPT_ITERATIONS], UINT32_MAX, &iterations);
    p->salt = b->salt;
    p->info = b->info;
    p->iterations = (uint32_t)iterations;
    return rc;
}

static void kdf_bufs_free(kdf_bufs *b) {
    wipe_free(b->secret, b->secret_len);
    free(b->salt);
    free(b->info);
}

/* HKDF or PBKDF2's base key: the --key-hex secret as a raw key. */
static int import_kdf_key(const cli *c, webcrypto_algorithm alg, const kdf_bufs *b, unsigned usage,
                          webcrypto_key **key) {
    webcrypto_params ip = WEBCRYPTO_PARAMS_INIT;
    ip.name = alg;
    webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, b->secret,
                                               b->secret_len, &ip, false, usage, key);
    return st ? crypto_error(st) : EXIT_OK;
}

static int cmd_derive_bits(cli *c) {
    int rc = check_options(c, "derive-bits",
                           OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) |
                               OPTBIT(OPT_INFO) | OPTBIT(OPT_ITERATIONS) | OPTBIT(OPT_LENGTH) |
                               OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY) | OPTBIT(OPT_CURVE) |
                               OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    if (p.name == WEBCRYPTO_ALG_ECDH || p.name == WEBCRYPTO_ALG_X25519)
        return derive_bits_agreement(c, &p);
    optset common = OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) | OPTBIT(OPT_LENGTH);
    optset specific;
    if (p.name == WEBCRYPTO_ALG_HKDF) specific = OPTBIT(OPT_INFO);
    else if (p.name == WEBCRYPTO_ALG_PBKDF2) specific = OPTBIT(OPT_ITERATIONS);
    else return not_supported("derive-bits", p.name);
    rc = check_options(c, webcrypto_algorithm_name(p.name), common | specific | OPTBIT(OPT_OUT));
    if (!rc) rc = require_options(c, "derive-bits", common | specific);
    kdf_bufs b;
    size_t bits = 0, out_cap = 0, out_len = 0;
    if (!rc) rc = parse_kdf(c, &p, &b);
    else memset(&b, 0, sizeof b);
    /* Bounded so that the output buffer stays allocatable (512 MiB). */
    if (!rc) rc = parse_size("--length", c->opt[OPT_LENGTH], UINT32_MAX, &bits);
    if (!rc) rc = get_backend(c);
    webcrypto_key *key = NULL;
    if (!rc) rc = import_kdf_key(c, p.name, &b, WEBCRYPTO_USAGE_DERIVE_BITS, &key);
    if (!rc) {
        /* The size query makes the library's length checks (HKDF's 255
         * HashLen, a multiple of 8) before the output buffer is needed: a
         * length that can never succeed is refused before it is allocated. */
        webcrypto_status st = webcrypto_derive_bits(&p, key, bits, NULL, 0, &out_cap);
        if (st) rc = crypto_error(st);
    }
    uint8_t *out = NULL;
    if (!rc) {
        out = malloc(out_cap ? out_cap : 1);
        if (!out) rc = no_memory();
    }
    if (!rc) {
        webcrypto_status st = webcrypto_derive_bits(&p, key, bits, out, out_cap, &out_len);
        if (st) rc = crypto_error(st);
    }
    if (!rc) {
        sink s;
        rc = sink_open(&s, c->opt[OPT_OUT]);
        if (!rc) rc = sink_commit_hex(&s, out, out_len);
    }
    webcrypto_key_free(key);
    kdf_bufs_free(&b);
    wipe_free(out, out_cap);
    return rc;
}

/* derive-key: HKDF, PBKDF2, ECDH or X25519 to an AES or HMAC key, printed
 * as a JWK. */
static int cmd_derive_key(cli *c) {
    const optset derived = OPTBIT(OPT_DERIVED) | OPTBIT(OPT_DERIVED_LENGTH) |
                           OPTBIT(OPT_DERIVED_HASH) | OPTBIT(OPT_USAGES) |
                           OPTBIT(OPT_EXTRACTABLE) | OPTBIT(OPT_OUT);
    int rc = check_options(c, "derive-key",
                           derived | OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) |
                               OPTBIT(OPT_INFO) | OPTBIT(OPT_ITERATIONS) | OPTBIT(OPT_KEY) |
                               OPTBIT(OPT_PUBLIC_KEY) | OPTBIT(OPT_CURVE));
    if (!rc) rc = check_positionals(c, 1, 1);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->pos[1], &p.name);
    if (rc) return rc;
    optset base, extra = 0;
    bool agreement = p.name == WEBCRYPTO_ALG_ECDH || p.name == WEBCRYPTO_ALG_X25519;
    if (p.name == WEBCRYPTO_ALG_HKDF)
        base = OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) | OPTBIT(OPT_INFO);
    else if (p.name == WEBCRYPTO_ALG_PBKDF2)
        base = OPTBIT(OPT_KEY_HEX) | OPTBIT(OPT_HASH) | OPTBIT(OPT_SALT) | OPTBIT(OPT_ITERATIONS);
    else if (agreement) {
        base = OPTBIT(OPT_KEY) | OPTBIT(OPT_PUBLIC_KEY);
        if (p.name == WEBCRYPTO_ALG_ECDH) extra = OPTBIT(OPT_CURVE);
    } else
        return not_supported("derive-key", p.name);
    rc = check_options(c, webcrypto_algorithm_name(p.name), base | extra | derived);
    if (!rc) rc = require_options(c, "derive-key", base | OPTBIT(OPT_DERIVED));
    /* The derived key's type; its checks are the library's. */
    webcrypto_params dt = WEBCRYPTO_PARAMS_INIT;
    if (!rc) rc = lookup_algorithm(c->opt[OPT_DERIVED], &dt.name);
    if (!rc && c->opt[OPT_DERIVED_LENGTH])
        rc = parse_size("--derived-length", c->opt[OPT_DERIVED_LENGTH], SIZE_MAX, &dt.length);
    if (!rc && c->opt[OPT_DERIVED_HASH]) rc = lookup_algorithm(c->opt[OPT_DERIVED_HASH], &dt.hash);
    unsigned usages = 0;
    bool extractable = true;
    if (!rc) rc = usages_option(c, default_usages(dt.name), &usages);
    if (!rc) rc = parse_extractable(c, &extractable);
    kdf_bufs b;
    memset(&b, 0, sizeof b);
    if (!rc && !agreement) rc = parse_kdf(c, &p, &b);
    if (!rc && agreement) rc = check_stdin_once(c, NULL, false);
    if (!rc) rc = get_backend(c);
    webcrypto_key *base_key = NULL, *pub = NULL, *key = NULL;
    if (!rc)
        rc = agreement ? import_agreement_keys(c, &p, WEBCRYPTO_USAGE_DERIVE_KEY, &base_key, &pub)
                       : import_kdf_key(c, p.name, &b, WEBCRYPTO_USAGE_DERIVE_KEY, &base_key);
    if (!rc) {
        webcrypto_status st = webcrypto_derive_key(&p, base_key, &dt, extractable, usages, &key);
        if (st) rc = crypto_error(st);
    }
    if (!rc) rc = output_jwk(c, key);
    webcrypto_key_free(key);
    webcrypto_key_free(base_key);
    webcrypto_key_free(pub);
    kdf_bufs_free(&b);
    return rc;
}

/* The wrapping algorithm (--wrap-alg) and its options, shared by wrap-key
 * and unwrap-key. */
static int wrap_alg_params(cli *c, const char *cmd, optset others, webcrypto_params *wp,
                           cipher_bufs *bufs) {
    memset(bufs, 0, sizeof *bufs);
    int rc = lookup_algorithm(c->opt[OPT_WRAP_ALG], &wp->name);
    if (rc) return rc;
    optset allowed, required;
    if (!cipher_options(wp->name, true, &allowed, &required)) return not_supported(cmd, wp->name);
    if (wp->name == WEBCRYPTO_ALG_RSA_OAEP) allowed |= OPTBIT(OPT_WRAP_HASH);
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
static int cmd_wrap_key(cli *c) {
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
static int cmd_unwrap_key(cli *c) {
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
 * algorithms and features, or "NAME: unavailable - REASON". */
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
    for (size_t i = 0; !rc && i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm a = webcrypto_algorithm_at(i);
        if (!webcrypto_backend_supports(b, a)) continue;
        snprintf(line, sizeof line, " %s", webcrypto_algorithm_name(a));
        rc = sink_write(s, (const uint8_t *)line, strlen(line));
    }
    snprintf(line, sizeof line, "\n  multi-prime RSA import: %s\n",
             webcrypto_backend_has_feature(b, WEBCRYPTO_FEATURE_RSA_MULTI_PRIME) ? "yes" : "no");
    if (!rc) rc = sink_write(s, (const uint8_t *)line, strlen(line));
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
    bool listed = false;
    for (size_t i = 0; !rc && i < count; i++) {
        const char *name = webcrypto_backend_name_at(i);
        if (!name || (only && strcmp(name, only) != 0)) continue;
        rc = describe_backend(&s, name, default_name);
        listed = true;
    }
    /* A variant ("jca:BC") is not in the list of names: describe it alone. */
    if (!rc && only && !listed) rc = describe_backend(&s, only, default_name);
    if (rc) {
        sink_abort(&s);
        return rc;
    }
    return sink_commit(&s, NULL, 0);
}

/* Help and version go to stdout; their write errors count too. */
static int print_text(const char *text) {
    if (stdout_closed) return io_error("cannot write", "<stdout>", EBADF);
    if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
        return io_error("cannot write", "<stdout>", errno);
    return EXIT_OK;
}

/* Descriptors 0, 1 and 2 closed at start would be taken by the next files
 * opened (a temporary output file as "standard input", the JVM's files read
 * as data): they are opened on /dev/null first, and remembered as closed so
 * that reading standard input or writing standard output is an error. */
static void guard_standard_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (n != fd) {
            /* /dev/null missing: nothing safe is left to do. */
            if (n >= 0) close(n);
            _exit(EXIT_IO);
        }
        if (fd == 0) stdin_closed = true;
        if (fd == 1) stdout_closed = true;
    }
}

int main(int argc, char **argv) {
    guard_standard_fds();
    install_signal_cleanup();
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
    } else if (strcmp(cmd, "derive-key") == 0) {
        rc = cmd_derive_key(&c);
    } else if (strcmp(cmd, "export") == 0) {
        rc = cmd_export(&c);
    } else if (strcmp(cmd, "import") == 0) {
        rc = cmd_import(&c);
    } else if (strcmp(cmd, "wrap-key") == 0) {
        rc = cmd_wrap_key(&c);
    } else if (strcmp(cmd, "unwrap-key") == 0) {
        rc = cmd_unwrap_key(&c);
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
