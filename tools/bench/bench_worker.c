/*
 * webcrypto-bench: targets on another OpenSSL 3.x, `openssl@3.5` and
 * `raw-openssl@3.5` (docs/BENCHMARKS.md, "OpenSSL 3.0 and 3.5 in one run").
 *
 * Every OpenSSL 3.x is libcrypto.so.3, so one process holds one of them.
 * Such a target is measured by a worker: this same executable
 * (/proc/self/exe) run with LD_LIBRARY_PATH=DIR/lib, the way tests/
 * openssl35_run.sh runs the test suite on 3.5, talking over two pipes. The
 * parent sends its options once, then one cell at a time in the order of
 * the run, so the cells of every target alternate in time as in-process
 * targets do; the worker measures the cell with the same code
 * (measure_cell) and sends the bench_result back (one binary: one layout).
 * The asymmetric keys and the ML-KEM ciphertext travel with every request
 * and answer, so both processes use the same key bytes, and the checks of
 * randomized outputs (cross_verify) are made by the worker too.
 * dlmopen(LM_ID_NEWLM) of a second libwebcrypto with the other libcrypto
 * would need every public call of bench_ops.c through a table of function
 * pointers, and a second libc in one process; a child needs nothing of the
 * sort, and its CPU time is added to this process's so that the
 * quiet-machine check does not count it as another's.
 *
 * The version in a target's name is checked against the libcrypto the
 * process loaded (OPENSSL_version_major/minor/patch), and the target is
 * named after that one: `openssl@3.5` becomes `openssl@3.5.7`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_internal.h"

extern char **environ;

#define WORKER_MAGIC 0x77636231u /* "wcb1" */

enum { MSG_CELL = 1, MSG_CHECK = 2 };

typedef struct worker_hello {
    uint32_t magic;
    int ok;
    char version[32];      /* the loaded libcrypto's, "3.5.7" */
    char description[160]; /* the target's */
    char error[300];
    bool supports[BENCH_MAX_OPS];
    double cpu_s; /* the worker's CPU time so far */
} worker_hello;

typedef struct worker_request {
    uint32_t type;
    uint32_t op;
    size_t size;
    size_t output_len; /* MSG_CHECK: the output to check */
    uint8_t output[512];
} worker_request;

typedef struct worker_reply {
    bench_result r; /* MSG_CELL */
    int check_rc;   /* MSG_CHECK */
    char error[160];
    double cpu_s; /* the worker's CPU time so far */
} worker_reply;

typedef struct worker {
    pid_t pid;
    int to, from; /* the pipes' ends in this process */
    double cpu_s;
    char name[64]; /* the target's */
    bool dead;
    int status; /* waitpid's, once it has ended; -1: killed after a timeout */
    bool supports[BENCH_MAX_OPS];
} worker;

static worker workers[BENCH_MAX_TARGETS];
static size_t nworkers;

double bench_workers_cpu_s(void) {
    double s = 0;
    for (size_t i = 0; i < nworkers; i++) s += workers[i].cpu_s;
    return s;
}

/* ---- the libcrypto in this process ---- */

/* "3.0.19" from the libcrypto.so.3 of this process (loading it if nothing
 * has yet: the one its search path gives, as for the openssl backend); ""
 * when there is none. */
static void loaded_openssl_version(char *buf, size_t cap) {
    buf[0] = 0;
    void *h = dlopen("libcrypto.so.3", RTLD_LAZY | RTLD_NOLOAD);
    if (!h) h = dlopen("libcrypto.so.3", RTLD_LAZY);
    if (!h) return;
    typedef unsigned (*num_fn)(void);
    num_fn fn[3];
    static const char *const names[3] = {"OPENSSL_version_major", "OPENSSL_version_minor",
                                         "OPENSSL_version_patch"};
    for (int i = 0; i < 3; i++) {
        /* POSIX: a data pointer to a function pointer, through memcpy */
        void *p = dlsym(h, names[i]);
        if (!p) return;
        memcpy(&fn[i], &p, sizeof p);
    }
    snprintf(buf, cap, "%u.%u.%u", fn[0](), fn[1](), fn[2]());
}

/* Whether version ("3.5.7") is the one asked for ("3", "3.5", "3.5.7"). */
static bool version_matches(const char *want, const char *version) {
    size_t n = strlen(want);
    return *version && strncmp(version, want, n) == 0 && (version[n] == 0 || version[n] == '.');
}

