/*
 * jca_jvm.c - the jca backend's JVM: loading libjvm lazily, creating or
 * joining the JVM, the classes and method IDs cached for the process, the
 * per-thread state (attachment, reusable arrays, engines), and the mapping of
 * Java exceptions to statuses.
 *
 * libjvm is never linked: it is dlopen'ed on the first init of a jca
 * variant, so a program that never selects jca never loads a JVM.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT, secure_getenv */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "jca_internal.h"

#ifdef __ANDROID__
/* Bionic has no secure_getenv. It is read only on the way to a JVM this
 * backend would create, which an Android app never does (its VM is handed
 * over), and app processes are never set-user-ID. Not built here: see
 * docs/ANDROID.md. */
#define secure_getenv getenv
#endif

#ifndef WEBCRYPTO_JCA_JDK_HOME
#define WEBCRYPTO_JCA_JDK_HOME ""
#endif
#ifndef WEBCRYPTO_JCA_DEFAULT_CLASSPATH
#define WEBCRYPTO_JCA_DEFAULT_CLASSPATH ""
#endif

JavaVM *jca_vm;
jca_refs jca;
atomic_long jca_stat_globals;
atomic_long jca_stat_unbalanced;
atomic_long jca_stat_pending;

static webcrypto_status start_status = WEBCRYPTO_OK;
static bool started;
static char start_message[512];
static char java_description[256];
static pthread_key_t thread_key;

/* fork(): a JVM does not survive it (its threads - the compiler, the
 * collector, the signal dispatcher - are not copied), so a child forked
 * after the JVM started would hang or crash on its first JNI call. The
 * child handler marks the child; jca_thread_get then refuses, and with it
 * every entry point, and frees skip their JNI calls (the Java objects died
 * with the parent's copy). Registered at load, not from init (init runs
 * under the registry's lock, which the core's fork handler takes: calling
 * pthread_atfork there could deadlock with a concurrent fork). */
static atomic_bool vm_published;
static atomic_bool forked_child;
static void at_fork_child(void) {
    if (atomic_load_explicit(&vm_published, memory_order_relaxed))
        atomic_store_explicit(&forked_child, true, memory_order_relaxed);
}
__attribute__((constructor)) static void jca_atfork(void) {
    (void)pthread_atfork(NULL, NULL, at_fork_child);
}

bool jca_in_forked_child(void) {
    return atomic_load_explicit(&forked_child, memory_order_relaxed);
}

webcrypto_status jca_forked_error(void) {
    return wc_error(WEBCRYPTO_ERR_OPERATION,
                    "jca: this process was forked after the jca backend started its Java VM, and "
                    "a JVM does not survive fork(): a forked child cannot use the jca backend "
                    "(start it only in the process that uses it; see webcrypto.h, fork)");
}

typedef jint(JNICALL *create_vm_fn)(JavaVM **, void **, void *);
typedef jint(JNICALL *created_vms_fn)(JavaVM **, jsize, jsize *);

/* ---- exceptions: the one place they become statuses ---- */

/* The status of ex (cleared already; its local reference is deleted). */
static webcrypto_status map_exception(JNIEnv *env, jthrowable ex, const char *what) {
    if (!ex) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: %s failed", what);
    webcrypto_status st = WEBCRYPTO_ERR_OPERATION;
    if ((*env)->IsInstanceOf(env, ex, jca.AEADBadTagException) ||
        (*env)->IsInstanceOf(env, ex, jca.BadPaddingException))
        st = WEBCRYPTO_ERR_OPERATION;
    else if ((*env)->IsInstanceOf(env, ex, jca.InvalidKeySpecException))
        st = WEBCRYPTO_ERR_DATA;
    else if ((*env)->IsInstanceOf(env, ex, jca.NoSuchAlgorithmException) ||
             (*env)->IsInstanceOf(env, ex, jca.NoSuchProviderException))
        st = WEBCRYPTO_ERR_NOT_SUPPORTED;
    else if ((*env)->IsInstanceOf(env, ex, jca.OutOfMemoryError))
        st = WEBCRYPTO_ERR_NO_MEMORY;
    /* Throwable.toString(): the class name and the message. */
    char text[400] = "(no description)";
    jstring s = (*env)->CallObjectMethod(env, ex, jca.thr_to_string);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
    } else if (s) {
        const char *u = (*env)->GetStringUTFChars(env, s, NULL);
        if (u) {
            snprintf(text, sizeof text, "%s", u);
            (*env)->ReleaseStringUTFChars(env, s, u);
        } else {
            (*env)->ExceptionClear(env);
        }
        (*env)->DeleteLocalRef(env, s);
    }
    (*env)->DeleteLocalRef(env, ex);
    return wc_error(st, "jca: %s: %s", what, text);
}

webcrypto_status jca_exception(JNIEnv *env, const char *what) {
    jthrowable ex = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    return map_exception(env, ex, what);
}

webcrypto_status jca_exception_verify_key(JNIEnv *env, const char *what, bool *refused) {
    jthrowable ex = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    *refused = ex && (*env)->IsInstanceOf(env, ex, jca.InvalidKeyException);
    if (!*refused) return map_exception(env, ex, what);
    (*env)->DeleteLocalRef(env, ex);
    return WEBCRYPTO_OK;
}

/* ---- references and frames ---- */

jobject jca_global(JNIEnv *env, jobject local) {
    if (!local) return NULL;
    jobject g = (*env)->NewGlobalRef(env, local);
    if (g) atomic_fetch_add_explicit(&jca_stat_globals, 1, memory_order_relaxed);
    return g;
}

