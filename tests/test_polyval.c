/*
 * test_polyval.c - POLYVAL (src/backends/openssl/polyval.c), compiled in
 * directly: RFC 8452's worked example (Appendix A) and POLYVAL values from
 * its Appendix C on every implementation this CPU has, and the portable and
 * each accelerated implementation agreeing on random keys and inputs of
 * many lengths, in one update, in pieces, and through update_xor. Without
 * an accelerated implementation (VPCLMULQDQ or PCLMULQDQ on x86-64, PMULL
 * on aarch64) the accelerated tests are skipped, said so, and the program
 * exits 77; an implementation the CPU lacks is named as untested.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "polyval.h"

/* The accelerated implementations this CPU has, fastest first. */
static wc_polyval_impl g_accel[3];
static size_t g_naccel;

/* testutil.c is not linked here (it needs the library); a small hex decoder. */
static size_t unhex(const char *h, uint8_t *out, size_t cap) {
    size_t n = 0;
    int hi = -1;
    for (; *h; h++) {
        char c = *h;
        if (c == ' ') continue;
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        assert_true(v >= 0);
        if (hi < 0) {
            hi = v;
        } else {
            assert_true(n < cap);
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    assert_true(hi < 0);
    return n;
}

static void polyval_once(wc_polyval_impl impl, const uint8_t h[16], const uint8_t *in, size_t len,
                         uint8_t out[16]) {
    wc_polyval ctx;
    wc_polyval_init(&ctx, h, impl);
    assert_int_equal(ctx.impl, impl);
    wc_polyval_update(&ctx, in, len);
    wc_polyval_final(&ctx, out);
    wc_polyval_wipe(&ctx);
}

typedef struct pv_vector {
    const char *h, *input, *result;
} pv_vector;

static const pv_vector rfc_vectors[] = {
    /* Appendix A */
    {"25629347589242761d31f826ba4b757b",
     "4f4f95668c83dfb6401762bb2d01a262 d1a24ddd2721d006bbe45f20d3c9f362",
     "f7a3b47b846119fae5b7866cf5e5b77e"},
    /* Appendix C.1: record authentication key, POLYVAL input and result */
    {"d9b360279694941ac5dbc6987ada7377",
     "01000000000000000000000000000000 00000000000000004000000000000000",
     "eb93b7740962c5e49d2a90a7dc5cec74"},
    {"3e28de1120b2981a0155795ca2812af6",
     "46bb91c3c50000000000000000000000 7a806c00000000000000000000000000"
     "28000000000000001800000000000000",
     "43d9a745511dcfa21b96dd606f1d5720"},
    {"d9b360279694941ac5dbc6987ada7377",
     "01000000000000000000000000000000 02000000000000000000000000000000"
     "03000000000000000000000000000000 04000000000000000000000000000000"
     "05000000000000000000000000000000 08000000000000000002000000000000",
     "ffcd05d5770f34ad9267f0a59994b15a"},
    /* Appendix C.2 */
    {"cb8c3aa3f8dbaeb4b28a3e86ff6625f8",
     "734320ccc9d9bbbb19cb81b2af4ecbc3 e72834321f7aa0f70b7282b4f33df23f"
     "16754100000000000000000000000000 ced532ce4159b035277d4dfbb7db6296"
     "8b13cd4eec0000000000000000000000 1801000000000000a800000000000000",
     "ffd503c7dd712eb3791b7114b17bb0cf"},
    /* Appendix C.3 */
    {"dc95c078a24089895275f3d86b4fb868",
     "00000000000000000000000000000000 4db923dc793ee6497c76dcc03a98e108"
     "00000000000000000001000000000000",
     "7367cdb411b730128dd56e8edc0eff56"},
};

static void run_rfc(wc_polyval_impl impl) {
    for (size_t i = 0; i < sizeof rfc_vectors / sizeof rfc_vectors[0]; i++) {
        uint8_t h[16], in[128], want[16], got[16];
        assert_int_equal(unhex(rfc_vectors[i].h, h, sizeof h), 16);
        size_t n = unhex(rfc_vectors[i].input, in, sizeof in);
        assert_int_equal(unhex(rfc_vectors[i].result, want, sizeof want), 16);
        polyval_once(impl, h, in, n, got);
        if (memcmp(got, want, 16) != 0)
            fail_msg("%s: RFC 8452 POLYVAL vector %zu is wrong", wc_polyval_impl_name(impl), i);
        /* block by block gives the same */
        wc_polyval ctx;
        wc_polyval_init(&ctx, h, impl);
        for (size_t off = 0; off < n; off += 16) wc_polyval_update(&ctx, in + off, 16);
        wc_polyval_final(&ctx, got);
        assert_memory_equal(got, want, 16);
    }
}

static void test_rfc_portable(void **state) {
    (void)state;
    run_rfc(WC_POLYVAL_PORTABLE);
}

static void test_rfc_accelerated(void **state) {
    (void)state;
    if (g_naccel == 0) {
        printf("skipped: no PCLMULQDQ (and no PMULL): no accelerated POLYVAL here\n");
        skip();
    }
    for (size_t i = 0; i < g_naccel; i++) run_rfc(g_accel[i]);
}

/* xorshift64*: reproducible inputs (the seed is printed). */
static uint64_t g_rng;
static uint64_t rng_next(void) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * UINT64_C(2685821657736338717);
}
static void rng_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(rng_next() >> 56);
}

