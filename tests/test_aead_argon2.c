/*
 * ChaCha20-Poly1305, AES-OCB and Argon2 ("Modern Algorithms in the Web
 * Cryptography API"), through the public API: the standards' known answers,
 * typed in from RFC 8439 section 2.8.2, RFC 7253 appendix A and RFC 9106
 * section 5, and the draft's error kinds for bad input. A backend without an
 * algorithm skips its tests, saying so (tu_require).
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether buf[0..len) contains the string s. */
static bool contains(const uint8_t *buf, size_t len, const char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(buf + i, s, n) == 0) return true;
    return false;
}

static const unsigned ENC_DEC = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;

static webcrypto_key *import_raw(webcrypto_algorithm alg, const uint8_t *k, size_t n,
                                 bool extractable, unsigned usages) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, k, n, &p,
                                          extractable, usages, &key),
                     WEBCRYPTO_OK);
    assert_non_null(key);
    return key;
}

static webcrypto_key *import_hex(webcrypto_algorithm alg, const char *hex) {
    size_t n;
    uint8_t *k = tu_unhex(hex, &n);
    webcrypto_key *key = import_raw(alg, k, n, true, ENC_DEC);
    free(k);
    return key;
}

/* Encrypts pt with (iv, aad, tag bits) and checks ciphertext || tag against
 * expected; then decrypts it back, in place as well. */
static void check_aead(const webcrypto_key *key, webcrypto_algorithm alg, const char *iv_hex,
                       const char *aad_hex, const uint8_t *pt, size_t pt_len, size_t tag_bits,
                       const char *expected_hex) {
    size_t iv_len, aad_len, exp_len;
    uint8_t *iv = tu_unhex(iv_hex, &iv_len), *aad = tu_unhex(aad_hex, &aad_len);
    uint8_t *expected = tu_unhex(expected_hex, &exp_len);
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg, .iv = iv, .iv_len = iv_len,
                                          .additional_data = aad_len ? aad : NULL,
                                          .additional_data_len = aad_len, .tag_length = tag_bits);
    size_t cap = pt_len + 16, n = 0;
    uint8_t *out = malloc(cap + 1);
    assert_non_null(out);
    tu_assert_status(webcrypto_encrypt(&p, key, pt, pt_len, out, cap, &n), WEBCRYPTO_OK);
    assert_int_equal(n, exp_len);
    assert_memory_equal(out, expected, n);
    /* The same key and nonce again (WebCrypto allows it; the JDK's cipher
     * refuses a repeat on one instance): the same bytes. */
    memset(out, 0, cap);
    tu_assert_status(webcrypto_encrypt(&p, key, pt, pt_len, out, cap, &n), WEBCRYPTO_OK);
    assert_memory_equal(out, expected, n);
    uint8_t *back = malloc(exp_len + 1);
    assert_non_null(back);
    size_t m = 0;
    tu_assert_status(webcrypto_decrypt(&p, key, expected, exp_len, back, exp_len, &m),
                     WEBCRYPTO_OK);
    assert_int_equal(m, pt_len);
    if (pt_len) assert_memory_equal(back, pt, pt_len);
    /* in place */
    memcpy(back, expected, exp_len);
    tu_assert_status(webcrypto_decrypt(&p, key, back, exp_len, back, exp_len, &m), WEBCRYPTO_OK);
    if (pt_len) assert_memory_equal(back, pt, pt_len);
    free(back);
    free(out);
    free(expected);
    free(aad);
    free(iv);
}

/* ----------------------------------------------- RFC 8439 section 2.8.2 */

static const char SUNSCREEN[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                                "only one tip for the future, sunscreen would be it.";
#define RFC8439_KEY "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
#define RFC8439_NONCE "070000004041424344454647"
#define RFC8439_AAD "50515253c0c1c2c3c4c5c6c7"
#define RFC8439_CT                                                                         \
    "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca967128" \
    "2fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab3" \
    "24e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
#define RFC8439_TAG "1ae10b594f09e26a7e902ecbd0600691"

static void test_chacha20_poly1305_rfc8439(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_CHACHA20_POLY1305);
    webcrypto_key *key = import_hex(WEBCRYPTO_ALG_CHACHA20_POLY1305, RFC8439_KEY);
    check_aead(key, WEBCRYPTO_ALG_CHACHA20_POLY1305, RFC8439_NONCE, RFC8439_AAD,
               (const uint8_t *)SUNSCREEN, strlen(SUNSCREEN), 0, RFC8439_CT RFC8439_TAG);
    /* tagLength 128 given explicitly is the same */
    check_aead(key, WEBCRYPTO_ALG_CHACHA20_POLY1305, RFC8439_NONCE, RFC8439_AAD,
               (const uint8_t *)SUNSCREEN, strlen(SUNSCREEN), 128, RFC8439_CT RFC8439_TAG);
    assert_int_equal(webcrypto_key_get_length(key), 256);
    webcrypto_key_free(key);
}

