/*
 * bench_internal.h - the pieces of webcrypto-bench shared between its files:
 * the operation table, the per-cell state, the implementations (through the
 * public API, the raw OpenSSL baseline, and the loader of the raw BoringSSL
 * module), results and reports.
 */
#ifndef WEBCRYPTO_BENCH_INTERNAL_H
#define WEBCRYPTO_BENCH_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_stats.h"
#include "webcrypto.h"

/* ---- operations ----
 * One row of bench_ops[] per measured operation. A kind is the code that
 * runs it (one bench_impl per target family); a new algorithm that fits an
 * existing kind is a new row only, a new kind (e.g. an asymmetric sign:
 * generate or import a key pair in setup, sign in run) is one more enum
 * value, its setup/run in bench_ops.c (and bench_raw_openssl.c; for
 * raw-boringssl, a kind in bench_raw_module.h and bench_raw_boringssl.c) and
 * rows; the switches over bench_kind name every kind, so -Wswitch-enum
 * points at the others to decide. */
typedef enum bench_kind {
    BK_DIGEST,
    BK_HMAC_SIGN,
    BK_HMAC_VERIFY,
    BK_ENCRYPT,
    BK_DECRYPT,
    BK_GENERATE_KEY,
    BK_IMPORT_KEY,
    BK_HKDF,
    BK_PBKDF2,
    BK_RANDOM,
    /* Asymmetric: keys imported (pkcs8/spki) from the pairs bench_keys_get
     * generated once per process, so every target uses the same keys. */
    BK_PKEY_SIGN,     /* RSASSA-PKCS1-v1_5, RSA-PSS, ECDSA, Ed25519, Ed448, ML-DSA */
    BK_PKEY_VERIFY,
    BK_PKEY_ENCRYPT,  /* RSA-OAEP */
    BK_PKEY_DECRYPT,
    BK_PKEY_DERIVE,   /* ECDH, X25519, X448: deriveBits with the peer's public key */
    BK_PKEY_GENERATE, /* generateKey for a key pair, both keys freed */
    BK_KMAC_SIGN,     /* KMAC128/256 sign, outputLength 256 bits, no customization */
    /* ML-KEM: the private key imported from a fixed raw seed (the key
     * stream's first 64 bytes), the public key its getPublicKey. */
    BK_KEM_ENCAPSULATE, /* encapsulateBits: ciphertext || shared key */
    BK_KEM_DECAPSULATE, /* decapsulateBits of one ciphertext made once per process */
    BK_ARGON2,          /* Argon2id deriveBits, 256 bits, fixed cost (bench_ops.c) */
    BK_COUNT
} bench_kind;

enum {
    BENCH_SIZED = 1u << 0,         /* the input size varies (--sizes); else one cell, size 0 */
    BENCH_DETERMINISTIC = 1u << 1, /* same inputs give the same output on every target */
    BENCH_MAX_64K = 1u << 2,       /* sizes above 65536 are skipped (getRandomValues quota) */
    /* Randomized output (RSA-PSS, ECDSA signatures, RSA-OAEP ciphertexts):
     * no checksum; instead one output of each target is checked (verified,
     * decrypted) by every other target's check(). */
    BENCH_CROSS_VERIFY = 1u << 3
};

/* The message of the one-size asymmetric sign/verify/encrypt operations:
 * the first BENCH_MSG_LEN bytes of the data stream. */
#define BENCH_MSG_LEN 64

typedef struct bench_op {
    const char *name;         /* "aes-gcm-256-encrypt": what --op matches */
    bench_kind kind;
    webcrypto_algorithm alg;  /* the algorithm a backend must support */
    webcrypto_algorithm hash; /* and this hash too (WEBCRYPTO_ALG_NONE: none) */
    unsigned key_bits;        /* AES key size; RSA modulus */
    unsigned flags;
    webcrypto_named_curve curve; /* ECDSA, ECDH */
} bench_op;

#define BENCH_MAX_OPS 96
extern const bench_op bench_ops[];
extern const size_t bench_op_count;

/* ---- one cell: (operation, size, target) ----
 * Everything the timed loop reads is made by setup and is read-only while
 * timing, so that threads can share it (the key included); each thread has
 * its own output buffer. */
