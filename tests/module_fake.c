/*
 * Stand-ins for webcrypto-boringssl.so in the handshake tests
 * (test_module_abi.c, modules.cmake): each build states one kind of module
 * the core must refuse, or, FAKE_CASE_OK, one it must accept; FAKE_CASE_ZERO
 * is accepted and gives an all-zero X25519 secret, which the core refuses. Not linked
 * with module_shim.c: these answer the core whatever it is, as a broken or
 * foreign module would (test_module_shim.c tests the real module side).
 */
#include "backend.h"

/* ABI 2's sizeof(wc_backend_ops): its name and 38 function pointers (slots
 * per algorithm: aes_cbc, aes_ctr, aes_gcm_*, aes_gcm_siv_*, ed25519_*,
 * x25519, ...). */
#define WC_MODULE_ABI2_OPS_SIZE (39 * sizeof(void *))

__attribute__((unused)) static webcrypto_status fake_init(const char *variant, void **bctx, wc_caps *caps,
                                  const char **description) {
    (void)variant;
    *bctx = NULL;
    (void)caps; /* zeroed by the core: nothing offered */
    *description = "fake module (tests/module_fake.c)";
    return WEBCRYPTO_OK;
}

#if defined(FAKE_CASE_ZERO)
/* A backend whose X25519 gives an all-zero secret for every pair, as a
 * library without RFC 7748's check would for a small-order public key: the
 * core must refuse it (backend.h, okp_derive). Keys are 32 bytes of 0x09. */
static const uint8_t fake_key[32] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                                     9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
static int fake_state; /* every key's state: nothing to keep */

static webcrypto_status zero_init(const char *variant, void **bctx, wc_caps *caps,
                                  const char **description) {
    (void)variant;
    *bctx = NULL;
    wc_caps_add(caps, WEBCRYPTO_ALG_X25519);
    *description = "fake module (tests/module_fake.c)";
    return WEBCRYPTO_OK;
}
static webcrypto_status zero_import(const void *bctx, wc_family family, unsigned member,
                                    const wc_pkey_fields *f, void **state) {
    (void)bctx;
    (void)f;
    if (family != WC_FAMILY_OKP || member != WC_OKP_X25519) return WEBCRYPTO_ERR_NOT_SUPPORTED;
    *state = &fake_state;
    return WEBCRYPTO_OK;
}
static webcrypto_status zero_generate(const void *bctx, wc_family family, unsigned member,
                                      size_t modulus_bits, wc_bytes e,
                                      webcrypto_named_curve curve, void **state) {
    (void)modulus_bits;
    (void)e;
    (void)curve;
    return zero_import(bctx, family, member, NULL, state);
}
static webcrypto_status zero_fields(const void *state, wc_pkey_fields *out) {
    (void)state;
    *out = (wc_pkey_fields){.is_private = true, .x = {fake_key, 32}, .d = {fake_key, 32}};
    return WEBCRYPTO_OK;
}
static void zero_free(void *state) { (void)state; }
static webcrypto_status zero_derive(const void *private_state, const void *public_state,
                                    wc_okp kind, uint8_t *out, size_t out_cap, size_t *out_len) {
    (void)private_state;
    (void)public_state;
    size_t n = wc_okp_key_len(kind);
    if (out_cap < n) return WEBCRYPTO_ERR_OPERATION;
    for (size_t i = 0; i < n; i++) out[i] = 0;
    *out_len = n;
    return WEBCRYPTO_OK;
}
static const wc_backend_ops fake_ops = {.name = "boringssl",
                                        .init = zero_init,
                                        .pkey_import = zero_import,
                                        .pkey_generate = zero_generate,
                                        .pkey_fields = zero_fields,
                                        .pkey_free = zero_free,
                                        .okp_derive = zero_derive};
#else
/* (unused in FAKE_CASE_REFUSE) */
__attribute__((unused)) static const wc_backend_ops fake_ops = {.name = "boringssl",
                                                                 .init = fake_init};
#endif

#if defined(FAKE_CASE_OK) || defined(FAKE_CASE_ZERO)
static const wc_module_info fake_info = {WC_MODULE_ABI, sizeof(wc_backend_ops), &fake_ops};
#elif defined(FAKE_CASE_ABI) /* another ABI, and does not refuse us itself */
static const wc_module_info fake_info = {WC_MODULE_ABI + 1, sizeof(wc_backend_ops), &fake_ops};
#elif defined(FAKE_CASE_ABI5) /* the previous ABI: the same ops size, init's caps a uint64_t */
static const wc_module_info fake_info = {5, sizeof(wc_backend_ops), &fake_ops};
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
