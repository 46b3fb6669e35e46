/* webcrypto-bench's terminal outputs (the header, the table, the summary
 * of crossovers) and what every output shares (bench_report.h): sizes,
 * times and ratios, the crossovers, opening and closing a file.
 * Everything here reads the finished (or interrupted) run. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

#include "bench_report.h"

void bench_format_size(double bytes, char *buf, size_t cap) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (bytes >= 1024 && u < 3) {
        bytes /= 1024;
        u++;
    }
    if (bytes == floor(bytes)) snprintf(buf, cap, "%.0f %s", bytes, units[u]);
    else snprintf(buf, cap, "%.*f %s", bytes < 10 ? 2 : 1, bytes, units[u]);
}

void fmt_time(double ns, char *buf, size_t cap) {
    if (!isfinite(ns)) snprintf(buf, cap, "-");
    else if (ns < 1e3) snprintf(buf, cap, "%.1f ns", ns);
    else if (ns < 1e6) snprintf(buf, cap, "%.2f us", ns / 1e3);
    else if (ns < 1e9) snprintf(buf, cap, "%.2f ms", ns / 1e6);
    else snprintf(buf, cap, "%.2f s", ns / 1e9);
}

static void fmt_rate(double v, char *buf, size_t cap) {
    if (!isfinite(v) || v <= 0) snprintf(buf, cap, "-");
    else if (v >= 1e7) snprintf(buf, cap, "%.3gM", v / 1e6);
    else if (v >= 1e4) snprintf(buf, cap, "%.1fk", v / 1e3);
    else snprintf(buf, cap, "%.1f", v);
}

/* Reference median / this median: > 1 means faster than the reference. */
double speedup(const bench_run *run, const bench_result *r) {
    if (run->ref == SIZE_MAX) return NAN;
    const bench_result *ref = bench_find(run, r->op, r->size, run->ref);
    return ref ? ref->s.median / r->s.median : NAN;
}

/* This median / the median of the target's raw baseline (raw_base:
 * raw-boringssl for the boringssl backend when measured, else raw-openssl):
 * our cost over the library alone. */
double overhead(const bench_run *run, const bench_result *r) {
    size_t b = run->targets[r->target].raw_base;
    if (b == SIZE_MAX) return NAN;
    const bench_result *raw = bench_find(run, r->op, r->size, b);
    return raw ? r->s.median / raw->s.median : NAN;
}

/* The name of the target's raw baseline, or NULL. */
const char *overhead_base(const bench_run *run, size_t target) {
    size_t b = run->targets[target].raw_base;
    return b == SIZE_MAX ? NULL : run->targets[b].name;
}

/* This median / the jvm baseline's median, for a jca target whose jvm
 * counterpart (same provider) was measured: our cost over the JCA calls
 * made from Java. */
double overhead_jvm(const bench_run *run, const bench_result *r) {
    size_t b = run->targets[r->target].jvm_base;
    if (b == SIZE_MAX) return NAN;
    const bench_result *base = bench_find(run, r->op, r->size, b);
    return base ? r->s.median / base->s.median : NAN;
}

static bool any_jvm_base(const bench_run *run) {
    for (size_t i = 0; i < run->ntargets; i++)
        if (run->targets[i].jvm_base != SIZE_MAX) return true;
    return false;
}

/* Baselines (raw-openssl, raw-boringssl, jvm) are drawn dashed in the charts. */
bool is_baseline(const bench_target *t) { return t->is_raw || t->is_jvm; }

