/*
 * SubtleCrypto.encrypt/decrypt for AES-CBC, AES-CTR and the AEADs (AES-GCM,
 * AES-GCM-SIV, ChaCha20-Poly1305, AES-OCB), and the
 * incremental form for CBC and CTR. The backend supplies raw CBC (no
 * padding), 128-bit-counter CTR and GCM seal/open; PKCS#7 padding, the
 * WebCrypto counter-length rule and IV chaining live here, once.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "ct.h"

#define AES_BLOCK 16
/* AES-GCM's plaintext limit, 2^39 - 256 bits (NIST SP 800-38D). */
#define GCM_MAX_BYTES ((UINT64_C(1) << 36) - 32)

/* ---- parameter checks (the spec's OperationErrors) ---- */

/* A NULL buffer with a non-zero length is C misuse, a TypeError as for every
 * other argument (checked before the length, whose message would then
 * contradict itself). */
static webcrypto_status check_cbc(const webcrypto_params *p) {
    WC_REQUIRE(p->iv || p->iv_len == 0, "AES-CBC: iv is NULL");
    if (p->iv_len != AES_BLOCK)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-CBC: iv must be 16 bytes, not %zu",
                        p->iv_len);
    return WEBCRYPTO_OK;
}

static webcrypto_status check_ctr(const webcrypto_params *p) {
    WC_REQUIRE(p->counter || p->counter_len == 0, "AES-CTR: counter is NULL");
    if (p->counter_len != AES_BLOCK)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-CTR: counter must be 16 bytes, not %zu",
                        p->counter_len);
    if (p->length == 0 || p->length > 128)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-CTR: length must be 1 to 128 counter bits, not %zu", p->length);
    return WEBCRYPTO_OK;
}

static inline __attribute__((always_inline)) webcrypto_status
check_gcm(const webcrypto_params *p, size_t *tag_bytes) {
    WC_REQUIRE(p->iv || p->iv_len == 0, "AES-GCM: iv is NULL");
    if (p->iv_len == 0)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM: iv must not be empty");
    if (p->additional_data_len && !p->additional_data)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "AES-GCM: additional_data is NULL");
    size_t t = p->tag_length ? p->tag_length : 128;
    if (!(t == 32 || t == 64 || (t >= 96 && t <= 128 && t % 8 == 0)))
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-GCM: tagLength must be 32, 64, 96, 104, 112, 120 or 128, not %zu", t);
    *tag_bytes = t / 8;
    return WEBCRYPTO_OK;
}

static inline __attribute__((always_inline)) webcrypto_status
check_gcm_siv(const webcrypto_params *p) {
    WC_REQUIRE(p->iv || p->iv_len == 0, "AES-GCM-SIV: iv is NULL");
    if (p->iv_len != 12)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM-SIV: the nonce (iv) must be 12 bytes, not %zu",
                        p->iv_len);
    if (p->additional_data_len && !p->additional_data)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "AES-GCM-SIV: additional_data is NULL");
    if (p->tag_length != 0 && p->tag_length != 128)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM-SIV: the tag is 128 bits, not %zu",
                        p->tag_length);
    /* RFC 8452 section 6: plaintext and additional data at most 2^36 bytes. */
    if ((uint64_t)p->additional_data_len > (UINT64_C(1) << 36))
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM-SIV: additional data too long");
    return WEBCRYPTO_OK;
}

/* ChaCha20-Poly1305 (the draft's steps): iv exactly 12 bytes, tagLength
 * absent or 128, both OperationError. RFC 8439 section 2.8 bounds the text at
 * 2^38 - 64 bytes (the 32-bit block counter from 1). */
static inline __attribute__((always_inline)) webcrypto_status
check_chacha20_poly1305(const webcrypto_params *p) {
    WC_REQUIRE(p->iv || p->iv_len == 0, "ChaCha20-Poly1305: iv is NULL");
    if (p->iv_len != 12)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "ChaCha20-Poly1305: iv must be 12 bytes, not %zu", p->iv_len);
    if (p->additional_data_len && !p->additional_data)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "ChaCha20-Poly1305: additional_data is NULL");
    if (p->tag_length != 0 && p->tag_length != 128)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "ChaCha20-Poly1305: tagLength must be 128, not %zu", p->tag_length);
    return WEBCRYPTO_OK;
}

/* AES-OCB (the draft's steps): an iv over 15 bytes and a tagLength other
 * than 64, 96 or 128 are OperationError. An empty iv, which the draft does
 * not exclude, is OperationError here too: RFC 7253 OCB takes it, but no
 * backend library (OpenSSL, BouncyCastle) nor Node 24 does. */
