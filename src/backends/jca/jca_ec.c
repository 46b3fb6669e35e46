/*
 * jca_ec.c - the jca backend's EC keys on P-256/384/521: import (points on
 * the curve, decompression), ECDSA (r || s or DER engines), ECDH.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"

/* ---- ECDSA signature encodings (for engines that speak DER) ---- */

/* DER ECDSA-Sig-Value to r || s of fs bytes each; false if malformed. */
static bool der_to_rs(const uint8_t *d, size_t n, size_t fs, uint8_t *out) {
    size_t i = 0;
    if (n < 2 || d[i++] != 0x30) return false;
    size_t len = d[i++];
    if (len == 0x81) {
        if (i >= n) return false;
        len = d[i++];
    } else if (len > 0x7f) {
        return false;
    }
    if (len != n - i) return false;
    for (int k = 0; k < 2; k++) {
        if (i + 2 > n || d[i] != 0x02) return false;
        size_t il = d[i + 1];
        i += 2;
        if (il == 0 || il > 0x7f || i + il > n) return false;
        const uint8_t *p = d + i;
        size_t m = il;
        while (m > 1 && *p == 0) {
            p++;
            m--;
        }
        if (m > fs) return false;
        memset(out + k * fs, 0, fs - m);
        memcpy(out + k * fs + fs - m, p, m);
        i += il;
    }
    return i == n;
}

/* r || s to DER; returns the length (out has room for 2 * (fs + 3) + 3). */
static size_t rs_to_der(const uint8_t *sig, size_t fs, uint8_t *out) {
    uint8_t body[2 * (JCA_MAX_FIELD + 3)];
    size_t b = 0;
    for (int k = 0; k < 2; k++) {
        const uint8_t *p = sig + k * fs;
        size_t m = fs;
        while (m > 1 && *p == 0) {
            p++;
            m--;
        }
        bool pad = (*p & 0x80) != 0;
        body[b++] = 0x02;
        body[b++] = (uint8_t)(m + pad);
        if (pad) body[b++] = 0;
        memcpy(body + b, p, m);
        b += m;
    }
    size_t o = 0;
    out[o++] = 0x30;
    if (b > 0x7f) out[o++] = 0x81;
    out[o++] = (uint8_t)b;
    memcpy(out + o, body, b);
    return o + b;
}

static webcrypto_status ec_rhs(jca_op *o, const jca_curve *c, jobject x, jobject *rhs) {
    jobject t1 = NULL, t2 = NULL, t3 = NULL, t4 = NULL;
    webcrypto_status st;
    if ((st = jca_bi_op(o, x, jca.bi_mul, x, NULL, &t1)) || (st = jca_bi_op(o, t1, jca.bi_add, c->a, NULL, &t2)) ||
        (st = jca_bi_op(o, t2, jca.bi_mul, x, NULL, &t3)) || (st = jca_bi_op(o, t3, jca.bi_add, c->b, NULL, &t4)) ||
        (st = jca_bi_op(o, t4, jca.bi_mod, c->p, NULL, rhs)))
        return st;
    (*o->env)->DeleteLocalRef(o->env, t1);
    (*o->env)->DeleteLocalRef(o->env, t2);
    (*o->env)->DeleteLocalRef(o->env, t3);
    (*o->env)->DeleteLocalRef(o->env, t4);
    return WEBCRYPTO_OK;
}

/* y^2 mod p == rhs? */
static webcrypto_status ec_square_is(jca_op *o, const jca_curve *c, jobject y, jobject rhs,
                                     bool *eq) {
    jobject t1 = NULL, t2 = NULL;
    webcrypto_status st;
    if ((st = jca_bi_op(o, y, jca.bi_mul, y, NULL, &t1)) || (st = jca_bi_op(o, t1, jca.bi_mod, c->p, NULL, &t2)) ||
        (st = jca_bi_eq(o, t2, rhs, eq)))
        return st;
    (*o->env)->DeleteLocalRef(o->env, t1);
    (*o->env)->DeleteLocalRef(o->env, t2);
    return WEBCRYPTO_OK;
}

/* y from x (below p) and the wanted parity: the square root of the curve's
 * right-hand side; DataError if x is on no point. */
