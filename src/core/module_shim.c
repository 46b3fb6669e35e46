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

static const wc_module_info wc_module_accepted = {
    .abi = WC_MODULE_ABI, .ops_size = sizeof(wc_backend_ops), .ops = &WC_MODULE_OPS};
static const wc_module_info wc_module_refused = {
    .abi = WC_MODULE_ABI, .ops_size = sizeof(wc_backend_ops), .ops = NULL};

__attribute__((visibility("default"))) const wc_module_info *
webcrypto_backend_module(const wc_host_api *host);

/* The module's side of the handshake (backend.h): a host of another ABI or
 * another ops-table size would call the ops with other arguments, or read
 * past the table's end, so it gets no ops; nor is anything of it used (its
 * set_error may not even be there). */
const wc_module_info *webcrypto_backend_module(const wc_host_api *host) {
    if (!host || host->abi != WC_MODULE_ABI || host->ops_size != sizeof(wc_backend_ops) ||
        !host->set_error)
        return &wc_module_refused;
    wc_host = host;
    return &wc_module_accepted;
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
