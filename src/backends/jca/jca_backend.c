/*
 * jca_backend.c - the "jca" backend: the Java Cryptography Architecture
 * through JNI (jca_jvm.c loads and joins the JVM). This file has the
 * operation scaffolding, init (providers, names, probes), random and the ops
 * table; the operations are by family in jca_digest_mac.c, jca_cipher.c,
 * jca_kdf.c and the asymmetric files (jca_pkey.c).
 *
 * Design (see backend.h for the contract, jca_internal.h for the types):
 *  - init() resolves, once per variant, the provider of every algorithm and
 *    the Java strings naming them, and probes what works (GCM-SIV against an
 *    RFC 8452 vector; whether GCM takes 32/64-bit tags). Nothing is looked
 *    up per call.
 *  - "jca": each algorithm from the first provider of the JVM's order that
 *    has it (fixed at init). "jca:NAME": from provider NAME only, except the
 *    digests, which come from the JVM's order when NAME has none (SunJCE
 *    leaves them to SUN; HMAC and the KDFs need them). BouncyCastle ("BC")
 *    is instantiated from the class path for "jca:BC" without being added
 *    to the JVM's provider list, so "jca" never changes with it.
 *  - A key holds its SecretKeySpec as a global reference. Engines (Cipher,
 *    Mac, MessageDigest) are per thread and reused: a Mac stays keyed
 *    (doFinal resets it to the keyed state), ciphers are re-initialised per
 *    call (each call has its own IV).
 *  - Bytes cross with Get/SetByteArrayRegion into two per-thread arrays, in
 *    chunks of JCA_CHUNK with update() calls, so memory stays flat - except
 *    where the provider itself buffers the whole message (GCM decryption in
 *    SunJCE, GCM-SIV in BC; probed at init): such a decryption gets the
 *    ciphertext and tag in one array and one doFinal, in place, because
 *    update() there only copies into the provider's own buffer (twice the
 *    time of one doFinal for SunJCE's GCM, measured on JDK 17).
 *  - Every operation runs in a JNI local frame; every call that can throw
 *    is followed by ExceptionCheck, and jca_exception() maps the exception.
 *  - After any exception the engine involved is dropped from the thread's
 *    cache, so a half-used engine is never reused.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "jca_debug.h"
#include "jca_internal.h"


static jca_variant *variants[JCA_MAX_VARIANTS];
static int variant_count;


/* ---- operation scaffolding ---- */


/* Attaches the thread if needed and opens the operation's local frame. */
webcrypto_status jca_op_begin_cap(jca_op *o, jint capacity) {
    o->t = jca_thread_get();
    if (!o->t) return WEBCRYPTO_ERR_OPERATION; /* message set */
    o->env = o->t->env;
    return jca_frame_push(o->t, capacity);
}

webcrypto_status jca_op_begin(jca_op *o) { return jca_op_begin_cap(o, JCA_FRAME); }

/* Closes the frame. A pending exception here would be a bug of this file
 * (a call not checked); it is counted, mapped and cleared. */
webcrypto_status jca_op_end(jca_op *o, webcrypto_status st) {
    if ((*o->env)->ExceptionCheck(o->env)) {
        atomic_fetch_add_explicit(&jca_stat_pending, 1, memory_order_relaxed);
        webcrypto_status e = jca_exception(o->env, "unchecked Java call");
        if (st == WEBCRYPTO_OK) st = e;
    }
    jca_frame_pop(o->t);
    return st;
}


void jca_drop(jca_op *o, jobject *engine) {
    jca_global_free(o->env, *engine);
    *engine = NULL;
}

/* Copies n <= JCA_CHUNK caller bytes into the thread's input array. */
webcrypto_status jca_put_in(jca_op *o, const uint8_t *p, size_t n) {
    return jca_set_bytes(o, o->t->in_buf, 0, n, p);
}

/* Copies in and out of Java arrays; nothing crosses (not even an
 * ExceptionCheck) for n == 0, e.g. the empty input of an encryption's
 * doFinal. */
webcrypto_status jca_set_bytes(jca_op *o, jbyteArray a, size_t off, size_t n, const uint8_t *p) {
    if (n == 0) return WEBCRYPTO_OK;
    (*o->env)->SetByteArrayRegion(o->env, a, (jsize)off, (jsize)n, (const jbyte *)p);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "SetByteArrayRegion");
    return WEBCRYPTO_OK;
}

webcrypto_status jca_get_bytes(jca_op *o, jbyteArray a, size_t off, size_t n, uint8_t *p) {
    if (n == 0) return WEBCRYPTO_OK;
    (*o->env)->GetByteArrayRegion(o->env, a, (jsize)off, (jsize)n, (jbyte *)p);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "GetByteArrayRegion");
    return WEBCRYPTO_OK;
}

/* Data a Java engine keeps whole in one array before it uses it, however
 * it is fed: SunJCE's GCM buffers the additional data until the first
 * update, and EdDSA (SunEC, BC) and the JDK's ML-DSA keep the whole message.
 * Over 2^31 - 1 bytes they run the heap out after gigabytes and tens of
 * seconds, so the length is refused first, before any Java call. */
