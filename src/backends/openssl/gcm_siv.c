/*
 * gcm_siv.c - AES-GCM-SIV (RFC 8452 section 4) on OpenSSL's AES.
 *
 * Per key (secret_key_new): an AES-ECB context keyed with the
 * key-generating key, a template that threads copy (cheaper than a key
 * schedule; copying only reads it, so threads may share the key). Each
 * thread keeps its two contexts for the key in the backend's thread cache
 * (thread_cache.h): that copy, and one re-keyed with each message key. That
 * saves an allocation and a copy per message (about a quarter of the time
 * at 64 bytes), and, unlike a spare pair left in the key, takes no atomic
 * operation per message. The message context holds the thread's last
 * message key until its next call, the key's free or the thread's exit, a
 * secret weaker than the key-generating key held beside it.
 * Per message:
 *  1. the message keys: AES over the blocks LE32(i) || nonce, keeping the
 *     first 8 bytes of each (i = 0,1: authentication; 2..3 or 2..5: the
 *     encryption key), and the copied context is re-keyed with the latter;
 *  2. S = POLYVAL(auth, pad(AAD) || pad(plaintext) || LE64(bits(AAD)) ||
 *     LE64(bits(plaintext))), XOR the nonce, top bit cleared, encrypted: the
 *     tag;
 *  3. CTR from the tag with its top bit set, where only the first 4 bytes
 *     count, as a little-endian 32-bit counter that wraps on its own. That is
 *     not OpenSSL's CTR (a big-endian 128-bit counter), so the counter blocks
 *     are built here and encrypted with AES-ECB in batches of SIV_BATCH bytes.
 * Opening decrypts into the caller's buffer, XORing and hashing each batch
 * of plaintext in one pass while it is in cache, and wipes the buffer if the
 * tag does not match.
 *
 * All AES is OpenSSL's: we write no AES of our own.
 *
 * OpenSSL 3.2+ has its own AES-GCM-SIV cipher, 4-11 times slower than this
 * (docs/BENCHMARKS.md, "AES-GCM-SIV and Argon2 on OpenSSL 3.2+"), so it is
 * used only when WEBCRYPTO_OPENSSL_GCM_SIV=openssl asks for it (to hold the
 * two to the same bytes) and it reproduces RFC 8452 vectors at init. Its
 * names are strings, so this builds with OpenSSL 3.0's headers.
 */
#define _GNU_SOURCE /* secure_getenv: a setuid program's environment is not trusted */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "core/ct.h"
#include "gcm_siv.h"
#include "openssl_internal.h"
#include "polyval.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* On SSE2 (x86-64, little-endian) every block the next step reads (AES's
 * input and key, POLYVAL's key and blocks) is written whole, one 16-byte
 * store: a 16-byte load of bytes written by narrower stores cannot take
 * them from the store buffer and waits until they reach the cache, a stall
 * at each step of a message's chain. */
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SIV_SSE2 1
#endif

/* Keystream bytes per AES-ECB call: large enough that the call overhead
 * vanishes, small enough that counters, keystream and data stay in L1. */
#define SIV_BATCH 4096

static EVP_CIPHER *ecb128, *ecb256;
/* OpenSSL's own AES-128/256-GCM-SIV when chosen at init, else NULL. */
static EVP_CIPHER *native128, *native256;

/* An AES-ECB context: the provider's own (where init found AES-ECB's
 * functions answering as EVP does: provider_direct.h, k->pe) or an
 * EVP_CIPHER_CTX. The provider's skip EVP's per-call parameter work, most
 * of the cost of keying a message key and of the few blocks a small
 * message needs. */
typedef void aes_ctx;

typedef struct siv_key {
    wc_ossl_key_head head;  /* AEAD, AES-GCM-SIV; first, as in every key state */
    size_t key_len;          /* 16 or 32 */
    const EVP_CIPHER *ecb;   /* AES-128-ECB or AES-256-ECB */
    const wc_prov_cipher *pe; /* its provider functions, or NULL: EVP */
    aes_ctx *kgk;            /* AES-ECB keyed with the key-generating key (the template) */
    EVP_CIPHER_CTX *native;  /* OpenSSL's GCM-SIV keyed with the key, when chosen */
    wc_tc_key tc;            /* the threads' contexts (see the top) */
} siv_key;

