/*
 * interop_peer.c - libwebcrypto's side of the interop test with Node's
 * crypto.subtle (driven by interop_test.sh).
 *
 *   interop_peer PEER.json OUT.json [BACKEND]
 *
 * BACKEND ("openssl", "jca:BC", ...; default: the default backend) makes and
 * imports every key of the library's side, so the run checks that backend.
 *
 * Reads the manifest Node wrote (node_peer.js produce): imports Node's keys
 * in every format and checks that exporting them gives Node's bytes (JWK:
 * the same members); verifies Node's signatures, decrypts its RSA-OAEP and
 * AES ciphertexts, checks its HMACs, agrees on its ECDH/X25519 secrets and
 * unwraps its wrapped keys. Then makes the same kinds of things with the
 * library and writes them to OUT.json, for node_peer.js consume to check.
 *
 * Only the public API (webcrypto.h) is used; jansson reads and writes the
 * manifest. One line per check ("skip" where the backend lacks the
 * algorithm); last line "c: N passed, N failed, N skipped".
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "webcrypto.h"

static int passed, failed, skipped;
/* The backend every key is imported or generated on (NULL: the default). */
static const webcrypto_backend *backend;

static void vreport(bool ok, const char *why, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static void vreport(bool ok, const char *why, const char *fmt, va_list ap) {
    fputs(ok ? "ok   - c: " : "FAIL - c: ", stdout);
    vprintf(fmt, ap);
    if (!ok && why && *why) printf(" (%s)", why);
    putchar('\n');
    if (ok) passed++;
    else failed++;
}

/* One check; on failure `why` says what went wrong. */
static void report(bool ok, const char *why, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void report(bool ok, const char *why, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(ok, why, fmt, ap);
    va_end(ap);
}

/* A check this backend cannot make: it lacks the algorithm. */
static void skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skip(const char *why, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("skip - c: ", stdout);
    vprintf(fmt, ap);
    printf(" (%s)\n", why);
    va_end(ap);
    skipped++;
}

/* The reason for such a skip: "jca:SunJCE has no RSA-PSS". */
static const char *lacks(webcrypto_algorithm alg) {
    static char buf[100];
    snprintf(buf, sizeof buf, "%s has no %s", webcrypto_backend_name(backend), webcrypto_algorithm_name(alg));
    return buf;
}

/* The library's error as a reason: "DataError: message". */
static char errbuf[600];
static const char *why_status(webcrypto_status st) {
    snprintf(errbuf, sizeof errbuf, "%s: %s", webcrypto_status_name(st), webcrypto_error_message());
    return errbuf;
}

/* ------------------------------------------------------------------------ */
/* Bytes, hex, JSON                                                         */
/* ------------------------------------------------------------------------ */

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static void bytes_free(bytes *b) {
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes hex; false (and an empty result) for anything malformed. */
static bool unhex(const char *h, bytes *out) {
    out->p = NULL;
    out->n = 0;
    if (!h) return false;
    size_t n = strlen(h);
    if (n % 2) return false;
    uint8_t *p = malloc(n / 2 + 1);
    if (!p) return false;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(p);
            return false;
        }
        p[i] = (uint8_t)(hi << 4 | lo);
    }
    out->p = p;
    out->n = n / 2;
    return true;
}

static json_t *hexstr(const uint8_t *p, size_t n) {
    static const char d[] = "0123456789abcdef";
    char *s = malloc(2 * n + 1);
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = d[p[i] >> 4];
        s[2 * i + 1] = d[p[i] & 15];
    }
    s[2 * n] = 0;
    json_t *j = json_string(s);
    free(s);
    return j;
}

