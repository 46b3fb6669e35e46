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

/* JNI 1.6: nothing later is used, and Android's VM refuses GetEnv and
 * AttachCurrentThread for any version above 1.6 (the NDK's jni.h stops there
 * too); HotSpot takes it. */
#define JCA_JNI_VERSION JNI_VERSION_1_6
/* Bytes crossing JNI per chunk: large inputs are fed to the engine in
 * update() calls of this size, so the Java arrays stay this small (but see
 * JCA_KEEP). */
#define JCA_CHUNK ((size_t)256 * 1024)
/* Output arrays have room for one chunk plus what a mode may hold back
 * (a block and a tag). */
#define JCA_OUT_SLACK 64
/* A decryption whose provider buffers the whole message until doFinal
 * (SunJCE's GCM) gets it in one array: the thread's input array, grown up
 * to this size and kept (allocating and zeroing a fresh array cost 20% of
 * a 1-4 MiB decryption); a larger message gets an array for its call. */
#define JCA_KEEP ((size_t)4 * JCA_CHUNK + JCA_OUT_SLACK)
#define JCA_MAX_VARIANTS 8
#define JCA_N_HASH WC_HASH_COUNT /* indexed by wc_hash */
#define JCA_MAC_SLOTS 4 /* keyed Mac engines kept per thread, variant and hash */
/* Local references one operation may hold at once (PushLocalFrame). */
#define JCA_FRAME 16

/* Classes (global references) and method IDs, resolved once at init. */
typedef struct jca_refs {
    jclass MessageDigest, Mac, Cipher, SecretKeySpec, IvParameterSpec, GCMParameterSpec,
        SecureRandom, Security, Provider, SecretKeyFactory, PBEKeySpec, Key, Throwable, System;
    jclass AEADBadTagException, BadPaddingException, InvalidKeySpecException, InvalidKeyException,
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

    /* asymmetric keys (jca_pkey.c) */
    jclass Signature, KeyFactory, KeyPairGenerator, KeyAgreement, KeyPair, AlgorithmParameters,
        BigInteger, SignatureException, RSAPublicKeySpec, RSAPrivateCrtKeySpec, RSAKey,
        RSAPublicKey, RSAPrivateKey, RSAPrivateCrtKey, RSAKeyGenParameterSpec, ECPoint,
        ECParameterSpec, ECPublicKeySpec, ECPrivateKeySpec, ECGenParameterSpec, ECFieldFp,
        EllipticCurve, ECPublicKey, ECPrivateKey, X509EncodedKeySpec, PKCS8EncodedKeySpec,
        PSSParameterSpec, MGF1ParameterSpec, OAEPParameterSpec, PSpecified;
    jobject mgf1[JCA_N_HASH]; /* MGF1ParameterSpec.SHA1 .. SHA512 (global refs) */
    jmethodID sig_get, sig_get_p, sig_provider, sig_init_sign, sig_init_verify, sig_set_param,
        sig_update, sig_sign, sig_verify;
    jmethodID kf_get, kf_get_p, kf_provider, kf_public, kf_private;
    jmethodID kpg_get, kpg_get_p, kpg_provider, kpg_init, kpg_generate, kp_public, kp_private;
    jmethodID ka_get, ka_get_p, ka_provider, ka_init, ka_phase, ka_secret;
    jmethodID ap_get, ap_get_p, ap_provider, ap_init, ap_spec;
    jmethodID bi_new, bi_bytes, bi_add, bi_sub, bi_mul, bi_mod, bi_mod_pow, bi_mod_inv, bi_equals,
        bi_test_bit;
    jmethodID rsa_pub_spec_new, rsa_crt_spec_new, rsa_modulus, rsa_pub_exp, rsa_priv_exp,
        crt_pub_exp, crt_p, crt_q, crt_dp, crt_dq, crt_qi, rsa_kg_new;
    jmethodID point_new, point_x, point_y, ec_pub_spec_new, ec_priv_spec_new, ec_gen_new,
        ecps_curve, ecps_order, ecps_generator, curve_field, curve_a, curve_b, fp_p, ec_w, ec_s;
    jmethodID x509_new, pkcs8_new, pss_new, oaep_new, psrc_new;
    /* KeyPairGenerator.initialize(int, SecureRandom); EdDSAParameterSpec
     * (JDK 15+; NULL before) and its (boolean, byte[]) constructor */
    jmethodID kpg_init_size_random;
    jclass EdDSAParameterSpec;
    jmethodID eddsa_spec_new;
} jca_refs;