webcrypto_status jca_whole_fits(size_t n, const char *what) {
    if (n <= (size_t)INT32_MAX) return WEBCRYPTO_OK;
    return wc_error(WEBCRYPTO_ERR_OPERATION,
                    "jca: %zu bytes of %s do not fit a Java array (at most 2147483647 bytes)", n,
                    what);
}

/* A new local byte[] holding p[0..n). */
webcrypto_status jca_new_array(jca_op *o, const uint8_t *p, size_t n, jbyteArray *out) {
    if (n > (size_t)INT32_MAX)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca: %zu bytes do not fit a Java array (at most 2147483647 bytes)", n);
    jbyteArray a = (*o->env)->NewByteArray(o->env, (jsize)n);
    if ((*o->env)->ExceptionCheck(o->env) || !a) return jca_exception(o->env, "NewByteArray");
    if (p && n) {
        (*o->env)->SetByteArrayRegion(o->env, a, 0, (jsize)n, (const jbyte *)p);
        if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "SetByteArrayRegion");
    }
    *out = a;
    return WEBCRYPTO_OK;
}

/* Overwrites a Java array that held secret bytes (the copy the JVM may have
 * made elsewhere is beyond reach). */
void jca_zero_array(jca_op *o, jbyteArray a, size_t n) {
    static const jbyte zeros[4096];
    for (size_t off = 0; a && off < n; off += sizeof zeros) {
        size_t k = n - off < sizeof zeros ? n - off : sizeof zeros;
        (*o->env)->SetByteArrayRegion(o->env, a, (jsize)off, (jsize)k, zeros);
        if ((*o->env)->ExceptionCheck(o->env)) {
            (*o->env)->ExceptionClear(o->env); /* cannot fail for an array we sized */
            return;
        }
    }
}

/* Feeds in[0..len) to engine.m(byte[], int, int) in chunks (update,
 * updateAAD). */
webcrypto_status jca_feed(jca_op *o, jobject engine, jmethodID m, const uint8_t *in, size_t len,
                             const char *what) {
    while (len > 0) {
        size_t n = len < JCA_CHUNK ? len : JCA_CHUNK;
        webcrypto_status st = jca_put_in(o, in, n);
        if (st != WEBCRYPTO_OK) return st;
        (*o->env)->CallVoidMethod(o->env, engine, m, o->t->in_buf, 0, (jint)n);
        if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, what);
        in += n;
        len -= n;
    }
    return WEBCRYPTO_OK;
}

/* engine = Class.getInstance(name, provider): one per thread, or one per
 * context. */
webcrypto_status jca_get_instance(jca_op *o, jclass cls, jmethodID get, jmethodID get_p,
                                     jstring name, jobject provider, jobject *out) {
    jobject e = provider ? (*o->env)->CallStaticObjectMethod(o->env, cls, get_p, name, provider)
                         : (*o->env)->CallStaticObjectMethod(o->env, cls, get, name);
    if ((*o->env)->ExceptionCheck(o->env) || !e) return jca_exception(o->env, "getInstance");
    *out = e;
    return WEBCRYPTO_OK;
}

/* The same, kept as a global reference in *slot. */
webcrypto_status jca_cached_instance(jca_op *o, jclass cls, jmethodID get, jmethodID get_p,
                                        jstring name, jobject provider, jobject *slot) {
    if (*slot) return WEBCRYPTO_OK;
    jobject e = NULL;
    webcrypto_status st = jca_get_instance(o, cls, get, get_p, name, provider, &e);
    if (st != WEBCRYPTO_OK) return st;
    *slot = jca_global(o->env, e);
    (*o->env)->DeleteLocalRef(o->env, e);
    if (!*slot) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    return WEBCRYPTO_OK;
}

/* new SecretKeySpec(key, alg). An empty HMAC key becomes one zero byte,
 * which HMAC treats identically (keys are zero-padded to the block size),
 * because SecretKeySpec refuses empty keys. */
webcrypto_status jca_key_spec(jca_op *o, const uint8_t *key, size_t len, jstring alg,
                                 jobject *out) {
    static const uint8_t zero = 0;
    if (len == 0) {
        key = &zero;
        len = 1;
    }
    jbyteArray a = NULL;
    webcrypto_status st = jca_new_array(o, key, len, &a);
    if (st != WEBCRYPTO_OK) return st;
    jobject spec = (*o->env)->NewObject(o->env, jca.SecretKeySpec, jca.sks_new, a, alg);
    if ((*o->env)->ExceptionCheck(o->env) || !spec) st = jca_exception(o->env, "new SecretKeySpec");
    jca_zero_array(o, a, len);
    (*o->env)->DeleteLocalRef(o->env, a);
    if (st == WEBCRYPTO_OK) *out = spec;
    return st;
}

/* ---- init: providers, names and probes ---- */

