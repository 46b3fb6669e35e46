/*
 * webcrypto-bench: what a build without a baseline has. The raw-openssl,
 * raw-boringssl and jvm baselines are built only when their library (and
 * for jvm, javac) is found (tools/bench/CMakeLists.txt); without one, these
 * stand in for its functions, and rawb_built says whether raw-boringssl is.
 */
#include <stdio.h>

#include "bench_internal.h"

#ifndef WEBCRYPTO_BENCH_RAW_OPENSSL
const bench_impl *bench_raw_impl(const bench_op *op, bench_raw_mode mode) {
    (void)op;
    (void)mode;
    return NULL;
}
const char *bench_raw_description(void) { return NULL; }
#endif

#ifdef WEBCRYPTO_BENCH_RAW_BORINGSSL
const bool rawb_built = true;
#else
/* Not built: the boringssl backend (and so its raw module) is not. */
const bool rawb_built = false;
const char *bench_rawb_description(char *why, size_t cap) {
    snprintf(why, cap, "this build has no raw-boringssl baseline (no boringssl backend)");
    return NULL;
}
const bench_impl *bench_rawb_impl(const bench_op *op) {
    (void)op;
    return NULL;
}
#endif

#ifndef WEBCRYPTO_BENCH_JVM
/* Not built: no jca backend, or no javac for the JcaBench jar. */
int bench_jvm_start(void) { return -1; }
const char *bench_jvm_error(void) {
    return "this build has no jvm baseline (no jca backend or no javac)";
}
int bench_jvm_has_provider(const char *provider, char *why, size_t cap) {
    (void)provider;
    snprintf(why, cap, "%s", bench_jvm_error());
    return -1;
}
void bench_jvm_describe(const char *provider, char *buf, size_t cap) {
    (void)provider;
    snprintf(buf, cap, "-");
}
void bench_jvm_set_warmup(double warmup_ms, unsigned warmup_calls, double max_ms) {
    (void)warmup_ms;
    (void)warmup_calls;
    (void)max_ms;
}
long bench_jvm_jit_ms(void) { return -1; }
bool bench_jvm_supports(const bench_op *op, const char *provider) {
    (void)op;
    (void)provider;
    return false;
}
const bench_impl *bench_jvm_impl(const bench_op *op) {
    (void)op;
    return NULL;
}
#endif
