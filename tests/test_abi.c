/*
 * The ABI's growth scheme (docs/ABI.md), through the shared library as an
 * installed program would use it:
 *  - webcrypto_params of an older, shorter layout (a program built against
 *    an older header) gives the same answers as the full struct, in every
 *    position a params is taken (alg, derived_key_type, unwrap_alg,
 *    unwrapped_key_alg);
 *  - a longer struct (a newer header) works while its extra members are
 *    zero, and is NotSupportedError once one is set;
 *  - size 0 (not initialised with WEBCRYPTO_PARAMS_INIT) and sizes that are
 *    no layout are TypeError;
 *  - the version the library reports is the header's (and CMake's);
 *  - webcrypto_limits (0.4) grows the same way: its layout is pinned here,
 *    a shorter struct sets the limits it has, a longer one works while its
 *    extra members are zero.
 * Known answers: RFC 4231 (HMAC-SHA-256, test case 1), RFC 5869 (HKDF-SHA-256,
 * test case 1), RFC 3394 (AES-KW, 4.1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "webcrypto.h"

/* webcrypto_params as a program built against an older header saw it: the
 * members up to `iterations`, as the struct has them. Its size, padded to
 * 8 bytes, ends where the library's next member starts. */
typedef struct old_params {
    size_t size;
    webcrypto_algorithm name;
    webcrypto_algorithm hash;
    size_t length;
    const uint8_t *iv;
    size_t iv_len;
    const uint8_t *counter;
    size_t counter_len;
    const uint8_t *additional_data;
    size_t additional_data_len;
    size_t tag_length;
    const uint8_t *salt;
    size_t salt_len;
    const uint8_t *info;
    size_t info_len;
    uint32_t iterations;
} old_params;
_Static_assert(offsetof(old_params, iterations) == offsetof(webcrypto_params, iterations),
               "old_params is a prefix of webcrypto_params");
_Static_assert(sizeof(old_params) == offsetof(webcrypto_params, modulus_length),
               "old_params ends where webcrypto_params' next member starts");

/* The shortest layout a program could have: the size, the name and the
 * hash (16 bytes, no padding). */
typedef struct tiny_params {
    size_t size;
    webcrypto_algorithm name;
    webcrypto_algorithm hash;
} tiny_params;
_Static_assert(sizeof(tiny_params) == offsetof(webcrypto_params, length), "tiny is a prefix");

/* A program built against a newer header: members this library lacks. */
typedef struct new_params {
    webcrypto_params p;
    uint64_t future[3];
} new_params;

#define AS_PARAMS(x) ((const webcrypto_params *)(const void *)(x))

static const uint8_t hmac_key[20] = {0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
                                     0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b};
static const uint8_t hi_there[8] = {'H', 'i', ' ', 'T', 'h', 'e', 'r', 'e'};
static const uint8_t hmac_kat[32] = {0xb0, 0x34, 0x4c, 0x61, 0xd8, 0xdb, 0x38, 0x53, 0x5c, 0xa8, 0xaf,
                                     0xce, 0xaf, 0x0b, 0xf1, 0x2b, 0x88, 0x1d, 0xc2, 0x00, 0xc9, 0x83,
                                     0x3d, 0xa7, 0x26, 0xe9, 0x37, 0x6c, 0x2e, 0x32, 0xcf, 0xf7};

static void expect(webcrypto_status got, webcrypto_status want, const char *what) {
    if (got != want)
        fail_msg("%s: %s (%s), expected %s", what, webcrypto_status_name(got),
                 webcrypto_error_message(), webcrypto_status_name(want));
}

/* An HMAC-SHA-256 key imported with the tiny layout. */
static webcrypto_key *hmac_key_tiny(void) {
    tiny_params t = {sizeof t, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256};
    webcrypto_key *k = NULL;
    expect(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, hmac_key, sizeof hmac_key, AS_PARAMS(&t),
                                false, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k),
           WEBCRYPTO_OK, "import HMAC with a 16-byte params");
    assert_int_equal(webcrypto_key_get_hash(k), WEBCRYPTO_ALG_SHA_256);
    return k;
}

