/*
 * Linked into each backend module (never into libwebcrypto): the module's
 * entry point, and wc_error forwarding to the core through the host API, so
 * that backend code is the same whether built in or built as a module.
 * WC_MODULE_OPS names the module's wc_backend_ops (set by CMake).
 */
#include <stdarg.h>
#include <stdio.h>

#include "backend.h"

extern const wc_backend_ops WC_MODULE_OPS;

static const wc_host_api *wc_host;

__attribute__((visibility("default"))) const wc_backend_ops *
webcrypto_backend_module_v1(const wc_host_api *host);

const wc_backend_ops *webcrypto_backend_module_v1(const wc_host_api *host) {
    if (!host || host->abi != WC_MODULE_ABI) return NULL;
    wc_host = host;
    return &WC_MODULE_OPS;
}

webcrypto_status wc_error(webcrypto_status status, const char *fmt, ...) {
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    wc_host->set_error(message);
    return status;
}
