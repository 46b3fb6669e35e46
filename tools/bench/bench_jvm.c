/*
 * The jvm baseline: the same operations as the jca backend's, made by Java
 * code inside the JVM the jca backend uses, timed there (JcaBench.Cell in
 * tools/jca-bench/JcaBench.java), so that the jca targets' overhead is a
 * ratio against the JCA calls alone.
 *
 * The bench starts the JVM itself, with the JcaBench jar on the class path
 * (and what the backend would put there: $WEBCRYPTO_JCA_CLASSPATH, else
 * BouncyCastle's jar), -Xrs and $WEBCRYPTO_JCA_OPTIONS as the backend does,
 * and hands it to libwebcrypto with webcrypto_jca_set_java_vm before any jca
 * use. Everything here runs on the thread that created the JVM (the bench's
 * main thread); --threads does not apply to jvm targets.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <jni.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_internal.h"

#ifndef WEBCRYPTO_BENCH_JVM_JAR
#define WEBCRYPTO_BENCH_JVM_JAR "jca-bench.jar"
#endif
#ifndef WEBCRYPTO_BENCH_JVM_JDK
#define WEBCRYPTO_BENCH_JVM_JDK ""
#endif
#ifndef WEBCRYPTO_BENCH_JVM_BCPROV
#define WEBCRYPTO_BENCH_JVM_BCPROV ""
#endif

/* JcaBench's kinds (JcaBench.K_*). */
enum { K_DIGEST = 0, K_MAC_SIGN = 1, K_MAC_VERIFY = 2, K_ENCRYPT = 3, K_DECRYPT = 4 };

static struct {
    bool tried, ok;
    char error[512];
    char version[128];
    JavaVM *vm;
    jclass bench, cell;
    jmethodID supports, has_provider, make, run, warmup, output, provider, jit_ms;
    double warmup_ms, max_ms;
    unsigned warmup_calls;
} jvm;

typedef struct jvm_state {
    jobject cell; /* global reference to the JcaBench.Cell */
} jvm_state;

static JNIEnv *get_env(void) {
    void *env = NULL;
    if (!jvm.vm || (*jvm.vm)->GetEnv(jvm.vm, &env, JNI_VERSION_1_8) != JNI_OK) return NULL;
    return env;
}

/* A pending Java exception as text (its toString()), cleared. */
static void describe_exception(JNIEnv *env, char *buf, size_t cap) {
    jthrowable t = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    snprintf(buf, cap, "a Java exception");
    if (!t) return;
    jclass cls = (*env)->FindClass(env, "java/lang/Object");
    jmethodID m = cls ? (*env)->GetMethodID(env, cls, "toString", "()Ljava/lang/String;") : NULL;
    jstring s = m ? (*env)->CallObjectMethod(env, t, m) : NULL;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    const char *c = s ? (*env)->GetStringUTFChars(env, s, NULL) : NULL;
    if (c) {
        snprintf(buf, cap, "%s", c);
        (*env)->ReleaseStringUTFChars(env, s, c);
    }
    if (s) (*env)->DeleteLocalRef(env, s);
    if (cls) (*env)->DeleteLocalRef(env, cls);
    (*env)->DeleteLocalRef(env, t);
}

/* bench_fail with the pending exception; returns -1. */
static int java_fail(JNIEnv *env, const char *what) {
    char msg[140];
    describe_exception(env, msg, sizeof msg);
    bench_fail("%s: %s", what, msg);
    return -1;
}

static bool readable(const char *p) { return p && *p && access(p, R_OK) == 0; }

/* libjvm as the backend finds it: $JAVA_HOME, /usr/lib/jvm/default-java,
 * then the JDK of the build. */
static void *open_libjvm(void) {
    const char *homes[] = {getenv("JAVA_HOME"), "/usr/lib/jvm/default-java",
                           WEBCRYPTO_BENCH_JVM_JDK};
    size_t used = 0;
    for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++) {
        if (!homes[i] || !*homes[i]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/lib/server/libjvm.so", homes[i]);
        if (!readable(path)) continue;
        /* RTLD_GLOBAL, as the java launcher does: the JDK's own libraries
         * resolve JVM symbols through it. */
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (h) return h;
        int w = snprintf(jvm.error + used, sizeof jvm.error - used, "%s; ", dlerror());
        if (w > 0 && (size_t)w < sizeof jvm.error - used) used += (size_t)w;
    }
    snprintf(jvm.error + used, sizeof jvm.error - used,
             "no libjvm.so under $JAVA_HOME, /usr/lib/jvm/default-java or %s",
             *WEBCRYPTO_BENCH_JVM_JDK ? WEBCRYPTO_BENCH_JVM_JDK : "(no build JDK)");
    return NULL;
}

