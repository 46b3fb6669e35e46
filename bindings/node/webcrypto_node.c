/*
 * webcrypto_node.c - the Node-API addon under bindings/node/index.js.
 *
 * Node-API version 8 (Node >= 12.22 / 14.17 / 16; every Node we test has it).
 * This is only the C side: it runs libwebcrypto's one-shot calls, either
 * on the calling (main) thread or as napi async work on Node's thread pool,
 * and hands back ArrayBuffers, booleans and key handles. Web IDL (argument
 * conversion, algorithm normalisation, CryptoKey objects, DOMException) is
 * index.js's.
 *
 * This file is the module's init and its entry points but native.run (in
 * native/run.c); the parts it calls are in native/ (native/addon.h says
 * which does what), and none calls back into this file.
 *
 * Keys: a handle is a napi external over a refcounted `nkey`. The external's
 * finalizer drops one reference; a job that uses a key (as the key, the
 * wrapping key or params.public) holds its own reference until the job is
 * done, so a key collected while an operation runs on the pool is freed
 * only after the operation. webcrypto_key is immutable, so several pool
 * threads may use one key at once.
 *
 * Algorithm parameters arrive as a flat array [name, member, value, member,
 * value, ...], `member` an index into k_members (native/values.c): the one
 * table that maps a Web IDL dictionary member to its webcrypto_params
 * field. A new member of webcrypto_params is one line there (and N_MEMBERS
 * in native/addon.h, which the build checks).
 */
#include "native/addon.h"

#include <stddef.h>
#include <string.h>

/* ---- entry points (native.run: native/run.c) ----------------------------- */

/* backend(name | undefined) -> an external for the backend (never freed: the
 * library's handles are static). */
static napi_value backend(napi_env env, napi_callback_info info) {
    napi_value argv[1], r, undef;
    size_t argc = 1;
    char name[128];
    size_t len = 0;
    const webcrypto_backend *b = NULL;
    napi_valuetype t = napi_undefined;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc >= 1) NAPI(napi_typeof(env, argv[0], &t));
    if (t == napi_string) {
        NAPI(napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len));
        if (len + 1 >= sizeof name) {
            throw_status(env, WEBCRYPTO_ERR_NOT_SUPPORTED, "backend name too long");
            return undef;
        }
    }
    webcrypto_status st = webcrypto_backend_get(t == napi_string ? name : NULL, &b);
    if (st != WEBCRYPTO_OK) {
        throw_status(env, st, webcrypto_error_message());
        return undef;
    }
    if (!backend_remember(b)) {
        throw_status(env, WEBCRYPTO_ERR_OPERATION, "too many backends");
        return undef;
    }
    NAPI(napi_create_external(env, (void *)b, NULL, NULL, &r));
    NAPI(napi_type_tag_object(env, r, &k_backend_tag));
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

/* keyInfo(handle) -> {type, algorithm, hash, length, modulusLength,
 * publicExponent, namedCurve, extractable, usages} (absent members omitted). */
