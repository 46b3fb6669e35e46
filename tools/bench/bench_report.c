/* webcrypto-bench's outputs: the terminal table and summary, JSON, CSV,
 * Markdown and the SVG charts. Everything here reads the finished (or interrupted) run. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

#define MAX_POINTS 64

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

static void fmt_time(double ns, char *buf, size_t cap) {
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
static double speedup(const bench_run *run, const bench_result *r) {
    if (run->ref == SIZE_MAX) return NAN;
    const bench_result *ref = bench_find(run, r->op, r->size, run->ref);
    return ref ? ref->s.median / r->s.median : NAN;
}

/* This median / the median of the target's raw baseline (raw_base:
 * raw-boringssl for the boringssl backend when measured, else raw-openssl):
 * our cost over the library alone. */
static double overhead(const bench_run *run, const bench_result *r) {
    size_t b = run->targets[r->target].raw_base;
    if (b == SIZE_MAX) return NAN;
    const bench_result *raw = bench_find(run, r->op, r->size, b);
    return raw ? r->s.median / raw->s.median : NAN;
}

/* The name of the target's raw baseline, or NULL. */
static const char *overhead_base(const bench_run *run, size_t target) {
    size_t b = run->targets[target].raw_base;
    return b == SIZE_MAX ? NULL : run->targets[b].name;
}

/* This median / the jvm baseline's median, for a jca target whose jvm
 * counterpart (same provider) was measured: our cost over the JCA calls
 * made from Java. */