extern JavaVM *jca_vm;
extern jca_refs jca;

/* Key types of the asymmetric algorithms: RSA, EC, then one per OKP member
 * in wc_okp's order, so an OKP key type is JCA_KT_OKP + its member and its
 * facts (length, OID, name) are backend.h's (jca_pkey.h: kt_okp). */
enum { JCA_KT_RSA, JCA_KT_EC, JCA_KT_OKP, JCA_N_KT = JCA_KT_OKP + WC_OKP_COUNT };
#define JCA_KT_ED (JCA_KT_OKP + WC_OKP_ED25519)
#define JCA_KT_X (JCA_KT_OKP + WC_OKP_X25519)
#define JCA_KT_ED448 (JCA_KT_OKP + WC_OKP_ED448)
#define JCA_KT_X448 (JCA_KT_OKP + WC_OKP_X448)
#define JCA_N_CURVE 4 /* indexed by webcrypto_named_curve P256..P521 (1..3) */
#define JCA_MAX_FIELD 66

/* A curve's domain parameters for a variant, from AlgorithmParameters "EC"
 * (global refs), and the constants import checks in C. */
typedef struct jca_curve {
    jobject params;    /* ECParameterSpec */
    jobject p, a, b;   /* BigInteger: the field prime and the coefficients */
    jobject sqrt_exp;  /* (p + 1) / 4: square roots mod p (p = 3 mod 4 for all three) */
    jobject g_pub;     /* the generator as a PublicKey, for x(dG) through ECDH */
    size_t fs;         /* field size in bytes */
    uint8_t p_bytes[JCA_MAX_FIELD], n_bytes[JCA_MAX_FIELD]; /* p and the order, fs bytes */
} jca_curve;

/* The asymmetric algorithms of a variant: providers (global refs; NULL:
 * absent) and the Java names, fixed by init. */
typedef struct jca_pkey_variant {
    jobject kf_prov[JCA_N_KT], kpg_prov[JCA_N_KT];
    jstring kt_name[JCA_N_KT]; /* "RSA", "EC", "Ed25519", "X25519", "Ed448", "X448" */
    jobject rsa_prov[JCA_N_HASH], pss_prov, ecdsa_prov[JCA_N_HASH], ed_prov;
    jstring rsa_name[JCA_N_HASH], pss_name, ecdsa_name[JCA_N_HASH], ed_name;
    bool ecdsa_der[JCA_N_HASH]; /* the engine speaks DER: r || s converted here */
    jobject oaep_prov, ecdh_prov, x_prov;
    jstring oaep_name, ecdh_name, x_name, mgf1_name;
    /* Ed448 and X448 (SunEC, BouncyCastle): Signature "Ed448", KeyAgreement
     * "X448"; ed448_context: the Signature takes EdDSAParameterSpec(false,
     * context) (checked against RFC 8032 7.4 at init) */
    jobject ed448_prov, x448_prov;
    jstring ed448_name, x448_name;
    bool ed448_context;
    jca_curve curve[JCA_N_CURVE]; /* params NULL: the curve is unavailable */
    jobject x_base;  /* X25519 public key u = 9 (global): public keys from private ones */
    jobject x448_base; /* X448 public key u = 5 (global), the same for X448 */
    jobject ed_p;    /* BigInteger 2^255 - 19 */
    jobject one;     /* BigInteger 1 */
} jca_pkey_variant;

