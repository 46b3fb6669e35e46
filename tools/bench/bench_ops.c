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

#define RSA_PKCS1 WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5
#define RSA_PSS WEBCRYPTO_ALG_RSA_PSS
#define RSA_OAEP WEBCRYPTO_ALG_RSA_OAEP
#define ECDSA WEBCRYPTO_ALG_ECDSA
#define ECDH WEBCRYPTO_ALG_ECDH
#define ED25519 WEBCRYPTO_ALG_ED25519
#define X25519 WEBCRYPTO_ALG_X25519
#define NOCURVE WEBCRYPTO_CURVE_NONE
#define P256 WEBCRYPTO_CURVE_P256
#define P384 WEBCRYPTO_CURVE_P384
#define P521 WEBCRYPTO_CURVE_P521
#define DET BENCH_DETERMINISTIC
#define CROSS BENCH_CROSS_VERIFY

/* Asymmetric operations are one cell each, on the fixed BENCH_MSG_LEN-byte
 * message: above a few hundred bytes their cost is the hash's, which the
 * digest rows measure. ECDSA uses the hash of its curve's size. */
const bench_op bench_ops[] = {
    {"digest-sha-1", BK_DIGEST, SHA1, NOHASH, 0, SZ_DET, NOCURVE},
    {"digest-sha-256", BK_DIGEST, SHA256, NOHASH, 0, SZ_DET, NOCURVE},
    {"digest-sha-384", BK_DIGEST, SHA384, NOHASH, 0, SZ_DET, NOCURVE},
    {"digest-sha-512", BK_DIGEST, SHA512, NOHASH, 0, SZ_DET, NOCURVE},
    {"hmac-sha-256-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA256, 0, SZ_DET, NOCURVE},
    {"hmac-sha-256-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA256, 0, SZ_DET, NOCURVE},
    {"hmac-sha-1-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA1, 0, SZ_DET, NOCURVE},
    {"hmac-sha-1-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA1, 0, SZ_DET, NOCURVE},
    {"hmac-sha-384-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA384, 0, SZ_DET, NOCURVE},
    {"hmac-sha-384-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA384, 0, SZ_DET, NOCURVE},
    {"hmac-sha-512-sign", BK_HMAC_SIGN, WEBCRYPTO_ALG_HMAC, SHA512, 0, SZ_DET, NOCURVE},
    {"hmac-sha-512-verify", BK_HMAC_VERIFY, WEBCRYPTO_ALG_HMAC, SHA512, 0, SZ_DET, NOCURVE},
    {"aes-gcm-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-gcm-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-gcm-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-gcm-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-cbc-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-cbc-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-cbc-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-cbc-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CBC, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-ctr-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-ctr-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-ctr-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-ctr-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_CTR, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-gcm-128-generate-key", BK_GENERATE_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, 0, NOCURVE},
    {"aes-gcm-256-generate-key", BK_GENERATE_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, 0, NOCURVE},
    {"aes-gcm-128-import-key", BK_IMPORT_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 128, 0, NOCURVE},
    {"aes-gcm-256-import-key", BK_IMPORT_KEY, WEBCRYPTO_ALG_AES_GCM, NOHASH, 256, 0, NOCURVE},
    {"hkdf-sha-256", BK_HKDF, WEBCRYPTO_ALG_HKDF, SHA256, 0, SZ_DET, NOCURVE},
    {"pbkdf2-sha-256", BK_PBKDF2, WEBCRYPTO_ALG_PBKDF2, SHA256, 0, BENCH_DETERMINISTIC, NOCURVE},
    {"random", BK_RANDOM, WEBCRYPTO_ALG_NONE, NOHASH, 0, BENCH_SIZED | BENCH_MAX_64K, NOCURVE},
    {"aes-gcm-siv-128-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_GCM_SIV, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-gcm-siv-128-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_GCM_SIV, NOHASH, 128, SZ_DET, NOCURVE},
    {"aes-gcm-siv-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_GCM_SIV, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-gcm-siv-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_GCM_SIV, NOHASH, 256, SZ_DET, NOCURVE},
    /* the draft "Modern Algorithms": ChaCha20-Poly1305 beside AES-256-GCM */
    {"chacha20-poly1305-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_CHACHA20_POLY1305, NOHASH, 256, SZ_DET,
     NOCURVE},
    {"chacha20-poly1305-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_CHACHA20_POLY1305, NOHASH, 256, SZ_DET,
     NOCURVE},
    {"rsa-pkcs1-2048-sha256-sign", BK_PKEY_SIGN, RSA_PKCS1, SHA256, 2048, DET, NOCURVE},
    {"rsa-pkcs1-2048-sha256-verify", BK_PKEY_VERIFY, RSA_PKCS1, SHA256, 2048, DET, NOCURVE},
    {"rsa-pss-2048-sha256-sign", BK_PKEY_SIGN, RSA_PSS, SHA256, 2048, CROSS, NOCURVE},
    {"rsa-pss-2048-sha256-verify", BK_PKEY_VERIFY, RSA_PSS, SHA256, 2048, DET, NOCURVE},
    {"rsa-oaep-2048-sha256-encrypt", BK_PKEY_ENCRYPT, RSA_OAEP, SHA256, 2048, CROSS, NOCURVE},
    {"rsa-oaep-2048-sha256-decrypt", BK_PKEY_DECRYPT, RSA_OAEP, SHA256, 2048, DET, NOCURVE},
    {"ecdsa-p256-sign", BK_PKEY_SIGN, ECDSA, SHA256, 0, CROSS, P256},
    {"ecdsa-p256-verify", BK_PKEY_VERIFY, ECDSA, SHA256, 0, DET, P256},
    {"ecdsa-p384-sign", BK_PKEY_SIGN, ECDSA, SHA384, 0, CROSS, P384},
    {"ecdsa-p384-verify", BK_PKEY_VERIFY, ECDSA, SHA384, 0, DET, P384},
    {"ecdsa-p521-sign", BK_PKEY_SIGN, ECDSA, SHA512, 0, CROSS, P521},
    {"ecdsa-p521-verify", BK_PKEY_VERIFY, ECDSA, SHA512, 0, DET, P521},
    {"ed25519-sign", BK_PKEY_SIGN, ED25519, NOHASH, 0, DET, NOCURVE},
    {"ed25519-verify", BK_PKEY_VERIFY, ED25519, NOHASH, 0, DET, NOCURVE},
    {"ecdh-p256-derive", BK_PKEY_DERIVE, ECDH, NOHASH, 0, DET, P256},
    {"ecdh-p384-derive", BK_PKEY_DERIVE, ECDH, NOHASH, 0, DET, P384},
    {"ecdh-p521-derive", BK_PKEY_DERIVE, ECDH, NOHASH, 0, DET, P521},
    {"x25519-derive", BK_PKEY_DERIVE, X25519, NOHASH, 0, DET, NOCURVE},
    {"rsa-2048-generate-key", BK_PKEY_GENERATE, RSA_PKCS1, SHA256, 2048, 0, NOCURVE},
    {"ec-p256-generate-key", BK_PKEY_GENERATE, ECDSA, NOHASH, 0, 0, P256},
    {"ed25519-generate-key", BK_PKEY_GENERATE, ED25519, NOHASH, 0, 0, NOCURVE},
    {"x25519-generate-key", BK_PKEY_GENERATE, X25519, NOHASH, 0, 0, NOCURVE},
    /* "Modern Algorithms in the Web Cryptography API" */
    {"digest-sha3-256", BK_DIGEST, WEBCRYPTO_ALG_SHA3_256, NOHASH, 0, SZ_DET, NOCURVE},
    {"kmac128-sign", BK_KMAC_SIGN, WEBCRYPTO_ALG_KMAC128, NOHASH, 0, SZ_DET, NOCURVE},
    {"aes-ocb-256-encrypt", BK_ENCRYPT, WEBCRYPTO_ALG_AES_OCB, NOHASH, 256, SZ_DET, NOCURVE},
    {"aes-ocb-256-decrypt", BK_DECRYPT, WEBCRYPTO_ALG_AES_OCB, NOHASH, 256, SZ_DET, NOCURVE},
    /* Argon2id at RFC 9106's and OWASP's lighter cost: 19 MiB, 2 passes, 1 lane */
    {"argon2id-19m-t2-p1", BK_ARGON2, WEBCRYPTO_ALG_ARGON2ID, NOHASH, 0, DET, NOCURVE},
    /* "Secure Curves in the Web Cryptography API" */
    {"ed448-sign", BK_PKEY_SIGN, WEBCRYPTO_ALG_ED448, NOHASH, 0, DET, NOCURVE},
    {"ed448-verify", BK_PKEY_VERIFY, WEBCRYPTO_ALG_ED448, NOHASH, 0, DET, NOCURVE},
    {"x448-derive", BK_PKEY_DERIVE, WEBCRYPTO_ALG_X448, NOHASH, 0, DET, NOCURVE},
    /* ML-KEM-768 and ML-DSA-65 (FIPS 203, 204). Encapsulation and ML-DSA's
     * hedged signatures are randomized, and too large for the cross-check
     * of one output (bench_result.output): the decapsulation (of one
     * ciphertext for every target) and verification rows are compared. */
    {"ml-kem-768-encapsulate", BK_KEM_ENCAPSULATE, WEBCRYPTO_ALG_ML_KEM_768, NOHASH, 0, 0,
     NOCURVE},
    {"ml-kem-768-decapsulate", BK_KEM_DECAPSULATE, WEBCRYPTO_ALG_ML_KEM_768, NOHASH, 0, DET,
     NOCURVE},
    {"ml-dsa-65-sign", BK_PKEY_SIGN, WEBCRYPTO_ALG_ML_DSA_65, NOHASH, 0, 0, NOCURVE},
    {"ml-dsa-65-verify", BK_PKEY_VERIFY, WEBCRYPTO_ALG_ML_DSA_65, NOHASH, 0, DET, NOCURVE},
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
    c->msg = data;
    c->msg_len = op->flags & BENCH_SIZED ? size : BENCH_MSG_LEN;
    uint8_t stream[32 + 16 + 32 + 16];
    bench_stream(BENCH_KEY_SEED, stream, sizeof stream);
    switch (op->kind) {
    case BK_ENCRYPT:
    case BK_DECRYPT:
    case BK_GENERATE_KEY:
    case BK_IMPORT_KEY: c->key_len = op->key_bits / 8; break;
    case BK_PBKDF2: c->key_len = 16; break;
    case BK_DIGEST:
    case BK_HMAC_SIGN:
    case BK_HMAC_VERIFY:
    case BK_HKDF:
    case BK_RANDOM:
    case BK_PKEY_SIGN:
    case BK_PKEY_VERIFY:
    case BK_PKEY_ENCRYPT:
    case BK_PKEY_DECRYPT:
    case BK_PKEY_DERIVE:
    case BK_PKEY_GENERATE:
    case BK_KMAC_SIGN:
    case BK_KEM_ENCAPSULATE:
    case BK_KEM_DECAPSULATE:
    case BK_COUNT: c->key_len = 32; break;
    case BK_ARGON2: c->key_len = 16; break;
    }
    memcpy(c->key_bytes, stream, c->key_len);
    memcpy(c->iv, stream + 32, 16);
    c->iv_len = op->alg == WEBCRYPTO_ALG_AES_GCM || op->alg == WEBCRYPTO_ALG_AES_GCM_SIV ||
                        op->alg == WEBCRYPTO_ALG_CHACHA20_POLY1305 ||
                        op->alg == WEBCRYPTO_ALG_AES_OCB
                    ? 12
                    : 16;
    if (op->alg == WEBCRYPTO_ALG_AES_CTR) {
        /* Low 64 counter bits start at 0, so no size here wraps them and
         * every target's 128-bit CTR gives the same stream. */
        memset(c->iv + 8, 0, 8);
    }
    memcpy(c->salt, stream + 48, 32);
    c->salt_len = op->kind == BK_PBKDF2 || op->kind == BK_ARGON2 ? 16 : 32;
    memcpy(c->info, stream + 80, 16);
    c->info_len = 16;
}

/* ---- through the public API ---- */

static int import_secret(bench_cell *c, webcrypto_algorithm alg, webcrypto_algorithm hash,
                         const uint8_t *bytes, size_t len, unsigned usages) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .hash = hash);
    /* raw-secret for the draft's new algorithms, which have no raw */
    webcrypto_key_format f = webcrypto_algorithm_has_format(alg, WEBCRYPTO_FORMAT_RAW)
                                 ? WEBCRYPTO_FORMAT_RAW
                                 : WEBCRYPTO_FORMAT_RAW_SECRET;
    webcrypto_status st = webcrypto_import_key(c->backend, f, bytes, len, &p, false, usages,
                                               &c->key);
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
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
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

/* KMAC: a 32-byte key, a 256-bit MAC without customization. */
static int wc_setup_kmac(bench_cell *c) {
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = c->op->alg, .output_length = 256);
    c->out_cap = 32;
    return import_secret(c, c->op->alg, WEBCRYPTO_ALG_NONE, c->key_bytes, c->key_len,
                         WEBCRYPTO_USAGE_SIGN);
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
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = c->op->alg);
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
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = c->op->alg, .length = c->op->key_bits);
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
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = c->op->alg);
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
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF,
                                                   .hash = c->op->hash,
                                                   .salt = c->salt,
                                                   .salt_len = c->salt_len,
                                                   .info = c->info,
                                                   .info_len = c->info_len);
    c->out_cap = 32;
    return import_secret(c, WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, c->data, c->size,
                         WEBCRYPTO_USAGE_DERIVE_BITS);
}

/* PBKDF2: 16-byte password, 16-byte salt, --pbkdf2-iterations, 32 bytes out. */
static int wc_setup_pbkdf2(bench_cell *c) {
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2,
                                                   .hash = c->op->hash,
                                                   .salt = c->salt,
                                                   .salt_len = c->salt_len,
                                                   .iterations = c->pbkdf2_iterations);
    c->out_cap = 32;
    return import_secret(c, WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE, c->key_bytes, c->key_len,
                         WEBCRYPTO_USAGE_DERIVE_BITS);
}

static int wc_run_derive(const bench_cell *c, uint8_t *out, size_t *out_len) {
    size_t dlen = 0;
    webcrypto_status st = webcrypto_derive_bits(&c->params, c->key, 256, out, c->out_cap, &dlen);
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

/* ---- asymmetric keys, generated once per process ---- */

static bench_keypair key_cache[BKF_COUNT];

static bench_key_family key_family(const bench_op *op, bool peer) {
    if (op->alg == WEBCRYPTO_ALG_ECDSA || op->alg == WEBCRYPTO_ALG_ECDH) {
        int i = op->curve == WEBCRYPTO_CURVE_P384 ? 1 : op->curve == WEBCRYPTO_CURVE_P521 ? 2 : 0;
        return (bench_key_family)((peer ? BKF_P256_PEER : BKF_P256) + i);
    }
    if (op->alg == WEBCRYPTO_ALG_ED25519) return BKF_ED25519;
    if (op->alg == WEBCRYPTO_ALG_X25519) return peer ? BKF_X25519_PEER : BKF_X25519;
    if (op->alg == WEBCRYPTO_ALG_ED448) return BKF_ED448;
    if (op->alg == WEBCRYPTO_ALG_X448) return peer ? BKF_X448_PEER : BKF_X448;
    if (op->alg == WEBCRYPTO_ALG_ML_DSA_65) return BKF_ML_DSA_65;
    return BKF_RSA2048; /* the RSA algorithms */
}

static const char *const family_names[BKF_COUNT] = {
    "rsa-2048", "p-256", "p-384", "p-521", "p-256 peer", "p-384 peer", "p-521 peer",
    "ed25519", "x25519", "x25519 peer", "ed448", "x448", "x448 peer", "ml-dsa-65"};

/* One pair of family f, generated as an extractable key of a signing (or,
 * for X25519, deriving) algorithm: pkcs8 and spki are the same whichever
 * algorithm of the key type then imports them (WebCrypto's rsaEncryption and
 * id-ecPublicKey identifiers). */
static int generate_pair(bench_key_family f, const webcrypto_backend *b, bench_keypair *kp) {
    static const uint8_t f4[] = {1, 0, 1};
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA);
    unsigned usages = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    switch (f) {
    case BKF_RSA2048:
        p = (webcrypto_params)WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
                                               .hash = WEBCRYPTO_ALG_SHA_256,
                                               .modulus_length = 2048,
                                               .public_exponent = f4,
                                               .public_exponent_len = sizeof f4);
        break;
    case BKF_P256:
    case BKF_P256_PEER: p.named_curve = WEBCRYPTO_CURVE_P256; break;
    case BKF_P384:
    case BKF_P384_PEER: p.named_curve = WEBCRYPTO_CURVE_P384; break;
    case BKF_P521:
    case BKF_P521_PEER: p.named_curve = WEBCRYPTO_CURVE_P521; break;
    case BKF_ED25519: p.name = WEBCRYPTO_ALG_ED25519; break;
    case BKF_X25519:
    case BKF_X25519_PEER:
        p.name = WEBCRYPTO_ALG_X25519;
        usages = WEBCRYPTO_USAGE_DERIVE_BITS;
        break;
    case BKF_ED448: p.name = WEBCRYPTO_ALG_ED448; break;
    case BKF_X448:
    case BKF_X448_PEER:
        p.name = WEBCRYPTO_ALG_X448;
        usages = WEBCRYPTO_USAGE_DERIVE_BITS;
        break;
    case BKF_ML_DSA_65: p.name = WEBCRYPTO_ALG_ML_DSA_65; break;
    case BKF_COUNT: bench_fail("no key family %d", (int)f); return -1;
    }
    webcrypto_key *pub = NULL, *priv = NULL;
    webcrypto_status st = webcrypto_generate_key_pair(b, &p, true, usages, &pub, &priv);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("generating the benchmark's key pair", st);
        return -1;
    }
    st = webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, priv, &kp->pkcs8, &kp->pkcs8_len);
    if (st == WEBCRYPTO_OK)
        st = webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, pub, &kp->spki, &kp->spki_len);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    if (st != WEBCRYPTO_OK) {
        webcrypto_buffer_free(kp->pkcs8, kp->pkcs8_len);
        *kp = (bench_keypair){0};
        bench_fail_wc("exporting the benchmark's key pair", st);
        return -1;
    }
    snprintf(kp->origin, sizeof kp->origin, "%s", webcrypto_backend_name(b));
    return 0;
}

