/*
 * test_wycheproof.c - runs Wycheproof test vectors through the public API.
 *
 * The vectors are read at test time from tu_wycheproof_dir() (never copied
 * into the repository). Each file is handled by a row of `handlers` below: to
 * cover a new file, add a case function and a row. Every case ends in exactly
 * one verdict: accepted / rejected (judged against the vector's "result"),
 * skipped with a reason (the WebCrypto API cannot express the case), or
 * FAILED. A listed file that is absent is a failure, not a skip: the
 * directory exists but is incomplete.
 */
#define _POSIX_C_SOURCE 200809L /* opendir */

#include <dirent.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* PBKDF2 cases above $WEBCRYPTO_PBKDF2_MAX_ITERATIONS are skipped (counted and
 * reported) for quick local runs; by default every case runs (Wycheproof's
 * largest, 16777216 iterations, takes a few seconds). */
static unsigned long long wp_max_pbkdf2_iterations(void) {
    const char *env = getenv("WEBCRYPTO_PBKDF2_MAX_ITERATIONS");
    return env && *env ? strtoull(env, NULL, 10) : ULLONG_MAX;
}

/* Bytes an output buffer is filled with before a call, so that a failed
 * decryption can be checked to have left no plaintext behind. */
#define WP_FILL 0xA5u

#define WP_MAX_REASONS 32

typedef struct wp_reason {
    const char *text; /* a string literal */
    unsigned count;
} wp_reason;

typedef struct wp_stats {
    unsigned valid_accepted;
    unsigned invalid_rejected;
    unsigned acceptable_accepted;
    unsigned acceptable_rejected;
    unsigned skipped;
    unsigned failed;
    unsigned known; /* known provider defects (known_defects below) */
    wp_reason reasons[WP_MAX_REASONS];
    size_t n_reasons;
    /* cases the backend cannot run though WebCrypto can express them (a JCA
     * provider's KMAC has one output length): neither passes nor skips */
    unsigned not_applicable;
    wp_reason na_reasons[WP_MAX_REASONS];
    size_t n_na_reasons;
} wp_stats;

typedef enum wp_result { WP_VALID, WP_INVALID, WP_ACCEPTABLE } wp_result;

struct wp_handler;

/* One test case being run. The first verdict recorded wins; later ones are
 * ignored, so a handler records failures before it records acceptance. */
typedef struct wp_case {
    const struct wp_handler *h;
    const webcrypto_backend *backend;
    wp_stats *st;
    json_int_t tc_id;
    const char *comment;
    const json_t *flags;
    wp_result result;
    bool done;
} wp_case;

typedef void (*wp_case_fn)(wp_case *c, const json_t *group, const json_t *test);

typedef struct wp_handler {
    const char *file;          /* file name inside the vector directory */
    const char *schema;        /* expected top-level "schema" */
    const char *group_type;    /* expected "type" of every test group */
    webcrypto_algorithm alg;   /* algorithm the backend must support */
    webcrypto_algorithm hash;  /* hash for HMAC/HKDF/PBKDF2; NONE otherwise */
    wp_case_fn run;
} wp_handler;

/* ------------------------------------------------------------------------ */
/* Verdicts                                                                 */
/* ------------------------------------------------------------------------ */

static const char *result_name(wp_result r) {
    switch (r) {
    case WP_VALID: return "valid";
    case WP_INVALID: return "invalid";
    case WP_ACCEPTABLE: return "acceptable";
    }
    return "?";
}

static void add_reason(wp_reason *reasons, size_t *n, const char *text, unsigned count) {
    for (size_t i = 0; i < *n; i++) {
        if (strcmp(reasons[i].text, text) == 0) {
            reasons[i].count += count;
            return;
        }
    }
    if (*n == WP_MAX_REASONS) {
        /* Never lose a count: fold the overflow into the last slot. */
        reasons[WP_MAX_REASONS - 1].text = "other reasons (raise WP_MAX_REASONS)";
        reasons[WP_MAX_REASONS - 1].count += count;
        return;
    }
    reasons[*n].text = text;
    reasons[*n].count = count;
    (*n)++;
}

static void print_flags(const json_t *flags) {
    size_t i;
    const json_t *f;
    printf("[");
    json_array_foreach(flags, i, f) {
        printf("%s%s", i ? "," : "", json_is_string(f) ? json_string_value(f) : "?");
    }
    printf("]");
}

/* Cases a provider gets wrong, per backend under test and Java feature
 * version (docs/JCA.md lists them with the symptom). A listed case that
 * fails is counted and printed as a KNOWN PROVIDER DEFECT, never as a pass;
 * a listed case that passes fails the file (the list must stay true); any
 * other failure fails as usual. The backend reports what its provider
 * decides: these are not worked around. */
typedef struct wp_known {
    const char *backend; /* webcrypto_backend_name of the backend under test */
    int java;            /* Java feature version the provider ships with */
    const char *file;
    long long tc_id;
    const char *reason;
    bool hit;            /* failed in this run */
} wp_known;

static wp_known known_defects[] = {
    /* SunEC of JDK 17 compares x(R) with r without reducing x(R) mod n, so
     * it rejects valid signatures whose x(R) lies in [n, p). */
    {"jca", 17, "ecdsa_secp256r1_sha256_p1363_test.json", 115,
     "SunEC (JDK 17) rejects a valid ECDSA signature whose x(R) is in [n, p)", false},
    {"jca", 17, "ecdsa_secp256r1_sha256_p1363_test.json", 257,
     "SunEC (JDK 17) rejects a valid ECDSA signature whose x(R) is in [n, p)", false},
};
#define N_KNOWN (sizeof known_defects / sizeof known_defects[0])

static int g_java; /* Java feature version of the backend under test; 0: not jca */

static bool known_applies(const wp_known *k, const webcrypto_backend *b, const char *file) {
    return strcmp(k->backend, webcrypto_backend_name(b)) == 0 && k->java == g_java &&
           strcmp(k->file, file) == 0;
}