void jca_global_free(JNIEnv *env, jobject global) {
    if (!global) return;
    (*env)->DeleteGlobalRef(env, global);
    atomic_fetch_sub_explicit(&jca_stat_globals, 1, memory_order_relaxed);
}

webcrypto_status jca_frame_push(jca_thread *t, jint capacity) {
    if ((*t->env)->PushLocalFrame(t->env, capacity) != 0)
        return jca_exception(t->env, "PushLocalFrame");
    t->frame_depth++;
    return WEBCRYPTO_OK;
}

void jca_frame_pop(jca_thread *t) {
    (*t->env)->PopLocalFrame(t->env, NULL);
    if (--t->frame_depth != 0)
        atomic_fetch_add_explicit(&jca_stat_unbalanced, 1, memory_order_relaxed);
}

/* ---- per-thread state ---- */

static void engines_free(JNIEnv *env, jca_thread_engines *e) {
    for (int h = 0; h < JCA_N_HASH; h++) {
        jca_global_free(env, e->md[h]);
        for (int s = 0; s < JCA_MAC_SLOTS; s++) jca_global_free(env, e->mac[h][s]);
    }
    jca_global_free(env, e->cbc);
    jca_global_free(env, e->ctr);
    jca_global_free(env, e->kw);
    for (int k = 0; k < WC_KMAC_COUNT; k++) jca_global_free(env, e->kmac[k]);
    for (int x = 0; x < WC_XOF_COUNT; x++) jca_global_free(env, e->shake[x]);
    jca_global_free(env, e->gcm.c);
    jca_global_free(env, e->siv.c);
    jca_global_free(env, e->cc.c);
    jca_global_free(env, e->ocb.c);
    for (int h = 0; h < JCA_N_HASH; h++) {
        jca_global_free(env, e->rsa[h].e);
        jca_global_free(env, e->pss[h].e);
        jca_global_free(env, e->ecdsa[h].e);
    }
    jca_global_free(env, e->ed.e);
    jca_global_free(env, e->ed448.e);
    jca_global_free(env, e->oaep);
    jca_global_free(env, e->ecdh);
    jca_global_free(env, e->x25519);
    jca_global_free(env, e->x448);
    jca_global_free(env, e->ml_dsa.e);
    jca_global_free(env, e->kem);
    jca_global_free(env, e->kem_enc.e);
    jca_global_free(env, e->kem_dec.e);
}

void jca_thread_engines_reset(jca_thread *t, int index) {
    engines_free(t->env, &t->v[index]);
    memset(&t->v[index], 0, sizeof t->v[index]);
}

static _Thread_local jca_thread *tl_thread;

/* At thread exit (pthread key destructor): drops the thread's engines and
 * arrays, and detaches the thread if this backend attached it - only then:
 * a thread the host attached stays the host's to detach. A native thread
 * that called in and ends without detaching would otherwise keep a
 * java.lang.Thread alive and make Android's VM abort. */
static void thread_free(void *p) {
    jca_thread *t = p;
    if (!t) return;
    /* Runs on the exiting thread: a later destructor (another library's)
     * that frees a key must not find the freed state. */
    if (tl_thread == t) tl_thread = NULL;
    if (jca_in_forked_child()) { /* the JVM is the parent's */
        free(t);
        return;
    }
    JNIEnv *env = NULL;
    bool temp_attach = false;
    jint r = (*jca_vm)->GetEnv(jca_vm, (void **)&env, JCA_JNI_VERSION);
    if (r == JNI_EDETACHED) {
        /* The host detached a thread it had attached: attach briefly so the
         * global references can be released. */
        if ((*jca_vm)->AttachCurrentThreadAsDaemon(jca_vm, (void **)&env, NULL) != JNI_OK) {
            free(t);
            return;
        }
        temp_attach = true;
    } else if (r != JNI_OK) {
        free(t);
        return;
    }
    for (int i = 0; i < JCA_MAX_VARIANTS; i++) engines_free(env, &t->v[i]);
    jca_global_free(env, t->in_buf);
    jca_global_free(env, t->out_buf);
    if (t->attached_by_us || temp_attach) (*jca_vm)->DetachCurrentThread(jca_vm);
    free(t);
}

static jbyteArray new_global_array(JNIEnv *env, size_t len) {
    jbyteArray a = (*env)->NewByteArray(env, (jsize)len);
    if ((*env)->ExceptionCheck(env) || !a) return NULL;
    jbyteArray g = jca_global(env, a);
    (*env)->DeleteLocalRef(env, a);
    return g;
}

/* Attaches the thread (as a daemon, so it never holds up the JVM's
 * shutdown) on first use; the key's destructor detaches it. */
static jca_thread *thread_new(void) {
    JNIEnv *env = NULL;
    bool attached = false;
    jint r = (*jca_vm)->GetEnv(jca_vm, (void **)&env, JCA_JNI_VERSION);
    if (r == JNI_EDETACHED) {
        JavaVMAttachArgs args = {.version = JCA_JNI_VERSION, .name = (char *)"webcrypto-jca",
                                 .group = NULL};
        r = (*jca_vm)->AttachCurrentThreadAsDaemon(jca_vm, (void **)&env, &args);
        attached = r == JNI_OK;
    }
    if (r != JNI_OK || !env) {
        wc_error(WEBCRYPTO_ERR_OPERATION, "jca: cannot attach this thread to the JVM (JNI error %d)",
                 (int)r);
        return NULL;
    }
    jca_thread *t = calloc(1, sizeof *t);
    if (!t) {
        if (attached) (*jca_vm)->DetachCurrentThread(jca_vm);
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        return NULL;
    }
    t->env = env;
    t->attached_by_us = attached;
    t->in_cap = JCA_CHUNK + JCA_OUT_SLACK;
    t->in_buf = new_global_array(env, t->in_cap);
    if (t->in_buf) t->out_buf = new_global_array(env, JCA_CHUNK + JCA_OUT_SLACK);
    if (!t->out_buf) {
        webcrypto_status st = (*env)->ExceptionCheck(env) ? jca_exception(env, "NewByteArray")
                                                          : WEBCRYPTO_ERR_NO_MEMORY;
        (void)st;
        jca_global_free(env, t->in_buf);
        if (attached) (*jca_vm)->DetachCurrentThread(jca_vm);
        free(t);
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: cannot allocate the thread's Java arrays");
        return NULL;
    }
    if (pthread_setspecific(thread_key, t) != 0) {
        thread_free(t);
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: pthread_setspecific failed");
        return NULL;
    }
    tl_thread = t;
    return t;
}