static const char *jar_path(void) {
    const char *j = getenv("WEBCRYPTO_JCA_BENCH_JAR");
    return j && *j ? j : WEBCRYPTO_BENCH_JVM_JAR;
}

static bool method(JNIEnv *env, jclass cls, bool is_static, const char *name, const char *sig,
                   jmethodID *out) {
    *out = is_static ? (*env)->GetStaticMethodID(env, cls, name, sig)
                     : (*env)->GetMethodID(env, cls, name, sig);
    if (*out && !(*env)->ExceptionCheck(env)) return true;
    char msg[200];
    describe_exception(env, msg, sizeof msg);
    snprintf(jvm.error, sizeof jvm.error, "JcaBench.%s: %s", name, msg);
    return false;
}

static bool global_class(JNIEnv *env, const char *name, jclass *out) {
    jclass c = (*env)->FindClass(env, name);
    if (!c || (*env)->ExceptionCheck(env)) {
        char msg[200];
        describe_exception(env, msg, sizeof msg);
        snprintf(jvm.error, sizeof jvm.error, "class %s not found in %s: %s", name, jar_path(),
                 msg);
        return false;
    }
    *out = (*env)->NewGlobalRef(env, c);
    (*env)->DeleteLocalRef(env, c);
    if (!*out) snprintf(jvm.error, sizeof jvm.error, "NewGlobalRef failed");
    return *out != NULL;
}

typedef jint (*create_vm_fn)(JavaVM **, void **, void *);

static bool start(void) {
    const char *jar = jar_path();
    if (!readable(jar)) {
        snprintf(jvm.error, sizeof jvm.error,
                 "the JcaBench jar %s is not there (set WEBCRYPTO_JCA_BENCH_JAR)", jar);
        return false;
    }
    void *lib = open_libjvm();
    if (!lib) return false;
    void *sym = dlsym(lib, "JNI_CreateJavaVM");
    if (!sym) {
        snprintf(jvm.error, sizeof jvm.error, "JNI_CreateJavaVM not in libjvm");
        return false;
    }
    create_vm_fn create;
    memcpy(&create, &sym, sizeof create);
    /* The backend's class path (WEBCRYPTO_JCA_CLASSPATH, else bcprov.jar),
     * after the jar. */
    static char cp[8192], user[4096];
    const char *extra = getenv("WEBCRYPTO_JCA_CLASSPATH");
    if (!extra) extra = readable(WEBCRYPTO_BENCH_JVM_BCPROV) ? WEBCRYPTO_BENCH_JVM_BCPROV : "";
    int w = snprintf(cp, sizeof cp, "-Djava.class.path=%s%s%s", jar, *extra ? ":" : "", extra);
    if (w < 0 || (size_t)w >= sizeof cp) {
        snprintf(jvm.error, sizeof jvm.error, "class path too long");
        return false;
    }
    JavaVMOption opts[64];
    int n = 0;
    opts[n++].optionString = cp;
    /* As the backend: SIGINT and friends stay with the program (the bench
     * handles Ctrl-C). */
    opts[n++].optionString = (char *)"-Xrs";
    const char *uo = getenv("WEBCRYPTO_JCA_OPTIONS");
    if (uo) {
        snprintf(user, sizeof user, "%s", uo);
        char *save = NULL;
        for (char *o = strtok_r(user, " \t\n", &save); o; o = strtok_r(NULL, " \t\n", &save)) {
            if (n == 64) {
                snprintf(jvm.error, sizeof jvm.error, "more than 62 WEBCRYPTO_JCA_OPTIONS");
                return false;
            }
            opts[n++].optionString = o;
        }
    }
    for (int i = 0; i < n; i++) opts[i].extraInfo = NULL;
    JavaVMInitArgs args = {.version = JNI_VERSION_1_8, .nOptions = n, .options = opts,
                           .ignoreUnrecognized = JNI_FALSE};
    void *penv = NULL;
    jint rc = create(&jvm.vm, &penv, &args);
    if (rc != JNI_OK) {
        jvm.vm = NULL;
        snprintf(jvm.error, sizeof jvm.error, "JNI_CreateJavaVM returned %d", (int)rc);
        return false;
    }
    webcrypto_status st = webcrypto_jca_set_java_vm(jvm.vm);
    if (st != WEBCRYPTO_OK) {
        /* The JVM stays (it cannot be destroyed and made again); the jvm
         * targets are not offered, as the jca backend would not share it. */
        snprintf(jvm.error, sizeof jvm.error, "webcrypto_jca_set_java_vm: %s: %s",
                 webcrypto_status_name(st), webcrypto_error_message());
        return false;
    }
    JNIEnv *env = penv;
    if (!global_class(env, "JcaBench", &jvm.bench) ||
        !global_class(env, "JcaBench$Cell", &jvm.cell) ||
        !method(env, jvm.bench, true, "supports", "(ILjava/lang/String;Ljava/lang/String;)Z",
                &jvm.supports) ||
        !method(env, jvm.bench, true, "hasProvider", "(Ljava/lang/String;)Z", &jvm.has_provider) ||
        !method(env, jvm.bench, true, "cell",
                "(ILjava/lang/String;Ljava/lang/String;[B[B[B)LJcaBench$Cell;", &jvm.make) ||
        !method(env, jvm.cell, false, "run", "(I)J", &jvm.run) ||
        !method(env, jvm.cell, false, "warmup", "(JJJ)J", &jvm.warmup) ||
        !method(env, jvm.cell, false, "output", "()[B", &jvm.output) ||
        !method(env, jvm.cell, false, "provider", "()Ljava/lang/String;", &jvm.provider) ||
        !method(env, jvm.bench, true, "jitMillis", "()J", &jvm.jit_ms))
        return false;
    jmethodID ver;
    if (!method(env, jvm.bench, true, "javaVersion", "()Ljava/lang/String;", &ver)) return false;
    jstring s = (*env)->CallStaticObjectMethod(env, jvm.bench, ver);
    const char *c = s && !(*env)->ExceptionCheck(env) ? (*env)->GetStringUTFChars(env, s, NULL)
                                                      : NULL;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    snprintf(jvm.version, sizeof jvm.version, "%s", c ? c : "Java (version unknown)");
    if (c) (*env)->ReleaseStringUTFChars(env, s, c);
    if (s) (*env)->DeleteLocalRef(env, s);
    return true;
}

