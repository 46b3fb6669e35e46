/*
 * test_residue.c - secret lifetime, measured (issue 25, item 3): in one
 * process, keys whose secrets are fresh random values are imported or
 * generated and used (secret keys raw and jwk; EC, RSA, Ed25519 and X25519
 * private keys through pkcs8 and jwk; deriveBits, decrypt and exportKey
 * results); the test wipes its own buffers and frees every key and result,
 * then reads the process's memory (/proc/self/maps, /proc/self/mem) and
 * fails on any copy of a secret it finds, printing the mapping and offset.
 *
 * Also, while the keys are alive: a non-extractable secret key whose
 * backend state holds no raw key (openssl and boringssl: AES-GCM, HMAC) has
 * no copy of its bytes anywhere in the C heap, and a non-extractable EC
 * private key's scalar is nowhere in big-endian form (the backends keep it
 * as the library's own number, not as a second byte string).
 *
 * The needles (the secrets searched for) are kept XOR-masked with a random
 * pad, and unmasked only into a scratch mapping the search skips, so that the
 * search does not find itself.
 *
 * What is not searched (include/webcrypto.h documents each):
 *  - the base64url text of a secret that went through a JWK import: jansson's
 *    lexer frees its token buffers without wiping them (only the decoded
 *    bytes are searched for those);
 *  - with a jca backend, the JVM's own mappings: the Java heap keeps key
 *    bytes until the garbage collector reuses the memory, and nothing tells
 *    its anonymous mappings from others reliably; so for jca only the C
 *    side is searched: the main malloc arena ([heap]), the stack, and the
 *    writable data of the loaded files.
 */
#define _GNU_SOURCE
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Needles, masked                                                          */
/* ------------------------------------------------------------------------ */

enum { MAX_NEEDLES = 128, NEEDLE_MAX = 64, WINDOW = 32 };

typedef struct needle {
    char label[160];
    size_t len;
    uint8_t masked[NEEDLE_MAX];
    uint8_t pad[NEEDLE_MAX];
    bool live_check; /* searched for while the keys are alive too */
} needle;

static needle needles[MAX_NEEDLES];
static size_t n_needles;

static void wipe(void *p, size_t n) { explicit_bzero(p, n); }

static void rand_bytes(uint8_t *p, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(p + got, n - got, 0);
        assert_true(r > 0);
        got += (size_t)r;
    }
}

/* Adds a needle: a window of at most NEEDLE_MAX bytes from the middle of
 * the value (a copy of the whole, or of most of it, contains it). */
static void add_needle_ex(const char *label, const uint8_t *v, size_t n, bool live) {
    assert_true(n_needles < MAX_NEEDLES);
    assert_true(n >= 16);
    needle *nd = &needles[n_needles++];
    size_t len = n > WINDOW ? WINDOW : n;
    size_t off = (n - len) / 2;
    snprintf(nd->label, sizeof nd->label, "%.150s", label);
    nd->len = len;
    rand_bytes(nd->pad, len);
    for (size_t i = 0; i < len; i++) nd->masked[i] = v[off + i] ^ nd->pad[i];
    nd->live_check = live;
}
static void add_needle(const char *label, const uint8_t *v, size_t n) {
    add_needle_ex(label, v, n, false);
}

/* A big number's bytes, as given (big-endian) and reversed: OpenSSL's and
 * BoringSSL's BIGNUMs keep little-endian limbs, which on a little-endian
 * machine is the whole number little-endian. */
static void add_needle_bn(const char *label, const uint8_t *v, size_t n) {
    char l[128];
    snprintf(l, sizeof l, "%.100s (big-endian)", label);
    add_needle(l, v, n);
    uint8_t *r = malloc(n);
    assert_non_null(r);
    for (size_t i = 0; i < n; i++) r[i] = v[n - 1 - i];
    snprintf(l, sizeof l, "%.100s (little-endian)", label);
    add_needle(l, r, n);
    wipe(r, n);
    free(r);
}

static const char b64url_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The base64url text of v (unpadded), as a needle: what a JWK export holds. */
static void add_needle_b64(const char *label, const uint8_t *v, size_t n) {
    char text[2 * NEEDLE_MAX + 8];
    size_t t = 0;
    for (size_t i = 0; i + 3 <= n && t + 4 < sizeof text; i += 3) {
        uint32_t w = (uint32_t)v[i] << 16 | (uint32_t)v[i + 1] << 8 | v[i + 2];
        for (int k = 3; k >= 0; k--) text[t++] = b64url_alphabet[(w >> (6 * k)) & 63];
    }
    char l[128];
    snprintf(l, sizeof l, "%.100s (base64url)", label);
    add_needle(l, (const uint8_t *)text, t);
    wipe(text, sizeof text);
}

