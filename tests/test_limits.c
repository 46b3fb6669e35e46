/*
 * test_limits.c - the limits an embedder sets (webcrypto_set_limits,
 * webcrypto.h), on each backend: the documented defaults; each limit
 * accepts a request at the limit and refuses one just above it, with the
 * documented error kind and a message naming the limit, before any work
 * (a refusal of 2^32 - 1 PBKDF2 iterations returns at once); set/get round
 * trips, shorter and longer structs, invalid settings refused and changing
 * nothing. And JWK key_ops: a value names a usage only if it is exactly
 * its name, and duplicates are found among 20,000 entries, known usages
 * (a bit each) and other values (sorted) alike; the time of 20,000
 * entries is printed, not asserted. Threads set, read and use the limits at
 * once: every value read is one that was set (run under ThreadSanitizer
 * for the races).
 * Cheap: the limits are lowered for the "at the limit" cases.
 * The key_ops check's growth is asserted as a ratio of CPU times, not a
 * time: the same 32,000 entries as one list or as 32 lists of 1,000 cost
 * about the same when the check is linear, 32 times more as one list when
 * it is quadratic (as it was); at most 8 times passes. The least of three
 * runs each, so that neither the machine's speed nor its load decides it.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */

#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A refusal by a limit: the status, and a message naming the setting. */
static void expect_limit(webcrypto_status got, webcrypto_status want, const char *member,
                         const char *what) {
    if (got != want)
        fail_msg("%s: %s (%s), expected %s", what, webcrypto_status_name(got),
                 webcrypto_error_message(), webcrypto_status_name(want));
    const char *msg = webcrypto_error_message();
    if (!strstr(msg, "webcrypto_set_limits") || !strstr(msg, member))
        fail_msg("%s: the message does not name %s and webcrypto_set_limits: \"%s\"", what, member,
                 msg);
}

static void set_limits(webcrypto_limits l) { tu_assert_status(webcrypto_set_limits(&l), WEBCRYPTO_OK); }

static webcrypto_limits get_limits(void) {
    webcrypto_limits l = WEBCRYPTO_LIMITS_INIT;
    tu_assert_status(webcrypto_get_limits(&l), WEBCRYPTO_OK);
    return l;
}

/* Every test starts and ends with the defaults. */
static int reset(void **state) {
    (void)state;
    webcrypto_limits l = WEBCRYPTO_LIMITS_INIT;
    return webcrypto_set_limits(&l) == WEBCRYPTO_OK ? 0 : -1;
}

/* ---- the defaults and the settings ---- */

static void assert_defaults(webcrypto_limits l) {
    assert_int_equal(l.size, sizeof(webcrypto_limits));
    assert_int_equal(l.max_pbkdf2_iterations, 16777216u);
    assert_int_equal(l.max_argon2_memory, 262144u);
    assert_int_equal(l.max_argon2_passes, 16u);
    assert_int_equal(l.max_rsa_generate_bits, 4096u);
    assert_int_equal(l.max_rsa_import_bits, 16384u);
    assert_int_equal(l.max_jwk_bytes, 1048576u);
    assert_int_equal(l.max_jwk_key_ops, 64u);
    assert_int_equal(l.reserved, 0);
}

static void test_defaults(void **state) {
    (void)state;
    assert_defaults(get_limits());
}

static void test_round_trip(void **state) {
    (void)state;
    webcrypto_limits want = WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 100000,
                                             .max_argon2_memory = 8, .max_argon2_passes = 1,
                                             .max_rsa_generate_bits = 256,
                                             .max_rsa_import_bits = 256, .max_jwk_bytes = 1,
                                             .max_jwk_key_ops = 1);
    set_limits(want);
    webcrypto_limits got = get_limits();
    assert_memory_equal(&got, &want, sizeof got);
    /* The largest values: no limit but the type's (RSA: 16384 bits to
     * generate, 32768 to import). */
    want = (webcrypto_limits)WEBCRYPTO_LIMITS(
        .max_pbkdf2_iterations = UINT32_MAX, .max_argon2_memory = UINT32_MAX,
        .max_argon2_passes = UINT32_MAX, .max_rsa_generate_bits = 16384,
        .max_rsa_import_bits = 32768, .max_jwk_bytes = UINT32_MAX, .max_jwk_key_ops = UINT32_MAX);
    set_limits(want);
    got = get_limits();
    assert_memory_equal(&got, &want, sizeof got);
    /* 0 is the default, member by member. */
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_argon2_passes = 3));
    got = get_limits();
    assert_int_equal(got.max_argon2_passes, 3);
    got.max_argon2_passes = 16;
    assert_defaults(got);
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS_INIT);
    assert_defaults(get_limits());
}

