/*
 * webcrypto-bench: its options (--help's text, sizes, warm-up), the
 * operations and targets they select, which implementation a target has for
 * an operation, and --list.
 */
#define _POSIX_C_SOURCE 200809L
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench_internal.h"

/* ---- options ---- */

int usage_error(const char *prog, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see --help)\n");
    va_end(ap);
    return 2;
}

int parse_uint(const char *s, unsigned long long max, unsigned long long *out) {
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

int parse_sizes(const char *list, bench_config *cfg) {
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
int parse_warmup(const char *spec, bench_config *cfg) {
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

int select_ops(const char *list, bench_run *run) {
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
bool jvm_name_for(const char *backend, char *buf, size_t cap) {
    if (strncmp(backend, "jca", 3) != 0 || (backend[3] != 0 && backend[3] != ':')) return false;
    snprintf(buf, cap, "%s%s", BENCH_JVM_NAME, backend + 3);
    return true;
}

int add_target(bench_run *run, const char *name, bool explicit_choice) {
    if (run->ntargets == BENCH_MAX_TARGETS) return -1;
    for (size_t i = 0; i < run->ntargets; i++)
        if (strcmp(run->targets[i].name, name) == 0) return 0;
    bench_target *t = &run->targets[run->ntargets];
    memset(t, 0, sizeof *t);
    if (strchr(name, '@') && strncmp(name, "jca", 3) != 0) {
        /* openssl@3.5: the openssl backend on that OpenSSL (bench_worker.c) */
        char why[600];
        for (size_t i = 0; i < run->ntargets; i++)
            if (strcmp(run->targets[i].requested, name) == 0) return 0;
        if (bench_versioned_target(run, t, name, why, sizeof why)) {
            fprintf(stderr, "%s: target %s is not available: %s\n",
                    explicit_choice ? "error" : "warning", name, why);
            return explicit_choice ? -1 : 0;
        }
        run->ntargets++;
        return 0;
    }
    if (strcmp(name, BENCH_RAW_NAME) == 0 || strcmp(name, BENCH_RAW_KEYED_NAME) == 0 ||
        strcmp(name, BENCH_RAW_REUSED_NAME) == 0 || strcmp(name, BENCH_RAW_PROVIDER_NAME) == 0) {
        if (!bench_raw_description()) {
            fprintf(stderr, "%s: this build has no raw OpenSSL baseline\n",
                    explicit_choice ? "error" : "warning");
            return explicit_choice ? -1 : 0;
        }
        t->is_raw = true;
        t->raw_mode = strcmp(name, BENCH_RAW_KEYED_NAME) == 0    ? BENCH_RAW_KEYED
                      : strcmp(name, BENCH_RAW_REUSED_NAME) == 0 ? BENCH_RAW_REUSED
                      : strcmp(name, BENCH_RAW_PROVIDER_NAME) == 0 ? BENCH_RAW_PROVIDER
                                                                 : BENCH_RAW_PLAIN;
        t->description =
            t->raw_mode == BENCH_RAW_KEYED
                ? "the same EVP calls, but a context keyed once per cell and copied per call "
                  "(HMAC, AES only)"
            : t->raw_mode == BENCH_RAW_REUSED
                ? "OpenSSL's floor through EVP: one context per thread and cell, keyed once, "
                  "only re-initialised per call (digests, HMAC, AES only)"
            : t->raw_mode == BENCH_RAW_PROVIDER
                ? "OpenSSL's floor below EVP: the provider's own functions, as the openssl "
                  "backend calls them, one context per thread and cell keyed once (SHA, "
                  "AES-GCM/OCB/CBC/CTR, ChaCha20-Poly1305 only)"
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

int select_targets(const char *list, bench_run *run) {
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
        /* openssl@VERSION and raw-openssl@VERSION for each OpenSSL given a
         * directory (--openssl-dir, WEBCRYPTO_BENCH_OPENSSL_*) */
        char vers[16][16];
        const char *dirs[16];
        size_t nv = bench_openssl_versions(&run->cfg, vers, dirs, 16);
        for (size_t i = 0; i < nv; i++) {
            char n[40];
            snprintf(n, sizeof n, "openssl@%s", vers[i]);
            if (add_target(run, n, false)) return -1;
            snprintf(n, sizeof n, "raw-openssl@%s", vers[i]);
            if (add_target(run, n, false)) return -1;
        }
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

bool target_supports(const bench_target *t, const bench_op *op) {
    if (t->worker) return bench_worker_supports(t, (size_t)(op - bench_ops));
    if (t->raw_boringssl) return bench_rawb_impl(op) != NULL;
    if (t->is_raw) return bench_raw_impl(op, t->raw_mode) != NULL;
    if (t->is_jvm) return bench_jvm_impl(op) && bench_jvm_supports(op, t->jvm_provider);
    if (op->alg != WEBCRYPTO_ALG_NONE && !webcrypto_backend_supports(t->backend, op->alg))
        return false;
    if (op->hash != WEBCRYPTO_ALG_NONE && !webcrypto_backend_supports(t->backend, op->hash))
        return false;
    return bench_wc_impl(op) != NULL;
}

/* NULL for a target measured by a worker process (bench_worker.c). */
const bench_impl *impl_for(const bench_target *t, const bench_op *op) {
    if (t->worker) return NULL;
    if (t->is_jvm) return bench_jvm_impl(op);
    if (t->raw_boringssl) return bench_rawb_impl(op);
    return t->is_raw ? bench_raw_impl(op, t->raw_mode) : bench_wc_impl(op);
}

bool bench_op_has_size(const bench_op *op, size_t size) {
    if (!(op->flags & BENCH_SIZED)) return size == 0;
    if ((op->flags & BENCH_MAX_64K) && size > 65536) return false;
    return size > 0;
}

void list_everything(const bench_config *cfg) {
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
            printf("  %-20s %s\n", name, webcrypto_backend_description(b));
        else
            printf("  %-20s (unavailable: %s)\n", name, webcrypto_error_message());
    }
    if (bench_raw_description()) {
        printf("  %-20s %s\n", BENCH_RAW_NAME, bench_raw_description());
        printf("  %-20s keyed once per cell (measured only when named in --backend)\n",
               BENCH_RAW_KEYED_NAME);
        printf("  %-20s one context per thread, re-initialised per call (only when named)\n",
               BENCH_RAW_REUSED_NAME);
        printf("  %-20s the provider's own functions, below EVP (only when named)\n",
               BENCH_RAW_PROVIDER_NAME);
    }
    if (rawb_built) {
        char why[1400];
        const char *d = bench_rawb_description(why, sizeof why);
        if (d) printf("  %-20s %s\n", BENCH_RAWB_NAME, d);
        else printf("  %-20s (unavailable: %s)\n", BENCH_RAWB_NAME, why);
    }
    /* openssl@VERSION with a directory (not started here: each is a
     * process) */
    char vers[16][16];
    const char *dirs[16];
    size_t nv = bench_openssl_versions(cfg, vers, dirs, 16);
    for (size_t i = 0; i < nv; i++) {
        char n[40];
        snprintf(n, sizeof n, "openssl@%s", vers[i]);
        printf("  %-20s the openssl backend on %s/lib's OpenSSL (a worker process; "
               "raw-openssl@%s: the baseline)\n", n, dirs[i], vers[i]);
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
            printf("  %-20s %s\n", jn, desc);
        } else {
            printf("  %-20s (unavailable: %s)\n", jn, why);
        }
    }
}
