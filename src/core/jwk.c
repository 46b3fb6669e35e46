/*
 * JSON Web Keys (RFC 7517/7518) for secret keys, and strict base64url.
 * The only place the library reads or writes JWK; JSON itself is jansson's.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "ct.h"
#include "der.h"

/* ---- keeping key text out of freed memory ----
 * jansson's allocator is process-wide and belongs to the host: we never set
 * it (so every jansson block goes through whatever the host installed).
 * What we can do from here: wipe every string node of a tree before
 * json_decref (the parsed JWK's, and the exported JWK's, whose secret
 * members are our base64url copies), create nodes so that a failing
 * json_object_set cannot free one unwiped, and have json_dumpb write straight
 * into our buffer. What stays out of reach is in webcrypto.h, at
 * webcrypto_import_key. */

/* ---- base64url ---- */

size_t wc_base64url_encoded_len(size_t len) { return len / 3 * 4 + (len % 3 ? len % 3 + 1 : 0); }

/* The base64url character of a 6-bit value, computed without a table
 * lookup or a branch on the value (it is key material). */
static char b64url_char(unsigned v) {
    int x = (int)v;
    int c = x + 'A';                                       /* 0..25 */
    c += ((25 - x) >> 8) & ('a' - 'A' - 26);               /* 26..51 */
    c += ((51 - x) >> 8) & ('0' - 'a' - 26);               /* 52..61 */
    c += ((61 - x) >> 8) & ('-' - '0' - 10);               /* 62 */
    c += ((62 - x) >> 8) & ('_' - '-' - 1);                /* 63 */
    return (char)c;
}

void wc_base64url_encode(const uint8_t *in, size_t len, char *out) {
    size_t o = 0, i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64url_char(v >> 18);
        out[o++] = b64url_char(v >> 12 & 63);
        out[o++] = b64url_char(v >> 6 & 63);
        out[o++] = b64url_char(v & 63);
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = b64url_char(v >> 18);
        out[o++] = b64url_char(v >> 12 & 63);
    } else if (len - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = b64url_char(v >> 18);
        out[o++] = b64url_char(v >> 12 & 63);
        out[o++] = b64url_char(v >> 6 & 63);
    }
    out[o] = 0;
}

/* Branch-free in the character value, so key bytes do not steer branches. */
static int b64url_value(int c) {
    int v = -1;
    v += (int)(((('A' - 1) - c) & (c - ('Z' + 1))) >> 8 & (c - 'A' + 1));
    v += (int)(((('a' - 1) - c) & (c - ('z' + 1))) >> 8 & (c - 'a' + 27));
    v += (int)(((('0' - 1) - c) & (c - ('9' + 1))) >> 8 & (c - '0' + 53));
    v += (int)((((c ^ '-') - 1) >> 8) & 63);
    v += (int)((((c ^ '_') - 1) >> 8) & 64);
    return v;
}

bool wc_base64url_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len) {
    if (in_len % 4 == 1) return false;
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t o = 0;
    int bad = 0;
    for (size_t i = 0; i < in_len; i++) {
        int v = b64url_value((unsigned char)in[i]);
        bad |= v >> 8; /* -1 has every bit set */
        acc = acc << 6 | ((unsigned)v & 63);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    /* Spare bits must be zero: one encoding per byte string. */
    bad |= (int)(acc & ((1u << bits) - 1));
    acc = 0;
    /* Whether the text is base64url is public (the import fails or not);
     * which byte made it fail is not told. */
    if (wc_ct_public_bool(bad != 0)) {
        wc_wipe(out, o);
        return false;
    }
    *out_len = o;
    return true;
}

/* ---- JWK ---- */
const char *wc_jwk_alg_name(webcrypto_algorithm alg, webcrypto_algorithm hash, size_t key_len) {
    const wc_alg_info *a = wc_alg(alg);
    if (!a) return NULL;
    for (size_t i = 0; i < WC_KEY_LENS; i++)
        if (a->key_lens[i] && a->key_lens[i] == key_len) return a->jwk_alg_by_len[i];
    wc_hash h = wc_hash_of(hash);
    /* Per hash (HMAC: NULL for SHA-3, which has none), else the row's one
     * (KMAC). */
    return h != WC_HASH_COUNT ? a->jwk_alg_by_hash[h] : a->jwk_alg;
}

/* A JSON syntax error. jansson's text quotes the token it stopped at, which
 * may be the start of "k" or "d": only the position is reported, and the
 * error record is wiped. */
static webcrypto_status json_failure(json_error_t *jerr) {
    webcrypto_status st = wc_error(WEBCRYPTO_ERR_DATA,
                                   "JWK is not valid JSON (line %d, column %d)", jerr->line,
                                   jerr->column);
    wc_wipe(jerr, sizeof *jerr);
    return st;
}

/* The embedder's limit on the JWK text (webcrypto_set_limits), before
 * jansson parses any of it. */
static webcrypto_status check_jwk_size(size_t json_len) {
    uint32_t max = wc_limit_jwk_bytes();
    if (json_len > max)
        return wc_error(WEBCRYPTO_ERR_DATA,
                        "JWK is %zu bytes, over this process's limit of %u "
                        "(webcrypto_set_limits, max_jwk_bytes)",
                        json_len, (unsigned)max);
    return WEBCRYPTO_OK;
}

/* An optional member: absent is fine, present must have the JSON type. */
static webcrypto_status member(json_t *jwk, const char *name, json_type type, json_t **out) {
    *out = json_object_get(jwk, name);
    if (*out && json_typeof(*out) != type)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"%s\" has the wrong JSON type", name);
    return WEBCRYPTO_OK;
}

