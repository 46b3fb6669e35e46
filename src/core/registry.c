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

static pthread_mutex_t wc_registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* fork(): a backend's start (a JVM's creation takes a second) holds the
 * lock; a child forked meanwhile would find it held forever. The prepare
 * handler waits for the start to end; the handlers run on the forking
 * thread, which owns the lock in the child too. They touch nothing but the
 * library's own lock, and are registered when the library is loaded: no
 * thread can hold the lock yet, and a backend's init, which runs under the
 * lock, must not call pthread_atfork (glibc holds its handler list's lock
 * from the prepare handlers to the parent/child ones: a deadlock). */
static void registry_fork_prepare(void) { pthread_mutex_lock(&wc_registry_lock); }
static void registry_fork_after(void) { pthread_mutex_unlock(&wc_registry_lock); }
__attribute__((constructor)) static void registry_atfork(void) {
    (void)pthread_atfork(registry_fork_prepare, registry_fork_after, registry_fork_after);
}

static const wc_host_api wc_host = {
    .abi = WC_MODULE_ABI, .ops_size = sizeof(wc_backend_ops), .set_error = wc_set_error_message};

/* Finds webcrypto-<name>.so in $WEBCRYPTO_MODULE_DIR, then in the install's
 * module directory (module_dirs.c), loads it in a symbol scope of its own
 * (module_open.h) and makes the handshake (backend.h): the module's ABI and
 * ops-table size must equal ours, and the module must accept us. */
static webcrypto_status module_load(webcrypto_backend *b) {
    char file[160], dirs[4096], path[1200];
    void *handle = NULL;
    snprintf(file, sizeof file, "webcrypto-%s.so", b->name);
    wc_module_dirs(dirs, sizeof dirs);
    int r = wc_module_open(file, dirs, &handle, path, sizeof path);
    if (r > 0)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend module not found (tried %s)", path);
    if (r < 0) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s", path);
    void *sym = dlsym(handle, WC_MODULE_ENTRY);
    if (!sym) {
        bool v1 = dlsym(handle, WC_MODULE_ENTRY_V1) != NULL;
        dlclose(handle);
        if (v1)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "backend module %s has ABI 1; this libwebcrypto has ABI %u (ops %zu "
                            "bytes)",
                            path, WC_MODULE_ABI, sizeof(wc_backend_ops));
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "%s is not a webcrypto backend module (it has no %s)", path,
                        WC_MODULE_ENTRY);
    }
    wc_module_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    const wc_module_info *info = entry(&wc_host);
    if (!info) {
        dlclose(handle);
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "backend module %s gave no handshake; this libwebcrypto has ABI %u (ops "
                        "%zu bytes)",
                        path, WC_MODULE_ABI, sizeof(wc_backend_ops));
    }
    /* Copied before anything else: a refused module is closed. */
    const unsigned abi = info->abi;
    const size_t ops_size = info->ops_size;
    const wc_backend_ops *ops = info->ops;
    if (abi != WC_MODULE_ABI || ops_size != sizeof(wc_backend_ops)) {
        dlclose(handle);
        /* ABI 5's ops are the same size (only init's caps changed type):
         * the number alone tells, and the message says what to do. */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "backend module %s has ABI %u (ops %zu bytes); this libwebcrypto has ABI "
                        "%u (ops %zu bytes)%s",
                        path, abi, ops_size, WC_MODULE_ABI, sizeof(wc_backend_ops),
                        abi < WC_MODULE_ABI ? ": the module is older than this libwebcrypto; "
                                              "install the module built with it"
                                            : "");
    }
    if (!ops) {
        dlclose(handle);
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "backend module %s (ABI %u, ops %zu bytes) refused this libwebcrypto",
                        path, abi, ops_size);
    }
    if (!ops->name || strcmp(ops->name, b->name) != 0 || !ops->init) {
        dlclose(handle);
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s is not the %s backend module", path,
                        b->name);
    }
    b->ops = ops;
    return WEBCRYPTO_OK; /* the handle stays open for the process's life */
}