static int b64url_value(char c) {
    const char *p = strchr(b64url_alphabet, c);
    return c && p ? (int)(p - b64url_alphabet) : -1;
}

/* Decodes base64url text (unpadded) into out; returns the length. */
static size_t b64url_decode(const char *s, uint8_t *out, size_t cap) {
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (; *s; s++) {
        int v = b64url_value(*s);
        assert_true(v >= 0);
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            assert_true(n < cap);
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    acc = 0;
    return n;
}

/* ------------------------------------------------------------------------ */
/* The search                                                               */
/* ------------------------------------------------------------------------ */

enum { CHUNK = 1 << 20 };

typedef struct scratch {
    uint8_t buf[CHUNK + NEEDLE_MAX];
    uint8_t plain[MAX_NEEDLES][NEEDLE_MAX];
} scratch;

static bool c_side_only; /* jca: the JVM's mappings are not searched */

/* The search's own check: a secret left on purpose in a live block of the
 * C heap, which every search must find (else it searched nothing). */
static size_t canary = SIZE_MAX;
static size_t canary_found;

/* Whether a mapping is searched: readable; not the kernel's; a file's
 * mapping only if writable (code and read-only data hold no secret made at
 * run time). With c_side_only, only [heap], [stack] and writable file
 * mappings. */
static bool searched(const char *perms, const char *name) {
    if (perms[0] != 'r') return false;
    if (!strcmp(name, "[vvar]") || !strcmp(name, "[vsyscall]") || !strcmp(name, "[vdso]"))
        return false;
    bool file = name[0] == '/';
    if (file && perms[1] != 'w') return false;
    if (c_side_only) return file || !strcmp(name, "[heap]") || !strcmp(name, "[stack]");
    return true;
}

/* Searches the process's memory for the needles (all, or the live_check
 * ones); prints each find; returns how many were found. */
static size_t search_memory(const char *when, bool live_only) {
    scratch *sc = mmap(NULL, sizeof *sc, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
    assert_true(sc != MAP_FAILED);
    uintptr_t sc_lo = (uintptr_t)sc, sc_hi = sc_lo + sizeof *sc;
    for (size_t i = 0; i < n_needles; i++)
        for (size_t k = 0; k < needles[i].len; k++)
            sc->plain[i][k] = needles[i].masked[k] ^ needles[i].pad[k];

    /* The map's text first, whole, so that reading memory does not change it. */
    size_t maps_cap = 1 << 20, maps_len = 0;
    char *maps = malloc(maps_cap);
    assert_non_null(maps);
    int fd = open("/proc/self/maps", O_RDONLY);
    assert_true(fd >= 0);
    for (;;) {
        ssize_t r = read(fd, maps + maps_len, maps_cap - 1 - maps_len);
        assert_true(r >= 0);
        if (r == 0) break;
        maps_len += (size_t)r;
        assert_true(maps_len < maps_cap - 1);
    }
    close(fd);
    maps[maps_len] = 0;

    int mem = open("/proc/self/mem", O_RDONLY);
    assert_true(mem >= 0);
    size_t found = 0, searched_bytes = 0;
    for (char *line = strtok(maps, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long lo, hi;
        char perms[8] = "", name[512] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %511[^\n]", &lo, &hi, perms, name) < 3) continue;
        if (!searched(perms, name)) continue;
        if (lo < sc_hi && sc_lo < hi) continue; /* the scratch mapping itself */
        if (hi - lo > (1ul << 32) && name[0] != '/') {
            /* Reserved address space, not memory: a sanitizer's shadow (tens
             * of TiB), a JVM's heap reservation. Said, not searched. */
            printf("# %s: not searched: %s %s of %lu GiB\n", when, perms,
                   name[0] ? name : "[anonymous]", (hi - lo) >> 30);
            continue;
        }
        size_t carry = 0;
        for (unsigned long at = lo; at < hi;) {
            size_t want = hi - at < CHUNK ? hi - at : CHUNK;
            ssize_t r = pread(mem, sc->buf + carry, want, (off_t)at);
            if (r <= 0) break; /* unreadable (e.g. a guard page) */
            size_t n = carry + (size_t)r;
            searched_bytes += (size_t)r;
            for (size_t i = 0; i < n_needles; i++) {
                if (live_only && !needles[i].live_check) continue;
                const uint8_t *p = sc->buf;
                while ((p = memmem(p, n - (size_t)(p - sc->buf), sc->plain[i], needles[i].len))) {
                    unsigned long addr = at - carry + (unsigned long)(p - sc->buf);
                    /* A match lying wholly in the carried bytes was reported already. */
                    if ((size_t)(p - sc->buf) + needles[i].len > carry && i == canary) {
                        canary_found++;
                    } else if ((size_t)(p - sc->buf) + needles[i].len > carry) {
                        printf("# %s: %s found at %#lx, offset %#lx in %s %s\n", when,
                               needles[i].label, addr, addr - lo, perms,
                               name[0] ? name : "[anonymous]");
                        found++;
                    }
                    p++;
                }
            }
            at += (unsigned long)r;
            carry = n < NEEDLE_MAX - 1 ? n : NEEDLE_MAX - 1;
            memmove(sc->buf, sc->buf + n - carry, carry);
        }
    }
    close(mem);
    printf("# %s: searched %zu MiB for %zu secrets%s, %zu found\n", when, searched_bytes >> 20,
           n_needles, c_side_only ? " (the C side only: jca)" : "", found);
    free(maps);
    wipe(sc, sizeof *sc);
    munmap(sc, sizeof *sc);
    return found;
}

/* ------------------------------------------------------------------------ */
/* Using keys                                                               */
/* ------------------------------------------------------------------------ */

static const webcrypto_backend *be;

enum { MAX_KEYS = 96 };
static webcrypto_key *keys[MAX_KEYS];
static size_t n_keys;

static webcrypto_key *keep(webcrypto_key *k) {
    assert_non_null(k);
    assert_true(n_keys < MAX_KEYS);
    keys[n_keys++] = k;
    return k;
}

static bool has(webcrypto_algorithm a) { return webcrypto_backend_supports(be, a); }

/* Exports a key as JWK and puts the decoded value of each named member into
 * a needle (big numbers both ways round, as add_needle_bn). The JWK text is
 * parsed by jansson here too, which leaves its base64url text in freed
 * blocks: base64url needles are not made for these members. */
static void needles_from_jwk(const char *what, const webcrypto_key *k, const char *const *members,
                             bool bn) {
    uint8_t *out = NULL;
    size_t len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, k, &out, &len), WEBCRYPTO_OK);
    json_t *j = json_loadb((const char *)out, len, 0, NULL);
    assert_non_null(j);
    for (const char *const *m = members; *m; m++) {
        const char *s = json_string_value(json_object_get(j, *m));
        assert_non_null(s);
        uint8_t v[1024];
        size_t n = b64url_decode(s, v, sizeof v);
        char label[128];
        snprintf(label, sizeof label, "%.60s %.20s", what, *m);
        if (bn)
            add_needle_bn(label, v, n);
        else
            add_needle(label, v, n);
        wipe(v, sizeof v);
    }
    json_decref(j);
    webcrypto_buffer_free(out, len);
}

/* Exports k in format, imports it back as a non-extractable key (kept). */
static webcrypto_key *reimport(const webcrypto_key *k, webcrypto_key_format format,
                               const webcrypto_params *alg, unsigned usages) {
    uint8_t *out = NULL;
    size_t len = 0;
    tu_assert_status(webcrypto_export_key(format, k, &out, &len), WEBCRYPTO_OK);
    webcrypto_key *r = NULL;
    tu_assert_status(webcrypto_import_key(be, format, out, len, alg, false, usages, &r),
                     WEBCRYPTO_OK);
    webcrypto_buffer_free(out, len);
    return keep(r);
}

static void use_aes_gcm(void) {
    if (!has(WEBCRYPTO_ALG_AES_GCM)) return;
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    uint8_t k[32], pt[48], iv[12], ct[64], dec[64];
    size_t ct_len = 0, dec_len = 0;
    rand_bytes(iv, sizeof iv);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12);

    /* A non-extractable raw key: encrypt, decrypt. */
    rand_bytes(k, sizeof k);
    rand_bytes(pt, sizeof pt);
    add_needle("AES-GCM non-extractable raw key", k, sizeof k); /* its key schedule starts with it */
    add_needle("AES-GCM plaintext", pt, sizeof pt);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &alg, false,
                                          WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT, &key),
                     WEBCRYPTO_OK);
    keep(key);
    tu_assert_status(webcrypto_encrypt(&gcm, key, pt, sizeof pt, ct, sizeof ct, &ct_len),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_decrypt(&gcm, key, ct, ct_len, dec, sizeof dec, &dec_len),
                     WEBCRYPTO_OK);
    assert_memory_equal(dec, pt, sizeof pt);

    /* An extractable one, exported raw and as JWK. */
    rand_bytes(k, sizeof k);
    add_needle("AES-GCM extractable key", k, sizeof k);
    add_needle_b64("AES-GCM extractable key", k, sizeof k);
    tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &alg, true,
                                          WEBCRYPTO_USAGE_ENCRYPT, &key),
                     WEBCRYPTO_OK);
    keep(key);
    for (int f = 0; f < 2; f++) {
        uint8_t *out = NULL;
        size_t len = 0;
        tu_assert_status(webcrypto_export_key(f ? WEBCRYPTO_FORMAT_JWK : WEBCRYPTO_FORMAT_RAW, key,
                                              &out, &len),
                         WEBCRYPTO_OK);
        webcrypto_buffer_free(out, len);
    }
    tu_assert_status(webcrypto_encrypt(&gcm, key, pt, sizeof pt, ct, sizeof ct, &ct_len),
                     WEBCRYPTO_OK);
    wipe(k, sizeof k);
    wipe(pt, sizeof pt);
    wipe(dec, sizeof dec);
}

