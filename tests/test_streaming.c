/*
 * The incremental APIs (digest, sign/verify, cipher) must give byte-identical
 * output to the one-shot calls for any split of the input. Split points come
 * from a fixed-seed PRNG so failures reproduce; data and keys come from
 * webcrypto_get_random_values.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- helpers */

/* splitmix64: a small, fixed-seed generator for the split points. */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static size_t rng_below(uint64_t *s, size_t n) { return n ? (size_t)(rng_next(s) % n) : 0; }

/* Split styles: tiny chunks (inside a block), small, anything up to the
 * rest, and a mix of tiny and large for big inputs. */
enum { SPLIT_TINY, SPLIT_SMALL, SPLIT_ANY, SPLIT_MIXED, SPLIT_STYLES };

static size_t next_chunk(uint64_t *s, int style, size_t remaining) {
    size_t n;
    switch (style) {
    case SPLIT_TINY: n = rng_below(s, 18); break;
    case SPLIT_SMALL: n = rng_below(s, 101); break;
    case SPLIT_ANY: n = rng_below(s, remaining + 1); break;
    default: n = rng_below(s, 4) == 0 ? rng_below(s, 17) : rng_below(s, 70000); break;
    }
    return n < remaining ? n : remaining;
}

static void random_fill(uint8_t *buf, size_t len) {
    while (len) {
        size_t n = len < 65536 ? len : 65536;
        tu_assert_status(webcrypto_get_random_values(tu_backend(), buf, n), WEBCRYPTO_OK);
        buf += n;
        len -= n;
    }
}

static uint8_t *random_alloc(size_t len) {
    uint8_t *p = malloc(len ? len : 1);
    assert_non_null(p);
    random_fill(p, len);
    return p;
}

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
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, k, klen, &p, false,
                                          usages, &key),
                     WEBCRYPTO_OK);
    assert_non_null(key);
    return key;
}

static webcrypto_key *random_aes_key(webcrypto_algorithm alg, size_t bytes) {
    uint8_t k[32];
    random_fill(k, bytes);
    return import_raw(alg, WEBCRYPTO_ALG_NONE, k, bytes,
                      WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT);
}

static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA_1, WEBCRYPTO_ALG_SHA_256,
                                             WEBCRYPTO_ALG_SHA_384, WEBCRYPTO_ALG_SHA_512};
#define NHASHES (sizeof hashes / sizeof *hashes)

/* Lengths around the SHA block sizes (64 and 128) and some bigger ones. */
static const size_t hash_lens[] = {0,   1,   2,   55,  56,   57,   63,    64,    65,
                                   111, 112, 127, 128, 129,  191,  192,   255,   256,
                                   257, 999, 1000, 4096, 4097, 65537, 200003};
#define NHASH_LENS (sizeof hash_lens / sizeof *hash_lens)

/* -------------------------------------------------------------- digest */

static void test_digest_streaming(void **state) {
    (void)state;
    uint64_t rng = 1;
    uint8_t *data = random_alloc(200003);
    for (size_t h = 0; h < NHASHES; h++) {
        for (size_t li = 0; li < NHASH_LENS; li++) {
            size_t n = hash_lens[li];
            uint8_t one[64];
            size_t one_len = 0;
            tu_assert_status(webcrypto_digest(tu_backend(), hashes[h], data, n, one, sizeof one,
                                              &one_len),
                             WEBCRYPTO_OK);
            for (int run = 0; run < 8; run++) {
                int style = run % SPLIT_STYLES;
                webcrypto_digest_ctx *ctx = NULL;
                tu_assert_status(webcrypto_digest_init(tu_backend(), hashes[h], &ctx),
                                 WEBCRYPTO_OK);
                size_t off = 0;
                while (off < n) {
                    size_t c = next_chunk(&rng, style, n - off);
                    /* an empty update may pass NULL */
                    tu_assert_status(webcrypto_digest_update(ctx, c ? data + off : NULL, c),
                                     WEBCRYPTO_OK);
                    off += c;
                }
                uint8_t out[64];
                size_t out_len = 0;
                tu_assert_status(webcrypto_digest_final(ctx, out, sizeof out, &out_len),
                                 WEBCRYPTO_OK);
                webcrypto_digest_ctx_free(ctx);
                assert_int_equal(out_len, one_len);
                assert_memory_equal(out, one, one_len);
            }
        }
    }
    free(data);
}