/* The draft's error kinds, and nothing released on a bad tag. */
static void test_chacha20_poly1305_bad_input(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_CHACHA20_POLY1305);
    webcrypto_key *key = import_hex(WEBCRYPTO_ALG_CHACHA20_POLY1305, RFC8439_KEY);
    size_t ct_len, aad_len, n = 0;
    uint8_t *ct = tu_unhex(RFC8439_CT RFC8439_TAG, &ct_len);
    uint8_t *aad = tu_unhex(RFC8439_AAD, &aad_len);
    uint8_t iv[16] = {0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47};
    uint8_t out[256];
    static const size_t bad_iv[] = {0, 8, 11, 13, 16};
    for (size_t i = 0; i < sizeof bad_iv / sizeof bad_iv[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305, .iv = iv,
                                              .iv_len = bad_iv[i]);
        tu_assert_status(webcrypto_encrypt(&p, key, out, 8, out, sizeof out, &n),
                         WEBCRYPTO_ERR_OPERATION);
        tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, out, sizeof out, &n),
                         WEBCRYPTO_ERR_OPERATION);
    }
    static const size_t bad_tag[] = {32, 64, 96, 120, 256};
    for (size_t i = 0; i < sizeof bad_tag / sizeof bad_tag[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305, .iv = iv,
                                              .iv_len = 12, .tag_length = bad_tag[i]);
        tu_assert_status(webcrypto_encrypt(&p, key, out, 8, out, sizeof out, &n),
                         WEBCRYPTO_ERR_OPERATION);
    }
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305, .iv = iv,
                                          .iv_len = 12, .additional_data = aad,
                                          .additional_data_len = aad_len);
    /* shorter than the tag */
    tu_assert_status(webcrypto_decrypt(&p, key, ct, 15, out, sizeof out, &n),
                     WEBCRYPTO_ERR_OPERATION);
    /* every kind of tampering: a tag bit, a ciphertext bit, the AAD, the nonce */
    size_t flips[] = {ct_len - 1, ct_len - 16, 0, 57};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        ct[flips[i]] ^= 0x01;
        memset(out, 0xa5, sizeof out);
        tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, out, sizeof out, &n),
                         WEBCRYPTO_ERR_OPERATION);
        for (size_t j = 0; j < ct_len - 16; j++) assert_true(out[j] == 0 || out[j] == 0xa5);
        ct[flips[i]] ^= 0x01;
    }
    aad[0] ^= 0x80;
    memset(out, 0xa5, sizeof out);
    tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, out, sizeof out, &n),
                     WEBCRYPTO_ERR_OPERATION);
    for (size_t j = 0; j < ct_len - 16; j++) assert_true(out[j] == 0 || out[j] == 0xa5);
    aad[0] ^= 0x80;
    iv[11] ^= 1;
    tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, out, sizeof out, &n),
                     WEBCRYPTO_ERR_OPERATION);
    iv[11] ^= 1;
    tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, out, sizeof out, &n), WEBCRYPTO_OK);
    assert_memory_equal(out, SUNSCREEN, strlen(SUNSCREEN));
    webcrypto_key_free(key);

    /* keys: 256 bits only (DataError on import); generateKey makes 256 */
    uint8_t k[33] = {0};
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305);
    webcrypto_key *bad = NULL;
    static const size_t bad_len[] = {0, 16, 24, 31, 33};
    for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++)
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, k, bad_len[i],
                                              &kp, false, ENC_DEC, &bad),
                         WEBCRYPTO_ERR_DATA);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, k, 32, &kp, false,
                                          WEBCRYPTO_USAGE_SIGN, &bad),
                     WEBCRYPTO_ERR_SYNTAX);
    webcrypto_key *g = NULL;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &kp, true, ENC_DEC, &g), WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_length(g), 256);
    uint8_t *jwk = NULL;
    size_t jwk_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, g, &jwk, &jwk_len), WEBCRYPTO_OK);
    assert_true(contains(jwk, jwk_len, "\"alg\":\"C20P\""));
    webcrypto_key *back = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, jwk, jwk_len, &kp,
                                          true, ENC_DEC, &back),
                     WEBCRYPTO_OK);
    webcrypto_buffer_free(jwk, jwk_len);
    webcrypto_key_free(back);
    webcrypto_key_free(g);
    free(aad);
    free(ct);
}

