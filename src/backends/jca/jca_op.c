/*
 * jca_op.c - the scaffolding every jca operation (and init's probes) stands
 * on: the operation's thread and local frame, bytes across JNI (the
 * per-thread arrays, new arrays, wiping them), feeding an engine in chunks,
 * engines from getInstance, SecretKeySpecs and global strings, and which
 * provider serves an algorithm (init's and the families' set-up). It calls
 * only jca_jvm.c and the core, never the backend's top (jca_backend.c).
 */
#include <limits.h>
#include <stdint.h>

#include "jca_internal.h"

/* Attaches the thread if needed and opens the operation's local frame. */
webcrypto_status jca_op_begin_cap(jca_op *o, jint capacity) {
    o->t = jca_thread_get();
    if (!o->t) return WEBCRYPTO_ERR_OPERATION; /* message set */
    o->env = o->t->env;
    return jca_frame_push(o->t, capacity);
}

webcrypto_status jca_op_begin(jca_op *o) { return jca_op_begin_cap(o, JCA_FRAME); }

/* Closes the frame. A pending exception here would be a bug of the backend
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