/* A program built against an older header: its struct ends after
 * max_pbkdf2_iterations. It sets that one; the others keep their values.
 * get writes no further than its size. */
static void test_shorter_struct(void **state) {
    (void)state;
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_argon2_passes = 5, .max_jwk_key_ops = 9));
    size_t cut = offsetof(webcrypto_limits, max_pbkdf2_iterations) + sizeof(uint32_t);
    union {
        webcrypto_limits l;
        unsigned char bytes[sizeof(webcrypto_limits)];
    } old;
    memset(&old, 0, sizeof old);
    old.l.size = cut;
    old.l.max_pbkdf2_iterations = 777;
    old.l.max_argon2_passes = 99; /* past its size: not read */
    tu_assert_status(webcrypto_set_limits(&old.l), WEBCRYPTO_OK);
    webcrypto_limits got = get_limits();
    assert_int_equal(got.max_pbkdf2_iterations, 777);
    assert_int_equal(got.max_argon2_passes, 5);
    assert_int_equal(got.max_jwk_key_ops, 9);
    memset(&old, 0xAB, sizeof old);
    old.l.size = cut;
    tu_assert_status(webcrypto_get_limits(&old.l), WEBCRYPTO_OK);
    assert_int_equal(old.l.size, cut);
    assert_int_equal(old.l.max_pbkdf2_iterations, 777);
    for (size_t i = cut; i < sizeof old.bytes; i++)
        if (old.bytes[i] != 0xAB) fail_msg("get_limits wrote byte %zu past the size %zu", i, cut);
    /* A size ending inside a member: that member is not given (its bytes
     * are not read as a value, here one that would be invalid). */
    memset(&old, 0, sizeof old);
    old.l.size = offsetof(webcrypto_limits, max_argon2_memory) + 2;
    old.l.max_pbkdf2_iterations = 555;
    old.bytes[offsetof(webcrypto_limits, max_argon2_memory)] = 1;
    old.bytes[offsetof(webcrypto_limits, max_argon2_memory) + 1] = 1;
    tu_assert_status(webcrypto_set_limits(&old.l), WEBCRYPTO_OK);
    got = get_limits();
    assert_int_equal(got.max_pbkdf2_iterations, 555);
    assert_int_equal(got.max_argon2_memory, 262144);
}

/* A program built against a newer header: members this library lacks. */
typedef struct newer_limits {
    webcrypto_limits l;
    uint64_t future[2];
} newer_limits;

static void test_longer_struct(void **state) {
    (void)state;
    newer_limits n;
    memset(&n, 0, sizeof n);
    n.l.size = sizeof n;
    n.l.max_pbkdf2_iterations = 1234;
    tu_assert_status(webcrypto_set_limits(&n.l), WEBCRYPTO_OK); /* the newer members absent */
    assert_int_equal(get_limits().max_pbkdf2_iterations, 1234);
    n.future[1] = 1;
    n.l.max_pbkdf2_iterations = 99;
    tu_assert_status(webcrypto_set_limits(&n.l), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_int_equal(get_limits().max_pbkdf2_iterations, 1234); /* unchanged */
    memset(&n, 0xAB, sizeof n);
    n.l.size = sizeof n;
    tu_assert_status(webcrypto_get_limits(&n.l), WEBCRYPTO_OK);
    assert_int_equal(n.l.size, sizeof n);
    assert_int_equal(n.l.max_pbkdf2_iterations, 1234);
    assert_int_equal(n.future[0], 0); /* unknown to this library: 0 */
    assert_int_equal(n.future[1], 0);
}

static void test_invalid_settings(void **state) {
    (void)state;
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 4321));
    webcrypto_limits before = get_limits();
    tu_assert_status(webcrypto_set_limits(NULL), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    tu_assert_status(webcrypto_get_limits(NULL), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    webcrypto_limits l = {0}; /* no size */
    l.max_pbkdf2_iterations = 10;
    tu_assert_status(webcrypto_set_limits(&l), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    if (!strstr(webcrypto_error_message(), "WEBCRYPTO_LIMITS_INIT"))
        fail_msg("size 0: the message does not say how to initialise: %s",
                 webcrypto_error_message());
    tu_assert_status(webcrypto_get_limits(&l), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    const size_t bad_sizes[] = {sizeof(size_t), sizeof(size_t) + 3, 4097, (size_t)-1};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++) {
        l.size = bad_sizes[i];
        tu_assert_status(webcrypto_set_limits(&l), WEBCRYPTO_ERR_INVALID_ARGUMENT);
        tu_assert_status(webcrypto_get_limits(&l), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    }
    /* Values no request could meet, or the library could not honour; the
     * valid members given with them are not applied either. */
    const webcrypto_limits bad[] = {
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_argon2_memory = 7),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_argon2_memory = 1),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_generate_bits = 255),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_generate_bits = 1),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_generate_bits = 16385),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_generate_bits = UINT32_MAX),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_import_bits = 255),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_import_bits = 1),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_import_bits = 32769),
        WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .max_rsa_import_bits = UINT32_MAX),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        tu_assert_status(webcrypto_set_limits(&bad[i]), WEBCRYPTO_ERR_INVALID_ARGUMENT);
    /* reserved is a member this library does not know when set. */
    webcrypto_limits r = WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 5, .reserved = 1);
    tu_assert_status(webcrypto_set_limits(&r), WEBCRYPTO_ERR_NOT_SUPPORTED);
    webcrypto_limits after = get_limits();
    assert_memory_equal(&after, &before, sizeof after);
    /* The edges of those ranges are valid. */
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_argon2_memory = 8,
                                                  .max_rsa_generate_bits = 16384,
                                                  .max_rsa_import_bits = 32768));
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_rsa_generate_bits = 256,
                                                  .max_rsa_import_bits = 256));
}

