/*
 * openssl_mac_kdf.c - the openssl backend's HMAC (key states prepared once,
 * RFC 2104), KMAC and SHAKE, and the KDFs built on them: HKDF and PBKDF2.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "core/backend.h"
#include "core/known_answers.h"
#include "openssl_internal.h"

void wc_ossl_hmac_state_free(hmac_state *s) {
    wc_tc_key_release(&s->tc);
    /* EVP_MD_CTX_free cleanses the provider's digest state. */
    EVP_MD_CTX_free(s->inner);
    EVP_MD_CTX_free(s->outer);
    if (s->pinner) s->pd->freectx(s->pinner); /* cleanses it */
    if (s->pouter) s->pd->freectx(s->pouter);
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

webcrypto_status wc_ossl_hmac_key_new(wc_hash hash, const uint8_t *key,
                                      size_t key_len, void **state) {
    const EVP_MD *md = wc_ossl_md(hash);
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
            st = wc_ossl_fail("EVP_Digest (HMAC key)");
            goto done;
        }
    } else if (key_len > 0) {
        memcpy(k0, key, key_len);
    }
    s->pd = wc_ossl_prov_digests[hash].dupctx ? &wc_ossl_prov_digests[hash] : NULL;
    for (int i = 0; i < block; i++) pad[i] = (uint8_t)(k0[i] ^ 0x36);
    if (!hmac_absorb_pad(s, md, pad, (size_t)block, &s->inner, &s->pinner)) {
        st = wc_ossl_fail("HMAC inner digest");
        goto done;
    }
    for (int i = 0; i < block; i++) pad[i] = (uint8_t)(k0[i] ^ 0x5c);
    if (!hmac_absorb_pad(s, md, pad, (size_t)block, &s->outer, &s->pouter)) {
        st = wc_ossl_fail("HMAC outer digest");
        goto done;
    }
done:
    wc_wipe(k0, sizeof k0);
    wc_wipe(pad, sizeof pad);
    if (st != WEBCRYPTO_OK) {
        wc_ossl_hmac_state_free(s);
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

webcrypto_status wc_ossl_kmac_key_new(wc_kmac kind, const uint8_t *key, size_t key_len,
                                      void **state) {
    if ((unsigned)kind >= WC_KMAC_COUNT || !wc_ossl_mac_kmac[kind])
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

webcrypto_status wc_ossl_kmac(const void *key_state, wc_kmac kind, const uint8_t *cust,
                              size_t cust_len, const uint8_t *in, size_t len, uint8_t *out,
                              size_t out_len) {
    const kmac_state *s = key_state;
    if ((unsigned)kind >= WC_KMAC_COUNT || !wc_ossl_mac_kmac[kind])
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
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(wc_ossl_mac_kmac[kind]);
    if (!c) return wc_ossl_no_memory("EVP_MAC_CTX_new");
    size_t size = out_len;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
                                          (void *)(cust_len ? cust : wc_ossl_empty_buf), cust_len),
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
        OSSL_PARAM_construct_end(),
    };
    webcrypto_status st = WEBCRYPTO_OK;
    size_t got = 0;
    if (EVP_MAC_CTX_set_params(c, params) != 1 || EVP_MAC_init(c, s->key, s->key_len, NULL) != 1)
        st = wc_ossl_fail("EVP_MAC_init (KMAC)");
    else if (len > 0 && EVP_MAC_update(c, in, len) != 1)
        st = wc_ossl_fail("EVP_MAC_update (KMAC)");
    else if (EVP_MAC_final(c, out, &got, out_len) != 1)
        st = wc_ossl_fail("EVP_MAC_final (KMAC)");
    else if (got != out_len)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: KMAC gave %zu bytes, not %zu", got,
                      out_len);
    EVP_MAC_CTX_free(c); /* cleanses its copy of the key */
    return st;
}

/* ---- SHAKE (cSHAKE with an empty function name and customization) ---- */
/* SP 800-185 section 2.3: left_encode(x) into out (at most 9 bytes); its
 * length. */
static size_t left_encode(uint64_t x, uint8_t *out) {
    size_t n = 1;
    while (n < 8 && (x >> (8 * n)) != 0) n++;
    out[0] = (uint8_t)n;
    for (size_t i = 0; i < n; i++) out[1 + i] = (uint8_t)(x >> (8 * (n - 1 - i)));
    return n + 1;
}