jca_thread *jca_thread_get(void) {
    if (jca_in_forked_child()) {
        jca_forked_error();
        return NULL;
    }
    jca_thread *t = tl_thread;
    if (t) {
        if (!t->attached_by_us) {
            /* A thread the host attached may have been detached and attached
             * again since: its JNIEnv is looked up each time (cheap). */
            JNIEnv *env = NULL;
            if ((*jca_vm)->GetEnv(jca_vm, (void **)&env, JCA_JNI_VERSION) != JNI_OK) {
                JavaVMAttachArgs args = {.version = JCA_JNI_VERSION,
                                         .name = (char *)"webcrypto-jca", .group = NULL};
                if ((*jca_vm)->AttachCurrentThreadAsDaemon(jca_vm, (void **)&env, &args) !=
                    JNI_OK) {
                    wc_error(WEBCRYPTO_ERR_OPERATION, "jca: cannot attach this thread to the JVM");
                    return NULL;
                }
                t->attached_by_us = true;
            }
            t->env = env;
        }
        return t;
    }
    return thread_new();
}

/* ---- loading the JVM ---- */

static bool readable(const char *path) { return path && *path && access(path, R_OK) == 0; }

/* The libjvm already in the process (a host JVM); else $JAVA_HOME's and
 * only that one when JAVA_HOME is set (a JAVA_HOME without a usable libjvm
 * is an error naming it, never a silent switch to another JDK); else the
 * first of /usr/lib/jvm/default-java and the JDK found at build time. The
 * environment is read with secure_getenv: a setuid or setgid program never
 * loads code a caller's environment names. */
static void *libjvm_open(char *tried, size_t tried_cap, bool *from_java_home) {
    void *h = dlopen("libjvm.so", RTLD_NOW | RTLD_NOLOAD);
    if (h) return h;
    const char *java_home = secure_getenv("JAVA_HOME");
    *from_java_home = java_home && *java_home;
    const char *homes[2] = {"/usr/lib/jvm/default-java", WEBCRYPTO_JCA_JDK_HOME};
    if (*from_java_home) homes[0] = java_home, homes[1] = NULL;
    size_t used = 0;
    tried[0] = 0;
    for (int i = 0; i < 2; i++) {
        if (!homes[i] || !*homes[i]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/lib/server/libjvm.so", homes[i]);
        int w = snprintf(tried + used, tried_cap - used, "%s%s", used ? ", " : "", path);
        if (w > 0 && (size_t)w < tried_cap - used) used += (size_t)w;
        if (!readable(path)) {
            w = snprintf(tried + used, tried_cap - used, " (not readable)");
            if (w > 0 && (size_t)w < tried_cap - used) used += (size_t)w;
            continue;
        }
        /* RTLD_GLOBAL, as the java launcher does: the JDK's own libraries
         * resolve JVM symbols through it. */
        h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (h) return h;
        w = snprintf(tried + used, tried_cap - used, " (%s)", dlerror());
        if (w > 0 && (size_t)w < tried_cap - used) used += (size_t)w;
    }
    return NULL;
}

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (!p) p = dlsym(RTLD_DEFAULT, name);
    return p;
}

/* The options a JVM this backend creates gets: the class path
 * ($WEBCRYPTO_JCA_CLASSPATH, else BouncyCastle's jar when installed), -Xrs
 * (the JVM leaves SIGINT/SIGTERM/SIGQUIT/SIGHUP to the host program), then
 * $WEBCRYPTO_JCA_OPTIONS split at spaces. */
#define MAX_OPTIONS 64
static webcrypto_status create_vm(create_vm_fn create, JNIEnv **env) {
    static char classpath[4096];
    static char user[4096];
    JavaVMOption opts[MAX_OPTIONS];
    int n = 0;
    const char *cp = secure_getenv("WEBCRYPTO_JCA_CLASSPATH");
    if (!cp) cp = readable(WEBCRYPTO_JCA_DEFAULT_CLASSPATH) ? WEBCRYPTO_JCA_DEFAULT_CLASSPATH : "";
    if (*cp) {
        snprintf(classpath, sizeof classpath, "-Djava.class.path=%s", cp);
        opts[n++].optionString = classpath;
    }
    opts[n++].optionString = (char *)"-Xrs";
    const char *uo = secure_getenv("WEBCRYPTO_JCA_OPTIONS");
    if (uo) {
        snprintf(user, sizeof user, "%s", uo);
        char *save = NULL;
        for (char *o = strtok_r(user, " \t\n", &save); o; o = strtok_r(NULL, " \t\n", &save)) {
            if (n == MAX_OPTIONS)
                return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                                "jca: no Java VM could be started: more than %d options",
                                MAX_OPTIONS);
            opts[n++].optionString = o;
        }
    }
    for (int i = 0; i < n; i++) opts[i].extraInfo = NULL;
    JavaVMInitArgs args = {.version = JCA_JNI_VERSION, .nOptions = n, .options = opts,
                           .ignoreUnrecognized = JNI_FALSE};
    jint r = create(&jca_vm, (void **)env, &args);
    if (r != JNI_OK)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "jca: no Java VM could be started: JNI_CreateJavaVM returned %d "
                        "(check WEBCRYPTO_JCA_OPTIONS)", (int)r);
    return WEBCRYPTO_OK;
}

