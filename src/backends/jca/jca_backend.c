/*
 * jca_backend.c - the "jca" backend: the Java Cryptography Architecture
 * through JNI (jca_jvm.c loads and joins the JVM).
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

enum { ENCRYPT_MODE = 1, DECRYPT_MODE = 2 }; /* javax.crypto.Cipher */

static jca_variant *variants[JCA_MAX_VARIANTS];
static int variant_count;
static atomic_uint_fast64_t next_key_id = 1;

static const char *const md_names[JCA_N_HASH] = {NULL, "SHA-1", "SHA-256", "SHA-384", "SHA-512"};
static const char *const mac_names[JCA_N_HASH] = {NULL, "HmacSHA1", "HmacSHA256", "HmacSHA384",
                                                  "HmacSHA512"};
static const char *const pbkdf2_names[JCA_N_HASH] = {NULL, "PBKDF2WithHmacSHA1",
                                                     "PBKDF2WithHmacSHA256", "PBKDF2WithHmacSHA384",
                                                     "PBKDF2WithHmacSHA512"};
static const char *const kdf_names[JCA_N_HASH] = {NULL, "HKDF-SHA1", "HKDF-SHA256", "HKDF-SHA384",
                                                  "HKDF-SHA512"};
static const size_t md_sizes[JCA_N_HASH] = {0, 20, 32, 48, 64};

static bool hash_ok(webcrypto_algorithm h) {
    return h >= WEBCRYPTO_ALG_SHA_1 && h <= WEBCRYPTO_ALG_SHA_512;
}

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
static bool dec_buffers(jca_op *o, jca_variant *v, jstring name, jobject prov) {
    static const uint8_t key[16], iv[12];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL, in = NULL, out = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, name, prov, &c) ||
        jca_key_spec(o, key, sizeof key, v->aes_name, &spec) || jca_new_array(o, iv, 12, &n) ||
        jca_new_array(o, NULL, 64, &in) || jca_new_array(o, NULL, 64 + JCA_OUT_SLACK, &out))
        return false;
    params = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new, 128, n, 0, 12);
    JCHECK(o, "new GCMParameterSpec");
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

static webcrypto_status variant_setup(jca_op *o, jca_variant *v, const char *variant, uint64_t *caps) {
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
    for (int h = 1; h < JCA_N_HASH; h++) {
        v->md_name[h] = jca_global_string(o, md_names[h], &st);
        v->mac_name[h] = jca_global_string(o, mac_names[h], &st);
        v->pbkdf2_name[h] = jca_global_string(o, pbkdf2_names[h], &st);
        v->kdf_name[h] = jca_global_string(o, kdf_names[h], &st);
    }
    v->cbc_name = jca_global_string(o, "AES/CBC/NoPadding", &st);
    v->ctr_name = jca_global_string(o, "AES/CTR/NoPadding", &st);
    v->gcm_name = jca_global_string(o, "AES/GCM/NoPadding", &st);
    v->siv_name = jca_global_string(o, "AES/GCM-SIV/NoPadding", &st);
    v->aes_name = jca_global_string(o, "AES", &st);
    v->kw_name = jca_global_string(o, "AESWrap", &st);
    if (st != WEBCRYPTO_OK) return st;

    uint64_t c = 0;
    bool any_mac = false, any_pbkdf2 = false;
    char md_from[64] = "";
    for (int h = 1; h < JCA_N_HASH; h++) {
        v->md_prov[h] = jca_probe_provider(o, v, jca.MessageDigest, jca.md_get, jca.md_get_p,
                                       jca.md_provider, v->md_name[h], false);
        v->mac_prov[h] = jca_probe_provider(o, v, jca.Mac, jca.mac_get, jca.mac_get_p,
                                        jca.mac_provider, v->mac_name[h], true);
        v->pbkdf2_prov[h] = jca_probe_provider(o, v, jca.SecretKeyFactory, jca.skf_get,
                                           jca.skf_get_p, jca.skf_provider, v->pbkdf2_name[h],
                                           true);
        if (v->md_prov[h]) {
            c |= WC_CAP(h);
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
    if (v->gcm_prov) v->gcm_dec_whole = dec_buffers(o, v, v->gcm_name, v->gcm_prov);
    if (siv_ok) v->siv_dec_whole = dec_buffers(o, v, v->siv_name, v->siv_prov);
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
    if (any_mac) c |= WC_CAP(WEBCRYPTO_ALG_HMAC) | WC_CAP(WEBCRYPTO_ALG_HKDF);
    if (any_mac || any_pbkdf2) c |= WC_CAP(WEBCRYPTO_ALG_PBKDF2);
    if (v->cbc_prov) c |= WC_CAP(WEBCRYPTO_ALG_AES_CBC);
    if (v->ctr_prov) c |= WC_CAP(WEBCRYPTO_ALG_AES_CTR);
    if (v->gcm_prov) c |= WC_CAP(WEBCRYPTO_ALG_AES_GCM);
    if (siv_ok) c |= WC_CAP(WEBCRYPTO_ALG_AES_GCM_SIV);
    if (kw_ok) c |= WC_CAP(WEBCRYPTO_ALG_AES_KW);
    if ((st = jca_pkey_setup(o, v, &c)) != WEBCRYPTO_OK) return st;
    if (c == 0) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: the provider offers nothing usable");

    char prov[96] = "the JVM's providers";
    if (v->provider) jca_provider_label(o, v->provider, prov, sizeof prov);
    if (host) snprintf(prov + strlen(prov), sizeof prov - strlen(prov), " (the host's instance)");
    bool kdf = false;
    for (int h = 1; h < JCA_N_HASH; h++) kdf = kdf || v->have_kdf[h];
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
                      v->random,   v->kw_prov,  v->kw_name};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) jca_global_free(env, refs[i]);
    wc_wipe(v->prf_key, sizeof v->prf_key);
    free(v);
}

