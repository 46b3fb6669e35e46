/*
 * test_jwk_alloc.c - JWK import and export leave jansson's allocator as the
 * host set it (a library changes nothing process-wide), and keep the secret
 * members out of the blocks jansson frees as far as webcrypto.h promises.
 *
 * The tests run in order in one process. The first one runs before any JSON
 * call, with jansson's default allocator; the others with a host allocator
 * installed, as a host may do: it counts blocks and, when armed, looks in
 * every block freed for the base64url text of the keys' secret members.
 */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The host's allocator                                                     */

typedef union {
    size_t n;
    max_align_t align;
} block_header;

#define MAX_NEEDLES 16
#define WINDOW 16 /* characters of a needle in a row that count as a copy */
static size_t n_malloc, n_free;
static const char *needles[MAX_NEEDLES];
static size_t n_needles;
/* Every WINDOW-character run of the needles, sorted, for bsearch. */
static const char **windows;
static size_t n_windows;
/* Blocks freed holding WINDOW or more characters of a needle in a row, and
 * blocks freed that begin with a whole needle: jansson gives a string node's
 * value a block of its own. */
static size_t freed_holding, freed_strings;

static int cmp_window(const void *a, const void *b) {
    return memcmp(*(const char *const *)a, *(const char *const *)b, WINDOW);
}

static bool holds_part(const unsigned char *p, size_t n) {
    for (size_t i = 0; n_windows && i + WINDOW <= n; i++) {
        const char *key = (const char *)p + i;
        if (bsearch(&key, windows, n_windows, sizeof *windows, cmp_window)) return true;
    }
    return false;
}

static void *host_malloc(size_t n) {
    block_header *h = malloc(sizeof *h + n);
    if (!h) return NULL;
    h->n = n;
    n_malloc++;
    return h + 1;
}

static void host_free(void *p) {
    if (!p) return;
    block_header *h = (block_header *)p - 1;
    bool string = false;
    for (size_t i = 0; i < n_needles; i++) {
        size_t k = strlen(needles[i]);
        string |= h->n >= k && memcmp(p, needles[i], k) == 0;
    }
    freed_holding += holds_part(p, h->n);
    freed_strings += string;
    n_free++;
    free(h);
}

/* Starts watching the blocks freed for the needles (no JSON call may run
 * between here and disarm but the library's). */
static void arm(const char *const *list, size_t n) {
    assert_true(n <= MAX_NEEDLES);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        needles[i] = list[i];
        assert_true(strlen(list[i]) >= WINDOW);
        total += strlen(list[i]) - WINDOW + 1;
    }
    windows = malloc(total * sizeof *windows);
    assert_non_null(windows);
    n_windows = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j + WINDOW <= strlen(list[i]); j++) windows[n_windows++] = list[i] + j;
    qsort(windows, n_windows, sizeof *windows, cmp_window);
    n_needles = n;
    freed_holding = freed_strings = 0;
}

static void disarm(void) {
    n_needles = n_windows = 0;
    free(windows);
    windows = NULL;
}

/* ------------------------------------------------------------------------ */
/* Keys and their JWKs                                                      */

/* A 256-bit AES-GCM key (bytes 00..1f). */
#define K256 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
static const char SECRET_JWK[] = "{\"kty\":\"oct\",\"k\":\"" K256 "\",\"alg\":\"A256GCM\"}";

static webcrypto_key *ec_priv, *rsa_priv;

static webcrypto_params aes_gcm(void) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_GCM;
    return p;
}

static webcrypto_params ecdsa_p256(void) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_ECDSA;
    p.named_curve = WEBCRYPTO_CURVE_P256;
    return p;
}

static const uint8_t F4[] = {1, 0, 1};
static webcrypto_params rsassa_2048(void) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5;
    p.hash = WEBCRYPTO_ALG_SHA_256;
    p.modulus_length = 2048;
    p.public_exponent = F4;
    p.public_exponent_len = sizeof F4;
    return p;
}

/* A private key of each kind the backend has (jca:SunJCE has neither RSA
 * nor EC: those parts are skipped, and say so). */
