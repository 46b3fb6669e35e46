/*
 * JSON Web Keys (RFC 7517/7518) for secret keys, and strict base64url.
 * The only place the library reads or writes JWK; JSON itself is jansson's.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core.h"

/* ---- jansson allocations are wiped on free ----
 * A JWK's "k" passes through jansson's parser buffers and string nodes. With
 * jansson's default allocator (malloc/free) we install wrappers that wipe each
 * block before freeing it; they call malloc/free, so objects the host program
 * allocated earlier stay compatible. A host that installed its own allocator
 * keeps it, and we wipe only the strings we can reach. */
#if defined(__GLIBC__)
static void wc_json_free(void *p) {
    if (p) wc_wipe(p, malloc_usable_size(p));
    free(p);
}
static void wc_json_alloc_setup(void) {
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    if (m == malloc && f == free) json_set_alloc_funcs(malloc, wc_json_free);
}
#else
static void wc_json_alloc_setup(void) {}
#endif
static pthread_once_t wc_json_once = PTHREAD_ONCE_INIT;

/* ---- base64url ---- */
static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t wc_base64url_encoded_len(size_t len) { return len / 3 * 4 + (len % 3 ? len % 3 + 1 : 0); }

void wc_base64url_encode(const uint8_t *in, size_t len, char *out) {
    size_t o = 0, i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64url[v >> 18];
        out[o++] = b64url[v >> 12 & 63];
        out[o++] = b64url[v >> 6 & 63];
        out[o++] = b64url[v & 63];
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = b64url[v >> 18];
        out[o++] = b64url[v >> 12 & 63];
    } else if (len - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = b64url[v >> 18];
        out[o++] = b64url[v >> 12 & 63];
        out[o++] = b64url[v >> 6 & 63];
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
    if (bad) {
        wc_wipe(out, o);
        return false;
    }
    *out_len = o;
    return true;
}

/* ---- JWK ---- */
const char *wc_jwk_alg_name(webcrypto_algorithm alg, webcrypto_algorithm hash, size_t key_len) {
    /* A*GCMSIV is this library's name: JOSE registers none for GCM-SIV. */
    static const char *const aes[5][3] = {
        {"A128CBC", "A192CBC", "A256CBC"},
        {"A128CTR", "A192CTR", "A256CTR"},
        {"A128GCM", "A192GCM", "A256GCM"},
        {"A128GCMSIV", NULL, "A256GCMSIV"},
        {"A128KW", "A192KW", "A256KW"},
    };
    if (wc_is_aes(alg)) {
        size_t row = alg == WEBCRYPTO_ALG_AES_CBC   ? 0
                     : alg == WEBCRYPTO_ALG_AES_CTR ? 1
                     : alg == WEBCRYPTO_ALG_AES_GCM ? 2
                     : alg == WEBCRYPTO_ALG_AES_GCM_SIV ? 3
                                                    : 4;
        if (key_len == 16) return aes[row][0];
        if (key_len == 24) return aes[row][1];
        if (key_len == 32) return aes[row][2];
        return NULL;
    }
    if (alg == WEBCRYPTO_ALG_HMAC) {
        switch (hash) {
        case WEBCRYPTO_ALG_SHA_1: return "HS1";
        case WEBCRYPTO_ALG_SHA_256: return "HS256";
        case WEBCRYPTO_ALG_SHA_384: return "HS384";
        case WEBCRYPTO_ALG_SHA_512: return "HS512";
        default: return NULL;
        }
    }
    return NULL;
}

/* An optional member: absent is fine, present must have the JSON type. */
static webcrypto_status member(json_t *jwk, const char *name, json_type type, json_t **out) {
    *out = json_object_get(jwk, name);
    if (*out && json_typeof(*out) != type)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK member \"%s\" has the wrong JSON type", name);
    return WEBCRYPTO_OK;
}

static webcrypto_status check_key_ops(json_t *ops, unsigned usages) {
    unsigned seen = 0;
    size_t i;
    json_t *v;
    json_array_foreach(ops, i, v) {
        unsigned u;
        if (!json_is_string(v) || webcrypto_usage_from_name(json_string_value(v), &u) != 0)
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops[%zu] is not a known key usage", i);
        if (seen & u)
            return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops lists \"%s\" twice",
                            json_string_value(v));
        seen |= u;
    }
    if (usages & ~seen) {
        char list[128];
        wc_usages_to_string(usages & ~seen, list, sizeof list);
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK key_ops does not allow the usages: %s", list);
    }
    return WEBCRYPTO_OK;
}