static napi_value key_info(napi_env env, napi_callback_info info) {
    napi_value argv[1], r, undef, x;
    size_t argc = 1;
    nkey *k;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc < 1 || !get_key(env, argv[0], &k)) return undef;
    const webcrypto_key *key = k->key;
    NAPI(napi_create_object(env, &r));
    NAPI(set_u32(env, r, "type", (uint32_t)webcrypto_key_get_type(key)) ? napi_ok : napi_generic_failure);
    NAPI(set_u32(env, r, "algorithm", (uint32_t)webcrypto_key_get_algorithm(key)) ? napi_ok : napi_generic_failure);
    if (webcrypto_key_get_hash(key) != WEBCRYPTO_ALG_NONE)
        NAPI(set_u32(env, r, "hash", (uint32_t)webcrypto_key_get_hash(key)) ? napi_ok : napi_generic_failure);
    size_t ml = webcrypto_key_get_modulus_length(key);
    if (ml) {
        uint8_t e[64];
        size_t el = webcrypto_key_get_public_exponent(key, e, sizeof e);
        void *data;
        napi_value ab;
        NAPI(set_u32(env, r, "modulusLength", (uint32_t)ml) ? napi_ok : napi_generic_failure);
        if (el <= sizeof e) {
            NAPI(napi_create_arraybuffer(env, el, &data, &ab));
            if (el) memcpy(data, e, el);
            NAPI(napi_create_typedarray(env, napi_uint8_array, el, ab, 0, &x));
            NAPI(define_own(env, r, "publicExponent", x));
        }
    } else if (webcrypto_algorithm_has_operation(webcrypto_key_get_algorithm(key),
                                                 WEBCRYPTO_OP_GET_KEY_LENGTH) &&
               webcrypto_algorithm_has_operation(webcrypto_key_get_algorithm(key),
                                                 WEBCRYPTO_OP_GENERATE_KEY) &&
               webcrypto_key_get_length(key)) {
        /* AesKeyAlgorithm, HmacKeyAlgorithm: keys that are made with a
         * length; a KDF's key (HKDF, PBKDF2) is a plain KeyAlgorithm. */
        NAPI(set_u32(env, r, "length", (uint32_t)webcrypto_key_get_length(key)) ? napi_ok : napi_generic_failure);
    }
    NAPI(set_str(env, r, "namedCurve", webcrypto_curve_name(webcrypto_key_get_named_curve(key))) ? napi_ok : napi_generic_failure);
    NAPI(napi_get_boolean(env, webcrypto_key_get_extractable(key), &x));
    NAPI(define_own(env, r, "extractable", x));
    NAPI(set_u32(env, r, "usages", webcrypto_key_get_usages(key)) ? napi_ok : napi_generic_failure);
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

/* getRandomValues(backend, view): fills the view's bytes (index.js checks
 * its type); QuotaExceededError over 65536 bytes, from the library. */
static napi_value random_values(napi_env env, napi_callback_info info) {
    napi_value argv[2], undef;
    size_t argc = 2;
    const uint8_t *p;
    size_t n;
    const webcrypto_backend *b = NULL;
    napi_valuetype t;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc < 2 || !get_backend(env, argv[0], &b)) return undef;
    /* a Uint8Array (index.js's view over the caller's array) only */
    if (napi_typeof(env, argv[1], &t) != napi_ok || t != napi_object ||
        !get_bytes(env, argv[1], &p, &n, NULL)) {
        throw_type(env, "expected a Uint8Array");
        return undef;
    }
    webcrypto_status st = webcrypto_get_random_values(b, (uint8_t *)p, n);
    if (st != WEBCRYPTO_OK) throw_status(env, st, webcrypto_error_message());
    return argv[1];
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

static napi_value random_uuid(napi_env env, napi_callback_info info) {
    napi_value argv[1], r, undef;
    size_t argc = 1;
    const webcrypto_backend *b = NULL;
    char out[37];
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc >= 1 && !get_backend(env, argv[0], &b)) return undef;
    webcrypto_status st = webcrypto_random_uuid(b, out);
    if (st != WEBCRYPTO_OK) {
        throw_status(env, st, webcrypto_error_message());
        return undef;
    }
    NAPI(napi_create_string_utf8(env, out, 36, &r));
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

/* The limits an embedder sets (webcrypto_set_limits), by the names the
 * binding gives them: the one table of them (lib/limits.js takes the names
 * from limits()' answer). */
static const struct {
    const char *name;
    size_t offset;
} k_limits[] = {
    {"maxPbkdf2Iterations", offsetof(webcrypto_limits, max_pbkdf2_iterations)},
    {"maxArgon2Memory", offsetof(webcrypto_limits, max_argon2_memory)},
    {"maxArgon2Passes", offsetof(webcrypto_limits, max_argon2_passes)},
    {"maxRsaGenerateBits", offsetof(webcrypto_limits, max_rsa_generate_bits)},
    {"maxRsaImportBits", offsetof(webcrypto_limits, max_rsa_import_bits)},
    {"maxJwkBytes", offsetof(webcrypto_limits, max_jwk_bytes)},
    {"maxJwkKeyOps", offsetof(webcrypto_limits, max_jwk_key_ops)},
};
#define N_LIMITS (sizeof k_limits / sizeof k_limits[0])

