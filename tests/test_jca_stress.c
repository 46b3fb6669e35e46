/*
 * A few seconds of the jca backend under several threads: every algorithm,
 * sizes from 0 bytes to a few MiB (across the backend's 256 KiB chunks),
 * each result compared with a reference backend's - openssl, or in a build
 * without it jca:BC (jca when BC is under test) - (GCM-SIV, which OpenSSL
 * 3.0 lacks, with a round trip, a tampered tag, and the same answer on every
 * thread). After each operation the thread must have no Java exception
 * pending and no local frame open; at the end no frame was left unbalanced,
 * no exception was left pending, and the JNI global references are back to
 * what they were before the keys and threads existed (threads release their
 * engines when they exit).
 *
 * The asymmetric algorithms and AES-KW run on keys made by the reference and
 * imported into both backends (pkcs8/spki): deterministic results (RSASSA-
 * PKCS1-v1_5, Ed25519, ECDH, X25519, AES-KW) must be byte-equal, randomized
 * ones (RSA-PSS, ECDSA, RSA-OAEP) are verified or decrypted across backends
 * both ways; altered signatures must verify false. Each algorithm runs only
 * where the jca variant advertises it (the others are listed as skipped).
 *
 * Backend: $WEBCRYPTO_TEST_BACKEND (default "jca"). Exit 77 (skip) when the
 * jca backend cannot start here, with the reason.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/jca/jca_debug.h"
#include "testutil.h"
#include "webcrypto.h"

#define THREADS 4
#define ROUNDS 1

static const webcrypto_backend *jca, *ref;
static int failures;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (!(cond)) {                                                            \
            pthread_mutex_lock(&fail_lock);                                       \
            if (failures++ < 20) {                                                \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
                fprintf(stderr, __VA_ARGS__);                                     \
                fprintf(stderr, " [%s]\n", webcrypto_error_message());            \
            }                                                                     \
            pthread_mutex_unlock(&fail_lock);                                     \
        }                                                                         \
    } while (0)

static const size_t sizes[] = {0,      1,      15,         16,         17,     1000,
                               1024,   65535,  65536,      262143,     262144, 262145,
                               524289, (1u << 20) + 3, 3u << 20};
#define N_SIZES (sizeof sizes / sizeof *sizes)
#define MAX_SIZE (3u << 20)

/* One algorithm's key on both backends (raw bytes imported into each). */
typedef struct key_pair {
    webcrypto_key *j, *r;
} key_pair;

static struct {
    key_pair cbc, ctr, gcm, hkdf, pbkdf2, hmac[5];
    webcrypto_key *siv; /* jca only */
    /* asymmetric: private (sk) and public (pk) halves on both backends */
    key_pair pkcs1_sk, pkcs1_pk, pss_sk, pss_pk, oaep_sk, oaep_pk;
    key_pair ec256_sk, ec256_pk, ec384_sk, ec384_pk, ed_sk, ed_pk;
    key_pair ecdh_a, ecdh_b_pub, x_a, x_b_pub;
    key_pair kw;
    webcrypto_key *wrapped_src; /* an extractable AES key to wrap (openssl) */
    bool have[WEBCRYPTO_ALG_X25519 + 1];
} keys;

static void import_pair(webcrypto_algorithm alg, webcrypto_algorithm hash, const uint8_t *raw,
                        size_t len, unsigned usages, key_pair *kp) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .hash = hash);
    CHECK(webcrypto_import_key(jca, WEBCRYPTO_FORMAT_RAW, raw, len, &p, false, usages, &kp->j) ==
              WEBCRYPTO_OK, "import %s on jca", webcrypto_algorithm_name(alg));
    if (ref)
        CHECK(webcrypto_import_key(ref, WEBCRYPTO_FORMAT_RAW, raw, len, &p, false, usages,
                                   &kp->r) == WEBCRYPTO_OK,
              "import %s on the reference", webcrypto_algorithm_name(alg));
}

/* The thread's JNI state after an operation. */
static void check_jni(const char *what, size_t size) {
    wc_jca_debug_stats s;
    CHECK(wc_jca_debug_get(&s), "debug stats");
    CHECK(!s.exception_pending, "Java exception pending after %s (%zu bytes)", what, size);
    CHECK(s.frame_depth == 0, "local frame left open after %s (%zu bytes): depth %d", what, size,
          s.frame_depth);
}

static void xorshift_fill(uint8_t *p, size_t n, uint64_t seed) {
    uint64_t x = seed | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)x;
    }
}

