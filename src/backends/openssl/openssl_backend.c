/*
 * openssl_backend.c - the "openssl" backend, over OpenSSL 3's libcrypto.
 *
 * Design (see backend.h for the contract):
 *  - init() fetches every EVP_MD / EVP_CIPHER / EVP_KDF once into static
 *    storage; nothing is fetched per call by this file.
 *  - A secret key's state is prepared once and is read-only afterwards:
 *    AES keeps key-scheduled template EVP_CIPHER_CTXs; HMAC keeps the two
 *    digest contexts that have absorbed key^ipad and key^opad (RFC 2104) -
 *    copying those is about twice as fast as EVP_MAC_CTX_dup of a keyed HMAC.
 *  - Each thread keeps its own contexts per key and per hash
 *    (thread_cache.c): a thread's first call with a key copies the template;
 *    later calls only set the IV (AES) or copy the HMAC states into the
 *    thread's context, and digests re-initialise the thread's context. A new
 *    OpenSSL 3.0 context costs more than a 64-byte message and takes
 *    references on shared provider objects, on which threads contend.
 *    Templates are only read, so many threads may share a key state.
 *  - One-shot digests, HMAC and AES-GCM call their provider's own functions where
 *    init() found them (provider_direct.h), on per-thread provider contexts:
 *    at 64 bytes OpenSSL 3.0's EVP layer costs more than the work. EVP stays
 *    the path for everything else and wherever the lookup fails.
 *  - Every failure of OpenSSL becomes OPERATION (NO_MEMORY for allocation
 *    failures) with OpenSSL's reason in the message, and the OpenSSL error
 *    queue is cleared so that nothing leaks into later calls.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#if WEBCRYPTO_HAVE_LIBARGON2
#include <argon2.h>
#endif

#include "core/backend.h"
#include "core/ct.h"
#include "gcm_siv.h"
#include "openssl_internal.h"
#include "provider_direct.h"
#include "thread_cache.h"

/* EVP_*Update take int lengths: feed larger inputs in chunks of this many
 * bytes (a multiple of the AES block, so chunking never splits a block). */
#define OSSL_CHUNK ((size_t)INT_MAX & ~(size_t)15)

/* The longest GCM IV OpenSSL 3.0's provider accepts (bytes); longer ones are
 * reduced to an equivalent 16-byte IV (see gcm_reduce_iv). */
#define GCM_MAX_NATIVE_IV 128

/* Stands in for an empty buffer: OpenSSL rejects some NULL, 0 parameters
 * (an HKDF key given as NULL, 0 is "missing key"). */
static const uint8_t empty_buf[1] = {0};

/* ---- algorithms fetched by init(), indexed by hash or key size ---- */

enum { N_HASH = WC_HASH_COUNT, N_AES = 3 };
_Static_assert((int)N_HASH == (int)WC_TC_HASHES, "a thread keeps one digest context per hash");

static EVP_MD *md_by_hash[N_HASH];    /* [wc_hash] */
static EVP_CIPHER *aes_cbc_ciphers[N_AES]; /* [0] 128, [1] 192, [2] 256 bits */
static EVP_CIPHER *aes_ctr_ciphers[N_AES];
static EVP_CIPHER *aes_gcm_ciphers[N_AES];
/* Their providers' own functions (provider_direct.h), where found. */
static wc_prov_digest prov_digests[N_HASH]; /* [wc_hash] */
static wc_prov_gcm prov_gcms[N_AES];        /* [0] 128, [1] 192, [2] 256 bits */
static EVP_CIPHER *aes_kw_ciphers[N_AES]; /* AES-*-ECB, for RFC 3394 (aes_kw_run) */
static EVP_KDF *kdf_pbkdf2;
static EVP_MD *md_shake[WC_XOF_COUNT];  /* [wc_xof]: SHAKE128, SHAKE256 */
static EVP_MAC *mac_kmac[WC_KMAC_COUNT]; /* [wc_kmac]: KMAC-128, KMAC-256 */
static EVP_CIPHER *aes_ocb_ciphers[N_AES];
static EVP_CIPHER *chacha20_poly1305_cipher;
static const char *description_text;

/* OpenSSL 3.0's KMAC limits (providers/implementations/macs/kmac_prov.c):
 * keys of 4..512 bytes, a customization of at most 512 bytes, an output of
 * at most 0xFFFFFF / 8 bytes. SP 800-185 and WebCrypto have none of these;
 * beyond them the backend answers NotSupportedError. */
#define OSSL_KMAC_MIN_KEY 4
#define OSSL_KMAC_MAX_KEY 512
#define OSSL_KMAC_MAX_CUSTOM 512
#define OSSL_KMAC_MAX_OUT (0xFFFFFF / 8)

/* Names OpenSSL's KDFs take for their "digest" parameter. */
static const char *kdf_digest_name(wc_hash hash) {
    switch (hash) {
    case WC_HASH_SHA_1: return "SHA1";
    case WC_HASH_SHA_256: return "SHA2-256";
    case WC_HASH_SHA_384: return "SHA2-384";
    case WC_HASH_SHA_512: return "SHA2-512";
    case WC_HASH_SHA3_256: return "SHA3-256";
    case WC_HASH_SHA3_384: return "SHA3-384";
    case WC_HASH_SHA3_512: return "SHA3-512";
    case WC_HASH_COUNT: break;
    }
    return NULL;
}

/* ---- errors ---- */

/* Sets the thread's message from OpenSSL's most recent error, clears the
 * OpenSSL error queue, and returns OPERATION (NO_MEMORY for malloc failures). */
static webcrypto_status ossl_fail(const char *what) {
    unsigned long e = ERR_peek_last_error();
    webcrypto_status st = WEBCRYPTO_ERR_OPERATION;
    char reason[256];
    if (e != 0) {
        ERR_error_string_n(e, reason, sizeof reason);
        if (ERR_GET_REASON(e) == ERR_R_MALLOC_FAILURE) st = WEBCRYPTO_ERR_NO_MEMORY;
    } else {
        strcpy(reason, "no reason given");
    }
    ERR_clear_error();
    return wc_error(st, "OpenSSL: %s failed: %s", what, reason);
}

static webcrypto_status no_memory(const char *what) {
    ERR_clear_error();
    return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "OpenSSL: out of memory (%s)", what);
}

static const EVP_MD *md_for(wc_hash hash) {
    if ((unsigned)hash >= N_HASH) return NULL;
    return md_by_hash[hash];
}

const EVP_MD *wc_ossl_md(wc_hash hash) { return md_for(hash); }
webcrypto_status wc_ossl_fail(const char *what) { return ossl_fail(what); }


/* ---- init ---- */

