/*
 * known_answers.h - the answers the backends' init probes check an algorithm
 * against before they report it (a fetched algorithm that answers wrongly is
 * not offered), kept once here for every backend. Header-only: modules reach
 * no core function. Hex strings, turned into bytes by wc_kat_unhex.
 */
#ifndef WEBCRYPTO_KNOWN_ANSWERS_H
#define WEBCRYPTO_KNOWN_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* RFC 8032 section 7.4, Ed448: the secret and public key of "1 octet" and of
 * "1 octet (with context)", the message 03, the signature without a
 * context, and the one with the context "foo" (666f6f). */
#define WC_KAT_ED448_SK                                                                         \
    "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463a"                          \
    "fbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e"
#define WC_KAT_ED448_PK                                                                         \
    "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c086"                          \
    "6aea01eb00742802b8438ea4cb82169c235160627b4c3a9480"
#define WC_KAT_ED448_MSG "03"
#define WC_KAT_ED448_CONTEXT "666f6f"
#define WC_KAT_ED448_SIG                                                                        \
    "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f435"                          \
    "2541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd779805e0dbcc0aae1cb"                          \
    "cee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0f"                          \
    "f3348ab21aa4adafd1d234441cf807c03a00"
#define WC_KAT_ED448_SIG_CONTEXT                                                                \
    "d4f8f6131770dd46f40867d6fd5d5055de43541f8c5e35abbcd001b32a89f7d2"                          \
    "151f7647f11d8ca2ae279fb842d607217fce6e042f6815ea000c85741de5c8da"                          \
    "1144a6a1aba7f96de42505d7a7298524fda538fccbbb754f578c1cad10d54d0d"                          \
    "5428407e85dcbc98a49155c13764e66c3c00"

/* SP 800-185's cSHAKE samples 1 and 3 (cSHAKE_samples.pdf): X = 00 01 02 03,
 * N = "", S = "Email Signature"; cSHAKE128 with L = 256, cSHAKE256 with
 * L = 512. */
#define WC_KAT_CSHAKE128_EMAIL "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5"
#define WC_KAT_CSHAKE256_EMAIL                                                                  \
    "d008828e2b80ac9d2218ffee1d070c48b8e4c87bff32c9699d5b6896eee0edd1"                          \
    "64020e2be0560858d9c00c037e34a96937c561a74c412bb4c746469527281c8c"

/* ML-KEM and ML-DSA keys from the seed 00 01 02 ... (64 bytes for ML-KEM:
 * d then z; 32 for ML-DSA: xi): the SHA-256 of the public key
 * (FIPS 203 KeyGen_internal(d, z)'s ek, FIPS 204 KeyGen_internal(xi)'s pk)
 * that two independent implementations give, the JDK's (OpenJDK 17.0.21,
 * SunJCE / SUN) and Node 24's crypto.subtle (OpenSSL 3.5). */
static inline const char *wc_kat_ml_kem_public_sha256(wc_ml_kem k) {
    switch (k) {
    case WC_ML_KEM_512: return "3ae268dccc5456ac0d0f9b39257dc48fe081383b97c400512d712b739762daee";
    case WC_ML_KEM_768: return "0b7934c83125c788995e2ba6bd761e33046b3e40571be53e023309a29f398cc9";
    case WC_ML_KEM_1024: return "c7b8fa0aa471d5ae18922d6ccad5b31e1d84f92ae723abfd13747018740a8530";
    case WC_ML_KEM_COUNT: break;
    }
    return NULL;
}
static inline const char *wc_kat_ml_dsa_public_sha256(wc_ml_dsa k) {
    switch (k) {
    case WC_ML_DSA_44: return "9f107644c1084526af3bc8098680b05499a2325a644e388fb4f970e058d19d46";
    case WC_ML_DSA_65: return "d666806e11cee19a7c989f7445f90dd419cf4d2d51db8c0fdb4c0f0a542238c9";
    case WC_ML_DSA_87: return "91dc389cfaa01470b7f66eee45a4ae9026d154817c754dfe22298b3fa241ffcd";
    case WC_ML_DSA_COUNT: break;
    }
    return NULL;
}

/* The n bytes of the hex string h (2n lower-case digits, as above). */
static inline void wc_kat_unhex(const char *h, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int j = 0; j < 2; j++) {
            char c = h[2 * i + (size_t)j];
            v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
        }
        out[i] = (uint8_t)v;
    }
}

#endif /* WEBCRYPTO_KNOWN_ANSWERS_H */