const bench_keypair *bench_keys_get(const bench_op *op, bool peer,
                                    const webcrypto_backend *backend) {
    bench_keypair *kp = &key_cache[key_family(op, peer)];
    if (kp->pkcs8) return kp;
    if (!backend) {
        webcrypto_status st = webcrypto_backend_get(NULL, &backend);
        if (st != WEBCRYPTO_OK) {
            bench_fail_wc("the default backend", st);
            return NULL;
        }
    }
    return generate_pair(key_family(op, peer), backend, kp) ? NULL : kp;
}

void bench_keys_describe(char *buf, size_t cap) {
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < BKF_COUNT && used < cap; i++) {
        if (!key_cache[i].pkcs8) continue;
        int w = snprintf(buf + used, cap - used, "%s%s (%s)", used ? ", " : "", family_names[i],
                         key_cache[i].origin);
        if (w < 0) break;
        used += (size_t)w;
    }
}

bench_keypair *bench_keys_slot(bench_key_family f) { return &key_cache[f]; }

void bench_keys_free(void) {
    for (size_t i = 0; i < BKF_COUNT; i++) {
        webcrypto_buffer_free(key_cache[i].pkcs8, key_cache[i].pkcs8_len);
        webcrypto_buffer_free(key_cache[i].spki, key_cache[i].spki_len);
        key_cache[i] = (bench_keypair){0};
    }
}

