/*
 * thread_cache.c - per-thread, per-key OpenSSL contexts (see thread_cache.h).
 *
 * A thread's entries are found through an open-addressing table of key ids
 * (linear probing) that only its own thread reads without the lock. Another
 * thread touches the table only under the mutex, and only to replace the id
 * of an entry it frees with a tombstone (an atomic store, so the owner's
 * concurrent lookups for other keys stay well defined). The owner rebuilds
 * its table, under the mutex, when live entries and tombstones fill 3/4 of
 * it. One global mutex, taken at a thread's first call with a key, at a
 * cached key's free and at thread exit: there is no lock order to get wrong.
 */
#define _POSIX_C_SOURCE 200809L
#include "thread_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

enum { ID_EMPTY = 0, ID_TOMB = 1, ID_FIRST = 2 };
#define MIN_SLOTS 16
/* The most entries a thread keeps (an AES-GCM entry is about 1 KiB): past
 * it, adding one evicts another, so a thread that meets many keys holds a
 * bounded amount; an evicted key's next call on the thread copies again. */
#define MAX_ENTRIES 1024

typedef struct tc_slot {
    _Atomic uint64_t id;
    wc_tc_entry *e; /* written and read by the owner only */
} tc_slot;

typedef struct wc_tc_thread {
    /* first: wc_tc_self points here (the depth and last lookup, read inline
     * by thread_cache.h) */
    wc_tc_hot hot;
    tc_slot *slots; /* cap slots, cap a power of two (NULL until the first entry) */
    size_t cap, used; /* used: live ids and tombstones */
    size_t live;      /* entries (under the mutex) */
    size_t hand;      /* where the search for an entry to evict starts */
    wc_tc_entry *entries; /* this thread's entries (under the mutex) */
    wc_tc_digest digest[WC_TC_HASHES];
    /* every thread's cache, so that one a thread never freed (the main
     * thread runs no pthread key destructors) stays reachable */
    struct wc_tc_thread *next, **pprev;
} wc_tc_thread;

static pthread_mutex_t tc_lock = PTHREAD_MUTEX_INITIALIZER;
static wc_tc_thread *tc_threads;
static pthread_key_t tc_key;
static bool tc_key_made;
static pthread_once_t tc_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t next_id = ID_FIRST;
_Thread_local wc_tc_hot *wc_tc_self;

/* The calling thread's cache, or NULL (hot is its first member). */
static wc_tc_thread *self(void) {
    return (wc_tc_thread *)wc_tc_self;
}

static size_t slot_of(uint64_t id, size_t cap) {
    return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

static void contexts_free(wc_tc_entry *e) {
    /* The _free functions cleanse key schedules and digest states. */
    EVP_CIPHER_CTX_free(e->enc);
    EVP_CIPHER_CTX_free(e->dec);
    EVP_MD_CTX_free(e->work);
    if (e->prov) e->prov_free(e->prov);
    if (e->prov_dec) e->prov_free(e->prov_dec);
    free(e);
}

static void thread_free(void *p) {
    wc_tc_thread *t = p;
    if (!t) return;
    if (self() == t) wc_tc_self = NULL; /* a later call on this thread starts afresh */
    pthread_mutex_lock(&tc_lock);
    *t->pprev = t->next;
    if (t->next) t->next->pprev = t->pprev;
    for (wc_tc_entry *e = t->entries; e; e = e->thr_next) {
        *e->key_pprev = e->key_next;
        if (e->key_next) e->key_next->key_pprev = e->key_pprev;
    }
    pthread_mutex_unlock(&tc_lock);
    /* Unreachable from every key now: freed outside the lock. */
    wc_tc_entry *e = t->entries;
    while (e) {
        wc_tc_entry *next = e->thr_next;
        contexts_free(e);
        e = next;
    }
    for (unsigned h = 0; h < WC_TC_HASHES; h++) {
        EVP_MD_CTX_free(t->digest[h].evp);
        if (t->digest[h].prov) t->digest[h].prov_free(t->digest[h].prov);
    }
    free(t->slots);
    free(t);
}

/* ---- the fork and exit gate (thread_cache.h) ----
 * Each thread says it is inside the backend with its own counter (a store
 * to its own line, no shared atomic); a fork or exit closes the gate with
 * one store and then waits for every thread's counter to drop to zero. The
 * stores and loads on both sides are sequentially consistent, so either the
 * caller sees the gate closed or the closer sees the caller inside. */
enum { GATE_OPEN, GATE_FORK, GATE_EXIT }; /* GATE_OPEN is 0: wc_tc_enter's test */
_Atomic int wc_tc_gate = GATE_OPEN;
/* Held by a fork from its prepare handler to its parent/child handler, and
 * by the exit handler: a caller that finds the gate closed for a fork waits
 * on it. Taken before tc_lock. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
/* The longest exit() waits for calls under way (ms): longer calls (a huge
 * PBKDF2 or Argon2) are then left to race OpenSSL's own cleanup. */
#define EXIT_WAIT_MS 5000

static wc_tc_thread *thread_get(void);

/* wc_tc_enter's cases that are not inline (thread_cache.h). */
webcrypto_status wc_tc_enter_slow(wc_tc_hot **t) {
    if (!*t) { /* the thread's first call */
        wc_tc_thread *c = thread_get();
        if (!c) return WEBCRYPTO_ERR_NO_MEMORY;
        *t = &c->hot;
        return WEBCRYPTO_OK;
    }
    if (atomic_load_explicit(&wc_tc_gate, memory_order_seq_cst) == GATE_EXIT)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "the process is exiting (exit() was called): the openssl backend "
                        "takes no more calls");
    /* A fork is under way (or was): wait for it; the caller tries again. */
    pthread_mutex_lock(&gate_lock);
    pthread_mutex_unlock(&gate_lock);
    return WEBCRYPTO_OK;
}

