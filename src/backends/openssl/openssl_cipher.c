/*
 * openssl_cipher.c - the openssl backend's AES key states (templates keyed
 * once) and the per-thread cipher contexts the AEADs and AES-KW also use;
 * AES-CBC and AES-CTR.
 */
#include <stdlib.h>

#include <openssl/evp.h>

#include "core/backend.h"
#include "openssl_internal.h"

void wc_ossl_aes_state_free(aes_state *s) {
    wc_tc_key_release(&s->tc);
    /* EVP_CIPHER_CTX_free cleanses the key schedule. */
    EVP_CIPHER_CTX_free(s->enc);
    EVP_CIPHER_CTX_free(s->dec);
    if (s->prov_enc) s->prov->freectx(s->prov_enc); /* cleanses it */
    if (s->prov_dec) s->prov->freectx(s->prov_dec);
    wc_wipe(s, sizeof *s);
    free(s);
}

/* A template context: cipher keyed for one direction, no IV yet. */
static webcrypto_status cipher_template(const EVP_CIPHER *cipher, const uint8_t *key, int enc,
                                        bool no_padding, EVP_CIPHER_CTX **out) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_CIPHER_CTX_new");
    if (EVP_CipherInit_ex2(c, cipher, key, NULL, enc, NULL) != 1) {
        EVP_CIPHER_CTX_free(c);
        return wc_ossl_fail("EVP_CipherInit_ex2 (key)");
    }
    if (no_padding && EVP_CIPHER_CTX_set_padding(c, 0) != 1) {
        EVP_CIPHER_CTX_free(c);
        return wc_ossl_fail("EVP_CIPHER_CTX_set_padding");
    }
    *out = c;
    return WEBCRYPTO_OK;
}

/* GCM's hash subkey H = AES_K(0^128), as the first CTR keystream block of
 * counter 0; kept for IVs too long for OpenSSL (wc_ossl_gcm_reduce_iv). */
static webcrypto_status gcm_hash_subkey(const EVP_CIPHER *ctr, const uint8_t *key,
                                        uint8_t h[16]) {
    static const uint8_t zero[16] = {0};
    int n = 0;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_CIPHER_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_EncryptInit_ex2(c, ctr, key, zero, NULL) != 1 ||
        EVP_EncryptUpdate(c, h, &n, zero, 16) != 1 || n != 16)
        st = wc_ossl_fail("AES (GCM hash subkey)");
    EVP_CIPHER_CTX_free(c);
    return st;
}