/* A key_ops value as jansson holds it: the string and its length (compared
 * as bytes; jansson refuses \u0000 without JSON_ALLOW_NUL, but nothing here
 * depends on it). */
typedef struct key_op {
    const char *s;
    size_t n;
} key_op;

/* The usage a key_ops value names exactly, or 0 (no error is set: other
 * values are allowed). */
static unsigned usage_of(key_op v) {
    for (unsigned u = 1; u <= WEBCRYPTO_USAGE_DECAPSULATE_BITS; u <<= 1) {
        const char *name = webcrypto_usage_name(u);
        if (name && strlen(name) == v.n && memcmp(name, v.s, v.n) == 0) return u;
    }
    return 0;
}

/* By length, then bytes: a total order in which equal values are adjacent. */
static int key_op_cmp(const key_op *a, const key_op *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    return memcmp(a->s, b->s, a->n);
}

/* Sorts a[0..n) with tmp[0..n) as scratch, bottom-up merge sort: n log n
 * comparisons whatever the input (qsort's worst case is the C library's).
 * Returns the array that holds the result (a or tmp). n is at most the
 * entries of an allocated array, so lo + 2 * w cannot wrap. */
static key_op *key_op_sort(key_op *a, key_op *tmp, size_t n) {
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0, hi; lo < n; lo = hi) {
            size_t mid = w < n - lo ? lo + w : n;
            hi = w < n - mid ? mid + w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = key_op_cmp(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        key_op *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

/* key_ops: strings, none twice (RFC 7517 4.3); values that are not WebCrypto
 * usages are allowed by the RFC ("other values MAY be used") and ignored.
 * At most the embedder's limit of entries (webcrypto_set_limits). Linear
 * in the entries for the usages (a bit each), n log n for the other values
 * (sorted, so that equal ones are adjacent): a long list of other values
 * cannot make the check quadratic. */
static webcrypto_status check_key_ops(json_t *ops, unsigned usages) {
    size_t count = json_array_size(ops);
    uint32_t max = wc_limit_jwk_key_ops();
    if (count > max)
        return wc_error(WEBCRYPTO_ERR_DATA,
                        "JWK key_ops has %zu entries, over this process's limit of %u "
                        "(webcrypto_set_limits, max_jwk_key_ops)",
                        count, (unsigned)max);
    unsigned seen = 0;
    size_t others = 0, i;
    json_t *v;
    json_array_foreach(ops, i, v) {
        if (!json_is_string(v))
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops[%zu] is not a string", i);
        key_op op = {json_string_value(v), json_string_length(v)};
        unsigned u = usage_of(op);
        if (u & seen) return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops lists \"%s\" twice", op.s);
        seen |= u;
        if (!u) others++;
    }
    if (others > 1) {
        key_op *list = others <= SIZE_MAX / (2 * sizeof *list)
                           ? malloc(2 * others * sizeof *list)
                           : NULL;
        if (!list) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory checking JWK key_ops");
        size_t k = 0;
        json_array_foreach(ops, i, v) {
            key_op op = {json_string_value(v), json_string_length(v)};
            if (!usage_of(op)) list[k++] = op;
        }
        const key_op *sorted = key_op_sort(list, list + others, others);
        for (k = 1; k < others; k++)
            if (key_op_cmp(&sorted[k - 1], &sorted[k]) == 0) break;
        const char *twice = k < others ? sorted[k].s : NULL;
        free(list); /* pointers into the tree, not copies */
        if (twice) return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops lists \"%s\" twice", twice);
    }
    if (usages & ~seen) {
        char list[128];
        wc_usages_to_string(usages & ~seen, list, sizeof list);
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops does not allow the usages: %s", list);
    }
    return WEBCRYPTO_OK;
}

