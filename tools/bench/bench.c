/*
 * webcrypto-bench: the run. webcrypto_bench_main reads the options
 * (bench_options.c), measures every selected (operation, size, target)
 * cell (bench_measure.c), cross-checks the outputs, and prints and writes
 * the results (bench_report*.c). The method is described in
 * docs/BENCHMARKS.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_internal.h"

static const char usage_text[] =
    "usage: %s [options]\n"
    "Measures libwebcrypto operations x input sizes x backends, with OpenSSL called\n"
    "directly (raw-openssl), BoringSSL called directly (raw-boringssl, for the\n"
    "boringssl backend) and, for jca, the JCA called from Java (jvm) as the\n"
    "baselines. Results on stdout, progress on stderr.\n"
    "\n"
    "  --backend NAME[,NAME]  targets: backends, raw-openssl, raw-openssl-keyed,\n"
    "                         raw-openssl-reused, raw-openssl-provider (the provider's\n"
    "                         own functions, below EVP), raw-boringssl, openssl@VERSION /\n"
    "                         raw-openssl@VERSION (e.g. openssl@3.5: on that OpenSSL,\n"
    "                         see --openssl-dir), and jvm / jvm:PROVIDER: the jca\n"
    "                         backend's operations made by Java code in its JVM,\n"
    "                         timed in Java (default: every backend, raw-openssl,\n"
    "                         raw-boringssl when the boringssl backend is built and\n"
    "                         starts, jvm when jca is built, openssl@V and\n"
    "                         raw-openssl@V for each --openssl-dir V; raw-openssl-keyed,\n"
    "                         -reused and -provider only when named). ovh/raw:\n"
    "                         boringssl over raw-boringssl when measured, openssl@V\n"
    "                         over raw-openssl@V (a worker's), every other target\n"
    "                         over raw-openssl\n"
    "  --op PATTERN[,...]     operations by glob (fnmatch); a pattern without * ? [\n"
    "                         is a prefix: --op aes-gcm, --op '*-encrypt' (default: all)\n"
    "  --sizes LIST           input sizes, suffixes k/m/g (x1024) and optional b/ib:\n"
    "                         --sizes 64,4k,1m,16m (default 16,1k,10k,100k,1m)\n"
    "  --iterations N         measured samples per cell (default 100; scaled down so a\n"
    "                         cell measures for at most --max-time, never below 10)\n"
    "  --warmup SPEC[,SPEC]   warm-up per cell: Nms or Ns (time, a bare number is ms)\n"
    "                         and/or Nx (calls); both minimums hold (default 200ms,10x)\n"
    "  --max-time MS          measuring budget per cell (default 1000)\n"
    "  --sample-us US         minimum duration of one timed sample; fast operations\n"
    "                         are batched to reach it (default 50)\n"
    "  --threads N            also measure each cell on N threads sharing one key,\n"
    "                         against one thread, in alternating slices: ops/s of\n"
    "                         both and the scaling (median of per-round ratios);\n"
    "                         adds raw-boringssl, when built, for comparison\n"
    "  --thread-rounds N      rounds of (1 thread, N threads) slices (default 10)\n"
    "  --thread-slice MS      length of one slice (default 50; shortened to fit\n"
    "                         the rounds in --max-time)\n"
    "  --pbkdf2-iterations N  PBKDF2 iteration count (default 1000)\n"
    "  --tie PCT              crossovers ignore differences up to PCT %% (default 3)\n"
    "  --reference NAME       target the speedup column compares with (default openssl)\n"
    "  --json FILE  --csv FILE  --svg FILE   also write the results there\n"
    "  --markdown FILE        also write a Markdown summary there: the command,\n"
    "                         date, machine and load, and a table of the medians\n"
    "                         (and scalings) per operation and size, one column\n"
    "                         per target, with the ovh/raw and ovh/jvm ratios\n"
    "  --svg-crossovers WHICH the chart's crossover lines: backends (between\n"
    "                         backends only, the default), all (baselines too), none\n"
    "  --openssl-dir VERSION=DIR  openssl@VERSION and raw-openssl@VERSION run on\n"
    "                         DIR/lib/libcrypto.so.3, in a worker process (this\n"
    "                         program with LD_LIBRARY_PATH=DIR/lib); also from\n"
    "                         WEBCRYPTO_BENCH_OPENSSL_<VERSION, dots as _>=DIR. Without\n"
    "                         a DIR, this process's OpenSSL if it is VERSION. The\n"
    "                         target is named after the version loaded: openssl@3.5.7.\n"
    "                         openssl@VERSION+VAR=VALUE[+...]: its worker has\n"
    "                         WEBCRYPTO_VAR=VALUE in its environment (the backend's\n"
    "                         choices at init, docs/ENVIRONMENT.md), also without a DIR\n"
    "  --list                 list the operations and targets, then exit\n"
    "  --interleave           measure the targets of each operation and size side by\n"
    "                         side: each warmed up and sized alone, then one sample of\n"
    "                         each in turn, round by round, so that a machine whose\n"
    "                         speed changes for seconds at a time (a VM's host) slows\n"
    "                         them alike (openssl@VERSION targets, in worker\n"
    "                         processes, are still measured alone)\n"
    "  --quiet                no progress on stderr\n"
    "  --help                 this text\n"
    "Ctrl-C stops the run; what was measured is printed and written.\n";

static bench_result *new_result(bench_run *run) {
    if (run->nresults == run->cap) {
        size_t cap = run->cap ? run->cap * 2 : 64;
        bench_result *n = realloc(run->results, cap * sizeof *n);
        if (!n) return NULL;
        run->results = n;
        run->cap = cap;
    }
    bench_result *r = &run->results[run->nresults];
    memset(r, 0, sizeof *r);
    return r;
}

static void fmt_time(double ns, char *buf, size_t cap) {
    if (ns < 1e3) snprintf(buf, cap, "%.1f ns", ns);
    else if (ns < 1e6) snprintf(buf, cap, "%.2f us", ns / 1e3);
    else if (ns < 1e9) snprintf(buf, cap, "%.2f ms", ns / 1e6);
    else snprintf(buf, cap, "%.2f s", ns / 1e9);
}

/* Randomized outputs (RSA-PSS and ECDSA signatures, RSA-OAEP ciphertexts)
 * differ per call, so instead of comparing checksums every target checks
 * every target's kept output (its own included): verifies the signature,
 * decrypts the ciphertext to the message. One set-up per (cell, target). */
