/*
 * jca_pq.c - the jca backend's ML-KEM (FIPS 203) and ML-DSA (FIPS 204),
 * through a JDK 24 or later (JEP 496, 497), or a late JDK 17 update that
 * has them (the OpenJDK 17.0.21 Debian ships does: tests/capabilities.txt):
 * KeyPairGenerator, KeyFactory, javax.crypto.KEM and Signature "ML-KEM" /
 * "ML-DSA". Where the JDK has neither (older 17 updates), the probe finds
 * no such algorithm and the capability bits stay unset.
 *
 * Keys are seeds (backend.h): a private key is made by the JDK's
 * KeyPairGenerator from a SecureRandom that returns exactly the seed
 * (WebcryptoSeedRandom, java/), since FIPS 203/204 KeyGen draw the seed
 * (d then z; xi) and the rest is KeyGen_internal of it. The JDK offers no
 * other way to make a key from a seed: its KeyFactory takes PKCS #8 in
 * the expanded form only (JDK 25 writes and reads the expandedKey
 * OCTET STRING), and the expanded key cannot give the seed back, so the
 * seed is kept here (for raw-seed, pkcs8 and JWK "priv" export). The
 * public key is the JDK key's X.509 encoding less its fixed header; a
 * public key is imported through X509EncodedKeySpec of the SPKI built here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"
#include "jca_seed_random_class.h"

/* Classes and methods, resolved once (by the first variant's init, which
 * the registry serialises); ready false: this JVM has no ML-KEM/ML-DSA
 * API (before JDK 21 there is no javax.crypto.KEM). */
static struct {
    bool tried, ready, seed_ready;
    jclass SeedRandom, KEM, Encapsulator, Decapsulator, Encapsulated, NamedParameterSpec;
    jmethodID sr_new, sr_used, sr_wipe;
    jmethodID kem_get, kem_get_p, kem_new_enc, kem_new_dec, enc_encaps, enc_ct, enc_key,
        dec_decaps;
    jmethodID nps_new, kpg_init_random;
    jstring kem_name, dsa_name; /* "ML-KEM", "ML-DSA" (global) */
    jstring set_name[2][3];     /* "ML-KEM-512" ... "ML-DSA-87" (global) */
} pq;

static bool is_kem(wc_family family) { return family == WC_FAMILY_ML_KEM; }

static size_t public_len(wc_family family, unsigned member) {
    return is_kem(family) ? wc_ml_kem_public_len((wc_ml_kem)member)
                          : wc_ml_dsa_public_len((wc_ml_dsa)member);
}

static size_t seed_len(wc_family family) {
    return is_kem(family) ? WC_ML_KEM_SEED_LEN : WC_ML_DSA_SEED_LEN;
}

/* The parameter set's index (0..2) in its family; 3 for none. */
static unsigned set_index(wc_family family, unsigned member) {
    return member < (is_kem(family) ? (unsigned)WC_ML_KEM_COUNT : (unsigned)WC_ML_DSA_COUNT)
               ? member
               : 3;
}

/* The last OID arc of each parameter set (2.16.840.1.101.3.4.4.x for
 * ML-KEM, 2.16.840.1.101.3.4.3.x for ML-DSA). */
static const uint8_t kem_arc[3] = {0x01, 0x02, 0x03}, dsa_arc[3] = {0x11, 0x12, 0x13};

/* The SubjectPublicKeyInfo header of a key of `len` bytes (draft-ietf-
 * lamps-kyber-certificates, RFC 9881): SEQUENCE { SEQUENCE { OID }, BIT
 * STRING { 00 key } }, every length in the two-octet long form (the keys
 * are 800..2592 bytes). 22 bytes. */
