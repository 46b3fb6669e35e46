/*
 * jca_backend.c - the "jca" backend: the Java Cryptography Architecture
 * through JNI. This file is the backend's top: the ops table, init and the
 * variant's set-up (its provider, the Java names, what the probes find) and
 * free. Everything else is below it and never calls into it: jca_jvm.c loads
 * and joins the JVM; jca_op.c is the scaffolding every operation uses;
 * jca_probe.c the probes init runs; jca_host.c the providers a host hands
 * over; the operations are by family in jca_random.c, jca_digest_mac.c,
 * jca_cipher.c, jca_kdf.c and the asymmetric files (jca_pkey.c).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "jca_debug.h"
#include "jca_internal.h"

static jca_variant *variants[JCA_MAX_VARIANTS];
static int variant_count;


static webcrypto_status variant_setup(jca_op *o, jca_variant *v, const char *variant, wc_caps *caps) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject host = NULL;
    if (variant) {
        bool claimed = false;
        host = jca_host_claim(variant, &claimed);
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
    bool siv_ok = v->siv_prov && jca_probe_siv(o, v);
    if (v->siv_prov && !siv_ok) {
        jca_global_free(o->env, v->siv_prov);
        v->siv_prov = NULL;
    }
    if (v->gcm_prov) v->gcm_short_tags = jca_probe_gcm_short_tags(o, v);
    if (v->gcm_prov)
        v->gcm_dec_whole = jca_probe_dec_whole(o, v, WC_AEAD_AES_GCM, v->gcm_name, v->gcm_prov);
    if (siv_ok)
        v->siv_dec_whole =
            jca_probe_dec_whole(o, v, WC_AEAD_AES_GCM_SIV, v->siv_name, v->siv_prov);
    v->cc_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                    v->cc_name, true);
    v->ocb_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                     v->ocb_name, true);
    if (v->cc_prov)
        v->cc_dec_whole =
            jca_probe_dec_whole(o, v, WC_AEAD_CHACHA20_POLY1305, v->cc_name, v->cc_prov);
    if (v->ocb_prov)
        v->ocb_dec_whole = jca_probe_dec_whole(o, v, WC_AEAD_AES_OCB, v->ocb_name, v->ocb_prov);
    v->kw_prov = jca_probe_provider(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider,
                                    v->kw_name, true);
    bool kw_ok = v->kw_prov && jca_probe_kw(o, v);
    if (v->kw_prov && !kw_ok) {
        jca_global_free(o->env, v->kw_prov);
        v->kw_prov = NULL;
    }

    jobject r = (*o->env)->NewObject(o->env, jca.SecureRandom, jca.sr_new);
    if ((*o->env)->ExceptionCheck(o->env) || !r) return jca_exception(o->env, "new SecureRandom");
    v->random = jca_global(o->env, r);
    if (!v->random) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
    if ((st = jca_prf_key_draw(o, v)) != WEBCRYPTO_OK) return st;

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
        if (v->host_claimed) jca_host_unclaim(variant);
        variant_free(&o, v);
        return st;
    }
    variants[variant_count++] = v;
    *bctx = v;
    *description = v->description;
    return WEBCRYPTO_OK;
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
    .use_provider = jca_use_provider,
};
