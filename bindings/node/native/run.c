/*
 * run.c - native.run, the entry point of every SubtleCrypto operation:
 * reads the op's arguments into a job, then runs it now or queues it on
 * Node's thread pool. Calls jobs.c, values.c and buffers.c (native/addon.h).
 */
#include "addon.h"

#include <string.h>

/* native.run(op, mode, map, backend, ...): mode 0 runs now; 1 on the
 * thread pool (every byte input copied into C memory first). map: a function
 * the result goes through before the promise resolves (its throw rejects),
 * or null/undefined. backend: undefined for the library's default. index.js
 * calls it through Reflect.apply on an array of its own (never a spread).
 * The op's arguments, in order:
 *   DIGEST     alg, data
 *   GENERATE   params, extractable, usages
 *   IMPORT     format, data, params, extractable, usages
 *   EXPORT     format, key
 *   ENCRYPT/DECRYPT/SIGN  params, key, data
 *   VERIFY     params, key, signature, data
 *   DERIVE_BITS params, key, length (bits; -1: null)
 *   DERIVE_KEY params, key, derivedKeyType params (importKey's), extractable, usages[,
 *              derivedKeyType params ("get key length"'s)]
 *   WRAP       format, key, wrappingKey, params
 *   UNWRAP     format, wrapped, unwrappingKey, params, keyParams, extractable, usages
 *   GET_PUBLIC_KEY  key, usages
 *   ENCAPS_BITS params, key                      -> [ciphertext, sharedKey bytes]
 *   ENCAPS_KEY params, key, sharedKeyParams, extractable, usages -> [ciphertext, key]
 *   DECAPS_BITS params, key, ciphertext
 *   DECAPS_KEY params, key, ciphertext, sharedKeyParams, extractable, usages
 * DIGEST's alg is an algorithm id, or a params array (cSHAKE's members).
 * Data are Uint8Arrays, ArrayBuffers or snapshots; byte members of params
 * too. Returns the (mapped) result when run now, else a Promise of it;
 * throws or rejects with make_error's objects. */
