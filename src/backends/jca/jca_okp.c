/*
 * jca_okp.c - the jca backend's Ed25519, X25519, Ed448 and X448: import
 * (public keys from private ones), Ed25519 and Ed448 signatures (Ed448 with
 * its context where the provider takes EdDSAParameterSpec), X25519, X448.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"
#include "core/known_answers.h"

/* X25519(priv, 9) or X448(priv, 5): the public key of an X25519 or X448
 * private key (kt), okp_len(kt) bytes. */
static webcrypto_status x_base(jca_op *o, const jca_variant *v, int kt, jobject priv,
                               uint8_t out[OKP_MAX]) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject ka = NULL;
    size_t n = okp_len(kt);
    jstring name = NULL;
    jobject prov = NULL, base = NULL;
    wc_okp m = WC_OKP_COUNT;
    (void)kt_okp(kt, &m);
    switch (m) {
    case WC_OKP_X25519: name = v->pk.x_name, prov = v->pk.x_prov, base = v->pk.x_base; break;
    case WC_OKP_X448: name = v->pk.x448_name, prov = v->pk.x448_prov, base = v->pk.x448_base; break;
    case WC_OKP_ED25519:
    case WC_OKP_ED448:
    case WC_OKP_COUNT: return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: not a key-agreement key");
    }
    if ((st = jca_get_instance(o, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, name, prov, &ka)) !=
        WEBCRYPTO_OK)
        return st;
    (*o->env)->CallVoidMethod(o->env, ka, jca.ka_init, priv);
    JCHECK(o, "KeyAgreement.init");
    (*o->env)->CallObjectMethod(o->env, ka, jca.ka_phase, base, JNI_TRUE);
    JCHECK(o, "KeyAgreement.doPhase");
    jint got = (*o->env)->CallIntMethod(o->env, ka, jca.ka_secret, o->t->out_buf, 0);
    JCHECK(o, "KeyAgreement.generateSecret");
    if ((size_t)got != n) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: %s gave %d bytes", kt_label(kt), (int)got);
        goto done;
    }
    st = jca_get_bytes(o, o->t->out_buf, 0, n, out);
done:
    (*o->env)->DeleteLocalRef(o->env, ka);
    return st;
}

/* The Ed448 public key of private key d (57 bytes; RFC 8032 5.2.5): the
 * variant's KeyPairGenerator "Ed448" drawing d from WebcryptoSeedRandom
 * (SunEC and BouncyCastle take the private key as the 57 bytes they draw
 * and compute its public key). The JCA offers no other way: Ed448's
 * A = sB on edwards448 has no Montgomery shortcut through X448 as
 * Ed25519's has through X25519 (curve448 is 4-isogenous to it). */