jstring jca_global_string(jca_op *o, const char *s, webcrypto_status *st) {
    if (*st != WEBCRYPTO_OK || !s) return NULL;
    jstring l = (*o->env)->NewStringUTF(o->env, s);
    if ((*o->env)->ExceptionCheck(o->env) || !l) {
        *st = jca_exception(o->env, "NewStringUTF");
        return NULL;
    }
    jstring g = jca_global(o->env, l);
    (*o->env)->DeleteLocalRef(o->env, l);
    if (!g) *st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    return g;
}

static void jca_string_of(jca_op *o, jstring s, char *out, size_t cap) {
    snprintf(out, cap, "?");
    if (!s) return;
    const char *u = (*o->env)->GetStringUTFChars(o->env, s, NULL);
    if (!u) {
        (*o->env)->ExceptionClear(o->env);
        return;
    }
    snprintf(out, cap, "%s", u);
    (*o->env)->ReleaseStringUTFChars(o->env, s, u);
}

/* "NAME VERSION" of a provider. */
static void jca_provider_label(jca_op *o, jobject p, char *out, size_t cap) {
    char name[64] = "?", version[32] = "?";
    jstring s = (*o->env)->CallObjectMethod(o->env, p, jca.prov_name);
    if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
    else jca_string_of(o, s, name, sizeof name);
    s = (*o->env)->CallObjectMethod(o->env, p, jca.prov_version);
    if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
    else jca_string_of(o, s, version, sizeof version);
    snprintf(out, cap, "%s %s", name, version);
}

/* Which provider serves `name` for this variant: the named one (NULL if it
 * lacks it), or for "jca" the first of the JVM's order (asked through
 * getProvider(), which fixes the engine's choice). An absent algorithm is
 * not an error: its exception is mapped and dropped. */
jobject jca_probe_provider(jca_op *o, const jca_variant *v, jclass cls, jmethodID get,
                              jmethodID get_p, jmethodID get_provider, jstring name,
                              bool named_only) {
    jobject e = NULL;
    if (v->provider) {
        if (jca_get_instance(o, cls, get, get_p, name, v->provider, &e) == WEBCRYPTO_OK) {
            (*o->env)->DeleteLocalRef(o->env, e);
            return jca_global(o->env, v->provider);
        }
        if (named_only) return NULL;
    }
    if (jca_get_instance(o, cls, get, NULL, name, NULL, &e) != WEBCRYPTO_OK) return NULL;
    jobject p = (*o->env)->CallObjectMethod(o->env, e, get_provider);
    if ((*o->env)->ExceptionCheck(o->env) || !p) {
        jca_exception(o->env, "getProvider");
        return NULL;
    }
    jobject g = jca_global(o->env, p);
    (*o->env)->DeleteLocalRef(o->env, p);
    (*o->env)->DeleteLocalRef(o->env, e);
    return g;
}

/* RFC 8452 appendix C.1, AEAD_AES_128_GCM_SIV, the 8-byte plaintext case:
 * a provider that returns plain GCM under this name fails it. */
static bool siv_known_answer(jca_op *o, jca_variant *v) {
    static const uint8_t key[16] = {1};
    static const uint8_t nonce[12] = {3};
    static const uint8_t pt[8] = {1};
    static const uint8_t expect[24] = {0xb5, 0xd8, 0x39, 0x33, 0x0a, 0xc7, 0xb7, 0x86,
                                       0x57, 0x87, 0x82, 0xff, 0xf6, 0x01, 0x3b, 0x81,
                                       0x5b, 0x28, 0x7c, 0x22, 0x49, 0x3a, 0x36, 0x4c};
    uint8_t got[24];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL, in = NULL, out = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, v->siv_name, v->siv_prov, &c) ||
        jca_key_spec(o, key, sizeof key, v->aes_name, &spec) || jca_new_array(o, nonce, 12, &n) ||
        jca_new_array(o, pt, 8, &in) || jca_new_array(o, NULL, 24, &out))
        return false;
    params = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new, 128, n, 0, 12);
    JCHECK(o, "new GCMParameterSpec");
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, ENCRYPT_MODE, spec, params);
    JCHECK(o, "AES/GCM-SIV init");
    jint len = (*o->env)->CallIntMethod(o->env, c, jca.c_final, in, 0, 8, out, 0);
    JCHECK(o, "AES/GCM-SIV doFinal");
    if (len != 24 || jca_get_bytes(o, out, 0, 24, got) != WEBCRYPTO_OK) return false;
    return memcmp(got, expect, sizeof got) == 0;
done:
    (void)st;
    return false;
}

/* Whether GCM takes 32-bit tags (SunJCE allows only 96..128 bits). */
static bool gcm_short_tags(jca_op *o, jca_variant *v) {
    static const uint8_t key[16], iv[12];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, v->gcm_name, v->gcm_prov, &c) ||
        jca_key_spec(o, key, sizeof key, v->aes_name, &spec) || jca_new_array(o, iv, 12, &n))
        return false;
    params = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new, 32, n, 0, 12);
    JCHECK(o, "new GCMParameterSpec");
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, ENCRYPT_MODE, spec, params);
    JCHECK(o, "AES/GCM init with a 32-bit tag");
    return true;