static double overhead_jvm(const bench_run *run, const bench_result *r) {
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
static bool is_baseline(const bench_target *t) { return t->is_raw || t->is_jvm; }

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
    char ref_col[40];
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

typedef struct pair_series {
    size_t n;
    double x[MAX_POINTS], a[MAX_POINTS], b[MAX_POINTS];
} pair_series;

/* Median latencies of targets ta and tb on op at the sizes both measured. */
static void pair_collect(const bench_run *run, size_t op, size_t ta, size_t tb, pair_series *p) {
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

static bool op_measured(const bench_run *run, size_t op) {
    for (size_t i = 0; i < run->nresults; i++)
        if (run->results[i].ok && run->results[i].op == op) return true;
    return false;
}

/* One sentence about how targets ta and tb compare on op. */
static void pair_sentence(const bench_run *run, size_t op, size_t ta, size_t tb, char *buf,
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

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v) {
    if (isfinite(v)) fprintf(f, "%.6g", v);
    else fputs("null", f);
}

static int close_checked(FILE *f, const char *path) {
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    return bad ? 1 : 0;
}

static FILE *open_out(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "error: cannot create %s: %s\n", path, strerror(errno));
    return f;
}

int bench_write_json(const bench_run *run, const char *path) {
    FILE *f = open_out(path);
    if (!f) return 1;
    const bench_sysinfo *si = &run->sys;
    const bench_config *c = &run->cfg;
    fprintf(f, "{\n  \"tool\": \"webcrypto-bench\",\n  \"version\": \"%s\",\n", WEBCRYPTO_VERSION);
    fprintf(f, "  \"date\": ");
    json_str(f, si->date);
    fprintf(f, ",\n  \"interrupted\": %s,\n  \"machine\": {\"cpu\": ", run->interrupted ? "true" : "false");
    json_str(f, si->cpu_model);
    fprintf(f, ", \"features\": ");
    json_str(f, si->cpu_features);
    fprintf(f, ", \"cores\": %ld, \"load_average\": ", si->cores);
    json_str(f, si->load);
    fprintf(f, ", \"load_average_end\": ");
    json_str(f, si->load_end);
    fprintf(f, ", \"others_cpu\": ");
    json_num(f, si->others_cpu);
    fprintf(f, ", \"run_s\": ");
    json_num(f, si->run_s);
    fprintf(f, ", \"os\": ");
    json_str(f, si->os);
    fprintf(f, ", \"compiler\": ");
    json_str(f, si->compiler);
    fprintf(f, ", \"build_type\": ");
    json_str(f, si->build_type);
    fprintf(f, ", \"sanitizers\": %s},\n", si->sanitized ? "true" : "false");
    fprintf(f, "  \"keys\": ");
    json_str(f, run->keys);
    fprintf(f, ",\n  \"output_checks\": {\"checksums_compared\": %zu, \"cross_checks\": %zu, "
               "\"cross_failures\": %zu},\n",
            run->compared_checksums, run->cross_checks, run->cross_failures);
    fprintf(f, "  \"config\": {\"iterations\": %u, \"min_samples\": %u, \"warmup_ms\": ",
            c->iterations, c->min_samples);
    json_num(f, c->warmup_ms);
    fprintf(f, ", \"warmup_calls\": %u, \"max_cell_ms\": ", c->warmup_calls);
    json_num(f, c->max_cell_ms);
    fprintf(f, ", \"sample_ns\": ");
    json_num(f, c->sample_ns);
    fprintf(f, ", \"tie\": ");
    json_num(f, c->tie);
    fprintf(f, ", \"threads\": %u, \"thread_rounds\": %u, \"thread_slice_ms\": ", c->threads,
            c->mt_rounds);
    json_num(f, c->mt_slice_ms);
    fprintf(f, ", \"pbkdf2_iterations\": %u, \"reference\": ", (unsigned)c->pbkdf2_iterations);
    json_str(f, c->reference);
    fprintf(f, ", \"sizes\": [");
    for (size_t i = 0; i < c->nsizes; i++) fprintf(f, "%s%zu", i ? ", " : "", c->sizes[i]);
    fprintf(f, "]},\n  \"backends\": [");
    for (size_t i = 0; i < run->ntargets; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, run->targets[i].name);
        fprintf(f, ", \"raw\": %s, \"jvm\": %s, \"description\": ",
                run->targets[i].is_raw ? "true" : "false",
                run->targets[i].is_jvm ? "true" : "false");
        json_str(f, run->targets[i].description);
        fprintf(f, ", \"ops\": [");
        bool first_op = true;
        for (size_t o = 0; o < bench_op_count; o++) {
            if (!run->targets[i].supports[o]) continue;
            fprintf(f, "%s", first_op ? "" : ", ");
            json_str(f, bench_ops[o].name);
            first_op = false;
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n  \"results\": [");
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        fprintf(f, "%s\n    {\"op\": ", i ? "," : "");
        json_str(f, bench_ops[r->op].name);
        fprintf(f, ", \"size\": %zu, \"backend\": ", r->size);
        json_str(f, run->targets[r->target].name);
        fprintf(f, ", \"ok\": %s", r->ok ? "true" : "false");
        if (!r->ok) {
            fprintf(f, ", \"error\": ");
            json_str(f, r->error);
            fprintf(f, "}");
            continue;
        }
        fprintf(f, ", \"samples\": %zu, \"batch\": %zu", r->samples, r->batch);
        const char *names[] = {"min_ns", "median_ns", "mean_ns", "p99_ns", "max_ns", "stddev_ns",
                               "ops_per_s", "mb_per_s", "speedup_vs_reference", "overhead_vs_raw",
                               "overhead_vs_jvm"};
        double vals[] = {r->s.min, r->s.median, r->s.mean, r->s.p99, r->s.max, r->s.stddev,
                         r->ops_per_s, r->size ? r->mb_per_s : NAN, speedup(run, r),
                         overhead(run, r), overhead_jvm(run, r)};
        for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
            fprintf(f, ", \"%s\": ", names[k]);
            json_num(f, vals[k]);
        }
        /* The target overhead_vs_raw is against (null: none). */
        const char *base = overhead_base(run, r->target);
        fprintf(f, ", \"overhead_base\": ");
        if (base) json_str(f, base);
        else fputs("null", f);
        if (r->has_checksum) fprintf(f, ", \"output_fnv1a\": \"%08x\"", (unsigned)r->checksum);
        if (r->threads > 1) {
            const bench_scaling *m = &r->mt;
            fprintf(f, ", \"threads\": {\"n\": %u, \"rounds\": %zu, \"slice_ms\": ",
                    r->threads, m->rounds);
            json_num(f, r->mt_slice_ms);
            const char *mn[] = {"ops_per_s", "ops_per_s_min", "ops_per_s_max", "one_ops_per_s",
                                "one_ops_per_s_min", "one_ops_per_s_max", "scaling",
                                "scaling_p25", "scaling_p75", "scaling_min", "scaling_max",
                                "median_ns", "others_cpu"};
            double mv[] = {m->many_median, m->many_min, m->many_max, m->one_median, m->one_min,
                           m->one_max, m->median, m->p25, m->p75, m->min, m->max,
                           r->mt_median_ns, r->mt_others_cpu};
            for (size_t k = 0; k < sizeof mv / sizeof mv[0]; k++) {
                fprintf(f, ", \"%s\": ", mn[k]);
                json_num(f, mv[k]);
            }
            fprintf(f, "}");
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"crossovers\": [");
    bool first = true;
    for (size_t o = 0; o < bench_op_count; o++) {
        if (!(bench_ops[o].flags & BENCH_SIZED)) continue;
        for (size_t a = 0; a < run->ntargets; a++)
            for (size_t b = a + 1; b < run->ntargets; b++) {
                pair_series p;
                pair_collect(run, o, a, b, &p);
                if (p.n < 2) continue;
                bench_crossover cr[MAX_POINTS];
                size_t n = bench_crossovers(p.x, p.a, p.b, p.n, run->cfg.tie, cr, MAX_POINTS);
                fprintf(f, "%s\n    {\"op\": ", first ? "" : ",");
                first = false;
                json_str(f, bench_ops[o].name);
                fprintf(f, ", \"a\": ");
                json_str(f, run->targets[a].name);
                fprintf(f, ", \"b\": ");
                json_str(f, run->targets[b].name);
                fprintf(f, ", \"at\": [");
                for (size_t k = 0; k < n && k < MAX_POINTS; k++) {
                    fprintf(f, "%s{\"size\": ", k ? ", " : "");
                    json_num(f, cr[k].x);
                    fprintf(f, ", \"faster_above\": ");
                    json_str(f, run->targets[cr[k].a_lower_after ? a : b].name);
                    fprintf(f, "}");
                }
                char s[512];
                pair_sentence(run, o, a, b, s, sizeof s);
                fprintf(f, "], \"summary\": ");
                json_str(f, s);
                fprintf(f, "}");
            }
    }
    fprintf(f, "\n  ]\n}\n");
    return close_checked(f, path);
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double v) {
    if (isfinite(v)) fprintf(f, ",%.6g", v);
    else fputs(",", f);
}

