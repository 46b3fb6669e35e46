/*
 * test_gcm_longiv.c - AES-GCM with IVs that are not 96 bits (issue 25, item
 * 6), where J0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64) (NIST SP 800-38D,
 * 7.1 step 2) instead of IV || 0^31 || 1:
 *
 *  - the test cases of the GCM specification with a 64-bit and a 480-bit IV,
 *    typed in from D. McGrew and J. Viega, "The Galois/Counter Mode of
 *    Operation (GCM)", Appendix B: test cases 5 and 6 (AES-128), 11 and 12
 *    (AES-192), 17 and 18 (AES-256);
 *  - known answers computed here, independently of the backend's GCM: GHASH
 *    is a bitwise GF(2^128) multiplication written from SP 800-38D's
 *    Algorithm 1 (6.3), and AES itself comes from the backend's AES-CTR
 *    (E_K(X) is the AES-CTR encryption of a zero block with counter X; GCM's
 *    GCTR is AES-CTR over the low 32 bits of the counter from inc32(J0)), so
 *    only the block cipher is shared with the code under test. IVs of 1, 8,
 *    13, 16, 60, 64, 128 and 200 bytes (and 12, the other path, as a
 *    control), every AES key size the backend has, tags of 128, 96 and 32
 *    bits, with and without additional data.
 *
 * Each is encrypted by the backend and compared, and decrypted back; a
 * flipped tag bit must fail.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- GHASH (SP 800-38D, 6.3 and 6.4), bit by bit ---- */

/* X * Y in GF(2^128) with GCM's bit order: bit 0 is the most significant
 * bit of byte 0; R = 11100001 || 0^120. */
static void gf_mul(const uint8_t x[16], const uint8_t y[16], uint8_t out[16]) {
    uint8_t z[16] = {0}, v[16];
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        if (x[i / 8] >> (7 - i % 8) & 1)
            for (int j = 0; j < 16; j++) z[j] ^= v[j];
        int lsb = v[15] & 1;
        for (int j = 15; j > 0; j--) v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
        v[0] >>= 1;
        if (lsb) v[0] ^= 0xe1;
    }
    memcpy(out, z, 16);
}

/* Y = Y * H after Y ^= each 16-byte block of data, the last zero-padded. */
static void ghash_update(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t len) {
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16;
        for (size_t j = 0; j < n; j++) y[j] ^= data[off + j];
        gf_mul(y, h, y);
    }
}

/* The 16-byte block [a]_64 || [b]_64 of two bit lengths. */
static void lengths_block(uint8_t out[16], uint64_t a_bits, uint64_t b_bits) {
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(a_bits >> (56 - 8 * i));
        out[8 + i] = (uint8_t)(b_bits >> (56 - 8 * i));
    }
}

/* ---- AES from the backend, through AES-CTR ---- */

static const webcrypto_backend *be;

/* AES-CTR of data with the given 16-byte counter block, the low 32 bits
 * counting (GCM's inc32). */
static void ctr(const webcrypto_key *k, const uint8_t counter[16], const uint8_t *in, size_t len,
                uint8_t *out) {
    size_t got = 0;
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR, .counter = counter,
                                          .counter_len = 16, .length = 32);
    uint8_t dummy[1];
    tu_assert_status(webcrypto_encrypt(&p, k, len ? in : dummy, len, len ? out : dummy,
                                       len ? len : 1, &got),
                     WEBCRYPTO_OK);
    assert_int_equal(got, len);
}

/* GCM-AE_K(IV, P, A) with a t-byte tag (SP 800-38D, 7.1), from the pieces
 * above: out gets C || T. */
static void reference_gcm(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                          const uint8_t *pt, size_t pt_len, const uint8_t *aad, size_t aad_len,
                          size_t t, uint8_t *out) {
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_CTR);
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, key, key_len, &alg, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &k),
                     WEBCRYPTO_OK);
    static const uint8_t zero[16] = {0};
    uint8_t h[16], j0[16] = {0}, lens[16], s[16] = {0}, ej0[16], icb[16];
    ctr(k, zero, zero, 16, h); /* H = CIPH_K(0^128) */
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
    } else {
        ghash_update(j0, h, iv, iv_len); /* IV || 0^(s+64) ... */
        lengths_block(lens, 0, (uint64_t)iv_len * 8); /* ... || [len(IV)]_64 */
        ghash_update(j0, h, lens, 16);
    }
    memcpy(icb, j0, 16); /* inc32(J0) */
    for (int i = 15; i >= 12; i--)
        if (++icb[i]) break;
    ctr(k, icb, pt, pt_len, out);
    ghash_update(s, h, aad, aad_len);
    ghash_update(s, h, out, pt_len);
    lengths_block(lens, (uint64_t)aad_len * 8, (uint64_t)pt_len * 8);
    ghash_update(s, h, lens, 16);
    ctr(k, j0, s, 16, ej0); /* GCTR_K(J0, S) */
    memcpy(out + pt_len, ej0, t);
    webcrypto_key_free(k);
}

