/* Tests of webcrypto-bench's statistics (tools/bench/bench_stats.c) on
 * inputs whose answers are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "bench_stats.h"

#define EPS 1e-9

static void median_odd(void **state) {
    (void)state;
    const double v[] = {5, 1, 3};
    assert_true(fabs(bench_median(v, 3) - 3) < EPS);
    /* The input is left in its order. */
    assert_true(v[0] == 5 && v[1] == 1 && v[2] == 3);
}

static void median_even(void **state) {
    (void)state;
    const double v[] = {4, 1, 3, 2};
    assert_true(fabs(bench_median(v, 4) - 2.5) < EPS);
    const double one[] = {7};
    assert_true(fabs(bench_median(one, 1) - 7) < EPS);
}

static void percentiles(void **state) {
    (void)state;
    double v[100];
    for (int i = 0; i < 100; i++) v[i] = 100 - i; /* 100..1, unsorted */
    bench_sort(v, 100);
    assert_true(v[0] == 1 && v[99] == 100);
    /* h = 99 * 0.99 = 98.01: x[98] + 0.01 * (x[99] - x[98]) = 99 + 0.01 */
    assert_true(fabs(bench_percentile_sorted(v, 100, 99) - 99.01) < EPS);
    /* h = 99 * 0.5 = 49.5: between 50 and 51 */
    assert_true(fabs(bench_percentile_sorted(v, 100, 50) - 50.5) < EPS);
    /* h = 99 * 0.25 = 24.75: 25 + 0.75 */
    assert_true(fabs(bench_percentile_sorted(v, 100, 25) - 25.75) < EPS);
    assert_true(bench_percentile_sorted(v, 100, 0) == 1);
    assert_true(bench_percentile_sorted(v, 100, 100) == 100);
    assert_true(bench_percentile_sorted(v, 100, 150) == 100);
    assert_true(bench_percentile_sorted(v, 100, -3) == 1);
}

static void mean_stddev(void **state) {
    (void)state;
    /* mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample variance
     * 32/7, so the standard deviation is sqrt(32/7) = 2.1380899352993950 */
    const double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    assert_true(fabs(bench_mean(v, 8) - 5) < EPS);
    assert_true(fabs(bench_stddev(v, 8) - 2.1380899352993950) < EPS);
    assert_true(bench_stddev(v, 1) == 0);
    const double same[] = {3, 3, 3};
    assert_true(bench_stddev(same, 3) == 0);
}

static void summary(void **state) {
    (void)state;
    const double v[] = {10, 2, 8, 4, 6}; /* sorted: 2 4 6 8 10 */
    bench_summary s;
    assert_int_equal(bench_summarize(v, 5, &s), 0);
    assert_int_equal(s.n, 5);
    assert_true(s.min == 2 && s.max == 10);
    assert_true(fabs(s.median - 6) < EPS);
    assert_true(fabs(s.mean - 6) < EPS);
    /* h = 4 * 0.99 = 3.96: 8 + 0.96 * 2 = 9.92 */
    assert_true(fabs(s.p99 - 9.92) < EPS);
    /* squared deviations 16+4+0+4+16 = 40, / 4 = 10 */
    assert_true(fabs(s.stddev - sqrt(10)) < EPS);
    assert_int_equal(bench_summarize(v, 0, &s), -1);
}

/* a(x) = x against b(x) = 1000: ln a - ln b = ln x - ln 1000 is exactly
 * linear in ln x, so the interpolated crossover is 1000 even though no
 * point is measured there. a grows past b, so b is the lower one after. */
static void crossover_known(void **state) {
    (void)state;
    const double x[] = {10, 100, 10000, 100000};
    const double a[] = {10, 100, 10000, 100000};
    const double b[] = {1000, 1000, 1000, 1000};
    bench_crossover c[4];
    assert_int_equal(bench_crossovers(x, a, b, 4, 0, c, 4), 1);
    assert_true(fabs(c[0].x - 1000) < 1e-6);
    assert_int_equal(c[0].a_lower_after, 0);
    assert_int_equal(c[0].index, 2);
    /* Swapped series: same place, other side. */
    assert_int_equal(bench_crossovers(x, b, a, 4, 0, c, 4), 1);
    assert_true(fabs(c[0].x - 1000) < 1e-6);
    assert_int_equal(c[0].a_lower_after, 1);
}

/* Latencies a = 2x + 0 and b = x + 64 (b has a fixed cost): equal at x = 64,
 * which is also a measured point, a tie that must be stepped over; the
 * crossing is placed between 16 and 256 on the log-ratio line:
 * d(16) = ln(32/80), d(256) = ln(512/320); t = d16 / (d16 - d256). */