/* ---- asymmetric operations through the public API ---- */

/* The usages of the private and the public key for op's algorithm. */
static void pkey_usages(webcrypto_algorithm alg, unsigned *priv, unsigned *pub) {
    if (alg == WEBCRYPTO_ALG_RSA_OAEP) {
        *priv = WEBCRYPTO_USAGE_DECRYPT;
        *pub = WEBCRYPTO_USAGE_ENCRYPT;
    } else if (alg == WEBCRYPTO_ALG_ECDH || alg == WEBCRYPTO_ALG_X25519 ||
               alg == WEBCRYPTO_ALG_X448) {
        *priv = WEBCRYPTO_USAGE_DERIVE_BITS;
        *pub = 0; /* a key-agreement public key has no usage */
    } else { /* the signature algorithms */
        *priv = WEBCRYPTO_USAGE_SIGN;
        *pub = WEBCRYPTO_USAGE_VERIFY;
    }
}

static webcrypto_params pkey_import_params(const bench_op *op) {
    return (webcrypto_params)WEBCRYPTO_PARAMS(.name = op->alg, .hash = op->hash, .named_curve = op->curve);
}

/* Imports the pair's private key (pkcs8) and public key (spki). */
static int import_pair(const bench_cell *c, const bench_keypair *kp, webcrypto_key **priv,
                       webcrypto_key **pub) {
    webcrypto_params p = pkey_import_params(c->op);
    unsigned upriv, upub;
    pkey_usages(c->op->alg, &upriv, &upub);
    webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_PKCS8, kp->pkcs8,
                                               kp->pkcs8_len, &p, false, upriv, priv);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("importKey pkcs8", st);
        return -1;
    }
    st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_SPKI, kp->spki, kp->spki_len, &p, true,
                              upub, pub);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("importKey spki", st);
        return -1;
    }
    return 0;
}

