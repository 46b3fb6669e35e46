/*
 * The raw-boringssl target in the harness: loads the module
 * webcrypto-bench-raw-boringssl.so (bench_raw_boringssl.c; the interface is
 * bench_raw_module.h) and runs its per-kind functions as a bench_impl.
 * The module is found and opened as the core finds and opens the boringssl
 * backend module (src/core/module_open.h: $WEBCRYPTO_MODULE_DIR, then the
 * configured install's <libdir>/webcrypto; RTLD_DEEPBIND, and libc's own
 * dlopen under AddressSanitizer), once per process; it stays loaded.
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND, in module_open.h */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "bench_raw_module.h"
#include "core/module_open.h"

#ifndef WEBCRYPTO_MODULE_DIRS
#define WEBCRYPTO_MODULE_DIRS ""
#endif
#define RAWB_FILE "webcrypto-bench-raw-boringssl.so"

static pthread_once_t rawb_once = PTHREAD_ONCE_INIT;
static const bench_raw_module *rawb;
static char rawb_error[1400];

static void host_fail(const char *message) { bench_fail("%s", message); }

static const bench_raw_host rawb_host = {.abi = BENCH_RAW_MODULE_ABI, .fail = host_fail};

static void rawb_load(void) {
    void *handle = NULL;
    char msg[1200];
    int r = wc_module_open(RAWB_FILE, WEBCRYPTO_MODULE_DIRS, &handle, msg, sizeof msg);
    if (r != 0) {
        snprintf(rawb_error, sizeof rawb_error, r > 0 ? RAWB_FILE " not found (tried %s)" : "%s",
                 msg);
        return;
    }
    void *sym = dlsym(handle, BENCH_RAW_MODULE_ENTRY);
    bench_raw_module_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    const bench_raw_module *m = sym ? entry(&rawb_host) : NULL;
    if (!m || m->abi != BENCH_RAW_MODULE_ABI || !m->supports) {
        dlclose(handle);
        snprintf(rawb_error, sizeof rawb_error, "%s is not a raw baseline module of this version",
                 msg);
        return;
    }
    rawb = m; /* the handle stays open for the process's life */
}

const char *bench_rawb_description(char *why, size_t cap) {
    pthread_once(&rawb_once, rawb_load);
    if (!rawb) snprintf(why, cap, "%s", rawb_error);
    return rawb ? rawb->description : NULL;
}

/* The interface's algorithm for a library algorithm; BENCH_RAW_ALG_NONE
 * (0) for the others. */
static unsigned raw_alg(webcrypto_algorithm a) {
    static const unsigned raw_algs[] = {
        [WEBCRYPTO_ALG_SHA_1] = BENCH_RAW_SHA_1,
        [WEBCRYPTO_ALG_SHA_256] = BENCH_RAW_SHA_256,
        [WEBCRYPTO_ALG_SHA_384] = BENCH_RAW_SHA_384,
        [WEBCRYPTO_ALG_SHA_512] = BENCH_RAW_SHA_512,
        [WEBCRYPTO_ALG_AES_GCM] = BENCH_RAW_AES_GCM,
        [WEBCRYPTO_ALG_AES_GCM_SIV] = BENCH_RAW_AES_GCM_SIV,
        [WEBCRYPTO_ALG_AES_CBC] = BENCH_RAW_AES_CBC,
        [WEBCRYPTO_ALG_AES_CTR] = BENCH_RAW_AES_CTR,
    };
    return (size_t)a < sizeof raw_algs / sizeof raw_algs[0] ? raw_algs[a] : BENCH_RAW_ALG_NONE;
}

/* The interface's kind for a bench kind; -1 for those it has none of (the
 * asymmetric ones). */
