#include "testutil.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_jca(const webcrypto_backend *b) {
    const char *n = webcrypto_backend_name(b);
    return n && strncmp(n, "jca", 3) == 0 && (n[3] == 0 || n[3] == ':');
}

int tu_java_major(const webcrypto_backend *b) {
    if (!is_jca(b)) return 0;
    const char *d = strstr(webcrypto_backend_description(b), "Java ");
    return d ? atoi(d + 5) : 0;
}

int tu_java_check(const webcrypto_backend *b) {
    if (!is_jca(b)) return 0;
    const char *desc = webcrypto_backend_description(b);
    const char *home = getenv("JAVA_HOME");
    const char *want = getenv("WEBCRYPTO_TEST_JAVA_VERSION");
    printf("JVM of %s: %s (JAVA_HOME=%s; expected Java %s)\n", webcrypto_backend_name(b), desc,
           home ? home : "(unset)", want && *want ? want : "(not set)");
    if (!want || !*want) return 0;
    char needle[96];
    snprintf(needle, sizeof needle, "Java %s (", want);
    if (strstr(desc, needle)) return 0;
    printf("WRONG JVM: this test is registered for Java %s (JAVA_HOME=%s), but %s runs on: %s "
           "(if that JDK was updated since configure, build again: configure re-reads its "
           "release file)\n",
           want, home ? home : "(unset)", webcrypto_backend_name(b), desc);
    return -1;
}

const webcrypto_backend *tu_backend(void) {
    static const webcrypto_backend *cached;
    static bool wrong_jvm;
    if (wrong_jvm) fail_msg("the backend runs on another JVM than expected (see above)");
    if (cached) return cached;
    const char *name = getenv("WEBCRYPTO_TEST_BACKEND");
    if (name && !*name) name = NULL;
    const webcrypto_backend *b = NULL;
    webcrypto_status st = webcrypto_backend_get(name, &b);
    if (st != WEBCRYPTO_OK) {
        /* The one skip a backend test may take for its environment: a jca
         * test where no JVM (or no BouncyCastle) is installed. Decided here,
         * from the backend's own message, and with exit code 77 - not by
         * CTest matching output. CI installs both: there it is a failure. */
        const char *msg = webcrypto_error_message();
        const char *ci = getenv("CI");
        bool in_ci = ci && strcmp(ci, "true") == 0;
        if (!in_ci && (strstr(msg, "libjvm.so not found") ||
                       strstr(msg, "provider BC is not available"))) {
            printf("SKIP: backend %s cannot start here: %s\n", name ? name : "(default)", msg);
            exit(77);
        }
        fail_msg("backend %s unavailable: %s: %s", name ? name : "(default)",
                 webcrypto_status_name(st), webcrypto_error_message());
    }
    if (tu_java_check(b) != 0) {
        wrong_jvm = true;
        fail_msg("the backend runs on another JVM than expected (see above)");
    }
    cached = b;
    return b;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

uint8_t *tu_unhex(const char *hex, size_t *len) {
    size_t n = strlen(hex);
    uint8_t *out = malloc(n / 2 + 1);
    assert_non_null(out);
    size_t o = 0;
    int hi = -1;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)hex[i])) continue;
        int v = hexval((unsigned char)hex[i]);
        if (v < 0) fail_msg("bad hex character '%c' in test data", hex[i]);
        if (hi < 0) {
            hi = v;
        } else {
            out[o++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    if (hi >= 0) fail_msg("odd number of hex digits in test data");
    *len = o;
    return out;
}

void tu_assert_hex(const uint8_t *buf, size_t len, const char *hex) {
    size_t elen;
    uint8_t *exp = tu_unhex(hex, &elen);
    if (elen != len || (len && memcmp(buf, exp, len) != 0)) {
        char got[2 * 256 + 4];
        size_t shown = len < 256 ? len : 256;
        for (size_t i = 0; i < shown; i++) snprintf(got + 2 * i, 3, "%02x", buf[i]);
        got[2 * shown] = 0;
        free(exp);
        fail_msg("bytes differ: got %zu bytes %s%s, expected %zu bytes %s", len, got,
                 len > shown ? "..." : "", elen, hex);
    }
    free(exp);
}

void tu_assert_status_at(webcrypto_status got, webcrypto_status expected, const char *what,
                         const char *file, int line) {
    if (got != expected) {
        fail_msg("%s:%d: %s returned %s (%s), expected %s", file, line, what,
                 webcrypto_status_name(got), webcrypto_error_message(),
                 webcrypto_status_name(expected));
    }
}

static int is_dir(const char *p) {
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tu_wycheproof_dir(void) {
    static char buf[4096];
    const char *env = getenv("WEBCRYPTO_WYCHEPROOF_DIR");
    if (env && *env) return is_dir(env) ? env : NULL;
    const char *src = getenv("WEBCRYPTO_SOURCE_DIR");
    if (src && *src) {
        snprintf(buf, sizeof buf, "%s/../shared/wycheproof", src);
        if (is_dir(buf)) return buf;
    }
    return is_dir("../shared/wycheproof") ? "../shared/wycheproof" : NULL;
}

/* Tests skipped by tu_require: cmocka counts a skip as a pass in its exit
 * status, so tu_run_tests turns "all skipped" into CTest's skip code. */
static size_t tu_skipped;

void tu_require_list(const webcrypto_algorithm *algs) {
    const webcrypto_backend *b = tu_backend();
    for (; *algs != WEBCRYPTO_ALG_NONE; algs++) {
        if (!webcrypto_backend_supports(b, *algs)) {
            printf("skipped: backend %s lacks %s\n", webcrypto_backend_name(b),
                   webcrypto_algorithm_name(*algs));
            tu_skipped++;
            skip();
        }
    }
}

int tu_run_tests(const char *name, const struct CMUnitTest *tests, size_t n,
                 CMFixtureFunction setup, CMFixtureFunction teardown) {
    int failed = _cmocka_run_group_tests(name, tests, n, setup, teardown);
    if (failed == 0 && n > 0 && tu_skipped == n) {
        printf("all %zu tests of %s skipped on backend %s (exit 77: a CTest skip)\n", n, name,
               webcrypto_backend_name(tu_backend()));
        return 77;
    }
    return failed;
}

webcrypto_key_format tu_secret_raw(webcrypto_algorithm alg) {
    return webcrypto_algorithm_has_format(alg, WEBCRYPTO_FORMAT_RAW) ? WEBCRYPTO_FORMAT_RAW
                                                                     : WEBCRYPTO_FORMAT_RAW_SECRET;
}