int bench_jvm_start(void) {
    if (!jvm.tried) {
        jvm.tried = true;
        jvm.ok = start();
    }
    return jvm.ok ? 0 : -1;
}

const char *bench_jvm_error(void) { return jvm.error; }

static jstring new_string(JNIEnv *env, const char *s) {
    return s && *s ? (*env)->NewStringUTF(env, s) : NULL;
}

int bench_jvm_has_provider(const char *provider, char *why, size_t cap) {
    if (bench_jvm_start()) {
        snprintf(why, cap, "%s", jvm.error);
        return -1;
    }
    if (!provider || !*provider) return 0;
    JNIEnv *env = get_env();
    if (!env) {
        snprintf(why, cap, "this thread is not attached to the JVM");
        return -1;
    }
    jstring p = new_string(env, provider);
    jboolean ok = p ? (*env)->CallStaticBooleanMethod(env, jvm.bench, jvm.has_provider, p)
                    : JNI_FALSE;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    if (p) (*env)->DeleteLocalRef(env, p);
    if (!ok) {
        snprintf(why, cap, "no JCA provider %s in the JVM%s", provider,
                 strcmp(provider, "BC") == 0 ? " (bcprov.jar not on the class path)" : "");
        return -1;
    }
    return 0;
}

void bench_jvm_describe(const char *provider, char *buf, size_t cap) {
    snprintf(buf, cap, "JCA in the jca backend's JVM (%s), %s; timed in Java around the JCA "
                       "calls (JcaBench.Cell)",
             jvm.version, provider && *provider ? provider : "the JVM's provider order");
}

long bench_jvm_jit_ms(void) {
    JNIEnv *env = jvm.ok ? get_env() : NULL;
    if (!env) return -1;
    jlong v = (*env)->CallStaticLongMethod(env, jvm.bench, jvm.jit_ms);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        return -1;
    }
    return (long)v;
}

void bench_jvm_set_warmup(double warmup_ms, unsigned warmup_calls, double max_ms) {
    jvm.warmup_ms = warmup_ms;
    jvm.warmup_calls = warmup_calls;
    jvm.max_ms = max_ms;
}

/* The bench's operation as JcaBench's kind and JCA algorithm name; false
 * for those the Java side does not have (KDFs, random, key operations,
 * the asymmetric ones). */
