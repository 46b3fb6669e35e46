/*
 * openssl_kw.c - AES-KW (RFC 3394) for the openssl backend, on AES-ECB.
 */
#include <limits.h>
#include <string.h>

#include <openssl/evp.h>

#include "core/backend.h"
#include "core/ct.h"
#include "openssl_internal.h"

/* ---- AES-KW (RFC 3394 section 2.2, the index-based form) ----
 * On AES-ECB without padding, one block per call: OpenSSL 3.0's
 * "AES-*-WRAP" ciphers compute with AES_encrypt / AES_decrypt, its
 * table-based AES (secret-indexed tables; the constant-time check,
 * tests/ct.cmake, reports them), whereas its ECB runs AES-NI where the CPU
 * has it. The integrity check is ours: the final A against the default IV,
 * compared in constant time. The core checked len (a multiple of 8, at
 * least 16 to wrap, 24 to unwrap); out does not overlap in (wrap.c). */
static const uint8_t kw_default_iv[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};

static webcrypto_status aes_kw_run(const aes_state *s, bool wrap, const uint8_t *in, size_t len,
                                   uint8_t *out) {
    /* The bound OpenSSL's wrap ciphers had (their length is an int), as the
     * boringssl backend has; beyond it, 6 AES calls per 8 bytes would take
     * minutes anyway. */
    if (len > INT_MAX - 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-KW: the openssl backend takes at most 2147483639 bytes");
    /* The provider's ECB functions on the thread's context (where init
     * found them: s->prov), else a copy of the key's EVP template. */
    EVP_CIPHER_CTX *c = NULL;
    void **slot = NULL;
    webcrypto_status st = s->prov ? wc_ossl_prov_ctx(s, !wrap, &slot)
                                : wc_ossl_cipher_start(wrap ? s->enc : s->dec, wrap ? 1 : 0, NULL, 0, &c);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = (wrap ? len : len - 8) / 8; /* R[1..n] */
    uint8_t b[16];                           /* A || R[i], then AES of it */
    uint8_t *r = wrap ? out + 8 : out;
    memcpy(b, wrap ? kw_default_iv : in, 8);
    memcpy(r, wrap ? in : in + 8, 8 * n);
    bool ok = true;
    for (size_t step = 0; ok && step < 6 * n; step++) {
        /* wrap: j = 0..5, i = 1..n; unwrap the reverse; t = n*j + i */
        size_t k = wrap ? step : 6 * n - 1 - step, i = k % n;
        uint64_t t = (uint64_t)k + 1;
        int got = 0;
        if (!wrap)
            for (int q = 0; q < 8; q++) b[7 - q] ^= (uint8_t)(t >> (8 * q));
        memcpy(b + 8, r + 8 * i, 8);
        if (slot) {
            size_t n16 = 0;
            ok = s->prov->update(*slot, b, &n16, 16, b, 16) == 1 && n16 == 16;
        } else {
            ok = EVP_CipherUpdate(c, b, &got, b, 16) == 1 && got == 16;
        }
        if (wrap)
            for (int q = 0; q < 8; q++) b[7 - q] ^= (uint8_t)(t >> (8 * q));
        memcpy(r + 8 * i, b + 8, 8);
    }
    if (!ok) {
        st = wc_ossl_fail(wrap ? "AES-KW wrap" : "AES-KW unwrap");
        if (slot) wc_ossl_prov_drop(s, slot);
    } else if (wrap) {
        memcpy(out, b, 8);
    } else if (!wc_ct_public_bool(wc_equal_ct(b, kw_default_iv, 8))) {
        /* the verdict is public (core/ct.h); which bytes differ is not */
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "AES-KW: the wrapped key failed its integrity check");
    }
    if (st != WEBCRYPTO_OK) wc_wipe(out, wrap ? len + 8 : len - 8);
    wc_wipe(b, sizeof b);
    EVP_CIPHER_CTX_free(c);
    return st;
}

webcrypto_status wc_ossl_aes_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                     uint8_t *out) {
    return aes_kw_run(key_state, true, in, len, out);
}

webcrypto_status wc_ossl_aes_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                       uint8_t *out) {
    return aes_kw_run(key_state, false, in, len, out);
}
