/*
 * webcrypto-bench: options, the measuring loop, threads and SIGINT.
 * The method is described in docs/BENCHMARKS.md; in short, per cell
 * (operation x size x target): set up (key import, inputs) untimed, warm up
 * for at least --warmup time and calls while finding a batch size that makes
 * one timed sample last >= sample_ns, then time `samples` batches with
 * CLOCK_MONOTONIC and summarise the per-operation times.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_internal.h"

#ifndef WEBCRYPTO_BENCH_RAW_OPENSSL
const bench_impl *bench_raw_impl(const bench_op *op, bench_raw_mode mode) {
    (void)op;
    (void)mode;
    return NULL;
}
const char *bench_raw_description(void) { return NULL; }
#endif

#ifdef WEBCRYPTO_BENCH_RAW_BORINGSSL
static const bool rawb_built = true;
#else
/* Not built: the boringssl backend (and so its raw module) is not. */
static const bool rawb_built = false;
const char *bench_rawb_description(char *why, size_t cap) {
    snprintf(why, cap, "this build has no raw-boringssl baseline (no boringssl backend)");
    return NULL;
}
const bench_impl *bench_rawb_impl(const bench_op *op) {
    (void)op;
    return NULL;
}
#endif

#ifndef WEBCRYPTO_BENCH_JVM
/* Not built: no jca backend, or no javac for the JcaBench jar. */
int bench_jvm_start(void) { return -1; }
const char *bench_jvm_error(void) {
    return "this build has no jvm baseline (no jca backend or no javac)";
}
int bench_jvm_has_provider(const char *provider, char *why, size_t cap) {
    (void)provider;
    snprintf(why, cap, "%s", bench_jvm_error());
    return -1;
}
void bench_jvm_describe(const char *provider, char *buf, size_t cap) {
    (void)provider;
    snprintf(buf, cap, "-");
}
void bench_jvm_set_warmup(double warmup_ms, unsigned warmup_calls, double max_ms) {
    (void)warmup_ms;
    (void)warmup_calls;
    (void)max_ms;
}
long bench_jvm_jit_ms(void) { return -1; }
bool bench_jvm_supports(const bench_op *op, const char *provider) {
    (void)op;
    (void)provider;
    return false;
}
const bench_impl *bench_jvm_impl(const bench_op *op) {
    (void)op;
    return NULL;
}
#endif

#define MAX_BATCH 1000000u
#define JIT_QUIET_NS 1e9
#define JIT_WAIT_MAX_NS 20e9

static volatile sig_atomic_t stop_requested;

static void on_sigint(int sig) {
    (void)sig;
    stop_requested = 1;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- options ---- */

static const char usage_text[] =
    "usage: %s [options]\n"
    "Measures libwebcrypto operations x input sizes x backends, with OpenSSL called\n"
    "directly (raw-openssl), BoringSSL called directly (raw-boringssl, for the\n"
    "boringssl backend) and, for jca, the JCA called from Java (jvm) as the\n"
    "baselines. Results on stdout, progress on stderr.\n"
    "\n"
    "  --backend NAME[,NAME]  targets: backends, raw-openssl, raw-openssl-keyed,\n"
    "                         raw-openssl-reused, raw-boringssl, and jvm /\n"
    "                         jvm:PROVIDER: the jca\n"
    "                         backend's operations made by Java code in its JVM,\n"
    "                         timed in Java (default: every backend, raw-openssl,\n"
    "                         raw-boringssl when the boringssl backend is built and\n"
    "                         starts, jvm when jca is built; raw-openssl-keyed and\n"
    "                         raw-openssl-reused only when named). ovh/raw: boringssl over raw-boringssl\n"
    "                         when measured, every other target over raw-openssl\n"
    "  --op PATTERN[,...]     operations by glob (fnmatch); a pattern without * ? [\n"
    "                         is a prefix: --op aes-gcm, --op '*-encrypt' (default: all)\n"
    "  --sizes LIST           input sizes, suffixes k/m/g (x1024) and optional b/ib:\n"
    "                         --sizes 64,4k,1m,16m (default 16,1k,10k,100k,1m)\n"
    "  --iterations N         measured samples per cell (default 100; scaled down so a\n"
    "                         cell measures for at most --max-time, never below 10)\n"
    "  --warmup SPEC[,SPEC]   warm-up per cell: Nms or Ns (time, a bare number is ms)\n"
    "                         and/or Nx (calls); both minimums hold (default 200ms,10x)\n"
    "  --max-time MS          measuring budget per cell (default 1000)\n"
    "  --sample-us US         minimum duration of one timed sample; fast operations\n"
    "                         are batched to reach it (default 50)\n"
    "  --threads N            also measure each cell on N threads sharing one key,\n"
    "                         against one thread, in alternating slices: ops/s of\n"
    "                         both and the scaling (median of per-round ratios);\n"
    "                         adds raw-boringssl, when built, for comparison\n"
    "  --thread-rounds N      rounds of (1 thread, N threads) slices (default 10)\n"
    "  --thread-slice MS      length of one slice (default 50; shortened to fit\n"
    "                         the rounds in --max-time)\n"
    "  --pbkdf2-iterations N  PBKDF2 iteration count (default 1000)\n"
    "  --tie PCT              crossovers ignore differences up to PCT %% (default 3)\n"
    "  --reference NAME       target the speedup column compares with (default openssl)\n"
    "  --json FILE  --csv FILE  --svg FILE   also write the results there\n"
    "  --markdown FILE        also write a Markdown summary there: the command,\n"
    "                         date, machine and load, and a table of the medians\n"
    "                         (and scalings) per operation and size, one column\n"
    "                         per target, with the ovh/raw and ovh/jvm ratios\n"
    "  --svg-crossovers WHICH the chart's crossover lines: backends (between\n"
    "                         backends only, the default), all (baselines too), none\n"
    "  --list                 list the operations and targets, then exit\n"
    "  --quiet                no progress on stderr\n"
    "  --help                 this text\n"
    "Ctrl-C stops the run; what was measured is printed and written.\n";

static int usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int usage_error(const char *prog, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see --help)\n");
    va_end(ap);
    return 2;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out) {
    if (!s || !*s) return -1;
    unsigned long long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        unsigned d = (unsigned)(*p - '0');
        if (v > (max - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* "64", "4k", "4KiB", "1m", "16MB" (k/m/g are powers of 1024). */
static int parse_size(const char *s, size_t len, size_t *out) {
    char buf[32];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    size_t digits = 0;
    while (buf[digits] >= '0' && buf[digits] <= '9') digits++;
    if (digits == 0) return -1;
    const char *suf = buf + digits;
    unsigned long long mult = 1;
    if (*suf) {
        char u = (char)(*suf | 0x20);
        if (u == 'k') mult = 1ull << 10;
        else if (u == 'm') mult = 1ull << 20;
        else if (u == 'g') mult = 1ull << 30;
        else if (u != 'b') return -1;
        if (u != 'b') {
            suf++;
            if ((*suf | 0x20) == 'i') suf++;
            if ((*suf | 0x20) == 'b') suf++;
        } else {
            suf++;
        }
        if (*suf) return -1;
    }
    char num[32];
    memcpy(num, buf, digits);
    num[digits] = 0;
    unsigned long long v;
    /* 1 GiB at most: the raw baseline feeds one int-sized EVP update. */
    if (parse_uint(num, 1ull << 30, &v) || v == 0 || v > (1ull << 30) / mult) return -1;
    *out = (size_t)(v * mult);
    return 0;
}

static int parse_sizes(const char *list, bench_config *cfg) {
    cfg->nsizes = 0;
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t v;
        if (cfg->nsizes == sizeof cfg->sizes / sizeof cfg->sizes[0]) return -1;
        if (parse_size(p, n, &v)) return -1;
        /* Keep them sorted and unique: the charts and crossovers need it. */
        size_t i = cfg->nsizes;
        bool dup = false;
        for (size_t k = 0; k < cfg->nsizes; k++) dup |= cfg->sizes[k] == v;
        if (!dup) {
            while (i > 0 && cfg->sizes[i - 1] > v) {
                cfg->sizes[i] = cfg->sizes[i - 1];
                i--;
            }
            cfg->sizes[i] = v;
            cfg->nsizes++;
        }
        p += n;
        if (*p == ',') p++;
    }
    return cfg->nsizes ? 0 : -1;
}

/* "200ms", "1s", "200", "10x", "200ms,10x" */
static int parse_warmup(const char *spec, bench_config *cfg) {
    bool have_time = false, have_calls = false;
    const char *p = spec;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char buf[32];
        if (n == 0 || n >= sizeof buf) return -1;
        memcpy(buf, p, n);
        buf[n] = 0;
        size_t d = 0;
        while (buf[d] >= '0' && buf[d] <= '9') d++;
        char suf[8];
        if (strlen(buf + d) >= sizeof suf) return -1;
        strcpy(suf, buf + d);
        buf[d] = 0;
        unsigned long long v;
        if (parse_uint(buf, 100000000ull, &v)) return -1;
        if (strcmp(suf, "x") == 0) {
            cfg->warmup_calls = (unsigned)v;
            have_calls = true;
        } else if (strcmp(suf, "ms") == 0 || *suf == 0) {
            cfg->warmup_ms = (double)v;
            have_time = true;
        } else if (strcmp(suf, "s") == 0) {
            cfg->warmup_ms = (double)v * 1000;
            have_time = true;
        } else {
            return -1;
        }
        p += n;
        if (*p == ',') p++;
    }
    /* Giving only one of them replaces the other by 0: the user asked for
     * exactly that warm-up. */
    if (have_time && !have_calls) cfg->warmup_calls = 0;
    if (have_calls && !have_time) cfg->warmup_ms = 0;
    return have_time || have_calls ? 0 : -1;
}

static bool is_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }

