/*
 * boringssl_backend.c - the "boringssl" backend, over BoringSSL's libcrypto.
 *
 * Built as a module (webcrypto-boringssl.so, see backend.h): BoringSSL and
 * OpenSSL export the same symbol names, and the core loads this module with
 * its own symbol scope.
 *
 * Design (see backend.h for the contract):
 *  - Digests and HMAC use BoringSSL's low-level SHA-1/SHA-2 functions on
 *    contexts held by value: EVP_DigestInit allocates per call, these do not.
 *    An HMAC key keeps the two hash states that have absorbed K0^ipad and
 *    K0^opad (RFC 2104); each call copies them (a struct copy).
 *  - AES-CBC and AES-CTR use AES_KEY schedules made once per key, with
 *    AES_cbc_encrypt / AES_ctr128_encrypt (size_t lengths, no allocation).
 *  - AES-GCM and AES-GCM-SIV use an EVP_AEAD_CTX prepared once per key, which
 *    BoringSSL documents as usable by many threads at once. The GCM AEAD takes
 *    any non-empty nonce; a tag shorter than 16 bytes is the prefix of the
 *    full tag on sealing, and is checked with a per-call context initialised
 *    for that tag length on opening (rare; that open costs about 2.3x a
 *    16-byte-tag open at 64 bytes, measured).
 *  - AES-KW (RFC 3394, default IV) is AES_wrap_key / AES_unwrap_key on the
 *    key's two AES_KEY schedules.
 *  - The asymmetric algorithms are in boringssl_pkey.c.
 *  - Every BoringSSL failure becomes OPERATION (NO_MEMORY for allocation
 *    failures) with BoringSSL's reason in the message; the error queue is
 *    cleared so nothing leaks into later calls.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/base.h> /* BoringSSL only: OpenSSL has no openssl/base.h */
#ifndef OPENSSL_IS_BORINGSSL
#error "boringssl_backend.c must be compiled against BoringSSL's headers, not OpenSSL's"
#endif
#include <openssl/aead.h>
#include <openssl/aes.h>
#include <openssl/crypto.h>
#include <openssl/digest.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hkdf.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "core/backend.h"
#include "boringssl_internal.h"

/* Stands in for an empty buffer, so no NULL pointer reaches the library. */
static const uint8_t empty_buf[1] = {0};
#define NONNULL(p, len) ((len) ? (p) : empty_buf)

static char description_text[160];

/* ---- errors ---- */

static webcrypto_status bssl_fail(const char *what) {
    uint32_t e = ERR_peek_last_error();
    webcrypto_status st = WEBCRYPTO_ERR_OPERATION;
    char reason[256];
    if (e != 0) {
        ERR_error_string_n(e, reason, sizeof reason);
        if (ERR_GET_REASON(e) == ERR_GET_REASON(ERR_R_MALLOC_FAILURE))
            st = WEBCRYPTO_ERR_NO_MEMORY;
    } else {
        snprintf(reason, sizeof reason, "no reason given");
    }
    ERR_clear_error();
    return wc_error(st, "BoringSSL: %s failed: %s", what, reason);
}

webcrypto_status wc_bssl_fail(const char *what) { return bssl_fail(what); }

static webcrypto_status out_of_memory(void) {
    return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
}

/* ---- hashes: the low-level functions on a by-value state ---- */

typedef union hash_state {
    SHA_CTX sha1;
    SHA256_CTX sha256;
    SHA512_CTX sha512; /* SHA-384 too */
} hash_state;

/* Block sizes (digest sizes: wc_hash_size, 0 for no hash). */
static size_t hash_block(wc_hash hash) {
    switch (hash) {
    case WC_HASH_SHA_1:
    case WC_HASH_SHA_256: return 64;
    case WC_HASH_SHA_384:
    case WC_HASH_SHA_512: return 128;
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512: /* BoringSSL has no SHA-3: init reports none */
    case WC_HASH_COUNT: break;
    }
    return 0;
}

static const EVP_MD *hash_md(wc_hash hash) {
    switch (hash) {
    case WC_HASH_SHA_1: return EVP_sha1();
    case WC_HASH_SHA_256: return EVP_sha256();
    case WC_HASH_SHA_384: return EVP_sha384();
    case WC_HASH_SHA_512: return EVP_sha512();
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512: /* BoringSSL has no SHA-3: init reports none */
    case WC_HASH_COUNT: break;
    }
    return NULL;
}


