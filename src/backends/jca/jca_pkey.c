/*
 * jca_pkey.c - the jca backend's asymmetric keys, the part their families
 * share: key state, BigInteger helpers, keys from specs, the Signature
 * engines, key agreement, import dispatch and generation. The families are
 * in jca_rsa.c (PKCS#1 v1.5 and PSS signatures, OAEP), jca_ec.c (ECDSA and
 * ECDH on P-256/384/521) and jca_okp.c (Ed25519, X25519, Ed448, X448); init in
 * jca_pkey_setup.c; all through java.security / javax.crypto.
 *
 * Design (the same as jca_backend.c's, see there):
 *  - init fixes per variant the provider of every engine (Signature, Cipher,
 *    KeyAgreement, KeyFactory, KeyPairGenerator), the Java names, and each
 *    curve's ECParameterSpec and constants; nothing is looked up per call.
 *  - A key's state holds its Java PublicKey or PrivateKey (a global
 *    reference; Java keys are immutable, so threads share it) and its
 *    public members in C, read once, which pkey_fields returns; a private
 *    key's private members are the Java key's alone, read out only to
 *    export it (jca_pkey_private_fields), into the core's buffer. ML-KEM
 *    and ML-DSA keep their seed in C too (jca_pq.c): the JDK does not give
 *    it back.
 *  - Engines are per thread and reused. A Signature stays initialised after
 *    sign()/verify(), so it is re-initialised only when the key (or the
 *    direction, or the PSS salt) changes; any exception drops it.
 *  - Imports check the mathematics the JCA leaves out (backend.h): EC points
 *    on the curve with BigInteger arithmetic, EC scalars in range, RSA CRT
 *    consistency, and that a private key's public part matches it.
 *    Compressed EC points are decompressed (the curves' p = 3 mod 4).
 *  - Public keys the JCA cannot compute from a private key are derived with
 *    its own engines: x(dG) through ECDH with the generator, an X25519 public
 *    key through X25519 with the base point u = 9, an Ed25519 one through
 *    X25519 on the clamped SHA-512 of the seed (the Montgomery form of the
 *    same point), the remaining sign bit settled by a signature.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"


static atomic_uint_fast64_t next_pkey_id = 1;

/* ---- key state ---- */

void jca_state_free(jca_pkey *s) {
    if (!s) return;
    jca_engine_release(s->key);
    if (s->mem) {
        wc_wipe(s->mem, s->mem_len);
        free(s->mem);
    }
    wc_wipe(s, sizeof *s);
    free(s);
}

jca_pkey *jca_state_new(const jca_variant *v, int kt, bool is_private) {
    jca_pkey *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->type = kt;
    s->v = v;
    s->id = atomic_fetch_add_explicit(&next_pkey_id, 1, memory_order_relaxed);
    s->f.is_private = is_private;
    return s;
}

/* Copies the fields src[0..count) into one buffer of the state; RSA
 * integers lose their leading zero bytes (one byte stays). */
webcrypto_status jca_keep_fields(jca_pkey *s, wc_bytes *const dst[], const wc_bytes src[],
                                    int count, bool strip) {
    size_t total = 0;
    wc_bytes t[8];
    for (int i = 0; i < count; i++) {
        t[i] = src[i];
        while (strip && t[i].n > 1 && t[i].p[0] == 0) {
            t[i].p++;
            t[i].n--;
        }
        total += t[i].n;
    }
    s->mem = malloc(total ? total : 1);
    if (!s->mem) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->mem_len = total;
    uint8_t *w = s->mem;
    for (int i = 0; i < count; i++) {
        if (t[i].n) memcpy(w, t[i].p, t[i].n);
        *dst[i] = (wc_bytes){w, t[i].n};
        w += t[i].n;
    }
    return WEBCRYPTO_OK;
}

webcrypto_status jca_keep_key(jca_op *o, jca_pkey *s, jobject local) {
    s->key = jca_global(o->env, local);
    if (!s->key) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    return WEBCRYPTO_OK;
}

/* ---- BigInteger ---- */