static int select_ops(const char *list, bench_run *run) {
    memset(run->op_selected, 0, sizeof run->op_selected);
    size_t any = 0;
    char *copy = strdup(list), *save = NULL;
    if (!copy) return -1;
    for (char *pat = strtok_r(copy, ",", &save); pat; pat = strtok_r(NULL, ",", &save)) {
        size_t hits = 0;
        for (size_t i = 0; i < bench_op_count; i++) {
            bool m = is_glob(pat) ? fnmatch(pat, bench_ops[i].name, 0) == 0
                                  : strncasecmp(pat, bench_ops[i].name, strlen(pat)) == 0;
            if (m) {
                run->op_selected[i] = true;
                hits++;
            }
        }
        if (!hits) fprintf(stderr, "warning: --op %s matches no operation\n", pat);
        any += hits;
    }
    free(copy);
    return any ? 0 : -1;
}

/* "jvm" or "jvm:PROVIDER". */
static bool is_jvm_name(const char *name) {
    size_t n = strlen(BENCH_JVM_NAME);
    return strncmp(name, BENCH_JVM_NAME, n) == 0 &&
           (name[n] == 0 || (name[n] == ':' && name[n + 1]));
}

/* The jvm target standing for a jca target: "jca" -> "jvm", "jca:BC" ->
 * "jvm:BC"; false for other names. */
static bool jvm_name_for(const char *backend, char *buf, size_t cap) {
    if (strncmp(backend, "jca", 3) != 0 || (backend[3] != 0 && backend[3] != ':')) return false;
    snprintf(buf, cap, "%s%s", BENCH_JVM_NAME, backend + 3);
    return true;
}

static int add_target(bench_run *run, const char *name, bool explicit_choice) {
    if (run->ntargets == BENCH_MAX_TARGETS) return -1;
    for (size_t i = 0; i < run->ntargets; i++)
        if (strcmp(run->targets[i].name, name) == 0) return 0;
    bench_target *t = &run->targets[run->ntargets];
    memset(t, 0, sizeof *t);
    if (strcmp(name, BENCH_RAW_NAME) == 0 || strcmp(name, BENCH_RAW_KEYED_NAME) == 0 ||
        strcmp(name, BENCH_RAW_REUSED_NAME) == 0) {
        if (!bench_raw_description()) {
            fprintf(stderr, "%s: this build has no raw OpenSSL baseline\n",
                    explicit_choice ? "error" : "warning");
            return explicit_choice ? -1 : 0;
        }
        t->is_raw = true;
        t->raw_mode = strcmp(name, BENCH_RAW_KEYED_NAME) == 0    ? BENCH_RAW_KEYED
                      : strcmp(name, BENCH_RAW_REUSED_NAME) == 0 ? BENCH_RAW_REUSED
                                                                 : BENCH_RAW_PLAIN;
        t->description =
            t->raw_mode == BENCH_RAW_KEYED
                ? "the same EVP calls, but a context keyed once per cell and copied per call "
                  "(HMAC, AES only)"
            : t->raw_mode == BENCH_RAW_REUSED
                ? "OpenSSL's floor: one context per thread and cell, keyed once, only "
                  "re-initialised per call (digests, HMAC, AES only)"
                : bench_raw_description();
    } else if (strcmp(name, BENCH_RAWB_NAME) == 0) {
        char why[1400];
        const char *d = bench_rawb_description(why, sizeof why);
        if (!d) {
            fprintf(stderr, "%s: target %s is not available: %s\n",
                    explicit_choice ? "error" : "warning", name, why);
            return explicit_choice ? -1 : 0;
        }
        t->is_raw = true;
        t->raw_boringssl = true;
        t->description = d;
    } else if (is_jvm_name(name)) {
        size_t n = strlen(BENCH_JVM_NAME);
        const char *prov = name[n] == ':' ? name + n + 1 : "";
        char why[600];
        bool too_long = strlen(prov) >= sizeof t->jvm_provider;
        if (too_long) snprintf(why, sizeof why, "provider name too long");
        if (too_long || bench_jvm_has_provider(prov, why, sizeof why)) {
            fprintf(stderr, "%s: target %s is not available: %s\n",
                    explicit_choice ? "error" : "warning", name, why);
            return explicit_choice ? -1 : 0;
        }
        t->is_jvm = true;
        snprintf(t->jvm_provider, sizeof t->jvm_provider, "%s", prov);
        bench_jvm_describe(prov, t->description_buf, sizeof t->description_buf);
        t->description = t->description_buf;
    } else {
        const webcrypto_backend *b = NULL;
        webcrypto_status st = webcrypto_backend_get(name, &b);
        if (st != WEBCRYPTO_OK) {
            fprintf(stderr, "%s: backend %s is not available: %s\n",
                    explicit_choice ? "error" : "warning", name, webcrypto_error_message());
            return explicit_choice ? -1 : 0;
        }
        t->backend = b;
        t->description = webcrypto_backend_description(b);
    }
    snprintf(t->name, sizeof t->name, "%s", name);
    run->ntargets++;
    return 0;
}

