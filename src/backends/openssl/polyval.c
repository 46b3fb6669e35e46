/*
 * polyval.c - POLYVAL (RFC 8452 section 3).
 *
 * POLYVAL works in GF(2^128) modulo x^128 + x^127 + x^126 + x^121 + 1 with
 * little-endian elements (bit i of the 16 bytes read as a little-endian
 * integer is the coefficient of x^i), and dot(a, b) = a * b * x^-128.
 * S_0 = 0, S_j = dot(S_{j-1} ^ X_j, H).
 *
 * Every implementation computes the 256-bit carry-less product and then a
 * Montgomery reduction by x^128 in two 64-bit folds: adding t0 * P (t0 the
 * lowest 64 bits) clears them, P's low 128 bits being 1 + x^121 + x^126 +
 * x^127 = 1 + x^64 * (x^57 + x^62 + x^63); the same again for the next 64
 * bits; what is left above x^128 is the result.
 *
 * The carry-less versions fold up to WC_POLYVAL_STRIDE blocks per
 * reduction: S_{j+k} = sum_i dot(X'_i, H^(k-i+1)) with X'_1 = X_1 ^ S_j,
 * using powers of H computed the first time a run needs them (reduction is
 * linear, so the products are summed unreduced and reduced once). The block
 * that carries S_j is added last: the next group waits only on it, the
 * other products being computed meanwhile. On x86-64 a short run before
 * any powers are made goes one block at a time instead (clmul_short).
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WC_POLYVAL_X86 1
#define _GNU_SOURCE /* secure_getenv: a setuid program's environment is not trusted */
#include <cpuid.h>
#include <immintrin.h>
#ifndef bit_VPCLMULQDQ
#define bit_VPCLMULQDQ (1 << 10) /* cpuid leaf 7, ecx */
#endif
#endif

/* aarch64: built for a CPU with the crypto extension, PMULL is always there;
 * otherwise GCC on Linux compiles it for those functions only and asks the
 * kernel (HWCAP_PMULL) at run time. */
/* Little-endian only: the code reads 64-bit lanes of byte vectors. */
#if defined(__aarch64__) && defined(__AARCH64EL__) && \
    (defined(__ARM_FEATURE_CRYPTO) || defined(__ARM_FEATURE_AES))
#define WC_POLYVAL_ARM 1
#define WC_PMULL_ALWAYS 1
#define PMULL_FN
#include <arm_neon.h>
#elif defined(__aarch64__) && defined(__AARCH64EL__) && defined(__GNUC__) && \
    !defined(__clang__) && defined(__linux__)
#define WC_POLYVAL_ARM 1
#define PMULL_FN __attribute__((target("+crypto")))
#include <arm_neon.h>
#include <sys/auxv.h>
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif
#endif

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h" /* wc_wipe */
#include "polyval.h"

/* ------------------------------------------------------------------------ */
/* Portable, constant-time                                                  */
/* ------------------------------------------------------------------------ */

static uint64_t load_le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void store_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* 32 x 32 -> 64-bit carry-less product by integer multiplication "with
 * holes": each operand is split into four parts keeping every fourth bit, so
 * that in an integer product of two parts every 4-bit group holds a count of
 * at most 8 terms and no carry reaches the next group; the low bit of each
 * group is then the XOR of its terms. Integer multiplication takes the same
 * time whatever the values on the CPUs this runs on, unlike table lookups. */
