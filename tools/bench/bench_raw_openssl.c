/*
 * The raw-openssl baseline: each operation written directly on OpenSSL 3's
 * EVP API, the way a competent OpenSSL user would, without libwebcrypto.
 * Algorithms are fetched once per cell in setup (EVP_MD_fetch,
 * EVP_CIPHER_fetch, EVP_MAC_fetch, EVP_KDF_fetch), outside the timing; each
 * timed call then creates, keys, runs and frees its own context, as one
 * independent request would. docs/BENCHMARKS.md lists the calls per kind.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "bench_internal.h"

typedef struct raw_state {
    EVP_MD *md;
    EVP_CIPHER *cipher;
    EVP_MAC *mac;
    EVP_KDF *kdf;
    const char *digest_name;
    /* raw-openssl-keyed: keyed once in setup, copied per call */
    EVP_MAC_CTX *mac_tpl;
    EVP_CIPHER_CTX *cipher_tpl;
    /* raw-openssl-reused: this cell's number, which tells a thread's
     * reused context whose key it holds (cells come and go at one address) */
    unsigned long reuse_id;
    /* asymmetric: the keys, parsed once per cell (derive: pub is the peer's) */
    EVP_PKEY *priv, *pub;
} raw_state;

static int ossl_fail(const char *what) {
    unsigned long e = ERR_get_error();
    char reason[120] = "no reason given";
    if (e) ERR_error_string_n(e, reason, sizeof reason);
    ERR_clear_error();
    bench_fail("%s failed: %s", what, reason);
    return -1;
}

/* OpenSSL's own names of the hashes (those the openssl backend fetches);
 * also raw-openssl-provider's (bench_internal.h). */
const char *bench_ossl_digest_name(webcrypto_algorithm hash) {
    if (hash == WEBCRYPTO_ALG_SHA_1) return "SHA1";
    if (hash == WEBCRYPTO_ALG_SHA_256) return "SHA2-256";
    if (hash == WEBCRYPTO_ALG_SHA_384) return "SHA2-384";
    if (hash == WEBCRYPTO_ALG_SHA_512) return "SHA2-512";
    if (hash == WEBCRYPTO_ALG_SHA3_256) return "SHA3-256";
    return NULL;
}

const char *bench_ossl_cipher_name(const bench_op *op) {
    bool big = op->key_bits == 256;
    if (op->alg == WEBCRYPTO_ALG_AES_GCM) return big ? "AES-256-GCM" : "AES-128-GCM";
    if (op->alg == WEBCRYPTO_ALG_AES_CBC) return big ? "AES-256-CBC" : "AES-128-CBC";
    if (op->alg == WEBCRYPTO_ALG_AES_CTR) return big ? "AES-256-CTR" : "AES-128-CTR";
    if (op->alg == WEBCRYPTO_ALG_CHACHA20_POLY1305) return "ChaCha20-Poly1305";
    if (op->alg == WEBCRYPTO_ALG_AES_OCB) return big ? "AES-256-OCB" : "AES-128-OCB";
    return NULL;
}

/* The AEADs here (AES-GCM, ChaCha20-Poly1305, AES-OCB, each with its
 * default 12-byte nonce): a 16-byte tag after the ciphertext, as WebCrypto
 * lays it out. */
static bool aead_tag16(const bench_op *op) {
    return op->alg == WEBCRYPTO_ALG_AES_GCM || op->alg == WEBCRYPTO_ALG_CHACHA20_POLY1305 ||
           op->alg == WEBCRYPTO_ALG_AES_OCB;
}

static void raw_teardown(bench_cell *c) {
    raw_state *s = c->raw;
    if (s) {
        EVP_MD_free(s->md);
        EVP_CIPHER_free(s->cipher);
        EVP_MAC_free(s->mac);
        EVP_KDF_free(s->kdf);
        EVP_MAC_CTX_free(s->mac_tpl);
        EVP_CIPHER_CTX_free(s->cipher_tpl);
        EVP_PKEY_free(s->priv);
        EVP_PKEY_free(s->pub);
        free(s);
    }
    c->raw = NULL;
    free(c->aux);
    c->aux = NULL;
}

static raw_state *new_state(bench_cell *c) {
    raw_state *s = calloc(1, sizeof *s);
    if (!s) bench_fail("out of memory");
    c->raw = s;
    return s;
}

static int raw_setup_digest(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = EVP_MAX_MD_SIZE;
    s->md = EVP_MD_fetch(NULL, bench_ossl_digest_name(c->op->alg), NULL);
    return s->md ? 0 : ossl_fail("EVP_MD_fetch");
}

static int raw_run_digest(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    unsigned n = 0;
    if (EVP_Digest(c->data, c->size, out, &n, s->md, NULL) != 1) return ossl_fail("EVP_Digest");
    *out_len = n;
    return 0;
}

/* HMAC through EVP_MAC: new, init with key and digest, update, final, free. */
static int raw_hmac(const bench_cell *c, uint8_t *out, size_t cap, size_t *out_len) {
    const raw_state *s = c->raw;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)s->digest_name, 0),
        OSSL_PARAM_construct_end(),
    };
    EVP_MAC_CTX *m = EVP_MAC_CTX_new(s->mac);
    if (!m) return ossl_fail("EVP_MAC_CTX_new");
    int ok = EVP_MAC_init(m, c->key_bytes, c->key_len, params) == 1 &&
             EVP_MAC_update(m, c->data, c->size) == 1 && EVP_MAC_final(m, out, out_len, cap) == 1;
    EVP_MAC_CTX_free(m);
    return ok ? 0 : ossl_fail("EVP_MAC");
}