/* Encrypts with the backend's AES-GCM and checks out against expect (C ||
 * T); decrypts it back; a flipped tag bit must fail. */
static void check_backend(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                          const uint8_t *pt, size_t pt_len, const uint8_t *aad, size_t aad_len,
                          size_t t, const uint8_t *expect, const char *what) {
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, key, key_len, &alg, false,
                                          WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &k),
                     WEBCRYPTO_OK);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = iv_len,
                                          .additional_data = aad, .additional_data_len = aad_len,
                                          .tag_length = t * 8);
    size_t cap = pt_len + t, got = 0;
    uint8_t *ct = malloc(cap), *back = malloc(cap);
    assert_true(ct && back);
    uint8_t one[1] = {0};
    tu_assert_status(webcrypto_encrypt(&p, k, pt_len ? pt : one, pt_len, ct, cap, &got),
                     WEBCRYPTO_OK);
    assert_int_equal(got, cap);
    if (memcmp(ct, expect, cap) != 0) {
        printf("# %s (IV %zu bytes, key %zu, data %zu, AAD %zu, tag %zu): the backend's "
               "ciphertext and tag differ from the known answer\n",
               what, iv_len, key_len, pt_len, aad_len, t);
        assert_memory_equal(ct, expect, cap);
    }
    tu_assert_status(webcrypto_decrypt(&p, k, ct, cap, back, cap, &got), WEBCRYPTO_OK);
    assert_int_equal(got, pt_len);
    if (pt_len) assert_memory_equal(back, pt, pt_len);
    ct[cap - 1] ^= 1;
    tu_assert_status(webcrypto_decrypt(&p, k, ct, cap, back, cap, &got), WEBCRYPTO_ERR_OPERATION);
    free(ct);
    free(back);
    webcrypto_key_free(k);
}

/* ---- the specification's vectors ---- */

typedef struct spec_case {
    const char *name, *key, *iv, *ct, *tag;
} spec_case;

/* McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", Appendix
 * B. The plaintext and additional data are those of test cases 4-6 (and
 * 10-12, 16-18). */
static const char spec_pt[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
static const char spec_aad[] = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
#define SPEC_KEY128 "feffe9928665731c6d6a8f9467308308"
#define SPEC_IV64 "cafebabefacedbad"
#define SPEC_IV480                                                    \
    "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728" \
    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
static const spec_case spec_cases[] = {
    {"GCM spec test case 5", SPEC_KEY128, SPEC_IV64,
     "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
     "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
     "3612d2e79e3b0785561be14aaca2fccb"},
    {"GCM spec test case 6", SPEC_KEY128, SPEC_IV480,
     "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
     "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
     "619cc5aefffe0bfa462af43c1699d050"},
    {"GCM spec test case 11", SPEC_KEY128 "feffe9928665731c", SPEC_IV64,
     "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
     "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
     "65dcc57fcf623a24094fcca40d3533f8"},
    {"GCM spec test case 12", SPEC_KEY128 "feffe9928665731c", SPEC_IV480,
     "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
     "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
     "dcf566ff291c25bbb8568fc3d376a6d9"},
    {"GCM spec test case 17", SPEC_KEY128 SPEC_KEY128, SPEC_IV64,
     "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
     "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
     "3a337dbf46a792c45e454913fe2ea8f2"},
    {"GCM spec test case 18", SPEC_KEY128 SPEC_KEY128, SPEC_IV480,
     "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
     "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
     "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"},
};

static bool key_len_ok(size_t len) {
    /* BoringSSL's backend has no AES-192: its import says DataError or
     * NotSupported; the test asks by importing. */
    static const uint8_t z[32] = {0};
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, z, len, &alg, false,
                                               WEBCRYPTO_USAGE_ENCRYPT, &k);
    webcrypto_key_free(k);
    return st == WEBCRYPTO_OK;
}