/* ---- pipes ---- */

static int write_all(int fd, const void *buf, size_t len) {
    const uint8_t *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t len) {
    uint8_t *p = buf;
    while (len) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void wipe(void *p, size_t n) {
    volatile uint8_t *v = p;
    while (n--) *v++ = 0;
}

/* The process's shared state (the key pairs, the ML-KEM ciphertext): sent
 * as a length and bytes; for each family a presence byte, then the pkcs8 and
 * spki with their lengths and the origin, then the ciphertext and key. */
static int send_state(int fd) {
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = -1;
#define PUT(ptr, n)                                                        \
    do {                                                                   \
        size_t n_ = (n);                                                   \
        if (len + n_ > cap) {                                              \
            size_t c_ = (len + n_) * 2;                                    \
            uint8_t *b_ = malloc(c_);                                      \
            if (!b_) goto out;                                             \
            if (buf) memcpy(b_, buf, len), wipe(buf, len), free(buf);      \
            buf = b_, cap = c_;                                            \
        }                                                                  \
        memcpy(buf + len, (ptr), n_);                                      \
        len += n_;                                                         \
    } while (0)
    for (size_t f = 0; f < BKF_COUNT; f++) {
        const bench_keypair *kp = bench_keys_slot((bench_key_family)f);
        uint8_t present = kp->pkcs8 != NULL;
        PUT(&present, 1);
        if (!present) continue;
        PUT(&kp->pkcs8_len, sizeof kp->pkcs8_len);
        PUT(kp->pkcs8, kp->pkcs8_len);
        PUT(&kp->spki_len, sizeof kp->spki_len);
        PUT(kp->spki, kp->spki_len);
        PUT(kp->origin, sizeof kp->origin);
    }
    uint8_t *ct, *ss;
    size_t *ct_len;
    bench_kem_state(&ct, &ct_len, &ss);
    PUT(ct_len, sizeof *ct_len);
    PUT(ct, *ct_len);
    PUT(ss, 32);
#undef PUT
    rc = write_all(fd, &len, sizeof len) || write_all(fd, buf, len) ? -1 : 0;
out:
    if (buf) wipe(buf, len), free(buf);
    return rc;
}

/* Adopts what this process does not have yet; origin_as (or NULL) names
 * the target whose process generated a pair the other side sent. */
static int recv_state(int fd, const char *origin_as) {
    size_t len;
    if (read_all(fd, &len, sizeof len) || len > (64u << 20)) return -1;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf || read_all(fd, buf, len)) {
        free(buf);
        return -1;
    }
    size_t at = 0;
    int rc = -1;
#define GET(dst, n)                                        \
    do {                                                   \
        size_t n_ = (n);                                   \
        if (n_ > len - at) goto out;                       \
        memcpy((dst), buf + at, n_);                       \
        at += n_;                                          \
    } while (0)
    for (size_t f = 0; f < BKF_COUNT; f++) {
        uint8_t present;
        GET(&present, 1);
        if (!present) continue;
        bench_keypair in = {0};
        GET(&in.pkcs8_len, sizeof in.pkcs8_len);
        if (in.pkcs8_len > len - at) goto out;
        const uint8_t *pkcs8 = buf + at;
        at += in.pkcs8_len;
        GET(&in.spki_len, sizeof in.spki_len);
        if (in.spki_len > len - at) goto out;
        const uint8_t *spki = buf + at;
        at += in.spki_len;
        GET(in.origin, sizeof in.origin);
        in.origin[sizeof in.origin - 1] = 0;
        bench_keypair *kp = bench_keys_slot((bench_key_family)f);
        if (kp->pkcs8) continue; /* ours stays: the same bytes */
        kp->pkcs8 = malloc(in.pkcs8_len ? in.pkcs8_len : 1);
        kp->spki = malloc(in.spki_len ? in.spki_len : 1);
        if (!kp->pkcs8 || !kp->spki) {
            free(kp->pkcs8), free(kp->spki);
            *kp = (bench_keypair){0};
            goto out;
        }
        memcpy(kp->pkcs8, pkcs8, in.pkcs8_len);
        memcpy(kp->spki, spki, in.spki_len);
        kp->pkcs8_len = in.pkcs8_len;
        kp->spki_len = in.spki_len;
        snprintf(kp->origin, sizeof kp->origin, "%s", origin_as ? origin_as : in.origin);
    }
    uint8_t *ct, *ss;
    size_t *ct_len, in_ct_len;
    bench_kem_state(&ct, &ct_len, &ss);
    GET(&in_ct_len, sizeof in_ct_len);
    if (in_ct_len > 1568 || in_ct_len + 32 != len - at) goto out;
    if (in_ct_len && !*ct_len) {
        memcpy(ct, buf + at, in_ct_len);
        memcpy(ss, buf + at + in_ct_len, 32);
        *ct_len = in_ct_len;
    }
#undef GET
    rc = 0;
out:
    wipe(buf, len);
    free(buf);
    return rc;
}