/* ---- PBKDF2 ---- */

static webcrypto_key *pbkdf2_key(void) {
    static const uint8_t pw[8] = "password";
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2);
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, pw, sizeof pw, &p,
                                          false,
                                          WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY,
                                          &k),
                     WEBCRYPTO_OK);
    return k;
}

static webcrypto_status pbkdf2(const webcrypto_key *k, uint32_t iterations, uint8_t out[20]) {
    static const uint8_t salt[4] = "salt";
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = WEBCRYPTO_ALG_SHA_1,
                                          .salt = salt, .salt_len = sizeof salt,
                                          .iterations = iterations);
    size_t n = 0;
    return webcrypto_derive_bits(&p, k, 160, out, 20, &n);
}

static void test_pbkdf2(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_PBKDF2);
    webcrypto_key *k = pbkdf2_key();
    uint8_t out[20];
    /* The default: 2^24 (RFC 6070's largest count) is allowed, one more is
     * not; and 2^32 - 1 (an hour of work) is refused at once. */
    expect_limit(pbkdf2(k, 16777217u, out), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_pbkdf2_iterations",
                 "PBKDF2 2^24 + 1 iterations, default limit");
    expect_limit(pbkdf2(k, UINT32_MAX, out), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_pbkdf2_iterations",
                 "PBKDF2 2^32 - 1 iterations, default limit");
    /* Lowered: at the limit, RFC 6070's 4096-iteration answer; one more
     * refused; 0 is still the spec's OperationError. */
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 4096));
    tu_assert_status(pbkdf2(k, 4096, out), WEBCRYPTO_OK);
    tu_assert_hex(out, 20, "4b007901b765489abead49d926f721d065a429c1");
    expect_limit(pbkdf2(k, 4097, out), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_pbkdf2_iterations",
                 "PBKDF2 4097 iterations, limit 4096");
    tu_assert_status(pbkdf2(k, 0, out), WEBCRYPTO_ERR_OPERATION);
    /* The size query and deriveKey are refused the same way. */
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2, .hash = WEBCRYPTO_ALG_SHA_1,
                                          .iterations = 4097);
    size_t n = 0;
    expect_limit(webcrypto_derive_bits(&p, k, 160, NULL, 0, &n), WEBCRYPTO_ERR_NOT_SUPPORTED,
                 "max_pbkdf2_iterations", "PBKDF2 size query over the limit");
    webcrypto_params aes = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 128);
    webcrypto_key *dk = NULL;
    if (webcrypto_backend_supports(tu_backend(), WEBCRYPTO_ALG_AES_GCM)) {
        expect_limit(webcrypto_derive_key(&p, k, &aes, false, WEBCRYPTO_USAGE_ENCRYPT, &dk),
                     WEBCRYPTO_ERR_NOT_SUPPORTED, "max_pbkdf2_iterations",
                     "PBKDF2 deriveKey over the limit");
        assert_null(dk);
        p.iterations = 4096;
        tu_assert_status(webcrypto_derive_key(&p, k, &aes, false, WEBCRYPTO_USAGE_ENCRYPT, &dk),
                         WEBCRYPTO_OK);
        webcrypto_key_free(dk);
    }
    webcrypto_key_free(k);
}

