/*
 * The backends compiled into this library. Adding a backend is one line in
 * wc_registry below (and its folder under src/backends/). A backend is either
 * built in (linked into libwebcrypto) or a module (webcrypto-<name>.so,
 * loaded on first use; see backend.h).
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "module_open.h"

#ifdef WEBCRYPTO_HAVE_OPENSSL
extern const wc_backend_ops wc_backend_openssl;
#endif
#ifdef WEBCRYPTO_HAVE_JCA
extern const wc_backend_ops wc_backend_jca;
#endif

static webcrypto_backend wc_registry[] = {
#ifdef WEBCRYPTO_HAVE_OPENSSL
    {.name = "openssl", .ops = &wc_backend_openssl},
#endif
#ifdef WEBCRYPTO_HAVE_BORINGSSL
    {.name = "boringssl", .module = true},
#endif
#ifdef WEBCRYPTO_HAVE_JCA
    {.name = "jca", .ops = &wc_backend_jca, .variants = true},
#endif
    {.name = NULL}, /* end; keeps the array non-empty when no backend is built */
};

#define WC_DEFAULT_BACKEND "openssl"
#define WC_REGISTRY_COUNT (sizeof wc_registry / sizeof *wc_registry - 1)

#ifndef WEBCRYPTO_MODULE_DIRS
#define WEBCRYPTO_MODULE_DIRS ""
#endif

static pthread_mutex_t wc_registry_lock = PTHREAD_MUTEX_INITIALIZER;

static const wc_host_api wc_host = {.abi = WC_MODULE_ABI, .set_error = wc_set_error_message};

/* Finds webcrypto-<name>.so in $WEBCRYPTO_MODULE_DIR, then in the build
 * tree's and the install's module directories, and loads it in a symbol
 * scope of its own (module_open.h). */
static webcrypto_status module_load(webcrypto_backend *b) {
    char file[160], msg[1200];
    void *handle = NULL;
    snprintf(file, sizeof file, "webcrypto-%s.so", b->name);
    int r = wc_module_open(file, WEBCRYPTO_MODULE_DIRS, &handle, msg, sizeof msg);
    if (r > 0)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend module not found (tried %s)", msg);
    if (r < 0) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s", msg);
    void *sym = dlsym(handle, WC_MODULE_ENTRY);
    wc_module_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    const wc_backend_ops *ops = sym ? entry(&wc_host) : NULL;
    if (!ops || !ops->name || strcmp(ops->name, b->name) != 0) {
        dlclose(handle);
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "%s is not a webcrypto backend module of this version", msg);
    }
    b->ops = ops;
    return WEBCRYPTO_OK; /* the handle stays open for the process's life */
}

/* Loads (modules) and initialises the backend once per process; later calls
 * read the cached result. */
static webcrypto_status backend_start(webcrypto_backend *b) {
    int s = atomic_load_explicit(&b->state, memory_order_acquire);
    if (s == 0) {
        pthread_mutex_lock(&wc_registry_lock);
        if (atomic_load_explicit(&b->state, memory_order_relaxed) == 0) {
            uint64_t caps = 0;
            const char *desc = NULL;
            webcrypto_status st = b->ops ? WEBCRYPTO_OK : module_load(b);
            if (st == WEBCRYPTO_OK) st = b->ops->init(b->variant, &b->bctx, &caps, &desc);
            b->caps = caps;
            b->description = desc ? desc : b->name;
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
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s is unavailable: %s", b->name,
                        b->init_message);
    return WEBCRYPTO_OK;
}

/* "name:variant" handles, made on first request and kept for the process. */
#define WC_MAX_VARIANTS 16
static webcrypto_backend wc_variants[WC_MAX_VARIANTS];
static char wc_variant_names[WC_MAX_VARIANTS][128];
static size_t wc_variant_count;

static webcrypto_status variant_handle(webcrypto_backend *base, const char *full,
                                       webcrypto_backend **out) {
    if (strlen(full) >= sizeof wc_variant_names[0])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend name \"%.40s...\" is too long", full);
    pthread_mutex_lock(&wc_registry_lock);
    webcrypto_backend *b = NULL;
    for (size_t i = 0; i < wc_variant_count && !b; i++)
        if (strcmp(wc_variant_names[i], full) == 0) b = &wc_variants[i];
    if (!b && wc_variant_count < WC_MAX_VARIANTS) {
        size_t i = wc_variant_count++;
        snprintf(wc_variant_names[i], sizeof wc_variant_names[i], "%s", full);
        b = &wc_variants[i];
        b->name = wc_variant_names[i];
        b->variant = wc_variant_names[i] + strlen(base->name) + 1;
        b->ops = base->ops; /* NULL for a module not loaded yet */
        b->module = base->module;
        if (base->module && !base->ops) {
            /* Load the module through the base entry, so it is loaded once. */
            pthread_mutex_unlock(&wc_registry_lock);
            webcrypto_status st = backend_start(base);
            pthread_mutex_lock(&wc_registry_lock);
            if (st == WEBCRYPTO_OK || base->ops) b->ops = base->ops;
        }
    }
    pthread_mutex_unlock(&wc_registry_lock);
    if (!b) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "too many backend variants in use");
    if (!b->ops) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s is unavailable", full);
    *out = b;
    return WEBCRYPTO_OK;
}

/* openssl when built, else the first backend registered. */
static const char *default_backend_name(void) {
    for (size_t i = 0; i < WC_REGISTRY_COUNT; i++)
        if (strcmp(wc_registry[i].name, WC_DEFAULT_BACKEND) == 0) return WC_DEFAULT_BACKEND;
    return wc_registry[0].name;
}

webcrypto_status webcrypto_backend_get(const char *name, const webcrypto_backend **out) {
    WC_REQUIRE(out, "backend_get: out must not be NULL");
    if (!name) name = WC_REGISTRY_COUNT ? default_backend_name() : WC_DEFAULT_BACKEND;
    const char *colon = strchr(name, ':');
    size_t base_len = colon ? (size_t)(colon - name) : strlen(name);
    for (size_t i = 0; i < WC_REGISTRY_COUNT; i++) {
        webcrypto_backend *b = &wc_registry[i];
        if (strlen(b->name) != base_len || strncmp(b->name, name, base_len) != 0) continue;
        if (colon) {
            if (!b->variants)
                return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s has no variants (\"%s\")",
                                b->name, name);
            webcrypto_status st = variant_handle(b, name, &b);
            if (st != WEBCRYPTO_OK) return st;
        }
        webcrypto_status st = backend_start(b);
        if (st == WEBCRYPTO_OK) *out = b;
        return st;
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
    return index < WC_REGISTRY_COUNT ? wc_registry[index].name : NULL;
}

const char *webcrypto_backend_name(const webcrypto_backend *backend) {
    return backend ? backend->name : NULL;
}

const char *webcrypto_backend_description(const webcrypto_backend *backend) {
    return backend ? backend->description : NULL;
}

bool webcrypto_backend_supports(const webcrypto_backend *backend, webcrypto_algorithm alg) {
    return backend && (unsigned)alg < WEBCRYPTO_ALG_COUNT && alg != WEBCRYPTO_ALG_NONE &&
           (backend->caps & WC_CAP(alg));
}

bool webcrypto_backend_has_feature(const webcrypto_backend *backend, webcrypto_feature feature) {
    if (!backend) return false;
    switch (feature) {
    case WEBCRYPTO_FEATURE_RSA_MULTI_PRIME: return (backend->caps & WC_CAP_RSA_MULTI_PRIME) != 0;
    }
    return false;
}
