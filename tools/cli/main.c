/*
 * webcrypto - command-line front end to libwebcrypto.
 *
 * Written only against the public header: keys are handed to the library as
 * JWK text, and every cryptographic decision (validation, error kinds) is the
 * library's. The tool adds argument parsing, I/O, and the guarantee that
 * nothing is written to the destination unless the whole operation succeeded.
 *
 * This file is the dispatcher: a table of command names to the functions
 * that run them, one file per group of commands (cmd_*.c); what they share
 * is in cli.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int cmd_help(cli *c) {
    (void)c;
    char *text = usage_build();
    int rc = text ? print_text(text) : no_memory();
    free(text);
    return rc;
}

static int cmd_version(cli *c) {
    (void)c;
    return print_text("webcrypto " WEBCRYPTO_VERSION "\n");
}

/* in_pos: the positional argument that is the command's data input (FILE,
 * standard input when absent), 0 if it reads none: for the one check of
 * its files (check_distinct_files). */
static const struct command {
    const char *name;
    int (*run)(cli *c);
    size_t in_pos;
} commands[] = {
    {"help", cmd_help, 0},
    {"version", cmd_version, 0},
    {"digest", cmd_digest, 2},
    {"generate-key", cmd_generate_key, 0},
    {"encrypt", cmd_encrypt, 2},
    {"decrypt", cmd_decrypt, 2},
    {"sign", cmd_sign, 2},
    {"verify", cmd_verify, 2},
    {"derive-bits", cmd_derive_bits, 0},
    {"derive-key", cmd_derive_key, 0},
    {"export", cmd_export, 0},
    {"import", cmd_import, 1},
    {"wrap-key", cmd_wrap_key, 0},
    {"unwrap-key", cmd_unwrap_key, 1},
    {"random", cmd_random, 0},
    {"uuid", cmd_uuid, 0},
    {"backends", cmd_backends, 0},
    {"encapsulate", cmd_encapsulate, 0},
    {"decapsulate", cmd_decapsulate, 2},
};

int main(int argc, char **argv) {
    guard_standard_fds();
    install_signal_cleanup();
    /* `webcrypto bench ...` is the benchmark harness, with its own options
     * (docs/BENCHMARKS.md): the program webcrypto-bench, run (cmd_bench.c). */
    if (argc > 1 && strcmp(argv[1], "bench") == 0) return run_bench(argc, argv);
    install_json_wiping_alloc();
    cli c;
    int rc = parse_args(argc, argv, &c);
    if (rc) return rc;
    const char *cmd = c.npos ? c.pos[0] : NULL;
    /* --help wins over everything, then the help command, then --version. */
    if (c.help) cmd = "help";
    else if (c.version && !(cmd && strcmp(cmd, "help") == 0)) cmd = "version";
    if (!cmd) {
        rc = usage_error("no command given");
    } else {
        const struct command *found = NULL;
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(cmd, commands[i].name) == 0) found = &commands[i];
        if (!found) {
            rc = usage_error("unknown command %s", cmd);
        } else {
            const size_t in = found->in_pos;
            rc = check_distinct_files(&c, in ? "FILE" : NULL, in && in < c.npos ? c.pos[in] : NULL);
            if (!rc) rc = found->run(&c);
        }
    }
    /* A late write error (e.g. on close) must not pass silently. */
    if (fclose(stdout) != 0 && (rc == EXIT_OK || rc == EXIT_VERIFY_FALSE)) {
        print_error("IOError", "cannot write <stdout>: %s", strerror(errno));
        rc = EXIT_IO;
    }
    return rc;
}