static inline __attribute__((always_inline)) webcrypto_status
check_ocb(const webcrypto_params *p, size_t *tag_bytes) {
    WC_REQUIRE(p->iv || p->iv_len == 0, "AES-OCB: iv is NULL");
    if (p->iv_len == 0 || p->iv_len > 15)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-OCB: iv must be 1 to 15 bytes, not %zu",
                        p->iv_len);
    if (p->additional_data_len && !p->additional_data)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "AES-OCB: additional_data is NULL");
    size_t t = p->tag_length ? p->tag_length : 128;
    if (t != 64 && t != 96 && t != 128)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-OCB: tagLength must be 64, 96 or 128, not %zu", t);
    *tag_bytes = t / 8;
    return WEBCRYPTO_OK;
}

/* An AEAD's sizes for one call, from its member's checks: the nonce length,
 * the tag length and the longest text (plaintext or ciphertext without its
 * tag). */
typedef struct aead_shape {
    size_t nonce_len, tag_len;
    uint64_t max_text;
} aead_shape;

/* Inline in each caller, as the member checks above (every small message
 * passes here). */
static inline __attribute__((always_inline)) webcrypto_status
check_aead(const webcrypto_params *p, wc_aead kind, aead_shape *s) {
    webcrypto_status st;
    switch (kind) {
    case WC_AEAD_AES_GCM:
        if ((st = check_gcm(p, &s->tag_len)) != WEBCRYPTO_OK) return st;
        s->nonce_len = p->iv_len;
        s->max_text = GCM_MAX_BYTES;
        return WEBCRYPTO_OK;
    case WC_AEAD_AES_GCM_SIV:
        if ((st = check_gcm_siv(p)) != WEBCRYPTO_OK) return st;
        s->nonce_len = 12;
        s->tag_len = 16;
        s->max_text = UINT64_C(1) << 36; /* RFC 8452 section 6 */
        return WEBCRYPTO_OK;
    case WC_AEAD_CHACHA20_POLY1305:
        if ((st = check_chacha20_poly1305(p)) != WEBCRYPTO_OK) return st;
        s->nonce_len = 12;
        s->tag_len = 16;
        s->max_text = (UINT64_C(1) << 38) - 64; /* RFC 8439 section 2.8 */
        return WEBCRYPTO_OK;
    case WC_AEAD_AES_OCB:
        if ((st = check_ocb(p, &s->tag_len)) != WEBCRYPTO_OK) return st;
        s->nonce_len = p->iv_len;
        s->max_text = UINT64_MAX; /* RFC 7253 sets no limit a size_t can reach */
        return WEBCRYPTO_OK;
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "no such AEAD");
}

webcrypto_status wc_cipher_params_check(const webcrypto_params *alg) {
    aead_shape sh = {0}; /* set by check_aead when it passes (gcc cannot tell) */
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_CIPHER:
        switch (wc_cipher_of(alg->name)) {
        case WC_CIPHER_AES_CBC: return check_cbc(alg);
        case WC_CIPHER_AES_CTR: return check_ctr(alg);
        case WC_CIPHER_COUNT: break;
        }
        break;
    case WC_FAMILY_AEAD: return check_aead(alg, wc_aead_of(alg->name), &sh);
    case WC_FAMILY_RSA: /* RSA-OAEP: a label, optional */
        WC_REQUIRE(alg->label || alg->label_len == 0, "RSA-OAEP: label is NULL");
        return WEBCRYPTO_OK;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "encrypt: not supported for %s",
                    webcrypto_algorithm_name(alg->name));
}

/* AEAD encryption: ciphertext || tag. */
static webcrypto_status aead_encrypt(const webcrypto_params *alg, const webcrypto_key *key,
                                     const uint8_t *data, size_t data_len, uint8_t *out,
                                     size_t out_cap, size_t *out_len) {
    wc_aead kind = wc_aead_of(alg->name);
    aead_shape sh = {0}; /* set by check_aead when it passes (gcc cannot tell) */
    webcrypto_status st = check_aead(alg, kind, &sh);
    if (st != WEBCRYPTO_OK) return st;
    if ((uint64_t)data_len > sh.max_text || data_len > SIZE_MAX - sh.tag_len)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: plaintext too long",
                        webcrypto_algorithm_name(alg->name));
    if (wc_output_check(data_len + sh.tag_len, out, out_cap, out_len, &st)) return st;
    const wc_aead_msg m = {.kind = kind, .nonce = alg->iv, .nonce_len = sh.nonce_len,
                           .aad = alg->additional_data, .aad_len = alg->additional_data_len,
                           .in = data, .len = data_len, .out = out, .tag_out = out + data_len,
                           .tag_len = sh.tag_len};
    st = key->backend->ops->aead_seal(key->state, &m);
    if (st != WEBCRYPTO_OK) return st;
    *out_len = data_len + sh.tag_len;
    return WEBCRYPTO_OK;
}