static webcrypto_status ossl_init(const char *variant, void **bctx, uint64_t *caps,
                                  const char **description) {
    (void)bctx;
    if (variant)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "the openssl backend has no variant \"%s\"",
                        variant);

    static const char *const cbc_names[N_AES] = {"AES-128-CBC", "AES-192-CBC", "AES-256-CBC"};
    static const char *const ctr_names[N_AES] = {"AES-128-CTR", "AES-192-CTR", "AES-256-CTR"};
    static const char *const gcm_names[N_AES] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM"};
    /* AES-KW is RFC 3394 here on AES-ECB, not OpenSSL's "AES-*-WRAP": 3.0's
     * wrap ciphers run AES_encrypt, its table-based AES, not AES-NI
     * (aes_kw_run). */
    static const char *const kw_names[N_AES] = {"AES-128-ECB", "AES-192-ECB", "AES-256-ECB"};
    static const char *const ocb_names[N_AES] = {"AES-128-OCB", "AES-192-OCB", "AES-256-OCB"};
    uint64_t c = 0;
    bool any_md = false;

    if (OPENSSL_init_crypto(0, NULL) != 1) return ossl_fail("OPENSSL_init_crypto");

    /* A missing algorithm only removes its capability bit, so fetch failures
     * are expected here and must not leave errors on the queue. */
    bool direct = wc_prov_direct_enabled();
    for (int i = 0; i < N_HASH; i++) {
        md_by_hash[i] = EVP_MD_fetch(NULL, kdf_digest_name((wc_hash)i), NULL);
        if (md_by_hash[i]) {
            c |= WC_CAP(wc_hash_algorithm((wc_hash)i));
            any_md = true;
            if (direct) wc_prov_digest_find(md_by_hash[i], &prov_digests[i]);
        }
    }
    bool cbc = true, ctr = true, gcm = true, kw = true, ocb = true;
    for (int i = 0; i < N_AES; i++) {
        aes_cbc_ciphers[i] = EVP_CIPHER_fetch(NULL, cbc_names[i], NULL);
        aes_ctr_ciphers[i] = EVP_CIPHER_fetch(NULL, ctr_names[i], NULL);
        aes_gcm_ciphers[i] = EVP_CIPHER_fetch(NULL, gcm_names[i], NULL);
        cbc = cbc && aes_cbc_ciphers[i];
        ctr = ctr && aes_ctr_ciphers[i];
        gcm = gcm && aes_gcm_ciphers[i];
        if (aes_gcm_ciphers[i] && direct) wc_prov_gcm_find(aes_gcm_ciphers[i], &prov_gcms[i]);
        aes_kw_ciphers[i] = EVP_CIPHER_fetch(NULL, kw_names[i], NULL);
        kw = kw && aes_kw_ciphers[i];
        aes_ocb_ciphers[i] = EVP_CIPHER_fetch(NULL, ocb_names[i], NULL);
        ocb = ocb && aes_ocb_ciphers[i];
    }
    chacha20_poly1305_cipher = EVP_CIPHER_fetch(NULL, "ChaCha20-Poly1305", NULL);
    webcrypto_status tc = wc_tc_init();
    if (tc != WEBCRYPTO_OK) return tc;
    kdf_pbkdf2 = EVP_KDF_fetch(NULL, "PBKDF2", NULL);
    bool gcm_siv = wc_ossl_gcm_siv_init();
    /* SHAKE (cSHAKE with N and S empty) and KMAC. OpenSSL 3.0 has no
     * cSHAKE with a function name or customization (its CSHAKE EVP_MD came
     * in 3.6), so WC_CAP_CSHAKE_CUSTOM stays unset. */
    md_shake[WC_XOF_CSHAKE128] = EVP_MD_fetch(NULL, "SHAKE128", NULL);
    md_shake[WC_XOF_CSHAKE256] = EVP_MD_fetch(NULL, "SHAKE256", NULL);
    mac_kmac[WC_KMAC_128] = EVP_MAC_fetch(NULL, "KMAC-128", NULL);
    mac_kmac[WC_KMAC_256] = EVP_MAC_fetch(NULL, "KMAC-256", NULL);
    ERR_clear_error();
    if (md_shake[WC_XOF_CSHAKE128]) c |= WC_CAP(WEBCRYPTO_ALG_CSHAKE128);
    if (md_shake[WC_XOF_CSHAKE256]) c |= WC_CAP(WEBCRYPTO_ALG_CSHAKE256);
    if (mac_kmac[WC_KMAC_128]) c |= WC_CAP(WEBCRYPTO_ALG_KMAC128);
    if (mac_kmac[WC_KMAC_256]) c |= WC_CAP(WEBCRYPTO_ALG_KMAC256);
    /* OpenSSL's SHAKE and KMAC take any output length, KMAC any customization */
    c |= WC_CAP_XOF_ANY_LENGTH | WC_CAP_KMAC_ANY;
    /* SHA-3 with the keyed algorithms: HMAC, HKDF and PBKDF2 are built here
     * on the digests, and OpenSSL's RSA (PKCS #1 v1.5 DigestInfo, PSS, OAEP)
     * and ECDSA take any fetched digest, SHA-3 included. */
    if (md_by_hash[WC_HASH_SHA3_256] && md_by_hash[WC_HASH_SHA3_384] &&
        md_by_hash[WC_HASH_SHA3_512])
        c |= WC_CAP_SHA3_HMAC | WC_CAP_SHA3_HKDF | WC_CAP_SHA3_PBKDF2 |
             WC_CAP_SHA3_RSASSA_PKCS1_V1_5 | WC_CAP_SHA3_RSA_PSS | WC_CAP_SHA3_RSA_OAEP |
             WC_CAP_SHA3_ECDSA;

    /* HMAC is built on the digests (RFC 2104), so it needs only them; a key
     * whose hash is missing is refused when it is made. */
    if (any_md) c |= WC_CAP(WEBCRYPTO_ALG_HMAC);
    if (cbc) c |= WC_CAP(WEBCRYPTO_ALG_AES_CBC);
    if (ctr) c |= WC_CAP(WEBCRYPTO_ALG_AES_CTR);
    if (gcm) c |= WC_CAP(WEBCRYPTO_ALG_AES_GCM);
    if (kw) c |= WC_CAP(WEBCRYPTO_ALG_AES_KW);
    if (gcm_siv) c |= WC_CAP(WEBCRYPTO_ALG_AES_GCM_SIV);
    if (any_md) c |= WC_CAP(WEBCRYPTO_ALG_HKDF); /* built on HMAC, below */
    if (kdf_pbkdf2 && any_md) c |= WC_CAP(WEBCRYPTO_ALG_PBKDF2);
    if (chacha20_poly1305_cipher) c |= WC_CAP(WEBCRYPTO_ALG_CHACHA20_POLY1305);
    if (ocb) c |= WC_CAP(WEBCRYPTO_ALG_AES_OCB);
#if WEBCRYPTO_HAVE_LIBARGON2
    c |= WC_CAP(WEBCRYPTO_ALG_ARGON2D) | WC_CAP(WEBCRYPTO_ALG_ARGON2I) |
         WC_CAP(WEBCRYPTO_ALG_ARGON2ID);
#endif
    c |= wc_ossl_pkey_init(); /* RSA, EC, Ed25519, X25519: each probed */
    if (c == 0) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: no algorithm could be fetched");

    description_text = OpenSSL_version(OPENSSL_VERSION);
    *caps = c;
    *description = description_text;
    return WEBCRYPTO_OK;
}

/* ---- random ---- */

static webcrypto_status ossl_random_bytes(const void *bctx, uint8_t *out, size_t len) {
    (void)bctx;
    while (len > 0) {
        size_t n = len < OSSL_CHUNK ? len : OSSL_CHUNK;
        if (RAND_bytes(out, (int)n) != 1) return ossl_fail("RAND_bytes");
        out += n;
        len -= n;
    }
    return WEBCRYPTO_OK;
}

/* ---- digest ---- */

/* One-shot digests reuse the thread's context for the hash: the provider's
 * own context where init() found the digest's functions (provider_direct.h:
 * EVP_DigestInit_ex would free and re-allocate it on every call), else an
 * EVP context. A context that failed is dropped, not reused. */
