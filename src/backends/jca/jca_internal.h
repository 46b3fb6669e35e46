/*
 * jca_internal.h - what the jca backend's files share: the JVM, the cached
 * classes and method IDs, the per-variant provider context, the per-thread
 * engine cache, and the one place Java exceptions become statuses.
 */
#ifndef WEBCRYPTO_JCA_INTERNAL_H
#define WEBCRYPTO_JCA_INTERNAL_H

#include <jni.h>
#include <stdatomic.h>

#include "core/backend.h"

#define JCA_JNI_VERSION JNI_VERSION_1_8
/* Bytes crossing JNI per chunk: large inputs are fed to the engine in
 * update() calls of this size, so the Java arrays stay this small. */
#define JCA_CHUNK ((size_t)256 * 1024)
/* Output arrays have room for one chunk plus what a mode may hold back
 * (a block and a tag). */
#define JCA_OUT_SLACK 64
#define JCA_MAX_VARIANTS 8
#define JCA_N_HASH 5 /* indexed by WEBCRYPTO_ALG_SHA_1..SHA_512 */
#define JCA_MAC_SLOTS 4 /* keyed Mac engines kept per thread, variant and hash */
/* Local references one operation may hold at once (PushLocalFrame). */
#define JCA_FRAME 16

/* Classes (global references) and method IDs, resolved once at init. */
typedef struct jca_refs {
    jclass MessageDigest, Mac, Cipher, SecretKeySpec, IvParameterSpec, GCMParameterSpec,
        SecureRandom, Security, Provider, SecretKeyFactory, PBEKeySpec, Key, Throwable, System;
    jclass AEADBadTagException, BadPaddingException, InvalidKeySpecException,
        NoSuchAlgorithmException, NoSuchProviderException, OutOfMemoryError;
    jclass KDF, HKDFParameterSpec, HKDFBuilder; /* NULL before JDK 25 */

    jmethodID md_get, md_get_p, md_update, md_digest, md_provider;
    jmethodID mac_get, mac_get_p, mac_init, mac_update, mac_final, mac_provider;
    jmethodID c_get, c_get_p, c_init, c_update, c_final, c_aad, c_provider;
    jmethodID sks_new, iv_new, gcm_new;
    jmethodID sr_new, sr_next;
    jmethodID sec_get_provider, prov_name, prov_version, prov_info;
    jmethodID skf_get, skf_get_p, skf_provider, skf_generate, key_encoded, pbe_new, pbe_clear;
    jmethodID thr_to_string, sys_property;
    jmethodID kdf_get, kdf_get_p, kdf_derive, hkdf_extract, hkdf_add_ikm, hkdf_add_salt,
        hkdf_then_expand;
} jca_refs;

extern JavaVM *jca_vm;
extern jca_refs jca;

/* One provider choice: "jca" (provider NULL: the JVM's order, resolved per
 * algorithm at init) or "jca:NAME". Read-only after init. */
typedef struct jca_variant {
    int index; /* into the per-thread cache */
    char label[64];
    char description[256];
    jobject provider;                 /* global ref; NULL: none named */
    jobject md_prov[JCA_N_HASH];      /* provider chosen per algorithm (global refs) */
    jobject mac_prov[JCA_N_HASH];
    jobject cbc_prov, ctr_prov, gcm_prov, siv_prov;
    jobject pbkdf2_prov[JCA_N_HASH];
    jobject kdf_prov[JCA_N_HASH]; /* javax.crypto.KDF HKDF-SHA* (JDK 25+); NULL: the JVM's order */
    bool have_kdf[JCA_N_HASH];
    jstring md_name[JCA_N_HASH], mac_name[JCA_N_HASH], pbkdf2_name[JCA_N_HASH],
        kdf_name[JCA_N_HASH];
    jstring cbc_name, ctr_name, gcm_name, siv_name, aes_name;
    bool gcm_short_tags; /* the GCM engine takes 32- and 64-bit tags */
    jobject random;      /* SecureRandom (global ref), thread-safe */
} jca_variant;

/* What identifies an AEAD init: the key and the IV (a hash of it). */
typedef struct jca_iv_seen {
    uint64_t key_id; /* hash of the key bytes; 0: nothing recorded */
    size_t iv_len;
    uint64_t iv_hash;
} jca_iv_seen;

/* A thread's AEAD engine and its last inits: providers refuse an encryption
 * init that repeats the key and IV of the previous (encryption, for SunJCE;
 * any, for BouncyCastle) init, see aead_init. */
typedef struct jca_aead {
    jobject c;
    jca_iv_seen last_enc, last_any;
} jca_aead;

/* A thread's engines for one variant. Engines are not thread-safe, so each
 * thread has its own; they are reused call after call. */
typedef struct jca_thread_engines {
    jobject md[JCA_N_HASH];
    jobject mac[JCA_N_HASH][JCA_MAC_SLOTS];
    uint64_t mac_key[JCA_N_HASH][JCA_MAC_SLOTS]; /* key id the Mac is keyed with; 0: none */
    unsigned mac_next[JCA_N_HASH];
    jobject cbc, ctr;
    jca_aead gcm, siv;
} jca_thread_engines;

typedef struct jca_thread {
    JNIEnv *env;
    bool attached_by_us;
    jbyteArray in_buf;  /* JCA_CHUNK + JCA_OUT_SLACK bytes (a chunk and a tag) */
    jbyteArray out_buf; /* JCA_CHUNK + JCA_OUT_SLACK bytes */
    int frame_depth;    /* PushLocalFrame minus PopLocalFrame, 0 between calls */
    jca_thread_engines v[JCA_MAX_VARIANTS];
} jca_thread;

/* ---- jca_jvm.c ---- */
/* Loads libjvm and creates or joins the JVM, resolves jca_refs (once per
 * process; later calls return the first result). */
webcrypto_status jca_jvm_start(void);
/* The calling thread's state, attaching it to the JVM on first use. NULL
 * (with the error set) if that fails. */
jca_thread *jca_thread_get(void);
/* Maps and clears the pending Java exception: the one place where Java
 * exceptions become statuses. `what` names the failed step. */
webcrypto_status jca_exception(JNIEnv *env, const char *what);
/* Local frames, counted for the stress test's balance check. */
webcrypto_status jca_frame_push(jca_thread *t, jint capacity);
void jca_frame_pop(jca_thread *t);
/* Global references, counted for the stress test. */
jobject jca_global(JNIEnv *env, jobject local);
void jca_global_free(JNIEnv *env, jobject global);
/* A description of the running JVM ("Java 17.0.15 (...)"), static. */
const char *jca_java_description(void);

/* Debug counters (jca_debug.h reads them). */
extern atomic_long jca_stat_globals;
extern atomic_long jca_stat_unbalanced;
extern atomic_long jca_stat_pending;

#endif
