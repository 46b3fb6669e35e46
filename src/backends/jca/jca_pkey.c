/*
 * jca_pkey.c - the jca backend's asymmetric keys and operations: RSA
 * (PKCS#1 v1.5 and PSS signatures, OAEP), ECDSA and ECDH on P-256/384/521,
 * Ed25519 and X25519, through java.security / javax.crypto.
 *
 * Design (the same as jca_backend.c's, see there):
 *  - init fixes per variant the provider of every engine (Signature, Cipher,
 *    KeyAgreement, KeyFactory, KeyPairGenerator), the Java names, and each
 *    curve's ECParameterSpec and constants; nothing is looked up per call.
 *  - A key's state holds its Java PublicKey or PrivateKey (a global
 *    reference; Java keys are immutable, so threads share it) and its
 *    material in C, read once (wiped on free), which pkey_fields returns.
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

#include "jca_internal.h"

enum { ENCRYPT_MODE = 1, DECRYPT_MODE = 2 }; /* javax.crypto.Cipher */
enum { MODE_SIGN = 1, MODE_VERIFY = 2 };
enum { OKP_LEN = 32, PKEY_FRAME = 128 };

static atomic_uint_fast64_t next_pkey_id = 1;

static const char *const hash_jname[JCA_N_HASH] = {NULL, "SHA1", "SHA256", "SHA384", "SHA512"};
static const char *const curve_jname[JCA_N_CURVE] = {NULL, "secp256r1", "secp384r1",
                                                     "secp521r1"};
static const size_t curve_fs[JCA_N_CURVE] = {0, 32, 48, 66};

/* RFC 8410 encodings around a raw 32-byte key: SubjectPublicKeyInfo and
 * PKCS #8 v1 (OneAsymmetricKey without attributes or public key). */
static const uint8_t spki_ed[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03,
                                    0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
static const uint8_t spki_x[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03,
                                   0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00};
static const uint8_t pkcs8_ed[16] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                     0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20};
static const uint8_t pkcs8_x[16] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                    0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20};

static bool hash_ok(webcrypto_algorithm h) {
    return h >= WEBCRYPTO_ALG_SHA_1 && h <= WEBCRYPTO_ALG_SHA_512;
}

static int type_of(webcrypto_algorithm kind) {
    switch (kind) {
    case WEBCRYPTO_ALG_ECDSA:
    case WEBCRYPTO_ALG_ECDH: return JCA_KT_EC;
    case WEBCRYPTO_ALG_ED25519: return JCA_KT_ED;
    case WEBCRYPTO_ALG_X25519: return JCA_KT_X;
    default: return JCA_KT_RSA;
    }
}

/* ---- key state ---- */

typedef struct jca_pkey {
    webcrypto_algorithm kind;
    int type;
    const jca_variant *v;
    uint64_t id;       /* never reused: the per-thread engines remember it */
    jobject key;       /* PublicKey or PrivateKey, global */
    const jca_curve *curve;
    size_t size;       /* RSA: modulus bytes; EC: field size; OKP: 32 */
    wc_pkey_fields f;  /* pointers into mem */
    uint8_t *mem;
    size_t mem_len;
} jca_pkey;

static void state_free(jca_pkey *s) {
    if (!s) return;
    jca_engine_release(s->key);
    if (s->mem) {
        wc_wipe(s->mem, s->mem_len);
        free(s->mem);
    }
    wc_wipe(s, sizeof *s);
    free(s);
}

static jca_pkey *state_new(const jca_variant *v, webcrypto_algorithm kind, bool is_private) {
    jca_pkey *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->kind = kind;
    s->type = type_of(kind);
    s->v = v;
    s->id = atomic_fetch_add_explicit(&next_pkey_id, 1, memory_order_relaxed);
    s->f.is_private = is_private;
    return s;
}

/* Copies the fields src[0..count) into one buffer of the state; RSA
 * integers lose their leading zero bytes (one byte stays). */
static webcrypto_status keep_fields(jca_pkey *s, wc_bytes *const dst[], const wc_bytes src[],
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

static webcrypto_status keep_key(jca_op *o, jca_pkey *s, jobject local) {
    s->key = jca_global(o->env, local);
    if (!s->key) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    return WEBCRYPTO_OK;
}

/* ---- BigInteger ---- */

/* new BigInteger(1, b): a non-negative integer from big-endian bytes. */
static webcrypto_status bi_from(jca_op *o, const uint8_t *p, size_t n, bool secret,
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
static webcrypto_status bi_op(jca_op *o, jobject b, jmethodID m, jobject x, jobject y,
                              jobject *out) {
    jobject r = y ? (*o->env)->CallObjectMethod(o->env, b, m, x, y)
                  : (*o->env)->CallObjectMethod(o->env, b, m, x);
    if ((*o->env)->ExceptionCheck(o->env) || !r) return jca_exception(o->env, "BigInteger");
    *out = r;
    return WEBCRYPTO_OK;
}

static webcrypto_status bi_eq(jca_op *o, jobject a, jobject b, bool *eq) {
    jboolean r = (*o->env)->CallBooleanMethod(o->env, a, jca.bi_equals, b);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "BigInteger.equals");
    *eq = r == JNI_TRUE;
    return WEBCRYPTO_OK;
}

/* A non-negative BigInteger as big-endian bytes: exactly `fixed` bytes
 * (left-padded), or if fixed is 0 minimal (at least one byte) into a new
 * malloc'd buffer *heap. */
static webcrypto_status bi_to(jca_op *o, jobject b, bool secret, size_t fixed, uint8_t *out,
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
    webcrypto_status st = bi_to(o, b, secret, fixed, out, NULL, NULL);
    (*o->env)->DeleteLocalRef(o->env, b);
    return st;
}

/* ---- keys from specs ---- */

static webcrypto_status key_factory(jca_op *o, const jca_variant *v, int kt, jobject *kf) {
    if (!v->pk.kf_prov[kt])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no KeyFactory for this key",
                        v->label);
    return jca_get_instance(o, jca.KeyFactory, jca.kf_get, jca.kf_get_p, v->pk.kt_name[kt],
                            v->pk.kf_prov[kt], kf);
}

/* kf.generatePublic/Private(spec); a refusal is DataError. */
static webcrypto_status gen_key(jca_op *o, jobject kf, jobject spec, bool priv, jobject *out) {
    jobject k = (*o->env)->CallObjectMethod(o->env, kf, priv ? jca.kf_private : jca.kf_public,
                                            spec);
    if ((*o->env)->ExceptionCheck(o->env) || !k) {
        webcrypto_status st = jca_exception(o->env, "KeyFactory");
        return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_DATA;
    }
    *out = k;
    return WEBCRYPTO_OK;
}