static webcrypto_status ec_decompress(jca_op *o, const jca_curve *c, jobject x, bool odd,
                                      jobject *y) {
    jobject rhs = NULL, r = NULL;
    bool eq = false;
    webcrypto_status st;
    if ((st = ec_rhs(o, c, x, &rhs)) || (st = jca_bi_op(o, rhs, jca.bi_mod_pow, c->sqrt_exp, c->p, &r)) ||
        (st = ec_square_is(o, c, r, rhs, &eq)))
        return st;
    if (!eq) return wc_error(WEBCRYPTO_ERR_DATA, "EC key: the point is not on the curve");
    jboolean bit = (*o->env)->CallBooleanMethod(o->env, r, jca.bi_test_bit, 0);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "BigInteger.testBit");
    if ((bit == JNI_TRUE) != odd) {
        jobject neg = NULL;
        if ((st = jca_bi_op(o, c->p, jca.bi_sub, r, NULL, &neg)) != WEBCRYPTO_OK) return st;
        (*o->env)->DeleteLocalRef(o->env, r);
        r = neg;
    }
    (*o->env)->DeleteLocalRef(o->env, rhs);
    *y = r;
    return WEBCRYPTO_OK;
}

/* Signs a fixed message with priv and verifies it with pub. */
webcrypto_status jca_pair_check(jca_op *o, jstring name, jobject prov, jobject priv,
                                   jobject pub, bool *ok) {
    static const uint8_t msg[] = "libwebcrypto pairwise check";
    jobject sig = NULL;
    *ok = false;
    size_t n = 0;
    bool broken = false;
    webcrypto_status st = jca_new_sig(o, name, prov, &sig);
    if (st == WEBCRYPTO_OK) st = jca_sig_init(o, sig, MODE_SIGN, priv, NULL, 0, NULL);
    if (st == WEBCRYPTO_OK) st = jca_sig_sign_raw(o, sig, msg, sizeof msg, &n);
    if (st != WEBCRYPTO_OK) return st;
    uint8_t sg[2 * (JCA_MAX_FIELD + 4) + 8];
    if (n > sizeof sg) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: signature too long");
    if ((st = jca_get_bytes(o, o->t->out_buf, 0, n, sg)) != WEBCRYPTO_OK) return st;
    /* The same engine verifies its own encoding (DER or r || s). */
    if ((st = jca_sig_init(o, sig, MODE_VERIFY, pub, NULL, 0, NULL)) != WEBCRYPTO_OK) return st;
    st = jca_sig_verify_raw(o, sig, msg, sizeof msg, sg, n, ok, &broken);
    (*o->env)->DeleteLocalRef(o->env, sig);
    return st;
}