static void test_smaller_layouts(void **state) {
    (void)state;
    webcrypto_key *k = hmac_key_tiny();
    tiny_params t = {sizeof t, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_NONE};
    uint8_t mac[32];
    size_t n = 0;
    expect(webcrypto_sign(AS_PARAMS(&t), k, hi_there, sizeof hi_there, mac, sizeof mac, &n),
           WEBCRYPTO_OK, "sign with a 16-byte params");
    assert_int_equal(n, 32);
    assert_memory_equal(mac, hmac_kat, 32);
    bool valid = false;
    expect(webcrypto_verify(AS_PARAMS(&t), k, mac, n, hi_there, sizeof hi_there, &valid),
           WEBCRYPTO_OK, "verify with a 16-byte params");
    assert_true(valid);
    webcrypto_key_free(k);

    /* HKDF (RFC 5869 A.1) with the older layout, whose last member is
     * iterations: the members after it (public_key, ...) are absent. */
    static const uint8_t ikm[22] = {0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
                                    0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b};
    static const uint8_t salt[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const uint8_t info[10] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9};
    static const uint8_t okm[42] = {0x3c, 0xb2, 0x5f, 0x25, 0xfa, 0xac, 0xd5, 0x7a, 0x90, 0x43, 0x4f,
                                    0x64, 0xd0, 0x36, 0x2f, 0x2a, 0x2d, 0x2d, 0x0a, 0x90, 0xcf, 0x1a,
                                    0x5a, 0x4c, 0x5d, 0xb0, 0x2d, 0x56, 0xec, 0xc4, 0xc5, 0xbf, 0x34,
                                    0x00, 0x72, 0x08, 0xd5, 0xb8, 0x87, 0x18, 0x58, 0x65};
    old_params imp = {.size = sizeof imp, .name = WEBCRYPTO_ALG_HKDF};
    webcrypto_key *base = NULL;
    expect(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, ikm, sizeof ikm, AS_PARAMS(&imp), false,
                                WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY, &base),
           WEBCRYPTO_OK, "import HKDF with the older params");
    old_params h = {.size = sizeof h, .name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256,
                    .salt = salt, .salt_len = sizeof salt, .info = info, .info_len = sizeof info};
    uint8_t out[42];
    expect(webcrypto_derive_bits(AS_PARAMS(&h), base, 42 * 8, out, sizeof out, &n), WEBCRYPTO_OK,
           "deriveBits with the older params");
    assert_int_equal(n, 42);
    assert_memory_equal(out, okm, sizeof okm);

    /* deriveKey: derived_key_type in the tiny layout (HMAC-SHA-256 of the
     * hash's block size, 512 bits = the first 64 bytes of the HKDF output). */
    tiny_params dt = {sizeof dt, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256};
    webcrypto_key *dk = NULL;
    expect(webcrypto_derive_key(AS_PARAMS(&h), base, AS_PARAMS(&dt), true, WEBCRYPTO_USAGE_SIGN, &dk),
           WEBCRYPTO_OK, "deriveKey with older params for both");
    assert_int_equal(webcrypto_key_get_length(dk), 512);
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    expect(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, dk, &raw, &raw_len), WEBCRYPTO_OK, "export");
    assert_int_equal(raw_len, 64);
    assert_memory_equal(raw, okm, sizeof okm); /* the same HKDF stream */
    webcrypto_buffer_free(raw, raw_len);
    webcrypto_key_free(dk);
    webcrypto_key_free(base);
}

/* AES-KW (RFC 3394 4.1) with unwrap_alg and unwrapped_key_alg in the tiny
 * layout. */