/* --------------------------------------------------- RFC 7253 appendix A */

typedef struct {
    const char *nonce, *a, *p, *c;
} ocb_kat;

#define B8 "0001020304050607"
#define B16 "000102030405060708090a0b0c0d0e0f"
#define B24 B16 "1011121314151617"

static const ocb_kat ocb_kats[] = {
    {"bbaa99887766554433221100", "", "", "785407bfffc8ad9edcc5520ac9111ee6"},
    {"bbaa99887766554433221101", B8, B8, "6820b3657b6f615a5725bda0d3b4eb3a257c9af1f8f03009"},
    {"bbaa99887766554433221102", B8, "", "81017f8203f081277152fade694a0a00"},
    {"bbaa99887766554433221103", "", B8, "45dd69f8f5aae72414054cd1f35d82760b2cd00d2f99bfa9"},
    {"bbaa99887766554433221104", B16, B16,
     "571d535b60b277188be5147170a9a22c3ad7a4ff3835b8c5701c1ccec8fc3358"},
    {"bbaa99887766554433221105", B16, "", "8cf761b6902ef764462ad86498ca6b97"},
    {"bbaa99887766554433221106", "", B16,
     "5ce88ec2e0692706a915c00aeb8b2396f40e1c743f52436bdf06d8fa1eca343d"},
    {"bbaa99887766554433221107", B24, B24,
     "1ca2207308c87c010756104d8840ce1952f09673a448a122c92c62241051f57356d7f3c90bb0e07f"},
    {"bbaa99887766554433221108", B24, "", "6dc225a071fc1b9f7c69f93b0f1e10de"},
    {"bbaa99887766554433221109", "", B24,
     "221bd0de7fa6fe993eccd769460a0af2d6cded0c395b1c3ce725f32494b9f914d85c0b1eb38357ff"},
};

static void test_ocb_rfc7253_samples(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_OCB);
    webcrypto_key *key = import_hex(WEBCRYPTO_ALG_AES_OCB, B16);
    for (size_t i = 0; i < sizeof ocb_kats / sizeof ocb_kats[0]; i++) {
        size_t n;
        uint8_t *pt = tu_unhex(ocb_kats[i].p, &n);
        check_aead(key, WEBCRYPTO_ALG_AES_OCB, ocb_kats[i].nonce, ocb_kats[i].a, pt, n, 0,
                   ocb_kats[i].c);
        free(pt);
    }
    webcrypto_key_free(key);
}

static void ocb_encrypt(const webcrypto_key *key, unsigned n_value, const uint8_t *a,
                        size_t a_len, const uint8_t *p, size_t p_len, size_t tag_bits,
                        uint8_t *out, size_t *out_len) {
    uint8_t nonce[12] = {0};
    nonce[10] = (uint8_t)(n_value >> 8);
    nonce[11] = (uint8_t)n_value;
    webcrypto_params prm =
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_OCB, .iv = nonce, .iv_len = 12,
                         .additional_data = a, .additional_data_len = a_len,
                         .tag_length = tag_bits);
    tu_assert_status(webcrypto_encrypt(&prm, key, p, p_len, out, p_len + 16, out_len),
                     WEBCRYPTO_OK);
}

/* RFC 7253 appendix A's iterated test over every key length and tag length:
 * K = zeros(KEYLEN - 8) || num2str(TAGLEN, 8); 128 rounds of three
 * (S = zeros(8i), i bytes)
 * encryptions appended to C; the answer is OCB-ENCRYPT(K, 385, C, ""). */