/* AEAD decryption: the tag is checked before any plaintext is released. */
static webcrypto_status aead_decrypt(const webcrypto_params *alg, const webcrypto_key *key,
                                     const uint8_t *data, size_t data_len, uint8_t *out,
                                     size_t out_cap, size_t *out_len) {
    wc_aead kind = wc_aead_of(alg->name);
    aead_shape sh = {0}; /* set by check_aead when it passes (gcc cannot tell) */
    webcrypto_status st = check_aead(alg, kind, &sh);
    if (st != WEBCRYPTO_OK) return st;
    if (data_len < sh.tag_len)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: %zu bytes is shorter than the %zu-byte tag",
                        webcrypto_algorithm_name(alg->name), data_len, sh.tag_len);
    size_t n = data_len - sh.tag_len;
    if ((uint64_t)n > sh.max_text)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: ciphertext too long",
                        webcrypto_algorithm_name(alg->name));
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    const wc_aead_msg m = {.kind = kind, .nonce = alg->iv, .nonce_len = sh.nonce_len,
                           .aad = alg->additional_data, .aad_len = alg->additional_data_len,
                           .in = data, .len = n, .out = out, .tag_in = data + n,
                           .tag_len = sh.tag_len};
    st = key->backend->ops->aead_open(key->state, &m);
    if (st != WEBCRYPTO_OK) {
        wc_wipe(out, n); /* no plaintext leaves without a verified tag */
        return st;
    }
    *out_len = n;
    return WEBCRYPTO_OK;
}

/* ---- AES-CTR with WebCrypto's counter length ----
 * Only the low `length` bits of the counter block count; when they wrap, the
 * other bits stay as they are. The backend's CTR carries into all 128 bits,
 * so data is split where the low bits wrap. */

