/*
 * gate.c - the openssl backend's ops, each called between wc_tc_enter and
 * wc_tc_leave (thread_cache.h): the fork and exit gate. A fork then never
 * copies a lock of OpenSSL's held by another thread into the child, and no
 * call runs into OpenSSL's atexit cleanup (docs/ROBUSTNESS.md, "fork and
 * exit"). Every op the backend has (openssl_backend.c's table) must be
 * listed here too (a missing one would lose its capability bits); the
 * others stay NULL, as there. init passes through without the gate: it runs
 * under the registry's lock, which the core's fork handler takes.
 */
#include "openssl_internal.h"
#include "thread_cache.h"

#define U wc_backend_openssl_ungated

static webcrypto_status g_init(const char *variant, void **bctx, uint64_t *caps,
                               const char **description) {
    return U.init(variant, bctx, caps, description);
}

static webcrypto_status g_random_bytes(const void *bctx, uint8_t *out, size_t len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.random_bytes(bctx, out, len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_digest(const void *bctx, wc_hash hash, const uint8_t *in, size_t len,
                                 uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.digest(bctx, hash, in, len, out);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_digest_new(const void *bctx, wc_hash hash, void **ctx) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.digest_new(bctx, hash, ctx);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_digest_update(void *ctx, const uint8_t *in, size_t len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.digest_update(ctx, in, len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_digest_final(void *ctx, uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.digest_final(ctx, out);
    wc_tc_leave();
    return st;
}

/* Refused at exit: what it would free goes with the process. */
static void g_digest_free(void *ctx) {
    if (wc_tc_enter() != WEBCRYPTO_OK) return;
    U.digest_free(ctx);
    wc_tc_leave();
}

static webcrypto_status g_secret_key_new(const void *bctx, wc_family family, unsigned member,
                                         const uint8_t *key, size_t key_len, void **state) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.secret_key_new(bctx, family, member, key, key_len, state);
    wc_tc_leave();
    return st;
}

/* Refused at exit: what it would free goes with the process. */
static void g_secret_key_free(void *state) {
    if (wc_tc_enter() != WEBCRYPTO_OK) return;
    U.secret_key_free(state);
    wc_tc_leave();
}

static webcrypto_status g_hmac(const void *key_state, const uint8_t *in, size_t len, uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.hmac(key_state, in, len, out);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_hmac_new(const void *key_state, void **ctx) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.hmac_new(key_state, ctx);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_hmac_update(void *ctx, const uint8_t *in, size_t len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.hmac_update(ctx, in, len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_hmac_final(void *ctx, uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.hmac_final(ctx, out);
    wc_tc_leave();
    return st;
}

/* Refused at exit: what it would free goes with the process. */
static void g_hmac_free(void *ctx) {
    if (wc_tc_enter() != WEBCRYPTO_OK) return;
    U.hmac_free(ctx);
    wc_tc_leave();
}

static webcrypto_status g_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                                 const uint8_t iv[16], const uint8_t *in, size_t len,
                                 uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.cipher(key_state, kind, encrypt, iv, in, len, out);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_aead_seal(const void *key_state, wc_aead kind, const uint8_t *nonce,
                                    size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                    const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                                    size_t tag_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.aead_seal(key_state, kind, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_aead_open(const void *key_state, wc_aead kind, const uint8_t *nonce,
                                    size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                    const uint8_t *in, size_t len, const uint8_t *tag,
                                    size_t tag_len, uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.aead_open(key_state, kind, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_aes_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                      uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.aes_kw_wrap(key_state, in, len, out);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_aes_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                        uint8_t *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.aes_kw_unwrap(key_state, in, len, out);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_pkey_import(const void *bctx, wc_family family, unsigned member,
                                      const wc_pkey_fields *f, void **state) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.pkey_import(bctx, family, member, f, state);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                        size_t modulus_bits, wc_bytes e,
                                        webcrypto_named_curve curve, void **state) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.pkey_generate(bctx, family, member, modulus_bits, e, curve, state);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_pkey_fields(const void *state, wc_pkey_fields *out) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.pkey_fields(state, out);
    wc_tc_leave();
    return st;
}

/* Refused at exit: what it would free goes with the process. */
static void g_pkey_free(void *state) {
    if (wc_tc_enter() != WEBCRYPTO_OK) return;
    U.pkey_free(state);
    wc_tc_leave();
}

static webcrypto_status g_rsa_sign(const void *state, wc_rsa_scheme scheme, wc_hash hash,
                                   size_t salt_len, const uint8_t *msg, size_t len, uint8_t *sig,
                                   size_t *sig_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.rsa_sign(state, scheme, hash, salt_len, msg, len, sig, sig_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_rsa_verify(const void *state, wc_rsa_scheme scheme, wc_hash hash,
                                     size_t salt_len, const uint8_t *msg, size_t len,
                                     const uint8_t *sig, size_t sig_len, bool *valid) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.rsa_verify(state, scheme, hash, salt_len, msg, len, sig, sig_len, valid);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_rsa_oaep_encrypt(const void *state, wc_hash hash, const uint8_t *label,
                                           size_t label_len, const uint8_t *in, size_t len,
                                           uint8_t *out, size_t *out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.rsa_oaep_encrypt(state, hash, label, label_len, in, len, out, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_rsa_oaep_decrypt(const void *state, wc_hash hash, const uint8_t *label,
                                           size_t label_len, const uint8_t *in, size_t len,
                                           uint8_t *out, size_t *out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.rsa_oaep_decrypt(state, hash, label, label_len, in, len, out, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_ecdsa_sign(const void *state, wc_hash hash, const uint8_t *msg,
                                     size_t len, uint8_t *sig, size_t *sig_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.ecdsa_sign(state, hash, msg, len, sig, sig_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_ecdsa_verify(const void *state, wc_hash hash, const uint8_t *msg,
                                       size_t len, const uint8_t *sig, size_t sig_len,
                                       bool *valid) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.ecdsa_verify(state, hash, msg, len, sig, sig_len, valid);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_ecdh(const void *private_state, const void *public_state, uint8_t *out,
                               size_t *out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.ecdh(private_state, public_state, out, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                                   size_t context_len, const uint8_t *msg, size_t len, uint8_t *sig,
                                   size_t sig_cap, size_t *sig_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.okp_sign(state, kind, context, context_len, msg, len, sig, sig_cap, sig_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                     size_t context_len, const uint8_t *msg, size_t len,
                                     const uint8_t *sig, size_t sig_len, bool *valid) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.okp_verify(state, kind, context, context_len, msg, len, sig, sig_len, valid);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_okp_derive(const void *private_state, const void *public_state,
                                     wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.okp_derive(private_state, public_state, kind, out, out_cap, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm, size_t ikm_len,
                               const uint8_t *salt, size_t salt_len, const uint8_t *info,
                               size_t info_len, uint8_t *out, size_t out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.hkdf(bctx, hash, ikm, ikm_len, salt, salt_len, info, info_len, out, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_pbkdf2(const void *bctx, wc_hash hash, const uint8_t *password,
                                 size_t password_len, const uint8_t *salt, size_t salt_len,
                                 uint32_t iterations, uint8_t *out, size_t out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.pbkdf2(bctx, hash, password, password_len, salt, salt_len, iterations, out, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_xof(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                              const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                              uint8_t *out, size_t out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.xof(bctx, kind, n, n_len, s, s_len, in, len, out, out_len);
    wc_tc_leave();
    return st;
}

static webcrypto_status g_kmac(const void *key_state, wc_kmac kind, const uint8_t *s, size_t s_len,
                               const uint8_t *in, size_t len, uint8_t *out, size_t out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.kmac(key_state, kind, s, s_len, in, len, out, out_len);
    wc_tc_leave();
    return st;
}

#if WEBCRYPTO_HAVE_LIBARGON2
static webcrypto_status g_argon2(const void *bctx, wc_kdf kind, const uint8_t *password,
                                 size_t password_len, const uint8_t *nonce, size_t nonce_len,
                                 const uint8_t *secret, size_t secret_len, const uint8_t *ad,
                                 size_t ad_len, uint32_t parallelism, uint32_t memory,
                                 uint32_t passes, uint32_t version, uint8_t *out, size_t out_len) {
    webcrypto_status st = wc_tc_enter();
    if (st != WEBCRYPTO_OK) return st;
    st = U.argon2(bctx, kind, password, password_len, nonce, nonce_len, secret, secret_len, ad,
                  ad_len, parallelism, memory, passes, version, out, out_len);
    wc_tc_leave();
    return st;
}
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