static int raw_run_hmac_sign(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return raw_hmac(c, out, c->out_cap, out_len);
}

static int raw_setup_hmac(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = EVP_MAX_MD_SIZE;
    s->digest_name = bench_ossl_digest_name(c->op->hash);
    s->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (!s->mac) return ossl_fail("EVP_MAC_fetch");
    if (c->op->kind == BK_HMAC_VERIFY) {
        c->aux = malloc(c->out_cap);
        if (!c->aux) {
            bench_fail("out of memory");
            return -1;
        }
        if (raw_hmac(c, c->aux, c->out_cap, &c->aux_len)) return -1;
    }
    return 0;
}

/* KMAC through EVP_MAC: new, the output size, init with the key, update,
 * final, free (as the openssl backend per call). */
static int raw_run_kmac(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    size_t size = 32;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
        OSSL_PARAM_construct_end(),
    };
    EVP_MAC_CTX *m = EVP_MAC_CTX_new(s->mac);
    if (!m) return ossl_fail("EVP_MAC_CTX_new");
    int ok = EVP_MAC_CTX_set_params(m, params) == 1 &&
             EVP_MAC_init(m, c->key_bytes, c->key_len, NULL) == 1 &&
             EVP_MAC_update(m, c->data, c->size) == 1 && EVP_MAC_final(m, out, out_len, 32) == 1;
    EVP_MAC_CTX_free(m);
    return ok ? 0 : ossl_fail("EVP_MAC (KMAC)");
}

static int raw_setup_kmac(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = 32;
    s->mac = EVP_MAC_fetch(NULL, c->op->alg == WEBCRYPTO_ALG_KMAC256 ? "KMAC-256" : "KMAC-128", NULL);
    return s->mac ? 0 : ossl_fail("EVP_MAC_fetch");
}

/* Verify: compute the MAC, compare in constant time. */
/* HMAC verify in every raw variant: the variant's MAC, compared in constant
 * time with the one set up. */
typedef int (*raw_mac_fn)(const bench_cell *c, uint8_t *out, size_t cap, size_t *out_len);
static int hmac_verify_with(raw_mac_fn mac_of, const bench_cell *c, uint8_t *out,
                            size_t *out_len) {
    uint8_t mac[EVP_MAX_MD_SIZE];
    size_t n = 0;
    if (mac_of(c, mac, sizeof mac, &n)) return -1;
    if (n != c->aux_len || CRYPTO_memcmp(mac, c->aux, n) != 0) {
        bench_fail("raw verify: a correct MAC did not verify");
        return -1;
    }
    out[0] = 1;
    *out_len = 1;
    return 0;
}

static int raw_run_hmac_verify(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return hmac_verify_with(raw_hmac, c, out, out_len);
}

/* Encrypt: CTX_new, EncryptInit_ex2 (key, IV), Update, Final, (GCM: get
 * the tag, appended as WebCrypto does), CTX_free. */
static int raw_encrypt_to(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    if (c->size > INT_MAX) {
        bench_fail("raw: input too large for one EVP_EncryptUpdate");
        return -1;
    }
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!x) return ossl_fail("EVP_CIPHER_CTX_new");
    int n1 = 0, n2 = 0, ok = EVP_EncryptInit_ex2(x, s->cipher, c->key_bytes, c->iv, NULL) == 1 &&
                             EVP_EncryptUpdate(x, out, &n1, c->data, (int)c->size) == 1 &&
                             EVP_EncryptFinal_ex(x, out + n1, &n2) == 1;
    size_t n = (size_t)n1 + (size_t)n2;
    if (ok && aead_tag16(c->op)) {
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, out + n) == 1;
        n += 16;
    }
    EVP_CIPHER_CTX_free(x);
    if (!ok) return ossl_fail("EVP_Encrypt");
    *out_len = n;
    return 0;
}

static int raw_run_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return raw_encrypt_to(c, out, out_len);
}

static int raw_setup_cipher(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = c->size + 16;
    s->cipher = EVP_CIPHER_fetch(NULL, bench_ossl_cipher_name(c->op), NULL);
    if (!s->cipher) return ossl_fail("EVP_CIPHER_fetch");
    if (c->op->kind == BK_DECRYPT) {
        c->aux = malloc(c->out_cap);
        if (!c->aux) {
            bench_fail("out of memory");
            return -1;
        }
        if (raw_encrypt_to(c, c->aux, &c->aux_len)) return -1;
    }
    return 0;
}

/* Decrypt: CTX_new, DecryptInit_ex2, Update, (GCM: set the expected tag),
 * Final (checks padding or tag), CTX_free. */
static int raw_run_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    size_t in_len = c->aux_len;
    bool gcm = aead_tag16(c->op);
    if (gcm) in_len -= 16;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!x) return ossl_fail("EVP_CIPHER_CTX_new");
    int n1 = 0, n2 = 0;
    int ok = EVP_DecryptInit_ex2(x, s->cipher, c->key_bytes, c->iv, NULL) == 1 &&
             EVP_DecryptUpdate(x, out, &n1, c->aux, (int)in_len) == 1;
    if (ok && gcm)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, c->aux + in_len) == 1;
    ok = ok && EVP_DecryptFinal_ex(x, out + n1, &n2) == 1;
    EVP_CIPHER_CTX_free(x);
    if (!ok) return ossl_fail("EVP_Decrypt");
    *out_len = (size_t)n1 + (size_t)n2;
    return 0;
}

/* Key set-up, the raw equivalent of importKey: a context keyed with the
 * bytes (key schedule, and GHASH key for GCM), then freed. generateKey adds
 * RAND_bytes for the key bytes. */
