/*
 * jca_digest_mac.c - the jca backend's digests and HMAC (MessageDigest, Mac).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_internal.h"

/* ---- digest ---- */

/* md.digest(out_buf, 0, size) and the copy out. */
static webcrypto_status md_finish(jca_op *o, jobject md, size_t size, uint8_t *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    jint n = (*o->env)->CallIntMethod(o->env, md, jca.md_digest, o->t->out_buf, 0, (jint)size);
    JCHECK(o, "MessageDigest.digest");
    if ((size_t)n != size)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: digest of %d bytes, expected %zu", (int)n,
                        size);
    st = jca_get_bytes(o, o->t->out_buf, 0, size, out);
done:
    return st;
}

/* A one-shot digest of in through the thread's engine in slot (made from
 * name and prov if needed): size bytes to out. */
static webcrypto_status md_once(jca_op *o, jobject *slot, jstring name, jobject prov,
                                const uint8_t *in, size_t len, size_t size, uint8_t *out) {
    webcrypto_status st =
        jca_cached_instance(o, jca.MessageDigest, jca.md_get, jca.md_get_p, name, prov, slot);
    if (st == WEBCRYPTO_OK) st = jca_feed(o, *slot, jca.md_update, in, len, "MessageDigest.update");
    if (st == WEBCRYPTO_OK) st = md_finish(o, *slot, size, out);
    if (st != WEBCRYPTO_OK) jca_drop(o, slot);
    return st;
}

webcrypto_status jca_digest(const void *bctx, wc_hash hash, const uint8_t *in,
                                   size_t len, uint8_t *out) {
    const jca_variant *v = bctx;
    if (!hash_ok(hash) || !v->md_prov[hash])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no digest %d", (int)hash);
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = md_once(&o, &o.t->v[v->index].md[hash], v->md_name[hash], v->md_prov[hash], in, len,
                 wc_hash_size(hash), out);
    return jca_op_end(&o, st);
}

typedef struct md_ctx {
    wc_hash hash;
    jobject md; /* global: contexts may move between threads */
} md_ctx;

webcrypto_status jca_digest_new(const void *bctx, wc_hash hash, void **ctx) {
    const jca_variant *v = bctx;
    if (!hash_ok(hash) || !v->md_prov[hash])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no digest %d", (int)hash);
    md_ctx *c = calloc(1, sizeof *c);
    if (!c) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    c->hash = hash;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) {
        free(c);
        return st;
    }
    st = jca_cached_instance(&o, jca.MessageDigest, jca.md_get, jca.md_get_p, v->md_name[hash],
                         v->md_prov[hash], &c->md);
    st = jca_op_end(&o, st);
    if (st != WEBCRYPTO_OK) {
        free(c);
        return st;
    }
    *ctx = c;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_digest_update(void *ctx, const uint8_t *in, size_t len) {
    md_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = jca_feed(&o, c->md, jca.md_update, in, len, "MessageDigest.update");
    return jca_op_end(&o, st);
}

webcrypto_status jca_digest_final(void *ctx, uint8_t *out) {
    md_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = md_finish(&o, c->md, wc_hash_size(c->hash), out);
    return jca_op_end(&o, st);
}

/* Releases a context's engine (attaching the thread if it never was). */
void jca_engine_release(jobject global) {
    if (!global) return;
    jca_thread *t = jca_thread_get();
    if (t) jca_global_free(t->env, global);
}

void jca_digest_free(void *ctx) {
    md_ctx *c = ctx;
    if (!c) return;
    jca_engine_release(c->md);
    free(c);
}

/* ---- HMAC ---- */

/* A Mac of this thread keyed with k: found in the thread's slots, or a slot
 * re-keyed (Mac.init) round-robin. */