typedef struct bench_cell {
    const bench_op *op;
    const webcrypto_backend *backend; /* NULL for the raw baseline */
    size_t size;                      /* input size, 0 for unsized operations */
    const uint8_t *data;              /* the input: `size` bytes of the fixed stream */
    /* The message of sign/verify/encrypt: data and size for sized
     * operations, else the first BENCH_MSG_LEN bytes of the stream. */
    const uint8_t *msg;
    size_t msg_len;
    uint32_t pbkdf2_iterations;
    /* Fixed parameters, the same bytes on every target (bench_cell_init). */
    uint8_t key_bytes[32];
    size_t key_len;
    uint8_t iv[16];
    size_t iv_len;
    uint8_t salt[32];
    size_t salt_len;
    uint8_t info[16];
    size_t info_len;
    /* Made by setup. */
    uint8_t *aux; /* decrypt: the ciphertext; verify: the MAC */
    size_t aux_len;
    size_t out_cap;
    webcrypto_key *key;
    webcrypto_key *key2; /* asymmetric: the pair's other key, for check() */
    webcrypto_key *peer; /* ECDH, X25519: the peer's public key */
    webcrypto_params params;
    void *raw; /* the raw baseline's state; the jvm baseline's */
    const char *jvm_provider; /* jvm targets: the JCA provider, NULL for the JVM's order */
} bench_cell;

typedef struct bench_impl {
    int (*setup)(bench_cell *c);
    /* One operation; writes its output to out (out_cap bytes) and its size
     * to *out_len. Returns 0, or -1 after bench_fail(). */
    int (*run)(const bench_cell *c, uint8_t *out, size_t *out_len);
    void (*teardown)(bench_cell *c);
    /* BENCH_CROSS_VERIFY operations: whether out (another target's output
     * of the same operation) is valid for this cell: the signature verifies,
     * the ciphertext decrypts to the message. 0, or -1 after bench_fail(). */
    int (*check)(const bench_cell *c, const uint8_t *out, size_t out_len);
    /* Optional: n operations timed by the implementation itself (the jvm
     * baseline times them in Java); returns their nanoseconds on
     * CLOCK_MONOTONIC, or -1 after bench_fail(). NULL: the harness times n
     * calls of run(). */
    double (*batch)(const bench_cell *c, size_t n);
} bench_impl;

/* Fills the fixed parameters of a cell for op and size. */
void bench_cell_init(bench_cell *c, const bench_op *op, const webcrypto_backend *backend,
                     size_t size, const uint8_t *data, uint32_t pbkdf2_iterations);

/* The implementation through the public API, for any op. */
const bench_impl *bench_wc_impl(const bench_op *op);
/* The raw OpenSSL implementations: how a call gets its context. */
typedef enum bench_raw_mode {
    BENCH_RAW_PLAIN,  /* raw-openssl: made, keyed and freed per call */
    BENCH_RAW_KEYED,  /* raw-openssl-keyed: keyed once per cell, copied per call */
    BENCH_RAW_REUSED, /* raw-openssl-reused: one per thread and cell, re-initialised per call */
    BENCH_RAW_PROVIDER /* raw-openssl-provider: as reused, on the provider's own functions */
} bench_raw_mode;
/* The raw OpenSSL implementation, or NULL (not built, or no such kind; the
 * keyed and reused modes have HMAC and the AES modes, reused also digests). */
const bench_impl *bench_raw_impl(const bench_op *op, bench_raw_mode mode);
/* raw-openssl-provider (bench_raw_provider.c): SHA digests, AES-GCM,
 * AES-OCB, ChaCha20-Poly1305, AES-CBC and AES-CTR on the provider's
 * functions, or NULL. */
const bench_impl *bench_raw_provider_impl(const bench_op *op);
/* OpenSSL's name of op's cipher (AES-GCM/CBC/CTR/OCB, ChaCha20-Poly1305) and
 * of a hash the openssl backend fetches; NULL for others
 * (bench_raw_openssl.c, for both raw OpenSSL baselines). */
