/*
 * fuzz_decrypt: webcrypto_decrypt with fixed keys and fuzzed ciphertext, IV,
 * tag length, additional data / label and output buffer: AES-GCM, AES-GCM-SIV,
 * AES-CBC (the padding check), AES-CTR, RSA-OAEP. Every input must give a
 * status - never a crash or an access outside the buffers, each of which
 * the harness allocates at its exact size. What decrypts must encrypt back to
 * the ciphertext (CBC, CTR: deterministic), and the streaming API
 * (webcrypto_cipher_*) must agree with the one-shot call.
 *
 * Input: [algorithm][iv length][aad length][tag / counter length][flags] then
 * iv, aad and ciphertext. Flags: bit 0 a buffer one byte short, bit 1 in
 * place, bits 2-7 the streaming chunk size (CBC, CTR).
 */
#include "fuzz_common.h"
#include "fuzz_keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const webcrypto_algorithm ALGS[] = {WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_ALG_AES_GCM_SIV,
                                           WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_AES_CTR,
                                           WEBCRYPTO_ALG_RSA_OAEP};
/* Tag lengths in bits: GCM's allowed ones, and a few it refuses. */
static const size_t TAGS[] = {0, 32, 64, 96, 104, 112, 120, 128, 8, 33, 136, 256};

static webcrypto_key *keys[sizeof ALGS / sizeof ALGS[0]];

static void setup(void) {
    for (size_t i = 0; i < sizeof ALGS / sizeof ALGS[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = ALGS[i], .hash = WEBCRYPTO_ALG_SHA_256);
        webcrypto_status st;
        if (ALGS[i] == WEBCRYPTO_ALG_RSA_OAEP)
            st = webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_PKCS8, OAEP_PKCS8, sizeof OAEP_PKCS8,
                                      &p, false, WEBCRYPTO_USAGE_DECRYPT, &keys[i]);
        else if (ALGS[i] == WEBCRYPTO_ALG_AES_GCM_SIV)
            st = webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, SIV_KEY, sizeof SIV_KEY, &p,
                                      false, U_ENC, &keys[i]);
        else
            st = webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, AES_KEY, sizeof AES_KEY, &p,
                                      false, U_ENC, &keys[i]);
        FUZZ_CHECK(st == WEBCRYPTO_OK);
    }
}

/* A copy at its exact size, so that ASan sees any read past it. */
static uint8_t *dup(const uint8_t *p, size_t n) {
    uint8_t *d = malloc(n ? n : 1);
    FUZZ_CHECK(d);
    if (n) memcpy(d, p, n);
    return d;
}

/* The streaming API in chunks of `chunk` bytes must give the one-shot result. */
static void check_streaming(const webcrypto_params *p, const webcrypto_key *key, const uint8_t *ct,
                            size_t len, size_t chunk, webcrypto_status want, const uint8_t *pt,
                            size_t pt_len) {
    webcrypto_cipher_ctx *ctx = NULL;
    uint8_t *out = malloc(len + 32);
    size_t used = 0, n = 0;
    FUZZ_CHECK(out);
    webcrypto_status st = webcrypto_cipher_init(p, key, false, &ctx);
    for (size_t i = 0; st == WEBCRYPTO_OK && i < len; i += chunk) {
        size_t c = len - i < chunk ? len - i : chunk;
        st = webcrypto_cipher_update(ctx, ct + i, c, out + used, len + 32 - used, &n);
        if (st == WEBCRYPTO_OK) used += n;
    }
    if (st == WEBCRYPTO_OK) st = webcrypto_cipher_final(ctx, out + used, len + 32 - used, &n);
    if (st == WEBCRYPTO_OK) used += n;
    webcrypto_cipher_ctx_free(ctx);
    FUZZ_CHECK((st == WEBCRYPTO_OK) == (want == WEBCRYPTO_OK));
    if (st == WEBCRYPTO_OK) FUZZ_CHECK(used == pt_len && memcmp(out, pt, used) == 0);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!keys[0]) setup();
    if (size < 5) return 0;
    size_t a = data[0] % (sizeof ALGS / sizeof ALGS[0]);
    size_t iv_len = data[1], aad_len = data[2], tag = data[3], flags = data[4];
    data += 5;
    size -= 5;
    if (iv_len > size) iv_len = size;
    if (aad_len > size - iv_len) aad_len = size - iv_len;
    uint8_t *iv = dup(data, iv_len), *aad = dup(data + iv_len, aad_len);
    size_t ct_len = size - iv_len - aad_len;
    uint8_t *ct = dup(data + iv_len + aad_len, ct_len);

    webcrypto_params p = WEBCRYPTO_PARAMS(.name = ALGS[a], .hash = WEBCRYPTO_ALG_SHA_256);
    if (p.name == WEBCRYPTO_ALG_AES_CTR) {
        p.counter = iv;
        p.counter_len = iv_len;
        p.length = tag;
    } else {
        p.iv = iv;
        p.iv_len = iv_len;
        p.tag_length = TAGS[tag % (sizeof TAGS / sizeof TAGS[0])];
    }
    if (p.name == WEBCRYPTO_ALG_RSA_OAEP) {
        p.label = aad;
        p.label_len = aad_len;
    } else {
        p.additional_data = aad;
        p.additional_data_len = aad_len;
    }

    size_t need = 0, n = 0;
    webcrypto_status st = webcrypto_decrypt(&p, keys[a], ct, ct_len, NULL, 0, &need);
    if (st == WEBCRYPTO_OK) {
        size_t cap = (flags & 1) && need ? need - 1 : need;
        bool in_place = (flags & 2) && cap >= ct_len;
        uint8_t *out = malloc(cap ? cap : 1);
        FUZZ_CHECK(out);
        if (in_place && ct_len) memcpy(out, ct, ct_len);
        const uint8_t *in = in_place ? out : ct;
        st = webcrypto_decrypt(&p, keys[a], in, ct_len, out, cap, &n);
        FUZZ_CHECK(st != WEBCRYPTO_OK || n <= cap);
        if (st == WEBCRYPTO_OK &&
            (p.name == WEBCRYPTO_ALG_AES_CBC || p.name == WEBCRYPTO_ALG_AES_CTR)) {
            uint8_t *pt = dup(out, n), *back = malloc(ct_len ? ct_len : 1);
            size_t m = 0;
            FUZZ_CHECK(back);
            FUZZ_CHECK(webcrypto_encrypt(&p, keys[a], pt, n, back, ct_len, &m) == WEBCRYPTO_OK);
            FUZZ_CHECK(m == ct_len && memcmp(back, ct, m) == 0);
            check_streaming(&p, keys[a], ct, ct_len, (flags >> 2) + 1, st, pt, n);
            free(back);
            free(pt);
        } else if (p.name == WEBCRYPTO_ALG_AES_CBC && !(flags & 1)) {
            check_streaming(&p, keys[a], ct, ct_len, (flags >> 2) + 1, st, NULL, 0);
        }
        free(out);
    }
    free(ct);
    free(aad);
    free(iv);
    return 0;
}