/* ------------------------------------------------------------ sign/verify */

static void test_hmac_streaming(void **state) {
    (void)state;
    uint64_t rng = 2;
    const webcrypto_params p = params_of(WEBCRYPTO_ALG_HMAC);
    uint8_t *data = random_alloc(200003);
    static const size_t key_lens[] = {1, 20, 64, 65, 129, 200};
    for (size_t h = 0; h < NHASHES; h++) {
        for (size_t ki = 0; ki < sizeof key_lens / sizeof *key_lens; ki++) {
            uint8_t kb[200];
            random_fill(kb, key_lens[ki]);
            webcrypto_key *key = import_raw(WEBCRYPTO_ALG_HMAC, hashes[h], kb, key_lens[ki],
                                            WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
            for (size_t li = 0; li < NHASH_LENS; li += 1 + ki) {
                size_t n = hash_lens[li];
                uint8_t one[64];
                size_t one_len = 0;
                tu_assert_status(webcrypto_sign(&p, key, data, n, one, sizeof one, &one_len),
                                 WEBCRYPTO_OK);
                assert_int_equal(one_len, webcrypto_digest_size(hashes[h]));
                int style = (int)(li % SPLIT_STYLES);

                /* sign */
                webcrypto_sign_ctx *ctx = NULL;
                tu_assert_status(webcrypto_sign_init(&p, key, &ctx), WEBCRYPTO_OK);
                for (size_t off = 0; off < n;) {
                    size_t c = next_chunk(&rng, style, n - off);
                    tu_assert_status(webcrypto_sign_update(ctx, data + off, c), WEBCRYPTO_OK);
                    off += c;
                }
                uint8_t mac[64];
                size_t mac_len = 0;
                tu_assert_status(webcrypto_sign_final(ctx, mac, sizeof mac, &mac_len),
                                 WEBCRYPTO_OK);
                webcrypto_sign_ctx_free(ctx);
                assert_int_equal(mac_len, one_len);
                assert_memory_equal(mac, one, one_len);

                /* verify: the right MAC, one flipped bit, a truncated MAC */
                for (int k = 0; k < 3; k++) {
                    uint8_t sig[64];
                    memcpy(sig, one, one_len);
                    size_t sig_len = one_len;
                    if (k == 1) sig[rng_below(&rng, one_len)] ^= (uint8_t)(1u << rng_below(&rng, 8));
                    if (k == 2) sig_len--;
                    tu_assert_status(webcrypto_verify_init(&p, key, &ctx), WEBCRYPTO_OK);
                    for (size_t off = 0; off < n;) {
                        size_t c = next_chunk(&rng, style, n - off);
                        tu_assert_status(webcrypto_sign_update(ctx, data + off, c),
                                         WEBCRYPTO_OK);
                        off += c;
                    }
                    bool valid = (k != 0);
                    tu_assert_status(webcrypto_verify_final(ctx, sig, sig_len, &valid),
                                     WEBCRYPTO_OK);
                    webcrypto_sign_ctx_free(ctx);
                    assert_int_equal(valid, k == 0);
                }
            }
            webcrypto_key_free(key);
        }
    }
    free(data);
}

/* -------------------------------------------------------------- cipher */

/* Runs in[0..n) through a cipher context in random chunks; the output goes
 * to out (room for n + 32). Each update gets exactly the room the header
 * promises is enough (data_len + 15), final gets 16. Returns the final status
 * and the total length in *out_len. */
static webcrypto_status stream_cipher(const webcrypto_params *p, const webcrypto_key *key,
                                      bool encrypt, const uint8_t *in, size_t n, uint64_t *rng,
                                      int style, uint8_t *out, size_t *out_len) {
    webcrypto_cipher_ctx *ctx = NULL;
    tu_assert_status(webcrypto_cipher_init(p, key, encrypt, &ctx), WEBCRYPTO_OK);
    assert_non_null(ctx);
    size_t off = 0, total = 0;
    while (off < n) {
        size_t c = next_chunk(rng, style, n - off);
        size_t w = 0;
        tu_assert_status(webcrypto_cipher_update(ctx, c ? in + off : NULL, c, out + total,
                                                 c + 15, &w),
                         WEBCRYPTO_OK);
        assert_true(w <= c + 15);
        total += w;
        off += c;
        assert_true(total <= off); /* never more out than in, before final */
    }
    size_t w = 0;
    webcrypto_status st = webcrypto_cipher_final(ctx, out + total, 16, &w);
    webcrypto_cipher_ctx_free(ctx);
    if (st == WEBCRYPTO_OK) {
        assert_true(w <= 16);
        total += w;
    }
    *out_len = total;
    return st;
}

/* One-shot encrypt of in[0..n) with p, then for several splits: streaming
 * encryption equals it, and streaming decryption of it gives in back. */
static void check_stream_vs_oneshot(const webcrypto_params *p, const webcrypto_key *key,
                                    const uint8_t *in, size_t n, uint64_t *rng, int runs) {
    size_t cap = n + 32;
    uint8_t *one = malloc(cap);
    uint8_t *out = malloc(cap);
    assert_non_null(one);
    assert_non_null(out);
    size_t one_len = 0;
    tu_assert_status(webcrypto_encrypt(p, key, in, n, one, cap, &one_len), WEBCRYPTO_OK);

    /* the one-shot decryption agrees too: with room to spare, with the
     * least room the API takes (CBC: the ciphertext's size less one, so no
     * room for a whole padding block, which is then decrypted apart), and in
     * place; and the one-shot encryption in place */
    size_t back_len = 0;
    tu_assert_status(webcrypto_decrypt(p, key, one, one_len, out, cap, &back_len), WEBCRYPTO_OK);
    assert_int_equal(back_len, n);
    if (n) assert_memory_equal(out, in, n);
    size_t least = one_len > n ? one_len - 1 : n;
    uint8_t *exact = malloc(least ? least : 1);
    assert_non_null(exact);
    tu_assert_status(webcrypto_decrypt(p, key, one, one_len, exact, least, &back_len),
                     WEBCRYPTO_OK);
    assert_int_equal(back_len, n);
    if (n) assert_memory_equal(exact, in, n);
    free(exact);
    memcpy(out, one, one_len);
    tu_assert_status(webcrypto_decrypt(p, key, out, one_len, out, cap, &back_len), WEBCRYPTO_OK);
    assert_int_equal(back_len, n);
    if (n) assert_memory_equal(out, in, n);
    if (n) memcpy(out, in, n);
    size_t again = 0;
    tu_assert_status(webcrypto_encrypt(p, key, out, n, out, cap, &again), WEBCRYPTO_OK);
    assert_int_equal(again, one_len);
    assert_memory_equal(out, one, one_len);

    for (int run = 0; run < runs; run++) {
        int style = (int)rng_below(rng, SPLIT_STYLES);
        if (n > 100000 && style == SPLIT_TINY) style = SPLIT_MIXED; /* keep it quick */
        size_t len = 0;
        tu_assert_status(stream_cipher(p, key, true, in, n, rng, style, out, &len), WEBCRYPTO_OK);
        assert_int_equal(len, one_len);
        if (len) assert_memory_equal(out, one, len);

        len = 0;
        tu_assert_status(stream_cipher(p, key, false, one, one_len, rng, style, out, &len),
                         WEBCRYPTO_OK);
        assert_int_equal(len, n);
        if (n) assert_memory_equal(out, in, n);
    }
    free(one);
    free(out);
}

static const size_t aes_key_bytes[] = {16, 24, 32};

static void test_cbc_streaming(void **state) {
    (void)state;
    uint64_t rng = 3;
    const size_t big = (1u << 20) + 7;
    uint8_t *data = random_alloc(big);
    uint8_t iv[16];
    for (size_t ki = 0; ki < 3; ki++) {
        webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_CBC, aes_key_bytes[ki]);
        random_fill(iv, sizeof iv);
        webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CBC);
        p.iv = iv;
        p.iv_len = sizeof iv;
        for (size_t n = 0; n <= 100; n++) check_stream_vs_oneshot(&p, key, data, n, &rng, 6);
        static const size_t large[] = {4095, 4096, 65536 + 15, 200000};
        for (size_t i = 0; i < sizeof large / sizeof *large; i++)
            check_stream_vs_oneshot(&p, key, data, large[i], &rng, 3);
        if (ki == 0) check_stream_vs_oneshot(&p, key, data, big, &rng, 2);
        webcrypto_key_free(key);
    }
    free(data);
}