static wp_known *known_defect(const wp_case *c) {
    for (size_t i = 0; i < N_KNOWN; i++)
        if (known_applies(&known_defects[i], c->backend, c->h->file) &&
            known_defects[i].tc_id == (long long)c->tc_id)
            return &known_defects[i];
    return NULL;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void case_fail(wp_case *c, const char *fmt, ...) {
    if (c->done) return;
    c->done = true;
    wp_known *k = known_defect(c);
    if (k) {
        k->hit = true;
        c->st->known++;
        printf("  KNOWN PROVIDER DEFECT %s tcId %lld (%s on Java %d: %s): ", c->h->file,
               (long long)c->tc_id, webcrypto_backend_name(c->backend), g_java, k->reason);
    } else {
        c->st->failed++;
        printf("  FAILED %s tcId %lld (%s, \"%s\" ", c->h->file, (long long)c->tc_id,
               result_name(c->result), c->comment);
        print_flags(c->flags);
        printf("): ");
    }
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* Either outcome is allowed for an "acceptable" case; record which. */
static void print_acceptable(const wp_case *c, const char *outcome, const char *what) {
    printf("  acceptable %s tcId %lld (\"%s\" ", c->h->file, (long long)c->tc_id, c->comment);
    print_flags(c->flags);
    printf("): %s%s%s\n", outcome, what ? ": " : "", what ? what : "");
}

/* The implementation produced the expected result. */
static void case_accepted(wp_case *c) {
    if (c->done) return;
    switch (c->result) {
    case WP_VALID:
        c->done = true;
        c->st->valid_accepted++;
        break;
    case WP_INVALID:
        case_fail(c, "an invalid case was accepted");
        break;
    case WP_ACCEPTABLE:
        c->done = true;
        c->st->acceptable_accepted++;
        print_acceptable(c, "accepted", NULL);
        break;
    }
}

/* The implementation refused the case; `what` says how. */
static void case_rejected(wp_case *c, const char *what) {
    if (c->done) return;
    switch (c->result) {
    case WP_VALID:
        case_fail(c, "a valid case was rejected: %s", what);
        break;
    case WP_INVALID:
        c->done = true;
        c->st->invalid_rejected++;
        break;
    case WP_ACCEPTABLE:
        c->done = true;
        c->st->acceptable_rejected++;
        print_acceptable(c, "rejected", what);
        break;
    }
}

/* The case cannot be expressed with the WebCrypto API. */
static void case_skip(wp_case *c, const char *reason) {
    if (c->done) return;
    c->done = true;
    c->st->skipped++;
    add_reason(c->st->reasons, &c->st->n_reasons, reason, 1);
}

/* The backend cannot run the case (webcrypto_supports says so, and the
 * operation answered NotSupportedError): counted and printed on its own. */
static void case_not_applicable(wp_case *c, const char *reason) {
    if (c->done) return;
    c->done = true;
    c->st->not_applicable++;
    add_reason(c->st->na_reasons, &c->st->n_na_reasons, reason, 1);
}

/* "<op> returned <StatusName>: <message>", taken right after the call (the
 * message is per thread and overwritten by the next call). */
static void describe(char *buf, size_t cap, const char *op, webcrypto_status s) {
    snprintf(buf, cap, "%s returned %s: %s", op, webcrypto_status_name(s),
             webcrypto_error_message());
}

/* ------------------------------------------------------------------------ */
/* Vector fields                                                            */
/* ------------------------------------------------------------------------ */

typedef struct wp_buf {
    uint8_t *p; /* never NULL once decoded (malloc(1) for empty) */
    size_t n;
} wp_buf;

static void buf_free(wp_buf *b) {
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

static int hexdigit(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Decodes the hex string member `name` of obj. A missing or malformed field
 * is a broken vector file: the case fails. */
static bool hex_field(wp_case *c, const json_t *obj, const char *name, wp_buf *out) {
    const json_t *v = json_object_get(obj, name);
    if (!json_is_string(v)) {
        case_fail(c, "vector has no hex string \"%s\"", name);
        return false;
    }
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    if (len % 2 != 0) {
        case_fail(c, "vector field \"%s\" has an odd number of hex digits", name);
        return false;
    }
    out->p = malloc(len / 2 + 1);
    assert_non_null(out->p);
    out->n = len / 2;
    for (size_t i = 0; i < out->n; i++) {
        int hi = hexdigit(s[2 * i]), lo = hexdigit(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            buf_free(out);
            case_fail(c, "vector field \"%s\" is not hex", name);
            return false;
        }
        out->p[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

static bool int_field(wp_case *c, const json_t *obj, const char *name, json_int_t *out) {
    const json_t *v = json_object_get(obj, name);
    if (!json_is_integer(v)) {
        case_fail(c, "vector has no integer \"%s\"", name);
        return false;
    }
    *out = json_integer_value(v);
    return true;
}

static bool bytes_equal(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* Up to 32 bytes of buf as hex (with "..." if longer), for failure messages.
 * Returns one of two static buffers so that two can be used in one printf. */
static const char *hexstr(const uint8_t *buf, size_t len) {
    static char out[2][2 * 32 + 4];
    static unsigned which;
    char *o = out[which++ & 1];
    size_t shown = len < 32 ? len : 32;
    for (size_t i = 0; i < shown; i++) snprintf(o + 2 * i, 3, "%02x", buf[i]);
    strcpy(o + 2 * shown, len > shown ? "..." : "");
    return o;
}

/* True if buf holds nothing but the fill pattern or zeros, i.e. no output
 * (in particular no plaintext) was left in it. */
static bool holds_no_output(const uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != 0 && buf[i] != WP_FILL) return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Calls through the public API                                             */
/* ------------------------------------------------------------------------ */

typedef webcrypto_status (*wp_crypt_fn)(const webcrypto_params *, const webcrypto_key *,
                                        const uint8_t *, size_t, uint8_t *, size_t, size_t *);

/* Runs encrypt or decrypt the way a caller would: ask for the size, allocate
 * it, call. On failure `err` describes it. Records a FAILED verdict (and
 * returns a non-OK status) if the library breaks the buffer contract, or if a
 * failed decryption leaves data in the output buffer. */
static webcrypto_status run_crypt(wp_case *c, wp_crypt_fn fn, bool decrypt, const char *op,
                                  const webcrypto_params *p, const webcrypto_key *key,
                                  const wp_buf *in, wp_buf *out, char *err, size_t err_cap) {
    char what[64];
    size_t need = 0;
    out->p = NULL;
    out->n = 0;
    webcrypto_status s = fn(p, key, in->p, in->n, NULL, 0, &need);
    if (s != WEBCRYPTO_OK) {
        snprintf(what, sizeof what, "%s (size query)", op);
        describe(err, err_cap, what, s);
        return s;
    }
    out->p = malloc(need ? need : 1);
    assert_non_null(out->p);
    memset(out->p, (int)WP_FILL, need);
    size_t got = 0;
    s = fn(p, key, in->p, in->n, out->p, need, &got);
    if (s != WEBCRYPTO_OK) {
        describe(err, err_cap, op, s);
        if (decrypt && !holds_no_output(out->p, need)) {
            case_fail(c, "%s, but the output buffer still holds data (must be wiped)", err);
        }
        return s;
    }
    if (got > need) {
        case_fail(c, "%s wrote %zu bytes, more than the %zu it announced", op, got, need);
        return WEBCRYPTO_ERR_INVALID_ARGUMENT;
    }
    out->n = got;
    return WEBCRYPTO_OK;
}

/* ------------------------------------------------------------------------ */
/* AES-GCM (aead_test_schema_v1) and AES-CBC-PKCS5 (ind_cpa_test_schema_v1) */
/* ------------------------------------------------------------------------ */

static bool aes_key_size_ok(size_t n) {
    return n == 16 || n == 24 || n == 32;
}

/* WebCrypto's AesGcmParams.tagLength: 32, 64, 96, 104, 112, 120 or 128. */
static bool gcm_tag_bits_ok(size_t bits) {
    return bits == 32 || bits == 64 || (bits >= 96 && bits <= 128 && bits % 8 == 0);
}

/* Imports an AES key. Returns NULL when the case is decided already (import
 * refused: rejected or skipped; or failed). */
static webcrypto_key *import_aes(wp_case *c, const wp_buf *key) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = c->h->alg;
    webcrypto_key *k = NULL;
    unsigned usages = WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT;
    webcrypto_status s = webcrypto_import_key(c->backend, tu_secret_raw(p.name), key->p, key->n,
                                              &p, false, usages, &k);
    char err[512];
    if (s != WEBCRYPTO_OK) {
        describe(err, sizeof err, "importKey", s);
        if (!aes_key_size_ok(key->n)) {
            if (s != WEBCRYPTO_ERR_DATA) {
                case_fail(c, "%zu-byte AES key: expected DataError; %s", key->n, err);
            } else if (c->result == WP_INVALID) {
                case_rejected(c, err);
            } else {
                case_skip(c, "key size not allowed by WebCrypto");
            }
        } else {
            case_rejected(c, err);
        }
        return NULL;
    }
    if (!aes_key_size_ok(key->n)) {
        webcrypto_key_free(k);
        case_fail(c, "importKey accepted a %zu-byte AES key (WebCrypto: DataError)", key->n);
        return NULL;
    }
    return k;
}

/* Shared judgement of an encrypt/decrypt pair: encrypt(msg) should be
 * expect_ct and decrypt(ct) should be msg. */
static void judge_cipher(wp_case *c, webcrypto_status es, const wp_buf *enc, const char *eerr,
                         webcrypto_status ds, const wp_buf *dec, const char *derr,
                         const wp_buf *msg, const wp_buf *expect_ct) {
    bool enc_match = es == WEBCRYPTO_OK && bytes_equal(enc->p, enc->n, expect_ct->p, expect_ct->n);
    bool dec_match = ds == WEBCRYPTO_OK && bytes_equal(dec->p, dec->n, msg->p, msg->n);
    if (c->result == WP_INVALID) {
        if (ds == WEBCRYPTO_OK) {
            case_fail(c, "decrypt accepted the invalid ciphertext (%zu bytes out)", dec->n);
        } else if (enc_match) {
            case_fail(c, "encrypt produced the invalid vector's ciphertext");
        } else {
            case_rejected(c, derr);
        }
        return;
    }
    if (es == WEBCRYPTO_OK && !enc_match) {
        case_fail(c, "encrypt gave a wrong ciphertext: %zu bytes %s, expected %zu bytes %s",
                  enc->n, hexstr(enc->p, enc->n), expect_ct->n, hexstr(expect_ct->p, expect_ct->n));
    } else if (ds == WEBCRYPTO_OK && !dec_match) {
        case_fail(c, "decrypt gave a wrong plaintext: %zu bytes %s, expected %zu bytes %s", dec->n,
                  hexstr(dec->p, dec->n), msg->n, hexstr(msg->p, msg->n));
    } else if (enc_match && dec_match) {
        case_accepted(c);
    } else {
        char both[1100];
        snprintf(both, sizeof both, "%s; %s", es == WEBCRYPTO_OK ? "encrypt ok" : eerr,
                 ds == WEBCRYPTO_OK ? "decrypt ok" : derr);
        case_rejected(c, both);
    }
}

static void run_aes_gcm(wp_case *c, const json_t *group, const json_t *test) {
    (void)group; /* sizes are taken from the data itself */
    wp_buf key = {0}, iv = {0}, aad = {0}, msg = {0}, ct = {0}, tag = {0}, ct_tag = {0};
    wp_buf enc = {0}, dec = {0};
    webcrypto_key *k = NULL;
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "iv", &iv) ||
        !hex_field(c, test, "aad", &aad) || !hex_field(c, test, "msg", &msg) ||
        !hex_field(c, test, "ct", &ct) || !hex_field(c, test, "tag", &tag))
        goto out;

    ct_tag.n = ct.n + tag.n;
    ct_tag.p = malloc(ct_tag.n + 1);
    assert_non_null(ct_tag.p);
    memcpy(ct_tag.p, ct.p, ct.n);
    memcpy(ct_tag.p + ct.n, tag.p, tag.n);

    k = import_aes(c, &key);
    if (!k) goto out;

    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_GCM;
    p.iv = iv.p;
    p.iv_len = iv.n;
    p.additional_data = aad.p;
    p.additional_data_len = aad.n;
    p.tag_length = tag.n * 8;
    char eerr[512] = "", derr[512] = "";

    if (!gcm_tag_bits_ok(tag.n * 8)) {
        /* WebCrypto cannot ask for this tag size; it must refuse it. */
        webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg,
                                        &enc, eerr, sizeof eerr);
        if (es == WEBCRYPTO_OK) {
            case_fail(c, "encrypt accepted tagLength %zu (WebCrypto: OperationError)", tag.n * 8);
        } else {
            case_skip(c, "tag size not allowed by WebCrypto");
        }
        goto out;
    }
    if (iv.n == 0 && c->result != WP_INVALID) {
        /* AesGcmParams needs a non-empty iv; check it is refused. */
        webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg,
                                        &enc, eerr, sizeof eerr);
        if (es == WEBCRYPTO_OK) {
            case_fail(c, "encrypt accepted an empty iv (WebCrypto: OperationError)");
        } else {
            case_skip(c, "empty iv not allowed by WebCrypto");
        }
        goto out;
    }

    webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg, &enc,
                                    eerr, sizeof eerr);
    webcrypto_status ds = run_crypt(c, webcrypto_decrypt, true, "decrypt", &p, k, &ct_tag, &dec,
                                    derr, sizeof derr);
    if (iv.n == 0 && es == WEBCRYPTO_OK) {
        /* An empty GCM iv must be refused outright, not just fail to match. */
        case_fail(c, "encrypt accepted an empty iv (WebCrypto: OperationError)");
    }
    judge_cipher(c, es, &enc, eerr, ds, &dec, derr, &msg, &ct_tag);

out:
    webcrypto_key_free(k);
    buf_free(&key); buf_free(&iv); buf_free(&aad); buf_free(&msg); buf_free(&ct);
    buf_free(&tag); buf_free(&ct_tag); buf_free(&enc); buf_free(&dec);
}

/* AES-GCM-SIV (RFC 8452; aead_test_schema_v1): keys of 16 or 32 bytes, a
 * 12-byte nonce in iv, a 16-byte tag. Same judgement as AES-GCM. */
static void run_aes_gcm_siv(wp_case *c, const json_t *group, const json_t *test) {
    (void)group; /* sizes are taken from the data itself */
    wp_buf key = {0}, iv = {0}, aad = {0}, msg = {0}, ct = {0}, tag = {0}, ct_tag = {0};
    wp_buf enc = {0}, dec = {0};
    webcrypto_key *k = NULL;
    char eerr[512] = "", derr[512] = "";
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "iv", &iv) ||
        !hex_field(c, test, "aad", &aad) || !hex_field(c, test, "msg", &msg) ||
        !hex_field(c, test, "ct", &ct) || !hex_field(c, test, "tag", &tag))
        goto out;

    ct_tag.n = ct.n + tag.n;
    ct_tag.p = malloc(ct_tag.n + 1);
    assert_non_null(ct_tag.p);
    memcpy(ct_tag.p, ct.p, ct.n);
    memcpy(ct_tag.p + ct.n, tag.p, tag.n);

    /* import_aes would take 24-byte keys as valid AES sizes: not here. */
    bool key_ok = key.n == 16 || key.n == 32;
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = WEBCRYPTO_ALG_AES_GCM_SIV;
    webcrypto_status ks = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, key.p, key.n,
                                               &kp, false,
                                               WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                                               &k);
    if (ks != WEBCRYPTO_OK) {
        describe(eerr, sizeof eerr, "importKey", ks);
        if (key_ok)
            case_rejected(c, eerr);
        else if (ks != WEBCRYPTO_ERR_DATA)
            case_fail(c, "%zu-byte AES-GCM-SIV key: expected DataError; %s", key.n, eerr);
        else if (c->result == WP_INVALID)
            case_rejected(c, eerr);
        else
            case_skip(c, "AES-GCM-SIV key size other than 128 or 256 bits");
        goto out;
    }
    if (!key_ok) {
        case_fail(c, "importKey accepted a %zu-byte AES-GCM-SIV key (expected DataError)", key.n);
        goto out;
    }

    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_GCM_SIV;
    p.iv = iv.p;
    p.iv_len = iv.n;
    p.additional_data = aad.p;
    p.additional_data_len = aad.n;
    p.tag_length = tag.n * 8;

    if ((iv.n != 12 || tag.n != 16) && c->result != WP_INVALID) {
        /* RFC 8452 fixes a 96-bit nonce and a 128-bit tag; other sizes must
         * be refused, which makes such a case inexpressible here. */
        webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg,
                                        &enc, eerr, sizeof eerr);
        if (es == WEBCRYPTO_OK)
            case_fail(c, "encrypt accepted a %zu-byte nonce / %zu-byte tag", iv.n, tag.n);
        else
            case_skip(c, "AES-GCM-SIV nonce other than 96 bits or tag other than 128 bits");
        goto out;
    }

    webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg, &enc,
                                    eerr, sizeof eerr);
    webcrypto_status ds = run_crypt(c, webcrypto_decrypt, true, "decrypt", &p, k, &ct_tag, &dec,
                                    derr, sizeof derr);
    judge_cipher(c, es, &enc, eerr, ds, &dec, derr, &msg, &ct_tag);