static webcrypto_status ossl_digest(const void *bctx, wc_hash hash,
                                    const uint8_t *in, size_t len, uint8_t *out) {
    (void)bctx;
    const EVP_MD *md = md_for(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    wc_tc_digest *slot = wc_tc_digest_slot((unsigned)hash);
    if (!slot) return WEBCRYPTO_ERR_NO_MEMORY;
    const wc_prov_digest *pd = &prov_digests[hash];
    if (pd->newctx) {
        if (!slot->prov) {
            if (!(slot->prov = pd->newctx(pd->provctx))) return no_memory("digest context");
            slot->prov_free = pd->freectx;
        }
        if (!wc_prov_digest_run(pd, slot->prov, in, len, out)) {
            pd->freectx(slot->prov);
            slot->prov = NULL;
            return ossl_fail("digest");
        }
        return WEBCRYPTO_OK;
    }
    EVP_MD_CTX *c = slot->evp;
    int ok;
    if (c) {
        ok = EVP_DigestInit_ex(c, NULL, NULL);
    } else {
        if (!(c = EVP_MD_CTX_new())) return no_memory("EVP_MD_CTX_new");
        slot->evp = c;
        ok = EVP_DigestInit_ex2(c, md, NULL);
    }
    if (ok != 1 || (len > 0 && EVP_DigestUpdate(c, in, len) != 1) ||
        EVP_DigestFinal_ex(c, out, NULL) != 1) {
        EVP_MD_CTX_free(c);
        slot->evp = NULL;
        return ossl_fail("digest");
    }
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_digest(wc_hash hash, const uint8_t *in, size_t len, uint8_t *out) {
    return ossl_digest(NULL, hash, in, len, out);
}

static webcrypto_status ossl_digest_new(const void *bctx, wc_hash hash, void **ctx) {
    (void)bctx;
    const EVP_MD *md = md_for(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c) return no_memory("EVP_MD_CTX_new");
    if (EVP_DigestInit_ex2(c, md, NULL) != 1) {
        EVP_MD_CTX_free(c);
        return ossl_fail("EVP_DigestInit_ex2");
    }
    *ctx = c;
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_digest_update(void *ctx, const uint8_t *in, size_t len) {
    if (len == 0) return WEBCRYPTO_OK;
    if (EVP_DigestUpdate(ctx, in, len) != 1) return ossl_fail("EVP_DigestUpdate");
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_digest_final(void *ctx, uint8_t *out) {
    if (EVP_DigestFinal_ex(ctx, out, NULL) != 1) return ossl_fail("EVP_DigestFinal_ex");
    return WEBCRYPTO_OK;
}

static void ossl_digest_free(void *ctx) { EVP_MD_CTX_free(ctx); }

/* ---- secret key state ---- */

typedef struct hmac_state {
    wc_ossl_key_head head; /* HMAC and the hash; first, as in every key state */
    size_t md_size;
    wc_tc_key tc;      /* the threads' contexts for this key */
    /* The states that have absorbed K0 ^ ipad and K0 ^ opad: provider
     * contexts where the hash's provider functions were found with dupctx
     * (pd set; provider_direct.h), else EVP contexts. Every HMAC - one-shot,
     * streamed, inside HKDF and PBKDF2 - starts from copies of them. */
    const wc_prov_digest *pd;
    void *pinner, *pouter;
    EVP_MD_CTX *inner;
    EVP_MD_CTX *outer;
} hmac_state;

typedef struct aes_state {
    wc_ossl_key_head head;   /* CIPHER, AEAD (GCM, OCB, ChaCha20-Poly1305) or KEYWRAP; first */
    EVP_CIPHER_CTX *enc;     /* keyed for encryption (CTR and the AEADs: both ways) */
    EVP_CIPHER_CTX *dec;     /* CBC and KW: keyed for decryption */
    bool have_h;             /* GCM: h holds the hash subkey AES_K(0^128) */
    uint8_t h[16];
    const wc_prov_gcm *pg;   /* GCM through the provider's functions (then enc is NULL) */
    void *gcm_tpl;           /* ... on copies of this context, keyed once */
    wc_tc_key tc;            /* the threads' contexts for this key */
} aes_state;

static void hmac_state_free(hmac_state *s) {
    wc_tc_key_release(&s->tc);
    /* EVP_MD_CTX_free cleanses the provider's digest state. */
    EVP_MD_CTX_free(s->inner);
    EVP_MD_CTX_free(s->outer);
    if (s->pinner) s->pd->freectx(s->pinner); /* cleanses it */
    if (s->pouter) s->pd->freectx(s->pouter);
    wc_wipe(s, sizeof *s);
    free(s);
}

static void aes_state_free(aes_state *s) {
    wc_tc_key_release(&s->tc);
    /* EVP_CIPHER_CTX_free cleanses the key schedule. */
    EVP_CIPHER_CTX_free(s->enc);
    EVP_CIPHER_CTX_free(s->dec);
    if (s->gcm_tpl) s->pg->freectx(s->gcm_tpl); /* cleanses it */
    wc_wipe(s, sizeof *s);
    free(s);
}

/* One of a key's two prepared states, having absorbed pad (K0 ^ ipad or
 * K0 ^ opad): a provider context where the hash's provider functions were
 * found with dupctx (s->pd), else an EVP context. */
static bool hmac_absorb_pad(const hmac_state *s, const EVP_MD *md, const uint8_t *pad,
                            size_t block, EVP_MD_CTX **evp, void **prov) {
    if (s->pd)
        return (*prov = s->pd->newctx(s->pd->provctx)) && s->pd->init(*prov, NULL) == 1 &&
               s->pd->update(*prov, pad, block) == 1;
    return (*evp = EVP_MD_CTX_new()) && EVP_DigestInit_ex2(*evp, md, NULL) == 1 &&
           EVP_DigestUpdate(*evp, pad, block) == 1;
}

static webcrypto_status hmac_key_new(wc_hash hash, const uint8_t *key,
                                     size_t key_len, void **state) {
    const EVP_MD *md = md_for(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    int block = EVP_MD_get_block_size(md);
    int size = EVP_MD_get_size(md);
    uint8_t k0[168], pad[168]; /* the largest block: SHA3-224's 144, SHAKE128's 168 */
    if (block <= 0 || block > (int)sizeof k0 || size <= 0 || size > block)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unexpected digest block size");

    hmac_state *s = calloc(1, sizeof *s);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->head = (wc_ossl_key_head){WC_FAMILY_HMAC, (unsigned)hash};
    s->md_size = (size_t)size;
    wc_tc_key_init(&s->tc);
    webcrypto_status st = WEBCRYPTO_OK;

    /* K0 (RFC 2104): a key longer than the block is hashed; then zero-padded. */
    memset(k0, 0, sizeof k0);
    if (key_len > (size_t)block) {
        if (EVP_Digest(key, key_len, k0, NULL, md, NULL) != 1) {
            st = ossl_fail("EVP_Digest (HMAC key)");
            goto done;
        }
    } else if (key_len > 0) {
        memcpy(k0, key, key_len);
    }
    s->pd = prov_digests[hash].dupctx ? &prov_digests[hash] : NULL;
    for (int i = 0; i < block; i++) pad[i] = (uint8_t)(k0[i] ^ 0x36);
    if (!hmac_absorb_pad(s, md, pad, (size_t)block, &s->inner, &s->pinner)) {
        st = ossl_fail("HMAC inner digest");
        goto done;
    }
    for (int i = 0; i < block; i++) pad[i] = (uint8_t)(k0[i] ^ 0x5c);
    if (!hmac_absorb_pad(s, md, pad, (size_t)block, &s->outer, &s->pouter)) {
        st = ossl_fail("HMAC outer digest");
        goto done;
    }
done:
    wc_wipe(k0, sizeof k0);
    wc_wipe(pad, sizeof pad);
    if (st != WEBCRYPTO_OK) {
        hmac_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* A template context: cipher keyed for one direction, no IV yet. */
static webcrypto_status cipher_template(const EVP_CIPHER *cipher, const uint8_t *key, int enc,
                                        bool no_padding, EVP_CIPHER_CTX **out) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return no_memory("EVP_CIPHER_CTX_new");
    if (EVP_CipherInit_ex2(c, cipher, key, NULL, enc, NULL) != 1) {
        EVP_CIPHER_CTX_free(c);
        return ossl_fail("EVP_CipherInit_ex2 (key)");
    }
    if (no_padding && EVP_CIPHER_CTX_set_padding(c, 0) != 1) {
        EVP_CIPHER_CTX_free(c);
        return ossl_fail("EVP_CIPHER_CTX_set_padding");
    }
    *out = c;
    return WEBCRYPTO_OK;
}

/* GCM's hash subkey H = AES_K(0^128), as the first CTR keystream block of
 * counter 0; kept for IVs too long for OpenSSL (gcm_reduce_iv). */
static webcrypto_status gcm_hash_subkey(const EVP_CIPHER *ctr, const uint8_t *key,
                                        uint8_t h[16]) {
    static const uint8_t zero[16] = {0};
    int n = 0;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return no_memory("EVP_CIPHER_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_EncryptInit_ex2(c, ctr, key, zero, NULL) != 1 ||
        EVP_EncryptUpdate(c, h, &n, zero, 16) != 1 || n != 16)
        st = ossl_fail("AES (GCM hash subkey)");
    EVP_CIPHER_CTX_free(c);
    return st;
}

static webcrypto_status aes_key_new(wc_family family, unsigned member, const uint8_t *key,
                                    size_t key_len, void **state) {
    int idx;
    switch (key_len) {
    case 16: idx = 0; break;
    case 24: idx = 1; break;
    case 32: idx = 2; break;
    default: return wc_error(WEBCRYPTO_ERR_DATA, "AES key must be 16, 24 or 32 bytes");
    }
    /* secret_key_new sends CIPHER, AEAD (GCM, OCB, ChaCha20-Poly1305: one
     * context keyed for both directions) and KEYWRAP keys here. */
    bool cbc = family == WC_FAMILY_CIPHER && member == WC_CIPHER_AES_CBC;
    bool aead = family == WC_FAMILY_AEAD;
    bool gcm = aead && member == WC_AEAD_AES_GCM;
    const EVP_CIPHER *cipher = cbc                         ? aes_cbc_ciphers[idx]
                               : family == WC_FAMILY_CIPHER ? aes_ctr_ciphers[idx]
                               : gcm                        ? aes_gcm_ciphers[idx]
                               : aead && member == WC_AEAD_AES_OCB ? aes_ocb_ciphers[idx]
                               : aead ? (idx == 2 ? chacha20_poly1305_cipher : NULL)
                                      : aes_kw_ciphers[idx];
    if (!cipher)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: this AES mode is not available");

    aes_state *s = calloc(1, sizeof *s);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->head = (wc_ossl_key_head){family, member};
    wc_tc_key_init(&s->tc);
    /* CBC and KW need a key schedule per direction; so does OCB: OpenSSL
     * 3.0's OCB keyed for encryption decrypts whole blocks wrongly (it has
     * no AES decryption schedule), so it gets a context keyed to decrypt. */
    bool kw = family == WC_FAMILY_KEYWRAP; /* on AES-ECB, no padding (aes_kw_run) */
    bool two_way = cbc || kw || (aead && member == WC_AEAD_AES_OCB);
    webcrypto_status st = WEBCRYPTO_OK;
    if (gcm && prov_gcms[idx].newctx) {
        s->pg = &prov_gcms[idx];
        if (!(s->gcm_tpl = wc_prov_gcm_new(s->pg, key))) st = ossl_fail("AES-GCM key set-up");
    } else {
        st = cipher_template(cipher, key, 1, cbc || kw, &s->enc);
    }
    if (st == WEBCRYPTO_OK && two_way) st = cipher_template(cipher, key, 0, cbc || kw, &s->dec);
    if (st == WEBCRYPTO_OK && gcm && aes_ctr_ciphers[idx]) {
        st = gcm_hash_subkey(aes_ctr_ciphers[idx], key, s->h);
        s->have_h = st == WEBCRYPTO_OK;
    }
    if (st != WEBCRYPTO_OK) {
        aes_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- KMAC ----
 * The key's state is a copy of the key bytes: OpenSSL's KMAC absorbs the
 * customization before the key (SP 800-185: bytepad(encode_string("KMAC")
 * || encode_string(S)) first), so a context keyed ahead of the call could
 * not take the call's customization. */
typedef struct kmac_state {
    wc_ossl_key_head head;
    size_t key_len;
    uint8_t key[OSSL_KMAC_MAX_KEY];
} kmac_state;

static webcrypto_status kmac_key_new(wc_kmac kind, const uint8_t *key, size_t key_len,
                                     void **state) {
    if ((unsigned)kind >= WC_KMAC_COUNT || !mac_kmac[kind])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: %s is not available",
                        wc_kmac_name(kind));
    if (key_len < OSSL_KMAC_MIN_KEY || key_len > OSSL_KMAC_MAX_KEY)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL 3.0's KMAC takes keys of %d to %d bytes, not %zu",
                        OSSL_KMAC_MIN_KEY, OSSL_KMAC_MAX_KEY, key_len);
    kmac_state *s = calloc(1, sizeof *s);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->head = (wc_ossl_key_head){WC_FAMILY_KMAC, (unsigned)kind};
    s->key_len = key_len;
    memcpy(s->key, key, key_len);
    *state = s;
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_kmac(const void *key_state, wc_kmac kind, const uint8_t *cust,
                                  size_t cust_len, const uint8_t *in, size_t len, uint8_t *out,
                                  size_t out_len) {
    const kmac_state *s = key_state;
    if ((unsigned)kind >= WC_KMAC_COUNT || !mac_kmac[kind])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: %s is not available",
                        wc_kmac_name(kind));
    if (cust_len > OSSL_KMAC_MAX_CUSTOM)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL 3.0's KMAC takes a customization of at most %d bytes, not %zu",
                        OSSL_KMAC_MAX_CUSTOM, cust_len);
    if (out_len > OSSL_KMAC_MAX_OUT)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL 3.0's KMAC gives at most %d bytes, not %zu", OSSL_KMAC_MAX_OUT,
                        out_len);
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac_kmac[kind]);
    if (!c) return no_memory("EVP_MAC_CTX_new");
    size_t size = out_len;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
                                          (void *)(cust_len ? cust : empty_buf), cust_len),
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
        OSSL_PARAM_construct_end(),
    };
    webcrypto_status st = WEBCRYPTO_OK;
    size_t got = 0;
    if (EVP_MAC_CTX_set_params(c, params) != 1 || EVP_MAC_init(c, s->key, s->key_len, NULL) != 1)
        st = ossl_fail("EVP_MAC_init (KMAC)");
    else if (len > 0 && EVP_MAC_update(c, in, len) != 1)
        st = ossl_fail("EVP_MAC_update (KMAC)");
    else if (EVP_MAC_final(c, out, &got, out_len) != 1)
        st = ossl_fail("EVP_MAC_final (KMAC)");
    else if (got != out_len)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: KMAC gave %zu bytes, not %zu", got,
                      out_len);
    EVP_MAC_CTX_free(c); /* cleanses its copy of the key */
    return st;
}