static bool same(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* An openssl-made key pair, exported (pkcs8 and spki) and imported into both
 * backends with alg. */
static void asym_pair(const webcrypto_params *alg, key_pair *sk, key_pair *pk, unsigned sk_use,
                      unsigned pk_use) {
    webcrypto_key *pub = NULL, *priv = NULL;
    CHECK(webcrypto_generate_key_pair(ref, alg, true, sk_use | pk_use, &pub, &priv) ==
              WEBCRYPTO_OK,
          "generate %s on the reference", webcrypto_algorithm_name(alg->name));
    if (!pub || !priv) return;
    uint8_t *der = NULL;
    size_t len = 0;
    CHECK(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, priv, &der, &len) == WEBCRYPTO_OK,
          "export pkcs8");
    CHECK(webcrypto_import_key(jca, WEBCRYPTO_FORMAT_PKCS8, der, len, alg, false, sk_use,
                               &sk->j) == WEBCRYPTO_OK,
          "import %s pkcs8 on jca", webcrypto_algorithm_name(alg->name));
    webcrypto_buffer_free(der, len);
    CHECK(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, pub, &der, &len) == WEBCRYPTO_OK,
          "export spki");
    CHECK(webcrypto_import_key(jca, WEBCRYPTO_FORMAT_SPKI, der, len, alg, true, pk_use, &pk->j) ==
              WEBCRYPTO_OK,
          "import %s spki on jca", webcrypto_algorithm_name(alg->name));
    webcrypto_buffer_free(der, len);
    sk->r = priv;
    pk->r = pub;
}

/* The same pair under another algorithm name (RSA keys serve three). */
static void reimport(const key_pair *sk, const key_pair *pk, const webcrypto_params *alg,
                     key_pair *sk2, key_pair *pk2, unsigned sk_use, unsigned pk_use) {
    const key_pair *src[2] = {sk, pk};
    key_pair *dst[2] = {sk2, pk2};
    for (int i = 0; i < 2; i++) {
        webcrypto_key_format fmt = i ? WEBCRYPTO_FORMAT_SPKI : WEBCRYPTO_FORMAT_PKCS8;
        uint8_t *der = NULL;
        size_t len = 0;
        CHECK(src[i]->r && webcrypto_export_key(fmt, src[i]->r, &der, &len) == WEBCRYPTO_OK,
              "export");
        if (!der) continue;
        unsigned use = i ? pk_use : sk_use;
        CHECK(webcrypto_import_key(jca, fmt, der, len, alg, true, use, &dst[i]->j) == WEBCRYPTO_OK,
              "import %s on jca", webcrypto_algorithm_name(alg->name));
        CHECK(webcrypto_import_key(ref, fmt, der, len, alg, true, use, &dst[i]->r) == WEBCRYPTO_OK,
              "import %s on the reference", webcrypto_algorithm_name(alg->name));
        webcrypto_buffer_free(der, len);
    }
}

