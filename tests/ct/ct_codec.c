/*
 * ct_codec.c - our codecs and compares, run under valgrind's memcheck with
 * their secrets marked undefined (tests/ct.cmake, docs/ROBUSTNESS.md
 * "Constant time, checked"): a branch or a memory index that depends on a
 * secret is a memcheck report, which fails the run. Covered here, without a
 * backend: wc_equal_ct; base64url encode and decode (JWK "k", "d", "p",
 * "q", "dp", "dq", "qi", "priv"); the DER write and parse of PKCS #8 private
 * keys (RSA two- and multi-prime, EC, Ed25519/X25519/Ed448/X448, ML-KEM and
 * ML-DSA seeds); the CLI's PEM encode and decode (tools/cli/pem.c, compiled
 * in); POLYVAL on every implementation the CPU (as valgrind shows it) has.
 * Each result is declassified before it is checked: the checks themselves
 * are the test's, not the library's. Exit 0 after "all checks passed", 3
 * when a check fails.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core.h"
#include "ct.h"
#include "der.h"
#ifdef WC_CT_HAVE_POLYVAL
#include "polyval.h"
#endif

static int failures;

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "ct_codec: FAILED at line %d: ", __LINE__);                 \
            fprintf(stderr, __VA_ARGS__);                                               \
            fputc('\n', stderr);                                                        \
            failures++;                                                                 \
        }                                                                               \
    } while (0)

/* ---- what pem.c needs from the rest of the CLI: a sink into memory ---- */

void wipe(void *p, size_t len) { wc_wipe(p, len); }

void print_error(const char *kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "(expected) %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int sink_write(sink *s, const uint8_t *data, size_t len) {
    if (len > s->cap - s->len) {
        size_t cap = (s->len + len) * 2;
        uint8_t *b = realloc(s->buf, cap);
        if (!b) return EXIT_IO;
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    return EXIT_OK;
}

/* ---- helpers ---- */

/* A deterministic byte pattern (xorshift), so that every value turns up. */
static void fill(uint8_t *p, size_t n, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)(x >> 24);
    }
}

/* Equal after declassifying a (b is public): the test's own comparison. */
static bool same(const void *a, const void *b, size_t n) {
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) return false;
    memcpy(copy, a, n);
    WC_CT_PUBLIC(copy, n);
    bool eq = memcmp(copy, b, n) == 0;
    free(copy);
    return eq;
}

/* ---- wc_equal_ct ---- */

static void test_equal_ct(void) {
    uint8_t a[32], b[32];
    fill(a, sizeof a, 1);
    memcpy(b, a, sizeof b);
    WC_CT_SECRET(a, sizeof a);
    CHECK(wc_ct_public_bool(wc_equal_ct(a, b, sizeof a)), "equal_ct: equal buffers");
    b[31] ^= 1;
    CHECK(!wc_ct_public_bool(wc_equal_ct(a, b, sizeof a)), "equal_ct: one bit differs");
    b[31] ^= 1;
    b[0] ^= 0x80;
    CHECK(!wc_ct_public_bool(wc_equal_ct(a, b, sizeof a)), "equal_ct: first byte differs");
}

/* ---- base64url (src/core/jwk.c) ---- */

static const char url_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The reference encoder, on public bytes (a table is fine here). */
static void ref_b64url(const uint8_t *in, size_t len, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < len) v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len) v |= in[i + 2];
        out[o++] = url_digits[v >> 18 & 63];
        out[o++] = url_digits[v >> 12 & 63];
        if (i + 1 < len) out[o++] = url_digits[v >> 6 & 63];
        if (i + 2 < len) out[o++] = url_digits[v & 63];
    }
    out[o] = 0;
}