/* HMAC: a non-extractable key from JWK and one from raw; sign. */
static void use_hmac(void) {
    if (!has(WEBCRYPTO_ALG_HMAC)) return;
    webcrypto_params alg =
        WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC, .hash = WEBCRYPTO_ALG_SHA_256);
    uint8_t k[64], mac[64];
    size_t mac_len = 0;
    char jwk[200];
    int n = 0;
    for (int f = 0; f < 2; f++) {
        rand_bytes(k, sizeof k);
        add_needle_ex(f ? "HMAC non-extractable jwk key" : "HMAC non-extractable raw key", k,
                      sizeof k, true);
        webcrypto_key *key = NULL;
        if (f) {
            n = snprintf(jwk, sizeof jwk, "{\"kty\":\"oct\",\"k\":\"");
            for (size_t i = 0; i + 3 <= 63; i += 3) {
                uint32_t w = (uint32_t)k[i] << 16 | (uint32_t)k[i + 1] << 8 | k[i + 2];
                for (int s = 3; s >= 0; s--) jwk[n++] = b64url_alphabet[(w >> (6 * s)) & 63];
            }
            /* the last byte: two characters */
            jwk[n++] = b64url_alphabet[k[63] >> 2];
            jwk[n++] = b64url_alphabet[(k[63] & 3) << 4];
            n += snprintf(jwk + n, sizeof jwk - (size_t)n, "\"}");
            tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_JWK, (uint8_t *)jwk,
                                                  (size_t)n, &alg, false, WEBCRYPTO_USAGE_SIGN,
                                                  &key),
                             WEBCRYPTO_OK);
        } else {
            tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &alg,
                                                  false, WEBCRYPTO_USAGE_SIGN, &key),
                             WEBCRYPTO_OK);
        }
        keep(key);
        tu_assert_status(webcrypto_sign(&alg, key, k, 16, mac, sizeof mac, &mac_len),
                         WEBCRYPTO_OK);
        if (f) {
            /* An error path: the same JWK, refused (DataError) for a usage
             * its key_ops lacks, after its "k" was decoded. */
            char bad[260];
            int m = snprintf(bad, sizeof bad, "%.*s,\"key_ops\":[\"verify\"]}", n - 1, jwk);
            webcrypto_key *none = NULL;
            tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_JWK, (uint8_t *)bad,
                                                  (size_t)m, &alg, false, WEBCRYPTO_USAGE_SIGN,
                                                  &none),
                             WEBCRYPTO_ERR_DATA);
            wipe(bad, sizeof bad);
        }
    }
    wipe(k, sizeof k);
    wipe(jwk, sizeof jwk);
}