static webcrypto_status mac_for_key(jca_op *o, const jca_key *k, jobject **out) {
    jca_thread_engines *e = &o->t->v[k->v->index];
    int h = (int)k->hash;
    for (int s = 0; s < JCA_MAC_SLOTS; s++)
        if (e->mac_key[h][s] == k->id && e->mac[h][s]) {
            *out = &e->mac[h][s];
            return WEBCRYPTO_OK;
        }
    int s = (int)(e->mac_next[h]++ % JCA_MAC_SLOTS);
    e->mac_key[h][s] = 0;
    webcrypto_status st = jca_cached_instance(o, jca.Mac, jca.mac_get, jca.mac_get_p,
                                          k->v->mac_name[h], k->v->mac_prov[h], &e->mac[h][s]);
    if (st != WEBCRYPTO_OK) return st;
    (*o->env)->CallVoidMethod(o->env, e->mac[h][s], jca.mac_init, k->spec);
    if ((*o->env)->ExceptionCheck(o->env)) {
        st = jca_exception(o->env, "Mac.init");
        jca_drop(o, &e->mac[h][s]);
        return st;
    }
    e->mac_key[h][s] = k->id;
    *out = &e->mac[h][s];
    return WEBCRYPTO_OK;
}

/* mac.doFinal(out_buf, 0) and the copy out; the Mac stays keyed. */
webcrypto_status jca_mac_finish(jca_op *o, jobject mac, size_t size, uint8_t *out) {
    (*o->env)->CallVoidMethod(o->env, mac, jca.mac_final, o->t->out_buf, 0);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "Mac.doFinal");
    return jca_get_bytes(o, o->t->out_buf, 0, size, out);
}