static void spki_header(wc_family family, unsigned member, size_t len, uint8_t h[22]) {
    size_t bits = len + 1, total = 13 + 4 + bits;
    const uint8_t head[] = {0x30, 0x82, (uint8_t)(total >> 8), (uint8_t)total,
                            0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04,
                            is_kem(family) ? 0x04 : 0x03,
                            is_kem(family) ? kem_arc[member] : dsa_arc[member],
                            0x03, 0x82, (uint8_t)(bits >> 8), (uint8_t)bits, 0x00};
    memcpy(h, head, 22);
}

/* A local reference just made (FindClass, NewStringUTF) as a global one;
 * an exception or a NULL clears *ok. */
static jobject pq_global(JNIEnv *env, jobject local, bool *ok) {
    if ((*env)->ExceptionCheck(env) || !local) {
        (*env)->ExceptionClear(env);
        *ok = false;
        return NULL;
    }
    jobject g = jca_global(env, local);
    (*env)->DeleteLocalRef(env, local);
    if (!g) *ok = false;
    return g;
}

static jclass pq_class(JNIEnv *env, const char *name, bool *ok) {
    if (!*ok) return NULL;
    return (jclass)pq_global(env, (*env)->FindClass(env, name), ok);
}

static jmethodID pq_method(JNIEnv *env, jclass c, bool is_static, const char *name,
                           const char *sig, bool *ok) {
    if (!*ok) return NULL;
    jmethodID m = is_static ? (*env)->GetStaticMethodID(env, c, name, sig)
                            : (*env)->GetMethodID(env, c, name, sig);
    if ((*env)->ExceptionCheck(env) || !m) {
        (*env)->ExceptionClear(env);
        *ok = false;
    }
    return m;
}

/* WebcryptoSeedRandom, defined in the backend's own class loader. */
static jclass seed_random_class(JNIEnv *env, bool *ok) {
    if (!*ok) return NULL;
    jclass c = jca_define_class(env, "WebcryptoSeedRandom", jca_seed_random_class,
                                sizeof jca_seed_random_class);
    if (!c) *ok = false;
    return c;
}

static jstring pq_string(JNIEnv *env, const char *s, bool *ok) {
    if (!*ok) return NULL;
    return (jstring)pq_global(env, (*env)->NewStringUTF(env, s), ok);
}

static void resolve(JNIEnv *env) {
    if (pq.tried) return;
    pq.tried = true;
    /* WebcryptoSeedRandom first, on its own: Ed448 keys from their private
     * bytes need it on any JDK (jca_okp.c), ML-KEM and ML-DSA on JDK 24+. */
    bool ok = true;
    pq.SeedRandom = seed_random_class(env, &ok);
    pq.sr_new = pq_method(env, pq.SeedRandom, false, "<init>", "([B)V", &ok);
    pq.sr_used = pq_method(env, pq.SeedRandom, false, "used", "()I", &ok);
    pq.sr_wipe = pq_method(env, pq.SeedRandom, false, "wipe", "()V", &ok);
    pq.kpg_init_random =
        pq_method(env, jca.KeyPairGenerator, false, "initialize",
                  "(Ljava/security/spec/AlgorithmParameterSpec;Ljava/security/SecureRandom;)V",
                  &ok);
    pq.seed_ready = ok;
    /* javax.crypto.KEM is JDK 21+; ML-KEM and ML-DSA themselves 24+, and
     * both are in late 17 updates (the probe below finds out). */
    pq.KEM = pq_class(env, "javax/crypto/KEM", &ok);
    pq.Encapsulator = pq_class(env, "javax/crypto/KEM$Encapsulator", &ok);
    pq.Decapsulator = pq_class(env, "javax/crypto/KEM$Decapsulator", &ok);
    pq.Encapsulated = pq_class(env, "javax/crypto/KEM$Encapsulated", &ok);
    pq.NamedParameterSpec = pq_class(env, "java/security/spec/NamedParameterSpec", &ok);
    pq.kem_get = pq_method(env, pq.KEM, true, "getInstance",
                           "(Ljava/lang/String;)Ljavax/crypto/KEM;", &ok);
    pq.kem_get_p = pq_method(env, pq.KEM, true, "getInstance",
                             "(Ljava/lang/String;Ljava/security/Provider;)Ljavax/crypto/KEM;", &ok);
    pq.kem_new_enc = pq_method(env, pq.KEM, false, "newEncapsulator",
                               "(Ljava/security/PublicKey;)Ljavax/crypto/KEM$Encapsulator;", &ok);
    pq.kem_new_dec = pq_method(env, pq.KEM, false, "newDecapsulator",
                               "(Ljava/security/PrivateKey;)Ljavax/crypto/KEM$Decapsulator;", &ok);
    pq.enc_encaps = pq_method(env, pq.Encapsulator, false, "encapsulate",
                              "()Ljavax/crypto/KEM$Encapsulated;", &ok);
    pq.enc_ct = pq_method(env, pq.Encapsulated, false, "encapsulation", "()[B", &ok);
    pq.enc_key = pq_method(env, pq.Encapsulated, false, "key", "()Ljavax/crypto/SecretKey;", &ok);
    pq.dec_decaps = pq_method(env, pq.Decapsulator, false, "decapsulate",
                              "([B)Ljavax/crypto/SecretKey;", &ok);
    pq.nps_new = pq_method(env, pq.NamedParameterSpec, false, "<init>", "(Ljava/lang/String;)V",
                           &ok);
    pq.kem_name = pq_string(env, "ML-KEM", &ok);
    pq.dsa_name = pq_string(env, "ML-DSA", &ok);
    for (unsigned i = 0; i < 3; i++) {
        pq.set_name[0][i] = pq_string(env, wc_ml_kem_name((wc_ml_kem)i), &ok);
        pq.set_name[1][i] = pq_string(env, wc_ml_dsa_name((wc_ml_dsa)i), &ok);
    }
    pq.ready = ok;
}

