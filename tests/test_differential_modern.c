/*
 * test_differential_modern.c - every pair of backends must agree byte for
 * byte on the algorithms the drafts added in 0.3 ("Modern Algorithms in the
 * Web Cryptography API", "Secure Curves in the Web Cryptography API"):
 * Ed448, X448, ML-KEM-512/768/1024, ML-DSA-44/65/87, cSHAKE128/256,
 * KMAC128/256, ChaCha20-Poly1305, AES-OCB, Argon2d/i/id. (The SHA3-*
 * digests, and SHA-3 as the hash of HMAC, HKDF, PBKDF2, RSA and ECDSA, are
 * test_differential.c's, with the other digests.)
 *
 * The same rules as test_differential.c, whose driver and pair operations
 * this shares (differential_common.c): the backends built in (or
 * $WEBCRYPTO_DIFF_BACKENDS) plus $WEBCRYPTO_DIFF_EXTRA ("jca:BC,jca:SunJCE"
 * in CTest), inputs from a fixed seed ($WEBCRYPTO_DIFF_SEED), every pair
 * that both list an algorithm (webcrypto_backend_supports: nothing here
 * names a backend) runs it with the same key bytes on both sides:
 *   - deterministic outputs byte-equal: cSHAKE digests (SHAKE when N and S
 *     are empty; otherwise the same status on both, equal outputs where
 *     both compute it), KMAC tags, ChaCha20-Poly1305 and AES-OCB
 *     ciphertexts (each side decrypts the other's; a changed one is
 *     OperationError on both), Argon2 outputs, Ed448 signatures, X448
 *     secrets;
 *   - Ed448 and X448 keys made once on the first backend that has them and
 *     once on every backend, imported as pkcs8/spki on both sides, every
 *     export identical;
 *   - ML-KEM and ML-DSA keys from the same raw seed on both sides: every
 *     export (raw-seed, pkcs8, jwk; the public key's spki, raw-public, jwk)
 *     identical; ML-KEM: each side decapsulates the other's encapsulation
 *     to the same shared key, and a changed ciphertext gives both sides the
 *     same implicit-rejection key, not the encapsulated one; ML-DSA
 *     (hedged): each side verifies the other's signatures, neither a
 *     changed one.
 * Then every backend that lists an algorithm gets the same bad inputs and
 * must give the error kind the drafts name: a changed AEAD tag
 * (OperationError, no plaintext in the output buffer), a ChaCha20-Poly1305
 * iv that is not 12 bytes, a context over 255 bytes (Ed448, ML-DSA), seeds
 * of the wrong length (DataError), an ML-KEM ciphertext of the wrong length,
 * Argon2 parameters out of range, KMAC without an output length.
 *
 * An algorithm fewer than two of the backends list cannot be compared: it
 * is a skip with the reason, printed before the pairs ("only openssl has
 * Argon2id"). The last line counts passes, failures and skips. Exits 77
 * (a CTest skip) when fewer than two backends are listed.
 *
 * Today (0.3) some of these are on one backend only (Argon2: openssl;
 * ML-DSA: jca), so their comparisons wait for a second one; cSHAKE and
 * KMAC are compared with jca:BC (and cSHAKE with jca) at the JCA
 * providers' one length each (256 bits for the 128 members, 512 for the
 * 256 ones), and the other lengths must be NotSupportedError there, as
 * webcrypto_supports says. $WEBCRYPTO_DIFF_SELF_PAIRS=1 pairs each backend with itself
 * too, which runs those comparisons' code (and checks determinism) now:
 *   WEBCRYPTO_DIFF_SELF_PAIRS=1 WEBCRYPTO_DIFF_BACKENDS=openssl,jca ./test_differential_modern
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "differential_common.h"
#include "webcrypto.h"

static const webcrypto_algorithm modern[] = {
    WEBCRYPTO_ALG_ED448,         WEBCRYPTO_ALG_X448,      WEBCRYPTO_ALG_ML_KEM_512,
    WEBCRYPTO_ALG_ML_KEM_768,    WEBCRYPTO_ALG_ML_KEM_1024, WEBCRYPTO_ALG_ML_DSA_44,
    WEBCRYPTO_ALG_ML_DSA_65,     WEBCRYPTO_ALG_ML_DSA_87, WEBCRYPTO_ALG_CSHAKE128,
    WEBCRYPTO_ALG_CSHAKE256,     WEBCRYPTO_ALG_KMAC128,   WEBCRYPTO_ALG_KMAC256,
    WEBCRYPTO_ALG_CHACHA20_POLY1305, WEBCRYPTO_ALG_AES_OCB, WEBCRYPTO_ALG_ARGON2D,
    WEBCRYPTO_ALG_ARGON2I,       WEBCRYPTO_ALG_ARGON2ID};
#define N_MODERN (sizeof modern / sizeof *modern)

/* Whether both sides of the pair list alg; the skip is recorded only when
 * one of them does (an algorithm neither has is in the summary above the
 * pairs, not repeated per pair). */
static bool both_have(const webcrypto_backend *a, const webcrypto_backend *b,
                      webcrypto_algorithm alg) {
    bool ha = webcrypto_backend_supports(a, alg), hb = webcrypto_backend_supports(b, alg);
    if (ha && hb) return true;
    if (ha || hb) return both_support(a, b, alg, WEBCRYPTO_ALG_NONE); /* records the skip */
    return false;
}

/* ---- cSHAKE ---- */