static webcrypto_key *generate(const webcrypto_params *p) {
    webcrypto_key *pub = NULL, *priv = NULL;
    if (!webcrypto_backend_supports(tu_backend(), p->name)) {
        printf("skipped for this backend: %s keys (backend %s lacks them)\n",
               webcrypto_algorithm_name(p->name), webcrypto_backend_name(tu_backend()));
        return NULL;
    }
    webcrypto_status st = webcrypto_generate_key_pair(tu_backend(), p, true, WEBCRYPTO_USAGE_SIGN,
                                                      &pub, &priv);
    if (st != WEBCRYPTO_OK)
        fail_msg("generating a %s key: %s", webcrypto_algorithm_name(p->name),
                 webcrypto_error_message());
    webcrypto_key_free(pub);
    return priv;
}

static int generate_keys(void **state) {
    (void)state;
    webcrypto_params ec = ecdsa_p256(), rsa = rsassa_2048();
    ec_priv = generate(&ec);
    rsa_priv = generate(&rsa);
    return 0;
}

static int free_keys(void **state) {
    (void)state;
    webcrypto_key_free(ec_priv);
    webcrypto_key_free(rsa_priv);
    return 0;
}

static char *export_jwk(const webcrypto_key *key) {
    uint8_t *out = NULL;
    size_t n = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, key, &out, &n), WEBCRYPTO_OK);
    assert_int_equal(strlen((char *)out), n);
    return (char *)out;
}

static void free_jwk(char *jwk) { webcrypto_buffer_free((uint8_t *)jwk, strlen(jwk)); }

static webcrypto_status import_jwk(const char *jwk, const webcrypto_params *p) {
    webcrypto_key *k = NULL;
    webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                               (const uint8_t *)jwk, strlen(jwk), p, true,
                                               p->name == WEBCRYPTO_ALG_AES_GCM
                                                   ? WEBCRYPTO_USAGE_ENCRYPT
                                                   : WEBCRYPTO_USAGE_SIGN,
                                               &k);
    webcrypto_key_free(k);
    return st;
}

/* The value of member `name` in compact JSON as the library writes it (the
 * test reads it without jansson, whose blocks are being watched); malloc'd. */
static char *member(const char *jwk, const char *name) {
    char pat[16];
    snprintf(pat, sizeof pat, "\"%s\":\"", name);
    const char *p = strstr(jwk, pat);
    assert_non_null(p);
    p += strlen(pat);
    const char *e = strchr(p, '"');
    assert_non_null(e);
    assert_true(e - p >= WINDOW);
    char *v = malloc((size_t)(e - p) + 1);
    assert_non_null(v);
    memcpy(v, p, (size_t)(e - p));
    v[e - p] = 0;
    return v;
}

/* jwk with `extra` (JSON members and a comma) put first. */
static char *with_members(const char *jwk, const char *extra) {
    assert_true(jwk[0] == '{');
    size_t n = strlen(jwk) + strlen(extra) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "{%s%s", extra, jwk + 1);
    return s;
}

/* Imports and exports a JWK of each kind: secret, EC private, RSA private. */
static void jwk_round_trips(void) {
    webcrypto_params aes = aes_gcm(), ec = ecdsa_p256(), rsa = rsassa_2048();
    tu_assert_status(import_jwk(SECRET_JWK, &aes), WEBCRYPTO_OK);
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                          (const uint8_t *)SECRET_JWK, strlen(SECRET_JWK), &aes,
                                          true, WEBCRYPTO_USAGE_ENCRYPT, &k),
                     WEBCRYPTO_OK);
    char *jwk = export_jwk(k);
    webcrypto_key_free(k);
    free_jwk(jwk);
    if (ec_priv) {
        jwk = export_jwk(ec_priv);
        tu_assert_status(import_jwk(jwk, &ec), WEBCRYPTO_OK);
        free_jwk(jwk);
    }
    if (rsa_priv) {
        jwk = export_jwk(rsa_priv);
        tu_assert_status(import_jwk(jwk, &rsa), WEBCRYPTO_OK);
        free_jwk(jwk);
    }
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

