/*
 * addon.h - what the parts of the Node-API addon share (webcrypto_node.c,
 * the entry points, over native/): key handles, the params member table,
 * jobs, snapshots and the functions each part gives the others. The parts
 * are layered, each calling only those before it, never the entry file:
 *   buffers.c  memory: wipes, the cache of large blocks, snapshots' bytes
 *   values.c   JS values to C and back (keys, bytes, backends, errors)
 *   jobs.c     a job's inputs, its run on any thread, its result
 *   run.c      native.run: an operation's arguments into a job, run now or
 *              on the pool
 * Internal to the addon (its symbols are hidden: C_VISIBILITY_PRESET).
 */
#ifndef WEBCRYPTO_NODE_ADDON_H
#define WEBCRYPTO_NODE_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <webcrypto.h>

/* ---- keys ---------------------------------------------------------------- */

typedef struct nkey {
    webcrypto_key *key;
    atomic_int refs;
} nkey;

/* Type tags (values.c): every external this addon makes carries one. */
extern const napi_type_tag k_key_tag;
extern const napi_type_tag k_backend_tag;
extern const napi_type_tag k_bytes_tag;

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

/* The members, in the order of index.js's (lib/tables.js's) member indexes:
 * k_members in values.c, whose count is checked against N_MEMBERS there. */
#define N_MEMBERS 26
extern const member k_members[N_MEMBERS];

/* ---- memory (buffers.c) -------------------------------------------------- */

/* Buffers of this many bytes or more are blocks of the cache (buffers.c,
 * "Large blocks"). */
#define BIG_MIN ((size_t)64 * 1024)


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


/* A params as a job holds it: the struct, the byte copies it points to, and
 * the key it references. */
typedef struct pholder {
    webcrypto_params p;
    uint8_t *owned[N_MEMBERS];
    size_t owned_len[N_MEMBERS];
    nkey *key;
} pholder;

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
    pholder c;               /* deriveKey: the key type for "get key length" (c_set) */
    bool c_set;
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

/* ---- JS values ----------------------------------------------------------- */

#define NAPI(call)                                                                                 \
    do {                                                                                           \
        if ((call) != napi_ok) goto napi_fail;                                                     \
    } while (0)

/* buffers.c */
void wipe(void *p, size_t n);
/* A spin lock's wait (the locks are held for a short scan): a few tries,
 * then the CPU to another thread, since the holder may have been
 * descheduled and a waiter would otherwise burn its whole time slice. */
static inline void spin_wait(unsigned *tries) {
    if (++*tries > 64) sched_yield();
}
uint8_t *big_take(size_t n);
void big_give(uint8_t *data, bool secret);
size_t big_trim(void);
uint8_t *buf_alloc(size_t n);
void buf_free(uint8_t *p, size_t n, size_t cap, bool secret);
bool copy_bytes(const uint8_t *p, size_t n, uint8_t **owned);
void nbytes_consume(nbytes *b);
void nbytes_finalize(napi_env env, void *data, void *hint);

/* values.c */
nkey *nkey_retain(nkey *k);
void nkey_release(nkey *k);
napi_value make_error(napi_env env, webcrypto_status st, const char *msg);
void throw_status(napi_env env, webcrypto_status st, const char *msg);
void throw_type(napi_env env, const char *msg);
bool get_bytes(napi_env env, napi_value v, const uint8_t **p, size_t *n, nbytes **snap);
bool get_key(napi_env env, napi_value v, nkey **out);
bool backend_remember(const webcrypto_backend *b);
bool get_backend(napi_env env, napi_value v, const webcrypto_backend **out);
bool get_u32(napi_env env, napi_value v, uint32_t *out);
bool get_size(napi_env env, napi_value v, size_t *out);
napi_value key_handle(napi_env env, webcrypto_key **kp);
void out_finalize(napi_env env, void *data, void *hint);
void big_finalize(napi_env env, void *data, void *hint);
napi_status define_own(napi_env env, napi_value obj, const char *name, napi_value v);
napi_value set_u32(napi_env env, napi_value obj, const char *k, uint32_t v);
napi_value set_str(napi_env env, napi_value obj, const char *k, const char *v);

/* jobs.c */
void job_free(napi_env env, job *j);
void job_release(napi_env env, job *j, bool on_heap);
webcrypto_status job_run(job *j);
bool job_bytes(napi_env env, job *j, napi_value v, const uint8_t **p, size_t *n, uint8_t **owned);
void job_consume_snaps(job *j);
bool in_place_bytes(napi_env env, job *j, napi_value v, bool *done);
bool get_params(napi_env env, job *j, napi_value arr, pholder *h);
napi_value job_result(napi_env env, job *j, napi_value *err);
void async_execute(napi_env env, void *data);
void async_complete(napi_env env, napi_status status, void *data);

/* run.c */
napi_value run(napi_env env, napi_callback_info info);

#endif
