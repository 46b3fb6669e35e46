/*
 * Known-answer tests from the standards, through the public API only
 * (keys are imported raw, then used with encrypt/sign/deriveBits).
 *
 * Every expected value was typed in from the cited document and checked
 * independently with the openssl command-line tool (dgst, mac, kdf, enc);
 * the AES-GCM vectors with Node's crypto module, since `openssl enc` does not
 * do AEAD modes. The few values that are not in a standard (the PKCS#7 padding
 * block after the SP 800-38A CBC ciphertexts, single CTR blocks under wrapped
 * counters) come from `openssl enc` and say so.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X5(s) s s s s s
#define X10(s) X5(s) X5(s)
#define X50(s) X10(X5(s))

/* ---------------------------------------------------------------- helpers */

static webcrypto_params params_of(webcrypto_algorithm name) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = name;
    return p;
}

static webcrypto_key *import_raw(webcrypto_algorithm alg, webcrypto_algorithm hash,
                                 const uint8_t *k, size_t klen, unsigned usages) {
    webcrypto_params p = params_of(alg);
    p.hash = hash;
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), tu_secret_raw(alg), k, klen, &p, false,
                                          usages, &key),
                     WEBCRYPTO_OK);
    assert_non_null(key);
    return key;
}

static webcrypto_key *import_raw_hex(webcrypto_algorithm alg, webcrypto_algorithm hash,
                                     const char *hex, unsigned usages) {
    size_t n;
    uint8_t *k = tu_unhex(hex, &n);
    webcrypto_key *key = import_raw(alg, hash, k, n, usages);
    free(k);
    return key;
}