#define MAX_ARGS 8
napi_value run(napi_env env, napi_callback_info info) {
    napi_value argv[4 + MAX_ARGS], *a = argv + 4, bv, undef;
    size_t argc = 4 + MAX_ARGS;
    uint32_t op = 0, mode = 0;
    bool async = false;
    napi_valuetype mt = napi_undefined;
    job *j = NULL;
    napi_get_undefined(env, &undef);
    NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
    if (argc > 4 + MAX_ARGS) argc = 4 + MAX_ARGS; /* (argc is the count given) */
    if (argc < 4 || !get_u32(env, argv[0], &op) || op >= OP_COUNT ||
        napi_typeof(env, argv[2], &mt) != napi_ok ||
        (mt != napi_undefined && mt != napi_null && mt != napi_function)) {
        throw_type(env, "run: bad arguments");
        return undef;
    }
    bv = argv[3];
    if (!get_u32(env, argv[1], &mode)) return undef;
    async = mode != 0;
    /* A job run now lives on the stack (no allocation on the fast path);
     * only its fields before stackbuf need zeroing. */
    job stack_job;
    if (async) {
        j = calloc(1, sizeof *j);
    } else {
        j = &stack_job;
        memset(j, 0, offsetof(job, stackbuf));
        j->deferred = NULL;
        j->work = NULL;
    }
    if (!j) {
        throw_status(env, WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        return undef;
    }
    j->op = (opcode)op;
    j->async = async;
    if (!get_backend(env, bv, &j->backend)) goto fail;
    size_t na = argc - 4;
    uint32_t u = 0;
#define NEED(k)                                                                                    \
    do {                                                                                           \
        if (na < (k)) {                                                                            \
            throw_type(env, "run: too few arguments");                                             \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
#define OK(x)                                                                                      \
    do {                                                                                           \
        if (!(x)) goto fail;                                                                       \
    } while (0)
    switch (j->op) {
    case OP_DIGEST: {
        bool is_arr = false;
        NEED(2);
        NAPI(napi_is_array(env, a[0], &is_arr));
        if (is_arr) {
            OK(get_params(env, j, a[0], &j->a));
            j->alg = WEBCRYPTO_ALG_NONE;
        } else {
            OK(get_u32(env, a[0], &u));
            j->alg = (webcrypto_algorithm)u;
            if (j->alg == WEBCRYPTO_ALG_NONE) {
                throw_type(env, "run: digest of no algorithm");
                goto fail;
            }
        }
        OK(job_bytes(env, j, a[1], &j->d1, &j->d1_len, &j->d1_owned));
        break;
    }
    case OP_GENERATE:
        NEED(3);
        OK(get_params(env, j, a[0], &j->a));
        NAPI(napi_get_value_bool(env, a[1], &j->extractable));
        OK(get_u32(env, a[2], &j->usages));
        break;
    case OP_IMPORT:
        NEED(5);
        OK(get_u32(env, a[0], &u));
        j->format = (webcrypto_key_format)u;
        OK(job_bytes(env, j, a[1], &j->d1, &j->d1_len, &j->d1_owned));
        OK(get_params(env, j, a[2], &j->a));
        NAPI(napi_get_value_bool(env, a[3], &j->extractable));
        OK(get_u32(env, a[4], &j->usages));
        break;
    case OP_EXPORT:
        NEED(2);
        OK(get_u32(env, a[0], &u));
        j->format = (webcrypto_key_format)u;
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        break;
    case OP_ENCRYPT:
    case OP_DECRYPT:
    case OP_SIGN: {
        bool done = false;
        NEED(3);
        OK(get_params(env, j, a[0], &j->a));
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        if (j->op != OP_SIGN && j->async) OK(in_place_bytes(env, j, a[2], &done));
        if (!done) OK(job_bytes(env, j, a[2], &j->d1, &j->d1_len, &j->d1_owned));
        break;
    }
    case OP_VERIFY:
        NEED(4);
        OK(get_params(env, j, a[0], &j->a));
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        OK(job_bytes(env, j, a[2], &j->d2, &j->d2_len, &j->d2_owned));
        OK(job_bytes(env, j, a[3], &j->d1, &j->d1_len, &j->d1_owned));
        break;
    case OP_DERIVE_BITS: {
        double d = 0;
        NEED(3);
        OK(get_params(env, j, a[0], &j->a));
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        NAPI(napi_get_value_double(env, a[2], &d));
        j->length_bits = d < 0 ? WEBCRYPTO_LENGTH_FULL : (size_t)d;
        break;
    }
    case OP_DERIVE_KEY:
        NEED(5);
        OK(get_params(env, j, a[0], &j->a));
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        OK(get_params(env, j, a[2], &j->b));
        NAPI(napi_get_value_bool(env, a[3], &j->extractable));
        OK(get_u32(env, a[4], &j->usages));
        if (na > 5) { /* derivedKeyType normalised for "get key length" */
            OK(get_params(env, j, a[5], &j->c));
            j->c_set = true;
        }
        break;
    case OP_WRAP:
        NEED(4);
        OK(get_u32(env, a[0], &u));
        j->format = (webcrypto_key_format)u;
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        OK(get_key(env, a[2], &j->k2));
        nkey_retain(j->k2);
        OK(get_params(env, j, a[3], &j->a));
        break;
    case OP_UNWRAP:
        NEED(7);
        OK(get_u32(env, a[0], &u));
        j->format = (webcrypto_key_format)u;
        OK(job_bytes(env, j, a[1], &j->d1, &j->d1_len, &j->d1_owned));
        OK(get_key(env, a[2], &j->k1));
        nkey_retain(j->k1);
        OK(get_params(env, j, a[3], &j->a));
        OK(get_params(env, j, a[4], &j->b));
        NAPI(napi_get_value_bool(env, a[5], &j->extractable));
        OK(get_u32(env, a[6], &j->usages));
        break;
    case OP_GET_PUBLIC_KEY:
        NEED(2);
        OK(get_key(env, a[0], &j->k1));
        nkey_retain(j->k1);
        OK(get_u32(env, a[1], &j->usages));
        break;
    case OP_ENCAPS_BITS:
    case OP_ENCAPS_KEY:
        NEED(j->op == OP_ENCAPS_BITS ? 2 : 5);
        OK(get_params(env, j, a[0], &j->a));
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        if (j->op == OP_ENCAPS_KEY) {
            OK(get_params(env, j, a[2], &j->b));
            NAPI(napi_get_value_bool(env, a[3], &j->extractable));
            OK(get_u32(env, a[4], &j->usages));
        }
        break;
    case OP_DECAPS_BITS:
    case OP_DECAPS_KEY:
        NEED(j->op == OP_DECAPS_BITS ? 3 : 6);
        OK(get_params(env, j, a[0], &j->a));
        OK(get_key(env, a[1], &j->k1));
        nkey_retain(j->k1);
        OK(job_bytes(env, j, a[2], &j->d1, &j->d1_len, &j->d1_owned));
        if (j->op == OP_DECAPS_KEY) {
            OK(get_params(env, j, a[3], &j->b));
            NAPI(napi_get_value_bool(env, a[4], &j->extractable));
            OK(get_u32(env, a[5], &j->usages));
        }
        break;
    case OP_COUNT: goto fail;
    }
#undef NEED
#undef OK
    if (async) {
        napi_value promise, name;
        job_consume_snaps(j); /* the job has its copies */
        if (mt == napi_function) NAPI(napi_create_reference(env, argv[2], 1, &j->map));
        NAPI(napi_create_promise(env, &j->deferred, &promise));
        NAPI(napi_create_string_utf8(env, "webcrypto", NAPI_AUTO_LENGTH, &name));
        NAPI(napi_create_async_work(env, NULL, name, async_execute, async_complete, j, &j->work));
        NAPI(napi_queue_async_work(env, j->work));
        return promise;
    } else {
        napi_value err, r;
        job_run(j);
        job_consume_snaps(j);
        r = job_result(env, j, &err);
        job_release(env, j, false);
        if (err) {
            napi_throw(env, err);
            return undef;
        }
        if (mt == napi_function && napi_call_function(env, undef, argv[2], 1, &r, &r) != napi_ok)
            return undef; /* its exception is pending */
        return r;
    }
napi_fail:
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
fail:
    /* Every way here has thrown, except a Node-API call failing inside a
     * helper: never return without an exception (index.js would resolve
     * undefined). */
    throw_status(env, WEBCRYPTO_ERR_OPERATION, "Node-API call failed");
    if (j) {
        job_consume_snaps(j);
        job_release(env, j, async);
    }
    return undef;
}