/* These return BoringSSL's status (always 1 in this version; checked anyway). */
static int hash_init(wc_hash hash, hash_state *s) {
    switch (hash) {
    case WC_HASH_SHA_1: return SHA1_Init(&s->sha1);
    case WC_HASH_SHA_256: return SHA256_Init(&s->sha256);
    case WC_HASH_SHA_384: return SHA384_Init(&s->sha512);
    case WC_HASH_SHA_512: return SHA512_Init(&s->sha512);
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512: /* BoringSSL has no SHA-3: init reports none */
    case WC_HASH_COUNT: break;
    }
    return 0;
}

static int hash_update(wc_hash hash, hash_state *s, const uint8_t *in, size_t len) {
    if (len == 0) return 1;
    switch (hash) {
    case WC_HASH_SHA_1: return SHA1_Update(&s->sha1, in, len);
    case WC_HASH_SHA_256: return SHA256_Update(&s->sha256, in, len);
    case WC_HASH_SHA_384: return SHA384_Update(&s->sha512, in, len);
    case WC_HASH_SHA_512: return SHA512_Update(&s->sha512, in, len);
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512: /* BoringSSL has no SHA-3: init reports none */
    case WC_HASH_COUNT: break;
    }
    return 0;
}

static int hash_final(wc_hash hash, hash_state *s, uint8_t *out) {
    switch (hash) {
    case WC_HASH_SHA_1: return SHA1_Final(out, &s->sha1);
    case WC_HASH_SHA_256: return SHA256_Final(out, &s->sha256);
    case WC_HASH_SHA_384: return SHA384_Final(out, &s->sha512);
    case WC_HASH_SHA_512: return SHA512_Final(out, &s->sha512);
    case WC_HASH_SHA3_256:
    case WC_HASH_SHA3_384:
    case WC_HASH_SHA3_512: /* BoringSSL has no SHA-3: init reports none */
    case WC_HASH_COUNT: break;
    }
    return 0;
}

/* ---- init ---- */

static webcrypto_status bssl_init(const char *variant, void **bctx, wc_caps *caps,
                                  const char **description) {
    (void)bctx;
    if (variant)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "the boringssl backend has no variant \"%s\"", variant);
    CRYPTO_library_init();
    wc_caps c = {{0}, 0};
    wc_caps_add_all(&c, WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256, WEBCRYPTO_ALG_SHA_384,
                    WEBCRYPTO_ALG_SHA_512, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_AES_CBC,
                    WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_PBKDF2);
    if (EVP_aead_aes_128_gcm() && EVP_aead_aes_192_gcm() && EVP_aead_aes_256_gcm())
        wc_caps_add(&c, WEBCRYPTO_ALG_AES_GCM);
    if (EVP_aead_aes_128_gcm_siv() && EVP_aead_aes_256_gcm_siv())
        wc_caps_add(&c, WEBCRYPTO_ALG_AES_GCM_SIV);
    if (EVP_aead_chacha20_poly1305()) wc_caps_add(&c, WEBCRYPTO_ALG_CHACHA20_POLY1305);
    /* No AES-OCB in BoringSSL; no Argon2 either (the argon2 op stays NULL). */
    wc_caps_add(&c, WEBCRYPTO_ALG_AES_KW);
    wc_bssl_pkey_init(&c);
#ifdef WC_BORINGSSL_PACKAGE
    snprintf(description_text, sizeof description_text,
             "%s (Android, %s, BORINGSSL_API_VERSION %d)", OpenSSL_version(OPENSSL_VERSION),
             WC_BORINGSSL_PACKAGE, BORINGSSL_API_VERSION);
#else
    snprintf(description_text, sizeof description_text, "%s (BORINGSSL_API_VERSION %d)",
             OpenSSL_version(OPENSSL_VERSION), BORINGSSL_API_VERSION);
#endif
    *caps = c;
    *description = description_text;
    return WEBCRYPTO_OK;
}

/* ---- random ---- */

static webcrypto_status bssl_random_bytes(const void *bctx, uint8_t *out, size_t len) {
    (void)bctx;
    if (len > 0 && RAND_bytes(out, len) != 1) return bssl_fail("RAND_bytes");
    return WEBCRYPTO_OK;
}

/* ---- digest ---- */

typedef struct digest_ctx {
    wc_hash hash;
    hash_state st;
} digest_ctx;

