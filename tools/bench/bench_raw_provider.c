/*
 * The raw-openssl-provider baseline: OpenSSL's floor below EVP. The
 * provider's own functions (its dispatch table: newctx, init, update,
 * final) called directly, through the openssl backend's provider_direct.c,
 * the code its provider paths run, but without libwebcrypto's core, the
 * backend's fork gate or its thread cache. A context is keyed once per cell
 * and copied once per thread (dupctx); each call re-initialises it with the
 * IV, as the backend does. It answers docs/BENCHMARKS.md's question of how
 * far the openssl backend is from what OpenSSL itself can do per call.
 *
 * SHA digests, AES-GCM, AES-OCB, ChaCha20-Poly1305, AES-CBC and AES-CTR:
 * what the backend runs on the provider path. An algorithm whose functions the
 * backend's probe refuses is not measured (the run says so).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "backends/openssl/provider_direct.h"
#include "bench_internal.h"

typedef struct prov_state {
    EVP_MD *md;         /* kept while contexts made from its functions live */
    EVP_CIPHER *cipher; /* likewise */
    wc_prov_digest pd;
    wc_prov_cipher pc;
    bool aead, cbc;
    void *tpl;      /* the keyed context the threads copy (not digests) */
    unsigned long id; /* tells a thread's copy whose cell it belongs to */
} prov_state;

static int fail(const char *what) {
    unsigned long e = ERR_get_error();
    char reason[120] = "no reason given";
    if (e) ERR_error_string_n(e, reason, sizeof reason);
    ERR_clear_error();
    bench_fail("raw-openssl-provider: %s failed: %s", what, reason);
    return -1;
}

static void prov_teardown(bench_cell *c) {
    prov_state *s = c->raw;
    if (s) {
        bench_thread_ctx_drop(s->id); /* this thread's copy (a worker's goes with the worker) */
        if (s->tpl) s->pc.freectx(s->tpl);
        EVP_MD_free(s->md);
        EVP_CIPHER_free(s->cipher);
        free(s);
    }
    c->raw = NULL;
    free(c->aux);
    c->aux = NULL;
}

/* A thread's context for c: a copy of the cell's template (digests: a new
 * one). */
static void *slot_make(const bench_cell *c, void (**free_fn)(void *ctx)) {
    const prov_state *s = c->raw;
    void *x;
    if (s->md) {
        x = s->pd.newctx(s->pd.provctx);
        *free_fn = s->pd.freectx;
    } else {
        x = s->pc.dupctx(s->tpl);
        *free_fn = s->pc.freectx;
    }
    if (!x) fail("a thread's context");
    return x;
}

/* The calling thread's context for c, made on its first call; NULL after
 * bench_fail(). */
static void *slot_ctx(const bench_cell *c) {
    return bench_thread_ctx(c, ((const prov_state *)c->raw)->id, slot_make);
}

static prov_state *new_state(bench_cell *c) {
    prov_state *s = calloc(1, sizeof *s);
    if (!s) bench_fail("out of memory");
    c->raw = s;
    if (s) s->id = bench_thread_ctx_id();
    return s;
}

static int setup_digest(bench_cell *c) {
    prov_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = EVP_MAX_MD_SIZE;
    if (!(s->md = EVP_MD_fetch(NULL, bench_ossl_digest_name(c->op->alg), NULL))) return fail("EVP_MD_fetch");
    wc_prov_digest_find(s->md, &s->pd);
    ERR_clear_error();
    if (!s->pd.newctx) {
        bench_fail("raw-openssl-provider: the provider's digest functions did not pass the "
                   "backend's probe");
        return -1;
    }
    return 0;
}

static int run_digest(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const prov_state *s = c->raw;
    void *x = slot_ctx(c);
    if (!x) return -1;
    if (!wc_prov_digest_run(&s->pd, x, c->data, c->size, out)) return fail("digest");
    *out_len = s->pd.size;
    return 0;
}

/* One encryption on x: AEADs ciphertext || 16-byte tag; CBC PKCS#7-padded
 * (the message copied to out with its padding, then encrypted in place, as
 * the core's one-shot CBC does); CTR the same length. */