static webcrypto_status ed448_public(jca_op *o, const jca_variant *v, const uint8_t *d,
                                     uint8_t out[OKP_MAX]) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject kpg = NULL, kp = NULL, pub = NULL;
    uint8_t der[128];
    size_t n = 0;
    if ((st = jca_get_instance(o, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p,
                               v->pk.kt_name[JCA_KT_ED448], v->pk.kpg_prov[JCA_KT_ED448], &kpg)) !=
        WEBCRYPTO_OK)
        return st;
    if ((st = jca_seed_pair(o, kpg, NULL, 448, d, 57, "Ed448", &kp)) != WEBCRYPTO_OK) goto done;
    pub = (*o->env)->CallObjectMethod(o->env, kp, jca.kp_public);
    JCHECK(o, "KeyPair.getPublic");
    if (!pub) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the Ed448 key pair has no public key");
        goto done;
    }
    if ((st = jca_encoded(o, pub, false, der, sizeof der, &n)) == WEBCRYPTO_OK &&
        !jca_okp_raw(der, n, false, JCA_KT_ED448, out))
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected Ed448 public key encoding");
done:
    (*o->env)->DeleteLocalRef(o->env, pub);
    (*o->env)->DeleteLocalRef(o->env, kp);
    (*o->env)->DeleteLocalRef(o->env, kpg);
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
    uint8_t h[64], u_le[OKP_MAX], be[OKP_LEN];
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
        (st = x_base(o, v, JCA_KT_X, xpriv, u_le)) != WEBCRYPTO_OK)
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
    /* The contract: d of okp_len(kt) bytes for a private key; x of as many,
     * or empty for a private key. */
    jca_pkey *s = jca_state_new(v, kt, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    size_t kl = okp_len(kt);
    s->size = kl;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject key = NULL;
    uint8_t pub[OKP_MAX];
    if (!f->is_private) {
        memcpy(pub, f->x.p, kl);
        st = jca_okp_key(o, v, kt, false, f->x.p, &key);
    } else {
        st = jca_okp_key(o, v, kt, true, f->d.p, &key);
        /* The public key of the private one: Ed25519 checks the given one
         * itself (it picks x's sign by it); the others are compared here. */
        bool compare = true;
        wc_okp m = WC_OKP_COUNT;
        (void)kt_okp(kt, &m);
        if (st == WEBCRYPTO_OK) {
            switch (m) {
            case WC_OKP_ED25519:
                st = ed25519_public(o, v, f->d.p, key, f->x.n ? f->x.p : NULL, pub);
                compare = false;
                break;
            case WC_OKP_ED448: st = ed448_public(o, v, f->d.p, pub); break;
            case WC_OKP_X25519:
            case WC_OKP_X448: st = x_base(o, v, kt, key, pub); break;
            case WC_OKP_COUNT: st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such key"); break;
            }
        }
        if (st == WEBCRYPTO_OK && compare) {
            jca_zero_array(o, o->t->out_buf, kl);
            if (f->x.n && !wc_equal_ct(pub, f->x.p, kl))
                st = wc_error(WEBCRYPTO_ERR_DATA,
                              "%s key: the public key does not match the private key",
                              kt_label(kt));
        }
    }
    if (st == WEBCRYPTO_OK) st = jca_keep_key(o, s, key);
    if (st == WEBCRYPTO_OK) {
        /* x; d is the Java key's alone (jca_pkey_private_fields). */
        const wc_bytes src[1] = {{pub, kl}};
        wc_bytes *dst[1] = {&s->f.x};
        st = jca_keep_fields(s, dst, src, 1, false);
    }
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- OKP signatures: Ed25519, Ed448 ---- */

/* Whether kind signs; else an error. */
static bool okp_signs(wc_okp kind, webcrypto_status *st) {
    switch (kind) {
    case WC_OKP_ED25519:
    case WC_OKP_ED448: return true;
    case WC_OKP_X25519:
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    *st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such signature");
    return false;
}

/* The thread's Signature for the key, initialised for mode; for Ed448 with
 * the context set (EdDSAParameterSpec(false, context), empty or not) where
 * the variant's provider takes it. Ed25519 has no context (the core gives
 * none). */
static webcrypto_status okp_engine(jca_op *o, const jca_pkey *s, wc_okp kind, int mode,
                                   const uint8_t *context, size_t context_len, jca_sig **out,
                                   bool *key_refused) {
    const jca_variant *v = s->v;
    webcrypto_status st = WEBCRYPTO_OK;
    jca_sig *slot = NULL;
    jstring name = NULL;
    jobject prov = NULL;
    bool with_context = false; /* the engine takes EdDSAParameterSpec */
    switch (kind) {
    case WC_OKP_ED25519:
        slot = &o->t->v[v->index].ed, name = v->pk.ed_name, prov = v->pk.ed_prov;
        break;
    case WC_OKP_ED448:
        if (context_len > 0 && !v->pk.ed448_context)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s's Ed448 takes no context",
                            v->label);
        slot = &o->t->v[v->index].ed448, name = v->pk.ed448_name, prov = v->pk.ed448_prov;
        with_context = v->pk.ed448_context;
        break;
    case WC_OKP_X25519:
    case WC_OKP_X448:
    case WC_OKP_COUNT: return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such signature");
    }
    st = jca_sig_engine(o, slot, name, prov, s, mode, NULL, 0, key_refused);
    if (st != WEBCRYPTO_OK || (key_refused && *key_refused)) return st;
    if (with_context) {
        jbyteArray c = NULL;
        jobject spec = NULL;
        if ((st = jca_new_array(o, context, context_len, &c)) != WEBCRYPTO_OK) goto done;
        spec = (*o->env)->NewObject(o->env, jca.EdDSAParameterSpec, jca.eddsa_spec_new,
                                    JNI_FALSE, c);
        JCHECK(o, "new EdDSAParameterSpec");
        (*o->env)->CallVoidMethod(o->env, slot->e, jca.sig_set_param, spec);
        JCHECK(o, "Signature.setParameter");
    done:
        (*o->env)->DeleteLocalRef(o->env, spec);
        (*o->env)->DeleteLocalRef(o->env, c);
        if (st != WEBCRYPTO_OK) {
            jca_sig_drop(o, slot);
            return st;
        }
    }
    *out = slot;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                              size_t context_len, const uint8_t *msg, size_t len, uint8_t *sig,
                              size_t sig_cap, size_t *sig_len) {
    const jca_pkey *s = state;
    webcrypto_status st = WEBCRYPTO_OK;
    if (!okp_signs(kind, &st)) return st;
    size_t want = wc_okp_sig_len(kind);
    if (sig_cap < want) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: no room for the signature");
    if ((st = jca_whole_fits(len, "data to sign")) != WEBCRYPTO_OK) return st;
    jca_op o;
    st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = NULL;
    st = okp_engine(&o, s, kind, MODE_SIGN, context, context_len, &slot, NULL);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = jca_sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK && n != want)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: %s signature of %zu bytes", wc_okp_name(kind),
                      n);
    if (st == WEBCRYPTO_OK) st = jca_get_bytes(&o, o.t->out_buf, 0, want, sig);
    if (st == WEBCRYPTO_OK) *sig_len = want;
    if (st != WEBCRYPTO_OK && slot) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                size_t context_len, const uint8_t *msg, size_t len,
                                const uint8_t *sig, size_t sig_len, bool *valid) {
    const jca_pkey *s = state;
    *valid = false;
    webcrypto_status st = WEBCRYPTO_OK;
    if (!okp_signs(kind, &st)) return st;
    if (kind == WC_OKP_ED448 && context_len > 0 && !s->v->pk.ed448_context)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s's Ed448 takes no context",
                        s->v->label);
    if ((st = jca_whole_fits(len, "data to verify")) != WEBCRYPTO_OK) return st;
    if (sig_len != wc_okp_sig_len(kind)) return WEBCRYPTO_OK;
    jca_op o;
    st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = NULL;
    /* SunEC refuses a public key that is no curve point in initVerify:
     * "does not verify" (jca_exception_verify_key), *valid stays false */
    bool key_refused = false, broken = false;
    st = okp_engine(&o, s, kind, MODE_VERIFY, context, context_len, &slot, &key_refused);
    if (st == WEBCRYPTO_OK && !key_refused)
        st = jca_sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    if (slot && (st != WEBCRYPTO_OK || broken)) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- OKP key agreement: X25519, X448 ---- */

