/* Small helpers the core and backends share: wiping and constant-time compare. */
#include <string.h>

#include "backend.h"

/* A volatile function pointer keeps the compiler from proving the memset dead. */
static void *(*const volatile wc_memset)(void *, int, size_t) = memset;

void wc_wipe(void *p, size_t len) {
    if (p && len) wc_memset(p, 0, len);
}

/* Every byte is read (volatile reads), the differences are ORed in a
 * register (a volatile accumulator would make each step wait for the last
 * store), and the result is turned into 0/1 without a branch. */
#ifdef WEBCRYPTO_CT_SELFTEST_LEAK
/* tests/ct.cmake's ct.leak-selftest only: a branch on a secret byte, which
 * memcheck must report (the build that ships never has it). */
static volatile unsigned wc_ct_selftest_hits;
#endif

bool wc_equal_ct(const uint8_t *a, const uint8_t *b, size_t len) {
    const volatile uint8_t *va = a, *vb = b;
    unsigned diff = 0;
#ifdef WEBCRYPTO_CT_SELFTEST_LEAK
    if (len && a[0]) wc_ct_selftest_hits++;
#endif
    for (size_t i = 0; i < len; i++) diff |= (unsigned)(va[i] ^ vb[i]);
    return (1u & ((diff - 1u) >> 8)) != 0; /* diff <= 0xff: 1 only if diff == 0 */
}