/* Absorbs encode_string(x) (left_encode of its length in bits, then x);
 * adds its length to *total. */
static bool absorb_string(EVP_MD_CTX *c, const uint8_t *x, size_t len, size_t *total) {
    uint8_t e[9];
    if (len > SIZE_MAX / 8) return false;
    size_t n = left_encode((uint64_t)len * 8, e);
    *total += n + len;
    return EVP_DigestUpdate(c, e, n) == 1 && (len == 0 || EVP_DigestUpdate(c, x, len) == 1);
}

/* cSHAKE with a function name or customization (SP 800-185 section 3.3):
 * Keccak with cSHAKE's padding over bytepad(encode_string(N) ||
 * encode_string(S), rate) || X. OpenSSL has that Keccak as the digest KMAC
 * is built on, "KECCAK-KMAC-128"/"-256" (3.0 and later), and no cSHAKE of
 * its own before 3.6; init reports WC_CAP_CSHAKE_CUSTOM only where this
 * gives SP 800-185's samples (wc_ossl_cshake_probe). */
static webcrypto_status cshake_custom(EVP_MD_CTX *c, wc_xof kind, const uint8_t *n, size_t n_len,
                                      const uint8_t *s, size_t s_len) {
    static const uint8_t zeros[168] = {0};
    const size_t rate = kind == WC_XOF_CSHAKE128 ? 168 : 136;
    uint8_t e[9];
    size_t en = left_encode(rate, e), total = en;
    if (EVP_DigestInit_ex2(c, wc_ossl_md_cshake[kind], NULL) != 1 || EVP_DigestUpdate(c, e, en) != 1 ||
        !absorb_string(c, n, n_len, &total) || !absorb_string(c, s, s_len, &total))
        return wc_ossl_fail("cSHAKE");
    size_t pad = (rate - total % rate) % rate;
    if (pad > 0 && EVP_DigestUpdate(c, zeros, pad) != 1) return wc_ossl_fail("cSHAKE");
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_xof(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                             const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                             uint8_t *out, size_t out_len) {
    /* The core calls only with the algorithm's capability bit set (so
     * wc_ossl_md_shake[kind] fetched), and with N or S non-empty only where
     * init reported WC_CAP_CSHAKE_CUSTOM (wc_ossl_md_cshake[kind] fetched). */
    (void)bctx;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_MD_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (n_len > 0 || s_len > 0)
        st = cshake_custom(c, kind, n, n_len, s, s_len);
    else if (EVP_DigestInit_ex2(c, wc_ossl_md_shake[kind], NULL) != 1)
        st = wc_ossl_fail("SHAKE");
    if (st == WEBCRYPTO_OK &&
        ((len > 0 && EVP_DigestUpdate(c, in, len) != 1) || EVP_DigestFinalXOF(c, out, out_len) != 1))
        st = wc_ossl_fail("cSHAKE");
    EVP_MD_CTX_free(c);
    return st;
}

/* Whether cSHAKE with a customization gives SP 800-185's samples 1 and 3
 * (known_answers.h) on both sizes. */
bool wc_ossl_cshake_probe(void) {
    static const uint8_t x[4] = {0, 1, 2, 3};
    static const char email[] = "Email Signature";
    uint8_t got[64], want[64];
    bool ok = wc_ossl_md_cshake[WC_XOF_CSHAKE128] && wc_ossl_md_cshake[WC_XOF_CSHAKE256];
    wc_kat_unhex(WC_KAT_CSHAKE128_EMAIL, want, 32);
    ok = ok &&
         wc_ossl_xof(NULL, WC_XOF_CSHAKE128, NULL, 0, (const uint8_t *)email, sizeof email - 1, x,
                     sizeof x, got, 32) == WEBCRYPTO_OK &&
         memcmp(got, want, 32) == 0;
    wc_kat_unhex(WC_KAT_CSHAKE256_EMAIL, want, 64);
    ok = ok &&
         wc_ossl_xof(NULL, WC_XOF_CSHAKE256, NULL, 0, (const uint8_t *)email, sizeof email - 1, x,
                     sizeof x, got, 64) == WEBCRYPTO_OK &&
         memcmp(got, want, 64) == 0;
    ERR_clear_error();
    return ok;
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
        st = wc_ossl_fail("EVP_DigestFinal_ex (HMAC inner)");
    else if (EVP_MD_CTX_copy_ex(c, s->outer) != 1)
        st = wc_ossl_fail("EVP_MD_CTX_copy_ex (HMAC outer)");
    else if (EVP_DigestUpdate(c, inner, s->md_size) != 1 ||
             EVP_DigestFinal_ex(c, out, NULL) != 1)
        st = wc_ossl_fail("HMAC outer digest");
    wc_wipe(inner, sizeof inner);
    return st;
}

static webcrypto_status hmac_start(const hmac_state *s, EVP_MD_CTX **out) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_MD_CTX_new");
    if (EVP_MD_CTX_copy_ex(c, s->inner) != 1) {
        EVP_MD_CTX_free(c);
        return wc_ossl_fail("EVP_MD_CTX_copy_ex (HMAC inner)");
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
        st = wc_ossl_fail("HMAC outer digest");
    wc_wipe(inner, EVP_MAX_MD_SIZE);
    return st;
}

static webcrypto_status hmac_prov(const hmac_state *s, const uint8_t *a, size_t a_len,
                                  const uint8_t *b, size_t b_len, const uint8_t *c, size_t c_len,
                                  uint8_t *out) {
    uint8_t inner[EVP_MAX_MD_SIZE];
    if (!wc_prov_digest_finish_copy(s->pd, s->pinner, a, a_len, b, b_len, c, c_len, inner)) {
        wc_wipe(inner, sizeof inner);
        return wc_ossl_fail("HMAC inner digest");
    }
    return hmac_prov_outer(s, inner, out);
}

/* A one-shot HMAC copies the key's provider states (hmac_prov) or, on EVP,
 * copies the key's states into the thread's own context for the key rather
 * than a new one. (Copying from per-thread copies of the
 * inner and outer states instead measured the same: the cost of a copy is
 * OpenSSL's, whatever the source.) */
webcrypto_status wc_ossl_hmac(const void *key_state, const uint8_t *in, size_t len,
                              uint8_t *out) {
    const hmac_state *s = key_state;
    if (s->pd) return hmac_prov(s, in, len, NULL, 0, NULL, 0, out);
    wc_tc_entry *e = wc_tc_entry_get(&s->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    if (!e->work && !(e->work = EVP_MD_CTX_new())) return wc_ossl_no_memory("EVP_MD_CTX_new");
    webcrypto_status st;
    if (EVP_MD_CTX_copy_ex(e->work, s->inner) != 1)
        st = wc_ossl_fail("EVP_MD_CTX_copy_ex (HMAC inner)");
    else if (len > 0 && EVP_DigestUpdate(e->work, in, len) != 1)
        st = wc_ossl_fail("EVP_DigestUpdate (HMAC)");
    else
        st = hmac_finish(e->work, s, out);
    if (st != WEBCRYPTO_OK) {
        EVP_MD_CTX_free(e->work);
        e->work = NULL;
    }
    return st;
}

webcrypto_status wc_ossl_hmac_new(const void *key_state, void **ctx) {
    hmac_ctx *h = malloc(sizeof *h);
    if (!h) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    h->key = key_state;
    h->md = NULL;
    h->p = NULL;
    webcrypto_status st = WEBCRYPTO_OK;
    if (h->key->pd) {
        /* dupctx reads the shared state only (its prototype is not const) */
        if (!(h->p = h->key->pd->dupctx(h->key->pinner))) st = wc_ossl_fail("HMAC digest copy");
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

webcrypto_status wc_ossl_hmac_update(void *ctx, const uint8_t *in, size_t len) {
    hmac_ctx *h = ctx;
    if (len == 0) return WEBCRYPTO_OK;
    if (h->p ? h->key->pd->update(h->p, in, len) != 1 : EVP_DigestUpdate(h->md, in, len) != 1)
        return wc_ossl_fail("HMAC update");
    return WEBCRYPTO_OK;
}

webcrypto_status wc_ossl_hmac_final(void *ctx, uint8_t *out) {
    hmac_ctx *h = ctx;
    if (!h->p) return hmac_finish(h->md, h->key, out);
    uint8_t inner[EVP_MAX_MD_SIZE];
    size_t n = 0;
    if (h->key->pd->final(h->p, inner, &n, h->key->md_size) != 1 || n != h->key->md_size) {
        wc_wipe(inner, sizeof inner);
        return wc_ossl_fail("HMAC inner digest");
    }
    return hmac_prov_outer(h->key, inner, out);
}

void wc_ossl_hmac_free(void *ctx) {
    hmac_ctx *h = ctx;
    if (!h) return;
    EVP_MD_CTX_free(h->md);
    if (h->p) h->key->pd->freectx(h->p); /* cleanses it */
    free(h);
}

static OSSL_PARAM octets(const char *key, const uint8_t *p, size_t len) {
    /* OpenSSL only reads these, but the constructor takes void *. */
    return OSSL_PARAM_construct_octet_string(key, (void *)(len ? p : wc_ossl_empty_buf), len);
}

static webcrypto_status kdf_derive(EVP_KDF *kdf, const char *what, OSSL_PARAM *params,
                                   uint8_t *out, size_t out_len) {
    EVP_KDF_CTX *c = EVP_KDF_CTX_new(kdf);
    if (!c) return wc_ossl_no_memory("EVP_KDF_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_KDF_derive(c, out, out_len, params) != 1) st = wc_ossl_fail(what);
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
        st = wc_ossl_fail("EVP_DigestUpdate (HMAC)");
    else
        st = hmac_finish(m, k, out);
    EVP_MD_CTX_free(m);
    return st;
}

webcrypto_status wc_ossl_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm,
                              size_t ikm_len,
                              const uint8_t *salt, size_t salt_len, const uint8_t *info,
                              size_t info_len, uint8_t *out, size_t out_len) {
    (void)bctx;
    const EVP_MD *md = wc_ossl_md(hash);
    if (!md) return wc_hash_unavailable("OpenSSL", hash);
    void *salt_key = NULL, *prk_key = NULL;
    uint8_t prk[EVP_MAX_MD_SIZE], t[EVP_MAX_MD_SIZE];
    /* Extract: PRK = HMAC(salt, IKM). An empty salt is HashLen zero bytes,
     * which HMAC pads to the same block as the empty key. */
    webcrypto_status st = wc_ossl_hmac_key_new(hash, salt, salt_len, &salt_key);
    if (st != WEBCRYPTO_OK) return st;
    const size_t hl = ((const hmac_state *)salt_key)->md_size;
    st = hmac3(salt_key, ikm, ikm_len, NULL, 0, NULL, 0, prk);
    if (st == WEBCRYPTO_OK) st = wc_ossl_hmac_key_new(hash, prk, hl, &prk_key);
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
    if (salt_key) wc_ossl_hmac_state_free(salt_key);
    if (prk_key) wc_ossl_hmac_state_free(prk_key);
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
    webcrypto_status st = wc_ossl_hmac_key_new(hash, password, password_len, &key);
    if (st != WEBCRYPTO_OK) return st;
    const size_t hl = ((const hmac_state *)key)->md_size;
    /* The block counter is 32 bits: RFC 8018's "derived key too long". */
    if (out_len / hl > UINT32_MAX - 1) {
        wc_ossl_hmac_state_free(key);
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
    wc_ossl_hmac_state_free(key);
    wc_wipe(u, sizeof u);
    wc_wipe(f, sizeof f);
    return st;
}

webcrypto_status wc_ossl_pbkdf2(const void *bctx, wc_hash hash,
                                const uint8_t *password,
                                size_t password_len, const uint8_t *salt, size_t salt_len,
                                uint32_t iterations, uint8_t *out, size_t out_len) {
    (void)bctx;
    const char *digest = wc_ossl_kdf_digest_name(hash);
    const EVP_MD *md = wc_ossl_md(hash);
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
            return wc_ossl_fail("EVP_Digest (PBKDF2 password)");
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
    webcrypto_status st = kdf_derive(wc_ossl_kdf_pbkdf2, "PBKDF2", params, out, out_len);
    wc_wipe(hashed, sizeof hashed);
    return st;
}