/* HKDF and PBKDF2: raw keys, deriveBits; the HKDF's PRK (HMAC(salt, IKM),
 * computed here with an HMAC key of the salt) is searched for too. */
static void use_kdfs(void) {
    uint8_t ikm[32], salt[16], out[64], prk[64];
    size_t out_len = 0, prk_len = 0;
    rand_bytes(salt, sizeof salt);
    if (has(WEBCRYPTO_ALG_PBKDF2)) {
        rand_bytes(ikm, sizeof ikm);
        add_needle("PBKDF2 password", ikm, sizeof ikm);
        webcrypto_params palg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2);
        webcrypto_key *key = NULL;
        tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, ikm, sizeof ikm, &palg,
                                              false, WEBCRYPTO_USAGE_DERIVE_BITS, &key),
                         WEBCRYPTO_OK);
        keep(key);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_PBKDF2,
                                              .hash = WEBCRYPTO_ALG_SHA_256, .salt = salt,
                                              .salt_len = sizeof salt, .iterations = 2);
        tu_assert_status(webcrypto_derive_bits(&p, key, 256, out, sizeof out, &out_len),
                         WEBCRYPTO_OK);
        add_needle("PBKDF2 output", out, out_len);
    }
    if (has(WEBCRYPTO_ALG_HKDF) && has(WEBCRYPTO_ALG_HMAC)) {
        rand_bytes(ikm, sizeof ikm);
        add_needle("HKDF key", ikm, sizeof ikm);
        /* PRK = HMAC-SHA-256(salt, IKM) (RFC 5869 2.2), first, so that the
         * derivation is the last call before the search. */
        webcrypto_params mac = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HMAC,
                                                .hash = WEBCRYPTO_ALG_SHA_256);
        webcrypto_key *sk = NULL;
        tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, salt, sizeof salt, &mac,
                                              false, WEBCRYPTO_USAGE_SIGN, &sk),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_sign(&mac, sk, ikm, sizeof ikm, prk, sizeof prk, &prk_len),
                         WEBCRYPTO_OK);
        webcrypto_key_free(sk);
        add_needle("HKDF PRK", prk, prk_len);
        webcrypto_params halg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
        webcrypto_key *key = NULL;
        tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, ikm, sizeof ikm, &halg,
                                              false, WEBCRYPTO_USAGE_DERIVE_BITS, &key),
                         WEBCRYPTO_OK);
        keep(key);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF, .hash = WEBCRYPTO_ALG_SHA_256,
                                              .salt = salt, .salt_len = sizeof salt,
                                              .info = salt, .info_len = 4);
        tu_assert_status(webcrypto_derive_bits(&p, key, 512, out, sizeof out, &out_len),
                         WEBCRYPTO_OK);
        add_needle("HKDF output", out, out_len);
    }
    wipe(ikm, sizeof ikm);
    wipe(out, sizeof out);
    wipe(prk, sizeof prk);
}