static void crossover_through_tie(void **state) {
    (void)state;
    const double x[] = {16, 64, 256};
    const double a[] = {32, 128, 512};
    const double b[] = {80, 128, 320};
    bench_crossover c[2];
    assert_int_equal(bench_crossovers(x, a, b, 3, 0, c, 2), 1);
    double d16 = log(32.0 / 80.0), d256 = log(512.0 / 320.0);
    double t = d16 / (d16 - d256);
    double want = exp(log(16) + t * (log(256) - log(16)));
    assert_true(fabs(c[0].x - want) < 1e-6);
    assert_true(c[0].x > 16 && c[0].x < 256);
    assert_int_equal(c[0].a_lower_after, 0); /* a (no fixed cost, 2x slope) is slower above */
}

static void no_crossover(void **state) {
    (void)state;
    const double x[] = {16, 1024, 65536};
    const double a[] = {2, 200, 20000};
    const double b[] = {1, 100, 10000};
    assert_int_equal(bench_crossovers(x, a, b, 3, 0, NULL, 0), 0);
    /* Identical series: all ties, no crossing. */
    assert_int_equal(bench_crossovers(x, a, a, 3, 0, NULL, 0), 0);
    /* Touching without crossing (tie in the middle, same side both ends). */
    const double c2[] = {1, 200, 10000};
    assert_int_equal(bench_crossovers(x, a, c2, 3, 0, NULL, 0), 0);
}

static void two_crossovers_counted_beyond_max(void **state) {
    (void)state;
    const double x[] = {1, 10, 100, 1000};
    const double a[] = {1, 3, 1, 3};
    const double b[] = {2, 2, 2, 2};
    bench_crossover c[1];
    assert_int_equal(bench_crossovers(x, a, b, 4, 0, c, 1), 3);
    assert_int_equal(c[0].a_lower_after, 0);
    assert_true(c[0].x > 1 && c[0].x < 10);
}

/* With a tolerance, differences within it are ties: a series wobbling
 * 1% around the other has no crossover at tol = 3%, and a real crossing
 * from -10% to +10% is still found, interpolated between the points outside
 * the band (here 100 and 10000, the tie at 1000 stepped over). */
static void crossover_tolerance(void **state) {
    (void)state;
    const double x[] = {10, 100, 1000, 10000};
    const double wobble[] = {101, 99, 101, 99};
    const double flat[] = {100, 100, 100, 100};
    bench_crossover c[4];
    assert_int_equal(bench_crossovers(x, wobble, flat, 4, 0, c, 4), 3);
    assert_int_equal(bench_crossovers(x, wobble, flat, 4, 0.03, c, 4), 0);
    const double a[] = {90, 90, 101, 110};
    assert_int_equal(bench_crossovers(x, a, flat, 4, 0.03, c, 4), 1);
    double d0 = log(0.9), d1 = log(1.1);
    double want = exp(log(100) + d0 / (d0 - d1) * (log(10000) - log(100)));
    assert_true(fabs(c[0].x - want) < 1e-6);
    assert_int_equal(c[0].index, 3);
    assert_int_equal(c[0].a_lower_after, 0);
}

/* Five rounds of one thread (ops/s) and two threads: the ratios are 1.8,
 * 2.0, 1.5, 1.95, 1.9 -> sorted 1.5 1.8 1.9 1.95 2.0: median 1.9, p25 at
 * h = 1 (1.8), p75 at h = 3 (1.95). The disturbed third round (one thread
 * fast, two slow) moves one ratio only; the ratio of the two medians
 * (180 / 100) would say 1.8. */
static void scaling_median_of_ratios(void **state) {
    (void)state;
    const double one[] = {100, 100, 120, 100, 90};
    const double many[] = {180, 200, 180, 195, 171};
    bench_scaling s;
    assert_int_equal(bench_scaling_summarize(one, many, 5, &s), 0);
    assert_int_equal(s.rounds, 5);
    assert_true(fabs(s.median - 1.9) < EPS);
    assert_true(fabs(s.p25 - 1.8) < EPS);
    assert_true(fabs(s.p75 - 1.95) < EPS);
    assert_true(fabs(s.min - 1.5) < EPS);
    assert_true(fabs(s.max - 2.0) < EPS);
    /* Throughputs: medians and ranges of each side on its own. */
    assert_true(fabs(s.one_median - 100) < EPS);
    assert_true(s.one_min == 90 && s.one_max == 120);
    assert_true(fabs(s.many_median - 180) < EPS);
    assert_true(s.many_min == 171 && s.many_max == 200);
    /* Inputs untouched. */
    assert_true(one[2] == 120 && many[4] == 171);
}

