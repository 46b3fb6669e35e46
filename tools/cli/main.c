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

#include "bench.h"
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

static const struct command {
    const char *name;
    int (*run)(cli *c);
} commands[] = {
    {"help", cmd_help},
    {"version", cmd_version},
    {"digest", cmd_digest},
    {"generate-key", cmd_generate_key},
    {"encrypt", cmd_encrypt},
    {"decrypt", cmd_decrypt},
    {"sign", cmd_sign},
    {"verify", cmd_verify},
    {"derive-bits", cmd_derive_bits},
    {"derive-key", cmd_derive_key},
    {"export", cmd_export},
    {"import", cmd_import},
    {"wrap-key", cmd_wrap_key},
    {"unwrap-key", cmd_unwrap_key},
    {"random", cmd_random},
    {"uuid", cmd_uuid},
    {"backends", cmd_backends},
    {"encapsulate", cmd_encapsulate},
    {"decapsulate", cmd_decapsulate},
};

int main(int argc, char **argv) {
    guard_standard_fds();
    install_signal_cleanup();
    /* `webcrypto bench ...` is the benchmark harness, with its own options
     * (docs/BENCHMARKS.md). */
    if (argc > 1 && strcmp(argv[1], "bench") == 0) {
        static char name[] = "webcrypto bench";
        argv[1] = name;
        return webcrypto_bench_main(argc - 1, argv + 1);
    }
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
        rc = found ? found->run(&c) : usage_error("unknown command %s", cmd);
    }
    /* A late write error (e.g. on close) must not pass silently. */
    if (fclose(stdout) != 0 && (rc == EXIT_OK || rc == EXIT_VERIFY_FALSE)) {
        print_error("IOError", "cannot write <stdout>: %s", strerror(errno));
        rc = EXIT_IO;
    }
    return rc;
}
