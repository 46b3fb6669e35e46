/*
 * openssl_argon2.c - Argon2 (RFC 9106) for the openssl backend, from
 * libargon2 (built only with it).
 */
#include <openssl/evp.h>

#if WEBCRYPTO_HAVE_LIBARGON2
#include <argon2.h>
#endif

#include "core/backend.h"
#include "openssl_internal.h"

/* ---- Argon2 (RFC 9106), from libargon2 ----
 * The reference implementation's argon2_ctx, which takes the secret and the
 * associated data. It runs up to ARGON2_THREADS threads of its own per call
 * (pthreads it joins before returning) when parallelism > 1; the lanes, and
 * so the result, do not depend on the thread count. */
#if WEBCRYPTO_HAVE_LIBARGON2
#define ARGON2_THREADS 4u

webcrypto_status wc_ossl_argon2(const void *bctx, wc_kdf kind, const uint8_t *password,
                                size_t password_len, const uint8_t *nonce, size_t nonce_len,
                                const uint8_t *secret, size_t secret_len, const uint8_t *ad,
                                size_t ad_len, uint32_t parallelism, uint32_t memory,
                                uint32_t passes, uint32_t version, uint8_t *out,
                                size_t out_len) {
    (void)bctx;
    argon2_type type = Argon2_id;
    switch (kind) {
    case WC_KDF_ARGON2D: type = Argon2_d; break;
    case WC_KDF_ARGON2I: type = Argon2_i; break;
    case WC_KDF_ARGON2ID: type = Argon2_id; break;
    case WC_KDF_HKDF:
    case WC_KDF_PBKDF2:
    case WC_KDF_COUNT:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: not an Argon2 type");
    }
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