static int raw_kind(bench_kind k) {
    switch (k) {
    case BK_DIGEST: return BENCH_RAW_DIGEST;
    case BK_HMAC_SIGN: return BENCH_RAW_HMAC_SIGN;
    case BK_HMAC_VERIFY: return BENCH_RAW_HMAC_VERIFY;
    case BK_ENCRYPT: return BENCH_RAW_ENCRYPT;
    case BK_DECRYPT: return BENCH_RAW_DECRYPT;
    case BK_GENERATE_KEY: return BENCH_RAW_GENERATE_KEY;
    case BK_IMPORT_KEY: return BENCH_RAW_IMPORT_KEY;
    case BK_HKDF: return BENCH_RAW_HKDF;
    case BK_PBKDF2: return BENCH_RAW_PBKDF2;
    case BK_RANDOM: return BENCH_RAW_RANDOM;
    case BK_PKEY_SIGN:
    case BK_PKEY_VERIFY:
    case BK_PKEY_ENCRYPT:
    case BK_PKEY_DECRYPT:
    case BK_PKEY_DERIVE:
    case BK_PKEY_GENERATE:
    case BK_KMAC_SIGN: /* BoringSSL has no KMAC */
    case BK_KEM_ENCAPSULATE: /* nor ML-KEM (Debian's 13.0.0) or Argon2 */
    case BK_KEM_DECAPSULATE:
    case BK_ARGON2:
    case BK_COUNT: break;
    }
    return -1;
}

/* The module's description of a cell: the same bytes every target gets
 * (bench_cell_init). False if the interface has no such kind. */
static bool spec_of(const bench_cell *c, bench_raw_spec *sp) {
    int k = raw_kind(c->op->kind);
    if (k < 0) return false;
    *sp = (bench_raw_spec){
        .kind = (unsigned)k,
        .alg = raw_alg(c->op->alg),
        .hash = raw_alg(c->op->hash),
        .key_len = c->key_len,
        .key = c->key_bytes,
        .data = c->data,
        .size = c->size,
        .iv = c->iv,
        .iv_len = c->iv_len,
        .salt = c->salt,
        .salt_len = c->salt_len,
        .info = c->info,
        .info_len = c->info_len,
        .iterations = c->pbkdf2_iterations,
    };
    return true;
}

/* Per cell: the module's run and its state, so that a timed call is one
 * indirect call more than the module's own code. */
typedef struct rawb_cell {
    int (*run)(const void *state, uint8_t *out, size_t *out_len);
    void (*free)(void *state);
    void *state;
} rawb_cell;

static int rawb_setup(bench_cell *c) {
    bench_raw_spec sp;
    if (!rawb || !spec_of(c, &sp)) {
        bench_fail("raw-boringssl: no such operation");
        return -1;
    }
    const bench_raw_kind_ops *ops = &rawb->kinds[sp.kind];
    rawb_cell *rc = calloc(1, sizeof *rc);
    if (!rc) {
        bench_fail("out of memory");
        return -1;
    }
    c->raw = rc;
    rc->run = ops->run;
    rc->free = ops->free;
    size_t cap = 0;
    if (ops->setup(&sp, &rc->state, &cap)) return -1;
    c->out_cap = cap;
    return 0;
}

static int rawb_run(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const rawb_cell *rc = c->raw;
    return rc->run(rc->state, out, out_len) ? -1 : 0;
}

static void rawb_teardown(bench_cell *c) {
    rawb_cell *rc = c->raw;
    if (rc) {
        rc->free(rc->state);
        free(rc);
    }
    c->raw = NULL;
}

static const bench_impl rawb_impl = {
    .setup = rawb_setup, .run = rawb_run, .teardown = rawb_teardown};

const bench_impl *bench_rawb_impl(const bench_op *op) {
    char why[8];
    if (!bench_rawb_description(why, sizeof why)) return NULL;
    bench_cell c;
    bench_raw_spec sp;
    bench_cell_init(&c, op, NULL, 0, NULL, 0);
    if (!spec_of(&c, &sp)) return NULL;
    const bench_raw_kind_ops *ops = &rawb->kinds[sp.kind];
    return ops->setup && ops->run && ops->free && rawb->supports(&sp) ? &rawb_impl : NULL;
}
