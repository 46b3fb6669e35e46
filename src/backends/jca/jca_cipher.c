/*
 * jca_cipher.c - the jca backend's secret keys and AES modes: CBC, CTR, the
 * AEADs (GCM, GCM-SIV) and AES-KW (javax.crypto.Cipher).
 */
#define _GNU_SOURCE /* secure_getenv */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_aead_class.h" /* jca_aead_class: WebcryptoAead's bytes (java/) */
#include "jca_internal.h"

#ifdef __ANDROID__ /* Bionic has no secure_getenv (see jca_jvm.c) */
#define secure_getenv getenv
#endif

/* ---- secret keys ---- */

static atomic_uint_fast64_t next_key_id = 1;

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

webcrypto_status jca_secret_key_new(const void *bctx, wc_family family, unsigned member,
                                    const uint8_t *key, size_t key_len, void **state) {
    const jca_variant *v = bctx;
    jstring name = NULL;
    wc_hash hash = WC_HASH_SHA_256; /* HMAC's; unused by the others */
    switch (family) {
    case WC_FAMILY_KDF:
        /* The KDFs take the raw key from the core on every call. */
        *state = NULL;
        return WEBCRYPTO_OK;
    case WC_FAMILY_HMAC:
        hash = (wc_hash)member;
        if (!hash_ok(hash) || !v->mac_prov[hash])
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no HMAC with %s", v->label,
                            wc_hash_name(hash));
        name = v->mac_name[hash];
        break;
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_KEYWRAP: name = v->aes_name; break;
    case WC_FAMILY_AEAD:
        switch ((wc_aead)member) {
        case WC_AEAD_AES_GCM:
        case WC_AEAD_AES_GCM_SIV:
        case WC_AEAD_AES_OCB: name = v->aes_name; break;
        /* SunJCE's ChaCha20-Poly1305 takes only "ChaCha20" keys */
        case WC_AEAD_CHACHA20_POLY1305: name = v->cc_key_name; break;
        case WC_AEAD_COUNT:
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such AEAD");
        }
        break;
    case WC_FAMILY_KMAC:
        if (member >= WC_KMAC_COUNT || !v->kmac_prov[member])
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no %s", v->label,
                            wc_kmac_name((wc_kmac)member));
        name = v->kmac_name[member];
        break;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_XOF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such secret key");
    }
    jca_key *k = calloc(1, sizeof *k);
    if (!k) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    k->family = family;
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
void jca_secret_key_free(void *state) {
    jca_key *k = state;
    if (!k) return;
    jca_engine_release(k->spec);
    wc_wipe(k, sizeof *k);
    free(k);
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

/* Overwrites a[off..off+n) (n is at most a few blocks: what an engine kept
 * back of an update's input). */
static void zero_range(jca_op *o, jbyteArray a, size_t off, size_t n) {
    static const jbyte zeros[256];
    for (size_t done = 0; done < n; done += sizeof zeros) {
        size_t k = n - done < sizeof zeros ? n - done : sizeof zeros;
        (*o->env)->SetByteArrayRegion(o->env, a, (jsize)(off + done), (jsize)k, zeros);
        if ((*o->env)->ExceptionCheck(o->env)) {
            (*o->env)->ExceptionClear(o->env); /* cannot fail within an array we sized */
            return;
        }
    }
}

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
 * equal in.
 *
 * public_out: the input is the secret and the output is not (an
 * encryption). Each update() then writes its output over its input in the
 * thread's input array (Cipher's methods are copy-safe), so the plaintext
 * is overwritten by the ciphertext and only what the engine has not yet
 * returned is wiped; the output array, which holds ciphertext and tag, is
 * not. Otherwise (decryption, CTR called as decrypt included: the engine
 * does not know the direction, the caller does) the prefixes this call used
 * of both arrays are wiped. Wiping both after an encryption too cost two
 * more passes over the data, about a third of SunJCE's AES-GCM time at
 * 64 KiB (docs/JCA.md). */