/* A buffer of exactly n bytes (at least 1), so that AddressSanitizer sees
 * any read past the input. */
static uint8_t *exact(size_t n) {
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

/* The portable result for (h, in) against accel's: in one update; in uneven
 * pieces, each randomly an update or an update_xor of (in ^ ks) with ks
 * (what decryption does, after the additional data's updates), in place
 * for odd trials. */
static void compare_one(wc_polyval_impl accel, const uint8_t h[16], const uint8_t *in, size_t len,
                        int trial) {
    uint8_t a[16], b[16];
    polyval_once(WC_POLYVAL_PORTABLE, h, in, len, a);
    polyval_once(accel, h, in, len, b);
    if (memcmp(a, b, 16) != 0)
        fail_msg("length %zu, trial %d: portable and %s POLYVAL differ", len, trial,
                 wc_polyval_impl_name(accel));
    uint8_t *ks = exact(len), *masked = exact(len), *sep = exact(len);
    rng_fill(ks, len);
    for (size_t i = 0; i < len; i++) masked[i] = (uint8_t)(in[i] ^ ks[i]);
    uint8_t *out = trial & 1 ? masked : sep;
    wc_polyval ctx;
    wc_polyval_init(&ctx, h, accel);
    size_t off = 0, xored = 0;
    while (off < len) {
        size_t piece = 16 * (1 + rng_next() % 40);
        if (piece > len - off) piece = len - off;
        if (rng_next() & 1) {
            wc_polyval_update_xor(&ctx, out + off, masked + off, ks + off, piece);
            if (memcmp(out + off, in + off, piece) != 0)
                fail_msg("length %zu, trial %d: %s update_xor wrote the wrong bytes", len, trial,
                         wc_polyval_impl_name(accel));
            xored += piece;
        } else {
            wc_polyval_update(&ctx, in + off, piece);
        }
        off += piece;
    }
    wc_polyval_final(&ctx, b);
    if (memcmp(a, b, 16) != 0)
        fail_msg("length %zu, trial %d: %s POLYVAL in pieces (%zu of %zu bytes by update_xor) "
                 "differs",
                 len, trial, wc_polyval_impl_name(accel), xored, len);
    /* The whole input by one update_xor. */
    for (size_t i = 0; i < len; i++) masked[i] = (uint8_t)(in[i] ^ ks[i]);
    wc_polyval_init(&ctx, h, accel);
    wc_polyval_update_xor(&ctx, out, masked, ks, len);
    wc_polyval_final(&ctx, b);
    if (memcmp(a, b, 16) != 0 || memcmp(out, in, len) != 0)
        fail_msg("length %zu, trial %d: %s update_xor differs", len, trial,
                 wc_polyval_impl_name(accel));
    wc_polyval_wipe(&ctx);
    free(ks);
    free(masked);
    free(sep);
}

static void test_portable_vs_accelerated(void **state) {
    (void)state;
    if (g_naccel == 0) {
        printf("skipped: no PCLMULQDQ (and no PMULL): nothing to compare the portable "
               "POLYVAL with\n");
        skip();
    }
    uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
    const char *env = getenv("WEBCRYPTO_TEST_SEED");
    if (env && *env) seed = strtoull(env, NULL, 0) | 1;
    g_rng = seed;
    printf("seed 0x%llx\n", (unsigned long long)seed);

    enum { MAX = 70000 };
    /* Every length up to 40 blocks and more, then some large ones. */
    size_t lens[700], n = 0;
    for (size_t l = 0; l <= 640; l++) lens[n++] = l;
    const size_t big[] = {1023, 1024, 1025, 4095, 4096, 4097, 16384, 65536, 65541, MAX};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) lens[n++] = big[i];
    /* Special keys as well as random ones: 0, 1, x^127, all ones; on short
     * inputs and on those of 16 blocks (256 bytes) and more, which take the
     * wide paths. */
    uint8_t special[4][16] = {{0}, {1}, {0}, {0}};
    special[2][15] = 0x80;
    memset(special[3], 0xff, 16);

    for (size_t a = 0; a < g_naccel; a++) {
        size_t compared = 0;
        for (size_t i = 0; i < n; i++) {
            uint8_t *in = exact(lens[i]);
            for (int trial = 0; trial < 3; trial++) {
                uint8_t h[16];
                if (trial == 0 && (i < 4 * 40 || (lens[i] >= 256 && lens[i] < 256 + 4 * 20)))
                    memcpy(h, special[i % 4], 16);
                else
                    rng_fill(h, 16);
                rng_fill(in, lens[i]);
                compare_one(g_accel[a], h, in, lens[i], trial);
                compared++;
            }
            free(in);
        }
        printf("portable vs %s: %zu inputs agreed\n", wc_polyval_impl_name(g_accel[a]), compared);
    }
}