static uint64_t clmul32(uint32_t x, uint32_t y) {
    const uint64_t m0 = UINT64_C(0x1111111111111111), m1 = m0 << 1, m2 = m0 << 2,
                   m3 = m0 << 3;
    uint64_t x0 = x & (uint32_t)m0, x1 = x & (uint32_t)m1, x2 = x & (uint32_t)m2,
             x3 = x & (uint32_t)m3;
    uint64_t y0 = y & (uint32_t)m0, y1 = y & (uint32_t)m1, y2 = y & (uint32_t)m2,
             y3 = y & (uint32_t)m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/* 64 x 64 -> 128 (Karatsuba over 32-bit halves). */
static void clmul64(uint64_t x, uint64_t y, uint64_t *hi, uint64_t *lo) {
    uint32_t x0 = (uint32_t)x, x1 = (uint32_t)(x >> 32);
    uint32_t y0 = (uint32_t)y, y1 = (uint32_t)(y >> 32);
    uint64_t a = clmul32(x0, y0), b = clmul32(x1, y1);
    uint64_t c = clmul32(x0 ^ x1, y0 ^ y1) ^ a ^ b;
    *lo = a ^ (c << 32);
    *hi = b ^ (c >> 32);
}

/* One 64-bit Montgomery fold (see the file comment): the product t * (x^57 +
 * x^62 + x^63) is made of shifts, as that constant is public. */
static void fold64(uint64_t t, uint64_t *next, uint64_t *next2) {
    *next ^= (t << 57) ^ (t << 62) ^ (t << 63);
    *next2 ^= t ^ (t >> 7) ^ (t >> 2) ^ (t >> 1);
}

/* dot(a, b) on (lo, hi) 64-bit halves. */
static void portable_dot(uint64_t a_lo, uint64_t a_hi, uint64_t b_lo, uint64_t b_hi,
                         uint64_t *r_lo, uint64_t *r_hi) {
    uint64_t l_hi, l_lo, h_hi, h_lo, m_hi, m_lo;
    clmul64(a_lo, b_lo, &l_hi, &l_lo);
    clmul64(a_hi, b_hi, &h_hi, &h_lo);
    clmul64(a_lo ^ a_hi, b_lo ^ b_hi, &m_hi, &m_lo);
    m_lo ^= l_lo ^ h_lo;
    m_hi ^= l_hi ^ h_hi;
    uint64_t t0 = l_lo, t1 = l_hi ^ m_lo, t2 = h_lo ^ m_hi, t3 = h_hi;
    fold64(t0, &t1, &t2);
    fold64(t1, &t2, &t3);
    *r_lo = t2;
    *r_hi = t3;
}

static void portable_blocks(wc_polyval *ctx, const uint8_t *in, size_t nblocks) {
    uint64_t h_lo = load_le64(ctx->h), h_hi = load_le64(ctx->h + 8);
    uint64_t s_lo = load_le64(ctx->s), s_hi = load_le64(ctx->s + 8);
    for (; nblocks > 0; nblocks--, in += 16) {
        s_lo ^= load_le64(in);
        s_hi ^= load_le64(in + 8);
        portable_dot(s_lo, s_hi, h_lo, h_hi, &s_lo, &s_hi);
    }
    store_le64(ctx->s, s_lo);
    store_le64(ctx->s + 8, s_hi);
}

/* ------------------------------------------------------------------------ */
/* x86-64 PCLMULQDQ and VPCLMULQDQ                                          */
/* ------------------------------------------------------------------------ */

#ifdef WC_POLYVAL_X86
/* Only these functions use the instructions, so the rest of the build needs
 * no -m flags; they run only after cpuid reported them. SSE2 is part of
 * x86-64. */
#define CLMUL_FN __attribute__((target("pclmul")))
#define VCLMUL_FN __attribute__((target("pclmul,avx2,vpclmulqdq")))

/* Montgomery reduction of the 256-bit hi:lo to 128 bits. The constant holds
 * x^57 + x^62 + x^63 in its high 64 bits (and 1 in the low, unused). */
CLMUL_FN static inline __m128i clmul_reduce(__m128i lo, __m128i hi) {
    const __m128i poly = _mm_set_epi64x((long long)UINT64_C(0xc200000000000000), 1);
    __m128i t = _mm_clmulepi64_si128(lo, poly, 0x10); /* t0 * c */
    lo = _mm_shuffle_epi32(lo, 0x4e);                 /* t0 moves to bit 128 */
    lo = _mm_xor_si128(lo, t);
    t = _mm_clmulepi64_si128(lo, poly, 0x10); /* the second fold */
    lo = _mm_shuffle_epi32(lo, 0x4e);
    lo = _mm_xor_si128(lo, t);
    return _mm_xor_si128(lo, hi);
}

/* lo/hi/mid += x * h, Karatsuba: mid collects (x_lo^x_hi) * (h_lo^h_hi). */
CLMUL_FN static inline void clmul_acc(__m128i x, __m128i h, __m128i hk, __m128i *lo, __m128i *hi,
                                      __m128i *mid) {
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(x, h, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(x, h, 0x11));
    __m128i xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
    *mid = _mm_xor_si128(*mid, _mm_clmulepi64_si128(xk, hk, 0x00));
}

CLMUL_FN static inline __m128i clmul_finish(__m128i lo, __m128i hi, __m128i mid) {
    mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    return clmul_reduce(lo, hi);
}

CLMUL_FN static inline __m128i karatsuba_key(__m128i h) {
    return _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4e));
}

