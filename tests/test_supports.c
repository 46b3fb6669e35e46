/*
 * test_supports: webcrypto_supports against the operations themselves, on
 * the backend under test. For every algorithm and operation (and, for
 * deriveKey, wrapKey and unwrapKey, every second algorithm) it builds a
 * canonical valid input (a key generated or imported here, the family's
 * canonical params), runs the operation and asserts that supports() says
 * true exactly when the operation succeeded. An operation the algorithm's
 * table row does not have has no canonical input: supports() must say false.
 * A pair whose every key form is data the wrapping algorithm cannot take
 * (an RSA key under RSA-OAEP) has no canonical input either and is listed
 * as skipped. All mismatches are printed, then the test fails on any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h" /* wc_alg: the usages an algorithm's keys may have */
#include "testutil.h"

#define CAP 8192

static const webcrypto_backend *B;

static const uint8_t zeros[64];
static const uint8_t exponent[3] = {1, 0, 1};

/* The canonical params of alg: what each family's operations need, with the
 * values every backend takes (cSHAKE and KMAC: the one output length a JCA
 * provider has too). */
static webcrypto_params canon(webcrypto_algorithm alg) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = alg;
    const wc_alg_info *a = wc_alg(alg);
    switch (a->family) {
    case WC_FAMILY_DIGEST: break;
    case WC_FAMILY_HMAC: p.hash = WEBCRYPTO_ALG_SHA_256; break;
    case WC_FAMILY_CIPHER:
        p.length = 256;
        if (a->member.cipher == WC_CIPHER_AES_CTR) {
            p.counter = zeros;
            p.counter_len = 16;
            p.length = 64; /* the counter bits (generateKey reads 256 below) */
        } else {
            p.iv = zeros;
            p.iv_len = 16;
        }
        break;
    case WC_FAMILY_AEAD:
        /* ChaCha20-Poly1305's key has one length: its params have none. */
        p.length = wc_single_key_bits(alg) ? 0 : 256;
        p.iv = zeros;
        p.iv_len = 12;
        break;
    case WC_FAMILY_KEYWRAP: p.length = 256; break;
    case WC_FAMILY_KDF:
        p.hash = WEBCRYPTO_ALG_SHA_256;
        p.salt = zeros;
        p.salt_len = 16;
        p.iterations = 1000;
        p.nonce = zeros;
        p.nonce_len = 16;
        p.parallelism = 1;
        p.memory = 64;
        p.passes = 1;
        p.version = 0x13;
        break;
    case WC_FAMILY_RSA:
        p.hash = WEBCRYPTO_ALG_SHA_256;
        p.modulus_length = 2048;
        p.public_exponent = exponent;
        p.public_exponent_len = sizeof exponent;
        p.salt_length = 32;
        break;
    case WC_FAMILY_EC:
        p.named_curve = WEBCRYPTO_CURVE_P256;
        p.hash = WEBCRYPTO_ALG_SHA_256;
        break;
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: break;
    case WC_FAMILY_XOF: p.output_length = wc_xof_fixed_bits(a->member.xof); break;
    case WC_FAMILY_KMAC: p.output_length = wc_kmac_fixed_bits(a->member.kmac); break;
    }
    return p;
}

/* The AES-CTR params' length is the counter's; generateKey and the derived
 * key type read it as the key length. */
static webcrypto_params canon_key(webcrypto_algorithm alg) {
    webcrypto_params p = canon(alg);
    if (alg == WEBCRYPTO_ALG_AES_CTR) p.length = 256;
    return p;
}

static bool is_pair(webcrypto_algorithm alg) { return wc_alg(alg)->key_types & WC_KEYS_PAIR; }
static bool is_kdf(webcrypto_algorithm alg) { return wc_alg(alg)->family == WC_FAMILY_KDF; }

/* One key (or pair) per algorithm, made once, extractable, with every usage
 * its keys may have. NULL where the backend cannot make one. */
typedef struct keys {
    bool tried;
    webcrypto_key *secret, *pub, *priv;
} keys;
static keys cache[WC_ALG_COUNT];

