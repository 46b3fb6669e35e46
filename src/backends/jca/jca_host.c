/*
 * jca_host.c - providers a host hands over (webcrypto_jca_use_provider,
 * reaching the backend as its ops' use_provider through the core's
 * registry), and the claims jca_backend.c's init makes on their names.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h" /* wc_host_java_vm */
#include "jca_internal.h"

/* ---- providers a host hands over (webcrypto_jca_use_provider) ----
 * A name's entry holds the host's Provider (a global reference, kept for the
 * process's life) until the variant "jca:NAME" starts; from then on, and for
 * every other variant that started, the entry is marked started and the name
 * can no longer be given a provider (keys and engines already point at the
 * one in use). An init claims its name's entry for its duration, so a
 * provider handed over mid-init is refused rather than lost. */
#define HOST_PROVIDERS (2 * JCA_MAX_VARIANTS)
typedef struct host_provider {
    char name[64];
    jobject provider; /* global ref; NULL for a variant started without one */
    bool claimed;     /* an init of jca:NAME runs or has succeeded */
} host_provider;
/* No fork handler: a child forked while another thread holds it cannot use
 * jca anyway. jca_use_provider takes it only once a JVM is known, which a
 * child does not inherit working, and init's claims run under the
 * registry's lock, which a fork waits for (registry.c). */
static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_provider host_providers[HOST_PROVIDERS];

static host_provider *host_find_locked(const char *name) {
    for (int i = 0; i < HOST_PROVIDERS; i++)
        if (host_providers[i].name[0] && strcmp(host_providers[i].name, name) == 0)
            return &host_providers[i];
    return NULL;
}

static host_provider *host_add_locked(const char *name) {
    for (int i = 0; i < HOST_PROVIDERS; i++)
        if (!host_providers[i].name[0]) {
            snprintf(host_providers[i].name, sizeof host_providers[i].name, "%s", name);
            return &host_providers[i];
        }
    return NULL;
}

/* Claims `name` for an init: the host's Provider for it (owned by the
 * table) or NULL. *claimed tells whether an entry was claimed (a full table
 * of names never handed a provider is not an error: it only means those
 * names stop being guarded against a late webcrypto_jca_use_provider, which
 * then fails for lack of room anyway). */
jobject jca_host_claim(const char *name, bool *claimed) {
    pthread_mutex_lock(&host_lock);
    host_provider *h = host_find_locked(name);
    if (!h) h = host_add_locked(name);
    if (h) h->claimed = true;
    *claimed = h != NULL;
    jobject p = h ? h->provider : NULL;
    pthread_mutex_unlock(&host_lock);
    return p;
}

/* A failed init gives its claim back (the registry tries the name afresh
 * later, and the host may still hand a provider over for it). */
void jca_host_unclaim(const char *name) {
    pthread_mutex_lock(&host_lock);
    host_provider *h = host_find_locked(name);
    if (h) {
        h->claimed = false;
        if (!h->provider) h->name[0] = 0;
    }
    pthread_mutex_unlock(&host_lock);
}

webcrypto_status jca_use_provider(const char *name, void *provider) {
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof host_providers[0].name)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "jca_use_provider: the variant name must have 1 to %zu characters",
                        sizeof host_providers[0].name - 1);
    if (jca_in_forked_child()) return jca_forked_error();
    /* The running backend's JVM, else the one the host handed over. */
    JavaVM *vm = jca_started_vm();
    if (!vm) vm = wc_host_java_vm();
    if (!vm)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca_use_provider: no JVM known yet: call webcrypto_jca_set_java_vm first");
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JCA_JNI_VERSION) != JNI_OK || !env)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca_use_provider: the calling thread is not attached to the JVM");
    /* java.security.Provider is a JDK class: any thread's FindClass sees it. */
    jclass pc = (*env)->FindClass(env, "java/security/Provider");
    if ((*env)->ExceptionCheck(env) || !pc) return jca_exception(env, "FindClass Provider");
    jboolean is_provider = (*env)->IsInstanceOf(env, (jobject)provider, pc);
    (*env)->DeleteLocalRef(env, pc);
    if (!is_provider)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "jca_use_provider: the object is not a java.security.Provider");
    jobject g = jca_global(env, (jobject)provider);
    if (!g) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    webcrypto_status st = WEBCRYPTO_OK;
    jobject old = NULL;
    pthread_mutex_lock(&host_lock);
    host_provider *h = host_find_locked(name);
    if (h && h->claimed)
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "jca_use_provider: jca:%s has already started (hand its provider over "
                      "before its first use)", name);
    else if (!h && !(h = host_add_locked(name)))
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "jca_use_provider: at most %d variant names", HOST_PROVIDERS);
    if (st == WEBCRYPTO_OK) {
        old = h->provider; /* handed over again before use: the newer one counts */
        h->provider = g;
    }
    pthread_mutex_unlock(&host_lock);
    jca_global_free(env, st == WEBCRYPTO_OK ? old : g);
    return st;
}