static void test_ctr_streaming(void **state) {
    (void)state;
    uint64_t rng = 4;
    const size_t big = (1u << 20) + 7;
    uint8_t *data = random_alloc(big);
    uint8_t ctr[16];
    static const size_t lengths[] = {128, 64, 32};
    for (size_t ki = 0; ki < 3; ki++) {
        webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_CTR, aes_key_bytes[ki]);
        random_fill(ctr, sizeof ctr);
        /* keep the low 32 bits far from wrapping, so every length works */
        ctr[12] = 0;
        webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
        p.counter = ctr;
        p.counter_len = sizeof ctr;
        p.length = lengths[ki];
        for (size_t n = 0; n <= 100; n++) check_stream_vs_oneshot(&p, key, data, n, &rng, 4);
        check_stream_vs_oneshot(&p, key, data, 65536 + 15, &rng, 3);
        if (ki == 0) check_stream_vs_oneshot(&p, key, data, big, &rng, 2);
        webcrypto_key_free(key);
    }
    free(data);
}

/* Streams with fixed chunk sizes (the last chunk takes the rest). */
static void stream_fixed(const webcrypto_params *p, const webcrypto_key *key, const uint8_t *in,
                         size_t n, const size_t *chunks, size_t nchunks, uint8_t *out,
                         size_t *out_len) {
    webcrypto_cipher_ctx *ctx = NULL;
    tu_assert_status(webcrypto_cipher_init(p, key, true, &ctx), WEBCRYPTO_OK);
    size_t off = 0, total = 0;
    for (size_t i = 0; i <= nchunks && off <= n; i++) {
        size_t c = i < nchunks ? chunks[i] : n - off;
        if (c > n - off) c = n - off;
        size_t w = 0;
        tu_assert_status(webcrypto_cipher_update(ctx, in + off, c, out + total, c + 15, &w),
                         WEBCRYPTO_OK);
        total += w;
        off += c;
        if (off == n) break;
    }
    size_t w = 0;
    tu_assert_status(webcrypto_cipher_final(ctx, out + total, 16, &w), WEBCRYPTO_OK);
    webcrypto_cipher_ctx_free(ctx);
    *out_len = total + w;
}