/* Fills pow/powk as far as H^k (k <= STRIDE), a level at a time: H^(m+1)
 * .. H^2m are H^1 .. H^m times H^m, independent products, so the chain is
 * log2(k) products deep, not k - 1 (each product is three dependent
 * carry-less multiplies, and a new H, every message, needs its powers
 * before its first group). */
CLMUL_FN static void clmul_powers(wc_polyval *ctx, unsigned k) {
    unsigned n = ctx->npow;
    if (n == 0) {
        __m128i h = _mm_loadu_si128((const __m128i *)ctx->h);
        _mm_storeu_si128((__m128i *)ctx->pow[WC_POLYVAL_STRIDE - 1], h);
        _mm_storeu_si128((__m128i *)ctx->powk[WC_POLYVAL_STRIDE - 1], karatsuba_key(h));
        n = 1;
    }
    for (unsigned m = 1; n < k; m *= 2) {
        if (n >= 2 * m) continue; /* this level was made by an earlier run */
        __m128i b = _mm_loadu_si128((const __m128i *)ctx->pow[WC_POLYVAL_STRIDE - m]);
        __m128i bk = _mm_loadu_si128((const __m128i *)ctx->powk[WC_POLYVAL_STRIDE - m]);
        unsigned top = 2 * m < k ? 2 * m : k;
        for (; n < top; n++) {
            __m128i z = _mm_setzero_si128(), lo = z, hi = z, mid = z;
            clmul_acc(_mm_loadu_si128((const __m128i *)ctx->pow[WC_POLYVAL_STRIDE - (n + 1 - m)]),
                      b, bk, &lo, &hi, &mid);
            __m128i p = clmul_finish(lo, hi, mid);
            _mm_storeu_si128((__m128i *)ctx->pow[WC_POLYVAL_STRIDE - (n + 1)], p);
            _mm_storeu_si128((__m128i *)ctx->powk[WC_POLYVAL_STRIDE - (n + 1)], karatsuba_key(p));
        }
    }
    ctx->npow = n;
}

/* k (1..STRIDE) blocks times H^k .. H^1, S added to the first, which is
 * multiplied last (see the file comment). */
CLMUL_FN static inline __m128i clmul_group(const wc_polyval *ctx, __m128i s, const uint8_t *in,
                                           size_t k) {
    const uint8_t(*pw)[16] = ctx->pow + (WC_POLYVAL_STRIDE - k);
    const uint8_t(*pk)[16] = ctx->powk + (WC_POLYVAL_STRIDE - k);
    __m128i z = _mm_setzero_si128(), lo = z, hi = z, mid = z;
    for (size_t i = 1; i < k; i++)
        clmul_acc(_mm_loadu_si128((const __m128i *)(in + 16 * i)),
                  _mm_loadu_si128((const __m128i *)pw[i]), _mm_loadu_si128((const __m128i *)pk[i]),
                  &lo, &hi, &mid);
    clmul_acc(_mm_xor_si128(_mm_loadu_si128((const __m128i *)in), s),
              _mm_loadu_si128((const __m128i *)pw[0]), _mm_loadu_si128((const __m128i *)pk[0]), &lo,
              &hi, &mid);
    return clmul_finish(lo, hi, mid);
}