static void diff_cshake(const webcrypto_backend *a, const webcrypto_backend *b) {
    static const webcrypto_algorithm algs[2] = {WEBCRYPTO_ALG_CSHAKE128, WEBCRYPTO_ALG_CSHAKE256};
    static const size_t out_bits[] = {8, 12, 256, 264, 512, 2048, 8 * 1000 + 5};
    static const size_t sizes[] = {0, 1, 135, 136, 137, 167, 168, 169, 1000, 70000};
    for (int x = 0; x < 2; x++) {
        if (!both_have(a, b, algs[x])) continue;
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            size_t n = sizes[s];
            uint8_t *data = rnd_buf(n);
            size_t bits = out_bits[rnd64() % (sizeof out_bits / sizeof *out_bits)];
            /* half the time the length every backend with it takes (a JCA
             * provider's SHAKE has only that one: 256 or 512 bits) */
            if (rnd64() % 2) bits = x == 0 ? 256 : 512;
            /* mostly SHAKE (N and S empty); sometimes N or S given */
            uint8_t ns[2][40];
            rnd_fill(ns[0], sizeof ns[0]);
            rnd_fill(ns[1], sizeof ns[1]);
            int shape = (int)(rnd64() % 4);
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = algs[x], .output_length = bits);
            if (shape == 2) {
                p.customization = ns[0];
                p.customization_len = rnd_range(1, 40);
            } else if (shape == 3) {
                p.function_name = ns[1];
                p.function_name_len = rnd_range(1, 40);
            }
            char what[120];
            snprintf(what, sizeof what, "%s, %zu-bit output%s", webcrypto_algorithm_name(algs[x]),
                     bits, shape == 2 ? ", customization" : shape == 3 ? ", function name" : "");
            size_t cap = (bits + 7) / 8, la = 0, lb = 0;
            uint8_t *oa = malloc(cap), *ob = malloc(cap);
            if (!oa || !ob) exit(2);
            /* supports() answers for whole bytes (it is false for others):
             * asked for the bytes that hold the output */
            webcrypto_params pw = p;
            pw.output_length = cap * 8;
            bool qa = webcrypto_supports(a, WEBCRYPTO_OP_DIGEST, &pw, 0, NULL);
            bool qb = webcrypto_supports(b, WEBCRYPTO_OP_DIGEST, &pw, 0, NULL);
            webcrypto_status sa = webcrypto_digest_params(a, &p, data, n, oa, cap, &la);
            webcrypto_status sb = webcrypto_digest_params(b, &p, data, n, ob, cap, &lb);
            if ((sa == WEBCRYPTO_OK) != qa || (sb == WEBCRYPTO_OK) != qb)
                fail("%s, %zu bytes: supports() %d/%d but %s on %s, %s on %s", what, n, qa, qb,
                     webcrypto_status_name(sa), cur_a, webcrypto_status_name(sb), cur_b);
            else if (sa == WEBCRYPTO_OK && sb == WEBCRYPTO_OK)
                check_same(what, n, oa, la, ob, lb);
            else if (sa != sb && (sa == WEBCRYPTO_OK || sa == WEBCRYPTO_ERR_NOT_SUPPORTED) &&
                     (sb == WEBCRYPTO_OK || sb == WEBCRYPTO_ERR_NOT_SUPPORTED))
                pass(); /* one backend cannot take these parameters, and says so */
            else if (sa != sb)
                fail("%s, %zu bytes: %s on %s, %s on %s (last error: %s)", what, n,
                     webcrypto_status_name(sa), cur_a, webcrypto_status_name(sb), cur_b,
                     LAST_ERROR);
            else if (shape < 2 && (qa || qb))
                fail("%s, %zu bytes: SHAKE refused on both (%s: %s)", what, n,
                     webcrypto_status_name(sa), LAST_ERROR);
            else
                pass(); /* the same refusal on both */
            free(oa);
            free(ob);
            free(data);
        }
    }
}

/* ---- KMAC ---- */

static void diff_kmac(const webcrypto_backend *a, const webcrypto_backend *b) {
    static const webcrypto_algorithm algs[2] = {WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_ALG_KMAC256};
    static const size_t sizes[] = {0, 1, 64, 135, 136, 168, 1000, 70000};
    for (int x = 0; x < 2; x++) {
        if (!both_have(a, b, algs[x])) continue;
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            size_t n = sizes[s], key_len = rnd_range(4, 100);
            size_t bits = 8 * rnd_range(1, 128);
            uint8_t *key = rnd_buf(key_len), *data = rnd_buf(n), custom[64];
            rnd_fill(custom, sizeof custom);
            webcrypto_params imp = WEBCRYPTO_PARAMS(.name = algs[x]);
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = algs[x], .output_length = bits);
            if (rnd64() % 2) {
                /* the one length of a JCA provider's KMAC, no customization */
                p.output_length = x == 0 ? 256 : 512;
            } else if (rnd64() % 2) {
                p.customization = custom;
                p.customization_len = rnd_range(0, sizeof custom);
            }
            unsigned use = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;
            webcrypto_key *ka = import(a, &imp, key, key_len, use);
            webcrypto_key *kb = import(b, &imp, key, key_len, use);
            char what[120];
            snprintf(what, sizeof what, "%s (%zu-byte key, %zu-bit output, %zu-byte S)",
                     webcrypto_algorithm_name(algs[x]), key_len, p.output_length,
                     p.customization_len);
            uint8_t ma[128], mb[128];
            size_t la = 0, lb = 0;
            if (ka && kb) {
                bool qa = webcrypto_supports(a, WEBCRYPTO_OP_SIGN, &p, 0, NULL);
                bool qb = webcrypto_supports(b, WEBCRYPTO_OP_SIGN, &p, 0, NULL);
                webcrypto_status sa = webcrypto_sign(&p, ka, data, n, ma, sizeof ma, &la);
                webcrypto_status sb = webcrypto_sign(&p, kb, data, n, mb, sizeof mb, &lb);
                if ((sa == WEBCRYPTO_OK) != qa || (sb == WEBCRYPTO_OK) != qb) {
                    fail("%s sign, %zu bytes: supports() %d/%d but %s on %s, %s on %s", what, n,
                         qa, qb, webcrypto_status_name(sa), cur_a, webcrypto_status_name(sb),
                         cur_b);
                } else if ((sa == WEBCRYPTO_OK || sa == WEBCRYPTO_ERR_NOT_SUPPORTED) &&
                           (sb == WEBCRYPTO_OK || sb == WEBCRYPTO_ERR_NOT_SUPPORTED) &&
                           (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK)) {
                    /* a backend whose KMAC has one length and no
                     * customization (a JCA provider's) refuses the others */
                    pass();
                } else if (sa != WEBCRYPTO_OK || sb != WEBCRYPTO_OK) {
                    fail("%s sign, %zu bytes: %s / %s (last error: %s)", what, n,
                         webcrypto_status_name(sa), webcrypto_status_name(sb), LAST_ERROR);
                } else {
                    check_same(what, n, ma, la, mb, lb);
                    char w[200];
                    snprintf(w, sizeof w, "%s, the other's tag", what);
                    verify_expect(&p, kb, ma, la, data, n, true, w);
                    verify_expect(&p, ka, mb, lb, data, n, true, w);
                    ma[rnd64() % la] ^= (uint8_t)(1u << (rnd64() % 8));
                    snprintf(w, sizeof w, "%s, changed tag", what);
                    verify_expect(&p, ka, ma, la, data, n, false, w);
                    verify_expect(&p, kb, ma, la, data, n, false, w);
                }
            }
            webcrypto_key_free(ka);
            webcrypto_key_free(kb);
            free(key);
            free(data);
        }
    }
}

