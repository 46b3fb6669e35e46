/*
 * webcrypto-jca-bench: the cost of the jca backend's boundary, measured as a
 * ratio against the same JCA operation timed inside the same JVM, in one run.
 *
 * The driver starts the JVM itself (class path: the JcaBench jar) and hands it
 * to libwebcrypto with webcrypto_jca_set_java_vm - the host-JVM path - or,
 * with --jvm backend, lets the backend start it and finds it with
 * JNI_GetCreatedJavaVMs. For each operation and size it alternates batches of
 * libwebcrypto calls ("jca") with batches timed inside the JVM by JcaBench.run
 * ("jvm") on the same input, key and provider, after a warm-up, and reports
 * medians of the per-operation times. --bounds adds what bounds the boundary:
 * the input copy into a Java array alone, a minimal copying JNI call and a
 * zero-copy one over direct buffers. The warm-up lasts until the JIT has
 * compiled nothing for a while (--jit-quiet), and each cell reports the
 * per-round ratio, interquartile ranges, and the JIT and collector activity
 * during its rounds. See docs/JCA.md.
 */
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_NOLOAD, sched_setaffinity */
#include <dlfcn.h>
#include <sched.h>
#include <errno.h>
#include <jni.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "webcrypto.h"

#ifndef WEBCRYPTO_JCA_BENCH_JAR
#define WEBCRYPTO_JCA_BENCH_JAR "jca-bench.jar"
#endif
#ifndef WEBCRYPTO_JCA_BENCH_LIBJVM
#define WEBCRYPTO_JCA_BENCH_LIBJVM "libjvm.so"
#endif
#ifndef WEBCRYPTO_JCA_BENCH_BCPROV
#define WEBCRYPTO_JCA_BENCH_BCPROV "/usr/share/java/bcprov.jar"
#endif
#ifndef WEBCRYPTO_JCA_BENCH_BUILD_TYPE
#define WEBCRYPTO_JCA_BENCH_BUILD_TYPE "unknown"
#endif

enum { OP_SHA256, OP_HMAC, OP_GCM, OP_COUNT };
static const char *const op_java_name[OP_COUNT] = {"SHA-256", "HMAC-SHA-256", "AES-256-GCM"};
static const char *const op_short[OP_COUNT] = {"sha256", "hmac", "gcm"};

/* The measured methods of one cell. */
enum { M_JVM, M_JCA, M_COPYIN, M_COPYCRIT, M_ARRAY, M_DIRECT, M_COUNT };
static const char *const method_name[M_COUNT] = {"jvm",       "jca",       "copy-in",
                                                 "copy-crit", "jni-array", "jni-direct"};

typedef struct options {
    const char *backend;
    size_t sizes[32];
    size_t nsizes;
    bool ops[OP_COUNT];
    int rounds;
    double batch_ms;
    long warmup_ops;
    double warmup_seconds;
    double jit_quiet_seconds, warmup_max_seconds;
    const char *heap;
    int pin; /* CPU to pin the measuring thread to; -1: none */
    bool host_jvm;
    bool bounds;
    bool json;
    bool wall;
    const char *jar;
    const char *libjvm;
} options;

typedef struct stats {
    double median, q1, q3, min, max; /* ns per operation */
} stats;

typedef struct cell {
    int op;
    size_t size;
    bool measured[M_COUNT];
    stats st[M_COUNT];
    long batch;
    /* jca over jvm per round (the two batches of a round ran side by side):
     * median and quartiles. */
    double pr_median, pr_q1, pr_q3;
    double warmup_s;        /* the warm-up's wall-clock time */
    long jit_ms, gcs;       /* JIT compilation time and collections during the rounds */
    bool jit_quiet;         /* the warm-up ended with the JIT quiet (not at its limit) */
} cell;

/* ---- the state shared by the measurement functions ---- */
static JNIEnv *env;
static jclass bench_cls;
static jmethodID mid_setup, mid_run, mid_once, mid_array, mid_direct, mid_provider, mid_version,
    mid_jit, mid_gcs;
static const webcrypto_backend *be, *ref_be;
static webcrypto_key *hmac_key, *gcm_key, *ref_hmac_key, *ref_gcm_key;
static uint8_t key_bytes[32];

static void die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("webcrypto-jca-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void check_java(const char *what) {
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionDescribe(env);
        die("Java exception in %s", what);
    }
}

static void check_wc(webcrypto_status st, const char *what) {
    if (st != WEBCRYPTO_OK)
        die("%s: %s: %s", what, webcrypto_status_name(st), webcrypto_error_message());
}

/* The clock of the measurements: the thread's CPU time by default, so that
 * time the scheduler gives to other processes (this machine is shared) is
 * not counted, or the wall clock (--clock wall). Both sides of a cell are
 * timed here, in C, with the same clock. */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static long jvm_long(jmethodID m, const char *what) {
    jlong v = (*env)->CallStaticLongMethod(env, bench_cls, m);
    check_java(what);
    return (long)v;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(bench_clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The 12-byte GCM IV for (prefix, counter), as JcaBench.setIv makes it. */
static void set_iv(uint8_t iv[12], uint8_t prefix, uint64_t c) {
    memset(iv, 0, 12);
    iv[0] = prefix;
    for (int i = 0; i < 8; i++) iv[11 - i] = (uint8_t)(c >> (8 * i));
}

/* ---- one libwebcrypto call of the cell's operation ---- */
static size_t wc_op(const webcrypto_backend *b, webcrypto_key *hk, webcrypto_key *gk, int op,
                    const uint8_t *in, size_t len, uint8_t *out, size_t cap, const uint8_t iv[12]) {
    size_t n = 0;
    webcrypto_status st;
    if (op == OP_SHA256) {
        st = webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, in, len, out, cap, &n);
    } else if (op == OP_HMAC) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
        st = webcrypto_sign(&p, hk, in, len, out, cap, &n);
    } else {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12);
        st = webcrypto_encrypt(&p, gk, in, len, out, cap, &n);
    }
    check_wc(st, op_java_name[op]);
    return n;
}