done:
    (void)st;
    return false;
}

/* Whether the AEAD engine `name` buffers a decryption until doFinal (SunJCE's
 * GCM, so as to release nothing unauthenticated; GCM-SIV must): update() of
 * 64 bytes returns nothing. A streaming engine (BouncyCastle's GCM returns
 * all but a tag's length) keeps the chunked path and its flat memory. */
static bool dec_buffers(jca_op *o, jca_variant *v, wc_aead kind, jstring name, jobject prov) {
    static const uint8_t key[32], iv[12];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL, in = NULL, out = NULL;
    bool cc = kind == WC_AEAD_CHACHA20_POLY1305;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, name, prov, &c) ||
        jca_key_spec(o, key, cc ? 32 : 16, cc ? v->cc_key_name : v->aes_name, &spec) ||
        jca_new_array(o, iv, 12, &n) || jca_new_array(o, NULL, 64, &in) ||
        jca_new_array(o, NULL, 64 + JCA_OUT_SLACK, &out) ||
        jca_aead_spec(o, kind, n, 12, 16, &params))
        return false;
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, DECRYPT_MODE, spec, params);
    JCHECK(o, "AEAD init (decrypt)");
    jint got = (*o->env)->CallIntMethod(o->env, c, jca.c_update, in, 0, 64, out, 0);
    JCHECK(o, "AEAD update (decrypt)");
    (*o->env)->DeleteLocalRef(o->env, c);
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, params);
    (*o->env)->DeleteLocalRef(o->env, n);
    (*o->env)->DeleteLocalRef(o->env, in);
    (*o->env)->DeleteLocalRef(o->env, out);
    return got == 0;
done:
    (void)st;
    return false;
}

/* RFC 3394 section 4.1 (128-bit KEK, 128-bit key data) through the
 * provider's AESWrap in ENCRYPT_MODE (the raw-bytes interface WebCrypto's
 * wrapKey needs; SunJCE has it since JDK 17). */
static bool kw_known_answer(jca_op *o, jca_variant *v) {
    static const uint8_t kek[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const uint8_t data[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                     0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    static const uint8_t expect[24] = {0x1f, 0xa6, 0x8b, 0x0a, 0x81, 0x12, 0xb4, 0x47,
                                       0xae, 0xf3, 0x4b, 0xd8, 0xfb, 0x5a, 0x7b, 0x82,
                                       0x9d, 0x3e, 0x86, 0x23, 0x71, 0xd2, 0xcf, 0xe5};
    uint8_t got[24];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL;
    jbyteArray in = NULL, out = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, v->kw_name, v->kw_prov, &c) ||
        jca_key_spec(o, kek, sizeof kek, v->aes_name, &spec) || jca_new_array(o, data, 16, &in) ||
        jca_new_array(o, NULL, 32, &out))
        return false;
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, ENCRYPT_MODE, spec, NULL);
    JCHECK(o, "AESWrap init");
    jint len = (*o->env)->CallIntMethod(o->env, c, jca.c_final, in, 0, 16, out, 0);
    JCHECK(o, "AESWrap doFinal");
    if (len != 24 || jca_get_bytes(o, out, 0, 24, got) != WEBCRYPTO_OK) return false;
    return memcmp(got, expect, sizeof got) == 0;
done:
    (void)st;
    return false;
}

/* The key of the variant's key-bytes PRF (jca_siphash24), random per
 * process and variant, from the variant's SecureRandom. */
static webcrypto_status prf_key_draw(jca_op *o, jca_variant *v) {
    jbyteArray a = NULL;
    webcrypto_status st = jca_new_array(o, NULL, sizeof v->prf_key, &a);
    if (st != WEBCRYPTO_OK) return st;
    (*o->env)->CallVoidMethod(o->env, v->random, jca.sr_next, a);
    if ((*o->env)->ExceptionCheck(o->env)) st = jca_exception(o->env, "SecureRandom.nextBytes");
    else st = jca_get_bytes(o, a, 0, sizeof v->prf_key, v->prf_key);
    jca_zero_array(o, a, sizeof v->prf_key);
    (*o->env)->DeleteLocalRef(o->env, a);
    return st;
}

/* ---- providers a host hands over (webcrypto_jca_use_provider) ----
 * A name's entry holds the host's Provider (a global reference, kept for the
 * process's life) until the variant "jca:NAME" starts; from then on, and for
 * every other variant that started, the entry is marked started and the name
 * can no longer be given a provider (keys and engines already point at the
 * one in use). An init claims its name's entry for its duration, so a
 * provider handed over mid-init is refused rather than lost. */
#define HOST_PROVIDERS (2 * JCA_MAX_VARIANTS)
typedef struct host_provider {
    char name[64];
    jobject provider; /* global ref; NULL for a variant started without one */
    bool claimed;     /* an init of jca:NAME runs or has succeeded */
} host_provider;
static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_provider host_providers[HOST_PROVIDERS];