static void wc_teardown_pkey(bench_cell *c) {
    webcrypto_key_free(c->key2);
    c->key2 = NULL;
    webcrypto_key_free(c->peer);
    c->peer = NULL;
    wc_teardown(c);
}

/* The operation's parameters: RSA-PSS's salt is the hash's size (the usual
 * choice, RFC 8017 9.1); ECDSA's hash is per call. */
static webcrypto_params pkey_op_params(const bench_op *op) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = op->alg);
    if (op->alg == WEBCRYPTO_ALG_RSA_PSS) p.salt_length = webcrypto_digest_size(op->hash);
    if (op->alg == WEBCRYPTO_ALG_ECDSA) p.hash = op->hash;
    return p;
}

static int wc_run_pkey_sign(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st =
        webcrypto_sign(&c->params, c->key, c->msg, c->msg_len, out, c->out_cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("sign", st);
        return -1;
    }
    return 0;
}

static int wc_run_pkey_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st =
        webcrypto_encrypt(&c->params, c->key, c->msg, c->msg_len, out, c->out_cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("encrypt", st);
        return -1;
    }
    return 0;
}

/* Sign, verify, encrypt, decrypt: c->key is the key the timed call uses,
 * c->key2 the other one (check(), and making the verify/decrypt input). */
static int wc_setup_pkey(bench_cell *c) {
    const bench_keypair *kp = bench_keys_get(c->op, false, c->backend);
    if (!kp) return -1;
    webcrypto_key *priv = NULL, *pub = NULL;
    int r = import_pair(c, kp, &priv, &pub);
    bool uses_public = c->op->kind == BK_PKEY_VERIFY || c->op->kind == BK_PKEY_ENCRYPT;
    c->key = uses_public ? pub : priv;
    c->key2 = uses_public ? priv : pub;
    if (r) return -1;
    c->params = pkey_op_params(c->op);
    /* RSA: the modulus' size; ECDSA: 2 x 66 bytes at most; Ed25519: 64;
     * Ed448: 114; ML-DSA-65: 3309. */
    c->out_cap = c->op->alg == WEBCRYPTO_ALG_ML_DSA_65 ? 3309 : 512;
    if (c->op->kind == BK_PKEY_VERIFY || c->op->kind == BK_PKEY_DECRYPT) {
        c->aux = malloc(c->out_cap);
        if (!c->aux) {
            bench_fail("out of memory");
            return -1;
        }
        /* The input to check, made by this target with the other key. */
        bench_cell maker = *c;
        maker.key = c->key2;
        int m = c->op->kind == BK_PKEY_VERIFY ? wc_run_pkey_sign(&maker, c->aux, &c->aux_len)
                                              : wc_run_pkey_encrypt(&maker, c->aux, &c->aux_len);
        if (m) return -1;
    }
    return 0;
}