/* ---- the backend's own Java classes (src/backends/jca/java/) ----
 * Defined in a class loader of the backend's own, a URLClassLoader with no
 * URLs over the bootstrap loader (the classes use only java.base), not in the
 * host's system class loader: nothing is added to a namespace the host's
 * code can see, and two copies of the library in one process do not clash.
 * The loader and the classes live as long as the JVM, so their global
 * references are not among those the stress test counts back. */
static pthread_mutex_t own_loader_lock = PTHREAD_MUTEX_INITIALIZER;
static jobject own_loader; /* global; NULL until the first definition */

static jobject own_loader_get(JNIEnv *env) {
    if (own_loader) return own_loader;
    jclass url = (*env)->FindClass(env, "java/net/URL");
    jclass ucl = url ? (*env)->FindClass(env, "java/net/URLClassLoader") : NULL;
    jmethodID init = ucl ? (*env)->GetMethodID(env, ucl, "<init>",
                                               "([Ljava/net/URL;Ljava/lang/ClassLoader;)V")
                         : NULL;
    jobjectArray none = init ? (*env)->NewObjectArray(env, 0, url, NULL) : NULL;
    jobject l = none ? (*env)->NewObject(env, ucl, init, none, (jobject)NULL) : NULL;
    if (!(*env)->ExceptionCheck(env) && l) own_loader = (*env)->NewGlobalRef(env, l);
    (*env)->ExceptionClear(env);
    if (l) (*env)->DeleteLocalRef(env, l);
    if (none) (*env)->DeleteLocalRef(env, none);
    if (ucl) (*env)->DeleteLocalRef(env, ucl);
    if (url) (*env)->DeleteLocalRef(env, url);
    return own_loader;
}

jclass jca_define_class(JNIEnv *env, const char *name, const unsigned char *bytes, size_t len) {
    jclass g = NULL;
    pthread_mutex_lock(&own_loader_lock);
    jobject loader = own_loader_get(env);
    jclass c = loader ? (*env)->DefineClass(env, name, loader, (const jbyte *)bytes, (jsize)len)
                      : NULL;
    if ((*env)->ExceptionCheck(env)) { /* e.g. Android's runtime takes dex, not class files */
        (*env)->ExceptionClear(env);
        c = NULL;
    }
    if (c) {
        g = (*env)->NewGlobalRef(env, c);
        (*env)->DeleteLocalRef(env, c);
    }
    pthread_mutex_unlock(&own_loader_lock);
    return g;
}

/* ---- classes and methods ---- */

static jclass find_class(JNIEnv *env, const char *name, bool optional, webcrypto_status *st) {
    if (*st != WEBCRYPTO_OK) return NULL;
    jclass c = (*env)->FindClass(env, name);
    if ((*env)->ExceptionCheck(env) || !c) {
        if (optional) {
            (*env)->ExceptionClear(env);
            return NULL;
        }
        *st = jca_exception(env, name);
        return NULL;
    }
    jclass g = jca_global(env, c);
    (*env)->DeleteLocalRef(env, c);
    if (!g) *st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    return g;
}

static jmethodID method(JNIEnv *env, jclass c, bool is_static, const char *name, const char *sig,
                        webcrypto_status *st) {
    if (*st != WEBCRYPTO_OK || !c) return NULL;
    jmethodID m = is_static ? (*env)->GetStaticMethodID(env, c, name, sig)
                            : (*env)->GetMethodID(env, c, name, sig);
    if ((*env)->ExceptionCheck(env) || !m) *st = jca_exception(env, name);
    return m;
}