static host_provider *host_find_locked(const char *name) {
    for (int i = 0; i < HOST_PROVIDERS; i++)
        if (host_providers[i].name[0] && strcmp(host_providers[i].name, name) == 0)
            return &host_providers[i];
    return NULL;
}

static host_provider *host_add_locked(const char *name) {
    for (int i = 0; i < HOST_PROVIDERS; i++)
        if (!host_providers[i].name[0]) {
            snprintf(host_providers[i].name, sizeof host_providers[i].name, "%s", name);
            return &host_providers[i];
        }
    return NULL;
}

/* Claims `name` for an init: the host's Provider for it (owned by the
 * table) or NULL. *claimed tells whether an entry was claimed (a full table
 * of names never handed a provider is not an error: it only means those
 * names stop being guarded against a late webcrypto_jca_use_provider, which
 * then fails for lack of room anyway). */
static jobject host_claim(const char *name, bool *claimed) {
    pthread_mutex_lock(&host_lock);
    host_provider *h = host_find_locked(name);
    if (!h) h = host_add_locked(name);
    if (h) h->claimed = true;
    *claimed = h != NULL;
    jobject p = h ? h->provider : NULL;
    pthread_mutex_unlock(&host_lock);
    return p;
}

/* A failed init gives its claim back (the registry tries the name afresh
 * later, and the host may still hand a provider over for it). */
static void host_unclaim(const char *name) {
    pthread_mutex_lock(&host_lock);
    host_provider *h = host_find_locked(name);
    if (h) {
        h->claimed = false;
        if (!h->provider) h->name[0] = 0;
    }
    pthread_mutex_unlock(&host_lock);
}

webcrypto_status wc_jca_use_provider(const char *name, void *provider) {
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof host_providers[0].name)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "jca_use_provider: the variant name must have 1 to %zu characters",
                        sizeof host_providers[0].name - 1);
    if (jca_in_forked_child()) return jca_forked_error();
    /* The running backend's JVM, else the one the host handed over. */
    JavaVM *vm = jca_started_vm();
    if (!vm) vm = wc_host_java_vm();
    if (!vm)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca_use_provider: no JVM known yet: call webcrypto_jca_set_java_vm first");
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JCA_JNI_VERSION) != JNI_OK || !env)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca_use_provider: the calling thread is not attached to the JVM");
    /* java.security.Provider is a JDK class: any thread's FindClass sees it. */
    jclass pc = (*env)->FindClass(env, "java/security/Provider");
    if ((*env)->ExceptionCheck(env) || !pc) return jca_exception(env, "FindClass Provider");
    jboolean is_provider = (*env)->IsInstanceOf(env, (jobject)provider, pc);
    (*env)->DeleteLocalRef(env, pc);
    if (!is_provider)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "jca_use_provider: the object is not a java.security.Provider");
    jobject g = jca_global(env, (jobject)provider);
    if (!g) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    webcrypto_status st = WEBCRYPTO_OK;
    jobject old = NULL;
    pthread_mutex_lock(&host_lock);
    host_provider *h = host_find_locked(name);
    if (h && h->claimed)
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "jca_use_provider: jca:%s has already started (hand its provider over "
                      "before its first use)", name);
    else if (!h && !(h = host_add_locked(name)))
        st = wc_error(WEBCRYPTO_ERR_OPERATION,
                      "jca_use_provider: at most %d variant names", HOST_PROVIDERS);
    if (st == WEBCRYPTO_OK) {
        old = h->provider; /* handed over again before use: the newer one counts */
        h->provider = g;
    }
    pthread_mutex_unlock(&host_lock);
    jca_global_free(env, st == WEBCRYPTO_OK ? old : g);
    return st;
}