static void test_base64url(void) {
    uint8_t bytes[300], back[300];
    char text[420], want[420];
    /* every byte value, then lengths 0..66 (each remainder mod 3) */
    for (size_t i = 0; i < 256; i++) bytes[i] = (uint8_t)i;
    fill(bytes + 256, 44, 2);
    size_t lens[] = {0, 1, 2, 3, 31, 32, 33, 56, 57, 64, 66, 300};
    for (size_t t = 0; t < sizeof lens / sizeof lens[0]; t++) {
        size_t n = lens[t];
        ref_b64url(bytes, n, want);
        size_t tn = wc_base64url_encoded_len(n);
        CHECK(tn == strlen(want), "base64url: encoded length of %zu bytes", n);
        uint8_t secret[300];
        memcpy(secret, bytes, n);
        WC_CT_SECRET(secret, n);
        wc_base64url_encode(secret, n, text);
        CHECK(same(text, want, tn + 1), "base64url: encoding of %zu bytes", n);
        /* decode the secret text */
        memcpy(text, want, tn);
        WC_CT_SECRET(text, tn);
        size_t got = 0;
        memset(back, 0, sizeof back);
        CHECK(wc_base64url_decode(text, tn, back, &got), "base64url: decoding %zu chars", tn);
        CHECK(got == n && same(back, bytes, n), "base64url: round trip of %zu bytes", n);
    }
    /* refusals: a character outside the alphabet, spare bits not zero */
    const char *bad[] = {"AA=A", "A+AA", "AB", "AAB", "A/", "!AAA"};
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        size_t n = strlen(bad[t]), got = 0;
        memcpy(text, bad[t], n);
        WC_CT_SECRET(text, n);
        CHECK(!wc_base64url_decode(text, n, back, &got), "base64url: \"%s\" refused", bad[t]);
    }
}

/* ---- DER: PKCS #8 write and parse (src/core/der.c) ---- */

/* Secret copies of a field's bytes live here (freed at the end). */
static uint8_t *secret_copy(wc_bytes *b) {
    uint8_t *p = malloc(b->n ? b->n : 1);
    if (!p) abort();
    memcpy(p, b->p, b->n);
    WC_CT_SECRET(p, b->n);
    b->p = p;
    return p;
}

/* Marks the contents of a parsed secret field undefined in der: its bytes,
 * and an INTEGER's sign octet before them (a secret's top bit decides it). */
static void mark_field(uint8_t *der, const uint8_t *base, wc_bytes v) {
    size_t off = (size_t)(v.p - base), n = v.n;
    if (off >= 2 && v.n && (v.p[0] & 0x80) && der[off - 1] == 0x00) {
        off--;
        n++;
    }
    WC_CT_SECRET(der + off, n);
}

/* The secret members of f, for kind: RSA's private ones (other primes
 * included), else d. Returns their number. */
static size_t secret_members(wc_pkey_fields *f, webcrypto_algorithm kind, wc_bytes **out) {
    size_t n = 0;
    if (kind == WEBCRYPTO_ALG_RSA_PSS) {
        wc_bytes *m[] = {&f->d, &f->p, &f->q, &f->dp, &f->dq, &f->qi};
        for (size_t i = 0; i < 6; i++) out[n++] = m[i];
        for (size_t i = 0; i < f->oth_count; i++) {
            out[n++] = &f->oth[i].r;
            out[n++] = &f->oth[i].d;
            out[n++] = &f->oth[i].t;
        }
    } else {
        out[n++] = &f->d;
    }
    return n;
}
#define MAX_SECRET_MEMBERS (6 + 3 * (WC_RSA_MAX_PRIMES - 2))

/* Writes f (secret members marked) as PKCS #8, checks the bytes are the
 * ones written from the unmarked fields, then parses them with the secret
 * contents marked and checks the fields come back where they were. */
static void der_round_trip(const char *what, webcrypto_algorithm kind, const wc_pkey_fields *f) {
    uint8_t *plain = NULL, *der = NULL;
    size_t plain_len = 0, der_len = 0;
    webcrypto_status st = wc_der_write_pkcs8(kind, f, &plain, &plain_len);
    CHECK(st == WEBCRYPTO_OK, "%s: write (public fields): %s", what, webcrypto_error_message());
    if (st != WEBCRYPTO_OK) return;

    wc_pkey_fields s = *f;
    wc_bytes *m[MAX_SECRET_MEMBERS];
    uint8_t *copies[MAX_SECRET_MEMBERS];
    size_t count = secret_members(&s, kind, m);
    for (size_t i = 0; i < count; i++) copies[i] = secret_copy(m[i]);
    st = wc_der_write_pkcs8(kind, &s, &der, &der_len);
    CHECK(st == WEBCRYPTO_OK, "%s: write (secret fields): %s", what, webcrypto_error_message());
    if (st == WEBCRYPTO_OK) {
        CHECK(der_len == plain_len && same(der, plain, der_len), "%s: written bytes differ", what);
        webcrypto_buffer_free(der, der_len);
    }
    for (size_t i = 0; i < count; i++) free(copies[i]);

    /* parse: first unmarked (to find the fields), then marked */
    wc_pkey_fields p1, p2;
    st = wc_der_parse_pkcs8(kind, plain, plain_len, &p1);
    CHECK(st == WEBCRYPTO_OK, "%s: parse (public): %s", what, webcrypto_error_message());
    uint8_t *marked = malloc(plain_len);
    if (!marked) abort();
    memcpy(marked, plain, plain_len);
    wc_bytes *pm[MAX_SECRET_MEMBERS], *qm[MAX_SECRET_MEMBERS];
    count = secret_members(&p1, kind, pm);
    for (size_t i = 0; i < count; i++) mark_field(marked, plain, *pm[i]);
    st = wc_der_parse_pkcs8(kind, marked, plain_len, &p2);
    CHECK(st == WEBCRYPTO_OK, "%s: parse (secret): %s", what, webcrypto_error_message());
    if (st == WEBCRYPTO_OK) {
        CHECK(p1.oth_count == p2.oth_count, "%s: other primes", what);
        size_t count2 = secret_members(&p2, kind, qm);
        for (size_t i = 0; i < count && count2 == count; i++)
            CHECK(pm[i]->n == qm[i]->n && pm[i]->p - plain == qm[i]->p - marked,
                  "%s: parsed secret member %zu differs", what, i);
        CHECK(p1.curve == p2.curve && p1.point.n == p2.point.n && p1.x.n == p2.x.n,
              "%s: public members differ", what);
    }
    free(marked);
    webcrypto_buffer_free(plain, plain_len);
}

