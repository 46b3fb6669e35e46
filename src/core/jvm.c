/* The JavaVM a host program hands to the jca backend (see webcrypto.h), and
 * the provider it hands to a jca variant. Kept in the core so the public
 * functions exist whichever backends are built; the core names no backend
 * symbol: a provider goes through the registry to the backend's
 * use_provider op (backend.h). */
#include <stdatomic.h>
#include <stdint.h>

#include "core.h"

/* The host's JavaVM* with bit 0 set once the jca backend has started with
 * it (wc_host_java_vm_lock): one atomic word, not a mutex, because a mutex
 * could be inherited locked by a child forked while another thread held it,
 * and such a child may still start jca (webcrypto.h, fork) and would then
 * hang in wc_host_java_vm. A JavaVM is a struct of pointers, so a real
 * JavaVM* has bit 0 clear. */
#define WC_JVM_STARTED ((uintptr_t)1)
static atomic_uintptr_t wc_jvm;

webcrypto_status webcrypto_jca_set_java_vm(void *java_vm) {
    WC_REQUIRE(java_vm, "jca_set_java_vm: java_vm must not be NULL");
    WC_REQUIRE(((uintptr_t)java_vm & WC_JVM_STARTED) == 0,
               "jca_set_java_vm: java_vm is not a JavaVM* (misaligned)");
    uintptr_t cur = atomic_load(&wc_jvm);
    do {
        if (cur & WC_JVM_STARTED)
            return wc_error(WEBCRYPTO_ERR_OPERATION,
                            "jca_set_java_vm: the jca backend has already started with another "
                            "JVM");
    } while (!atomic_compare_exchange_weak(&wc_jvm, &cur, (uintptr_t)java_vm));
    return WEBCRYPTO_OK;
}

void *wc_host_java_vm(void) { return (void *)(atomic_load(&wc_jvm) & ~WC_JVM_STARTED); }

void wc_host_java_vm_lock(void) { atomic_fetch_or(&wc_jvm, WC_JVM_STARTED); }

webcrypto_status webcrypto_jca_use_provider(const char *variant_name, void *provider) {
    WC_REQUIRE(variant_name, "jca_use_provider: variant_name must not be NULL");
    WC_REQUIRE(provider, "jca_use_provider: provider must not be NULL");
    return wc_backend_use_provider("jca", variant_name, provider);
}
