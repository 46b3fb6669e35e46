/*
 * boringssl_gate.c - the boringssl backend's fork gate. BoringSSL keeps
 * locks of its own that a thread may hold while it is inside it (its
 * fork-detection lock, taken by every RAND_bytes: a child forked while
 * another thread held it hung in its first key generation, about 1 fork in
 * 1,800 under busy threads). So each op runs between gate_enter and
 * gate_leave, and fork's prepare handler waits until no other thread is
 * inside BoringSSL and holds new calls until the fork returns, as the
 * openssl backend's gate does (openssl/thread_cache.c; BoringSSL has no
 * atexit cleanup, so there is no exit gate here). The table the core sees,
 * wc_backend_boringssl, is the shared backends/common/gated_ops.inc over
 * boringssl_backend.c's wc_backend_boringssl_ungated.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include "boringssl_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

/* Each thread says it is inside with its own counter (no shared atomic on
 * the call path); the fork closes the gate with one store and waits for
 * every other thread's counter to be zero. Sequentially consistent on both
 * sides: either the caller sees the gate closed or the fork sees the caller
 * inside. A record is never freed (a thread's exit leaves it at depth 0):
 * one small record per thread that ever called. */
typedef struct gate_thread {
    _Atomic unsigned depth;
    struct gate_thread *next;
} gate_thread;

static _Atomic bool gate_closed;
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;  /* held across a fork */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;  /* the list's links */
static gate_thread *_Atomic threads;
/* This thread's record: a pthread key, not _Thread_local (LeakSanitizer's
 * leak check crashed scanning a dlopen'ed module's dynamic TLS block), with
 * no destructor (records are never freed). */
static pthread_key_t me_key;

static gate_thread *me(void) { return pthread_getspecific(me_key); }

static webcrypto_status gate_enter(void) {
    gate_thread *t = me();
    if (!t) {
        if (!(t = calloc(1, sizeof *t))) return WEBCRYPTO_ERR_NO_MEMORY;
        if (pthread_setspecific(me_key, t) != 0) {
            free(t);
            return WEBCRYPTO_ERR_NO_MEMORY;
        }
        pthread_mutex_lock(&list_lock);
        t->next = atomic_load_explicit(&threads, memory_order_relaxed);
        atomic_store_explicit(&threads, t, memory_order_release);
        pthread_mutex_unlock(&list_lock);
    }
    unsigned d = atomic_load_explicit(&t->depth, memory_order_relaxed);
    for (;;) {
        atomic_store_explicit(&t->depth, d + 1, memory_order_seq_cst);
        if (d > 0 || !atomic_load_explicit(&gate_closed, memory_order_seq_cst)) return WEBCRYPTO_OK;
        atomic_store_explicit(&t->depth, d, memory_order_release);
        /* A fork is under way: wait for it, then try again. */
        pthread_mutex_lock(&gate_lock);
        pthread_mutex_unlock(&gate_lock);
    }
}

static void gate_leave(void) {
    gate_thread *t = me();
    unsigned d = atomic_load_explicit(&t->depth, memory_order_relaxed);
    atomic_store_explicit(&t->depth, d - 1, memory_order_release);
}

/* Runs on the forking thread, which owns both mutexes in the child too, so
 * the after handler unlocks them in both (re-initialising a locked mutex
 * is not defined). */
static void at_fork_prepare(void) {
    pthread_mutex_lock(&gate_lock);
    atomic_store_explicit(&gate_closed, true, memory_order_seq_cst);
    gate_thread *self = me();
    for (;;) {
        pthread_mutex_lock(&list_lock);
        bool busy = false;
        for (gate_thread *t = atomic_load_explicit(&threads, memory_order_acquire); t && !busy;
             t = t->next)
            busy = t != self && atomic_load_explicit(&t->depth, memory_order_seq_cst) > 0;
        if (!busy) return; /* both locks held until the fork returns */
        pthread_mutex_unlock(&list_lock);
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
}

static void at_fork_after(void) {
    atomic_store_explicit(&gate_closed, false, memory_order_seq_cst);
    pthread_mutex_unlock(&list_lock);
    pthread_mutex_unlock(&gate_lock);
}

/* Registered when the module is loaded, not from init (init runs under the
 * registry's lock, which the core's own prepare handler takes). If it
 * cannot be registered, init refuses the backend. */
static bool gate_ok;
__attribute__((constructor)) static void gate_atfork(void) {
    gate_ok = pthread_key_create(&me_key, NULL) == 0 &&
              pthread_atfork(at_fork_prepare, at_fork_after, at_fork_after) == 0;
}

static webcrypto_status gated_init(const char *variant, void **bctx, wc_caps *caps,
                                   const char **description) {
    if (!gate_ok)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "boringssl backend: pthread_key_create or pthread_atfork failed");
    return wc_backend_boringssl_ungated.init(variant, bctx, caps, description);
}

#define GATED_U wc_backend_boringssl_ungated
#define GATED_TABLE wc_backend_boringssl
#define GATED_NAME "boringssl"
#define GATE_ENTER gate_enter
#define GATE_LEAVE gate_leave
#define GATED_HAS_XOF_KMAC 0
#define GATED_HAS_PQ 0
#define GATED_HAS_ARGON2 0
#define GATED_INIT gated_init
#include "backends/common/gated_ops.inc"
