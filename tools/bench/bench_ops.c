/*
 * The operation table and the implementation of every operation through the
 * public API (include/webcrypto.h), as a user of the library calls it: keys
 * are imported once per cell from fixed bytes (outside the timing), then each
 * timed call is one public call into a caller-supplied buffer.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

#define SHA1 WEBCRYPTO_ALG_SHA_1
#define SHA256 WEBCRYPTO_ALG_SHA_256
#define SHA384 WEBCRYPTO_ALG_SHA_384
#define SHA512 WEBCRYPTO_ALG_SHA_512
#define NOHASH WEBCRYPTO_ALG_NONE
#define SZ_DET (BENCH_SIZED | BENCH_DETERMINISTIC)

/* Asymmetric algorithms (RSA, ECDSA, Ed25519, ECDH, X25519) and AES-GCM-SIV
 * are not in the library yet; each will be a row here (and a kind if new). */
const bench_op bench_ops[] = {
    {"digest-sha-1", BK_DIGEST, SHA1, NOHASH, 0, SZ_DET},
    {"digest-sha-256", BK_DIGEST, SHA256, NOHASH, 0, SZ_DET},
    {"digest-sha-384", BK_DIGEST, SHA384, NOHASH, 0, SZ_DET},
    {"digest-sha-512", BK_DIGEST, SHA512, NOHASH, 0, SZ_DET},
    {"hmac-sha-256-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA256, 0, SZ_DET},
    {"hmac-sha-256-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA256, 0, SZ_DET},
    {"hmac-sha-1-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA1, 0, SZ_DET},
    {"hmac-sha-1-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA1, 0, SZ_DET},
    {"hmac-sha-384-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA384, 0, SZ_DET},
    {"hmac-sha-384-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA384, 0, SZ_DET},
    {"hmac-sha-512-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA512, 0, SZ_DET},
    {"hmac-sha-512-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA512, 0, SZ_DET},
    {"aes-gcm-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, SZ_DET},
    {"aes-gcm-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, SZ_DET},
    {"aes-gcm-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, SZ_DET},
    {"aes-gcm-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, SZ_DET},
    {"aes-cbc-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 128, SZ_DET},
    {"aes-cbc-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 128, SZ_DET},
    {"aes-cbc-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 256, SZ_DET},
    {"aes-cbc-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 256, SZ_DET},
    {"aes-ctr-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 128, SZ_DET},
    {"aes-ctr-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 128, SZ_DET},
    {"aes-ctr-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 256, SZ_DET},
    {"aes-ctr-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 256, SZ_DET},
    {"aes-gcm-128-generate-key", BK_GENERATE_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, 0},
    {"aes-gcm-256-generate-key", BK_GENERATE_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, 0},
    {"aes-gcm-128-import-key", BK_IMPORT_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, 0},
    {"aes-gcm-256-import-key", BK_IMPORT_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, 0},
    {"hkdf-sha-256", BK_HKDF, WEBCRYPTO_ALG_HKDF, SHA256, 0, SZ_DET},
    {"pbkdf2-sha-256", BK_PBKDF2, WEBCRYPTO_ALG_PBKDF2, SHA256, 0, BENCH_DETERMINISTIC},
    {"random", BK_RANDOM, WEBCRYPTO_ALG_NONE, NOHASH, 0, BENCH_SIZED | BENCH_MAX_64K},
};
const size_t bench_op_count = sizeof bench_ops / sizeof bench_ops[0];
_Static_assert(sizeof bench_ops / sizeof bench_ops[0] <= BENCH_MAX_OPS, "raise BENCH_MAX_OPS");

/* ---- the data stream ----
 * A 32-bit counter-based generator (a splitmix-style finaliser of
 * seed + i * golden ratio), little-endian, simple enough to write the same
 * in node_bench.mjs so that Node measures the very same bytes. Not for
 * secrets: it only makes identical inputs on every target and run. */
static uint32_t mix32(uint32_t z) {
    z = (z ^ (z >> 16)) * 0x85ebca6bu;
    z = (z ^ (z >> 13)) * 0xc2b2ae35u;
    return z ^ (z >> 16);
}

void bench_stream(uint32_t seed, uint8_t *buf, size_t len) {
    uint32_t state = seed;
    for (size_t i = 0; i < len; i += 4) {
        state += 0x9e3779b9u;
        uint32_t w = mix32(state);
        for (size_t k = 0; k < 4 && i + k < len; k++) buf[i + k] = (uint8_t)(w >> (8 * k));
    }
}

/* ---- errors ---- */
static _Thread_local char fail_msg[160];

void bench_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fail_msg, sizeof fail_msg, fmt, ap);
    va_end(ap);
}

const char *bench_last_error(void) { return fail_msg; }

void bench_fail_wc(const char *what, webcrypto_status st) {
    bench_fail("%s: %s: %s", what, webcrypto_status_name(st), webcrypto_error_message());
}

/* ---- fixed parameters ----
 * Key bytes: the key stream's first bytes (16 or 32 for AES, 32 for HMAC,
 * 16 for the PBKDF2 password). IV/counter, salt and info: the key stream
 * after the key, so that they too are the same everywhere. */
void bench_cell_init(bench_cell *c, const bench_op *op, const webcrypto_backend *backend,
                     size_t size, const uint8_t *data, uint32_t pbkdf2_iterations) {
    memset(c, 0, sizeof *c);
    c->op = op;
    c->backend = backend;
    c->size = size;
    c->data = data;
    c->pbkdf2_iterations = pbkdf2_iterations;
    uint8_t stream[32 + 16 + 32 + 16];
    bench_stream(BENCH_KEY_SEED, stream, sizeof stream);
    switch (op->kind) {
    case BK_ENCRYPT:
    case BK_DECRYPT:
    case BK_GENERATE_KEY:
    case BK_IMPORT_KEY: c->key_len = op->key_bits / 8; break;
    case BK_PBKDF2: c->key_len = 16; break;
    default: c->key_len = 32; break;
    }
    memcpy(c->key_bytes, stream, c->key_len);
    memcpy(c->iv, stream + 32, 16);
    c->iv_len = op->alg == WEBCRYPTO_ALG_AES_GCM ? 12 : 16;
    if (op->alg == WEBCRYPTO_ALG_AES_CTR) {
        /* Low 64 counter bits start at 0, so no size here wraps them and
         * every target's 128-bit CTR gives the same stream. */
        memset(c->iv + 8, 0, 8);
    }
    memcpy(c->salt, stream + 48, 32);
    c->salt_len = op->kind == BK_PBKDF2 ? 16 : 32;
    memcpy(c->info, stream + 80, 16);
    c->info_len = 16;
}

/* ---- through the public API ---- */

static int import_secret(bench_cell *c, webcrypto_algorithm alg, webcrypto_algorithm hash,
                         const uint8_t *bytes, size_t len, unsigned usages) {
    webcrypto_params p = {.name = alg, .hash = hash};
    webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, bytes, len, &p,
                                               false, usages, &c->key);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("importKey", st);
        return -1;
    }
    return 0;
}

static void wc_teardown(bench_cell *c) {
    webcrypto_key_free(c->key);
    c->key = NULL;
    free(c->aux);
    c->aux = NULL;
}

static int wc_setup_digest(bench_cell *c) {
    c->out_cap = 64;
    return 0;
}

static int wc_run_digest(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st =
        webcrypto_digest(c->backend, c->op->alg, c->data, c->size, out, c->out_cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("digest", st);
        return -1;
    }
    return 0;
}

static int wc_run_sign(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st = webcrypto_sign(&c->params, c->key, c->data, c->size, out, c->out_cap,
                                         out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("sign", st);
        return -1;
    }
    return 0;
}

static int wc_setup_hmac(bench_cell *c) {
    c->params = (webcrypto_params){.name = WEBCRYPTO_ALG_HMAC};
    c->out_cap = 64;
    if (import_secret(c, WEBCRYPTO_ALG_HMAC, c->op->hash, c->key_bytes, c->key_len,
                      WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY))
        return -1;
    if (c->op->kind == BK_HMAC_VERIFY) {
        c->aux = malloc(c->out_cap);
        if (!c->aux) {
            bench_fail("out of memory");
            return -1;
        }
        if (wc_run_sign(c, c->aux, &c->aux_len)) return -1;
    }
    return 0;
}

static int wc_run_verify(const bench_cell *c, uint8_t *out, size_t *out_len) {
    bool valid = false;
    webcrypto_status st =
        webcrypto_verify(&c->params, c->key, c->aux, c->aux_len, c->data, c->size, &valid);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("verify", st);
        return -1;
    }
    if (!valid) {
        bench_fail("verify: a correct MAC did not verify");
        return -1;
    }
    out[0] = 1;
    *out_len = 1;
    return 0;
}

static int wc_run_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st =
        webcrypto_encrypt(&c->params, c->key, c->data, c->size, out, c->out_cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("encrypt", st);
        return -1;
    }
    return 0;
}

static int wc_setup_cipher(bench_cell *c) {
    webcrypto_params p = {.name = c->op->alg};
    if (c->op->alg == WEBCRYPTO_ALG_AES_CTR) {
        p.counter = c->iv;
        p.counter_len = 16;
        p.length = 64;
    } else {
        p.iv = c->iv;
        p.iv_len = c->iv_len;
    }
    c->params = p;
    /* CBC padding or the GCM tag: at most 16 bytes more. */
    c->out_cap = c->size + 16;
    if (import_secret(c, c->op->alg, WEBCRYPTO_ALG_NONE, c->key_bytes, c->key_len,
                      WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT))
        return -1;
    if (c->op->kind == BK_DECRYPT) {
        c->aux = malloc(c->out_cap);
        if (!c->aux) {
            bench_fail("out of memory");
            return -1;
        }
        if (wc_run_encrypt(c, c->aux, &c->aux_len)) return -1;
    }
    return 0;
}

static int wc_run_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st =
        webcrypto_decrypt(&c->params, c->key, c->aux, c->aux_len, out, c->out_cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("decrypt", st);
        return -1;
    }
    return 0;
}

static int wc_setup_keyop(bench_cell *c) {
    c->params = (webcrypto_params){.name = c->op->alg, .length = c->op->key_bits};
    c->out_cap = 1;
    return 0;
}

static int wc_run_generate(const bench_cell *c, uint8_t *out, size_t *out_len) {
    (void)out;
    webcrypto_key *k = NULL;
    webcrypto_status st =
        webcrypto_generate_key(c->backend, &c->params, false,
                               WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("generateKey", st);
        return -1;
    }
    webcrypto_key_free(k);
    *out_len = 0;
    return 0;
}

static int wc_run_import(const bench_cell *c, uint8_t *out, size_t *out_len) {
    (void)out;
    webcrypto_key *k = NULL;
    webcrypto_params p = {.name = c->op->alg};
    webcrypto_status st =
        webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, c->key_bytes, c->key_len, &p, false,
                             WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("importKey", st);
        return -1;
    }
    webcrypto_key_free(k);
    *out_len = 0;
    return 0;
}

/* HKDF: the input size is the IKM (the imported key's length); salt 32
 * bytes, info 16 bytes, 32 bytes out. */
static int wc_setup_hkdf(bench_cell *c) {
    c->params = (webcrypto_params){.name = WEBCRYPTO_ALG_HKDF,
                                   .hash = c->op->hash,
                                   .salt = c->salt,
                                   .salt_len = c->salt_len,
                                   .info = c->info,
                                   .info_len = c->info_len};
    c->out_cap = 32;
    return import_secret(c, WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, c->data, c->size,
                         WEBCRYPTO_USAGE_DERIVE_BITS);
}

/* PBKDF2: 16-byte password, 16-byte salt, --pbkdf2-iterations, 32 bytes out. */
static int wc_setup_pbkdf2(bench_cell *c) {
    c->params = (webcrypto_params){.name = WEBCRYPTO_ALG_PBKDF2,
                                   .hash = c->op->hash,
                                   .salt = c->salt,
                                   .salt_len = c->salt_len,
                                   .iterations = c->pbkdf2_iterations};
    c->out_cap = 32;
    return import_secret(c, WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, c->key_bytes, c->key_len,
                         WEBCRYPTO_USAGE_DERIVE_BITS);
}

static int wc_run_derive(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st = webcrypto_derive_bits(&c->params, c->key, 256, out, c->out_cap);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("deriveBits", st);
        return -1;
    }
    *out_len = 32;
    return 0;
}

static int wc_setup_random(bench_cell *c) {
    c->out_cap = c->size;
    return 0;
}

static int wc_run_random(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st = webcrypto_get_random_values(c->backend, out, c->size);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("getRandomValues", st);
        return -1;
    }
    *out_len = c->size;
    return 0;
}

static const bench_impl wc_impls[BK_COUNT] = {
    [BK_DIGEST] = {wc_setup_digest, wc_run_digest, wc_teardown},
    [BK_HMAC_SIGN] = {wc_setup_hmac, wc_run_sign, wc_teardown},
    [BK_HMAC_VERIFY] = {wc_setup_hmac, wc_run_verify, wc_teardown},
    [BK_ENCRYPT] = {wc_setup_cipher, wc_run_encrypt, wc_teardown},
    [BK_DECRYPT] = {wc_setup_cipher, wc_run_decrypt, wc_teardown},
    [BK_GENERATE_KEY] = {wc_setup_keyop, wc_run_generate, wc_teardown},
    [BK_IMPORT_KEY] = {wc_setup_keyop, wc_run_import, wc_teardown},
    [BK_HKDF] = {wc_setup_hkdf, wc_run_derive, wc_teardown},
    [BK_PBKDF2] = {wc_setup_pbkdf2, wc_run_derive, wc_teardown},
    [BK_RANDOM] = {wc_setup_random, wc_run_random, wc_teardown},
};

const bench_impl *bench_wc_impl(const bench_op *op) {
    const bench_impl *i = &wc_impls[op->kind];
    return i->run ? i : NULL;
}