/* The default is the fastest implementation this CPU has, unless
 * WEBCRYPTO_POLYVAL names another it has (checked when set). */
static void test_default_choice(void **state) {
    (void)state;
    const char *env = getenv("WEBCRYPTO_POLYVAL");
    wc_polyval_impl d = wc_polyval_default_impl();
    printf("default POLYVAL: %s%s%s\n", wc_polyval_impl_name(d),
           env ? " (WEBCRYPTO_POLYVAL=" : "", env ? env : "");
    if (env) printf(")\n");
    wc_polyval_impl want = g_naccel > 0 ? g_accel[0] : WC_POLYVAL_PORTABLE;
    const wc_polyval_impl all[] = {WC_POLYVAL_PORTABLE, WC_POLYVAL_CLMUL, WC_POLYVAL_VCLMUL,
                                   WC_POLYVAL_PMULL};
    for (size_t i = 0; env && i < sizeof all / sizeof all[0]; i++)
        if (strcmp(env, wc_polyval_impl_name(all[i])) == 0 && wc_polyval_impl_available(all[i]))
            want = all[i];
    assert_int_equal(d, want);
    assert_true(wc_polyval_impl_available(d));
}

int main(void) {
    const wc_polyval_impl order[] = {WC_POLYVAL_VCLMUL, WC_POLYVAL_CLMUL, WC_POLYVAL_PMULL};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (wc_polyval_impl_available(order[i]))
            g_accel[g_naccel++] = order[i];
        else
            printf("not on this CPU, so not tested: %s POLYVAL\n", wc_polyval_impl_name(order[i]));
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc_portable),
        cmocka_unit_test(test_rfc_accelerated),
        cmocka_unit_test(test_portable_vs_accelerated),
        cmocka_unit_test(test_default_choice),
    };
    int failed = cmocka_run_group_tests_name("polyval", tests, NULL, NULL);
    if (failed) return 1;
    if (g_naccel == 0) {
        printf("SKIP (in part): no PCLMULQDQ on this CPU - only the portable POLYVAL was "
               "tested\n");
        return 77;
    }
    return 0;
}