static int raw_key_schedule(const raw_state *s, const uint8_t *key) {
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!x) return ossl_fail("EVP_CIPHER_CTX_new");
    int ok = EVP_EncryptInit_ex2(x, s->cipher, key, NULL, NULL) == 1;
    EVP_CIPHER_CTX_free(x);
    return ok ? 0 : ossl_fail("EVP_EncryptInit_ex2");
}

static int raw_setup_keyop(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = 1;
    s->cipher = EVP_CIPHER_fetch(NULL, bench_ossl_cipher_name(c->op), NULL);
    return s->cipher ? 0 : ossl_fail("EVP_CIPHER_fetch");
}

static int raw_run_generate(const bench_cell *c, uint8_t *out, size_t *out_len) {
    (void)out;
    uint8_t key[32];
    if (RAND_bytes(key, (int)c->key_len) != 1) return ossl_fail("RAND_bytes");
    int r = raw_key_schedule(c->raw, key);
    OPENSSL_cleanse(key, sizeof key);
    *out_len = 0;
    return r;
}

static int raw_run_import(const bench_cell *c, uint8_t *out, size_t *out_len) {
    (void)out;
    *out_len = 0;
    return raw_key_schedule(c->raw, c->key_bytes);
}

static int raw_setup_kdf(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = 32;
    s->digest_name = bench_ossl_digest_name(c->op->hash);
    s->kdf = EVP_KDF_fetch(NULL, c->op->kind == BK_HKDF ? "HKDF" : "PBKDF2", NULL);
    return s->kdf ? 0 : ossl_fail("EVP_KDF_fetch");
}

/* KDFs: EVP_KDF_CTX_new, EVP_KDF_derive with the parameters, free. */
static int raw_run_kdf(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    uint64_t iter = c->pbkdf2_iterations;
    OSSL_PARAM params[6], *p = params;
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)s->digest_name, 0);
    if (c->op->kind == BK_HKDF) {
        *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)c->data, c->size);
        *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)c->salt,
                                                 c->salt_len);
        *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)c->info,
                                                 c->info_len);
    } else {
        *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)c->key_bytes,
                                                 c->key_len);
        *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)c->salt,
                                                 c->salt_len);
        *p++ = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter);
    }
    *p = OSSL_PARAM_construct_end();
    EVP_KDF_CTX *k = EVP_KDF_CTX_new(s->kdf);
    if (!k) return ossl_fail("EVP_KDF_CTX_new");
    int ok = EVP_KDF_derive(k, out, 32, params) == 1;
    EVP_KDF_CTX_free(k);
    if (!ok) return ossl_fail("EVP_KDF_derive");
    *out_len = 32;
    return 0;
}

static int raw_setup_random(bench_cell *c) {
    c->out_cap = c->size;
    return 0;
}

static int raw_run_random(const bench_cell *c, uint8_t *out, size_t *out_len) {
    if (c->size > INT_MAX || RAND_bytes(out, (int)c->size) != 1) return ossl_fail("RAND_bytes");
    *out_len = c->size;
    return 0;
}

/* ---- asymmetric: an EVP_PKEY prepared once per cell from the same pkcs8
 * and spki every target imports (bench_keys_get), then per call the EVP
 * one-shot a user writes for one request. ---- */

static EVP_PKEY *parse_pkcs8(const bench_keypair *kp) {
    const unsigned char *p = kp->pkcs8;
    PKCS8_PRIV_KEY_INFO *info = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)kp->pkcs8_len);
    EVP_PKEY *k = info ? EVP_PKCS82PKEY(info) : NULL;
    PKCS8_PRIV_KEY_INFO_free(info);
    return k;
}

static EVP_PKEY *parse_spki(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return d2i_PUBKEY(NULL, &p, (long)len);
}

static size_t ec_field_size(const bench_op *op) {
    return op->curve == WEBCRYPTO_CURVE_P384 ? 48 : op->curve == WEBCRYPTO_CURVE_P521 ? 66 : 32;
}

/* Signature contexts: EVP_MD_CTX_new, EVP_DigestSignInit/VerifyInit with the
 * fetched digest (none for Ed25519) and the key, RSA padding as WebCrypto
 * fixes it (PSS: salt = hash size, MGF1 with the same hash). */
static EVP_MD_CTX *sig_start(const bench_cell *c, EVP_PKEY *key, bool sign) {
    const raw_state *s = c->raw;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    if (!m) {
        ossl_fail("EVP_MD_CTX_new");
        return NULL;
    }
    int ok = sign ? EVP_DigestSignInit(m, &pc, s->md, NULL, key) == 1
                  : EVP_DigestVerifyInit(m, &pc, s->md, NULL, key) == 1;
    if (ok && c->op->alg == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5)
        ok = EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PADDING) == 1;
    if (ok && c->op->alg == WEBCRYPTO_ALG_RSA_PSS)
        ok = EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, EVP_MD_get_size(s->md)) == 1 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md(pc, s->md) == 1;
    if (!ok) {
        EVP_MD_CTX_free(m);
        ossl_fail("EVP_DigestSignInit/VerifyInit");
        return NULL;
    }
    return m;
}

/* Sign; ECDSA's DER signature becomes WebCrypto's r || s (the same job as
 * the library's: a user of WebCrypto's format has to do it too). */