/* The jvm baseline's JVM must exist before the jca backend starts (it is
 * handed over with webcrypto_jca_set_java_vm); without a jvm target the
 * backend starts its own. */
static void start_jvm_if(bool wanted, bool explicit_choice) {
    if (wanted && bench_jvm_start() && !explicit_choice)
        fprintf(stderr, "warning: no jvm baseline: %s\n", bench_jvm_error());
}

static int select_targets(const char *list, bench_run *run) {
    if (!list) {
        /* By default: jvm for jca (and jvm:NAME for jca:NAME, should the
         * list ever hold variants). */
        bool any_jca = false;
        for (size_t i = 0; i < webcrypto_backend_count(); i++)
            any_jca |= strncmp(webcrypto_backend_name_at(i), "jca", 3) == 0;
        start_jvm_if(any_jca, false);
        for (size_t i = 0; i < webcrypto_backend_count(); i++)
            if (add_target(run, webcrypto_backend_name_at(i), false)) return -1;
        if (add_target(run, BENCH_RAW_NAME, false)) return -1;
        /* raw-boringssl, the boringssl backend's baseline, when that backend
         * is a target (built and started). */
        bool have_bssl = false;
        for (size_t i = 0; i < run->ntargets; i++)
            have_bssl |= strcmp(run->targets[i].name, BENCH_BORINGSSL_NAME) == 0;
        if (have_bssl && add_target(run, BENCH_RAWB_NAME, false)) return -1;
        size_t n = run->ntargets;
        for (size_t i = 0; i < n && bench_jvm_start() == 0; i++) {
            char jn[32];
            const char *b = run->targets[i].name;
            if (jvm_name_for(b, jn, sizeof jn) && add_target(run, jn, false))
                return -1;
        }
    } else {
        bool any_jvm = false;
        char *scan = strdup(list), *sv = NULL;
        if (!scan) return -1;
        for (char *n = strtok_r(scan, ",", &sv); n; n = strtok_r(NULL, ",", &sv))
            any_jvm |= is_jvm_name(n);
        free(scan);
        start_jvm_if(any_jvm, true);
        char *copy = strdup(list), *save = NULL;
        if (!copy) return -1;
        for (char *n = strtok_r(copy, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
            if (add_target(run, n, true)) {
                free(copy);
                return -1;
            }
        }
        free(copy);
    }
    return run->ntargets ? 0 : -1;
}

static bool target_supports(const bench_target *t, const bench_op *op) {
    if (t->raw_boringssl) return bench_rawb_impl(op) != NULL;
    if (t->is_raw) return bench_raw_impl(op, t->raw_mode) != NULL;
    if (t->is_jvm) return bench_jvm_impl(op) && bench_jvm_supports(op, t->jvm_provider);
    if (op->alg != WEBCRYPTO_ALG_NONE && !webcrypto_backend_supports(t->backend, op->alg))
        return false;
    if (op->hash != WEBCRYPTO_ALG_NONE && !webcrypto_backend_supports(t->backend, op->hash))
        return false;
    return bench_wc_impl(op) != NULL;
}

static const bench_impl *impl_for(const bench_target *t, const bench_op *op) {
    if (t->is_jvm) return bench_jvm_impl(op);
    if (t->raw_boringssl) return bench_rawb_impl(op);
    return t->is_raw ? bench_raw_impl(op, t->raw_mode) : bench_wc_impl(op);
}

bool bench_op_has_size(const bench_op *op, size_t size) {
    if (!(op->flags & BENCH_SIZED)) return size == 0;
    if ((op->flags & BENCH_MAX_64K) && size > 65536) return false;
    return size > 0;
}

static void list_everything(void) {
    printf("operations:\n");
    for (size_t i = 0; i < bench_op_count; i++)
        printf("  %-26s %s\n", bench_ops[i].name,
               bench_ops[i].flags & BENCH_SIZED ? "" : "(one size)");
    /* Starting each backend tells which are usable here (a module may be
     * missing, a JVM absent). The jvm baseline's JVM first, as in a run. */
    bool any_jca = false;
    for (size_t i = 0; i < webcrypto_backend_count(); i++)
        any_jca |= strncmp(webcrypto_backend_name_at(i), "jca", 3) == 0;
    if (any_jca) (void)bench_jvm_start();
    printf("targets:\n");
    for (size_t i = 0; i < webcrypto_backend_count(); i++) {
        const char *name = webcrypto_backend_name_at(i);
        const webcrypto_backend *b = NULL;
        if (webcrypto_backend_get(name, &b) == WEBCRYPTO_OK)
            printf("  %-18s %s\n", name, webcrypto_backend_description(b));
        else
            printf("  %-18s (unavailable: %s)\n", name, webcrypto_error_message());
    }
    if (bench_raw_description()) {
        printf("  %-18s %s\n", BENCH_RAW_NAME, bench_raw_description());
        printf("  %-18s keyed once per cell (measured only when named in --backend)\n",
               BENCH_RAW_KEYED_NAME);
        printf("  %-18s one context per thread, re-initialised per call (only when named)\n",
               BENCH_RAW_REUSED_NAME);
    }
    if (rawb_built) {
        char why[1400];
        const char *d = bench_rawb_description(why, sizeof why);
        if (d) printf("  %-18s %s\n", BENCH_RAWB_NAME, d);
        else printf("  %-18s (unavailable: %s)\n", BENCH_RAWB_NAME, why);
    }
    /* jvm, and jvm:BC as the one provider variant the build knows of
     * (any jvm:NAME is accepted with --backend, as jca:NAME is). */
    static const char *const jvm_names[] = {BENCH_JVM_NAME, BENCH_JVM_NAME ":BC"};
    for (size_t i = 0; any_jca && i < sizeof jvm_names / sizeof jvm_names[0]; i++) {
        char why[600], desc[200];
        const char *jn = jvm_names[i];
        const char *prov = strchr(jn, ':') ? strchr(jn, ':') + 1 : "";
        if (bench_jvm_has_provider(prov, why, sizeof why) == 0) {
            bench_jvm_describe(prov, desc, sizeof desc);
            printf("  %-18s %s\n", jn, desc);
        } else {
            printf("  %-18s (unavailable: %s)\n", jn, why);
        }
    }
}

/* ---- measuring ---- */

static uint32_t fnv1a(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Runs batch calls; returns their duration in ns, or -1 on failure. */
static double timed_batch(const bench_impl *impl, const bench_cell *c, uint8_t *out,
                          size_t batch) {
    if (impl->batch) return impl->batch(c, batch);
    size_t len = 0;
    double t0 = now_ns();
    for (size_t i = 0; i < batch; i++)
        if (impl->run(c, out, &len)) return -1;
    return now_ns() - t0;
}

/* ---- --threads: one thread against N, interleaved ----
 * A pool of N threads shares the cell (one key, one input; each its own
 * output buffer). The coordinator runs rounds; each round is one slice with
 * thread 0 alone and one slice with all N, in alternating order (1, N, then
 * N, 1, ...: a drift of the machine's speed hits both sides alike). A
 * slice is one window of wall time for all its threads, opened by the
 * first of them to wake: each active thread runs batches from when it wakes
 * until the common deadline (at least one batch if it woke before it), so a
 * thread the scheduler starts late does less, instead of running after the
 * others; the slice's ops/s are all its
 * calls / (last end - first start), the same formula for 1 and N threads. */
typedef struct mt_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* workers wait for a slice; the coordinator for its end */
    const bench_impl *impl;
    const bench_cell *cell;
    size_t batch;
    unsigned ready;    /* workers started (and warmed up) */
    unsigned gen;      /* bumped to start a slice */
    unsigned active;   /* threads 0..active-1 run this slice */
    unsigned finished; /* of those */
    double slice_ns;
    double deadline;   /* of this slice, CLOCK_MONOTONIC ns; 0 until its first thread wakes */
    bool quit;
} mt_pool;

typedef struct mt_worker_state {
    mt_pool *pool;
    unsigned idx;
    double start, end, calls; /* of the last slice this thread ran */
    int failed;
    char error[128];
} mt_worker_state;

static void *mt_worker(void *p) {
    mt_worker_state *w = p;
    mt_pool *pool = w->pool;
    uint8_t *out = malloc(pool->cell->out_cap ? pool->cell->out_cap : 1);
    /* A short warm-up of this thread (caches, per-thread library state);
     * the cell itself is already warm. */
    if (!out) {
        w->failed = 1;
        snprintf(w->error, sizeof w->error, "out of memory");
    } else if (timed_batch(pool->impl, pool->cell, out, pool->batch) < 0) {
        w->failed = 1;
        snprintf(w->error, sizeof w->error, "%s", bench_last_error());
    }
    pthread_mutex_lock(&pool->mu);
    pool->ready++;
    pthread_cond_broadcast(&pool->cv);
    unsigned seen = 0;
    for (;;) {
        while (!pool->quit && pool->gen == seen) pthread_cond_wait(&pool->cv, &pool->mu);
        if (pool->quit) break;
        seen = pool->gen;
        bool mine = w->idx < pool->active;
        double deadline = 0;
        if (mine) {
            w->calls = 0;
            w->start = now_ns();
            if (pool->deadline == 0) pool->deadline = w->start + pool->slice_ns;
            deadline = pool->deadline;
        }
        pthread_mutex_unlock(&pool->mu);
        if (mine) {
            double t = w->start;
            /* At least one batch when on time, so that a slow operation
             * still counts. */
            while (!w->failed && w->start < deadline) {
                if (timed_batch(pool->impl, pool->cell, out, pool->batch) < 0) {
                    w->failed = 1;
                    snprintf(w->error, sizeof w->error, "%s", bench_last_error());
                    break;
                }
                w->calls += (double)pool->batch;
                t = now_ns();
                if (t >= deadline || stop_requested) break;
            }
            w->end = t;
        }
        pthread_mutex_lock(&pool->mu);
        if (mine) {
            pool->finished++;
            pthread_cond_broadcast(&pool->cv);
        }
    }
    pthread_mutex_unlock(&pool->mu);
    free(out);
    return NULL;
}

/* Runs one slice on threads 0..k-1; returns its ops/s (0: no call done), or
 * -1 if a thread failed. per_op, if not NULL, receives the ns per operation
 * of each thread that ran, *nper their number. */
static double mt_slice(mt_pool *pool, mt_worker_state *ws, unsigned k, double *per_op,
                       size_t *nper) {
    pthread_mutex_lock(&pool->mu);
    pool->active = k;
    pool->finished = 0;
    pool->deadline = 0;
    pool->gen++;
    pthread_cond_broadcast(&pool->cv);
    while (pool->finished < k) pthread_cond_wait(&pool->cv, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    double first = INFINITY, last = 0, calls = 0;
    size_t np = 0;
    for (unsigned i = 0; i < k; i++) {
        if (ws[i].failed) return -1;
        if (ws[i].calls == 0) continue; /* woke after the deadline */
        if (ws[i].start < first) first = ws[i].start;
        if (ws[i].end > last) last = ws[i].end;
        calls += ws[i].calls;
        if (per_op) per_op[np++] = (ws[i].end - ws[i].start) / ws[i].calls;
    }
    if (nper) *nper = np;
    return last > first ? calls / ((last - first) / 1e9) : 0;
}

/* The rounds: --thread-rounds (default 10) within the cell budget; a slice
 * lasts --thread-slice (default 50 ms), shortened so that all the rounds fit
 * in --max-time, but at least one batch; an operation so slow that even that
 * overflows the budget gets fewer rounds, never fewer than 3. */
static int measure_threads(const bench_run *run, const bench_impl *impl, const bench_cell *c,
                           bench_result *r) {
    const bench_config *cfg = &run->cfg;
    unsigned n = cfg->threads;
    double per_batch = r->s.median * (double)r->batch;
    double budget = cfg->max_cell_ms * 1e6;
    double slice = fmin(cfg->mt_slice_ms * 1e6, budget / (2.0 * cfg->mt_rounds));
    if (slice < per_batch) slice = per_batch;
    size_t rounds = cfg->mt_rounds;
    double fit = floor(budget / (2 * slice));
    if ((double)rounds > fit) rounds = fit < 3 ? 3 : (size_t)fit;
    mt_worker_state *ws = calloc(n, sizeof *ws);
    pthread_t *tids = calloc(n, sizeof *tids);
    double *one = calloc(rounds, sizeof *one), *many = calloc(rounds, sizeof *many);
    double *per_op = calloc(rounds * n, sizeof *per_op);
    mt_pool pool = {.impl = impl, .cell = c, .batch = r->batch, .slice_ns = slice};
    int rc = -1;
    unsigned started = 0;
    bool sync = false;
    if (!ws || !tids || !one || !many || !per_op) {
        snprintf(r->error, sizeof r->error, "threads: out of memory");
        goto done;
    }
    if (pthread_mutex_init(&pool.mu, NULL) != 0) goto done;
    if (pthread_cond_init(&pool.cv, NULL) != 0) {
        pthread_mutex_destroy(&pool.mu);
        goto done;
    }
    sync = true;
    for (unsigned i = 0; i < n; i++) {
        ws[i] = (mt_worker_state){.pool = &pool, .idx = i};
        if (pthread_create(&tids[i], NULL, mt_worker, &ws[i]) != 0) break;
        started++;
    }
    pthread_mutex_lock(&pool.mu);
    while (pool.ready < started) pthread_cond_wait(&pool.cv, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
    if (started < n) {
        snprintf(r->error, sizeof r->error, "threads: could only start %u of %u", started, n);
        goto stop;
    }
    for (unsigned i = 0; i < n; i++)
        if (ws[i].failed) {
            snprintf(r->error, sizeof r->error, "thread %u: %s", i, ws[i].error);
            goto stop;
        }
    /* One untimed slice on all threads: every thread past its first calls. */
    if (mt_slice(&pool, ws, n, NULL, NULL) < 0) goto failed;
    bench_cpu_mark m0, m1;
    bench_cpu_mark_take(&m0);
    size_t done = 0, nper = 0;
    for (size_t i = 0; i < rounds && !stop_requested; i++) {
        for (int half = 0; half < 2; half++) {
            bool single = (half == 0) == (i % 2 == 0);
            size_t np = 0;
            double v = mt_slice(&pool, ws, single ? 1 : n, single ? NULL : per_op + nper, &np);
            if (v < 0) goto failed;
            if (single) one[i] = v;
            else {
                many[i] = v;
                nper += np;
            }
        }
        done++;
    }
    bench_cpu_mark_take(&m1);
    if (stop_requested || bench_scaling_summarize(one, many, done, &r->mt)) goto stop;
    r->threads = n;
    r->mt_slice_ms = slice / 1e6;
    r->mt_median_ns = bench_median(per_op, nper);
    r->mt_others_cpu = bench_cpu_mark_others(&m0, &m1);
    rc = 0;
    goto stop;
failed:
    for (unsigned i = 0; i < n; i++)
        if (ws[i].failed) {
            snprintf(r->error, sizeof r->error, "thread %u: %s", i, ws[i].error);
            break;
        }
stop:
    pthread_mutex_lock(&pool.mu);
    pool.quit = true;
    pthread_cond_broadcast(&pool.cv);
    pthread_mutex_unlock(&pool.mu);
    for (unsigned i = 0; i < started; i++) pthread_join(tids[i], NULL);
done:
    if (sync) {
        pthread_cond_destroy(&pool.cv);
        pthread_mutex_destroy(&pool.mu);
    }
    free(ws);
    free(tids);
    free(one);
    free(many);
    free(per_op);
    return rc;
}

static void measure_cell(const bench_run *run, const bench_target *t, const bench_op *op,
                         bench_cell *c, bench_result *r) {
    const bench_config *cfg = &run->cfg;
    const bench_impl *impl = impl_for(t, op);
    uint8_t *out = NULL;
    double *times = NULL;
    r->ok = false;
    if (impl->setup(c)) {
        snprintf(r->error, sizeof r->error, "setup: %s", bench_last_error());
        goto done;
    }
    out = malloc(c->out_cap ? c->out_cap : 1);
    if (!out) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto done;
    }
    /* Warm-up, discarded, finding the batch size on the way. The per-op
     * estimate is the median of the last few warm-up batches, so that one
     * preempted batch does not shrink the batch size. */
    size_t batch = 1;
    double spent = 0, calls = 0, recent[15];
    size_t nrecent = 0;
    /* jca and jvm cells: also until the JVM's JIT has compiled nothing for
     * a second (or --max-time, if shorter; wall clock), at most 20 s (or ten
     * times --max-time): C2 recompiles SunJCE's paths at every new input
     * size, for seconds on 2 shared CPUs, and a cell measured meanwhile
     * gives a ratio of two moving targets (docs/BENCHMARKS.md, "jca over
     * jvm"). Not when --warmup asks for under 100 ms (a smoke run). */
    const bool jit_wait =
        (t->is_jvm || strncmp(t->name, "jca", 3) == 0) && cfg->warmup_ms >= 100;
    const double jit_quiet_ns = fmin(JIT_QUIET_NS, cfg->max_cell_ms * 1e6),
                 jit_wait_max_ns = fmin(JIT_WAIT_MAX_NS, 10 * cfg->max_cell_ms * 1e6);
    const double w_start = now_ns();
    double w_quiet = w_start;
    long jit_last = jit_wait ? bench_jvm_jit_ms() : -1;
    for (;;) {
        double t_ns = timed_batch(impl, c, out, batch);
        if (t_ns < 0) {
            snprintf(r->error, sizeof r->error, "%s", bench_last_error());
            goto done;
        }
        spent += t_ns;
        calls += (double)batch;
        recent[nrecent++ % 15] = t_ns / (double)batch;
        if (stop_requested) goto done;
        /* The call minimum (a JIT's steady state) yields to half the cell
         * budget: 10 RSA key generations would take seconds, and an
         * operation that slow is dominated by its arithmetic, not by
         * warming up code. */
        bool jit_quiet = true;
        if (jit_last >= 0) {
            double w = now_ns();
            long jit = bench_jvm_jit_ms();
            if (jit != jit_last) jit_last = jit, w_quiet = w;
            jit_quiet = w - w_quiet >= jit_quiet_ns || w - w_start >= jit_wait_max_ns;
        }
        if (spent >= cfg->warmup_ms * 1e6 &&
            (calls >= cfg->warmup_calls || spent >= cfg->max_cell_ms * 1e6 / 2) && jit_quiet)
            break;
        if (t_ns < cfg->sample_ns && batch < MAX_BATCH) {
            batch *= 2;
            nrecent = 0; /* estimates from smaller batches include more timer overhead */
        }
    }
    double per_op = bench_median(recent, nrecent < 15 ? nrecent : 15);
    if (!(per_op > 0)) per_op = 1;
    double want = ceil(cfg->sample_ns / per_op);
    batch = want < 1 ? 1 : want > MAX_BATCH ? MAX_BATCH : (size_t)want;
    /* Samples: --iterations, fewer if that would exceed the cell budget. */
    size_t samples = cfg->iterations;
    double fit = floor(cfg->max_cell_ms * 1e6 / (per_op * (double)batch));
    if ((double)samples > fit) {
        size_t floor_n = cfg->min_samples < cfg->iterations ? cfg->min_samples : cfg->iterations;
        samples = fit < (double)floor_n ? floor_n : (size_t)fit;
    }
    times = malloc(samples * sizeof *times);
    if (!times) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < samples; i++) {
        double t_ns = timed_batch(impl, c, out, batch);
        if (t_ns < 0) {
            snprintf(r->error, sizeof r->error, "%s", bench_last_error());
            goto done;
        }
        times[i] = t_ns / (double)batch;
        if (stop_requested) goto done; /* an unfinished cell is dropped */
    }
    if (bench_summarize(times, samples, &r->s)) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto done;
    }
    r->samples = samples;
    r->batch = batch;
    r->ops_per_s = 1e9 / r->s.median;
    r->mb_per_s = (double)c->size / (r->s.median / 1e9) / 1e6;
    /* One more call for the output: its checksum is compared across
     * targets, or (randomized outputs) it is kept for the other targets to
     * check. Other operations (key generation) have nothing to compare. */
    if (op->flags & (BENCH_DETERMINISTIC | BENCH_CROSS_VERIFY)) {
        size_t len = 0;
        if (impl->run(c, out, &len)) {
            snprintf(r->error, sizeof r->error, "%s", bench_last_error());
            goto done;
        }
        if (op->flags & BENCH_DETERMINISTIC) {
            r->has_checksum = true;
            r->checksum = fnv1a(out, len);
        } else if (len <= sizeof r->output) {
            r->has_output = true;
            memcpy(r->output, out, len);
            r->output_len = len;
        }
    }
    /* jvm targets: the JVM's objects are on the thread that made them. */
    if (cfg->threads > 1 && !t->is_jvm && measure_threads(run, impl, c, r)) {
        if (stop_requested) goto done;
        if (!r->error[0]) snprintf(r->error, sizeof r->error, "threads: measurement failed");
        goto done;
    }
    r->ok = true;
done:
    free(times);
    free(out);
    impl->teardown(c);
}

