/*
 * webcrypto_node.c - the Node-API addon under bindings/node/index.js.
 *
 * Node-API version 8 (Node >= 12.22 / 14.17 / 16; every Node we test has it).
 * This file is only the C side: it runs libwebcrypto's one-shot calls, either
 * on the calling (main) thread or as napi async work on Node's thread pool,
 * and hands back ArrayBuffers, booleans and key handles. Web IDL (argument
 * conversion, algorithm normalisation, CryptoKey objects, DOMException) is
 * index.js's.
 *
 * Keys: a handle is a napi external over a refcounted `nkey`. The external's
 * finalizer drops one reference; a job that uses a key (as the key, the
 * wrapping key or params.public) holds its own reference until the job is
 * done, so a key collected while an operation runs on the pool is freed
 * only after the operation. webcrypto_key is immutable, so several pool
 * threads may use one key at once.
 *
 * Algorithm parameters arrive as a flat array [name, member, value, member,
 * value, ...], `member` an index into k_members below: the one table that
 * maps a Web IDL dictionary member to its webcrypto_params field. A new
 * member of webcrypto_params is one line there.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <webcrypto.h>

/* ---- keys ---------------------------------------------------------------- */

typedef struct nkey {
    webcrypto_key *key;
    atomic_int refs;
} nkey;

static nkey *nkey_retain(nkey *k) {
    atomic_fetch_add(&k->refs, 1);
    return k;
}

