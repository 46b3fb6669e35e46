/*
 * `webcrypto bench ...`: the benchmark harness is a program of its own,
 * webcrypto-bench (tools/bench), installed beside this one. This command
 * runs it with the same arguments instead of linking it (and what it links:
 * OpenSSL called directly, the jvm baseline's glue) into the user-facing
 * binary. It is looked for next to this executable (the directory of
 * /proc/self/exe: the install's bin, and in a build tree the link the build
 * puts beside webcrypto), then in the install's bin directory, then on
 * PATH.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef WEBCRYPTO_BENCH_INSTALL_DIR
#define WEBCRYPTO_BENCH_INSTALL_DIR "/usr/local/bin"
#endif
#define BENCH_PROGRAM "webcrypto-bench"

/* Replaces this process with dir/webcrypto-bench if that is a file we may
 * run; returns if there is none there (*err untouched) or exec failed
 * (*err: why). */
static void try_exec_in(const char *dir, char **argv, int *err) {
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dir, BENCH_PROGRAM);
    if (n < 0 || (size_t)n >= sizeof path || access(path, X_OK) != 0) return;
    execv(path, argv);
    *err = errno;
}

int run_bench(int argc, char **argv) {
    (void)argc;
    /* The program name in its messages and --help, as when it was linked in. */
    static char name[] = "webcrypto bench";
    argv[1] = name;
    char **args = argv + 1; /* argv[argc] is NULL */
    int err = 0;
    char self[PATH_MAX];
    const char *dir = NULL; /* this executable's directory */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            slash[slash == self] = 0; /* "/webcrypto": the root */
            dir = self;
        }
    }
    if (dir) try_exec_in(dir, args, &err);
    if (!err) try_exec_in(WEBCRYPTO_BENCH_INSTALL_DIR, args, &err);
    if (!err) {
        execvp(BENCH_PROGRAM, args);
        if (errno != ENOENT) err = errno;
    }
    if (err) {
        print_error("IOError", "bench: cannot run %s: %s", BENCH_PROGRAM, strerror(err));
        return EXIT_IO;
    }
    print_error("IOError", "bench: %s not found (tried %s%s%s/%s and PATH); it is built and "
                "installed beside webcrypto", BENCH_PROGRAM, dir ? dir : "",
                dir ? "/" BENCH_PROGRAM ", " : "", WEBCRYPTO_BENCH_INSTALL_DIR, BENCH_PROGRAM);
    return EXIT_IO;
}