/* ---- Argon2 ---- */

static webcrypto_status argon2(const webcrypto_key *k, uint32_t memory, uint32_t passes) {
    static const uint8_t nonce[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ARGON2ID, .nonce = nonce,
                                          .nonce_len = sizeof nonce, .parallelism = 1,
                                          .memory = memory, .passes = passes);
    uint8_t out[32];
    size_t n = 0;
    return webcrypto_derive_bits(&p, k, 256, out, sizeof out, &n);
}

static void test_argon2(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ARGON2ID);
    static const uint8_t pw[8] = "password";
    webcrypto_params ip = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ARGON2ID);
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW_SECRET, pw, sizeof pw,
                                          &ip, false, WEBCRYPTO_USAGE_DERIVE_BITS, &k),
                     WEBCRYPTO_OK);
    /* The defaults: 256 MiB and 16 passes; one more of either is refused
     * before anything is allocated (the largest, 4 TiB, at once). */
    expect_limit(argon2(k, 262145, 1), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_argon2_memory",
                 "Argon2 256 MiB + 1 KiB, default limit");
    expect_limit(argon2(k, UINT32_MAX, 1), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_argon2_memory",
                 "Argon2 4 TiB, default limit");
    expect_limit(argon2(k, 8, 17), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_argon2_passes",
                 "Argon2 17 passes, default limit");
    expect_limit(argon2(k, 8, UINT32_MAX), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_argon2_passes",
                 "Argon2 2^32 - 1 passes, default limit");
    /* Lowered: at the limits, fine; one more of either refused. */
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_argon2_memory = 64, .max_argon2_passes = 2));
    tu_assert_status(argon2(k, 64, 2), WEBCRYPTO_OK);
    expect_limit(argon2(k, 65, 2), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_argon2_memory",
                 "Argon2 65 KiB, limit 64");
    expect_limit(argon2(k, 64, 3), WEBCRYPTO_ERR_NOT_SUPPORTED, "max_argon2_passes",
                 "Argon2 3 passes, limit 2");
    /* The draft's own checks come first: memory under 8 * parallelism and
     * 0 passes stay OperationError. */
    tu_assert_status(argon2(k, 7, 3), WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(argon2(k, 65, 0), WEBCRYPTO_ERR_OPERATION);
    webcrypto_key_free(k);
}

/* ---- RSA ---- */

/* Unpadded base64url of in[0..n) into a malloc'd string. */
static char *b64url(const uint8_t *in, size_t n) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char *out = malloc(n / 3 * 4 + 5);
    assert_non_null(out);
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = a[v >> 18];
        out[o++] = a[v >> 12 & 63];
        out[o++] = a[v >> 6 & 63];
        out[o++] = a[v & 63];
    }
    if (n - i) {
        uint32_t v = (uint32_t)in[i] << 16 | (n - i == 2 ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = a[v >> 18];
        out[o++] = a[v >> 12 & 63];
        if (n - i == 2) out[o++] = a[v >> 6 & 63];
    }
    out[o] = 0;
    return out;
}

static const unsigned SIGN_VERIFY = WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY;

static webcrypto_status rsa_generate(size_t bits, webcrypto_key **pub, webcrypto_key **priv) {
    static const uint8_t e[3] = {1, 0, 1};
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
                                          .hash = WEBCRYPTO_ALG_SHA_256, .modulus_length = bits,
                                          .public_exponent = e, .public_exponent_len = 3);
    return webcrypto_generate_key_pair(tu_backend(), &p, true, SIGN_VERIFY, pub, priv);
}

static webcrypto_status rsa_import(webcrypto_key_format f, const uint8_t *data, size_t len,
                                   unsigned usages) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
                                          .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *k = NULL;
    webcrypto_status st =
        webcrypto_import_key(tu_backend(), f, data, len, &p, true, usages, &k);
    webcrypto_key_free(k);
    return st;
}