static webcrypto_status jca_init(const char *variant, void **bctx, uint64_t *caps,
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

/* ---- digest ---- */

/* md.digest(out_buf, 0, size) and the copy out. */
static webcrypto_status md_finish(jca_op *o, jobject md, webcrypto_algorithm hash, uint8_t *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    jint n = (*o->env)->CallIntMethod(o->env, md, jca.md_digest, o->t->out_buf, 0,
                                      (jint)md_sizes[hash]);
    JCHECK(o, "MessageDigest.digest");
    if ((size_t)n != md_sizes[hash])
        return wc_error(WEBCRYPTO_ERR_OPERATION, "jca: digest of %d bytes, expected %zu", (int)n,
                        md_sizes[hash]);
    st = jca_get_bytes(o, o->t->out_buf, 0, md_sizes[hash], out);
done:
    return st;
}

static webcrypto_status jca_digest(const void *bctx, webcrypto_algorithm hash, const uint8_t *in,
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
    webcrypto_algorithm hash;
    jobject md; /* global: contexts may move between threads */
} md_ctx;

static webcrypto_status jca_digest_new(const void *bctx, webcrypto_algorithm hash, void **ctx) {
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

static webcrypto_status jca_digest_update(void *ctx, const uint8_t *in, size_t len) {
    md_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = jca_feed(&o, c->md, jca.md_update, in, len, "MessageDigest.update");
    return jca_op_end(&o, st);
}

static webcrypto_status jca_digest_final(void *ctx, uint8_t *out) {
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

static void jca_digest_free(void *ctx) {
    md_ctx *c = ctx;
    if (!c) return;
    jca_engine_release(c->md);
    free(c);
}

/* ---- secret keys ---- */

/* SipHash-2-4 (Aumasson and Bernstein, 2012): a PRF of p under the
 * variant's random key. aead_init must tell whether two inits use the same
 * key BYTES (see there), and what it keeps of a key outlives the key in
 * per-thread state; under a key that stays inside the process, the value
 * tells nothing about the key bytes (an unkeyed hash like FNV-1a would let
 * anyone who reads it test or recover them). A collision only costs one
 * extra init. */
#define SIP_ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIP_ROUND(v0, v1, v2, v3)                                                        \
    do {                                                                                \
        v0 += v1; v1 = SIP_ROTL(v1, 13); v1 ^= v0; v0 = SIP_ROTL(v0, 32);               \
        v2 += v3; v3 = SIP_ROTL(v3, 16); v3 ^= v2;                                      \
        v0 += v3; v3 = SIP_ROTL(v3, 21); v3 ^= v0;                                      \
        v2 += v1; v1 = SIP_ROTL(v1, 17); v1 ^= v2; v2 = SIP_ROTL(v2, 32);               \
    } while (0)

static uint64_t sip_le64(const uint8_t *p) {
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}

uint64_t jca_siphash24(const uint8_t key[16], const uint8_t *p, size_t len) {
    uint64_t k0 = sip_le64(key), k1 = sip_le64(key + 8);
    uint64_t v0 = k0 ^ UINT64_C(0x736f6d6570736575), v1 = k1 ^ UINT64_C(0x646f72616e646f6d),
             v2 = k0 ^ UINT64_C(0x6c7967656e657261), v3 = k1 ^ UINT64_C(0x7465646279746573);
    uint64_t b = (uint64_t)len << 56;
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t m = sip_le64(p);
        v3 ^= m;
        SIP_ROUND(v0, v1, v2, v3);
        SIP_ROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    for (size_t i = 0; i < len; i++) b |= (uint64_t)p[i] << (8 * i);
    v3 ^= b;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= b;
    v2 ^= 0xff;
    for (int i = 0; i < 4; i++) SIP_ROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

typedef struct jca_key {
    webcrypto_algorithm alg, hash;
    uint64_t id; /* never reused: the per-thread Mac cache is keyed by it */
    /* PRF of the key bytes (jca_siphash24 under v->prf_key), not a per-key
     * counter: SunJCE refuses an encryption init repeating the key and IV
     * of its last one by comparing key BYTES, so two key objects with
     * equal bytes must get equal ids for aead_init to see the repeat. */
    uint64_t bytes_id;
    const jca_variant *v;
    jobject spec; /* SecretKeySpec, global */
} jca_key;

static webcrypto_status jca_secret_key_new(const void *bctx, webcrypto_algorithm alg,
                                           webcrypto_algorithm hash, const uint8_t *key,
                                           size_t key_len, void **state) {
    const jca_variant *v = bctx;
    jstring name;
    switch (alg) {
    case WEBCRYPTO_ALG_HKDF:
    case WEBCRYPTO_ALG_PBKDF2:
        /* The KDFs take the raw key from the core on every call. */
        *state = NULL;
        return WEBCRYPTO_OK;
    case WEBCRYPTO_ALG_HMAC:
        if (!hash_ok(hash) || !v->mac_prov[hash])
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no Hmac%s", v->label,
                            webcrypto_algorithm_name(hash) ? webcrypto_algorithm_name(hash) : "?");
        name = v->mac_name[hash];
        break;
    case WEBCRYPTO_ALG_AES_CBC:
    case WEBCRYPTO_ALG_AES_CTR:
    case WEBCRYPTO_ALG_AES_GCM:
    case WEBCRYPTO_ALG_AES_GCM_SIV:
    case WEBCRYPTO_ALG_AES_KW: name = v->aes_name; break;
    default:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no secret keys for %s",
                        webcrypto_algorithm_name(alg) ? webcrypto_algorithm_name(alg) : "?");
    }
    jca_key *k = calloc(1, sizeof *k);
    if (!k) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    k->alg = alg;
    k->hash = hash;
    k->v = v;
    k->id = atomic_fetch_add_explicit(&next_key_id, 1, memory_order_relaxed);
    k->bytes_id = jca_siphash24(v->prf_key, key, key_len) | 1; /* never 0: "nothing recorded" */
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) {
        free(k);
        return st;
    }
    jobject spec = NULL;
    st = jca_key_spec(&o, key, key_len, name, &spec);
    if (st == WEBCRYPTO_OK) {
        k->spec = jca_global(o.env, spec);
        if (!k->spec) st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    }
    st = jca_op_end(&o, st);
    if (st != WEBCRYPTO_OK) {
        free(k);
        return st;
    }
    *state = k;
    return WEBCRYPTO_OK;
}

/* The SecretKeySpec in the Java heap cannot be wiped (it makes its own copy,
 * and the collector may have moved it); it becomes garbage here. Threads'
 * Macs keyed with it are re-keyed when their slot is reused. */
static void jca_secret_key_free(void *state) {
    jca_key *k = state;
    if (!k) return;
    jca_engine_release(k->spec);
    wc_wipe(k, sizeof *k);
    free(k);
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
static webcrypto_status mac_finish(jca_op *o, jobject mac, size_t size, uint8_t *out) {
    (*o->env)->CallVoidMethod(o->env, mac, jca.mac_final, o->t->out_buf, 0);
    if ((*o->env)->ExceptionCheck(o->env)) return jca_exception(o->env, "Mac.doFinal");
    return jca_get_bytes(o, o->t->out_buf, 0, size, out);
}

static webcrypto_status jca_hmac(const void *key_state, const uint8_t *in, size_t len,
                                 uint8_t *out) {
    const jca_key *k = key_state;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *mac = NULL;
    st = mac_for_key(&o, k, &mac);
    if (st == WEBCRYPTO_OK) {
        st = jca_feed(&o, *mac, jca.mac_update, in, len, "Mac.update");
        if (st == WEBCRYPTO_OK) st = mac_finish(&o, *mac, md_sizes[k->hash], out);
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

static webcrypto_status jca_hmac_new(const void *key_state, void **ctx) {
    const jca_key *k = key_state;
    mac_ctx *c = calloc(1, sizeof *c);
    if (!c) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    c->size = md_sizes[k->hash];
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

static webcrypto_status jca_hmac_update(void *ctx, const uint8_t *in, size_t len) {
    mac_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = jca_feed(&o, c->mac, jca.mac_update, in, len, "Mac.update");
    return jca_op_end(&o, st);
}

static webcrypto_status jca_hmac_final(void *ctx, uint8_t *out) {
    mac_ctx *c = ctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    st = mac_finish(&o, c->mac, c->size, out);
    return jca_op_end(&o, st);
}

static void jca_hmac_free(void *ctx) {
    mac_ctx *c = ctx;
    if (!c) return;
    jca_engine_release(c->mac);
    free(c);
}

/* ---- ciphers ---- */

/* Where a cipher's output goes: the first out_len bytes to out, the next
 * tail_len to tail (a tag); a NULL pointer discards that part. */
typedef struct sink {
    uint8_t *out;
    size_t out_len;
    uint8_t *tail;
    size_t tail_len;
    size_t pos;
} sink;

static webcrypto_status sink_put(jca_op *o, sink *s, jbyteArray a, jint got) {
    size_t total = s->out_len + s->tail_len;
    if (got < 0 || (size_t)got > total - s->pos)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca: the provider returned %d bytes where at most %zu remain", (int)got,
                        total - s->pos);
    size_t n = (size_t)got, off = 0;
    if (s->pos < s->out_len) {
        size_t k = s->out_len - s->pos < n ? s->out_len - s->pos : n;
        if (s->out) {
            webcrypto_status st = jca_get_bytes(o, a, 0, k, s->out + s->pos);
            if (st != WEBCRYPTO_OK) return st;
        }
        s->pos += k;
        off = k;
    }
    if (off < n) {
        if (s->tail) {
            webcrypto_status st = jca_get_bytes(o, a, off, n - off, s->tail + (s->pos - s->out_len));
            if (st != WEBCRYPTO_OK) return st;
        }
        s->pos += n - off;
    }
    return WEBCRYPTO_OK;
}

/* Runs in[0..len) through an initialised cipher until the sink has exactly
 * its bytes: update() over chunks, then (if `final`, or if output is still
 * missing) doFinal over final_in alone (the tag when decrypting). Every
 * size takes the same Java path on purpose: SunJCE's GCM is fast only once
 * the JIT has compiled the path in use (its AES/GHASH intrinsics), and a
 * separate doFinal(data) path for small messages left the update path cold
 * for large ones (1 MiB: 14-20 ms instead of 0.3 ms, measured on JDK 17).
 * Input is read before the output that replaces it is written, so out may
 * equal in. */
static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }
static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

static webcrypto_status cipher_run(jca_op *o, jobject c, const uint8_t *in, size_t len,
                                   const uint8_t *final_in, size_t final_len, bool final,
                                   sink *s) {
    const size_t out_cap = JCA_CHUNK + JCA_OUT_SLACK;
    webcrypto_status st = WEBCRYPTO_OK;
    size_t total = s->out_len + s->tail_len;
    /* One side of the arrays holds plaintext (which side, CTR does not
     * tell), so the prefixes this call used of both are wiped on every
     * exit. A call that throws may have written output first: the bound is
     * what a call can write (its input plus what a mode holds back, at most
     * JCA_OUT_SLACK), not what it returned. */
    size_t in_used = 0, out_used = 0;
    jbyteArray outa = NULL;
    size_t outa_len = 0; /* the size of a local outa */
    while (len > 0) {
        size_t n = len < JCA_CHUNK ? len : JCA_CHUNK;
        in_used = max_size(in_used, n);
        out_used = max_size(out_used, min_size(n + JCA_OUT_SLACK, out_cap));
        if ((st = jca_put_in(o, in, n)) != WEBCRYPTO_OK) goto done;
        jint got = (*o->env)->CallIntMethod(o->env, c, jca.c_update, o->t->in_buf, 0, (jint)n,
                                            o->t->out_buf, 0);
        JCHECK(o, "Cipher.update");
        if (got > 0) out_used = max_size(out_used, min_size((size_t)got, out_cap));
        if ((st = sink_put(o, s, o->t->out_buf, got)) != WEBCRYPTO_OK) goto done;
        in += n;
        len -= n;
    }
    if (final || s->pos < total) {
        /* Providers that buffer the whole message and were not given it in
         * one doFinal (GCM-SIV encryption in BC) return it here: a bigger
         * array then, for this call only (wiped before it is let go). */
        size_t need = total - s->pos;
        if (need > out_cap) {
            if ((st = jca_new_array(o, NULL, need, &outa)) != WEBCRYPTO_OK) goto done;
            outa_len = need;
        } else {
            outa = o->t->out_buf;
            out_used = max_size(out_used, min_size(need + JCA_OUT_SLACK, out_cap));
        }
        in_used = max_size(in_used, final_len);
        if ((st = jca_put_in(o, final_in, final_len)) != WEBCRYPTO_OK) goto done;
        jint got = (*o->env)->CallIntMethod(o->env, c, jca.c_final, o->t->in_buf, 0,
                                            (jint)final_len, outa, 0);
        JCHECK(o, "Cipher.doFinal");
        if (got > 0 && outa == o->t->out_buf)
            out_used = max_size(out_used, min_size((size_t)got, out_cap));
        if ((st = sink_put(o, s, outa, got)) != WEBCRYPTO_OK) goto done;
    }
    if (s->pos != total)
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: the provider returned %zu bytes, expected %zu",
                      s->pos, total);
done:
    jca_zero_array(o, o->t->in_buf, in_used);
    jca_zero_array(o, o->t->out_buf, out_used);
    if (outa && outa != o->t->out_buf) {
        jca_zero_array(o, outa, outa_len);
        (*o->env)->DeleteLocalRef(o->env, outa);
    }
    return st;
}

/* cipher.init(mode, key, new IvParameterSpec(iv)). */
static webcrypto_status iv_init(jca_op *o, jobject c, jint mode, const jca_key *k,
                                const uint8_t iv[16]) {
    webcrypto_status st = jca_put_in(o, iv, 16);
    if (st != WEBCRYPTO_OK) return st;
    jobject spec = (*o->env)->NewObject(o->env, jca.IvParameterSpec, jca.iv_new, o->t->in_buf, 0, 16);
    JCHECK(o, "new IvParameterSpec");
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, mode, k->spec, spec);
    JCHECK(o, "Cipher.init");
    (*o->env)->DeleteLocalRef(o->env, spec);
done:
    return st;
}

static webcrypto_status raw_mode(const jca_key *k, bool cbc, jint mode, const uint8_t iv[16],
                                 const uint8_t *in, size_t len, uint8_t *out) {
    const jca_variant *v = k->v;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *slot = cbc ? &o.t->v[v->index].cbc : &o.t->v[v->index].ctr;
    st = jca_cached_instance(&o, jca.Cipher, jca.c_get, jca.c_get_p, cbc ? v->cbc_name : v->ctr_name,
                         cbc ? v->cbc_prov : v->ctr_prov, slot);
    if (st == WEBCRYPTO_OK) st = iv_init(&o, *slot, mode, k, iv);
    sink s = {.out = out, .out_len = len};
    if (st == WEBCRYPTO_OK) st = cipher_run(&o, *slot, in, len, NULL, 0, false, &s);
    if (st != WEBCRYPTO_OK) jca_drop(&o, slot);
    return jca_op_end(&o, st);
}

static webcrypto_status jca_aes_cbc(const void *key_state, bool encrypt, const uint8_t iv[16],
                                    const uint8_t *in, size_t len, uint8_t *out) {
    return raw_mode(key_state, true, encrypt ? ENCRYPT_MODE : DECRYPT_MODE, iv, in, len, out);
}

static webcrypto_status jca_aes_ctr(const void *key_state, const uint8_t counter[16],
                                    const uint8_t *in, size_t len, uint8_t *out) {
    return raw_mode(key_state, false, ENCRYPT_MODE, counter, in, len, out);
}

/* ---- AEAD: GCM and GCM-SIV ---- */

static jca_iv_seen iv_seen(const jca_key *k, const uint8_t *iv, size_t iv_len) {
    return (jca_iv_seen){.key_id = k->bytes_id,
                         .iv_len = iv_len,
                         .iv_hash = jca_siphash24(k->v->prf_key, iv, iv_len)};
}

static bool seen_eq(jca_iv_seen a, jca_iv_seen b) {
    return a.key_id == b.key_id && a.iv_len == b.iv_len && a.iv_hash == b.iv_hash;
}

static webcrypto_status aead_init_raw(jca_op *o, jobject c, jint mode, const jca_key *k,
                                      const uint8_t *iv, size_t iv_len, size_t tag_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    jbyteArray a = o->t->in_buf;
    if (iv_len <= JCA_CHUNK) st = jca_put_in(o, iv, iv_len);
    else st = jca_new_array(o, iv, iv_len, &a);
    if (st != WEBCRYPTO_OK) return st;
    jobject spec = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new,
                                        (jint)(tag_len * 8), a, 0, (jint)iv_len);
    JCHECK(o, "new GCMParameterSpec");
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, mode, k->spec, spec);
    JCHECK(o, mode == ENCRYPT_MODE ? "Cipher.init (encrypt)" : "Cipher.init (decrypt)");
    (*o->env)->DeleteLocalRef(o->env, spec);
    if (a != o->t->in_buf) (*o->env)->DeleteLocalRef(o->env, a);