/* A PrivateKeyInfo with an RSAPrivateKey whose INTEGERs' contents are ints
 * (n, e, d, p, q, dp, dq, qi; each at most 3 octets), the private ones
 * marked secret; returns its length. */
static size_t rsa_by_hand(uint8_t *der, const uint8_t ints[8][3], const size_t lens[8]) {
    static const uint8_t rsa_oid[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};
    uint8_t inner[64];
    size_t n = 2, at[8];
    inner[0] = 0x30;
    inner[n++] = 0x02, inner[n++] = 0x01, inner[n++] = 0x00; /* version 0 */
    for (int i = 0; i < 8; i++) {
        inner[n++] = 0x02;
        inner[n++] = (uint8_t)lens[i];
        at[i] = n;
        memcpy(inner + n, ints[i], lens[i]);
        n += lens[i];
    }
    inner[1] = (uint8_t)(n - 2);
    size_t d = 2;
    der[0] = 0x30;
    der[d++] = 0x02, der[d++] = 0x01, der[d++] = 0x00;
    der[d++] = 0x30, der[d++] = (uint8_t)(2 + sizeof rsa_oid + 2);
    der[d++] = 0x06, der[d++] = (uint8_t)sizeof rsa_oid;
    memcpy(der + d, rsa_oid, sizeof rsa_oid);
    d += sizeof rsa_oid;
    der[d++] = 0x05, der[d++] = 0x00;
    der[d++] = 0x04, der[d++] = (uint8_t)n;
    size_t start = d;
    memcpy(der + d, inner, n);
    d += n;
    der[1] = (uint8_t)(d - 2);
    for (int i = 2; i < 8; i++) WC_CT_SECRET(der + start + at[i], lens[i]);
    return d;
}

/* Well-formed and malformed secret INTEGERs: the answer (DataError or
 * not) without a report. */
