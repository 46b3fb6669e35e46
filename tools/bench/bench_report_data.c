/* webcrypto-bench's machine-readable outputs: --json and --csv. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

#include "bench_report.h"

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
    fprintf(f, ", \"interleave\": %s", c->interleave ? "true" : "false");
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