/* ---- the AEADs ---- */

static void diff_aeads(const webcrypto_backend *a, const webcrypto_backend *b) {
    static const size_t sizes[] = {0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 4096, 65543};
    bool chacha = both_have(a, b, WEBCRYPTO_ALG_CHACHA20_POLY1305);
    bool ocb = both_have(a, b, WEBCRYPTO_ALG_AES_OCB);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        uint8_t *pt = rnd_buf(n), iv[16], aad[48];
        rnd_fill(iv, sizeof iv);
        rnd_fill(aad, sizeof aad);
        size_t aad_len = rnd64() % 3 == 0 ? 0 : rnd_range(1, sizeof aad);
        char what[96];
        if (chacha) {
            webcrypto_params p =
                WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305, .iv = iv, .iv_len = 12,
                                 .additional_data = aad_len ? aad : NULL,
                                 .additional_data_len = aad_len);
            snprintf(what, sizeof what, "ChaCha20-Poly1305 (%zu-byte AAD)", aad_len);
            diff_cipher(a, b, &p, 32, what, pt, n, true);
        }
        if (ocb) {
            static const size_t tags[3] = {64, 96, 128};
            size_t key_len = (size_t)16 + 8 * (size_t)(rnd64() % 3);
            size_t tag = tags[rnd64() % 3];
            webcrypto_params p = WEBCRYPTO_PARAMS(
                .name = WEBCRYPTO_ALG_AES_OCB, .iv = iv, .iv_len = rnd_range(1, 15),
                .additional_data = aad_len ? aad : NULL, .additional_data_len = aad_len,
                .tag_length = tag);
            snprintf(what, sizeof what, "AES-OCB-%zu (%zu-byte iv, %zu-bit tag, %zu-byte AAD)",
                     key_len * 8, p.iv_len, tag, aad_len);
            diff_cipher(a, b, &p, key_len, what, pt, n, true);
        }
        free(pt);
    }
}

/* ---- Argon2 ---- */

static void diff_argon2(const webcrypto_backend *a, const webcrypto_backend *b) {
    static const webcrypto_algorithm algs[3] = {WEBCRYPTO_ALG_ARGON2D, WEBCRYPTO_ALG_ARGON2I,
                                                WEBCRYPTO_ALG_ARGON2ID};
    for (int x = 0; x < 3; x++) {
        if (!both_have(a, b, algs[x])) continue;
        for (int i = 0; i < 4; i++) {
            size_t pw_len = rnd_range(0, 64), nonce_len = rnd_range(8, 32);
            uint8_t *pw = rnd_buf(pw_len), nonce[32], secret[32], ad[32];
            rnd_fill(nonce, sizeof nonce);
            rnd_fill(secret, sizeof secret);
            rnd_fill(ad, sizeof ad);
            uint32_t lanes = (uint32_t)rnd_range(1, 4);
            webcrypto_params p = WEBCRYPTO_PARAMS(
                .name = algs[x], .nonce = nonce, .nonce_len = nonce_len, .parallelism = lanes,
                .memory = 8 * lanes + (uint32_t)rnd_range(0, 64), .passes = (uint32_t)rnd_range(1, 3));
            if (i % 2) {
                p.secret_value = secret;
                p.secret_value_len = rnd_range(1, sizeof secret);
                p.additional_data = ad;
                p.additional_data_len = rnd_range(1, sizeof ad);
            }
            size_t out_len = rnd_range(4, 80);
            char what[160];
            snprintf(what, sizeof what,
                     "%s (p %u, m %u KiB, t %u, %zu-byte nonce, %zu-byte secret, %zu-byte AD)",
                     webcrypto_algorithm_name(algs[x]), (unsigned)p.parallelism,
                     (unsigned)p.memory, (unsigned)p.passes, nonce_len, p.secret_value_len,
                     p.additional_data_len);
            diff_derive(a, b, &p, pw, pw_len, out_len, what);
            free(pw);
        }
    }
}

/* ---- Ed448 and X448: keys generated once ---- */

enum { SRC_ED448, SRC_X448, SRC_X448_PEER, N_SHARED };
enum { GEN_ED448, GEN_X448, N_GEN };
static pair_src shared_src[N_SHARED];
static pair_src gen_src[DIFF_MAX_BACKENDS][N_GEN];
static const webcrypto_backend *gen_backends[DIFF_MAX_BACKENDS];
static size_t n_gen_backends;
static pair_result setup_result;