/* Four rounds, one unusable (zero: the slice got no call done): the other
 * three give ratios 2, 1, 3 -> median 2, p25 at h = 0.5 (1.5), p75 2.5. */
static void scaling_skips_bad_rounds(void **state) {
    (void)state;
    const double one[] = {10, 0, 10, 10};
    const double many[] = {20, 20, 10, 30};
    bench_scaling s;
    assert_int_equal(bench_scaling_summarize(one, many, 4, &s), 0);
    assert_int_equal(s.rounds, 3);
    assert_true(fabs(s.median - 2) < EPS);
    assert_true(fabs(s.p25 - 1.5) < EPS);
    assert_true(fabs(s.p75 - 2.5) < EPS);
    assert_true(s.min == 1 && s.max == 3);
    const double zero[] = {0, 0};
    assert_int_equal(bench_scaling_summarize(zero, zero, 2, &s), -1);
    assert_int_equal(bench_scaling_summarize(one, many, 0, &s), -1);
}

/* Two /proc/stat texts 2 s apart on a 2-CPU machine at 100 ticks/s:
 * user +150, nice +10, system +30, idle +180, iowait +10, irq +2,
 * softirq +3, steal +5 -> busy +200 ticks = 2.0 s of CPU. This process used
 * 1.2 s, so others used 0.8 s over 2 s: 0.4 CPU. */
static void others_cpu_from_proc_stat(void **state) {
    (void)state;
    const char *t0 = "cpu  1000 20 300 5000 40 6 7 8 0 0\n"
                     "cpu0 500 10 150 2500 20 3 4 4 0 0\n"
                     "intr 12345\n";
    const char *t1 = "cpu  1150 30 330 5180 50 8 10 13 0 0\n"
                     "cpu0 575 15 165 2590 25 4 5 6 0 0\n";
    bench_cpu_times a, b;
    assert_int_equal(bench_parse_proc_stat(t0, &a), 0);
    assert_int_equal(bench_parse_proc_stat(t1, &b), 0);
    /* busy = 1000+20+300+6+7+8 = 1341; total = 1341 + 5000 + 40 = 6381 */
    assert_true(a.busy == 1341 && a.total == 6381);
    assert_true(b.busy - a.busy == 200 && b.total - a.total == 390);
    assert_true(fabs(bench_others_cpu(&a, &b, 100, 1.2, 2.0) - 0.4) < EPS);
    /* This process alone (2.0 s of its own): nobody else; the rounding of
     * ticks making self exceed busy is clamped to 0. */
    assert_true(bench_others_cpu(&a, &b, 100, 2.0, 2.0) == 0);
    assert_true(bench_others_cpu(&a, &b, 100, 2.05, 2.0) == 0);
    /* Nonsense intervals. */
    assert_true(isnan(bench_others_cpu(&b, &a, 100, 0, 2.0)));
    assert_true(isnan(bench_others_cpu(&a, &b, 100, 0, 0)));
    assert_true(isnan(bench_others_cpu(&a, &b, 0, 0, 2.0)));
}

/* The aggregate line found after other lines; old kernels with 4 columns;
 * texts without it. */
static void proc_stat_variants(void **state) {
    (void)state;
    bench_cpu_times c;
    assert_int_equal(bench_parse_proc_stat("intr 1\ncpu  1 2 3 4\n", &c), 0);
    assert_true(c.busy == 6 && c.total == 10);
    assert_int_equal(bench_parse_proc_stat("cpu0 1 2 3 4\n", &c), -1);
    assert_int_equal(bench_parse_proc_stat("cpu  1 2 3\n", &c), -1);
    assert_int_equal(bench_parse_proc_stat("", &c), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_odd),
        cmocka_unit_test(median_even),
        cmocka_unit_test(percentiles),
        cmocka_unit_test(mean_stddev),
        cmocka_unit_test(summary),
        cmocka_unit_test(crossover_known),
        cmocka_unit_test(crossover_through_tie),
        cmocka_unit_test(no_crossover),
        cmocka_unit_test(two_crossovers_counted_beyond_max),
        cmocka_unit_test(crossover_tolerance),
        cmocka_unit_test(scaling_median_of_ratios),
        cmocka_unit_test(scaling_skips_bad_rounds),
        cmocka_unit_test(others_cpu_from_proc_stat),
        cmocka_unit_test(proc_stat_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