static webcrypto_status cipher_run(jca_op *o, jobject c, const uint8_t *in, size_t len,
                                   const uint8_t *final_in, size_t final_len, bool final,
                                   bool public_out, sink *s) {
    const size_t out_cap = JCA_CHUNK + JCA_OUT_SLACK;
    webcrypto_status st = WEBCRYPTO_OK;
    size_t total = s->out_len + s->tail_len;
    /* The prefixes of the arrays that may hold secrets at exit. A call that
     * throws may have written output first: the bound is what a call can
     * write (its input plus what a mode holds back, at most JCA_OUT_SLACK),
     * not what it returned. */
    size_t in_used = 0, out_used = 0;
    jbyteArray outa = NULL;
    size_t outa_len = 0; /* the size of a local outa */
    jbyteArray upd_out = public_out ? o->t->in_buf : o->t->out_buf;
    while (len > 0) {
        size_t n = len < JCA_CHUNK ? len : JCA_CHUNK;
        in_used = max_size(in_used, n);
        if (!public_out) out_used = max_size(out_used, min_size(n + JCA_OUT_SLACK, out_cap));
        if ((st = jca_put_in(o, in, n)) != WEBCRYPTO_OK) goto done;
        jint got = (*o->env)->CallIntMethod(o->env, c, jca.c_update, o->t->in_buf, 0, (jint)n,
                                            upd_out, 0);
        JCHECK(o, "Cipher.update");
        if (got > 0 && !public_out) out_used = max_size(out_used, min_size((size_t)got, out_cap));
        if ((st = sink_put(o, s, upd_out, got)) != WEBCRYPTO_OK) goto done;
        if (public_out) {
            /* in_buf[0..got) is ciphertext now; what the engine kept back
             * is still plaintext in in_buf[got..n). */
            size_t g = got > 0 ? (size_t)got : 0;
            if (g < n) zero_range(o, o->t->in_buf, g, n - g);
            in_used = 0;
        }
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
            if (!public_out)
                out_used = max_size(out_used, min_size(need + JCA_OUT_SLACK, out_cap));
        }
        in_used = max_size(in_used, final_len);
        if ((st = jca_put_in(o, final_in, final_len)) != WEBCRYPTO_OK) goto done;
        jint got = (*o->env)->CallIntMethod(o->env, c, jca.c_final, o->t->in_buf, 0,
                                            (jint)final_len, outa, 0);
        JCHECK(o, "Cipher.doFinal");
        if (got > 0 && outa == o->t->out_buf && !public_out)
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

static webcrypto_status raw_mode(const jca_key *k, bool cbc, jint mode, bool public_out,
                                 const uint8_t iv[16], const uint8_t *in, size_t len,
                                 uint8_t *out) {
    const jca_variant *v = k->v;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jobject *slot = cbc ? &o.t->v[v->index].cbc : &o.t->v[v->index].ctr;
    st = jca_cached_instance(&o, jca.Cipher, jca.c_get, jca.c_get_p, cbc ? v->cbc_name : v->ctr_name,
                         cbc ? v->cbc_prov : v->ctr_prov, slot);
    if (st == WEBCRYPTO_OK) st = iv_init(&o, *slot, mode, k, iv);
    sink s = {.out = out, .out_len = len};
    /* Encryption (CBC, or CTR called as encrypt): the output is public. */
    if (st == WEBCRYPTO_OK) st = cipher_run(&o, *slot, in, len, NULL, 0, false, public_out, &s);
    if (st != WEBCRYPTO_OK) jca_drop(&o, slot);
    return jca_op_end(&o, st);
}

webcrypto_status jca_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                            const uint8_t iv[16], const uint8_t *in, size_t len, uint8_t *out) {
    switch (kind) {
    case WC_CIPHER_AES_CBC:
        return raw_mode(key_state, true, encrypt ? ENCRYPT_MODE : DECRYPT_MODE, encrypt, iv, in,
                        len, out);
    case WC_CIPHER_AES_CTR:
        return raw_mode(key_state, false, ENCRYPT_MODE, encrypt, iv, in, len, out);
    case WC_CIPHER_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such cipher mode");
}

/* ---- AEAD: GCM, GCM-SIV, ChaCha20-Poly1305, OCB ---- */

static jca_iv_seen iv_seen(const jca_key *k, const uint8_t *iv, size_t iv_len) {
    return (jca_iv_seen){.key_id = k->bytes_id,
                         .iv_len = iv_len,
                         .iv_hash = jca_siphash24(k->v->prf_key, iv, iv_len)};
}

static bool seen_eq(jca_iv_seen a, jca_iv_seen b) {
    return a.key_id == b.key_id && a.iv_len == b.iv_len && a.iv_hash == b.iv_hash;
}

webcrypto_status jca_aead_spec(jca_op *o, wc_aead kind, jbyteArray iv, size_t iv_len,
                               size_t tag_len, jobject *out) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject spec = NULL;
    switch (kind) {
    case WC_AEAD_CHACHA20_POLY1305:
        spec = (*o->env)->NewObject(o->env, jca.IvParameterSpec, jca.iv_new, iv, 0, (jint)iv_len);
        JCHECK(o, "new IvParameterSpec");
        break;
    case WC_AEAD_AES_GCM:
    case WC_AEAD_AES_GCM_SIV:
    case WC_AEAD_AES_OCB: /* BouncyCastle takes a GCMParameterSpec for any AEAD mode */
        spec = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new,
                                    (jint)(tag_len * 8), iv, 0, (jint)iv_len);
        JCHECK(o, "new GCMParameterSpec");
        break;
    case WC_AEAD_COUNT: return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such AEAD");
    }
    *out = spec;
