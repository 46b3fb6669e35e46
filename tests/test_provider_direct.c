/*
 * test_provider_direct.c - which of the openssl backend's provider calls
 * (provider_direct.h: one-shot digests, HMAC on copied digest states,
 * AES-GCM, AES-OCB, ChaCha20-Poly1305, AES-CBC, AES-CTR) the running
 * OpenSSL gave it, and that each one in use answers
 * exactly as EVP does, on whichever OpenSSL the process loaded (3.0, or
 * 3.5 in test_provider_direct.openssl35). Each fast path is either taken
 * (its init probe passed) or left for EVP; this prints which, and fails
 * if the default provider's paths are not all taken (a probe that stopped
 * matching the provider) or, under WEBCRYPTO_OPENSSL_PROVIDER_DIRECT=0,
 * if any is. Links the static library to read the backend's state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "webcrypto.h"
#include "openssl_internal.h"

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL: " __VA_ARGS__);                                                          \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void fill(uint8_t *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
}

/* The digest through the provider's functions against EVP_Digest. */
static void digest_same(wc_hash h) {
    const wc_prov_digest *pd = &wc_ossl_prov_digests[h];
    static const size_t lens[] = {0, 1, 55, 64, 65, 1000, 70000};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        uint8_t *in = malloc(lens[i] + 1), a[64], b[64];
        unsigned bn = 0;
        fill(in, lens[i], (unsigned)i);
        void *c = pd->newctx(pd->provctx);
        CHECK(c && wc_prov_digest_run(pd, c, in, lens[i], a), "%s: provider digest", wc_hash_name(h));
        if (c) pd->freectx(c);
        CHECK(EVP_Digest(in, lens[i], b, &bn, wc_ossl_md(h), NULL) == 1 && bn == pd->size &&
                  memcmp(a, b, bn) == 0,
              "%s: the provider's digest of %zu bytes is not EVP's", wc_hash_name(h), lens[i]);
        free(in);
    }
}

/* An AEAD (AES-GCM, AES-OCB, ChaCha20-Poly1305) sealed through the
 * provider's functions against EVP (300 bytes: OCB holds a partial block
 * back until final). */
static void aead_same(const wc_prov_cipher *pg, const EVP_CIPHER *cipher, const char *name) {
    uint8_t key[32], iv[12], aad[20], in[300], out[300], tag[16], evp_out[300], evp_tag[16];
    fill(key, sizeof key, 1);
    fill(iv, sizeof iv, 2);
    fill(aad, sizeof aad, 3);
    fill(in, sizeof in, 4);
    void *c = wc_prov_aead_new(pg, key, true);
    CHECK(c && wc_prov_aead_seal(pg, c, iv, sizeof iv, aad, sizeof aad, in, sizeof in, out, tag, 16),
          "%s: provider seal", name);
    if (c) pg->freectx(c);
    EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
    int n = 0, m = 0;
    CHECK(e && EVP_EncryptInit_ex2(e, cipher, key, iv, NULL) == 1 &&
              EVP_EncryptUpdate(e, NULL, &n, aad, sizeof aad) == 1 &&
              EVP_EncryptUpdate(e, evp_out, &n, in, sizeof in) == 1 &&
              EVP_EncryptFinal_ex(e, evp_out + n, &m) == 1 &&
              EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_GET_TAG, 16, evp_tag) == 1,
          "%s through EVP", name);
    EVP_CIPHER_CTX_free(e);
    CHECK(memcmp(out, evp_out, sizeof in) == 0 && memcmp(tag, evp_tag, 16) == 0,
          "%s: the provider's ciphertext or tag is not EVP's", name);
}

/* CBC (whole blocks, no padding) or CTR through the provider's functions
 * against EVP, both ways, on a context used for two messages. */
static void mode_same(const wc_prov_cipher *pc, const EVP_CIPHER *cipher, const char *name) {
    uint8_t key[32], iv[16], in[160], out[160], want[160];
    fill(key, sizeof key, 5);
    fill(in, sizeof in, 6);
    for (int enc = 0; enc < 2; enc++) {
        void *tpl = wc_prov_mode_new(pc, key, enc);
        void *c = tpl ? pc->dupctx(tpl) : NULL;
        CHECK(c != NULL, "%s: provider context", name);
        for (unsigned k = 0; c && k < 2; k++) {
            size_t len = k ? 160 : 64;
            fill(iv, sizeof iv, 7 + k);
            EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
            int n = 0, m = 0;
            CHECK(wc_prov_mode_run(pc, c, enc, iv, in, len, out), "%s: provider run", name);
            CHECK(e && EVP_CipherInit_ex2(e, cipher, key, iv, enc, NULL) == 1 &&
                      EVP_CIPHER_CTX_set_padding(e, 0) == 1 &&
                      EVP_CipherUpdate(e, want, &n, in, (int)len) == 1 &&
                      EVP_CipherFinal_ex(e, want + n, &m) == 1 && memcmp(out, want, len) == 0,
                  "%s: the provider's %s of %zu bytes is not EVP's", name,
                  enc ? "encryption" : "decryption", len);
            EVP_CIPHER_CTX_free(e);
        }
        if (c) pc->freectx(c);
        if (tpl) pc->freectx(tpl);
    }
}

