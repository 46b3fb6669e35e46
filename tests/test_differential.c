/*
 * test_differential.c - every pair of backends must agree byte for byte.
 *
 * For each pair of available backends (those compiled in, or those named in
 * $WEBCRYPTO_DIFF_BACKENDS; plus any "name:variant" listed in
 * $WEBCRYPTO_DIFF_EXTRA; lists separated by commas or spaces), on inputs
 * and keys drawn from a fixed seed ($WEBCRYPTO_DIFF_SEED overrides it), the
 * same key bytes are imported on both backends and every deterministic
 * operation is run on both: digests (one-shot and streamed),
 * HMAC, AES-CBC/CTR/GCM, AES-GCM-SIV, HKDF, PBKDF2, AES-KW. Outputs must be
 * identical, each backend must decrypt / verify what the other produced, and
 * both must reject the same tampered input with the same error. An algorithm
 * one backend of a pair lacks is counted as skipped, with the reason printed.
 *
 * Asymmetric keys (RSA, EC, Ed25519, X25519) come from the backends' own
 * generation, once per run (the key bytes are not drawn from the seed): a few
 * shared keys made on the first backend that has the algorithm, and one key
 * of each kind made by every backend. Both sides of a pair import the same
 * pkcs8 / spki bytes; their spki, pkcs8, jwk and raw exports must be
 * identical; so must RSASSA-PKCS1-v1_5 and Ed25519 signatures and ECDH /
 * X25519 secrets. RSA-PSS and ECDSA signatures must verify on both sides,
 * RSA-OAEP ciphertexts decrypt on both, and changed ones fail on both.
 *
 * Then every backend gets the same list of bad inputs (differential_errors.c:
 * bad CBC padding, malformed imports of every class, wrong lengths and
 * parameters) and must give the error kind WebCrypto names for each.
 *
 * A backend in the list that cannot start is a failure. Exits 77 (a CTest
 * skip) when fewer than two backends are listed. The algorithms the drafts
 * added in 0.3 (Ed448, X448, ML-KEM, ML-DSA, cSHAKE, KMAC, ChaCha20-Poly1305,
 * AES-OCB, Argon2) are test_differential_modern.c's; what both share (the
 * seeded inputs, counts, the pair operations, the driver) is in
 * differential_common.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "differential_common.h"
#include "differential_errors.h"
#include "webcrypto.h"

#define MAX_BACKENDS DIFF_MAX_BACKENDS

static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1,    WEBCRYPTO_ALG_SHA_256,
                                             WEBCRYPTO_ALG_SHA_384,  WEBCRYPTO_ALG_SHA_512,
                                             WEBCRYPTO_ALG_SHA3_256, WEBCRYPTO_ALG_SHA3_384,
                                             WEBCRYPTO_ALG_SHA3_512};
#define N_HASHES (sizeof hashes / sizeof *hashes)

/* ---- the operations ---- */

static void diff_digest(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    uint8_t *data = rnd_buf(n);
    for (size_t h = 0; h < N_HASHES; h++) {
        if (!both_support(a, b, hashes[h], WEBCRYPTO_ALG_NONE)) continue;
        char what[64];
        snprintf(what, sizeof what, "%s digest", webcrypto_algorithm_name(hashes[h]));
        uint8_t da[64], db[64], ds[64];
        size_t la = 0, lb = 0, ls = 0;
        webcrypto_status sa = webcrypto_digest(a, hashes[h], data, n, da, sizeof da, &la);
        webcrypto_status sb = webcrypto_digest(b, hashes[h], data, n, db, sizeof db, &lb);
        if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK) {
            fail("%s, %zu bytes: %s / %s (last error: %s)", what, n, webcrypto_status_name(sa),
                 webcrypto_status_name(sb), LAST_ERROR);
            continue;
        }
        check_same(what, n, da, la, db, lb);
        /* Streamed on b in random pieces: the same as a's one-shot digest. */
        webcrypto_digest_ctx *ctx = NULL;
        webcrypto_status st = webcrypto_digest_init(b, hashes[h], &ctx);
        for (size_t off = 0; st == WEBCRYPTO_OK && off < n;) {
            size_t piece = rnd_range(0, n - off < 300 ? n - off : 300);
            if (rnd64() % 8 == 0) piece = n - off;
            st = webcrypto_digest_update(ctx, data + off, piece);
            off += piece;
        }
        if (st == WEBCRYPTO_OK) st = webcrypto_digest_final(ctx, ds, sizeof ds, &ls);
        webcrypto_digest_ctx_free(ctx);
        snprintf(what, sizeof what, "%s digest streamed on %s", webcrypto_algorithm_name(hashes[h]),
                 webcrypto_backend_name(b));
        if (st != WEBCRYPTO_OK)
            fail("%s: %s (%s)", what, webcrypto_status_name(st), LAST_ERROR);
        else
            check_same(what, n, da, la, ds, ls);
    }
    free(data);
}