/* Closes the gate and waits until no other thread is inside (at most
 * max_ms when max_ms >= 0). Returns with tc_lock held, so that no thread
 * is half-way through linking itself in either. */
static void gate_close(int how, long max_ms) {
    atomic_store_explicit(&wc_tc_gate, how, memory_order_seq_cst);
    for (long waited_us = 0;; waited_us += 100) {
        pthread_mutex_lock(&tc_lock);
        bool busy = false;
        for (wc_tc_thread *t = tc_threads; t && !busy; t = t->next)
            busy = t != self() && atomic_load_explicit(&t->hot.depth, memory_order_seq_cst) > 0;
        if (!busy || (max_ms >= 0 && waited_us >= max_ms * 1000)) return;
        pthread_mutex_unlock(&tc_lock);
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
}

/* fork(): no thread may be inside OpenSSL while the process is copied: a
 * lock it holds (a DRBG's, a key's, the method store's) would stay held in
 * the child forever, and the child's first call needing it would hang. So
 * the prepare handler waits for the calls under way to end and holds new
 * ones at the gate; the parent and child handlers open it again. The child
 * keeps the forking thread's caches; those of the other threads stay in
 * the list (their memory is the child's copy, and no call of theirs was
 * under way) and are freed with the keys they belong to. The handlers run
 * on the forking thread, which owns both mutexes in the child too, so
 * unlocking them there is defined (re-initialising a locked mutex is not). */
static int gate_before_fork; /* under gate_lock: a fork during exit keeps it closed */

static void at_fork_prepare(void) {
    pthread_mutex_lock(&gate_lock);
    gate_before_fork = atomic_load_explicit(&wc_tc_gate, memory_order_relaxed);
    if (gate_before_fork == GATE_EXIT)
        gate_close(GATE_EXIT, 0); /* nothing runs any more: only take tc_lock */
    else
        gate_close(GATE_FORK, -1);
}

static void at_fork_after(void) {
    atomic_store_explicit(&wc_tc_gate, gate_before_fork, memory_order_seq_cst);
    pthread_mutex_unlock(&tc_lock);
    pthread_mutex_unlock(&gate_lock);
}

/* exit(): OpenSSL's own atexit handler (OPENSSL_cleanup) frees its global
 * state - the DRBGs and their locks, the method store - while other threads
 * may still be inside it through us (a SIGSEGV in RAND_bytes_ex in 8 of 60
 * runs). This handler is registered after OPENSSL_init_crypto registered
 * that one, so it runs first (atexit is LIFO): it closes the gate for good,
 * waits for the calls under way (at most EXIT_WAIT_MS), and later calls
 * fail with OperationError instead of touching freed state. It changes
 * nothing but the library's own state. */
static void at_exit(void) {
    pthread_mutex_lock(&gate_lock);
    gate_close(GATE_EXIT, EXIT_WAIT_MS);
    pthread_mutex_unlock(&tc_lock);
    pthread_mutex_unlock(&gate_lock);
}

/* Registered when the library is loaded, not from init: init runs under
 * the registry's lock, which the core's own prepare handler takes, and
 * glibc holds its handler list's lock from the prepare handlers on, so a
 * pthread_atfork call there could deadlock with a concurrent fork. Before
 * any use the handlers find an empty list and an open gate. */
static bool tc_atfork_ok;
__attribute__((constructor)) static void tc_atfork(void) {
    tc_atfork_ok = pthread_atfork(at_fork_prepare, at_fork_after, at_fork_after) == 0;
}

static bool tc_ready;

static void make_key(void) {
    tc_key_made = pthread_key_create(&tc_key, thread_free) == 0;
    tc_ready = tc_key_made && tc_atfork_ok && atexit(at_exit) == 0;
}

webcrypto_status wc_tc_init(void) {
    pthread_once(&tc_once, make_key);
    if (!tc_ready)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "OpenSSL backend: pthread_key_create, pthread_atfork or atexit failed");
    return WEBCRYPTO_OK;
}

