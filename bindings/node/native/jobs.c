/*
 * jobs.c - a job: one call of the C API with its inputs (params, keys,
 * bytes: borrowed when it runs now, copied into C memory when it runs on
 * the pool), run on any thread, and its result made into a JS value. Calls
 * buffers.c and values.c (native/addon.h).
 */
#include "addon.h"

#include <stdio.h>

static void pholder_free(pholder *h) {
    for (size_t i = 0; i < N_MEMBERS; i++) {
        buf_free(h->owned[i], h->owned_len[i], h->owned_len[i], true);
    }
    nkey_release(h->key);
    memset(h, 0, sizeof *h);
}

void job_release(napi_env env, job *j, bool on_heap) {
    job_free(env, j);
    if (on_heap) free(j);
}

void job_free(napi_env env, job *j) {
    if (j->map) napi_delete_reference(env, j->map);
    pholder_free(&j->a);
    pholder_free(&j->b);
    pholder_free(&j->c);
    nkey_release(j->k1);
    nkey_release(j->k2);
    buf_free(j->d1_owned, j->d1_len, j->d1_len, true);
    buf_free(j->d2_owned, j->d2_len, j->d2_len, true);
    /* A job whose result did not become an ArrayBuffer: its block may hold
     * the data or unverified output. */
    if (j->in_place) big_give(j->in_place, true);
    if (j->out_lib)
        webcrypto_buffer_free(j->out, j->out_len);
    else if (j->out && j->out != j->stackbuf && j->out != j->in_place)
        buf_free(j->out, j->out_cap, j->out_cap, true);
    webcrypto_key_free(j->r1);
    webcrypto_key_free(j->r2);
    if (j->out == j->stackbuf) wipe(j->stackbuf, j->out_cap);
    if (j->shared_len) wipe(j->shared, sizeof j->shared);
}

static webcrypto_status fail(job *j, webcrypto_status st) {
    j->st = st;
    snprintf(j->msg, sizeof j->msg, "%s", webcrypto_error_message());
    return st;
}

/* Bulk output: learn the size, then write into the stack buffer, a malloc
 * or (BIG_MIN bytes or more) a block of the cache. */
static uint8_t *out_alloc(job *j, size_t n) {
    j->out_cap = n;
    if (n <= sizeof j->stackbuf) return j->out = j->stackbuf;
    return j->out = buf_alloc(n);
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        webcrypto_status st_ = (call);                                                             \
        if (st_ != WEBCRYPTO_OK) return fail(j, st_);                                              \
    } while (0)
#define OUT_OR_NOMEM(n)                                                                            \
    do {                                                                                           \
        if (!out_alloc(j, (n))) {                                                                  \
            snprintf(j->msg, sizeof j->msg, "out of memory");                                      \
            return j->st = WEBCRYPTO_ERR_NO_MEMORY;                                                \
        }                                                                                          \
    } while (0)

/* The job's output buffer dropped (wiped), before one of another size. */
static void out_release(job *j) {
    if (j->out == j->stackbuf)
        wipe(j->stackbuf, j->out_cap);
    else if (j->out)
        buf_free(j->out, j->out_cap, j->out_cap, true);
    j->out = NULL;
    j->out_cap = 0;
}

/* A call with a bulk output, made once: into a buffer of `guess` bytes (at
 * least the stack buffer, which holds every digest, MAC, EC/EdDSA signature
 * and RSA output up to 8192 bits), so the library validates the call once.
 * Only where that is too small (WEBCRYPTO_ERR_INVALID_ARGUMENT with *out_len
 * set to the size needed, webcrypto.h) is it made again into a buffer of
 * that size: ML-DSA signatures, large KMAC/cSHAKE/deriveBits outputs. */
#define SIZED(guess, call)                                                                         \
    do {                                                                                           \
        size_t g_ = (guess);                                                                       \
        OUT_OR_NOMEM(g_ > sizeof j->stackbuf ? g_ : sizeof j->stackbuf);                           \
        j->out_len = 0;                                                                            \
        webcrypto_status st_ = (call);                                                             \
        if (st_ == WEBCRYPTO_ERR_INVALID_ARGUMENT && j->out_len > j->out_cap) {                    \
            size_t need_ = j->out_len;                                                             \
            out_release(j);                                                                        \
            OUT_OR_NOMEM(need_);                                                                   \
            j->out_len = 0;                                                                        \
            st_ = (call);                                                                          \
        }                                                                                          \
        if (st_ != WEBCRYPTO_OK) return fail(j, st_);                                              \
    } while (0)