const char *bench_ossl_cipher_name(const bench_op *op);
const char *bench_ossl_digest_name(webcrypto_algorithm hash);
/* The raw OpenSSL baselines' per-thread contexts (bench_raw_openssl.c):
 * each thread keeps those of the last BENCH_MAX_TARGETS cells it ran (a
 * cell numbered by bench_thread_ctx_id, unique across both baselines), so
 * that a call makes nothing once its thread has the cell's. bench_thread_ctx
 * returns the calling thread's context for cell id, freeing the one it held
 * for another and making this one with make (which sets *free_fn, or calls
 * bench_fail and returns NULL); NULL after bench_fail(). A thread's context
 * goes with the thread (the --threads workers); bench_thread_ctx_drop frees
 * the calling thread's if it is cell id's (a cell's teardown). */
typedef void *(*bench_ctx_make)(const bench_cell *c, void (**free_fn)(void *ctx));
unsigned long bench_thread_ctx_id(void);
void *bench_thread_ctx(const bench_cell *c, unsigned long id, bench_ctx_make make);
void bench_thread_ctx_drop(unsigned long id);
/* A one-line description of the raw baseline (library version); NULL when
 * it is not built in. */
const char *bench_raw_description(void);

/* raw-boringssl (bench_raw_module.c; stubs when the boringssl backend is not
 * built): BoringSSL called directly, by the module
 * webcrypto-bench-raw-boringssl.so, which the first call loads. Its
 * one-line description, or NULL with the reason in why (not built, not
 * found, does not load). */
const char *bench_rawb_description(char *why, size_t cap);
/* Its implementation of op, or NULL (not loaded, or no such operation). */
const bench_impl *bench_rawb_impl(const bench_op *op);

/* ---- the jvm baseline (bench_jvm.c; stubs when the jca backend or javac
 * is absent) ----
 * "jvm" and "jvm:PROVIDER": the jca backend's operations made by Java code
 * in the same JVM, timed in Java. bench_jvm_start starts that JVM and hands
 * it to the jca backend; it must run before anything starts the jca
 * backend. Returns 0, or -1 with the reason in bench_jvm_error(). */
int bench_jvm_start(void);
const char *bench_jvm_error(void);
/* 0 if a jvm target with this provider (NULL or "": the JVM's order) can
 * run; else -1 and the reason in why. Starts the JVM. */
int bench_jvm_has_provider(const char *provider, char *why, size_t cap);
void bench_jvm_describe(const char *provider, char *buf, size_t cap);
/* The Java-side warm-up per cell (see bench_jvm.c). */
void bench_jvm_set_warmup(double warmup_ms, unsigned warmup_calls, double max_ms);
/* The JIT's total compilation time so far in the JVM the bench started (ms),
 * or -1 when there is none or it does not count: the warm-up of jca and jvm
 * cells lasts until it stops growing (bench_measure.c, measure_cell). */
long bench_jvm_jit_ms(void);
/* Whether the provider has op, and the implementation (NULL: no Java
 * counterpart). */
bool bench_jvm_supports(const bench_op *op, const char *provider);
const bench_impl *bench_jvm_impl(const bench_op *op);

/* ---- the asymmetric keys ----
 * Generated once per process (by the first target that needs them, through
 * the public API; raw-openssl uses the default backend) and kept as pkcs8
 * and spki DER, which every target imports: same key bytes everywhere. */
typedef enum bench_key_family {
    BKF_RSA2048,
    BKF_P256,
    BKF_P384,
    BKF_P521,
    BKF_P256_PEER, /* ECDH's other party */
    BKF_P384_PEER,
    BKF_P521_PEER,
    BKF_ED25519,
    BKF_X25519,
    BKF_X25519_PEER,
    BKF_ED448,
    BKF_X448,
    BKF_X448_PEER,
    BKF_ML_DSA_65, /* generated on the first backend that has it (jca) */
    BKF_COUNT
} bench_key_family;

typedef struct bench_keypair {
    uint8_t *pkcs8, *spki;
    size_t pkcs8_len, spki_len;
    char origin[32]; /* the backend that generated it */
} bench_keypair;

/* The pair of op's key (peer: ECDH/X25519's other party); backend generates
 * it if it does not exist yet (NULL: the default backend). Returns NULL
 * after bench_fail(). Not thread-safe: setup runs on one thread. */
const bench_keypair *bench_keys_get(const bench_op *op, bool peer,
                                    const webcrypto_backend *backend);