static int encrypt_on(const bench_cell *c, void *x, uint8_t *out, size_t *out_len) {
    const prov_state *s = c->raw;
    if (s->aead) {
        if (!wc_prov_aead_seal(&s->pc, x, c->iv, c->iv_len, NULL, 0, c->data, c->size, out,
                               out + c->size, 16))
            return fail("AEAD seal");
        *out_len = c->size + 16;
        return 0;
    }
    size_t n = c->size;
    const uint8_t *in = c->data;
    if (s->cbc) {
        size_t pad = 16 - c->size % 16;
        memcpy(out, c->data, c->size);
        memset(out + c->size, (int)pad, pad);
        n += pad;
        in = out;
    }
    if (!wc_prov_mode_run(&s->pc, x, true, c->iv, in, n, out)) return fail("AES encryption");
    *out_len = n;
    return 0;
}

static int setup_cipher(bench_cell *c) {
    prov_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = c->size + 16;
    if (!(s->cipher = EVP_CIPHER_fetch(NULL, bench_ossl_cipher_name(c->op), NULL)))
        return fail("EVP_CIPHER_fetch");
    s->aead = c->op->alg == WEBCRYPTO_ALG_AES_GCM || c->op->alg == WEBCRYPTO_ALG_AES_OCB ||
              c->op->alg == WEBCRYPTO_ALG_CHACHA20_POLY1305;
    s->cbc = c->op->alg == WEBCRYPTO_ALG_AES_CBC;
    if (s->aead) wc_prov_aead_find(s->cipher, &s->pc);
    else wc_prov_mode_find(s->cipher, &s->pc);
    ERR_clear_error();
    if (!s->pc.newctx) {
        bench_fail("raw-openssl-provider: the provider's %s functions did not pass the "
                   "backend's probe", bench_ossl_cipher_name(c->op));
        return -1;
    }
    /* CTR decrypts by encrypting, GCM and ChaCha20-Poly1305 open on the
     * same context; CBC and OCB decrypt on one keyed for it. */
    bool own_dec = s->cbc || s->pc.ocb;
    bool enc = c->op->kind == BK_ENCRYPT || !own_dec;
    s->tpl = s->aead ? wc_prov_aead_new(&s->pc, c->key_bytes, enc)
                     : wc_prov_mode_new(&s->pc, c->key_bytes, enc);
    if (!s->tpl) return fail("keying the template");
    if (c->op->kind == BK_DECRYPT) { /* the ciphertext, on an encryption context of its own */
        void *e = !own_dec ? s->pc.dupctx(s->tpl)
              : s->aead    ? wc_prov_aead_new(&s->pc, c->key_bytes, true)
                           : wc_prov_mode_new(&s->pc, c->key_bytes, true);
        if (!e) return fail("an encryption context");
        c->aux = malloc(c->out_cap);
        int r = c->aux ? encrypt_on(c, e, c->aux, &c->aux_len) : (bench_fail("out of memory"), -1);
        s->pc.freectx(e);
        if (r) return -1;
    }
    return 0;
}

static int run_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    void *x = slot_ctx(c);
    return x ? encrypt_on(c, x, out, out_len) : -1;
}

static int run_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const prov_state *s = c->raw;
    void *x = slot_ctx(c);
    if (!x) return -1;
    if (s->aead) {
        size_t n = c->aux_len - 16;
        if (!wc_prov_aead_open(&s->pc, x, c->iv, c->iv_len, NULL, 0, c->aux, n, c->aux + n, 16,
                               out))
            return fail("AEAD open");
        *out_len = n;
        return 0;
    }
    if (!wc_prov_mode_run(&s->pc, x, !s->cbc, c->iv, c->aux, c->aux_len, out))
        return fail("AES decryption");
    size_t n = c->aux_len;
    if (s->cbc) { /* the padding this baseline wrote itself; not a constant-time check */
        size_t pad = n ? out[n - 1] : 0;
        if (pad < 1 || pad > 16 || pad > n) {
            bench_fail("raw-openssl-provider: bad CBC padding");
            return -1;
        }
        n -= pad;
    }
    *out_len = n;
    return 0;
}

static const bench_impl digest_impl = {setup_digest, run_digest, prov_teardown, NULL, NULL};
static const bench_impl encrypt_impl = {setup_cipher, run_encrypt, prov_teardown, NULL, NULL};
static const bench_impl decrypt_impl = {setup_cipher, run_decrypt, prov_teardown, NULL, NULL};

const bench_impl *bench_raw_provider_impl(const bench_op *op) {
    if (op->kind == BK_DIGEST) return bench_ossl_digest_name(op->alg) ? &digest_impl : NULL;
    if (op->kind != BK_ENCRYPT && op->kind != BK_DECRYPT) return NULL;
    if (!bench_ossl_cipher_name(op)) return NULL;
    return op->kind == BK_ENCRYPT ? &encrypt_impl : &decrypt_impl;
}
