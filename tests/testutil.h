/* Helpers shared by the tests (cmocka-based). */
#ifndef WEBCRYPTO_TESTUTIL_H
#define WEBCRYPTO_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "webcrypto.h"

/* The backend under test: $WEBCRYPTO_TEST_BACKEND, else the default. Fails the
 * test (not skips) if it cannot be had, or if it is jca on another Java
 * version than the test was registered for (tu_java_check). */
const webcrypto_backend *tu_backend(void);

/* The raw format of a secret key of alg: "raw" where the algorithm has it,
 * else "raw-secret" (the Modern Algorithms draft's new symmetric algorithms,
 * ChaCha20-Poly1305, AES-OCB, KMAC, Argon2, have no "raw"). */
webcrypto_key_format tu_secret_raw(webcrypto_algorithm alg);

/* For a jca backend (name "jca" or "jca:..."): prints which JVM it runs on
 * (its description, $JAVA_HOME), and if $WEBCRYPTO_TEST_JAVA_VERSION is set
 * (tests/jca.cmake sets it to the version of the JDK the test is registered
 * for) checks that the description says "Java <that version> (". Returns 0
 * when it matches (or nothing is expected, or b is not jca); otherwise
 * prints why and returns -1. tu_backend() fails the test on -1; a program
 * without cmocka calls this itself. */
int tu_java_check(const webcrypto_backend *b);

/* The Java feature version (17, 25, ...) a jca backend runs on, read from
 * its description; 0 for any other backend. */
int tu_java_major(const webcrypto_backend *b);

/* Skips the running cmocka test, visibly and with the reason, unless the
 * backend under test supports every algorithm in the list (ended by
 * WEBCRYPTO_ALG_NONE). */
#define tu_require(...) tu_require_list((const webcrypto_algorithm[]){__VA_ARGS__, WEBCRYPTO_ALG_NONE})
void tu_require_list(const webcrypto_algorithm *algs);

/* Runs a cmocka group like cmocka_run_group_tests_name, but returns 77 (a
 * CTest skip) when every test of the group was skipped by tu_require, so a
 * backend that has none of the algorithms is reported as skipped, not passed.
 * tu_run_group(name, tests) is the form for a static array. */
int tu_run_tests(const char *name, const struct CMUnitTest *tests, size_t n,
                 CMFixtureFunction setup, CMFixtureFunction teardown);
#define tu_run_group(name, tests, setup, teardown) \
    tu_run_tests((name), (tests), sizeof(tests) / sizeof(tests)[0], (setup), (teardown))

/* Decodes a hex string (whitespace ignored) into a malloc'd buffer; *len gets
 * its size. Aborts the test on malformed hex. Free with free(). */
uint8_t *tu_unhex(const char *hex, size_t *len);

/* Asserts that buf[0..len) equals the bytes of the hex string. */
void tu_assert_hex(const uint8_t *buf, size_t len, const char *hex);

/* Asserts status == expected, printing the status names and the error message
 * on mismatch. */
#define tu_assert_status(call, expected) tu_assert_status_at((call), (expected), #call, __FILE__, __LINE__)
void tu_assert_status_at(webcrypto_status got, webcrypto_status expected, const char *what,
                         const char *file, int line);

/* The Wycheproof vector directory: $WEBCRYPTO_WYCHEPROOF_DIR if set and
 * non-empty, else $WEBCRYPTO_SOURCE_DIR/../shared/wycheproof, else
 * ../shared/wycheproof; NULL if none of them is a directory. */
const char *tu_wycheproof_dir(void);

#endif
