/*
 * The raw-boringssl baseline: each operation written directly on BoringSSL's
 * API, the way a BoringSSL user writes it, without libwebcrypto. Built as
 * the module webcrypto-bench-raw-boringssl.so (see bench_raw_module.h for
 * why and for the interface), compiled against BoringSSL's headers only.
 *
 * Per cell, in setup (untimed): the algorithm (EVP_MD, EVP_CIPHER, EVP_AEAD),
 * a copy of the key, and for AES-GCM and AES-GCM-SIV an EVP_AEAD_CTX
 * initialised with the key: BoringSSL's AEAD API is made for a context kept
 * per key and used by many threads at once, so a user keys it once and then
 * seals/opens. Per timed call:
 *   digest      SHA1() / SHA256() / SHA384() / SHA512(), one-shot
 *   HMAC        on the calling thread's HMAC_CTX keyed for the cell (made
 *               on its first call): HMAC_Init_ex with no key restarts from
 *               the prepared key states, then Update, Final; verify adds
 *               CRYPTO_memcmp
 *   AES-GCM,    EVP_AEAD_CTX_seal / EVP_AEAD_CTX_open on the cell's context
 *   AES-GCM-SIV (ciphertext || tag, as WebCrypto lays it out)
 *   AES-CBC,    on the calling thread's EVP_CIPHER_CTX keyed for the cell
 *   AES-CTR     and direction (made on its first call): EVP_CipherInit_ex
 *               with only the IV, Update, Final (CBC: PKCS#7)
 * So each is BoringSSL's floor, what a user keeping keyed contexts pays
 * (issue #28: the backend keeps keyed contexts too; re-keying per call
 * would make this target slower than the boringssl backend).
 *   import key  EVP_AEAD_CTX_init + EVP_AEAD_CTX_cleanup (AES-GCM key set-up)
 *   generate    RAND_bytes for the key, then as import
 *   HKDF        HKDF(); PBKDF2: PKCS5_PBKDF2_HMAC(); random: RAND_bytes()
 * No asymmetric operation (yet): the bench skips those for this target.
 * Every BoringSSL return value is checked; keys are wiped on free.
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/base.h> /* BoringSSL only: OpenSSL has no openssl/base.h */
#ifndef OPENSSL_IS_BORINGSSL
#error "bench_raw_boringssl.c must be compiled against BoringSSL's headers, not OpenSSL's"
#endif
#include <openssl/aead.h>
#include <openssl/cipher.h>
#include <openssl/crypto.h>
#include <openssl/digest.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hkdf.h>
#include <openssl/hmac.h>
#include <openssl/mem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "bench_raw_module.h"

static const bench_raw_host *host;

/* The additional data: none, but never a NULL pointer into the library. */
static const uint8_t no_ad[1] = {0};

typedef struct rb_state {
    unsigned kind, alg;
    const EVP_MD *md;         /* HMAC, KDFs */
    const EVP_CIPHER *cipher; /* CBC, CTR */
    const EVP_AEAD *aead;     /* GCM, GCM-SIV, key set-up */
    EVP_AEAD_CTX ctx;         /* GCM, GCM-SIV: keyed once per cell */
    bool have_ctx;
    uint8_t *(*oneshot)(const uint8_t *data, size_t len, uint8_t *out); /* digest */
    size_t md_len;
    uint8_t key[32];
    size_t key_len;
    const uint8_t *data;
    size_t size;
    uint8_t iv[16];
    size_t iv_len;
    const uint8_t *salt, *info;
    size_t salt_len, info_len;
    uint32_t iterations;
    size_t out_cap;
    uint8_t *aux; /* decrypt: ciphertext (|| tag); verify: the MAC */
    size_t aux_len;
    unsigned long reuse_id; /* HMAC, CBC, CTR: which cell a thread's contexts are for */
} rb_state;

/* ---- failures: the message goes to the bench through the host ---- */

static int rb_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int rb_fail(const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    host->fail(msg);
    return -1;
}

/* BoringSSL's reason, and its error queue cleared. */
static int bssl_fail(const char *what) {
    uint32_t e = ERR_get_error();
    char reason[120] = "no reason given";
    if (e) ERR_error_string_n(e, reason, sizeof reason);
    ERR_clear_error();
    return rb_fail("%s failed: %s", what, reason);
}

/* ---- algorithms ---- */

static const EVP_MD *md_for(unsigned hash) {
    switch (hash) {
    case BENCH_RAW_SHA_1: return EVP_sha1();
    case BENCH_RAW_SHA_256: return EVP_sha256();
    case BENCH_RAW_SHA_384: return EVP_sha384();
    case BENCH_RAW_SHA_512: return EVP_sha512();
    default: return NULL;
    }
}

