/*
 * gate.c - the openssl backend's ops, each called between wc_tc_enter and
 * wc_tc_leave (thread_cache.h): the fork and exit gate. A fork then never
 * copies a lock of OpenSSL's held by another thread into the child, and no
 * call runs into OpenSSL's atexit cleanup (docs/ROBUSTNESS.md, "fork and
 * exit"). init passes through without the gate: it runs under the
 * registry's lock, which the core's fork handler takes.
 *
 * Every op of openssl_backend.c's table must have its line here: an op
 * missing here is NULL in the table the core sees, so its capability is
 * lost and the tests of that operation fail (as pkey_private_fields would
 * break every private key's export).
 */
#include "openssl_internal.h"
#include "thread_cache.h"

#define U wc_backend_openssl_ungated

/* An op returning a status: refused with the gate's error when closed. */
#define GATED(op, params, ...)                                                                     \
    static webcrypto_status g_##op params {                                                       \
        webcrypto_status st = wc_tc_enter();                                                      \
        if (st != WEBCRYPTO_OK) return st;                                                        \
        st = U.op(__VA_ARGS__);                                                                   \
        wc_tc_leave();                                                                            \
        return st;                                                                                \
    }

/* A free: skipped once exit has begun (what it would free goes with the
 * process). */
#define GATED_FREE(op)                                                                             \
    static void g_##op(void *p) {                                                                  \
        if (wc_tc_enter() != WEBCRYPTO_OK) return;                                                \
        U.op(p);                                                                                  \
        wc_tc_leave();                                                                            \
    }

static webcrypto_status g_init(const char *variant, void **bctx, uint64_t *caps,
                               const char **description) {
    return U.init(variant, bctx, caps, description);
}

GATED(random_bytes, (const void *bctx, uint8_t *out, size_t len), bctx, out, len)
GATED(digest, (const void *bctx, wc_hash hash, const uint8_t *in, size_t len, uint8_t *out), bctx,
      hash, in, len, out)
GATED(digest_new, (const void *bctx, wc_hash hash, void **ctx), bctx, hash, ctx)
GATED(digest_update, (void *ctx, const uint8_t *in, size_t len), ctx, in, len)
GATED(digest_final, (void *ctx, uint8_t *out), ctx, out)
GATED_FREE(digest_free)
GATED(secret_key_new,
      (const void *bctx, wc_family family, unsigned member, const uint8_t *key, size_t key_len,
       void **state),
      bctx, family, member, key, key_len, state)
GATED_FREE(secret_key_free)
GATED(hmac, (const void *key_state, const uint8_t *in, size_t len, uint8_t *out), key_state, in,
      len, out)
GATED(hmac_new, (const void *key_state, void **ctx), key_state, ctx)
GATED(hmac_update, (void *ctx, const uint8_t *in, size_t len), ctx, in, len)
GATED(hmac_final, (void *ctx, uint8_t *out), ctx, out)
GATED_FREE(hmac_free)
GATED(cipher,
      (const void *key_state, wc_cipher kind, bool encrypt, const uint8_t iv[16],
       const uint8_t *in, size_t len, uint8_t *out),
      key_state, kind, encrypt, iv, in, len, out)
GATED(aead_seal,
      (const void *key_state, wc_aead kind, const uint8_t *nonce, size_t nonce_len,
       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
       uint8_t *tag, size_t tag_len),
      key_state, kind, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len)
GATED(aead_open,
      (const void *key_state, wc_aead kind, const uint8_t *nonce, size_t nonce_len,
       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag,
       size_t tag_len, uint8_t *out),
      key_state, kind, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out)
GATED(aes_kw_wrap, (const void *key_state, const uint8_t *in, size_t len, uint8_t *out),
      key_state, in, len, out)
GATED(aes_kw_unwrap, (const void *key_state, const uint8_t *in, size_t len, uint8_t *out),
      key_state, in, len, out)
GATED(pkey_import,
      (const void *bctx, wc_family family, unsigned member, const wc_pkey_fields *f,
       void **state),
      bctx, family, member, f, state)
GATED(pkey_generate,
      (const void *bctx, wc_family family, unsigned member, size_t modulus_bits, wc_bytes e,
       webcrypto_named_curve curve, void **state),
      bctx, family, member, modulus_bits, e, curve, state)
GATED(pkey_fields, (const void *state, wc_pkey_fields *out), state, out)
GATED(pkey_private_fields, (const void *state, wc_pkey_fields *out, uint8_t *buf, size_t cap),
      state, out, buf, cap)
GATED_FREE(pkey_free)
GATED(rsa_sign,
      (const void *state, wc_rsa_scheme scheme, wc_hash hash, size_t salt_len,
       const uint8_t *msg, size_t len, uint8_t *sig, size_t *sig_len),
      state, scheme, hash, salt_len, msg, len, sig, sig_len)
GATED(rsa_verify,
      (const void *state, wc_rsa_scheme scheme, wc_hash hash, size_t salt_len,
       const uint8_t *msg, size_t len, const uint8_t *sig, size_t sig_len, bool *valid),
      state, scheme, hash, salt_len, msg, len, sig, sig_len, valid)
GATED(rsa_oaep_encrypt,
      (const void *state, wc_hash hash, const uint8_t *label, size_t label_len,
       const uint8_t *in, size_t len, uint8_t *out, size_t *out_len),
      state, hash, label, label_len, in, len, out, out_len)