/* Records a failed start in b: later requests report init_message. */
static void backend_failed_locked(webcrypto_backend *b, webcrypto_status st) {
    b->init_status = st;
    b->description = b->name;
    snprintf(b->init_message, sizeof b->init_message, "%s", webcrypto_error_message());
    atomic_store_explicit(&b->state, 2, memory_order_release);
}

/* Whether the ops table has every operation algorithm row `a` needs (its
 * family's, and for a family whose members differ, the member's). */
static bool has_ops_for(const wc_backend_ops *o, const wc_alg_info *a) {
    bool secret = o->secret_key_new && o->secret_key_free;
    bool pkey = o->pkey_import && o->pkey_generate && o->pkey_fields && o->pkey_free;
    bool signs = a->ops & (1u << WEBCRYPTO_OP_SIGN);
    bool derives = a->ops & (1u << WEBCRYPTO_OP_DERIVE_BITS);
    switch (a->family) {
    case WC_FAMILY_DIGEST:
        return o->digest && o->digest_new && o->digest_update && o->digest_final && o->digest_free;
    case WC_FAMILY_HMAC:
        return secret && o->hmac && o->hmac_new && o->hmac_update && o->hmac_final && o->hmac_free;
    case WC_FAMILY_CIPHER: return secret && o->cipher;
    case WC_FAMILY_AEAD: return secret && o->aead_seal && o->aead_open;
    case WC_FAMILY_KEYWRAP: return secret && o->aes_kw_wrap && o->aes_kw_unwrap;
    case WC_FAMILY_KDF:
        switch (a->member.kdf) {
        case WC_KDF_HKDF: return secret && o->hkdf;
        case WC_KDF_PBKDF2: return secret && o->pbkdf2;
        case WC_KDF_ARGON2D:
        case WC_KDF_ARGON2I:
        case WC_KDF_ARGON2ID: return secret && o->argon2;
        case WC_KDF_COUNT: break;
        }
        return false;
    case WC_FAMILY_RSA:
        switch (a->member.rsa) {
        case WC_RSA_SCHEME_PKCS1_V1_5:
        case WC_RSA_SCHEME_PSS: return pkey && o->rsa_sign && o->rsa_verify;
        case WC_RSA_SCHEME_OAEP: return pkey && o->rsa_oaep_encrypt && o->rsa_oaep_decrypt;
        case WC_RSA_SCHEME_COUNT: break;
        }
        return false;
    case WC_FAMILY_EC:
        switch (a->member.ec) {
        case WC_EC_ECDSA: return pkey && o->ecdsa_sign && o->ecdsa_verify;
        case WC_EC_ECDH: return pkey && o->ecdh;
        case WC_EC_COUNT: break;
        }
        return false;
    case WC_FAMILY_OKP: /* the member's operations, from its row */
        return pkey && (!signs || (o->okp_sign && o->okp_verify)) && (!derives || o->okp_derive);
    /* Keys from seeds: pkey_import makes them (the core draws a generated
     * key's seed), so pkey_generate is not needed. */
    case WC_FAMILY_ML_KEM:
        return o->pkey_import && o->pkey_fields && o->pkey_free && o->ml_kem_encapsulate &&
               o->ml_kem_decapsulate;
    case WC_FAMILY_ML_DSA:
        return o->pkey_import && o->pkey_fields && o->pkey_free && o->ml_dsa_sign &&
               o->ml_dsa_verify;
    case WC_FAMILY_XOF: return o->xof != NULL;
    case WC_FAMILY_KMAC: return secret && o->kmac;
    }
    return false;
}

/* Clears from *caps the algorithms whose operations the backend lacks
 * (backend.h: an op a backend lacks is NULL), so a NULL op makes its
 * algorithms NotSupportedError and the core never calls it. Feature bits
 * pass. Read from the algorithm table, so a new row needs nothing here. */
static void caps_mask_ops(const wc_backend_ops *o, wc_caps *caps) {
    for (unsigned alg = 1; alg < WC_ALG_COUNT; alg++) {
        const wc_alg_info *a = wc_alg((webcrypto_algorithm)alg);
        if (a && !has_ops_for(o, a)) wc_caps_remove(caps, (webcrypto_algorithm)alg);
    }
}