/* An X.509 or PKCS #8 encoding prefix || 32 bytes as an OKP key. */
static webcrypto_status okp_key(jca_op *o, const jca_variant *v, int kt, bool priv,
                                const uint8_t *raw, jobject *out) {
    uint8_t der[16 + OKP_LEN];
    const uint8_t *prefix = priv ? (kt == JCA_KT_ED ? pkcs8_ed : pkcs8_x)
                                 : (kt == JCA_KT_ED ? spki_ed : spki_x);
    size_t pl = priv ? 16 : 12;
    memcpy(der, prefix, pl);
    memcpy(der + pl, raw, OKP_LEN);
    jobject kf = NULL, spec = NULL;
    jbyteArray a = NULL;
    webcrypto_status st = key_factory(o, v, kt, &kf);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, der, pl + OKP_LEN, &a);
    wc_wipe(der, sizeof der);
    if (st != WEBCRYPTO_OK) return st;
    spec = (*o->env)->NewObject(o->env, priv ? jca.PKCS8EncodedKeySpec : jca.X509EncodedKeySpec,
                                priv ? jca.pkcs8_new : jca.x509_new, a);
    JCHECK(o, "new EncodedKeySpec");
    st = gen_key(o, kf, spec, priv, out);
done:
    if (priv) jca_zero_array(o, a, pl + OKP_LEN);
    (*o->env)->DeleteLocalRef(o->env, a);
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, kf);
    return st;
}

/* An EC public key from its affine coordinates (already checked). */
static webcrypto_status ec_public_key(jca_op *o, const jca_variant *v, const jca_curve *c,
                                      jobject x, jobject y, jobject *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject kf = NULL, pt = NULL, spec = NULL;
    if ((st = key_factory(o, v, JCA_KT_EC, &kf)) != WEBCRYPTO_OK) return st;
    pt = (*o->env)->NewObject(o->env, jca.ECPoint, jca.point_new, x, y);
    JCHECK(o, "new ECPoint");
    spec = (*o->env)->NewObject(o->env, jca.ECPublicKeySpec, jca.ec_pub_spec_new, pt, c->params);
    JCHECK(o, "new ECPublicKeySpec");
    st = gen_key(o, kf, spec, false, out);
done:
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, pt);
    (*o->env)->DeleteLocalRef(o->env, kf);
    return st;
}

/* ---- signatures: the engines and the raw calls ---- */

/* A fresh Signature (init-time checks, not per-call paths). */
static webcrypto_status new_sig(jca_op *o, jstring name, jobject prov, jobject *out) {
    return jca_get_instance(o, jca.Signature, jca.sig_get, jca.sig_get_p, name, prov, out);
}