void bench_print_header(const bench_run *run, FILE *f) {
    const bench_sysinfo *si = &run->sys;
    const bench_config *c = &run->cfg;
    fprintf(f, "webcrypto-bench (libwebcrypto %s)  %s\n", WEBCRYPTO_VERSION, si->date);
    fprintf(f, "cpu:      %s, %ld cores online\n", si->cpu_model, si->cores);
    fprintf(f, "load:     load average %s (1/5/15 min) at start, %s at end", si->load,
            si->load_end);
    if (isfinite(si->others_cpu))
        fprintf(f, "; other processes used %.0f%% of one CPU on average (%.1f s of CPU in "
                   "%.1f s)%s",
                100 * si->others_cpu, si->others_cpu * si->run_s, si->run_s,
                si->others_cpu > BENCH_OTHERS_WARN ? "   *** the machine was not quiet ***" : "");
    else
        fprintf(f, "; other processes' CPU use unknown (no /proc/stat)");
    fprintf(f, "\n");
    fprintf(f, "features: %s\n", si->cpu_features);
    fprintf(f, "os:       %s\n", si->os);
    fprintf(f, "compiler: %s\n", si->compiler);
    fprintf(f, "build:    %s%s%s\n", si->build_type, si->sanitized ? " +sanitizers" : "",
            si->build_type_ok && !si->sanitized ? "" : "   *** NOT A RELEASE BUILD: numbers are not representative ***");
    for (size_t i = 0; i < run->ntargets; i++)
        fprintf(f, "target:   %-12s %s%s\n", run->targets[i].name, run->targets[i].description,
                run->targets[i].for_scaling ? " (added by --threads for the scaling table)" : "");
    /* What a baseline skips: selected operations without a Java counterpart
     * here or that its provider lacks (jvm), or without a raw
     * implementation (raw-boringssl has no asymmetric ones, raw-openssl no
     * AES-GCM-SIV). */
    for (size_t i = 0; i < run->ntargets; i++) {
        const bench_target *t = &run->targets[i];
        if (!t->is_jvm && !t->is_raw) continue;
        size_t n = 0;
        for (size_t o = 0; o < bench_op_count; o++) n += run->op_selected[o] && !t->supports[o];
        if (!n) continue;
        fprintf(f, "skipped:  %s has no %s for %zu operation%s:", t->name,
                t->is_jvm ? "Java counterpart or provider" : "raw implementation", n,
                n == 1 ? "" : "s");
        for (size_t o = 0; o < bench_op_count; o++)
            if (run->op_selected[o] && !t->supports[o]) fprintf(f, " %s", bench_ops[o].name);
        fprintf(f, "\n");
    }
    fprintf(f,
            "method:   warm-up >= %.0f ms and >= %u calls; %u samples (>= %u when scaled "
            "to %.0f ms per cell); samples >= %.0f us (batched); PBKDF2 %u iterations; %u "
            "thread%s\n",
            c->warmup_ms, c->warmup_calls, c->iterations,
            c->min_samples < c->iterations ? c->min_samples : c->iterations, c->max_cell_ms,
            c->sample_ns / 1e3, (unsigned)c->pbkdf2_iterations, c->threads,
            c->threads == 1 ? "" : "s");
    if (c->interleave)
        fprintf(f, "interleave: each operation and size's in-process targets sampled side by "
                   "side, one sample of each per round (warmed up and sized one by one)\n");
    if (c->threads > 1)
        fprintf(f, "threads:  %u threads share each key; per cell up to %u rounds, each one slice "
                   "of 1 thread and one of %u (order alternating), slices of %.0f ms or less to fit "
                   "%.0f ms; ops/s per slice = calls / wall time; 1-thr and N-thr ops/s = medians "
                   "over the rounds; scaling = median of the per-round ratios, IQR and min..max "
                   "its spread; oth.cpu = other processes' CPU use during the rounds (%% of one "
                   "CPU); not on jvm targets\n",
                c->threads, c->mt_rounds, c->threads, c->mt_slice_ms, c->max_cell_ms);
    for (size_t i = 0; i < run->ntargets; i++)
        if (run->targets[i].is_jvm) {
            fprintf(f, "jvm:      timed in Java (System.nanoTime around n JCA operations, one JNI "
                       "call per sample) after a Java warm-up of >= max(%u, 2000) calls and "
                       ">= %.0f ms; ovh/jvm = jca target / jvm target of the same provider\n",
                    c->warmup_calls, c->warmup_ms);
            break;
        }
    /* Which raw baseline each target's ovh/raw is against, grouped by base:
     * "boringssl over raw-boringssl; openssl, jca over raw-openssl". */
    bool any_base = false;
    for (size_t b = 0; b < run->ntargets; b++) {
        bool first = true;
        for (size_t i = 0; i < run->ntargets; i++) {
            if (run->targets[i].raw_base != b) continue;
            if (!any_base) fprintf(f, "ovh/raw:  median / the median of the raw baseline: ");
            fprintf(f, "%s%s", first ? (any_base ? "; " : "") : ", ", run->targets[i].name);
            first = false;
            any_base = true;
        }
        if (!first) fprintf(f, " over %s", run->targets[b].name);
    }
    if (any_base) fprintf(f, "\n");
    if (run->keys[0])
        fprintf(f, "keys:     asymmetric pairs generated once (by the backend named), imported as "
                   "pkcs8/spki on every target: %s\n",
                run->keys);
    fprintf(f, "times are per operation; ops/s = 1/median; MB/s = size/median, MB = 10^6 B\n");
    if (run->interrupted) fprintf(f, "*** INTERRUPTED: partial results ***\n");
    fprintf(f, "\n");
}