/* A short run (at most SHORT_RUN blocks) before its powers are made: one
 * block at a time by H. As many products deep as making H^2 .. H^k and then
 * one group, without storing, loading and wiping the powers: a small
 * message's text and its length block. With ks (opening), the input is
 * in ^ ks, written to out (read before written, so out may be in) and hashed
 * from the register. */
#define SHORT_RUN 4
CLMUL_FN static void clmul_short(wc_polyval *ctx, uint8_t *out, const uint8_t *in,
                                 const uint8_t *ks, size_t nblocks) {
    __m128i h = _mm_loadu_si128((const __m128i *)ctx->h), hk = karatsuba_key(h);
    __m128i s = _mm_loadu_si128((const __m128i *)ctx->s);
    for (size_t i = 0; i < nblocks; i++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(in + 16 * i));
        if (ks) {
            x = _mm_xor_si128(x, _mm_loadu_si128((const __m128i *)(ks + 16 * i)));
            _mm_storeu_si128((__m128i *)(out + 16 * i), x);
        }
        __m128i z = _mm_setzero_si128(), lo = z, hi = z, mid = z;
        clmul_acc(_mm_xor_si128(x, s), h, hk, &lo, &hi, &mid);
        s = clmul_finish(lo, hi, mid);
    }
    _mm_storeu_si128((__m128i *)ctx->s, s);
}

/* Whether blocks() and wc_polyval_update_xor take clmul_short for a run. */
static bool takes_short(const wc_polyval *ctx, size_t nblocks) {
    return (ctx->impl == WC_POLYVAL_CLMUL || ctx->impl == WC_POLYVAL_VCLMUL) && nblocks > 0 &&
           nblocks <= SHORT_RUN && ctx->npow < nblocks;
}

CLMUL_FN static void clmul_blocks(wc_polyval *ctx, const uint8_t *in, size_t nblocks) {
    unsigned need = nblocks < WC_POLYVAL_STRIDE ? (unsigned)nblocks : WC_POLYVAL_STRIDE;
    if (ctx->npow < need) clmul_powers(ctx, need);
    __m128i s = _mm_loadu_si128((const __m128i *)ctx->s);
    for (; nblocks >= WC_POLYVAL_STRIDE; nblocks -= WC_POLYVAL_STRIDE, in += 16 * WC_POLYVAL_STRIDE)
        s = clmul_group(ctx, s, in, WC_POLYVAL_STRIDE);
    if (nblocks > 0) s = clmul_group(ctx, s, in, nblocks);
    _mm_storeu_si128((__m128i *)ctx->s, s);
}

/* The same on 256-bit registers, two blocks per instruction (their powers
 * are adjacent in pow/powk): 16 blocks per reduction; a shorter run takes
 * the 128-bit path. */
VCLMUL_FN static inline void vclmul_acc(__m256i x, const uint8_t *h, const uint8_t *hk,
                                        __m256i *lo, __m256i *hi, __m256i *mid) {
    __m256i hv = _mm256_loadu_si256((const __m256i *)h);
    __m256i hkv = _mm256_loadu_si256((const __m256i *)hk);
    *lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(x, hv, 0x00));
    *hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(x, hv, 0x11));
    __m256i xk = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e));
    *mid = _mm256_xor_si256(*mid, _mm256_clmulepi64_epi128(xk, hkv, 0x00));
}

VCLMUL_FN static inline __m128i fold_lanes(__m256i v) {
    return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

/* One pair of blocks of the input: in ^ ks written to out when ks is set
 * (read before written, so out may be in), else in as it is. */
VCLMUL_FN static inline __m256i vclmul_load(uint8_t *out, const uint8_t *in, const uint8_t *ks,
                                            size_t off) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(in + off));
    if (ks) {
        x = _mm256_xor_si256(x, _mm256_loadu_si256((const __m256i *)(ks + off)));
        _mm256_storeu_si256((__m256i *)(out + off), x);
    }
    return x;
}