static bench_result *new_result(bench_run *run) {
    if (run->nresults == run->cap) {
        size_t cap = run->cap ? run->cap * 2 : 64;
        bench_result *n = realloc(run->results, cap * sizeof *n);
        if (!n) return NULL;
        run->results = n;
        run->cap = cap;
    }
    bench_result *r = &run->results[run->nresults];
    memset(r, 0, sizeof *r);
    return r;
}

const bench_result *bench_find(const bench_run *run, size_t op, size_t size, size_t target) {
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        if (r->ok && r->op == op && r->size == size && r->target == target) return r;
    }
    return NULL;
}

static void fmt_time(double ns, char *buf, size_t cap) {
    if (ns < 1e3) snprintf(buf, cap, "%.1f ns", ns);
    else if (ns < 1e6) snprintf(buf, cap, "%.2f us", ns / 1e3);
    else if (ns < 1e9) snprintf(buf, cap, "%.2f ms", ns / 1e6);
    else snprintf(buf, cap, "%.2f s", ns / 1e9);
}

/* Randomized outputs (RSA-PSS and ECDSA signatures, RSA-OAEP ciphertexts)
 * differ per call, so instead of comparing checksums every target checks
 * every target's kept output (its own included): verifies the signature,
 * decrypts the ciphertext to the message. One set-up per (cell, target). */