done:
    return st;
}

static webcrypto_status aead_init_raw(jca_op *o, jobject c, wc_aead kind, jint mode,
                                      const jca_key *k, const uint8_t *iv, size_t iv_len,
                                      size_t tag_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    jbyteArray a = o->t->in_buf;
    if (iv_len <= JCA_CHUNK) st = jca_put_in(o, iv, iv_len);
    else st = jca_new_array(o, iv, iv_len, &a);
    if (st != WEBCRYPTO_OK) return st;
    jobject spec = NULL;
    if ((st = jca_aead_spec(o, kind, a, iv_len, tag_len, &spec)) != WEBCRYPTO_OK) goto done;
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, mode, k->spec, spec);
    JCHECK(o, mode == ENCRYPT_MODE ? "Cipher.init (encrypt)" : "Cipher.init (decrypt)");
    (*o->env)->DeleteLocalRef(o->env, spec);
    if (a != o->t->in_buf) (*o->env)->DeleteLocalRef(o->env, a);
done:
    return st;
}

/* The init with another IV that must precede an init repeating the key and
 * IV the engine refuses to see again (see aead_init). */
static webcrypto_status aead_dodge(jca_op *o, jca_aead *e, wc_aead kind, jint mode,
                                   const jca_key *k, const uint8_t *iv, size_t iv_len,
                                   jca_iv_seen now) {
    /* SunJCE's ChaCha20-Poly1305 refuses a repeat in either direction
     * ("Matching key and nonce from previous initialization"); the others
     * (GCM) only when encrypting. */
    bool any_dir = false;
    switch (kind) {
    case WC_AEAD_CHACHA20_POLY1305: any_dir = true; break;
    case WC_AEAD_AES_GCM:
    case WC_AEAD_AES_GCM_SIV:
    case WC_AEAD_AES_OCB:
    case WC_AEAD_COUNT: break;
    }
    if (!((mode == ENCRYPT_MODE || any_dir) &&
          (seen_eq(now, e->last_enc) || seen_eq(now, e->last_any))))
        return WEBCRYPTO_OK;
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
    webcrypto_status st = aead_init_raw(o, e->c, kind, ENCRYPT_MODE, k, other, iv_len, 16);
    if (other != small) free(other);
    if (st != WEBCRYPTO_OK) return st;
    e->last_enc = e->last_any = d;
    return WEBCRYPTO_OK;
}

/* Inits an AEAD engine. SunJCE refuses an encryption init with the key and
 * IV of its previous encryption init (ChaCha20-Poly1305: any init with those
 * of its previous init), BouncyCastle those of its previous init of either
 * direction ("cannot reuse nonce"); WebCrypto leaves IV
 * uniqueness to the caller, and the engine is reused across calls, so a
 * repeat is first preceded by an init with a different IV. */
static webcrypto_status aead_init(jca_op *o, jca_aead *e, wc_aead kind, jint mode,
                                  const jca_key *k, const uint8_t *iv, size_t iv_len,
                                  size_t tag_len) {
    jca_iv_seen now = iv_seen(k, iv, iv_len);
    webcrypto_status st = aead_dodge(o, e, kind, mode, k, iv, iv_len, now);
    if (st != WEBCRYPTO_OK) return st;
    st = aead_init_raw(o, e->c, kind, mode, k, iv, iv_len, tag_len);
    if (st != WEBCRYPTO_OK) return st;
    e->last_any = now;
    if (mode == ENCRYPT_MODE) e->last_enc = now;
    return WEBCRYPTO_OK;
}