webcrypto_status jca_ec_import(jca_op *o, const jca_variant *v, int kt,
                                  const wc_pkey_fields *f, void **state) {
    if (f->curve < 1 || f->curve >= JCA_N_CURVE || !v->pk.curve[f->curve].params)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: this curve is not available");
    const jca_curve *c = &v->pk.curve[f->curve];
    size_t fs = c->fs;
    /* The contract: a point (1 + fs bytes from 02 or 03, 1 + 2 fs from 04)
     * or x and y of fs bytes, always for a public key; d of fs bytes for a
     * private one. */
    bool have_pub = f->point.n > 0 || f->x.n > 0;
    const uint8_t *px = f->x.p, *py = f->y.p;
    bool compressed = false, odd = false;
    if (f->point.n > 0) {
        const uint8_t *e = f->point.p;
        compressed = e[0] != 0x04;
        px = e + 1;
        py = compressed ? NULL : e + 1 + fs;
        odd = e[0] == 0x03;
    }
    /* SEC1: coordinates below p. */
    if (have_pub && (memcmp(px, c->p_bytes, fs) >= 0 || (py && memcmp(py, c->p_bytes, fs) >= 0)))
        return wc_error(WEBCRYPTO_ERR_DATA, "EC key: a coordinate is not below the field prime");
    if (f->is_private) {
        static const uint8_t zero[JCA_MAX_FIELD];
        if (memcmp(f->d.p, zero, fs) == 0 || memcmp(f->d.p, c->n_bytes, fs) >= 0)
            return wc_error(WEBCRYPTO_ERR_DATA, "EC key: the private key is out of range");
    }
    jca_pkey *s = jca_state_new(v, kt, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->curve = c;
    s->size = fs;
    s->f.curve = f->curve;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject x = NULL, y = NULL, pub = NULL, priv = NULL, d = NULL, spec = NULL, kf = NULL;
    uint8_t xy[2 * JCA_MAX_FIELD];
    if (have_pub) {
        memcpy(xy, px, fs);
        if ((st = jca_bi_from(o, px, fs, false, &x)) != WEBCRYPTO_OK) goto done;
        if (compressed) {
            if ((st = ec_decompress(o, c, x, odd, &y)) != WEBCRYPTO_OK ||
                (st = jca_bi_to(o, y, false, fs, xy + fs, NULL, NULL)) != WEBCRYPTO_OK)
                goto done;
        } else {
            memcpy(xy + fs, py, fs);
            jobject rhs = NULL;
            bool eq = false;
            if ((st = jca_bi_from(o, py, fs, false, &y)) || (st = ec_rhs(o, c, x, &rhs)) ||
                (st = ec_square_is(o, c, y, rhs, &eq)))
                goto done;
            (*o->env)->DeleteLocalRef(o->env, rhs);
            if (!eq) {
                st = wc_error(WEBCRYPTO_ERR_DATA, "EC key: the point is not on the curve");
                goto done;
            }
        }
        if ((st = jca_ec_public_key(o, v, c, x, y, &pub)) != WEBCRYPTO_OK) goto done;
    }
    if (f->is_private) {
        if ((st = jca_bi_from(o, f->d.p, fs, true, &d)) != WEBCRYPTO_OK ||
            (st = jca_key_factory(o, v, JCA_KT_EC, &kf)) != WEBCRYPTO_OK)
            goto done;
        spec = (*o->env)->NewObject(o->env, jca.ECPrivateKeySpec, jca.ec_priv_spec_new, d,
                                    c->params);
        JCHECK(o, "new ECPrivateKeySpec");
        if ((st = jca_gen_key(o, kf, spec, true, &priv)) != WEBCRYPTO_OK) goto done;
        const jca_pkey_variant *pk = &v->pk;
        jstring sn = pk->ecdsa_name[WC_HASH_SHA_256];
        jobject sp = pk->ecdsa_prov[WC_HASH_SHA_256];
        bool ok = false;
        if (!have_pub) {
            /* x(dG) by ECDH with the generator; y is one of two roots, the
             * one whose key verifies d's signature. */
            jobject ka = NULL;
            uint8_t gx[JCA_MAX_FIELD];
            if ((st = jca_get_instance(o, jca.KeyAgreement, jca.ka_get, jca.ka_get_p,
                                       pk->ecdh_name, pk->ecdh_prov, &ka)) != WEBCRYPTO_OK)
                goto done;
            (*o->env)->CallVoidMethod(o->env, ka, jca.ka_init, priv);
            JCHECK(o, "KeyAgreement.init");
            (*o->env)->CallObjectMethod(o->env, ka, jca.ka_phase, c->g_pub, JNI_TRUE);
            JCHECK(o, "KeyAgreement.doPhase");
            jint got = (*o->env)->CallIntMethod(o->env, ka, jca.ka_secret, o->t->out_buf, 0);
            JCHECK(o, "KeyAgreement.generateSecret");
            if ((size_t)got != fs) {
                st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: ECDH gave %d bytes", (int)got);
                goto done;
            }
            if ((st = jca_get_bytes(o, o->t->out_buf, 0, fs, gx)) != WEBCRYPTO_OK) goto done;
            memcpy(xy, gx, fs);
            if ((st = jca_bi_from(o, gx, fs, false, &x)) != WEBCRYPTO_OK) goto done;
            for (int parity = 0; parity < 2 && !ok; parity++) {
                (*o->env)->DeleteLocalRef(o->env, y);
                (*o->env)->DeleteLocalRef(o->env, pub);
                y = pub = NULL;
                if ((st = ec_decompress(o, c, x, parity == 1, &y)) ||
                    (st = jca_ec_public_key(o, v, c, x, y, &pub)) ||
                    (st = jca_pair_check(o, sn, sp, priv, pub, &ok)))
                    goto done;
            }
            if (!ok) {
                st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: cannot compute the EC public key");
                goto done;
            }
            if ((st = jca_bi_to(o, y, false, fs, xy + fs, NULL, NULL)) != WEBCRYPTO_OK) goto done;
        } else {
            if ((st = jca_pair_check(o, sn, sp, priv, pub, &ok)) != WEBCRYPTO_OK) goto done;
            if (!ok) {
                st = wc_error(WEBCRYPTO_ERR_DATA,
                              "EC key: the public point does not match the private key");
                goto done;
            }
        }
    }
    if ((st = jca_keep_key(o, s, f->is_private ? priv : pub)) != WEBCRYPTO_OK) goto done;
    /* The public members; d is the Java key's alone (jca_pkey_private_fields). */
    const wc_bytes src[2] = {{xy, fs}, {xy + fs, fs}};
    wc_bytes *dst[2] = {&s->f.x, &s->f.y};
    st = jca_keep_fields(s, dst, src, 2, false);
done:
    wc_wipe(xy, sizeof xy);
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* X25519(k, u = 9) into out: the public key of X25519 private key k. */
/* ---- ECDSA ---- */

webcrypto_status jca_ecdsa_sign(const void *state, wc_hash hash, const uint8_t *msg,
                                size_t len, uint8_t *sig, size_t *sig_len) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    if (!hash_ok(hash) || !v->pk.ecdsa_prov[hash])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no ECDSA with this hash");
    size_t fs = s->size;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = &o.t->v[v->index].ecdsa[hash];
    st = jca_sig_engine(&o, slot, v->pk.ecdsa_name[hash], v->pk.ecdsa_prov[hash], s, MODE_SIGN, NULL, 0,
                        NULL);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = jca_sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK) {
        if (v->pk.ecdsa_der[hash]) {
            uint8_t der[2 * (JCA_MAX_FIELD + 4) + 8];
            if (n > sizeof der) st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: ECDSA signature too long");
            else if ((st = jca_get_bytes(&o, o.t->out_buf, 0, n, der)) == WEBCRYPTO_OK &&
                     !der_to_rs(der, n, fs, sig))
                st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: cannot decode the provider's ECDSA signature");
        } else if (n != 2 * fs) {
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: ECDSA signature of %zu bytes", n);
        } else {
            st = jca_get_bytes(&o, o.t->out_buf, 0, n, sig);
        }
    }
    if (st == WEBCRYPTO_OK) *sig_len = 2 * fs;
    if (st != WEBCRYPTO_OK) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_ecdsa_verify(const void *state, wc_hash hash,
                                  const uint8_t *msg, size_t len, const uint8_t *sig,
                                  size_t sig_len, bool *valid) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    *valid = false;
    if (!hash_ok(hash) || !v->pk.ecdsa_prov[hash])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no ECDSA with this hash");
    size_t fs = s->size;
    if (sig_len != 2 * fs) return WEBCRYPTO_OK; /* not r || s: invalid */
    uint8_t der[2 * (JCA_MAX_FIELD + 4) + 8];
    if (v->pk.ecdsa_der[hash]) {
        sig_len = rs_to_der(sig, fs, der);
        sig = der;
    }
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = &o.t->v[v->index].ecdsa[hash];
    st = jca_sig_engine(&o, slot, v->pk.ecdsa_name[hash], v->pk.ecdsa_prov[hash], s, MODE_VERIFY, NULL, 0,
                        NULL);
    bool broken = false;
    if (st == WEBCRYPTO_OK) st = jca_sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    /* The provider's answer stands, right or wrong (docs/JCA.md lists the
     * defects the tests know of). */
    if (st != WEBCRYPTO_OK || broken) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}


webcrypto_status jca_ecdh(const void *private_state, const void *public_state, uint8_t *out,
                          size_t *out_len) {
    const jca_pkey *priv = private_state;
    webcrypto_status st = jca_agree(priv, public_state, out, priv->size);
    if (st == WEBCRYPTO_OK) *out_len = priv->size;
    return st;
}