/* ---- SHAKE (cSHAKE with an empty function name and customization) ---- */
static webcrypto_status ossl_xof(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                                 const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                                 uint8_t *out, size_t out_len) {
    /* The core calls only with the algorithm's capability bit set (so
     * md_shake[kind] fetched) and, WC_CAP_CSHAKE_CUSTOM being unset, with
     * N and S empty. */
    (void)bctx, (void)n, (void)n_len, (void)s, (void)s_len;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c) return no_memory("EVP_MD_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_DigestInit_ex2(c, md_shake[kind], NULL) != 1 ||
        (len > 0 && EVP_DigestUpdate(c, in, len) != 1) ||
        EVP_DigestFinalXOF(c, out, out_len) != 1)
        st = ossl_fail("SHAKE");
    EVP_MD_CTX_free(c);
    return st;
}

static webcrypto_status ossl_secret_key_new(const void *bctx, wc_family family,
                                            unsigned member, const uint8_t *key, size_t key_len,
                                            void **state) {
    (void)bctx;
    switch (family) {
    case WC_FAMILY_HMAC: return hmac_key_new((wc_hash)member, key, key_len, state);
    case WC_FAMILY_AEAD:
        switch ((wc_aead)member) {
        case WC_AEAD_AES_GCM:
        case WC_AEAD_CHACHA20_POLY1305:
        case WC_AEAD_AES_OCB: return aes_key_new(family, member, key, key_len, state);
        case WC_AEAD_AES_GCM_SIV: return wc_ossl_gcm_siv_key_new(key, key_len, state);
        case WC_AEAD_COUNT: break;
        }
        break;
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_KEYWRAP: return aes_key_new(family, member, key, key_len, state);
    case WC_FAMILY_KDF:
        /* The KDFs take the raw key from the core on every call. */
        *state = NULL;
        return WEBCRYPTO_OK;
    case WC_FAMILY_KMAC: return kmac_key_new((wc_kmac)member, key, key_len, state);
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_XOF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such secret key");
}

static void ossl_secret_key_free(void *state) {
    if (!state) return;
    const wc_ossl_key_head *head = state;
    if (head->family == WC_FAMILY_HMAC) {
        hmac_state_free(state);
    } else if (head->family == WC_FAMILY_KMAC) {
        wc_wipe(state, sizeof(kmac_state));
        free(state);
    } else if (head->family == WC_FAMILY_AEAD && head->member == WC_AEAD_AES_GCM_SIV) {
        wc_ossl_gcm_siv_key_free(state);
    } else {
        aes_state_free(state);
    }
}

/* ---- HMAC ---- */

typedef struct hmac_ctx {
    EVP_MD_CTX *md; /* EVP: a copy of the key's inner context, then its outer */
    void *p;        /* provider: a copy of the key's inner context */
    const hmac_state *key;
} hmac_ctx;

/* Finishes HMAC: out = H(K0^opad || H(K0^ipad || msg)), with c holding the
 * inner hash so far. c is reused for the outer hash. */
static webcrypto_status hmac_finish(EVP_MD_CTX *c, const hmac_state *s, uint8_t *out) {
    uint8_t inner[EVP_MAX_MD_SIZE];
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_DigestFinal_ex(c, inner, NULL) != 1)
        st = ossl_fail("EVP_DigestFinal_ex (HMAC inner)");
    else if (EVP_MD_CTX_copy_ex(c, s->outer) != 1)
        st = ossl_fail("EVP_MD_CTX_copy_ex (HMAC outer)");
    else if (EVP_DigestUpdate(c, inner, s->md_size) != 1 ||
             EVP_DigestFinal_ex(c, out, NULL) != 1)
        st = ossl_fail("HMAC outer digest");
    wc_wipe(inner, sizeof inner);
    return st;
}

static webcrypto_status hmac_start(const hmac_state *s, EVP_MD_CTX **out) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c) return no_memory("EVP_MD_CTX_new");
    if (EVP_MD_CTX_copy_ex(c, s->inner) != 1) {
        EVP_MD_CTX_free(c);
        return ossl_fail("EVP_MD_CTX_copy_ex (HMAC inner)");
    }
    *out = c;
    return WEBCRYPTO_OK;
}

/* HMAC over a || b || c on the provider path: copies of the key's provider
 * states, each freed (cleansed) after use. */
/* Finishes a provider-path HMAC whose inner hash is done: the outer one,
 * from a copy of the key's outer state. */
static webcrypto_status hmac_prov_outer(const hmac_state *s, uint8_t *inner, uint8_t *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    if (!wc_prov_digest_finish_copy(s->pd, s->pouter, inner, s->md_size, NULL, 0, NULL, 0, out))
        st = ossl_fail("HMAC outer digest");
    wc_wipe(inner, EVP_MAX_MD_SIZE);
    return st;
}

static webcrypto_status hmac_prov(const hmac_state *s, const uint8_t *a, size_t a_len,
                                  const uint8_t *b, size_t b_len, const uint8_t *c, size_t c_len,
                                  uint8_t *out) {
    uint8_t inner[EVP_MAX_MD_SIZE];
    if (!wc_prov_digest_finish_copy(s->pd, s->pinner, a, a_len, b, b_len, c, c_len, inner)) {
        wc_wipe(inner, sizeof inner);
        return ossl_fail("HMAC inner digest");
    }
    return hmac_prov_outer(s, inner, out);
}

/* A one-shot HMAC copies the key's provider states (hmac_prov) or, on EVP,
 * copies the key's states into the thread's own context for the key rather
 * than a new one. (Copying from per-thread copies of the
 * inner and outer states instead measured the same: the cost of a copy is
 * OpenSSL's, whatever the source.) */
