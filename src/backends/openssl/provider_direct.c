/*
 * provider_direct.c - a provider's own digest, AES-GCM, AES-CBC and AES-CTR
 * functions (see provider_direct.h).
 *
 * Why: at 64 bytes OpenSSL 3.0's EVP layer is most of the cost. Its
 * EVP_DigestInit_ex on a used context frees the provider's digest context
 * and allocates a new one (crypto/evp/digest.c); EVP_CipherInit_ex asks the
 * provider for the IV length through a parameter query on every call, and
 * EVP_CIPHER_CTX_ctrl(GET_TAG) wraps another. The provider functions below
 * are the ones EVP calls, without that.
 */
#define _GNU_SOURCE /* secure_getenv: a setuid program's environment is not trusted */
#include "provider_direct.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>

bool wc_prov_direct_enabled(void) {
    const char *v = secure_getenv("WEBCRYPTO_OPENSSL_PROVIDER_DIRECT");
    return !(v && strcmp(v, "0") == 0);
}

/* ---- finding an algorithm's dispatch table ---- */

typedef int (*is_a_fn)(const void *alg, const char *name);
static int md_is_a(const void *alg, const char *name) { return EVP_MD_is_a(alg, name); }
static int cipher_is_a(const void *alg, const char *name) { return EVP_CIPHER_is_a(alg, name); }

/* Whether one of an implementation's names (listed separated by ':') is
 * the algorithm's. */
static bool names_include(const char *names, is_a_fn is_a, const void *alg) {
    char name[64];
    while (*names) {
        size_t n = strcspn(names, ":");
        if (n > 0 && n < sizeof name) {
            memcpy(name, names, n);
            name[n] = '\0';
            if (is_a(alg, name)) return true;
        }
        names += n;
        if (*names == ':') names++;
    }
    return false;
}

typedef void (*take_fn)(const OSSL_DISPATCH *f, void *out);

/* Calls take for each function of the one implementation of operation op
 * in prov that is alg; false if none or more than one is. The functions
 * are taken before the table is given back (it may be freed then). */
static bool dispatch_take(const OSSL_PROVIDER *prov, int op, is_a_fn is_a, const void *alg,
                          take_fn take, void *out) {
    int no_cache = 0;
    const OSSL_ALGORITHM *algs = OSSL_PROVIDER_query_operation(prov, op, &no_cache);
    if (!algs) return false;
    const OSSL_DISPATCH *impl = NULL;
    int matches = 0;
    for (const OSSL_ALGORITHM *a = algs; a->algorithm_names; a++)
        if (names_include(a->algorithm_names, is_a, alg)) {
            impl = a->implementation;
            matches++;
        }
    if (matches == 1)
        for (const OSSL_DISPATCH *f = impl; f->function_id; f++) take(f, out);
    OSSL_PROVIDER_unquery_operation(prov, op, algs);
    return matches == 1;
}

/* ---- digests ---- */

static void take_digest(const OSSL_DISPATCH *f, void *out) {
    wc_prov_digest *p = out;
    switch (f->function_id) {
    case OSSL_FUNC_DIGEST_NEWCTX: p->newctx = OSSL_FUNC_digest_newctx(f); break;
    case OSSL_FUNC_DIGEST_INIT: p->init = OSSL_FUNC_digest_init(f); break;
    case OSSL_FUNC_DIGEST_UPDATE: p->update = OSSL_FUNC_digest_update(f); break;
    case OSSL_FUNC_DIGEST_FINAL: p->final = OSSL_FUNC_digest_final(f); break;
    case OSSL_FUNC_DIGEST_FREECTX: p->freectx = OSSL_FUNC_digest_freectx(f); break;
    case OSSL_FUNC_DIGEST_DUPCTX: p->dupctx = OSSL_FUNC_digest_dupctx(f); break;
    default: break; /* functions not used here */
    }
}

bool wc_prov_digest_run(const wc_prov_digest *pd, void *c, const uint8_t *in, size_t len,
                        uint8_t *out) {
    size_t n = 0;
    return pd->init(c, NULL) == 1 && (len == 0 || pd->update(c, in, len) == 1) &&
           pd->final(c, out, &n, pd->size) == 1 && n == pd->size;
}

