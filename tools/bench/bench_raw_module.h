/*
 * bench_raw_module.h - the interface between webcrypto-bench and a raw
 * baseline built as a shared module of its own.
 *
 * raw-boringssl is BoringSSL called directly. BoringSSL exports the same
 * symbol names as OpenSSL, which webcrypto-bench links for raw-openssl, so
 * that code is the module webcrypto-bench-raw-boringssl.so, compiled against
 * BoringSSL's headers and linked to BoringSSL's libcrypto only, and loaded
 * by the bench with RTLD_DEEPBIND (bench_raw_module.c), as the core loads
 * the boringssl backend module.
 *
 * The module exports one function, BENCH_RAW_MODULE_ENTRY. Only the types
 * below cross the boundary, and memory never changes owner: what the module
 * allocates (its per-cell state) it frees; it writes into the caller's
 * output buffer only. Everything is this header's own (no libwebcrypto or
 * bench type), so the layout is fixed by BENCH_RAW_MODULE_ABI alone: bump it
 * on any change here.
 */
#ifndef WEBCRYPTO_BENCH_RAW_MODULE_H
#define WEBCRYPTO_BENCH_RAW_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_RAW_MODULE_ABI 1u
#define BENCH_RAW_MODULE_ENTRY "webcrypto_bench_raw_module_v1"

/* What an operation does; bench_internal.h's kinds that a module may have. */
typedef enum bench_raw_kind {
    BENCH_RAW_DIGEST,
    BENCH_RAW_HMAC_SIGN,
    BENCH_RAW_HMAC_VERIFY,
    BENCH_RAW_ENCRYPT,
    BENCH_RAW_DECRYPT,
    BENCH_RAW_GENERATE_KEY, /* an AES key: random bytes, key set-up, wiped */
    BENCH_RAW_IMPORT_KEY,   /* an AES key set-up from the spec's bytes */
    BENCH_RAW_HKDF,
    BENCH_RAW_PBKDF2,
    BENCH_RAW_RANDOM,
    BENCH_RAW_KIND_COUNT
} bench_raw_kind;

typedef enum bench_raw_alg {
    BENCH_RAW_ALG_NONE,
    BENCH_RAW_SHA_1,
    BENCH_RAW_SHA_256,
    BENCH_RAW_SHA_384,
    BENCH_RAW_SHA_512,
    BENCH_RAW_AES_GCM,     /* 12-byte IV, no AAD, 16-byte tag appended */
    BENCH_RAW_AES_GCM_SIV, /* RFC 8452, 12-byte nonce, no AAD, tag appended */
    BENCH_RAW_AES_CBC,     /* 16-byte IV, PKCS#7 padding */
    BENCH_RAW_AES_CTR      /* the 16-byte counter block, 128-bit counter */
} bench_raw_alg;

/* One cell, as the bench made it (bench_cell_init): the same bytes every
 * target gets. The buffers stay valid and unchanged from setup to free. */
typedef struct bench_raw_spec {
    unsigned kind;    /* bench_raw_kind */
    unsigned alg;     /* digest: the hash; the AES kinds: the mode */
    unsigned hash;    /* HMAC, HKDF, PBKDF2: the hash */
    size_t key_len;   /* AES: 16 or 32; HMAC: 32; PBKDF2: the password's */
    const uint8_t *key;
    const uint8_t *data; /* the input (HKDF: the IKM) */
    size_t size;
    const uint8_t *iv; /* GCM, GCM-SIV: 12 bytes; CBC: IV; CTR: counter block */
    size_t iv_len;
    const uint8_t *salt;
    size_t salt_len;
    const uint8_t *info;
    size_t info_len;
    uint32_t iterations; /* PBKDF2 */
} bench_raw_spec;

/* What the bench gives the module. */
typedef struct bench_raw_host {
    unsigned abi; /* BENCH_RAW_MODULE_ABI */
    /* Records the failure message of the calling thread (setup or run
     * returning -1 call it first). */
    void (*fail)(const char *message);
} bench_raw_host;

/* One kind's code; NULL members: the module lacks the kind. */
typedef struct bench_raw_kind_ops {
    /* Prepares a cell (keys, algorithms, the ciphertext or MAC to check)
     * into *state; sets *out_cap, the output buffer run needs. Returns 0,
     * or -1 after host->fail (free is still called, with *state as set). */
    int (*setup)(const bench_raw_spec *spec, void **state, size_t *out_cap);
    /* One timed operation; may run on several threads at once for one
     * state (read-only here). Returns 0, or -1 after host->fail. */
    int (*run)(const void *state, uint8_t *out, size_t *out_len);
    /* Frees and wipes a state (NULL is allowed). */
    void (*free)(void *state);
} bench_raw_kind_ops;

typedef struct bench_raw_module {
    unsigned abi;            /* BENCH_RAW_MODULE_ABI */
    const char *description; /* one line: the library and its version */
    /* Whether the module has this kind with this alg, hash and key length
     * (only those members of spec are read). */
    bool (*supports)(const bench_raw_spec *spec);
    bench_raw_kind_ops kinds[BENCH_RAW_KIND_COUNT];
} bench_raw_module;

/* The exported entry: NULL if host->abi is not the module's. */
typedef const bench_raw_module *(*bench_raw_module_entry_fn)(const bench_raw_host *host);

#endif