static const char *jstr(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static bool same(const uint8_t *a, size_t an, const bytes *b) {
    return an == b->n && (an == 0 || memcmp(a, b->p, an) == 0);
}

/* key_ops as a set: same length, and every element of a is in b. */
static bool same_ops(json_t *a, json_t *b) {
    if (!json_is_array(a) || !json_is_array(b) || json_array_size(a) != json_array_size(b))
        return false;
    size_t i, j;
    json_t *x, *y;
    json_array_foreach(a, i, x) {
        bool found = false;
        json_array_foreach(b, j, y) found = found || json_equal(x, y);
        if (!found) return false;
    }
    return true;
}

/* A JSON value for a message (NULL for none; free with free()), and how it
 * is shown. */
static char *dump(const json_t *v) { return v ? json_dumps(v, JSON_ENCODE_ANY) : NULL; }
static const char *shown(const char *s) { return s ? s : "(absent)"; }

/* The JWK "alg" the spec's export writes, for the algorithms whose keys a
 * peer may spell otherwise: Ed25519's is "Ed25519" (import also takes the
 * older "EdDSA", which Node 18 still writes). NULL: compared as is. */
static const char *spec_jwk_alg(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_ED25519 ? "Ed25519" : a == WEBCRYPTO_ALG_ED448 ? "Ed448" : NULL;
}

/* JWKs compare as JSON values, member by member, key_ops as a set; "alg"
 * last, and where the spec fixes it, each side against the spec (so a
 * difference names the side that departs from it). Writes the first
 * difference to why. */
static bool same_jwk(const uint8_t *text, size_t len, json_t *want, webcrypto_algorithm alg,
                     char *why, size_t why_cap) {
    json_t *got = json_loadb((const char *)text, len, 0, NULL);
    bool ok = json_is_object(got) && json_is_object(want);
    if (!ok) snprintf(why, why_cap, "not a JSON object");
    const char *k;
    json_t *v;
    if (ok) {
        json_object_foreach(want, k, v) {
            if (strcmp(k, "alg") == 0) continue;
            json_t *g = json_object_get(got, k);
            bool eq = strcmp(k, "key_ops") == 0 ? same_ops(g, v) : (g && json_equal(g, v));
            if (!eq) {
                char *gs = dump(g), *ws = dump(v);
                snprintf(why, why_cap, "member %s: got %.60s, want %.60s", k, shown(gs), shown(ws));
                free(gs);
                free(ws);
                ok = false;
                break;
            }
        }
    }
    if (ok) {
        json_object_foreach(got, k, v) {
            if (strcmp(k, "alg") != 0 && !json_object_get(want, k)) {
                char *gs = dump(v);
                snprintf(why, why_cap, "member %s: got %.60s, the peer has none", k, shown(gs));
                free(gs);
                ok = false;
                break;
            }
        }
    }
    if (ok) {
        json_t *ga = json_object_get(got, "alg"), *wa = json_object_get(want, "alg");
        const char *spec = spec_jwk_alg(alg);
        const char *side = NULL;
        if (spec && (!json_is_string(ga) || strcmp(json_string_value(ga), spec) != 0)) side = "the library's";
        else if (spec && (!json_is_string(wa) || strcmp(json_string_value(wa), spec) != 0)) side = "the peer's";
        if (side) {
            char *s = dump(strcmp(side, "the peer's") == 0 ? wa : ga);
            snprintf(why, why_cap, "%s JWK has alg %.60s; the spec writes \"%s\"", side, shown(s), spec);
            free(s);
            ok = false;
        } else if (!spec && (ga || wa) && !(ga && wa && json_equal(ga, wa))) {
            char *gs = dump(ga), *ws = dump(wa);
            snprintf(why, why_cap, "member alg: got %.60s, want %.60s", shown(gs), shown(ws));
            free(gs);
            free(ws);
            ok = false;
        }
    }
    json_decref(got);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Parameters and keys                                                      */
/* ------------------------------------------------------------------------ */

/* A webcrypto_params read from WebCrypto's JSON form ({"name":"RSA-PSS",
 * "saltLength":32}); byte members are hex. Decoded buffers live in `store`. */
typedef struct jparams {
    webcrypto_params p;
    bytes store[5];
} jparams;

static void jparams_free(jparams *j) {
    for (size_t i = 0; i < sizeof j->store / sizeof j->store[0]; i++) bytes_free(&j->store[i]);
}

static bool jparams_read(const json_t *o, jparams *j) {
    memset(j, 0, sizeof *j);
    webcrypto_params_init(&j->p, sizeof j->p);
    const char *name = jstr(o, "name"), *hash = jstr(o, "hash"), *curve = jstr(o, "namedCurve");
    if (!name || webcrypto_algorithm_from_name(name, &j->p.name)) return false;
    if (hash && webcrypto_algorithm_from_name(hash, &j->p.hash)) return false;
    if (curve && webcrypto_curve_from_name(curve, &j->p.named_curve)) return false;
    json_t *n;
    if ((n = json_object_get(o, "saltLength"))) j->p.salt_length = (size_t)json_integer_value(n);
    if ((n = json_object_get(o, "tagLength"))) j->p.tag_length = (size_t)json_integer_value(n);
    if ((n = json_object_get(o, "length"))) j->p.length = (size_t)json_integer_value(n);
    if ((n = json_object_get(o, "modulusLength"))) j->p.modulus_length = (size_t)json_integer_value(n);
    static const char *const hexes[] = {"label", "iv", "additionalData", "counter", "publicExponent"};
    for (size_t i = 0; i < 5; i++) {
        const char *h = jstr(o, hexes[i]);
        if (h && !unhex(h, &j->store[i])) return false;
    }
    j->p.label = j->store[0].p;
    j->p.label_len = j->store[0].n;
    j->p.iv = j->store[1].p;
    j->p.iv_len = j->store[1].n;
    j->p.additional_data = j->store[2].p;
    j->p.additional_data_len = j->store[2].n;
    j->p.counter = j->store[3].p;
    j->p.counter_len = j->store[3].n;
    j->p.public_exponent = j->store[4].p;
    j->p.public_exponent_len = j->store[4].n;
    return true;
}

static bool is_rsa(webcrypto_algorithm a) {
    return a == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || a == WEBCRYPTO_ALG_RSA_PSS ||
           a == WEBCRYPTO_ALG_RSA_OAEP;
}

static unsigned usages_for(webcrypto_algorithm a, bool priv) {
    if (a == WEBCRYPTO_ALG_RSA_OAEP)
        return priv ? WEBCRYPTO_USAGE_DECRYPT | WEBCRYPTO_USAGE_UNWRAP_KEY
                    : WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY;
    if (a == WEBCRYPTO_ALG_ECDH || a == WEBCRYPTO_ALG_X25519 || a == WEBCRYPTO_ALG_X448)
        return priv ? WEBCRYPTO_USAGE_DERIVE_BITS | WEBCRYPTO_USAGE_DERIVE_KEY : 0;
    return priv ? WEBCRYPTO_USAGE_SIGN : WEBCRYPTO_USAGE_VERIFY;
}

/* Imports member `member` of a manifest key ("spki", "pkcs8", "raw",
 * "jwkPub", "jwkPriv"), extractable, with the usages of its kind. */
static webcrypto_status import_member(const json_t *spec, const char *member, webcrypto_key **out) {
    jparams j = {0};
    webcrypto_status st = WEBCRYPTO_ERR_INVALID_ARGUMENT;
    if (!jparams_read(json_object_get(spec, "alg"), &j)) {
        jparams_free(&j);
        return st;
    }
    /* import takes no generation members */
    j.p.modulus_length = 0;
    j.p.public_exponent = NULL;
    j.p.public_exponent_len = 0;
    bool priv = strcmp(member, "pkcs8") == 0 || strcmp(member, "jwkPriv") == 0;
    unsigned usages = usages_for(j.p.name, priv);
    json_t *v = json_object_get(spec, member);
    if (strncmp(member, "jwk", 3) == 0) {
        char *text = json_dumps(v, JSON_COMPACT);
        if (text)
            st = webcrypto_import_key(backend, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)text, strlen(text),
                                      &j.p, true, usages, out);
        free(text);
    } else {
        bytes b = {0};
        webcrypto_key_format f = strcmp(member, "spki") == 0    ? WEBCRYPTO_FORMAT_SPKI
                                 : strcmp(member, "pkcs8") == 0 ? WEBCRYPTO_FORMAT_PKCS8
                                                                : WEBCRYPTO_FORMAT_RAW;
        if (unhex(json_string_value(v), &b))
            st = webcrypto_import_key(backend, f, b.p, b.n, &j.p, true, usages, out);
        bytes_free(&b);
    }
    jparams_free(&j);
    return st;
}

/* The keys of both manifests, imported from spki and pkcs8. */
typedef struct keyent {
    const char *id;
    const json_t *spec;
    webcrypto_algorithm alg;
    webcrypto_key *pub, *priv;
} keyent;

#define MAX_KEYS 64
static keyent keytab[MAX_KEYS];
static size_t nkeys;

static keyent *find_key(const char *id) {
    for (size_t i = 0; id && i < nkeys; i++)
        if (strcmp(keytab[i].id, id) == 0) return &keytab[i];
    return NULL;
}

/* The peer's keys whose algorithm this backend lacks (jca:SunJCE has no
 * asymmetric ones): their checks are skipped, visibly. */
static const char *unsupported[MAX_KEYS];
static size_t nunsupported;

/* Whether `id` is such a key; if so, prints the check `what` as skipped. */
static bool skip_unsupported(const char *id, const char *what) {
    for (size_t i = 0; id && i < nunsupported; i++) {
        if (strcmp(unsupported[i], id) == 0) {
            skip("the backend lacks its algorithm", "%s with %s", what, id);
            return true;
        }
    }
    return false;
}

static void add_key(const char *id, const json_t *spec) {
    webcrypto_algorithm alg = (webcrypto_algorithm)0;
    if (webcrypto_algorithm_from_name(jstr(json_object_get(spec, "alg"), "name"), &alg) == WEBCRYPTO_OK &&
        !webcrypto_backend_supports(backend, alg) && nunsupported < MAX_KEYS) {
        skip(lacks(alg), "%s: imports", id);
        unsupported[nunsupported++] = id;
        return;
    }
    if (nkeys == MAX_KEYS) {
        report(false, "too many keys", "load key %s", id);
        return;
    }
    keyent *e = &keytab[nkeys];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->spec = spec;
    /* An unknown name leaves alg NONE; import_member then reports it. */
    if (webcrypto_algorithm_from_name(jstr(json_object_get(spec, "alg"), "name"), &e->alg) !=
        WEBCRYPTO_OK)
        e->alg = WEBCRYPTO_ALG_NONE;
    webcrypto_status st = import_member(spec, "spki", &e->pub);
    if (st == WEBCRYPTO_OK) st = import_member(spec, "pkcs8", &e->priv);
    if (st != WEBCRYPTO_OK) {
        report(false, why_status(st), "%s: imports from spki and pkcs8", id);
        webcrypto_key_free(e->pub);
        return;
    }
    nkeys++;
}

/* Exports key in fmt and compares with the manifest member (hex or JWK). */
static bool export_matches(const webcrypto_key *key, webcrypto_key_format fmt, const json_t *spec,
                           const char *member, char *why, size_t why_cap) {
    uint8_t *out = NULL;
    size_t n = 0;
    webcrypto_status st = webcrypto_export_key(fmt, key, &out, &n);
    if (st != WEBCRYPTO_OK) {
        snprintf(why, why_cap, "export %s: %.300s", member, why_status(st));
        return false;
    }
    bool ok;
    if (fmt == WEBCRYPTO_FORMAT_JWK) {
        ok = same_jwk(out, n, json_object_get(spec, member), webcrypto_key_get_algorithm(key), why,
                      why_cap);
    } else {
        bytes want = {0};
        ok = unhex(jstr(spec, member), &want) && same(out, n, &want);
        if (!ok) snprintf(why, why_cap, "%s differs (%zu bytes, peer's %zu)", member, n, want.n);
        bytes_free(&want);
    }
    webcrypto_buffer_free(out, n);
    return ok;
}

/* The peer's key imports from each format, and exported in every format it
 * gives the peer's bytes. */
static void check_formats(const keyent *e) {
    static const char *const pubs[] = {"spki", "jwkPub", "raw"};
    static const char *const privs[] = {"pkcs8", "jwkPriv"};
    bool raw = !is_rsa(e->alg);
    char why[400];
    for (size_t i = 0; i < (raw ? 3u : 2u); i++) {
        webcrypto_key *k = NULL;
        webcrypto_status st = import_member(e->spec, pubs[i], &k);
        bool ok = st == WEBCRYPTO_OK;
        if (!ok) snprintf(why, sizeof why, "import: %.300s", why_status(st));
        ok = ok && export_matches(k, WEBCRYPTO_FORMAT_SPKI, e->spec, "spki", why, sizeof why);
        ok = ok && (!raw || export_matches(k, WEBCRYPTO_FORMAT_RAW, e->spec, "raw", why, sizeof why));
        ok = ok && export_matches(k, WEBCRYPTO_FORMAT_JWK, e->spec, "jwkPub", why, sizeof why);
        report(ok, why, "%s: public %s imports; re-exported as spki%s and jwk it equals the peer's",
               e->id, pubs[i], raw ? ", raw" : "");
        webcrypto_key_free(k);
    }
    for (size_t i = 0; i < 2; i++) {
        webcrypto_key *k = NULL;
        webcrypto_status st = import_member(e->spec, privs[i], &k);
        bool ok = st == WEBCRYPTO_OK;
        if (!ok) snprintf(why, sizeof why, "import: %.300s", why_status(st));
        ok = ok && export_matches(k, WEBCRYPTO_FORMAT_PKCS8, e->spec, "pkcs8", why, sizeof why);
        ok = ok && export_matches(k, WEBCRYPTO_FORMAT_JWK, e->spec, "jwkPriv", why, sizeof why);
        report(ok, why, "%s: private %s imports; re-exported as pkcs8 and jwk it equals the peer's",
               e->id, privs[i]);
        webcrypto_key_free(k);
    }
}

static webcrypto_key *import_secret(const char *raw_hex, const webcrypto_params *alg,
                                    unsigned usages) {
    bytes b = {0};
    webcrypto_key *k = NULL;
    webcrypto_status st = WEBCRYPTO_ERR_INVALID_ARGUMENT;
    /* raw-secret for the draft's new algorithms (KMAC, ...), which have no raw */
    webcrypto_key_format f = webcrypto_algorithm_has_format(alg->name, WEBCRYPTO_FORMAT_RAW)
                                 ? WEBCRYPTO_FORMAT_RAW
                                 : WEBCRYPTO_FORMAT_RAW_SECRET;
    if (unhex(raw_hex, &b)) st = webcrypto_import_key(backend, f, b.p, b.n, alg, true, usages, &k);
    bytes_free(&b);
    if (st != WEBCRYPTO_OK) report(false, why_status(st), "import a raw %s key", webcrypto_algorithm_name(alg->name));
    return k;
}

/* ------------------------------------------------------------------------ */
/* Checking the peer's operations                                           */
/* ------------------------------------------------------------------------ */

static void check_sign(const json_t *op, const bytes *data) {
    const char *id = jstr(op, "key");
    keyent *e = find_key(id);
    char *what = json_dumps(json_object_get(op, "params"), JSON_COMPACT);
    jparams j = {0};
    bytes sig = {0};
    /* Both reads run even if one fails: each initializes what is freed at the end. */
    bool params_ok = jparams_read(json_object_get(op, "params"), &j);
    bool sig_ok = unhex(jstr(op, "sig"), &sig);
    bool parsed = params_ok && sig_ok;
    if (!e && skip_unsupported(id, "verify")) {
        /* nothing to check here */
    } else if (e && parsed && j.p.hash != WEBCRYPTO_ALG_NONE &&
               !webcrypto_backend_supports_hash(backend, j.p.name, j.p.hash)) {
        skip("the backend lacks the algorithm with that hash", "verify %s %s", id, what); /* SHA-3 */
    } else if (!e || !parsed) {
        report(false, "bad manifest entry", "verify %s %s", id, what);
    } else {
        bool valid = false;
        webcrypto_status st = webcrypto_verify(&j.p, e->pub, sig.p, sig.n, data->p, data->n, &valid);
        report(st == WEBCRYPTO_OK && valid, st ? why_status(st) : "invalid",
               "verify %s %s: the peer's signature is valid", id, what);
        if (sig.n) sig.p[sig.n / 2] ^= 0x10;
        st = webcrypto_verify(&j.p, e->pub, sig.p, sig.n, data->p, data->n, &valid);
        report(st == WEBCRYPTO_OK && !valid, st ? why_status(st) : "valid",
               "verify %s %s: a flipped bit is invalid", id, what);
        if (sig.n) sig.p[sig.n / 2] ^= 0x10;
        if (j.p.name == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 || j.p.name == WEBCRYPTO_ALG_ED25519 ||
            j.p.name == WEBCRYPTO_ALG_ED448) {
            uint8_t out[1024];
            size_t n = 0;
            st = webcrypto_sign(&j.p, e->priv, data->p, data->n, out, sizeof out, &n);
            report(st == WEBCRYPTO_OK && same(out, n, &sig), st ? why_status(st) : "differs",
                   "sign %s %s: deterministic, same bytes as the peer", id, what);
        }
    }
    free(what);
    jparams_free(&j);
    bytes_free(&sig);
}

static void check_encrypt(const json_t *op, const bytes *data) {
    const char *id = jstr(op, "key");
    keyent *e = find_key(id);
    const char *label = jstr(json_object_get(op, "params"), "label");
    jparams j = {0};
    bytes ct = {0};
    /* Both reads run even if one fails: each initializes what is freed at the end. */
    bool params_ok = jparams_read(json_object_get(op, "params"), &j);
    bool ct_ok = unhex(jstr(op, "ct"), &ct);
    bool parsed = params_ok && ct_ok;
    size_t len = (size_t)json_integer_value(json_object_get(op, "dataLength"));
    if (!e && skip_unsupported(id, "decrypt RSA-OAEP")) {
        /* nothing to check here */
    } else if (!e || !parsed || len > data->n) {
        report(false, "bad manifest entry", "decrypt RSA-OAEP %s", id);
    } else {
        uint8_t out[1024];
        size_t n = 0;
        webcrypto_status st = webcrypto_decrypt(&j.p, e->priv, ct.p, ct.n, out, sizeof out, &n);
        bytes want = {data->p, len};
        report(st == WEBCRYPTO_OK && same(out, n, &want), st ? why_status(st) : "wrong plaintext",
               "decrypt RSA-OAEP %s label %s: the peer's ciphertext gives the data", id,
               label ? label : "(none)");
        static const uint8_t other[] = {0x01};
        j.p.label = other;
        j.p.label_len = label && strcmp(label, "01") == 0 ? 0 : 1;
        st = webcrypto_decrypt(&j.p, e->priv, ct.p, ct.n, out, sizeof out, &n);
        report(st == WEBCRYPTO_ERR_OPERATION, st ? why_status(st) : "decrypted",
               "decrypt RSA-OAEP %s with another label: OperationError", id);
    }
    jparams_free(&j);
    bytes_free(&ct);
}

/* Derived bits compared as the spec defines them: a byte sequence holding
 * the first `bits` bits, so those agree and the bits past them in the last
 * byte are zero, in the library's result and in the peer's. */
static bool same_bits(const uint8_t *own, size_t n, const bytes *peer, size_t bits, char *why,
                      size_t why_cap) {
    if (n != peer->n) {
        snprintf(why, why_cap, "%zu bytes, the peer's %zu", n, peer->n);
        return false;
    }
    unsigned tail = bits != WEBCRYPTO_LENGTH_FULL && bits % 8 ? 0xffu >> (bits % 8) : 0;
    for (size_t i = 0; i < n; i++) {
        unsigned keep = i + 1 == n ? ~tail & 0xffu : 0xffu;
        if ((own[i] ^ peer->p[i]) & keep) {
            snprintf(why, why_cap, "secrets differ");
            return false;
        }
    }
    const char *side = n && (own[n - 1] & tail) ? "the library's" : n && (peer->p[n - 1] & tail) ? "the peer's" : NULL;
    if (side) snprintf(why, why_cap, "%s result sets bits past the length %zu (the spec zeroes them)", side, bits);
    return side == NULL;
}

static void check_derive(const json_t *op) {
    keyent *a = find_key(jstr(op, "a")), *b = find_key(jstr(op, "b"));
    json_t *length = json_object_get(op, "length");
    bytes want = {0};
    bool parsed = unhex(jstr(op, "bits"), &want);
    size_t bits = json_is_integer(length) ? (size_t)json_integer_value(length) : WEBCRYPTO_LENGTH_FULL;
    char bits_name[32] = "all";
    if (bits != WEBCRYPTO_LENGTH_FULL) snprintf(bits_name, sizeof bits_name, "%zu", bits);
    if ((!a && skip_unsupported(jstr(op, "a"), "deriveBits")) || (!b && skip_unsupported(jstr(op, "b"), "deriveBits"))) {
        /* nothing to check here */
    } else if (!a || !b || !parsed) {
        report(false, "bad manifest entry", "deriveBits %s x %s", jstr(op, "b"), jstr(op, "a"));
    } else {
        /* the other direction: b's private key with a's public key */
        webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
        p.name = a->alg;
        p.public_key = a->pub;
        uint8_t out[66];
        size_t n = bits == WEBCRYPTO_LENGTH_FULL ? want.n : (bits + 7) / 8;
        size_t dlen = 0;
        webcrypto_status st = n <= sizeof out ? webcrypto_derive_bits(&p, b->priv, bits, out, sizeof out, &dlen)
                                              : WEBCRYPTO_ERR_INVALID_ARGUMENT;
        char why[160] = "";
        bool ok = st == WEBCRYPTO_OK && same_bits(out, n, &want, bits, why, sizeof why);
        report(ok, st ? why_status(st) : why, "deriveBits %s x %s (%s bits): secrets agree", b->id,
               a->id, bits_name);
    }
    bytes_free(&want);
}

static void check_cipher(const json_t *op, const bytes *data) {
    jparams j = {0};
    bytes ct = {0};
    /* Both reads run even if one fails: each initializes what is freed at the end. */
    bool params_ok = jparams_read(json_object_get(op, "params"), &j);
    bool ct_ok = unhex(jstr(op, "ct"), &ct);
    bool parsed = params_ok && ct_ok;
    size_t len = (size_t)json_integer_value(json_object_get(op, "dataLength"));
    char *what = json_dumps(json_object_get(op, "params"), JSON_COMPACT);
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = j.p.name;
    webcrypto_key *key = parsed && len <= data->n
                             ? import_secret(jstr(op, "key"), &kp,
                                             WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT)
                             : NULL;
    if (!key) {
        report(false, "bad manifest entry", "cipher %s", what);
    } else {
        bytes want = {data->p, len};
        size_t cap = len + 32, n = 0;
        uint8_t *out = malloc(cap);
        webcrypto_status st = out ? webcrypto_decrypt(&j.p, key, ct.p, ct.n, out, cap, &n)
                                  : WEBCRYPTO_ERR_NO_MEMORY;
        report(st == WEBCRYPTO_OK && same(out, n, &want), st ? why_status(st) : "wrong plaintext",
               "decrypt %s: the peer's ciphertext gives the data", what);
        st = out ? webcrypto_encrypt(&j.p, key, data->p, len, out, cap, &n) : WEBCRYPTO_ERR_NO_MEMORY;
        report(st == WEBCRYPTO_OK && same(out, n, &ct), st ? why_status(st) : "differs",
               "encrypt %s: same bytes as the peer", what);
        free(out);
    }
    webcrypto_key_free(key);
    free(what);
    jparams_free(&j);
    bytes_free(&ct);
}

static void check_mac(const json_t *op, const bytes *data) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_HMAC;
    bytes mac = {0};
    bool parsed = webcrypto_algorithm_from_name(jstr(op, "hash"), &p.hash) == WEBCRYPTO_OK &&
                  unhex(jstr(op, "mac"), &mac);
    if (parsed && !webcrypto_backend_supports_hash(backend, WEBCRYPTO_ALG_HMAC, p.hash)) {
        skip("the backend has no HMAC with that hash", "HMAC %s", jstr(op, "hash")); /* SHA-3 */
        bytes_free(&mac);
        return;
    }
    webcrypto_key *key =
        parsed ? import_secret(jstr(op, "key"), &p, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY) : NULL;
    if (key) {
        bool valid = false;
        webcrypto_status st = webcrypto_verify(&p, key, mac.p, mac.n, data->p, data->n, &valid);
        report(st == WEBCRYPTO_OK && valid, st ? why_status(st) : "invalid",
               "verify HMAC %s: the peer's MAC is valid", jstr(op, "hash"));
        uint8_t out[64];
        size_t n = 0;
        st = webcrypto_sign(&p, key, data->p, data->n, out, sizeof out, &n);
        report(st == WEBCRYPTO_OK && same(out, n, &mac), st ? why_status(st) : "differs",
               "sign HMAC %s: same MAC as the peer", jstr(op, "hash"));
    } else {
        report(false, "bad manifest entry", "HMAC %s", jstr(op, "hash"));
    }
    webcrypto_key_free(key);
    bytes_free(&mac);
}