done:
    return st;
}

/* Inits an AEAD engine. SunJCE refuses an encryption init with the key and
 * IV of its previous encryption init, BouncyCastle those of its previous
 * init of either direction ("cannot reuse nonce"); WebCrypto leaves IV
 * uniqueness to the caller, and the engine is reused across calls, so a
 * repeat is first preceded by an init with a different IV. */
static webcrypto_status aead_init(jca_op *o, jca_aead *e, jint mode, const jca_key *k,
                                  const uint8_t *iv, size_t iv_len, size_t tag_len) {
    jca_iv_seen now = iv_seen(k, iv, iv_len);
    webcrypto_status st = WEBCRYPTO_OK;
    if (mode == ENCRYPT_MODE && (seen_eq(now, e->last_enc) || seen_eq(now, e->last_any))) {
        uint8_t small[64];
        uint8_t *other = iv_len <= sizeof small ? small : malloc(iv_len);
        if (!other) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        memcpy(other, iv, iv_len);
        jca_iv_seen d;
        for (uint8_t flip = 1;; flip++) {
            other[0] = (uint8_t)(iv[0] ^ flip);
            d = iv_seen(k, other, iv_len);
            if (!seen_eq(d, e->last_enc) && !seen_eq(d, e->last_any)) break;
        }
        st = aead_init_raw(o, e->c, ENCRYPT_MODE, k, other, iv_len, 16);
        if (other != small) free(other);
        if (st != WEBCRYPTO_OK) return st;
        e->last_enc = e->last_any = d;
    }
    st = aead_init_raw(o, e->c, mode, k, iv, iv_len, tag_len);
    if (st != WEBCRYPTO_OK) return st;
    e->last_any = now;
    if (mode == ENCRYPT_MODE) e->last_enc = now;
    return WEBCRYPTO_OK;
}