int bench_write_csv(const bench_run *run, const char *path) {
    FILE *f = open_out(path);
    if (!f) return 1;
    fprintf(f, "op,size,backend,ok,samples,batch,min_ns,median_ns,mean_ns,p99_ns,max_ns,"
               "stddev_ns,ops_per_s,mb_per_s,speedup_vs_reference,overhead_vs_raw,threads,"
               "mt_ops_per_s,mt_scaling,mt_median_ns,output_fnv1a,overhead_vs_jvm,overhead_base,"
               "mt_one_ops_per_s,mt_scaling_p25,mt_scaling_p75,mt_scaling_min,mt_scaling_max,"
               "mt_rounds,mt_others_cpu\n");
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        fprintf(f, "%s,%zu,%s,%d,%zu,%zu", bench_ops[r->op].name, r->size,
                run->targets[r->target].name, r->ok ? 1 : 0, r->samples, r->batch);
        double vals[] = {r->s.min, r->s.median, r->s.mean, r->s.p99, r->s.max, r->s.stddev,
                         r->ops_per_s, r->size ? r->mb_per_s : NAN, speedup(run, r),
                         overhead(run, r)};
        for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) csv_num(f, r->ok ? vals[k] : NAN);
        fprintf(f, ",%u", r->threads ? r->threads : 1);
        bool mt = r->ok && r->threads > 1;
        csv_num(f, mt ? r->mt.many_median : NAN);
        csv_num(f, mt ? r->mt.median : NAN);
        csv_num(f, r->threads > 1 ? r->mt_median_ns : NAN);
        if (r->has_checksum) fprintf(f, ",%08x", (unsigned)r->checksum);
        else fprintf(f, ",");
        /* Last: added after the others, so that their positions stay. */
        csv_num(f, r->ok ? overhead_jvm(run, r) : NAN);
        const char *base = r->ok ? overhead_base(run, r->target) : NULL;
        fprintf(f, ",%s", base ? base : "");
        /* --threads' spread: after the others too. */
        double mv[] = {r->mt.one_median, r->mt.p25, r->mt.p75, r->mt.min, r->mt.max};
        for (size_t k = 0; k < sizeof mv / sizeof mv[0]; k++) csv_num(f, mt ? mv[k] : NAN);
        if (mt) fprintf(f, ",%zu", r->mt.rounds);
        else fprintf(f, ",");
        csv_num(f, mt ? r->mt_others_cpu : NAN);
        fprintf(f, "\n");
    }
    return close_checked(f, path);
}

/* ---- Markdown ----
 * A summary to paste into a document (docs/BENCHMARKS.md's result tables):
 * the command line, the date, the machine and its load during the run, then
 * one table of medians per (operation, size) with one column per target and
 * the ratios to the baselines, and with --threads one table of scalings.
 * Times are rounded as in the terminal table, with "µs". */

static void md_time(double ns, char *buf, size_t cap) {
    if (!isfinite(ns)) snprintf(buf, cap, "-");
    else if (ns < 1e3) snprintf(buf, cap, "%.1f ns", ns);
    else if (ns < 1e6) snprintf(buf, cap, "%.2f \xc2\xb5s", ns / 1e3);
    else if (ns < 1e9) snprintf(buf, cap, "%.2f ms", ns / 1e6);
    else snprintf(buf, cap, "%.2f s", ns / 1e9);
}

/* Text in a table cell or a list item: '|' would end the cell. */
static void md_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
}

/* One shell word: as is when it has only characters no shell reads
 * specially, else in single quotes (a ' inside as '\''). */
static void md_shell_word(FILE *f, const char *w) {
    bool plain = *w != 0;
    for (const char *p = w; *p && plain; p++)
        plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                       "_-+=/.,:@%", *p) != NULL;
    if (plain) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (; *w; w++) {
        if (*w == '\'') fputs("'\\''", f);
        else fputc(*w, f);
    }
    fputc('\'', f);
}

/* Any result of the cell, failed ones included (bench_find: ok only). */
static const bench_result *md_cell(const bench_run *run, size_t op, size_t size, size_t t) {
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        if (r->op == op && r->size == size && r->target == t) return r;
    }
    return NULL;
}

static bool md_row_measured(const bench_run *run, size_t op, size_t size, bool threads) {
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        if (r->op == op && r->size == size && (!threads || (r->ok && r->threads > 1)))
            return true;
    }
    return false;
}

/* The table's rows: every measured (operation, size) in the order of the
 * operation table and of --sizes. fn writes one row's cells. */
static void md_rows(const bench_run *run, FILE *f, bool threads,
                    void (*fn)(const bench_run *, FILE *, size_t, size_t)) {
    for (size_t o = 0; o < bench_op_count; o++) {
        bool sized = (bench_ops[o].flags & BENCH_SIZED) != 0;
        size_t nsz = sized ? run->cfg.nsizes : 1;
        for (size_t k = 0; k < nsz; k++) {
            size_t size = sized ? run->cfg.sizes[k] : 0;
            if (!md_row_measured(run, o, size, threads)) continue;
            char sz[24] = "-";
            if (size) bench_format_size((double)size, sz, sizeof sz);
            fprintf(f, "| %s | %s |", bench_ops[o].name, sz);
            fn(run, f, o, size);
            fprintf(f, "\n");
        }
    }
}