/* One provider choice: "jca" (provider NULL: the JVM's order, resolved per
 * algorithm at init) or "jca:NAME". Read-only after init. */
typedef struct jca_variant {
    int index; /* into the per-thread cache */
    char label[64];
    char description[256];
    jobject provider;                 /* global ref; NULL: none named */
    bool host_claimed;                /* its name's host-provider entry is claimed */
    jobject md_prov[JCA_N_HASH];      /* provider chosen per algorithm (global refs) */
    jobject mac_prov[JCA_N_HASH];
    jobject cbc_prov, ctr_prov, gcm_prov, siv_prov;
    /* ChaCha20-Poly1305 (SunJCE, JDK 11+; its keys are "ChaCha20" keys) and
     * AES-OCB (BouncyCastle): the draft "Modern Algorithms" AEADs */
    jobject cc_prov, ocb_prov;
    jstring cc_name, ocb_name, cc_key_name;
    bool cc_dec_whole, ocb_dec_whole;
    jobject pbkdf2_prov[JCA_N_HASH];
    jobject kdf_prov[JCA_N_HASH]; /* javax.crypto.KDF HKDF-SHA* (JDK 25+); NULL: the JVM's order */
    bool have_kdf[JCA_N_HASH];
    jstring md_name[JCA_N_HASH], mac_name[JCA_N_HASH], pbkdf2_name[JCA_N_HASH],
        kdf_name[JCA_N_HASH];
    jstring cbc_name, ctr_name, gcm_name, siv_name, aes_name;
    bool gcm_short_tags; /* the GCM engine takes 32- and 64-bit tags */
    /* The engine's decryption returns nothing before doFinal (it buffers the
     * message): the message is given to it in one doFinal. */
    bool gcm_dec_whole, siv_dec_whole;
    jobject random;      /* SecureRandom (global ref), thread-safe */
    jobject kw_prov;     /* AESWrap (RFC 3394) */
    jstring kw_name;
    /* SP 800-185 at the provider's fixed lengths (BouncyCastle: Mac
     * "KMAC128" / "KMAC256", 256 / 512 bits, no customization; SUN and BC:
     * MessageDigest "SHAKE128-256" / "SHAKE256-512"), each checked against a
     * known answer at init (jca_sp800185_setup); NULL: absent */
    jobject kmac_prov[WC_KMAC_COUNT], shake_prov[WC_XOF_COUNT];
    jstring kmac_name[WC_KMAC_COUNT], shake_name[WC_XOF_COUNT];
    uint8_t prf_key[16]; /* jca_siphash24's key for key-bytes ids, random (init) */
    jca_pkey_variant pk;
} jca_variant;