static void test_smaller_layouts_unwrap(void **state) {
    (void)state;
    static const uint8_t kek_bytes[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                          0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
    static const uint8_t wrapped[24] = {0x1f, 0xa6, 0x8b, 0x0a, 0x81, 0x12, 0xb4, 0x47,
                                        0xae, 0xf3, 0x4b, 0xd8, 0xfb, 0x5a, 0x7b, 0x82,
                                        0x9d, 0x3e, 0x86, 0x23, 0x71, 0xd2, 0xcf, 0xe5};
    static const uint8_t key_data[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                         0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    tiny_params kw = {sizeof kw, WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_ALG_NONE};
    webcrypto_key *kek = NULL, *k = NULL;
    expect(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, kek_bytes, sizeof kek_bytes,
                                AS_PARAMS(&kw), false, WEBCRYPTO_USAGE_UNWRAP_KEY, &kek),
           WEBCRYPTO_OK, "import the KEK");
    tiny_params gcm = {sizeof gcm, WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE};
    expect(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, sizeof wrapped, kek, AS_PARAMS(&kw),
                                AS_PARAMS(&gcm), true, WEBCRYPTO_USAGE_ENCRYPT, &k),
           WEBCRYPTO_OK, "unwrapKey with older params for both");
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    expect(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, k, &raw, &raw_len), WEBCRYPTO_OK, "export");
    assert_int_equal(raw_len, 16);
    assert_memory_equal(raw, key_data, 16);
    webcrypto_buffer_free(raw, raw_len);
    webcrypto_key_free(k);

    /* Nested params get the same check: a forgotten size is TypeError. */
    tiny_params unsized = {0, WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_NONE};
    k = NULL;
    expect(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, wrapped, sizeof wrapped, kek, AS_PARAMS(&kw),
                                AS_PARAMS(&unsized), true, WEBCRYPTO_USAGE_ENCRYPT, &k),
           WEBCRYPTO_ERR_INVALID_ARGUMENT, "unwrapped_key_alg of size 0");
    assert_null(k);
    assert_non_null(strstr(webcrypto_error_message(), "WEBCRYPTO_PARAMS_INIT"));
    webcrypto_key_free(kek);
}

static void test_larger_layout(void **state) {
    (void)state;
    webcrypto_key *k = hmac_key_tiny();
    new_params big;
    memset(&big, 0, sizeof big);
    big.p.size = sizeof big;
    big.p.name = WEBCRYPTO_ALG_HMAC;
    uint8_t mac[32];
    size_t n = 0;
    expect(webcrypto_sign(&big.p, k, hi_there, sizeof hi_there, mac, sizeof mac, &n), WEBCRYPTO_OK,
           "sign with a longer params, its extra members zero");
    assert_memory_equal(mac, hmac_kat, 32);
    for (size_t i = 0; i < 3; i++) {
        big.future[i] = 1;
        n = 0;
        expect(webcrypto_sign(&big.p, k, hi_there, sizeof hi_there, mac, sizeof mac, &n),
               WEBCRYPTO_ERR_NOT_SUPPORTED, "sign with a member this library does not know");
        assert_int_equal(n, 0);
        assert_non_null(strstr(webcrypto_error_message(), "does not know a parameter"));
        assert_non_null(strstr(webcrypto_error_message(), WEBCRYPTO_VERSION));
        big.future[i] = 0;
    }
    /* The derived key type is checked the same way. */
    webcrypto_key *kdf = NULL, *dk = NULL;
    static const uint8_t ikm[16] = {1};
    webcrypto_params imp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
    expect(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, ikm, sizeof ikm, &imp, false,
                                WEBCRYPTO_USAGE_DERIVE_KEY, &kdf),
           WEBCRYPTO_OK, "import HKDF");
    webcrypto_params h = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256);
    new_params dt;
    memset(&dt, 0, sizeof dt);
    dt.p.size = sizeof dt;
    dt.p.name = WEBCRYPTO_ALG_AES_GCM;
    dt.p.length = 128;
    expect(webcrypto_derive_key(&h, kdf, &dt.p, false, WEBCRYPTO_USAGE_ENCRYPT, &dk), WEBCRYPTO_OK,
           "deriveKey, derived_key_type longer and zero-extended");
    webcrypto_key_free(dk);
    dk = NULL;
    dt.future[2] = 0x100;
    expect(webcrypto_derive_key(&h, kdf, &dt.p, false, WEBCRYPTO_USAGE_ENCRYPT, &dk),
           WEBCRYPTO_ERR_NOT_SUPPORTED, "deriveKey, derived_key_type with an unknown member");
    assert_null(dk);
    webcrypto_key_free(kdf);
    webcrypto_key_free(k);
}