/* ---- the measured state of the current cell ---- */
static int cur_op;
static size_t cur_len, cur_cap;
static uint8_t *cur_in, *cur_out;
static jbyteArray j_in, j_out, j_iv;
static uint64_t ctr[M_COUNT];

/* Runs n operations of method m; returns the nanoseconds they took. */
static double run_batch(int m, long n) {
    uint8_t iv[12];
    double t0 = now_ns();
    if (m == M_JVM) {
        /* One JNI call for the whole batch: its cost (well under a
         * microsecond) is spread over batch_ms. */
        (*env)->CallStaticLongMethod(env, bench_cls, mid_run, (jint)n);
        double t = now_ns() - t0;
        check_java("JcaBench.run");
        return t;
    }
    for (long i = 0; i < n; i++) {
        switch (m) {
        case M_JCA:
            set_iv(iv, 0x43, ctr[m]++);
            wc_op(be, hmac_key, gcm_key, cur_op, cur_in, cur_len, cur_out, cur_cap, iv);
            break;
        case M_COPYIN:
            (*env)->SetByteArrayRegion(env, j_in, 0, (jsize)cur_len, (const jbyte *)cur_in);
            break;
        case M_COPYCRIT: {
            /* The same copy through GetPrimitiveArrayCritical and memcpy. */
            void *p = (*env)->GetPrimitiveArrayCritical(env, j_in, NULL);
            if (!p) check_java("GetPrimitiveArrayCritical");
            memcpy(p, cur_in, cur_len);
            (*env)->ReleasePrimitiveArrayCritical(env, j_in, p, 0);
            break;
        }
        case M_ARRAY: {
            (*env)->SetByteArrayRegion(env, j_in, 0, (jsize)cur_len, (const jbyte *)cur_in);
            set_iv(iv, 0x41, ctr[m]++);
            (*env)->SetByteArrayRegion(env, j_iv, 0, 12, (const jbyte *)iv);
            jint r = (*env)->CallStaticIntMethod(env, bench_cls, mid_array, j_in, (jint)cur_len,
                                                 j_out, j_iv);
            if ((*env)->ExceptionCheck(env)) check_java("JcaBench.array");
            (*env)->GetByteArrayRegion(env, j_out, 0, r, (jbyte *)cur_out);
            break;
        }
        case M_DIRECT: {
            jobject bin = (*env)->NewDirectByteBuffer(env, cur_in, (jlong)cur_len);
            jobject bout = (*env)->NewDirectByteBuffer(env, cur_out, (jlong)cur_cap);
            if (!bin || !bout) check_java("NewDirectByteBuffer");
            set_iv(iv, 0x44, ctr[m]++);
            (*env)->SetByteArrayRegion(env, j_iv, 0, 12, (const jbyte *)iv);
            (*env)->CallStaticIntMethod(env, bench_cls, mid_direct, bin, bout, j_iv);
            if ((*env)->ExceptionCheck(env)) check_java("JcaBench.direct");
            (*env)->DeleteLocalRef(env, bin);
            (*env)->DeleteLocalRef(env, bout);
            break;
        }
        default:
            break;
        }
    }
    return now_ns() - t0;
}

/* Checks that every method computes what the openssl backend computes on the
 * same input (for GCM, with the same IV), so the methods do the same work. */
static void cross_check(const bool use[M_COUNT]) {
    uint8_t iv[12], *want = malloc(cur_cap), *got = malloc(cur_cap);
    if (!want || !got) die("out of memory");
    for (int m = 0; m < M_COUNT; m++) {
        if (!use[m] || m == M_COPYIN || m == M_COPYCRIT) continue;
        uint64_t c = 1000000u + (uint64_t)m;
        set_iv(iv, 0x58, c);
        size_t wn = wc_op(ref_be, ref_hmac_key, ref_gcm_key, cur_op, cur_in, cur_len, want,
                          cur_cap, iv);
        size_t gn = 0;
        memset(got, 0, cur_cap);
        if (m == M_JCA) {
            gn = wc_op(be, hmac_key, gcm_key, cur_op, cur_in, cur_len, got, cur_cap, iv);
        } else if (m == M_JVM) {
            jbyteArray r = (*env)->CallStaticObjectMethod(env, bench_cls, mid_once, (jint)0x58,
                                                          (jlong)c);
            check_java("JcaBench.once");
            gn = (size_t)(*env)->GetArrayLength(env, r);
            if (gn > cur_cap) die("JcaBench.once: %zu bytes", gn);
            (*env)->GetByteArrayRegion(env, r, 0, (jsize)gn, (jbyte *)got);
            (*env)->DeleteLocalRef(env, r);
        } else {
            (*env)->SetByteArrayRegion(env, j_in, 0, (jsize)cur_len, (const jbyte *)cur_in);
            (*env)->SetByteArrayRegion(env, j_iv, 0, 12, (const jbyte *)iv);
            if (m == M_ARRAY) {
                jint r = (*env)->CallStaticIntMethod(env, bench_cls, mid_array, j_in,
                                                     (jint)cur_len, j_out, j_iv);
                check_java("JcaBench.array");
                gn = (size_t)r;
                (*env)->GetByteArrayRegion(env, j_out, 0, r, (jbyte *)got);
            } else {
                jobject bin = (*env)->NewDirectByteBuffer(env, cur_in, (jlong)cur_len);
                jobject bout = (*env)->NewDirectByteBuffer(env, got, (jlong)cur_cap);
                jint r = (*env)->CallStaticIntMethod(env, bench_cls, mid_direct, bin, bout, j_iv);
                check_java("JcaBench.direct");
                gn = (size_t)r;
                (*env)->DeleteLocalRef(env, bin);
                (*env)->DeleteLocalRef(env, bout);
            }
        }
        if (gn != wn || memcmp(got, want, wn) != 0)
            die("%s %zu bytes: method %s differs from the openssl backend's result",
                op_java_name[cur_op], cur_len, method_name[m]);
    }
    free(want);
    free(got);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q) {
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i + 1 >= n) return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