/* What identifies an AEAD init: the key and the IV (a hash of it). */
typedef struct jca_iv_seen {
    uint64_t key_id; /* keyed PRF of the key bytes (jca_key.bytes_id); 0: nothing recorded */
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

/* A thread's Signature or key-agreement engine and what it was last
 * initialised with: an engine stays initialised after sign()/verify(), so a
 * call with the same key, direction (and PSS salt) skips the init. */
typedef struct jca_sig {
    jobject e;
    uint64_t key_id; /* 0: not initialised */
    int mode;        /* 1 sign, 2 verify */
    size_t salt;
} jca_sig;

/* A thread's engines for one variant. Engines are not thread-safe, so each
 * thread has its own; they are reused call after call. */
typedef struct jca_thread_engines {
    jobject md[JCA_N_HASH];
    jobject mac[JCA_N_HASH][JCA_MAC_SLOTS];
    uint64_t mac_key[JCA_N_HASH][JCA_MAC_SLOTS]; /* key id the Mac is keyed with; 0: none */
    unsigned mac_next[JCA_N_HASH];
    jobject cbc, ctr, kw;
    jobject kmac[WC_KMAC_COUNT], shake[WC_XOF_COUNT];
    jca_aead gcm, siv, cc, ocb;
    jca_sig rsa[JCA_N_HASH], pss[JCA_N_HASH], ecdsa[JCA_N_HASH], ed, ed448;
    jobject oaep, ecdh, x25519, x448;
    /* jca_pq.c: ML-DSA's Signature; ML-KEM's KEM and the Encapsulator /
     * Decapsulator of the last key (e; key_id), which the JDK makes
     * immutable (javax.crypto.KEM): reused while the key is the same */
    jca_sig ml_dsa;
    jobject kem;
    jca_sig kem_enc, kem_dec;
} jca_thread_engines;

typedef struct jca_thread {
    JNIEnv *env;
    bool attached_by_us;
    jbyteArray in_buf;  /* in_cap bytes: at least a chunk and a tag */
    size_t in_cap;      /* JCA_CHUNK + JCA_OUT_SLACK, grown up to JCA_KEEP */
    jbyteArray out_buf; /* JCA_CHUNK + JCA_OUT_SLACK bytes */
    int frame_depth;    /* PushLocalFrame minus PopLocalFrame, 0 between calls */
    jca_thread_engines v[JCA_MAX_VARIANTS];
} jca_thread;

/* ---- jca_jvm.c ---- */
/* Loads libjvm and creates or joins the JVM, resolves jca_refs (once per
 * process; later calls return the first result). */
webcrypto_status jca_jvm_start(void);
/* The JVM once jca_jvm_start has succeeded (any thread may ask), else NULL. */
JavaVM *jca_started_vm(void);
/* Whether this process is a child forked after the JVM started (a JVM does
 * not survive fork), and the error that says so (OperationError). */
bool jca_in_forked_child(void);
webcrypto_status jca_forked_error(void);
/* The calling thread's state, attaching it to the JVM on first use. NULL
 * (with the error set) if that fails. */
jca_thread *jca_thread_get(void);
/* Maps and clears the pending Java exception: the one place where Java
 * exceptions become statuses. `what` names the failed step. */
webcrypto_status jca_exception(JNIEnv *env, const char *what);
/* The same for Signature.initVerify of an Ed25519 or Ed448 public key:
 * SunEC decodes the key's point only there and throws InvalidKeyException
 * for bytes that are no point on the curve, where openssl and BouncyCastle
 * answer false in verify. The key imported, so it is a key, and WebCrypto's
 * verify answers false for a signature that does not verify: that
 * exception sets *refused and is OK (cleared); any other is mapped as by
 * jca_exception (*refused false). */
webcrypto_status jca_exception_verify_key(JNIEnv *env, const char *what, bool *refused);
/* Local frames, counted for the stress test's balance check. */
webcrypto_status jca_frame_push(jca_thread *t, jint capacity);
void jca_frame_pop(jca_thread *t);
/* Global references, counted for the stress test. */
jobject jca_global(JNIEnv *env, jobject local);
void jca_global_free(JNIEnv *env, jobject global);
/* Defines one of the backend's own classes (the .java files in java/, compiled at build
 * time) from its class-file bytes, in a class loader private to the backend.
 * Returns a global reference for the JVM's life, or NULL (exception
 * cleared) where the class cannot be defined: the caller has a fallback or
 * goes without. Call it once per class (the caller caches the result). */
jclass jca_define_class(JNIEnv *env, const char *name, const unsigned char *bytes, size_t len);
/* A description of the running JVM ("Java 17.0.15 (...)"), static. */
const char *jca_java_description(void);
/* Drops the calling thread's engines of variant slot `index` (a variant
 * whose init failed leaves its slot to the next one). */
void jca_thread_engines_reset(jca_thread *t, int index);

/* ---- jca_op.c: the scaffolding every operation (and init's probes) uses ---- */
typedef struct jca_op {
    jca_thread *t;
    JNIEnv *env;
} jca_op;

#define JCHECK(o, what)                                        \
    do {                                                       \
        if ((*(o)->env)->ExceptionCheck((o)->env)) {           \
            st = jca_exception((o)->env, what);                \
            goto done;                                         \
        }                                                      \
    } while (0)

/* Attaches the thread and opens a local frame of JCA_FRAME (or capacity). */
webcrypto_status jca_op_begin(jca_op *o);
webcrypto_status jca_op_begin_cap(jca_op *o, jint capacity);
/* Closes the frame; maps (and counts) an exception left pending. */
webcrypto_status jca_op_end(jca_op *o, webcrypto_status st);
/* Releases a thread's cached engine (after an exception). */
void jca_drop(jca_op *o, jobject *engine);
/* n <= JCA_CHUNK bytes into the thread's input array. */
webcrypto_status jca_put_in(jca_op *o, const uint8_t *p, size_t n);
webcrypto_status jca_get_bytes(jca_op *o, jbyteArray a, size_t off, size_t n, uint8_t *p);
webcrypto_status jca_set_bytes(jca_op *o, jbyteArray a, size_t off, size_t n, const uint8_t *p);
/* A new local byte[] with p[0..n) (zeros if p is NULL). */
webcrypto_status jca_new_array(jca_op *o, const uint8_t *p, size_t n, jbyteArray *out);
/* Overwrites n bytes of a Java array that held secrets. */
void jca_zero_array(jca_op *o, jbyteArray a, size_t n);
/* engine.m(byte[], int, int) over in[0..len) in chunks. */
webcrypto_status jca_feed(jca_op *o, jobject engine, jmethodID m, const uint8_t *in, size_t len,
                          const char *what);
webcrypto_status jca_get_instance(jca_op *o, jclass cls, jmethodID get, jmethodID get_p,
                                  jstring name, jobject provider, jobject *out);
webcrypto_status jca_cached_instance(jca_op *o, jclass cls, jmethodID get, jmethodID get_p,
                                     jstring name, jobject provider, jobject *slot);
/* The AlgorithmParameterSpec of an AEAD init: GCMParameterSpec(tag bits,
 * iv) for AES-GCM, -GCM-SIV and -OCB, IvParameterSpec(iv) for
 * ChaCha20-Poly1305 (its tag is always 128 bits). A local reference
 * (jca_cipher.c). */
webcrypto_status jca_aead_spec(jca_op *o, wc_aead kind, jbyteArray iv, size_t iv_len,
                               size_t tag_len, jobject *out);
/* new SecretKeySpec(key, alg), a local reference (an empty key becomes one
 * zero byte: HMAC's equal, which SecretKeySpec takes). */
webcrypto_status jca_key_spec(jca_op *o, const uint8_t *key, size_t len, jstring alg,
                              jobject *out);
/* A global reference to the Java string s; NULL when *st is already an
 * error (so a run of calls is checked once) or sets *st. */
jstring jca_global_string(jca_op *o, const char *s, webcrypto_status *st);
/* OperationError naming the Java array limit if n > 2^31 - 1: for data a
 * Java engine keeps whole. `what` names the data. */
webcrypto_status jca_whole_fits(size_t n, const char *what);
/* The provider that serves `name` for v (a global reference), NULL if none:
 * v's own provider, or, unless named_only, the first of the JVM's order. */
jobject jca_probe_provider(jca_op *o, const jca_variant *v, jclass cls, jmethodID get,
                           jmethodID get_p, jmethodID get_provider, jstring name,
                           bool named_only);

/* SipHash-2-4 of p[0..len) under key (the variant's prf_key; jca_cipher.c). */
uint64_t jca_siphash24(const uint8_t key[16], const uint8_t *p, size_t len);
/* Releases a global reference from any thread, attaching it if needed
 * (jca_digest_mac.c). */
void jca_engine_release(jobject global);

/* ---- jca_probe.c: what init asks the providers (once per variant) ---- */
/* "NAME VERSION" of a provider, into out. */
void jca_provider_label(jca_op *o, jobject p, char *out, size_t cap);
/* Whether v's GCM-SIV engine reproduces RFC 8452's vector, and its AESWrap
 * RFC 3394's. */
bool jca_probe_siv(jca_op *o, const jca_variant *v);
bool jca_probe_kw(jca_op *o, const jca_variant *v);
/* Whether v's GCM engine takes 32-bit tags. */
bool jca_probe_gcm_short_tags(jca_op *o, const jca_variant *v);
/* Whether the AEAD engine `name` buffers a decryption until doFinal. */
bool jca_probe_dec_whole(jca_op *o, const jca_variant *v, wc_aead kind, jstring name,
                         jobject prov);
/* Draws v->prf_key from v->random. */
webcrypto_status jca_prf_key_draw(jca_op *o, jca_variant *v);

/* ---- jca_host.c: providers a host hands over ---- */
/* The ops' use_provider (backend.h): keeps the host's Provider for the
 * variant "jca:NAME" until it starts. */
webcrypto_status jca_use_provider(const char *name, void *provider);
/* Init's claim on its variant name: the host's Provider for it (owned by the
 * table) or NULL; *claimed whether an entry was claimed. A failed init gives
 * the claim back with jca_host_unclaim. */
jobject jca_host_claim(const char *name, bool *claimed);
void jca_host_unclaim(const char *name);

/* ---- jca_random.c ---- */
webcrypto_status jca_random_bytes(const void *bctx, uint8_t *out, size_t len);

/* ---- shared by the backend's files ---- */
enum { ENCRYPT_MODE = 1, DECRYPT_MODE = 2 }; /* javax.crypto.Cipher */

/* The Java names per wc_hash. */
static const char *const md_names[JCA_N_HASH] = {"SHA-1",    "SHA-256",  "SHA-384", "SHA-512",
                                                 "SHA3-256", "SHA3-384", "SHA3-512"};
static const char *const mac_names[JCA_N_HASH] = {"HmacSHA1",     "HmacSHA256",   "HmacSHA384",
                                                  "HmacSHA512",   "HmacSHA3-256", "HmacSHA3-384",
                                                  "HmacSHA3-512"};
static const char *const pbkdf2_names[JCA_N_HASH] = {
    "PBKDF2WithHmacSHA1",     "PBKDF2WithHmacSHA256",   "PBKDF2WithHmacSHA384",
    "PBKDF2WithHmacSHA512",   "PBKDF2WithHmacSHA3-256", "PBKDF2WithHmacSHA3-384",
    "PBKDF2WithHmacSHA3-512"};
/* javax.crypto.KDF (JDK 25) has no HKDF-SHA3-*: those names find nothing
 * and HKDF with SHA-3 is built on the Mac. */
static const char *const kdf_names[JCA_N_HASH] = {"HKDF-SHA1",     "HKDF-SHA256",  "HKDF-SHA384",
                                                  "HKDF-SHA512",   "HKDF-SHA3-256", "HKDF-SHA3-384",
                                                  "HKDF-SHA3-512"};

/* A hash the tables above index (the core sends no other). */
static inline bool hash_ok(wc_hash h) { return (unsigned)h < JCA_N_HASH; }

static inline size_t max_size(size_t a, size_t b) { return a > b ? a : b; }
static inline size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* A secret key (jca_cipher.c makes it; HMAC and the ciphers use it). */
typedef struct jca_key {
    wc_family family; /* HMAC, CIPHER, AEAD, KEYWRAP or KMAC */
    wc_hash hash;     /* HMAC */
    uint64_t id; /* never reused: the per-thread Mac cache is keyed by it */
    /* PRF of the key bytes (jca_siphash24 under v->prf_key), not a per-key
     * counter: SunJCE refuses an encryption init repeating the key and IV
     * of its last one by comparing key BYTES, so two key objects with
     * equal bytes must get equal ids for aead_init to see the repeat. */
    uint64_t bytes_id;
    const jca_variant *v;
    jobject spec; /* SecretKeySpec, global */
} jca_key;


/* ---- jca_digest_mac.c: digests and HMAC (backend.h has the contracts) ---- */
webcrypto_status jca_digest(const void *bctx, wc_hash hash, const uint8_t *in,
                            size_t len, uint8_t *out);
webcrypto_status jca_digest_new(const void *bctx, wc_hash hash, void **ctx);
webcrypto_status jca_digest_update(void *ctx, const uint8_t *in, size_t len);
webcrypto_status jca_digest_final(void *ctx, uint8_t *out);
void jca_digest_free(void *ctx);
webcrypto_status jca_hmac(const void *key_state, const uint8_t *in, size_t len, uint8_t *out);
webcrypto_status jca_hmac_new(const void *key_state, void **ctx);
webcrypto_status jca_hmac_update(void *ctx, const uint8_t *in, size_t len);
webcrypto_status jca_hmac_final(void *ctx, uint8_t *out);
void jca_hmac_free(void *ctx);
/* mac.doFinal(out_buf, 0) and the copy out; the Mac stays keyed. */
webcrypto_status jca_mac_finish(jca_op *o, jobject mac, size_t size, uint8_t *out);
/* cSHAKE and KMAC at the provider's fixed lengths (backend.h has the
 * contracts; without WC_CAP_XOF_ANY_LENGTH and WC_CAP_KMAC_ANY the core
 * sends no other length and no customization). */
webcrypto_status jca_xof(const void *bctx, wc_xof kind, const uint8_t *n, size_t n_len,
                         const uint8_t *s, size_t s_len, const uint8_t *in, size_t len,
                         uint8_t *out, size_t out_len);
webcrypto_status jca_kmac(const void *key_state, wc_kmac kind, const uint8_t *s, size_t s_len,
                          const uint8_t *in, size_t len, uint8_t *out, size_t out_len);
/* Probes the variant's SHAKE and KMAC engines, each with a known answer;
 * adds their WC_CAP bits. */
void jca_sp800185_setup(jca_op *o, jca_variant *v, wc_caps *caps);

/* ---- jca_cipher.c: secret keys, AES modes, AEADs, AES-KW (backend.h has the contracts) ---- */
webcrypto_status jca_secret_key_new(const void *bctx, wc_family family, unsigned member,
                                    const uint8_t *key, size_t key_len, void **state);
void jca_secret_key_free(void *state);
webcrypto_status jca_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                            const uint8_t iv[16], const uint8_t *in, size_t len, uint8_t *out);
webcrypto_status jca_aead_seal(const void *key_state, const wc_aead_msg *m);
webcrypto_status jca_aead_open(const void *key_state, const wc_aead_msg *m);
webcrypto_status jca_kw_wrap(const void *key_state, const uint8_t *in, size_t len, uint8_t *out);
webcrypto_status jca_kw_unwrap(const void *key_state, const uint8_t *in, size_t len, uint8_t *out);