int main(void) {
    const webcrypto_backend *b = NULL;
    if (webcrypto_backend_get("openssl", &b) != WEBCRYPTO_OK) {
        printf("FAIL: the openssl backend: %s\n", webcrypto_error_message());
        return 1;
    }
    const char *env = getenv("WEBCRYPTO_OPENSSL_PROVIDER_DIRECT");
    bool direct = !(env && strcmp(env, "0") == 0);
    printf("%s; provider calls %s\n", OpenSSL_version(OPENSSL_VERSION),
           direct ? "allowed" : "off (WEBCRYPTO_OPENSSL_PROVIDER_DIRECT=0)");
    for (int i = 0; i < WC_HASH_COUNT; i++) {
        wc_hash h = (wc_hash)i;
        if (!wc_ossl_md(h)) {
            printf("%-9s not fetched\n", wc_hash_name(h));
            continue;
        }
        const wc_prov_digest *pd = &wc_ossl_prov_digests[h];
        printf("%-9s digest: %-13s HMAC: %s\n", wc_hash_name(h), pd->newctx ? "provider call" : "EVP",
               pd->dupctx ? "provider call" : "EVP");
        CHECK(!pd->newctx == !direct, "%s: digest path %s", wc_hash_name(h),
              direct ? "not taken" : "taken though off");
        CHECK(!pd->dupctx == !direct, "%s: HMAC path %s", wc_hash_name(h),
              direct ? "not taken" : "taken though off");
        if (pd->newctx) digest_same(h);
    }
    for (int i = 0; i < 3; i++) {
        const wc_prov_cipher *pg = &wc_ossl_prov_gcms[i];
        printf("AES-%d-GCM: %s\n", 128 + 64 * i, pg->newctx ? "provider call" : "EVP");
        CHECK(!pg->newctx == !direct, "AES-%d-GCM path %s", 128 + 64 * i,
              direct ? "not taken" : "taken though off");
        char name[16];
        snprintf(name, sizeof name, "AES-%d-GCM", 128 + 64 * i);
        if (pg->newctx) aead_same(pg, wc_ossl_aes_gcm_ciphers[i], name);
    }
    for (int i = 0; i < 3 && wc_ossl_aes_ocb_ciphers[i]; i++) {
        const wc_prov_cipher *pg = &wc_ossl_prov_ocbs[i];
        char name[16];
        snprintf(name, sizeof name, "AES-%d-OCB", 128 + 64 * i);
        printf("%s: %s\n", name, pg->newctx ? "provider call" : "EVP");
        CHECK(!pg->newctx == !direct, "%s path %s", name, direct ? "not taken" : "taken though off");
        if (pg->newctx) aead_same(pg, wc_ossl_aes_ocb_ciphers[i], name);
    }
    if (wc_ossl_chacha20_poly1305_cipher) {
        const wc_prov_cipher *pg = &wc_ossl_prov_chacha20_poly1305;
        printf("ChaCha20-Poly1305: %s\n", pg->newctx ? "provider call" : "EVP");
        CHECK(!pg->newctx == !direct, "ChaCha20-Poly1305 path %s",
              direct ? "not taken" : "taken though off");
        if (pg->newctx) aead_same(pg, wc_ossl_chacha20_poly1305_cipher, "ChaCha20-Poly1305");
    }
    static const char *const mode_names[2] = {"CBC", "CTR"};
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 3; i++) {
            const wc_prov_cipher *pc = m ? &wc_ossl_prov_ctrs[i] : &wc_ossl_prov_cbcs[i];
            const EVP_CIPHER *cipher = m ? wc_ossl_aes_ctr_ciphers[i] : wc_ossl_aes_cbc_ciphers[i];
            char name[16];
            snprintf(name, sizeof name, "AES-%d-%s", 128 + 64 * i, mode_names[m]);
            printf("%s: %s\n", name, pc->newctx ? "provider call" : "EVP");
            CHECK(!pc->newctx == !direct, "%s path %s", name, direct ? "not taken" : "taken though off");
            if (pc->newctx) mode_same(pc, cipher, name);
        }
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