/* "rsa-2048 (openssl), p-256 (openssl)": the pairs generated so far. */
void bench_keys_describe(char *buf, size_t cap);
/* Wipes and frees every pair. */
void bench_keys_free(void);
/* The process's shared state, which a worker process (bench_worker.c)
 * receives and sends back: the pair of family f (pkcs8 NULL: none yet;
 * buffers from malloc), and the ML-KEM ciphertext (*ct_len 0: none yet,
 * at most 1568 bytes) with its 32-byte shared key. */
bench_keypair *bench_keys_slot(bench_key_family f);
void bench_kem_state(uint8_t **ct, size_t **ct_len, uint8_t **ss);

/* The deterministic data stream (see bench_ops.c): fills buf with len bytes
 * of the stream started from seed. */
void bench_stream(uint32_t seed, uint8_t *buf, size_t len);
#define BENCH_DATA_SEED 0x5eedda7au
#define BENCH_KEY_SEED 0x6b657973u

/* The failure message of the calling thread's last failed run/setup. */
void bench_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
const char *bench_last_error(void);
/* bench_fail with the library's status name and message. */
void bench_fail_wc(const char *what, webcrypto_status st);

/* ---- targets, results, the run ---- */
#define BENCH_MAX_TARGETS 16
#define BENCH_RAW_NAME "raw-openssl"
#define BENCH_RAW_KEYED_NAME "raw-openssl-keyed" /* opt-in: only with --backend */
#define BENCH_RAW_REUSED_NAME "raw-openssl-reused" /* opt-in: only with --backend */
#define BENCH_RAW_PROVIDER_NAME "raw-openssl-provider" /* opt-in: only with --backend */
#define BENCH_RAWB_NAME "raw-boringssl" /* by default when the boringssl backend is a target */
#define BENCH_BORINGSSL_NAME "boringssl"  /* the backend whose ovh/raw base it is */
#define BENCH_JVM_NAME "jvm" /* "jvm", "jvm:BC": the jca targets' baselines */

typedef struct bench_target {
    char name[64]; /* openssl@3.5.7+OPENSSL_GCM_SIV=openssl is the longest kind */
    const webcrypto_backend *backend; /* NULL for raw */
    bool is_raw;
    bench_raw_mode raw_mode; /* for raw-openssl, -keyed, -reused */
    bool raw_boringssl; /* raw-boringssl (is_raw too) */
    bool is_jvm;    /* jvm, jvm:PROVIDER */
    bool for_scaling; /* raw-boringssl added by --threads for the scaling table */
    char jvm_provider[24]; /* "" for the JVM's order */
    /* jca targets: the jvm target of the same provider (its overhead
     * baseline), or SIZE_MAX */
    size_t jvm_base;
    /* The raw target of the ovh/raw column: raw-boringssl for the boringssl
     * backend when it is measured, else raw-openssl; SIZE_MAX for none (and
     * for raw-openssl itself). */
    size_t raw_base;
    /* openssl@3.5.7 (a worker's target): the same target on this process's
     * OpenSSL (openssl, openssl@3.0.22; raw-openssl for raw-openssl@...),
     * for the Markdown's version ratio; else SIZE_MAX. */
    size_t version_base;
    /* openssl@VERSION, raw-openssl@VERSION on another libcrypto: its
     * worker process (bench_worker.c), index + 1; 0: measured in this
     * process. requested: the name as given ("openssl@3.5"; name holds the
     * version loaded, "openssl@3.5.7", and any +VAR=VALUE, the worker's
     * environment); "" for other targets. */
    size_t worker;
    char requested[64];
    char description_buf[320];
    const char *description;
    bool supports[BENCH_MAX_OPS]; /* by index into bench_ops */
} bench_target;

typedef struct bench_result {
    size_t op;     /* index into bench_ops */
    size_t size;   /* 0 for unsized */
    size_t target; /* index into run->targets */
    bool ok;
    char error[160];
    size_t samples, batch;
    bench_summary s; /* per-operation nanoseconds */
    double ops_per_s, mb_per_s;
    bool has_checksum;
    uint32_t checksum; /* FNV-1a of one output, for cross-checking targets */
    /* BENCH_CROSS_VERIFY: one output, checked by every other target */
    bool has_output;
    uint8_t output[512]; /* RSA up to 4096 bits */
    size_t output_len;
    /* --threads N > 1: one thread and N threads measured the same way, in
     * alternating slices (bench_measure.c, measure_threads) */
    unsigned threads;
    double mt_slice_ms;   /* the slices' length */
    bench_scaling mt;     /* per-round ops/s of 1 and N threads, the ratios */
    double mt_median_ns;  /* per-op time of one thread among N: median over threads and rounds */
    double mt_others_cpu; /* CPUs used by other processes during the rounds; NAN: unknown */
} bench_result;

