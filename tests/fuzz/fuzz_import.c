/*
 * fuzz_import: webcrypto_import_key on the openssl backend, every algorithm
 * in every format. Input: [algorithm index][format selector] key data.
 * For HMAC, an odd data[1] / FUZZ_NFORMATS also sets `length` up to 7 bits
 * short of the data's. A key that imports goes through fuzz_round_trip
 * (export, re-import, export again: the same bytes).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const fuzz_alg *a = &FUZZ_ALGS[data[0] % FUZZ_NALGS];
    unsigned f = data[1] % FUZZ_NFORMATS;
    webcrypto_params p = fuzz_params(a);
    webcrypto_key_format format = fuzz_format(f);
    unsigned more = data[1] / FUZZ_NFORMATS;
    if (a->name == WEBCRYPTO_ALG_HMAC && more % 2) p.length = (size - 2) * 8 - more / 2 % 8;
    webcrypto_key *key = NULL;
    if (webcrypto_import_key(NULL, format, data + 2, size - 2, &p, fuzz_extractable(a),
                             fuzz_usages(a, f), &key) != WEBCRYPTO_OK)
        return 0;
    FUZZ_CHECK(key && webcrypto_key_get_algorithm(key) == a->name);
    fuzz_round_trip(a, key, format, data + 2, size - 2);
    webcrypto_key_free(key);
    return 0;
}
