/* A child forked while another thread is inside webcrypto_jca_set_java_vm
 * can still hand a JavaVM over (and so start jca: webcrypto.h, fork): the
 * core's record of the host's JavaVM (src/core/jvm.c) must not be a lock a
 * child can inherit held. A thread hands a (fake) JavaVM over in a loop;
 * the main thread forks FORKS times, and each child, under an alarm, hands
 * one over too. Nothing starts jca, so no JVM is needed. A child killed by
 * its alarm hung: a failure, and the forks stop there (one shows it). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <webcrypto.h>

/* A fork under AddressSanitizer copies its shadow memory (~0.2 s). The old
 * mutex hung a child within the first few forks. */
#if defined(__SANITIZE_ADDRESS__)
#define FORKS 50
#else
#define FORKS 300
#endif
#define CHILD_ALARM 3 /* seconds */

/* Never used as a JVM: jca is not started here. Aligned as a JavaVM is. */
static void *fake_vm[2];
static atomic_bool stop;
static atomic_long handed;

static void *setter(void *arg) {
    (void)arg;
    while (!atomic_load(&stop)) {
        if (webcrypto_jca_set_java_vm(&fake_vm[0]) != WEBCRYPTO_OK) {
            fprintf(stderr, "setter: %s\n", webcrypto_error_message());
            return (void *)1;
        }
        atomic_fetch_add(&handed, 1);
    }
    return NULL;
}

int main(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, setter, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    while (atomic_load(&handed) < 1000) sched_yield();
    int hung = 0, failed = 0;
    for (int i = 0; i < FORKS; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            alarm(CHILD_ALARM);
            _exit(webcrypto_jca_set_java_vm(&fake_vm[1]) == WEBCRYPTO_OK ? 0 : 2);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            hung++;
            fprintf(stderr, "fork %d: the child hung handing a JavaVM over\n", i);
            break;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            failed++;
            fprintf(stderr, "fork %d: child status 0x%x\n", i, (unsigned)status);
        }
    }
    atomic_store(&stop, true);
    void *r = NULL;
    pthread_join(t, &r);
    printf("forks while a thread hands a JavaVM over (%ld times): %d children hung, %d failed\n",
           atomic_load(&handed), hung, failed);
    return hung || failed || r ? 1 : 0;
}