/* A guess from a length the caller asked for (bits), at most 64 KiB: a
 * larger one is allocated once the library has said it takes it. */
static size_t asked_bytes(size_t bits) {
    size_t n = bits / 8 + (bits % 8 != 0);
    return n < 65536 ? n : 65536;
}

/* Runs the job; on any thread. Its inputs are immutable while it runs. */
webcrypto_status job_run(job *j) {
    const webcrypto_params *a = &j->a.p;
    const webcrypto_key *key = j->k1 ? j->k1->key : NULL;
    j->st = WEBCRYPTO_OK;
    switch (j->op) {
    case OP_DIGEST: {
        if (j->alg == WEBCRYPTO_ALG_NONE) {
            /* cSHAKE (and any digest given as a dictionary with members):
             * the size depends on outputLength. */
            SIZED(asked_bytes(a->output_length), webcrypto_digest_params(j->backend, a, j->d1, j->d1_len,
                                                                 j->out, j->out_cap, &j->out_len));
            break;
        }
        size_t max = webcrypto_digest_size(j->alg);
        OUT_OR_NOMEM(max ? max : 64);
        TRY(webcrypto_digest(j->backend, j->alg, j->d1, j->d1_len, j->out, j->out_cap,
                             &j->out_len));
        break;
    }
    case OP_GENERATE:
        /* Algorithms with a key length (AES, HMAC, ...) make one secret key;
         * the others a pair: the library's table says which. */
        if (webcrypto_algorithm_has_operation(a->name, WEBCRYPTO_OP_GET_KEY_LENGTH))
            TRY(webcrypto_generate_key(j->backend, a, j->extractable, j->usages, &j->r1));
        else
            TRY(webcrypto_generate_key_pair(j->backend, a, j->extractable, j->usages, &j->r1,
                                            &j->r2));
        break;
    case OP_IMPORT:
        TRY(webcrypto_import_key(j->backend, j->format, j->d1, j->d1_len, a, j->extractable,
                                 j->usages, &j->r1));
        break;
    case OP_EXPORT:
        TRY(webcrypto_export_key(j->format, key, &j->out, &j->out_len));
        j->out_lib = true;
        break;
    case OP_ENCRYPT:
    case OP_DECRYPT: {
        webcrypto_status (*fn)(const webcrypto_params *, const webcrypto_key *, const uint8_t *,
                               size_t, uint8_t *, size_t, size_t *) =
            j->op == OP_ENCRYPT ? webcrypto_encrypt : webcrypto_decrypt;
        if (j->in_place) {
            /* Over the data, in its block of the data's length plus a tag
             * (in_place_bytes). Should the library want more (none of its
             * symmetric algorithms does), the output goes to a buffer of
             * its own, the data staying where it is. */
            j->out_len = 0;
            webcrypto_status st = fn(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len);
            if (st == WEBCRYPTO_ERR_INVALID_ARGUMENT && j->out_len > j->out_cap) {
                size_t need = j->out_len;
                j->out = NULL; /* the block stays j->in_place (and j->d1) */
                OUT_OR_NOMEM(need);
                j->out_len = 0;
                st = fn(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len);
            }
            if (st != WEBCRYPTO_OK) return fail(j, st);
            break;
        }
        /* the data plus a block of padding or a tag */
        SIZED(j->d1_len + 16, fn(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len));
        break;
    }
    case OP_SIGN:
        SIZED(asked_bytes(a->output_length),
              webcrypto_sign(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len));
        break;
    case OP_VERIFY:
        TRY(webcrypto_verify(a, key, j->d2, j->d2_len, j->d1, j->d1_len, &j->valid));
        break;
    case OP_DERIVE_BITS:
        SIZED(j->length_bits == WEBCRYPTO_LENGTH_FULL ? 0 : asked_bytes(j->length_bits),
              webcrypto_derive_bits(a, key, j->length_bits, j->out, j->out_cap, &j->out_len));
        break;
    case OP_DERIVE_KEY:
        TRY(webcrypto_derive_key_as(a, key, &j->b.p, j->c_set ? &j->c.p : &j->b.p,
                                    j->extractable, j->usages, &j->r1));
        break;
    case OP_WRAP:
        TRY(webcrypto_wrap_key(j->format, key, j->k2->key, a, &j->out, &j->out_len));
        j->out_lib = true;
        break;
    case OP_UNWRAP:
        TRY(webcrypto_unwrap_key(j->format, j->d1, j->d1_len, key, a, &j->b.p, j->extractable,
                                 j->usages, &j->r1));
        break;
    case OP_GET_PUBLIC_KEY:
        TRY(webcrypto_get_public_key(key, j->usages, &j->r1));
        break;
    case OP_ENCAPS_BITS:
    case OP_ENCAPS_KEY: {
        size_t ct = webcrypto_kem_ciphertext_size(key ? webcrypto_key_get_algorithm(key)
                                                      : WEBCRYPTO_ALG_NONE);
        OUT_OR_NOMEM(ct ? ct : 1);
        if (j->op == OP_ENCAPS_BITS)
            TRY(webcrypto_encapsulate_bits(a, key, j->out, j->out_cap, &j->out_len, j->shared,
                                           sizeof j->shared, &j->shared_len));
        else
            TRY(webcrypto_encapsulate_key(a, key, &j->b.p, j->extractable, j->usages, j->out,
                                          j->out_cap, &j->out_len, &j->r1));
        break;
    }
    case OP_DECAPS_BITS:
        OUT_OR_NOMEM(64);
        TRY(webcrypto_decapsulate_bits(a, key, j->d1, j->d1_len, j->out, j->out_cap,
                                       &j->out_len));
        break;
    case OP_DECAPS_KEY:
        TRY(webcrypto_decapsulate_key(a, key, j->d1, j->d1_len, &j->b.p, j->extractable,
                                      j->usages, &j->r1));
        break;
    case OP_COUNT:
        snprintf(j->msg, sizeof j->msg, "unknown operation");
        return j->st = WEBCRYPTO_ERR_INVALID_ARGUMENT;
    }
    return WEBCRYPTO_OK;
}