/* ------------------------------------------------------------------------ */
/* SHA-3, cSHAKE and KMAC ("Modern Algorithms in the Web Cryptography API"): */
/* ops "digest" {params: {name, outputLength?, customization?,              */
/* functionName?}, digest} and "kmac" {params: {name, outputLength,         */
/* customization?}, key (raw), mac}; HMAC with SHA-3 travels as "mac". All  */
/* deterministic: byte-equal on both sides. A Node without them (20) skips. */
/* ------------------------------------------------------------------------ */

/* The params of a digest or kmac op; the hex members decoded into b. */
typedef struct modern_params {
    webcrypto_params p;
    bytes s, n;
} modern_params;

static bool modern_read(const json_t *o, modern_params *m) {
    memset(m, 0, sizeof *m);
    webcrypto_params_init(&m->p, sizeof m->p);
    const char *name = jstr(o, "name");
    if (!name || webcrypto_algorithm_from_name(name, &m->p.name) != WEBCRYPTO_OK) return false;
    json_t *len = json_object_get(o, "outputLength");
    if (len) m->p.output_length = (size_t)json_integer_value(len);
    if (jstr(o, "customization") && !unhex(jstr(o, "customization"), &m->s)) return false;
    if (jstr(o, "functionName") && !unhex(jstr(o, "functionName"), &m->n)) return false;
    m->p.customization = m->s.p;
    m->p.customization_len = m->s.n;
    m->p.function_name = m->n.p;
    m->p.function_name_len = m->n.n;
    return true;
}

/* cSHAKE or KMAC parameters this backend cannot take (the jca variants'
 * SHAKE and KMAC have one output length each and no customization):
 * webcrypto_supports, asked for the whole bytes that hold outputLength (it
 * answers false for other lengths on every backend). */
static bool takes_params(webcrypto_operation op, const webcrypto_params *p) {
    webcrypto_params q = *p;
    q.output_length = (q.output_length + 7) / 8 * 8;
    return webcrypto_supports(backend, op, &q, 0, NULL);
}

static void modern_free(modern_params *m) {
    bytes_free(&m->s);
    bytes_free(&m->n);
}