static const EVP_AEAD *aead_for(unsigned alg, size_t key_len) {
    if (alg == BENCH_RAW_AES_GCM)
        return key_len == 16   ? EVP_aead_aes_128_gcm()
               : key_len == 32 ? EVP_aead_aes_256_gcm()
                               : NULL;
    if (alg == BENCH_RAW_AES_GCM_SIV)
        return key_len == 16   ? EVP_aead_aes_128_gcm_siv()
               : key_len == 32 ? EVP_aead_aes_256_gcm_siv()
                               : NULL;
    return NULL;
}

static const EVP_CIPHER *cipher_for(unsigned alg, size_t key_len) {
    bool big = key_len == 32;
    if (key_len != 16 && key_len != 32) return NULL;
    if (alg == BENCH_RAW_AES_CBC) return big ? EVP_aes_256_cbc() : EVP_aes_128_cbc();
    if (alg == BENCH_RAW_AES_CTR) return big ? EVP_aes_256_ctr() : EVP_aes_128_ctr();
    return NULL;
}

static bool rb_supports(const bench_raw_spec *sp) {
    switch (sp->kind) {
    case BENCH_RAW_DIGEST: return md_for(sp->alg) != NULL;
    case BENCH_RAW_HMAC_SIGN:
    case BENCH_RAW_HMAC_VERIFY:
    case BENCH_RAW_HKDF:
    case BENCH_RAW_PBKDF2: return md_for(sp->hash) != NULL;
    case BENCH_RAW_ENCRYPT:
    case BENCH_RAW_DECRYPT:
        return aead_for(sp->alg, sp->key_len) != NULL || cipher_for(sp->alg, sp->key_len) != NULL;
    case BENCH_RAW_GENERATE_KEY:
    case BENCH_RAW_IMPORT_KEY:
        return sp->alg == BENCH_RAW_AES_GCM && aead_for(sp->alg, sp->key_len) != NULL;
    case BENCH_RAW_RANDOM: return true;
    default: return false;
    }
}

/* ---- a thread's keyed contexts (HMAC, AES-CBC, AES-CTR), as the
 * backends keep theirs: one slot per thread, for the cell it runs, made and
 * keyed on its first call (the --threads workers each have their own) ---- */

typedef struct rb_slot {
    unsigned long cell_id; /* 0: empty */
    HMAC_CTX *hmac;
    EVP_CIPHER_CTX *enc, *dec;
} rb_slot;

static pthread_key_t slot_key;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static bool slot_key_ok;
static atomic_ulong next_reuse_id = 1;

static void slot_clear(rb_slot *r) {
    HMAC_CTX_free(r->hmac); /* cleanses the key states */
    EVP_CIPHER_CTX_free(r->enc);
    EVP_CIPHER_CTX_free(r->dec);
    memset(r, 0, sizeof *r);
}

static void slot_free(void *p) {
    slot_clear(p);
    free(p);
}

static void slot_key_make(void) { slot_key_ok = pthread_key_create(&slot_key, slot_free) == 0; }

/* The calling thread's slot for s; NULL after rb_fail(). */
static rb_slot *slot_for(const rb_state *s) {
    if (pthread_once(&slot_once, slot_key_make) != 0 || !slot_key_ok) {
        rb_fail("raw-boringssl: pthread_key_create failed");
        return NULL;
    }
    rb_slot *r = pthread_getspecific(slot_key);
    if (r && r->cell_id == s->reuse_id) return r;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r || pthread_setspecific(slot_key, r) != 0) {
            free(r);
            rb_fail("out of memory");
            return NULL;
        }
    }
    slot_clear(r);
    r->cell_id = s->reuse_id;
    return r;
}

/* ---- state ---- */

static void rb_free(void *p) {
    rb_state *s = p;
    if (!s) return;
    /* The freeing thread's contexts for this cell (the one-thread runs';
     * a --threads worker's go when it ends). */
    if (s->reuse_id && slot_key_ok) {
        rb_slot *r = pthread_getspecific(slot_key);
        if (r && r->cell_id == s->reuse_id) slot_clear(r);
    }
    if (s->have_ctx) EVP_AEAD_CTX_cleanup(&s->ctx);
    free(s->aux); /* a ciphertext or a MAC: nothing secret */
    OPENSSL_cleanse(s, sizeof *s); /* the key copy and the AEAD key schedule */
    free(s);
}