/* A key pair's private key: generated extractable, its members read through
 * JWK, then imported again (pkcs8 and jwk) as non-extractable keys that are
 * used. */
static void use_ec(void) {
    if (!has(WEBCRYPTO_ALG_ECDH) || !has(WEBCRYPTO_ALG_ECDSA)) return;
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH,
                                            .named_curve = WEBCRYPTO_CURVE_P256);
    webcrypto_key *pub = NULL, *priv = NULL, *pub2 = NULL, *priv2 = NULL;
    tu_assert_status(webcrypto_generate_key_pair(be, &alg, true, WEBCRYPTO_USAGE_DERIVE_BITS, &pub,
                                                 &priv),
                     WEBCRYPTO_OK);
    keep(pub), keep(priv);
    tu_assert_status(webcrypto_generate_key_pair(be, &alg, true, WEBCRYPTO_USAGE_DERIVE_BITS,
                                                 &pub2, &priv2),
                     WEBCRYPTO_OK);
    keep(pub2), keep(priv2);
    needles_from_jwk("P-256", priv, (const char *const[]){"d", NULL}, true);
    /* Only the big-endian scalar is the live check: the library's number
     * is the little-endian one. */
    needles[n_needles - 2].live_check = true;
    needles_from_jwk("P-256 peer", priv2, (const char *const[]){"d", NULL}, true);
    webcrypto_key *p8 = reimport(priv, WEBCRYPTO_FORMAT_PKCS8, &alg, WEBCRYPTO_USAGE_DERIVE_BITS);
    webcrypto_key *jw = reimport(priv, WEBCRYPTO_FORMAT_JWK, &alg, WEBCRYPTO_USAGE_DERIVE_BITS);
    /* Error paths: the pkcs8 and the JWK refused as another curve's key. */
    for (int f = 0; f < 2; f++) {
        webcrypto_key_format fmt = f ? WEBCRYPTO_FORMAT_JWK : WEBCRYPTO_FORMAT_PKCS8;
        uint8_t *out = NULL;
        size_t len = 0;
        tu_assert_status(webcrypto_export_key(fmt, priv, &out, &len), WEBCRYPTO_OK);
        webcrypto_params other = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH,
                                                  .named_curve = WEBCRYPTO_CURVE_P384);
        webcrypto_key *none = NULL;
        tu_assert_status(webcrypto_import_key(be, fmt, out, len, &other, false,
                                              WEBCRYPTO_USAGE_DERIVE_BITS, &none),
                         WEBCRYPTO_ERR_DATA);
        webcrypto_buffer_free(out, len);
    }
    uint8_t z[66];
    size_t z_len = 0;
    webcrypto_params d = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDH, .public_key = pub2);
    tu_assert_status(webcrypto_derive_bits(&d, p8, 256, z, sizeof z, &z_len), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_derive_bits(&d, jw, 256, z, sizeof z, &z_len), WEBCRYPTO_OK);
    add_needle("ECDH shared secret", z, z_len);
    wipe(z, sizeof z);

    webcrypto_params salg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA,
                                             .named_curve = WEBCRYPTO_CURVE_P384);
    tu_assert_status(webcrypto_generate_key_pair(be, &salg, true, WEBCRYPTO_USAGE_SIGN, &pub, &priv),
                     WEBCRYPTO_OK);
    keep(pub), keep(priv);
    needles_from_jwk("ECDSA P-384", priv, (const char *const[]){"d", NULL}, true);
    webcrypto_key *sk = reimport(priv, WEBCRYPTO_FORMAT_PKCS8, &salg, WEBCRYPTO_USAGE_SIGN);
    webcrypto_params sp = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ECDSA,
                                           .hash = WEBCRYPTO_ALG_SHA_384);
    uint8_t sig[128];
    size_t sig_len = 0;
    tu_assert_status(webcrypto_sign(&sp, sk, sig, 32, sig, sizeof sig, &sig_len), WEBCRYPTO_OK);
}