static void nkey_release(nkey *k) {
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
static const napi_type_tag k_key_tag = {0x7765626372797074ULL, 0x6e6f64656b657921ULL};
static const napi_type_tag k_backend_tag = {0x7765626372797074ULL, 0x6261636b656e6421ULL};
static const napi_type_tag k_bytes_tag = {0x7765626372797074ULL, 0x6279746573636f70ULL};

/* ---- per-environment state ----------------------------------------------- */

typedef struct addon {
    napi_ref make_error; /* JS (name, message) -> the error object to throw */
} addon;

/* ---- the params member table --------------------------------------------- */

typedef enum mkind { M_ALG, M_SIZE, M_U32, M_BYTES, M_CURVE, M_KEY } mkind;

typedef struct member {
    const char *idl; /* the Web IDL dictionary member */
    mkind kind;
    size_t off;     /* the webcrypto_params field */
    size_t len_off; /* M_BYTES: its length field */
} member;

#define F(f) offsetof(webcrypto_params, f)
static const member k_members[] = {
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
#define N_MEMBERS (sizeof k_members / sizeof k_members[0])

/* ---- memory -------------------------------------------------------------- */

/* memset through a volatile pointer: a compiler may drop a plain memset of
 * memory that is freed next (gcc -O2 did, in wipe_free and out_finalize). */
static void *(*const volatile k_memset)(void *, int, size_t) = memset;
static void wipe(void *p, size_t n) {
    if (p && n) k_memset(p, 0, n);
}

/* Large blocks (BIG_MIN bytes or more): a 1 MiB copy of the data, or the
 * output a job writes, in memory fresh from the system costs ~400 us on the
 * development VM (256 page faults, each zeroing a page; the copy itself into
 * memory already mapped: ~25 us), twice the AES-GCM encryption of that MiB.
 * malloc hands such memory back to the system when it is freed (a large
 * block is an mmap, and freed space above its trim threshold is returned),
 * and a result's block is freed when V8 collects its ArrayBuffer, in batches
 * (about 64 MiB of ArrayBuffers between collections on Node 24): so each one
 * was fresh. Blocks freed go to this cache instead, up to BIG_CACHE_BYTES,
 * and the next large buffer is taken from it; blocks left unused for a
 * trim period are freed (big_trim, from an unref'd timer index.js runs).
 * The process's peak memory does not grow by it: the cache fills only as
 * results are collected, as the ArrayBuffers holding the same bytes go. One
 * cache for the process (worker threads included, and finalizers that may
 * run after an environment is gone), behind a spin lock held for a scan of
 * at most BIG_CACHE_COUNT entries. A block that may hold secret bytes (the
 * caller's data, a decryption's output) is wiped when it is given back, so
 * the cache never holds a secret: that costs a collection ~25-100 us per
 * MiB of such results, on the main thread, and is what a crypto library
 * owes its caller. */
#define BIG_MIN ((size_t)64 * 1024)
#define BIG_CACHE_BYTES ((size_t)64 << 20)
#define BIG_CACHE_COUNT 96
#define BIG_HDR 64 /* big_hdr; keeps the bytes 64-byte aligned */
typedef struct big_hdr {
    size_t cap;
} big_hdr;

static struct {
    atomic_flag lock;
    uint8_t *blk[BIG_CACHE_COUNT];
    unsigned stamp[BIG_CACHE_COUNT];
    size_t n, bytes;
    unsigned gen;
    size_t out; /* blocks taken and not given back */
} g_big = {ATOMIC_FLAG_INIT, {0}, {0}, 0, 0, 0, 0};

static void big_lock(void) {
    while (atomic_flag_test_and_set_explicit(&g_big.lock, memory_order_acquire)) {
    }
}
static void big_unlock(void) { atomic_flag_clear_explicit(&g_big.lock, memory_order_release); }

static big_hdr *big_of(uint8_t *data) { return (big_hdr *)(void *)(data - BIG_HDR); }
static size_t big_cap(uint8_t *data) { return big_of(data)->cap; }

/* A block with room for n >= BIG_MIN bytes, or NULL; its bytes are not
 * zeroed (a block that held secrets was wiped when given back). A cached
 * one fits if it wastes at most an eighth; of those that fit best, the one
 * cached last (the likeliest to be in a CPU cache still). */
static uint8_t *big_take(size_t n) {
    uint8_t *b = NULL;
    if (n > SIZE_MAX - BIG_HDR - 4095) return NULL;
    big_lock();
    size_t best = g_big.n;
    for (size_t i = g_big.n; i-- > 0;) {
        size_t cap = big_cap(g_big.blk[i]);
        if (cap >= n && cap - n <= n / 8 && (best == g_big.n || cap < big_cap(g_big.blk[best])))
            best = i;
    }
    if (best < g_big.n) {
        b = g_big.blk[best];
        g_big.bytes -= big_cap(b);
        g_big.n--;
        /* keep the order (the last cached is found first) */
        memmove(&g_big.blk[best], &g_big.blk[best + 1], (g_big.n - best) * sizeof g_big.blk[0]);
        memmove(&g_big.stamp[best], &g_big.stamp[best + 1], (g_big.n - best) * sizeof g_big.stamp[0]);
    }
    g_big.out++;
    big_unlock();
    if (b) return b;
    size_t cap = (n + 4095) & ~(size_t)4095;
    uint8_t *m = malloc(BIG_HDR + cap);
    if (!m) {
        big_lock();
        g_big.out--;
        big_unlock();
        return NULL;
    }
    big_of(m + BIG_HDR)->cap = cap;
    return m + BIG_HDR;
}

static void big_free(uint8_t *data) { free(data - BIG_HDR); }

/* Gives back a block of big_take's; `secret`: it may hold secret bytes,
 * wiped now, before the cache or free has it. */
static void big_give(uint8_t *data, bool secret) {
    if (!data) return;
    size_t cap = big_cap(data);
    if (secret) wipe(data, cap);
    big_lock();
    g_big.out--;
    bool keep = g_big.n < BIG_CACHE_COUNT && cap <= BIG_CACHE_BYTES - g_big.bytes;
    if (keep) {
        g_big.blk[g_big.n] = data;
        g_big.stamp[g_big.n] = g_big.gen;
        g_big.n++;
        g_big.bytes += cap;
    }
    big_unlock();
    if (!keep) big_free(data);
}

/* Frees the cached blocks that were cached before the previous call (none
 * was taken since); returns how many blocks stay, cached or in use (an
 * ArrayBuffer not yet collected, a job), which later calls may trim. */
static size_t big_trim(void) {
    uint8_t *drop[BIG_CACHE_COUNT];
    size_t nd = 0;
    big_lock();
    size_t kept = 0;
    for (size_t i = 0; i < g_big.n; i++) {
        if (g_big.stamp[i] != g_big.gen) {
            drop[nd++] = g_big.blk[i];
            g_big.bytes -= big_cap(g_big.blk[i]);
        } else {
            g_big.blk[kept] = g_big.blk[i];
            g_big.stamp[kept++] = g_big.stamp[i];
        }
    }
    g_big.n = kept;
    g_big.gen++;
    size_t left = g_big.n + g_big.out;
    big_unlock();
    for (size_t i = 0; i < nd; i++) big_free(drop[i]);
    return left;
}

/* A buffer for a copy of data's bytes or an output, and its release:
 * large ones are blocks of the cache. */
static uint8_t *buf_alloc(size_t n) { return n >= BIG_MIN ? big_take(n) : malloc(n ? n : 1); }
static void buf_free(uint8_t *p, size_t n, size_t cap, bool secret) {
    if (!p) return;
    if (n >= BIG_MIN) {
        big_give(p, secret);
        return;
    }
    if (secret) wipe(p, cap);
    free(p);
}

/* A params as a job holds it: the struct, the byte copies it points to, and
 * the key it references. */
typedef struct pholder {
    webcrypto_params p;
    uint8_t *owned[N_MEMBERS];
    size_t owned_len[N_MEMBERS];
    nkey *key;
} pholder;

static void pholder_free(pholder *h) {
    for (size_t i = 0; i < N_MEMBERS; i++) {
        buf_free(h->owned[i], h->owned_len[i], h->owned_len[i], true);
    }
    nkey_release(h->key);
    memset(h, 0, sizeof *h);
}

/* ---- jobs ---------------------------------------------------------------- */

typedef enum opcode {
    OP_DIGEST,
    OP_GENERATE,
    OP_IMPORT,
    OP_EXPORT,
    OP_ENCRYPT,
    OP_DECRYPT,
    OP_SIGN,
    OP_VERIFY,
    OP_DERIVE_BITS,
    OP_DERIVE_KEY,
    OP_WRAP,
    OP_UNWRAP,
    OP_GET_PUBLIC_KEY,
    OP_ENCAPS_BITS,
    OP_ENCAPS_KEY,
    OP_DECAPS_BITS,
    OP_DECAPS_KEY,
    OP_COUNT
} opcode;

#define MAX_REFS (N_MEMBERS * 2 + 4)

typedef struct job {
    opcode op;
    /* Async only: the job must not see JS change its inputs meanwhile, nor
     * read memory JS can free (a detached ArrayBuffer): every byte input is
     * copied here, in C, before run() returns, and the pool thread reads only
     * those copies (wiped and freed with the job). */
    bool async;
    /* The snapshots (native.snapshot) the params used: consumed (wiped and
     * freed) once the job has read or copied them. */
    struct nbytes *snaps[MAX_REFS];
    size_t nsnaps;
    napi_ref map; /* async: JS function mapping the result (or NULL) */
    const webcrypto_backend *backend;
    webcrypto_algorithm alg; /* digest by name; WEBCRYPTO_ALG_NONE: by params (a) */
    pholder a, b;            /* the params; b: deriveKey's / unwrapKey's key type */
    nkey *k1, *k2;           /* the key; wrapKey: k2 the wrapping key */
    const uint8_t *d1, *d2;  /* data; verify: d2 the signature */
    size_t d1_len, d2_len;
    uint8_t *d1_owned, *d2_owned;
    webcrypto_key_format format;
    bool extractable;
    unsigned usages;
    size_t length_bits;
    /* results */
    webcrypto_status st;
    char msg[320];
    uint8_t *out;
    size_t out_len, out_cap;
    bool out_lib; /* out is the library's: webcrypto_buffer_free */
    /* encrypt/decrypt of BIG_MIN bytes or more on the pool: d1 is a block of
     * the cache holding the copy of the data, and the output is written over
     * it (the C API allows out == data), so out == d1 == in_place. */
    uint8_t *in_place;
    bool valid;
    webcrypto_key *r1, *r2;
    uint8_t shared[64]; /* encapsulateBits' shared key */
    size_t shared_len;
    uint8_t stackbuf[1152]; /* small outputs, without a malloc */
    napi_deferred deferred;
    napi_async_work work;
} job;


static void job_free(napi_env env, job *j);
static void job_release(napi_env env, job *j, bool on_heap) {
    job_free(env, j);
    if (on_heap) free(j);
}

static void job_free(napi_env env, job *j) {
    if (j->map) napi_delete_reference(env, j->map);
    pholder_free(&j->a);
    pholder_free(&j->b);
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

/* Runs the job; on any thread. Its inputs are immutable while it runs. */
static webcrypto_status job_run(job *j) {
    const webcrypto_params *a = &j->a.p;
    const webcrypto_key *key = j->k1 ? j->k1->key : NULL;
    size_t n = 0;
    j->st = WEBCRYPTO_OK;
    switch (j->op) {
    case OP_DIGEST: {
        if (j->alg == WEBCRYPTO_ALG_NONE) {
            /* cSHAKE (and any digest given as a dictionary with members):
             * the size depends on outputLength. */
            TRY(webcrypto_digest_params(j->backend, a, j->d1, j->d1_len, NULL, 0, &n));
            OUT_OR_NOMEM(n);
            TRY(webcrypto_digest_params(j->backend, a, j->d1, j->d1_len, j->out, j->out_cap,
                                        &j->out_len));
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
            TRY(fn(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len));
            break;
        }
        TRY(fn(a, key, j->d1, j->d1_len, NULL, 0, &n));
        OUT_OR_NOMEM(n);
        TRY(fn(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len));
        break;
    }
    case OP_SIGN:
        TRY(webcrypto_sign(a, key, j->d1, j->d1_len, NULL, 0, &n));
        OUT_OR_NOMEM(n);
        TRY(webcrypto_sign(a, key, j->d1, j->d1_len, j->out, j->out_cap, &j->out_len));
        break;
    case OP_VERIFY:
        TRY(webcrypto_verify(a, key, j->d2, j->d2_len, j->d1, j->d1_len, &j->valid));
        break;
    case OP_DERIVE_BITS:
        TRY(webcrypto_derive_bits(a, key, j->length_bits, NULL, 0, &n));
        OUT_OR_NOMEM(n);
        TRY(webcrypto_derive_bits(a, key, j->length_bits, j->out, j->out_cap, &j->out_len));
        break;
    case OP_DERIVE_KEY:
        TRY(webcrypto_derive_key(a, key, &j->b.p, j->extractable, j->usages, &j->r1));
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

/* ---- JS values ----------------------------------------------------------- */

#define NAPI(call)                                                                                 \
    do {                                                                                           \
        if ((call) != napi_ok) goto napi_fail;                                                     \
    } while (0)

/* Throws the error index.js makes for a status (a DOMException or TypeError). */
static napi_value make_error(napi_env env, webcrypto_status st, const char *msg) {
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

static void throw_status(napi_env env, webcrypto_status st, const char *msg) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw(env, make_error(env, st, msg));
}

static void throw_type(napi_env env, const char *msg) {
    throw_status(env, WEBCRYPTO_ERR_INVALID_ARGUMENT, msg);
}

/* A snapshot: a copy, in C's memory, of a BufferSource's bytes, which
 * index.js takes where the spec "gets a copy of the bytes held by" an
 * algorithm's member at normalization, and hands to run() later. No copy
 * lives in the JS heap (where no wipe can reach it), and nothing JS can
 * detach is read later. run() consumes it: wiped and freed once the job has
 * it (a second use is a TypeError); else when it is collected. */
typedef struct nbytes {
    uint8_t *p; /* NULL once consumed */
    size_t n;
    bool used;
} nbytes;

static void nbytes_consume(nbytes *b) {
    buf_free(b->p, b->n, b->n, true);
    b->p = NULL;
    b->n = 0;
    b->used = true;
}

static void nbytes_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    nbytes_consume(data);
    free(data);
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
static bool get_bytes(napi_env env, napi_value v, const uint8_t **p, size_t *n, nbytes **snap) {
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

static bool copy_bytes(const uint8_t *p, size_t n, uint8_t **owned) {
    *owned = buf_alloc(n);
    if (!*owned) return false;
    if (n) memcpy(*owned, p, n);
    return true;
}

/* Input bytes for a job: borrowed when the job runs now (no JS runs before
 * it is done); copied into C memory when it runs on the pool. */
static bool job_bytes(napi_env env, job *j, napi_value v, const uint8_t **p, size_t *n,
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
static void job_consume_snaps(job *j) {
    for (size_t i = 0; i < j->nsnaps; i++) nbytes_consume(j->snaps[i]);
    j->nsnaps = 0;
}

/* encrypt/decrypt on the pool of BIG_MIN bytes or more: the copy of the
 * data goes to a block of the cache with room for the output too, which the
 * job writes over the data (job.in_place). *done is false when the call is
 * not one of those (smaller data, or a size the library refuses: the job
 * then fails as usual); false with an exception pending on failure. */
static bool in_place_bytes(napi_env env, job *j, napi_value v, bool *done) {
    const uint8_t *p;
    size_t n, out_n = 0;
    nbytes *snap;
    *done = false;
    if (!get_bytes(env, v, &p, &n, &snap)) {
        throw_type(env, "expected a BufferSource");
        return false;
    }
    if (n < BIG_MIN || !j->k1 || snap) return true;
    webcrypto_status st = (j->op == OP_ENCRYPT ? webcrypto_encrypt : webcrypto_decrypt)(
        &j->a.p, j->k1->key, p, n, NULL, 0, &out_n);
    if (st != WEBCRYPTO_OK) return true;
    size_t cap = out_n > n ? out_n : n;
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

static bool get_key(napi_env env, napi_value v, nkey **out) {
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

static bool backend_remember(const webcrypto_backend *b) {
    bool ok = true;
    while (atomic_flag_test_and_set_explicit(&g_backends.lock, memory_order_acquire)) {
    }
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
static bool get_backend(napi_env env, napi_value v, const webcrypto_backend **out) {
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

static bool get_u32(napi_env env, napi_value v, uint32_t *out) {
    if (napi_get_value_uint32(env, v, out) != napi_ok) {
        throw_type(env, "expected a number");
        return false;
    }
    return true;
}

static bool get_size(napi_env env, napi_value v, size_t *out) {
    double d;
    if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0) || d > 9007199254740991.0) {
        throw_type(env, "expected a non-negative number");
        return false;
    }
    *out = (size_t)d;
    return true;
}

/* [name, member, value, member, value, ...] into h. */
static bool get_params(napi_env env, job *j, napi_value arr, pholder *h) {
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

static napi_value key_handle(napi_env env, webcrypto_key **kp) {
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
static void out_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    buf_free(data, 0, (size_t)(uintptr_t)hint, true);
}
static void big_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    big_give(data, hint != NULL);
}

/* An own data property of a result object or array (DefineOwnProperty, not
 * Set: a setter a script adds to Object.prototype or Array.prototype for
 * that name never sees the value, a key handle or a shared secret). */
static napi_status define_own(napi_env env, napi_value obj, const char *name, napi_value v) {
    napi_property_descriptor d = {name, NULL, NULL, NULL, NULL, v,
                                  napi_writable | napi_enumerable | napi_configurable, NULL};
    return napi_define_properties(env, obj, 1, &d);
}

/* The job's result as a JS value, or NULL with *err set. */
static napi_value job_result(napi_env env, job *j, napi_value *err) {
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

static void async_execute(napi_env env, void *data) {
    (void)env;
    job_run(data);
}

static void async_complete(napi_env env, napi_status status, void *data) {
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
 *   DERIVE_KEY params, key, derivedKeyType params, extractable, usages
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
static napi_value run(napi_env env, napi_callback_info info) {
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

/* ---- the other entry points ---------------------------------------------- */

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

static napi_value set_u32(napi_env env, napi_value obj, const char *k, uint32_t v) {
    napi_value x;
    if (napi_create_uint32(env, v, &x) != napi_ok || define_own(env, obj, k, x) != napi_ok)
        return NULL;
    return obj;
}

static napi_value set_str(napi_env env, napi_value obj, const char *k, const char *v) {
    napi_value x;
    if (!v) return obj;
    if (napi_create_string_utf8(env, v, NAPI_AUTO_LENGTH, &x) != napi_ok ||
        define_own(env, obj, k, x) != napi_ok)
        return NULL;
    return obj;
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
