/*
 * jca_okp.c - the jca backend's Ed25519 and X25519: import (public keys
 * from private ones), Ed25519 signatures, X25519.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"

static webcrypto_status x25519_base(jca_op *o, const jca_variant *v, jobject priv,
                                    uint8_t out[OKP_LEN]) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject ka = NULL;
    if ((st = jca_get_instance(o, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, v->pk.x_name,
                               v->pk.x_prov, &ka)) != WEBCRYPTO_OK)
        return st;
    (*o->env)->CallVoidMethod(o->env, ka, jca.ka_init, priv);
    JCHECK(o, "KeyAgreement.init");
    (*o->env)->CallObjectMethod(o->env, ka, jca.ka_phase, v->pk.x_base, JNI_TRUE);
    JCHECK(o, "KeyAgreement.doPhase");
    jint got = (*o->env)->CallIntMethod(o->env, ka, jca.ka_secret, o->t->out_buf, 0);
    JCHECK(o, "KeyAgreement.generateSecret");
    if (got != OKP_LEN) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: X25519 gave %d bytes", (int)got);
        goto done;
    }
    st = jca_get_bytes(o, o->t->out_buf, 0, OKP_LEN, out);
done:
    (*o->env)->DeleteLocalRef(o->env, ka);
    return st;
}

/* The Ed25519 public key of seed d (RFC 8032 5.1.5): s = clamp(SHA-512(d)
 * [0..32)), A = sB. X25519(s, 9) gives the Montgomery u of sB; Edwards
 * y = (u - 1) / (u + 1); x's sign bit is the one whose key verifies d's
 * signature. `given`, if not NULL, is the caller's public key to check. */
static webcrypto_status ed25519_public(jca_op *o, const jca_variant *v, const uint8_t d[OKP_LEN],
                                       jobject priv, const uint8_t *given,
                                       uint8_t out[OKP_LEN]) {
    webcrypto_status st = WEBCRYPTO_OK;
    uint8_t h[64], u_le[OKP_LEN], be[OKP_LEN];
    jobject md = NULL, xpriv = NULL, u = NULL, t1 = NULL, t2 = NULL, t3 = NULL, t4 = NULL,
            y = NULL;
    /* SHA-512 through the variant's MessageDigest. */
    static const char *const sha512 = "SHA-512";
    jstring name = (*o->env)->NewStringUTF(o->env, sha512);
    JCHECK(o, "NewStringUTF");
    if ((st = jca_get_instance(o, jca.MessageDigest, jca.md_get, jca.md_get_p, name,
                               v->md_prov[WC_HASH_SHA_512], &md)) != WEBCRYPTO_OK ||
        (st = jca_put_in(o, d, OKP_LEN)) != WEBCRYPTO_OK)
        goto done;
    (*o->env)->CallVoidMethod(o->env, md, jca.md_update, o->t->in_buf, 0, OKP_LEN);
    JCHECK(o, "MessageDigest.update");
    jint n = (*o->env)->CallIntMethod(o->env, md, jca.md_digest, o->t->out_buf, 0, 64);
    JCHECK(o, "MessageDigest.digest");
    if (n != 64 || (st = jca_get_bytes(o, o->t->out_buf, 0, 64, h)) != WEBCRYPTO_OK) {
        if (st == WEBCRYPTO_OK) st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: SHA-512 length");
        goto done;
    }
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
    if ((st = jca_okp_key(o, v, JCA_KT_X, true, h, &xpriv)) != WEBCRYPTO_OK ||
        (st = x25519_base(o, v, xpriv, u_le)) != WEBCRYPTO_OK)
        goto done;
    for (int i = 0; i < OKP_LEN; i++) be[i] = u_le[OKP_LEN - 1 - i];
    if ((st = jca_bi_from(o, be, OKP_LEN, false, &u)) || (st = jca_bi_op(o, u, jca.bi_sub, v->pk.one, NULL, &t1)) ||
        (st = jca_bi_op(o, u, jca.bi_add, v->pk.one, NULL, &t2)) ||
        (st = jca_bi_op(o, t2, jca.bi_mod_inv, v->pk.ed_p, NULL, &t3)) ||
        (st = jca_bi_op(o, t1, jca.bi_mul, t3, NULL, &t4)) ||
        (st = jca_bi_op(o, t4, jca.bi_mod, v->pk.ed_p, NULL, &y)) ||
        (st = jca_bi_to(o, y, false, OKP_LEN, be, NULL, NULL)))
        goto done;
    uint8_t cand[OKP_LEN];
    for (int i = 0; i < OKP_LEN; i++) cand[i] = be[OKP_LEN - 1 - i];
    bool ok = false;
    for (int sign = 0; sign < 2 && !ok; sign++) {
        uint8_t try_key[OKP_LEN];
        memcpy(try_key, cand, OKP_LEN);
        try_key[31] = (uint8_t)((try_key[31] & 0x7f) | (sign << 7));
        if (given) {
            /* Only the caller's key is a candidate. */
            if (memcmp(try_key, given, OKP_LEN) != 0) continue;
        }
        jobject pub = NULL;
        st = jca_okp_key(o, v, JCA_KT_ED, false, try_key, &pub);
        if (st == WEBCRYPTO_ERR_DATA) { /* not a point: the other sign */
            st = WEBCRYPTO_OK;
            continue;
        }
        if (st != WEBCRYPTO_OK) goto done;
        st = jca_pair_check(o, v->pk.ed_name, v->pk.ed_prov, priv, pub, &ok);
        (*o->env)->DeleteLocalRef(o->env, pub);
        if (st != WEBCRYPTO_OK) goto done;
        if (ok) memcpy(out, try_key, OKP_LEN);
    }
    if (!ok)
        st = given ? wc_error(WEBCRYPTO_ERR_DATA,
                              "Ed25519 key: the public key does not match the private key")
                   : wc_error(WEBCRYPTO_ERR_OPERATION, "jca: cannot compute the Ed25519 public key");
done:
    wc_wipe(h, sizeof h);
    jca_zero_array(o, o->t->out_buf, 64);
    jca_zero_array(o, o->t->in_buf, OKP_LEN);
    return st;
}

