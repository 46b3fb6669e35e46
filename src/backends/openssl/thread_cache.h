/*
 * thread_cache.h - the openssl backend's per-thread contexts.
 *
 * OpenSSL 3.0 makes every fresh context take and drop references on shared
 * provider objects (EVP_MD_CTX_copy_ex, EVP_CIPHER_CTX_copy, EVP_Digest), so
 * threads calling with one key contend on the same atomics, and the copies
 * cost more than small messages. Instead each thread keeps, per secret key
 * it has used, contexts already keyed (an entry), and per hash a digest
 * context; a call re-initialises only what changes (the IV, the digest).
 *
 * Lifetime: an entry belongs to one thread and one key, and is freed by
 * whichever ends first - the key (wc_tc_key_release, from the key's free) or
 * the thread (its pthread key destructor) - or when its thread, holding the
 * most entries it may (1024), makes another. One mutex guards the links; the
 * lookup a call makes on its own thread takes no lock. Key ids come from a
 * 64-bit counter and never repeat, so an entry of a freed key can never be
 * found again. The backend contract (backend.h) holds: no thread uses a key
 * while it is freed; a thread that used it last may be idle or gone.
 */
#ifndef WEBCRYPTO_OPENSSL_THREAD_CACHE_H
#define WEBCRYPTO_OPENSSL_THREAD_CACHE_H

#include <stdatomic.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "core/backend.h"

struct wc_tc_entry;
struct wc_tc_thread;

/* Embedded in a key's state; wc_tc_key_init before use, wc_tc_key_release
 * before the state is freed. */
typedef struct wc_tc_key {
    uint64_t id;                 /* unique in the process, never 0 or 1 */
    atomic_bool cached;          /* an entry was ever made (else release skips the lock) */
    struct wc_tc_entry *entries; /* every thread's entry for this key (under the mutex) */
} wc_tc_key;

/* One thread's contexts for one key. The contexts are the owning thread's
 * to make, use and drop (NULL when not made yet or dropped after a failure);
 * the rest is the cache's. */
typedef struct wc_tc_entry {
    EVP_CIPHER_CTX *enc, *dec; /* AES: keyed copies of the key's templates */
    EVP_MD_CTX *work;          /* HMAC: the key's inner then outer state is copied here */
    size_t gcm_iv_len;         /* AES-GCM, -OCB: the IV length enc is set for (0: OpenSSL's 12) */
    size_t dec_iv_len;         /* AES-OCB: the IV length dec is set for (0: OpenSSL's 12) */
    void *prov;                /* AES-GCM, -CTR, -CBC (encryption): a provider context
                                * (provider_direct.h), or NULL */
    void *prov_dec;            /* AES-CBC decryption: likewise */
    void (*prov_free)(void *prov); /* frees prov, cleansing it */
    /* private to thread_cache.c */
    uint64_t id;
    struct wc_tc_thread *owner;
    size_t slot; /* in the owner's table */
    wc_tc_key *key;
    struct wc_tc_entry *key_next, **key_pprev;
    struct wc_tc_entry *thr_next, **thr_pprev;
} wc_tc_entry;

/* Once per process, from the backend's init (after OPENSSL_init_crypto):
 * creates the pthread key whose destructor frees a thread's contexts at its
 * exit, and registers the gate's fork and exit handlers. */
webcrypto_status wc_tc_init(void);

/* The fork and exit gate (docs/ROBUSTNESS.md, "fork and exit"): every call
 * into the backend after init runs between wc_tc_enter, when it returns
 * WEBCRYPTO_OK, and wc_tc_leave (gate.c wraps the ops table). fork() waits
 * until no call is under way and holds new ones until it returns, so that
 * no lock of OpenSSL's or ours is held in the child; once exit() has begun,
 * wc_tc_enter fails with OperationError (the error set) so that no call
 * runs into OpenSSL's atexit cleanup. Calls may nest. */
static inline webcrypto_status wc_tc_enter(void);
static inline void wc_tc_leave(void);