static void diff_hmac(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    webcrypto_algorithm hash = hashes[rnd64() % N_HASHES];
    if (!both_support(a, b, WEBCRYPTO_ALG_HMAC, hash)) return;
    size_t key_len = rnd64() % 4 == 0 ? rnd_range(129, 300) : rnd_range(1, 128);
    uint8_t *key = rnd_buf(key_len), *data = rnd_buf(n);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = hash);
    unsigned use = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    webcrypto_key *ka = import(a, &p, key, key_len, use), *kb = import(b, &p, key, key_len, use);
    char what[96];
    snprintf(what, sizeof what, "HMAC %s (%zu-byte key)", webcrypto_algorithm_name(hash), key_len);
    if (ka && kb) {
        uint8_t ma[64], mb[64];
        size_t la = 0, lb = 0;
        webcrypto_status sa = webcrypto_sign(&p, ka, data, n, ma, sizeof ma, &la);
        webcrypto_status sb = webcrypto_sign(&p, kb, data, n, mb, sizeof mb, &lb);
        if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK) {
            fail("%s sign, %zu bytes: %s / %s (last error: %s)", what, n, webcrypto_status_name(sa),
                 webcrypto_status_name(sb), LAST_ERROR);
        } else {
            check_same(what, n, ma, la, mb, lb);
            /* Each verifies the other's MAC, and both refuse a changed one. */
            const webcrypto_key *keys[2] = {kb, ka};
            uint8_t *macs[2] = {ma, mb};
            for (int i = 0; i < 2; i++) {
                bool valid = false;
                webcrypto_status st = webcrypto_verify(&p, keys[i], macs[i], la, data, n, &valid);
                if (st != WEBCRYPTO_OK || !valid)
                    fail("%s: %s does not verify the other's MAC (%s%s%s)", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(keys[i])),
                         webcrypto_status_name(st), st ? ": " : "", st ? LAST_ERROR : "");
                else
                    pass();
            }
            ma[rnd64() % la] ^= (uint8_t)(1u << (rnd64() % 8));
            for (int i = 0; i < 2; i++) {
                bool valid = true;
                webcrypto_status st = webcrypto_verify(&p, keys[i], ma, la, data, n, &valid);
                if (st != WEBCRYPTO_OK || valid)
                    fail("%s: %s accepts a changed MAC (%s%s%s)", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(keys[i])),
                         webcrypto_status_name(st), st ? ": " : "", st ? LAST_ERROR : "");
                else
                    pass();
            }
        }
    }
    webcrypto_key_free(ka);
    webcrypto_key_free(kb);
    free(key);
    free(data);
}

static size_t aes_key_len(void) { return (size_t)16 + 8 * (size_t)(rnd64() % 3); }

static void diff_aes_cbc(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE)) return;
    uint8_t iv[16], *pt = rnd_buf(n);
    rnd_fill(iv, sizeof iv);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CBC, .iv = iv, .iv_len = 16);
    size_t kl = aes_key_len();
    char what[64];
    snprintf(what, sizeof what, "AES-CBC-%zu", kl * 8);
    diff_cipher(a, b, &p, kl, what, pt, n, false);
    free(pt);
}

static void diff_aes_ctr(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_CTR, WEBCRYPTO_ALG_NONE)) return;
    static const size_t lengths[] = {128, 64, 32, 16};
    size_t bits = rnd64() % 2 ? lengths[rnd64() % 4] : rnd_range(1, 128);
    size_t blocks = (n + 15) / 16;
    while (bits < 64 && blocks > ((size_t)1 << bits)) bits++; /* the data must fit */
    uint8_t counter[16], *pt = rnd_buf(n);
    rnd_fill(counter, sizeof counter);
    if (rnd64() % 2) {
        /* Low `bits` bits just below their wrap, so the counter wraps inside
         * the data (the core splits there; both must agree). */
        for (size_t i = 0; i < bits; i++) counter[15 - i / 8] |= (uint8_t)(1u << (i % 8));
        if (bits >= 2) counter[15] ^= (uint8_t)(rnd64() % 4);
    }
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR, .counter = counter, .counter_len = 16,
                                          .length = bits);
    size_t kl = aes_key_len();
    char what[64];
    snprintf(what, sizeof what, "AES-CTR-%zu (length %zu)", kl * 8, bits);
    diff_cipher(a, b, &p, kl, what, pt, n, false);
    free(pt);
}

static void diff_aes_gcm(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE)) return;
    static const size_t iv_lens[] = {12, 12, 12, 1, 8, 16, 60, 128, 129, 257};
    static const size_t tags[] = {0, 128, 120, 112, 104, 96, 64, 32};
    size_t iv_len = iv_lens[rnd64() % (sizeof iv_lens / sizeof *iv_lens)];
    size_t tag = tags[rnd64() % (sizeof tags / sizeof *tags)];
    size_t aad_len = rnd64() % 3 == 0 ? 0 : rnd_range(1, 300);
    uint8_t *iv = rnd_buf(iv_len), *aad = rnd_buf(aad_len), *pt = rnd_buf(n);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = iv_len,
                                          .additional_data = aad_len ? aad : NULL,
                                          .additional_data_len = aad_len, .tag_length = tag);
    size_t kl = aes_key_len();
    char what[96];
    snprintf(what, sizeof what, "AES-GCM-%zu (%zu-byte IV, %zu-bit tag, %zu-byte AAD)", kl * 8,
             iv_len, tag ? tag : 128, aad_len);
    diff_cipher(a, b, &p, kl, what, pt, n, true);
    free(iv);
    free(aad);
    free(pt);
}