/* The counter wraps inside the `length` low bits, in the middle of a chunk
 * and in the middle of a block. */
static void test_ctr_streaming_wrap(void **state) {
    (void)state;
    uint64_t rng = 5;
    const size_t n = 1000;
    uint8_t *data = random_alloc(n);
    uint8_t one[1000], out[1032];
    webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_CTR, 16);

    /* length 16 and low 16 bits 0xfff0: the wrap comes after 16 blocks, at
     * byte 256 */
    uint8_t ctr[16];
    random_fill(ctr, sizeof ctr);
    ctr[14] = 0xff;
    ctr[15] = 0xf0;
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
    p.counter = ctr;
    p.counter_len = sizeof ctr;
    p.length = 16;
    size_t one_len = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, data, n, one, sizeof one, &one_len),
                     WEBCRYPTO_OK);
    assert_int_equal(one_len, n);

    /* the one-shot output is the first 256 bytes under the counter, then the
     * rest under the counter with its low 16 bits zeroed */
    uint8_t part[1000];
    size_t part_len = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, data, 256, part, sizeof part, &part_len),
                     WEBCRYPTO_OK);
    assert_memory_equal(one, part, 256);
    uint8_t ctr0[16];
    memcpy(ctr0, ctr, 16);
    ctr0[14] = ctr0[15] = 0;
    webcrypto_params p0 = p;
    p0.counter = ctr0;
    p0.length = 128;
    tu_assert_status(webcrypto_encrypt(&p0, key, data + 256, n - 256, part, sizeof part,
                                       &part_len),
                     WEBCRYPTO_OK);
    assert_memory_equal(one + 256, part, n - 256);

    /* fixed splits around byte 256, then random ones */
    static const size_t s1[] = {250, 13};    /* 250..263: wrap mid-chunk, mid-block */
    static const size_t s2[] = {256};        /* split right at the wrap */
    static const size_t s3[] = {8, 250, 1};  /* 8..258 crosses the wrap, blocks split */
    static const size_t s4[] = {255, 1, 1};  /* the byte before and after */
    static const size_t s5[] = {0, 1000};
    const struct {
        const size_t *c;
        size_t n;
    } fixed[] = {{s1, 2}, {s2, 1}, {s3, 3}, {s4, 3}, {s5, 2}};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        size_t len = 0;
        stream_fixed(&p, key, data, n, fixed[i].c, fixed[i].n, out, &len);
        assert_int_equal(len, n);
        assert_memory_equal(out, one, n);
    }
    for (int run = 0; run < 40; run++) {
        size_t len = 0;
        tu_assert_status(
            stream_cipher(&p, key, true, data, n, &rng, run % SPLIT_STYLES, out, &len),
            WEBCRYPTO_OK);
        assert_int_equal(len, n);
        assert_memory_equal(out, one, n);
        tu_assert_status(
            stream_cipher(&p, key, false, one, n, &rng, run % SPLIT_STYLES, out, &len),
            WEBCRYPTO_OK);
        assert_int_equal(len, n);
        assert_memory_equal(out, data, n);
    }

    /* other wraps: the whole 128-bit counter (ff..ff -> 00..00), and the low
     * 64 bits two blocks before the wrap */
    memset(ctr, 0xff, sizeof ctr);
    p.length = 128;
    check_stream_vs_oneshot(&p, key, data, n, &rng, 8);
    random_fill(ctr, sizeof ctr);
    memset(ctr + 8, 0xff, 8);
    ctr[15] = 0xfe;
    p.length = 64;
    check_stream_vs_oneshot(&p, key, data, n, &rng, 8);

    webcrypto_key_free(key);
    free(data);
}

