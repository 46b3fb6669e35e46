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
static webcrypto_status md_finish(jca_op *o, jobject md, wc_hash hash, uint8_t *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    jint n = (*o->env)->CallIntMethod(o->env, md, jca.md_digest, o->t->out_buf, 0,
                                      (jint)wc_hash_size(hash));
    JCHECK(o, "MessageDigest.digest");
    if ((size_t)n != wc_hash_size(hash))
        return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: digest of %d bytes, expected %zu", (int)n,
                        wc_hash_size(hash));
    st = jca_get_bytes(o, o->t->out_buf, 0, wc_hash_size(hash), out);
done:
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
    jobject *slot = &o.t->v[v->index].md[hash];
    st = jca_cached_instance(&o, jca.MessageDigest, jca.md_get, jca.md_get_p, v->md_name[hash],
                         v->md_prov[hash], slot);
    if (st == WEBCRYPTO_OK) st = jca_feed(&o, *slot, jca.md_update, in, len, "MessageDigest.update");
    if (st == WEBCRYPTO_OK) st = md_finish(&o, *slot, hash, out);
    if (st != WEBCRYPTO_OK) jca_drop(&o, slot);
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
    st = md_finish(&o, c->md, c->hash, out);
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

