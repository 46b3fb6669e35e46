/*
 * The webcrypto command's private header: what its parts share.
 *
 * main.c dispatches to one file per command group (cmd_*.c); args.c parses
 * the command line and reports errors, io.c reads input and writes output
 * atomically, pem.c is the PEM codec, keyfile.c reads key files. Everything
 * here is internal to the program.
 */
#ifndef WEBCRYPTO_CLI_H
#define WEBCRYPTO_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

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
    OPT_OUTPUT_LENGTH,  /* cSHAKE, KMAC: outputLength in bits */
    OPT_CUSTOMIZATION,  /* cSHAKE, KMAC: S, hex */
    OPT_FUNCTION_NAME,  /* cSHAKE: N, hex */
    OPT_PEM, /* a flag: takes no value */
    OPT_CONTEXT, /* Ed448 and ML-DSA: the signature context, hex */
    /* Argon2's deriveBits members (its associatedData is --aad) */
    OPT_NONCE,
    OPT_MEMORY,
    OPT_PASSES,
    OPT_PARALLELISM,
    OPT_SECRET,
    OPT_COUNT
};

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

/* Descriptors 0-2 that were closed when the program started (io.c). */
extern bool stdin_closed, stdout_closed;

/* The usage text (usage.c), its lists of algorithms the library's; NULL
 * when out of memory. Caller frees. */
char *usage_build(void);

/* ---- args.c: errors, memory, values, the command line ---- */

/* Zeroes memory the compiler may not elide; wipe_free then frees it. */
void wipe(void *p, size_t len);
void wipe_free(void *p, size_t len);