/* First in the process: jansson's default allocator stays in place. */
static void test_default_allocator_untouched(void **state) {
    (void)state;
    json_malloc_t m0, m1;
    json_free_t f0, f1;
    json_get_alloc_funcs(&m0, &f0);
    jwk_round_trips();
    json_get_alloc_funcs(&m1, &f1);
    assert_true(m1 == m0);
    assert_true(f1 == f0);
}

/* A host's own allocator stays in place; the library's JSON goes through it
 * (which is how a host gets every jansson block wiped), every block it hands
 * out comes back, and the host's own JSON calls still use it. */
static void test_host_allocator_kept(void **state) {
    (void)state;
    json_set_alloc_funcs(host_malloc, host_free);
    size_t before = n_malloc;
    jwk_round_trips();
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    assert_true(m == host_malloc);
    assert_true(f == host_free);
    assert_true(n_malloc > before);
    assert_int_equal(n_malloc, n_free);

    before = n_malloc;
    size_t freed = n_free;
    json_t *o = json_object();
    assert_non_null(o);
    assert_int_equal(json_object_set_new(o, "host", json_string("value")), 0);
    assert_true(n_malloc > before);
    json_decref(o);
    assert_true(n_free > freed);
    assert_int_equal(n_malloc, n_free);
}

/* Export: no block jansson frees holds any part of a secret member's text
 * (WINDOW characters of it in a row). */
static void test_export_frees_no_secret(void **state) {
    (void)state;
    webcrypto_params aes = aes_gcm();
    webcrypto_key *secret = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                          (const uint8_t *)SECRET_JWK, strlen(SECRET_JWK), &aes,
                                          true, WEBCRYPTO_USAGE_ENCRYPT, &secret),
                     WEBCRYPTO_OK);
    const webcrypto_key *keys[] = {secret, ec_priv, rsa_priv};
    static const char *const members[][7] = {
        {"k", NULL},
        {"d", NULL},
        {"d", "p", "q", "dp", "dq", "qi", NULL},
    };
    for (size_t i = 0; i < 3; i++) {
        if (!keys[i]) continue; /* skipped, as generate_keys said */
        char *first = export_jwk(keys[i]);
        char *vals[6];
        size_t n = 0;
        for (; members[i][n]; n++) vals[n] = member(first, members[i][n]);
        arm((const char *const *)vals, n);
        char *again = export_jwk(keys[i]);
        disarm();
        assert_string_equal(again, first);
        if (freed_holding)
            fail_msg("export of key %zu: %zu block(s) freed by jansson hold a secret member", i,
                     freed_holding);
        assert_int_equal(n_malloc, n_free);
        for (size_t j = 0; j < n; j++) free(vals[j]);
        free_jwk(again);
        free_jwk(first);
    }
    webcrypto_key_free(secret);
}

/* Values of members the library does not read: text that must not outlive
 * the import all the same. */
#define EXTRA_VAL "c2VjcmV0LWxvb2tpbmctdW5rbm93bi1tZW1iZXI"
#define OTH_R "b3RoLXByaW1lLXItb2YtYS10aGlyZC1wcmltZQ"
#define OTH_D "b3RoLWV4cG9uZW50LWQtb2YtYS10aGlyZC1wcmltZQ"
#define OTH_T "b3RoLWNvZWZmaWNpZW50LXQtb2YtYS10aGlyZC1wcmltZQ"

/* Imports jwk with the needles armed: it gives `want`, and no string node
 * is freed holding a needle. */
static void check_import(const char *what, const char *jwk, const webcrypto_params *p,
                         webcrypto_status want, const char *const *list, size_t n) {
    arm(list, n);
    webcrypto_status st = import_jwk(jwk, p);
    disarm();
    tu_assert_status(st, want);
    if (freed_strings)
        fail_msg("import (%s): %zu string node(s) freed holding a member's text", what,
                 freed_strings);
    assert_int_equal(n_malloc, n_free);
    print_message("import (%s): %zu block(s) freed by jansson's lexer hold %d or more "
                  "characters of a member's text\n",
                  what, freed_holding, WINDOW);
}