static void test_ocb_rfc7253_iterated(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_OCB);
    static const struct {
        size_t key_bits, tag_bits;
        const char *result;
    } want[] = {
        {128, 128, "67e944d23256c5e0b6c61fa22fdf1ea2"},
        {192, 128, "f673f2c3e7174aae7bae986ca9f29e17"},
        {256, 128, "d90eb8e9c977c88b79dd793d7ffa161c"},
        {128, 96, "77a3d8e73589158d25d01209"},
        {192, 96, "05d56ead2752c86be6932c5e"},
        {256, 96, "5458359ac23b0cba9e6330dd"},
        {128, 64, "192c9b7bd90ba06a"},
        {192, 64, "0066bc6e0ef34e24"},
        {256, 64, "7d4ea5d445501cbe"},
    };
    /* C grows by 2i + 3 tags bytes in round i (S is i bytes). */
    size_t cap = 128 * (2 * 127 + 48), zcap = 127;
    uint8_t *c = malloc(cap), *zeros = calloc(1, zcap), out[200];
    assert_non_null(c);
    assert_non_null(zeros);
    for (size_t v = 0; v < sizeof want / sizeof want[0]; v++) {
        uint8_t k[32] = {0};
        size_t klen = want[v].key_bits / 8, tb = want[v].tag_bits;
        k[klen - 1] = (uint8_t)tb;
        webcrypto_key *key = import_raw(WEBCRYPTO_ALG_AES_OCB, k, klen, false, ENC_DEC);
        size_t clen = 0, n = 0;
        for (unsigned i = 0; i < 128; i++) {
            size_t s = i; /* zeros(8i): 8i bits */
            ocb_encrypt(key, 3 * i + 1, zeros, s, zeros, s, tb, out, &n);
            memcpy(c + clen, out, n), clen += n;
            ocb_encrypt(key, 3 * i + 2, NULL, 0, zeros, s, tb, out, &n);
            memcpy(c + clen, out, n), clen += n;
            ocb_encrypt(key, 3 * i + 3, zeros, s, NULL, 0, tb, out, &n);
            memcpy(c + clen, out, n), clen += n;
        }
        ocb_encrypt(key, 385, c, clen, NULL, 0, tb, out, &n);
        tu_assert_hex(out, n, want[v].result);
        webcrypto_key_free(key);
    }
    free(zeros);
    free(c);
}

static void test_ocb_bad_input(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_AES_OCB);
    webcrypto_key *key = import_hex(WEBCRYPTO_ALG_AES_OCB, B16);
    uint8_t iv[16] = {0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x01};
    uint8_t buf[64] = {0};
    size_t n = 0;
    static const size_t bad_iv[] = {0, 16};
    for (size_t i = 0; i < 2; i++) {
        webcrypto_params p =
            WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_OCB, .iv = iv, .iv_len = bad_iv[i]);
        tu_assert_status(webcrypto_encrypt(&p, key, buf, 8, buf, sizeof buf, &n),
                         WEBCRYPTO_ERR_OPERATION);
    }
    static const size_t bad_tag[] = {32, 48, 72, 104, 112, 120, 256};
    for (size_t i = 0; i < sizeof bad_tag / sizeof bad_tag[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_OCB, .iv = iv,
                                              .iv_len = 12, .tag_length = bad_tag[i]);
        tu_assert_status(webcrypto_encrypt(&p, key, buf, 8, buf, sizeof buf, &n),
                         WEBCRYPTO_ERR_OPERATION);
    }
    /* every nonce length 1..15 round-trips, each tag length; a changed tag
     * length, nonce or tag fails and releases nothing */
    for (size_t len = 1; len <= 15; len++) {
        static const size_t tags[] = {64, 96, 128};
        for (size_t t = 0; t < 3; t++) {
            uint8_t pt[40], ct[56], back[56];
            for (size_t j = 0; j < sizeof pt; j++) pt[j] = (uint8_t)(j * 7 + len);
            webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_OCB, .iv = iv,
                                                  .iv_len = len, .tag_length = tags[t]);
            size_t ct_len = 0;
            tu_assert_status(webcrypto_encrypt(&p, key, pt, sizeof pt, ct, sizeof ct, &ct_len),
                             WEBCRYPTO_OK);
            assert_int_equal(ct_len, sizeof pt + tags[t] / 8);
            tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, back, sizeof back, &n),
                             WEBCRYPTO_OK);
            assert_memory_equal(back, pt, sizeof pt);
            ct[ct_len - 1] ^= 0x40;
            memset(back, 0xa5, sizeof back);
            tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, back, sizeof back, &n),
                             WEBCRYPTO_ERR_OPERATION);
            for (size_t j = 0; j < sizeof pt; j++) assert_true(back[j] == 0 || back[j] == 0xa5);
            ct[ct_len - 1] ^= 0x40;
            webcrypto_params q = p;
            q.tag_length = tags[(t + 1) % 3];
            tu_assert_status(webcrypto_decrypt(&q, key, ct, ct_len, back, sizeof back, &n),
                             WEBCRYPTO_ERR_OPERATION);
        }
    }
    webcrypto_key_free(key);
    /* generateKey: 128, 192, 256 only */
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_OCB, .length = 512);
    webcrypto_key *g = NULL;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &kp, true, ENC_DEC, &g),
                     WEBCRYPTO_ERR_OPERATION);
    kp.length = 192;
    tu_assert_status(webcrypto_generate_key(tu_backend(), &kp, true, ENC_DEC, &g), WEBCRYPTO_OK);
    uint8_t *jwk = NULL;
    size_t jwk_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, g, &jwk, &jwk_len), WEBCRYPTO_OK);
    assert_true(contains(jwk, jwk_len, "\"alg\":\"A192OCB\""));
    webcrypto_buffer_free(jwk, jwk_len);
    webcrypto_key_free(g);
}

