/*
 * bench.h - webcrypto-bench, the benchmark harness (`webcrypto bench`).
 *
 * webcrypto_bench_main parses argv[1..argc-1] as the bench's options
 * (argv[0] is only the program name used in messages; pass "bench" from a
 * subcommand), runs the benchmark and prints the results on stdout, progress
 * and warnings on stderr. Returns 0 on success, 1 if an operation failed or
 * an output file could not be written, 2 on a usage error, 130 if SIGINT
 * stopped the run (what was measured until then is still printed and
 * written). `--help` lists the options.
 */
#ifndef WEBCRYPTO_BENCH_H
#define WEBCRYPTO_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

int webcrypto_bench_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