/* --threads: per (operation, size) the scaling of every target side by
 * side, ours beside the raw libraries': a raw library that scales where we
 * do not points at our layer; one that does not either points at the
 * library or the machine. */
static void print_scaling_table(const bench_run *run, FILE *f) {
    bool col[BENCH_MAX_TARGETS] = {false};
    size_t ncol = 0;
    for (size_t i = 0; i < run->nresults; i++)
        if (run->results[i].ok && run->results[i].threads > 1 && !col[run->results[i].target]) {
            col[run->results[i].target] = true;
            ncol++;
        }
    if (!ncol) return;
    fprintf(f, "scaling, %u threads against 1 (median of the per-round ratios [interquartile "
               "range]; raw-* are the libraries called directly):\n",
            run->cfg.threads);
    int ow = 20;
    for (size_t i = 0; i < run->nresults; i++)
        if ((int)strlen(bench_ops[run->results[i].op].name) > ow)
            ow = (int)strlen(bench_ops[run->results[i].op].name);
    fprintf(f, "%-*s %9s", ow, "operation", "size");
    for (size_t t = 0; t < run->ntargets; t++)
        if (col[t]) fprintf(f, " %20s", run->targets[t].name);
    fprintf(f, "\n");
    for (size_t o = 0; o < bench_op_count; o++) {
        size_t nsz = bench_ops[o].flags & BENCH_SIZED ? run->cfg.nsizes : 1;
        for (size_t k = 0; k < nsz; k++) {
            size_t size = bench_ops[o].flags & BENCH_SIZED ? run->cfg.sizes[k] : 0;
            bool any = false;
            for (size_t t = 0; t < run->ntargets && !any; t++) {
                const bench_result *r = bench_find(run, o, size, t);
                any = r && r->threads > 1;
            }
            if (!any) continue;
            char sz[24] = "-";
            if (size) bench_format_size((double)size, sz, sizeof sz);
            fprintf(f, "%-*s %9s", ow, bench_ops[o].name, sz);
            for (size_t t = 0; t < run->ntargets; t++) {
                if (!col[t]) continue;
                const bench_result *r = bench_find(run, o, size, t);
                char cell[48] = "-";
                if (r && r->threads > 1)
                    snprintf(cell, sizeof cell, "%.2fx [%.2f-%.2f]", r->mt.median, r->mt.p25,
                             r->mt.p75);
                fprintf(f, " %20s", cell);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "\n");
}

void bench_print_table(const bench_run *run, FILE *f) {
    char ref_col[72]; /* "vs " and a target name */
    snprintf(ref_col, sizeof ref_col, "vs %s", run->ref == SIZE_MAX ? "-" : run->targets[run->ref].name);
    bool mt = run->cfg.threads > 1;
    int bw = 12; /* the backend column fits the longest name */
    for (size_t i = 0; i < run->ntargets; i++)
        if ((int)strlen(run->targets[i].name) > bw) bw = (int)strlen(run->targets[i].name);
    int ow = 20; /* and the operation column the longest measured operation */
    for (size_t i = 0; i < run->nresults; i++)
        if ((int)strlen(bench_ops[run->results[i].op].name) > ow)
            ow = (int)strlen(bench_ops[run->results[i].op].name);
    bool jv = any_jvm_base(run);
    fprintf(f, "%-*s %9s %-*s %12s %10s %10s %10s %10s %10s %6s %9s %9s %11s %8s", ow,
            "operation", "size", bw, "backend", "samples", "min", "median", "mean", "p99", "max", "sd%", "ops/s",
            "MB/s", ref_col, "ovh/raw");
    if (jv) fprintf(f, " %8s", "ovh/jvm");
    if (mt)
        fprintf(f, " %11s %11s %7s %11s %11s %7s", "1-thr ops/s", "N-thr ops/s", "scaling", "IQR",
                "min..max", "oth.cpu");
    fprintf(f, "\n");
    size_t prev_op = SIZE_MAX;
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        const bench_op *op = &bench_ops[r->op];
        if (prev_op != SIZE_MAX && r->op != prev_op) fprintf(f, "\n");
        prev_op = r->op;
        char sz[24] = "-";
        if (r->size) bench_format_size((double)r->size, sz, sizeof sz);
        if (!r->ok) {
            fprintf(f, "%-*s %9s %-*s FAILED: %s\n", ow, op->name, sz, bw,
                    run->targets[r->target].name, r->error);
            continue;
        }
        char n[32], t[5][16], ops[16], mbs[16], sp[16] = "-", ov[16] = "-";
        snprintf(n, sizeof n, "%zux%zu", r->samples, r->batch);
        fmt_time(r->s.min, t[0], sizeof t[0]);
        fmt_time(r->s.median, t[1], sizeof t[1]);
        fmt_time(r->s.mean, t[2], sizeof t[2]);
        fmt_time(r->s.p99, t[3], sizeof t[3]);
        fmt_time(r->s.max, t[4], sizeof t[4]);
        fmt_rate(r->ops_per_s, ops, sizeof ops);
        if (r->size) snprintf(mbs, sizeof mbs, "%.1f", r->mb_per_s);
        else snprintf(mbs, sizeof mbs, "-");
        double s = speedup(run, r), o = overhead(run, r);
        if (isfinite(s)) snprintf(sp, sizeof sp, "%.2fx", s);
        if (isfinite(o)) snprintf(ov, sizeof ov, "%.3fx", o);
        fprintf(f, "%-*s %9s %-*s %12s %10s %10s %10s %10s %10s %6.1f %9s %9s %11s %8s", ow,
                op->name, sz, bw, run->targets[r->target].name, n, t[0], t[1], t[2], t[3], t[4],
                100 * r->s.stddev / r->s.mean, ops, mbs, sp, ov);
        if (jv) {
            char oj[16] = "-";
            double x = overhead_jvm(run, r);
            if (isfinite(x)) snprintf(oj, sizeof oj, "%.3fx", x);
            fprintf(f, " %8s", oj);
        }
        if (mt && r->threads > 1) {
            char o1[16], on[16], iqr[32], mm[32], oc[16] = "-";
            fmt_rate(r->mt.one_median, o1, sizeof o1);
            fmt_rate(r->mt.many_median, on, sizeof on);
            snprintf(iqr, sizeof iqr, "%.2f-%.2f", r->mt.p25, r->mt.p75);
            snprintf(mm, sizeof mm, "%.2f..%.2f", r->mt.min, r->mt.max);
            if (isfinite(r->mt_others_cpu)) snprintf(oc, sizeof oc, "%.0f%%", 100 * r->mt_others_cpu);
            fprintf(f, " %11s %11s %6.2fx %11s %11s %7s", o1, on, r->mt.median, iqr, mm, oc);
        } else if (mt) {
            fprintf(f, " %11s %11s %7s %11s %11s %7s", "-", "-", "-", "-", "-", "-");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
    if (mt) print_scaling_table(run, f);
}

/* ---- crossovers ---- */

/* Median latencies of targets ta and tb on op at the sizes both measured. */
void pair_collect(const bench_run *run, size_t op, size_t ta, size_t tb, pair_series *p) {
    p->n = 0;
    for (size_t k = 0; k < run->cfg.nsizes && p->n < MAX_POINTS; k++) {
        const bench_result *ra = bench_find(run, op, run->cfg.sizes[k], ta);
        const bench_result *rb = bench_find(run, op, run->cfg.sizes[k], tb);
        if (!ra || !rb) continue;
        p->x[p->n] = (double)run->cfg.sizes[k];
        p->a[p->n] = ra->s.median;
        p->b[p->n] = rb->s.median;
        p->n++;
    }
}

bool op_measured(const bench_run *run, size_t op) {
    for (size_t i = 0; i < run->nresults; i++)
        if (run->results[i].ok && run->results[i].op == op) return true;
    return false;
}

/* One sentence about how targets ta and tb compare on op. */
void pair_sentence(const bench_run *run, size_t op, size_t ta, size_t tb, char *buf,
                   size_t cap) {
    pair_series p;
    pair_collect(run, op, ta, tb, &p);
    const char *na = run->targets[ta].name, *nb = run->targets[tb].name;
    buf[0] = 0;
    if (p.n < 2) return;
    bench_crossover c[MAX_POINTS];
    size_t n = bench_crossovers(p.x, p.a, p.b, p.n, run->cfg.tie, c, MAX_POINTS);
    char lo[24], hi[24];
    bench_format_size(p.x[0], lo, sizeof lo);
    bench_format_size(p.x[p.n - 1], hi, sizeof hi);
    if (n == 0) {
        /* Ratio b/a over the sizes, and on how many sizes each side wins
         * by more than the tie tolerance. */
        double rmin = INFINITY, rmax = 0, band = 1 + run->cfg.tie;
        size_t a_wins = 0, b_wins = 0;
        for (size_t i = 0; i < p.n; i++) {
            double r = p.b[i] / p.a[i];
            if (r < rmin) rmin = r;
            if (r > rmax) rmax = r;
            if (r > band) a_wins++;
            if (r < 1 / band) b_wins++;
        }
        if (a_wins == 0 && b_wins == 0) {
            snprintf(buf, cap,
                     "%s and %s within %.0f%% of each other at every size, no crossover "
                     "(%s .. %s; %s/%s median ratio %.3fx .. %.3fx)",
                     na, nb, 100 * run->cfg.tie, lo, hi, nb, na, rmin, rmax);
            return;
        }
        bool a_faster = a_wins > 0;
        const char *f = a_faster ? na : nb, *s = a_faster ? nb : na;
        double smin = a_faster ? rmin : 1 / rmax, smax = a_faster ? rmax : 1 / rmin;
        snprintf(buf, cap,
                 "%s faster than %s, no crossover (by more than %.0f%% at %zu of %zu sizes; "
                 "%s .. %s; %s/%s median ratio %.3fx .. %.3fx)",
                 f, s, 100 * run->cfg.tie, a_faster ? a_wins : b_wins, p.n, lo, hi, s, f, smin,
                 smax);
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i < n && i < MAX_POINTS && used < cap; i++) {
        char at[24], from[24], to[24];
        bench_format_size(c[i].x, at, sizeof at);
        bench_format_size(p.x[c[i].index - 1], from, sizeof from);
        bench_format_size(p.x[c[i].index], to, sizeof to);
        int w = snprintf(buf + used, cap - used, "%s%s faster than %s from %s (between %s and %s)",
                         i ? "; " : "", c[i].a_lower_after ? na : nb,
                         c[i].a_lower_after ? nb : na, at, from, to);
        if (w < 0) break;
        used += (size_t)w;
    }
}

void bench_print_summary(const bench_run *run, FILE *f) {
    if (run->ntargets >= 2) {
        fprintf(f, "crossovers (median latency, interpolated on log size; differences up to "
                   "%.0f%% are ties):\n", 100 * run->cfg.tie);
        for (size_t o = 0; o < bench_op_count; o++) {
            if (!(bench_ops[o].flags & BENCH_SIZED) || !op_measured(run, o)) continue;
            for (size_t a = 0; a < run->ntargets; a++)
                for (size_t b = a + 1; b < run->ntargets; b++) {
                    char s[512];
                    pair_sentence(run, o, a, b, s, sizeof s);
                    if (s[0]) fprintf(f, "  %-26s %s\n", bench_ops[o].name, s);
                }
        }
        fprintf(f, "\n");
    }
    if (run->compared_checksums || run->cross_checks)
        fprintf(f,
                "outputs: %zu deterministic cells compared with another target's output%s; "
                "%zu checks of randomized outputs (RSA-PSS, ECDSA, RSA-OAEP) across targets, "
                "%zu failed\n\n",
                run->compared_checksums, run->compared_checksums ? " (a difference fails the run)" : "",
                run->cross_checks, run->cross_failures);
    if (run->interrupted) fprintf(f, "interrupted: %zu cells measured\n", run->nresults);
}

int close_checked(FILE *f, const char *path) {
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    return bad ? 1 : 0;
}

FILE *open_out(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "error: cannot create %s: %s\n", path, strerror(errno));
    return f;
}