/* Gives k a new id. Never fails. */
void wc_tc_key_init(wc_tc_key *k);

/* Frees every thread's entry for k (their contexts cleanse what they hold).
 * No thread may be using k. */
void wc_tc_key_release(wc_tc_key *k);

/* The calling thread's entry for k, made (with no contexts) on first use;
 * NULL, with the thread's error set, if memory runs out. */
static inline wc_tc_entry *wc_tc_entry_get(const wc_tc_key *k);

/* A thread's one-shot digest context for one hash: either an EVP context
 * or a context of the provider's own digest functions (openssl_common.c,
 * "digest"), with the provider's function that frees it. Both start NULL;
 * the caller stores a context, the cache frees it at the thread's exit
 * (both free functions cleanse the digest state). */
typedef struct wc_tc_digest {
    EVP_MD_CTX *evp;
    void *prov;
    void (*prov_free)(void *prov);
} wc_tc_digest;

/* The calling thread's digest slot for hash index h (below WC_TC_HASHES).
 * NULL, with the thread's error set, if memory runs out. */
#define WC_TC_HASHES WC_HASH_COUNT
wc_tc_digest *wc_tc_digest_slot(unsigned h);

/* ---- inline: what every call does when nothing needs the lock ----
 * The part of a thread's cache each call reads: the first member of
 * thread_cache.c's wc_tc_thread, reached through wc_tc_self. Inline, as
 * every small message passes here two or three times; the rest (a thread's
 * first call, a lookup past the last entry found, a closed gate) is
 * thread_cache.c's. */
typedef struct wc_tc_hot {
    /* calls of this thread into the backend under way (the gate); written
     * by the owner only, read by a fork's or exit's wait */
    _Atomic unsigned depth;
    /* the entry the last lookup found, tried first (owner only): a key's id
     * never recurs, so one freed with its key is never matched again; an
     * evicted one is forgotten here */
    uint64_t last_id;
    struct wc_tc_entry *last;
} wc_tc_hot;

/* The calling thread's (NULL before its first call), and the gate (0:
 * open); both thread_cache.c's. */
extern _Thread_local wc_tc_hot *wc_tc_self;
extern _Atomic int wc_tc_gate;
/* wc_tc_enter's cases that are not inline: with *t NULL (the thread's
 * first call), makes the thread's cache and sets *t; else (the gate found
 * closed) fails once exit has begun, or waits for the fork under way to
 * end. WEBCRYPTO_OK: the caller tries again. */
webcrypto_status wc_tc_enter_slow(wc_tc_hot **t);
wc_tc_entry *wc_tc_entry_find(const wc_tc_key *k);

static inline webcrypto_status wc_tc_enter(void) {
    wc_tc_hot *t = wc_tc_self;
    for (;;) {
        if (t) {
            /* Sequentially consistent, as the closer's store and load
             * (thread_cache.c): either this thread sees the gate closed or
             * the closer sees it inside. */
            unsigned d = atomic_load_explicit(&t->depth, memory_order_relaxed);
            atomic_store_explicit(&t->depth, d + 1, memory_order_seq_cst);
            if (d > 0 || atomic_load_explicit(&wc_tc_gate, memory_order_seq_cst) == 0)
                return WEBCRYPTO_OK; /* nested, or the gate open */
            atomic_store_explicit(&t->depth, d, memory_order_release);
        }
        webcrypto_status st = wc_tc_enter_slow(&t);
        if (st != WEBCRYPTO_OK) return st;
    }
}

static inline void wc_tc_leave(void) {
    wc_tc_hot *t = wc_tc_self;
    unsigned d = atomic_load_explicit(&t->depth, memory_order_relaxed);
    atomic_store_explicit(&t->depth, d - 1, memory_order_release);
}

static inline wc_tc_entry *wc_tc_entry_get(const wc_tc_key *k) {
    wc_tc_hot *t = wc_tc_self;
    if (t && t->last_id == k->id) return t->last;
    return wc_tc_entry_find(k);
}

#endif /* WEBCRYPTO_OPENSSL_THREAD_CACHE_H */