/* new BigInteger(1, b): a non-negative integer from big-endian bytes. */
webcrypto_status jca_bi_from(jca_op *o, const uint8_t *p, size_t n, bool secret,
                                jobject *out) {
    jbyteArray a = NULL;
    webcrypto_status st = jca_new_array(o, p, n, &a);
    if (st != WEBCRYPTO_OK) return st;
    jobject b = (*o->env)->NewObject(o->env, jca.BigInteger, jca.bi_new, 1, a);
    if ((*o->env)->ExceptionCheck(o->env) || !b) st = jca_exception(o->env, "new BigInteger");
    if (secret) jca_zero_array(o, a, n);
    (*o->env)->DeleteLocalRef(o->env, a);
    if (st == WEBCRYPTO_OK) *out = b;
    return st;
}

/* b.m(x) or b.m(x, y) for the BigInteger methods returning a BigInteger. */
webcrypto_status jca_bi_op(jca_op *o, jobject b, jmethodID m, jobject x, jobject y,
                              jobject *out) {
    jobject r = y ? (*o->env)->CallObjectMethod(o->env, b, m, x, y)
                  : (*o->env)->CallObjectMethod(o->env, b, m, x);
    if ((*o->env)->ExceptionCheck(o->env) || !r) return jca_exception(o->env, "BigInteger");
    *out = r;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_bi_eq(jca_op *o, jobject a, jobject b, bool *eq) {
    jboolean r = (*o->env)->CallBooleanMethod(o->env, a, jca.bi_equals, b);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "BigInteger.equals");
    *eq = r == JNI_TRUE;
    return WEBCRYPTO_OK;
}

/* A non-negative BigInteger as big-endian bytes: exactly `fixed` bytes
 * (left-padded), or if fixed is 0 minimal (at least one byte) into a new
 * malloc'd buffer *heap. */
webcrypto_status jca_bi_to(jca_op *o, jobject b, bool secret, size_t fixed, uint8_t *out,
                              uint8_t **heap, size_t *len) {
    webcrypto_status st = WEBCRYPTO_OK;
    jbyteArray a = (*o->env)->CallObjectMethod(o->env, b, jca.bi_bytes);
    if ((*o->env)->ExceptionCheck(o->env) || !a) return jca_exception(o->env, "toByteArray");
    size_t n = (size_t)(*o->env)->GetArrayLength(o->env, a);
    uint8_t small[JCA_MAX_FIELD + 2];
    uint8_t *buf = n <= sizeof small ? small : malloc(n);
    if (!buf) {
        st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    if ((st = jca_get_bytes(o, a, 0, n, buf)) != WEBCRYPTO_OK) goto done;
    size_t i = 0;
    while (i + 1 < n && buf[i] == 0) i++;
    size_t m = n - i;
    if (n == 0 || (buf[0] & 0x80)) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: a negative or empty integer");
    } else if (fixed) {
        if (m > fixed && !(m == 1 && buf[i] == 0)) {
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: an integer longer than %zu bytes", fixed);
        } else {
            memset(out, 0, fixed);
            if (!(m == 1 && buf[i] == 0)) memcpy(out + fixed - m, buf + i, m);
        }
    } else {
        *heap = malloc(m);
        if (!*heap) st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        else {
            memcpy(*heap, buf + i, m);
            *len = m;
        }
    }
done:
    if (buf) wc_wipe(buf, n);
    if (buf && buf != small) free(buf);
    if (secret) jca_zero_array(o, a, n);
    (*o->env)->DeleteLocalRef(o->env, a);
    return st;
}

/* b.getter() as fixed-size bytes. */
static webcrypto_status get_bi_fixed(jca_op *o, jobject obj, jmethodID getter, bool secret,
                                     size_t fixed, uint8_t *out) {
    jobject b = (*o->env)->CallObjectMethod(o->env, obj, getter);
    if ((*o->env)->ExceptionCheck(o->env) || !b) return jca_exception(o->env, "key getter");
    webcrypto_status st = jca_bi_to(o, b, secret, fixed, out, NULL, NULL);
    (*o->env)->DeleteLocalRef(o->env, b);
    return st;
}

/* ---- keys from specs ---- */