static void test_rsa(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    webcrypto_key *pub = NULL, *priv = NULL, *p2 = NULL, *s2 = NULL;
    /* generateKey's default, 4096 bits: one step (8 bits) more is refused
     * at once, with generation's OperationError. */
    expect_limit(rsa_generate(4104, &p2, &s2), WEBCRYPTO_ERR_OPERATION, "max_rsa_generate_bits",
                 "generate 4104 bits, default limit");
    assert_null(p2);
    assert_null(s2);
    /* Lowered: at the limit fine, one step above refused. */
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_rsa_generate_bits = 1024));
    tu_assert_status(rsa_generate(1024, &pub, &priv), WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_modulus_length(pub), 1024);
    expect_limit(rsa_generate(1032, &p2, &s2), WEBCRYPTO_ERR_OPERATION, "max_rsa_generate_bits",
                 "generate 1032 bits, limit 1024");
    assert_null(p2);
    assert_null(s2);
    /* importKey, every format: the 1024-bit key at the import limit, and
     * refused (DataError) once that limit is one step lower; the
     * generation limit has no say in it. */
    struct {
        webcrypto_key_format f;
        const webcrypto_key *k;
        unsigned usages;
    } forms[] = {{WEBCRYPTO_FORMAT_SPKI, pub, WEBCRYPTO_USAGE_VERIFY},
                 {WEBCRYPTO_FORMAT_PKCS8, priv, WEBCRYPTO_USAGE_SIGN},
                 {WEBCRYPTO_FORMAT_JWK, pub, WEBCRYPTO_USAGE_VERIFY},
                 {WEBCRYPTO_FORMAT_JWK, priv, WEBCRYPTO_USAGE_SIGN}};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        uint8_t *data = NULL;
        size_t len = 0;
        tu_assert_status(webcrypto_export_key(forms[i].f, forms[i].k, &data, &len), WEBCRYPTO_OK);
        set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_rsa_generate_bits = 256,
                                                      .max_rsa_import_bits = 1024));
        tu_assert_status(rsa_import(forms[i].f, data, len, forms[i].usages), WEBCRYPTO_OK);
        set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_rsa_import_bits = 1016));
        expect_limit(rsa_import(forms[i].f, data, len, forms[i].usages), WEBCRYPTO_ERR_DATA,
                     "max_rsa_import_bits", "import a 1024-bit key, limit 1016");
        webcrypto_buffer_free(data, len);
    }
    /* A key the process holds keeps working whatever the limits. */
    webcrypto_key *again = NULL;
    tu_assert_status(webcrypto_get_public_key(priv, WEBCRYPTO_USAGE_VERIFY, &again), WEBCRYPTO_OK);
    webcrypto_key_free(again);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);

    /* importKey's default, 16384 bits: a 16392-bit public key (n =
     * 2^16391 + 1, as a JWK) is refused before the backend sees it;
     * generation over 16384 is OperationError whatever the limit. */
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS_INIT);
    uint8_t n[2049];
    memset(n, 0, sizeof n);
    n[0] = 0x80;
    n[sizeof n - 1] = 1;
    char *nb = b64url(n, sizeof n);
    size_t cap = strlen(nb) + 64;
    char *jwk = malloc(cap);
    assert_non_null(jwk);
    int len = snprintf(jwk, cap, "{\"kty\":\"RSA\",\"n\":\"%s\",\"e\":\"AQAB\"}", nb);
    expect_limit(rsa_import(WEBCRYPTO_FORMAT_JWK, (const uint8_t *)jwk, (size_t)len,
                            WEBCRYPTO_USAGE_VERIFY),
                 WEBCRYPTO_ERR_DATA, "max_rsa_import_bits", "import 16392 bits, default limit");
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_rsa_generate_bits = 16384));
    tu_assert_status(rsa_generate(16392, &p2, &s2), WEBCRYPTO_ERR_OPERATION);
    free(jwk);
    free(nb);
}

/* ---- JWK text and key_ops ---- */

static webcrypto_status hmac_jwk(const char *json, size_t len, unsigned usages) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                               (const uint8_t *)json, len, &p, false, usages, &k);
    webcrypto_key_free(k);
    return st;
}

#define HMAC_JWK "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\"}"

/* A valid HMAC JWK of exactly `size` bytes (spaces after the object). */
static char *jwk_of_size(size_t size) {
    char *s = malloc(size + 1);
    assert_non_null(s);
    size_t n = strlen(HMAC_JWK);
    assert_true(size >= n);
    memcpy(s, HMAC_JWK, n);
    memset(s + n, ' ', size - n);
    s[size] = 0;
    return s;
}