static webcrypto_status ossl_hmac(const void *key_state, const uint8_t *in, size_t len,
                                  uint8_t *out) {
    const hmac_state *s = key_state;
    if (s->pd) return hmac_prov(s, in, len, NULL, 0, NULL, 0, out);
    wc_tc_entry *e = wc_tc_entry_get(&s->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    if (!e->work && !(e->work = EVP_MD_CTX_new())) return no_memory("EVP_MD_CTX_new");
    webcrypto_status st;
    if (EVP_MD_CTX_copy_ex(e->work, s->inner) != 1)
        st = ossl_fail("EVP_MD_CTX_copy_ex (HMAC inner)");
    else if (len > 0 && EVP_DigestUpdate(e->work, in, len) != 1)
        st = ossl_fail("EVP_DigestUpdate (HMAC)");
    else
        st = hmac_finish(e->work, s, out);
    if (st != WEBCRYPTO_OK) {
        EVP_MD_CTX_free(e->work);
        e->work = NULL;
    }
    return st;
}

static webcrypto_status ossl_hmac_new(const void *key_state, void **ctx) {
    hmac_ctx *h = malloc(sizeof *h);
    if (!h) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    h->key = key_state;
    h->md = NULL;
    h->p = NULL;
    webcrypto_status st = WEBCRYPTO_OK;
    if (h->key->pd) {
        /* dupctx reads the shared state only (its prototype is not const) */
        if (!(h->p = h->key->pd->dupctx(h->key->pinner))) st = ossl_fail("HMAC digest copy");
    } else {
        st = hmac_start(h->key, &h->md);
    }
    if (st != WEBCRYPTO_OK) {
        free(h);
        return st;
    }
    *ctx = h;
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_hmac_update(void *ctx, const uint8_t *in, size_t len) {
    hmac_ctx *h = ctx;
    if (len == 0) return WEBCRYPTO_OK;
    if (h->p ? h->key->pd->update(h->p, in, len) != 1 : EVP_DigestUpdate(h->md, in, len) != 1)
        return ossl_fail("HMAC update");
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_hmac_final(void *ctx, uint8_t *out) {
    hmac_ctx *h = ctx;
    if (!h->p) return hmac_finish(h->md, h->key, out);
    uint8_t inner[EVP_MAX_MD_SIZE];
    size_t n = 0;
    if (h->key->pd->final(h->p, inner, &n, h->key->md_size) != 1 || n != h->key->md_size) {
        wc_wipe(inner, sizeof inner);
        return ossl_fail("HMAC inner digest");
    }
    return hmac_prov_outer(h->key, inner, out);
}

static void ossl_hmac_free(void *ctx) {
    hmac_ctx *h = ctx;
    if (!h) return;
    EVP_MD_CTX_free(h->md);
    if (h->p) h->key->pd->freectx(h->p); /* cleanses it */
    free(h);
}

/* ---- AES ---- */

/* A per-call context: a copy of the key's template (no key schedule), with
 * iv set and the direction chosen. iv_len, if not 0, is a GCM IV length.
 * Used by AES-KW, which is not called per small message; the other modes
 * reuse the thread's context (cipher_begin). */
static webcrypto_status cipher_start(const EVP_CIPHER_CTX *tpl, int enc, const uint8_t *iv,
                                     size_t iv_len, EVP_CIPHER_CTX **out) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return no_memory("EVP_CIPHER_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_CIPHER_CTX_copy(c, tpl) != 1)
        st = ossl_fail("EVP_CIPHER_CTX_copy");
    else if (iv_len != 0 && iv_len != 12 &&
             EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) != 1)
        st = ossl_fail("setting the AES-GCM IV length");
    else if (EVP_CipherInit_ex2(c, NULL, NULL, iv, enc, NULL) != 1)
        st = ossl_fail("EVP_CipherInit_ex2 (IV)");
    if (st != WEBCRYPTO_OK) {
        EVP_CIPHER_CTX_free(c);
        return st;
    }
    *out = c;
    return WEBCRYPTO_OK;
}

/* The calling thread's context for s, keyed in the direction enc (CBC keeps
 * one per direction, CTR and GCM one for both), re-initialised with iv:
 * after the thread's first call with the key this neither copies nor keys
 * anything. iv_len, if not 0, is a GCM IV length. On success *slot is where
 * the context lives, for cipher_done. */
static webcrypto_status cipher_begin(const aes_state *s, int enc, const uint8_t *iv,
                                     size_t iv_len, EVP_CIPHER_CTX ***slot) {
    wc_tc_entry *e = wc_tc_entry_get(&s->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    bool own_dec = s->dec && !enc;
    EVP_CIPHER_CTX **p = own_dec ? &e->dec : &e->enc;
    EVP_CIPHER_CTX *c = *p;
    if (!c) {
        if (!(c = EVP_CIPHER_CTX_new())) return no_memory("EVP_CIPHER_CTX_new");
        if (EVP_CIPHER_CTX_copy(c, own_dec ? s->dec : s->enc) != 1) {
            EVP_CIPHER_CTX_free(c);
            return ossl_fail("EVP_CIPHER_CTX_copy");
        }
        *p = c;
        *(own_dec ? &e->dec_iv_len : &e->gcm_iv_len) = 0;
    }
    webcrypto_status st = WEBCRYPTO_OK;
    size_t *set_len = own_dec ? &e->dec_iv_len : &e->gcm_iv_len;
    if (iv_len != 0 && iv_len != (*set_len ? *set_len : 12)) {
        if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) != 1)
            st = ossl_fail("setting the AEAD IV length");
        else
            *set_len = iv_len;
    }
    if (st == WEBCRYPTO_OK && EVP_CipherInit_ex(c, NULL, NULL, NULL, iv, enc) != 1)
        st = ossl_fail("EVP_CipherInit_ex (IV)");
    if (st != WEBCRYPTO_OK) {
        EVP_CIPHER_CTX_free(c);
        *p = NULL;
        return st;
    }
    *slot = p;
    return WEBCRYPTO_OK;
}

/* Ends a call begun by cipher_begin: a context whose call failed is dropped
 * (the next call copies the template again) rather than trusted. */
static webcrypto_status cipher_done(EVP_CIPHER_CTX **slot, webcrypto_status st) {
    if (st != WEBCRYPTO_OK) {
        EVP_CIPHER_CTX_free(*slot);
        *slot = NULL;
    }
    return st;
}

/* Runs len bytes through c in int-sized chunks; out NULL feeds GCM's AAD.
 * Every mode used here (CBC without padding on whole blocks, CTR, GCM)
 * outputs exactly what it is given, which is checked. */
static webcrypto_status cipher_update(EVP_CIPHER_CTX *c, uint8_t *out, const uint8_t *in,
                                      size_t len) {
    while (len > 0) {
        size_t n = len < OSSL_CHUNK ? len : OSSL_CHUNK;
        int got = 0;
        if (EVP_CipherUpdate(c, out, &got, in, (int)n) != 1) return ossl_fail("EVP_CipherUpdate");
        if (got != (int)n)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: EVP_CipherUpdate output %d bytes, expected %zu", got, n);
        if (out) out += n;
        in += n;
        len -= n;
    }
    return WEBCRYPTO_OK;
}

/* Final for the modes that hold nothing back (CBC without padding, CTR). */
static webcrypto_status cipher_final_empty(EVP_CIPHER_CTX *c) {
    uint8_t rest[32];
    int got = 0;
    if (EVP_CipherFinal_ex(c, rest, &got) != 1) return ossl_fail("EVP_CipherFinal_ex");
    if (got != 0) {
        wc_wipe(rest, sizeof rest);
        return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unexpected %d bytes at EVP_CipherFinal_ex", got);
    }
    return WEBCRYPTO_OK;
}

static webcrypto_status ossl_aes_cbc(const void *key_state, bool encrypt, const uint8_t iv[16],
                                     const uint8_t *in, size_t len, uint8_t *out) {
    const aes_state *s = key_state;
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = cipher_begin(s, encrypt ? 1 : 0, iv, 0, &slot);
    if (st != WEBCRYPTO_OK) return st;
    st = cipher_update(*slot, out, in, len);
    if (st == WEBCRYPTO_OK) st = cipher_final_empty(*slot);
    return cipher_done(slot, st);
}

static webcrypto_status ossl_aes_ctr(const void *key_state, const uint8_t counter[16],
                                     const uint8_t *in, size_t len, uint8_t *out) {
    const aes_state *s = key_state;
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = cipher_begin(s, 1, counter, 0, &slot);
    if (st != WEBCRYPTO_OK) return st;
    st = cipher_update(*slot, out, in, len);
    if (st == WEBCRYPTO_OK) st = cipher_final_empty(*slot);
    return cipher_done(slot, st);
}

static webcrypto_status ossl_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                                   const uint8_t iv[16], const uint8_t *in, size_t len,
                                   uint8_t *out) {
    switch (kind) {
    case WC_CIPHER_AES_CBC: return ossl_aes_cbc(key_state, encrypt, iv, in, len, out);
    case WC_CIPHER_AES_CTR: return ossl_aes_ctr(key_state, iv, in, len, out);
    case WC_CIPHER_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such cipher mode");
}

/* GF(2^128) as GCM defines it (SP 800-38D 6.3): bit 0 is the most
 * significant bit of byte 0; hi holds bytes 0..7 big-endian, lo 8..15. */
typedef struct gf128 {
    uint64_t hi, lo;
} gf128;

static gf128 gf_load(const uint8_t b[16]) {
    gf128 r = {0, 0};
    for (int i = 0; i < 8; i++) {
        r.hi = (r.hi << 8) | b[i];
        r.lo = (r.lo << 8) | b[8 + i];
    }
    return r;
}

static void gf_store(gf128 x, uint8_t b[16]) {
    for (int i = 7; i >= 0; i--) {
        b[i] = (uint8_t)x.hi;
        b[8 + i] = (uint8_t)x.lo;
        x.hi >>= 8;
        x.lo >>= 8;
    }
}

/* x * y, in time independent of the values (H is secret). */
static gf128 gf_mul(gf128 x, gf128 y) {
    gf128 z = {0, 0}, v = y;
    for (int i = 0; i < 128; i++) {
        uint64_t bit = i < 64 ? (x.hi >> (63 - i)) & 1 : (x.lo >> (127 - i)) & 1;
        uint64_t take = (uint64_t)0 - bit;
        z.hi ^= v.hi & take;
        z.lo ^= v.lo & take;
        uint64_t reduce = (uint64_t)0 - (v.lo & 1);
        v.lo = (v.lo >> 1) | (v.hi << 63);
        v.hi = (v.hi >> 1) ^ (UINT64_C(0xE100000000000000) & reduce);
    }
    return z;
}

/* a^-1 = a^(2^128 - 2) (and 0 for 0). */
static gf128 gf_inv(gf128 a) {
    gf128 r = a; /* a^(2^k - 1), k = 1 */
    for (int k = 1; k < 127; k++) r = gf_mul(gf_mul(r, r), a);
    return gf_mul(r, r);
}

/* OpenSSL 3.0 refuses GCM IVs over 128 bytes, which WebCrypto allows. For
 * any IV that is not 96 bits, GCM uses only J0 = GHASH_H(IV || 0-pad ||
 * [0]64 || [bits(IV)]64). A 16-byte IV X gives J0 = X*H^2 ^ L*H with
 * L = [0]64 || [128]64, so X = (J0 ^ L*H) * H^-2 yields the same J0, hence
 * the same ciphertext and tag. (If H = 0 every such IV gives J0 = 0, and so
 * does X = 0, which the formula returns.) */
static void gcm_reduce_iv(const uint8_t h_bytes[16], const uint8_t *iv, size_t iv_len,
                          uint8_t x_out[16]) {
    gf128 h = gf_load(h_bytes), y = {0, 0};
    uint8_t block[16];
    for (size_t off = 0; off < iv_len; off += 16) {
        size_t n = iv_len - off < 16 ? iv_len - off : 16;
        memset(block, 0, sizeof block);
        memcpy(block, iv + off, n);
        gf128 b = gf_load(block);
        y.hi ^= b.hi;
        y.lo ^= b.lo;
        y = gf_mul(y, h);
    }
    y.lo ^= (uint64_t)iv_len * 8; /* iv_len < 2^61: it is in memory */
    gf128 j0 = gf_mul(y, h);
    gf128 l = {0, 128};
    gf128 t = gf_mul(l, h);
    j0.hi ^= t.hi;
    j0.lo ^= t.lo;
    gf128 hinv = gf_inv(h);
    gf128 x = gf_mul(j0, gf_mul(hinv, hinv));
    gf_store(x, x_out);
    wc_wipe(&h, sizeof h);
    wc_wipe(&hinv, sizeof hinv);
    wc_wipe(&j0, sizeof j0);
    wc_wipe(&y, sizeof y);
    wc_wipe(&t, sizeof t);
    wc_wipe(&x, sizeof x);
}

/* The IV OpenSSL is given: iv itself, or for one it cannot take, its
 * 16-byte equivalent, written to x. */
static webcrypto_status gcm_iv(const aes_state *s, const uint8_t **iv, size_t *iv_len,
                               uint8_t x[16]) {
    if (*iv_len == 0) return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM: the IV is empty");
    if (*iv_len <= GCM_MAX_NATIVE_IV) return WEBCRYPTO_OK;
    if (!s->have_h)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL: AES-GCM IVs over %d bytes need AES-CTR, which is unavailable",
                        GCM_MAX_NATIVE_IV);
    gcm_reduce_iv(s->h, *iv, *iv_len, x);
    *iv = x;
    *iv_len = 16;
    return WEBCRYPTO_OK;
}