webcrypto_status jca_key_factory(jca_op *o, const jca_variant *v, int kt, jobject *kf) {
    if (!v->pk.kf_prov[kt])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no KeyFactory for this key",
                        v->label);
    return jca_get_instance(o, jca.KeyFactory, jca.kf_get, jca.kf_get_p, v->pk.kt_name[kt],
                            v->pk.kf_prov[kt], kf);
}

/* kf.generatePublic/Private(spec); a refusal is DataError. */
webcrypto_status jca_gen_key(jca_op *o, jobject kf, jobject spec, bool priv, jobject *out) {
    jobject k = (*o->env)->CallObjectMethod(o->env, kf, priv ? jca.kf_private : jca.kf_public,
                                            spec);
    if ((*o->env)->ExceptionCheck(o->env) || !k) {
        webcrypto_status st = jca_exception(o->env, "KeyFactory");
        return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_DATA;
    }
    *out = k;
    return WEBCRYPTO_OK;
}

/* An X.509 or PKCS #8 encoding prefix || okp_len(kt) bytes as an OKP key. */
webcrypto_status jca_okp_key(jca_op *o, const jca_variant *v, int kt, bool priv,
                                const uint8_t *raw, jobject *out) {
    uint8_t der[16 + OKP_MAX];
    size_t pl = okp_header(kt, priv, der), kl = okp_len(kt);
    memcpy(der + pl, raw, kl);
    jobject kf = NULL, spec = NULL;
    jbyteArray a = NULL;
    webcrypto_status st = jca_key_factory(o, v, kt, &kf);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, der, pl + kl, &a);
    wc_wipe(der, sizeof der);
    if (st != WEBCRYPTO_OK) return st;
    spec = (*o->env)->NewObject(o->env, priv ? jca.PKCS8EncodedKeySpec : jca.X509EncodedKeySpec,
                                priv ? jca.pkcs8_new : jca.x509_new, a);
    JCHECK(o, "new EncodedKeySpec");
    st = jca_gen_key(o, kf, spec, priv, out);
done:
    if (priv) jca_zero_array(o, a, pl + kl);
    (*o->env)->DeleteLocalRef(o->env, a);
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, kf);
    return st;
}

/* An EC public key from its affine coordinates (already checked). */
webcrypto_status jca_ec_public_key(jca_op *o, const jca_variant *v, const jca_curve *c,
                                      jobject x, jobject y, jobject *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject kf = NULL, pt = NULL, spec = NULL;
    if ((st = jca_key_factory(o, v, JCA_KT_EC, &kf)) != WEBCRYPTO_OK) return st;
    pt = (*o->env)->NewObject(o->env, jca.ECPoint, jca.point_new, x, y);
    JCHECK(o, "new ECPoint");
    spec = (*o->env)->NewObject(o->env, jca.ECPublicKeySpec, jca.ec_pub_spec_new, pt, c->params);
    JCHECK(o, "new ECPublicKeySpec");
    st = jca_gen_key(o, kf, spec, false, out);
done:
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, pt);
    (*o->env)->DeleteLocalRef(o->env, kf);
    return st;
}

/* ---- signatures: the engines and the raw calls ---- */

/* A fresh Signature (init-time checks, not per-call paths). */
webcrypto_status jca_new_sig(jca_op *o, jstring name, jobject prov, jobject *out) {
    return jca_get_instance(o, jca.Signature, jca.sig_get, jca.sig_get_p, name, prov, out);
}

