/* webcrypto-bench's --svg output: the charts. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "bench_report.h"

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