static void ctx_free(const siv_key *k, aes_ctx *c) {
    if (!c) return;
    if (k->pe)
        k->pe->freectx(c); /* cleanses the key schedule, as EVP_CIPHER_CTX_free */
    else
        EVP_CIPHER_CTX_free(c);
}

/* *c keyed with key (k->key_len bytes) for encryption, without padding:
 * made when *c is NULL, else re-keyed. */
static webcrypto_status ctx_key(const siv_key *k, aes_ctx **c, const uint8_t *key) {
    if (k->pe) {
        if (!*c) {
            if (!(*c = wc_prov_mode_new(k->pe, key, true))) return wc_ossl_fail("AES key set-up");
            return WEBCRYPTO_OK;
        }
        /* A new key alone: the padding, off since wc_prov_mode_new, stays so
         * (the provider's init resets no parameter it is not given), and a
         * parameter list costs the provider a search of its names per call. */
        if (k->pe->einit(*c, key, k->pe->key_len, NULL, 0, NULL) != 1)
            return wc_ossl_fail("AES key set-up (message key)");
        return WEBCRYPTO_OK;
    }
    bool fresh = !*c;
    if (fresh && !(*c = EVP_CIPHER_CTX_new())) {
        ERR_clear_error();
        return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "OpenSSL: out of memory (EVP_CIPHER_CTX_new)");
    }
    if (EVP_EncryptInit_ex2(*c, fresh ? k->ecb : NULL, key, NULL, NULL) != 1)
        return wc_ossl_fail("EVP_EncryptInit_ex2 (key)");
    if (fresh && EVP_CIPHER_CTX_set_padding(*c, 0) != 1)
        return wc_ossl_fail("EVP_CIPHER_CTX_set_padding");
    return WEBCRYPTO_OK;
}

/* A copy of the key's kgk context. */
static webcrypto_status ctx_dup_kgk(const siv_key *k, aes_ctx **out) {
    if (k->pe) {
        if (!(*out = k->pe->dupctx(k->kgk))) return wc_ossl_no_memory("AES context copy");
        return WEBCRYPTO_OK;
    }
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) {
        ERR_clear_error();
        return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "OpenSSL: out of memory (EVP_CIPHER_CTX_new)");
    }
    if (EVP_CIPHER_CTX_copy(c, k->kgk) != 1) {
        EVP_CIPHER_CTX_free(c);
        return wc_ossl_fail("EVP_CIPHER_CTX_copy");
    }
    *out = c;
    return WEBCRYPTO_OK;
}

/* EVP's free as the thread cache's prov_free (contexts of either kind live
 * in an entry's prov and prov_dec). */
static void evp_ctx_free(void *c) { EVP_CIPHER_CTX_free(c); }

/* The calling thread's two contexts for k: *kgk a copy of the key's
 * template (made here on the thread's first call), *msg the one keyed per
 * message (NULL until derive_keys first keys it). A context whose call
 * failed is dropped with drop (its state is not known). */
static webcrypto_status thread_ctxs(const siv_key *k, aes_ctx ***kgk, aes_ctx ***msg) {
    wc_tc_entry *e = wc_tc_entry_get(&k->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    if (!e->prov) {
        webcrypto_status st = ctx_dup_kgk(k, &e->prov);
        if (st != WEBCRYPTO_OK) return st;
        e->prov_free = k->pe ? k->pe->freectx : evp_ctx_free;
    }
    *kgk = &e->prov;
    *msg = &e->prov_dec;
    return WEBCRYPTO_OK;
}

static void drop(const siv_key *k, aes_ctx **slot) {
    ctx_free(k, *slot); /* cleanses the key schedule */
    *slot = NULL;
}

static uint32_t load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#ifndef SIV_SSE2
static void store_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void store_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}
#endif

/* One message through OpenSSL's GCM-SIV: ctx a keyed template, copied per
 * call. Sealing writes the tag to tag; opening takes it from tag and fails
 * (OperationError) when it does not match, having written unverified
 * plaintext to out, which the caller wipes. len and aad_len fit an int. */
