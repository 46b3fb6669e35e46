/*
 * java_host.c - the JNI library of the Java-hosted test (JavaHostTest.java):
 * libwebcrypto used the way an Android app uses it. Java is the host: it
 * loads this library with System.loadLibrary, JNI_OnLoad hands the JavaVM to
 * libwebcrypto, and crypto is then called
 *   (a) from Java threads, through native methods (already attached);
 *   (b) from pthreads created here that never touched Java (the library
 *       attaches them, as daemons);
 *   (c) from pthreads that end right after one call (the library must
 *       detach them at thread exit: nothing here does);
 *   (d) all of it at once while Java calls System.gc().
 * Each run is a suite of known answers and a Wycheproof AES-GCM (and, where
 * the variant has it, AES-GCM-SIV) subset. Native methods return null on
 * success, else a description of the first failure.
 */
#include <jansson.h>
#include <jni.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <webcrypto.h>

#include "JavaHostTest.h" /* javac -h: the native methods' prototypes */

static JavaVM *g_vm;
static char g_onload_error[256];

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    g_vm = vm;
    /* What an app's JNI_OnLoad does: nothing else is needed before the
     * first crypto call, on any thread. */
    webcrypto_status st = webcrypto_jca_set_java_vm(vm);
    if (st != WEBCRYPTO_OK)
        snprintf(g_onload_error, sizeof g_onload_error, "webcrypto_jca_set_java_vm: %s: %s",
                 webcrypto_status_name(st), webcrypto_error_message());
    return JNI_VERSION_1_6; /* what the backend asks for too (Android's VM: at most 1.6) */
}

/* ---- small helpers ---- */

typedef struct {
    char msg[512];
} err_t;