/* ---- AES-GCM encryption in one call into Java (java/WebcryptoAead.java) ----
 * A message that fits the thread's input array with its IV and additional
 * data is encrypted by WebcryptoAead.seal, which makes the JCA calls
 * aead_pass makes from C (init, updateAAD, update, doFinal) in one call:
 * each call from C into Java costs a few tenths of a microsecond, about what
 * SunJCE takes for 1 KiB. The class is defined once per process, in the
 * backend's own class loader (jca_define_class); where DefineClass is
 * refused (Android's runtime loads dex, not class files) or
 * WEBCRYPTO_JCA_AEAD_HELPER=0, the calls are made from C. */
static struct {
    pthread_mutex_t lock;
    atomic_int state; /* 0: not tried; 1: ready; 2: not available */
    jclass cls;       /* global ref for the process's life, like a loaded class */
    jmethodID seal;
} helper = {.lock = PTHREAD_MUTEX_INITIALIZER};

static jclass helper_define(JNIEnv *env) {
    const char *off = secure_getenv("WEBCRYPTO_JCA_AEAD_HELPER");
    if (off && strcmp(off, "0") == 0) return NULL;
    jclass c = jca_define_class(env, "WebcryptoAead", jca_aead_class, sizeof jca_aead_class);
    if (!c) return NULL;
    helper.seal = (*env)->GetStaticMethodID(
        env, c, "seal", "(Ljavax/crypto/Cipher;Ljava/security/Key;I[BIII[B)J");
    if ((*env)->ExceptionCheck(env) || !helper.seal) {
        (*env)->ExceptionClear(env);
        return NULL; /* c stays defined, unused, for the JVM's life */
    }
    return c;
}

static bool helper_ready(JNIEnv *env) {
    int st = atomic_load_explicit(&helper.state, memory_order_acquire);
    if (st != 0) return st == 1;
    pthread_mutex_lock(&helper.lock);
    st = atomic_load_explicit(&helper.state, memory_order_relaxed);
    if (st == 0) {
        helper.cls = helper_define(env);
        st = helper.cls ? 1 : 2;
        atomic_store_explicit(&helper.state, st, memory_order_release);
    }
    pthread_mutex_unlock(&helper.lock);
    return st == 1;
}

/* Whether a GCM encryption goes through WebcryptoAead.seal. */
static bool seal_fits(jca_op *o, size_t iv_len, size_t aad_len, size_t len) {
    return iv_len <= JCA_CHUNK && aad_len <= JCA_CHUNK && len <= JCA_CHUNK &&
           len + iv_len + aad_len <= JCA_CHUNK && helper_ready(o->env);
}

static webcrypto_status seal_helper(jca_op *o, jca_aead *e, const jca_key *k, const uint8_t *iv,
                                    size_t iv_len, const uint8_t *aad, size_t aad_len,
                                    const uint8_t *in, size_t len, size_t tag_len, sink *s) {
    jca_iv_seen now = iv_seen(k, iv, iv_len);
    webcrypto_status st = aead_dodge(o, e, WC_AEAD_AES_GCM, ENCRYPT_MODE, k, iv, iv_len, now);
    if (st != WEBCRYPTO_OK) return st;
    jbyteArray buf = o->t->in_buf;
    size_t total = s->out_len + s->tail_len;
    if ((st = jca_set_bytes(o, buf, 0, len, in)) == WEBCRYPTO_OK &&
        (st = jca_set_bytes(o, buf, len, iv_len, iv)) == WEBCRYPTO_OK &&
        (st = jca_set_bytes(o, buf, len + iv_len, aad_len, aad)) == WEBCRYPTO_OK) {
        jlong r = (*o->env)->CallStaticLongMethod(o->env, helper.cls, helper.seal, e->c, k->spec,
                                                  (jint)(tag_len * 8), buf, (jint)len,
                                                  (jint)iv_len, (jint)aad_len, o->t->out_buf);
        if ((*o->env)->ExceptionCheck(o->env)) {
            st = jca_exception(o->env, "WebcryptoAead.seal");
        } else {
            jint got = (jint)(r >> 32), fin = (jint)(r & 0xffffffff);
            /* update()'s output is in buf (what the engine kept back was
             * cleared in Java), doFinal()'s in the output array. */
            if ((st = sink_put(o, s, buf, got)) == WEBCRYPTO_OK &&
                (st = sink_put(o, s, o->t->out_buf, fin)) == WEBCRYPTO_OK && s->pos != total)
                st = wc_error(WEBCRYPTO_ERR_OPERATION,
                              "jca: the provider returned %zu bytes, expected %zu", s->pos, total);
        }
    }
    if (st != WEBCRYPTO_OK) {
        /* The plaintext may still be in buf (a failed copy of the IV or
         * AAD, or a seal that stopped before overwriting it). */
        jca_zero_array(o, buf, len);
        return st;
    }
    e->last_any = e->last_enc = now;
    return WEBCRYPTO_OK;
}