static webcrypto_key *import_aes(webcrypto_algorithm alg, const char *hex) {
    return import_raw_hex(alg, WEBCRYPTO_ALG_NONE, hex,
                          WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
}

/* Encrypts data and checks the output against the hex string. */
static void check_encrypt(const webcrypto_params *p, const webcrypto_key *key,
                          const uint8_t *data, size_t n, const char *expected_hex) {
    uint8_t *out = malloc(n + 32);
    assert_non_null(out);
    size_t olen = 0;
    tu_assert_status(webcrypto_encrypt(p, key, data, n, out, n + 32, &olen), WEBCRYPTO_OK);
    tu_assert_hex(out, olen, expected_hex);
    free(out);
}

static void check_decrypt(const webcrypto_params *p, const webcrypto_key *key,
                          const char *ct_hex, const uint8_t *expected, size_t expected_len) {
    size_t n;
    uint8_t *ct = tu_unhex(ct_hex, &n);
    uint8_t *out = malloc(n + 1);
    assert_non_null(out);
    size_t olen = 0;
    tu_assert_status(webcrypto_decrypt(p, key, ct, n, out, n + 1, &olen), WEBCRYPTO_OK);
    assert_int_equal(olen, expected_len);
    if (expected_len) assert_memory_equal(out, expected, expected_len);
    free(out);
    free(ct);
}

/* ------------------------------------------------------------ FIPS 180-4 */

#define MSG448 "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define MSG896                                                                             \
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr" \
    "lmnopqrsmnopqrstnopqrstu"

typedef struct {
    webcrypto_algorithm alg;
    const char *msg;
    const char *digest;
} digest_kat;

static const digest_kat digest_kats[] = {
    {WEBCRYPTO_ALG_SHA_1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
    {WEBCRYPTO_ALG_SHA_1, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
    {WEBCRYPTO_ALG_SHA_1, MSG448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
    {WEBCRYPTO_ALG_SHA_256, "abc",
     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {WEBCRYPTO_ALG_SHA_256, "",
     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {WEBCRYPTO_ALG_SHA_256, MSG448,
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {WEBCRYPTO_ALG_SHA_384, "abc",
     "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
     "8086072ba1e7cc2358baeca134c825a7"},
    {WEBCRYPTO_ALG_SHA_384, "",
     "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da"
     "274edebfe76f65fbd51ad2f14898b95b"},
    {WEBCRYPTO_ALG_SHA_384, MSG448,
     "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6"
     "b0455a8520bc4e6f5fe95b1fe3c8452b"},
    {WEBCRYPTO_ALG_SHA_384, MSG896,
     "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
     "fcc7c71a557e2db966c3e9fa91746039"},
    {WEBCRYPTO_ALG_SHA_512, "abc",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
    {WEBCRYPTO_ALG_SHA_512, "",
     "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
     "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
    {WEBCRYPTO_ALG_SHA_512, MSG448,
     "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
     "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"},
    {WEBCRYPTO_ALG_SHA_512, MSG896,
     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"},
};

static void test_digest_kat(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof digest_kats / sizeof *digest_kats; i++) {
        const digest_kat *v = &digest_kats[i];
        uint8_t out[64];
        size_t olen = 0;
        size_t n = strlen(v->msg);
        tu_assert_status(webcrypto_digest(tu_backend(), v->alg, (const uint8_t *)v->msg, n, out,
                                          sizeof out, &olen),
                         WEBCRYPTO_OK);
        assert_int_equal(olen, webcrypto_digest_size(v->alg));
        tu_assert_hex(out, olen, v->digest);
        if (n == 0) {
            /* An empty buffer may also be (NULL, 0). */
            olen = 0;
            tu_assert_status(
                webcrypto_digest(tu_backend(), v->alg, NULL, 0, out, sizeof out, &olen),
                WEBCRYPTO_OK);
            tu_assert_hex(out, olen, v->digest);
        }
    }
}

/* ---------------------------------------- FIPS 202, SP 800-185 (SHA-3) */

/* FIPS 202 (the NIST example values for SHA-3 and SHAKE): SHA3-256/384/512
 * of "", "abc" and the 448-bit message; SHAKE128 and SHAKE256 of "" (as
 * cSHAKE with an empty function name and customization). Checked also with
 * `openssl dgst -sha3-256` and `-shake128 -xoflen`. */
static const digest_kat sha3_kats[] = {
    {WEBCRYPTO_ALG_SHA3_256, "",
     "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"},
    {WEBCRYPTO_ALG_SHA3_256, "abc",
     "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
    {WEBCRYPTO_ALG_SHA3_256, MSG448,
     "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376"},
    {WEBCRYPTO_ALG_SHA3_384, "",
     "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2a"
     "c3713831264adb47fb6bd1e058d5f004"},
    {WEBCRYPTO_ALG_SHA3_384, "abc",
     "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
     "98d88cea927ac7f539f1edf228376d25"},
    {WEBCRYPTO_ALG_SHA3_384, MSG448,
     "991c665755eb3a4b6bbdfb75c78a492e8c56a22c5c4d7e429bfdbc32b9d4ad5a"
     "a04a1f076e62fea19eef51acd0657c22"},
    {WEBCRYPTO_ALG_SHA3_512, "",
     "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
     "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"},
    {WEBCRYPTO_ALG_SHA3_512, "abc",
     "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
     "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
    {WEBCRYPTO_ALG_SHA3_512, MSG448,
     "04a371e84ecfb5b8b77cb48610fca8182dd457ce6f326a0fd3d7ec2f1e91636d"
     "ee691fbe0c985302ba1b0d8dc78c086346b533b49c030d99a27daf1139d6e75e"},
};

static void test_sha3_kat(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_SHA3_256, WEBCRYPTO_ALG_SHA3_384, WEBCRYPTO_ALG_SHA3_512);
    for (size_t i = 0; i < sizeof sha3_kats / sizeof *sha3_kats; i++) {
        const digest_kat *v = &sha3_kats[i];
        uint8_t out[64];
        size_t olen = 0, n = strlen(v->msg);
        tu_assert_status(webcrypto_digest(tu_backend(), v->alg, (const uint8_t *)v->msg, n, out,
                                          sizeof out, &olen),
                         WEBCRYPTO_OK);
        assert_int_equal(olen, webcrypto_digest_size(v->alg));
        tu_assert_hex(out, olen, v->digest);
        /* the same through webcrypto_digest_params and the streaming API,
         * one byte at a time */
        webcrypto_params p = params_of(v->alg);
        olen = 0;
        tu_assert_status(webcrypto_digest_params(tu_backend(), &p, (const uint8_t *)v->msg, n,
                                                 out, sizeof out, &olen),
                         WEBCRYPTO_OK);
        tu_assert_hex(out, olen, v->digest);
        webcrypto_digest_ctx *ctx = NULL;
        tu_assert_status(webcrypto_digest_init(tu_backend(), v->alg, &ctx), WEBCRYPTO_OK);
        for (size_t k = 0; k < n; k++)
            tu_assert_status(webcrypto_digest_update(ctx, (const uint8_t *)v->msg + k, 1),
                             WEBCRYPTO_OK);
        tu_assert_status(webcrypto_digest_final(ctx, out, sizeof out, &olen), WEBCRYPTO_OK);
        webcrypto_digest_ctx_free(ctx);
        tu_assert_hex(out, olen, v->digest);
    }
}

/* SHAKE128("") and SHAKE256("") (FIPS 202 examples), as cSHAKE with N and S
 * empty; an XOF's shorter output is a prefix of its longer one. */
static void test_shake_kat(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_CSHAKE128, WEBCRYPTO_ALG_CSHAKE256);
    static const struct {
        webcrypto_algorithm alg;
        const char *out512;
    } v[] = {
        {WEBCRYPTO_ALG_CSHAKE128,
         "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
         "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e2"},
        {WEBCRYPTO_ALG_CSHAKE256,
         "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
         "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"},
    };
    /* 1, 22, 32, 43, 64 bytes; a backend whose SHAKE has one length (256
     * bits for cSHAKE128, 512 for cSHAKE256: a JCA provider's) refuses the
     * others (NotSupportedError), and supports() says which */
    static const size_t lengths[] = {8, 176, 256, 344, 512};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        size_t n = 0;
        uint8_t *want = tu_unhex(v[i].out512, &n);
        for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
            size_t bits = lengths[l];
            webcrypto_params p = params_of(v[i].alg);
            p.output_length = bits;
            uint8_t out[64];
            size_t olen = 0;
            bool fixed = bits == (v[i].alg == WEBCRYPTO_ALG_CSHAKE128 ? 256 : 512);
            if (!webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL)) {
                assert_false(fixed); /* every backend with it takes its usual length */
                tu_assert_status(
                    webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &olen),
                    WEBCRYPTO_ERR_NOT_SUPPORTED);
                printf("%s at %zu bits: not applicable on %s: %s\n",
                       webcrypto_algorithm_name(v[i].alg), bits,
                       webcrypto_backend_name(tu_backend()), webcrypto_error_message());
                continue;
            }
            /* a query first: the size, nothing computed */
            tu_assert_status(webcrypto_digest_params(tu_backend(), &p, NULL, 0, NULL, 0, &olen),
                             WEBCRYPTO_OK);
            assert_int_equal(olen, bits / 8);
            tu_assert_status(
                webcrypto_digest_params(tu_backend(), &p, NULL, 0, out, sizeof out, &olen),
                WEBCRYPTO_OK);
            assert_int_equal(olen, bits / 8);
            assert_memory_equal(out, want, olen);
        }
        free(want);
    }
}

/* SP 800-185's cSHAKE samples (N = "", S = "Email Signature", L = 256) need
 * cSHAKE with a customization: the openssl backend has it (on the Keccak
 * OpenSSL's KMAC uses), the others answer NotSupportedError (BoringSSL and
 * the JCA have only SHAKE); a backend that has it must give the sample's
 * value. */
static void test_cshake_custom(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_CSHAKE128);
    static const uint8_t data[4] = {0, 1, 2, 3};
    static const char s[] = "Email Signature";
    webcrypto_params p = params_of(WEBCRYPTO_ALG_CSHAKE128);
    p.output_length = 256;
    p.customization = (const uint8_t *)s;
    p.customization_len = strlen(s);
    uint8_t out[32];
    size_t olen = 0;
    webcrypto_status st =
        webcrypto_digest_params(tu_backend(), &p, data, sizeof data, out, sizeof out, &olen);
    assert_int_equal(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL),
                     st == WEBCRYPTO_OK);
    if (st == WEBCRYPTO_ERR_NOT_SUPPORTED) {
        printf("cSHAKE128 with a customization: NotSupportedError on %s (%s)\n",
               webcrypto_backend_name(tu_backend()), webcrypto_error_message());
        return;
    }
    tu_assert_status(st, WEBCRYPTO_OK);
    tu_assert_hex(out, olen, "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5");
}

/* cSHAKE with a function name N, which SP 800-185 gives no sample of: by
 * its definition of KMAC (section 4.3), KMAC128(K, X, 256, S) =
 * cSHAKE128(bytepad(encode_string(K), 168) || X || right_encode(256), 256,
 * "KMAC", S), so KMAC sample 2 (K = 40..5f, X = 00..03, S = "My Tagged
 * Application") is a cSHAKE128 answer with N = "KMAC". */
static void test_cshake_function_name(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_CSHAKE128);
    uint8_t in[168 + 4 + 3];
    in[0] = 0x01, in[1] = 0xa8;          /* left_encode(168) */
    in[2] = 0x02, in[3] = 0x01, in[4] = 0x00; /* left_encode(256): K's length in bits */
    for (int i = 0; i < 32; i++) in[5 + i] = (uint8_t)(0x40 + i);
    memset(in + 37, 0, 168 - 37);
    for (int i = 0; i < 4; i++) in[168 + i] = (uint8_t)i;
    in[172] = 0x01, in[173] = 0x00, in[174] = 0x02; /* right_encode(256) */
    static const char tag[] = "My Tagged Application";
    webcrypto_params p = params_of(WEBCRYPTO_ALG_CSHAKE128);
    p.output_length = 256;
    p.function_name = (const uint8_t *)"KMAC";
    p.function_name_len = 4;
    p.customization = (const uint8_t *)tag;
    p.customization_len = strlen(tag);
    uint8_t out[32];
    size_t olen = 0;
    webcrypto_status st =
        webcrypto_digest_params(tu_backend(), &p, in, sizeof in, out, sizeof out, &olen);
    assert_int_equal(webcrypto_supports(tu_backend(), WEBCRYPTO_OP_DIGEST, &p, 0, NULL),
                     st == WEBCRYPTO_OK);
    if (st == WEBCRYPTO_ERR_NOT_SUPPORTED) {
        printf("cSHAKE128 with a function name: NotSupportedError on %s (%s)\n",
               webcrypto_backend_name(tu_backend()), webcrypto_error_message());
        return;
    }
    tu_assert_status(st, WEBCRYPTO_OK);
    tu_assert_hex(out, olen, "3b1fba963cd8b0b59e8c1a6d71888b7143651af8ba0a7070c0979e2811324aa5");
}

/* SP 800-185 KMAC samples 1-6 (KMAC_samples.pdf): key 40..5f, data
 * 00..03 or 00..c7, S "" or "My Tagged Application". Checked also with
 * `openssl mac KMAC-128`. */
static void test_kmac_kat(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_ALG_KMAC256);
    static const char *const tag = "My Tagged Application";
    static const struct {
        webcrypto_algorithm alg;
        size_t data_len; /* 4 or 200 bytes of 00, 01, 02, ... */
        bool custom;
        size_t bits;
        const char *mac;
    } v[] = {
        {WEBCRYPTO_ALG_KMAC128, 4, false, 256,
         "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e"},
        {WEBCRYPTO_ALG_KMAC128, 4, true, 256,
         "3b1fba963cd8b0b59e8c1a6d71888b7143651af8ba0a7070c0979e2811324aa5"},
        {WEBCRYPTO_ALG_KMAC128, 200, true, 256,
         "1f5b4e6cca02209e0dcb5ca635b89a15e271ecc760071dfd805faa38f9729230"},
        {WEBCRYPTO_ALG_KMAC256, 4, true, 512,
         "20c570c31346f703c9ac36c61c03cb64c3970d0cfc787e9b79599d273a68d2f7"
         "f69d4cc3de9d104a351689f27cf6f5951f0103f33f4f24871024d9c27773a8dd"},
        {WEBCRYPTO_ALG_KMAC256, 200, false, 512,
         "75358cf39e41494e949707927cee0af20a3ff553904c86b08f21cc414bcfd691"
         "589d27cf5e15369cbbff8b9a4c2eb17800855d0235ff635da82533ec6b759b69"},
        {WEBCRYPTO_ALG_KMAC256, 200, true, 512,
         "b58618f71f92e1d56c1b8c55ddd7cd188b97b4ca4d99831eb2699a837da2e4d9"
         "70fbacfde50033aea585f1a2708510c32d07880801bd182898fe476876fc8965"},
    };
    uint8_t data[200];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        webcrypto_key *key = import_raw_hex(
            v[i].alg, WEBCRYPTO_ALG_NONE,
            "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f",
            WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
        assert_int_equal(webcrypto_key_get_length(key), 256);
        webcrypto_params p = params_of(v[i].alg);
        p.output_length = v[i].bits;
        if (v[i].custom) {
            p.customization = (const uint8_t *)tag;
            p.customization_len = strlen(tag);
        }
        uint8_t mac[64];
        size_t mlen = 0;
        /* a backend whose KMAC has one length and no customization (a JCA
         * provider's) has samples 1 and 5 only: the others are
         * NotSupportedError, as supports() says */
        if (!webcrypto_supports(tu_backend(), WEBCRYPTO_OP_SIGN, &p, 0, NULL)) {
            assert_true(v[i].custom);
            tu_assert_status(webcrypto_sign(&p, key, data, v[i].data_len, mac, sizeof mac, &mlen),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
            printf("KMAC sample %zu: not applicable on %s: %s\n", i + 1,
                   webcrypto_backend_name(tu_backend()), webcrypto_error_message());
            bool valid = true;
            tu_assert_status(webcrypto_verify(&p, key, mac, v[i].bits / 8, data, v[i].data_len,
                                              &valid),
                             WEBCRYPTO_ERR_NOT_SUPPORTED);
            webcrypto_key_free(key);
            continue;
        }
        tu_assert_status(webcrypto_sign(&p, key, data, v[i].data_len, mac, sizeof mac, &mlen),
                         WEBCRYPTO_OK);
        assert_int_equal(mlen, v[i].bits / 8);
        tu_assert_hex(mac, mlen, v[i].mac);
        bool valid = false;
        tu_assert_status(webcrypto_verify(&p, key, mac, mlen, data, v[i].data_len, &valid),
                         WEBCRYPTO_OK);
        assert_true(valid);
        mac[mlen - 1] ^= 1; /* one bit off, then one byte short: not valid */
        tu_assert_status(webcrypto_verify(&p, key, mac, mlen, data, v[i].data_len, &valid),
                         WEBCRYPTO_OK);
        assert_false(valid);
        tu_assert_status(webcrypto_verify(&p, key, mac, mlen - 1, data, v[i].data_len, &valid),
                         WEBCRYPTO_OK);
        assert_false(valid);
        webcrypto_key_free(key);
    }
}

/* One million 'a', fed to the streaming API in uneven chunks that straddle
 * the 64- and 128-byte block boundaries. */
static void test_digest_million_a(void **state) {
    (void)state;
    static const struct {
        webcrypto_algorithm alg;
        const char *digest;
    } v[] = {
        {WEBCRYPTO_ALG_SHA_1, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
        {WEBCRYPTO_ALG_SHA_256,
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
        {WEBCRYPTO_ALG_SHA_384,
         "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
         "07b8b3dc38ecc4ebae97ddd87f3d8985"},
        {WEBCRYPTO_ALG_SHA_512,
         "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
         "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"},
    };
    static const size_t chunks[] = {1, 0, 2, 3, 55, 56, 57, 63, 64, 65, 111, 112, 113,
                                    127, 128, 129, 1000, 4095, 65537, 7};
    const size_t total = 1000000;
    uint8_t *msg = malloc(total);
    assert_non_null(msg);
    memset(msg, 'a', total);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        webcrypto_digest_ctx *ctx = NULL;
        tu_assert_status(webcrypto_digest_init(tu_backend(), v[i].alg, &ctx), WEBCRYPTO_OK);
        assert_non_null(ctx);
        size_t off = 0, c = 0;
        while (off < total) {
            size_t n = chunks[c++ % (sizeof chunks / sizeof *chunks)];
            if (n > total - off) n = total - off;
            tu_assert_status(webcrypto_digest_update(ctx, msg + off, n), WEBCRYPTO_OK);
            off += n;
        }
        uint8_t out[64];
        size_t olen = 0;
        tu_assert_status(webcrypto_digest_final(ctx, out, sizeof out, &olen), WEBCRYPTO_OK);
        webcrypto_digest_ctx_free(ctx);
        tu_assert_hex(out, olen, v[i].digest);

        olen = 0;
        tu_assert_status(
            webcrypto_digest(tu_backend(), v[i].alg, msg, total, out, sizeof out, &olen),
            WEBCRYPTO_OK);
        tu_assert_hex(out, olen, v[i].digest);
    }
    free(msg);
}

/* ------------------------------------------------------ RFC 2202 / 4231 */

typedef struct {
    const char *name;
    const char *key_hex;
    const char *data_txt; /* either text ... */
    const char *data_hex; /* ... or hex */
    webcrypto_algorithm hash;
    const char *mac;
    bool truncated; /* mac is a prefix of the full MAC (RFC 4231 case 5) */
} hmac_kat;

#define KEY_0B20 X10("0b0b")
#define KEY_AA20 X10("aaaa")
#define KEY_0C20 X10("0c0c")
#define KEY_0119 "0102030405060708090a0b0c0d0e0f10111213141516171819"
#define KEY_AA80 X10("aaaaaaaaaaaaaaaa")
#define KEY_AA131 X10(X10("aa")) X10("aaaaaa") "aa"
#define DATA_DD50 X50("dd")
#define DATA_CD50 X50("cd")
#define T4231_6 "Test Using Larger Than Block-Size Key - Hash Key First"
#define T4231_7                                                                       \
    "This is a test using a larger than block-size key and a larger than block-size " \
    "data. The key needs to be hashed before being used by the HMAC algorithm."

static const hmac_kat hmac_kats[] = {
    /* RFC 2202, HMAC-SHA-1 test cases 1-7 */
    {"2202-1", KEY_0B20, "Hi There", NULL, WEBCRYPTO_ALG_SHA_1,
     "b617318655057264e28bc0b6fb378c8ef146be00", false},
    {"2202-2", "4a656665", "what do ya want for nothing?", NULL, WEBCRYPTO_ALG_SHA_1,
     "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79", false},
    {"2202-3", KEY_AA20, NULL, DATA_DD50, WEBCRYPTO_ALG_SHA_1,
     "125d7342b9ac11cd91a39af48aa17b4f63f175d3", false},
    {"2202-4", KEY_0119, NULL, DATA_CD50, WEBCRYPTO_ALG_SHA_1,
     "4c9007f4026250c6bc8414f9bf50c86c2d7235da", false},
    {"2202-5", KEY_0C20, "Test With Truncation", NULL, WEBCRYPTO_ALG_SHA_1,
     "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04", false},
    {"2202-6", KEY_AA80, T4231_6, NULL, WEBCRYPTO_ALG_SHA_1,
     "aa4ae5e15272d00e95705637ce8a3b55ed402112", false},
    {"2202-7", KEY_AA80,
     "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data", NULL,
     WEBCRYPTO_ALG_SHA_1, "e8e99d0f45237d786d6bbaa7965c7808bbff1a91", false},

    /* RFC 4231 test cases 1-7, SHA-256/384/512 */
    {"4231-1", KEY_0B20, "Hi There", NULL, WEBCRYPTO_ALG_SHA_256,
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", false},
    {"4231-1", KEY_0B20, "Hi There", NULL, WEBCRYPTO_ALG_SHA_384,
     "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
     "faea9ea9076ede7f4af152e8b2fa9cb6",
     false},
    {"4231-1", KEY_0B20, "Hi There", NULL, WEBCRYPTO_ALG_SHA_512,
     "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
     "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
     false},

    {"4231-2", "4a656665", "what do ya want for nothing?", NULL, WEBCRYPTO_ALG_SHA_256,
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", false},
    {"4231-2", "4a656665", "what do ya want for nothing?", NULL, WEBCRYPTO_ALG_SHA_384,
     "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
     "8e2240ca5e69e2c78b3239ecfab21649",
     false},
    {"4231-2", "4a656665", "what do ya want for nothing?", NULL, WEBCRYPTO_ALG_SHA_512,
     "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
     "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
     false},

    {"4231-3", KEY_AA20, NULL, DATA_DD50, WEBCRYPTO_ALG_SHA_256,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", false},
    {"4231-3", KEY_AA20, NULL, DATA_DD50, WEBCRYPTO_ALG_SHA_384,
     "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b"
     "2a5ab39dc13814b94e3ab6e101a34f27",
     false},
    {"4231-3", KEY_AA20, NULL, DATA_DD50, WEBCRYPTO_ALG_SHA_512,
     "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
     "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
     false},

    {"4231-4", KEY_0119, NULL, DATA_CD50, WEBCRYPTO_ALG_SHA_256,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", false},
    {"4231-4", KEY_0119, NULL, DATA_CD50, WEBCRYPTO_ALG_SHA_384,
     "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e"
     "6801dd23c4a7d679ccf8a386c674cffb",
     false},
    {"4231-4", KEY_0119, NULL, DATA_CD50, WEBCRYPTO_ALG_SHA_512,
     "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
     "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
     false},

    /* Case 5 gives only the first 128 bits of the MAC. */
    {"4231-5", KEY_0C20, "Test With Truncation", NULL, WEBCRYPTO_ALG_SHA_256,
     "a3b6167473100ee06e0c796c2955552b", true},
    {"4231-5", KEY_0C20, "Test With Truncation", NULL, WEBCRYPTO_ALG_SHA_384,
     "3abf34c3503b2a23a46efc619baef897", true},
    {"4231-5", KEY_0C20, "Test With Truncation", NULL, WEBCRYPTO_ALG_SHA_512,
     "415fad6271580a531d4179bc891d87a6", true},

    {"4231-6", KEY_AA131, T4231_6, NULL, WEBCRYPTO_ALG_SHA_256,
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", false},
    {"4231-6", KEY_AA131, T4231_6, NULL, WEBCRYPTO_ALG_SHA_384,
     "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
     "0c2ef6ab4030fe8296248df163f44952",
     false},
    {"4231-6", KEY_AA131, T4231_6, NULL, WEBCRYPTO_ALG_SHA_512,
     "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
     "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
     false},

    {"4231-7", KEY_AA131, T4231_7, NULL, WEBCRYPTO_ALG_SHA_256,
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", false},
    {"4231-7", KEY_AA131, T4231_7, NULL, WEBCRYPTO_ALG_SHA_384,
     "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5"
     "a678cc31e799176d3860e6110c46523e",
     false},
    {"4231-7", KEY_AA131, T4231_7, NULL, WEBCRYPTO_ALG_SHA_512,
     "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
     "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
     false},
};

static void test_hmac_kat(void **state) {
    (void)state;
    const webcrypto_params p = params_of(WEBCRYPTO_ALG_HMAC);
    for (size_t i = 0; i < sizeof hmac_kats / sizeof *hmac_kats; i++) {
        const hmac_kat *v = &hmac_kats[i];
        webcrypto_key *key = import_raw_hex(WEBCRYPTO_ALG_HMAC, v->hash, v->key_hex,
                                            WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
        uint8_t *data;
        size_t dlen;
        if (v->data_hex) {
            data = tu_unhex(v->data_hex, &dlen);
        } else {
            dlen = strlen(v->data_txt);
            data = malloc(dlen + 1);
            assert_non_null(data);
            memcpy(data, v->data_txt, dlen + 1);
        }
        size_t elen;
        uint8_t *expected = tu_unhex(v->mac, &elen);

        uint8_t mac[64];
        size_t mlen = 0;
        tu_assert_status(webcrypto_sign(&p, key, data, dlen, mac, sizeof mac, &mlen),
                         WEBCRYPTO_OK);
        assert_int_equal(mlen, webcrypto_digest_size(v->hash));
        if (v->truncated) {
            assert_true(elen < mlen);
            tu_assert_hex(mac, elen, v->mac);
        } else {
            tu_assert_hex(mac, mlen, v->mac);
        }

        /* verify against the full MAC (for case 5: the one just computed,
         * whose prefix matched the RFC) */
        const uint8_t *full = v->truncated ? mac : expected;
        bool valid = false;
        tu_assert_status(webcrypto_verify(&p, key, full, mlen, data, dlen, &valid), WEBCRYPTO_OK);
        assert_true(valid);

        /* WebCrypto compares whole MACs: a truncated tag does not verify. */
        valid = true;
        tu_assert_status(webcrypto_verify(&p, key, mac, 16, data, dlen, &valid), WEBCRYPTO_OK);
        assert_false(valid);

        /* One flipped bit, in the first and in the last byte. */
        uint8_t bad[64];
        memcpy(bad, mac, mlen);
        bad[0] ^= 0x01;
        valid = true;
        tu_assert_status(webcrypto_verify(&p, key, bad, mlen, data, dlen, &valid), WEBCRYPTO_OK);
        assert_false(valid);
        memcpy(bad, mac, mlen);
        bad[mlen - 1] ^= 0x80;
        valid = true;
        tu_assert_status(webcrypto_verify(&p, key, bad, mlen, data, dlen, &valid), WEBCRYPTO_OK);
        assert_false(valid);

        /* ... and a changed message. */
        if (dlen) {
            data[dlen / 2] ^= 0x04;
            valid = true;
            tu_assert_status(webcrypto_verify(&p, key, mac, mlen, data, dlen, &valid),
                             WEBCRYPTO_OK);
            assert_false(valid);
        }

        free(expected);
        free(data);
        webcrypto_key_free(key);
    }
}

/* -------------------------------------------------------------- RFC 5869 */

#define HEX_00_4F                                                                       \
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"                  \
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"                  \
    "404142434445464748494a4b4c4d4e4f"
#define HEX_60_AF                                                                       \
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"                  \
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"                  \
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
#define HEX_B0_FF                                                                       \
    "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf"                  \
    "d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef"                  \
    "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

typedef struct {
    const char *name;
    webcrypto_algorithm hash;
    const char *ikm, *salt, *info;
    size_t len;
    const char *okm;
} hkdf_kat;

static const hkdf_kat hkdf_kats[] = {
    {"A.1", WEBCRYPTO_ALG_SHA_256, X10("0b0b") "0b0b", "000102030405060708090a0b0c",
     "f0f1f2f3f4f5f6f7f8f9", 42,
     "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
    {"A.2", WEBCRYPTO_ALG_SHA_256, HEX_00_4F, HEX_60_AF, HEX_B0_FF, 82,
     "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
     "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
     "cc30c58179ec3e87c14c01d5c1f3434f1d87"},
    /* A.3: empty salt (so HashLen zero bytes) and empty info */
    {"A.3", WEBCRYPTO_ALG_SHA_256, X10("0b0b") "0b0b", "", "", 42,
     "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
    {"A.4", WEBCRYPTO_ALG_SHA_1, X5("0b0b") "0b", "000102030405060708090a0b0c",
     "f0f1f2f3f4f5f6f7f8f9", 42,
     "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"},
    {"A.5", WEBCRYPTO_ALG_SHA_1, HEX_00_4F, HEX_60_AF, HEX_B0_FF, 82,
     "0bd770a74d1160f7c9f12cd5912a06ebff6adcae899d92191fe4305673ba2ffe"
     "8fa3f1a4e5ad79f3f334b3b202b2173c486ea37ce3d397ed034c7f9dfeb15c5e"
     "927336d0441f4c4300e2cff0d0900b52d3b4"},
    {"A.6", WEBCRYPTO_ALG_SHA_1, X10("0b0b") "0b0b", "", "", 42,
     "0ac1af7002b3d761d1e55298da9d0506b9ae52057220a306e07b6b87e8df21d0ea00033de03984d34918"},
    /* A.7: salt "not provided", i.e. HashLen zero bytes, which is what an
     * empty WebCrypto salt means too */
    {"A.7", WEBCRYPTO_ALG_SHA_1, X10("0c0c") "0c0c", "", "", 42,
     "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5673a081d70cce7acfc48"},
};

static void test_hkdf_kat(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof hkdf_kats / sizeof *hkdf_kats; i++) {
        const hkdf_kat *v = &hkdf_kats[i];
        webcrypto_key *key =
            import_raw_hex(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_ALG_NONE, v->ikm, WEBCRYPTO_USAGE_DERIVE_BITS);
        size_t salt_len, info_len;
        uint8_t *salt = tu_unhex(v->salt, &salt_len);
        uint8_t *info = tu_unhex(v->info, &info_len);
        webcrypto_params p = params_of(WEBCRYPTO_ALG_HKDF);
        p.hash = v->hash;
        p.salt = salt;
        p.salt_len = salt_len;
        p.info = info;
        p.info_len = info_len;
        uint8_t out[128];
        size_t dlen = 0;
        tu_assert_status(webcrypto_derive_bits(&p, key, v->len * 8, out, sizeof out, &dlen),
                         WEBCRYPTO_OK);
        assert_int_equal(dlen, v->len);
        tu_assert_hex(out, v->len, v->okm);

        /* A shorter output is a prefix of the longer one (same PRK, same T(i)). */
        memset(out, 0, sizeof out);
        tu_assert_status(webcrypto_derive_bits(&p, key, 16 * 8, out, 16, &dlen), WEBCRYPTO_OK);
        assert_int_equal(dlen, 16);
        size_t olen;
        uint8_t *okm = tu_unhex(v->okm, &olen);
        assert_memory_equal(out, okm, 16);
        free(okm);

        free(salt);
        free(info);
        webcrypto_key_free(key);
    }
}

/* ------------------------------------------------------ RFC 6070 / 7914 */

typedef struct {
    webcrypto_algorithm hash;
    const char *pass;
    size_t pass_len;
    const char *salt;
    size_t salt_len;
    uint32_t iterations;
    size_t len;
    const char *dk;
} pbkdf2_kat;

#define S(lit) lit, sizeof(lit) - 1

static const pbkdf2_kat pbkdf2_kats[] = {
    /* RFC 6070, PBKDF2-HMAC-SHA1. Its 16777216-iteration case is left out:
     * it takes tens of seconds, and the 4096-iteration cases already cover
     * the iteration loop. */
    {WEBCRYPTO_ALG_SHA_1, S("password"), S("salt"), 1, 20,
     "0c60c80f961f0e71f3a9b524af6012062fe037a6"},
    {WEBCRYPTO_ALG_SHA_1, S("password"), S("salt"), 2, 20,
     "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"},
    {WEBCRYPTO_ALG_SHA_1, S("password"), S("salt"), 4096, 20,
     "4b007901b765489abead49d926f721d065a429c1"},
    {WEBCRYPTO_ALG_SHA_1, S("passwordPASSWORDpassword"), S("saltSALTsaltSALTsaltSALTsaltSALTsalt"),
     4096, 25, "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"},
    {WEBCRYPTO_ALG_SHA_1, S("pass\0word"), S("sa\0lt"), 4096, 16,
     "56fa6aa75548099dcc37d7f03425e0c3"},
    /* RFC 7914 section 11, PBKDF2-HMAC-SHA256 */
    {WEBCRYPTO_ALG_SHA_256, S("passwd"), S("salt"), 1, 64,
     "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
     "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"},
    {WEBCRYPTO_ALG_SHA_256, S("Password"), S("NaCl"), 80000, 64,
     "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
     "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"},
};

static void test_pbkdf2_kat(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof pbkdf2_kats / sizeof *pbkdf2_kats; i++) {
        const pbkdf2_kat *v = &pbkdf2_kats[i];
        webcrypto_key *key = import_raw(WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_NONE,
                                        (const uint8_t *)v->pass, v->pass_len,
                                        WEBCRYPTO_USAGE_DERIVE_BITS);
        webcrypto_params p = params_of(WEBCRYPTO_ALG_PBKDF2);
        p.hash = v->hash;
        p.salt = (const uint8_t *)v->salt;
        p.salt_len = v->salt_len;
        p.iterations = v->iterations;
        uint8_t out[64];
        size_t dlen = 0;
        tu_assert_status(webcrypto_derive_bits(&p, key, v->len * 8, out, sizeof out, &dlen),
                         WEBCRYPTO_OK);
        assert_int_equal(dlen, v->len);
        tu_assert_hex(out, v->len, v->dk);
        webcrypto_key_free(key);
    }
}

/* ------------------------------------------------------ NIST SP 800-38A */

#define AES128_KEY "2b7e151628aed2a6abf7158809cf4f3c"
#define AES256_KEY "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
#define NIST_PT                                                                         \
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"                  \
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
#define NIST_IV "000102030405060708090a0b0c0d0e0f"
#define NIST_CTR "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

static void check_cbc(const char *key_hex, const char *nist_ct, const char *pad_block) {
    webcrypto_key *key = import_aes(WEBCRYPTO_ALG_AES_CBC, key_hex);
    size_t pt_len, iv_len;
    uint8_t *pt = tu_unhex(NIST_PT, &pt_len);
    uint8_t *iv = tu_unhex(NIST_IV, &iv_len);
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CBC);
    p.iv = iv;
    p.iv_len = iv_len;

    /* F.2.1/F.2.5: the 64 NIST bytes, then PKCS#7 adds a whole block of 0x10. */
    uint8_t ct[96];
    size_t ct_len = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, pt, pt_len, ct, sizeof ct, &ct_len),
                     WEBCRYPTO_OK);
    assert_int_equal(ct_len, 80);
    tu_assert_hex(ct, 64, nist_ct);
    tu_assert_hex(ct + 64, 16, pad_block);

    /* F.2.2/F.2.6: decrypt(encrypt(x)) == x */
    uint8_t back[96];
    size_t back_len = 0;
    tu_assert_status(webcrypto_decrypt(&p, key, ct, ct_len, back, sizeof back, &back_len),
                     WEBCRYPTO_OK);
    assert_int_equal(back_len, pt_len);
    assert_memory_equal(back, pt, pt_len);

    /* The bare NIST ciphertext decrypts to a last block ending in 0x10 whose
     * other bytes are not 0x10: invalid padding, so OperationError. */
    size_t n;
    uint8_t *bare = tu_unhex(nist_ct, &n);
    back_len = 0;
    tu_assert_status(webcrypto_decrypt(&p, key, bare, n, back, sizeof back, &back_len),
                     WEBCRYPTO_ERR_OPERATION);

    free(bare);
    free(pt);
    free(iv);
    webcrypto_key_free(key);
}

static void test_cbc_kat(void **state) {
    (void)state;
    /* padding blocks: from `openssl enc -aes-{128,256}-cbc` of the same input */
    check_cbc(AES128_KEY,
              "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
              "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
              "8cb82807230e1321d3fae00d18cc2012");
    check_cbc(AES256_KEY,
              "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
              "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
              "3f461796d6b0d6b2e0c2a72b4d80e644");
}

static void check_ctr(const char *key_hex, const char *nist_ct) {
    webcrypto_key *key = import_aes(WEBCRYPTO_ALG_AES_CTR, key_hex);
    size_t pt_len, ctr_len;
    uint8_t *pt = tu_unhex(NIST_PT, &pt_len);
    uint8_t *ctr = tu_unhex(NIST_CTR, &ctr_len);
    /* The 4 blocks do not wrap the low 64 or 32 bits of f0..ff either. */
    static const size_t lengths[] = {128, 64, 32};
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
        webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
        p.counter = ctr;
        p.counter_len = ctr_len;
        p.length = lengths[i];
        check_encrypt(&p, key, pt, pt_len, nist_ct); /* F.5.1 / F.5.5 */
        check_decrypt(&p, key, nist_ct, pt, pt_len); /* F.5.2 / F.5.6 */
    }
    free(pt);
    free(ctr);
    webcrypto_key_free(key);
}

static void test_ctr_kat(void **state) {
    (void)state;
    check_ctr(AES128_KEY, "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
                          "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee");
    check_ctr(AES256_KEY, "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
                          "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6");
}

/* Encrypts one block under an explicit counter (length 128: no wrap). */
static void ctr_one_block(const webcrypto_key *key, const char *ctr_hex, const uint8_t in[16],
                          uint8_t out[16]) {
    size_t n;
    uint8_t *ctr = tu_unhex(ctr_hex, &n);
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
    p.counter = ctr;
    p.counter_len = n;
    p.length = 128;
    size_t olen = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, in, 16, out, 16, &olen), WEBCRYPTO_OK);
    assert_int_equal(olen, 16);
    free(ctr);
}

/* WebCrypto's counter: only the low `length` bits count up, and they wrap to
 * zero leaving the other bits alone. */
static void check_ctr_wrap(const webcrypto_key *key, const uint8_t *pt, size_t length,
                           const char *ctr1, const char *ctr2, const char *blk1,
                           const char *blk2) {
    uint8_t expect[32];
    ctr_one_block(key, ctr1, pt, expect);
    ctr_one_block(key, ctr2, pt + 16, expect + 16);
    tu_assert_hex(expect, 16, blk1);
    tu_assert_hex(expect + 16, 16, blk2);

    size_t n;
    uint8_t *ctr = tu_unhex(ctr1, &n);
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
    p.counter = ctr;
    p.counter_len = n;
    p.length = length;
    uint8_t out[32];
    size_t olen = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, pt, 32, out, sizeof out, &olen), WEBCRYPTO_OK);
    assert_int_equal(olen, 32);
    assert_memory_equal(out, expect, 32);
    /* and a partial second block wraps the same way */
    olen = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, pt, 21, out, sizeof out, &olen), WEBCRYPTO_OK);
    assert_int_equal(olen, 21);
    assert_memory_equal(out, expect, 21);
    free(ctr);
}