static const keys *key_of(webcrypto_algorithm alg) {
    keys *k = &cache[alg];
    if (k->tried) return k;
    k->tried = true;
    const wc_alg_info *a = wc_alg(alg);
    webcrypto_params p = canon_key(alg);
    webcrypto_status st;
    if (is_pair(alg)) {
        st = webcrypto_generate_key_pair(B, &p, true, a->public_usages | a->private_usages,
                                         &k->pub, &k->priv);
    } else if (is_kdf(alg)) {
        st = webcrypto_import_key(B, tu_secret_raw(alg), zeros, 32, &p, false, a->secret_usages,
                                  &k->secret);
    } else if (a->key_types & WC_KEYS_SECRET) {
        st = webcrypto_generate_key(B, &p, true, a->secret_usages, &k->secret);
    } else {
        st = WEBCRYPTO_ERR_NOT_SUPPORTED;
    }
    if (st != WEBCRYPTO_OK) k->secret = k->pub = k->priv = NULL;
    return k;
}

/* The key an operation that "uses" the public side takes (encrypt, verify,
 * encapsulate, wrap), or the private / secret one. */
static const webcrypto_key *use_key(webcrypto_algorithm alg, bool public_side) {
    const keys *k = key_of(alg);
    if (k->secret) return k->secret;
    return public_side ? k->pub : k->priv;
}