/* The common part of every setup: a state holding the spec's parameters. */
static rb_state *rb_new(const bench_raw_spec *sp, void **state) {
    *state = NULL;
    if (!rb_supports(sp) || sp->key_len > 32 || sp->iv_len > 16) {
        rb_fail("raw-boringssl: unsupported operation (kind %u, alg %u, hash %u)", sp->kind,
                sp->alg, sp->hash);
        return NULL;
    }
    rb_state *s = calloc(1, sizeof *s);
    if (!s) {
        rb_fail("out of memory");
        return NULL;
    }
    *state = s;
    s->kind = sp->kind;
    s->alg = sp->alg;
    if (sp->key_len) memcpy(s->key, sp->key, sp->key_len);
    s->key_len = sp->key_len;
    s->data = sp->data;
    s->size = sp->size;
    if (sp->iv_len) memcpy(s->iv, sp->iv, sp->iv_len);
    s->iv_len = sp->iv_len;
    s->salt = sp->salt;
    s->salt_len = sp->salt_len;
    s->info = sp->info;
    s->info_len = sp->info_len;
    s->iterations = sp->iterations;
    return s;
}

static int aux_alloc(rb_state *s) {
    s->aux = malloc(s->out_cap);
    return s->aux ? 0 : rb_fail("out of memory");
}

/* ---- digest ---- */

static int rb_setup_digest(const bench_raw_spec *sp, void **state, size_t *out_cap) {
    rb_state *s = rb_new(sp, state);
    if (!s) return -1;
    switch (sp->alg) {
    case BENCH_RAW_SHA_1: s->oneshot = SHA1, s->md_len = SHA_DIGEST_LENGTH; break;
    case BENCH_RAW_SHA_256: s->oneshot = SHA256, s->md_len = SHA256_DIGEST_LENGTH; break;
    case BENCH_RAW_SHA_384: s->oneshot = SHA384, s->md_len = SHA384_DIGEST_LENGTH; break;
    default: s->oneshot = SHA512, s->md_len = SHA512_DIGEST_LENGTH; break;
    }
    *out_cap = s->out_cap = EVP_MAX_MD_SIZE;
    return 0;
}

static int rb_run_digest(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    if (s->oneshot(s->data, s->size, out) != out) return bssl_fail("SHA one-shot");
    *out_len = s->md_len;
    return 0;
}

/* ---- HMAC: the thread's HMAC_CTX keyed once, restarted per call ---- */

static int rb_hmac(const rb_state *s, uint8_t *out, size_t *out_len) {
    rb_slot *r = slot_for(s);
    if (!r) return -1;
    if (!r->hmac) {
        if (!(r->hmac = HMAC_CTX_new())) return rb_fail("out of memory");
        if (!HMAC_Init_ex(r->hmac, s->key, s->key_len, s->md, NULL)) {
            slot_clear(r);
            return bssl_fail("HMAC_Init_ex (key)");
        }
    }
    unsigned n = 0;
    if (!HMAC_Init_ex(r->hmac, NULL, 0, NULL, NULL) || !HMAC_Update(r->hmac, s->data, s->size) ||
        !HMAC_Final(r->hmac, out, &n)) {
        slot_clear(r);
        return bssl_fail("HMAC");
    }
    *out_len = n;
    return 0;
}

static int rb_setup_hmac(const bench_raw_spec *sp, void **state, size_t *out_cap) {
    rb_state *s = rb_new(sp, state);
    if (!s) return -1;
    s->reuse_id = atomic_fetch_add(&next_reuse_id, 1);
    s->md = md_for(sp->hash);
    *out_cap = s->out_cap = EVP_MAX_MD_SIZE;
    if (sp->kind == BENCH_RAW_HMAC_VERIFY && (aux_alloc(s) || rb_hmac(s, s->aux, &s->aux_len)))
        return -1;
    return 0;
}

static int rb_run_hmac_sign(const void *p, uint8_t *out, size_t *out_len) {
    return rb_hmac(p, out, out_len);
}

static int rb_run_hmac_verify(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    uint8_t mac[EVP_MAX_MD_SIZE];
    size_t n = 0;
    if (rb_hmac(s, mac, &n)) return -1;
    if (n != s->aux_len || CRYPTO_memcmp(mac, s->aux, n) != 0)
        return rb_fail("raw verify: a correct MAC did not verify");
    out[0] = 1;
    *out_len = 1;
    return 0;
}

/* ---- AES-GCM, AES-GCM-SIV: EVP_AEAD_CTX keyed in setup ---- */

static int rb_seal(const rb_state *s, uint8_t *out, size_t *out_len) {
    if (EVP_AEAD_CTX_seal(&s->ctx, out, out_len, s->out_cap, s->iv, s->iv_len, s->data, s->size,
                          no_ad, 0) != 1)
        return bssl_fail("EVP_AEAD_CTX_seal");
    return 0;
}