bool wc_prov_digest_finish_copy(const wc_prov_digest *pd, const void *c, const uint8_t *a,
                                size_t a_len, const uint8_t *b, size_t b_len, const uint8_t *d,
                                size_t d_len, uint8_t *out) {
    /* dupctx reads c only (as EVP_MD_CTX_copy_ex does), so threads may
     * share it; the parameter is not const in OpenSSL's prototype. */
    void *w = pd->dupctx((void *)c);
    size_t n = 0;
    bool ok = w && (a_len == 0 || pd->update(w, a, a_len) == 1) &&
              (b_len == 0 || pd->update(w, b, b_len) == 1) &&
              (d_len == 0 || pd->update(w, d, d_len) == 1) && pd->final(w, out, &n, pd->size) == 1 &&
              n == pd->size;
    if (w) pd->freectx(w); /* cleanses it */
    return ok;
}

void wc_prov_digest_find(const EVP_MD *md, wc_prov_digest *pd) {
    memset(pd, 0, sizeof *pd);
    const OSSL_PROVIDER *prov = EVP_MD_get0_provider(md);
    int size = EVP_MD_get_size(md);
    if (!prov || size <= 0 || size > EVP_MAX_MD_SIZE) return;
    wc_prov_digest p = {.provctx = OSSL_PROVIDER_get0_provider_ctx(prov), .size = (size_t)size};
    if (!dispatch_take(prov, OSSL_OP_DIGEST, md_is_a, md, take_digest, &p) || !p.newctx ||
        !p.init || !p.update || !p.final || !p.freectx)
        return;
    /* The probe: one context, re-initialised for each input, must answer
     * as EVP_Digest does. */
    static const uint8_t probe[3][200] = {{'a', 'b', 'c'}, {0x5a}, {0}};
    static const size_t probe_len[3] = {3, 200, 0};
    void *c = p.newctx(p.provctx);
    bool same = c != NULL;
    for (int i = 0; same && i < 3; i++) {
        uint8_t a[EVP_MAX_MD_SIZE], b[EVP_MAX_MD_SIZE];
        same = wc_prov_digest_run(&p, c, probe[i], probe_len[i], a) &&
               EVP_Digest(probe[i], probe_len[i], b, NULL, md, NULL) == 1 &&
               memcmp(a, b, p.size) == 0;
    }
    /* A copy made after part of an input must finish it as EVP does, and
     * leave the original as it was. */
    if (same && p.dupctx) {
        uint8_t a[EVP_MAX_MD_SIZE], b[EVP_MAX_MD_SIZE], c2[EVP_MAX_MD_SIZE];
        bool dup_ok = p.init(c, NULL) == 1 && p.update(c, probe[1], 150) == 1 &&
                      wc_prov_digest_finish_copy(&p, c, probe[1] + 150, 20, probe[1] + 170, 30,
                                                 NULL, 0, a) &&
                      wc_prov_digest_finish_copy(&p, c, probe[1] + 150, 50, NULL, 0, NULL, 0, c2) &&
                      EVP_Digest(probe[1], 200, b, NULL, md, NULL) == 1 &&
                      memcmp(a, b, p.size) == 0 && memcmp(c2, b, p.size) == 0;
        if (!dup_ok) p.dupctx = NULL; /* the digest itself stays usable */
    }
    if (c) p.freectx(c);
    if (same) *pd = p;
}

/* ---- AES-GCM ---- */

static void take_cipher(const OSSL_DISPATCH *f, void *out) {
    wc_prov_cipher *p = out;
    switch (f->function_id) {
    case OSSL_FUNC_CIPHER_NEWCTX: p->newctx = OSSL_FUNC_cipher_newctx(f); break;
    case OSSL_FUNC_CIPHER_DUPCTX: p->dupctx = OSSL_FUNC_cipher_dupctx(f); break;
    case OSSL_FUNC_CIPHER_ENCRYPT_INIT: p->einit = OSSL_FUNC_cipher_encrypt_init(f); break;
    case OSSL_FUNC_CIPHER_DECRYPT_INIT: p->dinit = OSSL_FUNC_cipher_decrypt_init(f); break;
    case OSSL_FUNC_CIPHER_UPDATE: p->update = OSSL_FUNC_cipher_update(f); break;
    case OSSL_FUNC_CIPHER_FINAL: p->final = OSSL_FUNC_cipher_final(f); break;
    case OSSL_FUNC_CIPHER_CIPHER: p->cipher = OSSL_FUNC_cipher_cipher(f); break;
    case OSSL_FUNC_CIPHER_GET_CTX_PARAMS:
        p->get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(f);
        break;
    case OSSL_FUNC_CIPHER_FREECTX: p->freectx = OSSL_FUNC_cipher_freectx(f); break;
    case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
        p->set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(f);
        break;
    default: break; /* functions not used here */
    }
}

