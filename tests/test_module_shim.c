/*
 * The module's side of the handshake: src/core/module_shim.c, linked here
 * as into a backend module (with this file's ops table as the module's),
 * refuses a host of another ABI, another ops-table size or without services
 * (answering no ops, and its own versions, which the core then reports), and
 * accepts ours, after which wc_error reaches the host's set_error. Called
 * directly, as a core of another version would call it.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"

extern const wc_backend_ops shim_test_ops; /* the module's table (WC_MODULE_OPS) */
const wc_backend_ops shim_test_ops = {.name = "shimtest"};

const wc_module_info *webcrypto_backend_module(const wc_host_api *host);

static char got_a[600], got_b[600];
static void set_error_a(const char *m) { snprintf(got_a, sizeof got_a, "%s", m); }
static void set_error_b(const char *m) { snprintf(got_b, sizeof got_b, "%s", m); }

static int failures;
static void check(bool ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    failures += !ok;
}

/* The module states its own versions whether it accepts or refuses. */
static bool own_versions(const wc_module_info *m) {
    return m && m->abi == WC_MODULE_ABI && m->ops_size == sizeof(wc_backend_ops);
}

int main(void) {
    const size_t ours = sizeof(wc_backend_ops);
    const struct {
        const char *what;
        wc_host_api host;
    } refused[] = {
        {"a host of the next ABI is refused", {WC_MODULE_ABI + 1, ours, set_error_b}},
        {"a host of the previous ABI is refused", {WC_MODULE_ABI - 1, ours, set_error_b}},
        {"a host with a longer ops table is refused", {WC_MODULE_ABI, ours + 8, set_error_b}},
        {"a host with a shorter ops table is refused", {WC_MODULE_ABI, ours - 8, set_error_b}},
        {"a host without set_error is refused", {WC_MODULE_ABI, ours, NULL}},
    };
    const wc_module_info *m = webcrypto_backend_module(NULL);
    check(own_versions(m) && !m->ops, "no host is refused, with the module's versions");
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        m = webcrypto_backend_module(&refused[i].host);
        check(own_versions(m) && !m->ops, refused[i].what);
    }

    const wc_host_api good = {WC_MODULE_ABI, ours, set_error_a};
    m = webcrypto_backend_module(&good);
    check(own_versions(m) && m->ops == &shim_test_ops, "our host gets the module's ops");
    check(wc_error(WEBCRYPTO_ERR_DATA, "bad %s %d", "key", 7) == WEBCRYPTO_ERR_DATA &&
              strcmp(got_a, "bad key 7") == 0,
          "wc_error reaches the host's set_error and returns the status");

    /* A later refused host takes nothing over: errors still go to ours. */
    m = webcrypto_backend_module(&refused[0].host);
    check(own_versions(m) && !m->ops, "a refused host after ours is refused");
    got_a[0] = 0;
    wc_error(WEBCRYPTO_ERR_OPERATION, "again");
    check(strcmp(got_a, "again") == 0 && got_b[0] == 0, "errors still reach our host only");

    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