out:
    webcrypto_key_free(k);
    buf_free(&key); buf_free(&iv); buf_free(&aad); buf_free(&msg); buf_free(&ct);
    buf_free(&tag); buf_free(&ct_tag); buf_free(&enc); buf_free(&dec);
}

/* ChaCha20-Poly1305 (RFC 8439; aead_test_schema_v1), as the draft "Modern
 * Algorithms in the Web Cryptography API" defines it: 32-byte keys, a
 * 12-byte iv (any other size OperationError, so those cases, all invalid,
 * must be refused by both encrypt and decrypt), a 16-byte tag. */
static void run_chacha20_poly1305(wp_case *c, const json_t *group, const json_t *test) {
    (void)group; /* sizes are taken from the data itself */
    wp_buf key = {0}, iv = {0}, aad = {0}, msg = {0}, ct = {0}, tag = {0}, ct_tag = {0};
    wp_buf enc = {0}, dec = {0};
    webcrypto_key *k = NULL;
    char eerr[512] = "", derr[512] = "";
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "iv", &iv) ||
        !hex_field(c, test, "aad", &aad) || !hex_field(c, test, "msg", &msg) ||
        !hex_field(c, test, "ct", &ct) || !hex_field(c, test, "tag", &tag))
        goto out;

    ct_tag.n = ct.n + tag.n;
    ct_tag.p = malloc(ct_tag.n + 1);
    assert_non_null(ct_tag.p);
    memcpy(ct_tag.p, ct.p, ct.n);
    memcpy(ct_tag.p + ct.n, tag.p, tag.n);

    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = WEBCRYPTO_ALG_CHACHA20_POLY1305;
    webcrypto_status ks = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW_SECRET, key.p, key.n,
                                               &kp, false,
                                               WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                                               &k);
    if (ks != WEBCRYPTO_OK) {
        describe(eerr, sizeof eerr, "importKey", ks);
        if (key.n == 32)
            case_rejected(c, eerr);
        else if (ks != WEBCRYPTO_ERR_DATA)
            case_fail(c, "%zu-byte ChaCha20-Poly1305 key: expected DataError; %s", key.n, eerr);
        else if (c->result == WP_INVALID)
            case_rejected(c, eerr);
        else
            case_skip(c, "ChaCha20-Poly1305 key size other than 256 bits");
        goto out;
    }
    if (key.n != 32) {
        case_fail(c, "importKey accepted a %zu-byte ChaCha20-Poly1305 key", key.n);
        goto out;
    }

    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_CHACHA20_POLY1305;
    p.iv = iv.p;
    p.iv_len = iv.n;
    p.additional_data = aad.p;
    p.additional_data_len = aad.n;
    p.tag_length = tag.n * 8;
    webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg, &enc,
                                    eerr, sizeof eerr);
    webcrypto_status ds = run_crypt(c, webcrypto_decrypt, true, "decrypt", &p, k, &ct_tag, &dec,
                                    derr, sizeof derr);
    if ((iv.n != 12 || tag.n != 16) &&
        (es != WEBCRYPTO_ERR_OPERATION || ds != WEBCRYPTO_ERR_OPERATION)) {
        case_fail(c, "a %zu-byte iv / %zu-byte tag: expected OperationError from both (%s; %s)",
                  iv.n, tag.n, es == WEBCRYPTO_OK ? "encrypt ok" : eerr,
                  ds == WEBCRYPTO_OK ? "decrypt ok" : derr);
        goto out;
    }
    if ((iv.n != 12 || tag.n != 16) && c->result != WP_INVALID) {
        case_skip(c, "ChaCha20-Poly1305 iv other than 96 bits or tag other than 128 bits");
        goto out;
    }
    judge_cipher(c, es, &enc, eerr, ds, &dec, derr, &msg, &ct_tag);

out:
    webcrypto_key_free(k);
    buf_free(&key); buf_free(&iv); buf_free(&aad); buf_free(&msg); buf_free(&ct);
    buf_free(&tag); buf_free(&ct_tag); buf_free(&enc); buf_free(&dec);
}

static void run_aes_cbc(wp_case *c, const json_t *group, const json_t *test) {
    (void)group;
    wp_buf key = {0}, iv = {0}, msg = {0}, ct = {0}, enc = {0}, dec = {0};
    webcrypto_key *k = NULL;
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "iv", &iv) ||
        !hex_field(c, test, "msg", &msg) || !hex_field(c, test, "ct", &ct))
        goto out;

    k = import_aes(c, &key);
    if (!k) goto out;

    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_CBC;
    p.iv = iv.p;
    p.iv_len = iv.n;
    char eerr[512] = "", derr[512] = "";

    if (iv.n != 16 && c->result != WP_INVALID) {
        webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg,
                                        &enc, eerr, sizeof eerr);
        if (es == WEBCRYPTO_OK) {
            case_fail(c, "encrypt accepted a %zu-byte iv (WebCrypto: OperationError)", iv.n);
        } else {
            case_skip(c, "iv size not allowed by WebCrypto (AES-CBC needs 16 bytes)");
        }
        goto out;
    }

    webcrypto_status es = run_crypt(c, webcrypto_encrypt, false, "encrypt", &p, k, &msg, &enc,
                                    eerr, sizeof eerr);
    webcrypto_status ds = run_crypt(c, webcrypto_decrypt, true, "decrypt", &p, k, &ct, &dec,
                                    derr, sizeof derr);
    judge_cipher(c, es, &enc, eerr, ds, &dec, derr, &msg, &ct);

out:
    webcrypto_key_free(k);
    buf_free(&key); buf_free(&iv); buf_free(&msg); buf_free(&ct);
    buf_free(&enc); buf_free(&dec);
}

/* ------------------------------------------------------------------------ */
/* AES-KW (keywrap_test_schema_v1)                                          */
/* ------------------------------------------------------------------------ */

/* WebCrypto wraps keys, not bytes: msg is carried as the raw bytes of an HMAC
 * key (any length), wrapped with wrapKey and recovered with unwrapKey. */
static void run_aes_kw(wp_case *c, const json_t *group, const json_t *test) {
    (void)group;
    wp_buf key = {0}, msg = {0}, ct = {0}, enc = {0}, dec = {0};
    webcrypto_key *kek = NULL, *payload = NULL, *back = NULL;
    char eerr[512] = "", derr[512] = "";
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "msg", &msg) ||
        !hex_field(c, test, "ct", &ct))
        goto out;
    webcrypto_params kw = WEBCRYPTO_PARAMS_INIT;
    kw.name = WEBCRYPTO_ALG_AES_KW;
    webcrypto_status s = webcrypto_import_key(
        c->backend, WEBCRYPTO_FORMAT_RAW, key.p, key.n, &kw, false,
        WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY, &kek);
    if (s != WEBCRYPTO_OK) {
        describe(eerr, sizeof eerr, "importKey", s);
        if (!aes_key_size_ok(key.n) && s == WEBCRYPTO_ERR_DATA && c->result != WP_INVALID)
            case_skip(c, "key size not allowed by WebCrypto");
        else
            case_rejected(c, eerr);
        goto out;
    }
    webcrypto_params mac = WEBCRYPTO_PARAMS_INIT;
    mac.name = WEBCRYPTO_ALG_HMAC;
    mac.hash = WEBCRYPTO_ALG_SHA_256;
    webcrypto_status es;
    if (msg.n == 0) {
        es = WEBCRYPTO_ERR_DATA; /* no empty key exists to wrap */
        snprintf(eerr, sizeof eerr, "an empty payload cannot be a key");
    } else {
        es = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, msg.p, msg.n, &mac, true,
                                  WEBCRYPTO_USAGE_SIGN, &payload);
        if (es == WEBCRYPTO_OK) {
            uint8_t *w = NULL;
            size_t wn = 0;
            es = webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, payload, kek, &kw, &w, &wn);
            if (es == WEBCRYPTO_OK) {
                enc.p = w;
                enc.n = wn;
            } else {
                describe(eerr, sizeof eerr, "wrapKey", es);
            }
        } else {
            describe(eerr, sizeof eerr, "importKey (payload)", es);
        }
    }
    webcrypto_status ds = webcrypto_unwrap_key(WEBCRYPTO_FORMAT_RAW, ct.p, ct.n, kek, &kw, &mac,
                                               true, WEBCRYPTO_USAGE_SIGN, &back);
    if (ds == WEBCRYPTO_OK) {
        uint8_t *raw = NULL;
        size_t rn = 0;
        ds = webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, back, &raw, &rn);
        if (ds == WEBCRYPTO_OK) {
            dec.p = raw;
            dec.n = rn;
        } else {
            describe(derr, sizeof derr, "exportKey", ds);
        }
    } else {
        describe(derr, sizeof derr, "unwrapKey", ds);
    }
    judge_cipher(c, es, &enc, eerr, ds, &dec, derr, &msg, &ct);
out:
    webcrypto_key_free(kek);
    webcrypto_key_free(payload);
    webcrypto_key_free(back);
    buf_free(&key); buf_free(&msg); buf_free(&ct);
    buf_free(&enc); buf_free(&dec);
}

/* ------------------------------------------------------------------------ */
/* HMAC (mac_test_schema_v1)                                                */
/* ------------------------------------------------------------------------ */