static void diff_aes_gcm_siv(const webcrypto_backend *a, const webcrypto_backend *b, size_t n) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_GCM_SIV, WEBCRYPTO_ALG_NONE)) return;
    size_t aad_len = rnd64() % 3 == 0 ? 0 : rnd_range(1, 300);
    uint8_t nonce[12], *aad = rnd_buf(aad_len), *pt = rnd_buf(n);
    rnd_fill(nonce, sizeof nonce);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM_SIV, .iv = nonce, .iv_len = 12,
                                          .additional_data = aad_len ? aad : NULL,
                                          .additional_data_len = aad_len);
    size_t kl = rnd64() % 2 ? 16 : 32;
    char what[96];
    snprintf(what, sizeof what, "AES-GCM-SIV-%zu (%zu-byte AAD)", kl * 8, aad_len);
    diff_cipher(a, b, &p, kl, what, pt, n, true);
    free(aad);
    free(pt);
}

static void diff_hkdf(const webcrypto_backend *a, const webcrypto_backend *b) {
    webcrypto_algorithm hash = hashes[rnd64() % N_HASHES];
    if (!both_support(a, b, WEBCRYPTO_ALG_HKDF, hash)) return;
    size_t ikm_len = rnd_range(1, 100), salt_len = rnd64() % 4 ? rnd_range(0, 100) : 0;
    size_t info_len = rnd64() % 4 ? rnd_range(0, 100) : 0;
    size_t max = 255 * webcrypto_digest_size(hash);
    size_t out_len = rnd64() % 8 == 0 ? max : rnd_range(0, 200);
    uint8_t *ikm = rnd_buf(ikm_len), *salt = rnd_buf(salt_len), *info = rnd_buf(info_len);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = hash, .salt = salt,
                                          .salt_len = salt_len, .info = info, .info_len = info_len);
    char what[128];
    snprintf(what, sizeof what, "HKDF %s (%zu-byte salt, %zu-byte info, %zu bytes out)",
             webcrypto_algorithm_name(hash), salt_len, info_len, out_len);
    diff_derive(a, b, &p, ikm, ikm_len, out_len, what);
    free(ikm);
    free(salt);
    free(info);
}

static void diff_pbkdf2(const webcrypto_backend *a, const webcrypto_backend *b) {
    webcrypto_algorithm hash = hashes[rnd64() % N_HASHES];
    if (!both_support(a, b, WEBCRYPTO_ALG_PBKDF2, hash)) return;
    size_t pw_len = rnd_range(1, 80), salt_len = rnd_range(0, 64);
    size_t out_len = rnd_range(1, 150);
    uint32_t iterations = rnd64() % 4 == 0 ? 1 : (uint32_t)rnd_range(2, 1500);
    uint8_t *pw = rnd_buf(pw_len), *salt = rnd_buf(salt_len);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = hash, .salt = salt,
                                          .salt_len = salt_len, .iterations = iterations);
    char what[128];
    snprintf(what, sizeof what, "PBKDF2 %s (%zu-byte salt, %u iterations, %zu bytes out)",
             webcrypto_algorithm_name(hash), salt_len, (unsigned)iterations, out_len);
    diff_derive(a, b, &p, pw, pw_len, out_len, what);
    free(pw);
    free(salt);
}

/* ---- asymmetric algorithms and AES-KW ----
 * Keys are made once (material_init): each kind on the first backend that
 * has it ("shared" keys), plus one key of each kind generated on every
 * backend, so that every backend's generated keys are also checked on the
 * others. Both backends of a pair import the same pkcs8 / spki bytes. */

enum { SRC_RSA_A, SRC_RSA_B, SRC_P256, SRC_P384, SRC_P521, SRC_P256_PEER, SRC_P384_PEER,
       SRC_P521_PEER, SRC_ED25519, SRC_X25519, SRC_X25519_PEER, N_SHARED };
enum { GEN_RSA, GEN_P256, GEN_ED25519, GEN_X25519, N_GEN };

static pair_src shared_src[N_SHARED];
static pair_src gen_src[MAX_BACKENDS][N_GEN];
static const webcrypto_backend *gen_backends[MAX_BACKENDS];
static size_t n_gen_backends;
static pair_result setup_result;

static const uint8_t E_F4[] = {0x01, 0x00, 0x01}, E_3[] = {0x03};

/* The generation parameters of each kind of key made here. */
static webcrypto_params rsa_gen(size_t bits, const uint8_t *e, size_t e_len) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, .hash = WEBCRYPTO_ALG_SHA_256,
                                          .modulus_length = bits, .public_exponent = e,
                                          .public_exponent_len = e_len);
    return p;
}

