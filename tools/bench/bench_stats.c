/* Statistics for webcrypto-bench: see bench_stats.h for the definitions. */
#include "bench_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

void bench_sort(double *v, size_t n) {
    if (n > 1) qsort(v, n, sizeof *v, cmp_double);
}

double bench_percentile_sorted(const double *sorted, size_t n, double p) {
    if (n == 0) return NAN;
    if (!(p > 0)) return sorted[0]; /* also catches NaN */
    if (p >= 100) return sorted[n - 1];
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)h;
    if (lo + 1 >= n) return sorted[n - 1];
    double frac = h - (double)lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double bench_mean(const double *v, size_t n) {
    if (n == 0) return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s / (double)n;
}

double bench_stddev(const double *v, size_t n) {
    if (n < 2) return 0;
    double m = bench_mean(v, n), s = 0;
    /* Two passes: the sum of squared deviations does not cancel badly. */
    for (size_t i = 0; i < n; i++) s += (v[i] - m) * (v[i] - m);
    return sqrt(s / (double)(n - 1));
}

int bench_summarize(const double *v, size_t n, bench_summary *out) {
    if (n == 0) return -1;
    double *s = malloc(n * sizeof *s);
    if (!s) return -1;
    memcpy(s, v, n * sizeof *s);
    bench_sort(s, n);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = bench_percentile_sorted(s, n, 50);
    out->p99 = bench_percentile_sorted(s, n, 99);
    out->mean = bench_mean(s, n);
    out->stddev = bench_stddev(s, n);
    free(s);
    return 0;
}

double bench_median(const double *v, size_t n) {
    bench_summary s;
    return bench_summarize(v, n, &s) == 0 ? s.median : NAN;
}

size_t bench_crossovers(const double *x, const double *a, const double *b, size_t n, double tol,
                        bench_crossover *out, size_t max) {
    size_t found = 0;
    double band = tol > 0 ? log1p(tol) : 0;
    double prev_d = 0, prev_lx = 0;
    int have_prev = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0 && a[i] > 0 && b[i] > 0)) continue;
        double d = log(a[i]) - log(b[i]);
        double lx = log(x[i]);
        if (fabs(d) <= band) continue; /* a tie: no side to take */
        if (have_prev && (d < 0) != (prev_d < 0)) {
            /* d is linear in ln x between the two points: solve d = 0. */
            double t = prev_d / (prev_d - d);
            if (found < max && out) {
                out[found].x = exp(prev_lx + t * (lx - prev_lx));
                out[found].a_lower_after = d < 0;
                out[found].index = i;
            }
            found++;
        }
        prev_d = d;
        prev_lx = lx;
        have_prev = 1;
    }
    return found;
}