static void run_hmac(wp_case *c, const json_t *group, const json_t *test) {
    (void)group;
    wp_buf key = {0}, msg = {0}, tag = {0};
    webcrypto_key *k = NULL;
    uint8_t mac[64];
    char err[512];
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "msg", &msg) ||
        !hex_field(c, test, "tag", &tag))
        goto out;

    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_HMAC;
    p.hash = c->h->hash;
    webcrypto_status s = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, key.p, key.n, &p,
                                              false,
                                              WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k);
    if (s != WEBCRYPTO_OK) {
        describe(err, sizeof err, "importKey", s);
        if (key.n == 0 && s == WEBCRYPTO_ERR_DATA && c->result != WP_INVALID) {
            case_skip(c, "empty HMAC key not allowed by WebCrypto");
        } else {
            case_rejected(c, err);
        }
        goto out;
    }
    if (key.n == 0) {
        case_fail(c, "importKey accepted an empty HMAC key (WebCrypto: DataError)");
        goto out;
    }

    size_t mac_size = webcrypto_digest_size(c->h->hash);
    size_t mac_len = 0;
    webcrypto_params sp = WEBCRYPTO_PARAMS_INIT;
    sp.name = WEBCRYPTO_ALG_HMAC;
    s = webcrypto_sign(&sp, k, msg.p, msg.n, mac, sizeof mac, &mac_len);
    if (s != WEBCRYPTO_OK) {
        describe(err, sizeof err, "sign", s);
        case_rejected(c, err);
        goto out;
    }
    if (mac_len != mac_size) {
        case_fail(c, "sign gave %zu bytes, expected the full %zu-byte MAC", mac_len, mac_size);
        goto out;
    }
    bool valid = false;
    s = webcrypto_verify(&sp, k, tag.p, tag.n, msg.p, msg.n, &valid);
    if (s != WEBCRYPTO_OK) {
        /* A wrong or wrong-length MAC is "false", never an error. */
        describe(err, sizeof err, "verify", s);
        case_fail(c, "%s (a wrong MAC must give OK and false)", err);
        goto out;
    }

    if (tag.n != mac_size) {
        /* WebCrypto has no truncated-MAC check: a MAC of any other length
         * verifies false. Still catch a wrong MAC or a "true". */
        if (valid) {
            case_fail(c, "verify returned true for a %zu-byte tag", tag.n);
        } else if (tag.n < mac_size && c->result == WP_VALID && memcmp(mac, tag.p, tag.n) != 0) {
            case_fail(c, "the MAC's first %zu bytes differ from the truncated tag", tag.n);
        } else if (tag.n < mac_size && c->result == WP_INVALID && memcmp(mac, tag.p, tag.n) == 0) {
            case_fail(c, "the MAC starts with the invalid truncated tag");
        } else {
            case_skip(c, tag.n < mac_size
                             ? "truncated tag (WebCrypto HMAC always uses the full MAC)"
                             : "tag longer than the MAC");
        }
        goto out;
    }

    /* sign and verify must agree with each other; then the verdict is
     * whether the vector's tag is the MAC. */
    bool sign_match = memcmp(mac, tag.p, tag.n) == 0;
    if (valid && !sign_match) {
        case_fail(c, "verify returned true but sign gives %s, not the tag %s",
                  hexstr(mac, mac_len), hexstr(tag.p, tag.n));
    } else if (!valid && sign_match) {
        case_fail(c, "verify returned false for the MAC sign produced");
    } else if (valid) {
        if (c->result == WP_INVALID) {
            case_fail(c, "sign produced the invalid tag and verify accepted it");
        } else {
            case_accepted(c);
        }
    } else {
        char what[256];
        snprintf(what, sizeof what, "verify returned false; sign gives %s, expected %s",
                 hexstr(mac, mac_len), hexstr(tag.p, tag.n));
        case_rejected(c, what);
    }

out:
    webcrypto_key_free(k);
    buf_free(&key); buf_free(&msg); buf_free(&tag);
}

/* ------------------------------------------------------------------------ */
/* KMAC128 / KMAC256 without customization (mac_test_schema_v1): the group's */
/* tagSize is KmacParams' outputLength (KMAC's output depends on it, so a    */
/* tag is never a truncation of a longer one)                                */
/* ------------------------------------------------------------------------ */

static void run_kmac(wp_case *c, const json_t *group, const json_t *test) {
    wp_buf key = {0}, msg = {0}, tag = {0};
    webcrypto_key *k = NULL;
    uint8_t *mac = NULL;
    char err[512];
    json_int_t tag_bits = json_integer_value(json_object_get(group, "tagSize"));
    if (!hex_field(c, test, "key", &key) || !hex_field(c, test, "msg", &msg) ||
        !hex_field(c, test, "tag", &tag))
        goto out;
    if (tag_bits <= 0 || tag_bits % 8) {
        case_fail(c, "group tagSize %lld is not a positive number of bytes", (long long)tag_bits);
        goto out;
    }
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = c->h->alg;
    webcrypto_status s = webcrypto_import_key(c->backend, tu_secret_raw(p.name), key.p, key.n, &p,
                                              false,
                                              WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY, &k);
    if (s != WEBCRYPTO_OK) {
        describe(err, sizeof err, "importKey", s);
        case_rejected(c, err);
        goto out;
    }
    webcrypto_params sp = WEBCRYPTO_PARAMS_INIT;
    sp.name = c->h->alg;
    sp.output_length = (size_t)tag_bits;
    size_t mac_size = (size_t)tag_bits / 8, mac_len = 0;
    mac = malloc(mac_size);
    if (!mac) {
        case_fail(c, "out of memory");
        goto out;
    }
    /* A backend whose KMAC has one output length (a JCA provider's: 256
     * bits for KMAC128, 512 for KMAC256) cannot make this tag: a KMAC tag
     * is not a truncation of a longer one. supports() says so, and sign
     * must then be NotSupportedError. */
    if (!webcrypto_supports(c->backend, WEBCRYPTO_OP_SIGN, &sp, 0, NULL)) {
        s = webcrypto_sign(&sp, k, msg.p, msg.n, mac, mac_size, &mac_len);
        if (s != WEBCRYPTO_ERR_NOT_SUPPORTED) {
            describe(err, sizeof err, "sign", s);
            case_fail(c, "supports() is false for tagSize %lld but %s", (long long)tag_bits, err);
        } else {
            case_not_applicable(c, "tagSize other than the provider's one KMAC length");
        }
        goto out;
    }
    s = webcrypto_sign(&sp, k, msg.p, msg.n, mac, mac_size, &mac_len);
    if (s != WEBCRYPTO_OK || mac_len != mac_size) {
        describe(err, sizeof err, "sign", s);
        case_fail(c, "%s (%zu bytes)", err, mac_len);
        goto out;
    }
    bool valid = false;
    s = webcrypto_verify(&sp, k, tag.p, tag.n, msg.p, msg.n, &valid);
    if (s != WEBCRYPTO_OK) {
        describe(err, sizeof err, "verify", s);
        case_fail(c, "%s (a wrong MAC must give OK and false)", err);
        goto out;
    }
    bool sign_match = tag.n == mac_size && memcmp(mac, tag.p, tag.n) == 0;
    if (valid != sign_match) {
        case_fail(c, "verify says %s but sign gives %s for the tag %s", valid ? "true" : "false",
                  hexstr(mac, mac_len), hexstr(tag.p, tag.n));
    } else if (valid) {
        if (c->result == WP_INVALID)
            case_fail(c, "sign produced the invalid tag and verify accepted it");
        else
            case_accepted(c);
    } else {
        char what[256];
        snprintf(what, sizeof what, "verify returned false; sign gives %s", hexstr(mac, mac_len));
        case_rejected(c, what);
    }
out:
    free(mac);
    webcrypto_key_free(k);
    buf_free(&key); buf_free(&msg); buf_free(&tag);
}

/* ------------------------------------------------------------------------ */
/* HKDF (hkdf_test_schema_v1) and PBKDF2 (pbkdf_test_schema)                */
/* ------------------------------------------------------------------------ */

static webcrypto_key *import_kdf(wp_case *c, const wp_buf *secret) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = c->h->alg;
    webcrypto_key *k = NULL;
    webcrypto_status s = webcrypto_import_key(c->backend, WEBCRYPTO_FORMAT_RAW, secret->p,
                                              secret->n, &p, false,
                                              WEBCRYPTO_USAGE_DERIVE_BITS, &k);
    if (s != WEBCRYPTO_OK) {
        char err[512];
        describe(err, sizeof err, "importKey", s);
        case_rejected(c, err);
        return NULL;
    }
    return k;
}

/* deriveBits into a fresh buffer of `bytes` bytes; judges the result against
 * `expect`. */
static void derive_and_judge(wp_case *c, const webcrypto_params *p, const webcrypto_key *k,
                             size_t bytes, const wp_buf *expect) {
    uint8_t *out = malloc(bytes ? bytes : 1);
    assert_non_null(out);
    memset(out, (int)WP_FILL, bytes);
    size_t dlen = 0;
    webcrypto_status s = webcrypto_derive_bits(p, k, bytes * 8, out, bytes, &dlen);
    if (s != WEBCRYPTO_OK) {
        char err[512];
        describe(err, sizeof err, "deriveBits", s);
        case_rejected(c, err);
    } else if (c->result == WP_INVALID) {
        case_fail(c, "deriveBits of %zu bytes succeeded", bytes);
    } else if (!bytes_equal(out, bytes, expect->p, expect->n)) {
        case_fail(c, "deriveBits gave wrong bytes: %zu bytes %s, expected %zu bytes %s", bytes,
                  hexstr(out, bytes), expect->n, hexstr(expect->p, expect->n));
    } else {
        case_accepted(c);
    }
    free(out);
}

static void run_hkdf(wp_case *c, const json_t *group, const json_t *test) {
    (void)group;
    wp_buf ikm = {0}, salt = {0}, info = {0}, okm = {0};
    webcrypto_key *k = NULL;
    json_int_t size;
    if (!hex_field(c, test, "ikm", &ikm) || !hex_field(c, test, "salt", &salt) ||
        !hex_field(c, test, "info", &info) || !hex_field(c, test, "okm", &okm) ||
        !int_field(c, test, "size", &size))
        goto out;
    if (size < 0 || (unsigned long long)size > SIZE_MAX / 8) {
        case_fail(c, "vector size %lld out of range", (long long)size);
        goto out;
    }

    k = import_kdf(c, &ikm);
    if (!k) goto out;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_HKDF;
    p.hash = c->h->hash;
    p.salt = salt.p;
    p.salt_len = salt.n;
    p.info = info.p;
    p.info_len = info.n;
    /* size 0 is allowed by WebCrypto's HKDF (empty result): no skip. */
    derive_and_judge(c, &p, k, (size_t)size, &okm);

out:
    webcrypto_key_free(k);
    buf_free(&ikm); buf_free(&salt); buf_free(&info); buf_free(&okm);
}