static webcrypto_params curve_gen(webcrypto_algorithm alg, webcrypto_named_curve c) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .named_curve = c);
    return p;
}

static const webcrypto_backend *first_with(const webcrypto_backend *const *bs, size_t n,
                                           webcrypto_algorithm alg) {
    for (size_t i = 0; i < n; i++)
        if (webcrypto_backend_supports(bs[i], alg)) return bs[i];
    return NULL;
}

static void material_init(const webcrypto_backend *const *bs, size_t n) {
    cur = &setup_result;
    cur_a = "key setup";
    cur_b = "-";
    const unsigned sv = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
    const unsigned dh = WEBCRYPTO_USAGE_DERIVE_BITS;
    static const webcrypto_named_curve cs[3] = {WEBCRYPTO_CURVE_P256, WEBCRYPTO_CURVE_P384,
                                                WEBCRYPTO_CURVE_P521};
    const webcrypto_backend *b;
    webcrypto_params p;
    if ((b = first_with(bs, n, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5))) {
        p = rsa_gen(2048, E_F4, sizeof E_F4);
        make_src(b, &p, sv, &shared_src[SRC_RSA_A]);
        p = rsa_gen(1024, E_3, sizeof E_3);
        make_src(b, &p, sv, &shared_src[SRC_RSA_B]);
    }
    if ((b = first_with(bs, n, WEBCRYPTO_ALG_ECDSA)))
        for (int i = 0; i < 3; i++) {
            p = curve_gen(WEBCRYPTO_ALG_ECDSA, cs[i]);
            make_src(b, &p, sv, &shared_src[SRC_P256 + i]);
            make_src(b, &p, sv, &shared_src[SRC_P256_PEER + i]);
        }
    if ((b = first_with(bs, n, WEBCRYPTO_ALG_ED25519))) {
        p = curve_gen(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE);
        make_src(b, &p, sv, &shared_src[SRC_ED25519]);
    }
    if ((b = first_with(bs, n, WEBCRYPTO_ALG_X25519))) {
        p = curve_gen(WEBCRYPTO_ALG_X25519, WEBCRYPTO_CURVE_NONE);
        make_src(b, &p, dh, &shared_src[SRC_X25519]);
        make_src(b, &p, dh, &shared_src[SRC_X25519_PEER]);
    }
    /* One key of each kind per backend. */
    for (size_t i = 0; i < n; i++) {
        gen_backends[i] = bs[i];
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5)) {
            p = rsa_gen(1024, E_F4, sizeof E_F4);
            make_src(bs[i], &p, sv, &gen_src[i][GEN_RSA]);
        }
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_ECDSA)) {
            p = curve_gen(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_CURVE_P256);
            make_src(bs[i], &p, sv, &gen_src[i][GEN_P256]);
        }
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_ED25519)) {
            p = curve_gen(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_CURVE_NONE);
            make_src(bs[i], &p, sv, &gen_src[i][GEN_ED25519]);
        }
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_X25519)) {
            p = curve_gen(WEBCRYPTO_ALG_X25519, WEBCRYPTO_CURVE_NONE);
            make_src(bs[i], &p, dh, &gen_src[i][GEN_X25519]);
        }
    }
    n_gen_backends = n;
}

static void material_free(void) {
    pair_srcs_free(shared_src, N_SHARED);
    for (size_t i = 0; i < n_gen_backends; i++) pair_srcs_free(gen_src[i], N_GEN);
}

static const pair_src *gen_of(const webcrypto_backend *b, int kind) {
    size_t i = backend_index(gen_backends, n_gen_backends, b);
    return i < n_gen_backends && gen_src[i][kind].priv.p ? &gen_src[i][kind] : NULL;
}

static const size_t sig_sizes[] = {0, 1, 64, 1000};
#define N_SIG_SIZES (sizeof sig_sizes / sizeof *sig_sizes)

static size_t rsa_bytes(const webcrypto_key *k) {
    return (webcrypto_key_get_modulus_length(k) + 7) / 8;
}

/* Encrypts on one side and decrypts on the other, both ways; a plaintext one
 * byte too long and a changed ciphertext are OperationError on both. */