static uint64_t load_be64(const uint8_t *p) {
    /* spelt out: compilers merge these into one byte-swapped load */
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
           (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
           (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

/* Blocks that can be processed from `counter` before its low `bits` wrap
 * (saturating at UINT64_MAX, far beyond any size_t amount of data). */
static uint64_t blocks_before_wrap(const uint8_t counter[16], size_t bits) {
    uint64_t low = load_be64(counter + 8);
    if (bits < 64) {
        uint64_t mask = (UINT64_C(1) << bits) - 1;
        return (mask - (low & mask)) + 1;
    }
    if (bits > 64) {
        uint64_t high = load_be64(counter);
        uint64_t mask = bits == 128 ? UINT64_MAX : (UINT64_C(1) << (bits - 64)) - 1;
        if ((high & mask) != mask) return UINT64_MAX; /* at least 2^64 blocks to go */
    }
    return low == 0 ? UINT64_MAX : (UINT64_C(0) - low);
}

static void store_be64(uint8_t *p, uint64_t v) {
    /* spelt out: compilers merge these into one byte-swapped store */
    p[0] = (uint8_t)(v >> 56);
    p[1] = (uint8_t)(v >> 48);
    p[2] = (uint8_t)(v >> 40);
    p[3] = (uint8_t)(v >> 32);
    p[4] = (uint8_t)(v >> 24);
    p[5] = (uint8_t)(v >> 16);
    p[6] = (uint8_t)(v >> 8);
    p[7] = (uint8_t)v;
}

/* Adds n to the low `bits` (1..128) of the counter, leaving the other bits
 * alone: on two 64-bit halves, as it runs on every CTR call. */
static void counter_advance(uint8_t counter[16], size_t bits, uint64_t n) {
    uint64_t high = load_be64(counter), low = load_be64(counter + 8);
    uint64_t sum = low + n;
    if (bits <= 64) {
        uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
        low = (low & ~mask) | (sum & mask);
    } else {
        uint64_t mask = bits == 128 ? UINT64_MAX : (UINT64_C(1) << (bits - 64)) - 1;
        high = (high & ~mask) | ((high + (sum < low)) & mask);
        low = sum;
    }
    store_be64(counter, high);
    store_be64(counter + 8, low);
}

/* Whole-block CTR over len bytes (the last block may be partial), splitting
 * where the counter bits wrap, and advancing counter by the blocks used. */
static webcrypto_status ctr_run(const webcrypto_key *key, uint8_t counter[16], size_t bits,
                                const uint8_t *in, size_t len, uint8_t *out) {
    while (len) {
        uint64_t room = blocks_before_wrap(counter, bits);
        size_t blocks = len / AES_BLOCK + (len % AES_BLOCK != 0);
        size_t n = len;
        if ((uint64_t)blocks > room) n = (size_t)room * AES_BLOCK;
        webcrypto_status st = key->backend->ops->cipher(key->state, WC_CIPHER_AES_CTR, true,
                                                        counter, in, n, out);
        if (st != WEBCRYPTO_OK) return st;
        counter_advance(counter, bits, n / AES_BLOCK + (n % AES_BLOCK != 0));
        in += n;
        out += n;
        len -= n;
    }
    return WEBCRYPTO_OK;
}

/* Whether `blocks` exceeds the 2^bits distinct counter values. */
static bool ctr_too_long(uint64_t blocks, size_t bits) {
    return bits < 64 && blocks > (UINT64_C(1) << bits);
}

static uint64_t blocks_for(size_t len) { return len / AES_BLOCK + (len % AES_BLOCK != 0); }

/* ---- CBC with PKCS#7 padding ---- */

/* Up to this many bytes, one-shot CBC copies the message into the output
 * and makes one backend call over it with its padding: a backend call costs
 * more than that copy (on openssl, a context copy and IV set-up), so at
 * 16 bytes this halves the time; above it, the copy would cost more. */
#define CBC_ONE_CALL_MAX 4096

/* out has room for the padded length (len rounded up past the next 16). */
static webcrypto_status cbc_encrypt(const webcrypto_key *key, const uint8_t iv[16],
                                    const uint8_t *in, size_t len, uint8_t *out) {
    size_t full = len - len % AES_BLOCK;
    uint8_t last[AES_BLOCK];
    size_t rest = len - full;
    if (rest) memcpy(last, in + full, rest); /* before out is written: in may be out */
    memset(last + rest, (int)(AES_BLOCK - rest), AES_BLOCK - rest);
    webcrypto_status st;
    if (in == out || full <= CBC_ONE_CALL_MAX) {
        if (in != out && full) memcpy(out, in, full); /* no overlap unless equal */
        memcpy(out + full, last, AES_BLOCK);
        st = key->backend->ops->cipher(key->state, WC_CIPHER_AES_CBC, true, iv, out,
                                       full + AES_BLOCK, out);
        if (st != WEBCRYPTO_OK && in != out) wc_wipe(out, full + AES_BLOCK); /* the copy */
    } else {
        st = key->backend->ops->cipher(key->state, WC_CIPHER_AES_CBC, true, iv, in, full, out);
        if (st == WEBCRYPTO_OK)
            st = key->backend->ops->cipher(key->state, WC_CIPHER_AES_CBC, true,
                                           out + full - AES_BLOCK, last, AES_BLOCK, out + full);
    }
    wc_wipe(last, sizeof last);
    return st;
}

/* Checks PKCS#7 padding of the final block without data-dependent branches;
 * returns the pad length (1..16), or 0 if the padding is invalid. */
static size_t pkcs7_pad_len(const uint8_t block[16]) {
    unsigned pad = block[15];
    unsigned bad = ((pad - 1) >> 8) | ((16 - pad) >> 8); /* pad == 0 or pad > 16 */
    for (unsigned i = 0; i < 16; i++) {
        unsigned in_pad = ((15 - i) - pad) >> 8 & 1; /* i >= 16 - pad */
        bad |= in_pad & (((unsigned)block[i] ^ pad) != 0);
    }
    return bad & 1 ? 0 : pad;
}

/* The pad length, declassified (ct.h): whether the padding is good and how
 * long it is are public - the call fails, or the plaintext's length says it. */
static size_t pad_public(size_t pad) { return wc_ct_public_size(pad); }

/* ---- one-shot ---- */

/* CTR encryption and decryption are the same operation. */
static webcrypto_status ctr_oneshot(const webcrypto_params *alg, const webcrypto_key *key,
                                    const uint8_t *data, size_t data_len, uint8_t *out,
                                    size_t out_cap, size_t *out_len) {
    webcrypto_status st = check_ctr(alg);
    if (st != WEBCRYPTO_OK) return st;
    if (ctr_too_long(blocks_for(data_len), alg->length))
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-CTR: %zu bytes would reuse counter values of a %zu-bit counter",
                        data_len, alg->length);
    if (wc_output_check(data_len, out, out_cap, out_len, &st)) return st;
    if (blocks_for(data_len) <= blocks_before_wrap(alg->counter, alg->length)) {
        /* No wrap (the common case): one call on the caller's counter. */
        st = data_len ? key->backend->ops->cipher(key->state, WC_CIPHER_AES_CTR, true,
                                                  alg->counter, data, data_len, out)
                      : WEBCRYPTO_OK;
    } else {
        uint8_t counter[16];
        memcpy(counter, alg->counter, 16);
        st = ctr_run(key, counter, alg->length, data, data_len, out);
    }
    if (st != WEBCRYPTO_OK) return st;
    *out_len = data_len;
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_encrypt(const webcrypto_params *alg, const webcrypto_key *key,
                                   const uint8_t *data, size_t data_len, uint8_t *out,
                                   size_t out_cap, size_t *out_len) {
    WC_PARAMS_IN(alg, "encrypt");
    WC_REQUIRE(out_len, "encrypt: out_len must not be NULL");
    WC_REQUIRE(data || data_len == 0, "encrypt: data must not be NULL");
    webcrypto_status st = wc_check_key_op(alg, key, WEBCRYPTO_USAGE_ENCRYPT,
                                          WEBCRYPTO_USAGE_ENCRYPT, "encrypt");
    if (st != WEBCRYPTO_OK) return st;
    return wc_cipher_oneshot(true, alg, key, data, data_len, out, out_cap, out_len);
}

webcrypto_status webcrypto_decrypt(const webcrypto_params *alg, const webcrypto_key *key,
                                   const uint8_t *data, size_t data_len, uint8_t *out,
                                   size_t out_cap, size_t *out_len) {
    WC_PARAMS_IN(alg, "decrypt");
    WC_REQUIRE(out_len, "decrypt: out_len must not be NULL");
    WC_REQUIRE(data || data_len == 0, "decrypt: data must not be NULL");
    webcrypto_status st = wc_check_key_op(alg, key, WEBCRYPTO_USAGE_DECRYPT,
                                          WEBCRYPTO_USAGE_DECRYPT, "decrypt");
    if (st != WEBCRYPTO_OK) return st;
    return wc_cipher_oneshot(false, alg, key, data, data_len, out, out_cap, out_len);
}

/* AES-CBC one-shot encryption: PKCS#7 padding added. */
static webcrypto_status cbc_encrypt_oneshot(const webcrypto_params *alg,
                                           const webcrypto_key *key, const uint8_t *data,
                                           size_t data_len, uint8_t *out, size_t out_cap,
                                           size_t *out_len) {
    webcrypto_status st;
    if ((st = check_cbc(alg)) != WEBCRYPTO_OK) return st;
    size_t n = data_len - data_len % AES_BLOCK + AES_BLOCK;
    if (n < data_len) return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-CBC: data too long");
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    if ((st = cbc_encrypt(key, alg->iv, data, data_len, out)) != WEBCRYPTO_OK) return st;
    *out_len = n;
    return WEBCRYPTO_OK;
}

/* AES-CBC one-shot decryption: the padding checked before any of the last
 * block reaches the caller. */
static webcrypto_status cbc_decrypt_oneshot(const webcrypto_params *alg,
                                           const webcrypto_key *key, const uint8_t *data,
                                           size_t data_len, uint8_t *out, size_t out_cap,
                                           size_t *out_len) {
    webcrypto_status st;
    if ((st = check_cbc(alg)) != WEBCRYPTO_OK) return st;
    if (data_len == 0 || data_len % AES_BLOCK)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-CBC: ciphertext must be a non-zero multiple of 16 bytes, not %zu",
                        data_len);
    if (wc_output_check(data_len - 1, out, out_cap, out_len, &st)) return st;
    size_t head = data_len - AES_BLOCK;
    if (out_cap >= data_len) {
        /* Room for the padding too: one backend call (see cbc_encrypt);
         * all of it is wiped if the padding is bad, the padding bytes
         * past the plaintext if it is good. */
        st = key->backend->ops->cipher(key->state, WC_CIPHER_AES_CBC, false, alg->iv, data,
                                       data_len, out);
        size_t pad = st == WEBCRYPTO_OK ? pad_public(pkcs7_pad_len(out + head)) : 0;
        if (st == WEBCRYPTO_OK && pad == 0)
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "AES-CBC: bad padding");
        if (st != WEBCRYPTO_OK) {
            wc_wipe(out, data_len);
            return st;
        }
        wc_wipe(out + data_len - pad, pad);
        *out_len = data_len - pad;
        return WEBCRYPTO_OK;
    }
    /* No room for the padding: the last block goes to a local buffer,
     * its padding checked before any of it reaches the caller. */
    uint8_t prev[AES_BLOCK], last_ct[AES_BLOCK], last[AES_BLOCK];
    memcpy(prev, head ? data + head - AES_BLOCK : alg->iv, AES_BLOCK);
    memcpy(last_ct, data + head, AES_BLOCK); /* data may be out */
    st = head ? key->backend->ops->cipher(key->state, WC_CIPHER_AES_CBC, false, alg->iv, data,
                                          head, out)
              : WEBCRYPTO_OK;
    if (st == WEBCRYPTO_OK)
        st = key->backend->ops->cipher(key->state, WC_CIPHER_AES_CBC, false, prev, last_ct,
                                       AES_BLOCK, last);
    size_t pad = st == WEBCRYPTO_OK ? pad_public(pkcs7_pad_len(last)) : 0;
    if (st == WEBCRYPTO_OK && pad == 0)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "AES-CBC: bad padding");
    if (st == WEBCRYPTO_OK && head + AES_BLOCK - pad > out_cap) {
        *out_len = head + AES_BLOCK - pad;
        st = wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                      "output buffer too small: %zu bytes needed, %zu given", *out_len,
                      out_cap);
    }
    if (st == WEBCRYPTO_OK) {
        memcpy(out + head, last, AES_BLOCK - pad);
        *out_len = head + AES_BLOCK - pad;
    } else {
        wc_wipe(out, head < out_cap ? head : out_cap);
    }
    wc_wipe(last, sizeof last);
    return st;
}