static const char *variant_of(const char *backend) {
    const char *c = strchr(backend, ':');
    return c ? c + 1 : NULL;
}

/* Sets up and measures one cell. */
static void measure(const options *o, cell *c, const char *dprov, const char *mprov) {
    cur_op = c->op;
    cur_len = c->size;
    cur_cap = c->size + 16;
    cur_in = malloc(cur_len ? cur_len : 1);
    cur_out = malloc(cur_cap);
    if (!cur_in || !cur_out) die("out of memory");
    /* The same bytes on both sides: a fixed pseudo-random pattern. */
    uint32_t x = 0x9e3779b9u ^ (uint32_t)cur_len;
    for (size_t i = 0; i < cur_len; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        cur_in[i] = (uint8_t)x;
    }
    j_in = (*env)->NewByteArray(env, (jsize)cur_len);
    j_out = (*env)->NewByteArray(env, (jsize)cur_cap);
    j_iv = (*env)->NewByteArray(env, 12);
    jbyteArray jkey = (*env)->NewByteArray(env, 32);
    check_java("NewByteArray");
    (*env)->SetByteArrayRegion(env, j_in, 0, (jsize)cur_len, (const jbyte *)cur_in);
    (*env)->SetByteArrayRegion(env, jkey, 0, 32, (const jbyte *)key_bytes);
    jstring jop = (*env)->NewStringUTF(env, op_java_name[c->op]);
    jstring jdp = dprov ? (*env)->NewStringUTF(env, dprov) : NULL;
    jstring jmp = mprov ? (*env)->NewStringUTF(env, mprov) : NULL;
    (*env)->CallStaticVoidMethod(env, bench_cls, mid_setup, jop, jdp, jmp, jkey, j_in);
    check_java("JcaBench.setup");
    /* JcaBench keeps j_in as its input: later copies into it change nothing. */

    bool use[M_COUNT] = {true, true, o->bounds, o->bounds, o->bounds, o->bounds};
    cross_check(use);

    /* Warm-up: every method in turn, until each has done warmup_ops
     * operations, warmup_seconds have passed and the JIT has compiled nothing
     * for jit_quiet_seconds (wall clock; its total compilation time did not
     * grow), so that C2 has compiled the hot paths of both sides and has
     * finished recompiling after the previous cell's profile (a new size
     * deoptimises some of SunJCE's GCM methods); at most warmup_max_seconds.
     * The batch grows until one takes batch_ms. */
    long batch = 1, done = 0;
    double t_start = now_ns(), w_start = wall_ns(), w_quiet = w_start;
    long jit_last = jvm_long(mid_jit, "JcaBench.jitMillis");
    c->jit_quiet = false;
    for (;;) {
        double w = wall_ns();
        long jit = jvm_long(mid_jit, "JcaBench.jitMillis");
        if (jit != jit_last) jit_last = jit, w_quiet = w;
        bool quiet = jit < 0 || w - w_quiet >= o->jit_quiet_seconds * 1e9;
        if (done >= o->warmup_ops && now_ns() - t_start >= o->warmup_seconds * 1e9 && quiet) {
            c->jit_quiet = true;
            break;
        }
        if (w - w_start >= o->warmup_max_seconds * 1e9) break;
        double slowest = 0;
        for (int m = 0; m < M_COUNT; m++) {
            if (!use[m]) continue;
            double t = run_batch(m, batch);
            if (t > slowest) slowest = t;
        }
        done += batch;
        if (slowest < o->batch_ms * 1e6 / 2 && batch < (1L << 24)) batch *= 2;
    }
    c->warmup_s = (wall_ns() - w_start) / 1e9;
    /* Calibrate on the JVM's steady state: a batch of about batch_ms. */
    double t = run_batch(M_JVM, batch);
    if (t > 0) {
        double b = (double)batch * o->batch_ms * 1e6 / t;
        batch = b < 1 ? 1 : (long)b;
    }
    c->batch = batch;

    double *samples[M_COUNT];
    for (int m = 0; m < M_COUNT; m++) {
        samples[m] = calloc((size_t)o->rounds, sizeof(double));
        if (!samples[m]) die("out of memory");
    }
    /* Rounds alternate the methods, in an order that flips each round so
     * that neither side always runs right after the other. */
    long jit0 = jvm_long(mid_jit, "JcaBench.jitMillis"), gc0 = jvm_long(mid_gcs, "JcaBench.gcCount");
    for (int r = 0; r < o->rounds; r++) {
        for (int k = 0; k < M_COUNT; k++) {
            int m = (r & 1) ? M_COUNT - 1 - k : k;
            if (!use[m]) continue;
            samples[m][r] = run_batch(m, batch) / (double)batch;
        }
    }
    c->jit_ms = jvm_long(mid_jit, "JcaBench.jitMillis") - jit0;
    c->gcs = jvm_long(mid_gcs, "JcaBench.gcCount") - gc0;
    double *pr = calloc((size_t)o->rounds, sizeof(double));
    if (!pr) die("out of memory");
    for (int r = 0; r < o->rounds; r++)
        pr[r] = samples[M_JVM][r] > 0 ? samples[M_JCA][r] / samples[M_JVM][r] : 0;
    qsort(pr, (size_t)o->rounds, sizeof(double), cmp_double);
    c->pr_median = quantile(pr, o->rounds, 0.5);
    c->pr_q1 = quantile(pr, o->rounds, 0.25);
    c->pr_q3 = quantile(pr, o->rounds, 0.75);
    free(pr);
    for (int m = 0; m < M_COUNT; m++) {
        c->measured[m] = use[m];
        if (use[m]) {
            qsort(samples[m], (size_t)o->rounds, sizeof(double), cmp_double);
            c->st[m].median = quantile(samples[m], o->rounds, 0.5);
            c->st[m].q1 = quantile(samples[m], o->rounds, 0.25);
            c->st[m].q3 = quantile(samples[m], o->rounds, 0.75);
            c->st[m].min = samples[m][0];
            c->st[m].max = samples[m][o->rounds - 1];
        }
        free(samples[m]);
    }
    (*env)->DeleteLocalRef(env, j_in);
    (*env)->DeleteLocalRef(env, j_out);
    (*env)->DeleteLocalRef(env, j_iv);
    (*env)->DeleteLocalRef(env, jkey);
    (*env)->DeleteLocalRef(env, jop);
    if (jdp) (*env)->DeleteLocalRef(env, jdp);
    if (jmp) (*env)->DeleteLocalRef(env, jmp);
    free(cur_in);
    free(cur_out);
}