webcrypto_status wc_ossl_aes_key_new(wc_family family, unsigned member, const uint8_t *key,
                                     size_t key_len, void **state) {
    int idx;
    switch (key_len) {
    case 16: idx = 0; break;
    case 24: idx = 1; break;
    case 32: idx = 2; break;
    default: return wc_error(WEBCRYPTO_ERR_DATA, "AES key must be 16, 24 or 32 bytes");
    }
    /* secret_key_new sends CIPHER, AEAD (GCM, OCB, ChaCha20-Poly1305: one
     * context keyed for both directions) and KEYWRAP keys here. CBC and KW
     * need a key schedule per direction; so does OCB: OpenSSL 3.0's OCB
     * keyed for encryption decrypts whole blocks wrongly (it has no AES
     * decryption schedule), so it gets a context keyed to decrypt. KW is on
     * AES-ECB without padding (aes_kw_run), as CBC. */
    const EVP_CIPHER *cipher = NULL;
    const wc_prov_cipher *pm = NULL; /* CBC, CTR: the provider's functions, where found */
    const wc_prov_cipher *aead_prov = NULL; /* GCM, ChaCha20-Poly1305: likewise */
    bool gcm = false, two_way = false, no_padding = false;
    switch (family) {
    case WC_FAMILY_CIPHER:
        switch ((wc_cipher)member) {
        case WC_CIPHER_AES_CBC:
            cipher = wc_ossl_aes_cbc_ciphers[idx], two_way = no_padding = true;
            pm = &wc_ossl_prov_cbcs[idx];
            break;
        case WC_CIPHER_AES_CTR:
            cipher = wc_ossl_aes_ctr_ciphers[idx];
            pm = &wc_ossl_prov_ctrs[idx];
            break;
        case WC_CIPHER_COUNT: break;
        }
        break;
    case WC_FAMILY_AEAD:
        switch ((wc_aead)member) {
        case WC_AEAD_AES_GCM:
            cipher = wc_ossl_aes_gcm_ciphers[idx], gcm = true;
            aead_prov = &wc_ossl_prov_gcms[idx];
            break;
        case WC_AEAD_AES_OCB:
            cipher = wc_ossl_aes_ocb_ciphers[idx], two_way = true;
            aead_prov = &wc_ossl_prov_ocbs[idx];
            break;
        case WC_AEAD_CHACHA20_POLY1305:
            cipher = idx == 2 ? wc_ossl_chacha20_poly1305_cipher : NULL;
            aead_prov = &wc_ossl_prov_chacha20_poly1305;
            break;
        case WC_AEAD_AES_GCM_SIV: /* its own state (gcm_siv.c) */
        case WC_AEAD_COUNT: break;
        }
        break;
    case WC_FAMILY_KEYWRAP:
        cipher = wc_ossl_aes_kw_ciphers[idx], two_way = no_padding = true;
        pm = &wc_ossl_prov_ecbs[idx];
        break;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_KDF:
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    if (!cipher)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL: this AES mode is not available");

    aes_state *s = calloc(1, sizeof *s);
    if (!s) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
    s->head = (wc_ossl_key_head){family, member};
    wc_tc_key_init(&s->tc);
    webcrypto_status st = WEBCRYPTO_OK;
    if (aead_prov && aead_prov->newctx) {
        s->prov = aead_prov;
        /* One context both ways, but OCB's (wc_prov_aead_new) */
        if (!(s->prov_enc = wc_prov_aead_new(aead_prov, key, true)) ||
            (aead_prov->ocb && !(s->prov_dec = wc_prov_aead_new(aead_prov, key, false))))
            st = wc_ossl_fail("AEAD key set-up");
        two_way = false; /* no EVP templates */
    } else if (pm && pm->newctx) {
        s->prov = pm;
        if (!(s->prov_enc = wc_prov_mode_new(pm, key, true)) ||
            (two_way && !(s->prov_dec = wc_prov_mode_new(pm, key, false))))
            st = wc_ossl_fail("AES key set-up");
        two_way = false; /* no EVP templates */
    } else {
        st = cipher_template(cipher, key, 1, no_padding, &s->enc);
    }
    if (st == WEBCRYPTO_OK && two_way) st = cipher_template(cipher, key, 0, no_padding, &s->dec);
    if (st == WEBCRYPTO_OK && gcm && wc_ossl_aes_ctr_ciphers[idx]) {
        st = gcm_hash_subkey(wc_ossl_aes_ctr_ciphers[idx], key, s->h);
        s->have_h = st == WEBCRYPTO_OK;
    }
    if (st != WEBCRYPTO_OK) {
        wc_ossl_aes_state_free(s);
        return st;
    }
    *state = s;
    return WEBCRYPTO_OK;
}

/* ---- AES ---- */

/* A per-call context: a copy of the key's template (no key schedule), with
 * iv set and the direction chosen. iv_len, if not 0, is a GCM IV length.
 * Used by AES-KW, which is not called per small message; the other modes
 * reuse the thread's context (wc_ossl_cipher_begin). */
webcrypto_status wc_ossl_cipher_start(const EVP_CIPHER_CTX *tpl, int enc, const uint8_t *iv,
                                      size_t iv_len, EVP_CIPHER_CTX **out) {
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c) return wc_ossl_no_memory("EVP_CIPHER_CTX_new");
    webcrypto_status st = WEBCRYPTO_OK;
    if (EVP_CIPHER_CTX_copy(c, tpl) != 1)
        st = wc_ossl_fail("EVP_CIPHER_CTX_copy");
    else if (iv_len != 0 && iv_len != 12 &&
             EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) != 1)
        st = wc_ossl_fail("setting the AES-GCM IV length");
    else if (EVP_CipherInit_ex2(c, NULL, NULL, iv, enc, NULL) != 1)
        st = wc_ossl_fail("EVP_CipherInit_ex2 (IV)");
    if (st != WEBCRYPTO_OK) {
        EVP_CIPHER_CTX_free(c);
        return st;
    }
    *out = c;
    return WEBCRYPTO_OK;
}