static void cross_verify(bench_run *run, const uint8_t *data) {
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *me = &run->results[i];
        const bench_op *op = &bench_ops[me->op];
        if (!me->ok || !(op->flags & BENCH_CROSS_VERIFY)) continue;
        const bench_target *t = &run->targets[me->target];
        const bench_impl *impl = impl_for(t, op);
        if (!impl->check) continue;
        bench_cell c;
        bench_cell_init(&c, op, t->backend, me->size, data, run->cfg.pbkdf2_iterations);
        bool ready = impl->setup(&c) == 0;
        for (size_t j = 0; j < run->nresults; j++) {
            const bench_result *other = &run->results[j];
            if (!other->ok || !other->has_output || other->op != me->op ||
                other->size != me->size)
                continue;
            run->cross_checks++;
            if (ready && impl->check(&c, other->output, other->output_len) == 0) continue;
            run->cross_failures++;
            fprintf(stderr, "error: %s: the output of %s does not check on %s: %s\n", op->name,
                    run->targets[other->target].name, t->name, bench_last_error());
        }
        impl->teardown(&c);
    }
}

/* Returns 0, or 1 if a cell failed. */
static int run_all(bench_run *run) {
    const bench_config *cfg = &run->cfg;
    size_t max_size = BENCH_MSG_LEN; /* the asymmetric operations' message */
    for (size_t i = 0; i < cfg->nsizes; i++)
        if (cfg->sizes[i] > max_size) max_size = cfg->sizes[i];
    uint8_t *data = malloc(max_size);
    if (!data) {
        fprintf(stderr, "error: out of memory for %zu bytes of input\n", max_size);
        return 1;
    }
    /* Every size's input is a prefix of the same stream. */
    bench_stream(BENCH_DATA_SEED, data, max_size);
    size_t total = 0, done = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t o = 0; o < bench_op_count; o++) {
            if (!run->op_selected[o]) continue;
            const bench_op *op = &bench_ops[o];
            size_t nsz = op->flags & BENCH_SIZED ? cfg->nsizes : 1;
            for (size_t k = 0; k < nsz; k++) {
                size_t size = op->flags & BENCH_SIZED ? cfg->sizes[k] : 0;
                if (!bench_op_has_size(op, size)) continue;
                for (size_t ti = 0; ti < run->ntargets; ti++) {
                    const bench_target *t = &run->targets[ti];
                    if (!t->supports[o]) continue;
                    if (pass == 0) {
                        total++;
                        continue;
                    }
                    if (stop_requested) goto out;
                    done++;
                    char sz[32] = "-";
                    if (size) bench_format_size((double)size, sz, sizeof sz);
                    bool tty = isatty(STDERR_FILENO);
                    if (!cfg->quiet)
                        fprintf(stderr, "%s[%zu/%zu] %s %s %s ...", tty ? "\r\033[K" : "", done,
                                total, op->name, sz, t->name);
                    bench_result *r = new_result(run);
                    if (!r) {
                        fprintf(stderr, "error: out of memory\n");
                        goto out;
                    }
                    r->op = o;
                    r->size = size;
                    r->target = ti;
                    bench_cell c;
                    bench_cell_init(&c, op, t->backend, size, data, cfg->pbkdf2_iterations);
                    if (t->is_jvm && t->jvm_provider[0]) c.jvm_provider = t->jvm_provider;
                    measure_cell(run, t, op, &c, r);
                    if (stop_requested && !r->ok) {
                        if (!cfg->quiet) fprintf(stderr, " interrupted\n");
                        goto out;
                    }
                    run->nresults++;
                    if (!cfg->quiet) {
                        char m[32];
                        fmt_time(r->s.median, m, sizeof m);
                        fprintf(stderr, " %s%s", r->ok ? m : "FAILED", tty ? "" : "\n");
                    }
                    if (!r->ok)
                        fprintf(stderr, "%serror: %s %s on %s: %s\n", tty ? "\n" : "", op->name,
                                sz, t->name, r->error);
                }
            }
        }
    }
