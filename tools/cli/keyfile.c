/* Key files: a JWK file read (at most MAX_KEY_FILE bytes) and imported
 * with the hash, curve and usages its algorithm needs; a key printed as a
 * JWK. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"

/* jansson's allocations are wiped on free, as the JWK text holds the key
 * ("k" passes through the parser's buffers and string nodes). Each block
 * carries its size in a header. The library never changes jansson's
 * allocator (it is process-wide); the CLI, as the host program, chooses to
 * install this one, before any JSON is parsed - what webcrypto.h suggests a
 * host do to have the parser's own buffers wiped too. */
#define JSON_HEADER \
    (_Alignof(max_align_t) > sizeof(size_t) ? _Alignof(max_align_t) : sizeof(size_t))

static void *json_wiping_malloc(size_t n) {
    if (n > SIZE_MAX - JSON_HEADER) return NULL;
    unsigned char *p = malloc(JSON_HEADER + n);
    if (!p) return NULL;
    memcpy(p, &n, sizeof n);
    return p + JSON_HEADER;
}

static void json_wiping_free(void *ptr) {
    if (!ptr) return;
    unsigned char *p = (unsigned char *)ptr - JSON_HEADER;
    size_t n;
    memcpy(&n, p, sizeof n);
    wipe_free(p, JSON_HEADER + n);
}

void install_json_wiping_alloc(void) { json_set_alloc_funcs(json_wiping_malloc, json_wiping_free); }

void read_jwk_hints(const uint8_t *jwk, size_t len, jwk_hints *h) {
    static const struct {
        const char *alg;
        webcrypto_algorithm hash;
    } map[] = {{"HS1", WEBCRYPTO_ALG_SHA_1},       {"HS256", WEBCRYPTO_ALG_SHA_256},
               {"HS384", WEBCRYPTO_ALG_SHA_384},   {"HS512", WEBCRYPTO_ALG_SHA_512},
               {"RS1", WEBCRYPTO_ALG_SHA_1},       {"RS256", WEBCRYPTO_ALG_SHA_256},
               {"RS384", WEBCRYPTO_ALG_SHA_384},   {"RS512", WEBCRYPTO_ALG_SHA_512},
               {"PS1", WEBCRYPTO_ALG_SHA_1},       {"PS256", WEBCRYPTO_ALG_SHA_256},
               {"PS384", WEBCRYPTO_ALG_SHA_384},   {"PS512", WEBCRYPTO_ALG_SHA_512},
               {"RSA-OAEP", WEBCRYPTO_ALG_SHA_1},  {"RSA-OAEP-256", WEBCRYPTO_ALG_SHA_256},
               {"RSA-OAEP-384", WEBCRYPTO_ALG_SHA_384}, {"RSA-OAEP-512", WEBCRYPTO_ALG_SHA_512}};
    memset(h, 0, sizeof *h);
    json_t *root = json_loadb((const char *)jwk, len, 0, NULL);
    h->object = json_is_object(root);
    json_t *alg_node = json_object_get(root, "alg");
    const char *alg = json_string_value(alg_node);
    h->has_alg = alg_node != NULL;
    for (size_t i = 0; alg && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(alg, map[i].alg) == 0) h->hash = map[i].hash;
    /* "priv": ML-KEM and ML-DSA (JWK "AKP") */
    h->has_d = json_object_get(root, "d") != NULL || json_object_get(root, "priv") != NULL;
    const char *kty = json_string_value(json_object_get(root, "kty"));
    h->is_oct = kty && strcmp(kty, "oct") == 0;
    const char *crv = json_string_value(json_object_get(root, "crv"));
    if (crv && strlen(crv) < sizeof h->crv) strcpy(h->crv, crv);
    json_t *ops = json_object_get(root, "key_ops");
    h->has_ops = json_is_array(ops);
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op) {
        unsigned u;
        const char *name = json_string_value(op);
        if (name && webcrypto_usage_from_name(name, &u) == WEBCRYPTO_OK) h->ops |= u;
    }
    json_decref(root);
}

/* The hash (HMAC, RSA-*) and curve (ECDSA, ECDH) of a key to import: the
 * options' values, else what the JWK (h, NULL for other formats) says. A
 * JWK that is no object, or names no hash or curve we know, gets any: the
 * library then reports its DataError. */
int resolve_key_params(const char *hash_opt, const char *hash_name, const char *curve_opt,
                       const jwk_hints *h, const char *what, webcrypto_params *p) {
    const char *name = webcrypto_algorithm_name(p->name);
    if (needs_hash(p->name)) {
        if (hash_opt) {
            int rc = lookup_algorithm(hash_opt, &p->hash);
            if (rc) return rc;
        } else if (!h) {
            return usage_error("%s: a %s key needs its hash: give it with %s", what, name, hash_name);
        } else if (h->object && !h->has_alg) {
            return usage_error("the JWK in %s has no \"alg\": give the %s hash with %s", what, name,
                               hash_name);
        } else {
            p->hash = h->hash != WEBCRYPTO_ALG_NONE ? h->hash : WEBCRYPTO_ALG_SHA_256;
        }
    }
    if (is_ec(p->name)) {
        if (curve_opt) {
            webcrypto_status st = webcrypto_curve_from_name(curve_opt, &p->named_curve);
            if (st) return crypto_error(st);
        } else if (!h) {
            return usage_error("%s: a %s key needs its curve: give it with --curve", what, name);
        } else if (h->object && !h->crv[0]) {
            return usage_error("the JWK in %s has no \"crv\": give the curve with --curve", what);
        } else if (webcrypto_curve_from_name(h->crv, &p->named_curve) != WEBCRYPTO_OK) {
            p->named_curve = WEBCRYPTO_CURVE_P256;
        }
    }
    return EXIT_OK;
}