static int raw_sign_with(const bench_cell *c, EVP_PKEY *key, uint8_t *out, size_t *out_len) {
    EVP_MD_CTX *m = sig_start(c, key, true);
    if (!m) return -1;
    bool ecdsa = c->op->alg == WEBCRYPTO_ALG_ECDSA;
    uint8_t der[160];
    size_t n = ecdsa ? sizeof der : c->out_cap;
    int ok = EVP_DigestSign(m, ecdsa ? der : out, &n, c->msg, c->msg_len) == 1;
    EVP_MD_CTX_free(m);
    if (!ok) return ossl_fail("EVP_DigestSign");
    if (ecdsa) {
        size_t fs = ec_field_size(c->op);
        const unsigned char *p = der;
        ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)n);
        const BIGNUM *r = NULL, *sv = NULL;
        if (es) ECDSA_SIG_get0(es, &r, &sv);
        ok = es && BN_bn2binpad(r, out, (int)fs) == (int)fs &&
             BN_bn2binpad(sv, out + fs, (int)fs) == (int)fs;
        ECDSA_SIG_free(es);
        if (!ok) return ossl_fail("d2i_ECDSA_SIG");
        n = 2 * fs;
    }
    *out_len = n;
    return 0;
}

static int raw_verify_with(const bench_cell *c, EVP_PKEY *key, const uint8_t *sig,
                           size_t sig_len) {
    uint8_t *der = NULL;
    int der_len = 0;
    if (c->op->alg == WEBCRYPTO_ALG_ECDSA) {
        /* r || s to DER */
        size_t fs = ec_field_size(c->op);
        ECDSA_SIG *es = ECDSA_SIG_new();
        BIGNUM *r = sig_len == 2 * fs ? BN_bin2bn(sig, (int)fs, NULL) : NULL;
        BIGNUM *sv = sig_len == 2 * fs ? BN_bin2bn(sig + fs, (int)fs, NULL) : NULL;
        if (!es || !r || !sv || ECDSA_SIG_set0(es, r, sv) != 1) {
            BN_free(r);
            BN_free(sv);
            ECDSA_SIG_free(es);
            return ossl_fail("ECDSA_SIG_set0");
        }
        der_len = i2d_ECDSA_SIG(es, &der);
        ECDSA_SIG_free(es);
        if (der_len <= 0) return ossl_fail("i2d_ECDSA_SIG");
        sig = der;
        sig_len = (size_t)der_len;
    }
    EVP_MD_CTX *m = sig_start(c, key, false);
    int ok = m && EVP_DigestVerify(m, sig, sig_len, c->msg, c->msg_len) == 1;
    EVP_MD_CTX_free(m);
    OPENSSL_free(der);
    if (!m) return -1;
    if (!ok) {
        ERR_clear_error();
        bench_fail("raw verify: a correct signature did not verify");
        return -1;
    }
    return 0;
}

/* RSA-OAEP: EVP_PKEY_CTX_new_from_pkey, encrypt/decrypt init, OAEP padding
 * with the hash for OAEP and MGF1, the one-shot call, free. */
static int raw_oaep(const bench_cell *c, EVP_PKEY *key, bool encrypt, const uint8_t *in,
                    size_t in_len, uint8_t *out, size_t cap, size_t *out_len) {
    const raw_state *s = c->raw;
    EVP_PKEY_CTX *x = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (!x) return ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    size_t n = cap;
    int ok = (encrypt ? EVP_PKEY_encrypt_init(x) : EVP_PKEY_decrypt_init(x)) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(x, RSA_PKCS1_OAEP_PADDING) == 1 &&
             EVP_PKEY_CTX_set_rsa_oaep_md(x, s->md) == 1 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md(x, s->md) == 1 &&
             (encrypt ? EVP_PKEY_encrypt(x, out, &n, in, in_len)
                      : EVP_PKEY_decrypt(x, out, &n, in, in_len)) == 1;
    EVP_PKEY_CTX_free(x);
    if (!ok) return ossl_fail(encrypt ? "EVP_PKEY_encrypt" : "EVP_PKEY_decrypt");
    *out_len = n;
    return 0;
}

static int raw_setup_pkey(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = 512;
    const bench_keypair *kp = bench_keys_get(c->op, false, NULL);
    if (!kp) return -1;
    s->priv = parse_pkcs8(kp);
    s->pub = parse_spki(kp->spki, kp->spki_len);
    if (!s->priv || !s->pub) return ossl_fail("parsing the pkcs8/spki key");
    if (c->op->hash != WEBCRYPTO_ALG_NONE) {
        s->md = EVP_MD_fetch(NULL, bench_ossl_digest_name(c->op->hash), NULL);
        if (!s->md) return ossl_fail("EVP_MD_fetch");
    }
    if (c->op->kind == BK_PKEY_VERIFY || c->op->kind == BK_PKEY_DECRYPT) {
        c->aux = malloc(c->out_cap);
        if (!c->aux) {
            bench_fail("out of memory");
            return -1;
        }
        int r = c->op->kind == BK_PKEY_VERIFY
                    ? raw_sign_with(c, s->priv, c->aux, &c->aux_len)
                    : raw_oaep(c, s->pub, true, c->msg, c->msg_len, c->aux, c->out_cap,
                               &c->aux_len);
        if (r) return -1;
    }
    return 0;
}

static int raw_run_pkey_sign(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return raw_sign_with(c, ((const raw_state *)c->raw)->priv, out, out_len);
}

static int raw_run_pkey_verify(const bench_cell *c, uint8_t *out, size_t *out_len) {
    if (raw_verify_with(c, ((const raw_state *)c->raw)->pub, c->aux, c->aux_len)) return -1;
    out[0] = 1;
    *out_len = 1;
    return 0;
}

static int raw_check_pkey_sign(const bench_cell *c, const uint8_t *sig, size_t sig_len) {
    return raw_verify_with(c, ((const raw_state *)c->raw)->pub, sig, sig_len);
}