bool jca_seed_ready(JNIEnv *env) {
    resolve(env);
    return pq.seed_ready;
}

/* kpg initialised with spec (or, if spec is NULL, keysize) and
 * WebcryptoSeedRandom(seed), then generateKeyPair: *kp. The generator must
 * draw all n bytes of the seed (what names the key for the message). */
webcrypto_status jca_seed_pair(jca_op *o, jobject kpg, jobject spec, int keysize,
                               const uint8_t *seed, size_t n, const char *what, jobject *kp) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject sr = NULL;
    jbyteArray arr = NULL;
    if (!pq.seed_ready)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: WebcryptoSeedRandom is not available");
    if ((st = jca_new_array(o, seed, n, &arr)) != WEBCRYPTO_OK) return st;
    sr = (*o->env)->NewObject(o->env, pq.SeedRandom, pq.sr_new, arr);
    JCHECK(o, "new WebcryptoSeedRandom");
    if (spec)
        (*o->env)->CallVoidMethod(o->env, kpg, pq.kpg_init_random, spec, sr);
    else
        (*o->env)->CallVoidMethod(o->env, kpg, jca.kpg_init_size_random, (jint)keysize, sr);
    JCHECK(o, "KeyPairGenerator.initialize");
    *kp = (*o->env)->CallObjectMethod(o->env, kpg, jca.kpg_generate);
    JCHECK(o, "KeyPairGenerator.generateKeyPair");
    jint used = (*o->env)->CallIntMethod(o->env, sr, pq.sr_used);
    JCHECK(o, "WebcryptoSeedRandom.used");
    if ((size_t)used != n || !*kp)
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "jca: the %s key generation drew %d bytes, not the %zu of the seed", what,
                      (int)used, n);
done:
    if (sr) {
        (*o->env)->CallVoidMethod(o->env, sr, pq.sr_wipe);
        if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
        (*o->env)->DeleteLocalRef(o->env, sr);
    }
    if (arr) {
        jca_zero_array(o, arr, n);
        (*o->env)->DeleteLocalRef(o->env, arr);
    }
    return st;
}

static jstring family_name(wc_family family) { return is_kem(family) ? pq.kem_name : pq.dsa_name; }