static void check_digest(const json_t *op, const bytes *data) {
    modern_params m;
    bytes want = {0};
    char *what = dump(json_object_get(op, "params"));
    if (!modern_read(json_object_get(op, "params"), &m) || !unhex(jstr(op, "digest"), &want)) {
        report(false, "bad manifest entry", "digest %s", shown(what));
    } else if (!webcrypto_backend_supports(backend, m.p.name)) {
        skip(lacks(m.p.name), "digest %s", what);
    } else {
        uint8_t *out = malloc(want.n + 1);
        size_t n = 0;
        webcrypto_status st = out ? webcrypto_digest_params(backend, &m.p, data->p, data->n, out,
                                                            want.n + 1, &n)
                                  : WEBCRYPTO_ERR_NO_MEMORY;
        /* cSHAKE with N or S (no library here has it), or a length the
         * backend's SHAKE does not have */
        if (st == WEBCRYPTO_ERR_NOT_SUPPORTED && !takes_params(WEBCRYPTO_OP_DIGEST, &m.p))
            skip(why_status(st), "digest %s", what);
        else
            report(st == WEBCRYPTO_OK && same(out, n, &want), st ? why_status(st) : "differs",
                   "digest %s: same bytes as the peer", what);
        free(out);
    }
    modern_free(&m);
    bytes_free(&want);
    free(what);
}

static void check_kmac(const json_t *op, const bytes *data) {
    modern_params m;
    bytes mac = {0};
    char *what = dump(json_object_get(op, "params"));
    if (!modern_read(json_object_get(op, "params"), &m) || !unhex(jstr(op, "mac"), &mac)) {
        report(false, "bad manifest entry", "KMAC %s", shown(what));
    } else if (!webcrypto_backend_supports(backend, m.p.name)) {
        skip(lacks(m.p.name), "KMAC %s", what);
    } else {
        webcrypto_params kp = WEBCRYPTO_PARAMS(.name = m.p.name);
        webcrypto_key *key =
            import_secret(jstr(op, "key"), &kp, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
        if (key && !takes_params(WEBCRYPTO_OP_SIGN, &m.p)) {
            /* a length or customization the backend's KMAC does not take:
             * NotSupportedError, for verify and sign alike */
            bool valid = false;
            uint8_t out[64];
            size_t n = 0;
            webcrypto_status sv = webcrypto_verify(&m.p, key, mac.p, mac.n, data->p, data->n, &valid);
            webcrypto_status ss = webcrypto_sign(&m.p, key, data->p, data->n, out, sizeof out, &n);
            if (sv == WEBCRYPTO_ERR_NOT_SUPPORTED && ss == WEBCRYPTO_ERR_NOT_SUPPORTED)
                skip(why_status(ss), "KMAC %s", what);
            else
                report(false, "supports() is false, but sign or verify did not refuse",
                       "KMAC %s: NotSupportedError", what);
        } else if (key) {
            bool valid = false;
            webcrypto_status st = webcrypto_verify(&m.p, key, mac.p, mac.n, data->p, data->n, &valid);
            report(st == WEBCRYPTO_OK && valid, st ? why_status(st) : "invalid",
                   "verify KMAC %s: the peer's MAC is valid", what);
            uint8_t *out = malloc(mac.n + 1);
            size_t n = 0;
            st = out ? webcrypto_sign(&m.p, key, data->p, data->n, out, mac.n + 1, &n)
                     : WEBCRYPTO_ERR_NO_MEMORY;
            report(st == WEBCRYPTO_OK && same(out, n, &mac), st ? why_status(st) : "differs",
                   "sign KMAC %s: same MAC as the peer", what);
            free(out);
        }
        webcrypto_key_free(key);
    }
    modern_free(&m);
    bytes_free(&mac);
    free(what);
}

/* Ours: SHA-3 digests, cSHAKE (SHAKE: no N or S) and KMAC of the data, and
 * HMAC with SHA3-256, as far as the backend has them. */
static void produce_sha3_kmac(json_t *ops, const bytes *data) {
    static const struct {
        const char *name;
        size_t bits; /* cSHAKE's outputLength (20: not whole bytes) */
    } digests[] = {{"SHA3-256", 0},   {"SHA3-384", 0},   {"SHA3-512", 0},  {"cSHAKE128", 256},
                   {"cSHAKE256", 512}, {"cSHAKE256", 20}, {"cSHAKE128", 8}};
    for (size_t i = 0; i < sizeof digests / sizeof digests[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
        if (webcrypto_algorithm_from_name(digests[i].name, &p.name) != WEBCRYPTO_OK) continue;
        p.output_length = digests[i].bits;
        if (!webcrypto_backend_supports(backend, p.name)) {
            skip(lacks(p.name), "digest %s (%zu bits)", digests[i].name, digests[i].bits);
            continue;
        }
        uint8_t out[64];
        size_t n = 0;
        webcrypto_status st = webcrypto_digest_params(backend, &p, data->p, data->n, out, sizeof out, &n);
        if (st == WEBCRYPTO_ERR_NOT_SUPPORTED && !takes_params(WEBCRYPTO_OP_DIGEST, &p)) {
            skip(why_status(st), "digest %s (%zu bits)", digests[i].name, digests[i].bits);
            continue;
        }
        if (st != WEBCRYPTO_OK) {
            report(false, why_status(st), "digest %s", digests[i].name);
            continue;
        }
        json_t *params = digests[i].bits
                             ? json_pack("{s:s, s:I}", "name", digests[i].name, "outputLength",
                                         (json_int_t)digests[i].bits)
                             : json_pack("{s:s}", "name", digests[i].name);
        json_array_append_new(ops, json_pack("{s:s, s:o, s:o}", "op", "digest", "params", params,
                                             "digest", hexstr(out, n)));
    }
    static const struct {
        webcrypto_algorithm alg;
        size_t key_bits, out_bits;
        const char *custom;
    } kmacs[] = {{WEBCRYPTO_ALG_KMAC128, 0, 256, NULL},
                 {WEBCRYPTO_ALG_KMAC128, 200, 128, "4d7920546167676564204170706c69636174696f6e"},
                 {WEBCRYPTO_ALG_KMAC256, 0, 512, "00ff"}};
    for (size_t i = 0; i < sizeof kmacs / sizeof kmacs[0]; i++) {
        if (!webcrypto_backend_supports(backend, kmacs[i].alg)) {
            skip(lacks(kmacs[i].alg), "KMAC %zu bits", kmacs[i].out_bits);
            continue;
        }
        webcrypto_params g = WEBCRYPTO_PARAMS(.name = kmacs[i].alg, .length = kmacs[i].key_bits);
        webcrypto_key *k = NULL;
        uint8_t *raw = NULL, mac[64];
        size_t rn = 0, n = 0;
        bytes s = {0};
        webcrypto_status st = kmacs[i].custom && !unhex(kmacs[i].custom, &s)
                                  ? WEBCRYPTO_ERR_INVALID_ARGUMENT
                                  : webcrypto_generate_key(backend, &g, true,
                                                           WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = kmacs[i].alg, .output_length = kmacs[i].out_bits,
                                              .customization = s.p, .customization_len = s.n);
        if (st == WEBCRYPTO_OK) st = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, k, &raw, &rn);
        if (st == WEBCRYPTO_OK) st = webcrypto_sign(&p, k, data->p, data->n, mac, sizeof mac, &n);
        if (st == WEBCRYPTO_ERR_NOT_SUPPORTED && !takes_params(WEBCRYPTO_OP_SIGN, &p)) {
            skip(why_status(st), "KMAC %s %zu bits", webcrypto_algorithm_name(kmacs[i].alg),
                 kmacs[i].out_bits);
        } else if (st == WEBCRYPTO_OK) {
            json_t *params = json_pack("{s:s, s:I}", "name", webcrypto_algorithm_name(kmacs[i].alg),
                                       "outputLength", (json_int_t)kmacs[i].out_bits);
            if (kmacs[i].custom) json_object_set_new(params, "customization", json_string(kmacs[i].custom));
            json_array_append_new(ops, json_pack("{s:s, s:o, s:o, s:o}", "op", "kmac", "params", params,
                                                 "key", hexstr(raw, rn), "mac", hexstr(mac, n)));
        } else {
            report(false, why_status(st), "KMAC %s", webcrypto_algorithm_name(kmacs[i].alg));
        }
        webcrypto_buffer_free(raw, rn);
        webcrypto_key_free(k);
        bytes_free(&s);
    }
    if (!webcrypto_backend_supports_hash(backend, WEBCRYPTO_ALG_HMAC, WEBCRYPTO_ALG_SHA3_256)) {
        skip("the backend has no HMAC with SHA3-256", "HMAC SHA3-256");
        return;
    }
    /* HMAC with SHA3-256: an explicit length (SHA-3 has no default) */
    webcrypto_params hp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA3_256,
                                           .length = 384);
    webcrypto_key *k = NULL;
    uint8_t *raw = NULL, mac[64];
    size_t rn = 0, n = 0;
    webcrypto_status st =
        webcrypto_generate_key(backend, &hp, true, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k);
    if (st == WEBCRYPTO_OK) st = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, k, &raw, &rn);
    if (st == WEBCRYPTO_OK) st = webcrypto_sign(&hp, k, data->p, data->n, mac, sizeof mac, &n);
    if (st == WEBCRYPTO_OK)
        json_array_append_new(ops, json_pack("{s:s, s:s, s:o, s:o}", "op", "mac", "hash", "SHA3-256",
                                             "key", hexstr(raw, rn), "mac", hexstr(mac, n)));
    else
        report(false, why_status(st), "HMAC SHA3-256");
    webcrypto_buffer_free(raw, rn);
    webcrypto_key_free(k);
}

static webcrypto_key_format format_named(const char *f) {
    if (!f) return (webcrypto_key_format)0;
    if (strcmp(f, "raw") == 0) return WEBCRYPTO_FORMAT_RAW;
    if (strcmp(f, "jwk") == 0) return WEBCRYPTO_FORMAT_JWK;
    if (strcmp(f, "pkcs8") == 0) return WEBCRYPTO_FORMAT_PKCS8;
    if (strcmp(f, "spki") == 0) return WEBCRYPTO_FORMAT_SPKI;
    return (webcrypto_key_format)0;
}