static void asym_setup(void) {
    static const uint8_t f4[] = {1, 0, 1};
    unsigned sv_s = WEBCRYPTO_USAGE_SIGN, sv_v = WEBCRYPTO_USAGE_VERIFY;
    for (int a = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5; a <= WEBCRYPTO_ALG_X25519; a++)
        keys.have[a] = webcrypto_backend_supports(jca, (webcrypto_algorithm)a) &&
                       webcrypto_backend_supports(ref, (webcrypto_algorithm)a);
    webcrypto_params rsa = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, .hash = WEBCRYPTO_ALG_SHA_256,
                                            .modulus_length = 2048, .public_exponent = f4,
                                            .public_exponent_len = 3);
    bool any_rsa = keys.have[WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5] || keys.have[WEBCRYPTO_ALG_RSA_PSS] ||
                   keys.have[WEBCRYPTO_ALG_RSA_OAEP];
    key_pair rsk = {0}, rpk = {0};
    if (any_rsa) {
        /* One 2048-bit key, imported as each RSA algorithm. */
        webcrypto_key *pub = NULL, *priv = NULL;
        CHECK(webcrypto_generate_key_pair(ref, &rsa, true, sv_s | sv_v, &pub, &priv) ==
                  WEBCRYPTO_OK, "generate RSA");
        rsk.r = priv;
        rpk.r = pub;
        if (keys.have[WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5])
            reimport(&rsk, &rpk, &rsa, &keys.pkcs1_sk, &keys.pkcs1_pk, sv_s, sv_v);
        webcrypto_params pss = rsa;
        pss.name = WEBCRYPTO_ALG_RSA_PSS;
        pss.hash = WEBCRYPTO_ALG_SHA_384;
        if (keys.have[WEBCRYPTO_ALG_RSA_PSS])
            reimport(&rsk, &rpk, &pss, &keys.pss_sk, &keys.pss_pk, sv_s, sv_v);
        webcrypto_params oaep = rsa;
        oaep.name = WEBCRYPTO_ALG_RSA_OAEP;
        if (keys.have[WEBCRYPTO_ALG_RSA_OAEP])
            reimport(&rsk, &rpk, &oaep, &keys.oaep_sk, &keys.oaep_pk, WEBCRYPTO_USAGE_DECRYPT,
                     WEBCRYPTO_USAGE_ENCRYPT);
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    if (keys.have[WEBCRYPTO_ALG_ECDSA]) {
        webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
        asym_pair(&ec, &keys.ec256_sk, &keys.ec256_pk, sv_s, sv_v);
        ec.named_curve = WEBCRYPTO_CURVE_P384;
        asym_pair(&ec, &keys.ec384_sk, &keys.ec384_pk, sv_s, sv_v);
    }
    if (keys.have[WEBCRYPTO_ALG_ED25519]) {
        webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
        asym_pair(&ed, &keys.ed_sk, &keys.ed_pk, sv_s, sv_v);
    }
    unsigned db = WEBCRYPTO_USAGE_DERIVE_BITS;
    if (keys.have[WEBCRYPTO_ALG_ECDH]) {
        webcrypto_params ec = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .named_curve = WEBCRYPTO_CURVE_P521);
        key_pair unused = {0}, b_sk = {0};
        asym_pair(&ec, &keys.ecdh_a, &unused, db, 0);
        asym_pair(&ec, &b_sk, &keys.ecdh_b_pub, db, 0);
        key_pair *drop[] = {&unused, &b_sk};
        for (int i = 0; i < 2; i++) {
            webcrypto_key_free(drop[i]->j);
            webcrypto_key_free(drop[i]->r);
        }
    }
    if (keys.have[WEBCRYPTO_ALG_X25519]) {
        webcrypto_params x = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519);
        key_pair unused = {0}, b_sk = {0};
        asym_pair(&x, &keys.x_a, &unused, db, 0);
        asym_pair(&x, &b_sk, &keys.x_b_pub, db, 0);
        key_pair *drop[] = {&unused, &b_sk};
        for (int i = 0; i < 2; i++) {
            webcrypto_key_free(drop[i]->j);
            webcrypto_key_free(drop[i]->r);
        }
    }
    printf("asymmetric algorithms and AES-KW:");
    for (int a = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5; a <= WEBCRYPTO_ALG_X25519; a++)
        printf(" %s%s", webcrypto_algorithm_name((webcrypto_algorithm)a),
               keys.have[a] ? "" : " (skipped: not advertised)");
    bool kw = webcrypto_backend_supports(jca, WEBCRYPTO_ALG_AES_KW);
    printf(" AES-KW%s\n", kw ? "" : " (skipped: not advertised)");
    if (kw) {
        uint8_t raw[32];
        xorshift_fill(raw, sizeof raw, 77);
        import_pair(WEBCRYPTO_ALG_AES_KW, 0, raw, 24,
                    WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY, &keys.kw);
    }
}

static void asym_free(void) {
    key_pair *all[] = {&keys.pkcs1_sk, &keys.pkcs1_pk, &keys.pss_sk,   &keys.pss_pk,
                       &keys.oaep_sk,  &keys.oaep_pk,  &keys.ec256_sk, &keys.ec256_pk,
                       &keys.ec384_sk, &keys.ec384_pk, &keys.ed_sk,    &keys.ed_pk,
                       &keys.ecdh_a,   &keys.ecdh_b_pub, &keys.x_a,    &keys.x_b_pub,
                       &keys.kw};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        webcrypto_key_free(all[i]->j);
        webcrypto_key_free(all[i]->r);
    }
}

typedef struct worker_buf {
    uint8_t *data, *a, *b, *c;
} worker_buf;

/* A signature made on one backend verifies on the other, and an altered
 * one (a flipped bit; also a truncated one) verifies false on jca. */