static int rb_open(const rb_state *s, uint8_t *out, size_t *out_len) {
    if (EVP_AEAD_CTX_open(&s->ctx, out, out_len, s->out_cap, s->iv, s->iv_len, s->aux,
                          s->aux_len, no_ad, 0) != 1)
        return bssl_fail("EVP_AEAD_CTX_open");
    return 0;
}

/* ---- AES-CBC, AES-CTR: the thread's EVP_CIPHER_CTX per direction, keyed
 * once; each call sets only the IV ---- */

static int rb_cipher(const rb_state *s, bool encrypt, const uint8_t *in, size_t in_len,
                     uint8_t *out, size_t *out_len) {
    rb_slot *r = slot_for(s);
    if (!r) return -1;
    EVP_CIPHER_CTX **x = encrypt ? &r->enc : &r->dec;
    if (!*x) {
        if (!(*x = EVP_CIPHER_CTX_new())) return rb_fail("out of memory");
        if (EVP_CipherInit_ex(*x, s->cipher, NULL, s->key, NULL, encrypt ? 1 : 0) != 1) {
            slot_clear(r);
            return bssl_fail("EVP_CipherInit_ex (key)");
        }
    }
    int n1 = 0, n2 = 0;
    int ok = EVP_CipherInit_ex(*x, NULL, NULL, NULL, s->iv, encrypt ? 1 : 0) == 1 &&
             EVP_CipherUpdate(*x, out, &n1, in, (int)in_len) == 1 &&
             EVP_CipherFinal_ex(*x, out + n1, &n2) == 1;
    if (!ok) {
        slot_clear(r);
        return bssl_fail(encrypt ? "EVP_Encrypt" : "EVP_Decrypt");
    }
    *out_len = (size_t)n1 + (size_t)n2;
    return 0;
}

static int rb_encrypt(const rb_state *s, uint8_t *out, size_t *out_len) {
    return s->have_ctx ? rb_seal(s, out, out_len)
                       : rb_cipher(s, true, s->data, s->size, out, out_len);
}

static int rb_setup_cipher(const bench_raw_spec *sp, void **state, size_t *out_cap) {
    rb_state *s = rb_new(sp, state);
    if (!s) return -1;
    /* CBC padding or the tag: at most 16 bytes more. EVP_*Update take an
     * int length; the bench's sizes stop at 1 GiB. */
    if (sp->size > (size_t)INT_MAX - 32) return rb_fail("raw-boringssl: input too large");
    *out_cap = s->out_cap = sp->size + 16;
    s->aead = aead_for(sp->alg, sp->key_len);
    if (s->aead) {
        if (EVP_AEAD_CTX_init(&s->ctx, s->aead, s->key, s->key_len, EVP_AEAD_DEFAULT_TAG_LENGTH,
                              NULL) != 1)
            return bssl_fail("EVP_AEAD_CTX_init");
        s->have_ctx = true;
    } else {
        s->cipher = cipher_for(sp->alg, sp->key_len);
        s->reuse_id = atomic_fetch_add(&next_reuse_id, 1);
    }
    if (sp->kind == BENCH_RAW_DECRYPT && (aux_alloc(s) || rb_encrypt(s, s->aux, &s->aux_len)))
        return -1;
    return 0;
}

static int rb_run_encrypt(const void *p, uint8_t *out, size_t *out_len) {
    return rb_encrypt(p, out, out_len);
}

static int rb_run_decrypt(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    return s->have_ctx ? rb_open(s, out, out_len)
                       : rb_cipher(s, false, s->aux, s->aux_len, out, out_len);
}

/* ---- key set-up (AES-GCM): what importKey/generateKey prepare ---- */

static int rb_setup_keyop(const bench_raw_spec *sp, void **state, size_t *out_cap) {
    rb_state *s = rb_new(sp, state);
    if (!s) return -1;
    s->aead = aead_for(sp->alg, sp->key_len);
    *out_cap = s->out_cap = 1;
    return 0;
}

static int rb_key_schedule(const rb_state *s, const uint8_t *key) {
    EVP_AEAD_CTX ctx;
    if (EVP_AEAD_CTX_init(&ctx, s->aead, key, s->key_len, EVP_AEAD_DEFAULT_TAG_LENGTH, NULL) != 1)
        return bssl_fail("EVP_AEAD_CTX_init");
    EVP_AEAD_CTX_cleanup(&ctx);
    OPENSSL_cleanse(&ctx, sizeof ctx);
    return 0;
}