/* Loads (modules) and initialises b, with the registry's lock held; the
 * outcome is in b->state (1 ready, 2 failed). */
static void backend_init_locked(webcrypto_backend *b) {
    wc_caps caps = {{0}, 0};
    const char *desc = NULL;
    webcrypto_status st = b->ops ? WEBCRYPTO_OK : module_load(b);
    if (st == WEBCRYPTO_OK) st = b->ops->init(b->variant, &b->bctx, &caps, &desc);
    if (st != WEBCRYPTO_OK) {
        backend_failed_locked(b, st);
        return;
    }
    caps_mask_ops(b->ops, &caps);
    b->caps = caps;
    b->description = desc ? desc : b->name;
    b->init_status = st;
    atomic_store_explicit(&b->state, 1, memory_order_release);
}

/* Loads (modules) and initialises the backend once per process; later calls
 * read the cached result. */
static webcrypto_status backend_start(webcrypto_backend *b) {
    int s = atomic_load_explicit(&b->state, memory_order_acquire);
    if (s == 0) {
        pthread_mutex_lock(&wc_registry_lock);
        if (atomic_load_explicit(&b->state, memory_order_relaxed) == 0) backend_init_locked(b);
        pthread_mutex_unlock(&wc_registry_lock);
        s = atomic_load_explicit(&b->state, memory_order_acquire);
    }
    if (s != 1)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s is unavailable: %s", b->name,
                        b->init_message);
    return WEBCRYPTO_OK;
}

/* "name:variant" handles. A slot is taken only by a variant whose init
 * succeeded, and then kept (keys point at it) for the process's life; a
 * variant that fails (an unknown provider, a typo) leaves its slot free, so
 * bad names cannot use up the table, and is tried afresh on its next
 * request. Slots below wc_variant_count are started and never change again;
 * the slot at wc_variant_count is a scratch one, used only with the lock
 * held; so a handle given out is always a started one. */
#define WC_MAX_VARIANTS 16
static webcrypto_backend wc_variants[WC_MAX_VARIANTS];
static char wc_variant_names[WC_MAX_VARIANTS][128];
static size_t wc_variant_count;

/* With the lock held: starts `full` in the scratch slot and keeps it if its
 * init succeeds. Runs init under the lock, as backend_start does, so two
 * requests of one new name start it once (the second finds the slot). */
static webcrypto_status variant_start_locked(webcrypto_backend *base, const char *full,
                                             webcrypto_backend **out) {
    /* A module is loaded once, by its base entry, whose state keeps a load
     * failure (so each variant request does not retry the load). */
    if (base->module && !base->ops) {
        if (atomic_load_explicit(&base->state, memory_order_relaxed) == 2)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s is unavailable: %s", full,
                            base->init_message);
        webcrypto_status st = module_load(base);
        if (st != WEBCRYPTO_OK) {
            backend_failed_locked(base, st);
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s is unavailable: %s", full,
                            base->init_message);
        }
    }
    size_t i = wc_variant_count;
    webcrypto_backend *b = &wc_variants[i];
    snprintf(wc_variant_names[i], sizeof wc_variant_names[i], "%s", full);
    b->name = wc_variant_names[i];
    b->variant = wc_variant_names[i] + strlen(base->name) + 1;
    b->ops = base->ops;
    b->module = base->module;
    b->variants = false;
    b->bctx = NULL;
    b->caps = (wc_caps){{0}, 0};
    b->description = NULL;
    b->init_status = WEBCRYPTO_OK;
    b->init_message[0] = 0;
    atomic_store_explicit(&b->state, 0, memory_order_relaxed);
    backend_init_locked(b);
    if (atomic_load_explicit(&b->state, memory_order_relaxed) != 1) {
        webcrypto_status st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                                       "backend %s is unavailable: %s", full, b->init_message);
        wc_variant_names[i][0] = 0; /* the slot stays free */
        return st;
    }
    wc_variant_count = i + 1;
    *out = b;
    return WEBCRYPTO_OK;
}