/* Import: every string node of the parsed JWK is wiped before it is freed,
 * secret members, members the library does not read and "oth" alike, whether
 * the import succeeds or not. What jansson's lexer frees itself (webcrypto.h
 * says so) is counted and shown, not asserted. */
static void test_import_wipes_string_nodes(void **state) {
    (void)state;
    webcrypto_params aes = aes_gcm(), ec = ecdsa_p256(), rsa = rsassa_2048();
    const char *k[] = {K256, EXTRA_VAL};
    check_import("secret", SECRET_JWK, &aes, WEBCRYPTO_OK, k, 1);
    char *jwk = with_members(SECRET_JWK, "\"x-note\":[{\"v\":\"" EXTRA_VAL "\"}],");
    check_import("secret, unknown member", jwk, &aes, WEBCRYPTO_OK, k, 2);
    free(jwk);
    jwk = with_members(SECRET_JWK, "\"use\":\"enc\",\"key_ops\":[\"decrypt\"],");
    check_import("secret, key_ops refused", jwk, &aes, WEBCRYPTO_ERR_DATA, k, 1);
    free(jwk);
    /* A string as deep as jansson parses is reached too (jansson counts the
     * JWK object, the arrays and the string itself against
     * JSON_PARSER_MAX_DEPTH). */
    enum { DEEP = JSON_PARSER_MAX_DEPTH - 2 };
    char *deep = malloc(2 * DEEP + sizeof "\"x-deep\":\"" EXTRA_VAL "\",");
    assert_non_null(deep);
    size_t o = (size_t)sprintf(deep, "\"x-deep\":");
    memset(deep + o, '[', DEEP);
    o += DEEP + (size_t)sprintf(deep + o + DEEP, "\"%s\"", EXTRA_VAL);
    memset(deep + o, ']', DEEP);
    strcpy(deep + o + DEEP, ",");
    jwk = with_members(SECRET_JWK, deep);
    check_import("secret, member nested deep", jwk, &aes, WEBCRYPTO_OK, k, 2);
    free(jwk);
    free(deep);

    if (ec_priv) {
        char *text = export_jwk(ec_priv);
        const char *d[] = {member(text, "d"), EXTRA_VAL};
        jwk = with_members(text, "\"x-note\":\"" EXTRA_VAL "\",");
        check_import("EC private, unknown member", jwk, &ec, WEBCRYPTO_OK, d, 2);
        free(jwk);
        free((char *)d[0]);
        free_jwk(text);
    }
    if (rsa_priv) {
        char *text = export_jwk(rsa_priv);
        static const char *const names[] = {"d", "p", "q", "dp", "dq", "qi"};
        const char *v[9];
        for (size_t i = 0; i < 6; i++) v[i] = member(text, names[i]);
        v[6] = OTH_R;
        v[7] = OTH_D;
        v[8] = OTH_T;
        check_import("RSA private", text, &rsa, WEBCRYPTO_OK, v, 6);
        jwk = with_members(text, "\"oth\":[{\"r\":\"" OTH_R "\",\"d\":\"" OTH_D
                                 "\",\"t\":\"" OTH_T "\"}],");
        /* A backend that imports multi-prime keys finds these made-up
         * primes inconsistent (DataError); the others refuse the form. */
        const webcrypto_status with_oth =
            webcrypto_backend_has_feature(tu_backend(), WEBCRYPTO_FEATURE_RSA_MULTI_PRIME)
                ? WEBCRYPTO_ERR_DATA
                : WEBCRYPTO_ERR_NOT_SUPPORTED;
        check_import("RSA private with oth", jwk, &rsa, with_oth, v, 9);
        free(jwk);
        for (size_t i = 0; i < 6; i++) free((char *)v[i]);
        free_jwk(text);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_allocator_untouched),
        cmocka_unit_test(test_host_allocator_kept),
        cmocka_unit_test(test_export_frees_no_secret),
        cmocka_unit_test(test_import_wipes_string_nodes),
    };
    return cmocka_run_group_tests(tests, generate_keys, free_keys);
}