static uint32_t *limit_at(webcrypto_limits *l, size_t i) {
    return (uint32_t *)(void *)((char *)l + k_limits[i].offset);
}

/* limits(values | undefined) -> the limits in force, an object with one own
 * property per k_limits entry, in its order. Given an array of N_LIMITS
 * uint32 values (lib/limits.js makes it: 0 is the default), sets them all
 * first, all or nothing (webcrypto_set_limits' errors thrown). */
static napi_value limits(napi_env env, napi_callback_info info) {
    napi_value argv[1], r, undef, x;
    size_t argc = 1;
    bool is_array = false;
    webcrypto_limits l = WEBCRYPTO_LIMITS_INIT;
    webcrypto_status st;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc >= 1) NAPI(napi_is_array(env, argv[0], &is_array));
    if (is_array) {
        for (uint32_t i = 0; i < N_LIMITS; i++) {
            NAPI(napi_get_element(env, argv[0], i, &x));
            NAPI(napi_get_value_uint32(env, x, limit_at(&l, i)));
        }
        if ((st = webcrypto_set_limits(&l)) != WEBCRYPTO_OK) {
            throw_status(env, st, webcrypto_error_message());
            return undef;
        }
    }
    if ((st = webcrypto_get_limits(&l)) != WEBCRYPTO_OK) {
        throw_status(env, st, webcrypto_error_message());
        return undef;
    }
    NAPI(napi_create_object(env, &r));
    for (size_t i = 0; i < N_LIMITS; i++) {
        NAPI(napi_create_uint32(env, *limit_at(&l, i), &x));
        NAPI(define_own(env, r, k_limits[i].name, x));
    }
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

/* supports(backend, alg) */
static napi_value supports(napi_env env, napi_callback_info info) {
    napi_value argv[2], r, undef;
    size_t argc = 2;
    const webcrypto_backend *b = NULL;
    uint32_t alg = 0;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc < 2 || !get_backend(env, argv[0], &b)) return undef;
    NAPI(napi_get_value_uint32(env, argv[1], &alg));
    NAPI(napi_get_boolean(env, webcrypto_backend_supports(b, (webcrypto_algorithm)alg), &r));
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

/* supportsOp(backend, op, params | null, length (bits; -1: null), additional
 * params | null) -> SubtleCrypto.supports' answer (webcrypto_supports). op is
 * a webcrypto_operation. A params array that does not convert (a member of a
 * wrong kind) throws, as run does; index.js converts first. */
static napi_value supports_op(napi_env env, napi_callback_info info) {
    napi_value argv[5], r, undef;
    size_t argc = 5;
    const webcrypto_backend *b = NULL;
    uint32_t op = 0;
    double len = -1;
    bool is_arr = false, ok = false;
    job j; /* only its params: nothing runs */
    memset(&j, 0, offsetof(job, stackbuf));
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc < 5) {
        throw_type(env, "supportsOp: too few arguments");
        return undef;
    }
    if (!get_backend(env, argv[0], &b)) return undef;
    if (!get_u32(env, argv[1], &op)) return undef;
    NAPI(napi_get_value_double(env, argv[3], &len));
    NAPI(napi_is_array(env, argv[2], &is_arr));
    if (is_arr) {
        if (!get_params(env, &j, argv[2], &j.a)) goto out;
        NAPI(napi_is_array(env, argv[4], &is_arr));
        if (is_arr && !get_params(env, &j, argv[4], &j.b)) goto out;
        ok = webcrypto_supports(b, (webcrypto_operation)op, &j.a.p,
                                len < 0 ? WEBCRYPTO_LENGTH_FULL : (size_t)len,
                                is_arr ? &j.b.p : NULL);
    }
    if (napi_get_boolean(env, ok, &r) != napi_ok) goto napi_fail;
    job_consume_snaps(&j);
    job_free(env, &j);
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
out:
    job_consume_snaps(&j);
    job_free(env, &j);
    return undef;
}