/* encrypt or decrypt after wc_check_key_op: per family, and per member
 * where the members differ. */
static webcrypto_status cipher_checked(bool encrypt, const webcrypto_params *alg,
                                       const webcrypto_key *key, const uint8_t *data,
                                       size_t data_len, uint8_t *out, size_t out_cap,
                                       size_t *out_len) {
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_CIPHER:
        switch (wc_cipher_of(alg->name)) {
        case WC_CIPHER_AES_CBC:
            return encrypt ? cbc_encrypt_oneshot(alg, key, data, data_len, out, out_cap, out_len)
                           : cbc_decrypt_oneshot(alg, key, data, data_len, out, out_cap, out_len);
        case WC_CIPHER_AES_CTR: return ctr_oneshot(alg, key, data, data_len, out, out_cap, out_len);
        case WC_CIPHER_COUNT: break;
        }
        break;
    case WC_FAMILY_AEAD:
        return encrypt ? aead_encrypt(alg, key, data, data_len, out, out_cap, out_len)
                       : aead_decrypt(alg, key, data, data_len, out, out_cap, out_len);
    case WC_FAMILY_RSA: /* RSA-OAEP: the only RSA scheme with these usages */
        return wc_pkey_crypt(encrypt, alg, key, data, data_len, out, out_cap, out_len);
    /* No encrypt or decrypt (wc_check_key_op refused them: the table gives
     * them neither usage). */
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC:
        break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: not supported for %s",
                    encrypt ? "encrypt" : "decrypt", webcrypto_algorithm_name(alg->name));
}