static webcrypto_status aead_engine(jca_op *o, const jca_key *k, bool siv, jca_aead **out) {
    const jca_variant *v = k->v;
    jca_aead *e = siv ? &o->t->v[v->index].siv : &o->t->v[v->index].gcm;
    if (!e->c) memset(e, 0, sizeof *e);
    webcrypto_status st = jca_cached_instance(o, jca.Cipher, jca.c_get, jca.c_get_p,
                                          siv ? v->siv_name : v->gcm_name,
                                          siv ? v->siv_prov : v->gcm_prov, &e->c);
    if (st == WEBCRYPTO_OK) *out = e;
    return st;
}

/* One AEAD pass: init, AAD, data, then doFinal over final_in (the tag when
 * decrypting), output to the sink. */
static webcrypto_status aead_pass(jca_op *o, jca_aead *e, jint mode, const jca_key *k,
                                  const uint8_t *iv, size_t iv_len, size_t tag_len,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, const uint8_t *final_in, size_t final_len,
                                  sink *s) {
    webcrypto_status st = aead_init(o, e, mode, k, iv, iv_len, tag_len);
    if (st == WEBCRYPTO_OK && aad_len)
        st = jca_feed(o, e->c, jca.c_aad, aad, aad_len, "Cipher.updateAAD");
    if (st == WEBCRYPTO_OK) st = cipher_run(o, e->c, in, len, final_in, final_len, true, s);
    return st;
}