static int raw_run_pkey_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return raw_oaep(c, ((const raw_state *)c->raw)->pub, true, c->msg, c->msg_len, out,
                    c->out_cap, out_len);
}

static int raw_run_pkey_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return raw_oaep(c, ((const raw_state *)c->raw)->priv, false, c->aux, c->aux_len, out,
                    c->out_cap, out_len);
}

static int raw_check_pkey_encrypt(const bench_cell *c, const uint8_t *ct, size_t ct_len) {
    uint8_t pt[512];
    size_t n = 0;
    int r = raw_oaep(c, ((const raw_state *)c->raw)->priv, false, ct, ct_len, pt, sizeof pt, &n);
    if (!r && (n != c->msg_len || memcmp(pt, c->msg, n) != 0)) {
        bench_fail("raw decrypt: the plaintext is not the message");
        r = -1;
    }
    OPENSSL_cleanse(pt, sizeof pt);
    return r;
}

/* ECDH, X25519: our private key, the peer pair's public key. */
static int raw_setup_derive(bench_cell *c) {
    raw_state *s = new_state(c);
    if (!s) return -1;
    c->out_cap = 66;
    const bench_keypair *mine = bench_keys_get(c->op, false, NULL);
    const bench_keypair *theirs = mine ? bench_keys_get(c->op, true, NULL) : NULL;
    if (!theirs) return -1;
    s->priv = parse_pkcs8(mine);
    s->pub = parse_spki(theirs->spki, theirs->spki_len);
    if (!s->priv || !s->pub) return ossl_fail("parsing the pkcs8/spki key");
    return 0;
}

/* EVP_PKEY_CTX_new_from_pkey, derive_init, set the peer, derive, free. The
 * peer is not re-validated per call (EVP_PKEY_derive_set_peer_ex(..., 0)):
 * d2i_PUBKEY checked it in set-up, as the library's importKey does. */
static int raw_run_derive(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    EVP_PKEY_CTX *x = EVP_PKEY_CTX_new_from_pkey(NULL, s->priv, NULL);
    if (!x) return ossl_fail("EVP_PKEY_CTX_new_from_pkey");
    size_t n = c->out_cap;
    int ok = EVP_PKEY_derive_init(x) == 1 && EVP_PKEY_derive_set_peer_ex(x, s->pub, 0) == 1 &&
             EVP_PKEY_derive(x, out, &n) == 1;
    EVP_PKEY_CTX_free(x);
    if (!ok) return ossl_fail("EVP_PKEY_derive");
    *out_len = n;
    return 0;
}

static int raw_setup_pkey_generate(bench_cell *c) {
    c->out_cap = 1;
    return new_state(c) ? 0 : -1;
}

/* EVP_PKEY_Q_keygen (EVP_PKEY_CTX_new_from_name, keygen_init, the size or
 * curve, EVP_PKEY_generate, free), then EVP_PKEY_free. */
static int raw_run_pkey_generate(const bench_cell *c, uint8_t *out, size_t *out_len) {
    (void)out;
    EVP_PKEY *k = NULL;
    webcrypto_algorithm a = c->op->alg;
    if (a == WEBCRYPTO_ALG_ECDSA || a == WEBCRYPTO_ALG_ECDH)
        k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", webcrypto_curve_name(c->op->curve));
    else if (a == WEBCRYPTO_ALG_ED25519) k = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
    else if (a == WEBCRYPTO_ALG_X25519) k = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
    else k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)c->op->key_bits); /* the RSA algorithms */
    if (!k) return ossl_fail("EVP_PKEY_Q_keygen");
    EVP_PKEY_free(k);
    *out_len = 0;
    return 0;
}

/* ---- raw-openssl-keyed: what a user who keeps a key for many messages
 * may write: the key set once per cell, then per call a copy of the keyed
 * context (EVP_MAC_CTX_dup; EVP_CIPHER_CTX_new + EVP_CIPHER_CTX_copy + the
 * IV through EVP_EncryptInit_ex2/EVP_DecryptInit_ex2 with no cipher or
 * key), update, final, free. ---- */

static int raw_keyed_setup_hmac(bench_cell *c) {
    if (raw_setup_hmac(c)) return -1;
    raw_state *s = c->raw;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)s->digest_name, 0),
        OSSL_PARAM_construct_end(),
    };
    s->mac_tpl = EVP_MAC_CTX_new(s->mac);
    if (!s->mac_tpl) return ossl_fail("EVP_MAC_CTX_new");
    if (EVP_MAC_init(s->mac_tpl, c->key_bytes, c->key_len, params) != 1)
        return ossl_fail("EVP_MAC_init");
    return 0;
}

static int raw_keyed_hmac(const bench_cell *c, uint8_t *out, size_t cap, size_t *out_len) {
    const raw_state *s = c->raw;
    EVP_MAC_CTX *m = EVP_MAC_CTX_dup(s->mac_tpl);
    if (!m) return ossl_fail("EVP_MAC_CTX_dup");
    int ok = EVP_MAC_update(m, c->data, c->size) == 1 && EVP_MAC_final(m, out, out_len, cap) == 1;
    EVP_MAC_CTX_free(m);
    return ok ? 0 : ossl_fail("EVP_MAC");
}

static int raw_keyed_run_hmac_sign(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return raw_keyed_hmac(c, out, c->out_cap, out_len);
}

static int raw_keyed_run_hmac_verify(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return hmac_verify_with(raw_keyed_hmac, c, out, out_len);
}