/* sig.initSign/initVerify(key), with PSS parameters first when pss_hash. */
static webcrypto_status sig_init(jca_op *o, jobject sig, int mode, jobject key,
                                 webcrypto_algorithm pss_hash, size_t salt) {
    webcrypto_status st = WEBCRYPTO_OK;
    if (pss_hash) {
        if (salt > INT32_MAX)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-PSS: the salt is too long for the key");
        jstring md = NULL; /* the hash's Java name, SHA-256 etc. */
        static const char *const md_names[JCA_N_HASH] = {NULL, "SHA-1", "SHA-256", "SHA-384",
                                                         "SHA-512"};
        md = (*o->env)->NewStringUTF(o->env, md_names[pss_hash]);
        JCHECK(o, "NewStringUTF");
        jstring mgf = (*o->env)->NewStringUTF(o->env, "MGF1");
        JCHECK(o, "NewStringUTF");
        jobject spec = (*o->env)->NewObject(o->env, jca.PSSParameterSpec, jca.pss_new, md, mgf,
                                            jca.mgf1[pss_hash], (jint)salt, 1);
        JCHECK(o, "new PSSParameterSpec");
        (*o->env)->CallVoidMethod(o->env, sig, jca.sig_set_param, spec);
        JCHECK(o, "Signature.setParameter");
        (*o->env)->DeleteLocalRef(o->env, spec);
        (*o->env)->DeleteLocalRef(o->env, mgf);
        (*o->env)->DeleteLocalRef(o->env, md);
    }
    (*o->env)->CallVoidMethod(o->env, sig, mode == MODE_SIGN ? jca.sig_init_sign : jca.sig_init_verify,
                              key);
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
static webcrypto_status sig_sign_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
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
static webcrypto_status sig_verify_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
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
static webcrypto_status sig_engine(jca_op *o, jca_sig *slot, jstring name, jobject prov,
                                   const jca_pkey *s, int mode, webcrypto_algorithm pss_hash,
                                   size_t salt) {
    webcrypto_status st = jca_cached_instance(o, jca.Signature, jca.sig_get, jca.sig_get_p, name,
                                              prov, &slot->e);
    if (st != WEBCRYPTO_OK) return st;
    if (slot->key_id == s->id && slot->mode == mode && (!pss_hash || slot->salt == salt))
        return WEBCRYPTO_OK;
    slot->key_id = 0;
    st = sig_init(o, slot->e, mode, s->key, pss_hash, salt);
    if (st != WEBCRYPTO_OK) {
        jca_drop(o, &slot->e);
        return st;
    }
    slot->key_id = s->id;
    slot->mode = mode;
    slot->salt = salt;
    return WEBCRYPTO_OK;
}

static void sig_drop(jca_op *o, jca_sig *slot) {
    jca_drop(o, &slot->e);
    slot->key_id = 0;
}

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

/* ---- init: providers, names, curves ---- */

static jstring gstr(jca_op *o, const char *s, webcrypto_status *st) {
    return jca_global_string(o, s, st);
}

/* Whether a Signature of this name takes PSSParameterSpec (no key needed). */
static bool pss_works(jca_op *o, const jca_variant *v) {
    jobject sig = NULL;
    if (new_sig(o, v->pk.pss_name, v->pk.pss_prov, &sig) != WEBCRYPTO_OK) return false;
    jstring md = (*o->env)->NewStringUTF(o->env, "SHA-256");
    if ((*o->env)->ExceptionCheck(o->env) || !md) {
        jca_exception(o->env, "NewStringUTF");
        return false;
    }
    jobject spec = (*o->env)->NewObject(o->env, jca.PSSParameterSpec, jca.pss_new, md,
                                        v->pk.mgf1_name, jca.mgf1[WEBCRYPTO_ALG_SHA_256], 32, 1);
    if ((*o->env)->ExceptionCheck(o->env) || !spec) {
        jca_exception(o->env, "new PSSParameterSpec");
        return false;
    }
    (*o->env)->CallVoidMethod(o->env, sig, jca.sig_set_param, spec);
    if ((*o->env)->ExceptionCheck(o->env)) {
        jca_exception(o->env, "Signature.setParameter");
        return false;
    }
    return true;
}

/* A curve's ECParameterSpec from the variant's AlgorithmParameters "EC",
 * and the constants taken from it. */
static webcrypto_status curve_setup(jca_op *o, jca_variant *v, jobject ap_prov, int ci) {
    jca_curve *c = &v->pk.curve[ci];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject ap = NULL, gen = NULL, spec = NULL, curve = NULL, field = NULL, n = NULL, g = NULL,
            gx = NULL, gy = NULL, t = NULL;
    jstring name = NULL;
    c->fs = curve_fs[ci];
    if ((st = jca_get_instance(o, jca.AlgorithmParameters, jca.ap_get, jca.ap_get_p,
                               v->pk.kt_name[JCA_KT_EC], ap_prov, &ap)) != WEBCRYPTO_OK)
        return st;
    name = (*o->env)->NewStringUTF(o->env, curve_jname[ci]);
    JCHECK(o, "NewStringUTF");
    gen = (*o->env)->NewObject(o->env, jca.ECGenParameterSpec, jca.ec_gen_new, name);
    JCHECK(o, "new ECGenParameterSpec");
    (*o->env)->CallVoidMethod(o->env, ap, jca.ap_init, gen);
    JCHECK(o, "AlgorithmParameters.init");
    spec = (*o->env)->CallObjectMethod(o->env, ap, jca.ap_spec, jca.ECParameterSpec);
    JCHECK(o, "AlgorithmParameters.getParameterSpec");
    curve = (*o->env)->CallObjectMethod(o->env, spec, jca.ecps_curve);
    JCHECK(o, "ECParameterSpec.getCurve");
    field = (*o->env)->CallObjectMethod(o->env, curve, jca.curve_field);
    JCHECK(o, "EllipticCurve.getField");
    if (!(*o->env)->IsInstanceOf(o->env, field, jca.ECFieldFp)) {
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s is not over a prime field",
                      curve_jname[ci]);
        goto done;
    }
    jobject p = (*o->env)->CallObjectMethod(o->env, field, jca.fp_p);
    JCHECK(o, "ECFieldFp.getP");
    jobject a = (*o->env)->CallObjectMethod(o->env, curve, jca.curve_a);
    JCHECK(o, "EllipticCurve.getA");
    jobject b = (*o->env)->CallObjectMethod(o->env, curve, jca.curve_b);
    JCHECK(o, "EllipticCurve.getB");
    n = (*o->env)->CallObjectMethod(o->env, spec, jca.ecps_order);
    JCHECK(o, "ECParameterSpec.getOrder");
    if ((st = bi_to(o, p, false, c->fs, c->p_bytes, NULL, NULL)) != WEBCRYPTO_OK ||
        (st = bi_to(o, n, false, c->fs, c->n_bytes, NULL, NULL)) != WEBCRYPTO_OK)
        goto done;
    if ((c->p_bytes[c->fs - 1] & 3) != 3) {
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s: p is not 3 mod 4", curve_jname[ci]);
        goto done;
    }
    /* (p + 1) / 4 = (p >> 2) + 1 for p = 3 mod 4 */
    uint8_t e[JCA_MAX_FIELD];
    unsigned carry = 0;
    for (size_t i = 0; i < c->fs; i++) {
        unsigned cur = c->p_bytes[i];
        e[i] = (uint8_t)((carry << 6) | (cur >> 2));
        carry = cur & 3;
    }
    for (size_t i = c->fs; i-- > 0;)
        if (++e[i] != 0) break;
    if ((st = bi_from(o, e, c->fs, false, &t)) != WEBCRYPTO_OK) goto done;
    /* The generator as a public key: x(dG) through ECDH. */
    g = (*o->env)->CallObjectMethod(o->env, spec, jca.ecps_generator);
    JCHECK(o, "ECParameterSpec.getGenerator");
    gx = (*o->env)->CallObjectMethod(o->env, g, jca.point_x);
    JCHECK(o, "ECPoint.getAffineX");
    gy = (*o->env)->CallObjectMethod(o->env, g, jca.point_y);
    JCHECK(o, "ECPoint.getAffineY");
    c->params = jca_global(o->env, spec); /* ec_public_key needs it */
    jobject gpub = NULL;
    if (c->params && v->pk.kf_prov[JCA_KT_EC])
        st = ec_public_key(o, v, c, gx, gy, &gpub);
    if (st != WEBCRYPTO_OK) goto done;
    c->g_pub = jca_global(o->env, gpub);
    c->p = jca_global(o->env, p);
    c->a = jca_global(o->env, a);
    c->b = jca_global(o->env, b);
    c->sqrt_exp = jca_global(o->env, t);
    if (!c->params || (gpub && !c->g_pub) || !c->p || !c->a || !c->b || !c->sqrt_exp)
        st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
done:
    return st;
}

/* A provider for cls/name, or NULL; each lookup in its own local frame. */
static jobject probe(jca_op *o, const jca_variant *v, jclass cls, jmethodID get, jmethodID get_p,
                     jmethodID getp, jstring name) {
    if (!name) return NULL;
    if ((*o->env)->PushLocalFrame(o->env, 16) != 0) {
        jca_exception(o->env, "PushLocalFrame");
        return NULL;
    }
    jobject r = jca_probe_provider(o, v, cls, get, get_p, getp, name, true);
    (*o->env)->PopLocalFrame(o->env, NULL);
    return r;
}