static void use_rsa(void) {
    if (!has(WEBCRYPTO_ALG_RSA_OAEP)) return;
    static const uint8_t e[] = {1, 0, 1};
    webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP,
                                            .hash = WEBCRYPTO_ALG_SHA_256, .modulus_length = 2048,
                                            .public_exponent = e, .public_exponent_len = 3);
    webcrypto_key *pub = NULL, *priv = NULL;
    tu_assert_status(webcrypto_generate_key_pair(be, &alg, true,
                                                 WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT,
                                                 &pub, &priv),
                     WEBCRYPTO_OK);
    keep(pub), keep(priv);
    needles_from_jwk("RSA", priv, (const char *const[]){"d", "p", "q", "dp", "dq", "qi", NULL},
                     true);
    webcrypto_key *p8 = reimport(priv, WEBCRYPTO_FORMAT_PKCS8, &alg, WEBCRYPTO_USAGE_DECRYPT);
    webcrypto_key *jw = reimport(priv, WEBCRYPTO_FORMAT_JWK, &alg, WEBCRYPTO_USAGE_DECRYPT);
    uint8_t pt[40], ct[256], dec[256];
    size_t ct_len = 0, dec_len = 0;
    rand_bytes(pt, sizeof pt);
    add_needle("RSA-OAEP plaintext", pt, sizeof pt);
    webcrypto_params o = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_RSA_OAEP);
    tu_assert_status(webcrypto_encrypt(&o, pub, pt, sizeof pt, ct, sizeof ct, &ct_len),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_decrypt(&o, p8, ct, ct_len, dec, sizeof dec, &dec_len),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_decrypt(&o, jw, ct, ct_len, dec, sizeof dec, &dec_len),
                     WEBCRYPTO_OK);
    assert_memory_equal(dec, pt, sizeof pt);
    wipe(pt, sizeof pt);
    wipe(dec, sizeof dec);
}

static void use_okp(void) {
    if (has(WEBCRYPTO_ALG_ED25519)) {
        webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
        webcrypto_key *pub = NULL, *priv = NULL;
        tu_assert_status(webcrypto_generate_key_pair(be, &alg, true, WEBCRYPTO_USAGE_SIGN, &pub,
                                                     &priv),
                         WEBCRYPTO_OK);
        keep(pub), keep(priv);
        needles_from_jwk("Ed25519", priv, (const char *const[]){"d", NULL}, false);
        webcrypto_key *p8 = reimport(priv, WEBCRYPTO_FORMAT_PKCS8, &alg, WEBCRYPTO_USAGE_SIGN);
        webcrypto_key *jw = reimport(priv, WEBCRYPTO_FORMAT_JWK, &alg, WEBCRYPTO_USAGE_SIGN);
        uint8_t sig[64];
        size_t sig_len = 0;
        tu_assert_status(webcrypto_sign(&alg, p8, sig, 16, sig, sizeof sig, &sig_len),
                         WEBCRYPTO_OK);
        tu_assert_status(webcrypto_sign(&alg, jw, sig, 16, sig, sizeof sig, &sig_len),
                         WEBCRYPTO_OK);
    }
    if (has(WEBCRYPTO_ALG_X25519)) {
        webcrypto_params alg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519);
        webcrypto_key *pub = NULL, *priv = NULL, *pub2 = NULL, *priv2 = NULL;
        tu_assert_status(webcrypto_generate_key_pair(be, &alg, true, WEBCRYPTO_USAGE_DERIVE_BITS,
                                                     &pub, &priv),
                         WEBCRYPTO_OK);
        keep(pub), keep(priv);
        tu_assert_status(webcrypto_generate_key_pair(be, &alg, true, WEBCRYPTO_USAGE_DERIVE_BITS,
                                                     &pub2, &priv2),
                         WEBCRYPTO_OK);
        keep(pub2), keep(priv2);
        needles_from_jwk("X25519", priv, (const char *const[]){"d", NULL}, false);
        webcrypto_key *p8 = reimport(priv, WEBCRYPTO_FORMAT_PKCS8, &alg,
                                     WEBCRYPTO_USAGE_DERIVE_BITS);
        uint8_t z[32];
        size_t z_len = 0;
        webcrypto_params d = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_X25519, .public_key = pub2);
        tu_assert_status(webcrypto_derive_bits(&d, p8, 256, z, sizeof z, &z_len), WEBCRYPTO_OK);
        add_needle("X25519 shared secret", z, z_len);
        wipe(z, sizeof z);
    }
}