/* ---- the JVM ---- */
typedef jint (*create_vm_fn)(JavaVM **, void **, void *);
typedef jint (*created_vms_fn)(JavaVM **, jsize, jsize *);

static int find_libjvm_cb(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const char *n = info->dlpi_name;
    size_t l = n ? strlen(n) : 0;
    if (l >= 9 && strcmp(n + l - 9, "libjvm.so") == 0) {
        *(const char **)data = n;
        return 1;
    }
    return 0;
}

static void *resolve(void *lib, const char *sym) {
    void *p = dlsym(lib, sym);
    if (!p) die("%s not found in libjvm: %s", sym, dlerror());
    return p;
}

/* The JVM options from WEBCRYPTO_JCA_OPTIONS (whitespace-separated), so that
 * the bench runs under the same options the backend would use. */
static int split_options(char *buf, JavaVMOption *opts, int max) {
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " \t\n", &save); tok && n < max;
         tok = strtok_r(NULL, " \t\n", &save))
        opts[n++].optionString = tok;
    return n;
}

static JavaVM *start_jvm(const options *o) {
    void *lib = dlopen(o->libjvm, RTLD_NOW | RTLD_GLOBAL);
    if (!lib) die("cannot load %s: %s", o->libjvm, dlerror());
    create_vm_fn create;
    void *sym = resolve(lib, "JNI_CreateJavaVM");
    memcpy(&create, &sym, sizeof create);
    static char cp[8192], extra[4096];
    struct stat sb;
    const char *user_cp = getenv("WEBCRYPTO_JCA_CLASSPATH");
    snprintf(cp, sizeof cp, "-Djava.class.path=%s%s%s%s%s", o->jar,
             stat(WEBCRYPTO_JCA_BENCH_BCPROV, &sb) == 0 ? ":" : "",
             stat(WEBCRYPTO_JCA_BENCH_BCPROV, &sb) == 0 ? WEBCRYPTO_JCA_BENCH_BCPROV : "",
             user_cp && *user_cp ? ":" : "", user_cp ? user_cp : "");
    JavaVMOption opts[64];
    int n = 0;
    opts[n++].optionString = cp;
    /* As the backend starts its own JVM: signals stay with the program. */
    opts[n++].optionString = (char *)"-Xrs";
    /* A fixed heap, so that G1 does not resize it between cells (options
     * from WEBCRYPTO_JCA_OPTIONS come later and win). */
    static char xms[64], xmx[64];
    if (o->heap && strcmp(o->heap, "0") != 0) {
        snprintf(xms, sizeof xms, "-Xms%s", o->heap);
        snprintf(xmx, sizeof xmx, "-Xmx%s", o->heap);
        opts[n++].optionString = xms;
        opts[n++].optionString = xmx;
    }
    const char *env_opts = getenv("WEBCRYPTO_JCA_OPTIONS");
    if (env_opts) {
        snprintf(extra, sizeof extra, "%s", env_opts);
        n += split_options(extra, opts + n, 60);
    }
    for (int i = 0; i < n; i++) opts[i].extraInfo = NULL;
    JavaVMInitArgs args = {.version = JNI_VERSION_1_8, .nOptions = n, .options = opts,
                           .ignoreUnrecognized = JNI_FALSE};
    JavaVM *vm = NULL;
    void *penv = NULL;
    jint rc = create(&vm, &penv, &args);
    if (rc != JNI_OK) die("JNI_CreateJavaVM failed (%d) with %s", (int)rc, o->libjvm);
    env = penv;
    return vm;
}