/* The bulk of the 256-bit path. With ks, the input is in ^ ks, written to
 * out as it is hashed (decryption: the hash covers the plaintext being
 * made); out may be in. Without ks, in is hashed as it is. Inlined into its
 * two callers, so that each has its own loop. The data stays in registers
 * (no array of it on the stack, as it may be unverified plaintext). */
VCLMUL_FN __attribute__((always_inline)) static inline void
vclmul_run(wc_polyval *ctx, uint8_t *out, const uint8_t *in, const uint8_t *ks, size_t nblocks) {
    unsigned need = nblocks < WC_POLYVAL_STRIDE ? (unsigned)nblocks : WC_POLYVAL_STRIDE;
    if (ctx->npow < need) clmul_powers(ctx, need);
    __m128i s = _mm_loadu_si128((const __m128i *)ctx->s);
    for (; nblocks >= WC_POLYVAL_STRIDE; nblocks -= WC_POLYVAL_STRIDE) {
        __m256i z = _mm256_setzero_si256(), lo = z, hi = z, mid = z;
        __m256i x0 = vclmul_load(out, in, ks, 0); /* carries S: multiplied last */
        for (size_t j = 1; j < WC_POLYVAL_STRIDE / 2; j++)
            vclmul_acc(vclmul_load(out, in, ks, 32 * j), ctx->pow[2 * j], ctx->powk[2 * j], &lo,
                       &hi, &mid);
        vclmul_acc(_mm256_xor_si256(x0, _mm256_set_m128i(_mm_setzero_si128(), s)), ctx->pow[0],
                   ctx->powk[0], &lo, &hi, &mid);
        s = clmul_finish(fold_lanes(lo), fold_lanes(hi), fold_lanes(mid));
        in += 16 * WC_POLYVAL_STRIDE;
        if (ks) {
            ks += 16 * WC_POLYVAL_STRIDE;
            out += 16 * WC_POLYVAL_STRIDE;
        }
    }
    if (nblocks > 0) {
        if (ks) {
            for (size_t i = 0; i < 16 * nblocks; i += 16)
                _mm_storeu_si128((__m128i *)(out + i),
                                 _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + i)),
                                               _mm_loadu_si128((const __m128i *)(ks + i))));
            in = out;
        }
        s = clmul_group(ctx, s, in, nblocks);
    }
    _mm_storeu_si128((__m128i *)ctx->s, s);
    /* Back to clean upper halves before the caller's (legacy SSE) code;
     * GCC emits this by itself only at -O2 and above. */
    _mm256_zeroupper();
}

VCLMUL_FN static void vclmul_blocks(wc_polyval *ctx, const uint8_t *in, size_t nblocks) {
    vclmul_run(ctx, NULL, in, NULL, nblocks);
}

VCLMUL_FN static void vclmul_xor_blocks(wc_polyval *ctx, uint8_t *out, const uint8_t *in,
                                        const uint8_t *ks, size_t nblocks) {
    vclmul_run(ctx, out, in, ks, nblocks);
}

/* cpuid feature bits; OS support for the 256-bit registers from XCR0. */
static unsigned x86_features(void) {
    enum { PCLMUL = 1, VPCLMUL = 2 };
    unsigned a = 0, b = 0, c = 0, d = 0, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (c & bit_PCLMUL) f |= PCLMUL;
    if ((f & PCLMUL) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
        unsigned xlo, xhi;
        __asm__ volatile("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
        (void)xhi;
        if ((xlo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2) &&
            (c & bit_VPCLMULQDQ))
            f |= VPCLMUL;
    }
    return f;
}
#endif /* WC_POLYVAL_X86 */

/* ------------------------------------------------------------------------ */
/* aarch64 PMULL: the same algorithm as the 128-bit x86-64 code above       */
/* ------------------------------------------------------------------------ */

#ifdef WC_POLYVAL_ARM
PMULL_FN static inline uint8x16_t pmull_lo(uint8x16_t a, uint8x16_t b) {
    poly64_t x = (poly64_t)vgetq_lane_u64(vreinterpretq_u64_u8(a), 0);
    poly64_t y = (poly64_t)vgetq_lane_u64(vreinterpretq_u64_u8(b), 0);
    return vreinterpretq_u8_p128(vmull_p64(x, y));
}

PMULL_FN static inline uint8x16_t pmull_hi(uint8x16_t a, uint8x16_t b) {
    return vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(b)));
}