/* A stream may not use more than 2^length counter blocks either. */
static void test_ctr_streaming_exhausted(void **state) {
    (void)state;
    webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_CTR, 16);
    uint8_t ctr[16];
    random_fill(ctr, sizeof ctr);
    ctr[15] = 0x00;
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CTR);
    p.counter = ctr;
    p.counter_len = sizeof ctr;
    p.length = 8;
    static uint8_t in[4096 + 16], out[4096 + 64];

    /* exactly 256 blocks: fine, and equal to the one-shot */
    uint8_t one[4096];
    size_t one_len = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, in, 4096, one, sizeof one, &one_len),
                     WEBCRYPTO_OK);
    static const size_t ok_chunks[] = {1000, 3, 2000};
    size_t len = 0;
    stream_fixed(&p, key, in, 4096, ok_chunks, 3, out, &len);
    assert_int_equal(len, 4096);
    assert_memory_equal(out, one, 4096);

    /* one byte more needs a 257th block: the stream must fail, at the update
     * that goes past the limit or at the latest at final */
    webcrypto_cipher_ctx *ctx = NULL;
    tu_assert_status(webcrypto_cipher_init(&p, key, true, &ctx), WEBCRYPTO_OK);
    size_t w = 0;
    tu_assert_status(webcrypto_cipher_update(ctx, in, 4000, out, 4000 + 15, &w), WEBCRYPTO_OK);
    size_t total = w;
    webcrypto_status st = webcrypto_cipher_update(ctx, in + 4000, 97, out + total, 97 + 15, &w);
    if (st == WEBCRYPTO_OK) {
        total += w;
        st = webcrypto_cipher_final(ctx, out + total, 16, &w);
    }
    tu_assert_status(st, WEBCRYPTO_ERR_OPERATION);
    assert_true(webcrypto_error_message()[0] != '\0');
    webcrypto_cipher_ctx_free(ctx);
    webcrypto_key_free(key);
}