static void test_jwk_bytes(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HMAC);
    /* The default, 1 MiB: at it fine, one byte more refused. */
    char *s = jwk_of_size(1048577);
    tu_assert_status(hmac_jwk(s, 1048576, WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
    expect_limit(hmac_jwk(s, 1048577, WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_ERR_DATA, "max_jwk_bytes",
                 "JWK of 1 MiB + 1, default limit");
    free(s);
    /* Lowered to the bare JWK's size. */
    size_t n = strlen(HMAC_JWK);
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_bytes = (uint32_t)n));
    s = jwk_of_size(n + 1);
    tu_assert_status(hmac_jwk(s, n, WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
    expect_limit(hmac_jwk(s, n + 1, WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_ERR_DATA, "max_jwk_bytes",
                 "JWK one byte over a lowered limit");
    free(s);
}

/* The key-pair JWK path (jwk.c's other parser) has the same limit. */
static void test_jwk_bytes_pkey(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ECDSA);
    webcrypto_params gp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA,
                                           .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *pub = NULL, *priv = NULL;
    tu_assert_status(webcrypto_generate_key_pair(tu_backend(), &gp, false, SIGN_VERIFY, &pub, &priv),
                     WEBCRYPTO_OK);
    uint8_t *data = NULL;
    size_t len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, pub, &data, &len), WEBCRYPTO_OK);
    webcrypto_key *k = NULL;
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_bytes = (uint32_t)len));
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, data, len, &gp, true,
                                          WEBCRYPTO_USAGE_VERIFY, &k),
                     WEBCRYPTO_OK);
    webcrypto_key_free(k);
    k = NULL;
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_bytes = (uint32_t)(len - 1)));
    expect_limit(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, data, len, &gp, true,
                                      WEBCRYPTO_USAGE_VERIFY, &k),
                 WEBCRYPTO_ERR_DATA, "max_jwk_bytes", "EC JWK one byte over the limit");
    assert_null(k);
    webcrypto_buffer_free(data, len);
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* An HMAC JWK whose key_ops is "sign" then `count - 1` other values
 * ("o0", "o1", ...), the value at index `dup_at` (if not SIZE_MAX)
 * replaced by `dup` (a JSON string's text, with its quotes). */
static char *jwk_with_ops(size_t count, size_t dup_at, const char *dup) {
    size_t cap = 64 + count * 16 + strlen(HMAC_JWK) + (dup ? strlen(dup) : 0);
    char *s = malloc(cap);
    assert_non_null(s);
    size_t o = (size_t)snprintf(s, cap, "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\","
                                        "\"key_ops\":[\"sign\"");
    for (size_t i = 1; i < count; i++) {
        if (i == dup_at)
            o += (size_t)snprintf(s + o, cap - o, ",%s", dup);
        else
            o += (size_t)snprintf(s + o, cap - o, ",\"o%zu\"", i);
    }
    snprintf(s + o, cap - o, "]}");
    return s;
}

static void test_key_ops_limit(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HMAC);
    char *s = jwk_with_ops(64, SIZE_MAX, NULL);
    tu_assert_status(hmac_jwk(s, strlen(s), WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
    free(s);
    s = jwk_with_ops(65, SIZE_MAX, NULL);
    expect_limit(hmac_jwk(s, strlen(s), WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_ERR_DATA,
                 "max_jwk_key_ops", "key_ops of 65 entries, default limit");
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_key_ops = 65));
    tu_assert_status(hmac_jwk(s, strlen(s), WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
    free(s);
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_key_ops = 1));
    const char *one = "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\",\"key_ops\":[\"sign\"]}";
    const char *two =
        "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\",\"key_ops\":[\"sign\",\"verify\"]}";
    tu_assert_status(hmac_jwk(one, strlen(one), WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
    expect_limit(hmac_jwk(two, strlen(two), WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_ERR_DATA,
                 "max_jwk_key_ops", "key_ops of 2 entries, limit 1");
}

/* key_ops values are case-sensitive strings, none twice (RFC 7517 4.3),
 * whether a usage or another value; a usage only counts if it is exactly
 * its name. (jansson refuses \u0000 in a string: such a JWK is not JSON.) */
static void test_key_ops_values(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HMAC);
#define OPS(list) "{\"kty\":\"oct\",\"k\":\"AAECAwQFBgcICQoLDA0ODw\",\"key_ops\":[" list "]}"
    static const struct {
        const char *json;
        webcrypto_status want;
    } cases[] = {
        {OPS("\"Sign\""), WEBCRYPTO_ERR_DATA}, /* not sign: sign not allowed */
        {OPS("\"sign \""), WEBCRYPTO_ERR_DATA},
        {OPS("\"sig\""), WEBCRYPTO_ERR_DATA},
        {OPS("\"Sign\",\"sign\""), WEBCRYPTO_OK}, /* two values, one of them sign */
        {OPS("\"sign\",\"sig\",\"signs\",\"Sign\""), WEBCRYPTO_OK},
        {OPS("\"sign\",\"x\",\"xy\",\"y\",\"\""), WEBCRYPTO_OK},
        {OPS("\"sign\",\"\",\"\""), WEBCRYPTO_ERR_DATA},
        {OPS("\"sign\",\"verify\",\"sign\""), WEBCRYPTO_ERR_DATA},
        {OPS("\"sign\",\"o\",\"p\",\"o\""), WEBCRYPTO_ERR_DATA},
        {OPS("\"sign\",\"Sign\",\"Sign\""), WEBCRYPTO_ERR_DATA},
        {OPS("\"sign\",\"decapsulateBits\",\"decapsulateBits\""), WEBCRYPTO_ERR_DATA},
        {OPS("\"sign\",1"), WEBCRYPTO_ERR_DATA},
        {OPS("\"sign\\u0000x\""), WEBCRYPTO_ERR_DATA}, /* not JSON for jansson */
    };
#undef OPS
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        webcrypto_status st = hmac_jwk(cases[i].json, strlen(cases[i].json), WEBCRYPTO_USAGE_SIGN);
        if (st != cases[i].want)
            fail_msg("%s: %s (%s), expected %s", cases[i].json, webcrypto_status_name(st),
                     webcrypto_error_message(), webcrypto_status_name(cases[i].want));
    }
}

static double seconds(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC); /* C11; a rough figure is all that is printed */
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* 20,000 entries: distinct values accepted; a duplicate found wherever it
 * is, a known usage (the bitset) or another value (the sort), including
 * the first and last entries. The time of the accepted list is printed for
 * the record (the check was quadratic: 3 s through the Node binding). */
static void test_key_ops_many(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HMAC);
    const size_t count = 20000;
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_key_ops = (uint32_t)count));
    char *s = jwk_with_ops(count, SIZE_MAX, NULL);
    double t0 = seconds();
    tu_assert_status(hmac_jwk(s, strlen(s), WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
    double t = seconds() - t0;
    print_message("key_ops of %zu distinct entries: importKey took %.3f s (%s)\n", count, t,
                  webcrypto_backend_name(tu_backend()));
    free(s);
    static const struct {
        size_t at;
        const char *value;
    } dups[] = {
        {19999, "\"sign\""},   /* a usage, first and last */
        {1, "\"sign\""},       /* adjacent */
        {19999, "\"o1\""},     /* another value, second and last */
        {2, "\"o19999\""},     /* ... and the other way round (o19999 is last) */
        {10000, "\"o9999\""},  /* in the middle */
    };
    for (size_t i = 0; i < sizeof dups / sizeof *dups; i++) {
        s = jwk_with_ops(count, dups[i].at, dups[i].value);
        webcrypto_status st = hmac_jwk(s, strlen(s), WEBCRYPTO_USAGE_SIGN);
        if (st != WEBCRYPTO_ERR_DATA || !strstr(webcrypto_error_message(), "twice"))
            fail_msg("%s at %zu of %zu: %s (%s), expected DataError (\"twice\")", dups[i].value,
                     dups[i].at, count, webcrypto_status_name(st), webcrypto_error_message());
        free(s);
    }
}

/* CPU time of the calling thread, in seconds. */
static double cpu_seconds(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) fail_msg("clock_gettime failed");
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The least CPU time, of three runs, of `times` imports of an HMAC JWK
 * whose key_ops has `count` distinct entries. */
static double key_ops_cost(size_t count, int times) {
    char *s = jwk_with_ops(count, SIZE_MAX, NULL);
    size_t len = strlen(s);
    double best = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = cpu_seconds();
        for (int i = 0; i < times; i++)
            tu_assert_status(hmac_jwk(s, len, WEBCRYPTO_USAGE_SIGN), WEBCRYPTO_OK);
        double t = cpu_seconds() - t0;
        if (r == 0 || t < best) best = t;
    }
    free(s);
    return best;
}