static bool java_name(const bench_op *op, int *kind, char *alg, size_t cap) {
    /* A SHA-2 (or SHA-1) hash's bits ("256"): Java's names are the
     * WebCrypto name ("SHA-256") and "HmacSHA256". */
    webcrypto_algorithm ha = op->kind == BK_DIGEST ? op->alg : op->hash;
    const char *hn = webcrypto_algorithm_name(ha);
    const char *h = NULL;
    if (webcrypto_algorithm_has_operation(ha, WEBCRYPTO_OP_DIGEST) && hn &&
        strncmp(hn, "SHA-", 4) == 0)
        h = hn + 4;
    switch (op->kind) {
    case BK_DIGEST:
        /* SHA-3: Java's name is the WebCrypto one ("SHA3-256") */
        if (!h && hn && strncmp(hn, "SHA3-", 5) == 0 &&
            webcrypto_algorithm_has_operation(ha, WEBCRYPTO_OP_DIGEST)) {
            *kind = K_DIGEST;
            snprintf(alg, cap, "%s", hn);
            return true;
        }
        if (!h) return false;
        *kind = K_DIGEST;
        snprintf(alg, cap, "SHA-%s", h);
        return true;
    case BK_HMAC_SIGN:
    case BK_HMAC_VERIFY:
        if (!h) return false;
        *kind = op->kind == BK_HMAC_SIGN ? K_MAC_SIGN : K_MAC_VERIFY;
        snprintf(alg, cap, "HmacSHA%s", h);
        return true;
    case BK_ENCRYPT:
    case BK_DECRYPT:
        *kind = op->kind == BK_ENCRYPT ? K_ENCRYPT : K_DECRYPT;
        /* CBC: Java's own padding, the same PKCS#7 bytes as WebCrypto's. */
        if (op->alg == WEBCRYPTO_ALG_AES_GCM) snprintf(alg, cap, "AES/GCM/NoPadding");
        else if (op->alg == WEBCRYPTO_ALG_AES_CBC) snprintf(alg, cap, "AES/CBC/PKCS5Padding");
        else if (op->alg == WEBCRYPTO_ALG_AES_CTR) snprintf(alg, cap, "AES/CTR/NoPadding");
        /* BouncyCastle's name, the one the jca backend asks for. */
        else if (op->alg == WEBCRYPTO_ALG_AES_GCM_SIV) snprintf(alg, cap, "AES/GCM-SIV/NoPadding");
        else return false;
        return true;
    case BK_GENERATE_KEY:
    case BK_IMPORT_KEY:
    case BK_HKDF:
    case BK_PBKDF2:
    case BK_RANDOM:
    case BK_PKEY_SIGN:
    case BK_PKEY_VERIFY:
    case BK_PKEY_ENCRYPT:
    case BK_PKEY_DECRYPT:
    case BK_PKEY_DERIVE:
    case BK_PKEY_GENERATE:
    case BK_KMAC_SIGN: /* the JCA's (BouncyCastle's) KMAC has no output length or S */
    case BK_KEM_ENCAPSULATE: /* no Java counterpart here (yet) */
    case BK_KEM_DECAPSULATE:
    case BK_ARGON2:
    case BK_COUNT: break;
    }
    return false;
}

bool bench_jvm_supports(const bench_op *op, const char *provider) {
    int kind;
    char alg[40];
    if (!jvm.ok || !java_name(op, &kind, alg, sizeof alg)) return false;
    JNIEnv *env = get_env();
    if (!env) return false;
    jstring a = (*env)->NewStringUTF(env, alg);
    jstring p = new_string(env, provider);
    jboolean ok = a ? (*env)->CallStaticBooleanMethod(env, jvm.bench, jvm.supports, (jint)kind,
                                                      a, p)
                    : JNI_FALSE;
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        ok = JNI_FALSE;
    }
    if (a) (*env)->DeleteLocalRef(env, a);
    if (p) (*env)->DeleteLocalRef(env, p);
    return ok == JNI_TRUE;
}

static jbyteArray new_bytes(JNIEnv *env, const uint8_t *p, size_t n) {
    jbyteArray a = (*env)->NewByteArray(env, (jsize)n);
    if (a && n) (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)p);
    return a;
}

static void jvm_teardown(bench_cell *c) {
    jvm_state *s = c->raw;
    JNIEnv *env = get_env();
    if (s && s->cell && env) (*env)->DeleteGlobalRef(env, s->cell);
    free(s);
    c->raw = NULL;
}