/* Starts a GCM call on EVP. */
static webcrypto_status gcm_start(const aes_state *s, int enc, const uint8_t *iv, size_t iv_len,
                                  EVP_CIPHER_CTX ***out) {
    uint8_t x[16];
    webcrypto_status st = gcm_iv(s, &iv, &iv_len, x);
    if (st == WEBCRYPTO_OK) st = cipher_begin(s, enc, iv, iv_len, out);
    wc_wipe(x, sizeof x);
    return st;
}

/* The calling thread's provider context for s (a copy of the key's, made
 * at its first call), for the provider path. */
static webcrypto_status gcm_prov_ctx(const aes_state *s, wc_tc_entry **entry) {
    wc_tc_entry *e = wc_tc_entry_get(&s->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    if (!e->prov) {
        if (!(e->prov = s->pg->dupctx(s->gcm_tpl))) return no_memory("AES-GCM context");
        e->prov_free = s->pg->freectx;
    }
    *entry = e;
    return WEBCRYPTO_OK;
}

/* Ends a provider-path call: a context whose call failed is dropped. */
static void gcm_prov_done(wc_tc_entry *e, bool ok) {
    if (!ok) {
        e->prov_free(e->prov);
        e->prov = NULL;
    }
}

static webcrypto_status gcm_prov_seal(const aes_state *s, const uint8_t *iv, size_t iv_len,
                                      const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t len, uint8_t *out, uint8_t *tag, size_t tag_len) {
    uint8_t x[16];
    wc_tc_entry *e = NULL;
    webcrypto_status st = gcm_iv(s, &iv, &iv_len, x);
    if (st == WEBCRYPTO_OK) st = gcm_prov_ctx(s, &e);
    if (st == WEBCRYPTO_OK) {
        bool ok = wc_prov_gcm_seal(s->pg, e->prov, iv, iv_len, aad, aad_len, in, len, out, tag,
                                   tag_len);
        gcm_prov_done(e, ok);
        if (!ok) st = ossl_fail("AES-GCM encryption");
    }
    wc_wipe(x, sizeof x);
    return st;
}

static webcrypto_status gcm_prov_open(const aes_state *s, const uint8_t *iv, size_t iv_len,
                                      const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t len, const uint8_t *tag, size_t tag_len,
                                      uint8_t *out) {
    uint8_t x[16];
    wc_tc_entry *e = NULL;
    webcrypto_status st = gcm_iv(s, &iv, &iv_len, x);
    if (st == WEBCRYPTO_OK) st = gcm_prov_ctx(s, &e);
    if (st == WEBCRYPTO_OK) {
        /* The provider compares the tag in constant time (CRYPTO_memcmp). */
        bool ok = wc_prov_gcm_open(s->pg, e->prov, iv, iv_len, aad, aad_len, in, len, tag,
                                   tag_len, out);
        gcm_prov_done(e, ok);
        if (!ok) {
            ERR_clear_error();
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "AES-GCM: the authentication tag does not match (wrong key, IV, "
                          "additional data or tag, or altered ciphertext)");
        }
    }
    wc_wipe(x, sizeof x);
    return st;
}

static webcrypto_status ossl_aes_gcm_seal(const void *key_state, const uint8_t *iv, size_t iv_len,
                                          const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                          size_t len, uint8_t *out, uint8_t *tag, size_t tag_len) {
    const aes_state *s = key_state;
    if (tag_len < 1 || tag_len > 16)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM: bad tag length %zu", tag_len);
    if (s->pg) return gcm_prov_seal(s, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = gcm_start(s, 1, iv, iv_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    uint8_t rest[32];
    int got = 0;
    st = cipher_update(c, NULL, aad, aad_len);
    if (st == WEBCRYPTO_OK) st = cipher_update(c, out, in, len);
    if (st == WEBCRYPTO_OK) {
        if (EVP_CipherFinal_ex(c, rest, &got) != 1 || got != 0)
            st = ossl_fail("EVP_CipherFinal_ex (AES-GCM)");
        else if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, (int)tag_len, tag) != 1)
            st = ossl_fail("getting the AES-GCM tag");
    }
    return cipher_done(slot, st);
}

static webcrypto_status ossl_aes_gcm_open(const void *key_state, const uint8_t *iv, size_t iv_len,
                                          const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                          size_t len, const uint8_t *tag, size_t tag_len,
                                          uint8_t *out) {
    const aes_state *s = key_state;
    if (tag_len < 1 || tag_len > 16)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "AES-GCM: bad tag length %zu", tag_len);
    if (s->pg) return gcm_prov_open(s, iv, iv_len, aad, aad_len, in, len, tag, tag_len, out);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = gcm_start(s, 0, iv, iv_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    uint8_t expected[16], rest[32];
    int got = 0;
    memcpy(expected, tag, tag_len); /* the ctrl takes a non-const pointer */
    if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)tag_len, expected) != 1)
        st = ossl_fail("setting the AES-GCM tag");
    if (st == WEBCRYPTO_OK) st = cipher_update(c, NULL, aad, aad_len);
    if (st == WEBCRYPTO_OK) st = cipher_update(c, out, in, len);
    /* OpenSSL compares the tag in constant time (CRYPTO_memcmp). */
    if (st == WEBCRYPTO_OK && (EVP_CipherFinal_ex(c, rest, &got) != 1 || got != 0)) {
        ERR_clear_error();
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "AES-GCM: the authentication tag does not match (wrong key, IV, "
                      "additional data or tag, or altered ciphertext)");
    }
    return cipher_done(slot, st);
}

