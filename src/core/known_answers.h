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

/* RFC 8032 section 7.1 TEST 1 (Ed25519: secret key, public key, the
 * signature of the empty message); RFC 7748 section 6.1 and 6.2, Alice's
 * X25519 and X448 private and public keys. */
#define WC_KAT_ED25519_SK "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
#define WC_KAT_ED25519_PK "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
#define WC_KAT_ED25519_SIG                                                                      \
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"                          \
    "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
#define WC_KAT_X25519_SK "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
#define WC_KAT_X25519_PK "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
#define WC_KAT_X448_SK                                                                          \
    "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf5"                          \
    "74a9419744897391006382a6f127ab1d9ac2d8c0a598726b"
#define WC_KAT_X448_PK                                                                          \
    "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bb"                          \
    "c836647241d953d40c5b12da88120d53177f80e532c41fa0"

/* RSASSA-PKCS1-v1_5 with SHA-256: a 2048-bit public key (modulus; the
 * exponent 65537) and its signature of WC_KAT_RSA_MSG: the key tests/
 * test_pkey.c's RSA known answer made with `openssl genpkey`, the signature
 * made with `openssl dgst -sha256 -sign` and checked with Node's
 * subtle.sign (no standard publishes a short RSA example). */
#define WC_KAT_RSA_N \
    "ad53815b37746d7f39036f4e708df1cb11f2c2829e7ad38bcf1aa03af5a6b7be" \
    "77bcc4751e00b99042bf8a1c431d9fabf064df685b1824552a7c05b6bf6ee01f" \
    "3aecae8c6777dc0b362a3e876993a6c792fe75b9022307f942ac83863f4aa568" \
    "a451d96758f7b7af3ecc7afff60ddc25fa3c928e9df96821f7e0e5611dce1fb4" \
    "fec4ef13fc9297f78a1c07a029e7fa983a1760b9fbbababa057473a811734815" \
    "c319f53c1a1b28c1e83d5dc15487bf05499d00a033efd9bb539bd1c9b3cdd29c" \
    "1b6210a91b87bf121277ee053ed9a9c3dc76bfeefd8942211d2de44767d176f7" \
    "f84ff8ef23c48f204fd56e74d424c43665074b7108f5778831be8a16a6d66989"
#define WC_KAT_RSA_MSG "libwebcrypto RSASSA-PKCS1-v1_5 known answer"
#define WC_KAT_RSA_SIG \
    "162a7d778051b3a6e459977b1d46afea4cf5c773dc57ffa08c230c36fede9c64" \
    "69646abc4ed90707d615d071c9451f3d67db71a75071113c33db3e6ba8c8d1c7" \
    "9bdf1fa80e4f0a840ab7d865f0976d1759c9443889aa179b1225ad523f9585d6" \
    "a42b771737d82be85aff39c9f3f918b4187b9203dbe000f666f7a62177b96cd0" \
    "9722ca91b74f2596ea914e3f4b4cb67dbf279f302380974166108a8c091af797" \
    "6a6524babfa8e70099d62a694fca40eaa2111bb62ec96ef4fb71206e5eaff8fe" \
    "d1ce66fff414f13943a92d0dbcff6cb3ba815b46a0d5605961dfee71e0aa46fd" \
    "dc80f8a7a3e52160fde8cd2b94ce7687112f96586a9fc338bef6cb2ac0f27ccb"

/* RFC 6979 A.2.5 (ECDSA, P-256): the private key x, its public key (Ux,
 * Uy), and the signature (r, s) of "sample" with SHA-256; and P-256's base
 * point G (SEC 2), so that ECDH of x and G is Ux. */
#define WC_KAT_P256_X "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
#define WC_KAT_P256_UX "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
#define WC_KAT_P256_UY "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"
#define WC_KAT_P256_SIG                                                                         \
    "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"                          \
    "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
#define WC_KAT_P256_GX "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
#define WC_KAT_P256_GY "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"

/* SP 800-185's cSHAKE samples 1 and 3 (cSHAKE_samples.pdf): X = 00 01 02 03,
 * N = "", S = "Email Signature"; cSHAKE128 with L = 256, cSHAKE256 with
 * L = 512. */
#define WC_KAT_CSHAKE128_EMAIL "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5"
#define WC_KAT_CSHAKE256_EMAIL                                                                  \
    "d008828e2b80ac9d2218ffee1d070c48b8e4c87bff32c9699d5b6896eee0edd1"                          \
    "64020e2be0560858d9c00c037e34a96937c561a74c412bb4c746469527281c8c"