static void run_pbkdf2(wp_case *c, const json_t *group, const json_t *test) {
    (void)group;
    wp_buf password = {0}, salt = {0}, dk = {0};
    webcrypto_key *k = NULL;
    json_int_t iterations, dk_len;
    if (!hex_field(c, test, "password", &password) || !hex_field(c, test, "salt", &salt) ||
        !hex_field(c, test, "dk", &dk) || !int_field(c, test, "iterationCount", &iterations) ||
        !int_field(c, test, "dkLen", &dk_len))
        goto out;
    if (dk_len < 0 || (unsigned long long)dk_len > SIZE_MAX / 8 || iterations < 0) {
        case_fail(c, "vector dkLen %lld / iterationCount %lld out of range", (long long)dk_len,
                  (long long)iterations);
        goto out;
    }
    if ((unsigned long long)iterations > wp_max_pbkdf2_iterations()) {
        case_skip(c, "iteration count above $WEBCRYPTO_PBKDF2_MAX_ITERATIONS");
        goto out;
    }

    k = import_kdf(c, &password);
    if (!k) goto out;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_PBKDF2;
    p.hash = c->h->hash;
    p.salt = salt.p;
    p.salt_len = salt.n;
    p.iterations = (uint32_t)iterations;

    if ((iterations == 0 || dk_len == 0) && c->result != WP_INVALID) {
        /* WebCrypto's PBKDF2 refuses both with OperationError; check it. */
        size_t bytes = (size_t)dk_len;
        uint8_t *dst = malloc(bytes ? bytes : 1);
        assert_non_null(dst);
        size_t dlen = 0;
        webcrypto_status s = webcrypto_derive_bits(&p, k, bytes * 8, dst, bytes, &dlen);
        free(dst);
        if (s != WEBCRYPTO_ERR_OPERATION) {
            case_fail(c, "deriveBits with %s 0 returned %s (WebCrypto: OperationError)",
                      iterations == 0 ? "iterations" : "length", webcrypto_status_name(s));
        } else {
            case_skip(c, iterations == 0 ? "iteration count 0 not allowed by WebCrypto"
                                         : "dkLen 0 not allowed by WebCrypto");
        }
        goto out;
    }
    derive_and_judge(c, &p, k, (size_t)dk_len, &dk);

out:
    webcrypto_key_free(k);
    buf_free(&password); buf_free(&salt); buf_free(&dk);
}

/* ------------------------------------------------------------------------ */
/* Asymmetric algorithms: shared pieces                                     */
/* ------------------------------------------------------------------------ */

/* The vectors' hash names; NONE for one WebCrypto does not have (SHA-224,
 * SHA-512/256, SHA-3), whose cases are skipped. */
static webcrypto_algorithm wp_hash_by_name(const char *name) {
    if (!name) return WEBCRYPTO_ALG_NONE;
    if (strcmp(name, "SHA-1") == 0) return WEBCRYPTO_ALG_SHA_1;
    if (strcmp(name, "SHA-256") == 0) return WEBCRYPTO_ALG_SHA_256;
    if (strcmp(name, "SHA-384") == 0) return WEBCRYPTO_ALG_SHA_384;
    if (strcmp(name, "SHA-512") == 0) return WEBCRYPTO_ALG_SHA_512;
    return WEBCRYPTO_ALG_NONE;
}

/* The vectors' curve names (SEC 2 or JWK spelling); NONE for one WebCrypto
 * does not have (secp256k1, brainpool, ...). */
static webcrypto_named_curve wp_curve_by_name(const char *name) {
    if (!name) return WEBCRYPTO_CURVE_NONE;
    if (strcmp(name, "secp256r1") == 0 || strcmp(name, "P-256") == 0) return WEBCRYPTO_CURVE_P256;
    if (strcmp(name, "secp384r1") == 0 || strcmp(name, "P-384") == 0) return WEBCRYPTO_CURVE_P384;
    if (strcmp(name, "secp521r1") == 0 || strcmp(name, "P-521") == 0) return WEBCRYPTO_CURVE_P521;
    return WEBCRYPTO_CURVE_NONE;
}

static size_t wp_curve_bytes(webcrypto_named_curve curve) {
    return curve == WEBCRYPTO_CURVE_P256 ? 32 : curve == WEBCRYPTO_CURVE_P384 ? 48 : 66;
}

static const char *str_member(const json_t *obj, const char *name) {
    return json_string_value(json_object_get(obj, name));
}

/* importKey of bytes; on failure `err` says why and NULL is returned. */
static webcrypto_key *wp_import(wp_case *c, webcrypto_key_format fmt, const uint8_t *data,
                                size_t len, const webcrypto_params *p, unsigned usages,
                                webcrypto_status *st, char *err, size_t err_cap) {
    webcrypto_key *k = NULL;
    *st = webcrypto_import_key(c->backend, fmt, data, len, p, false, usages, &k);
    if (*st != WEBCRYPTO_OK) {
        describe(err, err_cap, "importKey", *st);
        return NULL;
    }
    return k;
}

/* importKey of a JWK given as a JSON object of the vector file. */
static webcrypto_key *wp_import_jwk(wp_case *c, const json_t *jwk, const webcrypto_params *p,
                                    unsigned usages, webcrypto_status *st, char *err,
                                    size_t err_cap) {
    char *text = json_dumps(jwk, JSON_COMPACT);
    assert_non_null(text);
    webcrypto_key *k = wp_import(c, WEBCRYPTO_FORMAT_JWK, (const uint8_t *)text, strlen(text), p,
                                 usages, st, err, err_cap);
    free(text);
    return k;
}

/* Imports a group's key, which Wycheproof makes valid: a refusal is a
 * failure of the case, whatever its result. */
static webcrypto_key *wp_import_group_key(wp_case *c, const char *what, webcrypto_key_format fmt,
                                          const uint8_t *data, size_t len, const json_t *jwk,
                                          const webcrypto_params *p, unsigned usages) {
    webcrypto_status st;
    char err[512];
    webcrypto_key *k = jwk ? wp_import_jwk(c, jwk, p, usages, &st, err, sizeof err)
                           : wp_import(c, fmt, data, len, p, usages, &st, err, sizeof err);
    if (!k) case_fail(c, "the group's %s key did not import: %s", what, err);
    return k;
}

/* The group's key in its binary format (what) and, when the group has one, as
 * a JWK too, into keys[0] and keys[1]: how many imported (0 after a failure,
 * which fails the case). */
static size_t wp_import_group_keys(wp_case *c, const char *what, webcrypto_key_format fmt,
                                   const uint8_t *data, size_t len, const json_t *jwk,
                                   const webcrypto_params *p, unsigned usages,
                                   webcrypto_key *keys[2]) {
    keys[0] = wp_import_group_key(c, what, fmt, data, len, NULL, p, usages);
    if (!keys[0]) return 0;
    if (!json_is_object(jwk)) return 1;
    keys[1] = wp_import_group_key(c, "jwk", WEBCRYPTO_FORMAT_JWK, NULL, 0, jwk, p, usages);
    return keys[1] ? 2 : 0;
}

/* Verifies sig over msg with each of keys (one public key imported from
 * different formats, named by what[]): they must agree, and a wrong
 * signature is OK with false, never an error. */
static void judge_verify(wp_case *c, const webcrypto_params *p, webcrypto_key *const *keys,
                         const char *const *what, size_t n_keys, const wp_buf *msg,
                         const wp_buf *sig) {
    bool first = false;
    for (size_t i = 0; i < n_keys; i++) {
        bool valid = false;
        webcrypto_status s = webcrypto_verify(p, keys[i], sig->p, sig->n, msg->p, msg->n, &valid);
        if (s != WEBCRYPTO_OK) {
            char err[512];
            describe(err, sizeof err, "verify", s);
            case_fail(c, "%s key: %s (a wrong signature must give OK and false)", what[i], err);
            return;
        }
        if (i == 0) {
            first = valid;
        } else if (valid != first) {
            case_fail(c, "verify with the %s key says %s, with the %s key %s", what[0],
                      first ? "true" : "false", what[i], valid ? "true" : "false");
            return;
        }
    }
    if (first)
        case_accepted(c);
    else
        case_rejected(c, "verify returned false");
}

/* ------------------------------------------------------------------------ */
/* ECDSA (ecdsa_p1363_verify_schema_v1): r || s signatures                  */
/* ------------------------------------------------------------------------ */

/* The group's public key through raw import (the uncompressed point) and
 * JWK; a signature of any length is verified (a wrong length is false). */
static void run_ecdsa_p1363(wp_case *c, const json_t *group, const json_t *test) {
    wp_buf msg = {0}, sig = {0}, point = {0};
    webcrypto_key *keys[2] = {NULL, NULL};
    const json_t *pk = json_object_get(group, "publicKey");
    if (!hex_field(c, test, "msg", &msg) || !hex_field(c, test, "sig", &sig) ||
        !hex_field(c, pk, "uncompressed", &point))
        goto out;
    webcrypto_named_curve curve = wp_curve_by_name(str_member(pk, "curve"));
    webcrypto_algorithm hash = wp_hash_by_name(str_member(group, "sha"));
    if (curve == WEBCRYPTO_CURVE_NONE) {
        case_skip(c, "curve not in WebCrypto (P-256, P-384, P-521)");
        goto out;
    }
    if (hash == WEBCRYPTO_ALG_NONE) {
        case_skip(c, "hash not in WebCrypto (SHA-1, SHA-256, SHA-384, SHA-512)");
        goto out;
    }
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = WEBCRYPTO_ALG_ECDSA;
    kp.named_curve = curve;
    size_t n_keys = wp_import_group_keys(c, "raw", WEBCRYPTO_FORMAT_RAW, point.p, point.n,
                                         json_object_get(group, "publicKeyJwk"), &kp,
                                         WEBCRYPTO_USAGE_VERIFY, keys);
    if (!n_keys) goto out;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_ECDSA;
    p.hash = hash;
    static const char *const what[] = {"raw", "jwk"};
    judge_verify(c, &p, keys, what, n_keys, &msg, &sig);
out:
    webcrypto_key_free(keys[0]);
    webcrypto_key_free(keys[1]);
    buf_free(&msg); buf_free(&sig); buf_free(&point);
}

/* ------------------------------------------------------------------------ */
/* ECDH (ecdh_webcrypto_test_schema_v1): JWK private and public keys        */
/* ------------------------------------------------------------------------ */

/* An invalid public key must be refused by importKey (DataError) or by
 * deriveBits (OperationError, or InvalidAccessError for a key that imported
 * on another curve); a valid one must give the shared secret. */