static int raw_keyed_setup_cipher(bench_cell *c) {
    if (raw_setup_cipher(c)) return -1;
    raw_state *s = c->raw;
    s->cipher_tpl = EVP_CIPHER_CTX_new();
    if (!s->cipher_tpl) return ossl_fail("EVP_CIPHER_CTX_new");
    int enc = c->op->kind == BK_ENCRYPT;
    if (EVP_CipherInit_ex2(s->cipher_tpl, s->cipher, c->key_bytes, NULL, enc, NULL) != 1)
        return ossl_fail("EVP_CipherInit_ex2 (key)");
    return 0;
}

static int raw_keyed_run_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    if (c->size > INT_MAX) {
        bench_fail("raw: input too large for one EVP_EncryptUpdate");
        return -1;
    }
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!x) return ossl_fail("EVP_CIPHER_CTX_new");
    int n1 = 0, n2 = 0, ok = EVP_CIPHER_CTX_copy(x, s->cipher_tpl) == 1 &&
                             EVP_EncryptInit_ex2(x, NULL, NULL, c->iv, NULL) == 1 &&
                             EVP_EncryptUpdate(x, out, &n1, c->data, (int)c->size) == 1 &&
                             EVP_EncryptFinal_ex(x, out + n1, &n2) == 1;
    size_t n = (size_t)n1 + (size_t)n2;
    if (ok && aead_tag16(c->op)) {
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, out + n) == 1;
        n += 16;
    }
    EVP_CIPHER_CTX_free(x);
    if (!ok) return ossl_fail("EVP_Encrypt (keyed copy)");
    *out_len = n;
    return 0;
}

static int raw_keyed_run_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    size_t in_len = c->aux_len;
    bool gcm = aead_tag16(c->op);
    if (gcm) in_len -= 16;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!x) return ossl_fail("EVP_CIPHER_CTX_new");
    int n1 = 0, n2 = 0;
    int ok = EVP_CIPHER_CTX_copy(x, s->cipher_tpl) == 1 &&
             EVP_DecryptInit_ex2(x, NULL, NULL, c->iv, NULL) == 1 &&
             EVP_DecryptUpdate(x, out, &n1, c->aux, (int)in_len) == 1;
    if (ok && gcm)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, c->aux + in_len) == 1;
    ok = ok && EVP_DecryptFinal_ex(x, out + n1, &n2) == 1;
    EVP_CIPHER_CTX_free(x);
    if (!ok) return ossl_fail("EVP_Decrypt (keyed copy)");
    *out_len = (size_t)n1 + (size_t)n2;
    return 0;
}

/* ---- raw-openssl-reused: the floor of OpenSSL 3.0's own calls. Each
 * thread keeps one context for the cell it runs, made and keyed on its first
 * call; every later call only re-initialises it (digest: EVP_DigestInit_ex2
 * with the fetched EVP_MD; HMAC: EVP_MAC_init with no key, which restarts
 * from the key already set; AES: EVP_CipherInit_ex2 with only the IV), then
 * update and final. Nothing is allocated, copied or fetched per call: what
 * remains is OpenSSL's own per-call work (its parameter handling included),
 * which no caller of its API can avoid. ---- */

typedef struct thread_slot {
    unsigned long id; /* the cell whose context this is; 0: empty */
    void *ctx;
    void (*free)(void *ctx);
} thread_slot;

/* A thread's contexts: one per cell it ran lately, so that --interleave,
 * which alternates the cells of both baselines on one thread, does not make
 * a context per sample; the oldest is replaced when all are taken. */
typedef struct thread_slots {
    thread_slot slot[BENCH_MAX_TARGETS];
    size_t next; /* the one to replace next */
} thread_slots;

static pthread_key_t slot_key;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static bool slot_key_ok;
static atomic_ulong slot_next_id = 1;

static void slot_clear(thread_slot *r) {
    if (r->ctx) r->free(r->ctx);
    memset(r, 0, sizeof *r);
}

static void slots_free(void *p) {
    thread_slots *t = p;
    for (size_t i = 0; i < BENCH_MAX_TARGETS; i++) slot_clear(&t->slot[i]);
    free(t);
}

static void slot_key_make(void) { slot_key_ok = pthread_key_create(&slot_key, slots_free) == 0; }

unsigned long bench_thread_ctx_id(void) { return atomic_fetch_add(&slot_next_id, 1); }

void *bench_thread_ctx(const bench_cell *c, unsigned long id, bench_ctx_make make) {
    if (pthread_once(&slot_once, slot_key_make) != 0 || !slot_key_ok) {
        bench_fail("pthread_key_create failed");
        return NULL;
    }
    thread_slots *t = pthread_getspecific(slot_key);
    if (t)
        for (size_t i = 0; i < BENCH_MAX_TARGETS; i++)
            if (t->slot[i].id == id) return t->slot[i].ctx;
    if (!t) {
        if (!(t = calloc(1, sizeof *t)) || pthread_setspecific(slot_key, t) != 0) {
            free(t);
            bench_fail("out of memory");
            return NULL;
        }
    }
    thread_slot *r = &t->slot[t->next];
    t->next = (t->next + 1) % BENCH_MAX_TARGETS;
    slot_clear(r);
    if (!(r->ctx = make(c, &r->free))) return NULL;
    r->id = id;
    return r->ctx;
}

void bench_thread_ctx_drop(unsigned long id) {
    thread_slots *t = slot_key_ok ? pthread_getspecific(slot_key) : NULL;
    for (size_t i = 0; t && i < BENCH_MAX_TARGETS; i++)
        if (t->slot[i].id == id) slot_clear(&t->slot[i]);
}