static bool failf(err_t *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static bool failf(err_t *e, const char *fmt, ...) {
    if (e->msg[0]) return false; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return false;
}

static bool st_ok(err_t *e, webcrypto_status st, const char *what, const char *backend) {
    if (st == WEBCRYPTO_OK) return true;
    return failf(e, "%s on %s: %s: %s", what, backend, webcrypto_status_name(st),
                 webcrypto_error_message());
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes hex into a fresh buffer (never NULL on success, even for ""). */
static uint8_t *unhex(const char *hex, size_t *len) {
    size_t n = strlen(hex);
    if (n % 2) return NULL;
    uint8_t *out = malloc(n / 2 + 1);
    if (!out) return NULL;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(out);
            return NULL;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return out;
}

static bool same_hex(const uint8_t *p, size_t n, const char *hex) {
    size_t m = 0;
    uint8_t *want = unhex(hex, &m);
    bool same = want && m == n && memcmp(p, want, n) == 0;
    free(want);
    return same;
}

/* ---- known answers ---- */

static bool kat_sha256(err_t *e, const webcrypto_backend *b, const char *name) {
    uint8_t out[32];
    size_t n = 0;
    if (!st_ok(e, webcrypto_digest(b, WEBCRYPTO_ALG_SHA_256, (const uint8_t *)"abc", 3, out,
                                   sizeof out, &n),
               "SHA-256", name))
        return false;
    if (!same_hex(out, n, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        return failf(e, "SHA-256(\"abc\") on %s: wrong digest", name);
    return true;
}

/* RFC 4231 test case 2 (HMAC-SHA-256). */
static bool kat_hmac(err_t *e, const webcrypto_backend *b, const char *name) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *k = NULL;
    if (!st_ok(e, webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, (const uint8_t *)"Jefe", 4, &p,
                                       false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k),
               "HMAC import", name))
        return false;
    const char *data = "what do ya want for nothing?";
    uint8_t mac[32];
    size_t n = 0;
    bool ok = st_ok(e, webcrypto_sign(&p, k, (const uint8_t *)data, strlen(data), mac, sizeof mac,
                                      &n), "HMAC sign", name);
    if (ok && !same_hex(mac, n, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
        ok = failf(e, "HMAC-SHA-256 RFC 4231 case 2 on %s: wrong MAC", name);
    webcrypto_key_free(k);
    return ok;
}

/* One AEAD case: encrypt must give ct||tag, decrypt the message; with
 * valid == false only the decryption is checked, and must fail. */
static bool aead_case(err_t *e, const webcrypto_backend *b, const char *name,
                      webcrypto_algorithm alg, const char *what, const char *key_hex,
                      const char *iv_hex, const char *aad_hex, const char *msg_hex,
                      const char *ct_hex, const char *tag_hex, bool valid) {
    size_t kn = 0, ivn = 0, an = 0, mn = 0, cn = 0, tn = 0;
    uint8_t *key = unhex(key_hex, &kn), *iv = unhex(iv_hex, &ivn), *aad = unhex(aad_hex, &an),
            *msg = unhex(msg_hex, &mn), *ct = unhex(ct_hex, &cn), *tag = unhex(tag_hex, &tn);
    uint8_t *ct_tag = malloc(cn + tn + 1), *out = malloc(cn + tn + mn + 16);
    webcrypto_key *k = NULL;
    bool ok = true;
    if (!key || !iv || !aad || !msg || !ct || !tag || !ct_tag || !out) {
        ok = failf(e, "%s: bad test data or out of memory", what);
        goto out;
    }
    memcpy(ct_tag, ct, cn);
    memcpy(ct_tag + cn, tag, tn);
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = alg);
    if (!st_ok(e, webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, key, kn, &kp, false,
                                       WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k),
               what, name)) {
        ok = false;
        goto out;
    }
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .iv = iv, .iv_len = ivn, .additional_data = aad,
                                          .additional_data_len = an, .tag_length = tn * 8);
    size_t n = 0;
    if (valid) {
        if (!st_ok(e, webcrypto_encrypt(&p, k, msg, mn, out, cn + tn + mn + 16, &n), what, name) ||
            n != cn + tn || memcmp(out, ct_tag, n) != 0) {
            ok = failf(e, "%s on %s: wrong encryption", what, name);
            goto out;
        }
        if (!st_ok(e, webcrypto_decrypt(&p, k, ct_tag, cn + tn, out, cn + tn + mn + 16, &n), what,
                   name) ||
            n != mn || memcmp(out, msg, n) != 0) {
            ok = failf(e, "%s on %s: wrong decryption", what, name);
            goto out;
        }
    } else {
        webcrypto_status st = webcrypto_decrypt(&p, k, ct_tag, cn + tn, out, cn + tn + mn + 16, &n);
        if (st != WEBCRYPTO_ERR_OPERATION)
            ok = failf(e, "%s on %s: an invalid case decrypted (%s), expected OperationError",
                       what, name, webcrypto_status_name(st));
    }
out:
    webcrypto_key_free(k);
    free(key), free(iv), free(aad), free(msg), free(ct), free(tag), free(ct_tag), free(out);
    return ok;
}

/* The GCM specification's test case 4 (AES-128, 60-byte message, AAD). */
static bool kat_gcm(err_t *e, const webcrypto_backend *b, const char *name) {
    return aead_case(e, b, name, WEBCRYPTO_ALG_AES_GCM, "AES-GCM test case 4",
                     "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
                     "feedfacedeadbeeffeedfacedeadbeefabaddad2",
                     "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                     "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
                     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
                     "5bc94fbc3221a5db94fae95ae7121a47", true);
}

/* RFC 8452 appendix C.1: AEAD_AES_128_GCM_SIV, an 8-byte plaintext. */
static bool kat_gcm_siv(err_t *e, const webcrypto_backend *b, const char *name) {
    return aead_case(e, b, name, WEBCRYPTO_ALG_AES_GCM_SIV, "AES-GCM-SIV RFC 8452 C.1",
                     "01000000000000000000000000000000", "030000000000000000000000", "",
                     "0100000000000000", "b5d839330ac7b786", "578782fff6013b815b287c22493a364c",
                     true);
}

/* RFC 8032 section 7.1, TEST 1 (the empty message). */
static bool kat_ed25519(err_t *e, const webcrypto_backend *b, const char *name) {
    size_t pn = 0, kn = 0;
    uint8_t *p8 = unhex("302e020100300506032b657004220420"
                        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", &pn);
    uint8_t *pk = unhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", &kn);
    const char *want = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
                       "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
    webcrypto_key *priv = NULL, *pub = NULL;
    bool ok = p8 && pk;
    if (!ok) failf(e, "Ed25519: out of memory");
    ok = ok && st_ok(e, webcrypto_import_key(b, WEBCRYPTO_FORMAT_PKCS8, p8, pn, &p, false,
                                             WEBCRYPTO_USAGE_SIGN, &priv), "Ed25519 pkcs8 import",
                     name);
    ok = ok && st_ok(e, webcrypto_import_key(b, WEBCRYPTO_FORMAT_RAW, pk, kn, &p, false,
                                             WEBCRYPTO_USAGE_VERIFY, &pub), "Ed25519 raw import",
                     name);
    uint8_t sig[64];
    size_t n = 0;
    ok = ok && st_ok(e, webcrypto_sign(&p, priv, (const uint8_t *)"", 0, sig, sizeof sig, &n),
                     "Ed25519 sign", name);
    if (ok && !same_hex(sig, n, want)) ok = failf(e, "Ed25519 RFC 8032 TEST 1 on %s: wrong signature", name);
    bool valid = false;
    ok = ok && st_ok(e, webcrypto_verify(&p, pub, sig, n, (const uint8_t *)"", 0, &valid),
                     "Ed25519 verify", name);
    if (ok && !valid) ok = failf(e, "Ed25519 on %s: the RFC's signature does not verify", name);
    if (ok) {
        sig[5] ^= 1;
        ok = st_ok(e, webcrypto_verify(&p, pub, sig, n, (const uint8_t *)"", 0, &valid),
                   "Ed25519 verify", name);
        if (ok && valid) ok = failf(e, "Ed25519 on %s: a changed signature verifies", name);
    }
    webcrypto_key_free(priv);
    webcrypto_key_free(pub);
    free(p8), free(pk);
    return ok;
}

/* ECDSA P-256 with SHA-256: a fresh key pair, a signature that verifies,
 * a changed one that does not. */
static bool kat_ecdsa(err_t *e, const webcrypto_backend *b, const char *name) {
    webcrypto_params gen = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *pub = NULL, *priv = NULL;
    const uint8_t msg[] = "round trip";
    uint8_t sig[64];
    size_t n = 0;
    bool valid = false;
    bool ok = st_ok(e, webcrypto_generate_key_pair(b, &gen, false,
                                                   WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                                                   &pub, &priv), "ECDSA generate", name) &&
              st_ok(e, webcrypto_sign(&p, priv, msg, sizeof msg, sig, sizeof sig, &n),
                    "ECDSA sign", name) &&
              st_ok(e, webcrypto_verify(&p, pub, sig, n, msg, sizeof msg, &valid), "ECDSA verify",
                    name);
    if (ok && (n != 64 || !valid)) ok = failf(e, "ECDSA on %s: own signature does not verify", name);
    if (ok) {
        sig[7] ^= 0x40;
        ok = st_ok(e, webcrypto_verify(&p, pub, sig, n, msg, sizeof msg, &valid), "ECDSA verify",
                   name);
        if (ok && valid) ok = failf(e, "ECDSA on %s: a changed signature verifies", name);
    }
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    return ok;
}

/* ---- the Wycheproof subset ---- */

typedef struct {
    const char *key, *iv, *aad, *msg, *ct, *tag;
    int id;
    bool valid;
} wp_case;
typedef struct {
    json_t *root;
    wp_case *cases;
    size_t n;
} wp_file;

static pthread_once_t wp_once = PTHREAD_ONCE_INIT;
static wp_file wp_gcm, wp_siv;
static char wp_dir[1024], wp_problem[1400];

static bool is_dir(const char *p) {
    struct stat s;
    return p && stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

/* The cases of `file` with a 96-bit IV and a 128-bit tag (what every
 * provider takes), valid or invalid ("acceptable" ones are left out). */
static void wp_read(wp_file *f, const char *file) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", wp_dir, file);
    json_error_t je;
    f->root = json_load_file(path, 0, &je);
    if (!f->root) {
        snprintf(wp_problem, sizeof wp_problem, "%s: %s (line %d)", path, je.text, je.line);
        return;
    }
    json_t *groups = json_object_get(f->root, "testGroups");
    size_t gi, ti;
    json_t *g, *t;
    size_t cap = 0;
    json_array_foreach(groups, gi, g) {
        if (json_integer_value(json_object_get(g, "ivSize")) != 96 ||
            json_integer_value(json_object_get(g, "tagSize")) != 128)
            continue;
        json_array_foreach(json_object_get(g, "tests"), ti, t) {
            const char *r = json_string_value(json_object_get(t, "result"));
            if (!r || strcmp(r, "acceptable") == 0) continue;
            if (f->n == cap) {
                cap = cap ? 2 * cap : 64;
                wp_case *c = realloc(f->cases, cap * sizeof *c);
                if (!c) {
                    snprintf(wp_problem, sizeof wp_problem, "out of memory");
                    return;
                }
                f->cases = c;
            }
            wp_case *c = &f->cases[f->n];
            c->key = json_string_value(json_object_get(t, "key"));
            c->iv = json_string_value(json_object_get(t, "iv"));
            c->aad = json_string_value(json_object_get(t, "aad"));
            c->msg = json_string_value(json_object_get(t, "msg"));
            c->ct = json_string_value(json_object_get(t, "ct"));
            c->tag = json_string_value(json_object_get(t, "tag"));
            c->id = (int)json_integer_value(json_object_get(t, "tcId"));
            c->valid = strcmp(r, "valid") == 0;
            if (!c->key || !c->iv || !c->aad || !c->msg || !c->ct || !c->tag) {
                snprintf(wp_problem, sizeof wp_problem, "%s: test %d lacks a field", path, c->id);
                return;
            }
            f->n++;
        }
    }
    if (f->n == 0) snprintf(wp_problem, sizeof wp_problem, "%s: no 96-bit IV cases", path);
}

/* Found as the other tests find it: $WEBCRYPTO_WYCHEPROOF_DIR, else
 * $WEBCRYPTO_SOURCE_DIR/../shared/wycheproof. */
static void wp_load(void) {
    const char *env = getenv("WEBCRYPTO_WYCHEPROOF_DIR");
    const char *src = getenv("WEBCRYPTO_SOURCE_DIR");
    if (env && *env)
        snprintf(wp_dir, sizeof wp_dir, "%s", env);
    else if (src && *src)
        snprintf(wp_dir, sizeof wp_dir, "%s/../shared/wycheproof", src);
    if (!is_dir(wp_dir)) {
        snprintf(wp_problem, sizeof wp_problem,
                 "no Wycheproof directory (WEBCRYPTO_WYCHEPROOF_DIR=%s, WEBCRYPTO_SOURCE_DIR=%s)",
                 env ? env : "(unset)", src ? src : "(unset)");
        return;
    }
    wp_read(&wp_gcm, "aes_gcm_test.json");
    if (!wp_problem[0]) wp_read(&wp_siv, "aes_gcm_siv_test.json");
}

static bool wp_available(void) {
    pthread_once(&wp_once, wp_load);
    return wp_problem[0] == 0;
}

static bool wp_run(err_t *e, const webcrypto_backend *b, const char *name, const wp_file *f,
                   webcrypto_algorithm alg, const char *label) {
    for (size_t i = 0; i < f->n; i++) {
        const wp_case *c = &f->cases[i];
        char what[96];
        snprintf(what, sizeof what, "Wycheproof %s tcId %d", label, c->id);
        if (!aead_case(e, b, name, alg, what, c->key, c->iv, c->aad, c->msg, c->ct, c->tag,
                       c->valid))
            return false;
    }
    return true;
}

/* ---- the suite ---- */

/* Everything once on the calling thread; need_siv: the variant must have
 * AES-GCM-SIV (the host's BouncyCastle). */
static bool suite(err_t *e, const char *name, bool need_siv) {
    const webcrypto_backend *b = NULL;
    if (!st_ok(e, webcrypto_backend_get(name, &b), "backend_get", name)) return false;
    static const webcrypto_algorithm needed[] = {WEBCRYPTO_ALG_SHA_256, WEBCRYPTO_ALG_HMAC,
                                                 WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_ED25519,
                                                 WEBCRYPTO_ALG_ECDSA};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!webcrypto_backend_supports(b, needed[i]))
            return failf(e, "%s lacks %s", name, webcrypto_algorithm_name(needed[i]));
    bool siv = webcrypto_backend_supports(b, WEBCRYPTO_ALG_AES_GCM_SIV);
    if (need_siv && !siv) return failf(e, "%s lacks AES-GCM-SIV", name);
    if (!kat_sha256(e, b, name) || !kat_hmac(e, b, name) || !kat_gcm(e, b, name) ||
        !kat_ed25519(e, b, name) || !kat_ecdsa(e, b, name) || (siv && !kat_gcm_siv(e, b, name)))
        return false;
    if (wp_available()) {
        if (!wp_run(e, b, name, &wp_gcm, WEBCRYPTO_ALG_AES_GCM, "aes_gcm_test.json")) return false;
        if (siv && !wp_run(e, b, name, &wp_siv, WEBCRYPTO_ALG_AES_GCM_SIV,
                           "aes_gcm_siv_test.json"))
            return false;
    }
    return true;
}

static jstring result(JNIEnv *env, const err_t *e) {
    return e->msg[0] ? (*env)->NewStringUTF(env, e->msg) : NULL;
}

/* A Java string as a C string in buf (false if it does not fit). */
static bool cstr(JNIEnv *env, jstring s, char *buf, size_t cap) {
    if (!s) return false;
    jsize n = (*env)->GetStringUTFLength(env, s);
    if ((size_t)n >= cap) return false;
    (*env)->GetStringUTFRegion(env, s, 0, (*env)->GetStringLength(env, s), buf);
    buf[n] = 0;
    return !(*env)->ExceptionCheck(env);
}

/* ---- (a) Java threads ---- */

JNIEXPORT jstring JNICALL Java_JavaHostTest_onLoadError(JNIEnv *env, jclass cls) {
    (void)cls;
    return g_onload_error[0] ? (*env)->NewStringUTF(env, g_onload_error) : NULL;
}

/* null if the Wycheproof subset runs, else why not. */
JNIEXPORT jstring JNICALL Java_JavaHostTest_wycheproofProblem(JNIEnv *env, jclass cls) {
    (void)cls;
    if (wp_available()) return NULL;
    return (*env)->NewStringUTF(env, wp_problem);
}

JNIEXPORT jint JNICALL Java_JavaHostTest_wycheproofCases(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    return wp_available() ? (jint)(wp_gcm.n + wp_siv.n) : 0;
}

/* The backend's description, or "ERROR <status>: <message>". */
JNIEXPORT jstring JNICALL Java_JavaHostTest_describe(JNIEnv *env, jclass cls, jstring jname) {
    (void)cls;
    char name[128], out[700];
    if (!cstr(env, jname, name, sizeof name)) return NULL;
    const webcrypto_backend *b = NULL;
    webcrypto_status st = webcrypto_backend_get(name, &b);
    if (st == WEBCRYPTO_OK)
        snprintf(out, sizeof out, "%s", webcrypto_backend_description(b));
    else
        snprintf(out, sizeof out, "ERROR %s: %s", webcrypto_status_name(st),
                 webcrypto_error_message());
    return (*env)->NewStringUTF(env, out);
}

JNIEXPORT jstring JNICALL Java_JavaHostTest_run(JNIEnv *env, jclass cls, jstring jname,
                                                jboolean need_siv, jint rounds) {
    (void)cls;
    err_t e = {{0}};
    char name[128];
    if (!cstr(env, jname, name, sizeof name)) return (*env)->NewStringUTF(env, "bad name");
    for (jint i = 0; i < rounds && !e.msg[0]; i++) suite(&e, name, need_siv);
    return result(env, &e);
}

/* The status name of webcrypto_jca_use_provider(name, provider). */
JNIEXPORT jstring JNICALL Java_JavaHostTest_useProvider(JNIEnv *env, jclass cls, jstring jname,
                                                        jobject provider) {
    (void)cls;
    char name[128];
    if (!cstr(env, jname, name, sizeof name)) return NULL;
    webcrypto_status st = webcrypto_jca_use_provider(name, provider);
    char out[600];
    snprintf(out, sizeof out, "%s%s%s", webcrypto_status_name(st), st ? ": " : "",
             st ? webcrypto_error_message() : "");
    return (*env)->NewStringUTF(env, out);
}

/* ---- (b), (d) native threads that never touched Java ---- */

typedef struct native_run {
    char name[128];
    bool need_siv;
    int rounds, n;
    pthread_t *tids;
    err_t *errs;
    /* The threads wait here after their work, still attached (by the
     * library), until nativeFinish: Java can see them meanwhile. */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    bool release;
} native_run;

static void *native_main(void *arg) {
    native_run *r = *(native_run **)arg;
    err_t *e = (err_t *)((void **)arg)[1];
    JNIEnv *env = NULL;
    if ((*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_6) != JNI_EDETACHED)
        failf(e, "a new native thread was attached before its first call");
    for (int i = 0; i < r->rounds && !e->msg[0]; i++) suite(e, r->name, r->need_siv);
    /* The library attached this thread for its calls. */
    if (!e->msg[0] && (*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK)
        failf(e, "the native thread is not attached after its calls");
    pthread_mutex_lock(&r->lock);
    r->done++;
    pthread_cond_broadcast(&r->cond);
    while (!r->release) pthread_cond_wait(&r->cond, &r->lock);
    pthread_mutex_unlock(&r->lock);
    free(arg);
    return NULL; /* the library's thread-exit destructor detaches it */
}

JNIEXPORT jlong JNICALL Java_JavaHostTest_nativeStart(JNIEnv *env, jclass cls, jstring jname,
                                                      jboolean need_siv, jint threads,
                                                      jint rounds) {
    (void)cls;
    native_run *r = calloc(1, sizeof *r);
    if (!r) return 0;
    if (!cstr(env, jname, r->name, sizeof r->name)) {
        free(r);
        return 0;
    }
    r->need_siv = need_siv;
    r->rounds = rounds;
    r->tids = calloc((size_t)threads, sizeof *r->tids);
    r->errs = calloc((size_t)threads, sizeof *r->errs);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
    if (!r->tids || !r->errs) return 0;
    for (int i = 0; i < threads; i++) {
        void **arg = malloc(2 * sizeof *arg);
        if (!arg) break;
        arg[0] = r;
        arg[1] = &r->errs[i];
        if (pthread_create(&r->tids[i], NULL, native_main, arg) != 0) {
            free(arg);
            break;
        }
        r->n++;
    }
    return (jlong)(intptr_t)r;
}

/* Waits until every thread of the run has done its work; returns how many
 * threads there are (they are still alive and attached). */
JNIEXPORT jint JNICALL Java_JavaHostTest_nativeAwaitWork(JNIEnv *env, jclass cls, jlong h) {
    (void)env, (void)cls;
    native_run *r = (native_run *)(intptr_t)h;
    pthread_mutex_lock(&r->lock);
    while (r->done < r->n) pthread_cond_wait(&r->cond, &r->lock);
    pthread_mutex_unlock(&r->lock);
    return r->n;
}

/* Lets the threads end, joins them; null, or the first failure. */
JNIEXPORT jstring JNICALL Java_JavaHostTest_nativeFinish(JNIEnv *env, jclass cls, jlong h,
                                                         jint expected) {
    (void)cls;
    native_run *r = (native_run *)(intptr_t)h;
    err_t e = {{0}};
    if (!r) return (*env)->NewStringUTF(env, "nativeStart failed");
    pthread_mutex_lock(&r->lock);
    r->release = true;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    for (int i = 0; i < r->n; i++) pthread_join(r->tids[i], NULL);
    if (r->n != expected) failf(&e, "only %d of %d threads started", r->n, (int)expected);
    for (int i = 0; i < r->n && !e.msg[0]; i++)
        if (r->errs[i].msg[0]) failf(&e, "native thread %d: %s", i, r->errs[i].msg);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->cond);
    free(r->tids);
    free(r->errs);
    free(r);
    return result(env, &e);
}

/* ---- (c) threads that end right after one call ---- */

typedef struct {
    char name[128];
    err_t e;
} short_arg;

static void *short_main(void *p) {
    short_arg *a = p;
    const webcrypto_backend *b = NULL;
    if (st_ok(&a->e, webcrypto_backend_get(a->name, &b), "backend_get", a->name))
        kat_sha256(&a->e, b, a->name);
    return NULL; /* no detach here: that is the library's job */
}

JNIEXPORT jstring JNICALL Java_JavaHostTest_shortThreads(JNIEnv *env, jclass cls, jstring jname,
                                                         jint count, jint batch) {
    (void)cls;
    err_t e = {{0}};
    short_arg *args = calloc((size_t)batch, sizeof *args);
    pthread_t *tids = calloc((size_t)batch, sizeof *tids);
    if (!args || !tids) {
        free(args), free(tids);
        return (*env)->NewStringUTF(env, "out of memory");
    }
    for (int done = 0; done < count && !e.msg[0]; done += batch) {
        int started = 0;
        for (int i = 0; i < batch; i++) {
            memset(&args[i], 0, sizeof args[i]);
            if (!cstr(env, jname, args[i].name, sizeof args[i].name) ||
                pthread_create(&tids[i], NULL, short_main, &args[i]) != 0) {
                failf(&e, "cannot start a thread");
                break;
            }
            started++;
        }
        for (int i = 0; i < started; i++) {
            pthread_join(tids[i], NULL);
            if (args[i].e.msg[0]) failf(&e, "short-lived thread: %s", args[i].e.msg);
        }
    }
    free(args), free(tids);
    return result(env, &e);
}

/* ---- a thread the host attaches: the library must leave it attached ---- */

typedef struct {
    char name[128];
    err_t e;
} host_arg;

static void *host_attached_main(void *p) {
    host_arg *a = p;
    JNIEnv *env = NULL, *again = NULL;
    JavaVMAttachArgs args = {.version = JNI_VERSION_1_6, .name = (char *)"host-attached",
                             .group = NULL};
    if ((*g_vm)->AttachCurrentThread(g_vm, (void **)&env, &args) != JNI_OK) {
        failf(&a->e, "AttachCurrentThread failed");
        return NULL;
    }
    const webcrypto_backend *b = NULL;
    if (st_ok(&a->e, webcrypto_backend_get(a->name, &b), "backend_get", a->name))
        kat_sha256(&a->e, b, a->name);
    /* Still attached with the same JNIEnv: the library did not detach or
     * re-attach a thread it did not attach. */
    if ((*g_vm)->GetEnv(g_vm, (void **)&again, JNI_VERSION_1_6) != JNI_OK || again != env)
        failf(&a->e, "the host-attached thread lost its attachment after a call");
    if ((*g_vm)->DetachCurrentThread(g_vm) != JNI_OK) failf(&a->e, "DetachCurrentThread failed");
    return NULL;
}

JNIEXPORT jstring JNICALL Java_JavaHostTest_hostAttachedThread(JNIEnv *env, jclass cls,
                                                               jstring jname) {
    (void)cls;
    host_arg a = {{0}, {{0}}};
    pthread_t t;
    if (!cstr(env, jname, a.name, sizeof a.name) ||
        pthread_create(&t, NULL, host_attached_main, &a) != 0)
        return (*env)->NewStringUTF(env, "cannot start a thread");
    pthread_join(t, NULL);
    return result(env, &a.e);
}

/* ---- webcrypto_jca_use_provider from a thread not attached ---- */

static void *unattached_main(void *p) {
    webcrypto_status *st = p;
    static int not_a_provider; /* never dereferenced: the thread check comes first */
    *st = webcrypto_jca_use_provider("Unattached", &not_a_provider);
    return NULL;
}

JNIEXPORT jstring JNICALL Java_JavaHostTest_useProviderUnattached(JNIEnv *env, jclass cls) {
    (void)cls;
    webcrypto_status st = WEBCRYPTO_OK;
    pthread_t t;
    if (pthread_create(&t, NULL, unattached_main, &st) != 0)
        return (*env)->NewStringUTF(env, "cannot start a thread");
    pthread_join(t, NULL);
    return (*env)->NewStringUTF(env, webcrypto_status_name(st));
}