static void material_init(const webcrypto_backend *const *bs, size_t n) {
    cur = &setup_result;
    cur_a = "key setup";
    cur_b = "-";
    webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED448);
    webcrypto_params x = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X448);
    const unsigned eu = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY,
                   xu = WEBCRYPTO_USAGE_DERIVE_BITS;
    for (size_t i = 0; i < n; i++)
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_ED448)) {
            make_src(bs[i], &ed, eu, &shared_src[SRC_ED448]);
            break;
        }
    for (size_t i = 0; i < n; i++)
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_X448)) {
            make_src(bs[i], &x, xu, &shared_src[SRC_X448]);
            make_src(bs[i], &x, xu, &shared_src[SRC_X448_PEER]);
            break;
        }
    for (size_t i = 0; i < n && i < DIFF_MAX_BACKENDS; i++) {
        gen_backends[n_gen_backends] = bs[i];
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_ED448))
            make_src(bs[i], &ed, eu, &gen_src[n_gen_backends][GEN_ED448]);
        if (webcrypto_backend_supports(bs[i], WEBCRYPTO_ALG_X448))
            make_src(bs[i], &x, xu, &gen_src[n_gen_backends][GEN_X448]);
        n_gen_backends++;
    }
    cur = NULL;
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

static void diff_ed448_key(const webcrypto_backend *a, const webcrypto_backend *b,
                           const pair_src *src, const char *key_name) {
    if (!src || !src->priv.p) return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED448);
    both_keys k;
    char what[200];
    snprintf(what, sizeof what, "Ed448, %s", key_name);
    if (!import_both(a, b, src, &p, WEBCRYPTO_USAGE_SIGN, WEBCRYPTO_USAGE_VERIFY, what, &k)) return;
    for (size_t s = 0; s < N_SIG_SIZES; s++) sign_both(&p, &k, sig_sizes[s], true, what);
    /* A context (1..255 bytes): compared where both sides take one. */
    if (webcrypto_backend_has_feature(a, WEBCRYPTO_FEATURE_ED448_CONTEXT) &&
        webcrypto_backend_has_feature(b, WEBCRYPTO_FEATURE_ED448_CONTEXT)) {
        uint8_t ctx[255];
        rnd_fill(ctx, sizeof ctx);
        p.context = ctx;
        p.context_len = rnd_range(1, 255);
        snprintf(what, sizeof what, "Ed448 with a %zu-byte context, %s", p.context_len, key_name);
        sign_both(&p, &k, 64, true, what);
    } else {
        skip("Ed448 context: not on both backends (WEBCRYPTO_FEATURE_ED448_CONTEXT)");
    }
    both_free(&k);
}

static void diff_x448_key(const webcrypto_backend *a, const webcrypto_backend *b,
                          const pair_src *src, const pair_src *peer, const char *key_name) {
    if (!src || !src->priv.p || !peer || !peer->priv.p) return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X448);
    both_keys k, kp;
    char what[200];
    snprintf(what, sizeof what, "X448, %s", key_name);
    if (!import_both(a, b, src, &p, WEBCRYPTO_USAGE_DERIVE_BITS, 0, what, &k)) return;
    if (import_both(a, b, peer, &p, WEBCRYPTO_USAGE_DERIVE_BITS, 0, what, &kp)) {
        derive_both(&p, k.priv, kp.pub, 56, what);
        both_free(&kp);
    }
    both_free(&k);
}

static void diff_okp(const webcrypto_backend *a, const webcrypto_backend *b) {
    char name[128];
    bool ed = both_have(a, b, WEBCRYPTO_ALG_ED448), x = both_have(a, b, WEBCRYPTO_ALG_X448);
    if (ed) {
        snprintf(name, sizeof name, "key generated on %s",
                 shared_src[SRC_ED448].label ? shared_src[SRC_ED448].label : "-");
        diff_ed448_key(a, b, &shared_src[SRC_ED448], name);
    }
    if (x) {
        snprintf(name, sizeof name, "key generated on %s",
                 shared_src[SRC_X448].label ? shared_src[SRC_X448].label : "-");
        diff_x448_key(a, b, &shared_src[SRC_X448], &shared_src[SRC_X448_PEER], name);
    }
    const webcrypto_backend *gens[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "key generated on %s", webcrypto_backend_name(gens[i]));
        if (ed) diff_ed448_key(a, b, gen_of(gens[i], GEN_ED448), name);
        if (x) diff_x448_key(a, b, gen_of(gens[i], GEN_X448), gen_of(gens[1 - i], GEN_X448), name);
    }
}

/* ---- ML-KEM and ML-DSA: keys from the same seed ---- */

static bool is_kem(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_ML_KEM_512 || alg == WEBCRYPTO_ALG_ML_KEM_768 ||
           alg == WEBCRYPTO_ALG_ML_KEM_1024;
}

static const unsigned KEM_PRIV = WEBCRYPTO_USAGE_DECAPSULATE_BITS | WEBCRYPTO_USAGE_DECAPSULATE_KEY,
                      KEM_PUB = WEBCRYPTO_USAGE_ENCAPSULATE_BITS | WEBCRYPTO_USAGE_ENCAPSULATE_KEY;

/* Imports seed (raw-seed) on a and b, takes the public keys
 * (getPublicKey) and compares every export of both. False (nothing to free)
 * on failure. */
static bool seeded_both(const webcrypto_backend *a, const webcrypto_backend *b,
                        webcrypto_algorithm alg, const uint8_t *seed, size_t seed_len,
                        const char *what, both_keys *k) {
    memset(k, 0, sizeof *k);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    unsigned priv_use = is_kem(alg) ? KEM_PRIV : WEBCRYPTO_USAGE_SIGN;
    unsigned pub_use = is_kem(alg) ? KEM_PUB : WEBCRYPTO_USAGE_VERIFY;
    const webcrypto_backend *sides[2] = {a, b};
    blob s = {(uint8_t *)(uintptr_t)seed, seed_len};
    for (int i = 0; i < 2; i++) {
        k->priv[i] = import_fmt(sides[i], WEBCRYPTO_FORMAT_RAW_SEED, &s, &p, priv_use, what);
        if (k->priv[i]) {
            webcrypto_status st = webcrypto_get_public_key(k->priv[i], pub_use, &k->pub[i]);
            if (st != WEBCRYPTO_OK)
                fail("%s: getPublicKey on %s: %s (%s)", what, webcrypto_backend_name(sides[i]),
                     webcrypto_status_name(st), LAST_ERROR);
        }
        if (!k->priv[i] || !k->pub[i]) {
            both_free(k);
            return false;
        }
    }
    compare_export(WEBCRYPTO_FORMAT_RAW_SEED, k->priv, what);
    compare_export(WEBCRYPTO_FORMAT_PKCS8, k->priv, what);
    compare_export(WEBCRYPTO_FORMAT_JWK, k->priv, what);
    compare_export(WEBCRYPTO_FORMAT_SPKI, k->pub, what);
    compare_export(WEBCRYPTO_FORMAT_RAW_PUBLIC, k->pub, what);
    compare_export(WEBCRYPTO_FORMAT_JWK, k->pub, what);
    /* the seed exports as it was imported */
    blob back;
    if (export_to(WEBCRYPTO_FORMAT_RAW_SEED, k->priv[0], &back, what)) {
        char w[200];
        snprintf(w, sizeof w, "%s, raw-seed export is the seed", what);
        check_same(w, seed_len, back.p, back.n, seed, seed_len);
        blob_free(&back);
    }
    return true;
}