/* After the backend started the JVM: find it in the loaded libjvm. */
static void find_backend_jvm(void) {
    const char *path = NULL;
    dl_iterate_phdr(find_libjvm_cb, &path);
    if (!path) die("no libjvm.so is loaded: the backend did not start a JVM");
    void *lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (!lib) die("cannot reopen %s: %s", path, dlerror());
    created_vms_fn created;
    void *sym = resolve(lib, "JNI_GetCreatedJavaVMs");
    memcpy(&created, &sym, sizeof created);
    JavaVM *vm = NULL;
    jsize count = 0;
    if (created(&vm, 1, &count) != JNI_OK || count < 1) die("JNI_GetCreatedJavaVMs found no JVM");
    void *penv = NULL;
    if ((*vm)->AttachCurrentThread(vm, &penv, NULL) != JNI_OK) die("AttachCurrentThread failed");
    env = penv;
}

/* ---- options ---- */
static void usage(FILE *f) {
    fputs("usage: webcrypto-jca-bench [options]\n"
          "  --backend NAME       jca, jca:BC, jca:SunJCE (default jca)\n"
          "  --sizes LIST         bytes, comma-separated (default 1024,65536,1048576)\n"
          "  --ops LIST           sha256,hmac,gcm (default all)\n"
          "  --rounds N           alternating samples per method (default 31)\n"
          "  --batch-ms X         target time of one batch (default 2)\n"
          "  --warmup-ops N       minimum warm-up operations per method (default 2000)\n"
          "  --warmup-seconds S   minimum warm-up time per cell (default 1)\n"
          "  --jit-quiet S        warm up until the JIT has compiled nothing for S seconds\n"
          "                       (default 1; 0: do not wait)\n"
          "  --warmup-max S       at most S seconds of warm-up per cell (default 20)\n"
          "  --heap SIZE          -Xms and -Xmx of the JVM this program starts (default\n"
          "                       512m; 0: the JVM's default)\n"
          "  --pin CPU            pin the measuring thread to one CPU\n"
          "  --jvm host|backend   who starts the JVM (default host: this program, handed\n"
          "                       over with webcrypto_jca_set_java_vm)\n"
          "  --bounds             also time the input copy alone, a minimal copying JNI\n"
          "                       call and a zero-copy one over direct buffers\n"
          "  --clock cpu|wall     the thread's CPU time (default) or the wall clock\n"
          "  --json               JSON instead of the table\n"
          "  --jar PATH           the JcaBench jar (default: the build's)\n"
          "  --libjvm PATH        (default $JAVA_HOME/lib/server/libjvm.so, else the build's JDK)\n"
          "Environment: WEBCRYPTO_JCA_OPTIONS (JVM options), WEBCRYPTO_JCA_CLASSPATH.\n",
          f);
}

static long parse_long(const char *s, const char *what) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0) die("bad %s: %s", what, s);
    return v;
}

static void parse(int argc, char **argv, options *o) {
    static char libjvm[4096];
    const char *jh = getenv("JAVA_HOME");
    if (jh && *jh) {
        snprintf(libjvm, sizeof libjvm, "%s/lib/server/libjvm.so", jh);
        o->libjvm = libjvm;
    } else {
        o->libjvm = WEBCRYPTO_JCA_BENCH_LIBJVM;
    }
    o->backend = "jca";
    o->sizes[0] = 1024, o->sizes[1] = 65536, o->sizes[2] = 1048576, o->nsizes = 3;
    for (int i = 0; i < OP_COUNT; i++) o->ops[i] = true;
    o->rounds = 31;
    o->batch_ms = 2;
    o->warmup_ops = 2000;
    o->warmup_seconds = 1;
    o->jit_quiet_seconds = 1;
    o->warmup_max_seconds = 20;
    o->heap = "512m";
    o->pin = -1;
    o->host_jvm = true;
    const char *jar = getenv("WEBCRYPTO_JCA_BENCH_JAR");
    o->jar = jar && *jar ? jar : WEBCRYPTO_JCA_BENCH_JAR;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_ARG()                                   \
    do {                                             \
        if (!v) die("%s needs an argument", a);      \
        i++;                                         \
    } while (0)
        if (strcmp(a, "--backend") == 0) {
            NEED_ARG();
            o->backend = v;
        } else if (strcmp(a, "--sizes") == 0) {
            NEED_ARG();
            char buf[1024];
            snprintf(buf, sizeof buf, "%s", v);
            o->nsizes = 0;
            for (char *s = NULL, *t = strtok_r(buf, ",", &s); t; t = strtok_r(NULL, ",", &s)) {
                if (o->nsizes == 32) die("at most 32 sizes");
                long n = parse_long(t, "size");
                if (n > (1L << 30)) die("size %ld too large", n);
                o->sizes[o->nsizes++] = (size_t)n;
            }
        } else if (strcmp(a, "--ops") == 0) {
            NEED_ARG();
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (int k = 0; k < OP_COUNT; k++) o->ops[k] = false;
            for (char *s = NULL, *t = strtok_r(buf, ",", &s); t; t = strtok_r(NULL, ",", &s)) {
                int k = 0;
                while (k < OP_COUNT && strcmp(t, op_short[k]) != 0) k++;
                if (k == OP_COUNT) die("unknown operation %s (sha256, hmac, gcm)", t);
                o->ops[k] = true;
            }
        } else if (strcmp(a, "--rounds") == 0) {
            NEED_ARG();
            o->rounds = (int)parse_long(v, "rounds");
            if (o->rounds < 3 || o->rounds > 100000) die("--rounds: 3 to 100000");
        } else if (strcmp(a, "--batch-ms") == 0) {
            NEED_ARG();
            o->batch_ms = atof(v);
            if (!(o->batch_ms > 0)) die("bad --batch-ms");
        } else if (strcmp(a, "--warmup-ops") == 0) {
            NEED_ARG();
            o->warmup_ops = parse_long(v, "warm-up operations");
        } else if (strcmp(a, "--warmup-seconds") == 0) {
            NEED_ARG();
            o->warmup_seconds = atof(v);
            if (!(o->warmup_seconds >= 0)) die("bad --warmup-seconds");
        } else if (strcmp(a, "--jit-quiet") == 0) {
            NEED_ARG();
            o->jit_quiet_seconds = atof(v);
            if (!(o->jit_quiet_seconds >= 0)) die("bad --jit-quiet");
        } else if (strcmp(a, "--warmup-max") == 0) {
            NEED_ARG();
            o->warmup_max_seconds = atof(v);
            if (!(o->warmup_max_seconds > 0)) die("bad --warmup-max");
        } else if (strcmp(a, "--heap") == 0) {
            NEED_ARG();
            o->heap = v;
        } else if (strcmp(a, "--pin") == 0) {
            NEED_ARG();
            o->pin = (int)parse_long(v, "CPU");
        } else if (strcmp(a, "--jvm") == 0) {
            NEED_ARG();
            if (strcmp(v, "host") == 0) o->host_jvm = true;
            else if (strcmp(v, "backend") == 0) o->host_jvm = false;
            else die("--jvm host or backend");
        } else if (strcmp(a, "--bounds") == 0) {
            o->bounds = true;
        } else if (strcmp(a, "--clock") == 0) {
            NEED_ARG();
            if (strcmp(v, "cpu") == 0) o->wall = false;
            else if (strcmp(v, "wall") == 0) o->wall = true;
            else die("--clock cpu or wall");
        } else if (strcmp(a, "--json") == 0) {
            o->json = true;
        } else if (strcmp(a, "--jar") == 0) {
            NEED_ARG();
            o->jar = v;
        } else if (strcmp(a, "--libjvm") == 0) {
            NEED_ARG();
            o->libjvm = v;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            usage(stderr);
            die("unknown option %s", a);
        }
#undef NEED_ARG
    }
}