webcrypto_status jca_okp_import(jca_op *o, const jca_variant *v, int kt,
                                   const wc_pkey_fields *f, void **state) {
    /* The contract: d of 32 bytes for a private key; x of 32 bytes, or empty
     * for a private key. */
    jca_pkey *s = jca_state_new(v, kt, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->size = OKP_LEN;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject key = NULL;
    uint8_t pub[OKP_LEN];
    if (!f->is_private) {
        memcpy(pub, f->x.p, OKP_LEN);
        st = jca_okp_key(o, v, kt, false, f->x.p, &key);
    } else {
        st = jca_okp_key(o, v, kt, true, f->d.p, &key);
        if (st == WEBCRYPTO_OK && kt == JCA_KT_X) {
            st = x25519_base(o, v, key, pub);
            jca_zero_array(o, o->t->out_buf, OKP_LEN);
            if (st == WEBCRYPTO_OK && f->x.n && !wc_equal_ct(pub, f->x.p, OKP_LEN))
                st = wc_error(WEBCRYPTO_ERR_DATA,
                              "X25519 key: the public key does not match the private key");
        } else if (st == WEBCRYPTO_OK) {
            st = ed25519_public(o, v, f->d.p, key, f->x.n ? f->x.p : NULL, pub);
        }
    }
    if (st == WEBCRYPTO_OK) st = jca_keep_key(o, s, key);
    if (st == WEBCRYPTO_OK) {
        const wc_bytes src[2] = {{pub, OKP_LEN}, f->d};
        wc_bytes *dst[2] = {&s->f.x, &s->f.d};
        st = jca_keep_fields(s, dst, src, f->is_private ? 2 : 1, false);
    }
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- OKP signatures: Ed25519 ---- */

/* Whether kind signs (Ed25519, the one this backend has); else an error. */
static bool okp_signs(wc_okp kind, webcrypto_status *st) {
    switch (kind) {
    case WC_OKP_ED25519: return true;
    case WC_OKP_X25519:
    case WC_OKP_ED448: /* not offered by this backend yet (capability unset) */
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    *st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such signature");
    return false;
}

/* context is always empty: Ed25519 is the one signature offered here. */
webcrypto_status jca_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                              size_t context_len, const uint8_t *msg, size_t len, uint8_t *sig,
                              size_t sig_cap, size_t *sig_len) {
    (void)context, (void)context_len;
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    webcrypto_status st = WEBCRYPTO_OK;
    if (!okp_signs(kind, &st)) return st;
    if (sig_cap < 64) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: no room for the signature");
    jca_op o;
    st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = &o.t->v[v->index].ed;
    st = jca_sig_engine(&o, slot, v->pk.ed_name, v->pk.ed_prov, s, MODE_SIGN, NULL, 0);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = jca_sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK && n != 64)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: Ed25519 signature of %zu bytes", n);
    if (st == WEBCRYPTO_OK) st = jca_get_bytes(&o, o.t->out_buf, 0, 64, sig);
    if (st == WEBCRYPTO_OK) *sig_len = 64;
    if (st != WEBCRYPTO_OK) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                size_t context_len, const uint8_t *msg, size_t len,
                                const uint8_t *sig, size_t sig_len, bool *valid) {
    (void)context, (void)context_len;
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    *valid = false;
    webcrypto_status st = WEBCRYPTO_OK;
    if (!okp_signs(kind, &st)) return st;
    if (sig_len != wc_okp_sig_len(kind)) return WEBCRYPTO_OK;
    jca_op o;
    st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = &o.t->v[v->index].ed;
    st = jca_sig_engine(&o, slot, v->pk.ed_name, v->pk.ed_prov, s, MODE_VERIFY, NULL, 0);
    bool broken = false;
    if (st == WEBCRYPTO_OK) st = jca_sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    if (st != WEBCRYPTO_OK || broken) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- OKP key agreement: X25519 ---- */

/* The core refuses an all-zero result (backend.h). */
webcrypto_status jca_okp_derive(const void *private_state, const void *public_state, wc_okp kind,
                                uint8_t *out, size_t out_cap, size_t *out_len) {
    switch (kind) {
    case WC_OKP_X25519: break;
    case WC_OKP_ED25519:
    case WC_OKP_ED448:
    case WC_OKP_X448:
    case WC_OKP_COUNT: return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such key agreement");
    }
    if (out_cap < 32) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: no room for the secret");
    webcrypto_status st = jca_agree(private_state, public_state, true, out, 32);
    if (st != WEBCRYPTO_OK) {
        /* The JDK refuses small-order points itself (InvalidKeyException). */
        return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_OPERATION;
    }
    *out_len = 32;
    return WEBCRYPTO_OK;
}