/* ---- jca_kdf.c: HKDF, PBKDF2 (backend.h has the contracts) ---- */
webcrypto_status jca_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm,
                          size_t ikm_len, const uint8_t *salt, size_t salt_len, const uint8_t *info,
                          size_t info_len, uint8_t *out, size_t out_len);
webcrypto_status jca_pbkdf2(const void *bctx, wc_hash hash, const uint8_t *password,
                            size_t password_len, const uint8_t *salt, size_t salt_len,
                            uint32_t iterations, uint8_t *out, size_t out_len);

/* ---- jca_jvm.c: the asymmetric part of the class cache ---- */
webcrypto_status jca_resolve_pkey(JNIEnv *env);

/* ---- jca_pkey.c ---- */
/* Probes the variant's asymmetric algorithms; adds their WC_CAP bits. */
webcrypto_status jca_pkey_setup(jca_op *o, jca_variant *v, wc_caps *caps);
/* Deletes the global references jca_pkey_setup made (a failed init). */
void jca_pkey_variant_free(JNIEnv *env, jca_pkey_variant *pk);
webcrypto_status jca_pkey_import(const void *bctx, wc_family family, unsigned member,
                                 const wc_pkey_fields *f, void **state);
webcrypto_status jca_pkey_generate(const void *bctx, wc_family family, unsigned member,
                                   size_t modulus_bits, wc_bytes e, webcrypto_named_curve curve,
                                   void **state);