webcrypto_status wc_cipher_oneshot(bool encrypt, const webcrypto_params *alg,
                                   const webcrypto_key *key, const uint8_t *data, size_t data_len,
                                   uint8_t *out, size_t out_cap, size_t *out_len) {
    return cipher_checked(encrypt, alg, key, data, data_len, out, out_cap, out_len);
}

/* ---- incremental CBC and CTR ---- */

struct webcrypto_cipher_ctx {
    const webcrypto_key *key;
    webcrypto_algorithm alg;
    bool encrypt;
    bool finished;
    uint8_t block[AES_BLOCK]; /* CBC: the IV to chain; CTR: the next counter block */
    uint8_t buf[AES_BLOCK];   /* CBC: pending input; CTR: keystream of the partial block */
    size_t buf_len;           /* CBC: bytes pending; CTR: keystream bytes used (16 = none) */
    size_t ctr_bits;
    uint64_t ctr_blocks; /* CTR: counter values used so far */
};

webcrypto_status webcrypto_cipher_init(const webcrypto_params *alg, const webcrypto_key *key,
                                       bool encrypt, webcrypto_cipher_ctx **out) {
    WC_PARAMS_IN(alg, "cipher_init");
    WC_REQUIRE(out, "cipher_init: out must not be NULL");
    unsigned usage = encrypt ? WEBCRYPTO_USAGE_ENCRYPT : WEBCRYPTO_USAGE_DECRYPT;
    const char *op = encrypt ? "encrypt" : "decrypt";
    webcrypto_status st = wc_check_key_op(alg, key, usage, usage, op);
    if (st != WEBCRYPTO_OK) return st;
    if (alg->name == WEBCRYPTO_ALG_AES_CBC) st = check_cbc(alg);
    else if (alg->name == WEBCRYPTO_ALG_AES_CTR) st = check_ctr(alg);
    else
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "incremental %s is offered for AES-CBC and AES-CTR only; %s is one-shot "
                        "so that no plaintext is released before its tag verifies",
                        op, webcrypto_algorithm_name(alg->name));
    if (st != WEBCRYPTO_OK) return st;
    webcrypto_cipher_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "cipher_init: out of memory");
    ctx->key = key;
    ctx->alg = alg->name;
    ctx->encrypt = encrypt;
    if (alg->name == WEBCRYPTO_ALG_AES_CBC) {
        memcpy(ctx->block, alg->iv, AES_BLOCK);
    } else {
        memcpy(ctx->block, alg->counter, AES_BLOCK);
        ctx->ctr_bits = alg->length;
        ctx->buf_len = AES_BLOCK;
    }
    *out = ctx;
    return WEBCRYPTO_OK;
}