static webcrypto_status aead_seal(const jca_key *k, bool siv, const uint8_t *iv, size_t iv_len,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, uint8_t *out, uint8_t *tag, size_t tag_len) {
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_aead *e = NULL;
    st = aead_engine(&o, k, siv, &e);
    if (st == WEBCRYPTO_OK) {
        if (!siv && tag_len < 12 && !k->v->gcm_short_tags) {
            /* GCM's short tags are the leading bytes of the full tag
             * (SP 800-38D 7.1), for a provider that refuses them. */
            uint8_t full[16];
            sink s = {.out = out, .out_len = len, .tail = full, .tail_len = 16};
            st = aead_pass(&o, e, ENCRYPT_MODE, k, iv, iv_len, 16, aad, aad_len, in, len, NULL, 0,
                           &s);
            if (st == WEBCRYPTO_OK) memcpy(tag, full, tag_len);
        } else {
            sink s = {.out = out, .out_len = len, .tail = tag, .tail_len = tag_len};
            st = aead_pass(&o, e, ENCRYPT_MODE, k, iv, iv_len, tag_len, aad, aad_len, in, len,
                           NULL, 0, &s);
        }
        if (st != WEBCRYPTO_OK) jca_drop(&o, &e->c);
    }
    return jca_op_end(&o, st);
}

/* An array for a whole message of n bytes: the thread's input array, grown
 * (and kept) up to JCA_KEEP bytes, or above that a local array for this
 * call. */
static webcrypto_status whole_array(jca_op *o, size_t n, jbyteArray *out) {
    jca_thread *t = o->t;
    if (n <= t->in_cap) {
        *out = t->in_buf;
        return WEBCRYPTO_OK;
    }
    if (n > JCA_KEEP) return jca_new_array(o, NULL, n, out);
    /* Doubling, so a run of growing messages reallocates a few times. */
    size_t cap = t->in_cap * 2 < JCA_KEEP ? t->in_cap * 2 : JCA_KEEP;
    if (cap < n) cap = n;
    jbyteArray a = NULL;
    webcrypto_status st = jca_new_array(o, NULL, cap, &a);
    if (st != WEBCRYPTO_OK) return st;
    jbyteArray g = jca_global(o->env, a);
    (*o->env)->DeleteLocalRef(o->env, a);
    if (!g) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    jca_global_free(o->env, t->in_buf);
    t->in_buf = g;
    t->in_cap = cap;
    *out = g;
    return WEBCRYPTO_OK;
}

/* Decryption by an engine that buffers the whole message anyway (see
 * dec_buffers): ciphertext and tag copied once into one array, one doFinal
 * decrypting in place (Cipher's methods are copy-safe), the plaintext copied
 * out. A tag mismatch may leave unauthenticated plaintext in the array (an
 * in-place engine need not clear it): it is wiped. */
static webcrypto_status aead_open_whole(jca_op *o, jca_aead *e, const jca_key *k,
                                        const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                        size_t aad_len, const uint8_t *in, size_t len,
                                        const uint8_t *tag, size_t tag_len, uint8_t *out) {
    if (len > (size_t)INT32_MAX - tag_len)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca: %zu bytes do not fit a Java array (at most 2147483647 bytes)", len);
    webcrypto_status st = aead_init(o, e, DECRYPT_MODE, k, iv, iv_len, tag_len);
    if (st == WEBCRYPTO_OK && aad_len)
        st = jca_feed(o, e->c, jca.c_aad, aad, aad_len, "Cipher.updateAAD");
    jbyteArray a = NULL;
    if (st == WEBCRYPTO_OK) st = whole_array(o, len + tag_len, &a);
    if (st != WEBCRYPTO_OK) return st;
    if ((st = jca_set_bytes(o, a, 0, len, in)) == WEBCRYPTO_OK &&
        (st = jca_set_bytes(o, a, len, tag_len, tag)) == WEBCRYPTO_OK) {
        jint got = (*o->env)->CallIntMethod(o->env, e->c, jca.c_final, a, 0,
                                            (jint)(len + tag_len), a, 0);
        if ((*o->env)->ExceptionCheck(o->env))
            st = jca_exception(o->env, "Cipher.doFinal");
        else if (got < 0 || (size_t)got != len)
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "jca: the provider returned %d bytes, expected %zu", (int)got, len);
        else
            st = jca_get_bytes(o, a, 0, len, out);
    }
    /* The plaintext (or on failure the unauthenticated one) is in a[0..len):
     * wiped whatever happened, also when a is the kept input array. */
    jca_zero_array(o, a, len);
    if (a != o->t->in_buf) (*o->env)->DeleteLocalRef(o->env, a);
    return st;
}

static webcrypto_status aead_open(const jca_key *k, bool siv, const uint8_t *iv, size_t iv_len,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out) {
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_aead *e = NULL;
    st = aead_engine(&o, k, siv, &e);
    if (st == WEBCRYPTO_OK) {
        if (!siv && tag_len < 12 && !k->v->gcm_short_tags) {
            /* For a provider that refuses short tags: GCM's keystream is the
             * same both ways, so encrypting the ciphertext yields the
             * plaintext; encrypting that plaintext again yields the full tag
             * over the ciphertext, whose leading bytes are compared in
             * constant time. (The core wipes out if this fails.) */
            uint8_t full[16];
            sink s1 = {.out = out, .out_len = len, .tail = NULL, .tail_len = 16};
            st = aead_pass(&o, e, ENCRYPT_MODE, k, iv, iv_len, 16, NULL, 0, in, len, NULL, 0, &s1);
            sink s2 = {.out = NULL, .out_len = len, .tail = full, .tail_len = 16};
            if (st == WEBCRYPTO_OK)
                st = aead_pass(&o, e, ENCRYPT_MODE, k, iv, iv_len, 16, aad, aad_len, out, len,
                               NULL, 0, &s2);
            if (st == WEBCRYPTO_OK && !wc_equal_ct(full, tag, tag_len))
                st = wc_error(WEBCRYPTO_ERR_OPERATION,
                              "jca: AES-GCM: the authentication tag does not match");
            wc_wipe(full, sizeof full);
        } else if (siv ? k->v->siv_dec_whole : k->v->gcm_dec_whole) {
            st = aead_open_whole(&o, e, k, iv, iv_len, aad, aad_len, in, len, tag, tag_len, out);
        } else {
            sink s = {.out = out, .out_len = len};
            st = aead_pass(&o, e, DECRYPT_MODE, k, iv, iv_len, tag_len, aad, aad_len, in, len, tag,
                           tag_len, &s);
        }
        if (st != WEBCRYPTO_OK) jca_drop(&o, &e->c);
    }
    /* A provider's AEADBadTagException reads as the other backends' message
     * (docs/ROBUSTNESS.md), with the provider's words after it. */
    if (st == WEBCRYPTO_ERR_OPERATION) {
        char detail[512];
        snprintf(detail, sizeof detail, "%s", webcrypto_error_message());
        if (strstr(detail, "AEADBadTagException") || strstr(detail, "tag does not match"))
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "%s: the authentication tag does not match (wrong key, %s, additional "
                          "data or tag, or altered ciphertext) [%s]",
                          siv ? "AES-GCM-SIV" : "AES-GCM", siv ? "nonce" : "IV", detail);
    }
    return jca_op_end(&o, st);
}