/* verify (the timed call) and check (another target's signature) */
static int pkey_verify_with(const bench_cell *c, const webcrypto_key *key, const uint8_t *sig,
                            size_t sig_len) {
    bool valid = false;
    webcrypto_status st =
        webcrypto_verify(&c->params, key, sig, sig_len, c->msg, c->msg_len, &valid);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("verify", st);
        return -1;
    }
    if (!valid) {
        bench_fail("verify: a correct signature did not verify");
        return -1;
    }
    return 0;
}

static int wc_run_pkey_verify(const bench_cell *c, uint8_t *out, size_t *out_len) {
    if (pkey_verify_with(c, c->key, c->aux, c->aux_len)) return -1;
    out[0] = 1;
    *out_len = 1;
    return 0;
}

static int wc_check_pkey_sign(const bench_cell *c, const uint8_t *sig, size_t sig_len) {
    return pkey_verify_with(c, c->key2, sig, sig_len);
}

static int pkey_decrypt_with(const bench_cell *c, const webcrypto_key *key, const uint8_t *in,
                             size_t in_len, uint8_t *out, size_t cap, size_t *out_len) {
    webcrypto_status st = webcrypto_decrypt(&c->params, key, in, in_len, out, cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("decrypt", st);
        return -1;
    }
    return 0;
}