static void cross_verify(bench_run *run, const uint8_t *data) {
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *me = &run->results[i];
        const bench_op *op = &bench_ops[me->op];
        if (!me->ok || !(op->flags & BENCH_CROSS_VERIFY)) continue;
        const bench_target *t = &run->targets[me->target];
        const bench_impl *impl = impl_for(t, op); /* NULL: t's worker checks */
        if (impl && !impl->check) continue;
        bench_cell c;
        bench_cell_init(&c, op, t->backend, me->size, data, run->cfg.pbkdf2_iterations);
        bool ready = !impl || impl->setup(&c) == 0;
        for (size_t j = 0; j < run->nresults; j++) {
            const bench_result *other = &run->results[j];
            if (!other->ok || !other->has_output || other->op != me->op ||
                other->size != me->size)
                continue;
            run->cross_checks++;
            if (ready && (impl ? impl->check(&c, other->output, other->output_len)
                               : bench_worker_check(t, me->op, me->size, other->output,
                                                    other->output_len)) == 0)
                continue;
            run->cross_failures++;
            fprintf(stderr, "error: %s: the output of %s does not check on %s: %s\n", op->name,
                    run->targets[other->target].name, t->name, bench_last_error());
        }
        if (impl) impl->teardown(&c);
    }
}

/* --interleave: op at size on every in-process target that has it, side by
 * side, into side[ti] (measured[ti] set). */
