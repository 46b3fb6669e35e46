/*
 * limits.c - the limits an embedder sets on what one request may cost
 * (webcrypto_set_limits, webcrypto.h). Process-wide state of the library:
 * one atomic per limit, read by the checks in derive.c (PBKDF2, Argon2),
 * pkey.c (RSA modulus) and jwk.c (JWK text, key_ops). The struct is copied
 * in and out by its size, as webcrypto_params is (docs/ABI.md).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "core.h"

/* No padding at the struct's end: a later release appends members there
 * (docs/ABI.md), and an older program's indeterminate tail bytes must
 * never be read as one of them. */
_Static_assert(sizeof(webcrypto_limits) == offsetof(webcrypto_limits, reserved) +
                                               sizeof(((webcrypto_limits *)0)->reserved),
               "webcrypto_limits must end without padding (docs/ABI.md)");
/* Nor inside: the members after `size` are uint32_t, one after another. */
_Static_assert(offsetof(webcrypto_limits, reserved) ==
                   offsetof(webcrypto_limits, max_pbkdf2_iterations) + 7 * sizeof(uint32_t),
               "webcrypto_limits has no padding between its members (docs/ABI.md)");

/* Past this, `size` is garbage (a struct never initialised), not a layout. */
#define WC_LIMITS_MAX_SIZE 4096u
/* The shortest struct accepted: one that has the first limit. */
#define WC_LIMITS_MIN_SIZE                                                                  \
    (offsetof(webcrypto_limits, max_pbkdf2_iterations) + sizeof(uint32_t))

/* The defaults (webcrypto.h says why). */
#define WC_DEFAULT_PBKDF2_ITERATIONS (UINT32_C(1) << 24)
#define WC_DEFAULT_ARGON2_MEMORY UINT32_C(262144) /* KiB: 256 MiB */
#define WC_DEFAULT_ARGON2_PASSES UINT32_C(16)
#define WC_DEFAULT_RSA_GENERATE_BITS UINT32_C(4096)
#define WC_DEFAULT_RSA_IMPORT_BITS UINT32_C(16384)
#define WC_DEFAULT_JWK_BYTES (UINT32_C(1) << 20)
#define WC_DEFAULT_JWK_KEY_OPS UINT32_C(64)

/* The largest RSA modulus generateKey makes (pkey.c's range), and the
 * largest the parsers read (backend.h's member bound). */
#define WC_RSA_GENERATE_BITS_MAX UINT32_C(16384)
#define WC_RSA_IMPORT_BITS_MAX ((uint32_t)WC_RSA_MAX_MEMBER * 8u)

static _Atomic uint32_t lim_pbkdf2_iterations = WC_DEFAULT_PBKDF2_ITERATIONS;
static _Atomic uint32_t lim_argon2_memory = WC_DEFAULT_ARGON2_MEMORY;
static _Atomic uint32_t lim_argon2_passes = WC_DEFAULT_ARGON2_PASSES;
static _Atomic uint32_t lim_rsa_generate_bits = WC_DEFAULT_RSA_GENERATE_BITS;
static _Atomic uint32_t lim_rsa_import_bits = WC_DEFAULT_RSA_IMPORT_BITS;
static _Atomic uint32_t lim_jwk_bytes = WC_DEFAULT_JWK_BYTES;
static _Atomic uint32_t lim_jwk_key_ops = WC_DEFAULT_JWK_KEY_OPS;

/* Serialises sets, so that two concurrent sets do not interleave member by
 * member; the checks read the atomics without it. */
static pthread_mutex_t lim_set_lock = PTHREAD_MUTEX_INITIALIZER;

/* The checks read each limit once; relaxed order: a limit is a value of its
 * own, ordered with nothing else. */
#define LOAD(v) atomic_load_explicit(&(v), memory_order_relaxed)
#define STORE(v, x) atomic_store_explicit(&(v), (x), memory_order_relaxed)

uint32_t wc_limit_pbkdf2_iterations(void) { return LOAD(lim_pbkdf2_iterations); }
uint32_t wc_limit_argon2_memory(void) { return LOAD(lim_argon2_memory); }
uint32_t wc_limit_argon2_passes(void) { return LOAD(lim_argon2_passes); }
uint32_t wc_limit_rsa_generate_bits(void) { return LOAD(lim_rsa_generate_bits); }
uint32_t wc_limit_rsa_import_bits(void) { return LOAD(lim_rsa_import_bits); }
uint32_t wc_limit_jwk_bytes(void) { return LOAD(lim_jwk_bytes); }
uint32_t wc_limit_jwk_key_ops(void) { return LOAD(lim_jwk_key_ops); }

static webcrypto_status check_size(size_t size, const char *operation) {
    if (size == 0)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "%s: webcrypto_limits.size is 0: initialise it with WEBCRYPTO_LIMITS_INIT "
                        "or WEBCRYPTO_LIMITS(...)",
                        operation);
    if (size < WC_LIMITS_MIN_SIZE || size > WC_LIMITS_MAX_SIZE)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "%s: webcrypto_limits.size is %zu, not the size of a webcrypto_limits "
                        "(%zu in this library): initialise it with WEBCRYPTO_LIMITS_INIT",
                        operation, size, sizeof(webcrypto_limits));
    return WEBCRYPTO_OK;
}

/* Whether the caller's struct, of `size` bytes, has `member`. */
#define HAS(size, member)                                                                   \
    ((size) >= offsetof(webcrypto_limits, member) + sizeof(((webcrypto_limits *)0)->member))