/* "webcrypto: KIND: MESSAGE" on stderr. */
void print_error(const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A usage error and the hint to --help; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
int crypto_error(webcrypto_status st);
int io_error(const char *what, const char *path, int err);
int no_memory(void);

int parse_hex(const char *opt, const char *hex, uint8_t **out, size_t *out_len);
int parse_size(const char *opt, const char *s, size_t max, size_t *out);
/* Option o's number, at most max, for operation op of algorithm alg. A given
 * value is passed as given and an absent one stays absent (*out untouched);
 * but where webcrypto_params reads 0 as "absent" and WebCrypto gives a
 * present 0 an error of its own, an explicit 0 is refused here with that
 * error (the Node binding's ZERO_IS_AN_ERROR, the same outcome). */
int parse_number(const cli *c, enum opt_id o, webcrypto_operation op, webcrypto_algorithm alg,
                 size_t max, size_t *out);
int parse_format(const char *name, webcrypto_key_format *out);
/* The format of a secret key's bytes for alg: raw, or raw-secret for the
 * algorithms that have no raw (the Modern Algorithms draft's new ones). */
webcrypto_key_format secret_raw_format(webcrypto_algorithm alg);
int parse_extractable(const cli *c, bool *out);
int usages_option(const cli *c, unsigned def, unsigned *out);

int parse_args(int argc, char **argv, cli *c);
const char *option_name(int opt); /* "--key" */
int check_options(const cli *c, const char *what, optset allowed);
int require_options(const cli *c, const char *what, optset required);
int check_positionals(const cli *c, size_t min, size_t max);
int check_key_source(const cli *c);
int check_stdin_once(const cli *c, const char *in_path, bool reads_input);
int lookup_algorithm(const char *name, webcrypto_algorithm *out);
int not_supported(const char *command, webcrypto_algorithm alg);
int get_backend(cli *c);

/* ---- io.c: input, the atomic output sink, signals, descriptors 0-2 ---- */

bool is_stdin(const char *path);
const char *display_name(const char *path);
int open_input(const char *path, FILE **out);
void close_input(FILE *fp);
int read_chunk(FILE *fp, const char *path, uint8_t *buf, size_t cap, size_t *got);
int read_all(const char *path, size_t max, uint8_t **out, size_t *out_len, size_t *out_cap);

int sink_open(sink *s, const char *path);
int sink_write(sink *s, const uint8_t *data, size_t len);
void sink_abort(sink *s);
int sink_commit(sink *s, const uint8_t *tail, size_t tail_len);
int sink_commit_hex(sink *s, const uint8_t *data, size_t len);
int sink_commit_text(sink *s, const char *text);
int publish_pair(sink *priv, sink *pub);
bool same_file(const char *a, const char *b);
/* The one rule on the command's files: no output (--out, --out-private,
 * --out-public) is another output, nor a file the command reads (--key,
 * --public-key, --wrapping-key, and its data input in_path, named in_name
 * for messages: "FILE"; in_name NULL if it reads none). UsageError. */
int check_distinct_files(const cli *c, const char *in_name, const char *in_path);

void guard_standard_fds(void);
void install_signal_cleanup(void);
int print_text(const char *text);

/* ---- pem.c: PEM (RFC 7468) encode and decode ---- */

const char *pem_label(webcrypto_key_format f);
int sink_write_pem(sink *s, webcrypto_key_format f, const uint8_t *der, size_t len);
bool starts_with(const uint8_t *p, size_t n, const char *prefix);
int pem_decode(uint8_t *text, size_t len, size_t *der_len, webcrypto_key_format *format);

/* ---- algs.c: what the CLI knows of algorithms beyond the library's list ---- */

enum {
    ALG_KEY_HASH = 1u << 0,   /* its keys have a hash (HMAC, RSA): --hash, else the JWK's alg */
    ALG_KEY_CURVE = 1u << 1,  /* its keys have a named curve: --curve, else the JWK's crv */
    ALG_KEY_RSA = 1u << 2,    /* generate-key takes --modulus-length, --public-exponent */
    ALG_KEY_LENGTH = 1u << 3, /* generate-key needs --length */
    ALG_STREAMS = 1u << 4,    /* the library streams it (cipher_init, sign_init) */
    ALG_ARGON2 = 1u << 5,     /* a KDF with Argon2's members, not a hash and a salt */
    ALG_KEY_LENGTH_OPT = 1u << 6 /* its keys' length is optional (HMAC, KMAC): --length */
};
unsigned alg_flags(webcrypto_algorithm a);
/* The options its encrypt/decrypt (and wrap), sign/verify or derive takes
 * beyond the command's own, and those it needs. */
void alg_options(webcrypto_algorithm a, optset *allowed, optset *required);
/* Whether the library says the algorithm has the operation. */
bool alg_has(webcrypto_algorithm a, webcrypto_operation op);
bool is_rsa(webcrypto_algorithm a);     /* ALG_KEY_RSA */
bool is_ec(webcrypto_algorithm a);      /* ALG_KEY_CURVE */
bool needs_hash(webcrypto_algorithm a); /* ALG_KEY_HASH */
bool is_pair_alg(webcrypto_algorithm a);
/* cSHAKE's and KMAC's outputLength 0 is an empty output (the draft: L = 0;
 * Node 24 and the binding give it), which the C API cannot be asked for
 * (its 0 is "absent", TypeError): the call is made with this length instead,
 * one every backend with the algorithm takes, so that the library still
 * makes its other checks, and its output is dropped. */
size_t empty_output_stand_in(webcrypto_algorithm a);
unsigned allowed_usages(webcrypto_algorithm a, webcrypto_key_type type);
unsigned default_usages(webcrypto_algorithm a);

/* ---- keyfile.c: key files, read and imported with the parameters they need ---- */

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

void install_json_wiping_alloc(void);
void read_jwk_hints(const uint8_t *jwk, size_t len, jwk_hints *h);
webcrypto_key_type type_of_format(webcrypto_algorithm alg, webcrypto_key_format fmt,
                                  const jwk_hints *h);
int resolve_key_params(const char *hash_opt, const char *hash_name, const char *curve_opt,
                       const jwk_hints *h, const char *what, webcrypto_params *p);
int check_key_options(webcrypto_algorithm a, const char *hash_opt, const char *hash_name,
                      const char *curve_opt);
int import_key_file(const cli *c, const key_source *src, webcrypto_key **key);
int import_jwk(const cli *c, webcrypto_algorithm alg, unsigned usage, webcrypto_key **key);
int output_jwk(const cli *c, const webcrypto_key *key);

/* ---- cmd_cipher.c: what wrap-key and unwrap-key share with encrypt ---- */

/* The decoded hex options of a cipher call; free with cipher_bufs_free. */
typedef struct cipher_bufs {
    uint8_t *iv, *aad, *counter, *label;
} cipher_bufs;
bool cipher_options(webcrypto_algorithm a, bool wrapping, optset *allowed, optset *required);
int parse_cipher_values(const cli *c, webcrypto_params *p, cipher_bufs *b);
void cipher_bufs_free(cipher_bufs *b);

/* ---- the commands (main.c's table) ---- */

int cmd_digest(cli *c);        /* cmd_digest.c */
int cmd_generate_key(cli *c);  /* cmd_keys.c */
int cmd_import(cli *c);
int cmd_export(cli *c);
int cmd_encrypt(cli *c);       /* cmd_cipher.c */
int cmd_decrypt(cli *c);
int cmd_sign(cli *c);          /* cmd_sign.c */
int cmd_verify(cli *c);
int cmd_derive_bits(cli *c);   /* cmd_derive.c */
int cmd_derive_key(cli *c);
int cmd_wrap_key(cli *c);      /* cmd_wrap.c */
int cmd_unwrap_key(cli *c);
int cmd_random(cli *c);        /* cmd_random.c */
int cmd_uuid(cli *c);
int cmd_backends(cli *c);      /* cmd_backends.c */
int cmd_encapsulate(cli *c);   /* cmd_kem.c */
int cmd_decapsulate(cli *c);
/* cmd_bench.c: `webcrypto bench ARGS...` (argv[1] is "bench") runs the
 * program webcrypto-bench with ARGS in place of this process; returns only
 * when it cannot (EXIT_IO, after the message). */
int run_bench(int argc, char **argv);

#endif