static double self_cpu_s(void);

/* ---- the parent's side ---- */

#define OPENSSL_DIR_VAR "WEBCRYPTO_BENCH_OPENSSL_"

/* WEBCRYPTO_BENCH_OPENSSL_3_5 for 3.5 */
static void openssl_dir_var(const char *version, char *buf, size_t cap) {
    snprintf(buf, cap, OPENSSL_DIR_VAR "%s", version);
    for (char *p = buf; *p; p++)
        if (*p == '.') *p = '_';
}

/* OpenSSL X.Y's directory: --openssl-dir X.Y=DIR, else
 * WEBCRYPTO_BENCH_OPENSSL_X_Y; NULL if neither. */
static const char *openssl_dir(const bench_config *cfg, const char *version) {
    for (size_t i = 0; i < cfg->nopenssl_dirs; i++)
        if (strcmp(cfg->openssl_dirs[i].version, version) == 0) return cfg->openssl_dirs[i].dir;
    char var[64];
    openssl_dir_var(version, var, sizeof var);
    const char *d = getenv(var);
    return d && *d ? d : NULL;
}

size_t bench_openssl_versions(const bench_config *cfg, char (*versions)[16], const char **dirs,
                              size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < cfg->nopenssl_dirs && n < max; i++, n++) {
        snprintf(versions[n], 16, "%s", cfg->openssl_dirs[i].version);
        dirs[n] = cfg->openssl_dirs[i].dir;
    }
    static const char var[] = OPENSSL_DIR_VAR;
    for (char **e = environ; *e && n < max; e++) {
        const char *eq = strchr(*e, '=');
        if (strncmp(*e, var, sizeof var - 1) != 0 || !eq || !eq[1]) continue;
        size_t vl = (size_t)(eq - *e) - (sizeof var - 1);
        if (vl == 0 || vl >= 16 || strspn(*e + sizeof var - 1, "0123456789_") != vl) continue;
        memcpy(versions[n], *e + sizeof var - 1, vl);
        versions[n][vl] = 0;
        for (char *p = versions[n]; *p; p++)
            if (*p == '_') *p = '.';
        bool given = false; /* --openssl-dir wins over the environment */
        for (size_t i = 0; i < cfg->nopenssl_dirs; i++)
            given |= strcmp(cfg->openssl_dirs[i].version, versions[n]) == 0;
        if (!given) dirs[n++] = eq + 1;
    }
    return n;
}

static void kill_worker(worker *w) {
    if (w->to >= 0) close(w->to);
    if (w->from >= 0) close(w->from);
    w->to = w->from = -1;
    if (w->pid > 0) {
        /* EOF on its request pipe ends it; a worker stuck in a cell is
         * stopped. */
        int status = 0;
        pid_t got = 0;
        for (int i = 0; i < 50 && (got = waitpid(w->pid, &status, WNOHANG)) == 0; i++)
            usleep(100000);
        if (got == 0) {
            kill(w->pid, SIGKILL);
            waitpid(w->pid, &status, 0);
            status = -1;
        }
        w->status = status;
    }
    w->pid = -1;
    w->dead = true;
}

/* Whether environ entry e sets one of the nvars assignments' variables. */
static bool env_overridden(const char *e, char **vars, size_t nvars) {
    for (size_t i = 0; i < nvars; i++) {
        size_t l = (size_t)(strchr(vars[i], '=') - vars[i]) + 1;
        if (strncmp(e, vars[i], l) == 0) return true;
    }
    return false;
}

/* Starts a worker for base ("openssl", "raw-openssl") with DIR/lib first on
 * the library path (dir NULL: this process's) and the nvars assignments
 * ("WEBCRYPTO_X=Y") in its environment; 0 and the hello, or -1 with why. */