static webcrypto_status aead_engine(jca_op *o, const jca_key *k, wc_aead kind, jca_aead **out) {
    const jca_variant *v = k->v;
    jca_thread_engines *t = &o->t->v[v->index];
    jca_aead *e = NULL;
    jstring name = NULL;
    jobject prov = NULL;
    switch (kind) {
    case WC_AEAD_AES_GCM: e = &t->gcm, name = v->gcm_name, prov = v->gcm_prov; break;
    case WC_AEAD_AES_GCM_SIV: e = &t->siv, name = v->siv_name, prov = v->siv_prov; break;
    case WC_AEAD_CHACHA20_POLY1305: e = &t->cc, name = v->cc_name, prov = v->cc_prov; break;
    case WC_AEAD_AES_OCB: e = &t->ocb, name = v->ocb_name, prov = v->ocb_prov; break;
    case WC_AEAD_COUNT: return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: no such AEAD");
    }
    if (!e->c) memset(e, 0, sizeof *e);
    webcrypto_status st = jca_cached_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, name, prov,
                                              &e->c);
    if (st == WEBCRYPTO_OK) *out = e;
    return st;
}

/* One AEAD pass: init, AAD, data, then doFinal over final_in (the tag when
 * decrypting), output to the sink. */
static webcrypto_status aead_pass(jca_op *o, jca_aead *e, wc_aead kind, jint mode,
                                  const jca_key *k, const uint8_t *iv, size_t iv_len,
                                  size_t tag_len, const uint8_t *aad, size_t aad_len,
                                  const uint8_t *in, size_t len, const uint8_t *final_in,
                                  size_t final_len, bool public_out, sink *s) {
    webcrypto_status st = aead_init(o, e, kind, mode, k, iv, iv_len, tag_len);
    if (st == WEBCRYPTO_OK && aad_len)
        st = jca_feed(o, e->c, jca.c_aad, aad, aad_len, "Cipher.updateAAD");
    if (st == WEBCRYPTO_OK) st = cipher_run(o, e->c, in, len, final_in, final_len, true, public_out, s);
    return st;
}