static void oaep_both(const webcrypto_params *p, both_keys *k, webcrypto_algorithm hash,
                      const char *what) {
    size_t kb = rsa_bytes(k->pub[0]), h = webcrypto_digest_size(hash);
    long max = (long)kb - 2 * (long)h - 2;
    size_t sizes[3] = {0, 1, max > 0 ? (size_t)max : 0};
    char w[240];
    for (size_t s = 0; s < 3; s++) {
        size_t n = sizes[s];
        uint8_t *pt = rnd_buf(n);
        if (max < (long)n) { /* too long even when empty: both refuse */
            for (int i = 0; i < 2; i++) {
                uint8_t *ct = NULL;
                size_t cl = 0;
                snprintf(w, sizeof w, "%s, plaintext too long, on %s", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(k->pub[i])));
                check_status(w, n, do_crypt(true, p, k->pub[i], pt, n, &ct, &cl),
                             WEBCRYPTO_ERR_OPERATION);
                free(ct);
            }
            free(pt);
            break;
        }
        for (int i = 0; i < 2; i++) {
            uint8_t *ct = NULL, *back = NULL;
            size_t cl = 0, bl = 0;
            webcrypto_status st = do_crypt(true, p, k->pub[i], pt, n, &ct, &cl);
            snprintf(w, sizeof w, "%s, encrypted on %s", what,
                     webcrypto_backend_name(webcrypto_key_get_backend(k->pub[i])));
            if (st != WEBCRYPTO_OK) {
                fail("%s, %zu bytes: %s (%s)", w, n, webcrypto_status_name(st), LAST_ERROR);
                free(pt);
                return;
            }
            for (int j = 0; j < 2; j++) {
                st = do_crypt(false, p, k->priv[j], ct, cl, &back, &bl);
                char w2[300];
                snprintf(w2, sizeof w2, "%s, decrypted on %s", w,
                         webcrypto_backend_name(webcrypto_key_get_backend(k->priv[j])));
                if (st != WEBCRYPTO_OK)
                    fail("%s, %zu bytes: %s (%s)", w2, n, webcrypto_status_name(st), LAST_ERROR);
                else
                    check_same(w2, n, back, bl, pt, n);
                free(back);
                back = NULL;
            }
            ct[rnd64() % cl] ^= (uint8_t)(1u << (rnd64() % 8));
            for (int j = 0; j < 2; j++) {
                snprintf(w, sizeof w, "%s, changed ciphertext, on %s", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(k->priv[j])));
                check_status(w, n, do_crypt(false, p, k->priv[j], ct, cl, &back, &bl),
                             WEBCRYPTO_ERR_OPERATION);
                free(back);
                back = NULL;
            }
            free(ct);
        }
        free(pt);
        if (s == 2) { /* one byte beyond the maximum */
            pt = rnd_buf(n + 1);
            for (int i = 0; i < 2; i++) {
                uint8_t *ct = NULL;
                size_t cl = 0;
                snprintf(w, sizeof w, "%s, plaintext too long, on %s", what,
                         webcrypto_backend_name(webcrypto_key_get_backend(k->pub[i])));
                check_status(w, n + 1, do_crypt(true, p, k->pub[i], pt, n + 1, &ct, &cl),
                             WEBCRYPTO_ERR_OPERATION);
                free(ct);
            }
            free(pt);
        }
    }
}

static void diff_rsa_key(const webcrypto_backend *a, const webcrypto_backend *b,
                         const pair_src *src, const char *key_name) {
    if (!src || !src->priv.p) return;
    const unsigned sv_priv = WEBCRYPTO_USAGE_SIGN, sv_pub = WEBCRYPTO_USAGE_VERIFY;
    char what[200];
    for (size_t h = 0; h < N_HASHES; h++) {
        webcrypto_algorithm hash = hashes[h];
        /* RSASSA-PKCS1-v1_5: deterministic */
        if (both_support(a, b, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, hash)) {
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, .hash = hash);
            both_keys k;
            snprintf(what, sizeof what, "RSASSA-PKCS1-v1_5 %s, %s", webcrypto_algorithm_name(hash),
                     key_name);
            if (import_both(a, b, src, &p, sv_priv, sv_pub, what, &k)) {
                for (size_t s = 0; s < N_SIG_SIZES; s++)
                    sign_both(&p, &k, sig_sizes[s], true, what);
                both_free(&k);
            }
        }
        /* RSA-PSS: randomized; salt lengths 0, the hash's size, and the largest */
        if (both_support(a, b, WEBCRYPTO_ALG_RSA_PSS, hash)) {
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_PSS, .hash = hash);
            both_keys k;
            snprintf(what, sizeof what, "RSA-PSS %s, %s", webcrypto_algorithm_name(hash), key_name);
            if (import_both(a, b, src, &p, sv_priv, sv_pub, what, &k)) {
                size_t hl = webcrypto_digest_size(hash);
                size_t em = (webcrypto_key_get_modulus_length(k.pub[0]) - 1 + 7) / 8;
                size_t salts[3] = {0, hl, em >= hl + 2 ? em - hl - 2 : 0};
                for (size_t s = 0; s < 3; s++) {
                    if (salts[s] + hl + 2 > em) continue;
                    p.salt_length = salts[s];
                    char w[240];
                    snprintf(w, sizeof w, "%s, salt %zu", what, salts[s]);
                    sign_both(&p, &k, sig_sizes[s + 1], false, w);
                    /* the other salt length does not verify, on either side */
                    if (s == 1) {
                        uint8_t sig[1024], *msg = rnd_buf(64);
                        size_t len = 0;
                        if (sign_on(&p, k.priv[0], msg, 64, sig, sizeof sig, &len, w)) {
                            p.salt_length = hl + 1;
                            snprintf(w, sizeof w, "%s, verified with salt %zu", what, hl + 1);
                            for (int i = 0; i < 2; i++)
                                verify_expect(&p, k.pub[i], sig, len, msg, 64, false, w);
                        }
                        free(msg);
                    }
                }
                both_free(&k);
            }
        }
        /* RSA-OAEP: randomized; with and without a label */
        if (both_support(a, b, WEBCRYPTO_ALG_RSA_OAEP, hash)) {
            size_t label_len = rnd64() % 2 ? rnd_range(1, 40) : 0;
            uint8_t *label = rnd_buf(label_len);
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP, .hash = hash,
                                                  .label = label_len ? label : NULL, .label_len = label_len);
            both_keys k;
            snprintf(what, sizeof what, "RSA-OAEP %s (%zu-byte label), %s",
                     webcrypto_algorithm_name(hash), label_len, key_name);
            if (import_both(a, b, src, &p, WEBCRYPTO_USAGE_DECRYPT, WEBCRYPTO_USAGE_ENCRYPT, what,
                            &k)) {
                oaep_both(&p, &k, hash, what);
                both_free(&k);
            }
            free(label);
        }
    }
}