out:
    if (!cfg->quiet && isatty(STDERR_FILENO)) fprintf(stderr, "\r\033[K");
    cross_verify(run, data);
    free(data);
    if (stop_requested) run->interrupted = true;
    int failed = 0;
    for (size_t i = 0; i < run->nresults; i++) failed |= !run->results[i].ok;
    return failed;
}

/* Cross-checks outputs: every target must produce the same bytes for the
 * same deterministic operation and size (same key, IV, input). */
static int check_outputs(bench_run *run) {
    int bad = run->cross_failures ? 1 : 0;
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *a = &run->results[i];
        if (!a->ok || !a->has_checksum) continue;
        bool compared = false;
        for (size_t j = 0; j < run->nresults; j++) {
            const bench_result *b = &run->results[j];
            if (j == i || !b->ok || !b->has_checksum || b->op != a->op || b->size != a->size)
                continue;
            compared = true;
            if (j > i && b->checksum != a->checksum) {
                fprintf(stderr, "error: %s at %zu bytes: %s and %s give different outputs\n",
                        bench_ops[a->op].name, a->size, run->targets[a->target].name,
                        run->targets[b->target].name);
                bad = 1;
            }
        }
        if (compared) run->compared_checksums++;
    }
    return bad;
}

int webcrypto_bench_main(int argc, char **argv) {
    const char *prog = argc > 0 && argv[0] ? argv[0] : "webcrypto-bench";
    bench_run *run = calloc(1, sizeof *run);
    if (!run) return 1;
    bench_config *cfg = &run->cfg;
    static const size_t default_sizes[] = {16, 1024, 10 * 1024, 100 * 1024, 1024 * 1024};
    memcpy(cfg->sizes, default_sizes, sizeof default_sizes);
    cfg->nsizes = sizeof default_sizes / sizeof default_sizes[0];
    cfg->iterations = 100;
    cfg->min_samples = 10;
    cfg->warmup_ms = 200;
    cfg->warmup_calls = 10;
    cfg->max_cell_ms = 1000;
    cfg->sample_ns = 50e3;
    cfg->threads = 1;
    cfg->mt_rounds = 10;
    cfg->mt_slice_ms = 50;
    cfg->tie = 0.03;
    cfg->pbkdf2_iterations = 1000;
    cfg->reference = "openssl";
    cfg->argc = argc;
    cfg->argv = argv;
    const char *backends = NULL, *ops = NULL;
    bool list = false;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char name[32];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
            a = name;
        }
        static const char *const flags[] = {"--help", "-h", "--list", "--quiet"};
        bool is_flag = false;
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            is_flag |= strcmp(a, flags[k]) == 0;
        if (is_flag) {
            if (val) {
                rc = usage_error(prog, "option %s takes no value", a);
                goto end;
            }
            if (strcmp(a, "--list") == 0) list = true;
            else if (strcmp(a, "--quiet") == 0) cfg->quiet = true;
            else {
                printf(usage_text, prog);
                goto end;
            }
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            rc = usage_error(prog, "unexpected argument %s", a);
            goto end;
        }
        if (!val) {
            if (i + 1 >= argc) {
                rc = usage_error(prog, "option %s needs a value", a);
                goto end;
            }
            val = argv[++i];
        }
        unsigned long long v;
        if (strcmp(a, "--backend") == 0) backends = val;
        else if (strcmp(a, "--op") == 0) ops = val;
        else if (strcmp(a, "--sizes") == 0) {
            if (parse_sizes(val, cfg)) {
                rc = usage_error(prog, "--sizes: bad size list %s (1 B to 1 GiB each)", val);
                goto end;
            }
        } else if (strcmp(a, "--iterations") == 0) {
            if (parse_uint(val, 100000000ull, &v) || v == 0) {
                rc = usage_error(prog, "--iterations: not a positive number: %s", val);
                goto end;
            }
            cfg->iterations = (unsigned)v;
        } else if (strcmp(a, "--warmup") == 0) {
            if (parse_warmup(val, cfg)) {
                rc = usage_error(prog, "--warmup: expected e.g. 200ms, 1s, 10x or 200ms,10x: %s",
                                 val);
                goto end;
            }
        } else if (strcmp(a, "--max-time") == 0) {
            if (parse_uint(val, 86400000ull, &v) || v == 0) {
                rc = usage_error(prog, "--max-time: not a positive number of ms: %s", val);
                goto end;
            }
            cfg->max_cell_ms = (double)v;
        } else if (strcmp(a, "--sample-us") == 0) {
            if (parse_uint(val, 10000000ull, &v)) {
                rc = usage_error(prog, "--sample-us: not a number: %s", val);
                goto end;
            }
            cfg->sample_ns = (double)v * 1e3;
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_uint(val, 1024, &v) || v == 0) {
                rc = usage_error(prog, "--threads: expected 1 to 1024: %s", val);
                goto end;
            }
            cfg->threads = (unsigned)v;
        } else if (strcmp(a, "--thread-rounds") == 0) {
            if (parse_uint(val, 100000, &v) || v < 3) {
                rc = usage_error(prog, "--thread-rounds: expected 3 to 100000: %s", val);
                goto end;
            }
            cfg->mt_rounds = (unsigned)v;
        } else if (strcmp(a, "--thread-slice") == 0) {
            if (parse_uint(val, 3600000, &v) || v == 0) {
                rc = usage_error(prog, "--thread-slice: not a positive number of ms: %s", val);
                goto end;
            }
            cfg->mt_slice_ms = (double)v;
        } else if (strcmp(a, "--svg-crossovers") == 0) {
            if (strcmp(val, "backends") == 0) cfg->svg_crossovers = BENCH_SVG_CROSS_BACKENDS;
            else if (strcmp(val, "all") == 0) cfg->svg_crossovers = BENCH_SVG_CROSS_ALL;
            else if (strcmp(val, "none") == 0) cfg->svg_crossovers = BENCH_SVG_CROSS_NONE;
            else {
                rc = usage_error(prog, "--svg-crossovers: expected backends, all or none: %s", val);
                goto end;
            }
        } else if (strcmp(a, "--pbkdf2-iterations") == 0) {
            if (parse_uint(val, UINT32_MAX, &v) || v == 0) {
                rc = usage_error(prog, "--pbkdf2-iterations: not a positive number: %s", val);
                goto end;
            }
            cfg->pbkdf2_iterations = (uint32_t)v;
        } else if (strcmp(a, "--tie") == 0) {
            if (parse_uint(val, 100, &v)) {
                rc = usage_error(prog, "--tie: expected a whole percentage 0 to 100: %s", val);
                goto end;
            }
            cfg->tie = (double)v / 100;
        } else if (strcmp(a, "--reference") == 0) cfg->reference = val;
        else if (strcmp(a, "--json") == 0) cfg->json_path = val;
        else if (strcmp(a, "--csv") == 0) cfg->csv_path = val;
        else if (strcmp(a, "--svg") == 0) cfg->svg_path = val;
        else if (strcmp(a, "--markdown") == 0) cfg->markdown_path = val;
        else {
            rc = usage_error(prog, "unknown option %s", a);
            goto end;
        }
    }
    if (list) {
        list_everything();
        goto end;
    }
    if (select_ops(ops ? ops : "*", run)) {
        rc = usage_error(prog, "--op: no operation matches %s", ops ? ops : "*");
        goto end;
    }
    if (select_targets(backends, run)) {
        rc = usage_error(prog, "--backend: no usable target in %s", backends ? backends : "(all)");
        goto end;
    }
    /* --threads: raw-boringssl's scaling beside ours tells the machine's
     * limit from ours (a second library's figures on the same machine). */
    if (cfg->threads > 1 && rawb_built) {
        bool have = false;
        for (size_t i = 0; i < run->ntargets; i++) have |= run->targets[i].raw_boringssl;
        size_t before = run->ntargets;
        if (!have && add_target(run, BENCH_RAWB_NAME, false) == 0 && run->ntargets > before) {
            run->targets[before].for_scaling = true;
            if (!cfg->quiet)
                fprintf(stderr, "note: %s added for the scaling table (--threads)\n",
                        BENCH_RAWB_NAME);
        }
    }
    bench_jvm_set_warmup(cfg->warmup_ms, cfg->warmup_calls, cfg->max_cell_ms);
    run->ref = run->raw = SIZE_MAX;
    for (size_t i = 0; i < run->ntargets; i++) {
        char jn[32];
        run->targets[i].jvm_base = SIZE_MAX;
        if (!run->targets[i].backend || !jvm_name_for(run->targets[i].name, jn, sizeof jn))
            continue;
        for (size_t k = 0; k < run->ntargets; k++)
            if (strcmp(run->targets[k].name, jn) == 0) run->targets[i].jvm_base = k;
    }
    for (size_t i = 0; i < run->ntargets; i++) {
        for (size_t o = 0; o < bench_op_count; o++)
            run->targets[i].supports[o] = target_supports(&run->targets[i], &bench_ops[o]);
        if (strcmp(run->targets[i].name, cfg->reference) == 0) run->ref = i;
        if (run->targets[i].is_raw && run->targets[i].raw_mode == BENCH_RAW_PLAIN &&
            !run->targets[i].raw_boringssl)
            run->raw = i;
    }
    /* The ovh/raw column's base per target: the boringssl backend over
     * raw-boringssl when that is measured, everything else over raw-openssl. */
    size_t rawb = SIZE_MAX;
    for (size_t i = 0; i < run->ntargets; i++)
        if (run->targets[i].raw_boringssl) rawb = i;
    for (size_t i = 0; i < run->ntargets; i++) {
        bench_target *t = &run->targets[i];
        bool bssl = t->backend && strcmp(t->name, BENCH_BORINGSSL_NAME) == 0;
        t->raw_base = bssl && rawb != SIZE_MAX ? rawb : run->raw;
        if (t->raw_base == i) t->raw_base = SIZE_MAX;
    }
    if (run->ref == SIZE_MAX && !cfg->quiet)
        fprintf(stderr, "note: reference %s is not measured; no speedup column\n",
                cfg->reference);
    bench_sysinfo_collect(&run->sys);
    if (!run->sys.build_type_ok || run->sys.sanitized)
        fprintf(stderr,
                "\n*** WARNING: build type %s%s - these numbers do not represent a Release "
                "build ***\n\n",
                run->sys.build_type, run->sys.sanitized ? " with sanitizers" : "");

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C ends the process at once */
    stop_requested = 0;
    /* An inherited "ignore SIGINT" (nohup, background jobs) is kept. */
    bool catch_int = sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN;
    if (catch_int) sigaction(SIGINT, &sa, NULL);
    if (cfg->threads > 1 && !cfg->quiet)
        fprintf(stderr, "load average %s (1/5/15 min) at start\n", run->sys.load);
    bench_cpu_mark m0, m1;
    bench_cpu_mark_take(&m0);
    int failed = run_all(run);
    bench_cpu_mark_take(&m1);
    if (catch_int) sigaction(SIGINT, &old, NULL);
    bench_read_load(run->sys.load_end, sizeof run->sys.load_end);
    run->sys.run_s = (m1.wall_ns - m0.wall_ns) / 1e9;
    run->sys.self_cpu_s = m1.self_s - m0.self_s;
    run->sys.others_cpu = bench_cpu_mark_others(&m0, &m1);
    if (cfg->threads > 1 && !cfg->quiet)
        fprintf(stderr, "load average %s (1/5/15 min) at end\n", run->sys.load_end);
    /* Other work on the machine shares the cores: figures, and above all
     * scaling, are then not this library's alone. */
    if (run->sys.others_cpu > BENCH_OTHERS_WARN)
        fprintf(stderr,
                "*** WARNING: other processes used %.0f%% of one CPU on average during the run "
                "(%.1f s of CPU in %.1f s; %ld cores): figures are disturbed%s ***\n",
                100 * run->sys.others_cpu, run->sys.others_cpu * run->sys.run_s, run->sys.run_s,
                run->sys.cores, cfg->threads > 1 ? ", scaling above all" : "");

    failed |= check_outputs(run);
    bench_keys_describe(run->keys, sizeof run->keys);
    bench_print_header(run, stdout);
    bench_print_table(run, stdout);
    bench_print_summary(run, stdout);
    if (cfg->json_path && bench_write_json(run, cfg->json_path)) failed = 1;
    if (cfg->csv_path && bench_write_csv(run, cfg->csv_path)) failed = 1;
    if (cfg->svg_path && bench_write_svg(run, cfg->svg_path)) failed = 1;
    if (cfg->markdown_path && bench_write_markdown(run, cfg->markdown_path)) failed = 1;
    if (fflush(stdout) != 0) {
        fprintf(stderr, "error: cannot write stdout: %s\n", strerror(errno));
        failed = 1;
    }
    rc = run->interrupted ? 130 : failed ? 1 : 0;
end:
    bench_keys_free();
    free(run->results);
    free(run);
    return rc;
}