/* ---- ChaCha20-Poly1305 and AES-OCB ----
 * The key's context (keyed once, both directions), per thread, as for GCM.
 * OCB holds back a partial last block until EVP_CipherFinal_ex, so the text
 * is fed in whole blocks (OSSL_CHUNK is a multiple of 16) and then its tail;
 * what final writes goes to a local buffer and then to the tail's place.
 * OCB's tag length enters its nonce block (RFC 7253 4.2), so it is set on
 * every call, before any data. */

/* *final_failed: EVP_CipherFinal_ex refused (on decryption: the tag); the
 * status is then OPERATION with no message set, for the caller's. */
static webcrypto_status evp_aead_run(EVP_CIPHER_CTX *c, const char *what, const uint8_t *aad,
                                     size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                                     bool *final_failed) {
    *final_failed = false;
    int got = 0;
    while (aad_len > 0) { /* out NULL: additional data */
        size_t n = aad_len < OSSL_CHUNK ? aad_len : OSSL_CHUNK;
        if (EVP_CipherUpdate(c, NULL, &got, aad, (int)n) != 1) return ossl_fail(what);
        aad += n;
        aad_len -= n;
    }
    size_t done = 0, whole = len & ~(size_t)15;
    while (done < len) {
        size_t n = whole > done ? whole - done : len - done;
        if (n > OSSL_CHUNK) n = OSSL_CHUNK;
        if (EVP_CipherUpdate(c, out + done, &got, in + done, (int)n) != 1) return ossl_fail(what);
        if (got < 0 || (size_t)got > n) /* never more than it was given */
            return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: %s output %d bytes for %zu", what,
                            got, n);
        if ((size_t)got != n) { /* a held-back tail: only the last, partial block */
            if (done + n != len || (size_t)got != n - (n & 15))
                return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: %s held back %zu bytes",
                                what, n - (size_t)got);
            done += (size_t)got;
            break;
        }
        done += n;
    }
    uint8_t rest[32];
    got = 0;
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_CipherFinal_ex(c, rest, &got) != 1) {
        st = WEBCRYPTO_ERR_OPERATION; /* the caller's message: a tag mismatch on decryption */
        *final_failed = true;
    } else if (got < 0 || (size_t)got != len - done) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: %s final gave %d bytes, expected %zu",
                      what, got, len - done);
    } else if (got > 0) {
        memcpy(out + done, rest, (size_t)got);
    }
    wc_wipe(rest, sizeof rest);
    return st;
}

static webcrypto_status ossl_evp_aead_seal(const aes_state *s, wc_aead kind, const uint8_t *nonce,
                                           size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                           const uint8_t *in, size_t len, uint8_t *out,
                                           uint8_t *tag, size_t tag_len) {
    const char *what = kind == WC_AEAD_AES_OCB ? "AES-OCB" : "ChaCha20-Poly1305";
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = cipher_begin(s, 1, nonce, nonce_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    if (kind == WC_AEAD_AES_OCB &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tag_len, NULL) != 1)
        st = ossl_fail("setting the AES-OCB tag length");
    bool final_failed = false;
    if (st == WEBCRYPTO_OK) {
        st = evp_aead_run(c, what, aad, aad_len, in, len, out, &final_failed);
        if (final_failed) st = ossl_fail(what);
    }
    if (st == WEBCRYPTO_OK && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)tag_len, tag) != 1)
        st = ossl_fail("getting the AEAD tag");
    return cipher_done(slot, st);
}

static webcrypto_status ossl_evp_aead_open(const aes_state *s, wc_aead kind, const uint8_t *nonce,
                                           size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                           const uint8_t *in, size_t len, const uint8_t *tag,
                                           size_t tag_len, uint8_t *out) {
    const char *what = kind == WC_AEAD_AES_OCB ? "AES-OCB" : "ChaCha20-Poly1305";
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = cipher_begin(s, 0, nonce, nonce_len, &slot);
    if (st != WEBCRYPTO_OK) return st;
    EVP_CIPHER_CTX *c = *slot;
    uint8_t expected[16];
    memcpy(expected, tag, tag_len); /* the ctrl takes a non-const pointer */
    if (kind == WC_AEAD_AES_OCB &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tag_len, NULL) != 1)
        st = ossl_fail("setting the AES-OCB tag length");
    else if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tag_len, expected) != 1)
        st = ossl_fail("setting the AEAD tag");
    /* OpenSSL compares the tag in constant time (CRYPTO_memcmp) at final;
     * what update wrote to out the core wipes on failure. */
    bool final_failed = false;
    if (st == WEBCRYPTO_OK) {
        st = evp_aead_run(c, what, aad, aad_len, in, len, out, &final_failed);
        if (final_failed) {
            ERR_clear_error();
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "%s: the authentication tag does not match (wrong key, nonce, "
                          "additional data or tag, or altered ciphertext)", what);
        }
    }
    return cipher_done(slot, st);
}

/* ---- KDFs ---- */

