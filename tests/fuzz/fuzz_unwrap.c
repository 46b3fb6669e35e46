/*
 * fuzz_unwrap: webcrypto_unwrap_key with fixed AES-KW and AES-GCM keys - the
 * decrypt-then-import path. Input: [mode][algorithm index][format selector]
 * bytes. Mode bit 0 picks the unwrapping algorithm (AES-KW, AES-GCM); with
 * bit 1 clear the bytes are the wrapped key as given (so the unwrap itself is
 * fuzzed), with bit 1 set they are the plaintext, which the harness wraps
 * first so that the fuzzer reaches the import behind a valid unwrap.
 */
#include "fuzz_common.h"
#include "fuzz_keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static webcrypto_key *kw_key, *gcm_key;

static void setup(void) {
    webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW),
                     gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    FUZZ_CHECK(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, KW_KEY, sizeof KW_KEY, &kw, false,
                                    U_WRAP, &kw_key) == WEBCRYPTO_OK);
    FUZZ_CHECK(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, GCM_KEY, sizeof GCM_KEY, &gcm,
                                    false, U_ENC | U_WRAP, &gcm_key) == WEBCRYPTO_OK);
}

/* Wraps arbitrary bytes: AES-KW through wrapKey of an HMAC key holding them
 * (raw export gives them back exactly), AES-GCM by encrypting them. */
static bool wrap(bool kw, const webcrypto_params *alg, const uint8_t *in, size_t len,
                 uint8_t **out, size_t *out_len) {
    if (kw) {
        webcrypto_params hmac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
        webcrypto_key *k = NULL;
        if (webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, in, len, &hmac, true,
                                 WEBCRYPTO_USAGE_SIGN, &k) != WEBCRYPTO_OK)
            return false;
        webcrypto_status st = webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, k, kw_key, alg, out, out_len);
        webcrypto_key_free(k);
        return st == WEBCRYPTO_OK;
    }
    size_t n = 0;
    FUZZ_CHECK(webcrypto_encrypt(alg, gcm_key, in, len, NULL, 0, &n) == WEBCRYPTO_OK);
    *out = malloc(n ? n : 1);
    FUZZ_CHECK(*out);
    FUZZ_CHECK(webcrypto_encrypt(alg, gcm_key, in, len, *out, n, out_len) == WEBCRYPTO_OK);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!kw_key) setup();
    if (size < 3) return 0;
    bool kw = !(data[0] & 1), seal = data[0] & 2;
    const fuzz_alg *a = &FUZZ_ALGS[data[1] % FUZZ_NALGS];
    unsigned f = data[2] % FUZZ_NFORMATS;
    data += 3;
    size -= 3;
    webcrypto_params unwrap_alg = WEBCRYPTO_PARAMS(.name = kw ? WEBCRYPTO_ALG_AES_KW : WEBCRYPTO_ALG_AES_GCM,
                                                   .iv = GCM_IV, .iv_len = sizeof GCM_IV);
    webcrypto_params p = fuzz_params(a);
    uint8_t *wrapped = NULL;
    size_t wrapped_len = size;
    if (seal) {
        if (!wrap(kw, &unwrap_alg, data, size, &wrapped, &wrapped_len)) return 0;
    }
    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_unwrap_key(fuzz_format(f), seal ? wrapped : data, wrapped_len,
                                               kw ? kw_key : gcm_key, &unwrap_alg, &p,
                                               fuzz_extractable(a), fuzz_usages(a, f), &key);
    if (st == WEBCRYPTO_OK) {
        fuzz_round_trip(a, key, seal ? fuzz_format(f) : WEBCRYPTO_FORMAT_JWK, data, size);
        webcrypto_key_free(key);
    }
    if (wrapped) {
        if (kw) webcrypto_buffer_free(wrapped, wrapped_len);
        else free(wrapped);
    }
    return 0;
}
