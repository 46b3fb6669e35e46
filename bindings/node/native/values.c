/*
 * values.c - JS values to C and back: key handles (nkey) and the type tags
 * of every external, the params member table, the errors a status becomes,
 * bytes, keys, backends and numbers read from JS, and key handles and own
 * properties made for it. Calls only buffers.c (native/addon.h).
 */
#include "addon.h"

#include <stdio.h>

nkey *nkey_retain(nkey *k) {
    atomic_fetch_add(&k->refs, 1);
    return k;
}

void nkey_release(nkey *k) {
    if (k && atomic_fetch_sub(&k->refs, 1) == 1) {
        webcrypto_key_free(k->key);
        free(k);
    }
}

static void nkey_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    nkey_release(data);
}

/* Type tags: every external this addon makes carries one, checked before
 * its pointer is used, so that no other external (another addon's, or one of
 * ours of another kind: a key handle where a backend is expected) passes for
 * it; a wrong one is a TypeError, never a crash. */
const napi_type_tag k_key_tag = {0x7765626372797074ULL, 0x6e6f64656b657921ULL};
const napi_type_tag k_backend_tag = {0x7765626372797074ULL, 0x6261636b656e6421ULL};
const napi_type_tag k_bytes_tag = {0x7765626372797074ULL, 0x6279746573636f70ULL};

#define F(f) offsetof(webcrypto_params, f)
const member k_members[] = {
    {"hash", M_ALG, F(hash), 0},
    {"length", M_SIZE, F(length), 0},
    {"iv", M_BYTES, F(iv), F(iv_len)},
    {"counter", M_BYTES, F(counter), F(counter_len)},
    {"additionalData", M_BYTES, F(additional_data), F(additional_data_len)},
    {"tagLength", M_SIZE, F(tag_length), 0},
    {"salt", M_BYTES, F(salt), F(salt_len)},
    {"info", M_BYTES, F(info), F(info_len)},
    {"iterations", M_U32, F(iterations), 0},
    {"modulusLength", M_SIZE, F(modulus_length), 0},
    {"publicExponent", M_BYTES, F(public_exponent), F(public_exponent_len)},
    {"namedCurve", M_CURVE, F(named_curve), 0},
    {"saltLength", M_SIZE, F(salt_length), 0},
    {"label", M_BYTES, F(label), F(label_len)},
    {"public", M_KEY, F(public_key), 0},
    {"context", M_BYTES, F(context), F(context_len)},
    {"outputLength", M_SIZE, F(output_length), 0},
    {"customization", M_BYTES, F(customization), F(customization_len)},
    {"functionName", M_BYTES, F(function_name), F(function_name_len)},
    {"nonce", M_BYTES, F(nonce), F(nonce_len)},
    {"secretValue", M_BYTES, F(secret_value), F(secret_value_len)},
    {"parallelism", M_U32, F(parallelism), 0},
    {"memory", M_U32, F(memory), 0},
    {"passes", M_U32, F(passes), 0},
    {"version", M_U32, F(version), 0},
    /* Argon2Params.associatedData: the draft's name for additional_data. */
    {"associatedData", M_BYTES, F(additional_data), F(additional_data_len)},
};
#undef F
_Static_assert(sizeof k_members / sizeof k_members[0] == N_MEMBERS,
               "N_MEMBERS (addon.h) is the count of k_members");

/* Throws the error index.js makes for a status (a DOMException or TypeError). */
napi_value make_error(napi_env env, webcrypto_status st, const char *msg) {
    addon *ad = NULL;
    napi_value fn, args[2], err = NULL, undef;
    napi_get_instance_data(env, (void **)&ad);
    napi_get_undefined(env, &undef);
    if (ad && napi_get_reference_value(env, ad->make_error, &fn) == napi_ok && fn &&
        napi_create_string_utf8(env, webcrypto_status_name(st), NAPI_AUTO_LENGTH, &args[0]) ==
            napi_ok &&
        napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &args[1]) == napi_ok &&
        napi_call_function(env, undef, fn, 2, args, &err) == napi_ok)
        return err;
    napi_value m;
    napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m);
    napi_create_error(env, NULL, m, &err);
    return err;
}

void throw_status(napi_env env, webcrypto_status st, const char *msg) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw(env, make_error(env, st, msg));
}

void throw_type(napi_env env, const char *msg) {
    throw_status(env, WEBCRYPTO_ERR_INVALID_ARGUMENT, msg);
}

/* The external v if it carries `tag`, else NULL (not an error yet). */
static void *tagged_external(napi_env env, napi_value v, const napi_type_tag *tag) {
    napi_valuetype t;
    bool is = false;
    void *data = NULL;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
        napi_check_object_type_tag(env, v, tag, &is) != napi_ok || !is ||
        napi_get_value_external(env, v, &data) != napi_ok)
        return NULL;
    return data;
}

/* Bytes of a Uint8Array, DataView, ArrayBuffer or snapshot; *snap set for
 * a snapshot. Other typed arrays are refused, never sized: index.js passes
 * a Uint8Array over the view's bytes (from the intrinsic byteOffset and
 * byteLength getters), so no element size is ever guessed here (a switch
 * over element types misses any kind a later Node adds: Float16Array). */