PMULL_FN static inline uint8x16_t swap64(uint8x16_t a) { return vextq_u8(a, a, 8); }

PMULL_FN static inline uint8x16_t pmull_reduce(uint8x16_t lo, uint8x16_t hi) {
    const uint8x16_t c = vreinterpretq_u8_u64(vdupq_n_u64(UINT64_C(0xc200000000000000)));
    uint8x16_t t = pmull_lo(lo, c);
    lo = veorq_u8(swap64(lo), t);
    t = pmull_lo(lo, c);
    lo = veorq_u8(swap64(lo), t);
    return veorq_u8(lo, hi);
}

PMULL_FN static inline void pmull_acc(uint8x16_t x, uint8x16_t h, uint8x16_t hk, uint8x16_t *lo,
                                      uint8x16_t *hi, uint8x16_t *mid) {
    *lo = veorq_u8(*lo, pmull_lo(x, h));
    *hi = veorq_u8(*hi, pmull_hi(x, h));
    *mid = veorq_u8(*mid, pmull_lo(veorq_u8(x, swap64(x)), hk));
}

PMULL_FN static inline uint8x16_t pmull_finish(uint8x16_t lo, uint8x16_t hi, uint8x16_t mid) {
    const uint8x16_t z = vdupq_n_u8(0);
    mid = veorq_u8(mid, veorq_u8(lo, hi));
    lo = veorq_u8(lo, vextq_u8(z, mid, 8)); /* mid << 64 */
    hi = veorq_u8(hi, vextq_u8(mid, z, 8)); /* mid >> 64 */
    return pmull_reduce(lo, hi);
}

PMULL_FN static void pmull_powers(wc_polyval *ctx, unsigned k) {
    uint8x16_t h = vld1q_u8(ctx->h), hk = veorq_u8(h, swap64(h));
    if (ctx->npow == 0) {
        vst1q_u8(ctx->pow[WC_POLYVAL_STRIDE - 1], h);
        vst1q_u8(ctx->powk[WC_POLYVAL_STRIDE - 1], hk);
        ctx->npow = 1;
    }
    uint8x16_t p = vld1q_u8(ctx->pow[WC_POLYVAL_STRIDE - ctx->npow]);
    while (ctx->npow < k) {
        uint8x16_t z = vdupq_n_u8(0), lo = z, hi = z, mid = z;
        pmull_acc(p, h, hk, &lo, &hi, &mid);
        p = pmull_finish(lo, hi, mid);
        ctx->npow++;
        vst1q_u8(ctx->pow[WC_POLYVAL_STRIDE - ctx->npow], p);
        vst1q_u8(ctx->powk[WC_POLYVAL_STRIDE - ctx->npow], veorq_u8(p, swap64(p)));
    }
}

PMULL_FN static inline uint8x16_t pmull_group(const wc_polyval *ctx, uint8x16_t s,
                                              const uint8_t *in, size_t k) {
    const uint8_t(*pw)[16] = ctx->pow + (WC_POLYVAL_STRIDE - k);
    const uint8_t(*pk)[16] = ctx->powk + (WC_POLYVAL_STRIDE - k);
    uint8x16_t z = vdupq_n_u8(0), lo = z, hi = z, mid = z;
    for (size_t i = 1; i < k; i++)
        pmull_acc(vld1q_u8(in + 16 * i), vld1q_u8(pw[i]), vld1q_u8(pk[i]), &lo, &hi, &mid);
    pmull_acc(veorq_u8(vld1q_u8(in), s), vld1q_u8(pw[0]), vld1q_u8(pk[0]), &lo, &hi, &mid);
    return pmull_finish(lo, hi, mid);
}