/* --------------------------------------------------- RFC 9106 section 5 */

static webcrypto_key *argon2_password(webcrypto_algorithm alg) {
    uint8_t pw[32];
    memset(pw, 0x01, sizeof pw);
    return import_raw(alg, pw, sizeof pw, false,
                      WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY);
}

static uint8_t argon2_salt[16], argon2_secret[8], argon2_ad[12];

static webcrypto_params argon2_rfc_params(webcrypto_algorithm alg) {
    memset(argon2_salt, 0x02, sizeof argon2_salt);
    memset(argon2_secret, 0x03, sizeof argon2_secret);
    memset(argon2_ad, 0x04, sizeof argon2_ad);
    webcrypto_params p = WEBCRYPTO_PARAMS(
        .name = alg, .nonce = argon2_salt, .nonce_len = sizeof argon2_salt,
        .secret_value = argon2_secret, .secret_value_len = sizeof argon2_secret,
        .additional_data = argon2_ad, .additional_data_len = sizeof argon2_ad, .parallelism = 4,
        .memory = 32, .passes = 3, .version = 0x13);
    return p;
}

static void test_argon2_rfc9106(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ARGON2D, WEBCRYPTO_ALG_ARGON2I, WEBCRYPTO_ALG_ARGON2ID);
    static const struct {
        webcrypto_algorithm alg;
        const char *tag;
    } v[] = {
        {WEBCRYPTO_ALG_ARGON2D, "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb"},
        {WEBCRYPTO_ALG_ARGON2I, "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8"},
        {WEBCRYPTO_ALG_ARGON2ID,
         "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"},
    };
    for (size_t i = 0; i < 3; i++) {
        webcrypto_key *key = argon2_password(v[i].alg);
        webcrypto_params p = argon2_rfc_params(v[i].alg);
        uint8_t out[32];
        size_t n = 0;
        tu_assert_status(webcrypto_derive_bits(&p, key, 256, out, sizeof out, &n), WEBCRYPTO_OK);
        assert_int_equal(n, 32);
        tu_assert_hex(out, n, v[i].tag);
        /* version absent (0) is 0x13 */
        p.version = 0;
        memset(out, 0, sizeof out);
        tu_assert_status(webcrypto_derive_bits(&p, key, 256, out, sizeof out, &n), WEBCRYPTO_OK);
        tu_assert_hex(out, n, v[i].tag);
        /* the size query */
        tu_assert_status(webcrypto_derive_bits(&p, key, 256, NULL, 0, &n), WEBCRYPTO_OK);
        assert_int_equal(n, 32);
        webcrypto_key_free(key);
    }
}