static webcrypto_status native_crypt(const EVP_CIPHER_CTX *tmpl, bool seal,
                                     const uint8_t nonce[12], const uint8_t *aad, size_t aad_len,
                                     const uint8_t *in, size_t len, uint8_t *out,
                                     uint8_t tag[16]) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_CIPHER_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    int n = 0, fin = 0;
    /* A NULL output would make the update an AAD one; final writes nothing. */
    uint8_t none[16];
    if (!len) out = none;
    if (EVP_CIPHER_CTX_copy(c, tmpl) != 1)
        st = wc_ossl_fail("EVP_CIPHER_CTX_copy (AES-GCM-SIV)");
    else if (EVP_CipherInit_ex2(c, NULL, NULL, nonce, seal, NULL) != 1)
        st = wc_ossl_fail("EVP_CipherInit_ex2 (AES-GCM-SIV nonce)");
    else if (!seal && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) != 1)
        st = wc_ossl_fail("EVP_CTRL_AEAD_SET_TAG (AES-GCM-SIV)");
    else if (aad_len && EVP_CipherUpdate(c, NULL, &n, aad, (int)aad_len) != 1)
        st = wc_ossl_fail("EVP_CipherUpdate (AES-GCM-SIV AAD)");
    /* Even an empty message goes through update: that computes the tag. */
    else if (EVP_CipherUpdate(c, out, &n, len ? in : wc_ossl_empty_buf, (int)len) != 1)
        st = wc_ossl_fail("EVP_CipherUpdate (AES-GCM-SIV)");
    else if (n != (int)len)
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "OpenSSL: AES-GCM-SIV output %d bytes, expected %zu", n, len);
    else if (EVP_CipherFinal_ex(c, none, &fin) != 1 || fin != 0) {
        /* Opening: the tag's verdict (or a failure like it: OperationError either way). */
        ERR_clear_error();
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      seal ? "OpenSSL: AES-GCM-SIV EVP_CipherFinal_ex failed"
                           : "AES-GCM-SIV: the authentication tag does not match (wrong key, "
                             "nonce, additional data or tag, or altered ciphertext)");
    } else if (seal && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
        st = wc_ossl_fail("EVP_CTRL_AEAD_GET_TAG (AES-GCM-SIV)");
    EVP_CIPHER_CTX_free(c); /* cleanses its key schedules */
    return st;
}

/* RFC 8452 C.1 and C.2 vectors (key 01 00.., nonce 03 00..): AAD 01 and
 * plaintext 02 00 00 00 00 00 00 00, with each key size, and C.1's empty
 * message; ciphertext || tag. */
static const struct {
    size_t key_len, aad_len, len;
    uint8_t result[24];
} probe_vectors[] = {
    {16, 1, 8, {0x1e, 0x6d, 0xab, 0xa3, 0x56, 0x69, 0xf4, 0x27, 0x3b, 0x0a, 0x1a, 0x25,
                0x60, 0x96, 0x9c, 0xdf, 0x79, 0x0d, 0x99, 0x75, 0x9a, 0xbd, 0x15, 0x08}},
    {32, 1, 8, {0x1d, 0xe2, 0x29, 0x67, 0x23, 0x7a, 0x81, 0x32, 0x91, 0x21, 0x3f, 0x26,
                0x7e, 0x3b, 0x45, 0x2f, 0x02, 0xd0, 0x1a, 0xe3, 0x3e, 0x4e, 0xc8, 0x54}},
    {16, 0, 0, {0xdc, 0x20, 0xe2, 0xd8, 0x3f, 0x25, 0x70, 0x5b, 0xb4, 0x9e, 0x43, 0x9e,
                0xca, 0x56, 0xde, 0x25}},
};

/* Whether OpenSSL's GCM-SIV (128 and 256 already fetched) seals each probe
 * vector exactly, opens it back, and refuses it with a changed tag. */
static bool native_probe(void) {
    uint8_t key[32] = {1}, nonce[12] = {3}, aad[1] = {1}, pt[8] = {2};
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof probe_vectors / sizeof probe_vectors[0]; i++) {
        size_t len = probe_vectors[i].len;
        const uint8_t *want = probe_vectors[i].result;
        uint8_t out[8], tag[16];
        EVP_CIPHER_CTX *t = EVP_CIPHER_CTX_new();
        ok = t && EVP_EncryptInit_ex2(t, probe_vectors[i].key_len == 16 ? native128 : native256,
                                      key, NULL, NULL) == 1;
        ok = ok && native_crypt(t, true, nonce, aad, probe_vectors[i].aad_len, pt, len, out,
                                tag) == WEBCRYPTO_OK &&
             memcmp(out, want, len) == 0 && memcmp(tag, want + len, 16) == 0;
        memcpy(tag, want + len, 16);
        ok = ok && native_crypt(t, false, nonce, aad, probe_vectors[i].aad_len, want, len, out,
                                tag) == WEBCRYPTO_OK && memcmp(out, pt, len) == 0;
        tag[0] ^= 1;
        ok = ok && native_crypt(t, false, nonce, aad, probe_vectors[i].aad_len, want, len, out,
                                tag) == WEBCRYPTO_ERR_OPERATION;
        EVP_CIPHER_CTX_free(t);
    }
    return ok;
}