static webcrypto_status jca_aes_gcm_seal(const void *key_state, const uint8_t *iv, size_t iv_len,
                                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                         size_t len, uint8_t *out, uint8_t *tag, size_t tag_len) {
    return aead_seal(key_state, false, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
}

static webcrypto_status jca_aes_gcm_open(const void *key_state, const uint8_t *iv, size_t iv_len,
                                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                         size_t len, const uint8_t *tag, size_t tag_len,
                                         uint8_t *out) {
    return aead_open(key_state, false, iv, iv_len, aad, aad_len, in, len, tag, tag_len, out);
}

static webcrypto_status jca_siv_seal(const void *key_state, const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                     size_t len, uint8_t *out, uint8_t tag[16]) {
    return aead_seal(key_state, true, nonce, 12, aad, aad_len, in, len, out, tag, 16);
}

static webcrypto_status jca_siv_open(const void *key_state, const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                     size_t len, const uint8_t tag[16], uint8_t *out) {
    return aead_open(key_state, true, nonce, 12, aad, aad_len, in, len, tag, 16, out);
}

/* ---- AES-KW (RFC 3394) ----
 * The provider's AESWrap as a plain cipher (ENCRYPT_MODE / DECRYPT_MODE over
 * raw bytes, the default IV), one engine per thread, re-initialised per
 * call. */
static webcrypto_status kw_run(const jca_key *k, bool wrap, const uint8_t *in, size_t len,
                               uint8_t *out) {
    const jca_variant *v = k->v;
    size_t out_len = wrap ? len + 8 : len - 8;
    if (len > JCA_CHUNK)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: AES-KW input over %zu bytes",
                        (size_t)JCA_CHUNK);
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *slot = &o.t->v[v->index].kw;
    st = jca_cached_instance(&o, jca.Cipher, jca.c_get, jca.c_get_p, v->kw_name, v->kw_prov, slot);
    if (st != WEBCRYPTO_OK) goto done;
    (*o.env)->CallVoidMethod(o.env, *slot, jca.c_init, wrap ? ENCRYPT_MODE : DECRYPT_MODE, k->spec,
                             NULL);
    JCHECK(&o, "AESWrap init");
    if ((st = jca_put_in(&o, in, len)) != WEBCRYPTO_OK) goto done;
    jint got = (*o.env)->CallIntMethod(o.env, *slot, jca.c_final, o.t->in_buf, 0, (jint)len,
                                       o.t->out_buf, 0);
    if ((*o.env)->ExceptionCheck(o.env)) {
        st = jca_exception(o.env, wrap ? "AESWrap wrap" : "AESWrap unwrap");
        /* Every unwrap failure is the integrity check's, in one message. */
        if (!wrap && st != WEBCRYPTO_ERR_NO_MEMORY)
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "AES-KW: the wrapped key failed its integrity check");
        goto done;
    }
    if ((size_t)got != out_len) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: AESWrap returned %d bytes, expected %zu",
                      (int)got, out_len);
        goto done;
    }
    st = jca_get_bytes(&o, o.t->out_buf, 0, out_len, out);
done:
    if (!wrap) jca_zero_array(&o, o.t->out_buf, out_len);
    else jca_zero_array(&o, o.t->in_buf, len);
    if (st != WEBCRYPTO_OK) jca_drop(&o, slot);
    return jca_op_end(&o, st);
}

static webcrypto_status jca_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                    uint8_t *out) {
    return kw_run(key_state, true, in, len, out);
}

static webcrypto_status jca_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                      uint8_t *out) {
    return kw_run(key_state, false, in, len, out);
}

/* ---- KDFs ---- */

/* A fresh Mac of this variant for `hash`, keyed with key[0..len). */
static webcrypto_status kdf_mac(jca_op *o, const jca_variant *v, webcrypto_algorithm hash,
                                jobject *mac) {
    if (!v->mac_prov[hash])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no %s", v->label,
                        mac_names[hash]);
    return jca_get_instance(o, jca.Mac, jca.mac_get, jca.mac_get_p, v->mac_name[hash],
                        v->mac_prov[hash], mac);
}

static webcrypto_status mac_key(jca_op *o, const jca_variant *v, jobject mac,
                                webcrypto_algorithm hash, const uint8_t *key, size_t len) {
    jobject spec = NULL;
    webcrypto_status st = jca_key_spec(o, key, len, v->mac_name[hash], &spec);
    if (st != WEBCRYPTO_OK) return st;
    (*o->env)->CallVoidMethod(o->env, mac, jca.mac_init, spec);
    if ((*o->env)->ExceptionCheck(o->env)) st = jca_exception(o->env, "Mac.init");
    (*o->env)->DeleteLocalRef(o->env, spec);
    return st;
}

/* RFC 5869 from the provider's HMAC. An empty salt is HashLen zero bytes,
 * which as an HMAC key equals the empty key jca_key_spec() stands in for. */
