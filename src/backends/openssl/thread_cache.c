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
static _Thread_local wc_tc_thread *tl;

static size_t slot_of(uint64_t id, size_t cap) {
    return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

static void contexts_free(wc_tc_entry *e) {
    /* The _free functions cleanse key schedules and digest states. */
    EVP_CIPHER_CTX_free(e->enc);
    EVP_CIPHER_CTX_free(e->dec);
    EVP_MD_CTX_free(e->work);
    if (e->prov) e->prov_free(e->prov);
    free(e);
}

static void thread_free(void *p) {
    wc_tc_thread *t = p;
    if (!t) return;
    if (tl == t) tl = NULL; /* a later call on this thread starts afresh */
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

static void make_key(void) { tc_key_made = pthread_key_create(&tc_key, thread_free) == 0; }

webcrypto_status wc_tc_init(void) {
    pthread_once(&tc_once, make_key);
    if (!tc_key_made)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "OpenSSL backend: pthread_key_create failed");
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
    wc_tc_thread *t = tl;
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
    tl = t;
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

wc_tc_entry *wc_tc_entry_get(const wc_tc_key *k) {
    wc_tc_thread *t = tl;
    if (t && t->slots) {
        size_t mask = t->cap - 1, i = slot_of(k->id, t->cap);
        for (;;) {
            uint64_t s = atomic_load_explicit(&t->slots[i].id, memory_order_relaxed);
            if (s == k->id) return t->slots[i].e;
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