bool wc_ossl_gcm_siv_init(void) {
    ecb128 = EVP_CIPHER_fetch(NULL, "AES-128-ECB", NULL);
    ecb256 = EVP_CIPHER_fetch(NULL, "AES-256-ECB", NULL);
    if (!ecb128 || !ecb256) return false;
    const char *want = secure_getenv("WEBCRYPTO_OPENSSL_GCM_SIV");
    if (!want || strcmp(want, "openssl") != 0) return true; /* ours: the faster */
    /* Forced: OpenSSL's if it passes the probe, else no GCM-SIV at all, so
     * that a test asking for it never runs ours instead. */
    native128 = EVP_CIPHER_fetch(NULL, "AES-128-GCM-SIV", NULL);
    native256 = EVP_CIPHER_fetch(NULL, "AES-256-GCM-SIV", NULL);
    if (native128 && native256 && native_probe()) return true;
    EVP_CIPHER_free(native128);
    EVP_CIPHER_free(native256);
    native128 = native256 = NULL;
    return false;
}

void wc_ossl_gcm_siv_key_free(void *state) {
    siv_key *k = state;
    if (!k) return;
    wc_tc_key_release(&k->tc); /* every thread's copies (cleansed) */
    ctx_free(k, k->kgk); /* cleanses the key schedule */
    EVP_CIPHER_CTX_free(k->native);
    wc_wipe(k, sizeof *k);
    free(k);
}

webcrypto_status wc_ossl_gcm_siv_key_new(const uint8_t *key, size_t key_len, void **state) {
    const EVP_CIPHER *ecb = key_len == 16 ? ecb128 : key_len == 32 ? ecb256 : NULL;
    if (!ecb)
        return wc_error(WEBCRYPTO_ERR_DATA, "AES-GCM-SIV key must be 16 or 32 bytes, not %zu",
                        key_len);
    siv_key *k = calloc(1, sizeof *k);
    if (!k) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    k->head = (wc_ossl_key_head){WC_FAMILY_AEAD, WC_AEAD_AES_GCM_SIV};
    k->key_len = key_len;
    k->ecb = ecb;
    const wc_prov_cipher *pe = &wc_ossl_prov_ecbs[key_len == 16 ? 0 : 2];
    k->pe = pe->newctx ? pe : NULL;
    wc_tc_key_init(&k->tc);
    webcrypto_status st = ctx_key(k, &k->kgk, key);
    if (st != WEBCRYPTO_OK) {
        /* k->kgk, if made, is freed below */
    } else if (native128) {
        if (!(k->native = EVP_CIPHER_CTX_new()))
            st = wc_ossl_no_memory("EVP_CIPHER_CTX_new");
        else if (EVP_EncryptInit_ex2(k->native, key_len == 16 ? native128 : native256, key, NULL,
                                     NULL) != 1)
            st = wc_ossl_fail("EVP_EncryptInit_ex2 (AES-GCM-SIV key)");
    }
    if (st != WEBCRYPTO_OK) {
        wc_ossl_gcm_siv_key_free(k);
        return st;
    }
    *state = k;
    return WEBCRYPTO_OK;
}

/* AES-ECB encryption of len bytes (a multiple of 16, at most SIV_BATCH, so
 * it fits an int). ECB without padding outputs exactly its input, checked. */