webcrypto_status jca_pkey_setup(jca_op *o, jca_variant *v, uint64_t *caps) {
    jca_pkey_variant *pk = &v->pk;
    webcrypto_status st = WEBCRYPTO_OK;
    static const char *const kt_names[JCA_N_KT] = {"RSA", "EC", "Ed25519", "X25519"};
    for (int k = 0; k < JCA_N_KT; k++) pk->kt_name[k] = gstr(o, kt_names[k], &st);
    char buf[64];
    for (int h = 1; h < JCA_N_HASH; h++) {
        snprintf(buf, sizeof buf, "%swithRSA", hash_jname[h]);
        pk->rsa_name[h] = gstr(o, buf, &st);
    }
    pk->pss_name = gstr(o, "RSASSA-PSS", &st);
    pk->ed_name = gstr(o, "Ed25519", &st);
    pk->oaep_name = gstr(o, "RSA/ECB/OAEPPadding", &st);
    pk->ecdh_name = gstr(o, "ECDH", &st);
    pk->x_name = gstr(o, "X25519", &st);
    pk->mgf1_name = gstr(o, "MGF1", &st);
    if (st != WEBCRYPTO_OK) return st;

    for (int k = 0; k < JCA_N_KT; k++) {
        pk->kf_prov[k] = probe(o, v, jca.KeyFactory, jca.kf_get, jca.kf_get_p, jca.kf_provider,
                               pk->kt_name[k]);
        pk->kpg_prov[k] = probe(o, v, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p,
                                jca.kpg_provider, pk->kt_name[k]);
    }
    bool rsa_all = true, ecdsa_all = true;
    for (int h = 1; h < JCA_N_HASH; h++) {
        pk->rsa_prov[h] = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                                pk->rsa_name[h]);
        rsa_all = rsa_all && pk->rsa_prov[h];
        /* ECDSA with r || s: the JDK's name, BouncyCastle's, else DER
         * converted here. */
        static const char *const forms[3] = {"withECDSAinP1363Format", "withPLAIN-ECDSA",
                                             "withECDSA"};
        for (int f = 0; f < 3 && !pk->ecdsa_prov[h]; f++) {
            snprintf(buf, sizeof buf, "%s%s", hash_jname[h], forms[f]);
            jstring name = gstr(o, buf, &st);
            if (st != WEBCRYPTO_OK) return st;
            pk->ecdsa_prov[h] = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p,
                                      jca.sig_provider, name);
            if (pk->ecdsa_prov[h]) {
                pk->ecdsa_name[h] = name;
                pk->ecdsa_der[h] = f == 2;
            } else {
                jca_global_free(o->env, name);
            }
        }
        ecdsa_all = ecdsa_all && pk->ecdsa_prov[h];
    }
    pk->pss_prov = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                         pk->pss_name);
    pk->ed_prov = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                        pk->ed_name);
    pk->oaep_prov = probe(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider, pk->oaep_name);
    pk->ecdh_prov = probe(o, v, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, jca.ka_provider,
                          pk->ecdh_name);
    pk->x_prov = probe(o, v, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, jca.ka_provider,
                       pk->x_name);
    if (pk->pss_prov) {
        if ((*o->env)->PushLocalFrame(o->env, 16) != 0) return jca_exception(o->env, "PushLocalFrame");
        bool ok = pss_works(o, v);
        (*o->env)->PopLocalFrame(o->env, NULL);
        if (!ok) {
            jca_global_free(o->env, pk->pss_prov);
            pk->pss_prov = NULL;
        }
    }

    /* Curves, from the provider of the EC keys. */
    jobject ap_prov = probe(o, v, jca.AlgorithmParameters, jca.ap_get, jca.ap_get_p,
                            jca.ap_provider, pk->kt_name[JCA_KT_EC]);
    bool curves = ap_prov && pk->kf_prov[JCA_KT_EC] && pk->kpg_prov[JCA_KT_EC];
    for (int ci = 1; curves && ci < JCA_N_CURVE; ci++) {
        if ((*o->env)->PushLocalFrame(o->env, 64) != 0) return jca_exception(o->env, "PushLocalFrame");
        webcrypto_status cs = curve_setup(o, v, ap_prov, ci);
        (*o->env)->PopLocalFrame(o->env, NULL);
        if (cs == WEBCRYPTO_ERR_NO_MEMORY) return cs;
        if (cs != WEBCRYPTO_OK) curves = false;
    }
    jca_global_free(o->env, ap_prov);

    /* OKP helpers: the X25519 base point, 2^255 - 19 and 1. */
    bool okp = false;
    if (pk->x_prov && pk->kf_prov[JCA_KT_X]) {
        if ((*o->env)->PushLocalFrame(o->env, 32) != 0) return jca_exception(o->env, "PushLocalFrame");
        static const uint8_t nine[OKP_LEN] = {9};
        uint8_t p25519[OKP_LEN];
        memset(p25519, 0xff, sizeof p25519);
        p25519[0] = 0x7f;
        p25519[OKP_LEN - 1] = 0xed;
        static const uint8_t one[1] = {1};
        jobject base = NULL, bp = NULL, b1 = NULL;
        if (okp_key(o, v, JCA_KT_X, false, nine, &base) == WEBCRYPTO_OK &&
            bi_from(o, p25519, OKP_LEN, false, &bp) == WEBCRYPTO_OK &&
            bi_from(o, one, 1, false, &b1) == WEBCRYPTO_OK) {
            pk->x_base = jca_global(o->env, base);
            pk->ed_p = jca_global(o->env, bp);
            pk->one = jca_global(o->env, b1);
            okp = pk->x_base && pk->ed_p && pk->one;
        }
        (*o->env)->PopLocalFrame(o->env, NULL);
    }

    bool rsa_keys = pk->kf_prov[JCA_KT_RSA] && pk->kpg_prov[JCA_KT_RSA];
    uint64_t c = 0;
    if (rsa_keys && rsa_all) c |= WC_CAP(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    if (rsa_keys && pk->pss_prov) c |= WC_CAP(WEBCRYPTO_ALG_RSA_PSS);
    if (rsa_keys && pk->oaep_prov) c |= WC_CAP(WEBCRYPTO_ALG_RSA_OAEP);
    /* EC imports check a private key against its public point with an
     * ECDSA signature, and compute a missing one through ECDH: both needed. */
    if (curves && ecdsa_all && pk->ecdh_prov)
        c |= WC_CAP(WEBCRYPTO_ALG_ECDSA) | WC_CAP(WEBCRYPTO_ALG_ECDH);
    /* Ed25519 private keys get their public key through X25519 and SHA-512. */
    if (pk->kf_prov[JCA_KT_ED] && pk->kpg_prov[JCA_KT_ED] && pk->ed_prov && okp &&
        v->md_prov[WEBCRYPTO_ALG_SHA_512])
        c |= WC_CAP(WEBCRYPTO_ALG_ED25519);
    if (pk->kpg_prov[JCA_KT_X] && okp) c |= WC_CAP(WEBCRYPTO_ALG_X25519);
    *caps |= c;
    return WEBCRYPTO_OK;
}

void jca_pkey_variant_free(JNIEnv *env, jca_pkey_variant *pk) {
    for (int k = 0; k < JCA_N_KT; k++) {
        jca_global_free(env, pk->kf_prov[k]);
        jca_global_free(env, pk->kpg_prov[k]);
        jca_global_free(env, pk->kt_name[k]);
    }
    for (int h = 0; h < JCA_N_HASH; h++) {
        jca_global_free(env, pk->rsa_prov[h]);
        jca_global_free(env, pk->rsa_name[h]);
        jca_global_free(env, pk->ecdsa_prov[h]);
        jca_global_free(env, pk->ecdsa_name[h]);
    }
    jobject one_each[] = {pk->pss_prov, pk->pss_name, pk->ed_prov,   pk->ed_name,
                          pk->oaep_prov, pk->ecdh_prov, pk->x_prov,  pk->oaep_name,
                          pk->ecdh_name, pk->x_name,    pk->mgf1_name, pk->x_base,
                          pk->ed_p,      pk->one};
    for (size_t i = 0; i < sizeof one_each / sizeof one_each[0]; i++)
        jca_global_free(env, one_each[i]);
    for (int ci = 0; ci < JCA_N_CURVE; ci++) {
        jca_curve *c = &pk->curve[ci];
        jobject refs[] = {c->params, c->p, c->a, c->b, c->sqrt_exp, c->g_pub};
        for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) jca_global_free(env, refs[i]);
    }
    memset(pk, 0, sizeof *pk);
}

/* ---- import ---- */