/* The free functions, as the slot calls them. */
static void md_ctx_free(void *x) { EVP_MD_CTX_free(x); }
static void mac_ctx_free(void *x) { EVP_MAC_CTX_free(x); }
static void cipher_ctx_free(void *x) { EVP_CIPHER_CTX_free(x); }

/* A reused context for cell c, keyed where its kind has a key. */
static void *reuse_make(const bench_cell *c, void (**free_fn)(void *ctx)) {
    const raw_state *s = c->raw;
    /* Only the kinds raw_reused_impls lists get here. */
    bench_kind kind = c->op->kind;
    void *x = NULL;
    bool ok;
    if (kind == BK_DIGEST) {
        *free_fn = md_ctx_free;
        ok = (x = EVP_MD_CTX_new()) != NULL;
    } else if (kind == BK_HMAC_SIGN || kind == BK_HMAC_VERIFY) {
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)s->digest_name, 0),
            OSSL_PARAM_construct_end(),
        };
        *free_fn = mac_ctx_free;
        ok = (x = EVP_MAC_CTX_new(s->mac)) != NULL &&
             EVP_MAC_init(x, c->key_bytes, c->key_len, params) == 1;
    } else {
        *free_fn = cipher_ctx_free;
        ok = (x = EVP_CIPHER_CTX_new()) != NULL &&
             EVP_CipherInit_ex2(x, s->cipher, c->key_bytes, NULL, kind == BK_ENCRYPT, NULL) == 1;
    }
    if (!ok) {
        if (x) (*free_fn)(x);
        ossl_fail("making the reused context");
        return NULL;
    }
    return x;
}

/* The calling thread's reused context for c (the type its kind makes). */
static void *reuse_ctx(const bench_cell *c) {
    return bench_thread_ctx(c, ((const raw_state *)c->raw)->reuse_id, reuse_make);
}

static int reuse_number(bench_cell *c) {
    ((raw_state *)c->raw)->reuse_id = bench_thread_ctx_id();
    return 0;
}

/* Teardown runs on the thread that ran setup and the one-thread cells: its
 * slot is cleared here; a worker's goes when the worker ends. */
static void reuse_teardown(bench_cell *c) {
    const raw_state *s = c->raw;
    if (s) bench_thread_ctx_drop(s->reuse_id);
    raw_teardown(c);
}

static int reuse_setup_digest(bench_cell *c) { return raw_setup_digest(c) ? -1 : reuse_number(c); }
static int reuse_setup_hmac(bench_cell *c) { return raw_setup_hmac(c) ? -1 : reuse_number(c); }
static int reuse_setup_cipher(bench_cell *c) { return raw_setup_cipher(c) ? -1 : reuse_number(c); }

static int reuse_run_digest(const bench_cell *c, uint8_t *out, size_t *out_len) {
    const raw_state *s = c->raw;
    EVP_MD_CTX *x = reuse_ctx(c);
    if (!x) return -1;
    unsigned n = 0;
    if (EVP_DigestInit_ex2(x, s->md, NULL) != 1 || EVP_DigestUpdate(x, c->data, c->size) != 1 ||
        EVP_DigestFinal_ex(x, out, &n) != 1)
        return ossl_fail("EVP_Digest (reused context)");
    *out_len = n;
    return 0;
}

static int reuse_hmac(const bench_cell *c, uint8_t *out, size_t cap, size_t *out_len) {
    EVP_MAC_CTX *x = reuse_ctx(c);
    if (!x) return -1;
    if (EVP_MAC_init(x, NULL, 0, NULL) != 1 || EVP_MAC_update(x, c->data, c->size) != 1 ||
        EVP_MAC_final(x, out, out_len, cap) != 1)
        return ossl_fail("EVP_MAC (reused context)");
    return 0;
}

static int reuse_run_hmac_sign(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return reuse_hmac(c, out, c->out_cap, out_len);
}

static int reuse_run_hmac_verify(const bench_cell *c, uint8_t *out, size_t *out_len) {
    return hmac_verify_with(reuse_hmac, c, out, out_len);
}

static int reuse_run_encrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    if (c->size > INT_MAX) {
        bench_fail("raw: input too large for one EVP_EncryptUpdate");
        return -1;
    }
    EVP_CIPHER_CTX *x = reuse_ctx(c);
    if (!x) return -1;
    int n1 = 0, n2 = 0, ok = EVP_EncryptInit_ex2(x, NULL, NULL, c->iv, NULL) == 1 &&
                             EVP_EncryptUpdate(x, out, &n1, c->data, (int)c->size) == 1 &&
                             EVP_EncryptFinal_ex(x, out + n1, &n2) == 1;
    size_t n = (size_t)n1 + (size_t)n2;
    if (ok && aead_tag16(c->op)) {
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, out + n) == 1;
        n += 16;
    }
    if (!ok) return ossl_fail("EVP_Encrypt (reused context)");
    *out_len = n;
    return 0;
}

static int reuse_run_decrypt(const bench_cell *c, uint8_t *out, size_t *out_len) {
    size_t in_len = c->aux_len;
    bool gcm = aead_tag16(c->op);
    if (gcm) in_len -= 16;
    EVP_CIPHER_CTX *x = reuse_ctx(c);
    if (!x) return -1;
    int n1 = 0, n2 = 0;
    int ok = EVP_DecryptInit_ex2(x, NULL, NULL, c->iv, NULL) == 1 &&
             EVP_DecryptUpdate(x, out, &n1, c->aux, (int)in_len) == 1;
    if (ok && gcm)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, (void *)(c->aux + in_len)) == 1;
    ok = ok && EVP_DecryptFinal_ex(x, out + n1, &n2) == 1;
    if (!ok) return ossl_fail("EVP_Decrypt (reused context)");
    *out_len = (size_t)n1 + (size_t)n2;
    return 0;
}