static webcrypto_status ossl_aead_seal(const void *key_state, wc_aead kind, const uint8_t *nonce,
                                      size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                      const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                                      size_t tag_len) {
    switch (kind) {
    case WC_AEAD_AES_GCM:
        return ossl_aes_gcm_seal(key_state, nonce, nonce_len, aad, aad_len, in, len, out, tag,
                                 tag_len);
    case WC_AEAD_AES_GCM_SIV: /* nonce 12, tag 16 bytes: the core's */
        return wc_ossl_gcm_siv_seal(key_state, nonce, aad, aad_len, in, len, out, tag);
    case WC_AEAD_CHACHA20_POLY1305:
    case WC_AEAD_AES_OCB:
        return ossl_evp_aead_seal(key_state, kind, nonce, nonce_len, aad, aad_len, in, len, out,
                                  tag, tag_len);
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such AEAD");
}

static webcrypto_status ossl_aead_open(const void *key_state, wc_aead kind, const uint8_t *nonce,
                                      size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                      const uint8_t *in, size_t len, const uint8_t *tag,
                                      size_t tag_len, uint8_t *out) {
    switch (kind) {
    case WC_AEAD_AES_GCM:
        return ossl_aes_gcm_open(key_state, nonce, nonce_len, aad, aad_len, in, len, tag,
                                 tag_len, out);
    case WC_AEAD_AES_GCM_SIV:
        return wc_ossl_gcm_siv_open(key_state, nonce, aad, aad_len, in, len, tag, out);
    case WC_AEAD_CHACHA20_POLY1305:
    case WC_AEAD_AES_OCB:
        return ossl_evp_aead_open(key_state, kind, nonce, nonce_len, aad, aad_len, in, len, tag,
                                  tag_len, out);
    case WC_AEAD_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such AEAD");
}

static OSSL_PARAM octets(const char *key, const uint8_t *p, size_t len) {
    /* OpenSSL only reads these, but the constructor takes void *. */
    return OSSL_PARAM_construct_octet_string(key, (void *)(len ? p : empty_buf), len);
}

static webcrypto_status kdf_derive(EVP_KDF *kdf, const char *what, OSSL_PARAM *params,
                                   uint8_t *out, size_t out_len) {
    EVP_KDF_CTX *c = EVP_KDF_CTX_new(kdf);
    if (!c) return no_memory("EVP_KDF_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_KDF_derive(c, out, out_len, params) != 1) st = ossl_fail(what);
    EVP_KDF_CTX_free(c); /* cleanses the copies of the key it holds */
    return st;
}

/* OpenSSL 3.0's KDF providers take some lengths as int (the PBKDF2 salt,
 * the HMAC key inside both KDFs: a longer one wraps, giving a wrong answer or
 * a crash) and cap HKDF's info at 32768 bytes, and they copy every input.
 * So HKDF is built here from this backend's HMAC (RFC 5869, sections 2.2 and
 * 2.3), which takes any size_t; PBKDF2 uses OpenSSL's KDF with a password
 * longer than the hash block replaced by its digest (HMAC keys are, RFC 2104,
 * so the result is the same), and the HMAC construction below for salts
 * and outputs over INT_MAX bytes (OpenSSL's PBKDF2 keeps the output length
 * in an int too: 2^31 bytes crashed, 2^32 + 32 returned 32 bytes). */

/* One HMAC over the concatenation a || b || c (any of them may be empty). */
static webcrypto_status hmac3(const hmac_state *k, const uint8_t *a, size_t a_len,
                              const uint8_t *b, size_t b_len, const uint8_t *c, size_t c_len,
                              uint8_t *out) {
    if (k->pd) return hmac_prov(k, a, a_len, b, b_len, c, c_len, out);
    EVP_MD_CTX *m = NULL;
    webcrypto_status st = hmac_start(k, &m);
    if (st != WEBCRYPTO_OK) return st;
    if ((a_len && EVP_DigestUpdate(m, a, a_len) != 1) ||
        (b_len && EVP_DigestUpdate(m, b, b_len) != 1) ||
        (c_len && EVP_DigestUpdate(m, c, c_len) != 1))
        st = ossl_fail("EVP_DigestUpdate (HMAC)");
    else
        st = hmac_finish(m, k, out);
    EVP_MD_CTX_free(m);
    return st;
}

static webcrypto_status ossl_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm,
                                  size_t ikm_len,
                                  const uint8_t *salt, size_t salt_len, const uint8_t *info,
                                  size_t info_len, uint8_t *out, size_t out_len) {
    (void)bctx;
    const EVP_MD *md = md_for(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    void *salt_key = NULL, *prk_key = NULL;
    uint8_t prk[EVP_MAX_MD_SIZE], t[EVP_MAX_MD_SIZE];
    /* Extract: PRK = HMAC(salt, IKM). An empty salt is HashLen zero bytes,
     * which HMAC pads to the same block as the empty key. */
    webcrypto_status st = hmac_key_new(hash, salt, salt_len, &salt_key);
    if (st != WEBCRYPTO_OK) return st;
    const size_t hl = ((const hmac_state *)salt_key)->md_size;
    st = hmac3(salt_key, ikm, ikm_len, NULL, 0, NULL, 0, prk);
    if (st == WEBCRYPTO_OK) st = hmac_key_new(hash, prk, hl, &prk_key);
    /* Expand: T(i) = HMAC(PRK, T(i-1) || info || i); the core keeps
     * out_len <= 255 HashLen. */
    size_t done = 0;
    for (unsigned i = 1; st == WEBCRYPTO_OK && done < out_len; i++) {
        const uint8_t ctr = (uint8_t)i;
        st = hmac3(prk_key, t, i > 1 ? hl : 0, info, info_len, &ctr, 1, t);
        if (st != WEBCRYPTO_OK) break;
        size_t n = out_len - done < hl ? out_len - done : hl;
        memcpy(out + done, t, n);
        done += n;
    }
    if (salt_key) hmac_state_free(salt_key);
    if (prk_key) hmac_state_free(prk_key);
    wc_wipe(prk, sizeof prk);
    wc_wipe(t, sizeof t);
    return st;
}

/* PBKDF2 (RFC 8018 section 5.2) from this backend's HMAC, for the salts
 * and output lengths OpenSSL cannot take (over INT_MAX bytes: its PBKDF2
 * keeps both in an int). */
static webcrypto_status pbkdf2_hmac(wc_hash hash, const uint8_t *password,
                                    size_t password_len, const uint8_t *salt, size_t salt_len,
                                    uint32_t iterations, uint8_t *out, size_t out_len) {
    void *key = NULL;
    webcrypto_status st = hmac_key_new(hash, password, password_len, &key);
    if (st != WEBCRYPTO_OK) return st;
    const size_t hl = ((const hmac_state *)key)->md_size;
    /* The block counter is 32 bits: RFC 8018's "derived key too long". */
    if (out_len / hl > UINT32_MAX - 1) {
        hmac_state_free(key);
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "PBKDF2 yields at most (2^32 - 1) blocks of the hash (%zu bytes asked)",
                        out_len);
    }
    uint8_t u[EVP_MAX_MD_SIZE], f[EVP_MAX_MD_SIZE];
    size_t done = 0;
    for (uint32_t i = 1; st == WEBCRYPTO_OK && done < out_len; i++) {
        const uint8_t be[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8),
                               (uint8_t)i};
        st = hmac3(key, salt, salt_len, be, 4, NULL, 0, u); /* U_1 */
        memcpy(f, u, hl);
        for (uint32_t j = 1; st == WEBCRYPTO_OK && j < iterations; j++) {
            st = hmac3(key, u, hl, NULL, 0, NULL, 0, u);
            for (size_t b = 0; b < hl; b++) f[b] ^= u[b];
        }
        if (st != WEBCRYPTO_OK) break;
        size_t n = out_len - done < hl ? out_len - done : hl;
        memcpy(out + done, f, n);
        done += n;
    }
    hmac_state_free(key);
    wc_wipe(u, sizeof u);
    wc_wipe(f, sizeof f);
    return st;
}

static webcrypto_status ossl_pbkdf2(const void *bctx, wc_hash hash,
                                    const uint8_t *password,
                                    size_t password_len, const uint8_t *salt, size_t salt_len,
                                    uint32_t iterations, uint8_t *out, size_t out_len) {
    (void)bctx;
    const char *digest = kdf_digest_name(hash);
    const EVP_MD *md = md_for(hash);
    if (!digest || !md) return wc_hash_unavailable("OpenSSL", hash);
    if (salt_len > INT_MAX || out_len > INT_MAX)
        return pbkdf2_hmac(hash, password, password_len, salt, salt_len, iterations, out,
                           out_len);
    uint8_t hashed[EVP_MAX_MD_SIZE];
    int block = EVP_MD_get_block_size(md);
    if (block <= 0) return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unexpected digest block size");
    if (password_len > (size_t)block) {
        unsigned int hn = 0;
        if (EVP_Digest(password, password_len, hashed, &hn, md, NULL) != 1)
            return ossl_fail("EVP_Digest (PBKDF2 password)");
        password = hashed;
        password_len = hn;
    }
    uint64_t iter = iterations;
    /* pkcs5 = 1 turns off SP 800-132's lower bounds (salt >= 16 bytes,
     * iterations >= 1000, output >= 14 bytes), which WebCrypto does not have. */
    int pkcs5 = 1;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_int(OSSL_KDF_PARAM_PKCS5, &pkcs5),
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)digest, 0),
        octets(OSSL_KDF_PARAM_PASSWORD, password, password_len),
        octets(OSSL_KDF_PARAM_SALT, salt, salt_len),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter),
        OSSL_PARAM_construct_end(),
    };
    webcrypto_status st = kdf_derive(kdf_pbkdf2, "PBKDF2", params, out, out_len);
    wc_wipe(hashed, sizeof hashed);
    return st;
}

/* ---- Argon2 (RFC 9106), from libargon2 ----
 * The reference implementation's argon2_ctx, which takes the secret and the
 * associated data. It runs up to ARGON2_THREADS threads of its own per call
 * (pthreads it joins before returning) when parallelism > 1; the lanes, and
 * so the result, do not depend on the thread count. */
#if WEBCRYPTO_HAVE_LIBARGON2
#define ARGON2_THREADS 4u

static webcrypto_status ossl_argon2(const void *bctx, wc_kdf kind, const uint8_t *password,
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
        .pwd = (uint8_t *)(password_len ? password : empty_buf),
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
    EVP_CIPHER_CTX *c = NULL;
    webcrypto_status st = cipher_start(wrap ? s->enc : s->dec, wrap ? 1 : 0, NULL, 0, &c);
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
        ok = EVP_CipherUpdate(c, b, &got, b, 16) == 1 && got == 16;
        if (wrap)
            for (int q = 0; q < 8; q++) b[7 - q] ^= (uint8_t)(t >> (8 * q));
        memcpy(r + 8 * i, b + 8, 8);
    }
    if (!ok) {
        st = ossl_fail(wrap ? "AES-KW wrap" : "AES-KW unwrap");
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

static webcrypto_status ossl_aes_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                         uint8_t *out) {
    return aes_kw_run(key_state, true, in, len, out);
}

static webcrypto_status ossl_aes_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                           uint8_t *out) {
    return aes_kw_run(key_state, false, in, len, out);
}

/* The backend's functions, called through the fork and exit gate (gate.c). */
const wc_backend_ops wc_backend_openssl_ungated = {
    .name = "openssl",
    .init = ossl_init,
    .random_bytes = ossl_random_bytes,
    .digest = ossl_digest,
    .digest_new = ossl_digest_new,
    .digest_update = ossl_digest_update,
    .digest_final = ossl_digest_final,
    .digest_free = ossl_digest_free,
    .secret_key_new = ossl_secret_key_new,
    .secret_key_free = ossl_secret_key_free,
    .hmac = ossl_hmac,
    .hmac_new = ossl_hmac_new,
    .hmac_update = ossl_hmac_update,
    .hmac_final = ossl_hmac_final,
    .hmac_free = ossl_hmac_free,
    .cipher = ossl_cipher,
    .aead_seal = ossl_aead_seal,
    .aead_open = ossl_aead_open,
    .aes_kw_wrap = ossl_aes_kw_wrap,
    .aes_kw_unwrap = ossl_aes_kw_unwrap,
    .pkey_import = wc_ossl_pkey_import,
    .pkey_generate = wc_ossl_pkey_generate,
    .pkey_fields = wc_ossl_pkey_fields,
    .pkey_private_fields = wc_ossl_pkey_private_fields,
    .pkey_free = wc_ossl_pkey_free,
    .rsa_sign = wc_ossl_rsa_sign,
    .rsa_verify = wc_ossl_rsa_verify,
    .rsa_oaep_encrypt = wc_ossl_rsa_oaep_encrypt,
    .rsa_oaep_decrypt = wc_ossl_rsa_oaep_decrypt,
    .ecdsa_sign = wc_ossl_ecdsa_sign,
    .ecdsa_verify = wc_ossl_ecdsa_verify,
    .ecdh = wc_ossl_ecdh,
    .okp_sign = wc_ossl_okp_sign,
    .okp_verify = wc_ossl_okp_verify,
    .okp_derive = wc_ossl_okp_derive,
    .hkdf = ossl_hkdf,
    .pbkdf2 = ossl_pbkdf2,
    .xof = ossl_xof,
    .kmac = ossl_kmac,
#if WEBCRYPTO_HAVE_LIBARGON2
    .argon2 = ossl_argon2,
#endif
};