static void cross_verify(const webcrypto_params *p, const key_pair *sk, const key_pair *pk,
                         worker_buf *w, size_t n, const char *what, bool deterministic) {
    const size_t cap = MAX_SIZE + 64;
    size_t la = 0, lb = 0;
    bool valid = false;
    CHECK(webcrypto_sign(p, sk->j, w->data, n, w->a, cap, &la) == WEBCRYPTO_OK, "%s sign (%zu)",
          what, n);
    CHECK(webcrypto_sign(p, sk->r, w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK, "ref %s sign",
          what);
    if (deterministic) CHECK(same(w->a, la, w->b, lb), "%s signature of %zu bytes differs", what, n);
    CHECK(webcrypto_verify(p, pk->r, w->a, la, w->data, n, &valid) == WEBCRYPTO_OK && valid,
          "the reference rejects jca's %s signature (%zu bytes)", what, n);
    CHECK(webcrypto_verify(p, pk->j, w->b, lb, w->data, n, &valid) == WEBCRYPTO_OK && valid,
          "jca rejects the reference's %s signature (%zu bytes)", what, n);
    if (lb) {
        w->b[(n * 7) % lb] ^= 0x10;
        CHECK(webcrypto_verify(p, pk->j, w->b, lb, w->data, n, &valid) == WEBCRYPTO_OK && !valid,
              "jca accepts an altered %s signature (%zu bytes)", what, n);
        CHECK(webcrypto_verify(p, pk->j, w->b, lb - 1, w->data, n, &valid) == WEBCRYPTO_OK &&
                  !valid,
              "jca accepts a truncated %s signature (%zu bytes)", what, n);
    }
    check_jni(what, n);
}

static void asym_ops(worker_buf *w, size_t n, unsigned seed) {
    static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                                 WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
    const size_t cap = MAX_SIZE + 64;
    size_t la = 0, lb = 0, lc = 0;
    if (keys.pkcs1_sk.j) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
        cross_verify(&p, &keys.pkcs1_sk, &keys.pkcs1_pk, w, n, "RSASSA-PKCS1-v1_5", true);
    }
    if (keys.pss_sk.j) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_PSS, .salt_length = (n + seed) % 3 * 24);
        cross_verify(&p, &keys.pss_sk, &keys.pss_pk, w, n, "RSA-PSS", p.salt_length == 0);
    }
    if (keys.ec256_sk.j) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = hashes[(n + seed) % 4]);
        cross_verify(&p, &keys.ec256_sk, &keys.ec256_pk, w, n, "ECDSA P-256", false);
        p.hash = hashes[(n + seed + 1) % 4];
        cross_verify(&p, &keys.ec384_sk, &keys.ec384_pk, w, n, "ECDSA P-384", false);
    }
    if (keys.ed_sk.j) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
        cross_verify(&p, &keys.ed_sk, &keys.ed_pk, w, n, "Ed25519", true);
    }
    if (keys.oaep_sk.j) {
        /* up to 190 bytes for a 2048-bit key with SHA-256 */
        size_t m = n % 191;
        uint8_t label[16];
        xorshift_fill(label, sizeof label, n + seed);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP, .label = label,
                                              .label_len = (n + seed) % 2 ? sizeof label : 0);
        CHECK(webcrypto_encrypt(&p, keys.oaep_pk.j, w->data, m, w->a, cap, &la) == WEBCRYPTO_OK,
              "RSA-OAEP encrypt %zu", m);
        CHECK(webcrypto_decrypt(&p, keys.oaep_sk.r, w->a, la, w->c, cap, &lc) == WEBCRYPTO_OK &&
                  same(w->c, lc, w->data, m),
              "the reference cannot decrypt jca's RSA-OAEP (%zu bytes)", m);
        CHECK(webcrypto_encrypt(&p, keys.oaep_pk.r, w->data, m, w->b, cap, &lb) == WEBCRYPTO_OK,
              "ref RSA-OAEP encrypt");
        CHECK(webcrypto_decrypt(&p, keys.oaep_sk.j, w->b, lb, w->c, cap, &lc) == WEBCRYPTO_OK &&
                  same(w->c, lc, w->data, m),
              "jca cannot decrypt the reference's RSA-OAEP (%zu bytes)", m);
        w->b[n % lb] ^= 4;
        CHECK(webcrypto_decrypt(&p, keys.oaep_sk.j, w->b, lb, w->c, cap, &lc) ==
                  WEBCRYPTO_ERR_OPERATION,
              "jca decrypts an altered RSA-OAEP ciphertext (%zu bytes)", m);
        check_jni("rsa-oaep", n);
    }
    if (keys.ecdh_a.j) {
        webcrypto_params pj = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = keys.ecdh_b_pub.j);
        webcrypto_params pr = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = keys.ecdh_b_pub.r);
        size_t dlen = 0;
        CHECK(webcrypto_derive_bits(&pj, keys.ecdh_a.j, 528, w->a, cap, &dlen) == WEBCRYPTO_OK &&
                  dlen == 66,
              "ecdh");
        CHECK(webcrypto_derive_bits(&pr, keys.ecdh_a.r, 528, w->b, cap, &dlen) == WEBCRYPTO_OK &&
                  dlen == 66,
              "ref ecdh");
        CHECK(same(w->a, 66, w->b, 66), "ECDH P-521 differs");
        check_jni("ecdh", n);
    }
    if (keys.x_a.j) {
        webcrypto_params pj = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519, .public_key = keys.x_b_pub.j);
        webcrypto_params pr = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519, .public_key = keys.x_b_pub.r);
        size_t dlen = 0;
        CHECK(webcrypto_derive_bits(&pj, keys.x_a.j, 256, w->a, cap, &dlen) == WEBCRYPTO_OK &&
                  dlen == 32,
              "x25519");
        CHECK(webcrypto_derive_bits(&pr, keys.x_a.r, 256, w->b, cap, &dlen) == WEBCRYPTO_OK &&
                  dlen == 32,
              "ref x25519");
        CHECK(same(w->a, 32, w->b, 32), "X25519 differs");
        check_jni("x25519", n);
    }
    if (keys.kw.j) {
        /* wrap an HMAC key of 16..72 bytes (a multiple of 8) */
        size_t kl = 16 + 8 * ((n + seed) % 8);
        webcrypto_params hp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
        webcrypto_key *mk = NULL, *back = NULL;
        CHECK(webcrypto_import_key(ref, WEBCRYPTO_FORMAT_RAW, w->data, kl, &hp, true,
                                   WEBCRYPTO_USAGE_SIGN, &mk) == WEBCRYPTO_OK,
              "import HMAC key");
        webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
        uint8_t *wa = NULL, *wb = NULL;
        size_t wal = 0, wbl = 0;
        CHECK(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, mk, keys.kw.j, &kw, &wa, &wal) ==
                  WEBCRYPTO_OK, "AES-KW wrap (%zu)", kl);
        CHECK(webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, mk, keys.kw.r, &kw, &wb, &wbl) ==
                  WEBCRYPTO_OK, "ref AES-KW wrap");
        CHECK(wa && wb && same(wa, wal, wb, wbl), "AES-KW of %zu bytes differs", kl);
        if (wb) {
            CHECK(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wb, wbl, keys.kw.j, &kw, &hp, true,
                                       WEBCRYPTO_USAGE_SIGN, &back) == WEBCRYPTO_OK,
                  "AES-KW unwrap (%zu)", kl);
            uint8_t *raw = NULL;
            size_t rl = 0;
            CHECK(back && webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, back, &raw, &rl) ==
                              WEBCRYPTO_OK && same(raw, rl, w->data, kl),
                  "AES-KW round trip (%zu)", kl);
            if (raw) webcrypto_buffer_free(raw, rl);
            webcrypto_key_free(back);
            back = NULL;
            wb[wbl / 2] ^= 1;
            CHECK(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wb, wbl, keys.kw.j, &kw, &hp, true,
                                       WEBCRYPTO_USAGE_SIGN, &back) == WEBCRYPTO_ERR_OPERATION,
                  "AES-KW unwrap of altered data accepted (%zu)", kl);
            webcrypto_key_free(back);
        }
        if (wa) webcrypto_buffer_free(wa, wal);
        if (wb) webcrypto_buffer_free(wb, wbl);
        webcrypto_key_free(mk);
        check_jni("aes-kw", n);
    }
}

