/*
 * jca_rsa.c - the jca backend's RSA: import (with the CRT consistency
 * check), PKCS#1 v1.5 and PSS signatures, OAEP.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"

/* ---- import ---- */

static int cmp_be(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    while (an > 0 && *a == 0) a++, an--;
    while (bn > 0 && *b == 0) b++, bn--;
    if (an != bn) return an < bn ? -1 : 1;
    return an ? memcmp(a, b, an) : 0;
}

size_t jca_bit_len(wc_bytes b) {
    size_t i = 0;
    while (i < b.n && b.p[i] == 0) i++;
    if (i == b.n) return 0;
    size_t bits = (b.n - i) * 8;
    for (uint8_t top = b.p[i]; !(top & 0x80); top = (uint8_t)(top << 1)) bits--;
    return bits;
}

/* RFC 8017 3.2 consistency, in BigInteger arithmetic: n = pq, dp = d mod
 * (p-1) and e dp = 1 mod (p-1), the same for q, qi q = 1 mod p, qi < p
 * (primality is not tested, as in the openssl backend). bi: n e d p q dp dq qi. */
static webcrypto_status rsa_consistent(jca_op *o, jobject one, jobject const bi[8], bool *ok) {
    webcrypto_status st;
    jobject t = NULL, m = NULL;
    *ok = false;
    if ((st = jca_bi_op(o, bi[3], jca.bi_mul, bi[4], NULL, &t)) || (st = jca_bi_eq(o, t, bi[0], ok)) ||
        !*ok)
        return st;
    for (int i = 0; i < 2; i++) {
        jobject prime = bi[3 + i], exp = bi[5 + i];
        (*o->env)->DeleteLocalRef(o->env, m);
        if ((st = jca_bi_op(o, prime, jca.bi_sub, one, NULL, &m)) != WEBCRYPTO_OK) return st;
        (*o->env)->DeleteLocalRef(o->env, t);
        if ((st = jca_bi_op(o, bi[2], jca.bi_mod, m, NULL, &t)) || (st = jca_bi_eq(o, t, exp, ok)) || !*ok)
            return st;
        jobject u = NULL;
        (*o->env)->DeleteLocalRef(o->env, t);
        if ((st = jca_bi_op(o, bi[1], jca.bi_mul, exp, NULL, &u)) ||
            (st = jca_bi_op(o, u, jca.bi_mod, m, NULL, &t)) || (st = jca_bi_eq(o, t, one, ok)))
            return st;
        (*o->env)->DeleteLocalRef(o->env, u);
        if (!*ok) return WEBCRYPTO_OK;
    }
    (*o->env)->DeleteLocalRef(o->env, t);
    jobject u = NULL;
    if ((st = jca_bi_op(o, bi[7], jca.bi_mul, bi[4], NULL, &u)) ||
        (st = jca_bi_op(o, u, jca.bi_mod, bi[3], NULL, &t)) || (st = jca_bi_eq(o, t, one, ok)))
        return st;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_rsa_import(jca_op *o, const jca_variant *v, int kt,
                                   const wc_pkey_fields *f, void **state) {
    /* Each member present (so n.n, e.n >= 1), at most WC_RSA_MAX_MEMBER
     * bytes (the contract). */
    const wc_bytes src[8] = {f->n, f->e, f->d, f->p, f->q, f->dp, f->dq, f->qi};
    int count = f->is_private ? 8 : 2;
    /* Any RSA key: an odd modulus of at most 16384 bits, an odd exponent
     * in [3, n). */
    size_t nbits = jca_bit_len(f->n);
    if (!(f->n.p[f->n.n - 1] & 1) || nbits > 16384 || !(f->e.p[f->e.n - 1] & 1) ||
        jca_bit_len(f->e) < 2 || cmp_be(f->e.p, f->e.n, f->n.p, f->n.n) >= 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: invalid modulus or public exponent");
    if (f->is_private && cmp_be(f->qi.p, f->qi.n, f->p.p, f->p.n) >= 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: the private key is inconsistent");
    jca_pkey *s = jca_state_new(v, kt, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    webcrypto_status st = WEBCRYPTO_OK;
    jobject bi[8] = {NULL}, spec = NULL, kf = NULL, key = NULL;
    for (int i = 0; i < count && st == WEBCRYPTO_OK; i++)
        st = jca_bi_from(o, src[i].p, src[i].n, i >= 2, &bi[i]);
    if (st != WEBCRYPTO_OK) goto done;
    if (f->is_private) {
        bool ok = false;
        if ((st = rsa_consistent(o, v->pk.one, bi, &ok)) != WEBCRYPTO_OK) goto done;
        if (!ok) {
            st = wc_error(WEBCRYPTO_ERR_DATA, "RSA key: the private key is inconsistent");
            goto done;
        }
        spec = (*o->env)->NewObject(o->env, jca.RSAPrivateCrtKeySpec, jca.rsa_crt_spec_new, bi[0],
                                    bi[1], bi[2], bi[3], bi[4], bi[5], bi[6], bi[7]);
    } else {
        spec = (*o->env)->NewObject(o->env, jca.RSAPublicKeySpec, jca.rsa_pub_spec_new, bi[0],
                                    bi[1]);
    }
    JCHECK(o, "new RSAKeySpec");
    if ((st = jca_key_factory(o, v, JCA_KT_RSA, &kf)) != WEBCRYPTO_OK ||
        (st = jca_gen_key(o, kf, spec, f->is_private, &key)) != WEBCRYPTO_OK ||
        (st = jca_keep_key(o, s, key)) != WEBCRYPTO_OK)
        goto done;
    /* n and e; the private members are the Java key's alone
     * (jca_pkey_private_fields). */
    wc_bytes *dst[2] = {&s->f.n, &s->f.e};
    st = jca_keep_fields(s, dst, src, 2, true);
    s->size = (nbits + 7) / 8;
done:
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* rhs = x^3 + a x + b mod p. */

/* ---- RSA signatures ---- */


webcrypto_status jca_rsa_sign(const void *state, wc_rsa_scheme scheme,
                              wc_hash hash, size_t salt_len, const uint8_t *msg,
                              size_t len, uint8_t *sig, size_t *sig_len) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad hash");
    bool pss = false;
    if (!wc_rsa_sig_is_pss(scheme, &pss))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: not an RSA signature scheme");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_thread_engines *e = &o.t->v[v->index];
    jca_sig *slot = pss ? &e->pss[hash] : &e->rsa[hash];
    st = jca_sig_engine(&o, slot, pss ? v->pk.pss_name : v->pk.rsa_name[hash],
                    pss ? v->pk.pss_prov : v->pk.rsa_prov[hash], s, MODE_SIGN, pss ? &hash : NULL,
                    salt_len, NULL);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = jca_sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK && n != s->size)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: RSA signature of %zu bytes, expected %zu", n,
                      s->size);
    if (st == WEBCRYPTO_OK) st = jca_get_bytes(&o, o.t->out_buf, 0, n, sig);
    if (st == WEBCRYPTO_OK) *sig_len = n;
    if (st != WEBCRYPTO_OK) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_rsa_verify(const void *state, wc_rsa_scheme scheme,
                                wc_hash hash, size_t salt_len, const uint8_t *msg,
                                size_t len, const uint8_t *sig, size_t sig_len, bool *valid) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    *valid = false;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad hash");
    /* RFC 8017 8.1.2 / 8.2.2: another length is invalid; so is a salt no
     * key could hold. */
    if (sig_len != s->size || salt_len > INT32_MAX) return WEBCRYPTO_OK;
    bool pss = false;
    if (!wc_rsa_sig_is_pss(scheme, &pss))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: not an RSA signature scheme");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_thread_engines *e = &o.t->v[v->index];
    jca_sig *slot = pss ? &e->pss[hash] : &e->rsa[hash];
    st = jca_sig_engine(&o, slot, pss ? v->pk.pss_name : v->pk.rsa_name[hash],
                    pss ? v->pk.pss_prov : v->pk.rsa_prov[hash], s, MODE_VERIFY, pss ? &hash : NULL,
                    salt_len, NULL);
    bool broken = false;
    if (st == WEBCRYPTO_OK) st = jca_sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    if (st != WEBCRYPTO_OK || broken) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- RSA-OAEP ---- */

static webcrypto_status oaep_run(const jca_pkey *s, bool encrypt, wc_hash hash,
                                 const uint8_t *label, size_t label_len, const uint8_t *in,
                                 size_t len, uint8_t *out, size_t *out_len) {
    const jca_variant *v = s->v;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad hash");
    if (!encrypt && len != s->size)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-OAEP: decryption error");
    if (len > s->size || label_len > INT32_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-OAEP: the input is too long for the key");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *slot = &o.t->v[v->index].oaep;
    jbyteArray la = NULL;
    jobject src = NULL, spec = NULL;
    jstring md = NULL;
    jint got = 0;
    if ((st = jca_cached_instance(&o, jca.Cipher, jca.c_get, jca.c_get_p, v->pk.oaep_name,
                                  v->pk.oaep_prov, slot)) != WEBCRYPTO_OK ||
        (st = jca_new_array(&o, label, label_len, &la)) != WEBCRYPTO_OK)
        goto done;
    src = (*o.env)->NewObject(o.env, jca.PSpecified, jca.psrc_new, la);
    JCHECK(&o, "new PSource.PSpecified");
    md = (*o.env)->NewStringUTF(o.env, md_names[hash]);
    JCHECK(&o, "NewStringUTF");
    spec = (*o.env)->NewObject(o.env, jca.OAEPParameterSpec, jca.oaep_new, md, v->pk.mgf1_name,
                               jca.mgf1[hash], src);
    JCHECK(&o, "new OAEPParameterSpec");
    (*o.env)->CallVoidMethod(o.env, *slot, jca.c_init, encrypt ? ENCRYPT_MODE : DECRYPT_MODE,
                             s->key, spec);
    JCHECK(&o, "Cipher.init (RSA-OAEP)");
    if ((st = jca_put_in(&o, in, len)) != WEBCRYPTO_OK) goto done;
    got = (*o.env)->CallIntMethod(o.env, *slot, jca.c_final, o.t->in_buf, 0, (jint)len,
                                  o.t->out_buf, 0);
    if ((*o.env)->ExceptionCheck(o.env)) {
        st = jca_exception(o.env, encrypt ? "RSA-OAEP encryption (is the plaintext too long "
                                            "for the key?)"
                                          : "RSA-OAEP decryption");
        goto done;
    }
    if (got < 0 || (size_t)got > s->size) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: RSA-OAEP output of %d bytes", (int)got);
        goto done;
    }
    if ((st = jca_get_bytes(&o, o.t->out_buf, 0, (size_t)got, out)) == WEBCRYPTO_OK)
        *out_len = (size_t)got;
done:
    if (!encrypt) {
        jca_zero_array(&o, o.t->out_buf, s->size);
        /* One message for every failure (RFC 8017 7.1.2). */
        if (st != WEBCRYPTO_OK && st != WEBCRYPTO_ERR_NO_MEMORY) {
            wc_wipe(out, s->size);
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-OAEP: decryption error");
        }
    } else {
        jca_zero_array(&o, o.t->in_buf, len);
    }
    if (st != WEBCRYPTO_OK) jca_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_rsa_oaep_encrypt(const void *state, wc_hash hash,
                                      const uint8_t *label, size_t label_len, const uint8_t *in,
                                      size_t len, uint8_t *out, size_t *out_len) {
    return oaep_run(state, true, hash, label, label_len, in, len, out, out_len);
}

webcrypto_status jca_rsa_oaep_decrypt(const void *state, wc_hash hash,
                                      const uint8_t *label, size_t label_len, const uint8_t *in,
                                      size_t len, uint8_t *out, size_t *out_len) {
    return oaep_run(state, false, hash, label, label_len, in, len, out, out_len);
}