/* The check grows (about) linearly: one list of 32,000 entries costs at
 * most 8 times what 32 lists of 1,000 cost (the same entries in all).
 * Linear gives about 1 (n log n and a larger working set: up to 3); the
 * former quadratic check 32. */
static void test_key_ops_growth(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_HMAC);
    set_limits((webcrypto_limits)WEBCRYPTO_LIMITS(.max_jwk_key_ops = 32000));
    double small = key_ops_cost(1000, 32), large = key_ops_cost(32000, 1);
    print_message("key_ops CPU time: 32 lists of 1,000 entries %.4f s, one of 32,000 %.4f s "
                  "(x%.2f)\n",
                  small, large, small > 0 ? large / small : 0.0);
    if (large > 8 * small)
        fail_msg("key_ops: one list of 32,000 entries cost %.1f times 32 lists of 1,000 (at most "
                 "8 expected: the check is not linear)",
                 large / small);
}

/* ---- threads ---- */

/* Two complete settings that threads set in turn while others read the
 * limits and derive: every value read is one of the two (each member is
 * set whole), and a PBKDF2 of 1500 iterations is either done or refused by
 * the limit of 1000, nothing else. Under ThreadSanitizer this is where a
 * data race would show. */
static const webcrypto_limits SET_A = WEBCRYPTO_LIMITS(
    .max_pbkdf2_iterations = 1000, .max_argon2_memory = 64, .max_argon2_passes = 2,
    .max_rsa_generate_bits = 1024, .max_rsa_import_bits = 2048, .max_jwk_bytes = 4096,
    .max_jwk_key_ops = 8);