static webcrypto_status aead_seal(const jca_key *k, wc_aead kind, const uint8_t *iv, size_t iv_len,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, uint8_t *out, uint8_t *tag, size_t tag_len) {
    webcrypto_status fit = jca_whole_fits(aad_len, "additional data");
    if (fit != WEBCRYPTO_OK) return fit;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_aead *e = NULL;
    st = aead_engine(&o, k, kind, &e);
    if (st == WEBCRYPTO_OK) {
        if (kind == WC_AEAD_AES_GCM && tag_len < 12 && !k->v->gcm_short_tags) {
            /* GCM's short tags are the leading bytes of the full tag
             * (SP 800-38D 7.1), for a provider that refuses them. */
            uint8_t full[16];
            sink s = {.out = out, .out_len = len, .tail = full, .tail_len = 16};
            st = aead_pass(&o, e, kind, ENCRYPT_MODE, k, iv, iv_len, 16, aad, aad_len, in, len,
                           NULL, 0, true, &s);
            if (st == WEBCRYPTO_OK) memcpy(tag, full, tag_len);
        } else if (kind == WC_AEAD_AES_GCM && seal_fits(&o, iv_len, aad_len, len)) {
            sink s = {.out = out, .out_len = len, .tail = tag, .tail_len = tag_len};
            st = seal_helper(&o, e, k, iv, iv_len, aad, aad_len, in, len, tag_len, &s);
        } else {
            sink s = {.out = out, .out_len = len, .tail = tag, .tail_len = tag_len};
            st = aead_pass(&o, e, kind, ENCRYPT_MODE, k, iv, iv_len, tag_len, aad, aad_len, in,
                           len, NULL, 0, true, &s);
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
static webcrypto_status aead_open_whole(jca_op *o, jca_aead *e, wc_aead kind, const jca_key *k,
                                        const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                        size_t aad_len, const uint8_t *in, size_t len,
                                        const uint8_t *tag, size_t tag_len, uint8_t *out) {
    if (len > (size_t)INT32_MAX - tag_len)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "jca: %zu bytes do not fit a Java array (at most 2147483647 bytes)", len);
    webcrypto_status st = aead_init(o, e, kind, DECRYPT_MODE, k, iv, iv_len, tag_len);
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

static webcrypto_status aead_open(const jca_key *k, wc_aead kind, const uint8_t *iv, size_t iv_len,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out) {
    webcrypto_status fit = jca_whole_fits(aad_len, "additional data");
    if (fit != WEBCRYPTO_OK) return fit;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jca_aead *e = NULL;
    st = aead_engine(&o, k, kind, &e);
    bool whole = false;
    switch (kind) {
    case WC_AEAD_AES_GCM: whole = k->v->gcm_dec_whole; break;
    case WC_AEAD_AES_GCM_SIV: whole = k->v->siv_dec_whole; break;
    case WC_AEAD_CHACHA20_POLY1305: whole = k->v->cc_dec_whole; break;
    case WC_AEAD_AES_OCB: whole = k->v->ocb_dec_whole; break;
    case WC_AEAD_COUNT: break;
    }
    if (st == WEBCRYPTO_OK) {
        if (kind == WC_AEAD_AES_GCM && tag_len < 12 && !k->v->gcm_short_tags) {
            /* For a provider that refuses short tags: GCM's keystream is the
             * same both ways, so encrypting the ciphertext yields the
             * plaintext; encrypting that plaintext again yields the full tag
             * over the ciphertext, whose leading bytes are compared in
             * constant time. (The core wipes out if this fails.) */
            uint8_t full[16];
            sink s1 = {.out = out, .out_len = len, .tail = NULL, .tail_len = 16};
            st = aead_pass(&o, e, kind, ENCRYPT_MODE, k, iv, iv_len, 16, NULL, 0, in, len, NULL, 0,
                           false, &s1);
            sink s2 = {.out = NULL, .out_len = len, .tail = full, .tail_len = 16};
            if (st == WEBCRYPTO_OK)
                st = aead_pass(&o, e, kind, ENCRYPT_MODE, k, iv, iv_len, 16, aad, aad_len, out,
                               len, NULL, 0, false, &s2);
            if (st == WEBCRYPTO_OK && !wc_equal_ct(full, tag, tag_len))
                st = wc_error(WEBCRYPTO_ERR_OPERATION,
                              "jca: AES-GCM: the authentication tag does not match");
            wc_wipe(full, sizeof full);
        } else if (whole) {
            st = aead_open_whole(&o, e, kind, k, iv, iv_len, aad, aad_len, in, len, tag, tag_len,
                                 out);
        } else {
            sink s = {.out = out, .out_len = len};
            st = aead_pass(&o, e, kind, DECRYPT_MODE, k, iv, iv_len, tag_len, aad, aad_len, in,
                           len, tag, tag_len, false, &s);
        }
        if (st != WEBCRYPTO_OK) jca_drop(&o, &e->c);
    }
    /* A provider's AEADBadTagException reads as the other backends' message
     * (docs/ROBUSTNESS.md), with the provider's words after it. */
    if (st == WEBCRYPTO_ERR_OPERATION) {
        char detail[512];
        snprintf(detail, sizeof detail, "%s", webcrypto_error_message());
        if (strstr(detail, "AEADBadTagException") || strstr(detail, "tag does not match") ||
            strstr(detail, "mac check"))
            st = wc_error(WEBCRYPTO_ERR_OPERATION,
                          "%s: the authentication tag does not match (wrong key, %s, additional "
                          "data or tag, or altered ciphertext) [%s]",
                          wc_aead_name(kind), kind == WC_AEAD_AES_GCM ? "IV" : "nonce",
                          detail);
    }
    return jca_op_end(&o, st);
}

webcrypto_status jca_aead_seal(const void *key_state, const wc_aead_msg *m) {
    return aead_seal(key_state, m->kind, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in,
                     m->len, m->out, m->tag_out, m->tag_len);
}

webcrypto_status jca_aead_open(const void *key_state, const wc_aead_msg *m) {
    return aead_open(key_state, m->kind, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in,
                     m->len, m->tag_in, m->tag_len, m->out);
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

webcrypto_status jca_kw_wrap(const void *key_state, const uint8_t *in, size_t len,
                                    uint8_t *out) {
    return kw_run(key_state, true, in, len, out);
}

webcrypto_status jca_kw_unwrap(const void *key_state, const uint8_t *in, size_t len,
                                      uint8_t *out) {
    return kw_run(key_state, false, in, len, out);
}