/* snapshot(bytes) -> an external holding a copy of a Uint8Array's,
 * DataView's or ArrayBuffer's bytes in C memory (see nbytes). */
static napi_value snapshot(napi_env env, napi_callback_info info) {
    napi_value argv[1], r, undef;
    size_t argc = 1;
    const uint8_t *p;
    size_t n;
    nbytes *b = NULL;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc < 1 || !get_bytes(env, argv[0], &p, &n, NULL)) {
        throw_type(env, "snapshot: expected a Uint8Array");
        return undef;
    }
    b = calloc(1, sizeof *b);
    if (!b || !copy_bytes(p, n, &b->p)) {
        free(b);
        throw_status(env, WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        return undef;
    }
    b->n = n;
    if (napi_create_external(env, b, nbytes_finalize, NULL, &r) != napi_ok) {
        nbytes_consume(b);
        free(b);
        goto napi_fail;
    }
    NAPI(napi_type_tag_object(env, r, &k_bytes_tag));
    return r;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

/* trimCache() -> how many blocks the cache of large buffers still holds,
 * after freeing those that no call took since the previous trimCache. */
static napi_value trim_cache(napi_env env, napi_callback_info info) {
    napi_value r;
    (void)info;
    if (napi_create_uint32(env, (uint32_t)big_trim(), &r) != napi_ok) return NULL;
    return r;
}

/* setErrorFactory(fn): fn(name, message) makes the error objects. */
static napi_value set_error_factory(napi_env env, napi_callback_info info) {
    napi_value argv[1], undef;
    size_t argc = 1;
    addon *ad = NULL;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    NAPI(napi_get_instance_data(env, (void **)&ad));
    if (argc < 1 || !ad) return undef;
    if (ad->make_error) napi_delete_reference(env, ad->make_error);
    NAPI(napi_create_reference(env, argv[0], 1, &ad->make_error));
    return undef;
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    return undef;
}

static void addon_finalize(napi_env env, void *data, void *hint) {
    addon *ad = data;
    (void)hint;
    if (ad->make_error) napi_delete_reference(env, ad->make_error);
    free(ad);
}

/* The tables index.js builds on: algorithms (id, name, operations), the
 * params members, usages, opcodes, backends. */
static napi_value make_tables(napi_env env) {
    napi_value t, arr, x;
    NAPI(napi_create_object(env, &t));
    NAPI(napi_create_array(env, &arr));
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm alg = webcrypto_algorithm_at(i);
        napi_value o, ops;
        uint32_t nops = 0;
        NAPI(napi_create_object(env, &o));
        if (!set_u32(env, o, "id", (uint32_t)alg) ||
            !set_str(env, o, "name", webcrypto_algorithm_name(alg)))
            goto napi_fail;
        NAPI(napi_create_array(env, &ops));
        for (int op = WEBCRYPTO_OP_ENCRYPT; op <= WEBCRYPTO_OP_DECAPSULATE; op++) {
            if (!webcrypto_algorithm_has_operation(alg, (webcrypto_operation)op)) continue;
            const char *nm = webcrypto_operation_name((webcrypto_operation)op);
            if (!nm) continue;
            NAPI(napi_create_string_utf8(env, nm, NAPI_AUTO_LENGTH, &x));
            NAPI(napi_set_element(env, ops, nops++, x));
        }
        NAPI(napi_set_named_property(env, o, "operations", ops));
        size_t ds = webcrypto_digest_size(alg);
        if (ds && !set_u32(env, o, "digestSize", (uint32_t)ds)) goto napi_fail;
        NAPI(napi_set_element(env, arr, (uint32_t)i, o));
    }
    NAPI(napi_set_named_property(env, t, "algorithms", arr));
    /* webcrypto_operation by name ("encrypt": 1, ..., "decapsulate"). */
    NAPI(napi_create_object(env, &arr));
    for (int op = WEBCRYPTO_OP_ENCRYPT; op <= WEBCRYPTO_OP_DECAPSULATE; op++) {
        const char *nm = webcrypto_operation_name((webcrypto_operation)op);
        if (nm && !set_u32(env, arr, nm, (uint32_t)op)) goto napi_fail;
    }
    NAPI(napi_set_named_property(env, t, "operations", arr));
    NAPI(napi_create_array(env, &arr));
    for (size_t i = 0; i < N_MEMBERS; i++) {
        NAPI(napi_create_string_utf8(env, k_members[i].idl, NAPI_AUTO_LENGTH, &x));
        NAPI(napi_set_element(env, arr, (uint32_t)i, x));
    }
    NAPI(napi_set_named_property(env, t, "members", arr));
    NAPI(napi_create_array(env, &arr));
    for (uint32_t i = 0; i < 32; i++) {
        const char *nm = webcrypto_usage_name(1u << i);
        if (!nm) break;
        NAPI(napi_create_string_utf8(env, nm, NAPI_AUTO_LENGTH, &x));
        NAPI(napi_set_element(env, arr, i, x));
    }
    NAPI(napi_set_named_property(env, t, "usages", arr));
    NAPI(napi_create_array(env, &arr));
    for (size_t i = 0; i < webcrypto_backend_count(); i++) {
        NAPI(napi_create_string_utf8(env, webcrypto_backend_name_at(i), NAPI_AUTO_LENGTH, &x));
        NAPI(napi_set_element(env, arr, (uint32_t)i, x));
    }
    NAPI(napi_set_named_property(env, t, "backends", arr));
    if (!set_str(env, t, "version", webcrypto_version())) goto napi_fail;
    return t;
napi_fail:
    return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
    addon *ad = calloc(1, sizeof *ad);
    napi_value t;
    if (!ad || napi_set_instance_data(env, ad, addon_finalize, NULL) != napi_ok) {
        free(ad);
        napi_throw_error(env, NULL, "webcrypto: could not initialise the addon");
        return NULL;
    }
    napi_property_descriptor props[] = {
        {"run", NULL, run, NULL, NULL, NULL, napi_enumerable, NULL},
        {"backend", NULL, backend, NULL, NULL, NULL, napi_enumerable, NULL},
        {"keyInfo", NULL, key_info, NULL, NULL, NULL, napi_enumerable, NULL},
        {"getRandomValues", NULL, random_values, NULL, NULL, NULL, napi_enumerable, NULL},
        {"randomUUID", NULL, random_uuid, NULL, NULL, NULL, napi_enumerable, NULL},
        {"supports", NULL, supports, NULL, NULL, NULL, napi_enumerable, NULL},
        {"supportsOp", NULL, supports_op, NULL, NULL, NULL, napi_enumerable, NULL},
        {"setErrorFactory", NULL, set_error_factory, NULL, NULL, NULL, napi_enumerable, NULL},
        {"snapshot", NULL, snapshot, NULL, NULL, NULL, napi_enumerable, NULL},
        {"trimCache", NULL, trim_cache, NULL, NULL, NULL, napi_enumerable, NULL},
        {"limits", NULL, limits, NULL, NULL, NULL, napi_enumerable, NULL},
    };
    if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok)
        return NULL;
    t = make_tables(env);
    if (!t || napi_set_named_property(env, exports, "tables", t) != napi_ok) {
        napi_throw_error(env, NULL, "webcrypto: could not build the tables");
        return NULL;
    }
    return exports;
}

/* The macro defines exported functions without prior prototypes (clang's
 * -Wmissing-prototypes names them). */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#endif
NAPI_MODULE_INIT() { return init(env, exports); }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