/* sig.initSign/initVerify(key), with PSS parameters first when pss_hash. */
webcrypto_status jca_sig_init(jca_op *o, jobject sig, int mode, jobject key,
                                 const wc_hash *pss_hash, size_t salt, bool *key_refused) {
    webcrypto_status st = WEBCRYPTO_OK;
    if (key_refused) *key_refused = false;
    if (pss_hash) {
        if (salt > INT32_MAX)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-PSS: the salt is too long for the key");
        jstring md = NULL; /* the hash's Java name, SHA-256 etc. */
        md = (*o->env)->NewStringUTF(o->env, md_names[*pss_hash]);
        JCHECK(o, "NewStringUTF");
        jstring mgf = (*o->env)->NewStringUTF(o->env, "MGF1");
        JCHECK(o, "NewStringUTF");
        jobject spec = (*o->env)->NewObject(o->env, jca.PSSParameterSpec, jca.pss_new, md, mgf,
                                            jca.mgf1[*pss_hash], (jint)salt, 1);
        JCHECK(o, "new PSSParameterSpec");
        (*o->env)->CallVoidMethod(o->env, sig, jca.sig_set_param, spec);
        JCHECK(o, "Signature.setParameter");
        (*o->env)->DeleteLocalRef(o->env, spec);
        (*o->env)->DeleteLocalRef(o->env, mgf);
        (*o->env)->DeleteLocalRef(o->env, md);
    }
    (*o->env)->CallVoidMethod(o->env, sig, mode == MODE_SIGN ? jca.sig_init_sign : jca.sig_init_verify,
                              key);
    if (key_refused && mode == MODE_VERIFY && (*o->env)->ExceptionCheck(o->env))
        return jca_exception_verify_key(o->env, "Signature.initVerify", key_refused);
    JCHECK(o, mode == MODE_SIGN ? "Signature.initSign" : "Signature.initVerify");
done:
    return st;
}

/* Signature.update with the message; an empty message is still given as
 * update(array, 0, 0): JDK 17's SunEC Ed25519 verify() answers false for
 * every signature when update was never called (JDK 25's does not), and the
 * call changes nothing for any other engine. */
static webcrypto_status sig_update(jca_op *o, jobject sig, const uint8_t *msg, size_t len) {
    if (len > 0) return jca_feed(o, sig, jca.sig_update, msg, len, "Signature.update");
    (*o->env)->CallVoidMethod(o->env, sig, jca.sig_update, o->t->in_buf, 0, 0);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "Signature.update");
    return WEBCRYPTO_OK;
}

/* Signs msg into the thread's output array: *n bytes at its start. */
webcrypto_status jca_sig_sign_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
                                     size_t *n) {
    webcrypto_status st = sig_update(o, sig, msg, len);
    if (st != WEBCRYPTO_OK) return st;
    jint got = (*o->env)->CallIntMethod(o->env, sig, jca.sig_sign, o->t->out_buf, 0,
                                        (jint)(JCA_CHUNK + JCA_OUT_SLACK));
    JCHECK(o, "Signature.sign");
    *n = (size_t)got;
done:
    return st;
}

/* Verifies; a SignatureException (a malformed signature) is "invalid".
 * *broken tells the caller the engine saw an exception. */
webcrypto_status jca_sig_verify_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
                                       const uint8_t *sg, size_t sg_len, bool *valid,
                                       bool *broken) {
    *valid = false;
    webcrypto_status st = sig_update(o, sig, msg, len);
    if (st != WEBCRYPTO_OK) {
        *broken = true;
        return st;
    }
    if ((st = jca_put_in(o, sg, sg_len)) != WEBCRYPTO_OK) {
        *broken = true; /* the engine holds the message: it must not be reused */
        return st;
    }
    jboolean r = (*o->env)->CallBooleanMethod(o->env, sig, jca.sig_verify, o->t->in_buf, 0,
                                              (jint)sg_len);
    if ((*o->env)->ExceptionCheck(o->env)) {
        *broken = true;
        jthrowable ex = (*o->env)->ExceptionOccurred(o->env);
        (*o->env)->ExceptionClear(o->env); /* IsInstanceOf needs none pending */
        bool bad_sig = ex && (*o->env)->IsInstanceOf(o->env, ex, jca.SignatureException);
        if (!bad_sig && ex) (*o->env)->Throw(o->env, ex); /* for jca_exception to map */
        if (ex) (*o->env)->DeleteLocalRef(o->env, ex);
        return bad_sig ? WEBCRYPTO_OK : jca_exception(o->env, "Signature.verify");
    }
    *valid = r == JNI_TRUE;
    return WEBCRYPTO_OK;
}

/* The thread's engine in slot, created if needed and initialised for this
 * key, direction (and PSS salt) unless it already is. */