static webcrypto_status variant_handle(webcrypto_backend *base, const char *full,
                                       webcrypto_backend **out) {
    if (strlen(full) >= sizeof wc_variant_names[0])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend name \"%.40s...\" is too long", full);
    pthread_mutex_lock(&wc_registry_lock);
    webcrypto_backend *b = NULL;
    webcrypto_status st = WEBCRYPTO_OK;
    for (size_t i = 0; i < wc_variant_count && !b; i++)
        if (strcmp(wc_variant_names[i], full) == 0) b = &wc_variants[i];
    if (!b && wc_variant_count == WC_MAX_VARIANTS)
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                      "too many backend variants in use (%d started); \"%s\" is not one of them",
                      WC_MAX_VARIANTS, full);
    else if (!b)
        st = variant_start_locked(base, full, &b);
    pthread_mutex_unlock(&wc_registry_lock);
    if (st == WEBCRYPTO_OK) *out = b;
    return st;
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

/* Backend `name`'s use_provider (backend.h), without starting the backend
 * (a module is loaded for it): so jvm.c names no backend's symbol. */
webcrypto_status wc_backend_use_provider(const char *name, const char *variant, void *provider) {
    for (size_t i = 0; i < WC_REGISTRY_COUNT; i++) {
        webcrypto_backend *b = &wc_registry[i];
        if (strcmp(b->name, name) != 0) continue;
        const wc_backend_ops *ops = b->ops; /* built in: constant */
        if (b->module) {
            pthread_mutex_lock(&wc_registry_lock);
            webcrypto_status st = b->ops ? WEBCRYPTO_OK : module_load(b);
            ops = b->ops;
            pthread_mutex_unlock(&wc_registry_lock);
            if (st != WEBCRYPTO_OK) return st;
        }
        if (!ops->use_provider)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "backend %s takes no provider", name);
        return ops->use_provider(variant, provider);
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "no backend named \"%s\" in this build", name);
}

/* The default backend once it has started: NULL, the default, is what most
 * callers pass, and finding it by name (strlen, strncmp, the start check)
 * cost ~150 instructions per call, 3% of a 64-byte SHA-256 (issue #15). */
static _Atomic(const webcrypto_backend *) wc_default_started;

webcrypto_status wc_backend_resolve(const webcrypto_backend *in, const webcrypto_backend **out) {
    if (in) {
        *out = in; /* handles are only ever given out after a successful start */
        return WEBCRYPTO_OK;
    }
    const webcrypto_backend *d = atomic_load_explicit(&wc_default_started, memory_order_acquire);
    if (d) {
        *out = d;
        return WEBCRYPTO_OK;
    }
    webcrypto_status st = webcrypto_backend_get(NULL, out);
    if (st == WEBCRYPTO_OK) atomic_store_explicit(&wc_default_started, *out, memory_order_release);
    return st;
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
    return backend && (unsigned)alg < WC_ALG_COUNT && alg != WEBCRYPTO_ALG_NONE &&
           wc_caps_has(&backend->caps, alg);
}

bool webcrypto_backend_supports_hash(const webcrypto_backend *backend, webcrypto_algorithm alg,
                                     webcrypto_algorithm hash) {
    if (!webcrypto_backend_supports(backend, alg) || !webcrypto_backend_supports(backend, hash) ||
        !wc_is_hash(hash))
        return false;
    const wc_alg_info *a = wc_alg(alg);
    if (!a->sha3_cap) return false; /* takes no hash */
    return !wc_hash_is_sha3(wc_hash_of(hash)) || (backend->caps.features & a->sha3_cap) != 0;
}

bool webcrypto_backend_has_feature(const webcrypto_backend *backend, webcrypto_feature feature) {
    if (!backend) return false;
    switch (feature) {
    case WEBCRYPTO_FEATURE_RSA_MULTI_PRIME: return (backend->caps.features & WC_CAP_RSA_MULTI_PRIME) != 0;
    case WEBCRYPTO_FEATURE_ED448_CONTEXT: return (backend->caps.features & WC_CAP_ED448_CONTEXT) != 0;
    case WEBCRYPTO_FEATURE_ML_DSA_CONTEXT:
        return (backend->caps.features & WC_CAP_ML_DSA_CONTEXT) != 0;
    }
    return false;
}