/* The members every JWK import checks the same way: `use` (when usages are
 * requested), `key_ops` covering the usages, and `ext` not false for an
 * extractable key. */
static webcrypto_status check_use_ops_ext(json_t *use, json_t *ops, json_t *ext,
                                          const char *want_use, bool extractable,
                                          unsigned usages) {
    webcrypto_status st;
    if (usages && use && strcmp(json_string_value(use), want_use) != 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK use \"%s\" is not \"%s\"", json_string_value(use),
                        want_use);
    if (ops && (st = check_key_ops(ops, usages)) != WEBCRYPTO_OK) return st;
    if (ext && json_is_false(ext) && extractable)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK has ext false but an extractable key was requested");
    return WEBCRYPTO_OK;
}

/* Wipes, in place, every string value in a tree before it is released:
 * secret members, and anything else a JWK may carry (an "oth" array, members
 * we do not read). Member names are not wiped. jansson's parser nests at most
 * JSON_PARSER_MAX_DEPTH (2048) deep, and our own trees two. */
static void wipe_json_tree(json_t *v) {
    size_t i;
    const char *name;
    json_t *e;
    switch (json_typeof(v)) {
    case JSON_STRING: wc_wipe((char *)json_string_value(v), json_string_length(v)); break;
    case JSON_ARRAY: json_array_foreach(v, i, e) wipe_json_tree(e); break;
    case JSON_OBJECT: json_object_foreach(v, name, e) wipe_json_tree(e); break;
    case JSON_INTEGER:
    case JSON_REAL:
    case JSON_TRUE:
    case JSON_FALSE:
    case JSON_NULL: break; /* no text */
    }
}

/* Wipes a tree's strings and releases it (NULL is fine). */
static void json_wipe_decref(json_t *v) {
    if (!v) return;
    wipe_json_tree(v);
    json_decref(v);
}

/* Sets member `name` to a string node holding s[0..n): json_object_set_new
 * would free the node unwiped if the set failed, so we keep our reference
 * and wipe the node on failure. */
static int set_string(json_t *obj, const char *name, const char *s, size_t n) {
    json_t *v = json_stringn(s, n);
    if (!v) return -1;
    int r = json_object_set(obj, name, v);
    if (r) wipe_json_tree(v);
    json_decref(v);
    return r;
}

static webcrypto_status build_failed(void) {
    return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: could not build the JWK");
}

/* The compact JSON text of jwk in a buffer of ours (json_dumpb writes into it
 * directly, with no copy of its own), NUL-terminated; the caller frees it
 * with webcrypto_buffer_free. */
static webcrypto_status dump_jwk(json_t *jwk, uint8_t **out, size_t *out_len) {
    const size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER;
    size_t n = json_dumpb(jwk, NULL, 0, flags);
    uint8_t *buf = n ? malloc(n + 1) : NULL;
    if (!buf || json_dumpb(jwk, (char *)buf, n, flags) != n) {
        webcrypto_buffer_free(buf, n + 1);
        return build_failed();
    }
    buf[n] = 0;
    *out = buf;
    *out_len = n;
    return WEBCRYPTO_OK;
}