static void md_median_cells(const bench_run *run, FILE *f, size_t o, size_t size) {
    for (size_t t = 0; t < run->ntargets; t++) {
        const bench_result *r = md_cell(run, o, size, t);
        char m[24] = "-";
        if (r && !r->ok) snprintf(m, sizeof m, "FAILED");
        else if (r) md_time(r->s.median, m, sizeof m);
        fprintf(f, " %s |", m);
    }
    /* The ratios, in the order of the header's ratio columns. */
    for (int jvm = 0; jvm < 2; jvm++)
        for (size_t t = 0; t < run->ntargets; t++) {
            size_t b = jvm ? run->targets[t].jvm_base : run->targets[t].raw_base;
            if (b == SIZE_MAX) continue;
            const bench_result *r = bench_find(run, o, size, t);
            double x = !r ? NAN : jvm ? overhead_jvm(run, r) : overhead(run, r);
            if (isfinite(x)) fprintf(f, " %.3fx |", x);
            else fprintf(f, " - |");
        }
}

static void md_scaling_cells(const bench_run *run, FILE *f, size_t o, size_t size) {
    for (size_t t = 0; t < run->ntargets; t++) {
        const bench_result *r = bench_find(run, o, size, t);
        if (r && r->threads > 1) {
            fprintf(f, " %.2fx [%.2f-%.2f]", r->mt.median, r->mt.p25, r->mt.p75);
            if (isfinite(r->mt_others_cpu)) fprintf(f, ", %.0f%%", 100 * r->mt_others_cpu);
            fprintf(f, " |");
        } else {
            fprintf(f, " - |");
        }
    }
}

int bench_write_markdown(const bench_run *run, const char *path) {
    FILE *f = open_out(path);
    if (!f) return 1;
    const bench_sysinfo *si = &run->sys;
    const bench_config *c = &run->cfg;
    /* The program as the user named it: "webcrypto bench" from the CLI,
     * else the executable's base name (not the build directory). */
    const char *prog = c->argc > 0 && c->argv[0] ? c->argv[0] : "webcrypto-bench";
    if (strchr(prog, ' ') == NULL && strrchr(prog, '/')) prog = strrchr(prog, '/') + 1;
    fprintf(f, "```sh\n%s", prog);
    for (int i = 1; i < c->argc; i++) {
        fputc(' ', f);
        md_shell_word(f, c->argv[i]);
    }
    fprintf(f, "\n```\n\n");
    fprintf(f, "- date: %s; libwebcrypto %s; build %s%s%s\n", si->date, WEBCRYPTO_VERSION,
            si->build_type, si->sanitized ? " +sanitizers" : "",
            si->build_type_ok && !si->sanitized
                ? ""
                : " (**not a Release build: the numbers are not representative**)");
    fprintf(f, "- machine: ");
    md_text(f, si->cpu_model);
    fprintf(f, ", %ld cores online; ", si->cores);
    md_text(f, si->cpu_features);
    fprintf(f, "; ");
    md_text(f, si->os);
    fprintf(f, "; ");
    md_text(f, si->compiler);
    fprintf(f, "\n- load: load average %s (1/5/15 min) at the start, %s at the end", si->load,
            si->load_end);
    if (isfinite(si->others_cpu))
        fprintf(f, "; other processes used %.0f%% of one CPU on average (%.1f s of CPU in %.1f "
                   "s)%s\n",
                100 * si->others_cpu, si->others_cpu * si->run_s, si->run_s,
                si->others_cpu > BENCH_OTHERS_WARN ? ": **the machine was not quiet**" : "");
    else
        fprintf(f, "; other processes' CPU use unknown (no /proc/stat)\n");
    fprintf(f, "- method: warm-up >= %.0f ms and >= %u calls; %u samples (>= %u when scaled to "
               "%.0f ms per cell) of >= %.0f \xc2\xb5s; %u thread%s\n",
            c->warmup_ms, c->warmup_calls, c->iterations,
            c->min_samples < c->iterations ? c->min_samples : c->iterations, c->max_cell_ms,
            c->sample_ns / 1e3, c->threads, c->threads == 1 ? "" : "s");
    for (size_t i = 0; i < run->ntargets; i++) {
        fprintf(f, "- target `%s`: ", run->targets[i].name);
        md_text(f, run->targets[i].description);
        fprintf(f, "\n");
    }
    if (run->keys[0]) {
        fprintf(f, "- keys: ");
        md_text(f, run->keys);
        fprintf(f, "\n");
    }
    if (run->compared_checksums || run->cross_checks)
        fprintf(f, "- outputs: %zu deterministic cells compared with another target's output; "
                   "%zu checks of randomized outputs across targets, %zu failed\n",
                run->compared_checksums, run->cross_checks, run->cross_failures);
    if (run->interrupted)
        fprintf(f, "- **interrupted**: partial results, %zu cells measured\n", run->nresults);
    fprintf(f, "\nMedian time per operation (`-`: not measured)");
    bool any_ratio = false;
    for (size_t t = 0; t < run->ntargets; t++)
        any_ratio |= run->targets[t].raw_base != SIZE_MAX || run->targets[t].jvm_base != SIZE_MAX;
    if (any_ratio) fprintf(f, "; `a / b` is a's median over b's, in the same run");
    fprintf(f, ":\n\n| operation | size |");
    for (size_t t = 0; t < run->ntargets; t++) fprintf(f, " %s |", run->targets[t].name);
    for (int jvm = 0; jvm < 2; jvm++)
        for (size_t t = 0; t < run->ntargets; t++) {
            size_t b = jvm ? run->targets[t].jvm_base : run->targets[t].raw_base;
            if (b != SIZE_MAX)
                fprintf(f, " %s / %s |", run->targets[t].name, run->targets[b].name);
        }
    fprintf(f, "\n|---|---|");
    for (size_t t = 0; t < run->ntargets; t++) fprintf(f, "---:|");
    for (int jvm = 0; jvm < 2; jvm++)
        for (size_t t = 0; t < run->ntargets; t++)
            if ((jvm ? run->targets[t].jvm_base : run->targets[t].raw_base) != SIZE_MAX)
                fprintf(f, "---:|");
    fprintf(f, "\n");
    md_rows(run, f, false, md_median_cells);
    bool mt = false;
    for (size_t i = 0; i < run->nresults; i++) mt |= run->results[i].ok && run->results[i].threads > 1;
    if (mt) {
        fprintf(f, "\nScaling, %u threads against 1: the median of the per-round ratios "
                   "[interquartile range], and the CPU other processes used during the "
                   "rounds (%% of one CPU):\n\n| operation | size |",
                c->threads);
        for (size_t t = 0; t < run->ntargets; t++) fprintf(f, " %s |", run->targets[t].name);
        fprintf(f, "\n|---|---|");
        for (size_t t = 0; t < run->ntargets; t++) fprintf(f, "---:|");
        fprintf(f, "\n");
        md_rows(run, f, true, md_scaling_cells);
    }
    return close_checked(f, path);
}

