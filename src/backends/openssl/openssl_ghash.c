/*
 * openssl_ghash.c - the GHASH algebra (SP 800-38D) that reduces a GCM IV
 * longer than OpenSSL takes to its 16-byte equivalent. Its known-answer
 * test is tests/test_gcm_longiv.c.
 */
#include <string.h>

#include <openssl/evp.h>

#include "core/backend.h"
#include "openssl_internal.h"

/* GF(2^128) as GCM defines it (SP 800-38D 6.3): bit 0 is the most
 * significant bit of byte 0; hi holds bytes 0..7 big-endian, lo 8..15. */
typedef struct gf128 {
    uint64_t hi, lo;
} gf128;

static gf128 gf_load(const uint8_t b[16]) {
    gf128 r = {0, 0};
    for (int i = 0; i < 8; i++) {
        r.hi = (r.hi << 8) | b[i];
        r.lo = (r.lo << 8) | b[8 + i];
    }
    return r;
}

static void gf_store(gf128 x, uint8_t b[16]) {
    for (int i = 7; i >= 0; i--) {
        b[i] = (uint8_t)x.hi;
        b[8 + i] = (uint8_t)x.lo;
        x.hi >>= 8;
        x.lo >>= 8;
    }
}

/* x * y, in time independent of the values (H is secret). */
static gf128 gf_mul(gf128 x, gf128 y) {
    gf128 z = {0, 0}, v = y;
    for (int i = 0; i < 128; i++) {
        uint64_t bit = i < 64 ? (x.hi >> (63 - i)) & 1 : (x.lo >> (127 - i)) & 1;
        uint64_t take = (uint64_t)0 - bit;
        z.hi ^= v.hi & take;
        z.lo ^= v.lo & take;
        uint64_t reduce = (uint64_t)0 - (v.lo & 1);
        v.lo = (v.lo >> 1) | (v.hi << 63);
        v.hi = (v.hi >> 1) ^ (UINT64_C(0xE100000000000000) & reduce);
    }
    return z;
}

/* a^-1 = a^(2^128 - 2) (and 0 for 0). */
static gf128 gf_inv(gf128 a) {
    gf128 r = a; /* a^(2^k - 1), k = 1 */
    for (int k = 1; k < 127; k++) r = gf_mul(gf_mul(r, r), a);
    return gf_mul(r, r);
}

/* OpenSSL 3.0 refuses GCM IVs over 128 bytes, which WebCrypto allows. For
 * any IV that is not 96 bits, GCM uses only J0 = GHASH_H(IV || 0-pad ||
 * [0]64 || [bits(IV)]64). A 16-byte IV X gives J0 = X*H^2 ^ L*H with
 * L = [0]64 || [128]64, so X = (J0 ^ L*H) * H^-2 yields the same J0, hence
 * the same ciphertext and tag. (If H = 0 every such IV gives J0 = 0, and so
 * does X = 0, which the formula returns.) */
void wc_ossl_gcm_reduce_iv(const uint8_t h_bytes[16], const uint8_t *iv, size_t iv_len,
                           uint8_t x_out[16]) {
    gf128 h = gf_load(h_bytes), y = {0, 0};
    uint8_t block[16];
    for (size_t off = 0; off < iv_len; off += 16) {
        size_t n = iv_len - off < 16 ? iv_len - off : 16;
        memset(block, 0, sizeof block);
        memcpy(block, iv + off, n);
        gf128 b = gf_load(block);
        y.hi ^= b.hi;
        y.lo ^= b.lo;
        y = gf_mul(y, h);
    }
    y.lo ^= (uint64_t)iv_len * 8; /* iv_len < 2^61: it is in memory */
    gf128 j0 = gf_mul(y, h);
    gf128 l = {0, 128};
    gf128 t = gf_mul(l, h);
    j0.hi ^= t.hi;
    j0.lo ^= t.lo;
    gf128 hinv = gf_inv(h);
    gf128 x = gf_mul(j0, gf_mul(hinv, hinv));
    gf_store(x, x_out);
    wc_wipe(&h, sizeof h);
    wc_wipe(&hinv, sizeof hinv);
    wc_wipe(&j0, sizeof j0);
    wc_wipe(&y, sizeof y);
    wc_wipe(&t, sizeof t);
    wc_wipe(&x, sizeof x);
}
