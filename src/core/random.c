/* crypto.getRandomValues and crypto.randomUUID. */
#include <stdio.h>

#include "core.h"

#define WC_RANDOM_QUOTA 65536 /* the spec's limit per getRandomValues call */

webcrypto_status webcrypto_get_random_values(const webcrypto_backend *backend, uint8_t *buf,
                                             size_t len) {
    WC_REQUIRE(buf || len == 0, "get_random_values: buf must not be NULL");
    if (len > WC_RANDOM_QUOTA)
        return wc_error(WEBCRYPTO_ERR_QUOTA_EXCEEDED,
                        "getRandomValues: %zu bytes requested, at most %d per call", len,
                        WC_RANDOM_QUOTA);
    webcrypto_status st = wc_backend_resolve(backend, &backend);
    if (st != WEBCRYPTO_OK) return st;
    if (len == 0) return WEBCRYPTO_OK;
    return backend->ops->random_bytes(backend->bctx, buf, len);
}

webcrypto_status webcrypto_random_uuid(const webcrypto_backend *backend, char out[37]) {
    WC_REQUIRE(out, "random_uuid: out must not be NULL");
    uint8_t b[16];
    webcrypto_status st = webcrypto_get_random_values(backend, b, sizeof b);
    if (st != WEBCRYPTO_OK) return st;
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* variant 10xx (RFC 4122) */
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 15];
    }
    out[o] = 0;
    return WEBCRYPTO_OK;
}