static int spawn_worker(const bench_run *run, const char *base, const char *dir, char **vars,
                        size_t nvars, worker *w, worker_hello *hello, char *why, size_t cap) {
    char lib[4096] = "", probe[4200];
    if (dir) {
        snprintf(lib, sizeof lib, "%s/lib", dir);
        snprintf(probe, sizeof probe, "%s/libcrypto.so.3", lib);
        if (access(probe, R_OK) != 0) {
            snprintf(why, cap, "%s: %s", probe, strerror(errno));
            return -1;
        }
    }
    /* The environment, with LD_LIBRARY_PATH=DIR/lib[:before] and vars. */
    size_t n = 0;
    while (environ[n]) n++;
    char **envp = calloc(n + nvars + 2, sizeof *envp);
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t ll_len = strlen(lib) + (old ? strlen(old) : 0) + 32;
    char *ll = malloc(ll_len);
    if (!envp || !ll) {
        free(envp), free(ll);
        snprintf(why, cap, "out of memory");
        return -1;
    }
    snprintf(ll, ll_len, "LD_LIBRARY_PATH=%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    size_t k = 0;
    if (dir) envp[k++] = ll;
    for (size_t i = 0; i < nvars; i++) envp[k++] = vars[i];
    for (size_t i = 0; i < n; i++)
        if ((!dir || strncmp(environ[i], "LD_LIBRARY_PATH=", 16) != 0) &&
            !env_overridden(environ[i], vars, nvars))
            envp[k++] = environ[i];
    envp[k] = NULL;
    int req[2], rep[2];
    if (pipe2(req, O_CLOEXEC)) {
        snprintf(why, cap, "pipe: %s", strerror(errno));
        free(envp), free(ll);
        return -1;
    }
    if (pipe2(rep, O_CLOEXEC)) {
        snprintf(why, cap, "pipe: %s", strerror(errno));
        close(req[0]), close(req[1]);
        free(envp), free(ll);
        return -1;
    }
    char fds[32], name[64];
    snprintf(fds, sizeof fds, "%d,%d", req[0], rep[1]);
    snprintf(name, sizeof name, "%s", base);
    char *argv[] = {"webcrypto-bench-worker", "--worker", fds, name, NULL};
    /* A worker that dies must not end this process by SIGPIPE: its write
     * fails and the cell says why. */
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid == 0) {
        /* Only async-signal-safe calls until exec: the worker's two ends
         * survive exec, the others close. */
        if (fcntl(req[0], F_SETFD, 0) == 0 && fcntl(rep[1], F_SETFD, 0) == 0)
            execve("/proc/self/exe", argv, envp);
        _exit(127);
    }
    int fork_errno = errno;
    close(req[0]);
    close(rep[1]);
    free(envp);
    free(ll);
    *w = (worker){.pid = pid, .to = req[1], .from = rep[0]};
    if (pid < 0) {
        snprintf(why, cap, "fork: %s", strerror(fork_errno));
        kill_worker(w);
        return -1;
    }
    bench_config cfg = run->cfg;
    uint32_t magic = WORKER_MAGIC;
    if (write_all(w->to, &magic, sizeof magic) || write_all(w->to, &cfg, sizeof cfg) ||
        read_all(w->from, hello, sizeof *hello) || hello->magic != WORKER_MAGIC) {
        snprintf(why, cap, "the worker (this program%s%s) did not start",
                 dir ? " with LD_LIBRARY_PATH=" : "", lib);
        kill_worker(w);
        return -1;
    }
    hello->version[sizeof hello->version - 1] = 0;
    hello->description[sizeof hello->description - 1] = 0;
    hello->error[sizeof hello->error - 1] = 0;
    if (!hello->ok) {
        snprintf(why, cap, "%s%s%s%s", dir ? "with LD_LIBRARY_PATH=" : "", lib, dir ? ": " : "",
                 hello->error);
        kill_worker(w);
        return -1;
    }
    return 0;
}

/* "+OPENSSL_GCM_SIV=openssl+...": the worker's environment, each as
 * "WEBCRYPTO_OPENSSL_GCM_SIV=openssl" in vars (at most max, malloc'd);
 * names of capitals, digits and _, values of letters, digits and . _ -.
 * Returns the count, or -1 if the list is malformed. */
