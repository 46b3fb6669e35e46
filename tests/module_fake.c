/*
 * Stand-ins for webcrypto-boringssl.so in the handshake tests
 * (test_module_abi.c, modules.cmake): each build states one kind of module
 * the core must refuse, or, FAKE_CASE_OK, one it must accept. Not linked
 * with module_shim.c: these answer the core whatever it is, as a broken or
 * foreign module would (test_module_shim.c tests the real module side).
 */
#include "backend.h"

/* ABI 2's sizeof(wc_backend_ops): its name and 38 function pointers (slots
 * per algorithm: aes_cbc, aes_ctr, aes_gcm_*, aes_gcm_siv_*, ed25519_*,
 * x25519, ...). */
#define WC_MODULE_ABI2_OPS_SIZE (39 * sizeof(void *))

static webcrypto_status fake_init(const char *variant, void **bctx, uint64_t *caps,
                                  const char **description) {
    (void)variant;
    *bctx = NULL;
    *caps = 0;
    *description = "fake module (tests/module_fake.c)";
    return WEBCRYPTO_OK;
}

/* (unused in FAKE_CASE_REFUSE) */
__attribute__((unused)) static const wc_backend_ops fake_ops = {.name = "boringssl",
                                                                 .init = fake_init};

#if defined(FAKE_CASE_OK)
static const wc_module_info fake_info = {WC_MODULE_ABI, sizeof(wc_backend_ops), &fake_ops};
#elif defined(FAKE_CASE_ABI) /* another ABI, and does not refuse us itself */
static const wc_module_info fake_info = {WC_MODULE_ABI + 1, sizeof(wc_backend_ops), &fake_ops};
#elif defined(FAKE_CASE_ABI2) /* a module built before the per-family operations: ABI 2 */
static const wc_module_info fake_info = {2, WC_MODULE_ABI2_OPS_SIZE, &fake_ops};
#elif defined(FAKE_CASE_OPS) /* our ABI number, a longer ops table (a member added, no bump) */
static const wc_module_info fake_info = {WC_MODULE_ABI, sizeof(wc_backend_ops) + 8, &fake_ops};
#elif defined(FAKE_CASE_REFUSE) /* our versions, but it refuses the host */
static const wc_module_info fake_info = {WC_MODULE_ABI, sizeof(wc_backend_ops), NULL};
#elif !defined(FAKE_CASE_V1)
#error "define one FAKE_CASE_*"
#endif

#if defined(FAKE_CASE_V1)
/* An ABI 1 module: the old entry point, which returned the ops. */
__attribute__((visibility("default"))) const wc_backend_ops *
webcrypto_backend_module_v1(const void *host);
const wc_backend_ops *webcrypto_backend_module_v1(const void *host) {
    (void)host;
    return &fake_ops;
}
#else
__attribute__((visibility("default"))) const wc_module_info *
webcrypto_backend_module(const wc_host_api *host);
const wc_module_info *webcrypto_backend_module(const wc_host_api *host) {
    (void)host;
    return &fake_info;
}
#endif