static void test_ctr_wrap(void **state) {
    (void)state;
    webcrypto_key *key = import_aes(WEBCRYPTO_ALG_AES_CTR, AES128_KEY);
    size_t pt_len;
    uint8_t *pt = tu_unhex(NIST_PT, &pt_len);

    /* length 8: ...feff then ...fe00 (a 128-bit increment would give ...ff00).
     * Block 1 is NIST F.5.1's; block 2 from `openssl enc -aes-128-ctr -iv ...fe00`. */
    check_ctr_wrap(key, pt, 8, NIST_CTR, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfe00",
                   "874d6191b620e3261bef6864990db6ce", "e3256531c56fd498e4670c36587faba6");
    /* length 12, not on a byte boundary: ...3fff then ...3000 (not ...4000).
     * Both blocks from `openssl enc -aes-128-ctr`. */
    check_ctr_wrap(key, pt, 12, "f0f1f2f3f4f5f6f7f8f9fafbfcfd3fff",
                   "f0f1f2f3f4f5f6f7f8f9fafbfcfd3000", "ba155f739fa4c4d65e0e13d05073c067",
                   "cead89589d12ae6e461f6a1558dc082b");

    /* With length 8 there are 2^8 counter values: 256 blocks are fine, any
     * more would reuse a counter block. */
    size_t ctr_len;
    uint8_t *ctr = tu_unhex(NIST_CTR, &ctr_len);
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
    p.counter = ctr;
    p.counter_len = ctr_len;
    p.length = 8;
    const size_t max = 256 * 16;
    uint8_t *in = calloc(1, max + 16);
    uint8_t *out = malloc(max + 16);
    assert_non_null(in);
    assert_non_null(out);
    size_t olen = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, in, max, out, max + 16, &olen), WEBCRYPTO_OK);
    assert_int_equal(olen, max);
    tu_assert_status(webcrypto_encrypt(&p, key, in, max + 16, out, max + 16, &olen),
                     WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(webcrypto_encrypt(&p, key, in, max + 1, out, max + 16, &olen),
                     WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(webcrypto_decrypt(&p, key, in, max + 16, out, max + 16, &olen),
                     WEBCRYPTO_ERR_OPERATION);

    free(in);
    free(out);
    free(ctr);
    free(pt);
    webcrypto_key_free(key);
}

/* ------------------------------------------------- GCM spec, cases 1-18 */

typedef struct {
    int tc;
    const char *key, *iv, *pt, *aad, *ct, *tag;
} gcm_kat;

#define GK128 "feffe9928665731c6d6a8f9467308308"
#define GK192 GK128 "feffe9928665731c"
#define GK256 GK128 GK128
#define GIV12 "cafebabefacedbaddecaf888"
#define GIV8 "cafebabefacedbad"
#define GIV60                                                                           \
    "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"                  \
    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
#define GP60                                                                            \
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"                  \
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GP64 GP60 "1aafd255"
#define GAAD "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define Z12 "000000000000000000000000"
#define Z16 "00000000000000000000000000000000"

static const gcm_kat gcm_kats[] = {
    {1, Z16, Z12, "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
    {2, Z16, Z12, Z16, "", "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"},
    {3, GK128, GIV12, GP64, "",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"},
    {4, GK128, GIV12, GP60, GAAD,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {5, GK128, GIV8, GP60, GAAD,
     "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
     "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
     "3612d2e79e3b0785561be14aaca2fccb"},
    {6, GK128, GIV60, GP60, GAAD,
     "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
     "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
     "619cc5aefffe0bfa462af43c1699d050"},
    {7, Z16 "0000000000000000", Z12, "", "", "", "cd33b28ac773f74ba00ed1f312572435"},
    {8, Z16 "0000000000000000", Z12, Z16, "", "98e7247c07f0fe411c267e4384b0f600",
     "2ff58d80033927ab8ef4d4587514f0fb"},
    {9, GK192, GIV12, GP64, "",
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
     "9924a7c8587336bfb118024db8674a14"},
    {10, GK192, GIV12, GP60, GAAD,
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
     "2519498e80f1478f37ba55bd6d27618c"},
    {11, GK192, GIV8, GP60, GAAD,
     "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
     "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
     "65dcc57fcf623a24094fcca40d3533f8"},
    {12, GK192, GIV60, GP60, GAAD,
     "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
     "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
     "dcf566ff291c25bbb8568fc3d376a6d9"},
    {13, Z16 Z16, Z12, "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
    {14, Z16 Z16, Z12, Z16, "", "cea7403d4d606b6e074ec5d3baf39d18",
     "d0d1c8a799996bf0265b98b5d48ab919"},
    {15, GK256, GIV12, GP64, "",
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
     "b094dac5d93471bdec1a502270e3cc6c"},
    {16, GK256, GIV12, GP60, GAAD,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
    {17, GK256, GIV8, GP60, GAAD,
     "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
     "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
     "3a337dbf46a792c45e454913fe2ea8f2"},
    {18, GK256, GIV60, GP60, GAAD,
     "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
     "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
     "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"},
};

/* Encrypts and decrypts one GCM case with a tag of tag_bits (0: default). */
static void check_gcm(const gcm_kat *v, size_t tag_bits) {
    webcrypto_key *key = import_aes(WEBCRYPTO_ALG_AES_GCM, v->key);
    size_t iv_len, pt_len, aad_len, ct_len, tag_len;
    uint8_t *iv = tu_unhex(v->iv, &iv_len);
    uint8_t *pt = tu_unhex(v->pt, &pt_len);
    uint8_t *aad = tu_unhex(v->aad, &aad_len);
    uint8_t *ct = tu_unhex(v->ct, &ct_len);
    uint8_t *tag = tu_unhex(v->tag, &tag_len);
    size_t want_tag = tag_bits ? tag_bits / 8 : 16;
    assert_int_equal(ct_len, pt_len);

    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_GCM);
    p.iv = iv;
    p.iv_len = iv_len;
    if (aad_len) {
        p.additional_data = aad;
        p.additional_data_len = aad_len;
    }
    p.tag_length = tag_bits;

    /* expected output: ciphertext || the first want_tag bytes of the tag */
    uint8_t *expect = malloc(ct_len + 16);
    uint8_t *out = malloc(ct_len + 16);
    uint8_t *back = malloc(ct_len + 16);
    assert_non_null(expect);
    assert_non_null(out);
    assert_non_null(back);
    if (ct_len) memcpy(expect, ct, ct_len);
    memcpy(expect + ct_len, tag, want_tag);

    size_t olen = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, pt, pt_len, out, ct_len + 16, &olen),
                     WEBCRYPTO_OK);
    if (olen != ct_len + want_tag || memcmp(out, expect, olen) != 0)
        fail_msg("GCM test case %d (tag %zu bits): wrong encryption", v->tc, want_tag * 8);

    size_t blen = 0;
    tu_assert_status(webcrypto_decrypt(&p, key, expect, ct_len + want_tag, back, ct_len + 16,
                                       &blen),
                     WEBCRYPTO_OK);
    assert_int_equal(blen, pt_len);
    if (pt_len) assert_memory_equal(back, pt, pt_len);

    /* a flipped tag bit is an OperationError */
    expect[ct_len + want_tag - 1] ^= 0x01;
    tu_assert_status(webcrypto_decrypt(&p, key, expect, ct_len + want_tag, back, ct_len + 16,
                                       &blen),
                     WEBCRYPTO_ERR_OPERATION);

    free(expect);
    free(out);
    free(back);
    free(iv);
    free(pt);
    free(aad);
    free(ct);
    free(tag);
    webcrypto_key_free(key);
}

static void test_gcm_kat(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof gcm_kats / sizeof *gcm_kats; i++) check_gcm(&gcm_kats[i], 0);
    /* explicit 128, and truncated tags: a prefix of the full tag */
    check_gcm(&gcm_kats[3], 128);
    check_gcm(&gcm_kats[3], 96);
    check_gcm(&gcm_kats[3], 32);
    check_gcm(&gcm_kats[17], 96);
    check_gcm(&gcm_kats[17], 32);
}

/* ------------------------------------------------------ size queries */

static void test_output_size_queries(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    uint8_t in[64] = {0};
    size_t q;

    static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                                 WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
    static const size_t sizes[] = {20, 32, 48, 64};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(webcrypto_digest_size(hashes[i]), sizes[i]);
        q = 0;
        tu_assert_status(webcrypto_digest(b, hashes[i], in, 3, NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, sizes[i]);
        /* one byte short: TypeError, and the size needed */
        uint8_t out[64];
        q = 0;
        tu_assert_status(webcrypto_digest(b, hashes[i], in, 3, out, sizes[i] - 1, &q),
                         WEBCRYPTO_ERR_INVALID_ARGUMENT);
        assert_int_equal(q, sizes[i]);

        webcrypto_key *hk = import_raw(WEBCRYPTO_ALG_HMAC, hashes[i], in, 20,
                                       WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
        webcrypto_params hp = params_of(WEBCRYPTO_ALG_HMAC);
        q = 0;
        tu_assert_status(webcrypto_sign(&hp, hk, in, 5, NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, sizes[i]);
        webcrypto_key_free(hk);
    }

    /* AES-CBC: encryption pads to the next whole block */
    webcrypto_key *cbc = import_aes(WEBCRYPTO_ALG_AES_CBC, AES128_KEY);
    webcrypto_params cp = params_of(WEBCRYPTO_ALG_AES_CBC);
    cp.iv = in;
    cp.iv_len = 16;
    static const size_t cbc_lens[] = {0, 1, 15, 16, 17, 31, 32, 33};
    for (size_t i = 0; i < sizeof cbc_lens / sizeof *cbc_lens; i++) {
        q = 0;
        tu_assert_status(webcrypto_encrypt(&cp, cbc, in, cbc_lens[i], NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, (cbc_lens[i] / 16 + 1) * 16);
    }
    /* decryption: at most the ciphertext length, at least the real plaintext */
    uint8_t ct[48], pt[48];
    size_t ct_len = 0, pt_len = 0;
    tu_assert_status(webcrypto_encrypt(&cp, cbc, in, 17, ct, sizeof ct, &ct_len), WEBCRYPTO_OK);
    assert_int_equal(ct_len, 32);
    q = 0;
    tu_assert_status(webcrypto_decrypt(&cp, cbc, ct, ct_len, NULL, 0, &q), WEBCRYPTO_OK);
    assert_in_range(q, 17, 32);
    tu_assert_status(webcrypto_decrypt(&cp, cbc, ct, ct_len, pt, q, &pt_len), WEBCRYPTO_OK);
    assert_int_equal(pt_len, 17);
    /* too small for the padded output: TypeError with the size needed */
    q = 0;
    tu_assert_status(webcrypto_encrypt(&cp, cbc, in, 17, ct, 31, &q),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(q, 32);
    webcrypto_key_free(cbc);

    /* AES-CTR: same size as the input */
    webcrypto_key *ctr = import_aes(WEBCRYPTO_ALG_AES_CTR, AES128_KEY);
    webcrypto_params tp = params_of(WEBCRYPTO_ALG_AES_CTR);
    tp.counter = in;
    tp.counter_len = 16;
    tp.length = 64;
    for (size_t n = 0; n < 40; n += 13) {
        q = 0;
        tu_assert_status(webcrypto_encrypt(&tp, ctr, in, n, NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, n);
        q = 0;
        tu_assert_status(webcrypto_decrypt(&tp, ctr, in, n, NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, n);
    }
    webcrypto_key_free(ctr);

    /* AES-GCM: plus / minus the tag */
    webcrypto_key *gcm = import_aes(WEBCRYPTO_ALG_AES_GCM, AES128_KEY);
    webcrypto_params gp = params_of(WEBCRYPTO_ALG_AES_GCM);
    gp.iv = in;
    gp.iv_len = 12;
    static const size_t tags[] = {0, 128, 96, 32};
    static const size_t tag_bytes[] = {16, 16, 12, 4};
    for (size_t i = 0; i < 4; i++) {
        gp.tag_length = tags[i];
        q = 0;
        tu_assert_status(webcrypto_encrypt(&gp, gcm, in, 21, NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, 21 + tag_bytes[i]);
        q = 0;
        tu_assert_status(webcrypto_decrypt(&gp, gcm, in, 40, NULL, 0, &q), WEBCRYPTO_OK);
        assert_int_equal(q, 40 - tag_bytes[i]);
    }
    webcrypto_key_free(gcm);
}

/* ------------------------------------------------------------- random */

static unsigned popcount(unsigned x) {
    unsigned n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

static bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

static void check_uuid(const char u[37]) {
    assert_int_equal(strlen(u), 36);
    for (size_t i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (u[i] != '-') fail_msg("uuid %s: expected '-' at %zu", u, i);
        } else if (!is_lower_hex(u[i])) {
            fail_msg("uuid %s: not lowercase hex at %zu", u, i);
        }
    }
    if (u[14] != '4') fail_msg("uuid %s: version nibble is not 4", u);
    /* variant 10xx: the first digit of the fourth group is 8, 9, a or b */
    if (!strchr("89ab", u[19])) fail_msg("uuid %s: variant bits are not 10", u);
}

static void test_random(void **state) {
    (void)state;
    const webcrypto_backend *b = tu_backend();
    char u1[37], u2[37];
    memset(u1, 'x', sizeof u1);
    memset(u2, 'x', sizeof u2);
    tu_assert_status(webcrypto_random_uuid(b, u1), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_random_uuid(b, u2), WEBCRYPTO_OK);
    check_uuid(u1);
    check_uuid(u2);
    assert_string_not_equal(u1, u2);
    /* Over many UUIDs every random nibble position takes several values
     * (fixed bits must stay fixed, random ones must vary). */
    unsigned seen[36] = {0};
    for (int i = 0; i < 64; i++) {
        char u[37];
        tu_assert_status(webcrypto_random_uuid(b, u), WEBCRYPTO_OK);
        check_uuid(u);
        for (size_t j = 0; j < 36; j++) {
            int c = u[j];
            int v = c >= 'a' ? c - 'a' + 10 : c - '0';
            if (u[j] != '-') seen[j] |= 1u << v;
        }
    }
    for (size_t j = 0; j < 36; j++) {
        if (j == 8 || j == 13 || j == 18 || j == 23) continue;
        if (j == 14) {
            assert_int_equal(seen[j], 1u << 4);
        } else if (j == 19) {
            assert_int_equal(seen[j] & ~0x0f00u, 0);
            assert_true(popcount(seen[j]) >= 2);
        } else {
            assert_true(popcount(seen[j]) >= 4);
        }
    }

    uint8_t r1[32], r2[32];
    memset(r1, 0, sizeof r1);
    memset(r2, 0, sizeof r2);
    tu_assert_status(webcrypto_get_random_values(b, r1, sizeof r1), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_get_random_values(b, r2, sizeof r2), WEBCRYPTO_OK);
    assert_memory_not_equal(r1, r2, sizeof r1);
    static const uint8_t zero[32];
    assert_memory_not_equal(r1, zero, sizeof r1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_kat),     cmocka_unit_test(test_digest_million_a),
        cmocka_unit_test(test_hmac_kat),       cmocka_unit_test(test_hkdf_kat),
        cmocka_unit_test(test_pbkdf2_kat),     cmocka_unit_test(test_cbc_kat),
        cmocka_unit_test(test_ctr_kat),        cmocka_unit_test(test_ctr_wrap),
        cmocka_unit_test(test_gcm_kat),        cmocka_unit_test(test_output_size_queries),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_sha3_kat),       cmocka_unit_test(test_shake_kat),
        cmocka_unit_test(test_cshake_custom),  cmocka_unit_test(test_cshake_function_name),
        cmocka_unit_test(test_kmac_kat),
    };
    return tu_run_group("kat", tests, NULL, NULL);
}