static void check_wrap(const json_t *op) {
    const json_t *wk = json_object_get(op, "wrappingKey"), *inner = json_object_get(op, "inner");
    char *what = json_dumps(json_object_get(op, "wrapAlg"), JSON_COMPACT);
    const char *fmt = jstr(op, "format");
    jparams wa, ia;
    bytes wrapped = {0};
    /* All three reads run even if one fails: each initializes what is freed at the end. */
    bool wrap_alg_ok = jparams_read(json_object_get(op, "wrapAlg"), &wa);
    bool inner_alg_ok = jparams_read(json_object_get(inner, "alg"), &ia);
    bool wrapped_ok = unhex(jstr(op, "wrapped"), &wrapped);
    bool parsed = wrap_alg_ok && inner_alg_ok && wrapped_ok;
    unsigned usages = 0;
    size_t i;
    json_t *u;
    json_array_foreach(json_object_get(inner, "usages"), i, u) {
        unsigned bit = 0;
        parsed = parsed && webcrypto_usage_from_name(json_string_value(u), &bit) == WEBCRYPTO_OK;
        usages |= bit;
    }
    const webcrypto_key *uk = NULL;
    webcrypto_key *owned = NULL;
    bool lacking = parsed && !webcrypto_backend_supports(backend, ia.p.name);
    if (lacking) {
        skip(lacks(ia.p.name), "unwrapKey %s key wrapped with %s", fmt, what);
    } else if (parsed && jstr(wk, "ref")) {
        keyent *e = find_key(jstr(wk, "ref"));
        uk = e ? e->priv : NULL;
        lacking = !e && skip_unsupported(jstr(wk, "ref"), "unwrapKey");
    } else if (parsed) {
        webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
        kp.name = wa.p.name;
        uk = owned = import_secret(jstr(wk, "raw"), &kp,
                                   WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY);
    }
    if (lacking) {
        /* nothing to check here */
    } else if (!uk || !format_named(fmt)) {
        report(false, "bad manifest entry", "unwrapKey %s %s", fmt, what);
    } else {
        webcrypto_key *k = NULL;
        webcrypto_status st = webcrypto_unwrap_key(format_named(fmt), wrapped.p, wrapped.n, uk, &wa.p,
                                                   &ia.p, true, usages, &k);
        char why[400] = "";
        bool ok = st == WEBCRYPTO_OK;
        if (!ok) snprintf(why, sizeof why, "%.300s", why_status(st));
        bool raw = jstr(inner, "raw") != NULL;
        ok = ok && export_matches(k, raw ? WEBCRYPTO_FORMAT_RAW : WEBCRYPTO_FORMAT_PKCS8, inner,
                                  raw ? "raw" : "pkcs8", why, sizeof why);
        report(ok, why, "unwrapKey %s key wrapped with %s: gives the peer's key", fmt, what);
        webcrypto_key_free(k);
    }
    webcrypto_key_free(owned);
    free(what);
    jparams_free(&wa);
    jparams_free(&ia);
    bytes_free(&wrapped);
}

/* ---- "Modern Algorithms in the Web Cryptography API": ChaCha20-Poly1305,
 * AES-OCB (ops "modern-cipher", as "cipher": the key raw, the ciphertext
 * byte-equal both ways) and Argon2 (ops "argon2": the password, the
 * parameters and the bits, byte-equal). A backend without one of them skips
 * its checks, saying so. ---- */

static webcrypto_key *gen_secret(webcrypto_algorithm alg, size_t bits, unsigned usages, json_t **raw);

static void check_modern_cipher(const json_t *op, const bytes *data) {
    webcrypto_algorithm alg = WEBCRYPTO_ALG_NONE;
    const char *name = jstr(json_object_get(op, "params"), "name");
    if (!name || webcrypto_algorithm_from_name(name, &alg) != WEBCRYPTO_OK) {
        report(false, "unknown algorithm", "modern-cipher %s", name ? name : "(no name)");
        return;
    }
    if (!webcrypto_backend_supports(backend, alg)) {
        skip(lacks(alg), "%s encrypt/decrypt with the peer's key", name);
        return;
    }
    check_cipher(op, data);
}

/* Argon2's members from a manifest entry; the hex buffers in store. */
static bool argon2_params_read(const json_t *o, webcrypto_params *p, bytes store[3]) {
    webcrypto_params_init(p, sizeof *p);
    const char *name = jstr(o, "name");
    if (!name || webcrypto_algorithm_from_name(name, &p->name)) return false;
    static const char *const hexes[] = {"nonce", "secretValue", "associatedData"};
    for (size_t i = 0; i < 3; i++) {
        const char *h = jstr(o, hexes[i]);
        if (h && !unhex(h, &store[i])) return false;
    }
    static const uint8_t empty[1] = {0};
    p->nonce = store[0].p ? store[0].p : empty;
    p->nonce_len = store[0].n;
    p->secret_value = store[1].p;
    p->secret_value_len = store[1].n;
    p->additional_data = store[2].p;
    p->additional_data_len = store[2].n;
    p->parallelism = (uint32_t)json_integer_value(json_object_get(o, "parallelism"));
    p->memory = (uint32_t)json_integer_value(json_object_get(o, "memory"));
    p->passes = (uint32_t)json_integer_value(json_object_get(o, "passes"));
    return true;
}

static void check_argon2(const json_t *op) {
    webcrypto_params p;
    bytes store[3] = {{0}}, pw = {0}, want = {0};
    char *what = json_dumps(json_object_get(op, "params"), JSON_COMPACT);
    size_t bits = (size_t)json_integer_value(json_object_get(op, "length"));
    bool parsed = argon2_params_read(json_object_get(op, "params"), &p, store) &&
                  unhex(jstr(op, "password"), &pw) && unhex(jstr(op, "bits"), &want);
    if (!parsed) {
        report(false, "bad manifest entry", "argon2 %s", what);
    } else if (!webcrypto_backend_supports(backend, p.name)) {
        skip(lacks(p.name), "deriveBits %s", what);
    } else {
        webcrypto_params kp = WEBCRYPTO_PARAMS(.name = p.name);
        webcrypto_key *k = NULL;
        static const uint8_t none[1] = {0};
        webcrypto_status st = webcrypto_import_key(backend, WEBCRYPTO_FORMAT_RAW_SECRET,
                                                   pw.p ? pw.p : none, pw.n, &kp, false,
                                                   WEBCRYPTO_USAGE_DERIVE_BITS, &k);
        uint8_t *out = malloc(bits / 8 + 1);
        size_t n = 0;
        if (st == WEBCRYPTO_OK)
            st = out ? webcrypto_derive_bits(&p, k, bits, out, bits / 8, &n) : WEBCRYPTO_ERR_NO_MEMORY;
        report(st == WEBCRYPTO_OK && same(out, n, &want), st ? why_status(st) : "differs",
               "deriveBits %s (%zu bits): same bytes as the peer", what, bits);
        free(out);
        webcrypto_key_free(k);
    }
    for (size_t i = 0; i < 3; i++) bytes_free(&store[i]);
    bytes_free(&pw);
    bytes_free(&want);
    free(what);
}

static void produce_modern_cipher(json_t *ops, const bytes *data) {
    static const struct {
        const char *params;
        size_t bits, len;
    } ciphers[] = {
        {"{\"name\":\"ChaCha20-Poly1305\",\"iv\":\"000102030405060708090a0b\",\"additionalData\":\"c0ffee\"}", 256, 0},
        {"{\"name\":\"ChaCha20-Poly1305\",\"iv\":\"0b0a09080706050403020100\",\"tagLength\":128}", 256, 33},
        {"{\"name\":\"AES-OCB\",\"iv\":\"000102030405060708090a0b0c0d0e\",\"additionalData\":\"0102\",\"tagLength\":64}", 128, 0},
        {"{\"name\":\"AES-OCB\",\"iv\":\"ff\",\"tagLength\":96}", 192, 47},
        {"{\"name\":\"AES-OCB\",\"iv\":\"bbaa99887766554433221101\"}", 256, 0},
    };
    for (size_t i = 0; i < sizeof ciphers / sizeof ciphers[0]; i++) {
        json_t *pj = json_loads(ciphers[i].params, 0, NULL);
        jparams j = {0};
        if (!jparams_read(pj, &j)) {
            report(false, "bad params", "%s", ciphers[i].params);
        } else if (!webcrypto_backend_supports(backend, j.p.name)) {
            skip(lacks(j.p.name), "encrypt %s for Node", ciphers[i].params);
        } else {
            json_t *raw = NULL;
            size_t len = ciphers[i].len ? ciphers[i].len : data->n, n = 0;
            webcrypto_key *k = gen_secret(j.p.name, ciphers[i].bits,
                                          WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &raw);
            uint8_t *out = malloc(len + 32);
            webcrypto_status st = k && out ? webcrypto_encrypt(&j.p, k, data->p, len, out, len + 32, &n)
                                           : WEBCRYPTO_ERR_INVALID_ARGUMENT;
            if (st == WEBCRYPTO_OK)
                json_array_append_new(ops, json_pack("{s:s, s:O, s:o, s:I, s:o}", "op", "modern-cipher",
                                                     "params", pj, "key", raw, "dataLength",
                                                     (json_int_t)len, "ct", hexstr(out, n)));
            else {
                report(false, why_status(st), "encrypt %s", ciphers[i].params);
                json_decref(raw);
            }
            free(out);
            webcrypto_key_free(k);
        }
        jparams_free(&j);
        json_decref(pj);
    }
    /* Argon2: the password and nonce from the data, each type, with and
     * without the secret and associated data. */
    static const struct {
        const char *params;
        size_t bits;
    } argon2[] = {
        {"{\"name\":\"Argon2id\",\"parallelism\":2,\"memory\":64,\"passes\":2,"
         "\"secretValue\":\"0102030405060708\",\"associatedData\":\"a1a2a3a4a5\"}", 256},
        {"{\"name\":\"Argon2d\",\"parallelism\":1,\"memory\":16,\"passes\":1}", 512},
        {"{\"name\":\"Argon2i\",\"parallelism\":3,\"memory\":48,\"passes\":3,"
         "\"associatedData\":\"00\"}", 128},
    };
    json_t *nonce = hexstr(data->p + 21, 16);
    for (size_t i = 0; i < sizeof argon2 / sizeof argon2[0]; i++) {
        const char *text = argon2[i].params;
        json_t *pj = json_loads(text, 0, NULL);
        if (pj) json_object_set(pj, "nonce", nonce);
        webcrypto_params p;
        bytes store[3] = {{0}};
        if (!pj || !argon2_params_read(pj, &p, store)) {
            report(false, "bad params", "%s", text);
        } else if (!webcrypto_backend_supports(backend, p.name)) {
            skip(lacks(p.name), "deriveBits %s for Node", text);
        } else {
            const uint8_t *pw = data->p + 40;
            size_t pw_len = 10 + i * 7, n = 0;
            webcrypto_params kp = WEBCRYPTO_PARAMS(.name = p.name);
            webcrypto_key *k = NULL;
            uint8_t out[64];
            webcrypto_status st = webcrypto_import_key(backend, WEBCRYPTO_FORMAT_RAW_SECRET, pw, pw_len, &kp,
                                                       false, WEBCRYPTO_USAGE_DERIVE_BITS, &k);
            if (st == WEBCRYPTO_OK) st = webcrypto_derive_bits(&p, k, argon2[i].bits, out, sizeof out, &n);
            if (st == WEBCRYPTO_OK)
                json_array_append_new(ops, json_pack("{s:s, s:O, s:o, s:I, s:o}", "op", "argon2",
                                                     "params", pj, "password", hexstr(pw, pw_len),
                                                     "length", (json_int_t)argon2[i].bits, "bits",
                                                     hexstr(out, n)));
            else
                report(false, why_status(st), "deriveBits %s", text);
            webcrypto_key_free(k);
        }
        for (size_t b = 0; b < 3; b++) bytes_free(&store[b]);
        json_decref(pj);
    }
    json_decref(nonce);
}