static void run_ecdh_webcrypto(wp_case *c, const json_t *group, const json_t *test) {
    wp_buf shared = {0};
    webcrypto_key *priv = NULL, *pub = NULL;
    uint8_t *out = NULL;
    char err[512];
    webcrypto_status st;
    if (!hex_field(c, test, "shared", &shared)) goto out;
    const json_t *jpriv = json_object_get(test, "private"), *jpub = json_object_get(test, "public");
    if (!json_is_object(jpriv) || !json_is_object(jpub)) {
        case_fail(c, "vector has no JWK \"private\" / \"public\" objects");
        goto out;
    }
    webcrypto_named_curve curve = wp_curve_by_name(str_member(group, "curve"));
    if (curve == WEBCRYPTO_CURVE_NONE) {
        case_skip(c, "curve not in WebCrypto (P-256, P-384, P-521)");
        goto out;
    }
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = WEBCRYPTO_ALG_ECDH;
    kp.named_curve = curve;
    priv = wp_import_jwk(c, jpriv, &kp, WEBCRYPTO_USAGE_DERIVE_BITS, &st, err, sizeof err);
    if (!priv) {
        /* the private keys are valid in every case: only the public ones vary */
        case_fail(c, "the private key did not import: %s", err);
        goto out;
    }
    pub = wp_import_jwk(c, jpub, &kp, 0, &st, err, sizeof err);
    if (!pub) {
        if (st != WEBCRYPTO_ERR_DATA)
            case_fail(c, "public key refused with %s, WebCrypto says DataError", err);
        else
            case_rejected(c, err);
        goto out;
    }
    size_t n = wp_curve_bytes(curve);
    out = malloc(n);
    assert_non_null(out);
    memset(out, (int)WP_FILL, n);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_ECDH;
    p.public_key = pub;
    size_t dlen = 0;
    st = webcrypto_derive_bits(&p, priv, WEBCRYPTO_LENGTH_FULL, out, n, &dlen);
    if (st != WEBCRYPTO_OK) {
        describe(err, sizeof err, "deriveBits", st);
        if (st != WEBCRYPTO_ERR_OPERATION && st != WEBCRYPTO_ERR_INVALID_ACCESS)
            case_fail(c, "%s (WebCrypto: OperationError)", err);
        else
            case_rejected(c, err);
    } else if (c->result == WP_INVALID) {
        case_fail(c, "both keys imported and deriveBits succeeded on an invalid public key");
    } else if (!bytes_equal(out, n, shared.p, shared.n)) {
        case_fail(c, "deriveBits gave %s, expected %s", hexstr(out, n),
                  hexstr(shared.p, shared.n));
    } else {
        case_accepted(c);
    }
out:
    free(out);
    webcrypto_key_free(priv);
    webcrypto_key_free(pub);
    buf_free(&shared);
}

/* ------------------------------------------------------------------------ */
/* RSA signatures: RSASSA-PKCS1-v1_5 (rsassa_pkcs1_verify_schema_v1) and    */
/* RSA-PSS (rsassa_pss_verify_schema_v1)                                    */
/* ------------------------------------------------------------------------ */

/* WebCrypto's RSA-PSS and RSA-OAEP use MGF1 with the key's hash: a group
 * with another mask generation function cannot be expressed. Returns the
 * hash, or NONE after recording a skip. */
static webcrypto_algorithm rsa_group_hash(wp_case *c, const json_t *group, bool has_mgf) {
    webcrypto_algorithm hash = wp_hash_by_name(str_member(group, "sha"));
    if (hash == WEBCRYPTO_ALG_NONE) {
        case_skip(c, "hash not in WebCrypto (SHA-1, SHA-256, SHA-384, SHA-512)");
        return WEBCRYPTO_ALG_NONE;
    }
    if (has_mgf) {
        const char *mgf = str_member(group, "mgf");
        if (!mgf || strcmp(mgf, "MGF1") != 0) {
            case_skip(c, "mask generation function is not MGF1");
            return WEBCRYPTO_ALG_NONE;
        }
        if (wp_hash_by_name(str_member(group, "mgfSha")) != hash) {
            case_skip(c, "MGF1 hash differs from the message hash (WebCrypto uses one hash)");
            return WEBCRYPTO_ALG_NONE;
        }
    }
    return hash;
}

/* The group's public key from its SPKI (publicKeyDer) and its JWK
 * (`jwk_member`), verified with both. */
static void run_rsa_verify(wp_case *c, const json_t *group, const json_t *test,
                           webcrypto_algorithm alg, const char *jwk_member) {
    wp_buf msg = {0}, sig = {0}, der = {0};
    webcrypto_key *keys[2] = {NULL, NULL};
    json_int_t slen = 0;
    if (!hex_field(c, test, "msg", &msg) || !hex_field(c, test, "sig", &sig) ||
        !hex_field(c, group, "publicKeyDer", &der))
        goto out;
    if (alg == WEBCRYPTO_ALG_RSA_PSS && !int_field(c, group, "sLen", &slen)) goto out;
    if (slen < 0) {
        case_fail(c, "vector sLen %lld out of range", (long long)slen);
        goto out;
    }
    webcrypto_algorithm hash = rsa_group_hash(c, group, alg == WEBCRYPTO_ALG_RSA_PSS);
    if (hash == WEBCRYPTO_ALG_NONE) goto out;
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = alg;
    kp.hash = hash;
    size_t n_keys = wp_import_group_keys(c, "spki", WEBCRYPTO_FORMAT_SPKI, der.p, der.n,
                                         json_object_get(group, jwk_member), &kp,
                                         WEBCRYPTO_USAGE_VERIFY, keys);
    if (!n_keys) goto out;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = alg;
    p.salt_length = (size_t)slen;
    static const char *const what[] = {"spki", "jwk"};
    judge_verify(c, &p, keys, what, n_keys, &msg, &sig);
out:
    webcrypto_key_free(keys[0]);
    webcrypto_key_free(keys[1]);
    buf_free(&msg); buf_free(&sig); buf_free(&der);
}

static void run_rsa_pkcs1(wp_case *c, const json_t *group, const json_t *test) {
    run_rsa_verify(c, group, test, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, "keyJwk");
}

static void run_rsa_pss(wp_case *c, const json_t *group, const json_t *test) {
    run_rsa_verify(c, group, test, WEBCRYPTO_ALG_RSA_PSS, "publicKeyJwk");
}

/* ------------------------------------------------------------------------ */
/* RSA-OAEP (rsaes_oaep_decrypt_schema_v1)                                  */
/* ------------------------------------------------------------------------ */

/* The first decryption failure's description in the file being run: every
 * other failure must read the same (the error must not say which check
 * failed). */
static const wp_handler *g_oaep_file;
static char g_oaep_error[512];

/* The group's private key from PKCS #8 and from JWK; decrypt must give msg
 * with both, or fail the same way with both. */
static void run_rsa_oaep(wp_case *c, const json_t *group, const json_t *test) {
    wp_buf msg = {0}, ct = {0}, label = {0}, der = {0}, out[2] = {{0}, {0}};
    webcrypto_key *keys[2] = {NULL, NULL};
    char err[2][512] = {"", ""};
    if (!hex_field(c, test, "msg", &msg) || !hex_field(c, test, "ct", &ct) ||
        !hex_field(c, test, "label", &label) || !hex_field(c, group, "privateKeyPkcs8", &der))
        goto out;
    webcrypto_algorithm hash = rsa_group_hash(c, group, true);
    if (hash == WEBCRYPTO_ALG_NONE) goto out;
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = WEBCRYPTO_ALG_RSA_OAEP;
    kp.hash = hash;
    size_t n_keys = wp_import_group_keys(c, "pkcs8", WEBCRYPTO_FORMAT_PKCS8, der.p, der.n,
                                         json_object_get(group, "privateKeyJwk"), &kp,
                                         WEBCRYPTO_USAGE_DECRYPT, keys);
    if (!n_keys) goto out;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_RSA_OAEP;
    p.label = label.p;
    p.label_len = label.n;
    webcrypto_status st[2] = {WEBCRYPTO_OK, WEBCRYPTO_OK};
    for (size_t i = 0; i < n_keys; i++)
        st[i] = run_crypt(c, webcrypto_decrypt, true, "decrypt", &p, keys[i], &ct, &out[i],
                          err[i], sizeof err[i]);
    if (c->done) goto out; /* run_crypt found the buffer contract broken */
    if (n_keys == 2 && ((st[0] == WEBCRYPTO_OK) != (st[1] == WEBCRYPTO_OK) ||
                        (st[0] == WEBCRYPTO_OK &&
                         !bytes_equal(out[0].p, out[0].n, out[1].p, out[1].n)))) {
        case_fail(c, "the pkcs8 and jwk keys disagree: %s / %s",
                  st[0] == WEBCRYPTO_OK ? "decrypted" : err[0],
                  st[1] == WEBCRYPTO_OK ? "decrypted" : err[1]);
        goto out;
    }
    if (st[0] != WEBCRYPTO_OK) {
        if (g_oaep_file != c->h) {
            g_oaep_file = c->h;
            snprintf(g_oaep_error, sizeof g_oaep_error, "%s", err[0]);
        }
        if (st[0] != WEBCRYPTO_ERR_OPERATION) {
            case_fail(c, "%s (WebCrypto: OperationError)", err[0]);
        } else if (strcmp(err[0], g_oaep_error) != 0 ||
                   (n_keys == 2 && strcmp(err[1], g_oaep_error) != 0)) {
            case_fail(c, "decryption failures read differently: \"%s\", earlier \"%s\"",
                      strcmp(err[0], g_oaep_error) != 0 ? err[0] : err[1], g_oaep_error);
        } else {
            case_rejected(c, err[0]);
        }
    } else if (c->result == WP_INVALID) {
        case_fail(c, "decrypt accepted the invalid ciphertext (%zu bytes out)", out[0].n);
    } else if (!bytes_equal(out[0].p, out[0].n, msg.p, msg.n)) {
        case_fail(c, "decrypt gave %zu bytes %s, expected %zu bytes %s", out[0].n,
                  hexstr(out[0].p, out[0].n), msg.n, hexstr(msg.p, msg.n));
    } else {
        case_accepted(c);
    }
out:
    webcrypto_key_free(keys[0]);
    webcrypto_key_free(keys[1]);
    buf_free(&msg); buf_free(&ct); buf_free(&label); buf_free(&der);
    buf_free(&out[0]); buf_free(&out[1]);
}

/* ------------------------------------------------------------------------ */
/* Ed25519 and Ed448 (eddsa_verify_schema_v1; the handler's algorithm says   */
/* which, and its curve: edwards25519, edwards448)                            */
/* ------------------------------------------------------------------------ */

static void run_eddsa(wp_case *c, const json_t *group, const json_t *test) {
    wp_buf msg = {0}, sig = {0}, pk = {0};
    webcrypto_key *keys[2] = {NULL, NULL};
    const json_t *key = json_object_get(group, "publicKey");
    const char *curve = str_member(key, "curve");
    bool ed448 = c->h->alg == WEBCRYPTO_ALG_ED448;
    if (!curve || strcmp(curve, ed448 ? "edwards448" : "edwards25519") != 0) {
        case_skip(c, ed448 ? "curve not edwards448" : "curve not edwards25519");
        goto out;
    }
    if (!hex_field(c, test, "msg", &msg) || !hex_field(c, test, "sig", &sig) ||
        !hex_field(c, key, "pk", &pk))
        goto out;
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = c->h->alg;
    size_t n_keys = wp_import_group_keys(c, "raw", WEBCRYPTO_FORMAT_RAW, pk.p, pk.n,
                                         json_object_get(group, "publicKeyJwk"), &kp,
                                         WEBCRYPTO_USAGE_VERIFY, keys);
    if (!n_keys) goto out;
    static const char *const what[] = {"raw", "jwk"};
    judge_verify(c, &kp, keys, what, n_keys, &msg, &sig);
out:
    webcrypto_key_free(keys[0]);
    webcrypto_key_free(keys[1]);
    buf_free(&msg); buf_free(&sig); buf_free(&pk);
}