static void diff_kem(const webcrypto_backend *a, const webcrypto_backend *b,
                     webcrypto_algorithm alg) {
    uint8_t seed[64];
    rnd_fill(seed, sizeof seed);
    char what[160];
    snprintf(what, sizeof what, "%s, key from a seed", webcrypto_algorithm_name(alg));
    both_keys k;
    if (!seeded_both(a, b, alg, seed, sizeof seed, what, &k)) return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    size_t ct_size = webcrypto_kem_ciphertext_size(alg);
    uint8_t ct[1568], ss[32], back[2][32];
    for (int i = 0; i < 2; i++) {
        /* encapsulated on side i, decapsulated on both */
        const char *enc_on = webcrypto_backend_name(webcrypto_key_get_backend(k.pub[i]));
        size_t ct_len = 0, ss_len = 0, bl = 0;
        webcrypto_status st = webcrypto_encapsulate_bits(&p, k.pub[i], ct, sizeof ct, &ct_len, ss,
                                                         sizeof ss, &ss_len);
        if (st != WEBCRYPTO_OK || ct_len != ct_size || ss_len != 32) {
            fail("%s: encapsulateBits on %s: %s, %zu-byte ciphertext, %zu-byte key (%s)", what,
                 enc_on, webcrypto_status_name(st), ct_len, ss_len, st ? LAST_ERROR : "");
            continue;
        }
        for (int j = 0; j < 2; j++) {
            char w[240];
            snprintf(w, sizeof w, "%s, encapsulated on %s, decapsulated on %s", what, enc_on,
                     webcrypto_backend_name(webcrypto_key_get_backend(k.priv[j])));
            st = webcrypto_decapsulate_bits(&p, k.priv[j], ct, ct_len, back[j], 32, &bl);
            if (st != WEBCRYPTO_OK)
                fail("%s: %s (%s)", w, webcrypto_status_name(st), LAST_ERROR);
            else
                check_same(w, ct_len, back[j], bl, ss, ss_len);
        }
        /* A changed ciphertext: implicit rejection, the same key on both
         * sides, not the encapsulated one. */
        ct[rnd64() % ct_len] ^= (uint8_t)(1u << (rnd64() % 8));
        webcrypto_status sr[2];
        size_t rl[2] = {0, 0};
        for (int j = 0; j < 2; j++)
            sr[j] = webcrypto_decapsulate_bits(&p, k.priv[j], ct, ct_len, back[j], 32, &rl[j]);
        char w[240];
        snprintf(w, sizeof w, "%s, changed ciphertext from %s (implicit rejection)", what, enc_on);
        if (sr[0] != WEBCRYPTO_OK || sr[1] != WEBCRYPTO_OK) {
            fail("%s: %s / %s, expected a key on both (%s)", w, webcrypto_status_name(sr[0]),
                 webcrypto_status_name(sr[1]), LAST_ERROR);
        } else {
            check_same(w, ct_len, back[0], rl[0], back[1], rl[1]);
            if (memcmp(back[0], ss, 32) == 0)
                fail("%s: the rejection key is the encapsulated key", w);
            else
                pass();
        }
    }
    both_free(&k);
}

static void diff_dsa(const webcrypto_backend *a, const webcrypto_backend *b,
                     webcrypto_algorithm alg) {
    uint8_t seed[32];
    rnd_fill(seed, sizeof seed);
    char what[160];
    snprintf(what, sizeof what, "%s, key from a seed", webcrypto_algorithm_name(alg));
    both_keys k;
    if (!seeded_both(a, b, alg, seed, sizeof seed, what, &k)) return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    for (size_t s = 0; s < N_SIG_SIZES; s++) sign_both(&p, &k, sig_sizes[s], false, what);
    /* A context: compared where both sides sign with it; a side that
     * refuses it must say NotSupportedError (the JDK takes none). */
    uint8_t ctx[255], msg[32], sig[DIFF_MAX_SIG];
    rnd_fill(ctx, sizeof ctx);
    rnd_fill(msg, sizeof msg);
    p.context = ctx;
    p.context_len = rnd_range(1, 255);
    size_t len = 0;
    webcrypto_status st[2];
    for (int i = 0; i < 2; i++)
        st[i] = webcrypto_sign(&p, k.priv[i], msg, sizeof msg, sig, sizeof sig, &len);
    snprintf(what, sizeof what, "%s with a %zu-byte context", webcrypto_algorithm_name(alg),
             p.context_len);
    if (st[0] == WEBCRYPTO_OK && st[1] == WEBCRYPTO_OK) {
        sign_both(&p, &k, 64, false, what);
    } else {
        for (int i = 0; i < 2; i++) {
            char w[200];
            snprintf(w, sizeof w, "%s on %s", what,
                     webcrypto_backend_name(webcrypto_key_get_backend(k.priv[i])));
            if (st[i] != WEBCRYPTO_OK) check_status(w, sizeof msg, st[i], WEBCRYPTO_ERR_NOT_SUPPORTED);
        }
        skip("ML-DSA context: not on both backends");
    }
    both_free(&k);
}