static void consume(const json_t *m) {
    bytes data = {0};
    if (!unhex(jstr(m, "data"), &data)) {
        report(false, "no data", "read the peer's manifest");
        return;
    }
    printf("# libwebcrypto checks %s\n", jstr(m, "producer"));
    const char *id;
    json_t *spec;
    json_object_foreach(json_object_get(m, "keys"), id, spec) {
        size_t before = nkeys;
        add_key(id, spec);
        if (nkeys > before) check_formats(&keytab[before]);
    }
    size_t i;
    json_t *op;
    json_array_foreach(json_object_get(m, "ops"), i, op) {
        const char *kind = jstr(op, "op");
        if (!kind) kind = "";
        if (strcmp(kind, "sign") == 0) check_sign(op, &data);
        else if (strcmp(kind, "encrypt") == 0) check_encrypt(op, &data);
        else if (strcmp(kind, "derive") == 0) check_derive(op);
        else if (strcmp(kind, "cipher") == 0) check_cipher(op, &data);
        else if (strcmp(kind, "mac") == 0) check_mac(op, &data);
        else if (strcmp(kind, "wrap") == 0) check_wrap(op);
        else if (strcmp(kind, "digest") == 0) check_digest(op, &data);
        else if (strcmp(kind, "kmac") == 0) check_kmac(op, &data);
        else if (strcmp(kind, "modern-cipher") == 0) check_modern_cipher(op, &data);
        else if (strcmp(kind, "argon2") == 0) check_argon2(op);
        else report(false, NULL, "unknown operation %s", kind);
    }
    bytes_free(&data);
}

/* ------------------------------------------------------------------------ */
/* Making our own                                                           */
/* ------------------------------------------------------------------------ */

static const struct {
    const char *id, *alg, *ops; /* alg: generation params; ops: sign or encrypt params */
} catalog[] = {
    {"RSASSA-SHA-256", "{\"name\":\"RSASSA-PKCS1-v1_5\",\"hash\":\"SHA-256\",\"modulusLength\":2048,\"publicExponent\":\"010001\"}", "[{}]"},
    {"RSASSA-SHA-1", "{\"name\":\"RSASSA-PKCS1-v1_5\",\"hash\":\"SHA-1\",\"modulusLength\":1024,\"publicExponent\":\"010001\"}", "[{}]"},
    {"RSASSA-SHA-384", "{\"name\":\"RSASSA-PKCS1-v1_5\",\"hash\":\"SHA-384\",\"modulusLength\":3072,\"publicExponent\":\"010001\"}", "[{}]"},
    {"RSA-PSS-SHA-256", "{\"name\":\"RSA-PSS\",\"hash\":\"SHA-256\",\"modulusLength\":2048,\"publicExponent\":\"010001\"}", "[{\"saltLength\":32},{\"saltLength\":0}]"},
    {"RSA-PSS-SHA-512", "{\"name\":\"RSA-PSS\",\"hash\":\"SHA-512\",\"modulusLength\":2048,\"publicExponent\":\"010001\"}", "[{\"saltLength\":64},{\"saltLength\":1}]"},
    {"RSA-OAEP-SHA-256", "{\"name\":\"RSA-OAEP\",\"hash\":\"SHA-256\",\"modulusLength\":2048,\"publicExponent\":\"010001\"}", "[{},{\"label\":\"6c6162656c\"}]"},
    {"RSA-OAEP-SHA-384-e3", "{\"name\":\"RSA-OAEP\",\"hash\":\"SHA-384\",\"modulusLength\":2048,\"publicExponent\":\"03\"}", "[{},{\"label\":\"\"},{\"label\":\"00\"}]"},
    {"ECDSA-P-256", "{\"name\":\"ECDSA\",\"namedCurve\":\"P-256\"}", "[{\"hash\":\"SHA-256\"},{\"hash\":\"SHA-512\"},{\"hash\":\"SHA-1\"}]"},
    {"ECDSA-P-384", "{\"name\":\"ECDSA\",\"namedCurve\":\"P-384\"}", "[{\"hash\":\"SHA-384\"},{\"hash\":\"SHA-256\"}]"},
    {"ECDSA-P-521", "{\"name\":\"ECDSA\",\"namedCurve\":\"P-521\"}", "[{\"hash\":\"SHA-512\"},{\"hash\":\"SHA-384\"}]"},
    {"Ed25519", "{\"name\":\"Ed25519\"}", "[{}]"},
    {"ECDH-P-256-A", "{\"name\":\"ECDH\",\"namedCurve\":\"P-256\"}", NULL},
    {"ECDH-P-256-B", "{\"name\":\"ECDH\",\"namedCurve\":\"P-256\"}", NULL},
    {"ECDH-P-384-A", "{\"name\":\"ECDH\",\"namedCurve\":\"P-384\"}", NULL},
    {"ECDH-P-384-B", "{\"name\":\"ECDH\",\"namedCurve\":\"P-384\"}", NULL},
    {"ECDH-P-521-A", "{\"name\":\"ECDH\",\"namedCurve\":\"P-521\"}", NULL},
    {"ECDH-P-521-B", "{\"name\":\"ECDH\",\"namedCurve\":\"P-521\"}", NULL},
    {"X25519-A", "{\"name\":\"X25519\"}", NULL},
    {"X25519-B", "{\"name\":\"X25519\"}", NULL},
    /* Secure Curves draft; Ed448 without a context (Node 20, OpenSSL 3.0) */
    {"Ed448", "{\"name\":\"Ed448\"}", "[{}]"},
    {"X448-A", "{\"name\":\"X448\"}", NULL},
    {"X448-B", "{\"name\":\"X448\"}", NULL},
};

/* Adds member `name` = export of key in fmt (hex, or the JWK as JSON). */
static bool put_export(json_t *obj, const char *name, webcrypto_key_format fmt, const webcrypto_key *key) {
    uint8_t *out = NULL;
    size_t n = 0;
    webcrypto_status st = webcrypto_export_key(fmt, key, &out, &n);
    if (st != WEBCRYPTO_OK) {
        report(false, why_status(st), "export %s", name);
        return false;
    }
    json_t *v = fmt == WEBCRYPTO_FORMAT_JWK ? json_loadb((const char *)out, n, 0, NULL) : hexstr(out, n);
    webcrypto_buffer_free(out, n);
    return v && json_object_set_new(obj, name, v) == 0;
}

typedef struct made {
    char id[64];
    webcrypto_key *pub, *priv;
} made;

static void produce_pairs(json_t *keys, json_t *ops, const bytes *data, made *pairs) {
    for (size_t i = 0; i < sizeof catalog / sizeof catalog[0]; i++) {
        snprintf(pairs[i].id, sizeof pairs[i].id, "c-%s", catalog[i].id);
        json_t *alg = json_loads(catalog[i].alg, 0, NULL);
        jparams j = {0};
        bool parsed = jparams_read(alg, &j);
        webcrypto_status st = WEBCRYPTO_ERR_INVALID_ARGUMENT;
        if (parsed && !webcrypto_backend_supports(backend, j.p.name)) {
            skip(lacks(j.p.name), "generate %s", catalog[i].id);
            jparams_free(&j);
            json_decref(alg);
            continue;
        }
        if (parsed)
            st = webcrypto_generate_key_pair(backend, &j.p, true,
                                             usages_for(j.p.name, true) | usages_for(j.p.name, false),
                                             &pairs[i].pub, &pairs[i].priv);
        jparams_free(&j);
        if (st != WEBCRYPTO_OK) {
            report(false, why_status(st), "generate %s", catalog[i].id);
            json_decref(alg);
            continue;
        }
        json_t *k = json_object();
        json_object_set_new(k, "alg", alg);
        bool ok = put_export(k, "spki", WEBCRYPTO_FORMAT_SPKI, pairs[i].pub) &&
                  put_export(k, "pkcs8", WEBCRYPTO_FORMAT_PKCS8, pairs[i].priv) &&
                  put_export(k, "jwkPub", WEBCRYPTO_FORMAT_JWK, pairs[i].pub) &&
                  put_export(k, "jwkPriv", WEBCRYPTO_FORMAT_JWK, pairs[i].priv) &&
                  (is_rsa(webcrypto_key_get_algorithm(pairs[i].pub)) ||
                   put_export(k, "raw", WEBCRYPTO_FORMAT_RAW, pairs[i].pub));
        json_object_set_new(keys, pairs[i].id, k);
        if (!ok || !catalog[i].ops) continue;
        json_t *list = json_loads(catalog[i].ops, 0, NULL);
        size_t x;
        json_t *o;
        bool oaep = webcrypto_key_get_algorithm(pairs[i].pub) == WEBCRYPTO_ALG_RSA_OAEP;
        json_array_foreach(list, x, o) {
            json_object_set_new(o, "name", json_string(webcrypto_algorithm_name(
                                                webcrypto_key_get_algorithm(pairs[i].pub))));
            jparams op = {0};
            uint8_t out[1024];
            size_t n = 0;
            size_t len = oaep ? 100 : data->n; /* OAEP: at most k - 2 hLen - 2 bytes */
            st = jparams_read(o, &op)
                     ? (oaep ? webcrypto_encrypt(&op.p, pairs[i].pub, data->p, len, out, sizeof out, &n)
                             : webcrypto_sign(&op.p, pairs[i].priv, data->p, len, out, sizeof out, &n))
                     : WEBCRYPTO_ERR_INVALID_ARGUMENT;
            jparams_free(&op);
            if (st != WEBCRYPTO_OK) {
                report(false, why_status(st), "%s with %s", oaep ? "encrypt" : "sign", pairs[i].id);
                continue;
            }
            json_t *e = oaep ? json_pack("{s:s, s:s, s:O, s:I, s:o}", "op", "encrypt", "key", pairs[i].id,
                                         "params", o, "dataLength", (json_int_t)len, "ct", hexstr(out, n))
                             : json_pack("{s:s, s:s, s:O, s:o}", "op", "sign", "key", pairs[i].id,
                                         "params", o, "sig", hexstr(out, n));
            json_array_append_new(ops, e);
        }
        json_decref(list);
    }
}