static webcrypto_status jwk_check(json_t *jwk, webcrypto_algorithm alg, webcrypto_algorithm hash,
                                  bool extractable, unsigned usages, uint8_t **key,
                                  size_t *key_len) {
    json_t *kty, *k, *jalg, *use, *ops, *ext;
    webcrypto_status st;
    if (!json_is_object(jwk)) return wc_error(WEBCRYPTO_ERR_DATA, "a JWK must be a JSON object");
    if ((st = member(jwk, "kty", JSON_STRING, &kty)) != WEBCRYPTO_OK) return st;
    if (!kty) return wc_error(WEBCRYPTO_ERR_DATA, "JWK has no \"kty\"");
    const char *want_kty = wc_alg(alg)->jwk_kty; /* key.c: only algorithms with one */
    if (strcmp(json_string_value(kty), want_kty) != 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK kty is \"%s\", expected \"%s\"",
                        json_string_value(kty), want_kty);
    if ((st = member(jwk, "k", JSON_STRING, &k)) != WEBCRYPTO_OK) return st;
    if (!k) return wc_error(WEBCRYPTO_ERR_DATA, "JWK has no \"k\"");
    if ((st = member(jwk, "alg", JSON_STRING, &jalg)) != WEBCRYPTO_OK) return st;
    if ((st = member(jwk, "use", JSON_STRING, &use)) != WEBCRYPTO_OK) return st;
    if ((st = member(jwk, "key_ops", JSON_ARRAY, &ops)) != WEBCRYPTO_OK) return st;
    ext = json_object_get(jwk, "ext");
    if (ext && !json_is_boolean(ext))
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"ext\" has the wrong JSON type");

    size_t klen = json_string_length(k);
    uint8_t *bytes = malloc(klen / 4 * 3 + 3);
    size_t n = 0;
    if (!bytes) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory decoding a JWK");
    if (!wc_base64url_decode(json_string_value(k), klen, bytes, &n)) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "JWK \"k\" is not unpadded base64url");
        goto fail;
    }
    if (wc_has_key_lens(alg) && !wc_aes_key_len_ok(alg, n)) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "JWK key is %zu bytes, not a %s key size", n,
                      webcrypto_algorithm_name(alg));
        goto fail;
    }
    const char *want = wc_jwk_alg_name(alg, hash, n);
    if (jalg && (!want || strcmp(json_string_value(jalg), want) != 0)) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "JWK alg \"%s\" does not match %s (expected \"%s\")",
                      json_string_value(jalg), webcrypto_algorithm_name(alg),
                      want ? want : "none");
        goto fail;
    }
    st = check_use_ops_ext(use, ops, ext, wc_alg(alg)->jwk_use, extractable, usages);
    if (st != WEBCRYPTO_OK) goto fail;
    *key = bytes;
    *key_len = n;
    return WEBCRYPTO_OK;
fail:
    webcrypto_buffer_free(bytes, klen / 4 * 3 + 3);
    return st;
}

webcrypto_status wc_jwk_import_secret(const uint8_t *json, size_t json_len,
                                      webcrypto_algorithm alg, webcrypto_algorithm hash,
                                      bool extractable, unsigned usages, uint8_t **key,
                                      size_t *key_len) {
    webcrypto_status st = check_jwk_size(json_len);
    if (st != WEBCRYPTO_OK) return st;
    json_error_t jerr;
    json_t *jwk = json_loadb((const char *)json, json_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!jwk) return json_failure(&jerr);
    st = jwk_check(jwk, alg, hash, extractable, usages, key, key_len);
    json_wipe_decref(jwk);
    return st;
}

webcrypto_status wc_jwk_export_secret(const webcrypto_key *key, uint8_t **out,
                                      size_t *out_len) {
    size_t klen = wc_base64url_encoded_len(key->secret_len);
    char *k = malloc(klen + 1);
    if (!k) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: out of memory");
    wc_base64url_encode(key->secret, key->secret_len, k);

    json_t *ops = json_array();
    json_t *jwk = json_object();
    int bad = !ops || !jwk;
    for (unsigned u = 1; !bad && u <= WEBCRYPTO_USAGE_DECAPSULATE_BITS; u <<= 1)
        if (key->usages & u) bad |= json_array_append_new(ops, json_string(webcrypto_usage_name(u)));
    /* Members in lexicographic order, as browsers write them. */
    const char *alg = wc_jwk_alg_name(key->alg, key->hash, key->secret_len);
    if (!bad && alg) bad |= json_object_set_new(jwk, "alg", json_string(alg));
    if (!bad) bad |= json_object_set_new(jwk, "ext", json_true());
    if (!bad) bad |= set_string(jwk, "k", k, klen);
    if (!bad) bad |= json_object_set(jwk, "key_ops", ops);
    if (!bad) bad |= json_object_set_new(jwk, "kty", json_string(wc_alg(key->alg)->jwk_kty));
    webcrypto_buffer_free((uint8_t *)k, klen + 1);

    webcrypto_status st = bad ? build_failed() : dump_jwk(jwk, out, out_len);
    json_wipe_decref(jwk);
    json_decref(ops);
    return st;
}