GATED(rsa_oaep_decrypt,
      (const void *state, wc_hash hash, const uint8_t *label, size_t label_len,
       const uint8_t *in, size_t len, uint8_t *out, size_t *out_len),
      state, hash, label, label_len, in, len, out, out_len)
GATED(ecdsa_sign,
      (const void *state, wc_hash hash, const uint8_t *msg, size_t len, uint8_t *sig,
       size_t *sig_len),
      state, hash, msg, len, sig, sig_len)
GATED(ecdsa_verify,
      (const void *state, wc_hash hash, const uint8_t *msg, size_t len, const uint8_t *sig,
       size_t sig_len, bool *valid),
      state, hash, msg, len, sig, sig_len, valid)
GATED(ecdh, (const void *private_state, const void *public_state, uint8_t *out, size_t *out_len),
      private_state, public_state, out, out_len)
GATED(okp_sign,
      (const void *state, wc_okp kind, const uint8_t *context, size_t context_len,
       const uint8_t *msg, size_t len, uint8_t *sig, size_t sig_cap, size_t *sig_len),
      state, kind, context, context_len, msg, len, sig, sig_cap, sig_len)
GATED(okp_verify,
      (const void *state, wc_okp kind, const uint8_t *context, size_t context_len,
       const uint8_t *msg, size_t len, const uint8_t *sig, size_t sig_len, bool *valid),
      state, kind, context, context_len, msg, len, sig, sig_len, valid)
GATED(okp_derive,
      (const void *private_state, const void *public_state, wc_okp kind, uint8_t *out,
       size_t out_cap, size_t *out_len),
      private_state, public_state, kind, out, out_cap, out_len)
GATED(hkdf,
      (const void *bctx, wc_hash hash, const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
       size_t salt_len, const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len),
      bctx, hash, ikm, ikm_len, salt, salt_len, info, info_len, out, out_len)
GATED(pbkdf2,
      (const void *bctx, wc_hash hash, const uint8_t *password, size_t password_len,
       const uint8_t *salt, size_t salt_len, uint32_t iterations, uint8_t *out, size_t out_len),
      bctx, hash, password, password_len, salt, salt_len, iterations, out, out_len)
GATED(xof,
      (const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len, const uint8_t *s,
       size_t s_len, const uint8_t *in, size_t len, uint8_t *out, size_t out_len),
      bctx, kind, n, n_len, s, s_len, in, len, out, out_len)
GATED(kmac,
      (const void *key_state, wc_kmac kind, const uint8_t *s, size_t s_len, const uint8_t *in,
       size_t len, uint8_t *out, size_t out_len),
      key_state, kind, s, s_len, in, len, out, out_len)
#if WEBCRYPTO_HAVE_LIBARGON2
GATED(argon2,
      (const void *bctx, wc_kdf kind, const uint8_t *password, size_t password_len,
       const uint8_t *nonce, size_t nonce_len, const uint8_t *secret, size_t secret_len,
       const uint8_t *ad, size_t ad_len, uint32_t parallelism, uint32_t memory, uint32_t passes,
       uint32_t version, uint8_t *out, size_t out_len),
      bctx, kind, password, password_len, nonce, nonce_len, secret, secret_len, ad, ad_len,
      parallelism, memory, passes, version, out, out_len)
#endif

const wc_backend_ops wc_backend_openssl = {
    .name = "openssl",
    .init = g_init,
    .random_bytes = g_random_bytes,
    .digest = g_digest,
    .digest_new = g_digest_new,
    .digest_update = g_digest_update,
    .digest_final = g_digest_final,
    .digest_free = g_digest_free,
    .secret_key_new = g_secret_key_new,
    .secret_key_free = g_secret_key_free,
    .hmac = g_hmac,
    .hmac_new = g_hmac_new,
    .hmac_update = g_hmac_update,
    .hmac_final = g_hmac_final,
    .hmac_free = g_hmac_free,
    .cipher = g_cipher,
    .aead_seal = g_aead_seal,
    .aead_open = g_aead_open,
    .aes_kw_wrap = g_aes_kw_wrap,
    .aes_kw_unwrap = g_aes_kw_unwrap,
    .pkey_import = g_pkey_import,
    .pkey_generate = g_pkey_generate,
    .pkey_fields = g_pkey_fields,
    .pkey_private_fields = g_pkey_private_fields,
    .pkey_free = g_pkey_free,
    .rsa_sign = g_rsa_sign,
    .rsa_verify = g_rsa_verify,
    .rsa_oaep_encrypt = g_rsa_oaep_encrypt,
    .rsa_oaep_decrypt = g_rsa_oaep_decrypt,
    .ecdsa_sign = g_ecdsa_sign,
    .ecdsa_verify = g_ecdsa_verify,
    .ecdh = g_ecdh,
    .okp_sign = g_okp_sign,
    .okp_verify = g_okp_verify,
    .okp_derive = g_okp_derive,
    .hkdf = g_hkdf,
    .pbkdf2 = g_pbkdf2,
    .xof = g_xof,
    .kmac = g_kmac,
#if WEBCRYPTO_HAVE_LIBARGON2
    .argon2 = g_argon2,
#endif
};
