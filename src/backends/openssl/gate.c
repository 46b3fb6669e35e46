/*
 * gate.c - the openssl backend's ops as the core sees them: each between
 * wc_tc_enter and wc_tc_leave (thread_cache.h), the fork and exit gate. A
 * fork then never copies a lock of OpenSSL's held by another thread into
 * the child, and no call runs into OpenSSL's atexit cleanup
 * (docs/ROBUSTNESS.md, "fork and exit"). The wrappers are the shared
 * backends/common/gated_ops.inc.
 */
#include "openssl_internal.h"
#include "thread_cache.h"

#define GATED_U wc_backend_openssl_ungated
#define GATED_TABLE wc_backend_openssl
#define GATED_NAME "openssl"
#define GATE_ENTER wc_tc_enter
#define GATE_LEAVE wc_tc_leave
#define GATED_HAS_XOF_KMAC 1
#define GATED_HAS_PQ 1
#define GATED_HAS_ARGON2 1 /* OpenSSL 3.2+ or libargon2 (openssl_argon2.c) */
#include "backends/common/gated_ops.inc"