/* ---- asymmetric JWKs (kty RSA, EC, OKP) ---- */

/* The JWK "alg" an asymmetric key carries, or NULL when none is defined
 * (ECDH, X25519): per hash (RSA), per curve (ECDSA) or one (Ed25519). */
static const char *pkey_alg_name(webcrypto_algorithm alg, webcrypto_algorithm hash,
                                 webcrypto_named_curve curve) {
    const wc_alg_info *a = wc_alg(alg);
    if (a->jwk_alg_by_curve) {
        const wc_curve_info *c = wc_curve(curve);
        return c ? c->jwk_ecdsa_alg : NULL;
    }
    wc_hash h = wc_hash_of(hash);
    if (h != WC_HASH_COUNT && a->jwk_alg_by_hash[h]) return a->jwk_alg_by_hash[h];
    return a->jwk_alg;
}

void wc_jwk_pkey_free(wc_jwk_pkey *k) {
    webcrypto_buffer_free(k->buf, k->buf_cap);
    k->buf = NULL;
}

/* Decodes the base64url member `name` (required or not) into k's buffer. */
static webcrypto_status pkey_member(json_t *jwk, const char *name, bool required, wc_jwk_pkey *k,
                                    wc_bytes *out) {
    json_t *v = json_object_get(jwk, name);
    if (!v) {
        if (required) return wc_error(WEBCRYPTO_ERR_DATA, "JWK has no \"%s\"", name);
        return WEBCRYPTO_OK;
    }
    if (!json_is_string(v))
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"%s\" has the wrong JSON type", name);
    size_t len = json_string_length(v), n = 0;
    if (k->buf_len + len / 4 * 3 + 3 > k->buf_cap)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"%s\" is too long", name);
    uint8_t *dst = k->buf + k->buf_len;
    if (!wc_base64url_decode(json_string_value(v), len, dst, &n))
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK \"%s\" is not unpadded base64url", name);
    if (n == 0) return wc_error(WEBCRYPTO_ERR_DATA, "JWK \"%s\" is empty", name);
    out->p = dst;
    out->n = n;
    k->buf_len += n;
    return WEBCRYPTO_OK;
}

static webcrypto_status expect_len(const char *name, wc_bytes b, size_t want) {
    if (b.p && b.n != want)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK \"%s\" is %zu bytes, expected %zu", name, b.n,
                        want);
    return WEBCRYPTO_OK;
}

/* "oth" (RFC 7518 6.3.2.7): the third and further primes, a non-empty
 * array of objects with the members r, d and t (others ignored, as in the
 * key itself). Every entry is read, so that a malformed one is DataError
 * whatever their number; more than WC_RSA_MAX_PRIMES primes in all is then
 * NotSupportedError. */
static webcrypto_status pkey_oth(json_t *oth, wc_jwk_pkey *k) {
    if (!json_is_array(oth))
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"oth\" has the wrong JSON type");
    size_t count = json_array_size(oth);
    if (count == 0) return wc_error(WEBCRYPTO_ERR_DATA, "JWK \"oth\" is empty");
    for (size_t i = 0; i < count; i++) {
        json_t *o = json_array_get(oth, i);
        if (!json_is_object(o))
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK \"oth\" entry %zu is not an object", i);
        wc_rsa_prime spare, *op = i < WC_RSA_MAX_PRIMES - 2 ? &k->f.oth[i] : &spare;
        webcrypto_status st;
        if ((st = pkey_member(o, "r", true, k, &op->r)) != WEBCRYPTO_OK ||
            (st = pkey_member(o, "d", true, k, &op->d)) != WEBCRYPTO_OK ||
            (st = pkey_member(o, "t", true, k, &op->t)) != WEBCRYPTO_OK)
            return st;
    }
    if (count > WC_RSA_MAX_PRIMES - 2)
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "JWK: RSA keys with more than %d primes are not supported",
                        WC_RSA_MAX_PRIMES);
    k->f.oth_count = count;
    return WEBCRYPTO_OK;
}