/* ------------------------------------------------------------------------ */
/* X25519 and X448 (xdh_comp_schema_v1; curve25519, curve448)              */
/* ------------------------------------------------------------------------ */

/* RFC 8410 PrivateKeyInfo headers for a 32-byte X25519 and a 56-byte X448
 * private key. */
static const uint8_t X25519_PKCS8_PREFIX[16] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                                0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20};
static const uint8_t X448_PKCS8_PREFIX[16] = {0x30, 0x46, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                              0x03, 0x2b, 0x65, 0x6f, 0x04, 0x3a, 0x04, 0x38};

static bool all_zero(const uint8_t *p, size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

/* WebCrypto's X25519 accepts any 32-byte public key (twist points and
 * non-canonical encodings included: RFC 7748 defines the function for all of
 * them) and refuses only an all-zero result, with OperationError. So
 * Wycheproof's "acceptable" cases have one right answer here: the secret, or
 * OperationError when the secret is zero. */
static void run_xdh(wp_case *c, const json_t *group, const json_t *test) {
    wp_buf pub = {0}, priv = {0}, shared = {0};
    webcrypto_key *kpriv = NULL, *kpub = NULL;
    char err[512];
    webcrypto_status st;
    bool x448 = c->h->alg == WEBCRYPTO_ALG_X448;
    const size_t klen = x448 ? 56 : 32;
    const char *curve = str_member(group, "curve");
    if (!curve || strcmp(curve, x448 ? "curve448" : "curve25519") != 0) {
        case_skip(c, x448 ? "curve not curve448" : "curve not curve25519");
        goto out;
    }
    if (!hex_field(c, test, "public", &pub) || !hex_field(c, test, "private", &priv) ||
        !hex_field(c, test, "shared", &shared))
        goto out;
    if (priv.n != klen) {
        case_skip(c, "private key not of the curve's length (no such key)");
        goto out;
    }
    webcrypto_params kp = WEBCRYPTO_PARAMS_INIT;
    kp.name = c->h->alg;
    uint8_t p8[16 + 56];
    memcpy(p8, x448 ? X448_PKCS8_PREFIX : X25519_PKCS8_PREFIX, 16);
    memcpy(p8 + 16, priv.p, klen);
    kpriv = wp_import(c, WEBCRYPTO_FORMAT_PKCS8, p8, 16 + klen, &kp, WEBCRYPTO_USAGE_DERIVE_BITS,
                      &st, err, sizeof err);
    if (!kpriv) {
        case_fail(c, "the private key did not import as pkcs8: %s", err);
        goto out;
    }
    kpub = wp_import(c, WEBCRYPTO_FORMAT_RAW, pub.p, pub.n, &kp, 0, &st, err, sizeof err);
    if (pub.n != klen) {
        if (kpub) {
            case_fail(c, "importKey accepted a %zu-byte public key", pub.n);
        } else if (st != WEBCRYPTO_ERR_DATA) {
            case_fail(c, "%zu-byte public key: %s (WebCrypto: DataError)", pub.n, err);
        } else if (c->result == WP_INVALID) {
            case_rejected(c, err);
        } else {
            case_skip(c, "public key not of the curve's length (WebCrypto: DataError)");
        }
        goto out;
    }
    if (!kpub) {
        case_fail(c, "a public key of the curve's length was refused: %s (WebCrypto imports "
                     "any)", err);
        goto out;
    }
    uint8_t out[56];
    memset(out, (int)WP_FILL, sizeof out);
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = c->h->alg;
    p.public_key = kpub;
    size_t dlen = 0;
    st = webcrypto_derive_bits(&p, kpriv, WEBCRYPTO_LENGTH_FULL, out, klen, &dlen);
    if (st != WEBCRYPTO_OK) describe(err, sizeof err, "deriveBits", st);
    bool zero = shared.n == klen && all_zero(shared.p, shared.n);
    if (zero) {
        if (st == WEBCRYPTO_OK) {
            case_fail(c, "deriveBits gave %s for an all-zero secret (WebCrypto: OperationError)",
                      hexstr(out, klen));
        } else if (st != WEBCRYPTO_ERR_OPERATION) {
            case_fail(c, "%s (WebCrypto: OperationError for an all-zero secret)", err);
        } else if (c->result == WP_VALID) {
            case_skip(c, "all-zero shared secret (WebCrypto: OperationError)");
        } else {
            case_rejected(c, err);
        }
    } else if (st != WEBCRYPTO_OK) {
        if (c->result == WP_INVALID)
            case_rejected(c, err);
        else
            case_fail(c, "%s (WebCrypto defines this secret; only an all-zero one is refused)",
                      err);
    } else if (!bytes_equal(out, klen, shared.p, shared.n)) {
        case_fail(c, "deriveBits gave %s, expected %s", hexstr(out, klen),
                  hexstr(shared.p, shared.n));
    } else {
        case_accepted(c);
    }
out:
    webcrypto_key_free(kpriv);
    webcrypto_key_free(kpub);
    buf_free(&pub); buf_free(&priv); buf_free(&shared);
}

/* ------------------------------------------------------------------------ */
/* The table                                                                */
/* ------------------------------------------------------------------------ */

static const wp_handler handlers[] = {
    {"aes_gcm_test.json", "aead_test_schema_v1.json", "AeadTest", WEBCRYPTO_ALG_AES_GCM,
     WEBCRYPTO_ALG_NONE, run_aes_gcm},
    {"aes_gcm_siv_test.json", "aead_test_schema_v1.json", "AeadTest", WEBCRYPTO_ALG_AES_GCM_SIV,
     WEBCRYPTO_ALG_NONE, run_aes_gcm_siv},
    {"chacha20_poly1305_test.json", "aead_test_schema_v1.json", "AeadTest",
     WEBCRYPTO_ALG_CHACHA20_POLY1305, WEBCRYPTO_ALG_NONE, run_chacha20_poly1305},
    {"aes_cbc_pkcs5_test.json", "ind_cpa_test_schema_v1.json", "IndCpaTest",
     WEBCRYPTO_ALG_AES_CBC, WEBCRYPTO_ALG_NONE, run_aes_cbc},
    {"aes_wrap_test.json", "keywrap_test_schema_v1.json", "KeywrapTest", WEBCRYPTO_ALG_AES_KW,
     WEBCRYPTO_ALG_NONE, run_aes_kw},
    {"hmac_sha1_test.json", "mac_test_schema_v1.json", "MacTest", WEBCRYPTO_ALG_HMAC,
     WEBCRYPTO_ALG_SHA_1, run_hmac},
    {"hmac_sha256_test.json", "mac_test_schema_v1.json", "MacTest", WEBCRYPTO_ALG_HMAC,
     WEBCRYPTO_ALG_SHA_256, run_hmac},
    {"hmac_sha384_test.json", "mac_test_schema_v1.json", "MacTest", WEBCRYPTO_ALG_HMAC,
     WEBCRYPTO_ALG_SHA_384, run_hmac},
    {"hmac_sha512_test.json", "mac_test_schema_v1.json", "MacTest", WEBCRYPTO_ALG_HMAC,
     WEBCRYPTO_ALG_SHA_512, run_hmac},
    {"hkdf_sha1_test.json", "hkdf_test_schema_v1.json", "HkdfTest", WEBCRYPTO_ALG_HKDF,
     WEBCRYPTO_ALG_SHA_1, run_hkdf},
    {"hkdf_sha256_test.json", "hkdf_test_schema_v1.json", "HkdfTest", WEBCRYPTO_ALG_HKDF,
     WEBCRYPTO_ALG_SHA_256, run_hkdf},
    {"hkdf_sha384_test.json", "hkdf_test_schema_v1.json", "HkdfTest", WEBCRYPTO_ALG_HKDF,
     WEBCRYPTO_ALG_SHA_384, run_hkdf},
    {"hkdf_sha512_test.json", "hkdf_test_schema_v1.json", "HkdfTest", WEBCRYPTO_ALG_HKDF,
     WEBCRYPTO_ALG_SHA_512, run_hkdf},
    {"pbkdf2_hmacsha1_test.json", "pbkdf_test_schema.json", "PbkdfTest", WEBCRYPTO_ALG_PBKDF2,
     WEBCRYPTO_ALG_SHA_1, run_pbkdf2},
    {"pbkdf2_hmacsha256_test.json", "pbkdf_test_schema.json", "PbkdfTest",
     WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_SHA_256, run_pbkdf2},
    {"pbkdf2_hmacsha384_test.json", "pbkdf_test_schema.json", "PbkdfTest",
     WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_SHA_384, run_pbkdf2},
    {"pbkdf2_hmacsha512_test.json", "pbkdf_test_schema.json", "PbkdfTest",
     WEBCRYPTO_ALG_PBKDF2, WEBCRYPTO_ALG_SHA_512, run_pbkdf2},
    {"ecdsa_secp256r1_sha256_p1363_test.json", "ecdsa_p1363_verify_schema_v1.json",
     "EcdsaP1363Verify", WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_NONE, run_ecdsa_p1363},
    {"ecdh_secp256r1_webcrypto_test.json", "ecdh_webcrypto_test_schema_v1.json",
     "EcdhWebcryptoTest", WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_NONE, run_ecdh_webcrypto},
    {"rsa_pss_2048_sha256_mgf1_32_test.json", "rsassa_pss_verify_schema_v1.json",
     "RsassaPssVerify", WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_NONE, run_rsa_pss},
    {"rsa_oaep_2048_sha256_mgf1sha256_test.json", "rsaes_oaep_decrypt_schema_v1.json",
     "RsaesOaepDecrypt", WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_NONE, run_rsa_oaep},
    {"rsa_oaep_2048_sha1_mgf1sha1_test.json", "rsaes_oaep_decrypt_schema_v1.json",
     "RsaesOaepDecrypt", WEBCRYPTO_ALG_RSA_OAEP, WEBCRYPTO_ALG_NONE, run_rsa_oaep},
    {"rsa_signature_2048_sha256_test.json", "rsassa_pkcs1_verify_schema_v1.json",
     "RsassaPkcs1Verify", WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_NONE, run_rsa_pkcs1},
    {"ed25519_test.json", "eddsa_verify_schema_v1.json", "EddsaVerify", WEBCRYPTO_ALG_ED25519,
     WEBCRYPTO_ALG_NONE, run_eddsa},
    {"x25519_test.json", "xdh_comp_schema_v1.json", "XdhComp", WEBCRYPTO_ALG_X25519,
     WEBCRYPTO_ALG_NONE, run_xdh},
    {"ed448_test.json", "eddsa_verify_schema_v1.json", "EddsaVerify", WEBCRYPTO_ALG_ED448,
     WEBCRYPTO_ALG_NONE, run_eddsa},
    {"x448_test.json", "xdh_comp_schema_v1.json", "XdhComp", WEBCRYPTO_ALG_X448,
     WEBCRYPTO_ALG_NONE, run_xdh},
    /* SHA-3 and KMAC ("Modern Algorithms in the Web Cryptography API") */
    {"hmac_sha3_256_test.json", "mac_test_schema_v1.json", "MacTest", WEBCRYPTO_ALG_HMAC,
     WEBCRYPTO_ALG_SHA3_256, run_hmac},
    {"kmac128_no_customization_test.json", "mac_test_schema_v1.json", "MacTest",
     WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_ALG_NONE, run_kmac},
    {"kmac256_no_customization_test.json", "mac_test_schema_v1.json", "MacTest",
     WEBCRYPTO_ALG_KMAC256, WEBCRYPTO_ALG_NONE, run_kmac},
};

#define N_HANDLERS (sizeof handlers / sizeof handlers[0])

/* ------------------------------------------------------------------------ */
/* Running a file                                                           */
/* ------------------------------------------------------------------------ */

static const char *g_dir;
static wp_stats g_stats[N_HANDLERS];
static bool g_missing[N_HANDLERS];
static bool g_ran[N_HANDLERS];

static void print_reasons(const wp_reason *r, size_t n) {
    printf("[");
    for (size_t i = 0; i < n; i++) printf("%s%s: %u", i ? "; " : "", r[i].text, r[i].count);
    printf("]");
}

static void print_counts(const wp_stats *st) {
    printf("%u valid accepted, %u invalid rejected, %u acceptable (%u accepted, %u rejected), "
           "%u skipped ",
           st->valid_accepted, st->invalid_rejected,
           st->acceptable_accepted + st->acceptable_rejected, st->acceptable_accepted,
           st->acceptable_rejected, st->skipped);
    print_reasons(st->reasons, st->n_reasons);
    if (st->not_applicable) {
        printf(", %u not applicable: ", st->not_applicable);
        print_reasons(st->na_reasons, st->n_na_reasons);
    }
    if (st->known) printf(", %u KNOWN PROVIDER DEFECTS", st->known);
    printf(", %u FAILED", st->failed);
}

/* A problem with the file as a whole (unreadable, unexpected shape). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void file_fail(const wp_handler *h, wp_stats *st, const char *fmt, ...) {
    st->failed++;
    printf("  FAILED %s: ", h->file);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static void run_file(const wp_handler *h, wp_stats *st, const webcrypto_backend *backend) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, h->file);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root) {
        file_fail(h, st, "cannot read %s: %s (line %d)", path, jerr.text, jerr.line);
        return;
    }
    const char *schema = json_string_value(json_object_get(root, "schema"));
    const json_t *groups = json_object_get(root, "testGroups");
    const json_t *declared = json_object_get(root, "numberOfTests");
    if (!schema || strcmp(schema, h->schema) != 0) {
        file_fail(h, st, "schema is %s, the handler expects %s", schema ? schema : "(none)",
                  h->schema);
        goto out;
    }
    if (!json_is_array(groups)) {
        file_fail(h, st, "no testGroups array");
        goto out;
    }
    /* the hash with the algorithm: SHA-3 may be a digest of the backend
     * that its HMAC cannot take */
    bool supported = webcrypto_backend_supports(backend, h->alg) &&
                     (h->hash == WEBCRYPTO_ALG_NONE ||
                      webcrypto_backend_supports_hash(backend, h->alg, h->hash));

    size_t gi, ti, n_cases = 0;
    const json_t *group, *test;
    json_array_foreach(groups, gi, group) {
        const char *type = json_string_value(json_object_get(group, "type"));
        const json_t *tests = json_object_get(group, "tests");
        if (!type || strcmp(type, h->group_type) != 0 || !json_is_array(tests)) {
            file_fail(h, st, "group %zu: type %s (expected %s) or no tests array", gi,
                      type ? type : "(none)", h->group_type);
            continue;
        }
        json_array_foreach(tests, ti, test) {
            n_cases++;
            wp_case c = {0};
            c.h = h;
            c.backend = backend;
            c.st = st;
            c.tc_id = json_integer_value(json_object_get(test, "tcId"));
            c.comment = json_string_value(json_object_get(test, "comment"));
            if (!c.comment) c.comment = "";
            c.flags = json_object_get(test, "flags");
            const char *res = json_string_value(json_object_get(test, "result"));
            if (res && strcmp(res, "valid") == 0) {
                c.result = WP_VALID;
            } else if (res && strcmp(res, "invalid") == 0) {
                c.result = WP_INVALID;
            } else if (res && strcmp(res, "acceptable") == 0) {
                c.result = WP_ACCEPTABLE;
            } else {
                case_fail(&c, "unknown result \"%s\"", res ? res : "(none)");
                continue;
            }
            if (!supported) {
                case_skip(&c, "algorithm not supported by this backend");
                continue;
            }
            h->run(&c, group, test);
            if (!c.done) case_fail(&c, "handler reached no verdict (bug in the runner)");
        }
    }
    /* A listed defect the provider no longer has: the list must say so. */
    for (size_t i = 0; supported && i < N_KNOWN; i++) {
        const wp_known *k = &known_defects[i];
        if (known_applies(k, backend, h->file) && !k->hit)
            file_fail(h, st, "tcId %lld is listed as a known provider defect (%s on Java %d: %s) "
                      "but passed: remove it from known_defects and docs/JCA.md",
                      k->tc_id, k->backend, k->java, k->reason);
    }
    /* Catches a truncated file or groups the runner did not walk. */
    if (json_is_integer(declared) && (json_int_t)n_cases != json_integer_value(declared)) {
        file_fail(h, st, "file declares %lld tests, %zu were found",
                  (long long)json_integer_value(declared), n_cases);
    }
out:
    json_decref(root);
}