static webcrypto_status resolve(JNIEnv *env) {
    webcrypto_status st = WEBCRYPTO_OK;
    /* The exception classes first: jca_exception needs them. */
    jca.Throwable = find_class(env, "java/lang/Throwable", false, &st);
    jca.thr_to_string = method(env, jca.Throwable, false, "toString", "()Ljava/lang/String;", &st);
    jca.AEADBadTagException = find_class(env, "javax/crypto/AEADBadTagException", false, &st);
    jca.BadPaddingException = find_class(env, "javax/crypto/BadPaddingException", false, &st);
    jca.InvalidKeySpecException =
        find_class(env, "java/security/spec/InvalidKeySpecException", false, &st);
    jca.InvalidKeyException = find_class(env, "java/security/InvalidKeyException", false, &st);
    jca.NoSuchAlgorithmException =
        find_class(env, "java/security/NoSuchAlgorithmException", false, &st);
    jca.NoSuchProviderException =
        find_class(env, "java/security/NoSuchProviderException", false, &st);
    jca.OutOfMemoryError = find_class(env, "java/lang/OutOfMemoryError", false, &st);

    jca.MessageDigest = find_class(env, "java/security/MessageDigest", false, &st);
    jca.Mac = find_class(env, "javax/crypto/Mac", false, &st);
    jca.Cipher = find_class(env, "javax/crypto/Cipher", false, &st);
    jca.SecretKeySpec = find_class(env, "javax/crypto/spec/SecretKeySpec", false, &st);
    jca.IvParameterSpec = find_class(env, "javax/crypto/spec/IvParameterSpec", false, &st);
    jca.GCMParameterSpec = find_class(env, "javax/crypto/spec/GCMParameterSpec", false, &st);
    jca.SecureRandom = find_class(env, "java/security/SecureRandom", false, &st);
    jca.Security = find_class(env, "java/security/Security", false, &st);
    jca.Provider = find_class(env, "java/security/Provider", false, &st);
    jca.SecretKeyFactory = find_class(env, "javax/crypto/SecretKeyFactory", false, &st);
    jca.PBEKeySpec = find_class(env, "javax/crypto/spec/PBEKeySpec", false, &st);
    jca.Key = find_class(env, "java/security/Key", false, &st);
    jca.System = find_class(env, "java/lang/System", false, &st);
    jca.KDF = find_class(env, "javax/crypto/KDF", true, &st);
    jca.HKDFParameterSpec = find_class(env, "javax/crypto/spec/HKDFParameterSpec", true, &st);
    jca.HKDFBuilder = find_class(env, "javax/crypto/spec/HKDFParameterSpec$Builder", true, &st);

    const char *P = "Ljava/security/Provider;";
    char sig[200];
#define GETI(cls, ret, field, fieldp)                                                        \
    do {                                                                                     \
        snprintf(sig, sizeof sig, "(Ljava/lang/String;)L%s;", ret);                          \
        jca.field = method(env, jca.cls, true, "getInstance", sig, &st);                     \
        snprintf(sig, sizeof sig, "(Ljava/lang/String;%s)L%s;", P, ret);                     \
        jca.fieldp = method(env, jca.cls, true, "getInstance", sig, &st);                    \
    } while (0)
    GETI(MessageDigest, "java/security/MessageDigest", md_get, md_get_p);
    GETI(Mac, "javax/crypto/Mac", mac_get, mac_get_p);
    GETI(Cipher, "javax/crypto/Cipher", c_get, c_get_p);
    GETI(SecretKeyFactory, "javax/crypto/SecretKeyFactory", skf_get, skf_get_p);
    if (jca.KDF && jca.HKDFParameterSpec && jca.HKDFBuilder) GETI(KDF, "javax/crypto/KDF", kdf_get, kdf_get_p);
#undef GETI
    jca.md_provider = method(env, jca.MessageDigest, false, "getProvider", "()Ljava/security/Provider;", &st);
    jca.mac_provider = method(env, jca.Mac, false, "getProvider", "()Ljava/security/Provider;", &st);
    jca.skf_provider = method(env, jca.SecretKeyFactory, false, "getProvider", "()Ljava/security/Provider;", &st);
    jca.md_update = method(env, jca.MessageDigest, false, "update", "([BII)V", &st);
    jca.md_digest = method(env, jca.MessageDigest, false, "digest", "([BII)I", &st);
    jca.mac_init = method(env, jca.Mac, false, "init", "(Ljava/security/Key;)V", &st);
    jca.mac_update = method(env, jca.Mac, false, "update", "([BII)V", &st);
    jca.mac_final = method(env, jca.Mac, false, "doFinal", "([BI)V", &st);
    jca.c_init = method(env, jca.Cipher, false, "init",
                        "(ILjava/security/Key;Ljava/security/spec/AlgorithmParameterSpec;)V", &st);
    jca.c_update = method(env, jca.Cipher, false, "update", "([BII[BI)I", &st);
    jca.c_final = method(env, jca.Cipher, false, "doFinal", "([BII[BI)I", &st);
    jca.c_aad = method(env, jca.Cipher, false, "updateAAD", "([BII)V", &st);
    jca.c_provider = method(env, jca.Cipher, false, "getProvider", "()Ljava/security/Provider;", &st);
    jca.sks_new = method(env, jca.SecretKeySpec, false, "<init>", "([BLjava/lang/String;)V", &st);
    jca.iv_new = method(env, jca.IvParameterSpec, false, "<init>", "([BII)V", &st);
    jca.gcm_new = method(env, jca.GCMParameterSpec, false, "<init>", "(I[BII)V", &st);
    jca.sr_new = method(env, jca.SecureRandom, false, "<init>", "()V", &st);
    jca.sr_next = method(env, jca.SecureRandom, false, "nextBytes", "([B)V", &st);
    jca.sec_get_provider = method(env, jca.Security, true, "getProvider",
                                  "(Ljava/lang/String;)Ljava/security/Provider;", &st);
    jca.prov_name = method(env, jca.Provider, false, "getName", "()Ljava/lang/String;", &st);
    jca.prov_version = method(env, jca.Provider, false, "getVersionStr", "()Ljava/lang/String;", &st);
    jca.prov_info = method(env, jca.Provider, false, "getInfo", "()Ljava/lang/String;", &st);
    jca.skf_generate = method(env, jca.SecretKeyFactory, false, "generateSecret",
                              "(Ljava/security/spec/KeySpec;)Ljavax/crypto/SecretKey;", &st);
    jca.key_encoded = method(env, jca.Key, false, "getEncoded", "()[B", &st);
    jca.pbe_new = method(env, jca.PBEKeySpec, false, "<init>", "([C[BII)V", &st);
    jca.pbe_clear = method(env, jca.PBEKeySpec, false, "clearPassword", "()V", &st);
    jca.sys_property = method(env, jca.System, true, "getProperty",
                              "(Ljava/lang/String;)Ljava/lang/String;", &st);
    if (st == WEBCRYPTO_OK && jca.kdf_get) {
        jca.kdf_derive = method(env, jca.KDF, false, "deriveData",
                                "(Ljava/security/spec/AlgorithmParameterSpec;)[B", &st);
        jca.hkdf_extract = method(env, jca.HKDFParameterSpec, true, "ofExtract",
                                  "()Ljavax/crypto/spec/HKDFParameterSpec$Builder;", &st);
        jca.hkdf_add_ikm = method(env, jca.HKDFBuilder, false, "addIKM",
                                  "([B)Ljavax/crypto/spec/HKDFParameterSpec$Builder;", &st);
        jca.hkdf_add_salt = method(env, jca.HKDFBuilder, false, "addSalt",
                                   "([B)Ljavax/crypto/spec/HKDFParameterSpec$Builder;", &st);
        jca.hkdf_then_expand =
            method(env, jca.HKDFBuilder, false, "thenExpand",
                   "([BI)Ljavax/crypto/spec/HKDFParameterSpec$ExtractThenExpand;", &st);
    }
    return st;
}

