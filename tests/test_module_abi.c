/*
 * The core's side of the module handshake, through the real loader: with
 * WEBCRYPTO_MODULE_DIR naming a directory that holds one of module_fake.c's
 * builds as webcrypto-boringssl.so, `webcrypto_backend_get("boringssl")`
 * must accept the good one (its description shows which file was loaded) and
 * refuse each bad one with NotSupportedError and a message that names the
 * file and both sides' ABI and ops-table size. The zero case's module is
 * accepted and its X25519 gives an all-zero secret: the core must refuse it
 * (backend.h, okp_derive), whatever the backend.
 * usage: test_module_abi ok|abi|abi5|abi2|ops|refuse|v1|zero
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "webcrypto.h"

static int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (cond) {                                                                        \
            printf("ok   " __VA_ARGS__);                                                   \
        } else {                                                                           \
            printf("FAIL " __VA_ARGS__);                                                   \
            failures++;                                                                    \
        }                                                                                  \
        printf("\n");                                                                      \
    } while (0)

/* The zero case: a generated X25519 pair of the fake, and deriveBits. */
static int zero_secret_refused(void) {
    const webcrypto_backend *b = NULL;
    webcrypto_status st = webcrypto_backend_get("boringssl", &b);
    CHECK(st == WEBCRYPTO_OK, "the all-zero module is accepted (%s: %s)", webcrypto_status_name(st),
          st ? webcrypto_error_message() : "OK");
    if (st != WEBCRYPTO_OK) return 1;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_X25519;
    webcrypto_key *pub = NULL, *priv = NULL;
    st = webcrypto_generate_key_pair(b, &p, false, WEBCRYPTO_USAGE_DERIVE_BITS, &pub, &priv);
    CHECK(st == WEBCRYPTO_OK, "the fake generates an X25519 pair (%s: %s)",
          webcrypto_status_name(st), st ? webcrypto_error_message() : "OK");
    if (st == WEBCRYPTO_OK) {
        uint8_t out[32];
        memset(out, 0xaa, sizeof out);
        p.public_key = pub;
        size_t n = 0;
        st = webcrypto_derive_bits(&p, priv, WEBCRYPTO_LENGTH_FULL, out, sizeof out, &n);
        CHECK(st == WEBCRYPTO_ERR_OPERATION, "an all-zero X25519 secret is OperationError (got %s)",
              webcrypto_status_name(st));
        CHECK(strstr(webcrypto_error_message(), "all zeros") != NULL,
              "the message says why: %s", webcrypto_error_message());
    }
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s ok|abi|abi5|abi2|ops|refuse|v1|zero\n", argv[0]);
        return 2;
    }
    const char *c = argv[1];
    const char *dir = getenv("WEBCRYPTO_MODULE_DIR");
    if (!dir || !*dir) {
        fprintf(stderr, "WEBCRYPTO_MODULE_DIR must name the fake module's directory\n");
        return 2;
    }
    bool registered = false;
    for (size_t i = 0; i < webcrypto_backend_count(); i++)
        registered |= strcmp(webcrypto_backend_name_at(i), "boringssl") == 0;
    if (!registered) {
        printf("SKIP: no boringssl entry in this build's registry (the fake stands in for it)\n");
        return 77;
    }

    if (strcmp(c, "zero") == 0) return zero_secret_refused();

    char path[1024], want[1400];
    snprintf(path, sizeof path, "%s/webcrypto-boringssl.so", dir);
    const size_t ours = sizeof(wc_backend_ops);
    if (strcmp(c, "ok") == 0) {
        want[0] = 0;
    } else if (strcmp(c, "abi") == 0) {
        snprintf(want, sizeof want,
                 "backend module %s has ABI %u (ops %zu bytes); this libwebcrypto has ABI %u "
                 "(ops %zu bytes)",
                 path, WC_MODULE_ABI + 1, ours, WC_MODULE_ABI, ours);
    } else if (strcmp(c, "abi5") == 0) {
        /* The previous ABI: its ops table has the same size (ABI 6 changed
         * only init's caps argument), so its number alone refuses it, and
         * the message says what to do. */
        snprintf(want, sizeof want,
                 "backend module %s has ABI 5 (ops %zu bytes); this libwebcrypto has ABI %u "
                 "(ops %zu bytes): the module is older than this libwebcrypto; install the "
                 "module built with it",
                 path, ours, WC_MODULE_ABI, ours);
    } else if (strcmp(c, "abi2") == 0) {
        /* The previous ABI, as a module built before the per-family
         * operations would answer: refused by its number (and its size). */
        snprintf(want, sizeof want,
                 "backend module %s has ABI 2 (ops %zu bytes); this libwebcrypto has ABI %u "
                 "(ops %zu bytes)",
                 path, (size_t)(39 * sizeof(void *)), WC_MODULE_ABI, ours);
    } else if (strcmp(c, "ops") == 0) {
        snprintf(want, sizeof want,
                 "backend module %s has ABI %u (ops %zu bytes); this libwebcrypto has ABI %u "
                 "(ops %zu bytes)",
                 path, WC_MODULE_ABI, ours + 8, WC_MODULE_ABI, ours);
    } else if (strcmp(c, "refuse") == 0) {
        snprintf(want, sizeof want,
                 "backend module %s (ABI %u, ops %zu bytes) refused this libwebcrypto", path,
                 WC_MODULE_ABI, ours);
    } else if (strcmp(c, "v1") == 0) {
        snprintf(want, sizeof want,
                 "backend module %s has ABI 1; this libwebcrypto has ABI %u (ops %zu bytes)",
                 path, WC_MODULE_ABI, ours);
    } else {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }

    /* Twice: the second request reads the first's recorded outcome. */
    for (int round = 1; round <= 2; round++) {
        const webcrypto_backend *b = NULL;
        webcrypto_status st = webcrypto_backend_get("boringssl", &b);
        const char *msg = webcrypto_error_message();
        if (!want[0]) {
            CHECK(st == WEBCRYPTO_OK, "round %d: the matching module is accepted (%s: %s)", round,
                  webcrypto_status_name(st), st ? msg : "OK");
            const char *d = b ? webcrypto_backend_description(b) : NULL;
            CHECK(d && strcmp(d, "fake module (tests/module_fake.c)") == 0,
                  "round %d: it is the fake from %s (description \"%s\")", round, dir,
                  d ? d : "(none)");
        } else {
            CHECK(st == WEBCRYPTO_ERR_NOT_SUPPORTED, "round %d: refused with NotSupportedError (got %s)",
                  round, webcrypto_status_name(st));
            CHECK(b == NULL, "round %d: no handle given out", round);
            CHECK(strstr(msg, want) != NULL, "round %d: the message names the file and both versions\n"
                  "       got:  %s\n       want: ...%s...", round, msg, want);
        }
    }

    /* A refused module spoils nothing else: the default backend still works. */
    const webcrypto_backend *def = NULL;
    webcrypto_status st = webcrypto_backend_get(NULL, &def);
    if (st == WEBCRYPTO_OK) {
        uint8_t out[32];
        size_t n = 0;
        st = webcrypto_digest(def, WEBCRYPTO_ALG_SHA_256, (const uint8_t *)"abc", 3, out,
                              sizeof out, &n);
        static const uint8_t abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                        0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                        0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
        CHECK(st == WEBCRYPTO_OK && n == 32 && memcmp(out, abc, 32) == 0,
              "the default backend (%s) still digests", webcrypto_backend_name(def));
    } else {
        printf("(no default backend to check afterwards: %s)\n", webcrypto_error_message());
    }
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