static int cmp_be(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    while (an > 0 && *a == 0) a++, an--;
    while (bn > 0 && *b == 0) b++, bn--;
    if (an != bn) return an < bn ? -1 : 1;
    return an ? memcmp(a, b, an) : 0;
}

static size_t bit_len(wc_bytes b) {
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
    if ((st = bi_op(o, bi[3], jca.bi_mul, bi[4], NULL, &t)) || (st = bi_eq(o, t, bi[0], ok)) ||
        !*ok)
        return st;
    for (int i = 0; i < 2; i++) {
        jobject prime = bi[3 + i], exp = bi[5 + i];
        (*o->env)->DeleteLocalRef(o->env, m);
        if ((st = bi_op(o, prime, jca.bi_sub, one, NULL, &m)) != WEBCRYPTO_OK) return st;
        (*o->env)->DeleteLocalRef(o->env, t);
        if ((st = bi_op(o, bi[2], jca.bi_mod, m, NULL, &t)) || (st = bi_eq(o, t, exp, ok)) || !*ok)
            return st;
        jobject u = NULL;
        (*o->env)->DeleteLocalRef(o->env, t);
        if ((st = bi_op(o, bi[1], jca.bi_mul, exp, NULL, &u)) ||
            (st = bi_op(o, u, jca.bi_mod, m, NULL, &t)) || (st = bi_eq(o, t, one, ok)))
            return st;
        (*o->env)->DeleteLocalRef(o->env, u);
        if (!*ok) return WEBCRYPTO_OK;
    }
    (*o->env)->DeleteLocalRef(o->env, t);
    jobject u = NULL;
    if ((st = bi_op(o, bi[7], jca.bi_mul, bi[4], NULL, &u)) ||
        (st = bi_op(o, u, jca.bi_mod, bi[3], NULL, &t)) || (st = bi_eq(o, t, one, ok)))
        return st;
    return WEBCRYPTO_OK;
}

