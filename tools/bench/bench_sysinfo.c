/* Machine facts printed with the results (nothing that names the host). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define BENCH_X86 1
#endif

#include "bench_internal.h"

#ifndef WEBCRYPTO_BENCH_BUILD_TYPE
#define WEBCRYPTO_BENCH_BUILD_TYPE ""
#endif

static void trim(char *s) {
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ') s[--n] = 0;
    size_t k = 0;
    while (s[k] == ' ') k++;
    memmove(s, s + k, strlen(s + k) + 1);
}

static void cpu_facts(bench_sysinfo *si) {
    snprintf(si->cpu_model, sizeof si->cpu_model, "unknown");
    snprintf(si->cpu_features, sizeof si->cpu_features, "unknown");
#ifdef BENCH_X86
    unsigned a, b, c, d, max_ext = __get_cpuid_max(0x80000000u, NULL);
    if (max_ext >= 0x80000004u) {
        unsigned regs[12];
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002u + i, regs[4 * i], regs[4 * i + 1], regs[4 * i + 2], regs[4 * i + 3]);
        char brand[49];
        memcpy(brand, regs, 48);
        brand[48] = 0;
        trim(brand);
        if (brand[0]) snprintf(si->cpu_model, sizeof si->cpu_model, "%s", brand);
    }
    bool aes = false, pclmul = false, avx2 = false, avx512f = false, sha = false, vaes = false;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        aes = c & (1u << 25);
        pclmul = c & (1u << 1);
    }
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        avx2 = b & (1u << 5);
        avx512f = b & (1u << 16);
        sha = b & (1u << 29);
        vaes = c & (1u << 9);
    }
    snprintf(si->cpu_features, sizeof si->cpu_features,
             "AES-NI:%s PCLMULQDQ:%s SHA-NI:%s AVX2:%s AVX-512F:%s VAES:%s", aes ? "yes" : "no",
             pclmul ? "yes" : "no", sha ? "yes" : "no", avx2 ? "yes" : "no",
             avx512f ? "yes" : "no", vaes ? "yes" : "no");
#endif
}

void bench_sysinfo_collect(bench_sysinfo *si) {
    memset(si, 0, sizeof *si);
    cpu_facts(si);
    si->cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(si->os, sizeof si->os, "%.30s %.60s %.30s", u.sysname, u.release, u.machine);
    else
        snprintf(si->os, sizeof si->os, "unknown");
#if defined(__clang__)
    snprintf(si->compiler, sizeof si->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(si->compiler, sizeof si->compiler, "gcc %s", __VERSION__);
#else
    snprintf(si->compiler, sizeof si->compiler, "unknown");
#endif
    snprintf(si->build_type, sizeof si->build_type, "%s",
             WEBCRYPTO_BENCH_BUILD_TYPE[0] ? WEBCRYPTO_BENCH_BUILD_TYPE : "(none)");
    si->build_type_ok = strcmp(WEBCRYPTO_BENCH_BUILD_TYPE, "Release") == 0 ||
                        strcmp(WEBCRYPTO_BENCH_BUILD_TYPE, "RelWithDebInfo") == 0;
#if defined(__SANITIZE_ADDRESS__)
    si->sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    si->sanitized = true;
#endif
#endif
    bench_read_load(si->load, sizeof si->load);
    snprintf(si->load_end, sizeof si->load_end, "unknown");
    si->others_cpu = NAN;
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm)) strftime(si->date, sizeof si->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void bench_read_load(char *buf, size_t cap) {
    snprintf(buf, cap, "unknown");
    FILE *la = fopen("/proc/loadavg", "r");
    if (!la) return;
    double l1, l5, l15;
    if (fscanf(la, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        snprintf(buf, cap, "%.2f %.2f %.2f", l1, l5, l15);
    fclose(la);
}

void bench_cpu_mark_take(bench_cpu_mark *m) {
    memset(m, 0, sizeof *m);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    m->wall_ns = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return;
    m->self_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6 +
                bench_workers_cpu_s(); /* openssl@VERSION's worker processes: ours too */
    /* The aggregate line comes first; 512 bytes hold it. */
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return;
    char text[512];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    m->ok = bench_parse_proc_stat(text, &m->machine) == 0;
}

double bench_cpu_mark_others(const bench_cpu_mark *a, const bench_cpu_mark *b) {
    if (!a->ok || !b->ok) return NAN;
    return bench_others_cpu(&a->machine, &b->machine, (double)sysconf(_SC_CLK_TCK),
                            b->self_s - a->self_s, (b->wall_ns - a->wall_ns) / 1e9);
}