static void test_argon2_bad_input(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ARGON2ID);
    webcrypto_key *key = argon2_password(WEBCRYPTO_ALG_ARGON2ID);
    uint8_t out[64];
    size_t n = 0;
    webcrypto_params p = argon2_rfc_params(WEBCRYPTO_ALG_ARGON2ID);
    /* length: null (WEBCRYPTO_LENGTH_FULL), under 32, not a multiple of 8 */
    static const size_t bad_len[] = {WEBCRYPTO_LENGTH_FULL, 0, 8, 24, 31, 33, 257};
    for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++)
        tu_assert_status(webcrypto_derive_bits(&p, key, bad_len[i], out, sizeof out, &n),
                         WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(webcrypto_derive_bits(&p, key, 32, out, sizeof out, &n), WEBCRYPTO_OK);
    assert_int_equal(n, 4);
#define BAD(field, value, want)                                                                \
    do {                                                                                       \
        webcrypto_params q = argon2_rfc_params(WEBCRYPTO_ALG_ARGON2ID);                        \
        q.field = value;                                                                       \
        tu_assert_status(webcrypto_derive_bits(&q, key, 256, out, sizeof out, &n), want);     \
        tu_assert_status(webcrypto_derive_bits(&q, key, 256, NULL, 0, &n), want);             \
    } while (0)
    BAD(version, 0x10, WEBCRYPTO_ERR_OPERATION);
    BAD(version, 0x14, WEBCRYPTO_ERR_OPERATION);
    BAD(parallelism, 0, WEBCRYPTO_ERR_OPERATION);
    BAD(parallelism, 0x1000000u, WEBCRYPTO_ERR_OPERATION);
    BAD(memory, 31, WEBCRYPTO_ERR_OPERATION); /* 8 * 4 = 32 */
    BAD(memory, 0, WEBCRYPTO_ERR_OPERATION);
    BAD(passes, 0, WEBCRYPTO_ERR_OPERATION);
    BAD(nonce_len, 7, WEBCRYPTO_ERR_OPERATION);
    BAD(nonce_len, 0, WEBCRYPTO_ERR_OPERATION);
    BAD(nonce, NULL, WEBCRYPTO_ERR_INVALID_ARGUMENT); /* the required member absent */
    BAD(secret_value, NULL, WEBCRYPTO_ERR_INVALID_ARGUMENT);
#undef BAD
    /* the smallest accepted: 8-byte nonce, memory 8 * parallelism, one pass */
    webcrypto_params q = argon2_rfc_params(WEBCRYPTO_ALG_ARGON2ID);
    q.nonce_len = 8;
    q.parallelism = 1;
    q.memory = 8;
    q.passes = 1;
    tu_assert_status(webcrypto_derive_bits(&q, key, 256, out, sizeof out, &n), WEBCRYPTO_OK);
    webcrypto_key_free(key);

    /* import: raw only (NotSupportedError), never extractable (SyntaxError),
     * derive usages only (SyntaxError) */
    webcrypto_params kp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ARGON2ID);
    webcrypto_key *k = NULL;
    uint8_t pw[4] = "pass";
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, pw, 4, &kp, false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, pw, 4, &kp, true,
                                          WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_ERR_SYNTAX);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, pw, 4, &kp, false,
                                          WEBCRYPTO_USAGE_ENCRYPT, &k),
                     WEBCRYPTO_ERR_SYNTAX);
    webcrypto_params gp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ARGON2ID);
    tu_assert_status(webcrypto_generate_key(tu_backend(), &gp, false,
                                            WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
}

/* deriveKey: Argon2id into a ChaCha20-Poly1305 key (whose length is the
 * draft's fixed 256) equals deriveBits(256) imported. */
static void test_argon2_derive_key(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ARGON2ID, WEBCRYPTO_ALG_CHACHA20_POLY1305);
    webcrypto_key *key = argon2_password(WEBCRYPTO_ALG_ARGON2ID);
    webcrypto_params p = argon2_rfc_params(WEBCRYPTO_ALG_ARGON2ID);
    webcrypto_params t = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_CHACHA20_POLY1305);
    webcrypto_key *derived = NULL;
    tu_assert_status(webcrypto_derive_key(&p, key, &t, true, ENC_DEC, &derived), WEBCRYPTO_OK);
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, derived, &raw, &raw_len),
                     WEBCRYPTO_OK);
    tu_assert_hex(raw, raw_len, "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");
    webcrypto_buffer_free(raw, raw_len);
    webcrypto_key_free(derived);
    webcrypto_key_free(key);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chacha20_poly1305_rfc8439),
        cmocka_unit_test(test_chacha20_poly1305_bad_input),
        cmocka_unit_test(test_ocb_rfc7253_samples),
        cmocka_unit_test(test_ocb_rfc7253_iterated),
        cmocka_unit_test(test_ocb_bad_input),
        cmocka_unit_test(test_argon2_rfc9106),
        cmocka_unit_test(test_argon2_bad_input),
        cmocka_unit_test(test_argon2_derive_key),
    };
    return tu_run_group("aead_argon2", tests, NULL, NULL);
}