webcrypto_status jca_sig_engine(jca_op *o, jca_sig *slot, jstring name, jobject prov,
                                   const jca_pkey *s, int mode, const wc_hash *pss_hash,
                                   size_t salt, bool *key_refused) {
    webcrypto_status st = jca_cached_instance(o, jca.Signature, jca.sig_get, jca.sig_get_p, name,
                                              prov, &slot->e);
    if (st != WEBCRYPTO_OK) return st;
    if (slot->key_id == s->id && slot->mode == mode && (!pss_hash || slot->salt == salt))
        return WEBCRYPTO_OK;
    slot->key_id = 0;
    st = jca_sig_init(o, slot->e, mode, s->key, pss_hash, salt, key_refused);
    if (st != WEBCRYPTO_OK || (key_refused && *key_refused)) {
        jca_drop(o, &slot->e);
        return st;
    }
    slot->key_id = s->id;
    slot->mode = mode;
    slot->salt = salt;
    return WEBCRYPTO_OK;
}

void jca_sig_drop(jca_op *o, jca_sig *slot) {
    jca_drop(o, &slot->e);
    slot->key_id = 0;
}

webcrypto_status jca_pkey_import(const void *bctx, wc_family family, unsigned member,
                                 const wc_pkey_fields *f, void **state) {
    const jca_variant *v = bctx;
    int kt;
    if (family == WC_FAMILY_ML_KEM || family == WC_FAMILY_ML_DSA)
        return jca_pq_import(v, family, member, f, state); /* keys from seeds */
    if (!key_type_of(family, member, &kt))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: not an asymmetric algorithm");
    jca_op o;
    webcrypto_status st = jca_op_begin_cap(&o, PKEY_FRAME);
    if (st != WEBCRYPTO_OK) return st;
    if (kt == JCA_KT_RSA)
        st = jca_rsa_import(&o, v, kt, f, state);
    else if (kt == JCA_KT_EC)
        st = jca_ec_import(&o, v, kt, f, state);
    else
        st = jca_okp_import(&o, v, kt, f, state);
    return jca_op_end(&o, st);
}

/* ---- generate ---- */

/* A DER length at der[*i] (short form, or 0x81 with one byte: the OKP
 * encodings are under 256 bytes); false if neither. */
static bool der_len(const uint8_t *der, size_t n, size_t *i, size_t *len) {
    if (*i >= n) return false;
    if (der[*i] < 0x80) {
        *len = der[(*i)++];
        return true;
    }
    if (der[*i] != 0x81 || *i + 1 >= n || der[*i + 1] < 0x80) return false;
    *len = der[*i + 1];
    *i += 2;
    return true;
}

/* The DER of an OKP key (spki, or PKCS #8 v1 or v2 with the public key, as
 * BouncyCastle writes it): the okp_len(kt)-byte key; false if not of that
 * shape. */
bool jca_okp_raw(const uint8_t *der, size_t n, bool priv, int kt, uint8_t out[OKP_MAX]) {
    uint8_t h[16];
    size_t kl = okp_len(kt), hl = okp_header(kt, priv, h);
    if (!priv) {
        if (n != hl + kl || memcmp(der, h, hl) != 0) return false;
        memcpy(out, der + hl, kl);
        return true;
    }
    /* SEQUENCE { INTEGER 0|1, SEQUENCE { OID }, OCTET STRING { OCTET STRING } ... } */
    size_t i = 1, len = 0;
    if (n < 2 || der[0] != 0x30 || !der_len(der, n, &i, &len) || len != n - i || n - i < 14 + kl)
        return false;
    const uint8_t *p = der + i;
    if (p[0] != 0x02 || p[1] != 0x01 || p[2] > 1 || memcmp(p + 3, h + 5, 11) != 0) return false;
    memcpy(out, p + 14, kl);
    return true;
}

/* key.getEncoded() into buf (cap bytes); wipes the Java copy if secret. */
webcrypto_status jca_encoded(jca_op *o, jobject key, bool secret, uint8_t *buf, size_t cap,
                             size_t *n) {
    jbyteArray a = (*o->env)->CallObjectMethod(o->env, key, jca.key_encoded);
    if ((*o->env)->ExceptionCheck(o->env) || !a) return jca_exception(o->env, "Key.getEncoded");
    size_t len = (size_t)(*o->env)->GetArrayLength(o->env, a);
    webcrypto_status st = len <= cap ? jca_get_bytes(o, a, 0, len, buf)
                                     : wc_error(WEBCRYPTO_ERR_OPERATION, "jca: encoded key too long");
    if (secret) jca_zero_array(o, a, len);
    (*o->env)->DeleteLocalRef(o->env, a);
    *n = len;
    return st;
}