/* The core refuses an all-zero result (backend.h). */
webcrypto_status jca_okp_derive(const void *private_state, const void *public_state, wc_okp kind,
                                uint8_t *out, size_t out_cap, size_t *out_len) {
    switch (kind) {
    case WC_OKP_X25519:
    case WC_OKP_X448: break;
    case WC_OKP_ED25519:
    case WC_OKP_ED448:
    case WC_OKP_COUNT: return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such key agreement");
    }
    size_t n = wc_okp_key_len(kind);
    if (out_cap < n) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: no room for the secret");
    webcrypto_status st = jca_agree(private_state, public_state, out, n);
    if (st != WEBCRYPTO_OK) {
        /* The JDK refuses small-order points itself (InvalidKeyException). */
        return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_OPERATION;
    }
    *out_len = n;
    return WEBCRYPTO_OK;
}

/* ---- init: Ed448 and X448 ---- */

/* A fresh Signature "Ed448" of the variant signs msg with priv (the
 * context set first when ctx is not NULL) into sig (114 bytes). */
static webcrypto_status ed448_sign_once(jca_op *o, const jca_variant *v, jobject priv,
                                        const uint8_t *ctx, size_t ctx_len, const uint8_t *msg,
                                        size_t len, uint8_t sig[114]) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject e = NULL, spec = NULL;
    jbyteArray c = NULL;
    size_t n = 0;
    if ((st = jca_new_sig(o, v->pk.ed448_name, v->pk.ed448_prov, &e)) != WEBCRYPTO_OK) return st;
    if (ctx) {
        if ((st = jca_new_array(o, ctx, ctx_len, &c)) != WEBCRYPTO_OK) goto done;
        spec = (*o->env)->NewObject(o->env, jca.EdDSAParameterSpec, jca.eddsa_spec_new, JNI_FALSE,
                                    c);
        JCHECK(o, "new EdDSAParameterSpec");
        (*o->env)->CallVoidMethod(o->env, e, jca.sig_set_param, spec);
        JCHECK(o, "Signature.setParameter");
    }
    if ((st = jca_sig_init(o, e, MODE_SIGN, priv, NULL, 0, NULL)) != WEBCRYPTO_OK ||
        (st = jca_sig_sign_raw(o, e, msg, len, &n)) != WEBCRYPTO_OK)
        goto done;
    if (n != 114) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: Ed448 signature of %zu bytes", n);
        goto done;
    }
    st = jca_get_bytes(o, o->t->out_buf, 0, 114, sig);