/* ---- keys ---- */

/* The raw public key of a JDK public key: its X.509 encoding less the
 * header spki_header gives (checked). */
static webcrypto_status public_raw(jca_op *o, wc_family family, unsigned member, jobject pub,
                                   uint8_t **out, size_t *out_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    size_t n = public_len(family, member);
    jbyteArray enc = (*o->env)->CallObjectMethod(o->env, pub, jca.key_encoded);
    JCHECK(o, "PublicKey.getEncoded");
    if (!enc || (size_t)(*o->env)->GetArrayLength(o->env, enc) != 22 + n)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the JDK's %s public key encoding is not "
                        "the SubjectPublicKeyInfo of a %zu-byte key",
                        is_kem(family) ? "ML-KEM" : "ML-DSA", n);
    uint8_t *buf = malloc(22 + n), want[22];
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    st = jca_get_bytes(o, enc, 0, 22 + n, buf);
    spki_header(family, member, n, want);
    if (st == WEBCRYPTO_OK && memcmp(buf, want, 22) != 0)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: unexpected SubjectPublicKeyInfo header");
    if (st == WEBCRYPTO_OK) {
        memmove(buf, buf + 22, n);
        *out = buf;
        *out_len = n;
    } else {
        free(buf);
    }
done:
    return st;
}

/* A private key: the JDK's KeyPairGenerator run on WebcryptoSeedRandom(seed). */
static webcrypto_status private_from_seed(jca_op *o, const jca_variant *v, wc_family family,
                                          unsigned member, const uint8_t *seed, jobject *priv,
                                          uint8_t **pub, size_t *pub_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject kpg = NULL, spec = NULL, kp = NULL, pk = NULL;
    if ((st = jca_get_instance(o, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p,
                               family_name(family), v->provider, &kpg)) != WEBCRYPTO_OK)
        return st;
    spec = (*o->env)->NewObject(o->env, pq.NamedParameterSpec, pq.nps_new,
                                pq.set_name[is_kem(family) ? 0 : 1][member]);
    JCHECK(o, "new NamedParameterSpec");
    /* FIPS 203 KeyGen draws d and z (32 bytes each), FIPS 204 xi (32): all
     * of the seed, nothing else, or the key is not the seed's. */
    if ((st = jca_seed_pair(o, kpg, spec, 0, seed, seed_len(family),
                            is_kem(family) ? "ML-KEM" : "ML-DSA", &kp)) != WEBCRYPTO_OK)
        goto done;
    *priv = (*o->env)->CallObjectMethod(o->env, kp, jca.kp_private);
    JCHECK(o, "KeyPair.getPrivate");
    pk = (*o->env)->CallObjectMethod(o->env, kp, jca.kp_public);
    JCHECK(o, "KeyPair.getPublic");
    st = public_raw(o, family, member, pk, pub, pub_len);
done:
    return st;
}

static webcrypto_status public_from_raw(jca_op *o, const jca_variant *v, wc_family family,
                                        unsigned member, wc_bytes raw, jobject *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    size_t n = raw.n;
    uint8_t *der = malloc(22 + n);
    if (!der) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    spki_header(family, member, n, der);
    memcpy(der + 22, raw.p, n);
    jbyteArray arr = NULL;
    jobject kf = NULL, spec = NULL;
    st = jca_new_array(o, der, 22 + n, &arr);
    free(der);
    if (st != WEBCRYPTO_OK) return st;
    if ((st = jca_get_instance(o, jca.KeyFactory, jca.kf_get, jca.kf_get_p, family_name(family),
                               v->provider, &kf)) != WEBCRYPTO_OK)
        return st;
    spec = (*o->env)->NewObject(o->env, jca.X509EncodedKeySpec, jca.x509_new, arr);
    JCHECK(o, "new X509EncodedKeySpec");
    *out = (*o->env)->CallObjectMethod(o->env, kf, jca.kf_public, spec);
    if ((*o->env)->ExceptionCheck(o->env) || !*out) {
        /* The JDK's checks of an encoded key (ML-KEM: the coefficients
         * below q) refuse it: the key is bad. */
        st = wc_as_data_error(jca_exception(o->env, "KeyFactory.generatePublic"));
        goto done;
    }
done:
    return st;
}

