/*
 * polyval_clmul.h - POLYVAL's PCLMULQDQ building blocks (x86-64), shared by
 * polyval.c and gcm_siv.c (whose AES-NI decryption hashes each 8 blocks of
 * plaintext as it writes them). Internal to the openssl backend. See
 * polyval.c for the algorithm. Defines WC_POLYVAL_X86 where available.
 */
#ifndef WEBCRYPTO_OPENSSL_POLYVAL_CLMUL_H
#define WEBCRYPTO_OPENSSL_POLYVAL_CLMUL_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#ifndef WC_POLYVAL_X86
#define WC_POLYVAL_X86 1
#endif
#include <immintrin.h>

#include "polyval.h"

/* Only these functions use the instruction, so the rest of the build needs
 * no -m flags; they run only after cpuid reported it. SSE2 is part of
 * x86-64. */
#define CLMUL_FN __attribute__((target("pclmul")))

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

/* The same for exactly 8 blocks, unrolled (the bulk of the work). */
#define CLMUL_STEP(i)                                                                        \
    clmul_acc(_mm_loadu_si128((const __m128i *)(in + 16 * (i))),                          \
              _mm_loadu_si128((const __m128i *)ctx->h[7 - (i)]),                           \
              _mm_loadu_si128((const __m128i *)ctx->hk[7 - (i)]), &lo, &hi, &mid)

CLMUL_FN static inline __m128i clmul_group8(const wc_polyval *ctx, __m128i s, const uint8_t *in) {
    __m128i z = _mm_setzero_si128(), lo = z, hi = z, mid = z;
    clmul_acc(_mm_xor_si128(_mm_loadu_si128((const __m128i *)in), s),
              _mm_loadu_si128((const __m128i *)ctx->h[7]),
              _mm_loadu_si128((const __m128i *)ctx->hk[7]), &lo, &hi, &mid);
    CLMUL_STEP(1);
    CLMUL_STEP(2);
    CLMUL_STEP(3);
    CLMUL_STEP(4);
    CLMUL_STEP(5);
    CLMUL_STEP(6);
    CLMUL_STEP(7);
    return clmul_finish(lo, hi, mid);
}
#undef CLMUL_STEP

#endif /* x86-64 */
#endif /* WEBCRYPTO_OPENSSL_POLYVAL_CLMUL_H */