static int jvm_setup(bench_cell *c) {
    int kind;
    char alg[40];
    if (!java_name(c->op, &kind, alg, sizeof alg)) {
        bench_fail("jvm: no Java counterpart of %s", c->op->name);
        return -1;
    }
    if (c->size > (size_t)INT32_MAX - 64) {
        bench_fail("jvm: %zu bytes do not fit a Java array", c->size);
        return -1;
    }
    JNIEnv *env = get_env();
    if (!env) {
        bench_fail("jvm: this thread is not attached to the JVM");
        return -1;
    }
    jvm_state *s = calloc(1, sizeof *s);
    if (!s) {
        bench_fail("out of memory");
        return -1;
    }
    c->raw = s;
    /* CBC padding, the GCM tag: at most 16 bytes more. */
    c->out_cap = c->size + 16 < 64 ? 64 : c->size + 16;
    int rc = -1;
    if ((*env)->PushLocalFrame(env, 8) != 0) return java_fail(env, "jvm: PushLocalFrame");
    jstring a = (*env)->NewStringUTF(env, alg);
    jstring p = new_string(env, c->jvm_provider);
    jbyteArray key = new_bytes(env, c->key_bytes, c->key_len);
    jbyteArray iv = new_bytes(env, c->iv, c->iv_len);
    jbyteArray in = new_bytes(env, c->data, c->size);
    if ((*env)->ExceptionCheck(env) || !a || !key || !iv || !in) {
        java_fail(env, "jvm: the cell's arrays");
        goto done;
    }
    jobject cell = (*env)->CallStaticObjectMethod(env, jvm.bench, jvm.make, (jint)kind, a, p, key,
                                                  iv, in);
    if ((*env)->ExceptionCheck(env) || !cell) {
        java_fail(env, "jvm: JcaBench.cell");
        goto done;
    }
    s->cell = (*env)->NewGlobalRef(env, cell);
    if (!s->cell) {
        bench_fail("jvm: NewGlobalRef failed");
        goto done;
    }
    /* Java's own warm-up first, so that the JIT has compiled the path
     * before the bench's warm-up sizes batches: the bench's minimums, with
     * at least 2000 calls (C2 compiles after ~10^4 loop iterations, which a
     * large input reaches in fewer calls) and the calls yielding to half
     * the cell budget, as in the bench's own warm-up. */
    double ms = jvm.warmup_ms;
    long long calls = jvm.warmup_calls > 2000 ? (long long)jvm.warmup_calls : 2000;
    (*env)->CallLongMethod(env, s->cell, jvm.warmup, (jlong)calls, (jlong)(ms * 1e6),
                           (jlong)(jvm.max_ms * 1e6 / 2));
    if ((*env)->ExceptionCheck(env)) {
        java_fail(env, "jvm: warm-up");
        goto done;
    }
    rc = 0;
done:
    (*env)->PopLocalFrame(env, NULL);
    return rc;
}

static int jvm_run(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const jvm_state *s = c->raw;
    JNIEnv *env = get_env();
    if (!env || !s || !s->cell) {
        bench_fail("jvm: no cell");
        return -1;
    }
    jbyteArray r = (*env)->CallObjectMethod(env, s->cell, jvm.output);
    if ((*env)->ExceptionCheck(env) || !r) return java_fail(env, "jvm: JcaBench.Cell.output");
    size_t n = (size_t)(*env)->GetArrayLength(env, r);
    if (n > c->out_cap) {
        (*env)->DeleteLocalRef(env, r);
        bench_fail("jvm: %zu bytes of output, more than %zu", n, c->out_cap);
        return -1;
    }
    (*env)->GetByteArrayRegion(env, r, 0, (jsize)n, (jbyte *)out);
    (*env)->DeleteLocalRef(env, r);
    *out_len = n;
    return 0;
}

/* n operations timed inside the JVM (one JNI call: its own cost is not in
 * the figure). */
static double jvm_batch(const bench_cell *c, size_t n) {
    const jvm_state *s = c->raw;
    JNIEnv *env = get_env();
    if (!env || !s || !s->cell || n > INT32_MAX) {
        bench_fail("jvm: no cell");
        return -1;
    }
    jlong ns = (*env)->CallLongMethod(env, s->cell, jvm.run, (jint)n);
    if ((*env)->ExceptionCheck(env)) return java_fail(env, "jvm: JcaBench.Cell.run");
    return (double)ns;
}

static const bench_impl jvm_impl = {
    .setup = jvm_setup, .run = jvm_run, .teardown = jvm_teardown, .batch = jvm_batch};

const bench_impl *bench_jvm_impl(const bench_op *op) {
    int kind;
    char alg[40];
    return java_name(op, &kind, alg, sizeof alg) ? &jvm_impl : NULL;
}