static int rb_run_import(const void *p, uint8_t *out, size_t *out_len) {
    (void)out;
    *out_len = 0;
    return rb_key_schedule(p, ((const rb_state *)p)->key);
}

static int rb_run_generate(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    uint8_t key[32];
    (void)out;
    *out_len = 0;
    if (RAND_bytes(key, s->key_len) != 1) return bssl_fail("RAND_bytes");
    int r = rb_key_schedule(s, key);
    OPENSSL_cleanse(key, sizeof key);
    return r;
}

/* ---- KDFs, random ---- */

static int rb_setup_kdf(const bench_raw_spec *sp, void **state, size_t *out_cap) {
    rb_state *s = rb_new(sp, state);
    if (!s) return -1;
    s->md = md_for(sp->hash);
    *out_cap = s->out_cap = 32;
    return 0;
}

static int rb_run_hkdf(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    if (HKDF(out, 32, s->md, s->data, s->size, s->salt, s->salt_len, s->info, s->info_len) != 1)
        return bssl_fail("HKDF");
    *out_len = 32;
    return 0;
}

static int rb_run_pbkdf2(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    if (PKCS5_PBKDF2_HMAC((const char *)s->key, s->key_len, s->salt, s->salt_len, s->iterations,
                          s->md, 32, out) != 1)
        return bssl_fail("PKCS5_PBKDF2_HMAC");
    *out_len = 32;
    return 0;
}

static int rb_setup_random(const bench_raw_spec *sp, void **state, size_t *out_cap) {
    rb_state *s = rb_new(sp, state);
    if (!s) return -1;
    *out_cap = s->out_cap = sp->size;
    return 0;
}

static int rb_run_random(const void *p, uint8_t *out, size_t *out_len) {
    const rb_state *s = p;
    if (RAND_bytes(out, s->size) != 1) return bssl_fail("RAND_bytes");
    *out_len = s->size;
    return 0;
}

/* ---- the module ---- */

static char description[200];

static const bench_raw_module rb_module = {
    .abi = BENCH_RAW_MODULE_ABI,
    .description = description,
    .supports = rb_supports,
    .kinds =
        {
            [BENCH_RAW_DIGEST] = {rb_setup_digest, rb_run_digest, rb_free},
            [BENCH_RAW_HMAC_SIGN] = {rb_setup_hmac, rb_run_hmac_sign, rb_free},
            [BENCH_RAW_HMAC_VERIFY] = {rb_setup_hmac, rb_run_hmac_verify, rb_free},
            [BENCH_RAW_ENCRYPT] = {rb_setup_cipher, rb_run_encrypt, rb_free},
            [BENCH_RAW_DECRYPT] = {rb_setup_cipher, rb_run_decrypt, rb_free},
            [BENCH_RAW_GENERATE_KEY] = {rb_setup_keyop, rb_run_generate, rb_free},
            [BENCH_RAW_IMPORT_KEY] = {rb_setup_keyop, rb_run_import, rb_free},
            [BENCH_RAW_HKDF] = {rb_setup_kdf, rb_run_hkdf, rb_free},
            [BENCH_RAW_PBKDF2] = {rb_setup_kdf, rb_run_pbkdf2, rb_free},
            [BENCH_RAW_RANDOM] = {rb_setup_random, rb_run_random, rb_free},
        },
};

__attribute__((visibility("default"))) const bench_raw_module *
webcrypto_bench_raw_module_v1(const bench_raw_host *h);

const bench_raw_module *webcrypto_bench_raw_module_v1(const bench_raw_host *h) {
    if (!h || h->abi != BENCH_RAW_MODULE_ABI || !h->fail) return NULL;
    host = h;
    CRYPTO_library_init();
    /* The version Debian packaged when CMake found it, as the backend says. */
#ifdef WC_BORINGSSL_PACKAGE
    snprintf(description, sizeof description,
             "called directly on %s (Android, %s, BORINGSSL_API_VERSION %d), keyed contexts "
             "reused: AEAD per cell, HMAC/CBC/CTR per thread (no libwebcrypto)",
             OpenSSL_version(OPENSSL_VERSION), WC_BORINGSSL_PACKAGE, BORINGSSL_API_VERSION);
#else
    snprintf(description, sizeof description,
             "called directly on %s (BORINGSSL_API_VERSION %d), keyed contexts reused: AEAD "
             "per cell, HMAC/CBC/CTR per thread (no libwebcrypto)",
             OpenSSL_version(OPENSSL_VERSION), BORINGSSL_API_VERSION);
#endif
    return &rb_module;
}
