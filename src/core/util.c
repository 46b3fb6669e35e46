/* Small helpers the core and backends share: wiping and constant-time compare. */
#include <string.h>

#include "backend.h"

/* A volatile function pointer keeps the compiler from proving the memset dead. */
static void *(*const volatile wc_memset)(void *, int, size_t) = memset;

void wc_wipe(void *p, size_t len) {
    if (p && len) wc_memset(p, 0, len);
}

bool wc_equal_ct(const uint8_t *a, const uint8_t *b, size_t len) {
    volatile uint8_t diff = 0;
    for (size_t i = 0; i < len; i++) diff |= (uint8_t)(a[i] ^ b[i]);
    return diff == 0;
}
