/*
 * The backends compiled into this library. Adding a backend is one line in
 * wc_registry below (and its folder under src/backends/).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

#ifdef WEBCRYPTO_HAVE_OPENSSL
extern const wc_backend_ops wc_backend_openssl;
#endif

static webcrypto_backend wc_registry[] = {
#ifdef WEBCRYPTO_HAVE_OPENSSL
    {.ops = &wc_backend_openssl},
#endif
    {.ops = NULL}, /* end; keeps the array non-empty when no backend is built */
};

#define WC_DEFAULT_BACKEND "openssl"
#define WC_REGISTRY_COUNT (sizeof wc_registry / sizeof *wc_registry - 1)

static pthread_mutex_t wc_registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* Runs the backend's init once per process; later calls read the cached result. */
static webcrypto_status backend_start(webcrypto_backend *b) {
    int s = atomic_load_explicit(&b->state, memory_order_acquire);
    if (s == 0) {
        pthread_mutex_lock(&wc_registry_lock);
        if (atomic_load_explicit(&b->state, memory_order_relaxed) == 0) {
            uint64_t caps = 0;
            const char *desc = NULL;
            webcrypto_status st = b->ops->init(&caps, &desc);
            b->caps = caps;
            b->description = desc ? desc : b->ops->name;
            b->init_status = st;
            if (st != WEBCRYPTO_OK)
                snprintf(b->init_message, sizeof b->init_message, "%s",
                         webcrypto_error_message());
            atomic_store_explicit(&b->state, st == WEBCRYPTO_OK ? 1 : 2, memory_order_release);
        }
        pthread_mutex_unlock(&wc_registry_lock);
        s = atomic_load_explicit(&b->state, memory_order_acquire);
    }
    if (s != 1)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s is unavailable: %s",
                        b->ops->name, b->init_message);
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_backend_get(const char *name, const webcrypto_backend **out) {
    WC_REQUIRE(out, "backend_get: out must not be NULL");
    if (!name) name = WC_DEFAULT_BACKEND;
    for (size_t i = 0; i < WC_REGISTRY_COUNT; i++) {
        if (strcmp(wc_registry[i].ops->name, name) == 0) {
            webcrypto_status st = backend_start(&wc_registry[i]);
            if (st == WEBCRYPTO_OK) *out = &wc_registry[i];
            return st;
        }
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "no backend named \"%s\" in this build", name);
}

webcrypto_status wc_backend_resolve(const webcrypto_backend *in, const webcrypto_backend **out) {
    if (in) {
        *out = in; /* handles are only ever given out after a successful start */
        return WEBCRYPTO_OK;
    }
    return webcrypto_backend_get(NULL, out);
}

size_t webcrypto_backend_count(void) { return WC_REGISTRY_COUNT; }

const char *webcrypto_backend_name_at(size_t index) {
    return index < WC_REGISTRY_COUNT ? wc_registry[index].ops->name : NULL;
}

const char *webcrypto_backend_name(const webcrypto_backend *backend) {
    return backend ? backend->ops->name : NULL;
}

const char *webcrypto_backend_description(const webcrypto_backend *backend) {
    return backend ? backend->description : NULL;
}

bool webcrypto_backend_supports(const webcrypto_backend *backend, webcrypto_algorithm alg) {
    return backend && (unsigned)alg < WEBCRYPTO_ALG_COUNT && alg != WEBCRYPTO_ALG_NONE &&
           (backend->caps & WC_CAP(alg));
}
