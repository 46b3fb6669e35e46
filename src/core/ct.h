/*
 * ct.h - the constant-time validation's two marks (docs/ROBUSTNESS.md,
 * "Constant time, checked"). Not installed; no dependencies, so that the
 * CLI's pem.c can use it too.
 *
 * tests/ct.cmake builds a copy of the library with WEBCRYPTO_CT_VALIDATION,
 * and its programs run under valgrind's memcheck with their secrets marked
 * undefined: memcheck then reports every branch and every memory index that
 * depends on a secret. A value that becomes public by design (a verified
 * tag's yes or no, a padding length the output reveals, whether a DER
 * field is well-formed) is declassified with WC_CT_PUBLIC where it does, so
 * that only the leaks are reported. In every other build both marks compile
 * to nothing.
 */
#ifndef WEBCRYPTO_CORE_CT_H
#define WEBCRYPTO_CORE_CT_H

#include <stdbool.h>
#include <stddef.h>

#ifdef WEBCRYPTO_CT_VALIDATION
#include <valgrind/memcheck.h>
#define WC_CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define WC_CT_PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define WC_CT_SECRET(p, n) ((void)(p), (void)(n))
#define WC_CT_PUBLIC(p, n) ((void)(p), (void)(n))
#endif

/* The value v, declared public (see above). */
static inline bool wc_ct_public_bool(bool v) {
    WC_CT_PUBLIC(&v, sizeof v);
    return v;
}
static inline size_t wc_ct_public_size(size_t v) {
    WC_CT_PUBLIC(&v, sizeof v);
    return v;
}
static inline unsigned wc_ct_public_uint(unsigned v) {
    WC_CT_PUBLIC(&v, sizeof v);
    return v;
}

#endif /* WEBCRYPTO_CORE_CT_H */