/* Wipes a JSON string node's bytes in place before it is released. */
static void wipe_json_string(json_t *s) {
    if (s && json_is_string(s)) wc_wipe((char *)json_string_value(s), json_string_length(s));
}

static webcrypto_status jwk_check(json_t *jwk, webcrypto_algorithm alg, webcrypto_algorithm hash,
                                  bool extractable, unsigned usages, uint8_t **key,
                                  size_t *key_len) {
    json_t *kty, *k, *jalg, *use, *ops, *ext;
    webcrypto_status st;
    if (!json_is_object(jwk)) return wc_error(WEBCRYPTO_ERR_DATA, "a JWK must be a JSON object");
    if ((st = member(jwk, "kty", JSON_STRING, &kty)) != WEBCRYPTO_OK) return st;
    if (!kty) return wc_error(WEBCRYPTO_ERR_DATA, "JWK has no \"kty\"");
    if (strcmp(json_string_value(kty), "oct") != 0)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK kty is \"%s\", expected \"oct\"",
                        json_string_value(kty));
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
    if (wc_is_aes(alg) && !wc_aes_key_len_ok(alg, n)) {
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
    const char *want_use = alg == WEBCRYPTO_ALG_HMAC ? "sig" : "enc";
    if (usages && use && strcmp(json_string_value(use), want_use) != 0) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "JWK use \"%s\" is not \"%s\"", json_string_value(use),
                      want_use);
        goto fail;
    }
    if (ops && (st = check_key_ops(ops, usages)) != WEBCRYPTO_OK) goto fail;
    if (ext && json_is_false(ext) && extractable) {
        st = wc_error(WEBCRYPTO_ERR_DATA, "JWK has ext false but an extractable key was requested");
        goto fail;
    }
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
    pthread_once(&wc_json_once, wc_json_alloc_setup);
    json_error_t jerr;
    json_t *jwk = json_loadb((const char *)json, json_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!jwk)
        return wc_error(WEBCRYPTO_ERR_DATA, "JWK is not valid JSON: %s (line %d, column %d)",
                        jerr.text, jerr.line, jerr.column);
    webcrypto_status st = jwk_check(jwk, alg, hash, extractable, usages, key, key_len);
    wipe_json_string(json_object_get(jwk, "k"));
    json_decref(jwk);
    return st;
}

webcrypto_status wc_jwk_export_secret(const webcrypto_key *key, uint8_t **out,
                                      size_t *out_len) {
    pthread_once(&wc_json_once, wc_json_alloc_setup);
    size_t klen = wc_base64url_encoded_len(key->secret_len);
    char *k = malloc(klen + 1);
    if (!k) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: out of memory");
    wc_base64url_encode(key->secret, key->secret_len, k);

    json_t *ops = json_array();
    json_t *jwk = json_object();
    int bad = !ops || !jwk;
    for (unsigned u = 1; !bad && u <= WEBCRYPTO_USAGE_UNWRAP_KEY; u <<= 1)
        if (key->usages & u) bad |= json_array_append_new(ops, json_string(webcrypto_usage_name(u)));
    /* Members in lexicographic order, as browsers write them. */
    const char *alg = wc_jwk_alg_name(key->alg, key->hash, key->secret_len);
    if (!bad && alg) bad |= json_object_set_new(jwk, "alg", json_string(alg));
    if (!bad) bad |= json_object_set_new(jwk, "ext", json_true());
    if (!bad) bad |= json_object_set_new(jwk, "k", json_stringn(k, klen));
    if (!bad) bad |= json_object_set(jwk, "key_ops", ops);
    if (!bad) bad |= json_object_set_new(jwk, "kty", json_string("oct"));
    webcrypto_buffer_free((uint8_t *)k, klen + 1);

    webcrypto_status st = WEBCRYPTO_OK;
    size_t n = bad ? 0 : json_dumpb(jwk, NULL, 0, JSON_COMPACT | JSON_PRESERVE_ORDER);
    uint8_t *buf = n ? malloc(n + 1) : NULL;
    if (!buf || json_dumpb(jwk, (char *)buf, n, JSON_COMPACT | JSON_PRESERVE_ORDER) != n) {
        free(buf);
        st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: could not build the JWK");
    } else {
        buf[n] = 0;
        *out = buf;
        *out_len = n;
    }
    if (jwk) wipe_json_string(json_object_get(jwk, "k"));
    json_decref(jwk);
    json_decref(ops);
    return st;
}