/* ---- SVG ----
 * Per sized operation one row: median latency against size (log-log), and
 * the speedup against the reference (log size, linear ratio), crossovers
 * marked as dashed vertical lines in both. */

#define SVG_W 1100
#define PANEL_W 440
#define PANEL_H 230
#define ROW_H 320
#define TOP 110

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '&') fputs("&amp;", f);
        else if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

typedef struct axis {
    double x0, y0, w, h;    /* panel box, pixels */
    double lx_lo, lx_hi;    /* ln size range */
    double y_lo, y_hi;      /* value range (log10 for latency) */
    bool y_log;
} axis;

static double ax_x(const axis *a, double size) {
    return a->x0 + (log(size) - a->lx_lo) / (a->lx_hi - a->lx_lo) * a->w;
}

static double ax_y(const axis *a, double v) {
    double t = a->y_log ? log10(v) : v;
    return a->y0 + a->h - (t - a->y_lo) / (a->y_hi - a->y_lo) * a->h;
}

static void svg_axes(FILE *f, const axis *a, const char *title, const bench_run *run) {
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"box\"/>\n",
            a->x0, a->y0, a->w, a->h);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", a->x0, a->y0 - 8);
    xml_text(f, title);
    fprintf(f, "</text>\n");
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">input size "
               "(log)</text>\n", a->x0 + a->w / 2, a->y0 + a->h + 28);
    /* x ticks: powers of 4 in range, else the measured sizes */
    double lo = exp(a->lx_lo), hi = exp(a->lx_hi);
    int nt = 0;
    for (double s = 1; s <= hi * 1.0001; s *= 4)
        if (s >= lo * 0.9999) nt++;
    for (size_t k = 0; k < (nt >= 2 ? (size_t)64 : run->cfg.nsizes); k++) {
        double s;
        if (nt >= 2) {
            s = pow(4, (double)k);
            if (s > hi * 1.0001) break;
            if (s < lo * 0.9999) continue;
        } else {
            s = (double)run->cfg.sizes[k];
        }
        double x = ax_x(a, s);
        char lab[24];
        bench_format_size(s, lab, sizeof lab);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n", x,
                a->y0, x, a->y0 + a->h);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>\n",
                x, a->y0 + a->h + 14, lab);
    }
    /* y ticks */
    if (a->y_log) {
        for (double e = ceil(a->y_lo - 1e-9); e <= a->y_hi + 1e-9; e += 1) {
            double y = ax_y(a, pow(10, e));
            /* Decade labels: 1 ns, 10 ns, 100 ns, 1 us, ... */
            static const char *const unit[] = {"ns", "us", "ms", "s"};
            int ie = (int)e, u = ie < 0 ? 0 : ie / 3 > 3 ? 3 : ie / 3;
            char lab[24];
            snprintf(lab, sizeof lab, "%.0f %s", pow(10, e - 3 * u), unit[u]);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                    a->x0, y, a->x0 + a->w, y);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n",
                    a->x0 - 4, y + 4, lab);
        }
    } else {
        double span = a->y_hi - a->y_lo, step = pow(10, floor(log10(span)));
        if (span / step < 2.5) step /= 5;
        else if (span / step < 5) step /= 2;
        for (double v = ceil(a->y_lo / step) * step; v <= a->y_hi + 1e-12; v += step) {
            if (fabs(v) < step * 1e-6) v = 0; /* no "-0.0x" from the accumulated steps */
            double y = ax_y(a, v);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                    a->x0, y, a->x0 + a->w, y);
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%.*fx</text>\n",
                    a->x0 - 4, y + 4, step < 0.1 ? 2 : 1, v);
        }
        if (a->y_lo <= 1 && a->y_hi >= 1)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"one\"/>\n",
                    a->x0, ax_y(a, 1), a->x0 + a->w, ax_y(a, 1));
    }
}

static void svg_series(FILE *f, const axis *a, const double *x, const double *y, size_t n,
                       const char *color, bool dashed, const char *label) {
    if (n == 0) return;
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", color,
            dashed ? " stroke-dasharray=\"6 3\"" : "");
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%.1f,%.1f", i ? " " : "", ax_x(a, x[i]), ax_y(a, y[i]));
    fprintf(f, "\"><title>");
    xml_text(f, label);
    fprintf(f, "</title></polyline>\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", ax_x(a, x[i]),
                ax_y(a, y[i]), color);
}