/* The calling thread's context for s, keyed in the direction enc (CBC keeps
 * one per direction, CTR and GCM one for both), re-initialised with iv:
 * after the thread's first call with the key this neither copies nor keys
 * anything. iv_len, if not 0, is a GCM IV length. On success *slot is where
 * the context lives, for wc_ossl_cipher_done. */
webcrypto_status wc_ossl_cipher_begin(const aes_state *s, int enc, const uint8_t *iv,
                                      size_t iv_len, EVP_CIPHER_CTX ***slot) {
    wc_tc_entry *e = wc_tc_entry_get(&s->tc);
    if (!e) return WEBCRYPTO_ERR_NO_MEMORY;
    bool own_dec = s->dec && !enc;
    EVP_CIPHER_CTX **p = own_dec ? &e->dec : &e->enc;
    EVP_CIPHER_CTX *c = *p;
    if (!c) {
        if (!(c = EVP_CIPHER_CTX_new())) return wc_ossl_no_memory("EVP_CIPHER_CTX_new");
        if (EVP_CIPHER_CTX_copy(c, own_dec ? s->dec : s->enc) != 1) {
            EVP_CIPHER_CTX_free(c);
            return wc_ossl_fail("EVP_CIPHER_CTX_copy");
        }
        *p = c;
        *(own_dec ? &e->dec_iv_len : &e->gcm_iv_len) = 0;
    }
    webcrypto_status st = WEBCRYPTO_OK;
    size_t *set_len = own_dec ? &e->dec_iv_len : &e->gcm_iv_len;
    if (iv_len != 0 && iv_len != (*set_len ? *set_len : 12)) {
        if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) != 1)
            st = wc_ossl_fail("setting the AEAD IV length");
        else
            *set_len = iv_len;
    }
    if (st == WEBCRYPTO_OK && EVP_CipherInit_ex(c, NULL, NULL, NULL, iv, enc) != 1)
        st = wc_ossl_fail("EVP_CipherInit_ex (IV)");
    if (st != WEBCRYPTO_OK) {
        EVP_CIPHER_CTX_free(c);
        *p = NULL;
        return st;
    }
    *slot = p;
    return WEBCRYPTO_OK;
}

/* Ends a call begun by wc_ossl_cipher_begin: a context whose call failed is dropped
 * (the next call copies the template again) rather than trusted. */
webcrypto_status wc_ossl_cipher_done(EVP_CIPHER_CTX **slot, webcrypto_status st) {
    if (st != WEBCRYPTO_OK) {
        EVP_CIPHER_CTX_free(*slot);
        *slot = NULL;
    }
    return st;
}

/* Runs len bytes through c in int-sized chunks; out NULL feeds GCM's AAD.
 * Every mode used here (CBC without padding on whole blocks, CTR, GCM)
 * outputs exactly what it is given, which is checked. */