static made *made_find(made *pairs, const char *id);

/* ECDSA with SHA-3 (the modern algorithms' hashes): our P-256 key signs with
 * SHA3-256 and SHA3-512, for Node 24 to verify. */
static void produce_modern_ecdsa(json_t *ops, const bytes *data, made *pairs) {
    static const webcrypto_algorithm hashes[] = {WEBCRYPTO_ALG_SHA3_256, WEBCRYPTO_ALG_SHA3_512};
    made *ec = made_find(pairs, "c-ECDSA-P-256");
    for (size_t i = 0; i < sizeof hashes / sizeof hashes[0]; i++) {
        if (!ec || !ec->priv || !webcrypto_backend_supports_hash(backend, WEBCRYPTO_ALG_ECDSA, hashes[i])) {
            skip("the backend has no ECDSA with that hash (or no P-256 key)", "sign c-ECDSA-P-256 %s",
                 webcrypto_algorithm_name(hashes[i]));
            continue;
        }
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA, .hash = hashes[i]);
        uint8_t sig[64];
        size_t n = 0;
        webcrypto_status st = webcrypto_sign(&p, ec->priv, data->p, data->n, sig, sizeof sig, &n);
        if (st != WEBCRYPTO_OK) {
            report(false, why_status(st), "sign c-ECDSA-P-256 %s", webcrypto_algorithm_name(hashes[i]));
            continue;
        }
        json_array_append_new(ops, json_pack("{s:s, s:s, s:{s:s, s:s}, s:o}", "op", "sign", "key",
                                             "c-ECDSA-P-256", "params", "name", "ECDSA", "hash",
                                             webcrypto_algorithm_name(hashes[i]), "sig", hexstr(sig, n)));
    }
}

static made *made_find(made *pairs, const char *id) {
    for (size_t i = 0; i < sizeof catalog / sizeof catalog[0]; i++)
        if (pairs[i].priv && strcmp(pairs[i].id, id) == 0) return &pairs[i];
    return NULL;
}

/* A public key by id: the library's own, or the peer's. */
static const webcrypto_key *public_named(made *pairs, const char *id) {
    made *m = made_find(pairs, id);
    keyent *e = m ? NULL : find_key(id);
    return m ? m->pub : e ? e->pub : NULL;
}

/* DH(a's private key, b's public key); b may be the peer's key. */
static void produce_derive(json_t *ops, made *pairs, const char *a_id, const char *b_id,
                           size_t bits) {
    made *a = made_find(pairs, a_id);
    const webcrypto_key *b = public_named(pairs, b_id);
    if (!a || !b) return; /* the peer lacks this algorithm: nothing to agree on */
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = webcrypto_key_get_algorithm(a->priv);
    p.public_key = b;
    uint8_t out[66];
    size_t dlen = 0;
    webcrypto_status st = webcrypto_derive_bits(&p, a->priv, bits, out, sizeof out, &dlen);
    if (st != WEBCRYPTO_OK) {
        report(false, why_status(st), "deriveBits %s x %s", a_id, b_id);
        return;
    }
    size_t n = dlen; /* the whole secret, or ceil(bits / 8) */
    json_t *len = bits == WEBCRYPTO_LENGTH_FULL ? json_null() : json_integer((json_int_t)bits);
    json_array_append_new(ops, json_pack("{s:s, s:s, s:s, s:o, s:o}", "op", "derive", "a", a_id, "b",
                                         b_id, "length", len, "bits", hexstr(out, n)));
}

/* A P-521 secret cut to 521 bits, whose check shows whether the peer zeroes
 * the 7 bits past the length: the first pairing of the library's keys with
 * the peer's whose full secret has some of those bits set (in a random
 * pairing they are all clear once in 128; in all four, once in 2^28). */
static void produce_derive_p521_tail(json_t *ops, made *pairs) {
    static const char *const as[] = {"c-ECDH-P-521-A", "c-ECDH-P-521-B"};
    static const char *const bs[] = {"node-ECDH-P-521-B", "node-ECDH-P-521-A"};
    bool tried = false;
    for (size_t i = 0; i < 2; i++) {
        for (size_t j = 0; j < 2; j++) {
            made *a = made_find(pairs, as[i]);
            const webcrypto_key *b = public_named(pairs, bs[j]);
            if (!a || !b) continue;
            tried = true;
            webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
            p.name = WEBCRYPTO_ALG_ECDH;
            p.public_key = b;
            uint8_t full[66];
            size_t dlen = 0;
            if (webcrypto_derive_bits(&p, a->priv, WEBCRYPTO_LENGTH_FULL, full, sizeof full, &dlen) == WEBCRYPTO_OK &&
                (full[65] & 0x7f)) {
                produce_derive(ops, pairs, as[i], bs[j], 521);
                return;
            }
        }
    }
    if (tried) report(false, "no pairing sets a bit past 521", "deriveBits P-521 (521 bits)");
}

static webcrypto_key *gen_secret(webcrypto_algorithm alg, size_t bits, unsigned usages, json_t **raw) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = alg;
    p.length = bits;
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_generate_key(backend, &p, true, usages, &k);
    uint8_t *out = NULL;
    size_t n = 0;
    if (st == WEBCRYPTO_OK) st = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, k, &out, &n);
    if (st != WEBCRYPTO_OK) {
        report(false, why_status(st), "generate a %s key", webcrypto_algorithm_name(alg));
        webcrypto_key_free(k);
        return NULL;
    }
    *raw = hexstr(out, n);
    webcrypto_buffer_free(out, n);
    return k;
}