static webcrypto_status ctr_update(webcrypto_cipher_ctx *ctx, const uint8_t *in, size_t len,
                                   uint8_t *out) {
    const webcrypto_key *key = ctx->key;
    /* First the rest of the keystream block a previous call started. */
    while (len && ctx->buf_len < AES_BLOCK) {
        *out++ = *in++ ^ ctx->buf[ctx->buf_len++];
        len--;
    }
    uint64_t more = blocks_for(len);
    if (more > UINT64_MAX - ctx->ctr_blocks || ctr_too_long(ctx->ctr_blocks + more, ctx->ctr_bits))
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-CTR: the data would reuse counter values of a %zu-bit counter",
                        ctx->ctr_bits);
    size_t full = len - len % AES_BLOCK;
    webcrypto_status st = ctr_run(key, ctx->block, ctx->ctr_bits, in, full, out);
    if (st != WEBCRYPTO_OK) return st;
    ctx->ctr_blocks += full / AES_BLOCK;
    size_t rest = len - full;
    if (rest) {
        /* Keep this block's keystream for the next call. */
        static const uint8_t zero[AES_BLOCK];
        st = ctr_run(key, ctx->block, ctx->ctr_bits, zero, AES_BLOCK, ctx->buf);
        if (st != WEBCRYPTO_OK) return st;
        ctx->ctr_blocks++;
        for (size_t i = 0; i < rest; i++) out[full + i] = in[full + i] ^ ctx->buf[i];
        ctx->buf_len = rest;
    }
    return WEBCRYPTO_OK;
}

/* CBC: whole blocks go through; encryption keeps a partial block back,
 * decryption also keeps the last whole block (it may hold the padding). */