static webcrypto_status generate(jca_op *o, const jca_variant *v,
                                 size_t modulus_bits, wc_bytes e, webcrypto_named_curve curve,
                                 jca_pkey *s) {
    int kt = s->type;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject kpg = NULL, spec = NULL, kp = NULL, priv = NULL, pub = NULL, be = NULL;
    const jca_curve *c = NULL;
    if (!v->pk.kpg_prov[kt])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no KeyPairGenerator for %s",
                        v->label, kt_label(kt));
    if (kt == JCA_KT_EC) {
        if (curve < 1 || curve >= JCA_N_CURVE || !v->pk.curve[curve].params)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: this curve is not available");
        c = &v->pk.curve[curve];
    }
    if ((st = jca_get_instance(o, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p,
                               v->pk.kt_name[kt], v->pk.kpg_prov[kt], &kpg)) != WEBCRYPTO_OK)
        return st;
    if (kt == JCA_KT_RSA) {
        if ((st = jca_bi_from(o, e.p, e.n, false, &be)) != WEBCRYPTO_OK) return st;
        spec = (*o->env)->NewObject(o->env, jca.RSAKeyGenParameterSpec, jca.rsa_kg_new,
                                    (jint)modulus_bits, be);
        JCHECK(o, "new RSAKeyGenParameterSpec");
    } else if (kt == JCA_KT_EC) {
        jstring name = (*o->env)->NewStringUTF(o->env, curve_jname[curve]);
        JCHECK(o, "NewStringUTF");
        spec = (*o->env)->NewObject(o->env, jca.ECGenParameterSpec, jca.ec_gen_new, name);
        JCHECK(o, "new ECGenParameterSpec");
    }
    if (spec) {
        (*o->env)->CallVoidMethod(o->env, kpg, jca.kpg_init, spec);
        JCHECK(o, "KeyPairGenerator.initialize");
    }
    kp = (*o->env)->CallObjectMethod(o->env, kpg, jca.kpg_generate);
    JCHECK(o, "KeyPairGenerator.generateKeyPair");
    priv = (*o->env)->CallObjectMethod(o->env, kp, jca.kp_private);
    JCHECK(o, "KeyPair.getPrivate");
    pub = (*o->env)->CallObjectMethod(o->env, kp, jca.kp_public);
    JCHECK(o, "KeyPair.getPublic");
    if (!priv || !pub) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the key pair is empty");
        goto done;
    }
    if ((st = jca_keep_key(o, s, priv)) != WEBCRYPTO_OK) goto done;

    if (kt == JCA_KT_RSA) {
        if (!(*o->env)->IsInstanceOf(o->env, priv, jca.RSAPrivateCrtKey)) {
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the RSA key has no CRT parameters");
            goto done;
        }
        jmethodID getters[8] = {jca.rsa_modulus, jca.crt_pub_exp, jca.rsa_priv_exp, jca.crt_p,
                                jca.crt_q,       jca.crt_dp,      jca.crt_dq,       jca.crt_qi};
        uint8_t *parts[8] = {NULL};
        wc_bytes src[8];
        for (int i = 0; i < 8 && st == WEBCRYPTO_OK; i++) {
            jobject b = (*o->env)->CallObjectMethod(o->env, priv, getters[i]);
            if ((*o->env)->ExceptionCheck(o->env) || !b) {
                st = jca_exception(o->env, "RSAPrivateCrtKey getter");
                break;
            }
            size_t n = 0;
            st = jca_bi_to(o, b, i >= 2, 0, NULL, &parts[i], &n);
            src[i] = (wc_bytes){parts[i], n};
            (*o->env)->DeleteLocalRef(o->env, b);
        }
        if (st == WEBCRYPTO_OK) {
            wc_bytes *dst[2] = {&s->f.n, &s->f.e}; /* the private ones: the Java key's */
            st = jca_keep_fields(s, dst, src, 2, true);
            s->size = (jca_bit_len(s->f.n) + 7) / 8;
        }
        for (int i = 0; i < 8; i++)
            if (parts[i]) {
                wc_wipe(parts[i], src[i].n);
                free(parts[i]);
            }
    } else if (kt == JCA_KT_EC) {
        size_t fs = c->fs;
        uint8_t m[3 * JCA_MAX_FIELD];
        jobject w = (*o->env)->CallObjectMethod(o->env, pub, jca.ec_w);
        JCHECK(o, "ECPublicKey.getW");
        if ((st = get_bi_fixed(o, w, jca.point_x, false, fs, m)) == WEBCRYPTO_OK &&
            (st = get_bi_fixed(o, w, jca.point_y, false, fs, m + fs)) == WEBCRYPTO_OK &&
            (st = get_bi_fixed(o, priv, jca.ec_s, true, fs, m + 2 * fs)) == WEBCRYPTO_OK) {
            const wc_bytes src[2] = {{m, fs}, {m + fs, fs}};
            wc_bytes *dst[2] = {&s->f.x, &s->f.y};
            st = jca_keep_fields(s, dst, src, 2, false);
        }
        wc_wipe(m, sizeof m);
        s->curve = c;
        s->size = fs;
        s->f.curve = curve;
    } else {
        uint8_t der[256], raw[2 * OKP_MAX];
        size_t n = 0, kl = okp_len(kt);
        if ((st = jca_encoded(o, pub, false, der, sizeof der, &n)) == WEBCRYPTO_OK &&
            !jca_okp_raw(der, n, false, kt, raw))
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected public key encoding");
        if (st == WEBCRYPTO_OK && (st = jca_encoded(o, priv, true, der, sizeof der, &n)) == WEBCRYPTO_OK &&
            !jca_okp_raw(der, n, true, kt, raw + kl))
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected private key encoding");
        if (st == WEBCRYPTO_OK) {
            const wc_bytes src[1] = {{raw, kl}};
            wc_bytes *dst[1] = {&s->f.x};
            st = jca_keep_fields(s, dst, src, 1, false);
        }
        wc_wipe(der, sizeof der);
        wc_wipe(raw, sizeof raw);
        s->size = kl;
    }