static void produce_secret(json_t *ops, json_t *keys, const bytes *data, made *pairs) {
    static const struct {
        const char *params;
        size_t bits, len;
    } ciphers[] = {
        {"{\"name\":\"AES-GCM\",\"iv\":\"101112131415161718191a1b\",\"additionalData\":\"0102030405\",\"tagLength\":128}", 256, 0},
        {"{\"name\":\"AES-GCM\",\"iv\":\"cafebabefacedbaddecaf888\",\"tagLength\":32}", 128, 0},
        /* a 60-byte IV goes through GHASH (Node takes no IV under 12 bytes) */
        {"{\"name\":\"AES-GCM\",\"iv\":\"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d"
         "5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b\",\"tagLength\":104}", 192, 0},
        {"{\"name\":\"AES-CBC\",\"iv\":\"0f0e0d0c0b0a09080706050403020100\"}", 192, 0},
        {"{\"name\":\"AES-CBC\",\"iv\":\"00000000000000000000000000000000\"}", 128, 32},
        {"{\"name\":\"AES-CTR\",\"counter\":\"000102030405060708090a0b0c0d0e0f\",\"length\":128}", 256, 0},
        /* 4 counter bits starting at e: wraps after two blocks, 16 blocks in all */
        {"{\"name\":\"AES-CTR\",\"counter\":\"ffffffffffffffffffffffffffffffee\",\"length\":4}", 128, 256},
    };
    for (size_t i = 0; i < sizeof ciphers / sizeof ciphers[0]; i++) {
        json_t *pj = json_loads(ciphers[i].params, 0, NULL);
        jparams j = {0};
        json_t *raw = NULL;
        webcrypto_key *k = NULL;
        size_t len = ciphers[i].len ? ciphers[i].len : data->n;
        if (jparams_read(pj, &j))
            k = gen_secret(j.p.name, ciphers[i].bits, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &raw);
        uint8_t *out = malloc(len + 32);
        size_t n = 0;
        webcrypto_status st = k && out ? webcrypto_encrypt(&j.p, k, data->p, len, out, len + 32, &n)
                                       : WEBCRYPTO_ERR_INVALID_ARGUMENT;
        if (st == WEBCRYPTO_OK)
            json_array_append_new(ops, json_pack("{s:s, s:O, s:o, s:I, s:o}", "op", "cipher", "params", pj,
                                                 "key", raw, "dataLength", (json_int_t)len, "ct",
                                                 hexstr(out, n)));
        else {
            report(false, why_status(st), "encrypt %s", ciphers[i].params);
            json_decref(raw);
        }
        free(out);
        webcrypto_key_free(k);
        jparams_free(&j);
        json_decref(pj);
    }
    static const struct {
        webcrypto_algorithm hash;
        size_t bits;
    } macs[] = {{WEBCRYPTO_ALG_SHA_256, 0}, {WEBCRYPTO_ALG_SHA_512, 0}, {WEBCRYPTO_ALG_SHA_384, 128},
                {WEBCRYPTO_ALG_SHA_1, 0}};
    for (size_t i = 0; i < sizeof macs / sizeof macs[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
        p.name = WEBCRYPTO_ALG_HMAC;
        p.hash = macs[i].hash;
        p.length = macs[i].bits;
        webcrypto_key *k = NULL;
        uint8_t *raw = NULL, mac[64];
        size_t rn = 0, n = 0;
        webcrypto_status st =
            webcrypto_generate_key(backend, &p, true, WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k);
        if (st == WEBCRYPTO_OK) st = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW_SECRET, k, &raw, &rn);
        if (st == WEBCRYPTO_OK) st = webcrypto_sign(&p, k, data->p, data->n, mac, sizeof mac, &n);
        if (st == WEBCRYPTO_OK)
            json_array_append_new(ops, json_pack("{s:s, s:s, s:o, s:o}", "op", "mac", "hash",
                                                 webcrypto_algorithm_name(p.hash), "key", hexstr(raw, rn),
                                                 "mac", hexstr(mac, n)));
        else
            report(false, why_status(st), "HMAC %s", webcrypto_algorithm_name(p.hash));
        webcrypto_buffer_free(raw, rn);
        webcrypto_key_free(k);
    }

    /* Key wrapping. AES-KW takes whole 64-bit blocks and WebCrypto pads
     * nothing, so the JWK wrapped with AES-KW is an HMAC key whose JWK text
     * happens to be a multiple of 8 bytes long. */
    json_t *kw_raw = NULL, *gcm_raw = NULL, *inner_raw = NULL;
    webcrypto_key *kw = gen_secret(WEBCRYPTO_ALG_AES_KW, 256, WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY, &kw_raw);
    webcrypto_key *gcm = gen_secret(WEBCRYPTO_ALG_AES_GCM, 256, WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY, &gcm_raw);
    webcrypto_key *inner = gen_secret(WEBCRYPTO_ALG_AES_GCM, 256, WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &inner_raw);
    webcrypto_key *hmac = NULL;
    json_t *hmac_raw = NULL;
    for (size_t bytes_n = 32; kw && bytes_n < 40 && !hmac; bytes_n++) {
        webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
        p.name = WEBCRYPTO_ALG_HMAC;
        p.hash = WEBCRYPTO_ALG_SHA_256;
        p.length = 8 * bytes_n;
        webcrypto_key *k = NULL;
        uint8_t *jwk = NULL;
        size_t n = 0;
        if (webcrypto_generate_key(backend, &p, true, WEBCRYPTO_USAGE_SIGN, &k) == WEBCRYPTO_OK &&
            webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, k, &jwk, &n) == WEBCRYPTO_OK && n % 8 == 0) {
            uint8_t *raw = NULL;
            size_t rn = 0;
            if (webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, k, &raw, &rn) == WEBCRYPTO_OK) {
                hmac = k;
                k = NULL;
                hmac_raw = hexstr(raw, rn);
                webcrypto_buffer_free(raw, rn);
            }
        }
        webcrypto_buffer_free(jwk, n);
        webcrypto_key_free(k);
    }
    if (kw && inner) {
        /* The spec's behaviour, which Node does not share (it pads with spaces). */
        uint8_t *w = NULL;
        size_t n = 0;
        webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
        p.name = WEBCRYPTO_ALG_AES_KW;
        webcrypto_status st = webcrypto_wrap_key(WEBCRYPTO_FORMAT_JWK, inner, kw, &p, &w, &n);
        report(st == WEBCRYPTO_ERR_OPERATION, st ? why_status(st) : "wrapped",
               "wrapKey jwk with AES-KW of a JWK that is not whole 64-bit blocks: OperationError, unpadded as the spec says");
        webcrypto_buffer_free(w, n);
    }
    made *oaep = made_find(pairs, "c-RSA-OAEP-SHA-256");
    made *ec = made_find(pairs, "c-ECDSA-P-384");
    const struct {
        const char *format, *alg;
        webcrypto_key *wrapping, *inner;
        json_t *wraw, *iraw;
        const char *ref;
    } wraps[] = {
        {"raw", "{\"name\":\"AES-KW\"}", kw, inner, kw_raw, inner_raw, NULL},
        {"jwk", "{\"name\":\"AES-KW\"}", kw, hmac, kw_raw, hmac_raw, NULL},
        {"raw", "{\"name\":\"AES-GCM\",\"iv\":\"a0a1a2a3a4a5a6a7a8a9aaab\"}", gcm, inner, gcm_raw, inner_raw, NULL},
        {"jwk", "{\"name\":\"AES-GCM\",\"iv\":\"a0a1a2a3a4a5a6a7a8a9aaac\",\"additionalData\":\"ff\",\"tagLength\":96}", gcm, inner, gcm_raw, inner_raw, NULL},
        {"raw", "{\"name\":\"RSA-OAEP\"}", oaep ? oaep->pub : NULL, inner, NULL, inner_raw, "c-RSA-OAEP-SHA-256"},
        {"jwk", "{\"name\":\"RSA-OAEP\",\"label\":\"6a776b\"}", oaep ? oaep->pub : NULL, inner, NULL, inner_raw, "c-RSA-OAEP-SHA-256"},
        {"pkcs8", "{\"name\":\"AES-GCM\",\"iv\":\"a0a1a2a3a4a5a6a7a8a9aaad\"}", gcm, ec ? ec->priv : NULL, gcm_raw, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof wraps / sizeof wraps[0]; i++) {
        if (!wraps[i].wrapping || !wraps[i].inner) {
            bool lacking = (wraps[i].ref && !webcrypto_backend_supports(backend, WEBCRYPTO_ALG_RSA_OAEP)) ||
                           (strcmp(wraps[i].format, "pkcs8") == 0 &&
                            !webcrypto_backend_supports(backend, WEBCRYPTO_ALG_ECDSA));
            if (lacking)
                skip(lacks(wraps[i].ref ? WEBCRYPTO_ALG_RSA_OAEP : WEBCRYPTO_ALG_ECDSA), "wrapKey %s with %s",
                     wraps[i].format, wraps[i].alg);
            else
                report(false, "a key is missing", "wrapKey %s with %s", wraps[i].format, wraps[i].alg);
            continue;
        }
        json_t *aj = json_loads(wraps[i].alg, 0, NULL);
        jparams j = {0};
        uint8_t *w = NULL;
        size_t n = 0;
        webcrypto_status st = jparams_read(aj, &j)
                                  ? webcrypto_wrap_key(format_named(wraps[i].format), wraps[i].inner,
                                                       wraps[i].wrapping, &j.p, &w, &n)
                                  : WEBCRYPTO_ERR_INVALID_ARGUMENT;
        jparams_free(&j);
        if (st != WEBCRYPTO_OK) {
            report(false, why_status(st), "wrapKey %s with %s", wraps[i].format, wraps[i].alg);
            json_decref(aj);
            continue;
        }
        webcrypto_algorithm ia = webcrypto_key_get_algorithm(wraps[i].inner);
        json_t *inner_spec;
        if (ia == WEBCRYPTO_ALG_HMAC)
            inner_spec = json_pack("{s:{s:s, s:s}, s:[s], s:O}", "alg", "name", "HMAC", "hash", "SHA-256",
                                   "usages", "sign", "raw", wraps[i].iraw);
        else if (ia == WEBCRYPTO_ALG_AES_GCM)
            inner_spec = json_pack("{s:{s:s}, s:[s, s], s:O}", "alg", "name", "AES-GCM", "usages",
                                   "encrypt", "decrypt", "raw", wraps[i].iraw);
        else
            inner_spec = json_pack("{s:{s:s, s:s}, s:[s], s:O}", "alg", "name", "ECDSA", "namedCurve",
                                   "P-384", "usages", "sign", "pkcs8",
                                   json_object_get(json_object_get(keys, "c-ECDSA-P-384"), "pkcs8"));
        json_t *wk = wraps[i].ref ? json_pack("{s:s}", "ref", wraps[i].ref)
                                  : json_pack("{s:O}", "raw", wraps[i].wraw);
        json_array_append_new(ops, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "op", "wrap", "format",
                                             wraps[i].format, "wrapAlg", aj, "wrappingKey", wk, "inner",
                                             inner_spec, "wrapped", hexstr(w, n)));
        webcrypto_buffer_free(w, n);
    }
    webcrypto_key_free(kw);
    webcrypto_key_free(gcm);
    webcrypto_key_free(inner);
    webcrypto_key_free(hmac);
    json_decref(kw_raw);
    json_decref(gcm_raw);
    json_decref(inner_raw);
    json_decref(hmac_raw);
}

static void produce(const char *path) {
    enum { NCAT = sizeof catalog / sizeof catalog[0] };
    made pairs[NCAT];
    memset(pairs, 0, sizeof pairs);
    bytes data = {malloc(1022), 1022};
    if (!data.p) return;
    memcpy(data.p, "libwebcrypto's data: ", 21);
    if (webcrypto_get_random_values(backend, data.p + 21, data.n - 21) != WEBCRYPTO_OK) {
        report(false, webcrypto_error_message(), "random data");
        bytes_free(&data);
        return;
    }
    json_t *m = json_pack("{s:s, s:o, s:{}, s:[]}", "producer", "libwebcrypto " WEBCRYPTO_VERSION,
                          "data", hexstr(data.p, data.n), "keys", "ops");
    json_t *keys = json_object_get(m, "keys"), *ops = json_object_get(m, "ops");
    produce_pairs(keys, ops, &data, pairs);
    static const struct {
        const char *a, *b;
        size_t bits;
    } derives[] = {
        {"c-ECDH-P-256-A", "c-ECDH-P-256-B", WEBCRYPTO_LENGTH_FULL},
        {"c-ECDH-P-256-A", "node-ECDH-P-256-A", WEBCRYPTO_LENGTH_FULL},
        {"c-ECDH-P-256-B", "node-ECDH-P-256-B", 200},
        {"c-ECDH-P-384-A", "node-ECDH-P-384-A", WEBCRYPTO_LENGTH_FULL},
        {"c-ECDH-P-384-A", "c-ECDH-P-384-B", 384},
        {"c-ECDH-P-521-A", "node-ECDH-P-521-A", WEBCRYPTO_LENGTH_FULL},
        {"c-ECDH-P-521-A", "c-ECDH-P-521-B", 256},
        {"c-X25519-A", "node-X25519-A", WEBCRYPTO_LENGTH_FULL},
        {"c-X25519-A", "c-X25519-B", WEBCRYPTO_LENGTH_FULL},
        {"c-X25519-B", "node-X25519-B", 128},
        {"c-X448-A", "node-X448-A", WEBCRYPTO_LENGTH_FULL},
        {"c-X448-A", "c-X448-B", WEBCRYPTO_LENGTH_FULL},
        {"c-X448-B", "node-X448-B", 224},
    };
    for (size_t i = 0; i < sizeof derives / sizeof derives[0]; i++)
        produce_derive(ops, pairs, derives[i].a, derives[i].b, derives[i].bits);
    produce_derive_p521_tail(ops, pairs);
    produce_secret(ops, keys, &data, pairs);
    produce_sha3_kmac(ops, &data);
    produce_modern_ecdsa(ops, &data, pairs);
    produce_modern_cipher(ops, &data);
    if (json_dump_file(m, path, JSON_INDENT(1)) != 0) report(false, path, "write the manifest");
    else report(true, NULL, "wrote %zu key pairs and %zu operations for Node", json_object_size(keys),
                json_array_size(ops));
    json_decref(m);
    for (size_t i = 0; i < NCAT; i++) {
        webcrypto_key_free(pairs[i].pub);
        webcrypto_key_free(pairs[i].priv);
    }
    bytes_free(&data);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: interop_peer PEER.json OUT.json [BACKEND]\n");
        return 2;
    }
    webcrypto_status bst = webcrypto_backend_get(argc == 4 ? argv[3] : NULL, &backend);
    if (bst != WEBCRYPTO_OK) {
        printf("FAIL - c: backend %s (%s)\n", argc == 4 ? argv[3] : "(default)", why_status(bst));
        printf("c: 0 passed, 1 failed\n");
        return 1;
    }
    printf("# libwebcrypto backend %s: %s\n", webcrypto_backend_name(backend),
           webcrypto_backend_description(backend));
    json_error_t err;
    json_t *m = json_load_file(argv[1], 0, &err);
    if (!m) {
        printf("FAIL - c: read %s (%s)\n", argv[1], err.text);
        printf("c: 0 passed, 1 failed\n");
        return 1;
    }
    consume(m);
    produce(argv[2]);
    for (size_t i = 0; i < nkeys; i++) {
        webcrypto_key_free(keytab[i].pub);
        webcrypto_key_free(keytab[i].priv);
    }
    json_decref(m);
    printf("c: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