static void test_spec_vectors(void **state) {
    (void)state;
    be = tu_backend();
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_CTR);
    size_t pt_len = 0, aad_len = 0;
    uint8_t *pt = tu_unhex(spec_pt, &pt_len), *aad = tu_unhex(spec_aad, &aad_len);
    for (size_t i = 0; i < sizeof spec_cases / sizeof spec_cases[0]; i++) {
        const spec_case *c = &spec_cases[i];
        size_t key_len = 0, iv_len = 0, ct_len = 0, tag_len = 0;
        uint8_t *key = tu_unhex(c->key, &key_len), *iv = tu_unhex(c->iv, &iv_len);
        uint8_t *ct = tu_unhex(c->ct, &ct_len), *tag = tu_unhex(c->tag, &tag_len);
        if (!key_len_ok(key_len)) {
            printf("# %s: skipped, no %zu-bit AES keys here\n", c->name, key_len * 8);
        } else {
            uint8_t expect[128], ref[128];
            assert_int_equal(ct_len, pt_len);
            memcpy(expect, ct, ct_len);
            memcpy(expect + ct_len, tag, tag_len);
            /* The independent computation agrees with the typed-in answer... */
            reference_gcm(key, key_len, iv, iv_len, pt, pt_len, aad, aad_len, 16, ref);
            assert_memory_equal(ref, expect, ct_len + tag_len);
            /* ... and so does the backend. */
            check_backend(key, key_len, iv, iv_len, pt, pt_len, aad, aad_len, 16, expect, c->name);
        }
        free(key), free(iv), free(ct), free(tag);
    }
    free(pt), free(aad);
}

/* Deterministic bytes (a 32-bit LCG), so that a failure reproduces. */
static void fill(uint8_t *p, size_t n, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (uint8_t)(x >> 24);
    }
}

static void test_computed(void **state) {
    (void)state;
    be = tu_backend();
    tu_require(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_CTR);
    static const size_t iv_lens[] = {1, 8, 12, 13, 16, 60, 64, 128, 200};
    static const size_t key_lens[] = {16, 24, 32};
    static const size_t pt_lens[] = {0, 1, 16, 61};
    static const size_t aad_lens[] = {0, 20, 33};
    static const size_t tags[] = {16, 12, 4};
    uint8_t key[32], iv[200], pt[61], aad[33], expect[61 + 16];
    size_t cases = 0;
    uint32_t seed = 1;
    for (size_t ki = 0; ki < 3; ki++) {
        if (!key_len_ok(key_lens[ki])) {
            printf("# no %zu-bit AES keys here\n", key_lens[ki] * 8);
            continue;
        }
        for (size_t ii = 0; ii < sizeof iv_lens / sizeof iv_lens[0]; ii++)
            for (size_t pi = 0; pi < 4; pi++) {
                size_t ai = (ii + pi) % 3, ti = (ii + pi + ki) % 3;
                fill(key, sizeof key, seed++);
                fill(iv, sizeof iv, seed++);
                fill(pt, sizeof pt, seed++);
                fill(aad, sizeof aad, seed++);
                reference_gcm(key, key_lens[ki], iv, iv_lens[ii], pt, pt_lens[pi], aad,
                              aad_lens[ai], tags[ti], expect);
                check_backend(key, key_lens[ki], iv, iv_lens[ii], pt, pt_lens[pi], aad,
                              aad_lens[ai], tags[ti], expect, "computed");
                cases++;
            }
    }
    printf("# %zu computed cases agree\n", cases);
    assert_true(cases > 0);
}

/* The GHASH above against the specification's own intermediate values:
 * test case 2's H and GHASH(H, {}, C) (Appendix B). A wrong bit order in
 * gf_mul fails here before it could agree with a wrong backend. */
static void test_ghash_self(void **state) {
    (void)state;
    size_t n = 0;
    uint8_t *h = tu_unhex("66e94bd4ef8a2c3b884cfa59ca342b2e", &n);
    uint8_t *c = tu_unhex("0388dace60b6a392f328c2b971b2fe78", &n);
    uint8_t y[16] = {0}, lens[16];
    ghash_update(y, h, c, 16);
    tu_assert_hex(y, 16, "5e2ec746917062882c85b0685353deb7"); /* X1 */
    lengths_block(lens, 0, 128);
    ghash_update(y, h, lens, 16);
    tu_assert_hex(y, 16, "f38cbb1ad69223dcc3457ae5b6b0f885"); /* GHASH(H, A, C) */
    free(h), free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ghash_self),
        cmocka_unit_test(test_spec_vectors),
        cmocka_unit_test(test_computed),
    };
    return tu_run_group("gcm_longiv", tests, NULL, NULL);
}