/* Each hash of "abc" (FIPS 180-4 and FIPS 202's examples). */
static inline const char *wc_kat_hash_abc(wc_hash h) {
    switch (h) {
    case WC_HASH_SHA_1: return "a9993e364706816aba3e25717850c26c9cd0d89d";
    case WC_HASH_SHA_256: return "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    case WC_HASH_SHA_384:
        return "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
               "8086072ba1e7cc2358baeca134c825a7";
    case WC_HASH_SHA_512:
        return "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
               "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
    case WC_HASH_SHA3_256: return "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";
    case WC_HASH_SHA3_384:
        return "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
               "98d88cea927ac7f539f1edf228376d25";
    case WC_HASH_SHA3_512:
        return "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
               "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0";
    case WC_HASH_COUNT: break;
    }
    return NULL;
}

/* SHAKE128 / SHAKE256 of the empty string, the first 32 bytes (FIPS 202). */
static inline const char *wc_kat_shake_empty(wc_xof k) {
    switch (k) {
    case WC_XOF_CSHAKE128: return "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
    case WC_XOF_CSHAKE256: return "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f";
    case WC_XOF_COUNT: break;
    }
    return NULL;
}

/* SP 800-185's KMAC samples 1 (KMAC128, S empty, 256 bits) and 4 (KMAC256,
 * S "My Tagged Application", 512 bits): key 40..5f, data 00..03. */
static inline const char *wc_kat_kmac(wc_kmac k) {
    switch (k) {
    case WC_KMAC_128: return "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e";
    case WC_KMAC_256:
        return "20c570c31346f703c9ac36c61c03cb64c3970d0cfc787e9b79599d273a68d2f7"
               "f69d4cc3de9d104a351689f27cf6f5951f0103f33f4f24871024d9c27773a8dd";
    case WC_KMAC_COUNT: break;
    }
    return NULL;
}
#define WC_KAT_KMAC_CUSTOM "My Tagged Application"

/* RFC 6070's first PBKDF2-HMAC-SHA1 case: "password", "salt", 1 iteration. */
#define WC_KAT_PBKDF2_SHA1 "0c60c80f961f0e71f3a9b524af6012062fe037a6"

/* SP 800-38A F.1.1 (AES-128-ECB), F.2.1 (AES-128-CBC) and F.5.1
 * (AES-128-CTR), first block: key 2b7e1516..., plaintext 6bc1bee2...;
 * CBC's IV 00..0f, CTR's counter f0..ff. */
#define WC_KAT_AES128_KEY "2b7e151628aed2a6abf7158809cf4f3c"
#define WC_KAT_AES_PT "6bc1bee22e409f96e93d7e117393172a"
#define WC_KAT_AES_ECB_CT "3ad77bb40d7a3660a89ecaf32466ef97"
#define WC_KAT_AES_CBC_IV "000102030405060708090a0b0c0d0e0f"
#define WC_KAT_AES_CBC_CT "7649abac8119b246cee98e9b12e9197d"
#define WC_KAT_AES_CTR_IV "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
#define WC_KAT_AES_CTR_CT "874d6191b620e3261bef6864990db6ce"
/* The GCM specification's test case 2 (key, IV and plaintext zero). */
#define WC_KAT_GCM_CT "0388dace60b6a392f328c2b971b2fe78"
#define WC_KAT_GCM_TAG "ab6e47d42cec13bdf53a67b21257bddf"
/* RFC 7253 appendix A, the first sample: key 00..0f, nonce
 * bbaa99887766554433221100, no data: the 128-bit tag. */
#define WC_KAT_OCB_NONCE "bbaa99887766554433221100"
#define WC_KAT_OCB_TAG "785407bfffc8ad9edcc5520ac9111ee6"
/* RFC 8439 section 2.8.2 (ChaCha20-Poly1305; the plaintext is its
 * sunscreen sentence). */
#define WC_KAT_CHACHA_KEY "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
#define WC_KAT_CHACHA_NONCE "070000004041424344454647"
#define WC_KAT_CHACHA_AAD "50515253c0c1c2c3c4c5c6c7"
#define WC_KAT_CHACHA_PT                                                                        \
    "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "      \
    "future, sunscreen would be it."
#define WC_KAT_CHACHA_CT                                                                        \
    "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca967128"        \
    "2fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab3"      \
    "24e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
#define WC_KAT_CHACHA_TAG "1ae10b594f09e26a7e902ecbd0600691"

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