webcrypto_status jca_hmac(const void *key_state, const uint8_t *in, size_t len,
                                 uint8_t *out) {
    const jca_key *k = key_state;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *mac = NULL;
    st = mac_for_key(&o, k, &mac);
    if (st == WEBCRYPTO_OK) {
        st = jca_feed(&o, *mac, jca.mac_update, in, len, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_mac_finish(&o, *mac, wc_hash_size(k->hash), out);
        if (st != WEBCRYPTO_OK) {
            o.t->v[k->v->index].mac_key[k->hash][mac - o.t->v[k->v->index].mac[k->hash]] = 0;
            jca_drop(&o, mac);
        }
    }
    return jca_op_end(&o, st);
}

typedef struct mac_ctx {
    size_t size;
    jobject mac; /* global, keyed */
} mac_ctx;

webcrypto_status jca_hmac_new(const void *key_state, void **ctx) {
    const jca_key *k = key_state;
    mac_ctx *c = calloc(1, sizeof *c);
    if (!c) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    c->size = wc_hash_size(k->hash);
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) {
        free(c);
        return st;
    }
    st = jca_cached_instance(&o, jca.Mac, jca.mac_get, jca.mac_get_p, k->v->mac_name[k->hash],
                         k->v->mac_prov[k->hash], &c->mac);
    if (st == WEBCRYPTO_OK) {
        (*o.env)->CallVoidMethod(o.env, c->mac, jca.mac_init, k->spec);
        if ((*o.env)->ExceptionCheck(o.env)) st = jca_exception(o.env, "Mac.init");
    }
    if (st != WEBCRYPTO_OK) jca_drop(&o, &c->mac);
    st = jca_op_end(&o, st);
    if (st != WEBCRYPTO_OK) {
        free(c);
        return st;
    }
    *ctx = c;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_hmac_update(void *ctx, const uint8_t *in, size_t len) {
    mac_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = jca_feed(&o, c->mac, jca.mac_update, in, len, "Mac.update");
    return jca_op_end(&o, st);
}

webcrypto_status jca_hmac_final(void *ctx, uint8_t *out) {
    mac_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = jca_mac_finish(&o, c->mac, c->size, out);
    return jca_op_end(&o, st);
}

void jca_hmac_free(void *ctx) {
    mac_ctx *c = ctx;
    if (!c) return;
    jca_engine_release(c->mac);
    free(c);
}


/* ---- cSHAKE and KMAC (SP 800-185) at the provider's fixed lengths ----
 * The JCA has no engine that takes SP 800-185's parameters: BouncyCastle's
 * Mac "KMAC128" / "KMAC256" are new KMAC(128 or 256, empty customization)
 * with L = 256 / 512 bits, fixed at construction (its BaseMac passes no
 * AlgorithmParameterSpec through to KMAC.init, which takes only a
 * KeyParameter), and MessageDigest "SHAKE128-256" / "SHAKE256-512" (SUN
 * since JDK 17, BouncyCastle) give 32 / 64 bytes. KMAC's L is an input of
 * the computation, so no other length can be had from them by truncation;
 * an XOF's shorter output is a prefix of its longer one, but the core asks
 * for the fixed length only (WC_CAP_XOF_ANY_LENGTH unset), so that
 * supports() and the operation agree with KMAC's one rule.
 *
 * What the core guarantees is not re-checked here: it calls xof only for an
 * algorithm whose capability bit init set (so shake_prov[kind] is there),
 * with an empty function name and customization (WC_CAP_CSHAKE_CUSTOM
 * unset) and out_len == wc_xof_fixed_bits(kind) / 8 (src/core/digest.c);
 * and kmac only with a key secret_key_new made (so kmac_prov[kind] is
 * there, kind the key's member), an empty customization and out_len ==
 * wc_kmac_fixed_bits(kind) / 8 (src/core/sign.c). Any other request is
 * refused by the core, whose message names the provider's length. */

webcrypto_status jca_xof(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                         const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                         uint8_t *out, size_t out_len) {
    (void)n, (void)n_len, (void)s, (void)s_len;
    const jca_variant *v = bctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = md_once(&o, &o.t->v[v->index].shake[kind], v->shake_name[kind], v->shake_prov[kind], in,
                 len, out_len, out);
    return jca_op_end(&o, st);
}

/* A KMAC of in through the thread's Mac in slot (made from name and prov if
 * needed), keyed with spec for this call (KMAC.init copies the key and
 * resets): size bytes to out. */
static webcrypto_status kmac_once(jca_op *o, jobject *slot, jstring name, jobject prov,
                                  jobject spec, const uint8_t *in, size_t len, size_t size,
                                  uint8_t *out) {
    webcrypto_status st =
        jca_cached_instance(o, jca.Mac, jca.mac_get, jca.mac_get_p, name, prov, slot);
    if (st == WEBCRYPTO_OK) {
        (*o->env)->CallVoidMethod(o->env, *slot, jca.mac_init, spec);
        if ((*o->env)->ExceptionCheck(o->env)) st = jca_exception(o->env, "Mac.init");
    }
    if (st == WEBCRYPTO_OK) st = jca_feed(o, *slot, jca.mac_update, in, len, "Mac.update");
    if (st == WEBCRYPTO_OK) st = jca_mac_finish(o, *slot, size, out);
    if (st != WEBCRYPTO_OK) jca_drop(o, slot);
    return st;
}

webcrypto_status jca_kmac(const void *key_state, wc_kmac kind, const uint8_t *s, size_t s_len,
                          const uint8_t *in, size_t len, uint8_t *out, size_t out_len) {
    (void)s, (void)s_len;
    const jca_key *k = key_state;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = kmac_once(&o, &o.t->v[k->v->index].kmac[kind], k->v->kmac_name[kind],
                   k->v->kmac_prov[kind], k->spec, in, len, out_len, out);
    return jca_op_end(&o, st);
}

/* Known answers, through the engines the operations above use, in init's
 * local frame (an operation's own would nest in it): SHAKE128("") and
 * SHAKE256("") (FIPS 202's examples), KMAC SP 800-185 samples #1 (KMAC128,
 * data 00..03) and #5 (KMAC256, data 00..c7), both with key 40..5f and no
 * customization. An engine that fails its answer is not offered. */
void jca_sp800185_setup(jca_op *o, jca_variant *v, wc_caps *caps) {
    static const uint8_t shake_empty[WC_XOF_COUNT][64] = {
        {0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d,
         0x61, 0x60, 0x45, 0x50, 0x76, 0x05, 0x85, 0x3e,
         0xd7, 0x3b, 0x80, 0x93, 0xf6, 0xef, 0xbc, 0x88,
         0xeb, 0x1a, 0x6e, 0xac, 0xfa, 0x66, 0xef, 0x26},
        {0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13,
         0x23, 0x3b, 0x3f, 0xeb, 0x74, 0x3e, 0xeb, 0x24,
         0x3f, 0xcd, 0x52, 0xea, 0x62, 0xb8, 0x1b, 0x82,
         0xb5, 0x0c, 0x27, 0x64, 0x6e, 0xd5, 0x76, 0x2f,
         0xd7, 0x5d, 0xc4, 0xdd, 0xd8, 0xc0, 0xf2, 0x00,
         0xcb, 0x05, 0x01, 0x9d, 0x67, 0xb5, 0x92, 0xf6,
         0xfc, 0x82, 0x1c, 0x49, 0x47, 0x9a, 0xb4, 0x86,
         0x40, 0x29, 0x2e, 0xac, 0xb3, 0xb7, 0xc4, 0xbe}};
    static const uint8_t kmac_sample[WC_KMAC_COUNT][64] = {
        {0xe5, 0x78, 0x0b, 0x0d, 0x3e, 0xa6, 0xf7, 0xd3,
         0xa4, 0x29, 0xc5, 0x70, 0x6a, 0xa4, 0x3a, 0x00,
         0xfa, 0xdb, 0xd7, 0xd4, 0x96, 0x28, 0x83, 0x9e,
         0x31, 0x87, 0x24, 0x3f, 0x45, 0x6e, 0xe1, 0x4e},
        {0x75, 0x35, 0x8c, 0xf3, 0x9e, 0x41, 0x49, 0x4e,
         0x94, 0x97, 0x07, 0x92, 0x7c, 0xee, 0x0a, 0xf2,
         0x0a, 0x3f, 0xf5, 0x53, 0x90, 0x4c, 0x86, 0xb0,
         0x8f, 0x21, 0xcc, 0x41, 0x4b, 0xcf, 0xd6, 0x91,
         0x58, 0x9d, 0x27, 0xcf, 0x5e, 0x15, 0x36, 0x9c,
         0xbb, 0xff, 0x8b, 0x9a, 0x4c, 0x2e, 0xb1, 0x78,
         0x00, 0x85, 0x5d, 0x02, 0x35, 0xff, 0x63, 0x5d,
         0xa8, 0x25, 0x33, 0xec, 0x6b, 0x75, 0x9b, 0x69}};
    static const size_t kmac_data_len[WC_KMAC_COUNT] = {4, 200};
    static const webcrypto_algorithm xof_alg[WC_XOF_COUNT] = {WEBCRYPTO_ALG_CSHAKE128,
                                                              WEBCRYPTO_ALG_CSHAKE256};
    static const webcrypto_algorithm kmac_alg[WC_KMAC_COUNT] = {WEBCRYPTO_ALG_KMAC128,
                                                                WEBCRYPTO_ALG_KMAC256};
    uint8_t key[32], data[200], got[64];
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(0x40 + i);
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    for (int x = 0; x < WC_XOF_COUNT; x++) {
        /* like the digests: the variant's provider, else the JVM's order */
        v->shake_prov[x] = jca_probe_provider(o, v, jca.MessageDigest, jca.md_get, jca.md_get_p,
                                              jca.md_provider, v->shake_name[x], false);
        size_t n = wc_xof_fixed_bits((wc_xof)x) / 8;
        if (v->shake_prov[x] &&
            (md_once(o, &o->t->v[v->index].shake[x], v->shake_name[x], v->shake_prov[x], NULL,
                     0, n, got) != WEBCRYPTO_OK ||
             memcmp(got, shake_empty[x], n) != 0)) {
            jca_global_free(o->env, v->shake_prov[x]);
            v->shake_prov[x] = NULL;
        }
        if (v->shake_prov[x]) wc_caps_add(caps, xof_alg[x]);
    }
    for (int k = 0; k < WC_KMAC_COUNT; k++) {
        v->kmac_prov[k] = jca_probe_provider(o, v, jca.Mac, jca.mac_get, jca.mac_get_p,
                                             jca.mac_provider, v->kmac_name[k], true);
        if (!v->kmac_prov[k]) continue;
        size_t n = wc_kmac_fixed_bits((wc_kmac)k) / 8;
        jobject spec = NULL;
        bool ok = jca_key_spec(o, key, sizeof key, v->kmac_name[k], &spec) == WEBCRYPTO_OK &&
                  kmac_once(o, &o->t->v[v->index].kmac[k], v->kmac_name[k], v->kmac_prov[k],
                            spec, data, kmac_data_len[k], n, got) == WEBCRYPTO_OK &&
                  memcmp(got, kmac_sample[k], n) == 0;
        (*o->env)->DeleteLocalRef(o->env, spec);
        if (ok) {
            wc_caps_add(caps, kmac_alg[k]);
        } else {
            jca_global_free(o->env, v->kmac_prov[k]);
            v->kmac_prov[k] = NULL;
        }
    }
}