/* An out == NULL query on update reports a bound and consumes nothing. */
static void test_cipher_update_query(void **state) {
    (void)state;
    uint8_t *data = random_alloc(100);
    webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_CBC, 16);
    uint8_t iv[16];
    random_fill(iv, sizeof iv);
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CBC);
    p.iv = iv;
    p.iv_len = sizeof iv;
    uint8_t one[112], out[112 + 16];
    size_t one_len = 0;
    tu_assert_status(webcrypto_encrypt(&p, key, data, 100, one, sizeof one, &one_len),
                     WEBCRYPTO_OK);

    webcrypto_cipher_ctx *ctx = NULL;
    tu_assert_status(webcrypto_cipher_init(&p, key, true, &ctx), WEBCRYPTO_OK);
    size_t total = 0;
    static const size_t chunks[] = {7, 30, 63};
    size_t off = 0;
    for (size_t i = 0; i < 3; i++) {
        size_t q = 0, w = 0;
        tu_assert_status(webcrypto_cipher_update(ctx, data + off, chunks[i], NULL, 0, &q),
                         WEBCRYPTO_OK);
        assert_true(q <= chunks[i] + 15);
        tu_assert_status(webcrypto_cipher_update(ctx, data + off, chunks[i], out + total, q, &w),
                         WEBCRYPTO_OK);
        assert_true(w <= q);
        total += w;
        off += chunks[i];
    }
    size_t q = 0, w = 0;
    tu_assert_status(webcrypto_cipher_final(ctx, NULL, 0, &q), WEBCRYPTO_OK);
    assert_true(q <= 16);
    tu_assert_status(webcrypto_cipher_final(ctx, out + total, q, &w), WEBCRYPTO_OK);
    total += w;
    webcrypto_cipher_ctx_free(ctx);
    assert_int_equal(total, one_len);
    assert_memory_equal(out, one, one_len);
    webcrypto_key_free(key);
    free(data);
}

/* ---------------------------------------------------- errors in streams */

static webcrypto_status stream_decrypt_fixed(const webcrypto_params *p, const webcrypto_key *key,
                                             const uint8_t *in, size_t n, size_t chunk) {
    webcrypto_cipher_ctx *ctx = NULL;
    tu_assert_status(webcrypto_cipher_init(p, key, false, &ctx), WEBCRYPTO_OK);
    uint8_t out[64 + 16];
    assert_true(n <= 64);
    size_t total = 0;
    for (size_t off = 0; off < n;) {
        size_t c = n - off < chunk ? n - off : chunk;
        size_t w = 0;
        tu_assert_status(webcrypto_cipher_update(ctx, in + off, c, out + total, c + 15, &w),
                         WEBCRYPTO_OK);
        total += w;
        off += c;
    }
    size_t w = 0;
    webcrypto_status st = webcrypto_cipher_final(ctx, out + total, 16, &w);
    if (st != WEBCRYPTO_OK) assert_true(webcrypto_error_message()[0] != '\0');
    webcrypto_cipher_ctx_free(ctx);
    return st;
}