static void diff_pq(const webcrypto_backend *a, const webcrypto_backend *b) {
    static const webcrypto_algorithm kems[3] = {WEBCRYPTO_ALG_ML_KEM_512, WEBCRYPTO_ALG_ML_KEM_768,
                                                WEBCRYPTO_ALG_ML_KEM_1024};
    static const webcrypto_algorithm dsas[3] = {WEBCRYPTO_ALG_ML_DSA_44, WEBCRYPTO_ALG_ML_DSA_65,
                                                WEBCRYPTO_ALG_ML_DSA_87};
    for (int i = 0; i < 3; i++)
        if (both_have(a, b, kems[i]))
            for (int r = 0; r < 3; r++) diff_kem(a, b, kems[i]);
    for (int i = 0; i < 3; i++)
        if (both_have(a, b, dsas[i]))
            for (int r = 0; r < 2; r++) diff_dsa(a, b, dsas[i]);
}

static void run_pair(const webcrypto_backend *a, const webcrypto_backend *b, uint64_t seed) {
    rng_state = seed; /* every pair sees the same inputs */
    diff_cshake(a, b);
    diff_kmac(a, b);
    diff_aeads(a, b);
    diff_argon2(a, b);
    diff_okp(a, b);
    diff_pq(a, b);
}

/* ---- the same bad input on every backend that has the algorithm ---- */

static size_t err_checks, err_failed;

static void expect(const webcrypto_backend *bk, const char *what, webcrypto_status got,
                   webcrypto_status want) {
    err_checks++;
    if (got == want) return;
    err_failed++;
    printf("FAIL errors, %s on %s: %s, expected %s (%s)\n", what, webcrypto_backend_name(bk),
           webcrypto_status_name(got), webcrypto_status_name(want),
           got ? webcrypto_error_message() : "no error");
}

static void expect_true(const webcrypto_backend *bk, const char *what, bool ok) {
    err_checks++;
    if (ok) return;
    err_failed++;
    printf("FAIL errors, %s on %s\n", what, webcrypto_backend_name(bk));
}

/* Whether any 8 bytes of pt (at a multiple of 8) appear in buf. */
static bool holds_plaintext(const uint8_t *buf, size_t n, const uint8_t *pt, size_t pt_len) {
    for (size_t i = 0; i + 8 <= pt_len; i += 8)
        for (size_t j = 0; j + 8 <= n; j++)
            if (memcmp(buf + j, pt + i, 8) == 0) return true;
    return false;
}

/* A changed tag: OperationError, *out_len 0 and no plaintext left in out. */
static void errors_aead(const webcrypto_backend *bk, const webcrypto_params *p, size_t key_len,
                        const char *name) {
    uint8_t key[32], pt[100], ct[200], out[200];
    rnd_fill(key, sizeof key);
    rnd_fill(pt, sizeof pt);
    webcrypto_key *k = NULL;
    webcrypto_params imp = WEBCRYPTO_PARAMS(.name = p->name);
    char what[120];
    snprintf(what, sizeof what, "%s import", name);
    expect(bk, what,
           webcrypto_import_key(bk, diff_secret_format(p->name), key, key_len, &imp, false,
                                WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k),
           WEBCRYPTO_OK);
    if (!k) return;
    size_t ct_len = 0, out_len = 0;
    snprintf(what, sizeof what, "%s encrypt", name);
    expect(bk, what, webcrypto_encrypt(p, k, pt, sizeof pt, ct, sizeof ct, &ct_len), WEBCRYPTO_OK);
    if (ct_len > 0) {
        ct[ct_len - 1] ^= 0x01; /* the tag's last byte */
        memset(out, 0xa5, sizeof out);
        out_len = 12345;
        snprintf(what, sizeof what, "%s, changed tag", name);
        expect(bk, what, webcrypto_decrypt(p, k, ct, ct_len, out, sizeof out, &out_len),
               WEBCRYPTO_ERR_OPERATION);
        bool leaked = holds_plaintext(out, sizeof out, pt, sizeof pt);
        snprintf(what, sizeof what, "%s, changed tag: plaintext left in the output buffer", name);
        expect_true(bk, what, !leaked);
        /* in place: the ciphertext buffer itself must not become plaintext */
        snprintf(what, sizeof what, "%s, changed tag, in place", name);
        expect(bk, what, webcrypto_decrypt(p, k, ct, ct_len, ct, sizeof ct, &out_len),
               WEBCRYPTO_ERR_OPERATION);
        leaked = holds_plaintext(ct, sizeof ct, pt, sizeof pt);
        snprintf(what, sizeof what, "%s, changed tag, in place: plaintext left", name);
        expect_true(bk, what, !leaked);
    }
    if (p->name == WEBCRYPTO_ALG_CHACHA20_POLY1305) {
        static const size_t bad_iv[] = {0, 8, 11, 13, 16};
        for (size_t i = 0; i < sizeof bad_iv / sizeof *bad_iv; i++) {
            webcrypto_params q = *p;
            q.iv_len = bad_iv[i];
            snprintf(what, sizeof what, "%s with a %zu-byte iv", name, bad_iv[i]);
            expect(bk, what, webcrypto_encrypt(&q, k, pt, sizeof pt, out, sizeof out, &out_len),
                   WEBCRYPTO_ERR_OPERATION);
        }
    } else {
        static const size_t bad_iv[] = {0, 16};
        for (size_t i = 0; i < sizeof bad_iv / sizeof *bad_iv; i++) {
            webcrypto_params q = *p;
            q.iv_len = bad_iv[i];
            snprintf(what, sizeof what, "%s with a %zu-byte iv", name, bad_iv[i]);
            expect(bk, what, webcrypto_encrypt(&q, k, pt, sizeof pt, out, sizeof out, &out_len),
                   WEBCRYPTO_ERR_OPERATION);
        }
        webcrypto_params q = *p;
        q.tag_length = 32;
        snprintf(what, sizeof what, "%s with a 32-bit tag", name);
        expect(bk, what, webcrypto_encrypt(&q, k, pt, sizeof pt, out, sizeof out, &out_len),
               WEBCRYPTO_ERR_OPERATION);
    }
    webcrypto_key_free(k);
}