/* The asymmetric part of the cache: key specs, engines and BigInteger. */
webcrypto_status jca_resolve_pkey(JNIEnv *env) {
    webcrypto_status st = WEBCRYPTO_OK;
    const char *BI = "Ljava/math/BigInteger;";
    char sig[400];
#define C(field, name) jca.field = find_class(env, name, false, &st)
    C(Signature, "java/security/Signature");
    C(KeyFactory, "java/security/KeyFactory");
    C(KeyPairGenerator, "java/security/KeyPairGenerator");
    C(KeyAgreement, "javax/crypto/KeyAgreement");
    C(KeyPair, "java/security/KeyPair");
    C(AlgorithmParameters, "java/security/AlgorithmParameters");
    C(BigInteger, "java/math/BigInteger");
    C(SignatureException, "java/security/SignatureException");
    C(RSAPublicKeySpec, "java/security/spec/RSAPublicKeySpec");
    C(RSAPrivateCrtKeySpec, "java/security/spec/RSAPrivateCrtKeySpec");
    C(RSAKey, "java/security/interfaces/RSAKey");
    C(RSAPublicKey, "java/security/interfaces/RSAPublicKey");
    C(RSAPrivateKey, "java/security/interfaces/RSAPrivateKey");
    C(RSAPrivateCrtKey, "java/security/interfaces/RSAPrivateCrtKey");
    C(RSAKeyGenParameterSpec, "java/security/spec/RSAKeyGenParameterSpec");
    C(ECPoint, "java/security/spec/ECPoint");
    C(ECParameterSpec, "java/security/spec/ECParameterSpec");
    C(ECPublicKeySpec, "java/security/spec/ECPublicKeySpec");
    C(ECPrivateKeySpec, "java/security/spec/ECPrivateKeySpec");
    C(ECGenParameterSpec, "java/security/spec/ECGenParameterSpec");
    C(ECFieldFp, "java/security/spec/ECFieldFp");
    C(EllipticCurve, "java/security/spec/EllipticCurve");
    C(ECPublicKey, "java/security/interfaces/ECPublicKey");
    C(ECPrivateKey, "java/security/interfaces/ECPrivateKey");
    C(X509EncodedKeySpec, "java/security/spec/X509EncodedKeySpec");
    C(PKCS8EncodedKeySpec, "java/security/spec/PKCS8EncodedKeySpec");
    C(PSSParameterSpec, "java/security/spec/PSSParameterSpec");
    C(MGF1ParameterSpec, "java/security/spec/MGF1ParameterSpec");
    C(OAEPParameterSpec, "javax/crypto/spec/OAEPParameterSpec");
    C(PSpecified, "javax/crypto/spec/PSource$PSpecified");
#undef C
    const char *P = "Ljava/security/Provider;";
#define GETI(cls, ret, field, fieldp, prov)                                                  \
    do {                                                                                     \
        snprintf(sig, sizeof sig, "(Ljava/lang/String;)L%s;", ret);                          \
        jca.field = method(env, jca.cls, true, "getInstance", sig, &st);                     \
        snprintf(sig, sizeof sig, "(Ljava/lang/String;%s)L%s;", P, ret);                     \
        jca.fieldp = method(env, jca.cls, true, "getInstance", sig, &st);                    \
        jca.prov = method(env, jca.cls, false, "getProvider", "()Ljava/security/Provider;", &st); \
    } while (0)
    GETI(Signature, "java/security/Signature", sig_get, sig_get_p, sig_provider);
    GETI(KeyFactory, "java/security/KeyFactory", kf_get, kf_get_p, kf_provider);
    GETI(KeyPairGenerator, "java/security/KeyPairGenerator", kpg_get, kpg_get_p, kpg_provider);
    GETI(KeyAgreement, "javax/crypto/KeyAgreement", ka_get, ka_get_p, ka_provider);
    GETI(AlgorithmParameters, "java/security/AlgorithmParameters", ap_get, ap_get_p, ap_provider);
#undef GETI
#define M(field, cls, name, s) jca.field = method(env, jca.cls, false, name, s, &st)
    M(sig_init_sign, Signature, "initSign", "(Ljava/security/PrivateKey;)V");
    M(sig_init_verify, Signature, "initVerify", "(Ljava/security/PublicKey;)V");
    M(sig_set_param, Signature, "setParameter", "(Ljava/security/spec/AlgorithmParameterSpec;)V");
    M(sig_update, Signature, "update", "([BII)V");
    M(sig_sign, Signature, "sign", "([BII)I");
    M(sig_verify, Signature, "verify", "([BII)Z");
    M(kf_public, KeyFactory, "generatePublic",
      "(Ljava/security/spec/KeySpec;)Ljava/security/PublicKey;");
    M(kf_private, KeyFactory, "generatePrivate",
      "(Ljava/security/spec/KeySpec;)Ljava/security/PrivateKey;");
    M(kpg_init, KeyPairGenerator, "initialize", "(Ljava/security/spec/AlgorithmParameterSpec;)V");
    M(kpg_generate, KeyPairGenerator, "generateKeyPair", "()Ljava/security/KeyPair;");
    M(kp_public, KeyPair, "getPublic", "()Ljava/security/PublicKey;");
    M(kp_private, KeyPair, "getPrivate", "()Ljava/security/PrivateKey;");
    M(ka_init, KeyAgreement, "init", "(Ljava/security/Key;)V");
    M(ka_phase, KeyAgreement, "doPhase", "(Ljava/security/Key;Z)Ljava/security/Key;");
    M(ka_secret, KeyAgreement, "generateSecret", "([BI)I");
    M(ap_init, AlgorithmParameters, "init", "(Ljava/security/spec/AlgorithmParameterSpec;)V");
    M(ap_spec, AlgorithmParameters, "getParameterSpec",
      "(Ljava/lang/Class;)Ljava/security/spec/AlgorithmParameterSpec;");
    M(bi_new, BigInteger, "<init>", "(I[B)V");
    M(bi_bytes, BigInteger, "toByteArray", "()[B");
    snprintf(sig, sizeof sig, "(%s)%s", BI, BI);
    M(bi_add, BigInteger, "add", sig);
    M(bi_sub, BigInteger, "subtract", sig);
    M(bi_mul, BigInteger, "multiply", sig);
    M(bi_mod, BigInteger, "mod", sig);
    M(bi_mod_inv, BigInteger, "modInverse", sig);
    snprintf(sig, sizeof sig, "(%s%s)%s", BI, BI, BI);
    M(bi_mod_pow, BigInteger, "modPow", sig);
    M(bi_equals, BigInteger, "equals", "(Ljava/lang/Object;)Z");
    M(bi_test_bit, BigInteger, "testBit", "(I)Z");
    snprintf(sig, sizeof sig, "(%s%s)V", BI, BI);
    M(rsa_pub_spec_new, RSAPublicKeySpec, "<init>", sig);
    M(point_new, ECPoint, "<init>", sig);
    snprintf(sig, sizeof sig, "(%s%s%s%s%s%s%s%s)V", BI, BI, BI, BI, BI, BI, BI, BI);
    M(rsa_crt_spec_new, RSAPrivateCrtKeySpec, "<init>", sig);
    snprintf(sig, sizeof sig, "()%s", BI);
    M(rsa_modulus, RSAKey, "getModulus", sig);
    M(rsa_pub_exp, RSAPublicKey, "getPublicExponent", sig);
    M(rsa_priv_exp, RSAPrivateKey, "getPrivateExponent", sig);
    M(crt_pub_exp, RSAPrivateCrtKey, "getPublicExponent", sig);
    M(crt_p, RSAPrivateCrtKey, "getPrimeP", sig);
    M(crt_q, RSAPrivateCrtKey, "getPrimeQ", sig);
    M(crt_dp, RSAPrivateCrtKey, "getPrimeExponentP", sig);
    M(crt_dq, RSAPrivateCrtKey, "getPrimeExponentQ", sig);
    M(crt_qi, RSAPrivateCrtKey, "getCrtCoefficient", sig);
    M(point_x, ECPoint, "getAffineX", sig);
    M(point_y, ECPoint, "getAffineY", sig);
    M(ecps_order, ECParameterSpec, "getOrder", sig);
    M(curve_a, EllipticCurve, "getA", sig);
    M(curve_b, EllipticCurve, "getB", sig);
    M(fp_p, ECFieldFp, "getP", sig);
    M(ec_s, ECPrivateKey, "getS", sig);
    snprintf(sig, sizeof sig, "(I%s)V", BI);
    M(rsa_kg_new, RSAKeyGenParameterSpec, "<init>", sig);
    M(ec_pub_spec_new, ECPublicKeySpec, "<init>",
      "(Ljava/security/spec/ECPoint;Ljava/security/spec/ECParameterSpec;)V");
    snprintf(sig, sizeof sig, "(%sLjava/security/spec/ECParameterSpec;)V", BI);
    M(ec_priv_spec_new, ECPrivateKeySpec, "<init>", sig);
    M(ec_gen_new, ECGenParameterSpec, "<init>", "(Ljava/lang/String;)V");
    M(ecps_curve, ECParameterSpec, "getCurve", "()Ljava/security/spec/EllipticCurve;");
    M(ecps_generator, ECParameterSpec, "getGenerator", "()Ljava/security/spec/ECPoint;");
    M(curve_field, EllipticCurve, "getField", "()Ljava/security/spec/ECField;");
    M(ec_w, ECPublicKey, "getW", "()Ljava/security/spec/ECPoint;");
    M(x509_new, X509EncodedKeySpec, "<init>", "([B)V");
    M(pkcs8_new, PKCS8EncodedKeySpec, "<init>", "([B)V");
    M(pss_new, PSSParameterSpec, "<init>",
      "(Ljava/lang/String;Ljava/lang/String;Ljava/security/spec/AlgorithmParameterSpec;II)V");
    M(oaep_new, OAEPParameterSpec, "<init>",
      "(Ljava/lang/String;Ljava/lang/String;Ljava/security/spec/AlgorithmParameterSpec;"
      "Ljavax/crypto/spec/PSource;)V");
    M(psrc_new, PSpecified, "<init>", "([B)V");
    M(kpg_init_size_random, KeyPairGenerator, "initialize", "(ILjava/security/SecureRandom;)V");
#undef M
    /* Ed448's context (JDK 15+): without the class, no context. */
    jca.EdDSAParameterSpec = find_class(env, "java/security/spec/EdDSAParameterSpec", true, &st);
    if (jca.EdDSAParameterSpec)
        jca.eddsa_spec_new = method(env, jca.EdDSAParameterSpec, false, "<init>", "(Z[B)V", &st);
    static const char *const mgf1[JCA_N_HASH] = {"SHA1",     "SHA256",   "SHA384",  "SHA512",
                                                 "SHA3_256", "SHA3_384", "SHA3_512"};
    for (int h = 0; h < JCA_N_HASH && st == WEBCRYPTO_OK; h++) {
        jfieldID f = (*env)->GetStaticFieldID(env, jca.MGF1ParameterSpec, mgf1[h],
                                              "Ljava/security/spec/MGF1ParameterSpec;");
        if (wc_hash_is_sha3((wc_hash)h) && ((*env)->ExceptionCheck(env) || !f)) {
            /* MGF1ParameterSpec.SHA3_* came in JDK 16: without them, no
             * RSA-PSS or RSA-OAEP with SHA-3 (jca.mgf1[h] stays NULL). */
            (*env)->ExceptionClear(env);
            continue;
        }
        if ((*env)->ExceptionCheck(env) || !f) {
            st = jca_exception(env, "MGF1ParameterSpec field");
            break;
        }
        jobject l = (*env)->GetStaticObjectField(env, jca.MGF1ParameterSpec, f);
        if ((*env)->ExceptionCheck(env) || !l) {
            st = jca_exception(env, "MGF1ParameterSpec field");
            break;
        }
        jca.mgf1[h] = jca_global(env, l);
        (*env)->DeleteLocalRef(env, l);
        if (!jca.mgf1[h]) st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    }
    return st;
}