typedef struct bench_config {
    size_t sizes[64];
    size_t nsizes;
    unsigned iterations;    /* measured samples per cell before scaling */
    unsigned min_samples;   /* never fewer (unless --iterations is smaller) */
    double warmup_ms;       /* warm-up: at least this long ... */
    unsigned warmup_calls;  /* ... and at least this many calls */
    double max_cell_ms;     /* measuring budget per cell, scales samples down */
    double sample_ns;       /* a timed sample lasts at least this: batching */
    unsigned threads;
    unsigned mt_rounds;     /* --threads: rounds of (1 thread, N threads) slices */
    double mt_slice_ms;     /* --threads: length of one slice */
    double tie;             /* crossovers: relative differences up to this are ties */
    uint32_t pbkdf2_iterations;
    const char *reference;
    const char *json_path, *csv_path, *svg_path, *markdown_path;
    /* The command line as given (argv[0] = the program name), for the
     * Markdown output's "command:" line. */
    int argc;
    char **argv;
    /* The SVG's crossover lines: between backends only (default), every
     * pair of targets, or none. */
    enum { BENCH_SVG_CROSS_BACKENDS, BENCH_SVG_CROSS_ALL, BENCH_SVG_CROSS_NONE } svg_crossovers;
    bool quiet;
    bool interleave; /* --interleave: the in-process targets' samples of a cell in rounds */
    /* --openssl-dir VERSION=DIR: where openssl@VERSION's libcrypto is
     * (DIR/lib); else WEBCRYPTO_BENCH_OPENSSL_<VERSION, dots as _>. */
    struct {
        char version[16];
        const char *dir;
    } openssl_dirs[8];
    size_t nopenssl_dirs;
} bench_config;

typedef struct bench_sysinfo {
    char cpu_model[80];
    char cpu_features[128];
    long cores;
    char os[128];
    char compiler[128];
    char build_type[32];
    bool build_type_ok;
    bool sanitized;
    char date[40];
    char load[64]; /* /proc/loadavg's 1, 5, 15 min at the start: other work skews results */
    char load_end[64]; /* the same at the end of the run */
    /* Other processes' CPU use over the run (bench_others_cpu): NAN when
     * /proc/stat is not readable. */
    double others_cpu;
    double run_s, self_cpu_s; /* the run's wall time and this process's CPU time */
} bench_sysinfo;

/* Others' average CPU use above this (in CPUs) is warned about. */
#define BENCH_OTHERS_WARN 0.10

typedef struct bench_run {
    bench_config cfg;
    bench_sysinfo sys;
    bench_target targets[BENCH_MAX_TARGETS];
    size_t ntargets;
    size_t ref;  /* index of the reference target, or SIZE_MAX */
    size_t raw;  /* index of raw-openssl, or SIZE_MAX */
    bool op_selected[BENCH_MAX_OPS];
    bench_result *results;
    size_t nresults, cap;
    bool interrupted;
    /* Output checks: results whose checksum was compared with another
     * target's; randomized outputs checked by a target, and failures. */
    size_t compared_checksums, cross_checks, cross_failures;
    char keys[256]; /* bench_keys_describe at the end of the run */
} bench_run;

void bench_sysinfo_collect(bench_sysinfo *si);
/* "0.52 0.61 0.70" from /proc/loadavg, or "unknown". */
void bench_read_load(char *buf, size_t cap);

/* A snapshot of the machine's and this process's CPU time, for
 * bench_others_cpu. ok is false when /proc/stat is not readable. */
typedef struct bench_cpu_mark {
    bool ok;
    bench_cpu_times machine;
    double self_s; /* getrusage(RUSAGE_SELF): user + system, every thread */
    double wall_ns; /* CLOCK_MONOTONIC */
} bench_cpu_mark;
void bench_cpu_mark_take(bench_cpu_mark *m);
/* Others' average CPU use (in CPUs) between two marks; NAN if unknown. */
double bench_cpu_mark_others(const bench_cpu_mark *a, const bench_cpu_mark *b);

