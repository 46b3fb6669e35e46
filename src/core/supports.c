/*
 * supports.c - webcrypto_supports, SubtleCrypto.supports of the "Modern
 * Algorithms in the Web Cryptography API" draft: whether an operation with
 * these parameters would get past normalisation on this backend, asked
 * without keys or data. It keeps no rules of its own: it calls the checks
 * each operation makes before it touches a key (core.h, "the operations'
 * key-free checks"), so it cannot drift from them; tests/test_supports.c
 * compares its answers with the operations' outcomes. Errors are not
 * reported: every failure is false, and the thread's error message is left
 * as it was.
 */
#include <stdio.h>
#include <string.h>

#include "core.h"

#define OPBIT(op) (1u << (unsigned)(op))

/* The table's row has op and the backend implements the algorithm. */
static webcrypto_status offered(const webcrypto_backend *b, webcrypto_operation op,
                                const webcrypto_params *p) {
    webcrypto_status st = wc_check_algorithm(b, p->name, webcrypto_operation_name(op));
    if (st == WEBCRYPTO_OK && !(wc_alg(p->name)->ops & OPBIT(op)))
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "no %s", webcrypto_operation_name(op));
    return st;
}

/* The checks op makes before it touches a key or data: the operations' own
 * functions (core.h, "the operations' key-free checks"), in their order. */
static webcrypto_status op_check(const webcrypto_backend *b, webcrypto_operation op,
                                 const webcrypto_params *p, size_t length_bits,
                                 const webcrypto_params *extra) {
    webcrypto_status st;
    size_t n = 0;
    switch (op) {
    case WEBCRYPTO_OP_ENCRYPT:
    case WEBCRYPTO_OP_DECRYPT:
        st = wc_normalize_op(b, p,
                             op == WEBCRYPTO_OP_ENCRYPT ? WEBCRYPTO_USAGE_ENCRYPT
                                                        : WEBCRYPTO_USAGE_DECRYPT,
                             "supports");
        return st == WEBCRYPTO_OK ? wc_cipher_params_check(p) : st;
    case WEBCRYPTO_OP_SIGN:
    case WEBCRYPTO_OP_VERIFY:
        st = wc_normalize_op(b, p,
                             op == WEBCRYPTO_OP_SIGN ? WEBCRYPTO_USAGE_SIGN
                                                     : WEBCRYPTO_USAGE_VERIFY,
                             "supports");
        return st == WEBCRYPTO_OK ? wc_sign_check(b, p) : st;
    case WEBCRYPTO_OP_DIGEST:
        st = offered(b, op, p);
        return st == WEBCRYPTO_OK ? wc_digest_check(b, p, &n) : st;
    case WEBCRYPTO_OP_GENERATE_KEY:
        /* usages 0: which usages the keys get is not asked */
        if ((st = offered(b, op, p)) != WEBCRYPTO_OK) return st;
        return wc_is_asymmetric(p->name) ? wc_pkey_generate_check(b, p, 0)
                                         : wc_generate_key_check(b, p, 0, &n);
    case WEBCRYPTO_OP_IMPORT_KEY:
        st = offered(b, op, p);
        return st == WEBCRYPTO_OK ? wc_import_key_check(b, p) : st;
    case WEBCRYPTO_OP_EXPORT_KEY:
    case WEBCRYPTO_OP_GET_PUBLIC_KEY: return offered(b, op, p);
    case WEBCRYPTO_OP_ENCAPSULATE:
        return wc_normalize_op(b, p, WEBCRYPTO_USAGE_ENCAPSULATE_BITS, "supports");
    case WEBCRYPTO_OP_DECAPSULATE:
        return wc_normalize_op(b, p, WEBCRYPTO_USAGE_DECAPSULATE_BITS, "supports");
    case WEBCRYPTO_OP_DERIVE_BITS:
        st = wc_normalize_op(b, p, WEBCRYPTO_USAGE_DERIVE_BITS, "supports");
        return st == WEBCRYPTO_OK ? wc_derive_bits_check(p, length_bits) : st;
    case WEBCRYPTO_OP_DERIVE_KEY:
        if (!extra) break;
        return wc_derive_key_check(b, p, extra);
    case WEBCRYPTO_OP_WRAP_KEY:
        /* the key to wrap is exported first */
        if (!extra) break;
        st = wc_wrap_check(b, p, true);
        return st == WEBCRYPTO_OK ? offered(b, WEBCRYPTO_OP_EXPORT_KEY, extra) : st;
    case WEBCRYPTO_OP_UNWRAP_KEY:
        /* the unwrapped bytes are then imported */
        if (!extra) break;
        if ((st = wc_wrap_check(b, p, false)) != WEBCRYPTO_OK) return st;
        st = offered(b, WEBCRYPTO_OP_IMPORT_KEY, extra);
        return st == WEBCRYPTO_OK ? wc_import_key_check(b, extra) : st;
    case WEBCRYPTO_OP_GET_KEY_LENGTH: break; /* not a SubtleCrypto method */
    }
    return WEBCRYPTO_ERR_NOT_SUPPORTED;
}

bool webcrypto_supports(const webcrypto_backend *backend, webcrypto_operation op,
                        const webcrypto_params *alg, size_t length_bits,
                        const webcrypto_params *additional_alg) {
    if (!alg || !webcrypto_operation_name(op) || op == WEBCRYPTO_OP_GET_KEY_LENGTH) return false;
    /* A copy-in, as every entry point makes; its failure is false too.
     * Errors set while asking are not the caller's: the message is kept. */
    char saved[512];
    snprintf(saved, sizeof saved, "%s", webcrypto_error_message());
    webcrypto_params local, local2;
    const webcrypto_params *p = alg, *extra = additional_alg;
    bool ok = wc_params_in(&p, &local, "supports") == WEBCRYPTO_OK &&
              wc_params_in(&extra, &local2, "supports") == WEBCRYPTO_OK &&
              wc_backend_resolve(backend, &backend) == WEBCRYPTO_OK;
    if (ok) ok = op_check(backend, op, p, length_bits, extra) == WEBCRYPTO_OK;
    wc_error(WEBCRYPTO_OK, "%s", saved);
    return ok;
}