static webcrypto_status variant_setup(jca_op *o, jca_variant *v, const char *variant, wc_caps *caps) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject host = NULL;
    if (variant) {
        bool claimed = false;
        host = host_claim(variant, &claimed);
        v->host_claimed = claimed;
    }
    if (host) {
        /* The host's own instance: never looked up by name, so a provider
         * only its class loader can see (an app's bundled BouncyCastle or
         * Conscrypt on Android) works on every thread. */
        v->provider = jca_global(o->env, host);
        if (!v->provider) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    } else if (variant) {
        jstring pname = jca_global_string(o, variant, &st);
        if (st != WEBCRYPTO_OK) return st;
        jobject p = (*o->env)->CallStaticObjectMethod(o->env, jca.Security, jca.sec_get_provider,
                                                      pname);
        if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "Security.getProvider");
        if (!p && strcmp(variant, "BC") == 0) {
            /* Not registered: made from the class path, used without being
             * added to the JVM's list. */
            jclass cls = (*o->env)->FindClass(o->env, "org/bouncycastle/jce/provider/BouncyCastleProvider");
            if ((*o->env)->ExceptionCheck(o->env) || !cls) {
                jca_exception(o->env, "FindClass");
                return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                                "jca: provider BC is not available: BouncyCastle is not on the "
                                "class path (set WEBCRYPTO_JCA_CLASSPATH to bcprov.jar)");
            }
            jmethodID ctor = (*o->env)->GetMethodID(o->env, cls, "<init>", "()V");
            if ((*o->env)->ExceptionCheck(o->env) || !ctor)
                return jca_exception(o->env, "BouncyCastleProvider()");
            p = (*o->env)->NewObject(o->env, cls, ctor);
            if ((*o->env)->ExceptionCheck(o->env) || !p)
                return jca_exception(o->env, "new BouncyCastleProvider");
        }
        jca_global_free(o->env, pname);
        if (!p)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "jca: provider %s is not available: no JCA provider of that name",
                            variant);
        v->provider = jca_global(o->env, p);
        if (!v->provider) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    }
    for (int h = 0; h < JCA_N_HASH; h++) {
        v->md_name[h] = jca_global_string(o, md_names[h], &st);
        v->mac_name[h] = jca_global_string(o, mac_names[h], &st);
        v->pbkdf2_name[h] = jca_global_string(o, pbkdf2_names[h], &st);
        v->kdf_name[h] = jca_global_string(o, kdf_names[h], &st);
    }
    v->cbc_name = jca_global_string(o, "AES/CBC/NoPadding", &st);
    v->ctr_name = jca_global_string(o, "AES/CTR/NoPadding", &st);
    v->gcm_name = jca_global_string(o, "AES/GCM/NoPadding", &st);
    v->siv_name = jca_global_string(o, "AES/GCM-SIV/NoPadding", &st);
    v->cc_name = jca_global_string(o, "ChaCha20-Poly1305", &st);
    v->cc_key_name = jca_global_string(o, "ChaCha20", &st);
    v->ocb_name = jca_global_string(o, "AES/OCB/NoPadding", &st);
    v->aes_name = jca_global_string(o, "AES", &st);
    v->kw_name = jca_global_string(o, "AESWrap", &st);
    v->kmac_name[WC_KMAC_128] = jca_global_string(o, "KMAC128", &st);
    v->kmac_name[WC_KMAC_256] = jca_global_string(o, "KMAC256", &st);
    v->shake_name[WC_XOF_CSHAKE128] = jca_global_string(o, "SHAKE128-256", &st);
    v->shake_name[WC_XOF_CSHAKE256] = jca_global_string(o, "SHAKE256-512", &st);
    if (st != WEBCRYPTO_OK) return st;

    wc_caps c = {{0}, 0};
    bool any_mac = false, any_pbkdf2 = false;
    char md_from[64] = "";
    for (int h = 0; h < JCA_N_HASH; h++) {
        v->md_prov[h] = jca_probe_provider(o, v, jca.MessageDigest, jca.md_get, jca.md_get_p,
                                       jca.md_provider, v->md_name[h], false);
        v->mac_prov[h] = jca_probe_provider(o, v, jca.Mac, jca.mac_get, jca.mac_get_p,
                                        jca.mac_provider, v->mac_name[h], true);
        v->pbkdf2_prov[h] = jca_probe_provider(o, v, jca.SecretKeyFactory, jca.skf_get,
                                           jca.skf_get_p, jca.skf_provider, v->pbkdf2_name[h],
                                           true);
        if (v->md_prov[h]) {
            wc_caps_add(&c, wc_hash_algorithm((wc_hash)h));
            if (v->provider && !(*o->env)->IsSameObject(o->env, v->md_prov[h], v->provider) &&
                !md_from[0])
                jca_provider_label(o, v->md_prov[h], md_from, sizeof md_from);
        }
        any_mac = any_mac || v->mac_prov[h];
        any_pbkdf2 = any_pbkdf2 || v->pbkdf2_prov[h];
        if (jca.kdf_get) {
            /* javax.crypto.KDF (JDK 25+): kept only as "has it"; KDF
             * instances are made per call. */
            jobject k = NULL;
            if (jca_get_instance(o, jca.KDF, jca.kdf_get, jca.kdf_get_p, v->kdf_name[h], v->provider,
                             &k) == WEBCRYPTO_OK) {
                v->kdf_prov[h] = v->provider ? jca_global(o->env, v->provider) : NULL;
                v->have_kdf[h] = true;
                (*o->env)->DeleteLocalRef(o->env, k);
            }
        }
    }
    v->cbc_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                 v->cbc_name, true);
    v->ctr_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                 v->ctr_name, true);
    v->gcm_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                 v->gcm_name, true);
    v->siv_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                 v->siv_name, true);
    bool siv_ok = v->siv_prov && siv_known_answer(o, v);
    if (v->siv_prov && !siv_ok) {
        jca_global_free(o->env, v->siv_prov);
        v->siv_prov = NULL;
    }
    if (v->gcm_prov) v->gcm_short_tags = gcm_short_tags(o, v);
    if (v->gcm_prov) v->gcm_dec_whole = dec_buffers(o, v, WC_AEAD_AES_GCM, v->gcm_name, v->gcm_prov);
    if (siv_ok) v->siv_dec_whole = dec_buffers(o, v, WC_AEAD_AES_GCM_SIV, v->siv_name, v->siv_prov);
    v->cc_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                    v->cc_name, true);
    v->ocb_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                     v->ocb_name, true);
    if (v->cc_prov)
        v->cc_dec_whole = dec_buffers(o, v, WC_AEAD_CHACHA20_POLY1305, v->cc_name, v->cc_prov);
    if (v->ocb_prov) v->ocb_dec_whole = dec_buffers(o, v, WC_AEAD_AES_OCB, v->ocb_name, v->ocb_prov);
    v->kw_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                    v->kw_name, true);
    bool kw_ok = v->kw_prov && kw_known_answer(o, v);
    if (v->kw_prov && !kw_ok) {
        jca_global_free(o->env, v->kw_prov);
        v->kw_prov = NULL;
    }

    jobject r = (*o->env)->NewObject(o->env, jca.SecureRandom, jca.sr_new);
    if ((*o->env)->ExceptionCheck(o->env) || !r) return jca_exception(o->env, "new SecureRandom");
    v->random = jca_global(o->env, r);
    if (!v->random) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    if ((st = prf_key_draw(o, v)) != WEBCRYPTO_OK) return st;

    /* HMAC, HKDF and PBKDF2 need the digest caps (the core checks hashes
     * against them); a hash whose Mac is missing is refused per key. */
    if (any_mac) wc_caps_add_all(&c, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_HKDF);
    /* SHA-3 with HMAC, HKDF and PBKDF2: all three rest on Mac HmacSHA3-*
     * (PBKDF2 falls back to it for the inputs its factory cannot take). */
    if (v->mac_prov[WC_HASH_SHA3_256] && v->mac_prov[WC_HASH_SHA3_384] &&
        v->mac_prov[WC_HASH_SHA3_512])
        c.features |= WC_CAP_SHA3_HMAC | WC_CAP_SHA3_HKDF | WC_CAP_SHA3_PBKDF2;
    if (any_mac || any_pbkdf2) wc_caps_add(&c, WEBCRYPTO_ALG_PBKDF2);
    if (v->cbc_prov) wc_caps_add(&c, WEBCRYPTO_ALG_AES_CBC);
    if (v->ctr_prov) wc_caps_add(&c, WEBCRYPTO_ALG_AES_CTR);
    if (v->gcm_prov) wc_caps_add(&c, WEBCRYPTO_ALG_AES_GCM);
    if (siv_ok) wc_caps_add(&c, WEBCRYPTO_ALG_AES_GCM_SIV);
    if (v->cc_prov) wc_caps_add(&c, WEBCRYPTO_ALG_CHACHA20_POLY1305);
    if (v->ocb_prov) wc_caps_add(&c, WEBCRYPTO_ALG_AES_OCB);
    if (kw_ok) wc_caps_add(&c, WEBCRYPTO_ALG_AES_KW);
    jca_sp800185_setup(o, v, &c);
    if ((st = jca_pkey_setup(o, v, &c)) != WEBCRYPTO_OK) return st;
    if (wc_caps_no_alg(&c))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: the provider offers nothing usable");

    char prov[96] = "the JVM's providers";
    if (v->provider) jca_provider_label(o, v->provider, prov, sizeof prov);
    if (host) snprintf(prov + strlen(prov), sizeof prov - strlen(prov), " (the host's instance)");
    bool kdf = false;
    for (int h = 0; h < JCA_N_HASH; h++) kdf = kdf || v->have_kdf[h];
    snprintf(v->description, sizeof v->description, "JCA via JNI: %s%s%s%s; %s%s", prov,
             md_from[0] ? " (digests from " : "", md_from, md_from[0] ? ")" : "",
             jca_java_description(), kdf ? "; HKDF through javax.crypto.KDF" : "");
    *caps = c;
    return WEBCRYPTO_OK;
}