/* The result for (op, size, target), or NULL if none was measured. */
const bench_result *bench_find(const bench_run *run, size_t op, size_t size, size_t target);
/* Whether op is measured at size (sized ops: the --sizes within its limit). */
bool bench_op_has_size(const bench_op *op, size_t size);

/* "16 B", "1 KiB", "1.5 MiB" */
void bench_format_size(double bytes, char *buf, size_t cap);

void bench_print_header(const bench_run *run, FILE *f);
void bench_print_table(const bench_run *run, FILE *f);
void bench_print_summary(const bench_run *run, FILE *f);
int bench_write_json(const bench_run *run, const char *path);
int bench_write_csv(const bench_run *run, const char *path);
int bench_write_svg(const bench_run *run, const char *path);
int bench_write_markdown(const bench_run *run, const char *path);

/* ---- the run's helpers ----
 * bench.c (webcrypto_bench_main, the run) calls these; they call nothing in
 * bench.c. */

/* bench_stubs.c: whether the raw-boringssl baseline is built. */
extern const bool rawb_built;

/* bench_options.c: the options, the selection of operations and targets. */
/* Prints "PROG: message (see --help)" on stderr; returns 2. */
int usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int parse_uint(const char *s, unsigned long long max, unsigned long long *out);
int parse_sizes(const char *list, bench_config *cfg);
int parse_warmup(const char *spec, bench_config *cfg);
int select_ops(const char *list, bench_run *run);
/* The jvm target standing for a jca target ("jca:BC" -> "jvm:BC"). */
bool jvm_name_for(const char *backend, char *buf, size_t cap);
int add_target(bench_run *run, const char *name, bool explicit_choice);
int select_targets(const char *list, bench_run *run);
bool target_supports(const bench_target *t, const bench_op *op);
const bench_impl *impl_for(const bench_target *t, const bench_op *op);
void list_everything(const bench_config *cfg); /* --list */

/* bench_worker.c: targets on another OpenSSL (openssl@3.5), measured by a
 * worker process. bench_versioned_target fills t for name ("openssl@3.5",
 * "raw-openssl@3.0"): in this process when its libcrypto is that version
 * and no directory is given, else by a worker; 0, or -1 with why. */
int bench_versioned_target(bench_run *run, bench_target *t, const char *name, char *why,
                           size_t cap);
/* The OpenSSL versions given a directory (--openssl-dir, then
 * WEBCRYPTO_BENCH_OPENSSL_*), at most max: their count. */
size_t bench_openssl_versions(const bench_config *cfg, char (*versions)[16], const char **dirs,
                              size_t max);
bool bench_worker_supports(const bench_target *t, size_t op);
/* One cell measured by t's worker into r (r->ok false and r->error: why). */
void bench_worker_measure(const bench_target *t, size_t op, size_t size, size_t target,
                          bench_result *r);
/* impl->check of t's worker on another target's output: 0, or -1 after
 * bench_fail(). */
int bench_worker_check(const bench_target *t, size_t op, size_t size, const uint8_t *out,
                       size_t out_len);
/* The workers' CPU time so far (seconds), counted as this process's. */
double bench_workers_cpu_s(void);
/* Ends the workers; 1 if one did not exit with status 0 (said on stderr). */
int bench_workers_stop(void);
/* `--worker FDS TARGET`: the worker's side. */
int bench_worker_main(const char *fds, const char *target);

/* bench_measure.c: one cell measured into r; SIGINT's flag and handler. */
extern volatile sig_atomic_t stop_requested;
void on_sigint(int sig);
void measure_cell(const bench_run *run, const bench_target *t, const bench_op *op,
                  bench_cell *c, bench_result *r);
/* --interleave: n cells of one operation and size (n <= BENCH_MAX_TARGETS,
 * in-process targets t[i], cells c[i], into r[i]), each warmed up and sized
 * as measure_cell does, then sampled round by round, one sample of each per
 * round, so that a change in the machine's speed lasting seconds (a VM's
 * host, a sibling thread) falls on all of them alike. */
void measure_cells_interleaved(const bench_run *run, const bench_target *const *t,
                               const bench_op *op, bench_cell *c, bench_result *r, size_t n);

#endif
