/*
 * polyval.h - POLYVAL (RFC 8452 section 3), the universal hash of AES-GCM-SIV.
 *
 * Four implementations behind one interface, chosen once per process:
 * VPCLMULQDQ on 256-bit registers (x86-64 with AVX2; two blocks per
 * instruction), PCLMULQDQ (x86-64), PMULL on aarch64 (always when the
 * compiler targets the crypto extension; with GCC on Linux otherwise,
 * detected through HWCAP_PMULL), and a constant-time portable one (no
 * secret-indexed tables, no secret-dependent branches). The CPU is asked
 * once per process (cpuid can cost microseconds under a hypervisor). Setting
 * WEBCRYPTO_POLYVAL to an implementation's name ("portable", "pclmulqdq",
 * "vpclmulqdq", "pmull") in the environment makes it the process-wide choice
 * (WC_POLYVAL_AUTO, what gcm_siv.c asks for) when this CPU has it; its AES
 * is OpenSSL's whichever POLYVAL runs.
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
    WC_POLYVAL_CLMUL,  /* x86-64 PCLMULQDQ */
    WC_POLYVAL_VCLMUL, /* x86-64 VPCLMULQDQ on 256-bit registers (AVX2) */
    WC_POLYVAL_PMULL   /* aarch64 PMULL */
} wc_polyval_impl;

/* Blocks folded per reduction by the carry-less implementations. */
#define WC_POLYVAL_STRIDE 16

typedef struct wc_polyval {
    /* For the carry-less implementations: pow[i] = H^(STRIDE - i) in
     * POLYVAL's dot-product sense (pow[STRIDE-1] = H), so a run of k blocks
     * uses the last k entries in order; powk[i] is the XOR of pow[i]'s two
     * 64-bit halves (Karatsuba). Computed as far as needed: the last npow
     * entries are set. The portable code uses h only. pow to s in this
     * order: wc_polyval_wipe wipes from the first power made to s's end. */
    uint8_t pow[WC_POLYVAL_STRIDE][16];
    uint8_t powk[WC_POLYVAL_STRIDE][16];
    uint8_t h[16]; /* the key H; byte order as in the RFC (little-endian) */
    uint8_t s[16]; /* the accumulator S_j */
    unsigned npow;
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

/* out = in XOR ks (len bytes), then absorbs out as wc_polyval_update does,
 * in one pass where the implementation allows: decryption hashes the
 * plaintext it makes. out may be in; ks must not overlap out. */
void wc_polyval_update_xor(wc_polyval *ctx, uint8_t *out, const uint8_t *in, const uint8_t *ks,
                           size_t len);

/* Writes S (the hash so far) to out; the state stays usable. */
void wc_polyval_final(const wc_polyval *ctx, uint8_t out[16]);

/* Wipes the key material and accumulator. */
void wc_polyval_wipe(wc_polyval *ctx);

#endif /* WEBCRYPTO_OPENSSL_POLYVAL_H */