/* Deletes every global reference variant_setup made and frees v: a variant
 * whose init failed (the registry never retries, but a host may init other
 * variants, e.g. after a bad name, for as long as it runs). */
static void variant_free(jca_op *o, jca_variant *v) {
    JNIEnv *env = o->env;
    jca_thread_engines_reset(o->t, v->index);
    jca_pkey_variant_free(env, &v->pk);
    for (int h = 0; h < JCA_N_HASH; h++) {
        jobject refs[] = {v->md_prov[h],   v->mac_prov[h],  v->pbkdf2_prov[h], v->kdf_prov[h],
                          v->md_name[h],   v->mac_name[h],  v->pbkdf2_name[h], v->kdf_name[h]};
        for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) jca_global_free(env, refs[i]);
    }
    jobject refs[] = {v->provider, v->cbc_prov, v->ctr_prov, v->gcm_prov, v->siv_prov,
                      v->cbc_name, v->ctr_name, v->gcm_name, v->siv_name, v->aes_name,
                      v->random,   v->kw_prov,  v->kw_name, v->cc_prov, v->ocb_prov,
                      v->cc_name,  v->ocb_name, v->cc_key_name};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) jca_global_free(env, refs[i]);
    for (int k = 0; k < WC_KMAC_COUNT; k++) {
        jca_global_free(env, v->kmac_prov[k]);
        jca_global_free(env, v->kmac_name[k]);
    }
    for (int x = 0; x < WC_XOF_COUNT; x++) {
        jca_global_free(env, v->shake_prov[x]);
        jca_global_free(env, v->shake_name[x]);
    }
    wc_wipe(v->prf_key, sizeof v->prf_key);
    free(v);
}