void *wc_prov_aead_new(const wc_prov_cipher *pg, const uint8_t *key, bool enc) {
    void *c = pg->newctx(pg->provctx);
    if (c && (enc ? pg->einit : pg->dinit)(c, key, pg->key_len, NULL, 0, NULL) != 1) {
        pg->freectx(c);
        c = NULL;
    }
    return c;
}

/* The additional data (update with out NULL), then the text: update may
 * hold back a final partial block (OCB), which final gives; together they
 * must output exactly len bytes. */
static inline bool aead_run(const wc_prov_cipher *pg, void *c, const uint8_t *aad, size_t aad_len,
                            const uint8_t *in, size_t len, uint8_t *out) {
    size_t n = 0, m = 0;
    uint8_t rest[16];
    if (aad_len > 0 && pg->update(c, NULL, &n, aad_len, aad, aad_len) != 1) return false;
    n = 0;
    if (len > 0 && (pg->update(c, out, &n, len, in, len) != 1 || n > len || len - n >= 16))
        return false;
    bool ok = pg->final(c, rest, &m, sizeof rest) == 1 && m == len - n;
    if (m > 0 && m <= sizeof rest) { /* OCB's held-back block */
        if (ok) memcpy(out + n, rest, m);
        OPENSSL_cleanse(rest, m);
    }
    return ok;
}

/* OCB's tag length, which it takes at init, before the IV is used (the
 * others take none there: an empty list still costs GCM a parameter
 * search per call). */
static OSSL_PARAM *ocb_taglen(const wc_prov_cipher *pg, OSSL_PARAM p[2], size_t tag_len) {
    if (!pg->ocb) return NULL;
    p[0] = (OSSL_PARAM)OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, tag_len);
    p[1] = (OSSL_PARAM)OSSL_PARAM_END;
    return p;
}

bool wc_prov_aead_seal(const wc_prov_cipher *pg, void *c, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      uint8_t *out, uint8_t *tag, size_t tag_len) {
    OSSL_PARAM init[2];
    /* params.h's initialisers, not its construct functions: two calls fewer
     * on every small message's path */
    OSSL_PARAM get[2] = {OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, tag_len),
                         OSSL_PARAM_END};
    return pg->einit(c, NULL, 0, iv, iv_len, ocb_taglen(pg, init, tag_len)) == 1 &&
           aead_run(pg, c, aad, aad_len, in, len, out) && pg->get_ctx_params(c, get) == 1;
}

bool wc_prov_aead_open(const wc_prov_cipher *pg, void *c, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out) {
    uint8_t expected[16];
    if (tag_len < 1 || tag_len > sizeof expected) return false;
    memcpy(expected, tag, tag_len); /* the parameter takes a non-const pointer */
    /* The expected tag is set before any data, as EVP's SET_TAG would be
     * (OCB: after its length, at init); final checks it (CRYPTO_memcmp) and
     * fails on a mismatch. */
    OSSL_PARAM init[2];
    OSSL_PARAM set[2] = {OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, expected, tag_len),
                         OSSL_PARAM_END};
    return pg->dinit(c, NULL, 0, iv, iv_len, pg->ocb ? ocb_taglen(pg, init, tag_len) : set) == 1 &&
           (!pg->ocb || pg->set_ctx_params(c, set) == 1) &&
           aead_run(pg, c, aad, aad_len, in, len, out);
}

/* The probe: on a copy of a keyed context, re-initialised for each call,
 * these functions must give EVP's ciphertext and tag, open what they
 * sealed, and refuse a changed tag: GCM at a 12- and a 60-byte IV, full and
 * truncated tags; OCB at a 12- and a 15-byte IV, 16-, 12- and 8-byte tags
 * (each its own computation); ChaCha20-Poly1305 at its 12 and 16. The
 * message ends in a partial block, which OCB holds back until final. */