static webcrypto_status rsa_import(jca_op *o, const jca_variant *v, webcrypto_algorithm kind,
                                   const wc_pkey_fields *f, void **state) {
    /* Each member present (so n.n, e.n >= 1), at most WC_RSA_MAX_MEMBER
     * bytes (the contract). */
    const wc_bytes src[8] = {f->n, f->e, f->d, f->p, f->q, f->dp, f->dq, f->qi};
    int count = f->is_private ? 8 : 2;
    /* Any RSA key: an odd modulus of at most 16384 bits, an odd exponent
     * in [3, n). */
    size_t nbits = bit_len(f->n);
    if (!(f->n.p[f->n.n - 1] & 1) || nbits > 16384 || !(f->e.p[f->e.n - 1] & 1) ||
        bit_len(f->e) < 2 || cmp_be(f->e.p, f->e.n, f->n.p, f->n.n) >= 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: invalid modulus or public exponent");
    if (f->is_private && cmp_be(f->qi.p, f->qi.n, f->p.p, f->p.n) >= 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: the private key is inconsistent");
    jca_pkey *s = state_new(v, kind, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    webcrypto_status st = WEBCRYPTO_OK;
    jobject bi[8] = {NULL}, spec = NULL, kf = NULL, key = NULL;
    for (int i = 0; i < count && st == WEBCRYPTO_OK; i++)
        st = bi_from(o, src[i].p, src[i].n, i >= 2, &bi[i]);
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
    if ((st = key_factory(o, v, JCA_KT_RSA, &kf)) != WEBCRYPTO_OK ||
        (st = gen_key(o, kf, spec, f->is_private, &key)) != WEBCRYPTO_OK ||
        (st = keep_key(o, s, key)) != WEBCRYPTO_OK)
        goto done;
    wc_bytes *dst[8] = {&s->f.n, &s->f.e, &s->f.d, &s->f.p, &s->f.q, &s->f.dp, &s->f.dq, &s->f.qi};
    st = keep_fields(s, dst, src, count, true);
    s->size = (nbits + 7) / 8;
done:
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* rhs = x^3 + a x + b mod p. */
static webcrypto_status ec_rhs(jca_op *o, const jca_curve *c, jobject x, jobject *rhs) {
    jobject t1 = NULL, t2 = NULL, t3 = NULL, t4 = NULL;
    webcrypto_status st;
    if ((st = bi_op(o, x, jca.bi_mul, x, NULL, &t1)) || (st = bi_op(o, t1, jca.bi_add, c->a, NULL, &t2)) ||
        (st = bi_op(o, t2, jca.bi_mul, x, NULL, &t3)) || (st = bi_op(o, t3, jca.bi_add, c->b, NULL, &t4)) ||
        (st = bi_op(o, t4, jca.bi_mod, c->p, NULL, rhs)))
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
    if ((st = bi_op(o, y, jca.bi_mul, y, NULL, &t1)) || (st = bi_op(o, t1, jca.bi_mod, c->p, NULL, &t2)) ||
        (st = bi_eq(o, t2, rhs, eq)))
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
    if ((st = ec_rhs(o, c, x, &rhs)) || (st = bi_op(o, rhs, jca.bi_mod_pow, c->sqrt_exp, c->p, &r)) ||
        (st = ec_square_is(o, c, r, rhs, &eq)))
        return st;
    if (!eq) return wc_error(WEBCRYPTO_ERR_DATA, "EC key: the point is not on the curve");
    jboolean bit = (*o->env)->CallBooleanMethod(o->env, r, jca.bi_test_bit, 0);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "BigInteger.testBit");
    if ((bit == JNI_TRUE) != odd) {
        jobject neg = NULL;
        if ((st = bi_op(o, c->p, jca.bi_sub, r, NULL, &neg)) != WEBCRYPTO_OK) return st;
        (*o->env)->DeleteLocalRef(o->env, r);
        r = neg;
    }
    (*o->env)->DeleteLocalRef(o->env, rhs);
    *y = r;
    return WEBCRYPTO_OK;
}

/* Signs a fixed message with priv and verifies it with pub. */
static webcrypto_status pair_check(jca_op *o, jstring name, jobject prov, jobject priv,
                                   jobject pub, bool *ok) {
    static const uint8_t msg[] = "libwebcrypto pairwise check";
    jobject sig = NULL;
    *ok = false;
    size_t n = 0;
    bool broken = false;
    webcrypto_status st = new_sig(o, name, prov, &sig);
    if (st == WEBCRYPTO_OK) st = sig_init(o, sig, MODE_SIGN, priv, 0, 0);
    if (st == WEBCRYPTO_OK) st = sig_sign_raw(o, sig, msg, sizeof msg, &n);
    if (st != WEBCRYPTO_OK) return st;
    uint8_t sg[2 * (JCA_MAX_FIELD + 4) + 8];
    if (n > sizeof sg) return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: signature too long");
    if ((st = jca_get_bytes(o, o->t->out_buf, 0, n, sg)) != WEBCRYPTO_OK) return st;
    /* The same engine verifies its own encoding (DER or r || s). */
    if ((st = sig_init(o, sig, MODE_VERIFY, pub, 0, 0)) != WEBCRYPTO_OK) return st;
    st = sig_verify_raw(o, sig, msg, sizeof msg, sg, n, ok, &broken);
    (*o->env)->DeleteLocalRef(o->env, sig);
    return st;
}

static webcrypto_status ec_import(jca_op *o, const jca_variant *v, webcrypto_algorithm kind,
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
    jca_pkey *s = state_new(v, kind, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->curve = c;
    s->size = fs;
    s->f.curve = f->curve;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject x = NULL, y = NULL, pub = NULL, priv = NULL, d = NULL, spec = NULL, kf = NULL;
    uint8_t xy[2 * JCA_MAX_FIELD];
    if (have_pub) {
        memcpy(xy, px, fs);
        if ((st = bi_from(o, px, fs, false, &x)) != WEBCRYPTO_OK) goto done;
        if (compressed) {
            if ((st = ec_decompress(o, c, x, odd, &y)) != WEBCRYPTO_OK ||
                (st = bi_to(o, y, false, fs, xy + fs, NULL, NULL)) != WEBCRYPTO_OK)
                goto done;
        } else {
            memcpy(xy + fs, py, fs);
            jobject rhs = NULL;
            bool eq = false;
            if ((st = bi_from(o, py, fs, false, &y)) || (st = ec_rhs(o, c, x, &rhs)) ||
                (st = ec_square_is(o, c, y, rhs, &eq)))
                goto done;
            (*o->env)->DeleteLocalRef(o->env, rhs);
            if (!eq) {
                st = wc_error(WEBCRYPTO_ERR_DATA, "EC key: the point is not on the curve");
                goto done;
            }
        }
        if ((st = ec_public_key(o, v, c, x, y, &pub)) != WEBCRYPTO_OK) goto done;
    }
    if (f->is_private) {
        if ((st = bi_from(o, f->d.p, fs, true, &d)) != WEBCRYPTO_OK ||
            (st = key_factory(o, v, JCA_KT_EC, &kf)) != WEBCRYPTO_OK)
            goto done;
        spec = (*o->env)->NewObject(o->env, jca.ECPrivateKeySpec, jca.ec_priv_spec_new, d,
                                    c->params);
        JCHECK(o, "new ECPrivateKeySpec");
        if ((st = gen_key(o, kf, spec, true, &priv)) != WEBCRYPTO_OK) goto done;
        const jca_pkey_variant *pk = &v->pk;
        jstring sn = pk->ecdsa_name[WEBCRYPTO_ALG_SHA_256];
        jobject sp = pk->ecdsa_prov[WEBCRYPTO_ALG_SHA_256];
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
            if ((st = bi_from(o, gx, fs, false, &x)) != WEBCRYPTO_OK) goto done;
            for (int parity = 0; parity < 2 && !ok; parity++) {
                (*o->env)->DeleteLocalRef(o->env, y);
                (*o->env)->DeleteLocalRef(o->env, pub);
                y = pub = NULL;
                if ((st = ec_decompress(o, c, x, parity == 1, &y)) ||
                    (st = ec_public_key(o, v, c, x, y, &pub)) ||
                    (st = pair_check(o, sn, sp, priv, pub, &ok)))
                    goto done;
            }
            if (!ok) {
                st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: cannot compute the EC public key");
                goto done;
            }
            if ((st = bi_to(o, y, false, fs, xy + fs, NULL, NULL)) != WEBCRYPTO_OK) goto done;
        } else {
            if ((st = pair_check(o, sn, sp, priv, pub, &ok)) != WEBCRYPTO_OK) goto done;
            if (!ok) {
                st = wc_error(WEBCRYPTO_ERR_DATA,
                              "EC key: the public point does not match the private key");
                goto done;
            }
        }
    }
    if ((st = keep_key(o, s, f->is_private ? priv : pub)) != WEBCRYPTO_OK) goto done;
    const wc_bytes src[3] = {{xy, fs}, {xy + fs, fs}, f->d};
    wc_bytes *dst[3] = {&s->f.x, &s->f.y, &s->f.d};
    st = keep_fields(s, dst, src, f->is_private ? 3 : 2, false);
done:
    wc_wipe(xy, sizeof xy);
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* X25519(k, u = 9) into out: the public key of X25519 private key k. */
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
                               v->md_prov[WEBCRYPTO_ALG_SHA_512], &md)) != WEBCRYPTO_OK ||
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
    if ((st = okp_key(o, v, JCA_KT_X, true, h, &xpriv)) != WEBCRYPTO_OK ||
        (st = x25519_base(o, v, xpriv, u_le)) != WEBCRYPTO_OK)
        goto done;
    for (int i = 0; i < OKP_LEN; i++) be[i] = u_le[OKP_LEN - 1 - i];
    if ((st = bi_from(o, be, OKP_LEN, false, &u)) || (st = bi_op(o, u, jca.bi_sub, v->pk.one, NULL, &t1)) ||
        (st = bi_op(o, u, jca.bi_add, v->pk.one, NULL, &t2)) ||
        (st = bi_op(o, t2, jca.bi_mod_inv, v->pk.ed_p, NULL, &t3)) ||
        (st = bi_op(o, t1, jca.bi_mul, t3, NULL, &t4)) ||
        (st = bi_op(o, t4, jca.bi_mod, v->pk.ed_p, NULL, &y)) ||
        (st = bi_to(o, y, false, OKP_LEN, be, NULL, NULL)))
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
        st = okp_key(o, v, JCA_KT_ED, false, try_key, &pub);
        if (st == WEBCRYPTO_ERR_DATA) { /* not a point: the other sign */
            st = WEBCRYPTO_OK;
            continue;
        }
        if (st != WEBCRYPTO_OK) goto done;
        st = pair_check(o, v->pk.ed_name, v->pk.ed_prov, priv, pub, &ok);
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

static webcrypto_status okp_import(jca_op *o, const jca_variant *v, webcrypto_algorithm kind,
                                   const wc_pkey_fields *f, void **state) {
    int kt = type_of(kind);
    /* The contract: d of 32 bytes for a private key; x of 32 bytes, or empty
     * for a private key. */
    jca_pkey *s = state_new(v, kind, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->size = OKP_LEN;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject key = NULL;
    uint8_t pub[OKP_LEN];
    if (!f->is_private) {
        memcpy(pub, f->x.p, OKP_LEN);
        st = okp_key(o, v, kt, false, f->x.p, &key);
    } else {
        st = okp_key(o, v, kt, true, f->d.p, &key);
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
    if (st == WEBCRYPTO_OK) st = keep_key(o, s, key);
    if (st == WEBCRYPTO_OK) {
        const wc_bytes src[2] = {{pub, OKP_LEN}, f->d};
        wc_bytes *dst[2] = {&s->f.x, &s->f.d};
        st = keep_fields(s, dst, src, f->is_private ? 2 : 1, false);
    }
    if (st != WEBCRYPTO_OK) {
        state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_pkey_import(const void *bctx, webcrypto_algorithm kind,
                                 const wc_pkey_fields *f, void **state) {
    const jca_variant *v = bctx;
    if (kind < WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || kind > WEBCRYPTO_ALG_X25519)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: not an asymmetric algorithm");
    jca_op o;
    webcrypto_status st = jca_op_begin_cap(&o, PKEY_FRAME);
    if (st != WEBCRYPTO_OK) return st;
    switch (type_of(kind)) {
    case JCA_KT_RSA: st = rsa_import(&o, v, kind, f, state); break;
    case JCA_KT_EC: st = ec_import(&o, v, kind, f, state); break;
    default: st = okp_import(&o, v, kind, f, state); break;
    }
    return jca_op_end(&o, st);
}

/* ---- generate ---- */

/* The DER of an OKP key (spki or PKCS #8, v1 or v2 with the public key):
 * the 32-byte key after the fixed prefix; false if not of that shape. */
static bool okp_raw(const uint8_t *der, size_t n, bool priv, int kt, uint8_t out[OKP_LEN]) {
    uint8_t oid = kt == JCA_KT_ED ? 0x70 : 0x6e;
    if (!priv) {
        if (n != 12 + OKP_LEN || memcmp(der, kt == JCA_KT_ED ? spki_ed : spki_x, 12) != 0)
            return false;
        memcpy(out, der + 12, OKP_LEN);
        return true;
    }
    /* SEQUENCE { INTEGER 0|1, SEQUENCE { OID }, OCTET STRING { OCTET STRING } ... } */
    if (n < 16 + OKP_LEN || der[0] != 0x30 || der[1] != n - 2 || der[2] != 0x02 ||
        der[3] != 0x01 || der[4] > 1 || memcmp(der + 5, pkcs8_ed + 5, 6) != 0 || der[11] != oid ||
        memcmp(der + 12, pkcs8_ed + 12, 4) != 0)
        return false;
    memcpy(out, der + 16, OKP_LEN);
    return true;
}

/* key.getEncoded() into buf (cap bytes); wipes the Java copy if secret. */
static webcrypto_status encoded(jca_op *o, jobject key, bool secret, uint8_t *buf, size_t cap,
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

static webcrypto_status generate(jca_op *o, const jca_variant *v, webcrypto_algorithm kind,
                                 size_t modulus_bits, wc_bytes e, webcrypto_named_curve curve,
                                 jca_pkey *s) {
    int kt = s->type;
    webcrypto_status st = WEBCRYPTO_OK;
    jobject kpg = NULL, spec = NULL, kp = NULL, priv = NULL, pub = NULL, be = NULL;
    const jca_curve *c = NULL;
    if (!v->pk.kpg_prov[kt])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no KeyPairGenerator for %s",
                        v->label, webcrypto_algorithm_name(kind));
    if (kt == JCA_KT_EC) {
        if (curve < 1 || curve >= JCA_N_CURVE || !v->pk.curve[curve].params)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: this curve is not available");
        c = &v->pk.curve[curve];
    }
    if ((st = jca_get_instance(o, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p,
                               v->pk.kt_name[kt], v->pk.kpg_prov[kt], &kpg)) != WEBCRYPTO_OK)
        return st;
    if (kt == JCA_KT_RSA) {
        if ((st = bi_from(o, e.p, e.n, false, &be)) != WEBCRYPTO_OK) return st;
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
    if ((st = keep_key(o, s, priv)) != WEBCRYPTO_OK) goto done;

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
            st = bi_to(o, b, i >= 2, 0, NULL, &parts[i], &n);
            src[i] = (wc_bytes){parts[i], n};
            (*o->env)->DeleteLocalRef(o->env, b);
        }
        if (st == WEBCRYPTO_OK) {
            wc_bytes *dst[8] = {&s->f.n, &s->f.e, &s->f.d, &s->f.p,
                                &s->f.q, &s->f.dp, &s->f.dq, &s->f.qi};
            st = keep_fields(s, dst, src, 8, true);
            s->size = (bit_len(s->f.n) + 7) / 8;
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
            const wc_bytes src[3] = {{m, fs}, {m + fs, fs}, {m + 2 * fs, fs}};
            wc_bytes *dst[3] = {&s->f.x, &s->f.y, &s->f.d};
            st = keep_fields(s, dst, src, 3, false);
        }
        wc_wipe(m, sizeof m);
        s->curve = c;
        s->size = fs;
        s->f.curve = curve;
    } else {
        uint8_t der[128], raw[2 * OKP_LEN];
        size_t n = 0;
        if ((st = encoded(o, pub, false, der, sizeof der, &n)) == WEBCRYPTO_OK &&
            !okp_raw(der, n, false, kt, raw))
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected public key encoding");
        if (st == WEBCRYPTO_OK && (st = encoded(o, priv, true, der, sizeof der, &n)) == WEBCRYPTO_OK &&
            !okp_raw(der, n, true, kt, raw + OKP_LEN))
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected private key encoding");
        if (st == WEBCRYPTO_OK) {
            const wc_bytes src[2] = {{raw, OKP_LEN}, {raw + OKP_LEN, OKP_LEN}};
            wc_bytes *dst[2] = {&s->f.x, &s->f.d};
            st = keep_fields(s, dst, src, 2, false);
        }
        wc_wipe(der, sizeof der);
        wc_wipe(raw, sizeof raw);
        s->size = OKP_LEN;
    }
done:
    return st;
}

webcrypto_status jca_pkey_generate(const void *bctx, webcrypto_algorithm kind,
                                   size_t modulus_bits, wc_bytes e, webcrypto_named_curve curve,
                                   void **state) {
    const jca_variant *v = bctx;
    if (kind < WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || kind > WEBCRYPTO_ALG_X25519)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: not an asymmetric algorithm");
    jca_pkey *s = state_new(v, kind, true);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    jca_op o;
    webcrypto_status st = jca_op_begin_cap(&o, PKEY_FRAME);
    if (st == WEBCRYPTO_OK) st = jca_op_end(&o, generate(&o, v, kind, modulus_bits, e, curve, s));
    if (st != WEBCRYPTO_OK) {
        state_free(s);
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

void jca_pkey_free(void *state) { state_free(state); }

/* ---- RSA signatures ---- */

webcrypto_status jca_rsa_sign(const void *state, wc_rsa_padding padding,
                              webcrypto_algorithm hash, size_t salt_len, const uint8_t *msg,
                              size_t len, uint8_t *sig, size_t *sig_len) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad hash");
    bool pss = padding == WC_RSA_PSS;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_thread_engines *e = &o.t->v[v->index];
    jca_sig *slot = pss ? &e->pss[hash] : &e->rsa[hash];
    st = sig_engine(&o, slot, pss ? v->pk.pss_name : v->pk.rsa_name[hash],
                    pss ? v->pk.pss_prov : v->pk.rsa_prov[hash], s, MODE_SIGN, pss ? hash : 0,
                    salt_len);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK && n != s->size)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: RSA signature of %zu bytes, expected %zu", n,
                      s->size);
    if (st == WEBCRYPTO_OK) st = jca_get_bytes(&o, o.t->out_buf, 0, n, sig);
    if (st == WEBCRYPTO_OK) *sig_len = n;
    if (st != WEBCRYPTO_OK) sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_rsa_verify(const void *state, wc_rsa_padding padding,
                                webcrypto_algorithm hash, size_t salt_len, const uint8_t *msg,
                                size_t len, const uint8_t *sig, size_t sig_len, bool *valid) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    *valid = false;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad hash");
    /* RFC 8017 8.1.2 / 8.2.2: another length is invalid; so is a salt no
     * key could hold. */
    if (sig_len != s->size || salt_len > INT32_MAX) return WEBCRYPTO_OK;
    bool pss = padding == WC_RSA_PSS;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_thread_engines *e = &o.t->v[v->index];
    jca_sig *slot = pss ? &e->pss[hash] : &e->rsa[hash];
    st = sig_engine(&o, slot, pss ? v->pk.pss_name : v->pk.rsa_name[hash],
                    pss ? v->pk.pss_prov : v->pk.rsa_prov[hash], s, MODE_VERIFY, pss ? hash : 0,
                    salt_len);
    bool broken = false;
    if (st == WEBCRYPTO_OK) st = sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    if (st != WEBCRYPTO_OK || broken) sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- RSA-OAEP ---- */

static webcrypto_status oaep_run(const jca_pkey *s, bool encrypt, webcrypto_algorithm hash,
                                 const uint8_t *label, size_t label_len, const uint8_t *in,
                                 size_t len, uint8_t *out, size_t *out_len) {
    const jca_variant *v = s->v;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad hash");
    if (!encrypt && len != s->size)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-OAEP: decryption error");
    if (len > s->size || label_len > INT32_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "RSA-OAEP: the input is too long for the key");
    static const char *const md_names[JCA_N_HASH] = {NULL, "SHA-1", "SHA-256", "SHA-384",
                                                     "SHA-512"};
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

webcrypto_status jca_rsa_oaep_encrypt(const void *state, webcrypto_algorithm hash,
                                      const uint8_t *label, size_t label_len, const uint8_t *in,
                                      size_t len, uint8_t *out, size_t *out_len) {
    return oaep_run(state, true, hash, label, label_len, in, len, out, out_len);
}

webcrypto_status jca_rsa_oaep_decrypt(const void *state, webcrypto_algorithm hash,
                                      const uint8_t *label, size_t label_len, const uint8_t *in,
                                      size_t len, uint8_t *out, size_t *out_len) {
    return oaep_run(state, false, hash, label, label_len, in, len, out, out_len);
}

/* ---- ECDSA ---- */

webcrypto_status jca_ecdsa_sign(const void *state, webcrypto_algorithm hash, const uint8_t *msg,
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
    st = sig_engine(&o, slot, v->pk.ecdsa_name[hash], v->pk.ecdsa_prov[hash], s, MODE_SIGN, 0, 0);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = sig_sign_raw(&o, slot->e, msg, len, &n);
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
    if (st != WEBCRYPTO_OK) sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_ecdsa_verify(const void *state, webcrypto_algorithm hash,
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
    st = sig_engine(&o, slot, v->pk.ecdsa_name[hash], v->pk.ecdsa_prov[hash], s, MODE_VERIFY, 0, 0);
    bool broken = false;
    if (st == WEBCRYPTO_OK) st = sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    /* The provider's answer stands, right or wrong (docs/JCA.md lists the
     * defects the tests know of). */
    if (st != WEBCRYPTO_OK || broken) sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- Ed25519 ---- */

webcrypto_status jca_ed25519_sign(const void *state, const uint8_t *msg, size_t len,
                                  uint8_t sig[64]) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = &o.t->v[v->index].ed;
    st = sig_engine(&o, slot, v->pk.ed_name, v->pk.ed_prov, s, MODE_SIGN, 0, 0);
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK && n != 64)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: Ed25519 signature of %zu bytes", n);
    if (st == WEBCRYPTO_OK) st = jca_get_bytes(&o, o.t->out_buf, 0, 64, sig);
    if (st != WEBCRYPTO_OK) sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_ed25519_verify(const void *state, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t sig_len, bool *valid) {
    const jca_pkey *s = state;
    const jca_variant *v = s->v;
    *valid = false;
    if (sig_len != 64) return WEBCRYPTO_OK;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_sig *slot = &o.t->v[v->index].ed;
    st = sig_engine(&o, slot, v->pk.ed_name, v->pk.ed_prov, s, MODE_VERIFY, 0, 0);
    bool broken = false;
    if (st == WEBCRYPTO_OK) st = sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    if (st != WEBCRYPTO_OK || broken) sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- key agreement ---- */

static webcrypto_status agree(const jca_pkey *priv, const jca_pkey *pub, bool x25519,
                              uint8_t *out, size_t want) {
    const jca_variant *v = priv->v;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *slot = x25519 ? &o.t->v[v->index].x25519 : &o.t->v[v->index].ecdh;
    jint got = 0;
    if ((st = jca_cached_instance(&o, jca.KeyAgreement, jca.ka_get, jca.ka_get_p,
                                  x25519 ? v->pk.x_name : v->pk.ecdh_name,
                                  x25519 ? v->pk.x_prov : v->pk.ecdh_prov, slot)) != WEBCRYPTO_OK)
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

webcrypto_status jca_ecdh(const void *private_state, const void *public_state, uint8_t *out,
                          size_t *out_len) {
    const jca_pkey *priv = private_state;
    webcrypto_status st = agree(priv, public_state, false, out, priv->size);
    if (st == WEBCRYPTO_OK) *out_len = priv->size;
    return st;
}

webcrypto_status jca_x25519(const void *private_state, const void *public_state,
                            uint8_t out[32]) {
    webcrypto_status st = agree(private_state, public_state, true, out, 32);
    if (st != WEBCRYPTO_OK) {
        /* The JDK refuses small-order points itself (InvalidKeyException). */
        return st == WEBCRYPTO_ERR_NO_MEMORY ? st : WEBCRYPTO_ERR_OPERATION;
    }
    /* RFC 7748 section 6.1: an all-zero result means a small-order public
     * key; checked here whatever the provider does. */
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++) acc |= out[i];
    if (acc == 0)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "X25519: the shared secret is all zeros "
                                                 "(the public key has small order)");
    return WEBCRYPTO_OK;
}