bool get_bytes(napi_env env, napi_value v, const uint8_t **p, size_t *n, nbytes **snap) {
    bool is = false;
    void *data = NULL;
    size_t len = 0;
    if (snap) *snap = NULL;
    if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
        napi_typedarray_type t;
        size_t count, off;
        napi_value ab;
        if (napi_get_typedarray_info(env, v, &t, &count, &data, &ab, &off) != napi_ok ||
            t != napi_uint8_array)
            return false;
        len = count;
    } else if (napi_is_dataview(env, v, &is) == napi_ok && is) {
        napi_value ab;
        size_t off;
        if (napi_get_dataview_info(env, v, &len, &data, &ab, &off) != napi_ok) return false;
    } else if (napi_is_arraybuffer(env, v, &is) == napi_ok && is) {
        if (napi_get_arraybuffer_info(env, v, &data, &len) != napi_ok) return false;
    } else {
        nbytes *b = tagged_external(env, v, &k_bytes_tag);
        if (!b || b->used) return false;
        data = b->p;
        len = b->n;
        if (snap) *snap = b;
    }
    *p = len ? data : NULL;
    *n = len;
    return true;
}

bool get_key(napi_env env, napi_value v, nkey **out) {
    bool is = false;
    void *data = NULL;
    if (napi_check_object_type_tag(env, v, &k_key_tag, &is) != napi_ok || !is ||
        napi_get_value_external(env, v, &data) != napi_ok || !data) {
        throw_type(env, "expected a CryptoKey handle");
        return false;
    }
    *out = data;
    return true;
}

/* The backends backend() has handed out (the library's handles are static,
 * a handful at most): an external's pointer is taken as a backend only if it
 * is one of these, compared, never dereferenced (cheaper than a type tag's
 * lookup on every call; the tag is set too). */
#define MAX_BACKENDS 16
static struct {
    atomic_flag lock;
    const webcrypto_backend *b[MAX_BACKENDS];
    atomic_size_t n;
} g_backends = {ATOMIC_FLAG_INIT, {0}, 0};

static bool backend_known(const void *p) {
    size_t n = atomic_load(&g_backends.n);
    for (size_t i = 0; i < n; i++)
        if (g_backends.b[i] == p) return true;
    return false;
}

bool backend_remember(const webcrypto_backend *b) {
    bool ok = true;
    unsigned tries = 0;
    while (atomic_flag_test_and_set_explicit(&g_backends.lock, memory_order_acquire))
        spin_wait(&tries);
    if (!backend_known(b)) {
        size_t n = atomic_load(&g_backends.n);
        if (n < MAX_BACKENDS) {
            g_backends.b[n] = b;
            atomic_store(&g_backends.n, n + 1);
        } else {
            ok = false;
        }
    }
    atomic_flag_clear_explicit(&g_backends.lock, memory_order_release);
    return ok;
}

/* A backend handle (backend()'s external), or undefined/null for the
 * library's default; anything else is a TypeError. */
bool get_backend(napi_env env, napi_value v, const webcrypto_backend **out) {
    napi_valuetype t;
    void *p = NULL;
    *out = NULL;
    if (napi_typeof(env, v, &t) != napi_ok) return false;
    if (t == napi_undefined || t == napi_null) return true;
    if (t != napi_external || napi_get_value_external(env, v, &p) != napi_ok || !backend_known(p)) {
        throw_type(env, "expected a backend handle");
        return false;
    }
    *out = p;
    return true;
}

bool get_u32(napi_env env, napi_value v, uint32_t *out) {
    if (napi_get_value_uint32(env, v, out) != napi_ok) {
        throw_type(env, "expected a number");
        return false;
    }
    return true;
}

bool get_size(napi_env env, napi_value v, size_t *out) {
    double d;
    if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0) || d > 9007199254740991.0) {
        throw_type(env, "expected a non-negative number");
        return false;
    }
    *out = (size_t)d;
    return true;
}

napi_value key_handle(napi_env env, webcrypto_key **kp) {
    nkey *k = malloc(sizeof *k);
    napi_value v;
    if (!k) return NULL;
    k->key = *kp;
    atomic_init(&k->refs, 1);
    if (napi_create_external(env, k, nkey_finalize, NULL, &v) != napi_ok) {
        free(k);
        return NULL;
    }
    *kp = NULL; /* the external owns it now */
    if (napi_type_tag_object(env, v, &k_key_tag) != napi_ok) return NULL;
    return v;
}

/* An external ArrayBuffer's bytes when it is collected: a malloc (hint: its
 * size) wiped and freed; a block of the cache (hint: non-NULL if it may
 * hold secrets) given back. */
void out_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    buf_free(data, 0, (size_t)(uintptr_t)hint, true);
}
void big_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    big_give(data, hint != NULL);
}

/* An own data property of a result object or array (DefineOwnProperty, not
 * Set: a setter a script adds to Object.prototype or Array.prototype for
 * that name never sees the value, a key handle or a shared secret). */
napi_status define_own(napi_env env, napi_value obj, const char *name, napi_value v) {
    napi_property_descriptor d = {name, NULL, NULL, NULL, NULL, v,
                                  napi_writable | napi_enumerable | napi_configurable, NULL};
    return napi_define_properties(env, obj, 1, &d);
}

napi_value set_u32(napi_env env, napi_value obj, const char *k, uint32_t v) {
    napi_value x;
    if (napi_create_uint32(env, v, &x) != napi_ok || define_own(env, obj, k, x) != napi_ok)
        return NULL;
    return obj;
}

napi_value set_str(napi_env env, napi_value obj, const char *k, const char *v) {
    napi_value x;
    if (!v) return obj;
    if (napi_create_string_utf8(env, v, NAPI_AUTO_LENGTH, &x) != napi_ok ||
        define_own(env, obj, k, x) != napi_ok)
        return NULL;
    return obj;
}