static webcrypto_status cbc_update(webcrypto_cipher_ctx *ctx, const uint8_t *in, size_t len,
                                   uint8_t *out, size_t *out_len) {
    const wc_backend_ops *ops = ctx->key->backend->ops;
    size_t keep_whole = ctx->encrypt ? 0 : 1;
    size_t written = 0;
    webcrypto_status st;
    /* Complete the pending block if there is more input than it needs. */
    if (ctx->buf_len) {
        size_t take = AES_BLOCK - ctx->buf_len;
        if (take > len) take = len;
        memcpy(ctx->buf + ctx->buf_len, in, take);
        ctx->buf_len += take;
        in += take;
        len -= take;
        if (ctx->buf_len == AES_BLOCK && (len > 0 || !keep_whole)) {
            st = ops->cipher(ctx->key->state, WC_CIPHER_AES_CBC, ctx->encrypt, ctx->block, ctx->buf,
                             AES_BLOCK, out);
            if (st != WEBCRYPTO_OK) return st;
            memcpy(ctx->block, ctx->encrypt ? out : ctx->buf, AES_BLOCK);
            written = AES_BLOCK;
            ctx->buf_len = 0;
        }
    }
    if (len) {
        size_t rest = len % AES_BLOCK;
        if (rest == 0 && keep_whole) rest = AES_BLOCK;
        size_t n = len - rest;
        if (n) {
            uint8_t next_iv[AES_BLOCK];
            memcpy(next_iv, in + n - AES_BLOCK, AES_BLOCK); /* decryption chains on input */
            st = ops->cipher(ctx->key->state, WC_CIPHER_AES_CBC, ctx->encrypt, ctx->block, in, n,
                             out + written);
            if (st != WEBCRYPTO_OK) return st;
            memcpy(ctx->block, ctx->encrypt ? out + written + n - AES_BLOCK : next_iv, AES_BLOCK);
            written += n;
        }
        memcpy(ctx->buf, in + n, rest);
        ctx->buf_len = rest;
    }
    *out_len = written;
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_cipher_update(webcrypto_cipher_ctx *ctx, const uint8_t *data,
                                         size_t data_len, uint8_t *out, size_t out_cap,
                                         size_t *out_len) {
    WC_REQUIRE(ctx && out_len, "cipher_update: ctx and out_len must not be NULL");
    WC_REQUIRE(data || data_len == 0, "cipher_update: data must not be NULL");
    WC_REQUIRE(!ctx->finished, "cipher_update: the context is already finished");
    webcrypto_status st;
    size_t most = data_len;
    if (ctx->alg == WEBCRYPTO_ALG_AES_CBC) {
        size_t total = ctx->buf_len + data_len;
        /* Decryption always holds back the last whole block (it may be padding). */
        if (!ctx->encrypt && total) total--;
        most = total - total % AES_BLOCK;
    }
    if (wc_output_check(most, out, out_cap, out_len, &st)) return st;
    if (data_len == 0) {
        *out_len = 0;
        return WEBCRYPTO_OK;
    }
    if (ctx->alg == WEBCRYPTO_ALG_AES_CTR) {
        st = ctr_update(ctx, data, data_len, out);
        if (st == WEBCRYPTO_OK) *out_len = data_len;
    } else {
        st = cbc_update(ctx, data, data_len, out, out_len);
    }
    if (st != WEBCRYPTO_OK) ctx->finished = true; /* the stream is broken: no further output */
    return st;
}

webcrypto_status webcrypto_cipher_final(webcrypto_cipher_ctx *ctx, uint8_t *out, size_t out_cap,
                                        size_t *out_len) {
    WC_REQUIRE(ctx && out_len, "cipher_final: ctx and out_len must not be NULL");
    WC_REQUIRE(!ctx->finished, "cipher_final: the context is already finished");
    webcrypto_status st;
    size_t most = ctx->alg == WEBCRYPTO_ALG_AES_CBC ? AES_BLOCK : 0;
    if (ctx->alg == WEBCRYPTO_ALG_AES_CBC && !ctx->encrypt) most = AES_BLOCK - 1;
    if (wc_output_check(most, out, out_cap, out_len, &st)) return st;
    ctx->finished = true;
    if (ctx->alg == WEBCRYPTO_ALG_AES_CTR) {
        *out_len = 0;
        return WEBCRYPTO_OK;
    }
    const wc_backend_ops *ops = ctx->key->backend->ops;
    if (ctx->encrypt) {
        memset(ctx->buf + ctx->buf_len, (int)(AES_BLOCK - ctx->buf_len), AES_BLOCK - ctx->buf_len);
        st = ops->cipher(ctx->key->state, WC_CIPHER_AES_CBC, true, ctx->block, ctx->buf, AES_BLOCK,
                         out);
        if (st == WEBCRYPTO_OK) *out_len = AES_BLOCK;
        return st;
    }
    if (ctx->buf_len != AES_BLOCK)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-CBC: ciphertext must be a non-zero multiple of 16 bytes");
    uint8_t last[AES_BLOCK];
    st = ops->cipher(ctx->key->state, WC_CIPHER_AES_CBC, false, ctx->block, ctx->buf, AES_BLOCK,
                     last);
    size_t pad = st == WEBCRYPTO_OK ? pad_public(pkcs7_pad_len(last)) : 0;
    if (st == WEBCRYPTO_OK && pad == 0) st = wc_error(WEBCRYPTO_ERR_OPERATION, "AES-CBC: bad padding");
    if (st == WEBCRYPTO_OK) {
        memcpy(out, last, AES_BLOCK - pad);
        *out_len = AES_BLOCK - pad;
    }
    wc_wipe(last, sizeof last);
    return st;
}

void webcrypto_cipher_ctx_free(webcrypto_cipher_ctx *ctx) {
    if (!ctx) return;
    wc_wipe(ctx, sizeof *ctx);
    free(ctx);
}