static void errors_context(const webcrypto_backend *bk, webcrypto_key *priv, webcrypto_key *pub,
                           webcrypto_algorithm alg) {
    uint8_t ctx[256], msg[16], sig[DIFF_MAX_SIG];
    rnd_fill(ctx, sizeof ctx);
    rnd_fill(msg, sizeof msg);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .context = ctx, .context_len = 256);
    size_t len = 0;
    bool valid = true;
    char what[120];
    snprintf(what, sizeof what, "%s sign with a 256-byte context", webcrypto_algorithm_name(alg));
    expect(bk, what, webcrypto_sign(&p, priv, msg, sizeof msg, sig, sizeof sig, &len),
           WEBCRYPTO_ERR_OPERATION);
    snprintf(what, sizeof what, "%s verify with a 256-byte context", webcrypto_algorithm_name(alg));
    memset(sig, 0, sizeof sig);
    size_t sig_len = alg == WEBCRYPTO_ALG_ED448     ? 114
                     : alg == WEBCRYPTO_ALG_ML_DSA_44 ? 2420
                     : alg == WEBCRYPTO_ALG_ML_DSA_65 ? 3309
                                                      : 4627;
    expect(bk, what, webcrypto_verify(&p, pub, sig, sig_len, msg, sizeof msg, &valid),
           WEBCRYPTO_ERR_OPERATION);
}

static void errors_seeded(const webcrypto_backend *bk, webcrypto_algorithm alg) {
    size_t seed_len = is_kem(alg) ? 64 : 32;
    uint8_t seed[65];
    rnd_fill(seed, sizeof seed);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    unsigned use = is_kem(alg) ? KEM_PRIV : WEBCRYPTO_USAGE_SIGN;
    const size_t bad[3] = {0, seed_len - 1, seed_len + 1};
    char what[120];
    for (int i = 0; i < 3; i++) {
        webcrypto_key *k = NULL;
        snprintf(what, sizeof what, "%s raw-seed of %zu bytes", webcrypto_algorithm_name(alg),
                 bad[i]);
        expect(bk, what,
               webcrypto_import_key(bk, WEBCRYPTO_FORMAT_RAW_SEED, seed, bad[i], &p, true, use, &k),
               WEBCRYPTO_ERR_DATA);
        webcrypto_key_free(k);
    }
    webcrypto_key *sk = NULL, *pk = NULL;
    snprintf(what, sizeof what, "%s raw-seed import", webcrypto_algorithm_name(alg));
    expect(bk, what,
           webcrypto_import_key(bk, WEBCRYPTO_FORMAT_RAW_SEED, seed, seed_len, &p, true, use, &sk),
           WEBCRYPTO_OK);
    if (!sk) return;
    if (is_kem(alg)) {
        size_t ct_size = webcrypto_kem_ciphertext_size(alg), n = 0;
        uint8_t ct[1569] = {0}, ss[32];
        const size_t bad_ct[2] = {ct_size - 1, ct_size + 1};
        for (int i = 0; i < 2; i++) {
            snprintf(what, sizeof what, "%s decapsulate a %zu-byte ciphertext",
                     webcrypto_algorithm_name(alg), bad_ct[i]);
            expect(bk, what, webcrypto_decapsulate_bits(&p, sk, ct, bad_ct[i], ss, sizeof ss, &n),
                   WEBCRYPTO_ERR_OPERATION);
        }
    } else {
        snprintf(what, sizeof what, "%s getPublicKey", webcrypto_algorithm_name(alg));
        expect(bk, what, webcrypto_get_public_key(sk, WEBCRYPTO_USAGE_VERIFY, &pk), WEBCRYPTO_OK);
        if (pk) errors_context(bk, sk, pk, alg);
    }
    webcrypto_key_free(sk);
    webcrypto_key_free(pk);
}

static void errors_argon2(const webcrypto_backend *bk, webcrypto_algorithm alg) {
    uint8_t pw[16], nonce[16], out[64];
    rnd_fill(pw, sizeof pw);
    rnd_fill(nonce, sizeof nonce);
    webcrypto_params imp = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *k = NULL;
    char what[120];
    snprintf(what, sizeof what, "%s import", webcrypto_algorithm_name(alg));
    expect(bk, what,
           webcrypto_import_key(bk, diff_secret_format(alg), pw, sizeof pw, &imp, false,
                                WEBCRYPTO_USAGE_DERIVE_BITS, &k),
           WEBCRYPTO_OK);
    if (!k) return;
    const webcrypto_params good = WEBCRYPTO_PARAMS(.name = alg, .nonce = nonce, .nonce_len = 16,
                                                   .parallelism = 4, .memory = 32, .passes = 1);
    size_t n = 0;
    snprintf(what, sizeof what, "%s, valid parameters", webcrypto_algorithm_name(alg));
    expect(bk, what, webcrypto_derive_bits(&good, k, 256, out, sizeof out, &n), WEBCRYPTO_OK);
    struct {
        const char *name;
        webcrypto_params p;
        size_t bits;
        webcrypto_status want;
    } cases[] = {
        {"length 24 bits", good, 24, WEBCRYPTO_ERR_OPERATION},
        {"length 260 bits", good, 260, WEBCRYPTO_ERR_OPERATION},
        {"version 0x10", good, 256, WEBCRYPTO_ERR_OPERATION},
        {"parallelism 0", good, 256, WEBCRYPTO_ERR_OPERATION},
        {"parallelism 2^24", good, 256, WEBCRYPTO_ERR_OPERATION},
        {"memory 31 KiB with parallelism 4", good, 256, WEBCRYPTO_ERR_OPERATION},
        {"passes 0", good, 256, WEBCRYPTO_ERR_OPERATION},
        {"a 7-byte nonce", good, 256, WEBCRYPTO_ERR_OPERATION},
        {"no nonce", good, 256, WEBCRYPTO_ERR_INVALID_ARGUMENT},
    };
    cases[2].p.version = 0x10;
    cases[3].p.parallelism = 0;
    cases[4].p.parallelism = 0x1000000u;
    cases[5].p.memory = 31;
    cases[6].p.passes = 0;
    cases[7].p.nonce_len = 7;
    cases[8].p.nonce = NULL;
    cases[8].p.nonce_len = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(what, sizeof what, "%s, %s", webcrypto_algorithm_name(alg), cases[i].name);
        expect(bk, what, webcrypto_derive_bits(&cases[i].p, k, cases[i].bits, out, sizeof out, &n),
               cases[i].want);
    }
    webcrypto_key_free(k);
}

