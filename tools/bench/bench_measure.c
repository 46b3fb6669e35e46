/*
 * webcrypto-bench: measuring one cell. Per cell (operation x size x target):
 * set up (key import, inputs) untimed, warm up for at least --warmup time
 * and calls while finding a batch size that makes one timed sample last
 * >= sample_ns, then time `samples` batches with CLOCK_MONOTONIC and
 * summarise the per-operation times; with --threads, one thread against N
 * (measure_threads). SIGINT sets stop_requested, which ends the measuring.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_internal.h"

#define MAX_BATCH 1000000u
#define JIT_QUIET_NS 1e9
#define JIT_WAIT_MAX_NS 20e9

volatile sig_atomic_t stop_requested;

void on_sigint(int sig) {
    (void)sig;
    stop_requested = 1;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- measuring ---- */

static uint32_t fnv1a(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Runs batch calls; returns their duration in ns, or -1 on failure. */
static double timed_batch(const bench_impl *impl, const bench_cell *c, uint8_t *out,
                          size_t batch) {
    if (impl->batch) return impl->batch(c, batch);
    size_t len = 0;
    double t0 = now_ns();
    for (size_t i = 0; i < batch; i++)
        if (impl->run(c, out, &len)) return -1;
    return now_ns() - t0;
}

/* ---- --threads: one thread against N, interleaved ----
 * A pool of N threads shares the cell (one key, one input; each its own
 * output buffer). The coordinator runs rounds; each round is one slice with
 * thread 0 alone and one slice with all N, in alternating order (1, N, then
 * N, 1, ...: a drift of the machine's speed hits both sides alike). A
 * slice is one window of wall time for all its threads, opened by the
 * first of them to wake: each active thread runs batches from when it wakes
 * until the common deadline (at least one batch if it woke before it), so a
 * thread the scheduler starts late does less, instead of running after the
 * others; the slice's ops/s are all its
 * calls / (last end - first start), the same formula for 1 and N threads. */
typedef struct mt_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* workers wait for a slice; the coordinator for its end */
    const bench_impl *impl;
    const bench_cell *cell;
    size_t batch;
    unsigned ready;    /* workers started (and warmed up) */
    unsigned gen;      /* bumped to start a slice */
    unsigned active;   /* threads 0..active-1 run this slice */
    unsigned finished; /* of those */
    double slice_ns;
    double deadline;   /* of this slice, CLOCK_MONOTONIC ns; 0 until its first thread wakes */
    bool quit;
} mt_pool;

typedef struct mt_worker_state {
    mt_pool *pool;
    unsigned idx;
    double start, end, calls; /* of the last slice this thread ran */
    int failed;
    char error[128];
} mt_worker_state;

static void *mt_worker(void *p) {
    mt_worker_state *w = p;
    mt_pool *pool = w->pool;
    uint8_t *out = malloc(pool->cell->out_cap ? pool->cell->out_cap : 1);
    /* A short warm-up of this thread (caches, per-thread library state);
     * the cell itself is already warm. */
    if (!out) {
        w->failed = 1;
        snprintf(w->error, sizeof w->error, "out of memory");
    } else if (timed_batch(pool->impl, pool->cell, out, pool->batch) < 0) {
        w->failed = 1;
        snprintf(w->error, sizeof w->error, "%s", bench_last_error());
    }
    pthread_mutex_lock(&pool->mu);
    pool->ready++;
    pthread_cond_broadcast(&pool->cv);
    unsigned seen = 0;
    for (;;) {
        while (!pool->quit && pool->gen == seen) pthread_cond_wait(&pool->cv, &pool->mu);
        if (pool->quit) break;
        seen = pool->gen;
        bool mine = w->idx < pool->active;
        double deadline = 0;
        if (mine) {
            w->calls = 0;
            w->start = now_ns();
            if (pool->deadline == 0) pool->deadline = w->start + pool->slice_ns;
            deadline = pool->deadline;
        }
        pthread_mutex_unlock(&pool->mu);
        if (mine) {
            double t = w->start;
            /* At least one batch when on time, so that a slow operation
             * still counts. */
            while (!w->failed && w->start < deadline) {
                if (timed_batch(pool->impl, pool->cell, out, pool->batch) < 0) {
                    w->failed = 1;
                    snprintf(w->error, sizeof w->error, "%s", bench_last_error());
                    break;
                }
                w->calls += (double)pool->batch;
                t = now_ns();
                if (t >= deadline || stop_requested) break;
            }
            w->end = t;
        }
        pthread_mutex_lock(&pool->mu);
        if (mine) {
            pool->finished++;
            pthread_cond_broadcast(&pool->cv);
        }
    }
    pthread_mutex_unlock(&pool->mu);
    free(out);
    return NULL;
}