/* The uncompressed raw point of an EC public key, compressed (02/03 || x). */
static void compress_point(const blob *raw, blob *out) {
    size_t fs = (raw->n - 1) / 2;
    out->n = 1 + fs;
    out->p = malloc(out->n);
    if (!out->p) exit(2);
    out->p[0] = (uint8_t)(0x02 | (raw->p[raw->n - 1] & 1));
    memcpy(out->p + 1, raw->p + 1, fs);
}

static void diff_ec_key(const webcrypto_backend *a, const webcrypto_backend *b,
                        webcrypto_named_curve curve, const pair_src *src, const pair_src *peer,
                        const char *key_name) {
    if (!src || !src->priv.p) return;
    size_t fs = curve == WEBCRYPTO_CURVE_P256 ? 32 : curve == WEBCRYPTO_CURVE_P384 ? 48 : 66;
    char what[200];
    if (both_support(a, b, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_NONE)) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = curve);
        both_keys k;
        snprintf(what, sizeof what, "ECDSA %s, %s", webcrypto_curve_name(curve), key_name);
        if (import_both(a, b, src, &p, WEBCRYPTO_USAGE_SIGN, WEBCRYPTO_USAGE_VERIFY, what, &k)) {
            /* the compressed point imports to the same key on both sides */
            blob raw, comp;
            if (export_to(WEBCRYPTO_FORMAT_RAW, k.pub[0], &raw, what)) {
                compress_point(&raw, &comp);
                webcrypto_key *c[2] = {NULL, NULL};
                char w[240];
                snprintf(w, sizeof w, "%s, compressed point", what);
                c[0] = import_fmt(a, WEBCRYPTO_FORMAT_RAW, &comp, &p, WEBCRYPTO_USAGE_VERIFY, w);
                c[1] = import_fmt(b, WEBCRYPTO_FORMAT_RAW, &comp, &p, WEBCRYPTO_USAGE_VERIFY, w);
                for (int i = 0; i < 2; i++) {
                    blob r2;
                    if (c[i] && export_to(WEBCRYPTO_FORMAT_RAW, c[i], &r2, w)) {
                        check_same(w, comp.n, r2.p, r2.n, raw.p, raw.n);
                        blob_free(&r2);
                    }
                    webcrypto_key_free(c[i]);
                }
                free(comp.p);
                blob_free(&raw);
            }
            for (size_t h = 0; h < N_HASHES; h++) {
                if (!both_support(a, b, WEBCRYPTO_ALG_ECDSA, hashes[h])) continue;
                p.hash = hashes[h];
                char w[240];
                snprintf(w, sizeof w, "%s, %s", what, webcrypto_algorithm_name(hashes[h]));
                sign_both(&p, &k, sig_sizes[h % N_SIG_SIZES], false, w);
            }
            both_free(&k);
        }
    }
    if (peer && peer->priv.p && both_support(a, b, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_NONE)) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .named_curve = curve);
        both_keys k, kp;
        snprintf(what, sizeof what, "ECDH %s, %s", webcrypto_curve_name(curve), key_name);
        if (import_both(a, b, src, &p, WEBCRYPTO_USAGE_DERIVE_BITS, 0, what, &k)) {
            if (import_both(a, b, peer, &p, WEBCRYPTO_USAGE_DERIVE_BITS, 0, what, &kp)) {
                derive_both(&p, k.priv, kp.pub, fs, what);
                both_free(&kp);
            }
            both_free(&k);
        }
    }
}

static void diff_ed25519_key(const webcrypto_backend *a, const webcrypto_backend *b,
                             const pair_src *src, const char *key_name) {
    if (!src || !src->priv.p || !both_support(a, b, WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_NONE))
        return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
    both_keys k;
    char what[200];
    snprintf(what, sizeof what, "Ed25519, %s", key_name);
    if (!import_both(a, b, src, &p, WEBCRYPTO_USAGE_SIGN, WEBCRYPTO_USAGE_VERIFY, what, &k)) return;
    for (size_t s = 0; s < N_SIG_SIZES; s++) sign_both(&p, &k, sig_sizes[s], true, what);
    both_free(&k);
}