webcrypto_status webcrypto_set_limits(const webcrypto_limits *limits) {
    WC_REQUIRE(limits, "set_limits: limits must not be NULL");
    size_t size = limits->size;
    webcrypto_status st = check_size(size, "set_limits");
    if (st != WEBCRYPTO_OK) return st;
    /* The caller's members, the others zero (which the loop below reads as
     * "not given" for the members past the caller's size). */
    webcrypto_limits in;
    memset(&in, 0, sizeof in);
    if (size <= sizeof in) {
        memcpy(&in, limits, size);
    } else {
        const unsigned char *extra = (const unsigned char *)limits + sizeof in;
        unsigned char any = 0;
        for (size_t i = 0; i < size - sizeof in; i++) any |= extra[i];
        if (any)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "set_limits: this library (version %s) does not know a limit the "
                            "program set (its webcrypto_limits has %zu bytes, this library's %zu)",
                            WEBCRYPTO_VERSION, size, sizeof in);
        memcpy(&in, limits, sizeof in);
    }
    /* A size that ends inside a member (no layout, but harmless): that
     * member is not given. */
    if (!HAS(size, max_argon2_memory)) in.max_argon2_memory = 0;
    if (!HAS(size, max_argon2_passes)) in.max_argon2_passes = 0;
    if (!HAS(size, max_rsa_generate_bits)) in.max_rsa_generate_bits = 0;
    if (!HAS(size, max_rsa_import_bits)) in.max_rsa_import_bits = 0;
    if (!HAS(size, max_jwk_bytes)) in.max_jwk_bytes = 0;
    if (!HAS(size, max_jwk_key_ops)) in.max_jwk_key_ops = 0;
    if (!HAS(size, reserved)) in.reserved = 0;
    if (in.reserved != 0)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "set_limits: webcrypto_limits.reserved must be 0, not %u",
                        (unsigned)in.reserved);
    if (in.max_argon2_memory != 0 && in.max_argon2_memory < 8)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "set_limits: max_argon2_memory must be 0 (the default) or at least 8 KiB "
                        "(Argon2's smallest), not %u",
                        (unsigned)in.max_argon2_memory);
    if (in.max_rsa_generate_bits != 0 &&
        (in.max_rsa_generate_bits < 256 || in.max_rsa_generate_bits > WC_RSA_GENERATE_BITS_MAX))
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "set_limits: max_rsa_generate_bits must be 0 (the default) or 256 to %u "
                        "(generateKey's range), not %u",
                        (unsigned)WC_RSA_GENERATE_BITS_MAX, (unsigned)in.max_rsa_generate_bits);
    if (in.max_rsa_import_bits != 0 &&
        (in.max_rsa_import_bits < 256 || in.max_rsa_import_bits > WC_RSA_IMPORT_BITS_MAX))
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "set_limits: max_rsa_import_bits must be 0 (the default) or 256 to %u "
                        "(the largest key the library reads), not %u",
                        (unsigned)WC_RSA_IMPORT_BITS_MAX, (unsigned)in.max_rsa_import_bits);
    pthread_mutex_lock(&lim_set_lock);
    STORE(lim_pbkdf2_iterations,
          in.max_pbkdf2_iterations ? in.max_pbkdf2_iterations : WC_DEFAULT_PBKDF2_ITERATIONS);
    if (HAS(size, max_argon2_memory))
        STORE(lim_argon2_memory,
              in.max_argon2_memory ? in.max_argon2_memory : WC_DEFAULT_ARGON2_MEMORY);
    if (HAS(size, max_argon2_passes))
        STORE(lim_argon2_passes,
              in.max_argon2_passes ? in.max_argon2_passes : WC_DEFAULT_ARGON2_PASSES);
    if (HAS(size, max_rsa_generate_bits))
        STORE(lim_rsa_generate_bits,
              in.max_rsa_generate_bits ? in.max_rsa_generate_bits : WC_DEFAULT_RSA_GENERATE_BITS);
    if (HAS(size, max_rsa_import_bits))
        STORE(lim_rsa_import_bits,
              in.max_rsa_import_bits ? in.max_rsa_import_bits : WC_DEFAULT_RSA_IMPORT_BITS);
    if (HAS(size, max_jwk_bytes))
        STORE(lim_jwk_bytes, in.max_jwk_bytes ? in.max_jwk_bytes : WC_DEFAULT_JWK_BYTES);
    if (HAS(size, max_jwk_key_ops))
        STORE(lim_jwk_key_ops, in.max_jwk_key_ops ? in.max_jwk_key_ops : WC_DEFAULT_JWK_KEY_OPS);
    pthread_mutex_unlock(&lim_set_lock);
    return WEBCRYPTO_OK;
}

webcrypto_status webcrypto_get_limits(webcrypto_limits *limits) {
    WC_REQUIRE(limits, "get_limits: limits must not be NULL");
    size_t size = limits->size;
    webcrypto_status st = check_size(size, "get_limits");
    if (st != WEBCRYPTO_OK) return st;
    webcrypto_limits out;
    memset(&out, 0, sizeof out);
    out.size = size;
    out.max_pbkdf2_iterations = LOAD(lim_pbkdf2_iterations);
    out.max_argon2_memory = LOAD(lim_argon2_memory);
    out.max_argon2_passes = LOAD(lim_argon2_passes);
    out.max_rsa_generate_bits = LOAD(lim_rsa_generate_bits);
    out.max_rsa_import_bits = LOAD(lim_rsa_import_bits);
    out.max_jwk_bytes = LOAD(lim_jwk_bytes);
    out.max_jwk_key_ops = LOAD(lim_jwk_key_ops);
    /* Never past the caller's size; a larger struct's unknown members 0. */
    if (size <= sizeof out) {
        memcpy(limits, &out, size);
    } else {
        memcpy(limits, &out, sizeof out);
        memset((unsigned char *)limits + sizeof out, 0, size - sizeof out);
    }
    return WEBCRYPTO_OK;
}