static bool aead_probe(const wc_prov_cipher *pg, const EVP_CIPHER *cipher, bool gcm) {
    uint8_t key[32], iv[60], aad[20], msg[37];
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof iv; i++) iv[i] = (uint8_t)(i * 13 + 5);
    for (size_t i = 0; i < sizeof aad; i++) aad[i] = (uint8_t)(i * 3);
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 11 + 2);
    void *tpl = wc_prov_aead_new(pg, key, true);
    void *c = tpl ? pg->dupctx(tpl) : NULL;
    /* OCB opens on a context keyed for decryption (wc_prov_aead_new) */
    void *tpl_dec = pg->ocb ? wc_prov_aead_new(pg, key, false) : NULL;
    void *d = tpl_dec ? pg->dupctx(tpl_dec) : c;
    EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
    bool ok = tpl && c && d && e;
    static const size_t gcm_iv[2] = {12, 60}, ocb_iv[2] = {12, 15}, ocb_tag[4] = {16, 12, 8, 16};
    for (int k = 0; ok && k < 4; k++) {
        size_t iv_len = gcm ? gcm_iv[k % 2] : pg->ocb ? ocb_iv[k % 2] : 12;
        size_t seal_len = pg->ocb ? ocb_tag[k] : 16;             /* the tag made */
        size_t open_len = gcm ? 16 - (size_t)k : seal_len;       /* the tag checked */
        uint8_t ct[sizeof msg], tag[16], ct2[sizeof msg], tag2[16], pt[sizeof msg];
        int n = 0, m = 0;
        ok = wc_prov_aead_seal(pg, c, iv, iv_len, aad, sizeof aad, msg, sizeof msg, ct, tag,
                               seal_len) &&
             EVP_EncryptInit_ex2(e, cipher, NULL, NULL, NULL) == 1 &&
             (iv_len == 12 ||
              EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) == 1) &&
             (!pg->ocb ||
              EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_SET_TAG, (int)seal_len, NULL) == 1) &&
             EVP_EncryptInit_ex2(e, NULL, key, iv, NULL) == 1 &&
             EVP_EncryptUpdate(e, NULL, &n, aad, (int)sizeof aad) == 1 &&
             EVP_EncryptUpdate(e, ct2, &n, msg, (int)sizeof msg) == 1 && n >= 0 &&
             n <= (int)sizeof msg && EVP_EncryptFinal_ex(e, ct2 + n, &m) == 1 &&
             n + m == (int)sizeof msg &&
             EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_GET_TAG, (int)seal_len, tag2) == 1 &&
             memcmp(ct, ct2, sizeof ct) == 0 && memcmp(tag, tag2, seal_len) == 0 &&
             wc_prov_aead_open(pg, d, iv, iv_len, aad, sizeof aad, ct, sizeof ct, tag, open_len,
                               pt) &&
             memcmp(pt, msg, sizeof msg) == 0;
        tag[0] ^= 1;
        ok = ok && !wc_prov_aead_open(pg, d, iv, iv_len, aad, sizeof aad, ct, sizeof ct, tag,
                                      seal_len, pt);
    }
    EVP_CIPHER_CTX_free(e);
    if (d && d != c) pg->freectx(d);
    if (tpl_dec) pg->freectx(tpl_dec);
    if (c) pg->freectx(c);
    if (tpl) pg->freectx(tpl);
    return ok;
}

void wc_prov_aead_find(const EVP_CIPHER *cipher, wc_prov_cipher *pg) {
    memset(pg, 0, sizeof *pg);
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(cipher);
    int key_len = EVP_CIPHER_get_key_length(cipher);
    bool gcm = EVP_CIPHER_get_mode(cipher) == EVP_CIPH_GCM_MODE;
    bool ocb = EVP_CIPHER_get_mode(cipher) == EVP_CIPH_OCB_MODE;
    if (!prov || key_len <= 0 || key_len > 32 ||
        (!gcm && !ocb && !EVP_CIPHER_is_a(cipher, "ChaCha20-Poly1305")))
        return;
    wc_prov_cipher p = {.provctx = OSSL_PROVIDER_get0_provider_ctx(prov),
                        .key_len = (size_t)key_len, .ocb = ocb};
    if (!dispatch_take(prov, OSSL_OP_CIPHER, cipher_is_a, cipher, take_cipher, &p) || !p.newctx ||
        !p.dupctx || !p.einit || !p.dinit || !p.update || !p.final || !p.get_ctx_params ||
        !p.freectx || (ocb && !p.set_ctx_params))
        return;
    if (aead_probe(&p, cipher, gcm)) *pg = p;
}