static webcrypto_status pkey_parse(json_t *jwk, const wc_pkey_request *req, wc_jwk_pkey *k) {
    json_t *kty, *jalg, *use, *ops, *ext, *crv;
    webcrypto_status st;
    webcrypto_algorithm alg = req->alg;
    if (!json_is_object(jwk)) return wc_error(WEBCRYPTO_ERR_DATA, "a JWK must be a JSON object");
    /* ML-KEM, ML-DSA ("AKP"): the private key is the seed, "priv". */
    bool priv = json_object_get(jwk, wc_is_seeded(alg) ? "priv" : "d") != NULL;
    k->f.is_private = priv;
    /* The spec checks the usages against the key's kind before the data. */
    unsigned allowed = priv ? req->private_usages : req->public_usages;
    if (req->usages & ~allowed)
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for a %s %s key",
                        priv ? "private" : "public", webcrypto_algorithm_name(alg));
    if ((st = member(jwk, "kty", JSON_STRING, &kty)) != WEBCRYPTO_OK) return st;
    if ((st = member(jwk, "alg", JSON_STRING, &jalg)) != WEBCRYPTO_OK) return st;
    if ((st = member(jwk, "use", JSON_STRING, &use)) != WEBCRYPTO_OK) return st;
    if ((st = member(jwk, "key_ops", JSON_ARRAY, &ops)) != WEBCRYPTO_OK) return st;
    if ((st = member(jwk, "crv", JSON_STRING, &crv)) != WEBCRYPTO_OK) return st;
    ext = json_object_get(jwk, "ext");
    if (ext && !json_is_boolean(ext))
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"ext\" has the wrong JSON type");
    const wc_alg_info *info = wc_alg(alg);
    if (!kty || strcmp(json_string_value(kty), info->jwk_kty) != 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK kty must be \"%s\" for %s", info->jwk_kty,
                        info->name);
    st = check_use_ops_ext(use, ops, ext, info->jwk_use, req->extractable, req->usages);
    if (st != WEBCRYPTO_OK) return st;

    /* Room for every member decoded: no more than the JSON text itself. */
    k->buf_cap = req->json_len + 16;
    k->buf = malloc(k->buf_cap);
    if (!k->buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory decoding a JWK");
    wc_pkey_fields *f = &k->f;
    switch (info->family) {
    case WC_FAMILY_RSA:
        if ((st = pkey_member(jwk, "n", true, k, &f->n)) != WEBCRYPTO_OK ||
            (st = pkey_member(jwk, "e", true, k, &f->e)) != WEBCRYPTO_OK)
            return st;
        if (priv) {
            /* RFC 7518 6.3.2: with any private member, all of them. */
            const char *names[] = {"d", "p", "q", "dp", "dq", "qi"};
            wc_bytes *dst[] = {&f->d, &f->p, &f->q, &f->dp, &f->dq, &f->qi};
            for (size_t i = 0; i < 6; i++)
                if ((st = pkey_member(jwk, names[i], true, k, dst[i])) != WEBCRYPTO_OK) return st;
            json_t *oth = json_object_get(jwk, "oth");
            if (oth && (st = pkey_oth(oth, k)) != WEBCRYPTO_OK) return st;
        } else {
            const char *names[] = {"p", "q", "dp", "dq", "qi", "oth"};
            for (size_t i = 0; i < 6; i++)
                if (json_object_get(jwk, names[i]))
                    return wc_error(WEBCRYPTO_ERR_DATA,
                                    "JWK has the private member \"%s\" but no \"d\"", names[i]);
        }
        break;
    case WC_FAMILY_EC: {
        webcrypto_named_curve curve;
        if (!crv || webcrypto_curve_from_name(json_string_value(crv), &curve) != WEBCRYPTO_OK ||
            curve != req->curve)
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK crv must be \"%s\"",
                            webcrypto_curve_name(req->curve));
        f->curve = curve;
        size_t fs = wc_curve_field_size(curve);
        if ((st = pkey_member(jwk, "x", true, k, &f->x)) != WEBCRYPTO_OK ||
            (st = pkey_member(jwk, "y", true, k, &f->y)) != WEBCRYPTO_OK ||
            (st = pkey_member(jwk, "d", priv, k, &f->d)) != WEBCRYPTO_OK ||
            (st = expect_len("x", f->x, fs)) != WEBCRYPTO_OK ||
            (st = expect_len("y", f->y, fs)) != WEBCRYPTO_OK ||
            (st = expect_len("d", f->d, fs)) != WEBCRYPTO_OK)
            return st;
        break;
    }
    case WC_FAMILY_OKP: {
        const char *want_crv = info->jwk_crv;
        if (!crv || strcmp(json_string_value(crv), want_crv) != 0)
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK crv must be \"%s\"", want_crv);
        if ((st = pkey_member(jwk, "x", true, k, &f->x)) != WEBCRYPTO_OK ||
            (st = pkey_member(jwk, "d", priv, k, &f->d)) != WEBCRYPTO_OK ||
            (st = expect_len("x", f->x, info->okp_key_len)) != WEBCRYPTO_OK ||
            (st = expect_len("d", f->d, info->okp_key_len)) != WEBCRYPTO_OK)
            return st;
        break;
    }
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        /* The draft: kty "AKP", alg the algorithm's name (required), pub the
         * public key (checked against the seed's by pkey.c), priv the seed. */
        if (!jalg || strcmp(json_string_value(jalg), info->jwk_alg) != 0)
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK alg must be \"%s\"", info->jwk_alg);
        if ((st = pkey_member(jwk, "pub", true, k, &f->x)) != WEBCRYPTO_OK ||
            (st = pkey_member(jwk, "priv", priv, k, &f->d)) != WEBCRYPTO_OK ||
            (st = expect_len("pub", f->x, info->pq_public_len)) != WEBCRYPTO_OK ||
            (st = expect_len("priv", f->d, info->pq_seed_len)) != WEBCRYPTO_OK)
            return st;
        break;
    WC_CASE_SECRET_FAMILIES:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "JWK: %s keys are not key pairs", info->name);
    }
    /* alg: must name this algorithm (and hash / curve) when present, or be
     * its alternative (Ed25519: RFC 8037's "EdDSA"). ECDH and X25519 define
     * none. */
    const char *want = pkey_alg_name(alg, req->hash, req->curve);
    /* RSA with a hash that has no JWK alg (SHA-3): any "alg" names another
     * key (the spec: no applicable specification defines it: DataError). */
    if (jalg && !want && !info->jwk_alg_by_curve && info->jwk_alg_by_hash[0])
        return wc_error(WEBCRYPTO_ERR_DATA,
                        "JWK alg \"%s\" does not match %s with %s (no JWK alg is defined for it)",
                        json_string_value(jalg), webcrypto_algorithm_name(alg),
                        webcrypto_algorithm_name(req->hash));
    if (jalg && want) {
        const char *a = json_string_value(jalg);
        bool ok = strcmp(a, want) == 0 || (info->jwk_alg_alt && strcmp(a, info->jwk_alg_alt) == 0);
        if (!ok)
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK alg \"%s\" does not match %s (expected \"%s\")",
                            a, webcrypto_algorithm_name(alg), want);
    }
    return WEBCRYPTO_OK;
}