static void one_size(worker_buf *w, size_t n, unsigned seed) {
    static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                                 WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
    const size_t cap = MAX_SIZE + 64;
    size_t la = 0, lb = 0, lc = 0;
    uint8_t iv[16], iv12[12];
    xorshift_fill(iv, sizeof iv, seed * 7919u + n);
    memcpy(iv12, iv, 12);

    /* digests, one-shot and streamed in two pieces */
    for (size_t h = 0; h < 4; h++) {
        CHECK(webcrypto_digest(jca, hashes[h], w->data, n, w->a, cap, &la) == WEBCRYPTO_OK,
              "digest %zu", n);
        check_jni("digest", n);
        CHECK(webcrypto_digest(ref, hashes[h], w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK,
              "ref digest");
        CHECK(same(w->a, la, w->b, lb), "digest %s of %zu bytes differs",
              webcrypto_algorithm_name(hashes[h]), n);
        webcrypto_digest_ctx *d = NULL;
        CHECK(webcrypto_digest_init(jca, hashes[h], &d) == WEBCRYPTO_OK, "digest_init");
        if (d) {
            CHECK(webcrypto_digest_update(d, w->data, n / 3) == WEBCRYPTO_OK, "digest_update");
            CHECK(webcrypto_digest_update(d, w->data + n / 3, n - n / 3) == WEBCRYPTO_OK,
                  "digest_update");
            CHECK(webcrypto_digest_final(d, w->c, cap, &lc) == WEBCRYPTO_OK, "digest_final");
            CHECK(same(w->c, lc, w->b, lb), "streamed digest of %zu bytes differs", n);
            webcrypto_digest_ctx_free(d);
        }
        check_jni("streamed digest", n);
    }

    /* HMAC: sign compared, verify of the reference MAC, streamed sign */
    webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    for (size_t h = 0; h < 4; h++) {
        key_pair *k = &keys.hmac[hashes[h]];
        CHECK(webcrypto_sign(&mac, k->j, w->data, n, w->a, cap, &la) == WEBCRYPTO_OK, "hmac");
        CHECK(webcrypto_sign(&mac, k->r, w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK, "ref hmac");
        CHECK(same(w->a, la, w->b, lb), "HMAC %s of %zu bytes differs",
              webcrypto_algorithm_name(hashes[h]), n);
        bool valid = false;
        CHECK(webcrypto_verify(&mac, k->j, w->b, lb, w->data, n, &valid) == WEBCRYPTO_OK && valid,
              "hmac verify %zu", n);
        webcrypto_sign_ctx *s = NULL;
        CHECK(webcrypto_sign_init(&mac, k->j, &s) == WEBCRYPTO_OK, "sign_init");
        if (s) {
            CHECK(webcrypto_sign_update(s, w->data, n / 2) == WEBCRYPTO_OK, "sign_update");
            CHECK(webcrypto_sign_update(s, w->data + n / 2, n - n / 2) == WEBCRYPTO_OK,
                  "sign_update");
            CHECK(webcrypto_sign_final(s, w->c, cap, &lc) == WEBCRYPTO_OK, "sign_final");
            CHECK(same(w->c, lc, w->b, lb), "streamed HMAC of %zu bytes differs", n);
            webcrypto_sign_ctx_free(s);
        }
        check_jni("hmac", n);
    }

    /* AES-CBC (the core pads; the backend does raw CBC) */
    webcrypto_params cbc = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv, .iv_len = 16);
    CHECK(webcrypto_encrypt(&cbc, keys.cbc.j, w->data, n, w->a, cap, &la) == WEBCRYPTO_OK, "cbc");
    CHECK(webcrypto_encrypt(&cbc, keys.cbc.r, w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK,
          "ref cbc");
    CHECK(same(w->a, la, w->b, lb), "AES-CBC of %zu bytes differs", n);
    CHECK(webcrypto_decrypt(&cbc, keys.cbc.j, w->b, lb, w->c, cap, &lc) == WEBCRYPTO_OK &&
              same(w->c, lc, w->data, n),
          "AES-CBC decrypt of %zu bytes", n);
    check_jni("aes-cbc", n);

    /* AES-CTR, a 64-bit counter */
    webcrypto_params ctr = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR, .counter = iv, .counter_len = 16,
                                            .length = 64);
    CHECK(webcrypto_encrypt(&ctr, keys.ctr.j, w->data, n, w->a, cap, &la) == WEBCRYPTO_OK, "ctr");
    CHECK(webcrypto_encrypt(&ctr, keys.ctr.r, w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK,
          "ref ctr");
    CHECK(same(w->a, la, w->b, lb), "AES-CTR of %zu bytes differs", n);
    /* in place */
    memcpy(w->c, w->b, lb);
    CHECK(webcrypto_decrypt(&ctr, keys.ctr.j, w->c, lb, w->c, cap, &lc) == WEBCRYPTO_OK &&
              same(w->c, lc, w->data, n),
          "AES-CTR in-place decrypt of %zu bytes", n);
    check_jni("aes-ctr", n);

    /* AES-GCM with AAD, a tag length that varies, and a tampered tag */
    static const size_t tags[] = {128, 96, 64, 32, 120};
    size_t aad_len = n % 100;
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv12, .iv_len = 12,
                                            .additional_data = w->data + (n > aad_len ? n - aad_len : 0),
                                            .additional_data_len = n > aad_len ? aad_len : 0,
                                            .tag_length = tags[(n + seed) % 5]);
    CHECK(webcrypto_encrypt(&gcm, keys.gcm.j, w->data, n, w->a, cap, &la) == WEBCRYPTO_OK, "gcm");
    CHECK(webcrypto_encrypt(&gcm, keys.gcm.r, w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK,
          "ref gcm");
    CHECK(same(w->a, la, w->b, lb), "AES-GCM of %zu bytes (tag %zu) differs", n, gcm.tag_length);
    CHECK(webcrypto_decrypt(&gcm, keys.gcm.j, w->b, lb, w->c, cap, &lc) == WEBCRYPTO_OK &&
              same(w->c, lc, w->data, n),
          "AES-GCM decrypt of %zu bytes", n);
    if (lb) {
        w->b[lb - 1] ^= 1;
        CHECK(webcrypto_decrypt(&gcm, keys.gcm.j, w->b, lb, w->c, cap, &lc) ==
                  WEBCRYPTO_ERR_OPERATION,
              "AES-GCM with a bad tag accepted (%zu bytes)", n);
    }
    check_jni("aes-gcm", n);

    /* AES-GCM-SIV where the provider has it */
    if (keys.siv) {
        webcrypto_params siv = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = iv12, .iv_len = 12,
                                                .additional_data = gcm.additional_data,
                                                .additional_data_len = gcm.additional_data_len);
        CHECK(webcrypto_encrypt(&siv, keys.siv, w->data, n, w->a, cap, &la) == WEBCRYPTO_OK &&
                  la == n + 16,
              "gcm-siv %zu", n);
        CHECK(webcrypto_encrypt(&siv, keys.siv, w->data, n, w->b, cap, &lb) == WEBCRYPTO_OK &&
                  same(w->a, la, w->b, lb),
              "AES-GCM-SIV is not deterministic (%zu bytes)", n);
        CHECK(webcrypto_decrypt(&siv, keys.siv, w->a, la, w->c, cap, &lc) == WEBCRYPTO_OK &&
                  same(w->c, lc, w->data, n),
              "AES-GCM-SIV decrypt of %zu bytes", n);
        w->a[0] ^= 0x80;
        CHECK(webcrypto_decrypt(&siv, keys.siv, w->a, la, w->c, cap, &lc) ==
                  WEBCRYPTO_ERR_OPERATION,
              "AES-GCM-SIV with altered data accepted (%zu bytes)", n);
        check_jni("aes-gcm-siv", n);
    }

    /* HKDF and PBKDF2 (salt and info from the data; a password that is not
     * UTF-8 half the time) */
    size_t small = n < 300 ? n : 300;
    webcrypto_params hk = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = hashes[n % 4], .salt = w->data,
                                           .salt_len = small / 2, .info = w->data + small / 2,
                                           .info_len = small - small / 2);
    size_t dlen = 0;
    CHECK(webcrypto_derive_bits(&hk, keys.hkdf.j, 8 * 77, w->a, cap, &dlen) == WEBCRYPTO_OK, "hkdf");
    CHECK(webcrypto_derive_bits(&hk, keys.hkdf.r, 8 * 77, w->b, cap, &dlen) == WEBCRYPTO_OK, "ref hkdf");
    CHECK(same(w->a, 77, w->b, 77), "HKDF differs (%zu)", n);
    webcrypto_params pb = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = hashes[(n + 1) % 4],
                                           .salt = w->data, .salt_len = small % 33, .iterations = (uint32_t)(1 + n % 5));
    CHECK(webcrypto_derive_bits(&pb, keys.pbkdf2.j, 8 * 70, w->a, cap, &dlen) == WEBCRYPTO_OK, "pbkdf2");
    CHECK(webcrypto_derive_bits(&pb, keys.pbkdf2.r, 8 * 70, w->b, cap, &dlen) == WEBCRYPTO_OK,
          "ref pbkdf2");
    CHECK(same(w->a, 70, w->b, 70), "PBKDF2 differs (%zu)", n);
    check_jni("kdf", n);

    asym_ops(w, n, seed);

    uint8_t rnd[64] = {0}, zero[64] = {0};
    CHECK(webcrypto_get_random_values(jca, rnd, sizeof rnd) == WEBCRYPTO_OK &&
              memcmp(rnd, zero, sizeof rnd) != 0,
          "random");
    check_jni("random", n);
}