static webcrypto_status ecb_encrypt(const siv_key *k, aes_ctx *c, uint8_t *out,
                                    const uint8_t *in, size_t len) {
    if (k->pe) { /* the one-shot function where the provider has one (wc_prov_mode_run) */
        size_t n = 0;
        if ((k->pe->cipher ? k->pe->cipher : k->pe->update)(c, out, &n, len, in, len) != 1 ||
            n != len)
            return wc_ossl_fail("AES-ECB (AES-GCM-SIV)");
        return WEBCRYPTO_OK;
    }
    int got = 0;
    if (EVP_EncryptUpdate(c, out, &got, in, (int)len) != 1)
        return wc_ossl_fail("EVP_EncryptUpdate (AES-GCM-SIV)");
    if (got != (int)len)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "OpenSSL: AES-ECB output %d bytes, expected %zu (AES-GCM-SIV)", got, len);
    return WEBCRYPTO_OK;
}

/* A message's secrets besides POLYVAL's state, wiped as one. */
typedef struct siv_secrets {
    uint8_t blocks[6 * 16]; /* step 1's AES output */
    uint8_t auth_key[16];
    uint8_t enc_key[32]; /* key_len bytes used */
    uint8_t s[16];        /* POLYVAL's result, then the tag's input */
    uint8_t expected[16]; /* opening: the tag computed */
} siv_secrets;

#ifdef SIV_SSE2
/* The nonce in a register's first 12 bytes, the last 4 zero. */
static __m128i nonce_vector(const uint8_t nonce[12]) {
    uint32_t w[3];
    memcpy(w, nonce, 12);
    return _mm_set_epi32(0, (int)w[2], (int)w[1], (int)w[0]);
}
#endif

/* Step 1's input: block i is LE32(i) || nonce, for i < n. */
static void key_blocks(uint8_t *blocks, const uint8_t nonce[12], size_t n) {
#ifdef SIV_SSE2
    __m128i v = _mm_slli_si128(nonce_vector(nonce), 4);
    for (size_t i = 0; i < n; i++)
        _mm_storeu_si128((__m128i *)(blocks + 16 * i),
                         _mm_or_si128(v, _mm_cvtsi32_si128((int)i)));
#else
    for (size_t i = 0; i < n; i++) {
        store_le32(blocks + 16 * i, (uint32_t)i);
        memcpy(blocks + 16 * i + 4, nonce, 12);
    }
#endif
}

/* Step 1's keys: the first 8 bytes of each of 2 * pairs blocks, in order. */
static void first_halves(uint8_t *out, const uint8_t *blocks, size_t pairs) {
#ifdef SIV_SSE2
    for (size_t j = 0; j < pairs; j++)
        _mm_storeu_si128((__m128i *)(out + 16 * j),
                         _mm_unpacklo_epi64(_mm_loadu_si128((const __m128i *)(blocks + 32 * j)),
                                            _mm_loadu_si128((const __m128i *)(blocks + 32 * j + 16))));
#else
    for (size_t i = 0; i < 2 * pairs; i++) memcpy(out + 8 * i, blocks + 16 * i, 8);
#endif
}

/* Step 1: the message-authentication key and the message-encryption key
 * (to m), and *msg, the thread's message context keyed with the latter. A
 * context that failed is dropped here. */
static webcrypto_status derive_keys(const siv_key *k, const uint8_t nonce[12], siv_secrets *m,
                                    aes_ctx ***msg) {
    aes_ctx **g, **c;
    webcrypto_status st = thread_ctxs(k, &g, &c);
    if (st != WEBCRYPTO_OK) return st;
    size_t n = k->key_len == 32 ? 6 : 4;
    key_blocks(m->blocks, nonce, n);
    if ((st = ecb_encrypt(k, *g, m->blocks, m->blocks, 16 * n)) != WEBCRYPTO_OK) {
        drop(k, g);
        return st;
    }
    first_halves(m->auth_key, m->blocks, 1);
    first_halves(m->enc_key, m->blocks + 32, (n - 2) / 2);
    /* The thread's context from its last message has the cipher already:
     * only a new key. */
    if ((st = ctx_key(k, c, m->enc_key)) != WEBCRYPTO_OK) {
        drop(k, c);
        return st;
    }
    *msg = c;
    return WEBCRYPTO_OK;
}

/* Steps 1 and 2's start, both ways: the message's keys, its AES context
 * (*msg) and POLYVAL (*pv, to wipe with wc_polyval_wipe when this succeeds)
 * over the additional data. */