/* Runs one slice on threads 0..k-1; returns its ops/s (0: no call done), or
 * -1 if a thread failed. per_op, if not NULL, receives the ns per operation
 * of each thread that ran, *nper their number. */
static double mt_slice(mt_pool *pool, mt_worker_state *ws, unsigned k, double *per_op,
                       size_t *nper) {
    pthread_mutex_lock(&pool->mu);
    pool->active = k;
    pool->finished = 0;
    pool->deadline = 0;
    pool->gen++;
    pthread_cond_broadcast(&pool->cv);
    while (pool->finished < k) pthread_cond_wait(&pool->cv, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    double first = INFINITY, last = 0, calls = 0;
    size_t np = 0;
    for (unsigned i = 0; i < k; i++) {
        if (ws[i].failed) return -1;
        if (ws[i].calls == 0) continue; /* woke after the deadline */
        if (ws[i].start < first) first = ws[i].start;
        if (ws[i].end > last) last = ws[i].end;
        calls += ws[i].calls;
        if (per_op) per_op[np++] = (ws[i].end - ws[i].start) / ws[i].calls;
    }
    if (nper) *nper = np;
    return last > first ? calls / ((last - first) / 1e9) : 0;
}

/* The rounds: --thread-rounds (default 10) within the cell budget; a slice
 * lasts --thread-slice (default 50 ms), shortened so that all the rounds fit
 * in --max-time, but at least one batch; an operation so slow that even that
 * overflows the budget gets fewer rounds, never fewer than 3. */
static int measure_threads(const bench_run *run, const bench_impl *impl, const bench_cell *c,
                           bench_result *r) {
    const bench_config *cfg = &run->cfg;
    unsigned n = cfg->threads;
    double per_batch = r->s.median * (double)r->batch;
    double budget = cfg->max_cell_ms * 1e6;
    double slice = fmin(cfg->mt_slice_ms * 1e6, budget / (2.0 * cfg->mt_rounds));
    if (slice < per_batch) slice = per_batch;
    size_t rounds = cfg->mt_rounds;
    double fit = floor(budget / (2 * slice));
    if ((double)rounds > fit) rounds = fit < 3 ? 3 : (size_t)fit;
    mt_worker_state *ws = calloc(n, sizeof *ws);
    pthread_t *tids = calloc(n, sizeof *tids);
    double *one = calloc(rounds, sizeof *one), *many = calloc(rounds, sizeof *many);
    double *per_op = calloc(rounds * n, sizeof *per_op);
    mt_pool pool = {.impl = impl, .cell = c, .batch = r->batch, .slice_ns = slice};
    int rc = -1;
    unsigned started = 0;
    bool sync = false;
    if (!ws || !tids || !one || !many || !per_op) {
        snprintf(r->error, sizeof r->error, "threads: out of memory");
        goto done;
    }
    if (pthread_mutex_init(&pool.mu, NULL) != 0) goto done;
    if (pthread_cond_init(&pool.cv, NULL) != 0) {
        pthread_mutex_destroy(&pool.mu);
        goto done;
    }
    sync = true;
    for (unsigned i = 0; i < n; i++) {
        ws[i] = (mt_worker_state){.pool = &pool, .idx = i};
        if (pthread_create(&tids[i], NULL, mt_worker, &ws[i]) != 0) break;
        started++;
    }
    pthread_mutex_lock(&pool.mu);
    while (pool.ready < started) pthread_cond_wait(&pool.cv, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
    if (started < n) {
        snprintf(r->error, sizeof r->error, "threads: could only start %u of %u", started, n);
        goto stop;
    }
    for (unsigned i = 0; i < n; i++)
        if (ws[i].failed) {
            snprintf(r->error, sizeof r->error, "thread %u: %s", i, ws[i].error);
            goto stop;
        }
    /* One untimed slice on all threads: every thread past its first calls. */
    if (mt_slice(&pool, ws, n, NULL, NULL) < 0) goto failed;
    bench_cpu_mark m0, m1;
    bench_cpu_mark_take(&m0);
    size_t done = 0, nper = 0;
    for (size_t i = 0; i < rounds && !stop_requested; i++) {
        for (int half = 0; half < 2; half++) {
            bool single = (half == 0) == (i % 2 == 0);
            size_t np = 0;
            double v = mt_slice(&pool, ws, single ? 1 : n, single ? NULL : per_op + nper, &np);
            if (v < 0) goto failed;
            if (single) one[i] = v;
            else {
                many[i] = v;
                nper += np;
            }
        }
        done++;
    }
    bench_cpu_mark_take(&m1);
    if (stop_requested || bench_scaling_summarize(one, many, done, &r->mt)) goto stop;
    r->threads = n;
    r->mt_slice_ms = slice / 1e6;
    r->mt_median_ns = bench_median(per_op, nper);
    r->mt_others_cpu = bench_cpu_mark_others(&m0, &m1);
    rc = 0;
    goto stop;
failed:
    for (unsigned i = 0; i < n; i++)
        if (ws[i].failed) {
            snprintf(r->error, sizeof r->error, "thread %u: %s", i, ws[i].error);
            break;
        }
stop:
    pthread_mutex_lock(&pool.mu);
    pool.quit = true;
    pthread_cond_broadcast(&pool.cv);
    pthread_mutex_unlock(&pool.mu);
    for (unsigned i = 0; i < started; i++) pthread_join(tids[i], NULL);
done:
    if (sync) {
        pthread_cond_destroy(&pool.cv);
        pthread_mutex_destroy(&pool.mu);
    }
    free(ws);
    free(tids);
    free(one);
    free(many);
    free(per_op);
    return rc;
}

/* A cell between cell_begin and cell_end: its batch size and sample count
 * found, its samples taken one at a time by cell_sample. */
typedef struct cell_meas {
    const bench_impl *impl;
    uint8_t *out;
    double *times;
    size_t batch, samples, taken;
    bool failed; /* r->error says why */
} cell_meas;

/* Sets the cell up, warms it up and finds its batch size and sample count
 * (m->failed on failure, r->error set; cell_end tears it down either way). */
static void cell_begin(const bench_run *run, const bench_target *t, const bench_op *op,
                       bench_cell *c, bench_result *r, cell_meas *m) {
    const bench_config *cfg = &run->cfg;
    const bench_impl *impl = impl_for(t, op);
    memset(m, 0, sizeof *m);
    m->impl = impl;
    m->failed = true;
    r->ok = false;
    if (impl->setup(c)) {
        snprintf(r->error, sizeof r->error, "setup: %s", bench_last_error());
        return;
    }
    m->out = malloc(c->out_cap ? c->out_cap : 1);
    if (!m->out) {
        snprintf(r->error, sizeof r->error, "out of memory");
        return;
    }
    uint8_t *out = m->out;
    /* Warm-up, discarded, finding the batch size on the way. The per-op
     * estimate is the median of the last few warm-up batches, so that one
     * preempted batch does not shrink the batch size. */
    size_t batch = 1;
    double spent = 0, calls = 0, recent[15];
    size_t nrecent = 0;
    /* jca and jvm cells: also until the JVM's JIT has compiled nothing for
     * a second (or --max-time, if shorter; wall clock), at most 20 s (or ten
     * times --max-time): C2 recompiles SunJCE's paths at every new input
     * size, for seconds on 2 shared CPUs, and a cell measured meanwhile
     * gives a ratio of two moving targets (docs/BENCHMARKS.md, "jca over
     * jvm"). Not when --warmup asks for under 100 ms (a smoke run). */
    const bool jit_wait =
        (t->is_jvm || strncmp(t->name, "jca", 3) == 0) && cfg->warmup_ms >= 100;
    const double jit_quiet_ns = fmin(JIT_QUIET_NS, cfg->max_cell_ms * 1e6),
                 jit_wait_max_ns = fmin(JIT_WAIT_MAX_NS, 10 * cfg->max_cell_ms * 1e6);
    const double w_start = now_ns();
    double w_quiet = w_start;
    long jit_last = jit_wait ? bench_jvm_jit_ms() : -1;
    for (;;) {
        double t_ns = timed_batch(impl, c, out, batch);
        if (t_ns < 0) {
            snprintf(r->error, sizeof r->error, "%s", bench_last_error());
            return;
        }
        spent += t_ns;
        calls += (double)batch;
        recent[nrecent++ % 15] = t_ns / (double)batch;
        if (stop_requested) return;
        /* The call minimum (a JIT's steady state) yields to half the cell
         * budget: 10 RSA key generations would take seconds, and an
         * operation that slow is dominated by its arithmetic, not by
         * warming up code. */
        bool jit_quiet = true;
        if (jit_last >= 0) {
            double w = now_ns();
            long jit = bench_jvm_jit_ms();
            if (jit != jit_last) jit_last = jit, w_quiet = w;
            jit_quiet = w - w_quiet >= jit_quiet_ns || w - w_start >= jit_wait_max_ns;
        }
        if (spent >= cfg->warmup_ms * 1e6 &&
            (calls >= cfg->warmup_calls || spent >= cfg->max_cell_ms * 1e6 / 2) && jit_quiet)
            break;
        if (t_ns < cfg->sample_ns && batch < MAX_BATCH) {
            batch *= 2;
            nrecent = 0; /* estimates from smaller batches include more timer overhead */
        }
    }
    double per_op = bench_median(recent, nrecent < 15 ? nrecent : 15);
    if (!(per_op > 0)) per_op = 1;
    double want = ceil(cfg->sample_ns / per_op);
    batch = want < 1 ? 1 : want > MAX_BATCH ? MAX_BATCH : (size_t)want;
    /* Samples: --iterations, fewer if that would exceed the cell budget. */
    size_t samples = cfg->iterations;
    double fit = floor(cfg->max_cell_ms * 1e6 / (per_op * (double)batch));
    if ((double)samples > fit) {
        size_t floor_n = cfg->min_samples < cfg->iterations ? cfg->min_samples : cfg->iterations;
        samples = fit < (double)floor_n ? floor_n : (size_t)fit;
    }
    if (!(m->times = malloc(samples * sizeof *m->times))) {
        snprintf(r->error, sizeof r->error, "out of memory");
        return;
    }
    m->batch = batch;
    m->samples = samples;
    m->failed = false;
}

/* One more sample; false when the cell failed (r->error set) or is
 * interrupted. */
static bool cell_sample(const bench_cell *c, bench_result *r, cell_meas *m) {
    double t_ns = timed_batch(m->impl, c, m->out, m->batch);
    if (t_ns < 0) {
        snprintf(r->error, sizeof r->error, "%s", bench_last_error());
        m->failed = true;
        return false;
    }
    m->times[m->taken++] = t_ns / (double)m->batch;
    return !stop_requested; /* an unfinished cell is dropped */
}

/* Summarises the samples, keeps the output for the checks, runs --threads,
 * and tears the cell down. */
static void cell_end(const bench_run *run, const bench_target *t, const bench_op *op,
                     bench_cell *c, bench_result *r, cell_meas *m) {
    const bench_config *cfg = &run->cfg;
    const bench_impl *impl = m->impl;
    uint8_t *out = m->out;
    size_t samples = m->samples;
    if (m->failed || stop_requested || m->taken < samples) goto done;
    if (bench_summarize(m->times, samples, &r->s)) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto done;
    }
    r->samples = samples;
    r->batch = m->batch;
    r->ops_per_s = 1e9 / r->s.median;
    r->mb_per_s = (double)c->size / (r->s.median / 1e9) / 1e6;
    /* One more call for the output: its checksum is compared across
     * targets, or (randomized outputs) it is kept for the other targets to
     * check. Other operations (key generation) have nothing to compare. */
    if (op->flags & (BENCH_DETERMINISTIC | BENCH_CROSS_VERIFY)) {
        size_t len = 0;
        if (impl->run(c, out, &len)) {
            snprintf(r->error, sizeof r->error, "%s", bench_last_error());
            goto done;
        }
        if (op->flags & BENCH_DETERMINISTIC) {
            r->has_checksum = true;
            r->checksum = fnv1a(out, len);
        } else if (len <= sizeof r->output) {
            r->has_output = true;
            memcpy(r->output, out, len);
            r->output_len = len;
        }
    }
    /* jvm targets: the JVM's objects are on the thread that made them. */
    if (cfg->threads > 1 && !t->is_jvm && measure_threads(run, impl, c, r)) {
        if (stop_requested) goto done;
        if (!r->error[0]) snprintf(r->error, sizeof r->error, "threads: measurement failed");
        goto done;
    }
    r->ok = true;
done:
    free(m->times);
    free(out);
    impl->teardown(c);
}


void measure_cell(const bench_run *run, const bench_target *t, const bench_op *op,
                  bench_cell *c, bench_result *r) {
    cell_meas m;
    cell_begin(run, t, op, c, r, &m);
    while (!m.failed && m.taken < m.samples && cell_sample(c, r, &m)) {
    }
    cell_end(run, t, op, c, r, &m);
}

void measure_cells_interleaved(const bench_run *run, const bench_target *const *t,
                               const bench_op *op, bench_cell *c, bench_result *r, size_t n) {
    cell_meas m[BENCH_MAX_TARGETS];
    for (size_t i = 0; i < n; i++) cell_begin(run, t[i], op, &c[i], &r[i], &m[i]);
    /* Round by round, one sample of each cell that still wants one. */
    for (bool more = true; more && !stop_requested;) {
        more = false;
        for (size_t i = 0; i < n; i++) {
            if (m[i].failed || m[i].taken >= m[i].samples) continue;
            if (cell_sample(&c[i], &r[i], &m[i])) more = true;
        }
    }
    for (size_t i = 0; i < n; i++) cell_end(run, t[i], op, &c[i], &r[i], &m[i]);
}

const bench_result *bench_find(const bench_run *run, size_t op, size_t size, size_t target) {
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        if (r->ok && r->op == op && r->size == size && r->target == target) return r;
    }
    return NULL;
}