static int wc_run_pkey_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return pkey_decrypt_with(c, c->key, c->aux, c->aux_len, out, c->out_cap, out_len);
}

static int wc_check_pkey_encrypt(const bench_cell *c, const uint8_t *ct, size_t ct_len) {
    uint8_t pt[512];
    size_t n = 0;
    if (pkey_decrypt_with(c, c->key2, ct, ct_len, pt, sizeof pt, &n)) return -1;
    if (n != c->msg_len || memcmp(pt, c->msg, n) != 0) {
        bench_fail("decrypt: the plaintext is not the message");
        return -1;
    }
    return 0;
}

/* ECDH, X25519: our private key, the peer pair's public key. */
static int wc_setup_pkey_derive(bench_cell *c) {
    const bench_keypair *mine = bench_keys_get(c->op, false, c->backend);
    const bench_keypair *theirs = mine ? bench_keys_get(c->op, true, c->backend) : NULL;
    if (!theirs) return -1;
    if (import_pair(c, mine, &c->key, &c->key2)) return -1;
    webcrypto_params p = pkey_import_params(c->op);
    webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_SPKI, theirs->spki,
                                               theirs->spki_len, &p, true, 0, &c->peer);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("importKey spki (peer)", st);
        return -1;
    }
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = c->op->alg, .public_key = c->peer);
    c->out_cap = 66; /* P-521 */
    /* The secret's size, found here so that the timed call is deriveBits
     * alone. */
    webcrypto_named_curve curve = webcrypto_key_get_named_curve(c->key);
    c->aux_len = c->op->alg == WEBCRYPTO_ALG_X448       ? 56
                 : curve == WEBCRYPTO_CURVE_P384 ? 48
                 : curve == WEBCRYPTO_CURVE_P521 ? 66
                                                 : 32;
    return 0;
}