static void test_cbc_streaming_bad_padding(void **state) {
    (void)state;
    webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_CBC, 16);
    uint8_t iv[16];
    random_fill(iv, sizeof iv);
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_CBC);
    p.iv = iv;
    p.iv_len = sizeof iv;
    uint8_t pt[32], ct[48];
    random_fill(pt, sizeof pt);
    size_t ct_len = 0;
    /* 32 bytes of data: the last block is all padding, 16 bytes of 0x10 */
    tu_assert_status(webcrypto_encrypt(&p, key, pt, 32, ct, sizeof ct, &ct_len), WEBCRYPTO_OK);
    assert_int_equal(ct_len, 48);

    static const size_t chunks[] = {1, 5, 16, 17, 48};
    for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++)
        tu_assert_status(stream_decrypt_fixed(&p, key, ct, ct_len, chunks[i]), WEBCRYPTO_OK);

    /* Flipping bits of the second ciphertext block flips the same bits of
     * the last plaintext block: each change below breaks the padding. */
    static const struct {
        size_t pos;
        uint8_t x;
    } flips[] = {
        {16 + 0, 0x01},  /* first pad byte 0x11: not all 0x10 */
        {16 + 14, 0x80}, /* second-to-last pad byte */
        {16 + 15, 0x10}, /* last byte 0x00: pad length 0 */
        {16 + 15, 0x01}, /* last byte 0x11: pad length 17 > 16 */
    };
    for (size_t f = 0; f < sizeof flips / sizeof *flips; f++) {
        uint8_t bad[48];
        memcpy(bad, ct, sizeof bad);
        bad[flips[f].pos] ^= flips[f].x;
        uint8_t out[48];
        size_t out_len = 0;
        tu_assert_status(webcrypto_decrypt(&p, key, bad, 48, out, sizeof out, &out_len),
                         WEBCRYPTO_ERR_OPERATION);
        for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++)
            tu_assert_status(stream_decrypt_fixed(&p, key, bad, 48, chunks[i]),
                             WEBCRYPTO_ERR_OPERATION);
    }

    /* a ciphertext that is not whole blocks, or empty, fails at final */
    tu_assert_status(stream_decrypt_fixed(&p, key, ct, 47, 5), WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(stream_decrypt_fixed(&p, key, ct, 20, 16), WEBCRYPTO_ERR_OPERATION);
    tu_assert_status(stream_decrypt_fixed(&p, key, ct, 0, 1), WEBCRYPTO_ERR_OPERATION);
    webcrypto_key_free(key);
}

