/* SubtleCrypto.sign/verify for HMAC, one-shot and incremental. */
#include <stdlib.h>

#include "core.h"
#include "ct.h"

/* KMAC's outputLength (KmacParams): required, whole bytes; and its
 * customization. */
static webcrypto_status kmac_params_check(const webcrypto_backend *backend,
                                          const webcrypto_params *alg, const char *op) {
    if (alg->output_length == 0)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "%s: %s needs output_length (bits, a multiple of 8)", op,
                        webcrypto_algorithm_name(alg->name));
    /* KMAC's L is in its input: a length that is not whole bytes needs a
     * library that takes L in bits, which none here does (OpenSSL's KMAC
     * "size" is bytes); Node 24 has it. */
    if (alg->output_length % 8)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "%s: %s output_length %zu is not a multiple of 8 (the backends' KMAC "
                        "takes whole bytes)",
                        op, webcrypto_algorithm_name(alg->name), alg->output_length);
    if (!alg->customization && alg->customization_len)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: customization must not be NULL", op);
    /* backend.h: WC_CAP_KMAC_ANY (a JCA provider's KMAC has one length and
     * no customization) */
    size_t fixed = wc_kmac_fixed_bits(wc_kmac_of(alg->name));
    if (!(backend->caps.features & WC_CAP_KMAC_ANY) &&
        (alg->output_length != fixed || alg->customization_len))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "%s: the %s backend has %s only with output_length %zu and an empty "
                        "customization (its provider's KMAC fixes both), not output_length %zu "
                        "with %zu bytes of customization",
                        op, backend->name, webcrypto_algorithm_name(alg->name), fixed,
                        alg->output_length, alg->customization_len);
    return WEBCRYPTO_OK;
}

static webcrypto_status kmac_length(const webcrypto_params *alg, const webcrypto_key *key,
                                    const char *op, size_t *n) {
    /* alg->name is the key's algorithm: wc_check_key_op */
    webcrypto_status st = kmac_params_check(key->backend, alg, op);
    if (st == WEBCRYPTO_OK) *n = alg->output_length / 8;
    return st;
}

webcrypto_status wc_sign_check(const webcrypto_backend *backend, const webcrypto_params *alg) {
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_KMAC: return kmac_params_check(backend, alg, "sign");
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_DSA: return wc_pkey_sign_check(backend, alg);
    case WC_FAMILY_HMAC:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC: return WEBCRYPTO_OK; /* a hash: wc_normalize_op */
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_XOF:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "sign: not supported for %s",
                    webcrypto_algorithm_name(alg->name));
}

static webcrypto_status kmac_sign(const webcrypto_params *alg, const webcrypto_key *key,
                                  const uint8_t *data, size_t len, uint8_t *out, size_t out_cap,
                                  size_t *out_len) {
    size_t n = 0;
    webcrypto_status st = kmac_length(alg, key, "sign", &n);
    if (st != WEBCRYPTO_OK || wc_output_check(n, out, out_cap, out_len, &st)) return st;
    st = key->backend->ops->kmac(key->state, wc_kmac_of(key->alg), alg->customization,
                                 alg->customization_len, data, len, out, n);
    if (st == WEBCRYPTO_OK) *out_len = n;
    return st;
}

/* The MAC of outputLength bits, compared in constant time; a signature of
 * another length is simply not valid. */
static webcrypto_status kmac_verify(const webcrypto_params *alg, const webcrypto_key *key,
                                    const uint8_t *sig, size_t sig_len, const uint8_t *data,
                                    size_t len, bool *valid) {
    size_t n = 0;
    webcrypto_status st = kmac_length(alg, key, "verify", &n);
    if (st != WEBCRYPTO_OK) return st;
    uint8_t *mac = malloc(n);
    if (!mac) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "verify: out of memory");
    st = key->backend->ops->kmac(key->state, wc_kmac_of(key->alg), alg->customization,
                                 alg->customization_len, data, len, mac, n);
    if (st == WEBCRYPTO_OK) *valid = sig_len == n && wc_ct_public_bool(wc_equal_ct(mac, sig, n));
    webcrypto_buffer_free(mac, n);
    return st;
}

webcrypto_status webcrypto_sign(const webcrypto_params *alg, const webcrypto_key *key,
                                const uint8_t *data, size_t data_len, uint8_t *out,
                                size_t out_cap, size_t *out_len) {
    WC_PARAMS_IN(alg, "sign");
    WC_REQUIRE(out_len, "sign: out_len must not be NULL");
    WC_REQUIRE(data || data_len == 0, "sign: data must not be NULL");
    webcrypto_status st = wc_check_key_op(alg, key, WEBCRYPTO_USAGE_SIGN,
                                          WEBCRYPTO_USAGE_SIGN, "sign");
    if (st != WEBCRYPTO_OK) return st;
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_DSA: return wc_pkey_sign(alg, key, data, data_len, out, out_cap, out_len);
    case WC_FAMILY_KMAC: return kmac_sign(alg, key, data, data_len, out, out_cap, out_len);
    case WC_FAMILY_HMAC: break;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_DIGEST: /* no sign usage: wc_check_key_op refused them */
    case WC_FAMILY_XOF:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "sign: not supported for %s",
                        webcrypto_algorithm_name(key->alg));
    }
    size_t n = webcrypto_digest_size(key->hash);
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    st = key->backend->ops->hmac(key->state, data, data_len, out);
    if (st == WEBCRYPTO_OK) *out_len = n;
    return st;
}