static int wc_run_pkey_derive(const bench_cell *c, uint8_t *out, size_t *out_len) {
    size_t dlen = 0;
    webcrypto_status st =
        webcrypto_derive_bits(&c->params, c->key, WEBCRYPTO_LENGTH_FULL, out, c->out_cap, &dlen);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("deriveBits", st);
        return -1;
    }
    *out_len = c->aux_len;
    return 0;
}

static int wc_setup_pkey_generate(bench_cell *c) {
    static const uint8_t f4[] = {1, 0, 1};
    c->params = pkey_import_params(c->op);
    if (c->op->key_bits) {
        c->params.modulus_length = c->op->key_bits;
        c->params.public_exponent = f4;
        c->params.public_exponent_len = sizeof f4;
    }
    c->out_cap = 1;
    return 0;
}

static int wc_run_pkey_generate(const bench_cell *c, uint8_t *out, size_t *out_len) {
    (void)out;
    unsigned priv, pub;
    pkey_usages(c->op->alg, &priv, &pub);
    webcrypto_key *pk = NULL, *sk = NULL;
    webcrypto_status st =
        webcrypto_generate_key_pair(c->backend, &c->params, false, priv | pub, &pk, &sk);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("generateKey", st);
        return -1;
    }
    webcrypto_key_free(pk);
    webcrypto_key_free(sk);
    *out_len = 0;
    return 0;
}

/* ---- Argon2id ----
 * The password is the key stream's first 16 bytes, the nonce its salt (16
 * bytes); 19456 KiB, 2 passes, 1 lane, 256 bits out. */
static int wc_setup_argon2(bench_cell *c) {
    c->params = (webcrypto_params)WEBCRYPTO_PARAMS(.name = c->op->alg, .nonce = c->salt,
                                                   .nonce_len = c->salt_len, .parallelism = 1,
                                                   .memory = 19456, .passes = 2);
    c->out_cap = 32;
    return import_secret(c, c->op->alg, WEBCRYPTO_ALG_NONE, c->key_bytes, c->key_len,
                         WEBCRYPTO_USAGE_DERIVE_BITS);
}

/* ---- ML-KEM ----
 * Every target imports the same 64-byte seed (d || z: the key stream's
 * first 64 bytes). The decapsulated ciphertext is made once per process, by
 * the first target that needs it, so that every target's output is the
 * same shared key (compared across targets). */
static uint8_t kem_ct[1568], kem_ss[32];
static size_t kem_ct_len;

void bench_kem_state(uint8_t **ct, size_t **ct_len, uint8_t **ss) {
    *ct = kem_ct;
    *ct_len = &kem_ct_len;
    *ss = kem_ss;
}

static int kem_keys(bench_cell *c) {
    uint8_t seed[64];
    bench_stream(BENCH_KEY_SEED, seed, sizeof seed);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = c->op->alg);
    webcrypto_status st = webcrypto_import_key(
        c->backend, WEBCRYPTO_FORMAT_RAW_SEED, seed, sizeof seed, &p, false,
        WEBCRYPTO_USAGE_DECAPSULATE_BITS, &c->key2);
    memset(seed, 0, sizeof seed);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("importKey raw-seed", st);
        return -1;
    }
    st = webcrypto_get_public_key(c->key2, WEBCRYPTO_USAGE_ENCAPSULATE_BITS, &c->key);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("getPublicKey", st);
        return -1;
    }
    c->params = p;
    return 0;
}

static int wc_run_encapsulate(const bench_cell *c, uint8_t *out, size_t *out_len) {
    size_t ct_len = 0, ss_len = 0;
    size_t ct_cap = webcrypto_kem_ciphertext_size(c->op->alg);
    webcrypto_status st = webcrypto_encapsulate_bits(&c->params, c->key, out, ct_cap, &ct_len,
                                                     out + ct_cap, c->out_cap - ct_cap, &ss_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("encapsulateBits", st);
        return -1;
    }
    *out_len = ct_len + ss_len;
    return 0;
}

static int wc_run_decapsulate(const bench_cell *c, uint8_t *out, size_t *out_len) {
    webcrypto_status st = webcrypto_decapsulate_bits(&c->params, c->key2, c->aux, c->aux_len, out,
                                                     c->out_cap, out_len);
    if (st != WEBCRYPTO_OK) {
        bench_fail_wc("decapsulateBits", st);
        return -1;
    }
    return 0;
}

