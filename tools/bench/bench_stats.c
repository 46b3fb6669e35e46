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

int bench_scaling_summarize(const double *one, const double *many, size_t n,
                            bench_scaling *out) {
    double *buf = malloc((n ? n : 1) * 3 * sizeof *buf);
    if (!buf) return -1;
    double *o = buf, *m = buf + n, *r = buf + 2 * n;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(one[i] > 0 && many[i] > 0)) continue;
        o[k] = one[i];
        m[k] = many[i];
        r[k] = many[i] / one[i];
        k++;
    }
    if (k == 0) {
        free(buf);
        return -1;
    }
    bench_sort(o, k);
    bench_sort(m, k);
    bench_sort(r, k);
    out->rounds = k;
    out->one_median = bench_percentile_sorted(o, k, 50);
    out->one_min = o[0];
    out->one_max = o[k - 1];
    out->many_median = bench_percentile_sorted(m, k, 50);
    out->many_min = m[0];
    out->many_max = m[k - 1];
    out->median = bench_percentile_sorted(r, k, 50);
    out->p25 = bench_percentile_sorted(r, k, 25);
    out->p75 = bench_percentile_sorted(r, k, 75);
    out->min = r[0];
    out->max = r[k - 1];
    free(buf);
    return 0;
}

int bench_parse_proc_stat(const char *text, bench_cpu_times *out) {
    /* The aggregate line starts the text ("cpu  " then the per-CPU
     * "cpu0 ..." lines); search for it anyway, at a line start. */
    const char *p = text;
    while (p && !(p[0] == 'c' && p[1] == 'p' && p[2] == 'u' && p[3] == ' ')) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return -1;
    p += 4;
    unsigned long long v[8] = {0};
    int got = 0;
    for (; got < 8; got++) {
        while (*p == ' ' || *p == '\t') p++;
        if (*p < '0' || *p > '9') break;
        char *end;
        v[got] = strtoull(p, &end, 10);
        p = end;
    }
    if (got < 4) return -1;
    /* user nice system idle iowait irq softirq steal */
    out->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    out->total = out->busy + v[3] + v[4];
    return 0;
}

double bench_others_cpu(const bench_cpu_times *a, const bench_cpu_times *b, double ticks_per_s,
                        double self_cpu_s, double wall_s) {
    if (!(wall_s > 0) || !(ticks_per_s > 0) || b->busy < a->busy || b->total < a->total)
        return NAN;
    double busy_s = (double)(b->busy - a->busy) / ticks_per_s;
    double others = (busy_s - self_cpu_s) / wall_s;
    return others > 0 ? others : 0;
}