webcrypto_status webcrypto_verify(const webcrypto_params *alg, const webcrypto_key *key,
                                  const uint8_t *signature, size_t signature_len,
                                  const uint8_t *data, size_t data_len, bool *valid) {
    if (valid) *valid = false; /* fail safe for a caller that reads only *valid */
    WC_PARAMS_IN(alg, "verify");
    WC_REQUIRE(valid, "verify: valid must not be NULL");
    WC_REQUIRE(data || data_len == 0, "verify: data must not be NULL");
    WC_REQUIRE(signature || signature_len == 0, "verify: signature must not be NULL");
    webcrypto_status st = wc_check_key_op(alg, key, WEBCRYPTO_USAGE_VERIFY,
                                          WEBCRYPTO_USAGE_VERIFY, "verify");
    if (st != WEBCRYPTO_OK) return st;
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_DSA:
        return wc_pkey_verify(alg, key, signature, signature_len, data, data_len, valid);
    case WC_FAMILY_KMAC:
        return kmac_verify(alg, key, signature, signature_len, data, data_len, valid);
    case WC_FAMILY_HMAC: break;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_DIGEST: /* no verify usage: wc_check_key_op refused them */
    case WC_FAMILY_XOF:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "verify: not supported for %s",
                        webcrypto_algorithm_name(key->alg));
    }
    uint8_t mac[WC_MAX_DIGEST_SIZE];
    size_t n = webcrypto_digest_size(key->hash);
    st = key->backend->ops->hmac(key->state, data, data_len, mac);
    if (st == WEBCRYPTO_OK) *valid = signature_len == n && wc_ct_public_bool(wc_equal_ct(mac, signature, n));
    wc_wipe(mac, sizeof mac);
    return st;
}

struct webcrypto_sign_ctx {
    const webcrypto_key *key;
    bool verify;
    bool finished;
    void *impl;
};

static webcrypto_status sign_ctx_new(const webcrypto_params *alg, const webcrypto_key *key,
                                     bool verify, webcrypto_sign_ctx **out) {
    WC_REQUIRE(out, "sign_init: out must not be NULL");
    unsigned usage = verify ? WEBCRYPTO_USAGE_VERIFY : WEBCRYPTO_USAGE_SIGN;
    webcrypto_status st = wc_check_key_op(alg, key, usage, usage, verify ? "verify" : "sign");
    if (st != WEBCRYPTO_OK) return st;
    if (key->alg != WEBCRYPTO_ALG_HMAC)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "incremental sign/verify is offered for HMAC only, not %s",
                        webcrypto_algorithm_name(key->alg));
    webcrypto_sign_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "sign_init: out of memory");
    ctx->key = key;
    ctx->verify = verify;
    if ((st = key->backend->ops->hmac_new(key->state, &ctx->impl)) != WEBCRYPTO_OK) {
        free(ctx);
        return st;
    }
    *out = ctx;
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_sign_init(const webcrypto_params *alg, const webcrypto_key *key,
                                     webcrypto_sign_ctx **out) {
    WC_PARAMS_IN(alg, "sign_init");
    return sign_ctx_new(alg, key, false, out);
}

webcrypto_status webcrypto_verify_init(const webcrypto_params *alg, const webcrypto_key *key,
                                       webcrypto_sign_ctx **out) {
    WC_PARAMS_IN(alg, "verify_init");
    return sign_ctx_new(alg, key, true, out);
}

webcrypto_status webcrypto_sign_update(webcrypto_sign_ctx *ctx, const uint8_t *data,
                                       size_t data_len) {
    WC_REQUIRE(ctx, "sign_update: ctx must not be NULL");
    WC_REQUIRE(data || data_len == 0, "sign_update: data must not be NULL");
    WC_REQUIRE(!ctx->finished, "sign_update: the context is already finished");
    if (data_len == 0) return WEBCRYPTO_OK;
    return ctx->key->backend->ops->hmac_update(ctx->impl, data, data_len);
}

webcrypto_status webcrypto_sign_final(webcrypto_sign_ctx *ctx, uint8_t *out, size_t out_cap,
                                      size_t *out_len) {
    WC_REQUIRE(ctx && out_len, "sign_final: ctx and out_len must not be NULL");
    WC_REQUIRE(!ctx->finished, "sign_final: the context is already finished");
    WC_REQUIRE(!ctx->verify, "sign_final: this context was made by verify_init");
    webcrypto_status st;
    size_t n = webcrypto_digest_size(ctx->key->hash);
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    ctx->finished = true;
    st = ctx->key->backend->ops->hmac_final(ctx->impl, out);
    if (st == WEBCRYPTO_OK) *out_len = n;
    return st;
}

webcrypto_status webcrypto_verify_final(webcrypto_sign_ctx *ctx, const uint8_t *signature,
                                        size_t signature_len, bool *valid) {
    if (valid) *valid = false; /* as webcrypto_verify */
    WC_REQUIRE(ctx && valid, "verify_final: ctx and valid must not be NULL");
    WC_REQUIRE(signature || signature_len == 0, "verify_final: signature must not be NULL");
    WC_REQUIRE(!ctx->finished, "verify_final: the context is already finished");
    WC_REQUIRE(ctx->verify, "verify_final: this context was made by sign_init");
    ctx->finished = true;
    uint8_t mac[WC_MAX_DIGEST_SIZE];
    size_t n = webcrypto_digest_size(ctx->key->hash);
    webcrypto_status st = ctx->key->backend->ops->hmac_final(ctx->impl, mac);
    if (st == WEBCRYPTO_OK) *valid = signature_len == n && wc_ct_public_bool(wc_equal_ct(mac, signature, n));
    wc_wipe(mac, sizeof mac);
    return st;
}

void webcrypto_sign_ctx_free(webcrypto_sign_ctx *ctx) {
    if (!ctx) return;
    if (ctx->impl) ctx->key->backend->ops->hmac_free(ctx->impl);
    free(ctx);
}
