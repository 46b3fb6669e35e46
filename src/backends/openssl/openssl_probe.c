/*
 * openssl_probe.c - init's known answers for what the openssl backend
 * fetched: an algorithm is offered only if the running OpenSSL computes
 * its standard's example (core/known_answers.h) through the very EVP
 * object the backend keeps, never because of a version number. (ML-KEM,
 * ML-DSA, the Ed448 context, cSHAKE's customization, AES-GCM-SIV and
 * Argon2 have probes of their own beside their code; the provider calls,
 * which must answer as EVP does, theirs in provider_direct.c.)
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "core/known_answers.h"
#include "openssl_internal.h"

/* The hex string's bytes (at most 64) equal got's first n. */
static bool same(const char *hex, const uint8_t *got, size_t n) {
    uint8_t want[128];
    if (!hex || n > sizeof want || strlen(hex) < 2 * n) return false;
    wc_kat_unhex(hex, want, n);
    return memcmp(want, got, n) == 0;
}

bool wc_ossl_kat_digest(const EVP_MD *md, wc_hash h) {
    uint8_t out[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    const char *want = wc_kat_hash_abc(h);
    bool ok = want && EVP_Digest("abc", 3, out, &n, md, NULL) == 1 && 2 * (size_t)n == strlen(want) &&
              same(want, out, n);
    ERR_clear_error();
    return ok;
}

bool wc_ossl_kat_shake(const EVP_MD *md, wc_xof k) {
    uint8_t out[32];
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    bool ok = c && EVP_DigestInit_ex2(c, md, NULL) == 1 && EVP_DigestFinalXOF(c, out, 32) == 1 &&
              same(wc_kat_shake_empty(k), out, 32);
    EVP_MD_CTX_free(c);
    ERR_clear_error();
    return ok;
}

bool wc_ossl_kat_kmac(EVP_MAC *mac, wc_kmac k) {
    uint8_t key[32], data[4] = {0, 1, 2, 3}, out[64];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x40 + i);
    size_t len = k == WC_KMAC_128 ? 32 : 64, n = 0;
    const char *custom = k == WC_KMAC_128 ? "" : WC_KAT_KMAC_CUSTOM;
    OSSL_PARAM params[3] = {
        OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &len),
        OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM, (void *)custom, strlen(custom)),
        OSSL_PARAM_construct_end()};
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    bool ok = c && EVP_MAC_init(c, key, sizeof key, params) == 1 &&
              EVP_MAC_update(c, data, sizeof data) == 1 &&
              EVP_MAC_final(c, out, &n, sizeof out) == 1 && n == len && same(wc_kat_kmac(k), out, n);
    EVP_MAC_CTX_free(c);
    ERR_clear_error();
    return ok;
}

bool wc_ossl_kat_pbkdf2(EVP_KDF *kdf, const EVP_MD *sha1) {
    uint8_t out[20];
    unsigned int iter = 1;
    OSSL_PARAM params[5] = {
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)"password", 8),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)"salt", 4),
        OSSL_PARAM_construct_uint(OSSL_KDF_PARAM_ITER, &iter),
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)EVP_MD_get0_name(sha1), 0),
        OSSL_PARAM_construct_end()};
    EVP_KDF_CTX *c = EVP_KDF_CTX_new(kdf);
    bool ok = c && EVP_KDF_derive(c, out, sizeof out, params) == 1 &&
              same(WC_KAT_PBKDF2_SHA1, out, sizeof out);
    EVP_KDF_CTX_free(c);
    ERR_clear_error();
    return ok;
}

/* One encryption through EVP: key, iv (iv_len bytes; GCM/OCB set it), aad,
 * pt -> ct (len bytes) and tag_len bytes of tag (0: none); whether both are
 * the known ones. */