static int file_exists(const char *file) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, file);
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fclose(f);
    return 1;
}

static void test_file(void **state) {
    const wp_handler *h = *state;
    size_t idx = (size_t)(h - handlers);
    wp_stats *st = &g_stats[idx];
    const webcrypto_backend *backend = tu_backend();
    g_ran[idx] = true;
    if (!file_exists(h->file)) {
        g_missing[idx] = true;
        printf("%s: MISSING from %s (the directory is incomplete)\n", h->file, g_dir);
        fail_msg("%s is missing", h->file);
    }
    run_file(h, st, backend);
    printf("%s: ", h->file);
    print_counts(st);
    printf("\n");
    if (st->failed) fail_msg("%s: %u FAILED", h->file, st->failed);
}

/* Vector files another test runs (its own runner, not this file's
 * handlers): named with where they run, not as uncovered. */
static const struct {
    const char *file, *where;
} elsewhere[] = {
    {"mlkem_768_test.json", "test_pq (test_kem_wycheproof, tests/test_pq.c)"},
    {"mldsa_65_verify_test.json", "test_pq (test_dsa_wycheproof, tests/test_pq.c)"},
};

/* Vector files in the directory that no handler covers yet: worth knowing,
 * not a failure. */
static void list_uncovered(void) {
    DIR *d = opendir(g_dir);
    if (!d) return;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 10 || strcmp(e->d_name + len - 10, "_test.json") != 0) continue;
        bool handled = false;
        for (size_t j = 0; j < N_HANDLERS; j++) {
            if (strcmp(handlers[j].file, e->d_name) == 0) handled = true;
        }
        if (handled) continue;
        const char *where = NULL;
        for (size_t j = 0; j < sizeof elsewhere / sizeof *elsewhere; j++)
            if (strcmp(elsewhere[j].file, e->d_name) == 0) where = elsewhere[j].where;
        if (where)
            printf("covered by %s, not by a handler here: %s\n", where, e->d_name);
        else
            printf("not covered yet (no handler): %s\n", e->d_name);
    }
    closedir(d);
}

int main(void) {
    g_dir = tu_wycheproof_dir();
    if (!g_dir) {
        const char *env = getenv("WEBCRYPTO_WYCHEPROOF_DIR");
        if (env && *env) {
            printf("SKIP: WEBCRYPTO_WYCHEPROOF_DIR=%s is not a directory.\n", env);
        } else {
            printf("SKIP: no Wycheproof vector directory (looked for ../shared/wycheproof beside "
                   "the source tree). Set WEBCRYPTO_WYCHEPROOF_DIR to a Wycheproof checkout's "
                   "testvectors_v1/ folder to run these tests.\n");
        }
        /* CI has the vectors beside the clone: there a missing directory
         * is a broken run, not a skip. */
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) {
            printf("FAIL: CI=true and no Wycheproof vectors\n");
            return 1;
        }
        return 77;
    }
    const char *bname = getenv("WEBCRYPTO_TEST_BACKEND");
    printf("Wycheproof vectors: %s; backend: %s\n", g_dir, bname && *bname ? bname : "(default)");
    /* Which JVM (for jca): the known defects depend on it. Failing to get
     * the backend fails (and is reported by) the first file's test. */
    const webcrypto_backend *backend = NULL;
    if (webcrypto_backend_get(bname && *bname ? bname : NULL, &backend) == WEBCRYPTO_OK)
        g_java = tu_java_major(backend);

    struct CMUnitTest tests[N_HANDLERS];
    for (size_t i = 0; i < N_HANDLERS; i++) {
        tests[i] = (struct CMUnitTest){handlers[i].file, test_file, NULL, NULL,
                                       (void *)&handlers[i]};
    }
    int cm_failed = cmocka_run_group_tests_name("wycheproof", tests, NULL, NULL);

    wp_stats total = {0};
    unsigned missing = 0, not_run = 0;
    for (size_t i = 0; i < N_HANDLERS; i++) {
        const wp_stats *st = &g_stats[i];
        total.valid_accepted += st->valid_accepted;
        total.invalid_rejected += st->invalid_rejected;
        total.acceptable_accepted += st->acceptable_accepted;
        total.acceptable_rejected += st->acceptable_rejected;
        total.skipped += st->skipped;
        total.failed += st->failed;
        total.known += st->known;
        for (size_t r = 0; r < st->n_reasons; r++) {
            add_reason(total.reasons, &total.n_reasons, st->reasons[r].text, st->reasons[r].count);
        }
        total.not_applicable += st->not_applicable;
        for (size_t r = 0; r < st->n_na_reasons; r++)
            add_reason(total.na_reasons, &total.n_na_reasons, st->na_reasons[r].text,
                       st->na_reasons[r].count);
        if (g_missing[i]) missing++;
        if (!g_ran[i]) not_run++;
    }
    list_uncovered();
    printf("TOTAL: %zu files (%u missing), ", N_HANDLERS, missing);
    print_counts(&total);
    printf("\n");
    if (total.known) {
        printf("KNOWN PROVIDER DEFECTS (%s on Java %d, not passes): %u:",
               backend ? webcrypto_backend_name(backend) : "?", g_java, total.known);
        for (size_t i = 0; i < N_KNOWN; i++)
            if (known_defects[i].hit)
                printf(" %s tcId %lld;", known_defects[i].file, known_defects[i].tc_id);
        printf("\n");
    }
    bool ok = cm_failed == 0 && total.failed == 0 && missing == 0 && not_run == 0;
    printf("wycheproof: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