/* The crossovers of one operation's row: drawn as numbered dashed verticals
 * on its panels, and listed (with the pairs that do not cross) in a table
 * under them, so that no label lies over the curves. By default only pairs
 * of backends: the baselines (raw-*, jvm) would add a line per backend and
 * baseline pair, and the backend against its own baseline is the ovh
 * columns' business. */
typedef struct svg_cross_line {
    int num;  /* 1, 2, ...: a vertical at size x; 0: a pair's sentence without one */
    double x;
    char text[400];
} svg_cross_line;

#define MAX_CROSS_LINES 48

static bool svg_pair_shown(const bench_run *run, size_t a, size_t b) {
    switch (run->cfg.svg_crossovers) {
    case BENCH_SVG_CROSS_ALL:
        return true;
    case BENCH_SVG_CROSS_NONE:
        return false;
    case BENCH_SVG_CROSS_BACKENDS:
        break;
    }
    return !is_baseline(&run->targets[a]) && !is_baseline(&run->targets[b]);
}

static size_t svg_cross_lines(const bench_run *run, size_t op, svg_cross_line *out, size_t max) {
    size_t n = 0;
    int num = 0;
    for (size_t ta = 0; ta < run->ntargets; ta++)
        for (size_t tb = ta + 1; tb < run->ntargets; tb++) {
            if (!svg_pair_shown(run, ta, tb)) continue;
            pair_series p;
            pair_collect(run, op, ta, tb, &p);
            if (p.n < 2) continue;
            bench_crossover c[MAX_POINTS];
            size_t nc = bench_crossovers(p.x, p.a, p.b, p.n, run->cfg.tie, c, MAX_POINTS);
            /* A pair that does not cross gets its sentence when it is two
             * backends; with --svg-crossovers all, the baselines' pairs add
             * their crossovers only, so that the table stays short. */
            if (nc == 0 && n < max && !is_baseline(&run->targets[ta]) &&
                !is_baseline(&run->targets[tb])) {
                out[n].num = 0;
                out[n].x = 0;
                pair_sentence(run, op, ta, tb, out[n].text, sizeof out[n].text);
                n++;
            }
            for (size_t k = 0; k < nc && k < MAX_POINTS && n < max; k++) {
                char at[24], from[24], to[24];
                bench_format_size(c[k].x, at, sizeof at);
                bench_format_size(p.x[c[k].index - 1], from, sizeof from);
                bench_format_size(p.x[c[k].index], to, sizeof to);
                bool a_after = c[k].a_lower_after;
                out[n].num = ++num;
                out[n].x = c[k].x;
                snprintf(out[n].text, sizeof out[n].text,
                         "%s faster than %s from %s (between the measured %s and %s)",
                         run->targets[a_after ? ta : tb].name,
                         run->targets[a_after ? tb : ta].name, at, from, to);
                n++;
            }
        }
    return n;
}

/* Under each row's panels: a heading and one line per entry. */
#define XTAB_GAP 50  /* from the panels' bottom to the heading */
#define XTAB_LINE 15

static double svg_row_height(const bench_run *run, size_t op) {
    double h = 20 + PANEL_H + 40;
    if (run->cfg.svg_crossovers == BENCH_SVG_CROSS_NONE) return h;
    svg_cross_line lines[MAX_CROSS_LINES];
    size_t n = svg_cross_lines(run, op, lines, MAX_CROSS_LINES);
    return 20 + PANEL_H + XTAB_GAP + (double)(n ? n : 1) * XTAB_LINE + 25;
}

static void svg_cross_marks(FILE *f, const axis *a, const svg_cross_line *lines, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!lines[i].num) continue;
        double x = ax_x(a, lines[i].x);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"cross\"/>\n", x,
                a->y0, x, a->y0 + a->h);
        /* Staggered, so that close crossovers keep legible numbers; left of
         * the line near the panel's right edge. */
        bool left = x + 20 > a->x0 + a->w;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"crossnum\"%s>%d</text>\n",
                left ? x - 3 : x + 3, a->y0 + 12 + 11 * ((lines[i].num - 1) % 3),
                left ? " text-anchor=\"end\"" : "", lines[i].num);
    }
}

static void svg_cross_table(FILE *f, const bench_run *run, double y, const svg_cross_line *lines,
                            size_t n) {
    bool all = run->cfg.svg_crossovers == BENCH_SVG_CROSS_ALL;
    fprintf(f, "<text x=\"75\" y=\"%.1f\" class=\"note\">Crossovers between %s (numbered "
               "verticals above; median latency interpolated on log size; differences up to "
               "%.0f%% are ties):</text>\n",
            y, all ? "every pair of targets" : "backends", 100 * run->cfg.tie);
    if (n == 0) {
        fprintf(f, "<text x=\"95\" y=\"%.1f\" class=\"crosslab\">no pair of backends measured "
                   "here%s</text>\n",
                y + XTAB_LINE, all ? "" : " (the raw-* and jvm baselines are left out: "
                                          "--svg-crossovers all adds them)");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        double ly = y + XTAB_LINE * (double)(i + 1);
        if (lines[i].num)
            fprintf(f, "<text x=\"95\" y=\"%.1f\" class=\"crossnum\">%d</text>\n", ly,
                    lines[i].num);
        else
            fprintf(f, "<text x=\"95\" y=\"%.1f\" class=\"crosslab\">-</text>\n", ly);
        fprintf(f, "<text x=\"115\" y=\"%.1f\" class=\"crosslab\">", ly);
        xml_text(f, lines[i].text);
        fprintf(f, "</text>\n");
    }
}