static const uint8_t data[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

/* Encrypts (or, AES-KW, wraps) `in` with alg's canonical key and params p. */
static bool seal(webcrypto_algorithm alg, webcrypto_params p, const uint8_t *in, size_t len,
                 uint8_t *out, size_t *out_len) {
    const webcrypto_key *k = use_key(alg, true);
    if (!k) return false;
    if (alg != WEBCRYPTO_ALG_AES_KW)
        return webcrypto_encrypt(&p, k, in, len, out, CAP, out_len) == WEBCRYPTO_OK;
    /* AES-KW wraps keys only: the bytes as an HMAC key's, wrapped raw. */
    webcrypto_params h = canon(WEBCRYPTO_ALG_HMAC);
    webcrypto_key *hk = NULL;
    uint8_t *w = NULL;
    size_t n = 0;
    bool ok = webcrypto_import_key(B, WEBCRYPTO_FORMAT_RAW, in, len, &h, true,
                                   WEBCRYPTO_USAGE_SIGN, &hk) == WEBCRYPTO_OK &&
              webcrypto_wrap_key(WEBCRYPTO_FORMAT_RAW, hk, k, &p, &w, &n) == WEBCRYPTO_OK &&
              n <= CAP;
    if (ok) memcpy(out, w, n), *out_len = n;
    webcrypto_buffer_free(w, n);
    webcrypto_key_free(hk);
    return ok;
}

/* Whether the wrapping algorithm takes len bytes of key data (the data's
 * constraint, not a parameter's): AES-KW 64-bit blocks, at least two;
 * RSA-OAEP 2048 with SHA-256 at most 190 bytes. */
static bool wrappable(webcrypto_algorithm wrap, size_t len) {
    if (wrap == WEBCRYPTO_ALG_AES_KW) return len % 8 == 0 && len >= 16;
    if (wrap == WEBCRYPTO_ALG_RSA_OAEP) return len <= 256 - 2 * 32 - 2;
    return true;
}

/* A form of alg's key for wrapKey: the format, the key, the exported bytes
 * and the usages the imported key gets. Tries the forms in order and keeps
 * the first whose bytes `wrap` takes. false, *none set: every form exported
 * but none fits (no canonical input); false, *none unset: nothing exports. */
typedef struct form {
    webcrypto_key_format format;
    const webcrypto_key *key;
    uint8_t *bytes;
    size_t len;
    unsigned usages;
} form;

static bool pick_form(webcrypto_algorithm wrap, webcrypto_algorithm alg, form *f, bool *none) {
    const keys *k = key_of(alg);
    const wc_alg_info *a = wc_alg(alg);
    *none = false;
    form c[5];
    size_t n = 0;
    if (k->secret) {
        c[n++] = (form){tu_secret_raw(alg), k->secret, NULL, 0, a->secret_usages};
        c[n++] = (form){WEBCRYPTO_FORMAT_JWK, k->secret, NULL, 0, a->secret_usages};
    } else if (k->pub) {
        c[n++] = (form){WEBCRYPTO_FORMAT_SPKI, k->pub, NULL, 0, a->public_usages};
        c[n++] = (form){WEBCRYPTO_FORMAT_RAW_PUBLIC, k->pub, NULL, 0, a->public_usages};
        c[n++] = (form){WEBCRYPTO_FORMAT_PKCS8, k->priv, NULL, 0, a->private_usages};
        c[n++] = (form){WEBCRYPTO_FORMAT_JWK, k->priv, NULL, 0, a->private_usages};
        c[n++] = (form){WEBCRYPTO_FORMAT_JWK, k->pub, NULL, 0, a->public_usages};
    }
    bool exported = false;
    for (size_t i = 0; i < n; i++) {
        if (webcrypto_export_key(c[i].format, c[i].key, &c[i].bytes, &c[i].len) != WEBCRYPTO_OK)
            continue;
        exported = true;
        if (wrappable(wrap, c[i].len)) {
            *f = c[i];
            return true;
        }
        webcrypto_buffer_free(c[i].bytes, c[i].len);
    }
    *none = exported;
    return false;
}

static size_t skipped;

/* Runs op on the canonical input: 1 it succeeded, 0 it failed, -1 there is
 * no canonical input. */
static int run(webcrypto_operation op, webcrypto_algorithm alg, webcrypto_algorithm second,
               webcrypto_params p, webcrypto_params x, size_t length_bits) {
    const wc_alg_info *a = wc_alg(alg);
    static uint8_t out[CAP], out2[CAP];
    size_t n = 0, n2 = 0;
    webcrypto_key *k = NULL, *k2 = NULL;
    const webcrypto_key *key;
    bool ok = false;
    switch (op) {
    case WEBCRYPTO_OP_ENCRYPT:
        key = use_key(alg, true);
        return key && webcrypto_encrypt(&p, key, data, sizeof data, out, CAP, &n) == WEBCRYPTO_OK;
    case WEBCRYPTO_OP_DECRYPT:
        key = use_key(alg, false);
        return key && seal(alg, p, data, sizeof data, out2, &n2) &&
               webcrypto_decrypt(&p, key, out2, n2, out, CAP, &n) == WEBCRYPTO_OK;
    case WEBCRYPTO_OP_SIGN:
        key = use_key(alg, false);
        return key && webcrypto_sign(&p, key, data, sizeof data, out, CAP, &n) == WEBCRYPTO_OK;
    case WEBCRYPTO_OP_VERIFY: {
        bool valid = false;
        key = use_key(alg, false);
        return key && webcrypto_sign(&p, key, data, sizeof data, out, CAP, &n) == WEBCRYPTO_OK &&
               webcrypto_verify(&p, use_key(alg, true), out, n, data, sizeof data, &valid) ==
                   WEBCRYPTO_OK &&
               valid;
    }
    case WEBCRYPTO_OP_DIGEST:
        return webcrypto_digest_params(B, &p, data, sizeof data, out, CAP, &n) == WEBCRYPTO_OK;
    case WEBCRYPTO_OP_GENERATE_KEY:
        if (is_pair(alg))
            ok = webcrypto_generate_key_pair(B, &p, true, a->public_usages | a->private_usages,
                                             &k, &k2) == WEBCRYPTO_OK;
        else
            ok = webcrypto_generate_key(B, &p, true, a->secret_usages ? a->secret_usages
                                                                     : WEBCRYPTO_USAGE_SIGN,
                                        &k) == WEBCRYPTO_OK;
        break;
    case WEBCRYPTO_OP_IMPORT_KEY: {
        if (is_kdf(alg)) {
            ok = webcrypto_import_key(B, tu_secret_raw(alg), zeros, 32, &p, false,
                                      a->secret_usages, &k) == WEBCRYPTO_OK;
            break;
        }
        const keys *ks = key_of(alg);
        const webcrypto_key *src = ks->secret ? ks->secret : ks->pub;
        webcrypto_key_format fmt = ks->secret ? tu_secret_raw(alg) : WEBCRYPTO_FORMAT_SPKI;
        uint8_t *e = NULL;
        if (!src || webcrypto_export_key(fmt, src, &e, &n) != WEBCRYPTO_OK) return 0;
        ok = webcrypto_import_key(B, fmt, e, n, &p, true,
                                  ks->secret ? a->secret_usages : a->public_usages,
                                  &k) == WEBCRYPTO_OK;
        webcrypto_buffer_free(e, n);
        break;
    }
    case WEBCRYPTO_OP_EXPORT_KEY: {
        const keys *ks = key_of(alg);
        const webcrypto_key *src = ks->secret ? ks->secret : ks->pub;
        uint8_t *e = NULL;
        ok = src && webcrypto_export_key(ks->secret ? tu_secret_raw(alg) : WEBCRYPTO_FORMAT_SPKI,
                                         src, &e, &n) == WEBCRYPTO_OK;
        webcrypto_buffer_free(e, n);
        break;
    }
    case WEBCRYPTO_OP_DERIVE_BITS:
        key = use_key(alg, false);
        return key && webcrypto_derive_bits(&p, key, length_bits, out, CAP, &n) == WEBCRYPTO_OK;
    case WEBCRYPTO_OP_DERIVE_KEY: {
        key = use_key(alg, false);
        const wc_alg_info *s = wc_alg(second);
        unsigned u = s->secret_usages ? s->secret_usages : s->private_usages;
        /* not extractable: a KDF key (HKDF, PBKDF2, Argon2: derived from
         * a key agreement's whole secret) may not be */
        ok = key && webcrypto_derive_key(&p, key, &x, false, u ? u : WEBCRYPTO_USAGE_SIGN, &k) ==
                        WEBCRYPTO_OK;
        break;
    }
    case WEBCRYPTO_OP_WRAP_KEY:
    case WEBCRYPTO_OP_UNWRAP_KEY: {
        bool wrap = op == WEBCRYPTO_OP_WRAP_KEY;
        key = use_key(alg, wrap);
        if (!key) return 0;
        form f;
        bool none = false;
        if (!pick_form(alg, second, &f, &none)) {
            if (none) return -1;
            if (wrap || !is_kdf(second)) return 0;
            /* A KDF's key exports nothing; unwrapKey imports raw bytes. */
            f = (form){tu_secret_raw(second), NULL, NULL, 0, wc_alg(second)->secret_usages};
        }
        if (wrap) {
            uint8_t *w = NULL;
            ok = webcrypto_wrap_key(f.format, f.key, key, &p, &w, &n) == WEBCRYPTO_OK;
            webcrypto_buffer_free(w, n);
        } else {
            const uint8_t *plain = f.bytes ? f.bytes : zeros;
            size_t plain_len = f.bytes ? f.len : 32;
            ok = seal(alg, p, plain, plain_len, out2, &n2) &&
                 webcrypto_unwrap_key(f.format, out2, n2, key, &p, &x,
                                      f.key != NULL || !is_kdf(second),
                                      f.usages, &k) == WEBCRYPTO_OK;
        }
        webcrypto_buffer_free(f.bytes, f.len);
        break;
    }
    case WEBCRYPTO_OP_GET_PUBLIC_KEY:
        ok = key_of(alg)->priv && webcrypto_get_public_key(key_of(alg)->priv, a->public_usages,
                                                           &k) == WEBCRYPTO_OK;
        break;
    case WEBCRYPTO_OP_ENCAPSULATE:
        key = key_of(alg)->pub;
        return key && webcrypto_encapsulate_bits(&p, key, out, CAP, &n, out2, CAP, &n2) ==
                          WEBCRYPTO_OK;
    case WEBCRYPTO_OP_DECAPSULATE:
        key = key_of(alg)->pub;
        return key && key_of(alg)->priv &&
               webcrypto_encapsulate_bits(&p, key, out, CAP, &n, out2, CAP, &n2) ==
                   WEBCRYPTO_OK &&
               webcrypto_decapsulate_bits(&p, key_of(alg)->priv, out, n, out2, CAP, &n2) ==
                   WEBCRYPTO_OK;
    case WEBCRYPTO_OP_GET_KEY_LENGTH: return -1; /* not a SubtleCrypto method */
    }
    webcrypto_key_free(k);
    webcrypto_key_free(k2);
    return ok;
}

/* Whether the algorithm's table row has the operation (wrapKey and
 * unwrapKey: also by encrypting and decrypting). */
static bool in_row(webcrypto_operation op, webcrypto_algorithm alg) {
    if (webcrypto_algorithm_has_operation(alg, op)) return true;
    if (op == WEBCRYPTO_OP_WRAP_KEY)
        return webcrypto_algorithm_has_operation(alg, WEBCRYPTO_OP_ENCRYPT);
    if (op == WEBCRYPTO_OP_UNWRAP_KEY)
        return webcrypto_algorithm_has_operation(alg, WEBCRYPTO_OP_DECRYPT);
    if (op == WEBCRYPTO_OP_DERIVE_KEY)
        return webcrypto_algorithm_has_operation(alg, WEBCRYPTO_OP_DERIVE_BITS);
    return false;
}

static size_t checked, mismatches;

/* Runs op on p (and x) and asks supports() with the same; variant names a
 * non-canonical params change, for the report. */
static void check(webcrypto_operation op, webcrypto_algorithm alg, webcrypto_algorithm second,
                  webcrypto_params p, webcrypto_params x, size_t length_bits,
                  const char *variant) {
    if (op == WEBCRYPTO_OP_DERIVE_BITS || op == WEBCRYPTO_OP_DERIVE_KEY)
        p.public_key = key_of(alg)->pub; /* the key agreements' peer: its own public key */
    int ran;
    if (!in_row(op, alg)) {
        ran = 0; /* no canonical input: supports must say false */
    } else {
        ran = run(op, alg, second, p, x, length_bits);
        if (ran < 0 && op != WEBCRYPTO_OP_GET_KEY_LENGTH) {
            skipped++;
            printf("  skipped (no key form the wrapping algorithm takes): %s %s %s\n",
                   webcrypto_operation_name(op), webcrypto_algorithm_name(alg),
                   webcrypto_algorithm_name(second));
            return;
        }
        if (ran < 0) ran = 0;
    }
    bool said = webcrypto_supports(B, op, &p, length_bits, second ? &x : NULL);
    checked++;
    if (said != (ran == 1)) {
        mismatches++;
        printf("  MISMATCH %s %s%s%s%s%s: supports %s, operation %s%s%s\n",
               webcrypto_operation_name(op), webcrypto_algorithm_name(alg), second ? " -> " : "",
               second ? webcrypto_algorithm_name(second) : "", variant ? " with " : "",
               variant ? variant : "", said ? "true" : "false",
               ran == 1 ? "succeeded" : "failed", ran == 1 ? "" : ": ",
               ran == 1 ? "" : webcrypto_error_message());
    }
}

/* The canonical input of op: generateKey and importKey read the key's
 * length where AES-CTR's encrypt reads the counter's; deriveBits 128 bits. */
static void one(webcrypto_operation op, webcrypto_algorithm alg, webcrypto_algorithm second) {
    webcrypto_params p = op == WEBCRYPTO_OP_GENERATE_KEY || op == WEBCRYPTO_OP_IMPORT_KEY
                             ? canon_key(alg)
                             : canon(alg);
    webcrypto_params x = canon_key(second ? second : alg);
    check(op, alg, second, p, x, op == WEBCRYPTO_OP_DERIVE_BITS ? 128 : WEBCRYPTO_LENGTH_FULL,
          NULL);
}

/* Params off the canonical path, each a value some operation or backend
 * refuses (or takes), so that supports() is also held to the refusals: a
 * member changed for the operations that read it. */
static const uint8_t custom[4] = {'a', 'b', 'c', 'd'};
static const uint8_t context[300];

static void variants(webcrypto_algorithm alg) {
    const wc_alg_info *a = wc_alg(alg);
    webcrypto_params p, none = WEBCRYPTO_PARAMS_INIT;
    const webcrypto_operation gen = WEBCRYPTO_OP_GENERATE_KEY, enc = WEBCRYPTO_OP_ENCRYPT,
                              dec = WEBCRYPTO_OP_DECRYPT, sign = WEBCRYPTO_OP_SIGN,
                              ver = WEBCRYPTO_OP_VERIFY, bits = WEBCRYPTO_OP_DERIVE_BITS;
#define V(op, what, change, len)                                                              \
    do {                                                                                      \
        p = (op) == gen ? canon_key(alg) : canon(alg);                                        \
        change;                                                                               \
        check((op), alg, WEBCRYPTO_ALG_NONE, p, none, (len), what);                           \
    } while (0)
#define V2(what, change) /* both directions of an operation pair */                           \
    do {                                                                                      \
        V(enc, what, change, WEBCRYPTO_LENGTH_FULL);                                          \
        V(dec, what, change, WEBCRYPTO_LENGTH_FULL);                                          \
    } while (0)
#define VS(what, change)                                                                      \
    do {                                                                                      \
        V(sign, what, change, WEBCRYPTO_LENGTH_FULL);                                         \
        V(ver, what, change, WEBCRYPTO_LENGTH_FULL);                                          \
    } while (0)
    size_t L = WEBCRYPTO_LENGTH_FULL;
    switch (a->family) {
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
        V(gen, "length 192", p.length = 192, L);
        V(gen, "length 100", p.length = 100, L);
        V(gen, "no length", p.length = 0, L);
        if (a->family == WC_FAMILY_KEYWRAP) break;
        if (alg == WEBCRYPTO_ALG_AES_CTR) {
            V2("counter length 128", p.length = 128);
            V2("counter length 0", p.length = 0);
            break;
        }
        V2("iv 16 bytes", p.iv_len = 16);
        V2("iv 8 bytes", p.iv_len = 8);
        V2("no iv", (p.iv = NULL, p.iv_len = 0));
        V2("tagLength 96", p.tag_length = 96);
        V2("tagLength 64", p.tag_length = 64);
        break;
    case WC_FAMILY_HMAC:
        V(gen, "SHA3-256", p.hash = WEBCRYPTO_ALG_SHA3_256, L);
        V(gen, "SHA3-256, length 256", (p.hash = WEBCRYPTO_ALG_SHA3_256, p.length = 256), L);
        V(gen, "SHA-1", p.hash = WEBCRYPTO_ALG_SHA_1, L);
        V(gen, "no hash", p.hash = WEBCRYPTO_ALG_NONE, L);
        V(gen, "length 100", p.length = 100, L);
        V(WEBCRYPTO_OP_IMPORT_KEY, "SHA3-512", p.hash = WEBCRYPTO_ALG_SHA3_512, L);
        break;
    case WC_FAMILY_KMAC:
        VS("outputLength 100", p.output_length = 100);
        VS("outputLength 384", p.output_length = 384);
        VS("no outputLength", p.output_length = 0);
        VS("a customization", (p.customization = custom, p.customization_len = sizeof custom));
        V(gen, "length 100", p.length = 100, L);
        V(gen, "length 512", p.length = 512, L);
        break;
    case WC_FAMILY_XOF:
        V(WEBCRYPTO_OP_DIGEST, "outputLength 100", p.output_length = 100, L);
        V(WEBCRYPTO_OP_DIGEST, "outputLength 128", p.output_length = 128, L);
        V(WEBCRYPTO_OP_DIGEST, "no outputLength", p.output_length = 0, L);
        V(WEBCRYPTO_OP_DIGEST, "a customization",
          (p.customization = custom, p.customization_len = sizeof custom), L);
        break;
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_DSA:
        VS("a 3-byte context", (p.context = context, p.context_len = 3));
        VS("a 300-byte context", (p.context = context, p.context_len = 300));
        if (a->family == WC_FAMILY_OKP) {
            V(bits, "length 0", (void)0, 0);
            V(bits, "length 100", (void)0, 100);
            V(bits, "length 1000", (void)0, 1000);
            V(bits, "length null", (void)0, L);
        }
        break;
    case WC_FAMILY_KDF:
        V(bits, "SHA3-256", p.hash = WEBCRYPTO_ALG_SHA3_256, 128);
        V(bits, "SHA-1", p.hash = WEBCRYPTO_ALG_SHA_1, 128);
        V(bits, "no hash", p.hash = WEBCRYPTO_ALG_NONE, 128);
        V(bits, "length 0", (void)0, 0);
        V(bits, "length 40", (void)0, 40);
        V(bits, "length 255", (void)0, 255);
        V(bits, "length null", (void)0, L);
        V(bits, "iterations 0", p.iterations = 0, 128);
        V(bits, "memory 4", p.memory = 4, 128);
        V(bits, "passes 0", p.passes = 0, 128);
        V(bits, "a 4-byte nonce", p.nonce_len = 4, 128);
        V(bits, "version 16", p.version = 16, 128);
        break;
    case WC_FAMILY_RSA:
        V(gen, "SHA3-256", p.hash = WEBCRYPTO_ALG_SHA3_256, L);
        V(gen, "no hash", p.hash = WEBCRYPTO_ALG_NONE, L);
        V(gen, "modulusLength 1001", p.modulus_length = 1001, L);
        V(gen, "publicExponent 5", (p.public_exponent = (const uint8_t[]){5},
                                    p.public_exponent_len = 1), L);
        V(WEBCRYPTO_OP_IMPORT_KEY, "SHA3-384", p.hash = WEBCRYPTO_ALG_SHA3_384, L);
        break;
    case WC_FAMILY_EC:
        V(gen, "P-384", p.named_curve = WEBCRYPTO_CURVE_P384, L);
        V(gen, "no namedCurve", p.named_curve = WEBCRYPTO_CURVE_NONE, L);
        if (a->member.ec == WC_EC_ECDSA) {
            VS("SHA3-256", p.hash = WEBCRYPTO_ALG_SHA3_256);
            VS("SHA-1", p.hash = WEBCRYPTO_ALG_SHA_1);
            VS("no hash", p.hash = WEBCRYPTO_ALG_NONE);
        } else {
            V(bits, "length 0", (void)0, 0);
            V(bits, "length 100", (void)0, 100);
            V(bits, "length 1000", (void)0, 1000);
            V(bits, "length null", (void)0, L);
        }
        break;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_ML_KEM: break;
    }
#undef V
#undef V2
#undef VS
}

static void supports_matches_operations(void **state) {
    (void)state;
    B = tu_backend();
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm alg = webcrypto_algorithm_at(i);
        for (int op = WEBCRYPTO_OP_ENCRYPT; op <= WEBCRYPTO_OP_DECAPSULATE; op++) {
            if (op == WEBCRYPTO_OP_DERIVE_KEY || op == WEBCRYPTO_OP_WRAP_KEY ||
                op == WEBCRYPTO_OP_UNWRAP_KEY) {
                for (size_t j = 0; j < webcrypto_algorithm_count(); j++)
                    one((webcrypto_operation)op, alg, webcrypto_algorithm_at(j));
            } else {
                one((webcrypto_operation)op, alg, WEBCRYPTO_ALG_NONE);
            }
        }
        variants(alg);
    }
    printf("%s: %zu answers checked, %zu mismatches, %zu skipped\n", webcrypto_backend_name(B),
           checked, mismatches, skipped);
    for (size_t i = 0; i < WC_ALG_COUNT; i++) {
        webcrypto_key_free(cache[i].secret);
        webcrypto_key_free(cache[i].pub);
        webcrypto_key_free(cache[i].priv);
    }
    assert_true(checked > 0);
    assert_int_equal(mismatches, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(supports_matches_operations)};
    return tu_run_group("supports", tests, NULL, NULL);
}
