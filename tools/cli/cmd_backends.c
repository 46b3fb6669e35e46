/* webcrypto backends: each backend, its availability and algorithms. */
#include <string.h>

#include "cli.h"

/* One block per backend: "NAME: available - DESCRIPTION" then its
 * algorithms and features, or "NAME: unavailable - REASON". */
static int describe_backend(sink *s, const char *name, const char *default_name) {
    const webcrypto_backend *b = NULL;
    webcrypto_status st = webcrypto_backend_get(name, &b);
    char line[1024];
    bool is_default = default_name && strcmp(name, default_name) == 0;
    if (st) {
        snprintf(line, sizeof line, "%s%s: unavailable - %s: %s\n", name,
                 is_default ? " (default)" : "", webcrypto_status_name(st),
                 webcrypto_error_message());
        return sink_write(s, (const uint8_t *)line, strlen(line));
    }
    snprintf(line, sizeof line, "%s%s: available - %s\n  algorithms:", name,
             is_default ? " (default)" : "", webcrypto_backend_description(b));
    int rc = sink_write(s, (const uint8_t *)line, strlen(line));
    for (size_t i = 0; !rc && i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm a = webcrypto_algorithm_at(i);
        if (!webcrypto_backend_supports(b, a)) continue;
        snprintf(line, sizeof line, " %s", webcrypto_algorithm_name(a));
        rc = sink_write(s, (const uint8_t *)line, strlen(line));
    }
    snprintf(line, sizeof line, "\n  multi-prime RSA import: %s\n",
             webcrypto_backend_has_feature(b, WEBCRYPTO_FEATURE_RSA_MULTI_PRIME) ? "yes" : "no");
    if (!rc) rc = sink_write(s, (const uint8_t *)line, strlen(line));
    /* A signature's context string, where the algorithm is here. */
    static const struct {
        webcrypto_algorithm alg;
        webcrypto_feature feature;
        const char *shown;
    } contexts[] = {{WEBCRYPTO_ALG_ED448, WEBCRYPTO_FEATURE_ED448_CONTEXT, "Ed448"},
                    {WEBCRYPTO_ALG_ML_DSA_65, WEBCRYPTO_FEATURE_ML_DSA_CONTEXT, "ML-DSA"}};
    for (size_t i = 0; !rc && i < sizeof contexts / sizeof *contexts; i++) {
        if (!webcrypto_backend_supports(b, contexts[i].alg)) continue;
        snprintf(line, sizeof line, "  %s context: %s\n", contexts[i].shown,
                 webcrypto_backend_has_feature(b, contexts[i].feature) ? "yes" : "no");
        rc = sink_write(s, (const uint8_t *)line, strlen(line));
    }
    /* The keyed algorithms that take SHA-3 here (SHA3-256 stands for the
     * three: the backends offer them together). */
    if (!rc && webcrypto_backend_supports(b, WEBCRYPTO_ALG_SHA3_256)) {
        snprintf(line, sizeof line, "  SHA-3 as the hash of:");
        rc = sink_write(s, (const uint8_t *)line, strlen(line));
        bool any = false;
        for (size_t i = 0; !rc && i < webcrypto_algorithm_count(); i++) {
            webcrypto_algorithm a = webcrypto_algorithm_at(i);
            if (!webcrypto_backend_supports_hash(b, a, WEBCRYPTO_ALG_SHA3_256)) continue;
            snprintf(line, sizeof line, " %s", webcrypto_algorithm_name(a));
            rc = sink_write(s, (const uint8_t *)line, strlen(line));
            any = true;
        }
        if (!rc) rc = sink_write(s, (const uint8_t *)(any ? "\n" : " none\n"), any ? 1 : 6);
    }
    /* cSHAKE and KMAC: the output lengths and customization they take
     * here (webcrypto_supports; a JCA provider's have one length each and
     * no customization). */
    static const struct {
        webcrypto_algorithm alg;
        webcrypto_operation op;
        size_t bits; /* the length every backend that has it takes */
    } sp800185[] = {{WEBCRYPTO_ALG_CSHAKE128, WEBCRYPTO_OP_DIGEST, 256},
                    {WEBCRYPTO_ALG_CSHAKE256, WEBCRYPTO_OP_DIGEST, 512},
                    {WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_OP_SIGN, 256},
                    {WEBCRYPTO_ALG_KMAC256, WEBCRYPTO_OP_SIGN, 512}};
    bool header = false;
    for (size_t i = 0; !rc && i < sizeof sp800185 / sizeof *sp800185; i++) {
        if (!webcrypto_backend_supports(b, sp800185[i].alg)) continue;
        static const uint8_t x = 'x';
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = sp800185[i].alg, .output_length = 8);
        bool any = webcrypto_supports(b, sp800185[i].op, &p, 0, NULL);
        p.output_length = sp800185[i].bits;
        p.customization = &x;
        p.customization_len = 1;
        bool custom = webcrypto_supports(b, sp800185[i].op, &p, 0, NULL);
        char len[32];
        snprintf(len, sizeof len, "%zu bits only", sp800185[i].bits);
        snprintf(line, sizeof line, "%s %s (%s, %s customization)",
                 header ? "," : "  cSHAKE and KMAC:", webcrypto_algorithm_name(sp800185[i].alg),
                 any ? "any length" : len, custom ? "with" : "no");
        rc = sink_write(s, (const uint8_t *)line, strlen(line));
        header = true;
    }
    if (!rc && header) rc = sink_write(s, (const uint8_t *)"\n", 1);
    return rc;
}

int cmd_backends(cli *c) {
    int rc = check_options(c, "backends", OPTBIT(OPT_OUT));
    if (!rc) rc = check_positionals(c, 0, 0);
    if (rc) return rc;
    const webcrypto_backend *def = NULL;
    const char *default_name =
        webcrypto_backend_get(NULL, &def) == WEBCRYPTO_OK ? webcrypto_backend_name(def) : NULL;
    const char *only = c->opt[OPT_BACKEND];
    size_t count = webcrypto_backend_count();
    if (only) {
        bool known = false;
        for (size_t i = 0; i < count; i++)
            if (strcmp(webcrypto_backend_name_at(i), only) == 0) known = true;
        if (!known) {
            rc = get_backend(c); /* the library's error for an unknown name */
            if (rc) return rc;
        }
    }
    sink s;
    rc = sink_open(&s, c->opt[OPT_OUT]);
    if (rc) return rc;
    bool listed = false;
    for (size_t i = 0; !rc && i < count; i++) {
        const char *name = webcrypto_backend_name_at(i);
        if (!name || (only && strcmp(name, only) != 0)) continue;
        rc = describe_backend(&s, name, default_name);
        listed = true;
    }
    /* A variant ("jca:BC") is not in the list of names: describe it alone. */
    if (!rc && only && !listed) rc = describe_backend(&s, only, default_name);
    if (rc) {
        sink_abort(&s);
        return rc;
    }
    return sink_commit(&s, NULL, 0);
}