/* Input bytes for a job: borrowed when the job runs now (no JS runs before
 * it is done); copied into C memory when it runs on the pool. */
bool job_bytes(napi_env env, job *j, napi_value v, const uint8_t **p, size_t *n,
                      uint8_t **owned) {
    nbytes *snap;
    if (!get_bytes(env, v, p, n, &snap)) {
        throw_type(env, "expected a BufferSource");
        return false;
    }
    if (snap) {
        if (j->nsnaps >= MAX_REFS) {
            throw_type(env, "too many byte members");
            return false;
        }
        j->snaps[j->nsnaps++] = snap;
    }
    if (j->async) {
        if (!copy_bytes(*p, *n, owned)) {
            throw_status(env, WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
            return false;
        }
        *p = *owned;
    }
    return true;
}

/* The snapshots a job read or copied: wiped and freed now. */
void job_consume_snaps(job *j) {
    for (size_t i = 0; i < j->nsnaps; i++) nbytes_consume(j->snaps[i]);
    j->nsnaps = 0;
}

/* encrypt/decrypt on the pool of BIG_MIN bytes or more: the copy of the
 * data goes to a block of the cache with room for the output too (the
 * data's length plus a tag or a block of padding, asked of nobody: the
 * library is called once, by the job), which the job writes over the data
 * (job.in_place). *done is false when the call is not one of those
 * (smaller data); false with an exception pending on failure. */
bool in_place_bytes(napi_env env, job *j, napi_value v, bool *done) {
    const uint8_t *p;
    size_t n;
    nbytes *snap;
    *done = false;
    if (!get_bytes(env, v, &p, &n, &snap)) {
        throw_type(env, "expected a BufferSource");
        return false;
    }
    if (n < BIG_MIN || !j->k1 || snap) return true;
    size_t cap = n + 16;
    uint8_t *b = big_take(cap);
    if (!b) {
        throw_status(env, WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    memcpy(b, p, n);
    j->d1 = j->out = j->in_place = b;
    j->d1_len = n;
    j->out_cap = cap;
    *done = true;
    return true;
}


/* [name, member, value, member, value, ...] into h. */
bool get_params(napi_env env, job *j, napi_value arr, pholder *h) {
    uint32_t n = 0, name = 0;
    napi_value v;
    webcrypto_params_init(&h->p, sizeof h->p);
    if (napi_get_array_length(env, arr, &n) != napi_ok || n < 1 || n % 2 == 0) {
        throw_type(env, "malformed params");
        return false;
    }
    if (napi_get_element(env, arr, 0, &v) != napi_ok || !get_u32(env, v, &name)) return false;
    h->p.name = (webcrypto_algorithm)name;
    for (uint32_t i = 1; i + 1 < n; i += 2) {
        uint32_t m;
        napi_value mv;
        if (napi_get_element(env, arr, i, &mv) != napi_ok || !get_u32(env, mv, &m)) return false;
        if (m >= N_MEMBERS) {
            throw_type(env, "unknown params member");
            return false;
        }
        if (napi_get_element(env, arr, i + 1, &v) != napi_ok) return false;
        const member *mb = &k_members[m];
        char *field = (char *)&h->p + mb->off;
        switch (mb->kind) {
        case M_ALG: {
            uint32_t a;
            if (!get_u32(env, v, &a)) return false;
            webcrypto_algorithm alg = (webcrypto_algorithm)a;
            memcpy(field, &alg, sizeof alg);
            break;
        }
        case M_SIZE: {
            size_t s;
            if (!get_size(env, v, &s)) return false;
            memcpy(field, &s, sizeof s);
            break;
        }
        case M_U32: {
            uint32_t u;
            if (!get_u32(env, v, &u)) return false;
            memcpy(field, &u, sizeof u);
            break;
        }
        case M_BYTES: {
            const uint8_t *p;
            size_t len;
            if (!job_bytes(env, j, v, &p, &len, &h->owned[m])) return false;
            h->owned_len[m] = len;
            /* An empty member is present: point at something non-NULL. */
            if (!p) p = (const uint8_t *)"";
            memcpy(field, &p, sizeof p);
            memcpy((char *)&h->p + mb->len_off, &len, sizeof len);
            break;
        }
        case M_CURVE: {
            char buf[32];
            size_t len = 0;
            webcrypto_named_curve c = WEBCRYPTO_CURVE_NONE;
            if (napi_get_value_string_utf8(env, v, buf, sizeof buf, &len) != napi_ok) {
                throw_type(env, "namedCurve must be a string");
                return false;
            }
            webcrypto_status st =
                len + 1 >= sizeof buf ? WEBCRYPTO_ERR_NOT_SUPPORTED : webcrypto_curve_from_name(buf, &c);
            if (st != WEBCRYPTO_OK) {
                throw_status(env, WEBCRYPTO_ERR_NOT_SUPPORTED, "unrecognized namedCurve");
                return false;
            }
            memcpy(field, &c, sizeof c);
            break;
        }
        case M_KEY: {
            nkey *k;
            if (!get_key(env, v, &k)) return false;
            if (h->key) nkey_release(h->key);
            h->key = nkey_retain(k);
            const webcrypto_key *wk = k->key;
            memcpy(field, &wk, sizeof wk);
            break;
        }
        }
    }
    return true;
}


/* The job's result as a JS value, or NULL with *err set. */
napi_value job_result(napi_env env, job *j, napi_value *err) {
    napi_value r = NULL;
    *err = NULL;
    if (j->st != WEBCRYPTO_OK) {
        *err = make_error(env, j->st, j->msg);
        return NULL;
    }
    switch (j->op) {
    case OP_DIGEST:
    case OP_EXPORT:
    case OP_ENCRYPT:
    case OP_DECRYPT:
    case OP_SIGN:
    case OP_DERIVE_BITS:
    case OP_DECAPS_BITS:
    case OP_WRAP: {
        void *data = NULL;
        /* A large output the job allocated becomes the ArrayBuffer itself
         * (no zero-fill and copy of a MiB); a runtime that allows no
         * external buffers (V8's sandbox: Electron) gets the copy, and the
         * job's release frees the output. Only a decryption's output (or a
         * derivation's, a digest's: they may be keys) needs a wipe after. */
        bool big = j->out == j->in_place || j->out_cap >= BIG_MIN;
        bool secret = j->op != OP_ENCRYPT && j->op != OP_WRAP;
        if (j->out_len >= 4096 && !j->out_lib && j->out != j->stackbuf &&
            napi_create_external_arraybuffer(
                env, j->out, j->out_len, big ? big_finalize : out_finalize,
                big ? (void *)(uintptr_t)secret : (void *)(uintptr_t)j->out_cap, &r) == napi_ok) {
            /* the ArrayBuffer owns it now */
            if (j->out == j->in_place) j->in_place = NULL;
            j->out = NULL;
            break;
        }
        r = NULL;
        if (napi_create_arraybuffer(env, j->out_len, &data, &r) != napi_ok) break;
        if (j->out_len) memcpy(data, j->out, j->out_len);
        break;
    }
    case OP_VERIFY: napi_get_boolean(env, j->valid, &r); break;
    case OP_GENERATE:
        if (j->r2) {
            napi_value pub, priv;
            if (napi_create_array_with_length(env, 2, &r) != napi_ok) break;
            pub = key_handle(env, &j->r1);
            priv = pub ? key_handle(env, &j->r2) : NULL;
            if (!priv || define_own(env, r, "0", pub) != napi_ok ||
                define_own(env, r, "1", priv) != napi_ok)
                r = NULL;
            break;
        }
        r = key_handle(env, &j->r1);
        break;
    case OP_IMPORT:
    case OP_DERIVE_KEY:
    case OP_GET_PUBLIC_KEY:
    case OP_DECAPS_KEY:
    case OP_UNWRAP: r = key_handle(env, &j->r1); break;
    case OP_ENCAPS_BITS:
    case OP_ENCAPS_KEY: {
        /* [ciphertext, sharedKey]: index.js makes the EncapsulatedBits /
         * EncapsulatedKey dictionary. */
        napi_value ct, sk;
        void *data = NULL;
        if (napi_create_array_with_length(env, 2, &r) != napi_ok ||
            napi_create_arraybuffer(env, j->out_len, &data, &ct) != napi_ok) {
            r = NULL;
            break;
        }
        if (j->out_len) memcpy(data, j->out, j->out_len);
        if (j->op == OP_ENCAPS_BITS) {
            if (napi_create_arraybuffer(env, j->shared_len, &data, &sk) != napi_ok) {
                r = NULL;
                break;
            }
            if (j->shared_len) memcpy(data, j->shared, j->shared_len);
        } else {
            sk = key_handle(env, &j->r1);
        }
        if (!sk || define_own(env, r, "0", ct) != napi_ok ||
            define_own(env, r, "1", sk) != napi_ok)
            r = NULL;
        break;
    }
    case OP_COUNT: break;
    }
    if (!r) *err = make_error(env, WEBCRYPTO_ERR_NO_MEMORY, "could not make the result");
    return r;
}

void async_execute(napi_env env, void *data) {
    (void)env;
    job_run(data);
}

void async_complete(napi_env env, napi_status status, void *data) {
    job *j = data;
    napi_value err = NULL, r = NULL;
    if (status == napi_ok) {
        r = job_result(env, j, &err);
        napi_value fn, undef;
        if (r && j->map && napi_get_reference_value(env, j->map, &fn) == napi_ok &&
            napi_get_undefined(env, &undef) == napi_ok &&
            napi_call_function(env, undef, fn, 1, &r, &r) != napi_ok) {
            /* the map threw: that rejects */
            r = NULL;
            if (napi_get_and_clear_last_exception(env, &err) != napi_ok || !err)
                err = make_error(env, WEBCRYPTO_ERR_OPERATION, "could not make the result");
        }
    } else {
        err = make_error(env, WEBCRYPTO_ERR_OPERATION, "the operation was cancelled");
    }
    if (err)
        napi_reject_deferred(env, j->deferred, err);
    else
        napi_resolve_deferred(env, j->deferred, r);
    napi_delete_async_work(env, j->work);
    job_release(env, j, true);
}