PMULL_FN static void pmull_blocks(wc_polyval *ctx, const uint8_t *in, size_t nblocks) {
    unsigned need = nblocks < WC_POLYVAL_STRIDE ? (unsigned)nblocks : WC_POLYVAL_STRIDE;
    if (ctx->npow < need) pmull_powers(ctx, need);
    uint8x16_t s = vld1q_u8(ctx->s);
    for (; nblocks >= WC_POLYVAL_STRIDE; nblocks -= WC_POLYVAL_STRIDE, in += 16 * WC_POLYVAL_STRIDE)
        s = pmull_group(ctx, s, in, WC_POLYVAL_STRIDE);
    if (nblocks > 0) s = pmull_group(ctx, s, in, nblocks);
    vst1q_u8(ctx->s, s);
}
#endif /* WC_POLYVAL_ARM */

/* ------------------------------------------------------------------------ */
/* Choice and interface                                                     */
/* ------------------------------------------------------------------------ */

/* The CPU's features, asked once: bit (1 << impl) for each carry-less
 * implementation it can run, and PROBED. Racing first calls all compute the
 * same value, so a plain atomic store suffices. */
enum { PROBED = 1u << 31 };
static _Atomic unsigned g_cpu;

static unsigned cpu_impls(void) {
    unsigned f = atomic_load_explicit(&g_cpu, memory_order_relaxed);
    if (f & PROBED) return f;
    f = PROBED;
#ifdef WC_POLYVAL_X86
    unsigned x = x86_features();
    if (x & 1) f |= 1u << WC_POLYVAL_CLMUL;
    if (x & 2) f |= 1u << WC_POLYVAL_VCLMUL;
#endif
#if defined(WC_PMULL_ALWAYS)
    f |= 1u << WC_POLYVAL_PMULL; /* compiled for a CPU that has it */
#elif defined(WC_POLYVAL_ARM)
    if (getauxval(AT_HWCAP) & HWCAP_PMULL) f |= 1u << WC_POLYVAL_PMULL;
#endif
    atomic_store_explicit(&g_cpu, f, memory_order_relaxed);
    return f;
}

int wc_polyval_impl_available(wc_polyval_impl impl) {
    switch (impl) {
    case WC_POLYVAL_AUTO:
    case WC_POLYVAL_PORTABLE: return 1;
    case WC_POLYVAL_CLMUL:
    case WC_POLYVAL_VCLMUL:
    case WC_POLYVAL_PMULL: return (cpu_impls() >> impl) & 1;
    }
    return 0;
}

const char *wc_polyval_impl_name(wc_polyval_impl impl) {
    switch (impl) {
    case WC_POLYVAL_AUTO: return "auto";
    case WC_POLYVAL_PORTABLE: return "portable";
    case WC_POLYVAL_CLMUL: return "pclmulqdq";
    case WC_POLYVAL_VCLMUL: return "vpclmulqdq";
    case WC_POLYVAL_PMULL: return "pmull";
    }
    return "?";
}

/* 0 until chosen; then a wc_polyval_impl (as g_cpu, racing is harmless). */
static _Atomic int g_default_impl;

wc_polyval_impl wc_polyval_default_impl(void) {
    int v = atomic_load_explicit(&g_default_impl, memory_order_relaxed);
    if (v != 0) return (wc_polyval_impl)v;
    /* The fastest this CPU has, unless the environment names another it has. */
    static const wc_polyval_impl order[] = {WC_POLYVAL_VCLMUL, WC_POLYVAL_CLMUL, WC_POLYVAL_PMULL,
                                            WC_POLYVAL_PORTABLE};
    wc_polyval_impl impl = WC_POLYVAL_PORTABLE;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (wc_polyval_impl_available(order[i])) {
            impl = order[i];
            break;
        }
    const char *env = secure_getenv("WEBCRYPTO_POLYVAL");
    for (size_t i = 0; env && i < sizeof order / sizeof order[0]; i++)
        if (strcmp(env, wc_polyval_impl_name(order[i])) == 0 &&
            wc_polyval_impl_available(order[i]))
            impl = order[i];
    atomic_store_explicit(&g_default_impl, (int)impl, memory_order_relaxed);
    return impl;
}