static void interleave_cells(bench_run *run, const bench_op *op, size_t o, size_t size,
                             const uint8_t *data, bench_result *side, bool *measured) {
    const bench_target *t[BENCH_MAX_TARGETS];
    bench_cell c[BENCH_MAX_TARGETS];
    bench_result r[BENCH_MAX_TARGETS];
    size_t idx[BENCH_MAX_TARGETS], n = 0;
    for (size_t ti = 0; ti < run->ntargets; ti++) {
        const bench_target *x = &run->targets[ti];
        if (!x->supports[o] || x->worker) continue;
        t[n] = x;
        idx[n] = ti;
        memset(&r[n], 0, sizeof r[n]);
        r[n].op = o;
        r[n].size = size;
        r[n].target = ti;
        bench_cell_init(&c[n], op, x->backend, size, data, run->cfg.pbkdf2_iterations);
        if (x->is_jvm && x->jvm_provider[0]) c[n].jvm_provider = x->jvm_provider;
        n++;
    }
    if (n == 0) return;
    measure_cells_interleaved(run, t, op, c, r, n);
    for (size_t i = 0; i < n; i++) {
        side[idx[i]] = r[i];
        measured[idx[i]] = true;
    }
}

/* Returns 0, or 1 if a cell failed. */
static int run_all(bench_run *run) {
    const bench_config *cfg = &run->cfg;
    size_t max_size = BENCH_MSG_LEN; /* the asymmetric operations' message */
    for (size_t i = 0; i < cfg->nsizes; i++)
        if (cfg->sizes[i] > max_size) max_size = cfg->sizes[i];
    uint8_t *data = malloc(max_size);
    if (!data) {
        fprintf(stderr, "error: out of memory for %zu bytes of input\n", max_size);
        return 1;
    }
    /* Every size's input is a prefix of the same stream. */
    bench_stream(BENCH_DATA_SEED, data, max_size);
    size_t total = 0, done = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t o = 0; o < bench_op_count; o++) {
            if (!run->op_selected[o]) continue;
            const bench_op *op = &bench_ops[o];
            size_t nsz = op->flags & BENCH_SIZED ? cfg->nsizes : 1;
            for (size_t k = 0; k < nsz; k++) {
                size_t size = op->flags & BENCH_SIZED ? cfg->sizes[k] : 0;
                if (!bench_op_has_size(op, size)) continue;
                /* --interleave: the in-process targets' cells measured
                 * together first, their results taken below in order. */
                bench_result side[BENCH_MAX_TARGETS];
                bool measured[BENCH_MAX_TARGETS] = {false};
                if (pass == 1 && cfg->interleave && !stop_requested)
                    interleave_cells(run, op, o, size, data, side, measured);
                for (size_t ti = 0; ti < run->ntargets; ti++) {
                    const bench_target *t = &run->targets[ti];
                    if (!t->supports[o]) continue;
                    if (pass == 0) {
                        total++;
                        continue;
                    }
                    if (stop_requested) goto out;
                    done++;
                    char sz[32] = "-";
                    if (size) bench_format_size((double)size, sz, sizeof sz);
                    bool tty = isatty(STDERR_FILENO);
                    if (!cfg->quiet)
                        fprintf(stderr, "%s[%zu/%zu] %s %s %s ...", tty ? "\r\033[K" : "", done,
                                total, op->name, sz, t->name);
                    bench_result *r = new_result(run);
                    if (!r) {
                        fprintf(stderr, "error: out of memory\n");
                        goto out;
                    }
                    r->op = o;
                    r->size = size;
                    r->target = ti;
                    if (measured[ti]) {
                        *r = side[ti];
                    } else if (t->worker) {
                        bench_worker_measure(t, o, size, ti, r);
                    } else {
                        bench_cell c;
                        bench_cell_init(&c, op, t->backend, size, data, cfg->pbkdf2_iterations);
                        if (t->is_jvm && t->jvm_provider[0]) c.jvm_provider = t->jvm_provider;
                        measure_cell(run, t, op, &c, r);
                    }
                    if (stop_requested && !r->ok) {
                        if (!cfg->quiet) fprintf(stderr, " interrupted\n");
                        goto out;
                    }
                    run->nresults++;
                    if (!cfg->quiet) {
                        char m[32];
                        fmt_time(r->s.median, m, sizeof m);
                        fprintf(stderr, " %s%s", r->ok ? m : "FAILED", tty ? "" : "\n");
                    }
                    if (!r->ok)
                        fprintf(stderr, "%serror: %s %s on %s: %s\n", tty ? "\n" : "", op->name,
                                sz, t->name, r->error);
                }
            }
        }
    }