webcrypto_status jca_pq_import(const jca_variant *v, wc_family family, unsigned member,
                               const wc_pkey_fields *f, void **state) {
    if (!pq.ready || set_index(family, member) > 2)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no ML-KEM or ML-DSA in this JVM");
    jca_pkey *s = jca_state_new(v, JCA_N_KT, f->is_private);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    jca_op o;
    webcrypto_status st = jca_op_begin_cap(&o, PKEY_FRAME);
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    jobject key = NULL;
    uint8_t *pub = NULL;
    size_t pub_n = 0;
    if (f->is_private) {
        st = private_from_seed(&o, v, family, member, f->d.p, &key, &pub, &pub_n);
    } else {
        st = public_from_raw(&o, v, family, member, f->x, &key);
    }
    if (st == WEBCRYPTO_OK) st = jca_keep_key(&o, s, key);
    if (st == WEBCRYPTO_OK) {
        /* Public: x. Private: x (the seed's public key) and d (the seed). */
        const wc_bytes src[2] = {f->is_private ? (wc_bytes){pub, pub_n} : f->x, f->d};
        wc_bytes *dst[2] = {&s->f.x, &s->f.d};
        st = jca_keep_fields(s, dst, src, f->is_private ? 2 : 1, false);
        s->size = public_len(family, member);
    }
    free(pub); /* public */
    st = jca_op_end(&o, st);
    if (st != WEBCRYPTO_OK) {
        jca_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- ML-KEM ---- */

/* The SecretKey's 32 bytes, its array zeroed after. */
static webcrypto_status shared_bytes(jca_op *o, jobject key, uint8_t *shared) {
    webcrypto_status st = WEBCRYPTO_OK;
    jbyteArray k = (*o->env)->CallObjectMethod(o->env, key, jca.key_encoded);
    JCHECK(o, "SecretKey.getEncoded");
    if (!k || (*o->env)->GetArrayLength(o->env, k) != WC_ML_KEM_SHARED_LEN)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the ML-KEM shared key is not 32 bytes");
    st = jca_get_bytes(o, k, 0, WC_ML_KEM_SHARED_LEN, shared);
    jca_zero_array(o, k, WC_ML_KEM_SHARED_LEN);
done:
    return st;
}

/* The thread's Encapsulator (enc) or Decapsulator for the key s, made from
 * the thread's KEM unless the slot already holds the one of this key. The
 * JDK's KEM, Encapsulator and Decapsulator are immutable, safe to use again
 * and at once from several threads (javax.crypto.KEM, KEMSpi: "It is safe
 * to invoke multiple encapsulate and decapsulate methods at the same
 * time"); kept per thread as the other engines, keyed by the key's id. */
static webcrypto_status kem_engine(jca_op *o, const jca_pkey *s, bool enc, jobject *out) {
    jca_thread_engines *t = &o->t->v[s->v->index];
    jca_sig *slot = enc ? &t->kem_enc : &t->kem_dec;
    if (slot->e && slot->key_id == s->id) {
        *out = slot->e;
        return WEBCRYPTO_OK;
    }
    jca_sig_drop(o, slot);
    webcrypto_status st = jca_cached_instance(o, pq.KEM, pq.kem_get, pq.kem_get_p, pq.kem_name,
                                              s->v->provider, &t->kem);
    if (st != WEBCRYPTO_OK) return st;
    jobject x = (*o->env)->CallObjectMethod(o->env, t->kem, enc ? pq.kem_new_enc : pq.kem_new_dec,
                                            s->key);
    if ((*o->env)->ExceptionCheck(o->env) || !x)
        return jca_exception(o->env, enc ? "KEM.newEncapsulator" : "KEM.newDecapsulator");
    slot->e = jca_global(o->env, x);
    (*o->env)->DeleteLocalRef(o->env, x);
    if (!slot->e) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    slot->key_id = s->id;
    *out = slot->e;
    return WEBCRYPTO_OK;
}

webcrypto_status jca_ml_kem_encapsulate(const void *state, wc_ml_kem kind, uint8_t *ct,
                                        uint8_t *shared) {
    const jca_pkey *s = state;
    size_t n = wc_ml_kem_ciphertext_len(kind);
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject enc = NULL, e = NULL, key = NULL;
    jbyteArray c = NULL;
    if ((st = kem_engine(&o, s, true, &enc)) != WEBCRYPTO_OK) goto done;
    e = (*o.env)->CallObjectMethod(o.env, enc, pq.enc_encaps);
    JCHECK(&o, "KEM.Encapsulator.encapsulate");
    c = (*o.env)->CallObjectMethod(o.env, e, pq.enc_ct);
    JCHECK(&o, "KEM.Encapsulated.encapsulation");
    if (!c || (size_t)(*o.env)->GetArrayLength(o.env, c) != n) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the ML-KEM ciphertext is not %zu bytes", n);
        goto done;
    }
    if ((st = jca_get_bytes(&o, c, 0, n, ct)) != WEBCRYPTO_OK) goto done;
    key = (*o.env)->CallObjectMethod(o.env, e, pq.enc_key);
    JCHECK(&o, "KEM.Encapsulated.key");
    st = shared_bytes(&o, key, shared);
done:
    if (st != WEBCRYPTO_OK) jca_sig_drop(&o, &o.t->v[s->v->index].kem_enc);
    return jca_op_end(&o, st);
}

webcrypto_status jca_ml_kem_decapsulate(const void *state, wc_ml_kem kind, const uint8_t *ct,
                                        uint8_t *shared) {
    const jca_pkey *s = state;
    size_t n = wc_ml_kem_ciphertext_len(kind);
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject dec = NULL, key = NULL;
    jbyteArray c = NULL;
    if ((st = kem_engine(&o, s, false, &dec)) != WEBCRYPTO_OK) goto done;
    if ((st = jca_new_array(&o, ct, n, &c)) != WEBCRYPTO_OK) goto done;
    /* Implicit rejection is the JDK's (FIPS 203 algorithm 18): an altered
     * ciphertext gives the pseudo-random key, not an exception. */
    key = (*o.env)->CallObjectMethod(o.env, dec, pq.dec_decaps, c);
    JCHECK(&o, "KEM.Decapsulator.decapsulate");
    st = shared_bytes(&o, key, shared);
done:
    if (st != WEBCRYPTO_OK) jca_sig_drop(&o, &o.t->v[s->v->index].kem_dec);
    return jca_op_end(&o, st);
}

/* ---- ML-DSA ---- */

/* The JDK's ML-DSA Signature takes no parameters at all (setParameter:
 * "The ML-DSA algorithm does not take any parameters"), so no context: the
 * backend does not report WC_CAP_ML_DSA_CONTEXT, and the core gives it only
 * the empty context. */

webcrypto_status jca_ml_dsa_sign(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                 size_t ctx_len, const uint8_t *msg, size_t len, uint8_t *sig) {
    (void)ctx;
    (void)ctx_len; /* 0: see above */
    const jca_pkey *s = state;
    webcrypto_status st;
    size_t want = wc_ml_dsa_sig_len(kind), n = 0;
    if ((st = jca_whole_fits(len, "data to sign")) != WEBCRYPTO_OK) return st;
    jca_op o;
    if ((st = jca_op_begin(&o)) != WEBCRYPTO_OK) return st;
    /* the thread's Signature, initialised for this key unless it is
     * (sign() leaves it so: Signature's contract) */
    jca_sig *slot = &o.t->v[s->v->index].ml_dsa;
    st = jca_sig_engine(&o, slot, pq.dsa_name, s->v->provider, s, MODE_SIGN, NULL, 0, NULL);
    if (st == WEBCRYPTO_OK) st = jca_sig_sign_raw(&o, slot->e, msg, len, &n);
    if (st == WEBCRYPTO_OK && n != want)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: ML-DSA signature of %zu bytes, not %zu", n,
                      want);
    if (st == WEBCRYPTO_OK) st = jca_get_bytes(&o, o.t->out_buf, 0, want, sig);
    if (st != WEBCRYPTO_OK) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_ml_dsa_verify(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                   size_t ctx_len, const uint8_t *msg, size_t len,
                                   const uint8_t *sig, size_t sig_len, bool *valid) {
    (void)ctx;
    const jca_pkey *s = state;
    *valid = false;
    (void)ctx_len; /* 0: see above */
    webcrypto_status st;
    if ((st = jca_whole_fits(len, "data to verify")) != WEBCRYPTO_OK) return st;
    if (sig_len != wc_ml_dsa_sig_len(kind)) return WEBCRYPTO_OK; /* not a signature */
    jca_op o;
    if ((st = jca_op_begin(&o)) != WEBCRYPTO_OK) return st;
    bool broken = false;
    jca_sig *slot = &o.t->v[s->v->index].ml_dsa;
    st = jca_sig_engine(&o, slot, pq.dsa_name, s->v->provider, s, MODE_VERIFY, NULL, 0, NULL);
    if (st == WEBCRYPTO_OK)
        st = jca_sig_verify_raw(&o, slot->e, msg, len, sig, sig_len, valid, &broken);
    if (st != WEBCRYPTO_OK || broken) jca_sig_drop(&o, slot);
    return jca_op_end(&o, st);
}

/* ---- init ---- */

/* Whether getInstance(name[, provider]) of cls works for this variant. */
static bool has_engine(jca_op *o, const jca_variant *v, jclass cls, jmethodID get,
                       jmethodID get_p, jstring name) {
    jobject e = NULL;
    if (jca_get_instance(o, cls, get, get_p, name, v->provider, &e) != WEBCRYPTO_OK)
        return false; /* NoSuchAlgorithmException, cleared: the algorithm is absent */
    (*o->env)->DeleteLocalRef(o->env, e);
    return true;
}

webcrypto_status jca_pq_setup(jca_op *o, const jca_variant *v, wc_caps *caps) {
    resolve(o->env);
    if (!pq.ready) return WEBCRYPTO_OK; /* no javax.crypto.KEM: JDKs before 21, bar late 17 updates */
    if ((*o->env)->PushLocalFrame(o->env, 16) != 0) return jca_exception(o->env, "PushLocalFrame");
    bool kem = has_engine(o, v, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p, pq.kem_name) &&
               has_engine(o, v, jca.KeyFactory, jca.kf_get, jca.kf_get_p, pq.kem_name) &&
               has_engine(o, v, pq.KEM, pq.kem_get, pq.kem_get_p, pq.kem_name);
    bool dsa = has_engine(o, v, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p, pq.dsa_name) &&
               has_engine(o, v, jca.KeyFactory, jca.kf_get, jca.kf_get_p, pq.dsa_name) &&
               has_engine(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, pq.dsa_name);
    (*o->env)->PopLocalFrame(o->env, NULL);
    if (kem)
        wc_caps_add_all(caps, WEBCRYPTO_ALG_ML_KEM_512, WEBCRYPTO_ALG_ML_KEM_768,
                        WEBCRYPTO_ALG_ML_KEM_1024);
    if (dsa)
        wc_caps_add_all(caps, WEBCRYPTO_ALG_ML_DSA_44, WEBCRYPTO_ALG_ML_DSA_65,
                        WEBCRYPTO_ALG_ML_DSA_87);
    return WEBCRYPTO_OK;
}
