/*
 * bench_stats.h - the statistics of webcrypto-bench, kept apart so that
 * tests/test_bench_stats.c can check them on known inputs.
 *
 * Percentiles use linear interpolation between closest ranks (Hyndman & Fan
 * type 7, the default of R, NumPy and spreadsheets): for p in [0, 100] over
 * n sorted values x[0..n-1], h = (n - 1) * p / 100 and the result is
 * x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)]). So the
 * median of {1,2,3,4} is 2.5 and p99 of 1..100 is 99.01.
 * The standard deviation is the sample one (divisor n - 1; 0 when n < 2).
 */
#ifndef WEBCRYPTO_BENCH_STATS_H
#define WEBCRYPTO_BENCH_STATS_H

#include <stddef.h>

typedef struct bench_summary {
    size_t n;
    double min, median, mean, p99, max, stddev;
} bench_summary;

/* Sorts v ascending in place. */
void bench_sort(double *v, size_t n);

/* Percentile p (0..100) of n >= 1 ascending values (type 7, see above).
 * p outside [0, 100] is clamped. */
double bench_percentile_sorted(const double *sorted, size_t n, double p);

/* Median of n >= 1 values, in any order; v is left untouched. */
double bench_median(const double *v, size_t n);

double bench_mean(const double *v, size_t n);

/* Sample standard deviation (n - 1 divisor); 0 for n < 2. */
double bench_stddev(const double *v, size_t n);

/* Fills *out from n >= 1 values (v untouched). Returns 0, or -1 if n == 0 or
 * memory is short. */
int bench_summarize(const double *v, size_t n, bench_summary *out);

/* A point where two series of positive values over the same ascending,
 * positive x (sizes) swap order. */
typedef struct bench_crossover {
    double x;          /* interpolated size where a == b */
    int a_lower_after; /* 1: a < b just above x (a is the faster latency); 0: b is */
    size_t index;      /* the crossing lies between x[index - 1] and x[index] */
} bench_crossover;

/*
 * Finds where series a and b cross. d(x) = ln a(x) - ln b(x) is taken to be
 * linear in ln x between measured points, and a crossover is where it
 * changes sign; its x is found by interpolating on that line. A point where
 * a and b differ by no more than the relative tolerance tol (|d| <=
 * ln(1 + tol); tol = 0: only exact equality) is a tie and is stepped over:
 * the crossing is then placed between the surrounding points that do
 * differ, so noise around a ratio of 1 makes no crossovers. Writes up to max
 * crossovers to out (which may be NULL when max == 0) and returns how many
 * there are. Points with a non-positive x, a or b are ignored.
 */
size_t bench_crossovers(const double *x, const double *a, const double *b, size_t n, double tol,
                        bench_crossover *out, size_t max);

#endif