/* The one-size operations (asymmetric, key set-up, PBKDF2): per operation
 * one horizontal bar per target, the median on a common log scale. */
#define BAR_H 11
#define BAR_STEP 14
#define BAR_GAP 12
#define BAR_X0 250
#define BAR_X1 (SVG_W - 170)

static double unsized_height(const bench_run *run) {
    double h = 0;
    for (size_t o = 0; o < bench_op_count; o++) {
        if (bench_ops[o].flags & BENCH_SIZED) continue;
        size_t bars = 0;
        for (size_t t = 0; t < run->ntargets; t++) bars += bench_find(run, o, 0, t) != NULL;
        if (bars) h += (double)bars * BAR_STEP + BAR_GAP;
    }
    return h != 0.0 ? h + 70 : 0;
}

static void svg_unsized(FILE *f, const bench_run *run, double top) {
    double vmin = INFINITY, vmax = 0;
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *r = &run->results[i];
        if (!r->ok || (bench_ops[r->op].flags & BENCH_SIZED)) continue;
        if (r->s.median < vmin) vmin = r->s.median;
        if (r->s.median > vmax) vmax = r->s.median;
    }
    double lo = floor(log10(vmin)), hi = ceil(log10(vmax));
    if (hi <= lo) hi = lo + 1;
    double w = BAR_X1 - BAR_X0, axis_y = top + 40;
    fprintf(f, "<text x=\"20\" y=\"%.1f\" class=\"title\">One-size operations: median time "
               "per operation (log scale; shorter is faster)</text>\n", top + 16);
    double bottom = top + unsized_height(run) - 10;
    for (double e = lo; e <= hi + 1e-9; e += 1) {
        static const char *const unit[] = {"ns", "us", "ms", "s"};
        int ie = (int)e, u = ie < 0 ? 0 : ie / 3 > 3 ? 3 : ie / 3;
        double x = BAR_X0 + (e - lo) / (hi - lo) * w;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n", x,
                axis_y, x, bottom);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%.0f %s</text>\n",
                x, axis_y - 4, pow(10, e - 3 * u), unit[u]);
    }
    double y = axis_y + 8;
    for (size_t o = 0; o < bench_op_count; o++) {
        if (bench_ops[o].flags & BENCH_SIZED) continue;
        size_t bars = 0;
        for (size_t t = 0; t < run->ntargets; t++) bars += bench_find(run, o, 0, t) != NULL;
        if (!bars) continue;
        fprintf(f, "<text x=\"20\" y=\"%.1f\" class=\"note\">", y + BAR_H);
        xml_text(f, bench_ops[o].name);
        fprintf(f, "</text>\n");
        for (size_t t = 0; t < run->ntargets; t++) {
            const bench_result *r = bench_find(run, o, 0, t);
            if (!r) continue;
            double len = (log10(r->s.median) - lo) / (hi - lo) * w;
            if (len < 1) len = 1;
            char m[24];
            fmt_time(r->s.median, m, sizeof m);
            fprintf(f,
                    "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>"
                    "<title>",
                    BAR_X0, y, len, BAR_H, palette[t % 8],
                    is_baseline(&run->targets[t]) ? " fill-opacity=\"0.45\"" : "");
            xml_text(f, run->targets[t].name);
            fprintf(f, " %s: %s</title></rect>\n", bench_ops[o].name, m);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%s ", BAR_X0 + len + 4,
                    y + BAR_H - 1, m);
            xml_text(f, run->targets[t].name);
            fprintf(f, "</text>\n");
            y += BAR_STEP;
        }
        y += BAR_GAP;
    }
}