static webcrypto_status hkdf_by_mac(jca_op *o, const jca_variant *v, webcrypto_algorithm hash,
                                    const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
                                    size_t salt_len, const uint8_t *info, size_t info_len,
                                    uint8_t *out, size_t out_len) {
    size_t hl = md_sizes[hash];
    uint8_t prk[64], t[64];
    jobject mac = NULL;
    webcrypto_status st = kdf_mac(o, v, hash, &mac);
    if (st == WEBCRYPTO_OK) st = mac_key(o, v, mac, hash, salt, salt_len);
    if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, ikm, ikm_len, "Mac.update");
    if (st == WEBCRYPTO_OK) st = mac_finish(o, mac, hl, prk);
    if (st == WEBCRYPTO_OK) st = mac_key(o, v, mac, hash, prk, hl);
    for (uint8_t i = 1; st == WEBCRYPTO_OK && out_len > 0; i++) {
        if (i > 1) st = jca_feed(o, mac, jca.mac_update, t, hl, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, info, info_len, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, &i, 1, "Mac.update");
        if (st == WEBCRYPTO_OK) st = mac_finish(o, mac, hl, t);
        if (st != WEBCRYPTO_OK) break;
        size_t n = out_len < hl ? out_len : hl;
        memcpy(out, t, n);
        out += n;
        out_len -= n;
    }
    /* The IKM crossed in_buf in chunks, T(i) (hl bytes) after it; out_buf
     * held PRK and T(i). */
    jca_zero_array(o, o->t->out_buf, 64);
    jca_zero_array(o, o->t->in_buf, min_size(max_size(ikm_len, hl), JCA_CHUNK));
    wc_wipe(prk, sizeof prk);
    wc_wipe(t, sizeof t);
    return st;
}

/* javax.crypto.KDF "HKDF-SHA*" (JDK 25+). */
static webcrypto_status hkdf_by_kdf(jca_op *o, const jca_variant *v, webcrypto_algorithm hash,
                                    const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
                                    size_t salt_len, const uint8_t *info, size_t info_len,
                                    uint8_t *out, size_t out_len) {
    jobject kdf = NULL, b = NULL, spec = NULL;
    jbyteArray ikm_a = NULL, salt_a = NULL, info_a = NULL, res = NULL;
    webcrypto_status st = jca_get_instance(o, jca.KDF, jca.kdf_get, jca.kdf_get_p, v->kdf_name[hash],
                                       v->kdf_prov[hash], &kdf);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, ikm, ikm_len, &ikm_a);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, salt, salt_len, &salt_a);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, info, info_len, &info_a);
    if (st != WEBCRYPTO_OK) goto done;
    b = (*o->env)->CallStaticObjectMethod(o->env, jca.HKDFParameterSpec, jca.hkdf_extract);
    JCHECK(o, "HKDFParameterSpec.ofExtract");
    b = (*o->env)->CallObjectMethod(o->env, b, jca.hkdf_add_ikm, ikm_a);
    JCHECK(o, "HKDFParameterSpec.Builder.addIKM");
    b = (*o->env)->CallObjectMethod(o->env, b, jca.hkdf_add_salt, salt_a);
    JCHECK(o, "HKDFParameterSpec.Builder.addSalt");
    spec = (*o->env)->CallObjectMethod(o->env, b, jca.hkdf_then_expand, info_a, (jint)out_len);
    JCHECK(o, "HKDFParameterSpec.Builder.thenExpand");
    res = (*o->env)->CallObjectMethod(o->env, kdf, jca.kdf_derive, spec);
    JCHECK(o, "KDF.deriveData");
    if (!res || (size_t)(*o->env)->GetArrayLength(o->env, res) != out_len) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: KDF.deriveData returned the wrong length");
        goto done;
    }
    st = jca_get_bytes(o, res, 0, out_len, out);
done:
    jca_zero_array(o, ikm_a, ikm_len);
    jca_zero_array(o, res, res ? out_len : 0);
    return st;
}

static webcrypto_status jca_hkdf(const void *bctx, webcrypto_algorithm hash, const uint8_t *ikm,
                                 size_t ikm_len, const uint8_t *salt, size_t salt_len,
                                 const uint8_t *info, size_t info_len, uint8_t *out,
                                 size_t out_len) {
    const jca_variant *v = bctx;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad HKDF hash");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    if ((*o.env)->EnsureLocalCapacity(o.env, JCA_FRAME) != 0)
        st = jca_exception(o.env, "EnsureLocalCapacity");
    else if (v->have_kdf[hash] && out_len <= (size_t)INT32_MAX)
        st = hkdf_by_kdf(&o, v, hash, ikm, ikm_len, salt, salt_len, info, info_len, out, out_len);
    else
        st = hkdf_by_mac(&o, v, hash, ikm, ikm_len, salt, salt_len, info, info_len, out, out_len);
    return jca_op_end(&o, st);
}

/* Strict UTF-8 (no overlong forms, surrogates or code points past
 * U+10FFFF) to UTF-16; false if p is not valid UTF-8. out has room for len
 * units (UTF-16 never needs more units than UTF-8 has bytes). */
static bool utf8_to_utf16(const uint8_t *p, size_t len, jchar *out, size_t *out_len) {
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t c = p[i];
        size_t extra;
        uint32_t min;
        if (c < 0x80) { extra = 0; min = 0; }
        else if ((c & 0xe0) == 0xc0) { extra = 1; c &= 0x1f; min = 0x80; }
        else if ((c & 0xf0) == 0xe0) { extra = 2; c &= 0x0f; min = 0x800; }
        else if ((c & 0xf8) == 0xf0) { extra = 3; c &= 0x07; min = 0x10000; }
        else return false;
        if (len - i - 1 < extra) return false;
        for (size_t j = 1; j <= extra; j++) {
            if ((p[i + j] & 0xc0) != 0x80) return false;
            c = (c << 6) | (p[i + j] & 0x3f);
        }
        if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
        if (c >= 0x10000) {
            c -= 0x10000;
            out[n++] = (jchar)(0xd800 + (c >> 10));
            out[n++] = (jchar)(0xdc00 + (c & 0x3ff));
        } else {
            out[n++] = (jchar)c;
        }
        i += extra + 1;
    }
    *out_len = n;
    return true;
}

/* SecretKeyFactory PBKDF2WithHmacSHA*: the password as chars, which the
 * provider encodes as UTF-8 again (so only for valid UTF-8 passwords). */