static webcrypto_status message_start(const siv_key *k, const uint8_t nonce[12],
                                      const uint8_t *aad, size_t aad_len, siv_secrets *m,
                                      aes_ctx ***msg, wc_polyval *pv) {
    webcrypto_status st = derive_keys(k, nonce, m, msg);
    if (st != WEBCRYPTO_OK) return st;
    wc_polyval_init(pv, m->auth_key, WC_POLYVAL_AUTO);
    wc_polyval_update(pv, aad, aad_len);
    return WEBCRYPTO_OK;
}

/* Step 2's end: the length block, then S XOR nonce with the top bit cleared,
 * which encrypted is the tag. */
static void tag_input(wc_polyval *pv, const uint8_t nonce[12], size_t aad_len, size_t len,
                      uint8_t s[16]) {
    /* both lengths at most 2^36 bytes (core) */
#ifdef SIV_SSE2
    _mm_storeu_si128((__m128i *)s, _mm_set_epi64x((long long)((uint64_t)len * 8),
                                                  (long long)((uint64_t)aad_len * 8)));
#else
    store_le64(s, (uint64_t)aad_len * 8);
    store_le64(s + 8, (uint64_t)len * 8);
#endif
    wc_polyval_update(pv, s, 16);
    wc_polyval_final(pv, s);
#ifdef SIV_SSE2
    __m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)s), nonce_vector(nonce));
    _mm_storeu_si128((__m128i *)s, _mm_and_si128(v, _mm_set_epi32(INT32_MAX, -1, -1, -1)));
#else
    for (int i = 0; i < 12; i++) s[i] ^= nonce[i];
    s[15] &= 0x7f;
#endif
}

/* The first counter block: the tag with its top bit set. */
static void counter_first(uint8_t first[16], const uint8_t tag[16]) {
#ifdef SIV_SSE2
    _mm_storeu_si128((__m128i *)first, _mm_or_si128(_mm_loadu_si128((const __m128i *)tag),
                                                    _mm_set_epi32(INT32_MIN, 0, 0, 0)));
#else
    memcpy(first, tag, 16);
    first[15] |= 0x80;
#endif
}

/* out = in ^ ks, 16 bytes at a time where possible. out may equal in. */
static void xor_bytes(uint8_t *out, const uint8_t *in, const uint8_t *ks, size_t n) {
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(out + i),
                         _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + i)),
                                       _mm_loadu_si128((const __m128i *)(ks + i))));
#else
    for (; i + 16 <= n; i += 16) {
        uint64_t a, b, x, y;
        memcpy(&a, in + i, 8);
        memcpy(&b, in + i + 8, 8);
        memcpy(&x, ks + i, 8);
        memcpy(&y, ks + i + 8, 8);
        a ^= x;
        b ^= y;
        memcpy(out + i, &a, 8);
        memcpy(out + i + 8, &b, 8);
    }
#endif
    for (; i < n; i++) out[i] = (uint8_t)(in[i] ^ ks[i]);
}

/* nb counter blocks from first (its first 4 bytes a little-endian counter,
 * which wraps mod 2^32), returning the counter that follows. */
static uint32_t counter_blocks(uint8_t *ctrs, const uint8_t first[16], uint32_t ctr, size_t nb) {
#ifdef SIV_SSE2
    /* One 16-byte store a block; lane 0 is bytes 0..3, read little-endian. */
    __m128i c = _mm_or_si128(_mm_and_si128(_mm_loadu_si128((const __m128i *)first),
                                           _mm_set_epi32(-1, -1, -1, 0)),
                             _mm_cvtsi32_si128((int)ctr));
    const __m128i one = _mm_set_epi32(0, 0, 0, 1);
    for (size_t b = 0; b < nb; b++) {
        _mm_storeu_si128((__m128i *)(ctrs + 16 * b), c);
        c = _mm_add_epi32(c, one);
    }
    return ctr + (uint32_t)nb;
#else
    for (size_t b = 0; b < nb; b++) {
        memcpy(ctrs + 16 * b, first, 16);
        store_le32(ctrs + 16 * b, ctr++);
    }
    return ctr;
#endif
}

/* Step 3 on OpenSSL: CTR with RFC 8452's counter. When pv is not NULL
 * (opening), each batch of output is hashed right after it is written. */