/* ---- report ---- */
static double mbps(size_t size, double ns) { return ns > 0 ? (double)size / ns * 1e3 : 0; }

/* The targets for a cell: at 1 KiB and below, at most 1 us more per
 * call than in the JVM; from 64 KiB, at least 90% of the JVM's throughput;
 * AES-GCM at 1 MiB and above, also at most 1.25x the JVM's time. *why gets
 * each criterion with its measured value. */
static bool target_met(const cell *c, char *why, size_t cap) {
    double jvm = c->st[M_JVM].median, jca = c->st[M_JCA].median;
    if (c->size <= 1024) {
        bool met = jca - jvm <= 1000.0;
        snprintf(why, cap, "overhead %.3f us %s 1 us", (jca - jvm) / 1e3, met ? "<=" : ">");
        return met;
    }
    if (c->size >= 65536) {
        double share = jvm / jca;
        bool met = share >= 0.9;
        int w = snprintf(why, cap, "throughput %.1f%% %s 90%%", share * 100, met ? ">=" : "<");
        if (c->op == OP_GCM && c->size >= 1048576 && w > 0 && (size_t)w < cap) {
            bool t = jca <= 1.25 * jvm;
            snprintf(why + w, cap - (size_t)w, "; time %.3fx %s 1.25x", jca / jvm, t ? "<=" : ">");
            met = met && t;
        }
        return met;
    }
    snprintf(why, cap, "no target at this size");
    return true;
}