/* Options that describe a key must fit its algorithm. */
int check_key_options(webcrypto_algorithm a, const char *hash_opt, const char *hash_name,
                      const char *curve_opt) {
    if (hash_opt && !needs_hash(a))
        return usage_error("option %s does not apply to %s keys", hash_name, webcrypto_algorithm_name(a));
    if (curve_opt && !is_ec(a))
        return usage_error("option --curve does not apply to %s keys", webcrypto_algorithm_name(a));
    return EXIT_OK;
}

/* Reads a JWK file and imports it. For HMAC and RSA keys the hash is the
 * option's, else the one the JWK's "alg" names; for EC keys the curve is
 * --curve's, else the JWK's "crv". */
int import_key_file(const cli *c, const key_source *src, webcrypto_key **key) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = src->alg;
    uint8_t *jwk;
    size_t len, cap;
    int rc = read_all(src->path, MAX_KEY_FILE, &jwk, &len, &cap);
    if (rc) return rc;
    jwk_hints h;
    read_jwk_hints(jwk, len, &h);
    rc = resolve_key_params(src->hash_opt, src->hash_name, src->curve_opt, &h, src->what, &p);
    if (rc) {
        wipe_free(jwk, cap);
        return rc;
    }
    unsigned usages = src->usages;
    if (src->usages_from_jwk) {
        webcrypto_key_type type = h.is_oct  ? WEBCRYPTO_KEY_SECRET
                                  : h.has_d ? WEBCRYPTO_KEY_PRIVATE
                                            : WEBCRYPTO_KEY_PUBLIC;
        usages = allowed_usages(src->alg, type);
        if (h.has_ops) usages &= h.ops;
    }
    webcrypto_status st = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_JWK, jwk, len, &p,
                                               src->extractable, usages, key);
    wipe_free(jwk, cap);
    return st == WEBCRYPTO_OK ? EXIT_OK : crypto_error(st);
}

/* Imports the JWK in file --key for `alg` with the one usage the command
 * needs, not extractable; the hash is --hash's (HMAC, RSA-*), the curve
 * --curve's (ECDSA, ECDH), else the JWK's. */
int import_jwk(const cli *c, webcrypto_algorithm alg, unsigned usage,
               webcrypto_key **key) {
    key_source src = {.path = c->opt[OPT_KEY], .what = "--key", .alg = alg,
                      .hash_opt = c->opt[OPT_HASH], .hash_name = "--hash",
                      .curve_opt = c->opt[OPT_CURVE], .usages = usage};
    return import_key_file(c, &src, key);
}

/* Prints a key as its JWK text and a newline (to --out or stdout). */
int output_jwk(const cli *c, const webcrypto_key *key) {
    uint8_t *jwk = NULL;
    size_t jwk_len = 0;
    webcrypto_status st = webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, key, &jwk, &jwk_len);
    if (st) return crypto_error(st);
    sink s;
    int rc = sink_open(&s, c->opt[OPT_OUT]);
    if (!rc) {
        rc = sink_write(&s, jwk, jwk_len);
        if (!rc) rc = sink_commit(&s, (const uint8_t *)"\n", 1);
        else sink_abort(&s);
    }
    webcrypto_buffer_free(jwk, jwk_len);
    return rc;
}

/* The type a key in `fmt` will have: what default usages are chosen for. */
webcrypto_key_type type_of_format(webcrypto_algorithm alg, webcrypto_key_format fmt,
                                  const jwk_hints *h) {
    if (!is_pair_alg(alg)) return WEBCRYPTO_KEY_SECRET;
    switch (fmt) {
    case WEBCRYPTO_FORMAT_PKCS8:
    case WEBCRYPTO_FORMAT_RAW_SEED: return WEBCRYPTO_KEY_PRIVATE;
    case WEBCRYPTO_FORMAT_JWK: return !h || h->has_d ? WEBCRYPTO_KEY_PRIVATE : WEBCRYPTO_KEY_PUBLIC;
    case WEBCRYPTO_FORMAT_RAW:
    case WEBCRYPTO_FORMAT_RAW_PUBLIC:
    case WEBCRYPTO_FORMAT_SPKI: return WEBCRYPTO_KEY_PUBLIC;
    case WEBCRYPTO_FORMAT_RAW_SECRET: return WEBCRYPTO_KEY_SECRET;
    }
    return WEBCRYPTO_KEY_PUBLIC; /* not a format: the library rejects it */
}
