/* webcrypto-bench's --markdown output. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "bench_report.h"

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

/* The base of a target's ratio column of kind k: ovh/raw, ovh/jvm, or
 * (openssl@3.5.7) the same target on this process's OpenSSL. */
enum { MD_RATIO_KINDS = 3 };
static size_t md_base(const bench_target *t, int k) {
    return k == 0 ? t->raw_base : k == 1 ? t->jvm_base : t->version_base;
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
    for (int k = 0; k < MD_RATIO_KINDS; k++)
        for (size_t t = 0; t < run->ntargets; t++) {
            size_t b = md_base(&run->targets[t], k);
            if (b == SIZE_MAX) continue;
            const bench_result *r = bench_find(run, o, size, t);
            const bench_result *base = r ? bench_find(run, o, size, b) : NULL;
            double x = base ? r->s.median / base->s.median : NAN;
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
    if (c->interleave)
        fprintf(f, "- interleaved: each operation and size's in-process targets sampled side "
                   "by side, one sample of each per round\n");
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
        for (int k = 0; k < MD_RATIO_KINDS; k++) any_ratio |= md_base(&run->targets[t], k) != SIZE_MAX;
    if (any_ratio) fprintf(f, "; `a / b` is a's median over b's, in the same run");
    fprintf(f, ":\n\n| operation | size |");
    for (size_t t = 0; t < run->ntargets; t++) fprintf(f, " %s |", run->targets[t].name);
    for (int k = 0; k < MD_RATIO_KINDS; k++)
        for (size_t t = 0; t < run->ntargets; t++) {
            size_t b = md_base(&run->targets[t], k);
            if (b != SIZE_MAX)
                fprintf(f, " %s / %s |", run->targets[t].name, run->targets[b].name);
        }
    fprintf(f, "\n|---|---|");
    for (size_t t = 0; t < run->ntargets; t++) fprintf(f, "---:|");
    for (int k = 0; k < MD_RATIO_KINDS; k++)
        for (size_t t = 0; t < run->ntargets; t++)
            if (md_base(&run->targets[t], k) != SIZE_MAX)
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