static void property(JNIEnv *env, const char *name, char *out, size_t cap) {
    snprintf(out, cap, "?");
    jstring key = (*env)->NewStringUTF(env, name);
    if ((*env)->ExceptionCheck(env) || !key) {
        (*env)->ExceptionClear(env);
        return;
    }
    jstring v = (*env)->CallStaticObjectMethod(env, jca.System, jca.sys_property, key);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
    } else if (v) {
        const char *u = (*env)->GetStringUTFChars(env, v, NULL);
        if (u) {
            snprintf(out, cap, "%s", u);
            (*env)->ReleaseStringUTFChars(env, v, u);
        } else {
            (*env)->ExceptionClear(env);
        }
        (*env)->DeleteLocalRef(env, v);
    }
    (*env)->DeleteLocalRef(env, key);
}

const char *jca_java_description(void) { return java_description; }

static webcrypto_status start(void) {
    char tried[2048];
    JNIEnv *env = NULL;
    JavaVM *host = wc_host_java_vm();
    wc_host_java_vm_lock();
    bool created = false;
    if (host) {
        jca_vm = host;
    } else {
        bool from_java_home = false;
        void *h = libjvm_open(tried, sizeof tried, &from_java_home);
        if (!h && from_java_home)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "jca: JAVA_HOME names no usable JDK (tried %s; fix or unset "
                            "JAVA_HOME)", tried);
        if (!h)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "jca: no Java VM could be started: libjvm.so not found (tried %s; "
                            "set JAVA_HOME)", tried[0] ? tried : "nothing");
        created_vms_fn created_vms;
        create_vm_fn create;
        void *p = sym(h, "JNI_GetCreatedJavaVMs");
        memcpy(&created_vms, &p, sizeof p);
        p = sym(h, "JNI_CreateJavaVM");
        memcpy(&create, &p, sizeof p);
        if (!created_vms || !create)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "jca: no Java VM could be started: libjvm lacks the JNI invocation API");
        JavaVM *vms[1];
        jsize nvms = 0;
        if (created_vms(vms, 1, &nvms) == JNI_OK && nvms > 0) {
            jca_vm = vms[0]; /* a JVM already runs in this process: join it */
        } else {
            webcrypto_status st = create_vm(create, &env);
            if (st != WEBCRYPTO_OK) return st;
            created = true;
        }
    }
    if (pthread_key_create(&thread_key, thread_free) != 0)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: pthread_key_create failed");
    jca_thread *t = jca_thread_get();
    if (!t) return WEBCRYPTO_ERR_NOT_SUPPORTED;
    /* The thread that created the JVM was attached by JNI_CreateJavaVM. */
    if (created) t->attached_by_us = true;
    env = t->env;
    if ((*env)->PushLocalFrame(env, 64) != 0) return jca_exception(env, "PushLocalFrame");
    webcrypto_status st = resolve(env);
    if (st == WEBCRYPTO_OK) st = jca_resolve_pkey(env);
    if (st == WEBCRYPTO_OK) {
        char version[64], vm[96];
        property(env, "java.version", version, sizeof version);
        property(env, "java.vm.name", vm, sizeof vm);
        snprintf(java_description, sizeof java_description, "Java %s (%s)%s", version, vm,
                 host ? ", host JVM" : created ? "" : ", joined JVM");
    }
    (*env)->PopLocalFrame(env, NULL);
    return st;
}

/* vm_published (above) is set (release) once jca_vm is, for readers
 * outside the registry's lock. */

JavaVM *jca_started_vm(void) {
    return atomic_load_explicit(&vm_published, memory_order_acquire) ? jca_vm : NULL;
}

webcrypto_status jca_jvm_start(void) {
    /* The registry serialises init(), so no lock is needed here. */
    if (!started) {
        started = true;
        start_status = start();
        if (start_status != WEBCRYPTO_OK)
            snprintf(start_message, sizeof start_message, "%s", webcrypto_error_message());
        else
            atomic_store_explicit(&vm_published, true, memory_order_release);
    }
    if (start_status != WEBCRYPTO_OK) return wc_error(start_status, "%s", start_message);
    return WEBCRYPTO_OK;
}
