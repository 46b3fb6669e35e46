/*
 * bench_report.h - what webcrypto-bench's outputs share (defined in
 * bench_report.c; used by bench_report_data.c, bench_report_markdown.c and
 * bench_report_svg.c, which call nothing in each other). Included by the
 * report files only: bench.c has a fmt_time of its own (the progress line).
 */
#ifndef WEBCRYPTO_BENCH_REPORT_H
#define WEBCRYPTO_BENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench_internal.h"

#define MAX_POINTS 64

/* "119.5 ns", "1.21 us", "-" when not finite. */
void fmt_time(double ns, char *buf, size_t cap);
/* Reference median / this median: > 1 means faster than the reference. */
double speedup(const bench_run *run, const bench_result *r);
/* This median / the median of the target's raw baseline (NAN: none). */
double overhead(const bench_run *run, const bench_result *r);
/* The name of the target's raw baseline, or NULL. */
const char *overhead_base(const bench_run *run, size_t target);
/* This median / the jvm baseline's median (jca targets; NAN: none). */
double overhead_jvm(const bench_run *run, const bench_result *r);
/* Baselines (raw-openssl, raw-boringssl, jvm) are drawn dashed in the charts. */
bool is_baseline(const bench_target *t);

/* ---- crossovers ---- */
typedef struct pair_series {
    size_t n;
    double x[MAX_POINTS], a[MAX_POINTS], b[MAX_POINTS];
} pair_series;

/* Median latencies of targets ta and tb on op at the sizes both measured. */
void pair_collect(const bench_run *run, size_t op, size_t ta, size_t tb, pair_series *p);
bool op_measured(const bench_run *run, size_t op);
/* One sentence about how targets ta and tb compare on op. */
void pair_sentence(const bench_run *run, size_t op, size_t ta, size_t tb, char *buf,
                   size_t cap);

/* Files: NULL / 1 after a message on stderr. */
FILE *open_out(const char *path);
int close_checked(FILE *f, const char *path);

#endif