static webcrypto_status pbkdf2_by_factory(jca_op *o, const jca_variant *v, webcrypto_algorithm hash,
                                          const jchar *pw, size_t pw_units, const uint8_t *salt,
                                          size_t salt_len, uint32_t iterations, uint8_t *out,
                                          size_t out_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject skf = NULL, spec = NULL, key = NULL;
    jbyteArray salt_a = NULL, enc = NULL;
    jcharArray pw_a = (*o->env)->NewCharArray(o->env, (jsize)pw_units);
    JCHECK(o, "NewCharArray");
    (*o->env)->SetCharArrayRegion(o->env, pw_a, 0, (jsize)pw_units, pw);
    JCHECK(o, "SetCharArrayRegion");
    if ((st = jca_new_array(o, salt, salt_len, &salt_a)) != WEBCRYPTO_OK) goto done;
    spec = (*o->env)->NewObject(o->env, jca.PBEKeySpec, jca.pbe_new, pw_a, salt_a,
                                (jint)iterations, (jint)(out_len * 8));
    JCHECK(o, "new PBEKeySpec");
    if ((st = jca_get_instance(o, jca.SecretKeyFactory, jca.skf_get, jca.skf_get_p,
                           v->pbkdf2_name[hash], v->pbkdf2_prov[hash], &skf)) != WEBCRYPTO_OK)
        goto done;
    key = (*o->env)->CallObjectMethod(o->env, skf, jca.skf_generate, spec);
    JCHECK(o, "SecretKeyFactory.generateSecret");
    enc = (*o->env)->CallObjectMethod(o->env, key, jca.key_encoded);
    JCHECK(o, "SecretKey.getEncoded");
    if (!enc || (size_t)(*o->env)->GetArrayLength(o->env, enc) != out_len) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: PBKDF2 returned the wrong length");
        goto done;
    }
    st = jca_get_bytes(o, enc, 0, out_len, out);
done:
    if (spec) {
        (*o->env)->CallVoidMethod(o->env, spec, jca.pbe_clear);
        if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
    }
    if (pw_a) {
        static const jchar zeros[64];
        for (size_t off = 0; off < pw_units; off += 64) {
            size_t k = pw_units - off < 64 ? pw_units - off : 64;
            (*o->env)->SetCharArrayRegion(o->env, pw_a, (jsize)off, (jsize)k, zeros);
            if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
        }
    }
    jca_zero_array(o, enc, enc ? out_len : 0);
    return st;
}

/* RFC 8018 5.2 from the provider's HMAC: for passwords that are not UTF-8
 * (WebCrypto's are bytes), an empty password or salt (PBEKeySpec refuses an
 * empty salt), or a provider without the factory. One JNI round trip per
 * iteration, so slower than the factory. */
static webcrypto_status pbkdf2_by_mac(jca_op *o, const jca_variant *v, webcrypto_algorithm hash,
                                      const uint8_t *pw, size_t pw_len, const uint8_t *salt,
                                      size_t salt_len, uint32_t iterations, uint8_t *out,
                                      size_t out_len) {
    size_t hl = md_sizes[hash];
    uint8_t u[64], t[64];
    jobject mac = NULL;
    webcrypto_status st = kdf_mac(o, v, hash, &mac);
    if (st == WEBCRYPTO_OK) st = mac_key(o, v, mac, hash, pw, pw_len);
    for (uint32_t block = 1; st == WEBCRYPTO_OK && out_len > 0; block++) {
        uint8_t be[4] = {(uint8_t)(block >> 24), (uint8_t)(block >> 16), (uint8_t)(block >> 8),
                         (uint8_t)block};
        st = jca_feed(o, mac, jca.mac_update, salt, salt_len, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, be, 4, "Mac.update");
        if (st == WEBCRYPTO_OK) st = mac_finish(o, mac, hl, u);
        if (st == WEBCRYPTO_OK) memcpy(t, u, hl);
        for (uint32_t i = 1; st == WEBCRYPTO_OK && i < iterations; i++) {
            st = jca_feed(o, mac, jca.mac_update, u, hl, "Mac.update");
            if (st == WEBCRYPTO_OK) st = mac_finish(o, mac, hl, u);
            for (size_t j = 0; j < hl; j++) t[j] ^= u[j];
        }
        if (st != WEBCRYPTO_OK) break;
        size_t n = out_len < hl ? out_len : hl;
        memcpy(out, t, n);
        out += n;
        out_len -= n;
    }
    jca_zero_array(o, o->t->out_buf, 64);
    jca_zero_array(o, o->t->in_buf, 64);
    wc_wipe(u, sizeof u);
    wc_wipe(t, sizeof t);
    return st;
}

static webcrypto_status jca_pbkdf2(const void *bctx, webcrypto_algorithm hash,
                                   const uint8_t *password, size_t password_len,
                                   const uint8_t *salt, size_t salt_len, uint32_t iterations,
                                   uint8_t *out, size_t out_len) {
    const jca_variant *v = bctx;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad PBKDF2 hash");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jchar *units = NULL;
    size_t n_units = 0;
    bool factory = v->pbkdf2_prov[hash] && password_len > 0 && salt_len > 0 &&
                   iterations <= (uint32_t)INT32_MAX && out_len <= (size_t)INT32_MAX / 8 &&
                   password_len <= (size_t)INT32_MAX;
    if (factory) {
        units = malloc(password_len * sizeof *units);
        if (!units) st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        else factory = utf8_to_utf16(password, password_len, units, &n_units);
    }
    if (st == WEBCRYPTO_OK) {
        if (factory)
            st = pbkdf2_by_factory(&o, v, hash, units, n_units, salt, salt_len, iterations, out,
                                   out_len);
        else if (!v->mac_prov[hash])
            st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                          "jca: %s has no %s for this password or salt", v->label,
                          mac_names[hash]);
        else
            st = pbkdf2_by_mac(&o, v, hash, password, password_len, salt, salt_len, iterations,
                               out, out_len);
    }
    if (units) {
        wc_wipe(units, password_len * sizeof *units);
        free(units);
    }
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
    .aes_cbc = jca_aes_cbc,
    .aes_ctr = jca_aes_ctr,
    .aes_gcm_seal = jca_aes_gcm_seal,
    .aes_gcm_open = jca_aes_gcm_open,
    .aes_gcm_siv_seal = jca_siv_seal,
    .aes_gcm_siv_open = jca_siv_open,
    .aes_kw_wrap = jca_kw_wrap,
    .aes_kw_unwrap = jca_kw_unwrap,
    .pkey_import = jca_pkey_import,
    .pkey_generate = jca_pkey_generate,
    .pkey_fields = jca_pkey_fields,
    .pkey_free = jca_pkey_free,
    .rsa_sign = jca_rsa_sign,
    .rsa_verify = jca_rsa_verify,
    .rsa_oaep_encrypt = jca_rsa_oaep_encrypt,
    .rsa_oaep_decrypt = jca_rsa_oaep_decrypt,
    .ecdsa_sign = jca_ecdsa_sign,
    .ecdsa_verify = jca_ecdsa_verify,
    .ed25519_sign = jca_ed25519_sign,
    .ed25519_verify = jca_ed25519_verify,
    .ecdh = jca_ecdh,
    .x25519 = jca_x25519,
    .hkdf = jca_hkdf,
    .pbkdf2 = jca_pbkdf2,
};