static void print_json_string(const char *s) {
    putchar('"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
}

static void report(const options *o, const cell *cells, size_t ncells, const char *provider_of[],
                   const char *java_version) {
    if (o->json) {
        printf("{\n  \"backend\": ");
        print_json_string(o->backend);
        printf(",\n  \"backend_description\": ");
        print_json_string(webcrypto_backend_description(be));
        printf(",\n  \"java_version\": ");
        print_json_string(java_version);
        printf(",\n  \"jvm\": \"%s\",\n  \"clock\": \"%s\",\n  \"build_type\": \"%s\",\n  \"rounds\": %d,\n"
               "  \"warmup_ops\": %ld,\n  \"warmup_seconds\": %g,\n  \"jit_quiet_seconds\": %g,\n"
               "  \"heap\": \"%s\",\n  \"pin\": %d,\n  \"batch_ms\": %g,\n"
               "  \"cells\": [\n",
               o->host_jvm ? "host" : "backend", o->wall ? "wall" : "thread-cpu",
               WEBCRYPTO_JCA_BENCH_BUILD_TYPE, o->rounds,
               o->warmup_ops, o->warmup_seconds, o->jit_quiet_seconds, o->heap ? o->heap : "0",
               o->pin, o->batch_ms);
        for (size_t i = 0; i < ncells; i++) {
            const cell *c = &cells[i];
            char why[128];
            bool met = target_met(c, why, sizeof why);
            printf("    {\"op\": \"%s\", \"size\": %zu, \"provider\": ", op_java_name[c->op],
                   c->size);
            print_json_string(provider_of[i]);
            printf(", \"batch\": %ld, \"ratio\": %.4f, \"overhead_us\": %.4f, "
                   "\"round_ratio\": {\"median\": %.4f, \"q1\": %.4f, \"q3\": %.4f}, "
                   "\"warmup_s\": %.2f, \"jit_quiet\": %s, \"jit_ms_in_rounds\": %ld, "
                   "\"gcs_in_rounds\": %ld, "
                   "\"target\": \"%s\", \"target_met\": %s, \"methods\": {",
                   c->batch, c->st[M_JCA].median / c->st[M_JVM].median,
                   (c->st[M_JCA].median - c->st[M_JVM].median) / 1e3, c->pr_median, c->pr_q1,
                   c->pr_q3, c->warmup_s, c->jit_quiet ? "true" : "false", c->jit_ms, c->gcs,
                   why, met ? "true" : "false");
            bool first = true;
            for (int m = 0; m < M_COUNT; m++) {
                if (!c->measured[m]) continue;
                printf("%s\"%s\": {\"median_us\": %.4f, \"q1_us\": %.4f, \"q3_us\": %.4f, "
                       "\"min_us\": %.4f, \"max_us\": %.4f, \"mb_per_s\": %.1f}",
                       first ? "" : ", ", method_name[m], c->st[m].median / 1e3,
                       c->st[m].q1 / 1e3, c->st[m].q3 / 1e3, c->st[m].min / 1e3,
                       c->st[m].max / 1e3, mbps(c->size, c->st[m].median));
                first = false;
            }
            printf("}}%s\n", i + 1 < ncells ? "," : "");
        }
        printf("  ]\n}\n");
        return;
    }
    printf("backend %s (%s), Java %s, JVM started by %s, %s build\n", o->backend,
           webcrypto_backend_description(be), java_version, o->host_jvm ? "this program" : "the backend",
           WEBCRYPTO_JCA_BENCH_BUILD_TYPE);
    printf("medians of %d alternating batches of ~%g ms after warm-up (>= %ld ops, >= %g s), "
           "%s time\n\n",
           o->rounds, o->batch_ms, o->warmup_ops, o->warmup_seconds,
           o->wall ? "wall-clock" : "thread CPU");
    printf("%-13s %8s %-8s %11s %11s %7s %11s %9s %9s  %s\n", "operation", "size", "provider",
           "jvm_us", "jca_us", "ratio", "overhead_us", "jvm_MB/s", "jca_MB/s", "target");
    for (size_t i = 0; i < ncells; i++) {
        const cell *c = &cells[i];
        char why[128];
        bool met = target_met(c, why, sizeof why);
        double jvm = c->st[M_JVM].median, jca = c->st[M_JCA].median;
        printf("%-13s %8zu %-8s %11.3f %11.3f %7.3f %11.3f %9.1f %9.1f  %s (%s)\n",
               op_java_name[c->op], c->size, provider_of[i], jvm / 1e3, jca / 1e3, jca / jvm,
               (jca - jvm) / 1e3, mbps(c->size, jvm), mbps(c->size, jca),
               met ? "met" : "MISSED", why);
    }
    printf("\nstability: per-round jca/jvm (the two batches of a round ran side by side), "
           "interquartile ranges,\nand what the JIT and the collector did during the rounds:\n");
    printf("%-13s %8s %8s %17s %15s %15s %9s %7s %5s\n", "operation", "size", "ratio",
           "round ratio q1..q3", "jvm IQR", "jca IQR", "warm-up", "JIT ms", "GCs");
    for (size_t i = 0; i < ncells; i++) {
        const cell *c = &cells[i];
        const stats *j = &c->st[M_JVM], *k = &c->st[M_JCA];
        char jr[40], kr[40];
        snprintf(jr, sizeof jr, "%+.1f%%..%+.1f%%", 100 * (j->q1 / j->median - 1),
                 100 * (j->q3 / j->median - 1));
        snprintf(kr, sizeof kr, "%+.1f%%..%+.1f%%", 100 * (k->q1 / k->median - 1),
                 100 * (k->q3 / k->median - 1));
        printf("%-13s %8zu %8.3f %8.3f..%-8.3f %15s %15s %7.1fs%s %7ld %5ld\n",
               op_java_name[c->op], c->size, c->pr_median, c->pr_q1, c->pr_q3, jr, kr,
               c->warmup_s, c->jit_quiet ? " " : "!", c->jit_ms, c->gcs);
    }
    printf("(warm-up marked ! ended at --warmup-max with the JIT still compiling)\n");
    if (o->bounds) {
        printf("\nwhat bounds the boundary (medians, us per operation):\n");
        printf("%-13s %8s %11s %11s %11s %11s %11s %11s\n", "operation", "size", "jvm", "jca",
               "copy-in", "copy-crit", "jni-array", "jni-direct");
        for (size_t i = 0; i < ncells; i++) {
            const cell *c = &cells[i];
            printf("%-13s %8zu %11.3f %11.3f %11.3f %11.3f %11.3f %11.3f\n",
                   op_java_name[c->op], c->size, c->st[M_JVM].median / 1e3,
                   c->st[M_JCA].median / 1e3, c->st[M_COPYIN].median / 1e3,
                   c->st[M_COPYCRIT].median / 1e3, c->st[M_ARRAY].median / 1e3,
                   c->st[M_DIRECT].median / 1e3);
        }
    }
}

int main(int argc, char **argv) {
    options o = {0};
    parse(argc, argv, &o);
    bench_clock = o.wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
    struct stat sb;
    if (stat(o.jar, &sb) != 0) die("JcaBench jar not found: %s (set --jar)", o.jar);

    JavaVM *vm = NULL;
    if (o.host_jvm) {
        vm = start_jvm(&o);
        check_wc(webcrypto_jca_set_java_vm(vm), "webcrypto_jca_set_java_vm");
        check_wc(webcrypto_backend_get(o.backend, &be), o.backend);
    } else {
        /* The backend starts the JVM; the jar joins its class path, which
         * the backend otherwise makes BouncyCastle's jar alone. */
        static char cp[8192];
        const char *user_cp = getenv("WEBCRYPTO_JCA_CLASSPATH");
        if (!user_cp && stat(WEBCRYPTO_JCA_BENCH_BCPROV, &sb) == 0)
            user_cp = WEBCRYPTO_JCA_BENCH_BCPROV;
        snprintf(cp, sizeof cp, "%s%s%s", o.jar, user_cp && *user_cp ? ":" : "",
                 user_cp ? user_cp : "");
        setenv("WEBCRYPTO_JCA_CLASSPATH", cp, 1);
        check_wc(webcrypto_backend_get(o.backend, &be), o.backend);
        find_backend_jvm();
    }
    check_wc(webcrypto_backend_get("openssl", &ref_be), "openssl (the reference)");
    if (o.pin >= 0) {
        /* This thread only (the JVM's threads, started before, keep their
         * CPUs, so that its JIT and collector do not share this one). */
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(o.pin, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            die("--pin %d: %s", o.pin, strerror(errno));
    }

    bench_cls = (*env)->FindClass(env, "JcaBench");
    check_java("FindClass JcaBench");
    bench_cls = (*env)->NewGlobalRef(env, bench_cls);
    mid_setup = (*env)->GetStaticMethodID(env, bench_cls, "setup",
                                          "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;[B[B)V");
    mid_run = (*env)->GetStaticMethodID(env, bench_cls, "run", "(I)J");
    mid_once = (*env)->GetStaticMethodID(env, bench_cls, "once", "(IJ)[B");
    mid_array = (*env)->GetStaticMethodID(env, bench_cls, "array", "([BI[B[B)I");
    mid_direct = (*env)->GetStaticMethodID(env, bench_cls, "direct",
                                           "(Ljava/nio/ByteBuffer;Ljava/nio/ByteBuffer;[B)I");
    mid_provider = (*env)->GetStaticMethodID(env, bench_cls, "providerName", "()Ljava/lang/String;");
    mid_version = (*env)->GetStaticMethodID(env, bench_cls, "javaVersion", "()Ljava/lang/String;");
    mid_jit = (*env)->GetStaticMethodID(env, bench_cls, "jitMillis", "()J");
    mid_gcs = (*env)->GetStaticMethodID(env, bench_cls, "gcCount", "()J");
    check_java("GetStaticMethodID");

    char java_version[128] = "?";
    jstring jv = (*env)->CallStaticObjectMethod(env, bench_cls, mid_version);
    check_java("JcaBench.javaVersion");
    const char *jvs = (*env)->GetStringUTFChars(env, jv, NULL);
    if (jvs) {
        snprintf(java_version, sizeof java_version, "%s", jvs);
        (*env)->ReleaseStringUTFChars(env, jv, jvs);
    }

    for (int i = 0; i < 32; i++) key_bytes[i] = (uint8_t)(i * 7 + 1);
    webcrypto_params hp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_params gp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    const unsigned hu = WEBCRYPTO_USAGE_SIGN, gu = WEBCRYPTO_USAGE_ENCRYPT;
    check_wc(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, key_bytes, 32, &hp, false, hu, &hmac_key),
             "import HMAC key");
    check_wc(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, key_bytes, 32, &gp, false, gu, &gcm_key),
             "import AES-GCM key");
    check_wc(webcrypto_import_key(ref_be, WEBCRYPTO_FORMAT_RAW, key_bytes, 32, &hp, false, hu,
                                  &ref_hmac_key), "import HMAC key (openssl)");
    check_wc(webcrypto_import_key(ref_be, WEBCRYPTO_FORMAT_RAW, key_bytes, 32, &gp, false, gu,
                                  &ref_gcm_key), "import AES-GCM key (openssl)");

    /* The JCA providers the backend variant uses. SunJCE has no
     * MessageDigest, so a SunJCE variant's digests come from the default
     * order (the SUN provider); see docs/JCA.md. */
    const char *variant = variant_of(o.backend);
    const char *dprov = variant && strcmp(variant, "SunJCE") != 0 ? variant : NULL;
    const char *mprov = variant;

    cell cells[OP_COUNT * 32];
    static char provider_buf[OP_COUNT * 32][32];
    const char *provider_of[OP_COUNT * 32];
    size_t ncells = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        if (!o.ops[op]) continue;
        for (size_t s = 0; s < o.nsizes; s++) {
            cell *c = &cells[ncells];
            memset(c, 0, sizeof *c);
            c->op = op;
            c->size = o.sizes[s];
            measure(&o, c, dprov, mprov);
            jstring pn = (*env)->CallStaticObjectMethod(env, bench_cls, mid_provider);
            check_java("JcaBench.providerName");
            const char *pns = (*env)->GetStringUTFChars(env, pn, NULL);
            snprintf(provider_buf[ncells], sizeof provider_buf[ncells], "%s", pns ? pns : "?");
            if (pns) (*env)->ReleaseStringUTFChars(env, pn, pns);
            (*env)->DeleteLocalRef(env, pn);
            provider_of[ncells] = provider_buf[ncells];
            ncells++;
            if (!o.json)
                fprintf(stderr, "measured %s %zu\n", op_java_name[op], o.sizes[s]);
        }
    }
    report(&o, cells, ncells, provider_of, java_version);
    webcrypto_key_free(hmac_key);
    webcrypto_key_free(gcm_key);
    webcrypto_key_free(ref_hmac_key);
    webcrypto_key_free(ref_gcm_key);
    /* The JVM is not destroyed: the backend may still hold references in it,
     * and DestroyJavaVM would wait for every non-daemon thread. */
    (void)vm;
    return 0;
}