static void diff_x25519_key(const webcrypto_backend *a, const webcrypto_backend *b,
                            const pair_src *src, const pair_src *peer, const char *key_name) {
    if (!src || !src->priv.p || !peer || !peer->priv.p ||
        !both_support(a, b, WEBCRYPTO_ALG_X25519, WEBCRYPTO_ALG_NONE))
        return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519);
    both_keys k, kp;
    char what[200];
    snprintf(what, sizeof what, "X25519, %s", key_name);
    if (!import_both(a, b, src, &p, WEBCRYPTO_USAGE_DERIVE_BITS, 0, what, &k)) return;
    if (import_both(a, b, peer, &p, WEBCRYPTO_USAGE_DERIVE_BITS, 0, what, &kp)) {
        derive_both(&p, k.priv, kp.pub, 32, what);
        both_free(&kp);
    }
    both_free(&k);
}

/* AES-KW: both wrap the same raw key to the same bytes; each unwraps the
 * other's; a changed wrapped key is OperationError on both. */
static void diff_aes_kw(const webcrypto_backend *a, const webcrypto_backend *b) {
    if (!both_support(a, b, WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_ALG_NONE)) return;
    const unsigned wu = WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY;
    static const size_t inner_lens[] = {16, 24, 32, 64};
    for (size_t kl = 16; kl <= 32; kl += 8)
        for (size_t il = 0; il < sizeof inner_lens / sizeof *inner_lens; il++) {
            size_t in_len = inner_lens[il];
            webcrypto_algorithm inner_alg =
                in_len == 64 ? WEBCRYPTO_ALG_HMAC : WEBCRYPTO_ALG_AES_CBC;
            if (!both_support(a, b, inner_alg, WEBCRYPTO_ALG_SHA_256)) continue;
            uint8_t *kek = rnd_buf(kl), *inner = rnd_buf(in_len);
            webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
            webcrypto_params ip = WEBCRYPTO_PARAMS(.name = inner_alg, .hash = WEBCRYPTO_ALG_SHA_256);
            unsigned iu = inner_alg == WEBCRYPTO_ALG_HMAC ? WEBCRYPTO_USAGE_SIGN
                                                          : WEBCRYPTO_USAGE_ENCRYPT;
            webcrypto_key *keks[2] = {import(a, &kw, kek, kl, wu), import(b, &kw, kek, kl, wu)};
            webcrypto_key *inners[2] = {NULL, NULL};
            const webcrypto_backend *sides[2] = {a, b};
            for (int i = 0; i < 2; i++) {
                webcrypto_status st = webcrypto_import_key(sides[i], WEBCRYPTO_FORMAT_RAW, inner,
                                                           in_len, &ip, true, iu, &inners[i]);
                if (st != WEBCRYPTO_OK)
                    fail("AES-KW: importing the key to wrap on %s: %s (%s)",
                         webcrypto_backend_name(sides[i]), webcrypto_status_name(st), LAST_ERROR);
            }
            char what[120];
            snprintf(what, sizeof what, "AES-KW-%zu wrapping a %zu-byte key", kl * 8, in_len);
            blob w[2] = {{NULL, 0}, {NULL, 0}};
            bool ok = keks[0] && keks[1] && inners[0] && inners[1];
            for (int i = 0; i < 2 && ok; i++) {
                webcrypto_status st = webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, inners[i], keks[i],
                                                         &kw, &w[i].p, &w[i].n);
                if (st != WEBCRYPTO_OK) {
                    fail("%s: wrap on %s: %s (%s)", what, webcrypto_backend_name(sides[i]),
                         webcrypto_status_name(st), LAST_ERROR);
                    ok = false;
                }
            }
            if (ok) {
                check_same(what, in_len, w[0].p, w[0].n, w[1].p, w[1].n);
                for (int i = 0; i < 2; i++) {
                    webcrypto_key *u = NULL;
                    char ww[200];
                    snprintf(ww, sizeof ww, "%s, unwrapped on %s", what,
                             webcrypto_backend_name(sides[1 - i]));
                    webcrypto_status st = webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w[i].p, w[i].n,
                                                               keks[1 - i], &kw, &ip, true, iu, &u);
                    blob back;
                    if (st != WEBCRYPTO_OK)
                        fail("%s: %s (%s)", ww, webcrypto_status_name(st), LAST_ERROR);
                    else if (export_to(WEBCRYPTO_FORMAT_RAW, u, &back, ww)) {
                        check_same(ww, in_len, back.p, back.n, inner, in_len);
                        blob_free(&back);
                    }
                    webcrypto_key_free(u);
                }
                w[0].p[rnd64() % w[0].n] ^= (uint8_t)(1u << (rnd64() % 8));
                for (int i = 0; i < 2; i++) {
                    webcrypto_key *u = NULL;
                    char ww[200];
                    snprintf(ww, sizeof ww, "%s, changed, unwrapped on %s", what,
                             webcrypto_backend_name(sides[i]));
                    check_status(ww, in_len,
                                 webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, w[0].p, w[0].n, keks[i],
                                                      &kw, &ip, true, iu, &u),
                                 WEBCRYPTO_ERR_OPERATION);
                    webcrypto_key_free(u);
                }
            }
            for (int i = 0; i < 2; i++) {
                blob_free(&w[i]);
                webcrypto_key_free(keks[i]);
                webcrypto_key_free(inners[i]);
            }
            free(kek);
            free(inner);
        }
}