static int parse_env(const char *spec, char **vars, size_t max) {
    size_t n = 0;
    while (*spec == '+') {
        spec++;
        size_t l = strcspn(spec, "+");
        const char *eq = memchr(spec, '=', l);
        size_t nl = eq ? (size_t)(eq - spec) : 0;
        if (!eq || nl == 0 || strspn(spec, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != nl ||
            strspn(eq + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
                l - nl - 1 ||
            n == max)
            goto bad;
        size_t vl = strlen("WEBCRYPTO_") + l + 1;
        vars[n] = malloc(vl);
        if (!vars[n]) goto bad;
        snprintf(vars[n++], vl, "WEBCRYPTO_%.*s", (int)l, spec);
        spec += l;
    }
    if (*spec == 0) return (int)n;
bad:
    while (n) free(vars[--n]);
    return -1;
}

int bench_versioned_target(bench_run *run, bench_target *t, const char *name, char *why,
                           size_t cap) {
    const char *at = strchr(name, '@');
    char base[32], want[24];
    size_t bl = (size_t)(at - name), vl = strcspn(at + 1, "+");
    const char *env_spec = at + 1 + vl; /* "" or "+VAR=VALUE..." */
    char *vars[8];
    int nvars = parse_env(env_spec, vars, sizeof vars / sizeof vars[0]);
    if (bl >= sizeof base || vl >= sizeof want || vl == 0 || nvars < 0 ||
        strspn(at + 1, "0123456789.") != vl) {
        while (nvars > 0) free(vars[--nvars]);
        snprintf(why, cap, "expected openssl@VERSION or raw-openssl@VERSION (e.g. openssl@3.5), "
                           "then any +VAR=VALUE for WEBCRYPTO_VAR in the worker's environment");
        return -1;
    }
    memcpy(base, name, bl);
    base[bl] = 0;
    memcpy(want, at + 1, vl);
    want[vl] = 0;
    int rc = -1;
    bool raw = strcmp(base, BENCH_RAW_NAME) == 0;
    const char *dir = openssl_dir(&run->cfg, want);
    char version[32];
    loaded_openssl_version(version, sizeof version); /* this process's */
    if (!raw && strcmp(base, "openssl") != 0) {
        snprintf(why, cap, "only openssl@VERSION and raw-openssl@VERSION name an OpenSSL");
    } else if (!dir && !version_matches(want, version)) {
        char var[64];
        openssl_dir_var(want, var, sizeof var);
        snprintf(why, cap,
                 "no OpenSSL %s directory (--openssl-dir %s=DIR or %s=DIR, DIR/lib holding "
                 "its libcrypto.so.3; tools/fetch-openssl.sh --cached prints 3.5's), and this "
                 "process's OpenSSL is %s",
                 want, want, var, *version ? version : "not found");
    } else if (!dir && nvars == 0) {
        /* No directory: this process's own libcrypto, which is that one. */
        if (raw && !bench_raw_description()) {
            snprintf(why, cap, "this build has no raw OpenSSL baseline");
        } else if (raw) {
            t->is_raw = true;
            t->raw_mode = BENCH_RAW_PLAIN;
            t->description = bench_raw_description();
            rc = 0;
        } else if (webcrypto_backend_get("openssl", &t->backend) != WEBCRYPTO_OK) {
            snprintf(why, cap, "%s", webcrypto_error_message());
        } else {
            t->description = webcrypto_backend_description(t->backend);
            rc = 0;
        }
    } else if (nworkers == BENCH_MAX_TARGETS) {
        snprintf(why, cap, "too many targets");
    } else {
        /* A worker: on DIR/lib's OpenSSL, or (+VAR=VALUE without a DIR) on
         * this process's in an environment of its own. */
        worker_hello hello;
        worker *w = &workers[nworkers];
        if (spawn_worker(run, base, dir, vars, (size_t)nvars, w, &hello, why, cap)) goto out;
        if (!version_matches(want, hello.version)) {
            snprintf(why, cap, "%s/lib gave OpenSSL %s, not %s", dir ? dir : "(this process)",
                     *hello.version ? hello.version : "(none found)", want);
            kill_worker(w);
            goto out;
        }
        nworkers++;
        w->cpu_s = hello.cpu_s; /* its start-up, before the run's first mark */
        snprintf(version, sizeof version, "%s", hello.version);
        memcpy(w->supports, hello.supports, sizeof w->supports);
        t->worker = nworkers; /* index + 1 */
        t->is_raw = raw;
        t->raw_mode = BENCH_RAW_PLAIN;
        int used = snprintf(t->description_buf, sizeof t->description_buf, "%s (a worker process",
                            hello.description);
        if (dir && used > 0 && (size_t)used < sizeof t->description_buf)
            used += snprintf(t->description_buf + used, sizeof t->description_buf - (size_t)used,
                             ", LD_LIBRARY_PATH=%s/lib", dir);
        for (int i = 0; i < nvars && used > 0 && (size_t)used < sizeof t->description_buf; i++)
            used += snprintf(t->description_buf + used, sizeof t->description_buf - (size_t)used,
                             ", %s", vars[i]);
        if (used > 0 && (size_t)used < sizeof t->description_buf)
            snprintf(t->description_buf + used, sizeof t->description_buf - (size_t)used, ")");
        t->description = t->description_buf;
        rc = 0;
    }
    if (rc == 0) {
        /* openssl@3.5.7, with the +VAR=VALUE asked for */
        snprintf(t->requested, sizeof t->requested, "%s", name);
        int n = snprintf(t->name, sizeof t->name, "%s@%s%s", base, version, env_spec);
        if (n < 0 || (size_t)n >= sizeof t->name) {
            snprintf(why, cap, "the name %s@%s%s is too long", base, version, env_spec);
            rc = -1; /* its worker, if any, is ended with the others */
        }
        if (t->worker) snprintf(workers[t->worker - 1].name, sizeof workers[0].name, "%s", t->name);
    }
out:
    while (nvars > 0) free(vars[--nvars]);
    return rc;
}

bool bench_worker_supports(const bench_target *t, size_t op) {
    return workers[t->worker - 1].supports[op];
}

static worker *worker_for(const bench_target *t, char *err, size_t cap) {
    worker *w = &workers[t->worker - 1];
    if (w->dead) {
        snprintf(err, cap, "the worker process of %s has exited", t->name);
        return NULL;
    }
    return w;
}

static int exchange(worker *w, const bench_target *t, const worker_request *q, worker_reply *a,
                    char *err, size_t cap) {
    if (write_all(w->to, q, sizeof *q) || send_state(w->to) ||
        read_all(w->from, a, sizeof *a) || recv_state(w->from, t->name)) {
        snprintf(err, cap, "the worker process of %s stopped answering", t->name);
        kill_worker(w);
        return -1;
    }
    w->cpu_s = a->cpu_s;
    return 0;
}

void bench_worker_measure(const bench_target *t, size_t op, size_t size, size_t target,
                          bench_result *r) {
    worker *w = worker_for(t, r->error, sizeof r->error);
    if (!w) return;
    worker_request q = {.type = MSG_CELL, .op = (uint32_t)op, .size = size};
    worker_reply *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(r->error, sizeof r->error, "out of memory");
        return;
    }
    if (exchange(w, t, &q, a, r->error, sizeof r->error) == 0) {
        *r = a->r;
        r->op = op;
        r->size = size;
        r->target = target;
    }
    free(a);
}

int bench_worker_check(const bench_target *t, size_t op, size_t size, const uint8_t *out,
                       size_t out_len) {
    char err[160];
    worker *w = worker_for(t, err, sizeof err);
    if (!w || out_len > sizeof((worker_request *)0)->output) {
        bench_fail("%s", w ? "output too long" : err);
        return -1;
    }
    worker_request q = {.type = MSG_CHECK, .op = (uint32_t)op, .size = size,
                        .output_len = out_len};
    memcpy(q.output, out, out_len);
    worker_reply *a = calloc(1, sizeof *a);
    int rc = -1;
    if (!a) bench_fail("out of memory");
    else if (exchange(w, t, &q, a, err, sizeof err)) bench_fail("%s", err);
    else if ((rc = a->check_rc) != 0) bench_fail("%s", a->error);
    free(a);
    return rc;
}

int bench_workers_stop(void) {
    int bad = 0;
    for (size_t i = 0; i < nworkers; i++) {
        worker *w = &workers[i];
        if (w->dead) continue; /* said when its cell failed */
        kill_worker(w);
        /* a sanitizer's report, a crash at exit: this run's too */
        if (w->status != 0) {
            bad = 1;
            if (w->status == -1)
                fprintf(stderr, "error: the worker process of %s did not end; killed\n", w->name);
            else if (WIFSIGNALED(w->status))
                fprintf(stderr, "error: the worker process of %s ended by signal %d\n", w->name,
                        WTERMSIG(w->status));
            else
                fprintf(stderr, "error: the worker process of %s exited with status %d\n",
                        w->name, WEXITSTATUS(w->status));
        }
    }
    nworkers = 0;
    return bad;
}

/* ---- the worker's side ---- */

static double self_cpu_s(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int bench_worker_main(const char *fds, const char *target) {
    int in = -1, out = -1;
    if (sscanf(fds, "%d,%d", &in, &out) != 2 || in < 0 || out < 0) return 2;
    bench_run *run = calloc(1, sizeof *run);
    worker_hello *hello = calloc(1, sizeof *hello);
    worker_reply *a = calloc(1, sizeof *a);
    uint8_t *data = NULL;
    uint32_t magic;
    int rc = 1;
    if (!run || !hello || !a || read_all(in, &magic, sizeof magic) || magic != WORKER_MAGIC ||
        read_all(in, &run->cfg, sizeof run->cfg))
        goto end;
    /* The parent's pointers mean nothing here; none is used. */
    run->cfg.reference = run->cfg.json_path = run->cfg.csv_path = NULL;
    run->cfg.svg_path = run->cfg.markdown_path = NULL;
    run->cfg.argv = NULL;
    run->cfg.argc = 0;
    run->cfg.nopenssl_dirs = 0;
    run->cfg.quiet = true;
    run->ref = run->raw = SIZE_MAX;
    hello->magic = WORKER_MAGIC;
    loaded_openssl_version(hello->version, sizeof hello->version);
    bench_target *t = &run->targets[0];
    if (add_target(run, target, true) || run->ntargets != 1) {
        snprintf(hello->error, sizeof hello->error, "target %s did not start (its message is "
                 "above)", target);
    } else {
        t->jvm_base = t->raw_base = SIZE_MAX;
        for (size_t o = 0; o < bench_op_count; o++)
            hello->supports[o] = t->supports[o] = target_supports(t, &bench_ops[o]);
        snprintf(hello->description, sizeof hello->description, "%s", t->description);
        hello->ok = 1;
    }
    hello->cpu_s = self_cpu_s();
    if (write_all(out, hello, sizeof *hello) || !hello->ok) goto end;
    size_t max_size = BENCH_MSG_LEN;
    for (size_t i = 0; i < run->cfg.nsizes; i++)
        if (run->cfg.sizes[i] > max_size) max_size = run->cfg.sizes[i];
    data = malloc(max_size);
    if (!data) goto end;
    bench_stream(BENCH_DATA_SEED, data, max_size); /* the parent's input, byte for byte */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    worker_request q;
    while (read_all(in, &q, sizeof q) == 0) {
        if (recv_state(in, NULL) || q.op >= bench_op_count) goto end;
        const bench_op *op = &bench_ops[q.op];
        memset(a, 0, sizeof *a);
        bench_cell c;
        bench_cell_init(&c, op, t->backend, q.size, data, run->cfg.pbkdf2_iterations);
        if (q.type == MSG_CELL) {
            if (t->supports[q.op]) measure_cell(run, t, op, &c, &a->r);
            else snprintf(a->r.error, sizeof a->r.error, "not supported by %s", target);
        } else if (q.type == MSG_CHECK && t->supports[q.op]) {
            const bench_impl *impl = impl_for(t, op);
            a->check_rc = -1;
            if (!impl->check) a->check_rc = 0;
            else if (impl->setup(&c) == 0 && q.output_len <= sizeof q.output)
                a->check_rc = impl->check(&c, q.output, q.output_len);
            if (a->check_rc) snprintf(a->error, sizeof a->error, "%s", bench_last_error());
            if (impl->check) impl->teardown(&c);
        } else {
            goto end;
        }
        a->cpu_s = self_cpu_s();
        if (write_all(out, a, sizeof *a) || send_state(out)) goto end;
    }
    rc = 0; /* the parent closed the pipe: the run is over */
end:
    free(data);
    bench_keys_free();
    free(a);
    free(hello);
    free(run);
    return rc;
}