static const webcrypto_limits SET_B = WEBCRYPTO_LIMITS(
    .max_pbkdf2_iterations = 2000, .max_argon2_memory = 128, .max_argon2_passes = 3,
    .max_rsa_generate_bits = 2048, .max_rsa_import_bits = 4096, .max_jwk_bytes = 8192,
    .max_jwk_key_ops = 16);

static atomic_int thread_errors;

static void *setter(void *arg) {
    (void)arg;
    for (int i = 0; i < 2000; i++)
        if (webcrypto_set_limits(i % 2 ? &SET_A : &SET_B) != WEBCRYPTO_OK)
            atomic_fetch_add(&thread_errors, 1);
    return NULL;
}

#define ONE_OF(l, m) ((l).m == SET_A.m || (l).m == SET_B.m)

static void *getter(void *arg) {
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        webcrypto_limits l = WEBCRYPTO_LIMITS_INIT;
        if (webcrypto_get_limits(&l) != WEBCRYPTO_OK || !ONE_OF(l, max_pbkdf2_iterations) ||
            !ONE_OF(l, max_argon2_memory) || !ONE_OF(l, max_argon2_passes) ||
            !ONE_OF(l, max_rsa_generate_bits) || !ONE_OF(l, max_rsa_import_bits) ||
            !ONE_OF(l, max_jwk_bytes) || !ONE_OF(l, max_jwk_key_ops) || l.reserved != 0)
            atomic_fetch_add(&thread_errors, 1);
    }
    return NULL;
}

static void *deriver(void *arg) {
    const webcrypto_key *k = arg;
    for (int i = 0; i < 200; i++) {
        uint8_t out[20];
        webcrypto_status st = pbkdf2(k, 1500, out);
        if (st != WEBCRYPTO_OK && st != WEBCRYPTO_ERR_NOT_SUPPORTED)
            atomic_fetch_add(&thread_errors, 1);
    }
    return NULL;
}

static void test_threads(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_PBKDF2);
    webcrypto_key *k = pbkdf2_key();
    set_limits(SET_A);
    pthread_t t[5];
    void *(*fn[5])(void *) = {setter, setter, getter, getter, deriver};
    for (int i = 0; i < 5; i++) assert_int_equal(pthread_create(&t[i], NULL, fn[i], k), 0);
    for (int i = 0; i < 5; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(atomic_load(&thread_errors), 0);
    webcrypto_key_free(k);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_defaults, reset, reset),
        cmocka_unit_test_setup_teardown(test_round_trip, reset, reset),
        cmocka_unit_test_setup_teardown(test_shorter_struct, reset, reset),
        cmocka_unit_test_setup_teardown(test_longer_struct, reset, reset),
        cmocka_unit_test_setup_teardown(test_invalid_settings, reset, reset),
        cmocka_unit_test_setup_teardown(test_pbkdf2, reset, reset),
        cmocka_unit_test_setup_teardown(test_argon2, reset, reset),
        cmocka_unit_test_setup_teardown(test_rsa, reset, reset),
        cmocka_unit_test_setup_teardown(test_jwk_bytes, reset, reset),
        cmocka_unit_test_setup_teardown(test_jwk_bytes_pkey, reset, reset),
        cmocka_unit_test_setup_teardown(test_key_ops_limit, reset, reset),
        cmocka_unit_test_setup_teardown(test_key_ops_values, reset, reset),
        cmocka_unit_test_setup_teardown(test_key_ops_many, reset, reset),
        cmocka_unit_test_setup_teardown(test_key_ops_growth, reset, reset),
        cmocka_unit_test_setup_teardown(test_threads, reset, reset),
    };
    return tu_run_group("limits", tests, NULL, NULL);
}