static bool kat_encrypt(const EVP_CIPHER *cipher, const char *key_hex, size_t key_len,
                        const char *iv_hex, size_t iv_len, const uint8_t *aad, size_t aad_len,
                        const uint8_t *pt, size_t len, const char *ct_hex, const char *tag_hex,
                        size_t tag_len) {
    uint8_t key[32], iv[16], ct[128], tag[16];
    if (key_len > sizeof key || iv_len > sizeof iv || len > sizeof ct) return false;
    wc_kat_unhex(key_hex, key, key_len);
    wc_kat_unhex(iv_hex, iv, iv_len);
    int n = 0, m = 0;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    bool aead = tag_len > 0;
    bool ok = c && EVP_EncryptInit_ex2(c, cipher, NULL, NULL, NULL) == 1 &&
              (!aead || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) == 1) &&
              EVP_EncryptInit_ex2(c, NULL, key, iv_len ? iv : NULL, NULL) == 1 &&
              (aead || EVP_CIPHER_CTX_set_padding(c, 0) == 1) &&
              (aad_len == 0 || EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len) == 1) &&
              (len == 0 || EVP_EncryptUpdate(c, ct, &n, pt, (int)len) == 1) &&
              EVP_EncryptFinal_ex(c, ct + (len ? n : 0), &m) == 1 && (size_t)(len ? n + m : m) == len &&
              (!aead || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)tag_len, tag) == 1) &&
              (len == 0 || same(ct_hex, ct, len)) && (!aead || same(tag_hex, tag, tag_len));
    EVP_CIPHER_CTX_free(c);
    ERR_clear_error();
    return ok;
}

/* AES-128 in cipher's mode (ECB, CBC, CTR, GCM, OCB): its known answer. */
bool wc_ossl_kat_aes(const EVP_CIPHER *aes128) {
    uint8_t pt[16], zero[16] = {0};
    wc_kat_unhex(WC_KAT_AES_PT, pt, 16);
    static const char z[] = "00000000000000000000000000000000"; /* 16 zero bytes */
    int mode = EVP_CIPHER_get_mode(aes128);
    if (mode == EVP_CIPH_ECB_MODE)
        return kat_encrypt(aes128, WC_KAT_AES128_KEY, 16, z, 0, NULL, 0, pt, 16, WC_KAT_AES_ECB_CT,
                           NULL, 0);
    if (mode == EVP_CIPH_CBC_MODE)
        return kat_encrypt(aes128, WC_KAT_AES128_KEY, 16, WC_KAT_AES_CBC_IV, 16, NULL, 0, pt, 16,
                           WC_KAT_AES_CBC_CT, NULL, 0);
    if (mode == EVP_CIPH_CTR_MODE)
        return kat_encrypt(aes128, WC_KAT_AES128_KEY, 16, WC_KAT_AES_CTR_IV, 16, NULL, 0, pt, 16,
                           WC_KAT_AES_CTR_CT, NULL, 0);
    if (mode == EVP_CIPH_GCM_MODE)
        return kat_encrypt(aes128, z, 16, z, 12, NULL, 0, zero, 16, WC_KAT_GCM_CT, WC_KAT_GCM_TAG,
                           16);
    if (mode == EVP_CIPH_OCB_MODE)
        return kat_encrypt(aes128, WC_KAT_AES_CBC_IV, 16, WC_KAT_OCB_NONCE, 12, NULL, 0, NULL, 0,
                           NULL, WC_KAT_OCB_TAG, 16);
    return false;
}

bool wc_ossl_kat_chacha20_poly1305(const EVP_CIPHER *cipher) {
    static const char pt[] = WC_KAT_CHACHA_PT;
    uint8_t aad[12];
    wc_kat_unhex(WC_KAT_CHACHA_AAD, aad, sizeof aad);
    return kat_encrypt(cipher, WC_KAT_CHACHA_KEY, 32, WC_KAT_CHACHA_NONCE, 12, aad, sizeof aad,
                       (const uint8_t *)pt, sizeof pt - 1, WC_KAT_CHACHA_CT, WC_KAT_CHACHA_TAG, 16);
}
