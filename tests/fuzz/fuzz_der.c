/*
 * fuzz_der: the core's own parsers, without a backend - the strict DER codec
 * (src/core/der.h) and strict base64url (src/core/core.h). Input: [selector]
 * bytes. Selectors 0-9: SPKI (even) or PKCS #8 (odd) for RSA, ECDSA, ECDH,
 * Ed25519, X25519; a parsed key is written again from its fields, and the
 * written DER must parse and re-encode to itself (an RSA or OKP SPKI, having
 * one DER form, to the input). 10: base64url decode, which must re-encode to
 * the input; 11: base64url encode, which must decode to the input.
 */
#include "core.h"
#include "der.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const webcrypto_algorithm KINDS[] = {WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_ECDSA,
                                            WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
                                            WEBCRYPTO_ALG_X25519};

static webcrypto_status parse(bool priv, webcrypto_algorithm kind, const uint8_t *der, size_t n,
                              wc_pkey_fields *f) {
    return priv ? wc_der_parse_pkcs8(kind, der, n, f) : wc_der_parse_spki(kind, der, n, f);
}

static webcrypto_status write(bool priv, webcrypto_algorithm kind, const wc_pkey_fields *f,
                              uint8_t **out, size_t *n) {
    return priv ? wc_der_write_pkcs8(kind, f, out, n) : wc_der_write_spki(kind, f, out, n);
}

static void fuzz_der(bool priv, webcrypto_algorithm kind, const uint8_t *der, size_t len) {
    wc_pkey_fields f, f2;
    uint8_t *out = NULL, *out2 = NULL;
    size_t n = 0, n2 = 0;
    if (parse(priv, kind, der, len, &f) != WEBCRYPTO_OK) return;
    FUZZ_CHECK(f.is_private == priv);
    /* EC points are written from x and y (the backend's fields), which a
     * parse does not give: those stop here unless the point is uncompressed. */
    if (write(priv, kind, &f, &out, &n) != WEBCRYPTO_OK) return;
    if (!priv && !wc_is_ec(kind)) FUZZ_CHECK(n == len && memcmp(out, der, n) == 0);
    FUZZ_CHECK(parse(priv, kind, out, n, &f2) == WEBCRYPTO_OK);
    FUZZ_CHECK(f2.curve == f.curve);
    FUZZ_CHECK(write(priv, kind, &f2, &out2, &n2) == WEBCRYPTO_OK);
    FUZZ_CHECK(n == n2 && memcmp(out, out2, n) == 0);
    webcrypto_buffer_free(out2, n2);
    webcrypto_buffer_free(out, n);
}

static void fuzz_b64_decode(const uint8_t *in, size_t len) {
    uint8_t *bytes = malloc(len / 4 * 3 + 3);
    char *text = malloc(len + 1);
    size_t n = 0;
    FUZZ_CHECK(bytes && text);
    if (wc_base64url_decode((const char *)in, len, bytes, &n)) {
        FUZZ_CHECK(wc_base64url_encoded_len(n) == len);
        wc_base64url_encode(bytes, n, text);
        FUZZ_CHECK(memcmp(text, in, len) == 0 && text[len] == 0);
    }
    free(text);
    free(bytes);
}

static void fuzz_b64_encode(const uint8_t *in, size_t len) {
    size_t tn = wc_base64url_encoded_len(len), n = 0;
    char *text = malloc(tn + 1);
    uint8_t *bytes = malloc(len + 1);
    FUZZ_CHECK(text && bytes);
    wc_base64url_encode(in, len, text);
    FUZZ_CHECK(strlen(text) == tn);
    FUZZ_CHECK(wc_base64url_decode(text, tn, bytes, &n) && n == len &&
               memcmp(bytes, in, len) == 0);
    free(bytes);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    unsigned sel = data[0] % 12;
    data++;
    size--;
    if (sel < 10) fuzz_der(sel & 1, KINDS[sel / 2], data, size);
    else if (sel == 10) fuzz_b64_decode(data, size);
    else fuzz_b64_encode(data, size);
    return 0;
}