static webcrypto_status jca_init(const char *variant, void **bctx, wc_caps *caps,
                                 const char **description) {
    webcrypto_status st = jca_jvm_start();
    if (st != WEBCRYPTO_OK) return st;
    if (variant_count == JCA_MAX_VARIANTS)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: at most %d variants", JCA_MAX_VARIANTS);
    jca_variant *v = calloc(1, sizeof *v);
    if (!v) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    v->index = variant_count;
    snprintf(v->label, sizeof v->label, "jca%s%s", variant ? ":" : "", variant ? variant : "");
    jca_op o;
    st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) {
        free(v);
        return st;
    }
    /* Probing makes more local references than one frame of JCA_FRAME. */
    if ((*o.env)->EnsureLocalCapacity(o.env, 256) != 0) st = jca_exception(o.env, "EnsureLocalCapacity");
    if (st == WEBCRYPTO_OK) st = variant_setup(&o, v, variant, caps);
    st = jca_op_end(&o, st);
    if (st != WEBCRYPTO_OK) {
        if (v->host_claimed) host_unclaim(variant);
        variant_free(&o, v);
        return st;
    }
    variants[variant_count++] = v;
    *bctx = v;
    *description = v->description;
    return WEBCRYPTO_OK;
}

/* ---- random ---- */

static webcrypto_status jca_random_bytes(const void *bctx, uint8_t *out, size_t len) {
    const jca_variant *v = bctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jbyteArray a = NULL;
    st = jca_new_array(&o, NULL, len, &a);
    if (st == WEBCRYPTO_OK) {
        (*o.env)->CallVoidMethod(o.env, v->random, jca.sr_next, a);
        JCHECK(&o, "SecureRandom.nextBytes");
        st = jca_get_bytes(&o, a, 0, len, out);
        jca_zero_array(&o, a, len);
    }
done:
    return jca_op_end(&o, st);
}

/* ---- debug counters (jca_debug.h) ---- */

bool wc_jca_debug_get(wc_jca_debug_stats *out) {
    if (!jca_vm || variant_count == 0) return false;
    jca_thread *t = jca_thread_get();
    if (!t) return false;
    out->global_refs = atomic_load(&jca_stat_globals);
    out->unbalanced_frames = atomic_load(&jca_stat_unbalanced);
    out->pending_exceptions = atomic_load(&jca_stat_pending);
    out->frame_depth = t->frame_depth;
    out->exception_pending = (*t->env)->ExceptionCheck(t->env) == JNI_TRUE;
    return true;
}

const wc_backend_ops wc_backend_jca = {
    .name = "jca",
    .init = jca_init,
    .random_bytes = jca_random_bytes,
    .digest = jca_digest,
    .digest_new = jca_digest_new,
    .digest_update = jca_digest_update,
    .digest_final = jca_digest_final,
    .digest_free = jca_digest_free,
    .secret_key_new = jca_secret_key_new,
    .secret_key_free = jca_secret_key_free,
    .hmac = jca_hmac,
    .hmac_new = jca_hmac_new,
    .hmac_update = jca_hmac_update,
    .hmac_final = jca_hmac_final,
    .hmac_free = jca_hmac_free,
    .cipher = jca_cipher,
    .aead_seal = jca_aead_seal,
    .aead_open = jca_aead_open,
    .aes_kw_wrap = jca_kw_wrap,
    .aes_kw_unwrap = jca_kw_unwrap,
    .pkey_import = jca_pkey_import,
    .pkey_generate = jca_pkey_generate,
    .pkey_fields = jca_pkey_fields,
    .pkey_private_fields = jca_pkey_private_fields,
    .pkey_free = jca_pkey_free,
    .rsa_sign = jca_rsa_sign,
    .rsa_verify = jca_rsa_verify,
    .rsa_oaep_encrypt = jca_rsa_oaep_encrypt,
    .rsa_oaep_decrypt = jca_rsa_oaep_decrypt,
    .ecdsa_sign = jca_ecdsa_sign,
    .ecdsa_verify = jca_ecdsa_verify,
    .ecdh = jca_ecdh,
    .ml_kem_encapsulate = jca_ml_kem_encapsulate,
    .ml_kem_decapsulate = jca_ml_kem_decapsulate,
    .ml_dsa_sign = jca_ml_dsa_sign,
    .ml_dsa_verify = jca_ml_dsa_verify,
    .okp_sign = jca_okp_sign,
    .okp_verify = jca_okp_verify,
    .okp_derive = jca_okp_derive,
    .hkdf = jca_hkdf,
    .pbkdf2 = jca_pbkdf2,
    .xof = jca_xof,
    .kmac = jca_kmac,
};
