/*
 * openssl_argon2.c - Argon2 (RFC 9106) for the openssl backend: libargon2
 * where the backend was built with it, else OpenSSL's own KDFs ("ARGON2D",
 * "ARGON2I", "ARGON2ID", OpenSSL 3.2+) where they derive RFC 9106's vectors
 * exactly at init. libargon2 comes first: OpenSSL's is no faster with one
 * lane and runs several lanes on one thread (docs/BENCHMARKS.md, "AES-GCM-SIV
 * and Argon2 on OpenSSL 3.2+"). WEBCRYPTO_OPENSSL_ARGON2=openssl or
 * =libargon2 forces one (and then no Argon2 at all without it), so that
 * tests hold the two to the same bytes. The KDF names and parameter keys
 * are strings: this builds with OpenSSL 3.0's headers and finds the KDFs
 * when a 3.2+ libcrypto is loaded.
 */
#define _GNU_SOURCE /* secure_getenv: a setuid program's environment is not trusted */
#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#ifndef WEBCRYPTO_HAVE_LIBARGON2
#define WEBCRYPTO_HAVE_LIBARGON2 0
#endif
#if WEBCRYPTO_HAVE_LIBARGON2
#include <argon2.h>
#endif

#include "core/backend.h"
#include "openssl_argon2.h"
#include "openssl_internal.h"

/* OpenSSL's KDFs by type (d, i, id) when chosen at init, else NULL. */
static EVP_KDF *ossl_kdf[3];

static size_t type_index(wc_kdf kind) {
    switch (kind) {
    case WC_KDF_ARGON2D: return 0;
    case WC_KDF_ARGON2I: return 1;
    case WC_KDF_ARGON2ID: return 2;
    case WC_KDF_HKDF:
    case WC_KDF_PBKDF2:
    case WC_KDF_COUNT: break;
    }
    return 3;
}

/* ---- OpenSSL's Argon2 ----
 * One KDF context per call, holding OpenSSL's copies of the inputs until it
 * is freed. The lanes run on one thread: OpenSSL runs more only from a
 * thread pool the application sets up (OSSL_set_max_threads), which a
 * library must not do for it. */
static webcrypto_status ossl_argon2(EVP_KDF *kdf, const uint8_t *password, size_t password_len,
                                    const uint8_t *nonce, size_t nonce_len,
                                    const uint8_t *secret, size_t secret_len, const uint8_t *ad,
                                    size_t ad_len, uint32_t parallelism, uint32_t memory,
                                    uint32_t passes, uint32_t version, uint8_t *out,
                                    size_t out_len) {
    OSSL_PARAM params[9], *p = params;
    *p++ = OSSL_PARAM_construct_octet_string(
        "pass", (void *)(password_len ? password : wc_ossl_empty_buf), password_len);
    *p++ = OSSL_PARAM_construct_octet_string("salt", (void *)nonce, nonce_len);
    if (secret_len) *p++ = OSSL_PARAM_construct_octet_string("secret", (void *)secret, secret_len);
    if (ad_len) *p++ = OSSL_PARAM_construct_octet_string("ad", (void *)ad, ad_len);
    *p++ = OSSL_PARAM_construct_uint32("iter", &passes);
    *p++ = OSSL_PARAM_construct_uint32("lanes", &parallelism);
    *p++ = OSSL_PARAM_construct_uint32("memcost", &memory);
    *p++ = OSSL_PARAM_construct_uint32("version", &version);
    *p = OSSL_PARAM_construct_end();
    EVP_KDF_CTX *c = EVP_KDF_CTX_new(kdf);
    if (!c) return wc_ossl_no_memory("EVP_KDF_CTX_new (Argon2)");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_KDF_derive(c, out, out_len, params) != 1) st = wc_ossl_fail("EVP_KDF_derive (Argon2)");
    EVP_KDF_CTX_free(c);
    return st;
}

/* RFC 9106 section 5's vectors: password 32 x 01, salt 16 x 02, secret
 * 8 x 03, associated data 12 x 04, 4 lanes, 32 KiB, 3 passes, version 0x13;
 * Argon2d, Argon2i, Argon2id. */
static const uint8_t rfc9106_tags[3][32] = {
    {0x51, 0x2b, 0x39, 0x1b, 0x6f, 0x11, 0x62, 0x97, 0x53, 0x71, 0xd3, 0x09, 0x19, 0x73, 0x42, 0x94,
     0xf8, 0x68, 0xe3, 0xbe, 0x39, 0x84, 0xf3, 0xc1, 0xa1, 0x3a, 0x4d, 0xb9, 0xfa, 0xbe, 0x4a,
     0xcb},
    {0xc8, 0x14, 0xd9, 0xd1, 0xdc, 0x7f, 0x37, 0xaa, 0x13, 0xf0, 0xd7, 0x7f, 0x24, 0x94, 0xbd, 0xa1,
     0xc8, 0xde, 0x6b, 0x01, 0x6d, 0xd3, 0x88, 0xd2, 0x99, 0x52, 0xa4, 0xc4, 0x67, 0x2b, 0x6c,
     0xe8},
    {0x0d, 0x64, 0x0d, 0xf5, 0x8d, 0x78, 0x76, 0x6c, 0x08, 0xc0, 0x37, 0xa3, 0x4a, 0x8b, 0x53, 0xc9,
     0xd0, 0x1e, 0xf0, 0x45, 0x2d, 0x75, 0xb6, 0x5e, 0xb5, 0x25, 0x20, 0xe9, 0x6b, 0x01, 0xe6,
     0x59},
};

