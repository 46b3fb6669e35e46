/* SubtleCrypto.digest, one-shot and incremental. */
#include <stdlib.h>

#include "core.h"

struct webcrypto_digest_ctx {
    const webcrypto_backend *backend;
    webcrypto_algorithm hash;
    void *impl;
    bool finished;
};

static webcrypto_status check_digest(const webcrypto_backend *backend,
                                     webcrypto_algorithm hash) {
    webcrypto_status st = wc_check_algorithm(backend, hash, "digest");
    if (st != WEBCRYPTO_OK) return st;
    if (!wc_is_hash(hash))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "digest: %s is not a digest algorithm",
                        webcrypto_algorithm_name(hash));
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_digest(const webcrypto_backend *backend, webcrypto_algorithm hash,
                                  const uint8_t *data, size_t data_len, uint8_t *out,
                                  size_t out_cap, size_t *out_len) {
    WC_REQUIRE(out_len, "digest: out_len must not be NULL");
    WC_REQUIRE(data || data_len == 0, "digest: data must not be NULL");
    webcrypto_status st = wc_backend_resolve(backend, &backend);
    if (st != WEBCRYPTO_OK) return st;
    /* One table lookup on the way that succeeds: at 64 B the separate checks
     * were a measurable share of the call (issue #15). check_digest gives
     * the error when any of these fails. */
    const wc_alg_info *a = wc_alg(hash);
    if (!a || a->family != WC_FAMILY_DIGEST || !wc_caps_has(&backend->caps, hash)) {
        if ((st = check_digest(backend, hash)) != WEBCRYPTO_OK) return st;
    }
    size_t n = a->digest_size;
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    st = backend->ops->digest(backend->bctx, a->member.hash, data, data_len, out);
    if (st == WEBCRYPTO_OK) *out_len = n;
    return st;
}

/* cSHAKE's outputLength in bits: required (0 is "absent" in this API).
 * An XOF's shorter output is a prefix of its longer one, so a length that
 * is not a multiple of 8 is the whole bytes that hold it, the unused low
 * bits of the last byte zero: the first bits in WebCrypto's order (as
 * deriveBits truncates), which is what Node 24 gives. */
static webcrypto_status xof_length(const webcrypto_params *alg, size_t *n) {
    if (alg->output_length == 0)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "digest: %s needs output_length (bits)",
                        webcrypto_algorithm_name(alg->name));
    *n = alg->output_length / 8 + (alg->output_length % 8 != 0);
    return WEBCRYPTO_OK;
}

webcrypto_status wc_digest_check(const webcrypto_backend *backend, const webcrypto_params *alg,
                                 size_t *n) {
    webcrypto_status st;
    if (wc_family_of(alg->name) != WC_FAMILY_XOF) {
        if ((st = check_digest(backend, alg->name)) == WEBCRYPTO_OK)
            *n = wc_alg(alg->name)->digest_size;
        return st;
    }
    if ((st = wc_check_algorithm(backend, alg->name, "digest")) != WEBCRYPTO_OK) return st;
    WC_REQUIRE(alg->function_name || alg->function_name_len == 0,
               "digest: function_name must not be NULL");
    WC_REQUIRE(alg->customization || alg->customization_len == 0,
               "digest: customization must not be NULL");
    if ((st = xof_length(alg, n)) != WEBCRYPTO_OK) return st;
    if ((alg->function_name_len || alg->customization_len) &&
        !(backend->caps.features & WC_CAP_CSHAKE_CUSTOM))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "digest: the %s backend has %s only with an empty function_name and "
                        "customization (SHAKE): its library has no cSHAKE",
                        backend->name, webcrypto_algorithm_name(alg->name));
    size_t fixed = wc_xof_fixed_bits(wc_xof_of(alg->name));
    if (!(backend->caps.features & WC_CAP_XOF_ANY_LENGTH) && alg->output_length != fixed)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "digest: the %s backend has %s only with output_length %zu, not %zu: its "
                        "provider's SHAKE has that fixed length",
                        backend->name, webcrypto_algorithm_name(alg->name), fixed,
                        alg->output_length);
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_digest_params(const webcrypto_backend *backend,
                                         const webcrypto_params *alg, const uint8_t *data,
                                         size_t data_len, uint8_t *out, size_t out_cap,
                                         size_t *out_len) {
    WC_PARAMS_IN(alg, "digest_params");
    WC_REQUIRE(alg && out_len, "digest_params: alg and out_len must not be NULL");
    WC_REQUIRE(data || data_len == 0, "digest: data must not be NULL");
    webcrypto_status st = wc_backend_resolve(backend, &backend);
    if (st != WEBCRYPTO_OK) return st;
    if (wc_family_of(alg->name) != WC_FAMILY_XOF)
        return webcrypto_digest(backend, alg->name, data, data_len, out, out_cap, out_len);
    size_t n = 0;
    if ((st = wc_digest_check(backend, alg, &n)) != WEBCRYPTO_OK) return st;
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    st = backend->ops->xof(backend->bctx, wc_xof_of(alg->name), alg->function_name,
                           alg->function_name_len, alg->customization, alg->customization_len,
                           data, data_len, out, n);
    if (st == WEBCRYPTO_OK && alg->output_length % 8)
        out[n - 1] &= (uint8_t)(0xff << (8 - alg->output_length % 8));
    if (st == WEBCRYPTO_OK) *out_len = n;
    return st;
}

webcrypto_status webcrypto_digest_init(const webcrypto_backend *backend,
                                       webcrypto_algorithm hash, webcrypto_digest_ctx **out) {
    WC_REQUIRE(out, "digest_init: out must not be NULL");
    webcrypto_status st = wc_backend_resolve(backend, &backend);
    if (st == WEBCRYPTO_OK) st = check_digest(backend, hash);
    if (st != WEBCRYPTO_OK) return st;
    webcrypto_digest_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "digest_init: out of memory");
    ctx->backend = backend;
    ctx->hash = hash;
    st = backend->ops->digest_new(backend->bctx, wc_hash_of(hash), &ctx->impl);
    if (st != WEBCRYPTO_OK) {
        free(ctx);
        return st;
    }
    *out = ctx;
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_digest_update(webcrypto_digest_ctx *ctx, const uint8_t *data,
                                         size_t data_len) {
    WC_REQUIRE(ctx, "digest_update: ctx must not be NULL");
    WC_REQUIRE(data || data_len == 0, "digest_update: data must not be NULL");
    WC_REQUIRE(!ctx->finished, "digest_update: the context is already finished");
    if (data_len == 0) return WEBCRYPTO_OK;
    return ctx->backend->ops->digest_update(ctx->impl, data, data_len);
}

webcrypto_status webcrypto_digest_final(webcrypto_digest_ctx *ctx, uint8_t *out,
                                        size_t out_cap, size_t *out_len) {
    WC_REQUIRE(ctx && out_len, "digest_final: ctx and out_len must not be NULL");
    WC_REQUIRE(!ctx->finished, "digest_final: the context is already finished");
    webcrypto_status st;
    size_t n = webcrypto_digest_size(ctx->hash);
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    ctx->finished = true;
    st = ctx->backend->ops->digest_final(ctx->impl, out);
    if (st == WEBCRYPTO_OK) *out_len = n;
    return st;
}

void webcrypto_digest_ctx_free(webcrypto_digest_ctx *ctx) {
    if (!ctx) return;
    ctx->backend->ops->digest_free(ctx->impl);
    free(ctx);
}