webcrypto_status wc_ossl_cipher_update(EVP_CIPHER_CTX *c, uint8_t *out, const uint8_t *in,
                                       size_t len) {
    while (len > 0) {
        size_t n = len < OSSL_CHUNK ? len : OSSL_CHUNK;
        int got = 0;
        if (EVP_CipherUpdate(c, out, &got, in, (int)n) != 1) return wc_ossl_fail("EVP_CipherUpdate");
        if (got != (int)n)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: EVP_CipherUpdate output %d bytes, expected %zu", got, n);
        if (out) out += n;
        in += n;
        len -= n;
    }
    return WEBCRYPTO_OK;
}

/* Final for the modes that hold nothing back (CBC without padding, CTR). */
static webcrypto_status cipher_final_empty(EVP_CIPHER_CTX *c) {
    uint8_t rest[32];
    int got = 0;
    if (EVP_CipherFinal_ex(c, rest, &got) != 1) return wc_ossl_fail("EVP_CipherFinal_ex");
    if (got != 0) {
        wc_wipe(rest, sizeof rest);
        return wc_error(WEBCRYPTO_ERR_OPERATION, "OpenSSL: unexpected %d bytes at EVP_CipherFinal_ex", got);
    }
    return WEBCRYPTO_OK;
}

void wc_ossl_prov_drop(const aes_state *s, void **slot) {
    s->prov->freectx(*slot);
    *slot = NULL;
}

/* CBC or CTR on the provider path: the thread's context re-initialised with
 * iv; a context whose call failed is dropped. */
static webcrypto_status mode_prov(const aes_state *s, bool encrypt, const uint8_t iv[16],
                                  const uint8_t *in, size_t len, uint8_t *out) {
    bool dec = !encrypt && s->prov_dec; /* CTR decrypts by encrypting */
    void **slot = NULL;
    webcrypto_status st = wc_ossl_prov_ctx(s, dec, &slot);
    if (st != WEBCRYPTO_OK) return st;
    if (wc_prov_mode_run(s->prov, *slot, !dec, iv, in, len, out)) return WEBCRYPTO_OK;
    wc_ossl_prov_drop(s, slot);
    return wc_ossl_fail(encrypt ? "AES encryption" : "AES decryption");
}

static webcrypto_status ossl_aes_cbc(const void *key_state, bool encrypt, const uint8_t iv[16],
                                     const uint8_t *in, size_t len, uint8_t *out) {
    const aes_state *s = key_state;
    if (s->prov) return mode_prov(s, encrypt, iv, in, len, out);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = wc_ossl_cipher_begin(s, encrypt ? 1 : 0, iv, 0, &slot);
    if (st != WEBCRYPTO_OK) return st;
    st = wc_ossl_cipher_update(*slot, out, in, len);
    if (st == WEBCRYPTO_OK) st = cipher_final_empty(*slot);
    return wc_ossl_cipher_done(slot, st);
}

static webcrypto_status ossl_aes_ctr(const void *key_state, const uint8_t counter[16],
                                     const uint8_t *in, size_t len, uint8_t *out) {
    const aes_state *s = key_state;
    if (s->prov) return mode_prov(s, true, counter, in, len, out);
    EVP_CIPHER_CTX **slot = NULL;
    webcrypto_status st = wc_ossl_cipher_begin(s, 1, counter, 0, &slot);
    if (st != WEBCRYPTO_OK) return st;
    st = wc_ossl_cipher_update(*slot, out, in, len);
    if (st == WEBCRYPTO_OK) st = cipher_final_empty(*slot);
    return wc_ossl_cipher_done(slot, st);
}

webcrypto_status wc_ossl_cipher(const void *key_state, wc_cipher kind, bool encrypt,
                                const uint8_t iv[16], const uint8_t *in, size_t len,
                                uint8_t *out) {
    switch (kind) {
    case WC_CIPHER_AES_CBC: return ossl_aes_cbc(key_state, encrypt, iv, in, len, out);
    case WC_CIPHER_AES_CTR: return ossl_aes_ctr(key_state, iv, in, len, out);
    case WC_CIPHER_COUNT: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: no such cipher mode");
}
