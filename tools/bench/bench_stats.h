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

/*
 * --threads: the throughput of one thread and of N threads, measured in
 * alternating time slices (round i: one slice of each). one[i] and many[i]
 * are round i's ops/s; the scaling is the median of the per-round ratios
 * many[i] / one[i], so that a slice disturbed by other work moves one ratio,
 * not the whole figure, and a slow drift of the machine's speed affects both
 * halves of a round alike. p25/p75 (type 7) and min/max are the spread of the
 * ratios. Rounds where either value is not positive are left out.
 */
typedef struct bench_scaling {
    size_t rounds;                          /* rounds used */
    double one_median, one_min, one_max;    /* ops/s of one thread */
    double many_median, many_min, many_max; /* aggregate ops/s of N threads */
    double median, p25, p75, min, max;      /* of the ratios many / one */
} bench_scaling;

/* Fills *out from n rounds. Returns 0, or -1 if no round is usable or
 * memory is short. */
int bench_scaling_summarize(const double *one, const double *many, size_t n,
                            bench_scaling *out);

/*
 * CPU time of the whole machine from /proc/stat's aggregate "cpu" line, in
 * clock ticks (sysconf(_SC_CLK_TCK) a second) summed over the CPUs. busy =
 * user + nice + system + irq + softirq + steal (steal: a hypervisor gave the
 * CPU to someone else; guest and guest_nice are already inside user and
 * nice); total = busy + idle + iowait.
 */
typedef struct bench_cpu_times {
    unsigned long long busy, total;
} bench_cpu_times;

/* Parses the "cpu " line of a /proc/stat text (kernels before 2.6.11 have
 * fewer columns: missing ones count 0; at least user, nice, system and idle
 * are needed). Returns 0, or -1 if there is no such line. */
int bench_parse_proc_stat(const char *text, bench_cpu_times *out);

/* The CPU that other processes used between snapshots a and b, on average,
 * in CPUs (1.0: one CPU busy all the time): the machine's busy time minus
 * self_cpu_s (this process's user + system time over the same interval),
 * over wall_s seconds. Tick rounding can make it slightly negative: clamped
 * to 0. NAN if wall_s <= 0, ticks_per_s <= 0 or b precedes a. */
double bench_others_cpu(const bench_cpu_times *a, const bench_cpu_times *b, double ticks_per_s,
                        double self_cpu_s, double wall_s);

#endif