/* If libwebcrypto is unloaded, threads that outlive it must not run a
 * destructor that is gone: their caches are left to leak instead. */
__attribute__((destructor)) static void tc_unload(void) {
    if (tc_key_made) pthread_key_delete(tc_key);
}

void wc_tc_key_init(wc_tc_key *k) {
    k->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
    atomic_init(&k->cached, false);
    k->entries = NULL;
}

void wc_tc_key_release(wc_tc_key *k) {
    /* The caller's own synchronisation orders every use of k before this
     * free (backend.h), so a thread that made an entry set cached before. */
    if (!atomic_load_explicit(&k->cached, memory_order_relaxed)) return;
    pthread_mutex_lock(&tc_lock);
    wc_tc_entry *list = k->entries;
    k->entries = NULL;
    for (wc_tc_entry *e = list; e; e = e->key_next) {
        atomic_store_explicit(&e->owner->slots[e->slot].id, ID_TOMB, memory_order_relaxed);
        *e->thr_pprev = e->thr_next;
        if (e->thr_next) e->thr_next->thr_pprev = e->thr_pprev;
        e->owner->live--;
    }
    pthread_mutex_unlock(&tc_lock);
    while (list) {
        wc_tc_entry *next = list->key_next;
        contexts_free(list);
        list = next;
    }
}

static wc_tc_thread *thread_get(void) {
    wc_tc_thread *t = self();
    if (t) return t;
    t = calloc(1, sizeof *t);
    if (!t) {
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory (the thread's OpenSSL contexts)");
        return NULL;
    }
    if (pthread_setspecific(tc_key, t) != 0) {
        free(t);
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "OpenSSL backend: pthread_setspecific failed");
        return NULL;
    }
    pthread_mutex_lock(&tc_lock);
    t->next = tc_threads;
    if (t->next) t->next->pprev = &t->next;
    t->pprev = &tc_threads;
    tc_threads = t;
    pthread_mutex_unlock(&tc_lock);
    wc_tc_self = &t->hot;
    return t;
}

wc_tc_digest *wc_tc_digest_slot(unsigned h) {
    wc_tc_thread *t = thread_get();
    return t && h < WC_TC_HASHES ? &t->digest[h] : NULL;
}

/* Rebuilds t's table with room for one more entry, dropping tombstones.
 * Under the mutex. */