/* wrapKey / unwrapKey (AES-KW of a raw and a JWK AES key, AES-GCM of an
 * Ed25519 pkcs8) and deriveKey (HKDF to an extractable AES key, exported to
 * learn its bytes). */
static void use_wrap(void) {
    if (!has(WEBCRYPTO_ALG_AES_KW) || !has(WEBCRYPTO_ALG_AES_GCM)) return;
    uint8_t kek[32], k[32];
    rand_bytes(kek, sizeof kek);
    rand_bytes(k, sizeof k);
    add_needle("AES-KW key", kek, sizeof kek);
    add_needle("AES key wrapped with AES-KW", k, sizeof k);
    webcrypto_params kw = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_KW);
    webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM);
    webcrypto_key *wk = NULL, *key = NULL;
    tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, kek, sizeof kek, &kw, false,
                                          WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY,
                                          &wk),
                     WEBCRYPTO_OK);
    keep(wk);
    tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &gcm, true,
                                          WEBCRYPTO_USAGE_ENCRYPT, &key),
                     WEBCRYPTO_OK);
    keep(key);
    for (int f = 0; f < 2; f++) {
        webcrypto_key_format fmt = f ? WEBCRYPTO_FORMAT_JWK : WEBCRYPTO_FORMAT_RAW;
        uint8_t *out = NULL;
        size_t len = 0;
        tu_assert_status(webcrypto_wrap_key(fmt, key, wk, &kw, &out, &len), WEBCRYPTO_OK);
        webcrypto_key *un = NULL;
        tu_assert_status(webcrypto_unwrap_key(fmt, out, len, wk, &kw, &gcm, false,
                                              WEBCRYPTO_USAGE_ENCRYPT, &un),
                         WEBCRYPTO_OK);
        keep(un);
        webcrypto_buffer_free(out, len);
    }
    if (has(WEBCRYPTO_ALG_ED25519)) {
        webcrypto_params ed = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_ED25519);
        webcrypto_key *pub = NULL, *priv = NULL, *gk = NULL;
        tu_assert_status(webcrypto_generate_key_pair(be, &ed, true, WEBCRYPTO_USAGE_SIGN, &pub,
                                                     &priv),
                         WEBCRYPTO_OK);
        keep(pub), keep(priv);
        needles_from_jwk("Ed25519 wrapped", priv, (const char *const[]){"d", NULL}, false);
        rand_bytes(k, sizeof k);
        add_needle("AES-GCM wrapping key", k, sizeof k);
        tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &gcm, false,
                                              WEBCRYPTO_USAGE_WRAP_KEY |
                                                  WEBCRYPTO_USAGE_UNWRAP_KEY,
                                              &gk),
                         WEBCRYPTO_OK);
        keep(gk);
        uint8_t iv[12];
        rand_bytes(iv, sizeof iv);
        webcrypto_params w = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = iv, .iv_len = 12);
        uint8_t *out = NULL;
        size_t len = 0;
        tu_assert_status(webcrypto_wrap_key(WEBCRYPTO_FORMAT_PKCS8, priv, gk, &w, &out, &len),
                         WEBCRYPTO_OK);
        webcrypto_key *un = NULL;
        tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_PKCS8, out, len, gk, &w, &ed, false,
                                              WEBCRYPTO_USAGE_SIGN, &un),
                         WEBCRYPTO_OK);
        keep(un);
        /* A wrong tag: the unwrap fails after decryption was attempted. */
        out[len - 1] ^= 1;
        webcrypto_key *none = NULL;
        tu_assert_status(webcrypto_unwrap_key(WEBCRYPTO_FORMAT_PKCS8, out, len, gk, &w, &ed, false,
                                              WEBCRYPTO_USAGE_SIGN, &none),
                         WEBCRYPTO_ERR_OPERATION);
        webcrypto_buffer_free(out, len);
    }
    if (has(WEBCRYPTO_ALG_HKDF)) {
        rand_bytes(k, sizeof k);
        add_needle("HKDF deriveKey base key", k, sizeof k);
        webcrypto_params halg = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF);
        webcrypto_key *base = NULL, *derived = NULL;
        tu_assert_status(webcrypto_import_key(be, WEBCRYPTO_FORMAT_RAW, k, sizeof k, &halg, false,
                                              WEBCRYPTO_USAGE_DERIVE_KEY, &base),
                         WEBCRYPTO_OK);
        keep(base);
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_HKDF,
                                              .hash = WEBCRYPTO_ALG_SHA_256, .salt = k,
                                              .salt_len = 0, .info = k, .info_len = 0);
        webcrypto_params aes = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256);
        tu_assert_status(webcrypto_derive_key(&p, base, &aes, true, WEBCRYPTO_USAGE_ENCRYPT,
                                              &derived),
                         WEBCRYPTO_OK);
        keep(derived);
        uint8_t *out = NULL;
        size_t len = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, derived, &out, &len),
                         WEBCRYPTO_OK);
        add_needle("HKDF-derived AES key", out, len);
        webcrypto_buffer_free(out, len);
    }
    wipe(kek, sizeof kek);
    wipe(k, sizeof k);
}