static void test_bad_sizes(void **state) {
    (void)state;
    webcrypto_key *k = hmac_key_tiny();
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC);
    uint8_t mac[32];
    size_t n = 0;
    /* Forgotten: a struct zero-initialised without its size. */
    p.size = 0;
    expect(webcrypto_sign(&p, k, hi_there, sizeof hi_there, mac, sizeof mac, &n),
           WEBCRYPTO_ERR_INVALID_ARGUMENT, "size 0");
    assert_non_null(strstr(webcrypto_error_message(), "WEBCRYPTO_PARAMS_INIT"));
    /* Not reaching past `name`; garbage beyond any layout. */
    size_t bad[] = {1, sizeof(size_t), offsetof(webcrypto_params, name) + 1, 4097, SIZE_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p.size = bad[i];
        expect(webcrypto_sign(&p, k, hi_there, sizeof hi_there, mac, sizeof mac, &n),
               WEBCRYPTO_ERR_INVALID_ARGUMENT, "a size that is no layout");
    }
    /* verify with a bad size: TypeError, and *valid false whatever it held. */
    bool valid = true;
    p.size = 0;
    expect(webcrypto_verify(&p, k, hmac_kat, 32, hi_there, sizeof hi_there, &valid),
           WEBCRYPTO_ERR_INVALID_ARGUMENT, "verify, size 0");
    assert_false(valid);
    /* webcrypto_params_init: the caller's size, everything else zero. */
    memset(&p, 0xa5, sizeof p);
    webcrypto_params_init(&p, sizeof p);
    assert_int_equal(p.size, sizeof p);
    assert_int_equal(p.name, WEBCRYPTO_ALG_NONE);
    assert_null(p.public_key);
    p.name = WEBCRYPTO_ALG_HMAC;
    expect(webcrypto_sign(&p, k, hi_there, sizeof hi_there, mac, sizeof mac, &n), WEBCRYPTO_OK,
           "sign with webcrypto_params_init");
    assert_memory_equal(mac, hmac_kat, 32);
    /* ... which writes no further than the size it is given. */
    uint8_t buf[sizeof(tiny_params) + 8];
    memset(buf, 0xa5, sizeof buf);
    webcrypto_params_init((webcrypto_params *)(void *)buf, sizeof(tiny_params));
    for (size_t i = sizeof(tiny_params); i < sizeof buf; i++) assert_int_equal(buf[i], 0xa5);
    webcrypto_key_free(k);
}

/* webcrypto_limits, 0.4.0's layout: a size, then uint32_t members with no
 * padding, so that it is the same on every ABI with a 4-byte uint32_t. */
_Static_assert(offsetof(webcrypto_limits, max_pbkdf2_iterations) == sizeof(size_t), "layout");
_Static_assert(offsetof(webcrypto_limits, max_argon2_memory) == sizeof(size_t) + 4, "layout");
_Static_assert(offsetof(webcrypto_limits, max_argon2_passes) == sizeof(size_t) + 8, "layout");
_Static_assert(offsetof(webcrypto_limits, max_rsa_generate_bits) == sizeof(size_t) + 12, "layout");
_Static_assert(offsetof(webcrypto_limits, max_rsa_import_bits) == sizeof(size_t) + 16, "layout");
_Static_assert(offsetof(webcrypto_limits, max_jwk_bytes) == sizeof(size_t) + 20, "layout");
_Static_assert(offsetof(webcrypto_limits, max_jwk_key_ops) == sizeof(size_t) + 24, "layout");
_Static_assert(offsetof(webcrypto_limits, reserved) == sizeof(size_t) + 28, "layout");
_Static_assert(sizeof(webcrypto_limits) == sizeof(size_t) + 32, "no padding at the end");

/* The shortest webcrypto_limits a program could have. */
typedef struct old_limits {
    size_t size;
    uint32_t max_pbkdf2_iterations;
} old_limits;