static bool table_grow(wc_tc_thread *t) {
    size_t live = t->live;
    size_t cap = MIN_SLOTS;
    while (cap < 2 * (live + 1)) cap *= 2;
    tc_slot *s = malloc(cap * sizeof *s);
    if (!s) return false;
    for (size_t i = 0; i < cap; i++) {
        atomic_init(&s[i].id, ID_EMPTY);
        s[i].e = NULL;
    }
    for (wc_tc_entry *e = t->entries; e; e = e->thr_next) {
        size_t i = slot_of(e->id, cap);
        while (atomic_load_explicit(&s[i].id, memory_order_relaxed) != ID_EMPTY)
            i = (i + 1) & (cap - 1);
        atomic_store_explicit(&s[i].id, e->id, memory_order_relaxed);
        s[i].e = e;
        e->slot = i;
    }
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    t->used = live;
    return true;
}

/* Unlinks one of t's entries (not k's: k has none on t) from its key and
 * from t, and returns it to be freed outside the lock. Under the mutex, with
 * t->live > 0. */
static wc_tc_entry *evict_one(wc_tc_thread *t) {
    size_t i = t->hand & (t->cap - 1);
    while (atomic_load_explicit(&t->slots[i].id, memory_order_relaxed) < ID_FIRST)
        i = (i + 1) & (t->cap - 1);
    t->hand = i + 1;
    wc_tc_entry *e = t->slots[i].e;
    atomic_store_explicit(&t->slots[i].id, ID_TOMB, memory_order_relaxed);
    if (t->hot.last == e) t->hot.last_id = ID_EMPTY;
    *e->thr_pprev = e->thr_next;
    if (e->thr_next) e->thr_next->thr_pprev = e->thr_pprev;
    *e->key_pprev = e->key_next;
    if (e->key_next) e->key_next->key_pprev = e->key_pprev;
    t->live--;
    return e;
}

static wc_tc_entry *entry_add(wc_tc_thread *t, wc_tc_key *k) {
    wc_tc_entry *e = calloc(1, sizeof *e);
    if (!e) {
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory (the thread's OpenSSL contexts)");
        return NULL;
    }
    e->id = k->id;
    e->owner = t;
    e->key = k;
    wc_tc_entry *evicted = NULL;
    pthread_mutex_lock(&tc_lock);
    if (t->live >= MAX_ENTRIES) evicted = evict_one(t);
    if (4 * (t->used + 1) > 3 * t->cap && !table_grow(t)) {
        pthread_mutex_unlock(&tc_lock);
        if (evicted) contexts_free(evicted);
        free(e);
        wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory (the thread's OpenSSL contexts)");
        return NULL;
    }
    /* The first free slot on the probe path: k is not in the table. */
    size_t i = slot_of(k->id, t->cap);
    uint64_t s;
    while ((s = atomic_load_explicit(&t->slots[i].id, memory_order_relaxed)) >= ID_FIRST)
        i = (i + 1) & (t->cap - 1);
    if (s == ID_EMPTY) t->used++;
    t->slots[i].e = e;
    atomic_store_explicit(&t->slots[i].id, k->id, memory_order_relaxed);
    e->slot = i;
    e->thr_next = t->entries;
    if (e->thr_next) e->thr_next->thr_pprev = &e->thr_next;
    e->thr_pprev = &t->entries;
    t->entries = e;
    e->key_next = k->entries;
    if (e->key_next) e->key_next->key_pprev = &e->key_next;
    e->key_pprev = &k->entries;
    k->entries = e;
    t->live++;
    atomic_store_explicit(&k->cached, true, memory_order_relaxed);
    pthread_mutex_unlock(&tc_lock);
    if (evicted) contexts_free(evicted);
    return e;
}

/* wc_tc_entry_get's case that is not inline: past the last entry found. */
wc_tc_entry *wc_tc_entry_find(const wc_tc_key *k) {
    wc_tc_thread *t = self();
    if (t && t->slots) {
        size_t mask = t->cap - 1, i = slot_of(k->id, t->cap);
        for (;;) {
            uint64_t s = atomic_load_explicit(&t->slots[i].id, memory_order_relaxed);
            if (s == k->id) {
                t->hot.last_id = s;
                return t->hot.last = t->slots[i].e;
            }
            if (s == ID_EMPTY) break;
            i = (i + 1) & mask;
        }
    }
    if (!t && !(t = thread_get())) return NULL;
    /* The key's state is read-only to its users; its entry list is the
     * cache's, changed only under the mutex (the state was allocated
     * writable, so casting the const away is defined). */
    return entry_add(t, (wc_tc_key *)k);
}