webcrypto_status wc_jwk_import_pkey(const uint8_t *json, size_t json_len,
                                    const wc_pkey_request *req, wc_jwk_pkey *out) {
    json_error_t jerr;
    memset(out, 0, sizeof *out);
    webcrypto_status st = check_jwk_size(json_len);
    if (st != WEBCRYPTO_OK) return st;
    json_t *jwk = json_loadb((const char *)json, json_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!jwk) return json_failure(&jerr);
    wc_pkey_request r = *req;
    r.json_len = json_len;
    st = pkey_parse(jwk, &r, out);
    json_wipe_decref(jwk);
    if (st != WEBCRYPTO_OK) wc_jwk_pkey_free(out);
    return st;
}

/* Adds member `name` = base64url(b) when b is present. */
static int put_b64(json_t *jwk, const char *name, wc_bytes b) {
    if (!b.p) return 0;
    size_t n = wc_base64url_encoded_len(b.n);
    char *s = malloc(n + 1);
    if (!s) return -1;
    wc_base64url_encode(b.p, b.n, s);
    int r = set_string(jwk, name, s, n);
    webcrypto_buffer_free((uint8_t *)s, n + 1);
    return r;
}

/* Adds "oth" for a key with more than two primes: entries with their
 * members in lexicographic order (d, r, t). */