static int wc_setup_kem(bench_cell *c) {
    if (kem_keys(c)) return -1;
    size_t ct_size = webcrypto_kem_ciphertext_size(c->op->alg);
    c->out_cap = c->op->kind == BK_KEM_ENCAPSULATE ? ct_size + 32 : 32;
    if (c->op->kind == BK_KEM_ENCAPSULATE) return 0;
    if (!kem_ct_len) {
        /* the process's ciphertext: this target's encapsulation */
        uint8_t both[1568 + 32];
        size_t n = 0;
        bench_cell maker = *c;
        maker.out_cap = ct_size + 32;
        if (wc_run_encapsulate(&maker, both, &n)) return -1;
        memcpy(kem_ct, both, ct_size);
        memcpy(kem_ss, both + ct_size, 32);
        kem_ct_len = ct_size;
    }
    c->aux = malloc(kem_ct_len);
    if (!c->aux) {
        bench_fail("out of memory");
        return -1;
    }
    memcpy(c->aux, kem_ct, kem_ct_len);
    c->aux_len = kem_ct_len;
    /* this target decapsulates it to the encapsulated key */
    uint8_t ss[32];
    size_t n = 0;
    if (wc_run_decapsulate(c, ss, &n)) return -1;
    if (n != 32 || memcmp(ss, kem_ss, 32) != 0) {
        bench_fail("decapsulateBits: not the encapsulated key");
        return -1;
    }
    return 0;
}

static void wc_teardown_kem(bench_cell *c) {
    webcrypto_key_free(c->key2);
    c->key2 = NULL;
    wc_teardown(c);
}

/* Per kind: {setup, run, teardown, check, batch}, as in bench_impl. */
static const bench_impl wc_impls[BK_COUNT] = {
    [BK_DIGEST] = {wc_setup_digest, wc_run_digest, wc_teardown, NULL, NULL},
    [BK_HMAC_SIGN] = {wc_setup_hmac, wc_run_sign, wc_teardown, NULL, NULL},
    [BK_HMAC_VERIFY] = {wc_setup_hmac, wc_run_verify, wc_teardown, NULL, NULL},
    [BK_ENCRYPT] = {wc_setup_cipher, wc_run_encrypt, wc_teardown, NULL, NULL},
    [BK_DECRYPT] = {wc_setup_cipher, wc_run_decrypt, wc_teardown, NULL, NULL},
    [BK_GENERATE_KEY] = {wc_setup_keyop, wc_run_generate, wc_teardown, NULL, NULL},
    [BK_IMPORT_KEY] = {wc_setup_keyop, wc_run_import, wc_teardown, NULL, NULL},
    [BK_HKDF] = {wc_setup_hkdf, wc_run_derive, wc_teardown, NULL, NULL},
    [BK_PBKDF2] = {wc_setup_pbkdf2, wc_run_derive, wc_teardown, NULL, NULL},
    [BK_KMAC_SIGN] = {wc_setup_kmac, wc_run_sign, wc_teardown, NULL, NULL},
    [BK_RANDOM] = {wc_setup_random, wc_run_random, wc_teardown, NULL, NULL},
    [BK_PKEY_SIGN] = {wc_setup_pkey, wc_run_pkey_sign, wc_teardown_pkey, wc_check_pkey_sign, NULL},
    [BK_PKEY_VERIFY] = {wc_setup_pkey, wc_run_pkey_verify, wc_teardown_pkey, NULL, NULL},
    [BK_PKEY_ENCRYPT] = {wc_setup_pkey, wc_run_pkey_encrypt, wc_teardown_pkey,
                         wc_check_pkey_encrypt, NULL},
    [BK_PKEY_DECRYPT] = {wc_setup_pkey, wc_run_pkey_decrypt, wc_teardown_pkey, NULL, NULL},
    [BK_PKEY_DERIVE] = {wc_setup_pkey_derive, wc_run_pkey_derive, wc_teardown_pkey, NULL, NULL},
    [BK_PKEY_GENERATE] = {wc_setup_pkey_generate, wc_run_pkey_generate, wc_teardown, NULL, NULL},
    [BK_KEM_ENCAPSULATE] = {wc_setup_kem, wc_run_encapsulate, wc_teardown_kem, NULL, NULL},
    [BK_KEM_DECAPSULATE] = {wc_setup_kem, wc_run_decapsulate, wc_teardown_kem, NULL, NULL},
    [BK_ARGON2] = {wc_setup_argon2, wc_run_derive, wc_teardown, NULL, NULL},
};

const bench_impl *bench_wc_impl(const bench_op *op) {
    const bench_impl *i = &wc_impls[op->kind];
    return i->run ? i : NULL;
}