static webcrypto_status ctr32(const siv_key *k, aes_ctx *c, const uint8_t tag[16],
                              const uint8_t *in, size_t len, uint8_t *out, wc_polyval *pv) {
    uint8_t ctrs[SIV_BATCH], ks[SIV_BATCH];
    uint8_t first[16];
    counter_first(first, tag);
    uint32_t ctr = load_le32(first);
    size_t used = len < SIV_BATCH ? len : SIV_BATCH; /* of ks, to wipe */
    webcrypto_status st = WEBCRYPTO_OK;
    while (len > 0) {
        size_t n = len < SIV_BATCH ? len : SIV_BATCH;
        size_t nb = (n + 15) / 16;
        ctr = counter_blocks(ctrs, first, ctr, nb);
        if ((st = ecb_encrypt(k, c, ks, ctrs, 16 * nb)) != WEBCRYPTO_OK) break;
        if (pv)
            wc_polyval_update_xor(pv, out, in, ks, n); /* n % 16 != 0 only at the end */
        else
            xor_bytes(out, in, ks, n);
        in += n;
        out += n;
        len -= n;
    }
    wc_wipe(ks, (used + 15) & ~(size_t)15);
    return st;
}

/* OpenSSL's GCM-SIV where chosen; its EVP calls take int lengths, so a
 * longer message (2 GiB and up) runs ours, which gives the same bytes. */
static bool use_native(const siv_key *k, size_t aad_len, size_t len) {
    return k->native && aad_len <= INT_MAX && len <= INT_MAX;
}

webcrypto_status wc_ossl_gcm_siv_seal(const void *key_state, const uint8_t nonce[12],
                                      const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t len, uint8_t *out, uint8_t tag[16]) {
    const siv_key *k = key_state;
    if (use_native(k, aad_len, len))
        return native_crypt(k->native, true, nonce, aad, aad_len, in, len, out, tag);
    siv_secrets m;
    aes_ctx **c = NULL;
    wc_polyval pv;
    webcrypto_status st = message_start(k, nonce, aad, aad_len, &m, &c, &pv);
    if (st == WEBCRYPTO_OK) {
        wc_polyval_update(&pv, in, len); /* before out is written: out may be in */
        tag_input(&pv, nonce, aad_len, len, m.s);
        wc_polyval_wipe(&pv);
        uint8_t t[16];
        st = ecb_encrypt(k, *c, t, m.s, 16);
        if (st == WEBCRYPTO_OK) st = ctr32(k, *c, t, in, len, out, NULL);
        if (st == WEBCRYPTO_OK)
            memcpy(tag, t, 16);
        else
            drop(k, c);
    }
    wc_wipe(&m, sizeof m);
    return st;
}

webcrypto_status wc_ossl_gcm_siv_open(const void *key_state, const uint8_t nonce[12],
                                      const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t len, const uint8_t tag[16], uint8_t *out) {
    const siv_key *k = key_state;
    uint8_t given[16];
    memcpy(given, tag, 16); /* tag may sit right after in, which may be out */
    if (use_native(k, aad_len, len)) {
        webcrypto_status nst =
            native_crypt(k->native, false, nonce, aad, aad_len, in, len, out, given);
        if (nst != WEBCRYPTO_OK) wc_wipe(out, len); /* no unverified plaintext stays behind */
        return nst;
    }
    siv_secrets m;
    aes_ctx **c = NULL;
    wc_polyval pv;
    webcrypto_status st = message_start(k, nonce, aad, aad_len, &m, &c, &pv);
    if (st == WEBCRYPTO_OK) {
        st = ctr32(k, *c, given, in, len, out, &pv);
        if (st == WEBCRYPTO_OK) {
            tag_input(&pv, nonce, aad_len, len, m.s);
            st = ecb_encrypt(k, *c, m.expected, m.s, 16);
        }
        wc_polyval_wipe(&pv);
        if (st != WEBCRYPTO_OK) /* the library failed; a forgery leaves the context sound */
            drop(k, c);
        /* The tag's verdict is public (ct.h): the call fails or not. */
        else if (!wc_ct_public_bool(wc_equal_ct(m.expected, given, 16)))
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "AES-GCM-SIV: the authentication tag does not match (wrong key, "
                          "nonce, additional data or tag, or altered ciphertext)");
        if (st != WEBCRYPTO_OK) wc_wipe(out, len); /* no unverified plaintext stays behind */
    }
    wc_wipe(&m, sizeof m);
    return st;
}