static void test_gcm_streaming_not_supported(void **state) {
    (void)state;
    webcrypto_key *key = random_aes_key(WEBCRYPTO_ALG_AES_GCM, 16);
    uint8_t iv[12] = {0};
    webcrypto_params p = params_of(WEBCRYPTO_ALG_AES_GCM);
    p.iv = iv;
    p.iv_len = sizeof iv;
    for (int enc = 0; enc < 2; enc++) {
        webcrypto_cipher_ctx *ctx = NULL;
        tu_assert_status(webcrypto_cipher_init(&p, key, enc != 0, &ctx),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
        assert_null(ctx);
        assert_true(webcrypto_error_message()[0] != '\0');
    }
    webcrypto_key_free(key);
}

/* After final, a context takes only free: further calls fail cleanly. */
/* A call on a finished context: exactly TypeError (the header's rule), with
 * the message saying why. */
#define assert_finished(call) assert_finished_at((call), #call, __LINE__)
static void assert_finished_at(webcrypto_status st, const char *what, int line) {
    if (st != WEBCRYPTO_ERR_INVALID_ARGUMENT || !strstr(webcrypto_error_message(), "already finished"))
        fail_msg("line %d: %s gave %s (%s), not TypeError \"... already finished\"", line, what,
                 webcrypto_status_name(st), webcrypto_error_message());
}

static void test_use_after_final(void **state) {
    (void)state;
    uint8_t buf[64], out[96];
    size_t len = 0;
    memset(buf, 0x5a, sizeof buf);

    webcrypto_digest_ctx *d = NULL;
    tu_assert_status(webcrypto_digest_init(tu_backend(), WEBCRYPTO_ALG_SHA_256, &d),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_digest_update(d, buf, 10), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_digest_final(d, out, sizeof out, &len), WEBCRYPTO_OK);
    assert_finished(webcrypto_digest_update(d, buf, 10));
    assert_finished(webcrypto_digest_final(d, out, sizeof out, &len));
    webcrypto_digest_ctx_free(d);

    webcrypto_key *hk = import_raw(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA_256, buf, 32,
                                   WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    const webcrypto_params hp = params_of(WEBCRYPTO_ALG_HMAC);
    webcrypto_sign_ctx *s = NULL;
    tu_assert_status(webcrypto_sign_init(&hp, hk, &s), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign_update(s, buf, 10), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign_final(s, out, sizeof out, &len), WEBCRYPTO_OK);
    assert_finished(webcrypto_sign_update(s, buf, 10));
    assert_finished(webcrypto_sign_final(s, out, sizeof out, &len));
    webcrypto_sign_ctx_free(s);

    bool valid = false;
    tu_assert_status(webcrypto_verify_init(&hp, hk, &s), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign_update(s, buf, 10), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_verify_final(s, out, 32, &valid), WEBCRYPTO_OK);
    assert_true(valid);
    assert_finished(webcrypto_sign_update(s, buf, 10));
    assert_finished(webcrypto_verify_final(s, out, 32, &valid));
    webcrypto_sign_ctx_free(s);
    webcrypto_key_free(hk);

    static const webcrypto_algorithm algs[] = {WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR};
    for (size_t a = 0; a < 2; a++) {
        webcrypto_key *key = random_aes_key(algs[a], 16);
        webcrypto_params p = params_of(algs[a]);
        p.iv = buf;
        p.iv_len = 16;
        p.counter = buf;
        p.counter_len = 16;
        p.length = 64;
        webcrypto_cipher_ctx *c = NULL;
        tu_assert_status(webcrypto_cipher_init(&p, key, true, &c), WEBCRYPTO_OK);
        tu_assert_status(webcrypto_cipher_update(c, buf, 20, out, 35, &len), WEBCRYPTO_OK);
        tu_assert_status(webcrypto_cipher_final(c, out + len, 16, &len), WEBCRYPTO_OK);
        assert_finished(webcrypto_cipher_update(c, buf, 20, out, 35, &len));
        assert_finished(webcrypto_cipher_final(c, out, 16, &len));
        webcrypto_cipher_ctx_free(c);
        webcrypto_key_free(key);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_streaming),
        cmocka_unit_test(test_hmac_streaming),
        cmocka_unit_test(test_cbc_streaming),
        cmocka_unit_test(test_ctr_streaming),
        cmocka_unit_test(test_ctr_streaming_wrap),
        cmocka_unit_test(test_ctr_streaming_exhausted),
        cmocka_unit_test(test_cipher_update_query),
        cmocka_unit_test(test_cbc_streaming_bad_padding),
        cmocka_unit_test(test_gcm_streaming_not_supported),
        cmocka_unit_test(test_use_after_final),
    };
    return tu_run_group("streaming", tests, NULL, NULL);
}
