/* The JavaVM a host program hands to the jca backend (see webcrypto.h), and
 * the provider it hands to a jca variant. Kept in the core so the public
 * functions exist whichever backends are built; the core names no backend
 * symbol: a provider goes through the registry to the backend's
 * use_provider op (backend.h). */
#include <pthread.h>

#include "core.h"

static pthread_mutex_t wc_jvm_lock = PTHREAD_MUTEX_INITIALIZER;
static void *wc_jvm;
static bool wc_jvm_locked;

webcrypto_status webcrypto_jca_set_java_vm(void *java_vm) {
    WC_REQUIRE(java_vm, "jca_set_java_vm: java_vm must not be NULL");
    webcrypto_status st = WEBCRYPTO_OK;
    pthread_mutex_lock(&wc_jvm_lock);
    if (wc_jvm_locked)
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "jca_set_java_vm: the jca backend has already started with another JVM");
    else
        wc_jvm = java_vm;
    pthread_mutex_unlock(&wc_jvm_lock);
    return st;
}

void *wc_host_java_vm(void) {
    pthread_mutex_lock(&wc_jvm_lock);
    void *vm = wc_jvm;
    pthread_mutex_unlock(&wc_jvm_lock);
    return vm;
}

void wc_host_java_vm_lock(void) {
    pthread_mutex_lock(&wc_jvm_lock);
    wc_jvm_locked = true;
    pthread_mutex_unlock(&wc_jvm_lock);
}

webcrypto_status webcrypto_jca_use_provider(const char *variant_name, void *provider) {
    WC_REQUIRE(variant_name, "jca_use_provider: variant_name must not be NULL");
    WC_REQUIRE(provider, "jca_use_provider: provider must not be NULL");
    return wc_backend_use_provider("jca", variant_name, provider);
}
