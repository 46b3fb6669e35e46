/*
 * Registry variant slots (registry.c): a variant that cannot start (an
 * unknown JCA provider) keeps no slot, so that after 100 distinct bad names,
 * requested by several threads at once, jca:SunJCE still starts; threads
 * requesting one new name at once all get the same, started handle; a bad
 * name fails again, with the same message, on its next request.
 * Needs the jca backend and a JVM: exits 77 (a visible skip) without them.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "webcrypto.h"

#define THREADS 4
#define BAD_PER_THREAD 25 /* 100 distinct bad names in all */

static int failures;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;

/* Prints a failure always, a success only if `loud` (the threads' hundreds
 * of passing checks are counted instead). */
static void check(bool loud, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(bool loud, bool ok, const char *fmt, ...) {
    pthread_mutex_lock(&out_lock);
    if (loud || !ok) {
        va_list ap;
        va_start(ap, fmt);
        printf("%s ", ok ? "ok  " : "FAIL");
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
    failures += !ok;
    pthread_mutex_unlock(&out_lock);
}

/* A bad name must fail as unavailable, naming itself, and not for want of
 * slots. */
static void expect_bad(const char *name) {
    const webcrypto_backend *b = NULL;
    webcrypto_status st = webcrypto_backend_get(name, &b);
    const char *msg = webcrypto_error_message();
    check(false, st == WEBCRYPTO_ERR_NOT_SUPPORTED && b == NULL && strstr(msg, name) &&
              !strstr(msg, "too many"),
          "%s is refused: %s", name, st == WEBCRYPTO_OK ? "(it started!)" : msg);
}

static const webcrypto_backend *sunjce[THREADS];

static void *worker(void *arg) {
    int t = (int)(intptr_t)arg;
    char name[64];
    pthread_barrier_wait(&barrier);
    for (int k = 0; k < BAD_PER_THREAD; k++) {
        snprintf(name, sizeof name, "jca:Typo%d-%d", t, k);
        expect_bad(name);
        expect_bad("jca:Typo"); /* one bad name, requested by every thread at once */
    }
    /* One new good name, requested by all threads at once. */
    pthread_barrier_wait(&barrier);
    webcrypto_status st = webcrypto_backend_get("jca:SunJCE", &sunjce[t]);
    check(false, st == WEBCRYPTO_OK, "thread %d: jca:SunJCE starts after the bad names: %s", t,
          st ? webcrypto_error_message() : "OK");
    return NULL;
}

int main(void) {
    bool registered = false;
    for (size_t i = 0; i < webcrypto_backend_count(); i++)
        registered |= strcmp(webcrypto_backend_name_at(i), "jca") == 0;
    if (!registered) {
        printf("SKIP: the jca backend is not built\n");
        return 77;
    }
    const webcrypto_backend *base = NULL;
    if (webcrypto_backend_get("jca", &base) != WEBCRYPTO_OK) {
        printf("SKIP: %s\n", webcrypto_error_message()); /* "jca: no Java VM could be started" */
        return 77;
    }

    pthread_barrier_init(&barrier, NULL, THREADS);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) != 0) {
            printf("FAIL pthread_create\n");
            return 1;
        }
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&barrier);
    check(true, failures == 0,
          "%d threads: %d distinct bad names and one shared one refused, each naming itself; "
          "then jca:SunJCE started in each",
          THREADS, THREADS * BAD_PER_THREAD);

    bool same = true;
    for (int t = 1; t < THREADS; t++) same &= sunjce[t] == sunjce[0];
    check(true, sunjce[0] && same, "every thread got the same jca:SunJCE handle");
    const webcrypto_backend *again = NULL;
    check(true, webcrypto_backend_get("jca:SunJCE", &again) == WEBCRYPTO_OK && again == sunjce[0],
          "a later request gets that handle again");
    const char *name = sunjce[0] ? webcrypto_backend_name(sunjce[0]) : NULL;
    check(true, name && strcmp(name, "jca:SunJCE") == 0, "its name is %s", name ? name : "(none)");

    /* It works: SHA-256("abc") (FIPS 180-4). */
    static const uint8_t abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                    0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                    0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    uint8_t out[32] = {0};
    size_t n = 0;
    webcrypto_status st = sunjce[0] ? webcrypto_digest(sunjce[0], WEBCRYPTO_ALG_SHA_256,
                                                       (const uint8_t *)"abc", 3, out, sizeof out, &n)
                                    : WEBCRYPTO_ERR_NOT_SUPPORTED;
    check(true, st == WEBCRYPTO_OK && n == 32 && memcmp(out, abc, 32) == 0,
          "jca:SunJCE digests SHA-256(\"abc\") right");

    /* A bad name is tried afresh, and fails the same way. */
    char first[512];
    const webcrypto_backend *b = NULL;
    webcrypto_status first_st = webcrypto_backend_get("jca:Typo0-0", &b);
    snprintf(first, sizeof first, "%s", webcrypto_error_message());
    check(true, first_st == WEBCRYPTO_ERR_NOT_SUPPORTED &&
              webcrypto_backend_get("jca:Typo0-0", &b) == WEBCRYPTO_ERR_NOT_SUPPORTED &&
              strcmp(first, webcrypto_error_message()) == 0,
          "jca:Typo0-0 fails again with the same message: %s", first);

    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
