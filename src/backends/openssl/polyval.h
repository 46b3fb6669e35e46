/*
 * polyval.h - POLYVAL (RFC 8452 section 3), the universal hash of AES-GCM-SIV.
 *
 * Three implementations behind one interface, chosen once per process:
 * PCLMULQDQ on x86-64 (detected with cpuid), PMULL on aarch64 (always when
 * the compiler targets the crypto extension; with GCC on Linux otherwise,
 * detected through HWCAP_PMULL), and a constant-time portable one (no
 * secret-indexed tables, no secret-dependent branches). Setting
 * WEBCRYPTO_POLYVAL=portable in the environment makes the portable one the
 * process-wide choice (WC_POLYVAL_AUTO, what gcm_siv.c asks for; its AES is
 * OpenSSL's whichever POLYVAL runs).
 *
 * The state holds the key (H and, for the carry-less multiply, its powers):
 * wipe it with wc_polyval_wipe.
 */
#ifndef WEBCRYPTO_OPENSSL_POLYVAL_H
#define WEBCRYPTO_OPENSSL_POLYVAL_H

#include <stddef.h>
#include <stdint.h>

typedef enum wc_polyval_impl {
    WC_POLYVAL_AUTO = 0, /* the process-wide choice */
    WC_POLYVAL_PORTABLE,
    WC_POLYVAL_CLMUL, /* x86-64 PCLMULQDQ */
    WC_POLYVAL_PMULL  /* aarch64 PMULL */
} wc_polyval_impl;

/* Blocks folded per reduction by the carry-less implementations. */
#define WC_POLYVAL_STRIDE 8

typedef struct wc_polyval {
    /* h[i] = H^(i+1) in POLYVAL's dot-product sense (h[0] = H), and hk[i]
     * the XOR of h[i]'s two 64-bit halves (Karatsuba); byte order as in the
     * RFC (little-endian). The portable code uses h[0] only. */
    uint8_t h[WC_POLYVAL_STRIDE][16];
    uint8_t hk[WC_POLYVAL_STRIDE][16];
    uint8_t s[16]; /* the accumulator S_j */
    wc_polyval_impl impl;
} wc_polyval;

/* The implementation WC_POLYVAL_AUTO stands for here (detected once). */
wc_polyval_impl wc_polyval_default_impl(void);

/* Whether impl can run on this CPU (AUTO and PORTABLE always can). */
int wc_polyval_impl_available(wc_polyval_impl impl);

/* The implementation's name, for messages ("pclmulqdq", "portable", ...). */
const char *wc_polyval_impl_name(wc_polyval_impl impl);

/* Starts POLYVAL with key h (16 bytes) on impl, which must be available. */
void wc_polyval_init(wc_polyval *ctx, const uint8_t h[16], wc_polyval_impl impl);

/* Absorbs len bytes; a partial last block is padded with zeros, as
 * AES-GCM-SIV pads the additional data and the plaintext each. So only the
 * last call of a run may have len not a multiple of 16. */
void wc_polyval_update(wc_polyval *ctx, const uint8_t *in, size_t len);

/* Writes S (the hash so far) to out; the state stays usable. */
void wc_polyval_final(const wc_polyval *ctx, uint8_t out[16]);

/* Wipes the key material and accumulator. */
void wc_polyval_wipe(wc_polyval *ctx);

#endif /* WEBCRYPTO_OPENSSL_POLYVAL_H */