/* Fetches OpenSSL's three Argon2 KDFs into ossl_kdf if each derives its
 * RFC 9106 vector exactly; otherwise leaves none. */
static bool ossl_probe(void) {
    static const char *const names[3] = {"ARGON2D", "ARGON2I", "ARGON2ID"};
    uint8_t pw[32], salt[16], secret[8], ad[12], out[32];
    memset(pw, 0x01, sizeof pw);
    memset(salt, 0x02, sizeof salt);
    memset(secret, 0x03, sizeof secret);
    memset(ad, 0x04, sizeof ad);
    bool ok = true;
    for (size_t i = 0; ok && i < 3; i++) {
        ossl_kdf[i] = EVP_KDF_fetch(NULL, names[i], NULL);
        ok = ossl_kdf[i] &&
             ossl_argon2(ossl_kdf[i], pw, sizeof pw, salt, sizeof salt, secret, sizeof secret, ad,
                         sizeof ad, 4, 32, 3, 0x13, out, sizeof out) == WEBCRYPTO_OK &&
             memcmp(out, rfc9106_tags[i], sizeof out) == 0;
    }
    if (!ok) {
        for (size_t i = 0; i < 3; i++) {
            EVP_KDF_free(ossl_kdf[i]);
            ossl_kdf[i] = NULL;
        }
    }
    ERR_clear_error();
    return ok;
}

bool wc_ossl_argon2_init(void) {
    const char *want = secure_getenv("WEBCRYPTO_OPENSSL_ARGON2");
    if (want && strcmp(want, "openssl") == 0) return ossl_probe();
    if (WEBCRYPTO_HAVE_LIBARGON2 || (want && strcmp(want, "libargon2") == 0))
        return WEBCRYPTO_HAVE_LIBARGON2;
    return ossl_probe(); /* a build without libargon2 */
}

/* ---- libargon2 ----
 * The reference implementation's argon2_ctx, which takes the secret and the
 * associated data. It runs up to ARGON2_THREADS threads of its own per call
 * (pthreads it joins before returning) when parallelism > 1; the lanes, and
 * so the result, do not depend on the thread count. */
#if WEBCRYPTO_HAVE_LIBARGON2
#define ARGON2_THREADS 4u

static webcrypto_status lib_argon2(argon2_type type, const uint8_t *password, size_t password_len,
                                   const uint8_t *nonce, size_t nonce_len, const uint8_t *secret,
                                   size_t secret_len, const uint8_t *ad, size_t ad_len,
                                   uint32_t parallelism, uint32_t memory, uint32_t passes,
                                   uint32_t version, uint8_t *out, size_t out_len) {
    /* libargon2 takes non-const pointers but, without the ARGON2_FLAG_CLEAR_*
     * flags, only reads them; an empty input still needs a non-NULL pointer
     * for its checks. */
    argon2_context ctx = {
        .out = out,
        .outlen = (uint32_t)out_len,
        .pwd = (uint8_t *)(password_len ? password : wc_ossl_empty_buf),
        .pwdlen = (uint32_t)password_len,
        .salt = (uint8_t *)nonce,
        .saltlen = (uint32_t)nonce_len,
        .secret = secret_len ? (uint8_t *)secret : NULL,
        .secretlen = (uint32_t)secret_len,
        .ad = ad_len ? (uint8_t *)ad : NULL,
        .adlen = (uint32_t)ad_len,
        .t_cost = passes,
        .m_cost = memory,
        .lanes = parallelism,
        .threads = parallelism < ARGON2_THREADS ? parallelism : ARGON2_THREADS,
        .version = version,
        .allocate_cbk = NULL,
        .free_cbk = NULL,
        .flags = ARGON2_DEFAULT_FLAGS,
    };
    int rc = argon2_ctx(&ctx, type); /* wipes its memory blocks (clear_internal_memory) */
    if (rc == ARGON2_OK) return WEBCRYPTO_OK;
    if (rc == ARGON2_MEMORY_ALLOCATION_ERROR)
        return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "Argon2: cannot allocate %u KiB", memory);
    return wc_error(WEBCRYPTO_ERR_OPERATION, "libargon2: %s", argon2_error_message(rc));
}
#endif

webcrypto_status wc_ossl_argon2(const void *bctx, wc_kdf kind, const uint8_t *password,
                                size_t password_len, const uint8_t *nonce, size_t nonce_len,
                                const uint8_t *secret, size_t secret_len, const uint8_t *ad,
                                size_t ad_len, uint32_t parallelism, uint32_t memory,
                                uint32_t passes, uint32_t version, uint8_t *out,
                                size_t out_len) {
    (void)bctx;
    size_t i = type_index(kind);
    if (i > 2) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: not an Argon2 type");
    if (ossl_kdf[i])
        return ossl_argon2(ossl_kdf[i], password, password_len, nonce, nonce_len, secret,
                           secret_len, ad, ad_len, parallelism, memory, passes, version, out,
                           out_len);
#if WEBCRYPTO_HAVE_LIBARGON2
    static const argon2_type types[3] = {Argon2_d, Argon2_i, Argon2_id};
    return lib_argon2(types[i], password, password_len, nonce, nonce_len, secret, secret_len, ad,
                      ad_len, parallelism, memory, passes, version, out, out_len);
#else
    /* init offered no Argon2: the core never calls this */
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no Argon2 in this process");
#endif
}