/* ---- AES-CBC and AES-CTR ---- */

void *wc_prov_mode_new(const wc_prov_cipher *pc, const uint8_t *key, bool enc) {
    unsigned int no = 0;
    /* CBC without padding: the core pads (and checks the padding) itself. */
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &no),
                            OSSL_PARAM_construct_end()};
    void *c = pc->newctx(pc->provctx);
    if (c && (enc ? pc->einit : pc->dinit)(c, key, pc->key_len, NULL, 0, params) != 1) {
        pc->freectx(c);
        c = NULL;
    }
    return c;
}

/* The probe: for each direction, on a copy of a keyed context used twice
 * with different IVs, these functions must give EVP's output (CBC, ECB:
 * three blocks; CTR: 37 bytes, a partial last block, from a counter whose
 * low bytes carry); ECB also block by block through update alone, as
 * AES-KW calls it. */
static bool mode_probe(const wc_prov_cipher *pc, const EVP_CIPHER *cipher, bool cbc) {
    uint8_t key[32], iv[16], msg[48];
    const size_t len = cbc ? 48 : 37;
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 3);
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 11 + 2);
    EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
    bool ok = e != NULL;
    for (int dir = 0; ok && dir < 2; dir++) {
        bool enc = dir == 0;
        void *tpl = wc_prov_mode_new(pc, key, enc);
        void *c = tpl ? pc->dupctx(tpl) : NULL;
        ok = tpl && c;
        for (int k = 0; ok && k < 2; k++) {
            for (size_t i = 0; i < sizeof iv; i++) iv[i] = (uint8_t)(k ? 0xff - (i < 14 ? 0 : i) : i * 13);
            uint8_t out[48], want[48];
            int n = 0, m = 0;
            ok = wc_prov_mode_run(pc, c, enc, iv, msg, len, out) &&
                 EVP_CipherInit_ex2(e, cipher, key, iv, enc ? 1 : 0, NULL) == 1 &&
                 EVP_CIPHER_CTX_set_padding(e, 0) == 1 &&
                 EVP_CipherUpdate(e, want, &n, msg, (int)len) == 1 && n == (int)len &&
                 EVP_CipherFinal_ex(e, want + n, &m) == 1 && m == 0 && memcmp(out, want, len) == 0;
            if (ok && EVP_CIPHER_get_mode(cipher) == EVP_CIPH_ECB_MODE) {
                uint8_t blk[16];
                for (size_t b = 0; ok && b < len; b += 16) {
                    size_t got = 0;
                    ok = pc->update(c, blk, &got, 16, msg + b, 16) == 1 && got == 16 &&
                         memcmp(blk, want + b, 16) == 0;
                }
            }
        }
        if (c) pc->freectx(c);
        if (tpl) pc->freectx(tpl);
    }
    EVP_CIPHER_CTX_free(e);
    return ok;
}

void wc_prov_mode_find(const EVP_CIPHER *cipher, wc_prov_cipher *pc) {
    memset(pc, 0, sizeof *pc);
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(cipher);
    int key_len = EVP_CIPHER_get_key_length(cipher);
    int mode = EVP_CIPHER_get_mode(cipher);
    if (!prov || key_len <= 0 || key_len > 32 ||
        (mode != EVP_CIPH_CBC_MODE && mode != EVP_CIPH_CTR_MODE && mode != EVP_CIPH_ECB_MODE))
        return;
    wc_prov_cipher p = {.provctx = OSSL_PROVIDER_get0_provider_ctx(prov), .key_len = (size_t)key_len};
    if (!dispatch_take(prov, OSSL_OP_CIPHER, cipher_is_a, cipher, take_cipher, &p) || !p.newctx ||
        !p.dupctx || !p.einit || !p.dinit || !p.update || !p.final || !p.freectx)
        return;
    if (mode_probe(&p, cipher, mode != EVP_CIPH_CTR_MODE)) *pc = p;
}