webcrypto_status jca_pkey_fields(const void *state, wc_pkey_fields *out);
webcrypto_status jca_pkey_private_fields(const void *state, wc_pkey_fields *out, uint8_t *buf,
                                         size_t cap);
void jca_pkey_free(void *state);
webcrypto_status jca_rsa_sign(const void *state, wc_rsa_scheme scheme,
                              wc_hash hash, size_t salt_len, const uint8_t *msg,
                              size_t len, uint8_t *sig, size_t *sig_len);
webcrypto_status jca_rsa_verify(const void *state, wc_rsa_scheme scheme,
                                wc_hash hash, size_t salt_len, const uint8_t *msg,
                                size_t len, const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status jca_rsa_oaep_encrypt(const void *state, wc_hash hash,
                                      const uint8_t *label, size_t label_len, const uint8_t *in,
                                      size_t len, uint8_t *out, size_t *out_len);
webcrypto_status jca_rsa_oaep_decrypt(const void *state, wc_hash hash,
                                      const uint8_t *label, size_t label_len, const uint8_t *in,
                                      size_t len, uint8_t *out, size_t *out_len);
webcrypto_status jca_ecdsa_sign(const void *state, wc_hash hash, const uint8_t *msg,
                                size_t len, uint8_t *sig, size_t *sig_len);
webcrypto_status jca_ecdsa_verify(const void *state, wc_hash hash,
                                  const uint8_t *msg, size_t len, const uint8_t *sig,
                                  size_t sig_len, bool *valid);
webcrypto_status jca_ecdh(const void *private_state, const void *public_state, uint8_t *out,
                          size_t *out_len);
webcrypto_status jca_okp_sign(const void *state, wc_okp kind, const uint8_t *context,
                              size_t context_len, const uint8_t *msg, size_t len, uint8_t *sig,
                              size_t sig_cap, size_t *sig_len);
webcrypto_status jca_okp_verify(const void *state, wc_okp kind, const uint8_t *context,
                                size_t context_len, const uint8_t *msg, size_t len,
                                const uint8_t *sig, size_t sig_len, bool *valid);
webcrypto_status jca_okp_derive(const void *private_state, const void *public_state, wc_okp kind,
                                uint8_t *out, size_t out_cap, size_t *out_len);

/* ---- jca_pq.c: ML-KEM, ML-DSA (JDK 24+) ---- */
webcrypto_status jca_ml_kem_encapsulate(const void *state, wc_ml_kem kind, uint8_t *ct,
                                        uint8_t *shared);
webcrypto_status jca_ml_kem_decapsulate(const void *state, wc_ml_kem kind, const uint8_t *ct,
                                        uint8_t *shared);
webcrypto_status jca_ml_dsa_sign(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                 size_t ctx_len, const uint8_t *msg, size_t len, uint8_t *sig);
webcrypto_status jca_ml_dsa_verify(const void *state, wc_ml_dsa kind, const uint8_t *ctx,
                                   size_t ctx_len, const uint8_t *msg, size_t len,
                                   const uint8_t *sig, size_t sig_len, bool *valid);

/* Debug counters (jca_debug.h reads them). */
extern atomic_long jca_stat_globals;
extern atomic_long jca_stat_unbalanced;
extern atomic_long jca_stat_pending;

#endif