out:
    if (!cfg->quiet && isatty(STDERR_FILENO)) fprintf(stderr, "\r\033[K");
    cross_verify(run, data);
    free(data);
    if (stop_requested) run->interrupted = true;
    int failed = 0;
    for (size_t i = 0; i < run->nresults; i++) failed |= !run->results[i].ok;
    return failed;
}

/* Cross-checks outputs: every target must produce the same bytes for the
 * same deterministic operation and size (same key, IV, input). */
static int check_outputs(bench_run *run) {
    int bad = run->cross_failures ? 1 : 0;
    for (size_t i = 0; i < run->nresults; i++) {
        const bench_result *a = &run->results[i];
        if (!a->ok || !a->has_checksum) continue;
        bool compared = false;
        for (size_t j = 0; j < run->nresults; j++) {
            const bench_result *b = &run->results[j];
            if (j == i || !b->ok || !b->has_checksum || b->op != a->op || b->size != a->size)
                continue;
            compared = true;
            if (j > i && b->checksum != a->checksum) {
                fprintf(stderr, "error: %s at %zu bytes: %s and %s give different outputs\n",
                        bench_ops[a->op].name, a->size, run->targets[a->target].name,
                        run->targets[b->target].name);
                bad = 1;
            }
        }
        if (compared) run->compared_checksums++;
    }
    return bad;
}

