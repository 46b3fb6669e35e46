/*
 * buffers.c - the addon's memory: wipes, the cache of large blocks, the
 * buffers a job copies its inputs into and writes its output to, and the
 * snapshots (nbytes) of an algorithm's byte members. Calls nothing of the
 * other parts (native/addon.h).
 */
#include "addon.h"

/* ---- memory -------------------------------------------------------------- */

/* memset through a volatile pointer: a compiler may drop a plain memset of
 * memory that is freed next (gcc -O2 did, in wipe_free and out_finalize). */
static void *(*const volatile k_memset)(void *, int, size_t) = memset;
void wipe(void *p, size_t n) {
    if (p && n) k_memset(p, 0, n);
}

/* Large blocks (BIG_MIN bytes or more): a 1 MiB copy of the data, or the
 * output a job writes, in memory fresh from the system costs ~400 us on the
 * development VM (256 page faults, each zeroing a page; the copy itself into
 * memory already mapped: ~25 us), twice the AES-GCM encryption of that MiB.
 * malloc hands such memory back to the system when it is freed (a large
 * block is an mmap, and freed space above its trim threshold is returned),
 * and a result's block is freed when V8 collects its ArrayBuffer, in batches
 * (about 64 MiB of ArrayBuffers between collections on Node 24): so each one
 * was fresh. Blocks freed go to this cache instead, up to BIG_CACHE_BYTES,
 * and the next large buffer is taken from it; blocks left unused for a
 * trim period are freed (big_trim, from an unref'd timer index.js runs).
 * The process's peak memory does not grow by it: the cache fills only as
 * results are collected, as the ArrayBuffers holding the same bytes go. One
 * cache for the process (worker threads included, and finalizers that may
 * run after an environment is gone), behind a spin lock held for a scan of
 * at most BIG_CACHE_COUNT entries. A block that may hold secret bytes (the
 * caller's data, a decryption's output) is wiped when it is given back, so
 * the cache never holds a secret: that costs a collection ~25-100 us per
 * MiB of such results, on the main thread, and is what a crypto library
 * owes its caller. */
#define BIG_CACHE_BYTES ((size_t)64 << 20)
#define BIG_CACHE_COUNT 96
#define BIG_HDR 64 /* big_hdr; keeps the bytes 64-byte aligned */
typedef struct big_hdr {
    size_t cap;
} big_hdr;

static struct {
    atomic_flag lock;
    uint8_t *blk[BIG_CACHE_COUNT];
    unsigned stamp[BIG_CACHE_COUNT];
    size_t n, bytes;
    unsigned gen;
    size_t out; /* blocks taken and not given back */
} g_big = {ATOMIC_FLAG_INIT, {0}, {0}, 0, 0, 0, 0};

static void big_lock(void) {
    unsigned tries = 0;
    while (atomic_flag_test_and_set_explicit(&g_big.lock, memory_order_acquire)) spin_wait(&tries);
}
static void big_unlock(void) { atomic_flag_clear_explicit(&g_big.lock, memory_order_release); }

static big_hdr *big_of(uint8_t *data) { return (big_hdr *)(void *)(data - BIG_HDR); }
static size_t big_cap(uint8_t *data) { return big_of(data)->cap; }

/* A block with room for n >= BIG_MIN bytes, or NULL; its bytes are not
 * zeroed (a block that held secrets was wiped when given back). A cached
 * one fits if it wastes at most an eighth; of those that fit best, the one
 * cached last (the likeliest to be in a CPU cache still). */
uint8_t *big_take(size_t n) {
    uint8_t *b = NULL;
    if (n > SIZE_MAX - BIG_HDR - 4095) return NULL;
    big_lock();
    size_t best = g_big.n;
    for (size_t i = g_big.n; i-- > 0;) {
        size_t cap = big_cap(g_big.blk[i]);
        if (cap >= n && cap - n <= n / 8 && (best == g_big.n || cap < big_cap(g_big.blk[best])))
            best = i;
    }
    if (best < g_big.n) {
        b = g_big.blk[best];
        g_big.bytes -= big_cap(b);
        g_big.n--;
        /* keep the order (the last cached is found first) */
        memmove(&g_big.blk[best], &g_big.blk[best + 1], (g_big.n - best) * sizeof g_big.blk[0]);
        memmove(&g_big.stamp[best], &g_big.stamp[best + 1], (g_big.n - best) * sizeof g_big.stamp[0]);
    }
    g_big.out++;
    big_unlock();
    if (b) return b;
    size_t cap = (n + 4095) & ~(size_t)4095;
    uint8_t *m = malloc(BIG_HDR + cap);
    if (!m) {
        big_lock();
        g_big.out--;
        big_unlock();
        return NULL;
    }
    big_of(m + BIG_HDR)->cap = cap;
    return m + BIG_HDR;
}

static void big_free(uint8_t *data) { free(data - BIG_HDR); }

/* Gives back a block of big_take's; `secret`: it may hold secret bytes,
 * wiped now, before the cache or free has it. */
void big_give(uint8_t *data, bool secret) {
    if (!data) return;
    size_t cap = big_cap(data);
    if (secret) wipe(data, cap);
    big_lock();
    g_big.out--;
    bool keep = g_big.n < BIG_CACHE_COUNT && cap <= BIG_CACHE_BYTES - g_big.bytes;
    if (keep) {
        g_big.blk[g_big.n] = data;
        g_big.stamp[g_big.n] = g_big.gen;
        g_big.n++;
        g_big.bytes += cap;
    }
    big_unlock();
    if (!keep) big_free(data);
}

/* Frees the cached blocks that were cached before the previous call (none
 * was taken since); returns how many blocks stay, cached or in use (an
 * ArrayBuffer not yet collected, a job), which later calls may trim. */
size_t big_trim(void) {
    uint8_t *drop[BIG_CACHE_COUNT];
    size_t nd = 0;
    big_lock();
    size_t kept = 0;
    for (size_t i = 0; i < g_big.n; i++) {
        if (g_big.stamp[i] != g_big.gen) {
            drop[nd++] = g_big.blk[i];
            g_big.bytes -= big_cap(g_big.blk[i]);
        } else {
            g_big.blk[kept] = g_big.blk[i];
            g_big.stamp[kept++] = g_big.stamp[i];
        }
    }
    g_big.n = kept;
    g_big.gen++;
    size_t left = g_big.n + g_big.out;
    big_unlock();
    for (size_t i = 0; i < nd; i++) big_free(drop[i]);
    return left;
}

/* A buffer for a copy of data's bytes or an output, and its release:
 * large ones are blocks of the cache. */
uint8_t *buf_alloc(size_t n) { return n >= BIG_MIN ? big_take(n) : malloc(n ? n : 1); }
void buf_free(uint8_t *p, size_t n, size_t cap, bool secret) {
    if (!p) return;
    if (n >= BIG_MIN) {
        big_give(p, secret);
        return;
    }
    if (secret) wipe(p, cap);
    free(p);
}


void nbytes_consume(nbytes *b) {
    buf_free(b->p, b->n, b->n, true);
    b->p = NULL;
    b->n = 0;
    b->used = true;
}

void nbytes_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    nbytes_consume(data);
    free(data);
}

bool copy_bytes(const uint8_t *p, size_t n, uint8_t **owned) {
    *owned = buf_alloc(n);
    if (!*owned) return false;
    if (n) memcpy(*owned, p, n);
    return true;
}