done:
    return st;
}

webcrypto_status jca_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                   size_t modulus_bits, wc_bytes e, webcrypto_named_curve curve,
                                   void **state) {
    const jca_variant *v = bctx;
    int kt;
    if (!key_type_of(family, member, &kt))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: not an asymmetric algorithm");
    jca_pkey *s = jca_state_new(v, kt, true);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    jca_op o;
    webcrypto_status st = jca_op_begin_cap(&o, PKEY_FRAME);
    if (st == WEBCRYPTO_OK) st = jca_op_end(&o, generate(&o, v, modulus_bits, e, curve, s));
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_pkey_fields(const void *state, wc_pkey_fields *out) {
    const jca_pkey *s = state;
    *out = s->f;
    return WEBCRYPTO_OK;
}

/* The private members, read out of the Java key into buf. */
static webcrypto_status private_fields(jca_op *o, const jca_pkey *s, wc_pkey_fields *out,
                                       uint8_t *buf, size_t cap) {
    if (s->type == JCA_KT_RSA) {
        if (!(*o->env)->IsInstanceOf(o->env, s->key, jca.RSAPrivateCrtKey))
            return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the RSA key has no CRT parameters");
        jmethodID getters[6] = {jca.rsa_priv_exp, jca.crt_p, jca.crt_q,
                                jca.crt_dp,       jca.crt_dq, jca.crt_qi};
        wc_bytes *dst[6] = {&out->d, &out->p, &out->q, &out->dp, &out->dq, &out->qi};
        webcrypto_status st = WEBCRYPTO_OK;
        size_t used = 0;
        for (int i = 0; i < 6 && st == WEBCRYPTO_OK; i++) {
            jobject b = (*o->env)->CallObjectMethod(o->env, s->key, getters[i]);
            if ((*o->env)->ExceptionCheck(o->env) || !b)
                return jca_exception(o->env, "RSAPrivateCrtKey getter");
            uint8_t *part = NULL;
            size_t n = 0;
            st = jca_bi_to(o, b, true, 0, NULL, &part, &n);
            (*o->env)->DeleteLocalRef(o->env, b);
            if (st == WEBCRYPTO_OK && n > cap - used)
                st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the RSA key's members are too long");
            if (st == WEBCRYPTO_OK) {
                memcpy(buf + used, part, n);
                *dst[i] = (wc_bytes){buf + used, n};
                used += n;
            }
            if (part) {
                wc_wipe(part, n);
                free(part);
            }
        }
        return st;
    }
    if (s->type == JCA_KT_EC) {
        if (cap < s->size) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: no room for the key");
        webcrypto_status st = get_bi_fixed(o, s->key, jca.ec_s, true, s->size, buf);
        if (st == WEBCRYPTO_OK) out->d = (wc_bytes){buf, s->size};
        return st;
    }
    uint8_t der[256];
    size_t n = 0;
    webcrypto_status st = jca_encoded(o, s->key, true, der, sizeof der, &n);
    if (st == WEBCRYPTO_OK && (cap < OKP_MAX || !jca_okp_raw(der, n, true, s->type, buf)))
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected private key encoding");
    if (st == WEBCRYPTO_OK) out->d = (wc_bytes){buf, okp_len(s->type)};
    wc_wipe(der, sizeof der);
    return st;
}

webcrypto_status jca_pkey_private_fields(const void *state, wc_pkey_fields *out, uint8_t *buf,
                                         size_t cap) {
    const jca_pkey *s = state;
    *out = s->f;
    /* ML-KEM and ML-DSA keep their seed in the state (s->f.d): the JDK's
     * keys do not give it back. */
    if (s->type == JCA_N_KT) return WEBCRYPTO_OK;
    jca_op o;
    webcrypto_status st = jca_op_begin_cap(&o, PKEY_FRAME);
    if (st != WEBCRYPTO_OK) return st;
    return jca_op_end(&o, private_fields(&o, s, out, buf, cap));
}

void jca_pkey_free(void *state) { jca_state_free(state); }
/* ---- key agreement ---- */

webcrypto_status jca_agree(const jca_pkey *priv, const jca_pkey *pub, uint8_t *out, size_t want) {
    const jca_variant *v = priv->v;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jint got = 0;
    jca_thread_engines *e = &o.t->v[v->index];
    jobject *slot = &e->ecdh;
    jstring name = v->pk.ecdh_name;
    jobject prov = v->pk.ecdh_prov;
    wc_okp m;
    if (kt_okp(priv->type, &m)) {
        switch (m) {
        case WC_OKP_X25519: slot = &e->x25519, name = v->pk.x_name, prov = v->pk.x_prov; break;
        case WC_OKP_X448: slot = &e->x448, name = v->pk.x448_name, prov = v->pk.x448_prov; break;
        case WC_OKP_ED25519:
        case WC_OKP_ED448:
        case WC_OKP_COUNT:
            return jca_op_end(&o, wc_error(WEBCRYPTO_ERR_OPERATION, "jca: not a key-agreement key"));
        }
    }
    if ((st = jca_cached_instance(&o, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, name, prov,
                                  slot)) != WEBCRYPTO_OK)
        goto done;
    (*o.env)->CallVoidMethod(o.env, *slot, jca.ka_init, priv->key);
    JCHECK(&o, "KeyAgreement.init");
    jobject r = (*o.env)->CallObjectMethod(o.env, *slot, jca.ka_phase, pub->key, JNI_TRUE);
    JCHECK(&o, "KeyAgreement.doPhase");
    (*o.env)->DeleteLocalRef(o.env, r);
    got = (*o.env)->CallIntMethod(o.env, *slot, jca.ka_secret, o.t->out_buf, 0);
    JCHECK(&o, "KeyAgreement.generateSecret");
    if ((size_t)got != want) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the shared secret has %d bytes, not %zu",
                      (int)got, want);
        goto done;
    }
    st = jca_get_bytes(&o, o.t->out_buf, 0, want, out);
done:
    jca_zero_array(&o, o.t->out_buf, want);
    if (st != WEBCRYPTO_OK) {
        wc_wipe(out, want);
        jca_drop(&o, slot);
    }
    return jca_op_end(&o, st);
}