int webcrypto_bench_main(int argc, char **argv) {
    const char *prog = argc > 0 && argv[0] ? argv[0] : "webcrypto-bench";
    /* openssl@VERSION's worker process (bench_worker.c), started by a run */
    if (argc == 4 && strcmp(argv[1], "--worker") == 0) return bench_worker_main(argv[2], argv[3]);
    bench_run *run = calloc(1, sizeof *run);
    if (!run) return 1;
    bench_config *cfg = &run->cfg;
    static const size_t default_sizes[] = {16, 1024, 10 * 1024, 100 * 1024, 1024 * 1024};
    memcpy(cfg->sizes, default_sizes, sizeof default_sizes);
    cfg->nsizes = sizeof default_sizes / sizeof default_sizes[0];
    cfg->iterations = 100;
    cfg->min_samples = 10;
    cfg->warmup_ms = 200;
    cfg->warmup_calls = 10;
    cfg->max_cell_ms = 1000;
    cfg->sample_ns = 50e3;
    cfg->threads = 1;
    cfg->mt_rounds = 10;
    cfg->mt_slice_ms = 50;
    cfg->tie = 0.03;
    cfg->pbkdf2_iterations = 1000;
    cfg->reference = "openssl";
    cfg->argc = argc;
    cfg->argv = argv;
    const char *backends = NULL, *ops = NULL;
    bool list = false;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char name[32];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
            a = name;
        }
        static const char *const flags[] = {"--help", "-h", "--list", "--quiet", "--interleave"};
        bool is_flag = false;
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            is_flag |= strcmp(a, flags[k]) == 0;
        if (is_flag) {
            if (val) {
                rc = usage_error(prog, "option %s takes no value", a);
                goto end;
            }
            if (strcmp(a, "--list") == 0) list = true;
            else if (strcmp(a, "--quiet") == 0) cfg->quiet = true;
            else if (strcmp(a, "--interleave") == 0) cfg->interleave = true;
            else {
                printf(usage_text, prog);
                goto end;
            }
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            rc = usage_error(prog, "unexpected argument %s", a);
            goto end;
        }
        if (!val) {
            if (i + 1 >= argc) {
                rc = usage_error(prog, "option %s needs a value", a);
                goto end;
            }
            val = argv[++i];
        }
        unsigned long long v;
        if (strcmp(a, "--backend") == 0) backends = val;
        else if (strcmp(a, "--op") == 0) ops = val;
        else if (strcmp(a, "--sizes") == 0) {
            if (parse_sizes(val, cfg)) {
                rc = usage_error(prog, "--sizes: bad size list %s (1 B to 1 GiB each)", val);
                goto end;
            }
        } else if (strcmp(a, "--iterations") == 0) {
            if (parse_uint(val, 100000000ull, &v) || v == 0) {
                rc = usage_error(prog, "--iterations: not a positive number: %s", val);
                goto end;
            }
            cfg->iterations = (unsigned)v;
        } else if (strcmp(a, "--warmup") == 0) {
            if (parse_warmup(val, cfg)) {
                rc = usage_error(prog, "--warmup: expected e.g. 200ms, 1s, 10x or 200ms,10x: %s",
                                 val);
                goto end;
            }
        } else if (strcmp(a, "--max-time") == 0) {
            if (parse_uint(val, 86400000ull, &v) || v == 0) {
                rc = usage_error(prog, "--max-time: not a positive number of ms: %s", val);
                goto end;
            }
            cfg->max_cell_ms = (double)v;
        } else if (strcmp(a, "--sample-us") == 0) {
            if (parse_uint(val, 10000000ull, &v)) {
                rc = usage_error(prog, "--sample-us: not a number: %s", val);
                goto end;
            }
            cfg->sample_ns = (double)v * 1e3;
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_uint(val, 1024, &v) || v == 0) {
                rc = usage_error(prog, "--threads: expected 1 to 1024: %s", val);
                goto end;
            }
            cfg->threads = (unsigned)v;
        } else if (strcmp(a, "--thread-rounds") == 0) {
            if (parse_uint(val, 100000, &v) || v < 3) {
                rc = usage_error(prog, "--thread-rounds: expected 3 to 100000: %s", val);
                goto end;
            }
            cfg->mt_rounds = (unsigned)v;
        } else if (strcmp(a, "--thread-slice") == 0) {
            if (parse_uint(val, 3600000, &v) || v == 0) {
                rc = usage_error(prog, "--thread-slice: not a positive number of ms: %s", val);
                goto end;
            }
            cfg->mt_slice_ms = (double)v;
        } else if (strcmp(a, "--svg-crossovers") == 0) {
            if (strcmp(val, "backends") == 0) cfg->svg_crossovers = BENCH_SVG_CROSS_BACKENDS;
            else if (strcmp(val, "all") == 0) cfg->svg_crossovers = BENCH_SVG_CROSS_ALL;
            else if (strcmp(val, "none") == 0) cfg->svg_crossovers = BENCH_SVG_CROSS_NONE;
            else {
                rc = usage_error(prog, "--svg-crossovers: expected backends, all or none: %s", val);
                goto end;
            }
        } else if (strcmp(a, "--pbkdf2-iterations") == 0) {
            if (parse_uint(val, UINT32_MAX, &v) || v == 0) {
                rc = usage_error(prog, "--pbkdf2-iterations: not a positive number: %s", val);
                goto end;
            }
            cfg->pbkdf2_iterations = (uint32_t)v;
        } else if (strcmp(a, "--tie") == 0) {
            if (parse_uint(val, 100, &v)) {
                rc = usage_error(prog, "--tie: expected a whole percentage 0 to 100: %s", val);
                goto end;
            }
            cfg->tie = (double)v / 100;
        } else if (strcmp(a, "--reference") == 0) cfg->reference = val;
        else if (strcmp(a, "--json") == 0) cfg->json_path = val;
        else if (strcmp(a, "--csv") == 0) cfg->csv_path = val;
        else if (strcmp(a, "--svg") == 0) cfg->svg_path = val;
        else if (strcmp(a, "--markdown") == 0) cfg->markdown_path = val;
        else if (strcmp(a, "--openssl-dir") == 0) {
            const char *e = strchr(val, '=');
            size_t vl = e ? (size_t)(e - val) : 0;
            if (!e || !vl || vl >= sizeof cfg->openssl_dirs[0].version || !e[1] ||
                strspn(val, "0123456789.") != vl) {
                rc = usage_error(prog, "--openssl-dir: expected VERSION=DIR (3.5=/opt/ssl): %s",
                                 val);
                goto end;
            }
            size_t k = 0;
            while (k < cfg->nopenssl_dirs && strncmp(cfg->openssl_dirs[k].version, val, vl) != 0)
                k++;
            if (k == sizeof cfg->openssl_dirs / sizeof cfg->openssl_dirs[0]) {
                rc = usage_error(prog, "--openssl-dir: too many versions");
                goto end;
            }
            memcpy(cfg->openssl_dirs[k].version, val, vl);
            cfg->openssl_dirs[k].version[vl] = 0;
            cfg->openssl_dirs[k].dir = e + 1; /* a later one for the same version wins */
            if (k == cfg->nopenssl_dirs) cfg->nopenssl_dirs++;
        }
        else {
            rc = usage_error(prog, "unknown option %s", a);
            goto end;
        }
    }
    if (list) {
        list_everything(cfg);
        goto end;
    }
    if (select_ops(ops ? ops : "*", run)) {
        rc = usage_error(prog, "--op: no operation matches %s", ops ? ops : "*");
        goto end;
    }
    if (select_targets(backends, run)) {
        rc = usage_error(prog, "--backend: no usable target in %s", backends ? backends : "(all)");
        goto end;
    }
    /* --threads: raw-boringssl's scaling beside ours tells the machine's
     * limit from ours (a second library's figures on the same machine). */
    if (cfg->threads > 1 && rawb_built) {
        bool have = false;
        for (size_t i = 0; i < run->ntargets; i++) have |= run->targets[i].raw_boringssl;
        size_t before = run->ntargets;
        if (!have && add_target(run, BENCH_RAWB_NAME, false) == 0 && run->ntargets > before) {
            run->targets[before].for_scaling = true;
            if (!cfg->quiet)
                fprintf(stderr, "note: %s added for the scaling table (--threads)\n",
                        BENCH_RAWB_NAME);
        }
    }
    bench_jvm_set_warmup(cfg->warmup_ms, cfg->warmup_calls, cfg->max_cell_ms);
    run->ref = run->raw = SIZE_MAX;
    for (size_t i = 0; i < run->ntargets; i++) {
        char jn[32];
        run->targets[i].jvm_base = SIZE_MAX;
        if (!run->targets[i].backend || !jvm_name_for(run->targets[i].name, jn, sizeof jn))
            continue;
        for (size_t k = 0; k < run->ntargets; k++)
            if (strcmp(run->targets[k].name, jn) == 0) run->targets[i].jvm_base = k;
    }
    for (size_t i = 0; i < run->ntargets; i++) {
        for (size_t o = 0; o < bench_op_count; o++)
            run->targets[i].supports[o] = target_supports(&run->targets[i], &bench_ops[o]);
        if (strcmp(run->targets[i].name, cfg->reference) == 0 ||
            strcmp(run->targets[i].requested, cfg->reference) == 0)
            run->ref = i;
        /* the default reference, openssl, is openssl@3.0 when that names
         * this process's openssl backend */
        else if (run->ref == SIZE_MAX && strcmp(cfg->reference, "openssl") == 0 &&
                 !run->targets[i].worker && strncmp(run->targets[i].requested, "openssl@", 8) == 0)
            run->ref = i;
        /* raw-openssl: this process's OpenSSL (raw-openssl@VERSION too, when
         * that is this process's) */
        if (run->targets[i].is_raw && run->targets[i].raw_mode == BENCH_RAW_PLAIN &&
            !run->targets[i].raw_boringssl && !run->targets[i].worker &&
            (run->raw == SIZE_MAX || !run->targets[i].requested[0]))
            run->raw = i;
    }
    /* The ovh/raw column's base per target: the boringssl backend over
     * raw-boringssl when that is measured, everything else over raw-openssl. */
    size_t rawb = SIZE_MAX;
    for (size_t i = 0; i < run->ntargets; i++)
        if (run->targets[i].raw_boringssl) rawb = i;
    for (size_t i = 0; i < run->ntargets; i++) {
        bench_target *t = &run->targets[i];
        bool bssl = t->backend && strcmp(t->name, BENCH_BORINGSSL_NAME) == 0;
        t->raw_base = bssl && rawb != SIZE_MAX ? rawb : run->raw;
        t->version_base = SIZE_MAX;
        if (t->worker) {
            /* the same target in this process: openssl, or openssl@3.0 */
            size_t bl = (size_t)(strchr(t->name, '@') - t->name);
            for (size_t k = 0; k < run->ntargets; k++) {
                const bench_target *o = &run->targets[k];
                if (!o->worker && strncmp(o->name, t->name, bl) == 0 &&
                    (o->name[bl] == 0 || o->name[bl] == '@') &&
                    (t->version_base == SIZE_MAX || o->requested[0]))
                    t->version_base = k;
            }
            /* openssl@3.5.7 over raw-openssl@3.5.7, never over another
             * OpenSSL's figures */
            t->raw_base = SIZE_MAX;
            const char *v = strchr(t->name, '@');
            size_t vl = strcspn(v, "+"); /* the version; +VAR=VALUE aside */
            for (size_t k = 0; k < run->ntargets; k++) {
                const char *kv = strchr(run->targets[k].name, '@');
                if (run->targets[k].worker && run->targets[k].is_raw && k != i &&
                    strcspn(kv, "+") == vl && strncmp(kv, v, vl) == 0 &&
                    (t->raw_base == SIZE_MAX || !kv[vl]))
                    t->raw_base = k;
            }
        }
        if (t->raw_base == i) t->raw_base = SIZE_MAX;
    }
    if (run->ref == SIZE_MAX && !cfg->quiet)
        fprintf(stderr, "note: reference %s is not measured; no speedup column\n",
                cfg->reference);
    bench_sysinfo_collect(&run->sys);
    if (!run->sys.build_type_ok || run->sys.sanitized)
        fprintf(stderr,
                "\n*** WARNING: build type %s%s - these numbers do not represent a Release "
                "build ***\n\n",
                run->sys.build_type, run->sys.sanitized ? " with sanitizers" : "");

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C ends the process at once */
    stop_requested = 0;
    /* An inherited "ignore SIGINT" (nohup, background jobs) is kept. */
    bool catch_int = sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN;
    if (catch_int) sigaction(SIGINT, &sa, NULL);
    if (cfg->threads > 1 && !cfg->quiet)
        fprintf(stderr, "load average %s (1/5/15 min) at start\n", run->sys.load);
    bench_cpu_mark m0, m1;
    bench_cpu_mark_take(&m0);
    int failed = run_all(run);
    bench_cpu_mark_take(&m1);
    if (catch_int) sigaction(SIGINT, &old, NULL);
    bench_read_load(run->sys.load_end, sizeof run->sys.load_end);
    run->sys.run_s = (m1.wall_ns - m0.wall_ns) / 1e9;
    run->sys.self_cpu_s = m1.self_s - m0.self_s;
    run->sys.others_cpu = bench_cpu_mark_others(&m0, &m1);
    if (cfg->threads > 1 && !cfg->quiet)
        fprintf(stderr, "load average %s (1/5/15 min) at end\n", run->sys.load_end);
    /* Other work on the machine shares the cores: figures, and above all
     * scaling, are then not this library's alone. */
    if (run->sys.others_cpu > BENCH_OTHERS_WARN)
        fprintf(stderr,
                "*** WARNING: other processes used %.0f%% of one CPU on average during the run "
                "(%.1f s of CPU in %.1f s; %ld cores): figures are disturbed%s ***\n",
                100 * run->sys.others_cpu, run->sys.others_cpu * run->sys.run_s, run->sys.run_s,
                run->sys.cores, cfg->threads > 1 ? ", scaling above all" : "");

    failed |= check_outputs(run);
    bench_keys_describe(run->keys, sizeof run->keys);
    bench_print_header(run, stdout);
    bench_print_table(run, stdout);
    bench_print_summary(run, stdout);
    if (cfg->json_path && bench_write_json(run, cfg->json_path)) failed = 1;
    if (cfg->csv_path && bench_write_csv(run, cfg->csv_path)) failed = 1;
    if (cfg->svg_path && bench_write_svg(run, cfg->svg_path)) failed = 1;
    if (cfg->markdown_path && bench_write_markdown(run, cfg->markdown_path)) failed = 1;
    if (fflush(stdout) != 0) {
        fprintf(stderr, "error: cannot write stdout: %s\n", strerror(errno));
        failed = 1;
    }
    rc = run->interrupted ? 130 : failed ? 1 : 0;
end:
    if (bench_workers_stop() && rc == 0) rc = 1;
    bench_keys_free();
    free(run->results);
    free(run);
    return rc;
}