done:
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, c);
    (*o->env)->DeleteLocalRef(o->env, e);
    return st;
}


/* Ed448 and X448 where the variant's providers have every engine they need
 * and their answers are RFC 8032 7.4's and RFC 7748 6.2's: X448's public key
 * of Alice's private key through X448 with u = 5 (how an X448 private key
 * gets its public key here); Ed448's public key of "1 octet"'s private key
 * through the KeyPairGenerator on WebcryptoSeedRandom, and its signature;
 * the context where "1 octet (with context)" signs right through
 * EdDSAParameterSpec (SunEC; BouncyCastle 1.72's EdDSA Signature takes no
 * parameters). Adds WC_CAP_ED448_CONTEXT too. */
webcrypto_status jca_okp448_setup(jca_op *o, jca_variant *v, wc_caps *caps) {
    jca_pkey_variant *pk = &v->pk;
    if (pk->x448_prov && pk->kf_prov[JCA_KT_X448] && pk->kpg_prov[JCA_KT_X448]) {
        if ((*o->env)->PushLocalFrame(o->env, 32) != 0)
            return jca_exception(o->env, "PushLocalFrame");
        static const uint8_t five[56] = {5};
        uint8_t sk[56], want[56], got[OKP_MAX];
        wc_kat_unhex(WC_KAT_X448_SK, sk, 56); /* RFC 7748 (known_answers.h) */
        wc_kat_unhex(WC_KAT_X448_PK, want, 56);
        jobject base = NULL, priv = NULL;
        if (jca_okp_key(o, v, JCA_KT_X448, false, five, &base) == WEBCRYPTO_OK &&
            (pk->x448_base = jca_global(o->env, base)) != NULL &&
            jca_okp_key(o, v, JCA_KT_X448, true, sk, &priv) == WEBCRYPTO_OK &&
            x_base(o, v, JCA_KT_X448, priv, got) == WEBCRYPTO_OK && memcmp(got, want, 56) == 0)
            wc_caps_add(caps, WEBCRYPTO_ALG_X448);
        jca_zero_array(o, o->t->out_buf, 56);
        (*o->env)->PopLocalFrame(o->env, NULL);
    }
    if (pk->ed448_prov && pk->kf_prov[JCA_KT_ED448] && pk->kpg_prov[JCA_KT_ED448] &&
        jca_seed_ready(o->env)) {
        if ((*o->env)->PushLocalFrame(o->env, 32) != 0)
            return jca_exception(o->env, "PushLocalFrame");
        uint8_t sk[57], want_pk[57], want[114], want_ctx[114], pub[OKP_MAX], sig[114];
        static const uint8_t msg[1] = {0x03}, foo[3] = {0x66, 0x6f, 0x6f}; /* WC_KAT_ED448_MSG, _CONTEXT */
        wc_kat_unhex(WC_KAT_ED448_SK, sk, 57); /* RFC 8032 (known_answers.h) */
        wc_kat_unhex(WC_KAT_ED448_PK, want_pk, 57);
        wc_kat_unhex(WC_KAT_ED448_SIG, want, 114);
        wc_kat_unhex(WC_KAT_ED448_SIG_CONTEXT, want_ctx, 114);
        jobject priv = NULL;
        bool ok = ed448_public(o, v, sk, pub) == WEBCRYPTO_OK && memcmp(pub, want_pk, 57) == 0 &&
                  jca_okp_key(o, v, JCA_KT_ED448, true, sk, &priv) == WEBCRYPTO_OK &&
                  ed448_sign_once(o, v, priv, NULL, 0, msg, 1, sig) == WEBCRYPTO_OK &&
                  memcmp(sig, want, 114) == 0;
        if (ok) wc_caps_add(caps, WEBCRYPTO_ALG_ED448);
        pk->ed448_context = ok && jca.EdDSAParameterSpec &&
                            ed448_sign_once(o, v, priv, foo, 3, msg, 1, sig) == WEBCRYPTO_OK &&
                            memcmp(sig, want_ctx, 114) == 0;
        if (pk->ed448_context) caps->features |= WC_CAP_ED448_CONTEXT;
        (*o->env)->PopLocalFrame(o->env, NULL);
    }
    return WEBCRYPTO_OK;
}