/* Keeps the compiler from keeping any of the above's frames' contents alive
 * in a way the wipes miss: the functions above run in their own frames,
 * which later calls overwrite only in part, so what they left is searched. */
static void test_residue(void **state) {
    (void)state;
    be = tu_backend();
    const char *name = webcrypto_backend_name(be);
    /* WEBCRYPTO_RESIDUE_ALL=1 searches a jca run's every mapping too, to
     * see what the JVM keeps (docs/ROBUSTNESS.md quotes it). */
    const char *all = getenv("WEBCRYPTO_RESIDUE_ALL");
    c_side_only = !strncmp(name, "jca", 3) && !(all && !strcmp(all, "1"));
    uint8_t *left = malloc(40);
    assert_non_null(left);
    rand_bytes(left, 40);
    canary = n_needles;
    add_needle("the search's own check", left, 40);
    use_aes_gcm();
    use_hmac();
    use_ec();
    use_rsa();
    use_okp();
    use_wrap();
    /* Last, so that no later call's frames overwrite what a KDF left on
     * the stack before the search reads it. */
    use_kdfs();
    if (n_needles == 0) skip();

    /* While the keys are alive: no copy a backend does not need. */
    size_t live = search_memory("keys alive", true);
    assert_int_equal(canary_found, 0); /* not a live_check needle */

    for (size_t i = 0; i < n_keys; i++) webcrypto_key_free(keys[i]);
    n_keys = 0;
    size_t after = search_memory("after free", false);
    if (canary_found != 1) fail_msg("the search found its own check %zu times, not once", canary_found);
    wipe(left, 40);
    free(left);
    if (live || after)
        fail_msg("%zu copies of secrets found while the keys were alive, %zu after they were "
                 "freed (listed above)",
                 live, after);
}

#if defined(__SANITIZE_ADDRESS__)
#define RESIDUE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RESIDUE_ASAN 1
#endif
#endif

int main(void) {
#ifdef RESIDUE_ASAN
    /* Under AddressSanitizer malloc's blocks are in anonymous mappings of
     * its own, which cannot be told from the JVM's: a jca run would search
     * nothing of the C side. (openssl and boringssl are searched whole, and
     * ASan's quarantine, which keeps freed blocks from being reused, makes
     * that search the stronger one.) */
    const char *b = getenv("WEBCRYPTO_TEST_BACKEND");
    if (b && !strncmp(b, "jca", 3)) {
        printf("test_residue: skipped for %s under AddressSanitizer: its C side cannot be told "
               "from the JVM's mappings (exit 77: a CTest skip)\n", b);
        return 77;
    }
#endif
    /* Without /proc (another OS, a locked-down container) there is no
     * search: said, and a CTest skip. */
    int probe = open("/proc/self/mem", O_RDONLY);
    if (probe < 0) {
        printf("test_residue: skipped: /proc/self/mem cannot be read (%s) (exit 77: a CTest "
               "skip)\n", strerror(errno));
        return 77;
    }
    close(probe);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_residue)};
    return tu_run_group("residue", tests, NULL, NULL);
}