/* PBKDF2-SHA-256 of 2 iterations with the default backend: its status. */
static webcrypto_status pbkdf2_two_iterations(void) {
    static const uint8_t pw[8] = "password";
    webcrypto_params ip = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2);
    webcrypto_key *k = NULL;
    expect(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, pw, sizeof pw, &ip, false,
                                WEBCRYPTO_USAGE_DERIVE_BITS, &k),
           WEBCRYPTO_OK, "import PBKDF2");
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2,
                                          .hash = WEBCRYPTO_ALG_SHA_256, .iterations = 2);
    uint8_t out[32];
    size_t n = 0;
    webcrypto_status st = webcrypto_derive_bits(&p, k, 256, out, sizeof out, &n);
    webcrypto_key_free(k);
    return st;
}

static void test_limits_layouts(void **state) {
    (void)state;
    webcrypto_limits l = WEBCRYPTO_LIMITS(.max_argon2_passes = 3);
    expect(webcrypto_set_limits(&l), WEBCRYPTO_OK, "set limits, this header's struct");
    old_limits o = {sizeof o, 1};
    _Static_assert(sizeof(old_limits) <= sizeof(webcrypto_limits), "a prefix");
    expect(webcrypto_set_limits((const webcrypto_limits *)(const void *)&o), WEBCRYPTO_OK,
           "set limits, the shortest struct");
    expect(pbkdf2_two_iterations(), WEBCRYPTO_ERR_NOT_SUPPORTED, "PBKDF2 over a limit of 1");
    l = (webcrypto_limits)WEBCRYPTO_LIMITS_INIT;
    expect(webcrypto_get_limits(&l), WEBCRYPTO_OK, "get limits");
    assert_int_equal(l.max_pbkdf2_iterations, 1);
    assert_int_equal(l.max_argon2_passes, 3); /* not in the short struct: kept */
    struct {
        webcrypto_limits l;
        uint32_t future[2];
    } big;
    memset(&big, 0, sizeof big);
    big.l.size = sizeof big;
    expect(webcrypto_set_limits(&big.l), WEBCRYPTO_OK, "set limits, a longer struct, zero");
    expect(pbkdf2_two_iterations(), WEBCRYPTO_OK, "PBKDF2 under the default limit");
    big.future[1] = 1;
    expect(webcrypto_set_limits(&big.l), WEBCRYPTO_ERR_NOT_SUPPORTED,
           "set limits, a longer struct with a member this library lacks");
    assert_non_null(strstr(webcrypto_error_message(), WEBCRYPTO_VERSION));
    l = (webcrypto_limits)WEBCRYPTO_LIMITS_INIT;
    l.size = 0;
    expect(webcrypto_set_limits(&l), WEBCRYPTO_ERR_INVALID_ARGUMENT, "set limits, size 0");
    l.size = sizeof l;
    expect(webcrypto_set_limits(&l), WEBCRYPTO_OK, "back to the defaults");
}

static void test_version(void **state) {
    (void)state;
    assert_string_equal(webcrypto_version(), WEBCRYPTO_VERSION);
    assert_int_equal(webcrypto_version_number(), WEBCRYPTO_VERSION_NUMBER);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", WEBCRYPTO_VERSION_MAJOR, WEBCRYPTO_VERSION_MINOR,
             WEBCRYPTO_VERSION_PATCH);
    assert_string_equal(v, WEBCRYPTO_VERSION);
    assert_int_equal(WEBCRYPTO_VERSION_NUMBER, WEBCRYPTO_VERSION_MAJOR * 1000000L +
                                                   WEBCRYPTO_VERSION_MINOR * 1000L +
                                                   WEBCRYPTO_VERSION_PATCH);
    /* CMake's project version (the soname, webcrypto.pc, the package) is
     * read from the header: the same. */
    assert_string_equal(WC_TEST_PROJECT_VERSION, webcrypto_version());
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smaller_layouts), cmocka_unit_test(test_smaller_layouts_unwrap),
        cmocka_unit_test(test_larger_layout),   cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_limits_layouts), cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests_name("abi", tests, NULL, NULL);
}