static int put_oth(json_t *jwk, const wc_pkey_fields *f) {
    if (f->oth_count == 0) return 0;
    json_t *oth = json_array();
    int bad = !oth;
    for (size_t i = 0; !bad && i < f->oth_count; i++) {
        json_t *o = json_object();
        bad = !o;
        if (!bad) bad |= put_b64(o, "d", f->oth[i].d);
        if (!bad) bad |= put_b64(o, "r", f->oth[i].r);
        if (!bad) bad |= put_b64(o, "t", f->oth[i].t);
        if (o && json_array_append(oth, o)) bad = 1;
        if (o && bad) wipe_json_tree(o);
        json_decref(o); /* the array holds it now, wiped with the array */
    }
    if (!oth) return -1;
    /* Our reference is kept, so that a failed set cannot free the entries
     * unwiped; once set, the caller's tree wipe reaches them. */
    int r = bad ? -1 : json_object_set(jwk, "oth", oth);
    if (r) wipe_json_tree(oth);
    json_decref(oth);
    return r;
}

webcrypto_status wc_jwk_export_pkey(const webcrypto_key *key, const wc_pkey_fields *f,
                                    uint8_t **out, size_t *out_len) {
    bool priv = key->type == WEBCRYPTO_KEY_PRIVATE;
    json_t *jwk = json_object();
    json_t *ops = json_array();
    int bad = !jwk || !ops;
    for (unsigned u = 1; !bad && u <= WEBCRYPTO_USAGE_DECAPSULATE_BITS; u <<= 1)
        if (key->usages & u) bad |= json_array_append_new(ops, json_string(webcrypto_usage_name(u)));
    /* ECDSA keys (alg per curve) export no "alg": the spec's ECDSA export
     * sets none (the hash is chosen per signature), though import checks one
     * that is present. */
    const wc_alg_info *info = wc_alg(key->alg);
    const char *alg =
        info->jwk_alg_by_curve ? NULL : pkey_alg_name(key->alg, key->hash, key->curve);
    /* Members in lexicographic order, as browsers write them. */
    if (!bad && alg) bad |= json_object_set_new(jwk, "alg", json_string(alg));
    switch (info->family) {
    case WC_FAMILY_RSA: {
        wc_bytes none = {0};
        if (!bad) bad |= put_b64(jwk, "d", priv ? f->d : none);
        if (!bad) bad |= put_b64(jwk, "dp", priv ? f->dp : none);
        if (!bad) bad |= put_b64(jwk, "dq", priv ? f->dq : none);
        if (!bad) bad |= put_b64(jwk, "e", f->e);
        if (!bad) bad |= json_object_set_new(jwk, "ext", json_boolean(key->extractable));
        if (!bad) bad |= json_object_set(jwk, "key_ops", ops);
        if (!bad) bad |= json_object_set_new(jwk, "kty", json_string("RSA"));
        if (!bad) bad |= put_b64(jwk, "n", f->n);
        if (!bad && priv) bad |= put_oth(jwk, f);
        if (!bad) bad |= put_b64(jwk, "p", priv ? f->p : none);
        if (!bad) bad |= put_b64(jwk, "q", priv ? f->q : none);
        if (!bad) bad |= put_b64(jwk, "qi", priv ? f->qi : none);
        break;
    }
    case WC_FAMILY_EC:
    case WC_FAMILY_OKP: {
        bool ec = info->family == WC_FAMILY_EC;
        const char *crv = ec ? webcrypto_curve_name(key->curve) : info->jwk_crv;
        if (!bad) bad |= json_object_set_new(jwk, "crv", json_string(crv));
        if (!bad && priv) bad |= put_b64(jwk, "d", f->d);
        if (!bad) bad |= json_object_set_new(jwk, "ext", json_boolean(key->extractable));
        if (!bad) bad |= json_object_set(jwk, "key_ops", ops);
        if (!bad) bad |= json_object_set_new(jwk, "kty", json_string(info->jwk_kty));
        if (!bad) bad |= put_b64(jwk, "x", f->x);
        if (!bad && ec) bad |= put_b64(jwk, "y", f->y);
        break;
    }
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: /* "alg" is written above */
        if (!bad) bad |= json_object_set_new(jwk, "ext", json_boolean(key->extractable));
        if (!bad) bad |= json_object_set(jwk, "key_ops", ops);
        if (!bad) bad |= json_object_set_new(jwk, "kty", json_string(info->jwk_kty));
        if (!bad && priv) bad |= put_b64(jwk, "priv", f->d);
        if (!bad) bad |= put_b64(jwk, "pub", f->x);
        break;
    WC_CASE_SECRET_FAMILIES: bad = 1; break; /* wc_pkey_export has asymmetric keys only */
    }
    webcrypto_status st = bad ? build_failed() : dump_jwk(jwk, out, out_len);
    json_wipe_decref(jwk);
    json_decref(ops);
    return st;
}