static void run_pair_asym(const webcrypto_backend *a, const webcrypto_backend *b) {
    char name[128];
    diff_aes_kw(a, b);
    static const char *const rsa_names[2] = {"2048-bit key, e 65537", "1024-bit key, e 3"};
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "%s generated on %s", rsa_names[i],
                 shared_src[SRC_RSA_A + i].label ? shared_src[SRC_RSA_A + i].label : "-");
        diff_rsa_key(a, b, &shared_src[SRC_RSA_A + i], name);
    }
    static const webcrypto_named_curve cs[3] = {WEBCRYPTO_CURVE_P256, WEBCRYPTO_CURVE_P384,
                                                WEBCRYPTO_CURVE_P521};
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "key generated on %s",
                 shared_src[SRC_P256 + i].label ? shared_src[SRC_P256 + i].label : "-");
        diff_ec_key(a, b, cs[i], &shared_src[SRC_P256 + i], &shared_src[SRC_P256_PEER + i], name);
    }
    snprintf(name, sizeof name, "key generated on %s",
             shared_src[SRC_ED25519].label ? shared_src[SRC_ED25519].label : "-");
    diff_ed25519_key(a, b, &shared_src[SRC_ED25519], name);
    snprintf(name, sizeof name, "key generated on %s",
             shared_src[SRC_X25519].label ? shared_src[SRC_X25519].label : "-");
    diff_x25519_key(a, b, &shared_src[SRC_X25519], &shared_src[SRC_X25519_PEER], name);
    /* the keys each side of the pair generated, used on both */
    const webcrypto_backend *gens[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "1024-bit key generated on %s",
                 webcrypto_backend_name(gens[i]));
        diff_rsa_key(a, b, gen_of(gens[i], GEN_RSA), name);
        snprintf(name, sizeof name, "key generated on %s", webcrypto_backend_name(gens[i]));
        diff_ec_key(a, b, WEBCRYPTO_CURVE_P256, gen_of(gens[i], GEN_P256),
                    gen_of(gens[1 - i], GEN_P256), name);
        diff_ed25519_key(a, b, gen_of(gens[i], GEN_ED25519), name);
        diff_x25519_key(a, b, gen_of(gens[i], GEN_X25519), gen_of(gens[1 - i], GEN_X25519), name);
    }
}

/* ---- driver ---- */

/* Input sizes: the block-boundary cases, random ones up to 4 KiB, and a few
 * large ones (over 1 MiB, odd lengths). */
static size_t make_sizes(size_t *out, size_t cap) {
    static const size_t fixed[] = {0,   1,   2,   15,  16,   17,   31,   32,   33,   47,
                                   48,  63,  64,  65,  100,  111,  112,  113,  127,  128,
                                   129, 255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096};
    size_t n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed && n < cap; i++) out[n++] = fixed[i];
    for (int i = 0; i < 10 && n < cap; i++) out[n++] = rnd_range(0, 4096);
    static const size_t large[] = {65536 + 7, (size_t)1 << 20, ((size_t)3 << 20) + 5};
    for (size_t i = 0; i < sizeof large / sizeof *large && n < cap; i++) out[n++] = large[i];
    return n;
}

static void run_pair(const webcrypto_backend *a, const webcrypto_backend *b, uint64_t seed) {
    rng_state = seed; /* every pair sees the same inputs */
    size_t sizes[64];
    size_t n_sizes = make_sizes(sizes, sizeof sizes / sizeof *sizes);
    for (size_t i = 0; i < n_sizes; i++) {
        size_t n = sizes[i];
        diff_digest(a, b, n);
        diff_hmac(a, b, n);
        diff_aes_cbc(a, b, n);
        diff_aes_ctr(a, b, n);
        diff_aes_gcm(a, b, n);
        diff_aes_gcm_siv(a, b, n);
    }
    for (int i = 0; i < 40; i++) diff_hkdf(a, b);
    for (int i = 0; i < 25; i++) diff_pbkdf2(a, b);
    run_pair_asym(a, b);
}

int main(void) {
    const webcrypto_backend *backends[MAX_BACKENDS];
    size_t n = 0;
    int rc = diff_open_backends(backends, &n);
    if (rc) return rc;
    uint64_t seed = diff_seed();
    material_init(backends, n);
    if (setup_result.failed) printf("key setup: %zu FAILED\n", setup_result.failed);
    diff_run_pairs(backends, n, seed, run_pair);
    material_free();

    /* The same bad input: the same error kind on every backend. */
    size_t error_checks = 0;
    size_t error_failed = diff_errors(backends, n, &error_checks);
    total_failed += error_failed;
    total_passed += error_checks - error_failed;
    diff_print_totals();
    return total_failed == 0 ? 0 : 1;
}