int bench_write_svg(const bench_run *run, const char *path) {
    size_t rows = 0;
    double rows_h = 0; /* rows differ in height: their crossover tables */
    for (size_t o = 0; o < bench_op_count; o++)
        if ((bench_ops[o].flags & BENCH_SIZED) && op_measured(run, o)) {
            rows++;
            rows_h += svg_row_height(run, o);
        }
    FILE *f = open_out(path);
    if (!f) return 1;
    double extra = unsized_height(run);
    double height = TOP + (rows ? rows_h : extra == 0.0 ? ROW_H : 0) + 20 + extra;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
            "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n"
            "<style>.box{fill:none;stroke:#444}.grid{stroke:#ddd}.one{stroke:#888;"
            "stroke-dasharray:2 2}.cross{stroke:#000;stroke-dasharray:4 4}"
            ".title{font-size:13px;font-weight:bold}.tick{font-size:10px;fill:#333}"
            ".crosslab{font-size:11px}.crossnum{font-size:11px;font-weight:bold}"
            ".note{font-size:11px;fill:#333}</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            SVG_W, height, SVG_W, height);
    const bench_sysinfo *si = &run->sys;
    fprintf(f, "<text x=\"20\" y=\"24\" class=\"title\">webcrypto-bench: median latency per "
               "operation and speedup vs %s%s</text>\n",
            run->ref == SIZE_MAX ? "(none)" : run->targets[run->ref].name,
            run->interrupted ? " (INTERRUPTED, partial)" : "");
    fprintf(f, "<text x=\"20\" y=\"42\" class=\"note\">");
    xml_text(f, si->cpu_model);
    fprintf(f, ", %ld cores; %s; ", si->cores, si->build_type);
    xml_text(f, si->compiler);
    fprintf(f, "; %s</text>\n", si->date);
    /* legend */
    for (size_t t = 0; t < run->ntargets; t++) {
        double x = 20 + 170 * (double)t;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"62\" x2=\"%.0f\" y2=\"62\" stroke=\"%s\" "
                "stroke-width=\"3\"%s/>\n",
                x, x + 24, palette[t % 8], is_baseline(&run->targets[t]) ? " stroke-dasharray=\"6 3\"" : "");
        fprintf(f, "<text x=\"%.0f\" y=\"66\" class=\"note\">", x + 30);
        xml_text(f, run->targets[t].name);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "<text x=\"20\" y=\"88\" class=\"note\">Left: median time per operation, log-log. "
               "Right: %s median / backend median (higher is faster). %s</text>\n",
            run->ref == SIZE_MAX ? "reference" : run->targets[run->ref].name,
            run->cfg.svg_crossovers == BENCH_SVG_CROSS_NONE
                ? "Crossovers: see the text output."
                : run->cfg.svg_crossovers == BENCH_SVG_CROSS_ALL
                      ? "Numbered dashed verticals: crossovers of any two targets, listed "
                        "under each row."
                      : "Numbered dashed verticals: crossovers between backends, listed under "
                        "each row.");
    double lx_lo = INFINITY, lx_hi = -INFINITY;
    for (size_t k = 0; k < run->cfg.nsizes; k++) {
        double l = log((double)run->cfg.sizes[k]);
        if (l < lx_lo) lx_lo = l;
        if (l > lx_hi) lx_hi = l;
    }
    if (!(lx_hi > lx_lo)) {
        lx_lo -= log(2);
        lx_hi += log(2);
    }
    double row_y = TOP;
    for (size_t o = 0; o < bench_op_count; o++) {
        if (!(bench_ops[o].flags & BENCH_SIZED) || !op_measured(run, o)) continue;
        double top = row_y + 20;
        row_y += svg_row_height(run, o);
        axis lat = {75, top, PANEL_W, PANEL_H, lx_lo, lx_hi, 0, 0, true};
        axis spd = {75 + PANEL_W + 120, top, PANEL_W, PANEL_H, lx_lo, lx_hi, 0, 0, false};
        double vmin = INFINITY, vmax = 0, smin = 1, smax = 1;
        for (size_t i = 0; i < run->nresults; i++) {
            const bench_result *r = &run->results[i];
            if (!r->ok || r->op != o) continue;
            if (r->s.median < vmin) vmin = r->s.median;
            if (r->s.median > vmax) vmax = r->s.median;
            double s = speedup(run, r);
            if (isfinite(s)) {
                if (s < smin) smin = s;
                if (s > smax) smax = s;
            }
        }
        lat.y_lo = floor(log10(vmin));
        lat.y_hi = ceil(log10(vmax));
        if (lat.y_hi <= lat.y_lo) lat.y_hi = lat.y_lo + 1;
        double pad = (smax - smin) * 0.1;
        if (pad < 0.02) pad = 0.02;
        spd.y_lo = smin - pad;
        spd.y_hi = smax + pad;
        char title[96];
        snprintf(title, sizeof title, "%s: median latency", bench_ops[o].name);
        svg_axes(f, &lat, title, run);
        snprintf(title, sizeof title, "%s: speedup vs %s", bench_ops[o].name,
                 run->ref == SIZE_MAX ? "(no reference)" : run->targets[run->ref].name);
        svg_axes(f, &spd, title, run);
        for (size_t t = 0; t < run->ntargets; t++) {
            double x[MAX_POINTS], y[MAX_POINTS], sp[MAX_POINTS];
            size_t n = 0, ns = 0;
            for (size_t k = 0; k < run->cfg.nsizes && n < MAX_POINTS; k++) {
                const bench_result *r = bench_find(run, o, run->cfg.sizes[k], t);
                if (!r) continue;
                x[n] = (double)r->size;
                y[n] = r->s.median;
                double s = speedup(run, r);
                n++;
                if (isfinite(s)) sp[ns++] = s;
            }
            char label[96];
            snprintf(label, sizeof label, "%s %s", run->targets[t].name, bench_ops[o].name);
            svg_series(f, &lat, x, y, n, palette[t % 8], is_baseline(&run->targets[t]), label);
            if (ns == n)
                svg_series(f, &spd, x, sp, ns, palette[t % 8], is_baseline(&run->targets[t]), label);
        }
        if (run->cfg.svg_crossovers != BENCH_SVG_CROSS_NONE) {
            svg_cross_line lines[MAX_CROSS_LINES];
            size_t nl = svg_cross_lines(run, o, lines, MAX_CROSS_LINES);
            svg_cross_marks(f, &lat, lines, nl);
            svg_cross_marks(f, &spd, lines, nl);
            svg_cross_table(f, run, top + PANEL_H + XTAB_GAP, lines, nl);
        }
    }
    if (rows == 0 && extra == 0.0)
        fprintf(f, "<text x=\"20\" y=\"%d\" class=\"note\">no operation measured</text>\n",
                TOP + 20);
    if (extra != 0.0) svg_unsized(f, run, row_y + 20);
    fprintf(f, "</svg>\n");
    return close_checked(f, path);
}