static void errors_kmac(const webcrypto_backend *bk, webcrypto_algorithm alg) {
    uint8_t key[32], mac[64];
    rnd_fill(key, sizeof key);
    webcrypto_params imp = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *k = NULL;
    char what[120];
    snprintf(what, sizeof what, "%s import", webcrypto_algorithm_name(alg));
    expect(bk, what,
           webcrypto_import_key(bk, diff_secret_format(alg), key, sizeof key, &imp, false,
                                WEBCRYPTO_USAGE_SIGN, &k),
           WEBCRYPTO_OK);
    if (!k) return;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg); /* no output_length */
    size_t n = 0;
    snprintf(what, sizeof what, "%s sign without an output length", webcrypto_algorithm_name(alg));
    expect(bk, what, webcrypto_sign(&p, k, key, 8, mac, sizeof mac, &n),
           WEBCRYPTO_ERR_INVALID_ARGUMENT);
    webcrypto_key_free(k);
    k = NULL;
    snprintf(what, sizeof what, "%s empty key", webcrypto_algorithm_name(alg));
    expect(bk, what,
           webcrypto_import_key(bk, diff_secret_format(alg), key, 0, &imp, false,
                                WEBCRYPTO_USAGE_SIGN, &k),
           WEBCRYPTO_ERR_DATA);
    webcrypto_key_free(k);
}

static void errors_one(const webcrypto_backend *bk) {
    rng_state = UINT64_C(0xe77e0f5);
    uint8_t iv[16];
    rnd_fill(iv, sizeof iv);
    if (webcrypto_backend_supports(bk, WEBCRYPTO_ALG_CHACHA20_POLY1305)) {
        webcrypto_params p =
            WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305, .iv = iv, .iv_len = 12);
        errors_aead(bk, &p, 32, "ChaCha20-Poly1305");
    }
    if (webcrypto_backend_supports(bk, WEBCRYPTO_ALG_AES_OCB)) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_OCB, .iv = iv, .iv_len = 12);
        errors_aead(bk, &p, 16, "AES-OCB-128");
    }
    if (webcrypto_backend_supports(bk, WEBCRYPTO_ALG_ED448)) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED448);
        webcrypto_key *pk = NULL, *sk = NULL;
        expect(bk, "Ed448 generateKey",
               webcrypto_generate_key_pair(bk, &p, false,
                                           WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &pk, &sk),
               WEBCRYPTO_OK);
        if (sk && pk) errors_context(bk, sk, pk, WEBCRYPTO_ALG_ED448);
        webcrypto_key_free(pk);
        webcrypto_key_free(sk);
    }
    for (size_t i = 0; i < N_MODERN; i++) {
        webcrypto_algorithm alg = modern[i];
        if (!webcrypto_backend_supports(bk, alg)) continue;
        if (is_kem(alg) || alg == WEBCRYPTO_ALG_ML_DSA_44 || alg == WEBCRYPTO_ALG_ML_DSA_65 ||
            alg == WEBCRYPTO_ALG_ML_DSA_87)
            errors_seeded(bk, alg);
        else if (alg == WEBCRYPTO_ALG_ARGON2D || alg == WEBCRYPTO_ALG_ARGON2I ||
                 alg == WEBCRYPTO_ALG_ARGON2ID)
            errors_argon2(bk, alg);
        else if (alg == WEBCRYPTO_ALG_KMAC128 || alg == WEBCRYPTO_ALG_KMAC256)
            errors_kmac(bk, alg);
    }
}

int main(void) {
    const webcrypto_backend *backends[DIFF_MAX_BACKENDS];
    size_t n = 0;
    int rc = diff_open_backends(backends, &n);
    if (rc) return rc;
    uint64_t seed = diff_seed();

    /* Which algorithm can be compared at all: one that fewer than two of
     * the backends list is a skip, with the reason. */
    for (size_t i = 0; i < N_MODERN; i++) {
        char have[256] = "";
        size_t count = 0, used = 0;
        for (size_t j = 0; j < n; j++)
            if (webcrypto_backend_supports(backends[j], modern[i])) {
                int w = snprintf(have + used, sizeof have - used, "%s%s", count ? ", " : "",
                                 webcrypto_backend_name(backends[j]));
                if (w > 0 && (size_t)w < sizeof have - used) used += (size_t)w;
                count++;
            }
        if (count >= 2) {
            printf("%s: compared on %s\n", webcrypto_algorithm_name(modern[i]), have);
        } else {
            printf("SKIP %s: %s%s, nothing to compare it with\n",
                   webcrypto_algorithm_name(modern[i]), count ? "only " : "no backend listed",
                   count ? have : "");
            total_skipped++;
        }
    }

    material_init(backends, n);
    if (setup_result.failed) printf("key setup: %zu FAILED\n", setup_result.failed);
    diff_run_pairs(backends, n, seed, run_pair);
    material_free();

    for (size_t i = 0; i < n; i++) errors_one(backends[i]);
    printf("errors: %zu checks on %zu backends, %zu FAILED\n", err_checks, n, err_failed);
    total_failed += err_failed;
    total_passed += err_checks - err_failed;
    diff_print_totals();
    return total_failed == 0 ? 0 : 1;
}