void wc_polyval_init(wc_polyval *ctx, const uint8_t h[16], wc_polyval_impl impl) {
    if (impl == WC_POLYVAL_AUTO)
        impl = wc_polyval_default_impl();
    else if (!wc_polyval_impl_available(impl))
        impl = WC_POLYVAL_PORTABLE; /* never runs an instruction the CPU lacks */
    /* Not the whole state: the powers (most of it) are written as a run
     * first needs them, and only those are read and wiped. */
    memcpy(ctx->h, h, 16);
    memset(ctx->s, 0, sizeof ctx->s);
    ctx->npow = 0;
    ctx->impl = impl;
}

static void blocks(wc_polyval *ctx, const uint8_t *in, size_t nblocks) {
#ifdef WC_POLYVAL_X86
    if (takes_short(ctx, nblocks)) {
        clmul_short(ctx, NULL, in, NULL, nblocks);
        return;
    }
#endif
    /* Every member listed (-Wswitch-enum); one this build lacks is portable. */
    switch (ctx->impl) {
    case WC_POLYVAL_CLMUL:
#ifdef WC_POLYVAL_X86
        clmul_blocks(ctx, in, nblocks);
        return;
#else
        break;
#endif
    case WC_POLYVAL_VCLMUL:
#ifdef WC_POLYVAL_X86
        vclmul_blocks(ctx, in, nblocks);
        return;
#else
        break;
#endif
    case WC_POLYVAL_PMULL:
#ifdef WC_POLYVAL_ARM
        pmull_blocks(ctx, in, nblocks);
        return;
#else
        break;
#endif
    case WC_POLYVAL_AUTO:
    case WC_POLYVAL_PORTABLE: break;
    }
    portable_blocks(ctx, in, nblocks);
}

void wc_polyval_update(wc_polyval *ctx, const uint8_t *in, size_t len) {
    size_t whole = len / 16;
    if (whole > 0) blocks(ctx, in, whole);
    size_t rest = len % 16;
    if (rest > 0) {
        uint8_t last[16] = {0};
        memcpy(last, in + 16 * whole, rest);
        blocks(ctx, last, 1);
        wc_wipe(last, sizeof last);
    }
}

void wc_polyval_update_xor(wc_polyval *ctx, uint8_t *out, const uint8_t *in, const uint8_t *ks,
                           size_t len) {
    size_t whole = len / 16;
#ifdef WC_POLYVAL_X86
    if (takes_short(ctx, whole)) {
        clmul_short(ctx, out, in, ks, whole);
    } else if (ctx->impl == WC_POLYVAL_VCLMUL && whole > 0) {
        vclmul_xor_blocks(ctx, out, in, ks, whole);
    } else
#endif
    {
        for (size_t i = 0; i < 16 * whole; i++) out[i] = (uint8_t)(in[i] ^ ks[i]);
        if (whole > 0) blocks(ctx, out, whole);
    }
    size_t rest = len % 16, off = 16 * whole;
    for (size_t i = off; i < len; i++) out[i] = (uint8_t)(in[i] ^ ks[i]);
    if (rest > 0) wc_polyval_update(ctx, out + off, rest);
}

void wc_polyval_final(const wc_polyval *ctx, uint8_t out[16]) { memcpy(out, ctx->s, 16); }

void wc_polyval_wipe(wc_polyval *ctx) {
    /* The powers made (the last npow of pow, then powk), h and s: one run
     * from the first made, which also covers powk's unused head. */
    unsigned n = ctx->npow < WC_POLYVAL_STRIDE ? ctx->npow : WC_POLYVAL_STRIDE;
    size_t from = offsetof(wc_polyval, pow) + 16 * (size_t)(WC_POLYVAL_STRIDE - n);
    wc_wipe((uint8_t *)ctx + from, offsetof(wc_polyval, s) + sizeof ctx->s - from);
    ctx->npow = 0;
}