static const bench_impl raw_reused_impls[BK_COUNT] = {
    [BK_DIGEST] = {reuse_setup_digest, reuse_run_digest, reuse_teardown, NULL, NULL},
    [BK_HMAC_SIGN] = {reuse_setup_hmac, reuse_run_hmac_sign, reuse_teardown, NULL, NULL},
    [BK_HMAC_VERIFY] = {reuse_setup_hmac, reuse_run_hmac_verify, reuse_teardown, NULL, NULL},
    [BK_ENCRYPT] = {reuse_setup_cipher, reuse_run_encrypt, reuse_teardown, NULL, NULL},
    [BK_DECRYPT] = {reuse_setup_cipher, reuse_run_decrypt, reuse_teardown, NULL, NULL},
};

/* Per kind, in both tables: {setup, run, teardown, check, batch}, as in bench_impl. */
static const bench_impl raw_keyed_impls[BK_COUNT] = {
    [BK_HMAC_SIGN] = {raw_keyed_setup_hmac, raw_keyed_run_hmac_sign, raw_teardown, NULL, NULL},
    [BK_HMAC_VERIFY] = {raw_keyed_setup_hmac, raw_keyed_run_hmac_verify, raw_teardown, NULL, NULL},
    [BK_ENCRYPT] = {raw_keyed_setup_cipher, raw_keyed_run_encrypt, raw_teardown, NULL, NULL},
    [BK_DECRYPT] = {raw_keyed_setup_cipher, raw_keyed_run_decrypt, raw_teardown, NULL, NULL},
};

static const bench_impl raw_impls[BK_COUNT] = {
    [BK_DIGEST] = {raw_setup_digest, raw_run_digest, raw_teardown, NULL, NULL},
    [BK_HMAC_SIGN] = {raw_setup_hmac, raw_run_hmac_sign, raw_teardown, NULL, NULL},
    [BK_HMAC_VERIFY] = {raw_setup_hmac, raw_run_hmac_verify, raw_teardown, NULL, NULL},
    [BK_ENCRYPT] = {raw_setup_cipher, raw_run_encrypt, raw_teardown, NULL, NULL},
    [BK_DECRYPT] = {raw_setup_cipher, raw_run_decrypt, raw_teardown, NULL, NULL},
    [BK_GENERATE_KEY] = {raw_setup_keyop, raw_run_generate, raw_teardown, NULL, NULL},
    [BK_IMPORT_KEY] = {raw_setup_keyop, raw_run_import, raw_teardown, NULL, NULL},
    [BK_HKDF] = {raw_setup_kdf, raw_run_kdf, raw_teardown, NULL, NULL},
    [BK_PBKDF2] = {raw_setup_kdf, raw_run_kdf, raw_teardown, NULL, NULL},
    [BK_RANDOM] = {raw_setup_random, raw_run_random, raw_teardown, NULL, NULL},
    [BK_PKEY_SIGN] = {raw_setup_pkey, raw_run_pkey_sign, raw_teardown, raw_check_pkey_sign, NULL},
    [BK_PKEY_VERIFY] = {raw_setup_pkey, raw_run_pkey_verify, raw_teardown, NULL, NULL},
    [BK_PKEY_ENCRYPT] = {raw_setup_pkey, raw_run_pkey_encrypt, raw_teardown,
                         raw_check_pkey_encrypt, NULL},
    [BK_PKEY_DECRYPT] = {raw_setup_pkey, raw_run_pkey_decrypt, raw_teardown, NULL, NULL},
    [BK_PKEY_DERIVE] = {raw_setup_derive, raw_run_derive, raw_teardown, NULL, NULL},
    [BK_PKEY_GENERATE] = {raw_setup_pkey_generate, raw_run_pkey_generate, raw_teardown, NULL, NULL},
    [BK_KMAC_SIGN] = {raw_setup_kmac, raw_run_kmac, raw_teardown, NULL, NULL},
};

const bench_impl *bench_raw_impl(const bench_op *op, bench_raw_mode mode) {
    if (mode == BENCH_RAW_PROVIDER) return bench_raw_provider_impl(op);
    const bench_impl *i = mode == BENCH_RAW_KEYED    ? &raw_keyed_impls[op->kind]
                          : mode == BENCH_RAW_REUSED ? &raw_reused_impls[op->kind]
                                                     : &raw_impls[op->kind];
    /* A cipher this baseline has no EVP name for (AES-GCM-SIV: OpenSSL has
     * it from 3.2 only, and this baseline does not implement it). */
    if ((op->kind == BK_ENCRYPT || op->kind == BK_DECRYPT) && !bench_ossl_cipher_name(op)) return NULL;
    if (op->kind == BK_DIGEST && !bench_ossl_digest_name(op->alg)) return NULL;
    /* ML-DSA: not in OpenSSL 3.0 (its ML-KEM and Argon2 kinds have no row
     * here either). */
    if (op->alg == WEBCRYPTO_ALG_ML_DSA_44 || op->alg == WEBCRYPTO_ALG_ML_DSA_65 ||
        op->alg == WEBCRYPTO_ALG_ML_DSA_87)
        return NULL;
    return i->run ? i : NULL;
}

const char *bench_raw_description(void) {
    static char text[160];
    snprintf(text, sizeof text, "EVP called directly on %s (no libwebcrypto)",
             OpenSSL_version(OPENSSL_VERSION));
    return text;
}