static void *worker(void *arg) {
    unsigned id = (unsigned)(size_t)arg;
    worker_buf w;
    size_t cap = MAX_SIZE + 64;
    w.data = malloc(cap);
    w.a = malloc(cap);
    w.b = malloc(cap);
    w.c = malloc(cap);
    if (!w.data || !w.a || !w.b || !w.c) {
        CHECK(0, "out of memory");
        return NULL;
    }
    xorshift_fill(w.data, cap, 0x9e3779b97f4a7c15u * (id + 1));
    for (unsigned r = 0; r < ROUNDS; r++)
        for (size_t i = 0; i < N_SIZES; i++) {
            /* Each thread walks the sizes in its own order. */
            size_t n = sizes[(i * 7 + id * 3 + r) % N_SIZES];
            one_size(&w, n, id * 31u + r);
        }
    free(w.data);
    free(w.a);
    free(w.b);
    free(w.c);
    return NULL;
}

int main(void) {
    const char *name = getenv("WEBCRYPTO_TEST_BACKEND");
    if (!name || !*name) name = "jca";
    if (webcrypto_backend_get(name, &jca) != WEBCRYPTO_OK) {
        /* Registered for a JDK (tests/jca.cmake): that JDK must start. */
        const char *want = getenv("WEBCRYPTO_TEST_JAVA_VERSION");
        bool must = want && *want;
        printf("%s: backend %s cannot start here: %s\n", must ? "FAIL" : "SKIP", name,
               webcrypto_error_message());
        return must ? 1 : 77;
    }
    /* The reference: openssl, else (the jca-only build) BouncyCastle
     * through jca:BC, or the JVM's own providers when BC is under test. */
    const char *ref_name = "openssl";
    if (webcrypto_backend_get(ref_name, &ref) != WEBCRYPTO_OK) {
        ref_name = strcmp(name, "jca:BC") == 0 ? "jca" : "jca:BC";
        if (webcrypto_backend_get(ref_name, &ref) != WEBCRYPTO_OK) {
            printf("FAIL: no reference backend (openssl, or %s): %s\n", ref_name,
                   webcrypto_error_message());
            return 1;
        }
    }
    printf("reference %s: %s\n", ref_name, webcrypto_backend_description(ref));
    printf("backend %s: %s\n", name, webcrypto_backend_description(jca));
    if (tu_java_check(jca) != 0) return 1;
    wc_jca_debug_stats before, after;
    if (!wc_jca_debug_get(&before)) {
        printf("FAIL: %s is not the jca backend (no JNI counters)\n", name);
        return 1;
    }

    uint8_t raw[64];
    xorshift_fill(raw, sizeof raw, 42);
    unsigned ed = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    import_pair(WEBCRYPTO_ALG_AES_CBC, 0, raw, 32, ed, &keys.cbc);
    import_pair(WEBCRYPTO_ALG_AES_CTR, 0, raw + 8, 16, ed, &keys.ctr);
    import_pair(WEBCRYPTO_ALG_AES_GCM, 0, raw + 16, 24, ed, &keys.gcm);
    import_pair(WEBCRYPTO_ALG_HKDF, 0, raw, 40, WEBCRYPTO_USAGE_DERIVE_BITS, &keys.hkdf);
    /* 0xff and 0x80 make the password invalid UTF-8: the Mac path. */
    uint8_t pw[12] = {'p', 'a', 's', 's', 0xff, 0x80, 'w', 'o', 'r', 'd', 0, '!'};
    import_pair(WEBCRYPTO_ALG_PBKDF2, 0, pw, sizeof pw, WEBCRYPTO_USAGE_DERIVE_BITS, &keys.pbkdf2);
    for (int h = WEBCRYPTO_ALG_SHA_1; h <= WEBCRYPTO_ALG_SHA_512; h++)
        import_pair(WEBCRYPTO_ALG_HMAC, (webcrypto_algorithm)h, raw, (size_t)(h * 13 % 64), sv,
                    &keys.hmac[h]);
    if (webcrypto_backend_supports(jca, WEBCRYPTO_ALG_AES_GCM_SIV)) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV);
        CHECK(webcrypto_import_key(jca, WEBCRYPTO_FORMAT_RAW, raw, 32, &p, false, ed, &keys.siv) ==
                  WEBCRYPTO_OK,
              "import AES-GCM-SIV");
    }
    asym_setup();
    if (failures) return 1;

    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, worker, (void *)i) == 0, "pthread_create");
    for (size_t i = 0; i < THREADS; i++) pthread_join(t[i], NULL);

    key_pair *all[] = {&keys.cbc, &keys.ctr, &keys.gcm, &keys.hkdf, &keys.pbkdf2, &keys.hmac[1],
                       &keys.hmac[2], &keys.hmac[3], &keys.hmac[4]};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        webcrypto_key_free(all[i]->j);
        webcrypto_key_free(all[i]->r);
    }
    webcrypto_key_free(keys.siv);
    asym_free();

    CHECK(wc_jca_debug_get(&after), "debug stats");
    CHECK(after.unbalanced_frames == 0, "%ld operations left a local frame open",
          after.unbalanced_frames);
    CHECK(after.pending_exceptions == 0, "%ld operations left a Java exception pending",
          after.pending_exceptions);
    CHECK(after.global_refs == before.global_refs,
          "JNI global references: %ld before, %ld after (keys freed, threads gone)",
          before.global_refs, after.global_refs);
    printf("%d threads x %d rounds x %zu sizes (0 B .. 3 MiB); global refs %ld -> %ld; "
           "%d failures\n",
           THREADS, ROUNDS, N_SIZES, before.global_refs, after.global_refs, failures);
    return failures ? 1 : 0;
}