static webcrypto_status bssl_digest(const void *bctx, wc_hash hash,
                                    const uint8_t *in, size_t len, uint8_t *out) {
    (void)bctx;
    hash_state s;
    if (wc_hash_size(hash) == 0) return wc_hash_unavailable("BoringSSL", hash);
    int ok = hash_init(hash, &s) && hash_update(hash, &s, in, len) && hash_final(hash, &s, out);
    wc_wipe(&s, sizeof s); /* the input may be secret */
    return ok ? WEBCRYPTO_OK : bssl_fail("digest");
}

static webcrypto_status bssl_digest_new(const void *bctx, wc_hash hash, void **ctx) {
    (void)bctx;
    if (wc_hash_size(hash) == 0) return wc_hash_unavailable("BoringSSL", hash);
    digest_ctx *d = malloc(sizeof *d);
    if (!d) return out_of_memory();
    d->hash = hash;
    if (!hash_init(hash, &d->st)) {
        free(d);
        return bssl_fail("digest init");
    }
    *ctx = d;
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_digest_update(void *ctx, const uint8_t *in, size_t len) {
    digest_ctx *d = ctx;
    return hash_update(d->hash, &d->st, in, len) ? WEBCRYPTO_OK : bssl_fail("digest update");
}

static webcrypto_status bssl_digest_final(void *ctx, uint8_t *out) {
    digest_ctx *d = ctx;
    return hash_final(d->hash, &d->st, out) ? WEBCRYPTO_OK : bssl_fail("digest final");
}

static void bssl_digest_free(void *ctx) {
    if (!ctx) return;
    wc_wipe(ctx, sizeof(digest_ctx));
    free(ctx);
}

/* ---- secret key state ---- */

typedef struct hmac_key {
    wc_family family; /* WC_FAMILY_HMAC; first member of every state */
    wc_hash hash;
    size_t md_size;
    hash_state inner; /* has absorbed K0 ^ ipad */
    hash_state outer; /* has absorbed K0 ^ opad */
} hmac_key;

typedef struct aes_key {
    wc_family family;        /* CIPHER, AEAD or KEYWRAP; first */
    AES_KEY enc;             /* CBC, CTR, KW */
    AES_KEY dec;             /* CBC, KW */
    bool have_aead;
    EVP_AEAD_CTX aead;       /* GCM (16-byte tag), GCM-SIV */
    const EVP_AEAD *gcm;     /* GCM: for a context with a shorter tag */
    size_t key_len;
    uint8_t key[32];         /* GCM: for that context */
} aes_key;

static webcrypto_status hmac_key_new(wc_hash hash, const uint8_t *key,
                                     size_t key_len, void **state) {
    size_t size = wc_hash_size(hash), block = hash_block(hash);
    if (size == 0) return wc_hash_unavailable("BoringSSL", hash);
    hmac_key *s = calloc(1, sizeof *s);
    if (!s) return out_of_memory();
    s->family = WC_FAMILY_HMAC;
    s->hash = hash;
    s->md_size = size;

    /* K0 (RFC 2104): a key longer than the block is hashed; then zero-padded. */
    uint8_t k0[128] = {0}, pad[128];
    hash_state t;
    int ok = 1;
    if (key_len > block)
        ok = hash_init(hash, &t) && hash_update(hash, &t, key, key_len) && hash_final(hash, &t, k0);
    else if (key_len > 0)
        memcpy(k0, key, key_len);
    for (size_t i = 0; i < block; i++) pad[i] = (uint8_t)(k0[i] ^ 0x36);
    ok = ok && hash_init(hash, &s->inner) && hash_update(hash, &s->inner, pad, block);
    for (size_t i = 0; i < block; i++) pad[i] = (uint8_t)(k0[i] ^ 0x5c);
    ok = ok && hash_init(hash, &s->outer) && hash_update(hash, &s->outer, pad, block);
    wc_wipe(k0, sizeof k0);
    wc_wipe(pad, sizeof pad);
    wc_wipe(&t, sizeof t);
    if (!ok) {
        wc_wipe(s, sizeof *s);
        free(s);
        return bssl_fail("HMAC key setup");
    }
    *state = s;
    return WEBCRYPTO_OK;
}

static const EVP_AEAD *gcm_aead(size_t key_len) {
    switch (key_len) {
    case 16: return EVP_aead_aes_128_gcm();
    case 24: return EVP_aead_aes_192_gcm();
    default: return EVP_aead_aes_256_gcm();
    }
}

static void aes_key_free(aes_key *s) {
    if (s->have_aead) EVP_AEAD_CTX_cleanup(&s->aead);
    wc_wipe(s, sizeof *s); /* the schedules, the AEAD state and the key copy */
    free(s);
}

/* The AES schedules of CBC, CTR (encryption only) and KW. */
static webcrypto_status aes_schedules(aes_key *s, const uint8_t *key, size_t key_len, bool dec) {
    unsigned bits = (unsigned)key_len * 8;
    if (AES_set_encrypt_key(key, bits, &s->enc) != 0 ||
        (dec && AES_set_decrypt_key(key, bits, &s->dec) != 0))
        return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: AES key schedule failed");
    return WEBCRYPTO_OK;
}

static webcrypto_status aead_key(aes_key *s, wc_aead kind, const uint8_t *key, size_t key_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    switch (kind) {
    case WC_AEAD_AES_GCM:
        s->gcm = gcm_aead(key_len);
        memcpy(s->key, key, key_len);
        s->key_len = key_len;
        if (EVP_AEAD_CTX_init(&s->aead, s->gcm, key, key_len, 16, NULL) != 1)
            st = bssl_fail("EVP_AEAD_CTX_init (AES-GCM)");
        else
            s->have_aead = true;
        break;
    case WC_AEAD_AES_GCM_SIV: {
        const EVP_AEAD *a = key_len == 16 ? EVP_aead_aes_128_gcm_siv() : EVP_aead_aes_256_gcm_siv();
        if (EVP_AEAD_CTX_init(&s->aead, a, key, key_len, EVP_AEAD_DEFAULT_TAG_LENGTH, NULL) != 1)
            st = bssl_fail("EVP_AEAD_CTX_init (AES-GCM-SIV)");
        else
            s->have_aead = true;
        break;
    }
    case WC_AEAD_CHACHA20_POLY1305: /* key_len 32: the core's */
        if (EVP_AEAD_CTX_init(&s->aead, EVP_aead_chacha20_poly1305(), key, key_len, 16, NULL) != 1)
            st = bssl_fail("EVP_AEAD_CTX_init (ChaCha20-Poly1305)");
        else
            s->have_aead = true;
        break;
    case WC_AEAD_AES_OCB: /* not in BoringSSL: its capability bit is unset */
    case WC_AEAD_COUNT:
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such AEAD");
        break;
    }
    return st;
}

static webcrypto_status no_such_aes_key(void) {
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such AES key");
}

/* CIPHER, AEAD and KEYWRAP keys (secret_key_new). */
static webcrypto_status aes_key_new(wc_family family, unsigned member, const uint8_t *key,
                                    size_t key_len, void **state) {
    aes_key *s = calloc(1, sizeof *s);
    if (!s) return out_of_memory();
    s->family = family;
    webcrypto_status st = WEBCRYPTO_OK;
    bool dec = true; /* CBC and KW decrypt with a schedule of their own */
    switch (family) {
    case WC_FAMILY_AEAD: st = aead_key(s, (wc_aead)member, key, key_len); break;
    case WC_FAMILY_CIPHER:
        switch ((wc_cipher)member) {
        case WC_CIPHER_AES_CBC: break;
        case WC_CIPHER_AES_CTR: dec = false; break; /* encrypts only */
        case WC_CIPHER_COUNT: st = no_such_aes_key(); break;
        }
        if (st == WEBCRYPTO_OK) st = aes_schedules(s, key, key_len, dec);
        break;
    case WC_FAMILY_KEYWRAP: st = aes_schedules(s, key, key_len, true); break;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_KDF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: st = no_such_aes_key(); break;
    }
    if (st != WEBCRYPTO_OK) {
        aes_key_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_secret_key_new(const void *bctx, wc_family family,
                                            unsigned member, const uint8_t *key, size_t key_len,
                                            void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_HMAC:
        return hmac_key_new((wc_hash)member, NONNULL(key, key_len), key_len, state);
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP: return aes_key_new(family, member, key, key_len, state);
    case WC_FAMILY_KDF: /* the KDFs read the core's copy of the key */
        *state = NULL;
        return WEBCRYPTO_OK;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: break;
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break; /* no KMAC in BoringSSL: init reports none */
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such secret key");
}

static void bssl_secret_key_free(void *state) {
    if (!state) return;
    /* Each state starts with its family, as bssl_secret_key_new made it. */
    switch (*(const wc_family *)state) {
    case WC_FAMILY_HMAC:
        wc_wipe(state, sizeof(hmac_key));
        free(state);
        return;
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP: aes_key_free(state); return;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_KDF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break; /* no such state is made */
    }
}

/* ---- HMAC ---- */

typedef struct hmac_ctx {
    const hmac_key *key;
    hash_state st; /* a copy of the key's inner state, then the message */
} hmac_ctx;

/* out = H(K0^opad || H(K0^ipad || msg)), st holding the inner hash so far. */
static webcrypto_status hmac_finish(const hmac_key *k, hash_state *st, uint8_t *out) {
    uint8_t inner[SHA512_DIGEST_LENGTH];
    int ok = hash_final(k->hash, st, inner);
    *st = k->outer;
    ok = ok && hash_update(k->hash, st, inner, k->md_size) && hash_final(k->hash, st, out);
    wc_wipe(inner, sizeof inner);
    wc_wipe(st, sizeof *st);
    return ok ? WEBCRYPTO_OK : bssl_fail("HMAC");
}

static webcrypto_status bssl_hmac(const void *key_state, const uint8_t *in, size_t len,
                                  uint8_t *out) {
    const hmac_key *k = key_state;
    hash_state st = k->inner;
    if (!hash_update(k->hash, &st, in, len)) {
        wc_wipe(&st, sizeof st);
        return bssl_fail("HMAC update");
    }
    return hmac_finish(k, &st, out);
}

static webcrypto_status bssl_hmac_new(const void *key_state, void **ctx) {
    hmac_ctx *h = malloc(sizeof *h);
    if (!h) return out_of_memory();
    h->key = key_state;
    h->st = h->key->inner;
    *ctx = h;
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_hmac_update(void *ctx, const uint8_t *in, size_t len) {
    hmac_ctx *h = ctx;
    return hash_update(h->key->hash, &h->st, in, len) ? WEBCRYPTO_OK : bssl_fail("HMAC update");
}

static webcrypto_status bssl_hmac_final(void *ctx, uint8_t *out) {
    hmac_ctx *h = ctx;
    return hmac_finish(h->key, &h->st, out);
}

static void bssl_hmac_free(void *ctx) {
    if (!ctx) return;
    wc_wipe(ctx, sizeof(hmac_ctx));
    free(ctx);
}

/* ---- AES-CBC, AES-CTR ---- */

static webcrypto_status bssl_aes_cbc(const void *key_state, bool encrypt, const uint8_t iv[16],
                                     const uint8_t *in, size_t len, uint8_t *out) {
    const aes_key *s = key_state;
    if (len == 0) return WEBCRYPTO_OK;
    uint8_t chain[16]; /* AES_cbc_encrypt updates the IV it is given */
    memcpy(chain, iv, 16);
    AES_cbc_encrypt(in, out, len, encrypt ? &s->enc : &s->dec, chain,
                    encrypt ? AES_ENCRYPT : AES_DECRYPT);
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_aes_ctr(const void *key_state, const uint8_t counter[16],
                                     const uint8_t *in, size_t len, uint8_t *out) {
    const aes_key *s = key_state;
    if (len == 0) return WEBCRYPTO_OK;
    /* BoringSSL carries the counter into all 128 bits, as the contract asks. */
    uint8_t ctr[16], keystream[16];
    unsigned num = 0;
    memcpy(ctr, counter, 16);
    AES_ctr128_encrypt(in, out, len, &s->enc, ctr, keystream, &num);
    wc_wipe(keystream, sizeof keystream);
    return WEBCRYPTO_OK;
}

/* ---- AES-GCM ---- */

static webcrypto_status bssl_aes_gcm_seal(const void *key_state, const uint8_t *iv,
                                          size_t iv_len, const uint8_t *aad, size_t aad_len,
                                          const uint8_t *in, size_t len, uint8_t *out,
                                          uint8_t *tag, size_t tag_len) {
    const aes_key *s = key_state;
    /* A shorter GCM tag is the full tag's prefix (SP 800-38D 7.1). */
    uint8_t full[16];
    uint8_t *t = tag_len == sizeof full ? tag : full;
    size_t got = 0;
    if (EVP_AEAD_CTX_seal_scatter(&s->aead, out, t, &got, sizeof full, iv, iv_len,
                                  NONNULL(in, len), len, NULL, 0, NONNULL(aad, aad_len),
                                  aad_len) != 1)
        return bssl_fail("EVP_AEAD_CTX_seal_scatter (AES-GCM)");
    if (got != sizeof full)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: AES-GCM gave a %zu-byte tag", got);
    if (t == full) memcpy(tag, full, tag_len);
    return WEBCRYPTO_OK;
}

static webcrypto_status gcm_tag_mismatch(void) {
    ERR_clear_error();
    return wc_error(WEBCRYPTO_ERR_OPERATION,
                    "AES-GCM: the authentication tag does not match (wrong key, IV, additional "
                    "data or tag, or altered ciphertext)");
}

static webcrypto_status bssl_aes_gcm_open(const void *key_state, const uint8_t *iv,
                                          size_t iv_len, const uint8_t *aad, size_t aad_len,
                                          const uint8_t *in, size_t len, const uint8_t *tag,
                                          size_t tag_len, uint8_t *out) {
    const aes_key *s = key_state;
    /* BoringSSL compares tags with CRYPTO_memcmp (constant time) and zeroes
     * out on a mismatch. */
    if (tag_len == 16) {
        if (EVP_AEAD_CTX_open_gather(&s->aead, out, iv, iv_len, NONNULL(in, len), len, tag,
                                     tag_len, NONNULL(aad, aad_len), aad_len) != 1)
            return gcm_tag_mismatch();
        return WEBCRYPTO_OK;
    }
    /* open_gather wants the tag length the context was made with. */
    EVP_AEAD_CTX c;
    if (EVP_AEAD_CTX_init(&c, s->gcm, s->key, s->key_len, tag_len, NULL) != 1)
        return bssl_fail("EVP_AEAD_CTX_init (AES-GCM, short tag)");
    int ok = EVP_AEAD_CTX_open_gather(&c, out, iv, iv_len, NONNULL(in, len), len, tag, tag_len,
                                      NONNULL(aad, aad_len), aad_len);
    EVP_AEAD_CTX_cleanup(&c);
    wc_wipe(&c, sizeof c);
    return ok == 1 ? WEBCRYPTO_OK : gcm_tag_mismatch();
}

static webcrypto_status bssl_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                                   const uint8_t iv[16], const uint8_t *in, size_t len,
                                   uint8_t *out) {
    switch (kind) {
    case WC_CIPHER_AES_CBC: return bssl_aes_cbc(key_state, encrypt, iv, in, len, out);
    case WC_CIPHER_AES_CTR: return bssl_aes_ctr(key_state, iv, in, len, out);
    case WC_CIPHER_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such cipher mode");
}

/* ---- AES-GCM-SIV ---- */

static webcrypto_status bssl_aes_gcm_siv_seal(const void *key_state, const uint8_t nonce[12],
                                              const uint8_t *aad, size_t aad_len,
                                              const uint8_t *in, size_t len, uint8_t *out,
                                              uint8_t tag[16]) {
    const aes_key *s = key_state;
    size_t got = 0;
    if (EVP_AEAD_CTX_seal_scatter(&s->aead, out, tag, &got, 16, nonce, 12, NONNULL(in, len), len,
                                  NULL, 0, NONNULL(aad, aad_len), aad_len) != 1)
        return bssl_fail("EVP_AEAD_CTX_seal_scatter (AES-GCM-SIV)");
    if (got != 16)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: AES-GCM-SIV gave a %zu-byte tag",
                        got);
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_aes_gcm_siv_open(const void *key_state, const uint8_t nonce[12],
                                              const uint8_t *aad, size_t aad_len,
                                              const uint8_t *in, size_t len,
                                              const uint8_t tag[16], uint8_t *out) {
    const aes_key *s = key_state;
    /* BoringSSL's AES-NI GCM-SIV has no open_gather, only open on
     * ciphertext || tag: use the caller's buffer when the tag follows the
     * ciphertext (as the core passes it), else a joined copy. It verifies
     * the tag in constant time and zeroes out on a mismatch. */
    const uint8_t *joined = in;
    uint8_t *copy = NULL;
    if (len == 0 || tag != in + len) {
        if (len > SIZE_MAX - 16) return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM-SIV: too long");
        copy = malloc(len + 16);
        if (!copy) return out_of_memory();
        if (len) memcpy(copy, in, len);
        memcpy(copy + len, tag, 16);
        joined = copy;
    }
    size_t got = 0;
    int ok = EVP_AEAD_CTX_open(&s->aead, len ? out : copy, &got, len, nonce, 12, joined,
                               len + 16, NONNULL(aad, aad_len), aad_len);
    free(copy); /* ciphertext and tag only: nothing secret */
    if (ok != 1 || got != len) {
        ERR_clear_error();
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-GCM-SIV: the authentication tag does not match (wrong key, nonce, "
                        "additional data or tag, or altered ciphertext)");
    }
    return WEBCRYPTO_OK;
}

/* ---- ChaCha20-Poly1305 (RFC 8439): the EVP_AEAD made at import, 12-byte
 * nonce and 16-byte tag (the core's) ---- */

static webcrypto_status bssl_chacha20_poly1305_seal(const void *key_state, const uint8_t *nonce,
                                                    const uint8_t *aad, size_t aad_len,
                                                    const uint8_t *in, size_t len, uint8_t *out,
                                                    uint8_t *tag) {
    const aes_key *s = key_state;
    size_t got = 0;
    if (EVP_AEAD_CTX_seal_scatter(&s->aead, out, tag, &got, 16, nonce, 12, NONNULL(in, len), len,
                                  NULL, 0, NONNULL(aad, aad_len), aad_len) != 1)
        return bssl_fail("EVP_AEAD_CTX_seal_scatter (ChaCha20-Poly1305)");
    if (got != 16)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "BoringSSL: ChaCha20-Poly1305 gave a %zu-byte tag", got);
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_chacha20_poly1305_open(const void *key_state, const uint8_t *nonce,
                                                    const uint8_t *aad, size_t aad_len,
                                                    const uint8_t *in, size_t len,
                                                    const uint8_t *tag, uint8_t *out) {
    const aes_key *s = key_state;
    /* open_gather checks the tag (CRYPTO_memcmp) before it decrypts. */
    if (EVP_AEAD_CTX_open_gather(&s->aead, out, nonce, 12, NONNULL(in, len), len, tag, 16,
                                 NONNULL(aad, aad_len), aad_len) != 1) {
        ERR_clear_error();
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "ChaCha20-Poly1305: the authentication tag does not match (wrong key, "
                        "nonce, additional data or tag, or altered ciphertext)");
    }
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_aead_seal(const void *key_state, const wc_aead_msg *m) {
    switch (m->kind) {
    case WC_AEAD_AES_GCM:
        return bssl_aes_gcm_seal(key_state, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in,
                                 m->len, m->out, m->tag_out, m->tag_len);
    case WC_AEAD_AES_GCM_SIV: /* nonce 12, tag 16 bytes: the core's */
        return bssl_aes_gcm_siv_seal(key_state, m->nonce, m->aad, m->aad_len, m->in, m->len,
                                     m->out, m->tag_out);
    case WC_AEAD_CHACHA20_POLY1305:
        return bssl_chacha20_poly1305_seal(key_state, m->nonce, m->aad, m->aad_len, m->in,
                                           m->len, m->out, m->tag_out);
    case WC_AEAD_AES_OCB:
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such AEAD");
}

static webcrypto_status bssl_aead_open(const void *key_state, const wc_aead_msg *m) {
    switch (m->kind) {
    case WC_AEAD_AES_GCM:
        return bssl_aes_gcm_open(key_state, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in,
                                 m->len, m->tag_in, m->tag_len, m->out);
    case WC_AEAD_AES_GCM_SIV:
        return bssl_aes_gcm_siv_open(key_state, m->nonce, m->aad, m->aad_len, m->in, m->len,
                                     m->tag_in, m->out);
    case WC_AEAD_CHACHA20_POLY1305:
        return bssl_chacha20_poly1305_open(key_state, m->nonce, m->aad, m->aad_len, m->in,
                                           m->len, m->tag_in, m->out);
    case WC_AEAD_AES_OCB:
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "BoringSSL backend: no such AEAD");
}

/* ---- AES-KW (RFC 3394) ---- */

static webcrypto_status bssl_aes_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                         uint8_t *out) {
    const aes_key *s = key_state;
    if (len > INT_MAX - 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-KW: BoringSSL takes at most 2147483639 bytes (its length is an int)");
    if (AES_wrap_key(&s->enc, NULL, out, in, len) != (int)(len + 8))
        return wc_error(WEBCRYPTO_ERR_OPERATION, "BoringSSL: AES-KW wrap (AES_wrap_key) failed");
    return WEBCRYPTO_OK;
}

static webcrypto_status bssl_aes_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                           uint8_t *out) {
    const aes_key *s = key_state;
    /* AES_unwrap_key compares the IV in constant time; on failure the core
     * wipes out. */
    if (len > INT_MAX || AES_unwrap_key(&s->dec, NULL, out, in, len) != (int)(len - 8)) {
        ERR_clear_error();
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "AES-KW: the wrapped key failed its integrity check");
    }
    return WEBCRYPTO_OK;
}

/* ---- KDFs ---- */

/* BoringSSL's HKDF() keeps the PRK in a local array it does not clear, and
 * its HMAC_Init_ex (under HKDF and PKCS5_PBKDF2_HMAC) copies the HMAC key -
 * the PRK, the password - into a stack buffer it does not clear either.
 * Those frames lie below ours once the call returns; this overwrites that
 * much of the stack (tests/test_residue.c finds both without it). Not
 * inlined, so that its array is a frame of its own at that depth. */
__attribute__((noinline)) static void scrub_stack(void) {
    uint8_t b[16384];
    wc_wipe(b, sizeof b);
}

static webcrypto_status bssl_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm,
                                  size_t ikm_len, const uint8_t *salt, size_t salt_len,
                                  const uint8_t *info, size_t info_len, uint8_t *out,
                                  size_t out_len) {
    (void)bctx;
    const EVP_MD *md = hash_md(hash);
    if (!md) return wc_hash_unavailable("BoringSSL", hash);
    /* An empty salt means HashLen zero bytes (RFC 5869), which is what
     * HMAC with an empty key computes. Extract and expand are called
     * separately, the PRK in a buffer of ours that is wiped: BoringSSL's
     * HKDF() leaves it in a local it does not clear; scrub_stack wipes the
     * copies its HMAC leaves deeper. */
    uint8_t prk[EVP_MAX_MD_SIZE];
    size_t prk_len = 0;
    webcrypto_status st = WEBCRYPTO_OK;
    if (HKDF_extract(prk, &prk_len, md, NONNULL(ikm, ikm_len), ikm_len, NONNULL(salt, salt_len),
                     salt_len) != 1)
        st = bssl_fail("HKDF_extract");
    else if (HKDF_expand(out, out_len, md, prk, prk_len, NONNULL(info, info_len), info_len) != 1)
        st = bssl_fail("HKDF_expand");
    OPENSSL_cleanse(prk, sizeof prk);
    scrub_stack();
    return st;
}

static webcrypto_status bssl_pbkdf2(const void *bctx, wc_hash hash,
                                    const uint8_t *password, size_t password_len,
                                    const uint8_t *salt, size_t salt_len, uint32_t iterations,
                                    uint8_t *out, size_t out_len) {
    (void)bctx;
    const EVP_MD *md = hash_md(hash);
    if (!md) return wc_hash_unavailable("BoringSSL", hash);
    int ok = PKCS5_PBKDF2_HMAC((const char *)NONNULL(password, password_len), password_len,
                               NONNULL(salt, salt_len), salt_len, iterations, md, out_len, out);
    scrub_stack();
    if (ok != 1) return bssl_fail("PKCS5_PBKDF2_HMAC");
    return WEBCRYPTO_OK;
}

const wc_backend_ops wc_backend_boringssl_ungated = {
    .name = "boringssl",
    .init = bssl_init,
    .random_bytes = bssl_random_bytes,
    .digest = bssl_digest,
    .digest_new = bssl_digest_new,
    .digest_update = bssl_digest_update,
    .digest_final = bssl_digest_final,
    .digest_free = bssl_digest_free,
    .secret_key_new = bssl_secret_key_new,
    .secret_key_free = bssl_secret_key_free,
    .hmac = bssl_hmac,
    .hmac_new = bssl_hmac_new,
    .hmac_update = bssl_hmac_update,
    .hmac_final = bssl_hmac_final,
    .hmac_free = bssl_hmac_free,
    .cipher = bssl_cipher,
    .aead_seal = bssl_aead_seal,
    .aead_open = bssl_aead_open,
    .aes_kw_wrap = bssl_aes_kw_wrap,
    .aes_kw_unwrap = bssl_aes_kw_unwrap,
    .pkey_import = wc_bssl_pkey_import,
    .pkey_generate = wc_bssl_pkey_generate,
    .pkey_fields = wc_bssl_pkey_fields,
    .pkey_private_fields = wc_bssl_pkey_private_fields,
    .pkey_free = wc_bssl_pkey_free,
    .rsa_sign = wc_bssl_rsa_sign,
    .rsa_verify = wc_bssl_rsa_verify,
    .rsa_oaep_encrypt = wc_bssl_rsa_oaep_encrypt,
    .rsa_oaep_decrypt = wc_bssl_rsa_oaep_decrypt,
    .ecdsa_sign = wc_bssl_ecdsa_sign,
    .ecdsa_verify = wc_bssl_ecdsa_verify,
    .ecdh = wc_bssl_ecdh,
    .okp_sign = wc_bssl_okp_sign,
    .okp_verify = wc_bssl_okp_verify,
    .okp_derive = wc_bssl_okp_derive,
    .hkdf = bssl_hkdf,
    .pbkdf2 = bssl_pbkdf2,
};