static void der_refusals(void) {
    static const struct {
        const char *what;
        uint8_t d[3];
        size_t len;
        bool ok;
    } cases[] = {{"one octet", {0x35}, 1, true},
                 {"sign octet", {0x00, 0x85}, 2, true},
                 {"zero", {0x00}, 1, true},
                 {"negative", {0x80}, 1, false},
                 {"negative, two octets", {0xff, 0x01}, 2, false},
                 {"redundant zero", {0x00, 0x35}, 2, false},
                 {"redundant zeros", {0x00, 0x00, 0x85}, 3, false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t ints[8][3], der[128];
        size_t lens[8];
        for (int i = 0; i < 8; i++) {
            ints[i][0] = (uint8_t)(0x31 + i);
            lens[i] = 1;
        }
        memcpy(ints[2], cases[c].d, cases[c].len); /* d */
        lens[2] = cases[c].len;
        size_t n = rsa_by_hand(der, ints, lens);
        wc_pkey_fields f;
        webcrypto_status st = wc_der_parse_pkcs8(WEBCRYPTO_ALG_RSA_PSS, der, n, &f);
        CHECK(cases[c].ok ? st == WEBCRYPTO_OK : st == WEBCRYPTO_ERR_DATA,
              "der: RSAPrivateKey with d %s: status %d", cases[c].what, (int)st);
    }
}

static void test_der(void) {
    uint8_t buf[8][300];
    /* RSA: members with a top bit set (sign octet), leading zero bytes
     * (stripped by the writer), and small ones. */
    wc_pkey_fields f = {0};
    static const uint8_t e[] = {0x01, 0x00, 0x01};
    fill(buf[0], 256, 10);
    buf[0][0] |= 0x80; /* n */
    f.n = (wc_bytes){buf[0], 256};
    f.e = (wc_bytes){e, sizeof e};
    wc_bytes *priv[] = {&f.d, &f.p, &f.q, &f.dp, &f.dq, &f.qi};
    size_t lens[] = {256, 128, 128, 128, 127, 128};
    for (size_t i = 0; i < 6; i++) {
        fill(buf[1 + i], lens[i], (uint32_t)(20 + i));
        *priv[i] = (wc_bytes){buf[1 + i], lens[i]};
    }
    buf[1][0] = 0x00; /* d: a leading zero byte */
    buf[1][1] = 0x00; /* ... two */
    buf[2][0] |= 0x80; /* p: needs a sign octet */
    buf[3][0] &= 0x7f; /* q: does not */
    buf[3][0] |= 0x01;
    der_round_trip("RSA (two primes)", WEBCRYPTO_ALG_RSA_PSS, &f);
    /* three primes: r, d, t of the third */
    uint8_t oth[3][64];
    for (int j = 0; j < 3; j++) fill(oth[j], 64, (uint32_t)(40 + j));
    oth[0][0] |= 0x80;
    oth[2][0] = 0;
    f.oth_count = 1;
    f.oth[0].r = (wc_bytes){oth[0], 64};
    f.oth[0].d = (wc_bytes){oth[1], 64};
    f.oth[0].t = (wc_bytes){oth[2], 64};
    der_round_trip("RSA (three primes)", WEBCRYPTO_ALG_RSA_PSS, &f);

    /* EC P-256: d with leading zeros, given at full length and shorter */
    wc_pkey_fields ec = {0};
    uint8_t point[65], d[32];
    point[0] = 0x04;
    fill(point + 1, 64, 50);
    fill(d, 32, 51);
    d[0] = 0;
    ec.curve = WEBCRYPTO_CURVE_P256;
    ec.point = (wc_bytes){point, 65};
    ec.d = (wc_bytes){d, 32};
    der_round_trip("EC P-256", WEBCRYPTO_ALG_ECDSA, &ec);
    ec.d = (wc_bytes){d + 1, 31}; /* as a library that strips zeros gives it */
    der_round_trip("EC P-256 (short d)", WEBCRYPTO_ALG_ECDSA, &ec);
    ec.point = (wc_bytes){NULL, 0};
    ec.x = (wc_bytes){point + 1, 32};
    ec.y = (wc_bytes){point + 33, 32};
    uint8_t longd[34] = {0, 0};
    memcpy(longd + 2, d, 32);
    ec.d = (wc_bytes){longd, 34}; /* longer than the field, zeros in front */
    der_round_trip("EC P-256 (long d, x and y)", WEBCRYPTO_ALG_ECDSA, &ec);

    /* OKP and the seeds: fixed-length octets */
    struct {
        const char *name;
        webcrypto_algorithm alg;
        size_t len;
    } fixed[] = {{"Ed25519", WEBCRYPTO_ALG_ED25519, 32}, {"X25519", WEBCRYPTO_ALG_X25519, 32},
                 {"Ed448", WEBCRYPTO_ALG_ED448, 57},     {"X448", WEBCRYPTO_ALG_X448, 56},
                 {"ML-KEM-768", WEBCRYPTO_ALG_ML_KEM_768, 64},
                 {"ML-DSA-65", WEBCRYPTO_ALG_ML_DSA_65, 32}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        wc_pkey_fields o = {0};
        uint8_t k[64];
        fill(k, sizeof k, (uint32_t)(60 + i));
        k[0] = 0;
        o.d = (wc_bytes){k, fixed[i].len};
        der_round_trip(fixed[i].name, fixed[i].alg, &o);
    }
    der_refusals();
}

/* ---- the CLI's PEM (tools/cli/pem.c) ---- */

static void test_pem(void) {
    uint8_t der[300];
    for (size_t i = 0; i < 256; i++) der[i] = (uint8_t)i; /* every digit turns up */
    fill(der + 256, 44, 70);
    for (size_t n = 298; n <= 300; n++) { /* each remainder mod 3 */
        uint8_t secret[300];
        memcpy(secret, der, n);
        WC_CT_SECRET(secret, n);
        sink s = {0};
        int rc = sink_write_pem(&s, WEBCRYPTO_FORMAT_PKCS8, secret, n);
        CHECK(rc == EXIT_OK, "pem: encode %zu bytes", n);
        if (rc != EXIT_OK) continue;
        /* the body (between the BEGIN and END lines) stays secret; the
         * layout around it is public, as it is in a key file */
        static const char begin[] = "-----BEGIN PRIVATE KEY-----\n";
        size_t body = sizeof begin - 1, end = s.len;
        WC_CT_PUBLIC(s.buf, s.len);
        CHECK(s.len > body && memcmp(s.buf, begin, body) == 0, "pem: BEGIN line");
        while (end > body && s.buf[end - 1] != '\n') end--;
        end--;
        while (end > body && s.buf[end - 1] != '\n') end--; /* start of the END line */
        for (size_t i = body; i < end; i++)
            if (s.buf[i] != '\n') WC_CT_SECRET(s.buf + i, 1);
        size_t got = 0;
        webcrypto_key_format fmt = WEBCRYPTO_FORMAT_RAW;
        rc = pem_decode(s.buf, s.len, &got, &fmt);
        CHECK(rc == EXIT_OK && fmt == WEBCRYPTO_FORMAT_PKCS8, "pem: decode %zu bytes", n);
        CHECK(got == n && same(s.buf, der, n), "pem: round trip of %zu bytes", n);
        free(s.buf);
    }
    /* a bad character in a secret body is refused */
    char bad[] = "-----BEGIN PRIVATE KEY-----\nAAAA*AAA\n-----END PRIVATE KEY-----\n";
    size_t bad_len = strlen(bad), got = 0;
    WC_CT_SECRET(bad + 28, 8);
    webcrypto_key_format fmt;
    CHECK(pem_decode((uint8_t *)bad, bad_len, &got, &fmt) == EXIT_CRYPTO,
          "pem: a character that is not base64 refused");
}

/* ---- POLYVAL (src/backends/openssl/polyval.c) ---- */

#ifdef WC_CT_HAVE_POLYVAL
static void test_polyval(void) {
    uint8_t h[16], data[16 * 40 + 7], want[16], got[16];
    fill(h, sizeof h, 80);
    fill(data, sizeof data, 81);
    wc_polyval ref;
    wc_polyval_init(&ref, h, WC_POLYVAL_PORTABLE);
    wc_polyval_update(&ref, data, sizeof data);
    wc_polyval_final(&ref, want);
    wc_polyval_wipe(&ref);
    wc_polyval_impl impls[] = {WC_POLYVAL_PORTABLE, WC_POLYVAL_CLMUL, WC_POLYVAL_VCLMUL,
                               WC_POLYVAL_PMULL};
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        if (!wc_polyval_impl_available(impls[i])) {
            printf("polyval: %s not available here (under valgrind), not checked\n",
                   wc_polyval_impl_name(impls[i]));
            continue;
        }
        uint8_t sh[16], sd[sizeof data], out[sizeof data], ks[sizeof data];
        memcpy(sh, h, 16);
        memcpy(sd, data, sizeof data);
        WC_CT_SECRET(sh, sizeof sh);
        WC_CT_SECRET(sd, sizeof sd);
        wc_polyval pv;
        wc_polyval_init(&pv, sh, impls[i]);
        wc_polyval_update(&pv, sd, 16 * 3); /* pieces, then the rest */
        wc_polyval_update(&pv, sd + 48, sizeof sd - 48);
        wc_polyval_final(&pv, got);
        CHECK(same(got, want, 16), "polyval %s: result", wc_polyval_impl_name(impls[i]));
        wc_polyval_wipe(&pv);
        /* update_xor: out = in ^ ks hashed, as GCM-SIV's opening does */
        memset(ks, 0, sizeof ks);
        wc_polyval_init(&pv, sh, impls[i]);
        wc_polyval_update_xor(&pv, out, sd, ks, sizeof sd);
        wc_polyval_final(&pv, got);
        CHECK(same(got, want, 16) && same(out, data, sizeof data), "polyval %s: update_xor",
              wc_polyval_impl_name(impls[i]));
        wc_polyval_wipe(&pv);
        printf("polyval: %s checked\n", wc_polyval_impl_name(impls[i]));
    }
}
#endif

int main(void) {
    test_equal_ct();
    test_base64url();
    test_der();
    test_pem();
#ifdef WC_CT_HAVE_POLYVAL
    test_polyval();
#endif
    if (failures) {
        fprintf(stderr, "ct_codec: %d checks failed\n", failures);
        return 3;
    }
    printf("ct_codec: all checks passed\n");
    return 0;
}
