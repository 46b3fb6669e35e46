/*
 * make_corpus: writes the seed corpora of the fuzz targets (valid inputs,
 * made with the library itself) into DIR/<target>/. Run by the build; see
 * docs/FUZZING.md. Usage: make_corpus DIR
 */
#include <errno.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "fuzz_keys.h"

static const char *dir;
static unsigned counter;

static void mkdir_or_die(const char *path) {
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
}

/* Writes prefix || body as DIR/target/seed-N. */
static void seed(const char *target, const uint8_t *prefix, size_t np, const uint8_t *body,
                 size_t nb) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, target);
    mkdir_or_die(path);
    snprintf(path, sizeof path, "%s/%s/seed-%04u", dir, target, counter++);
    FILE *f = fopen(path, "wb");
    if (!f || (np && fwrite(prefix, 1, np, f) != np) || (nb && fwrite(body, 1, nb, f) != nb) ||
        fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* One key of each algorithm: its exports seed fuzz_import, fuzz_unwrap (as
 * plaintext to wrap, and wrapped) and fuzz_der. */
static void key_seeds(size_t ai) {
    const fuzz_alg *a = &FUZZ_ALGS[ai];
    webcrypto_params p = fuzz_params(a);
    webcrypto_key *pub = NULL, *priv = NULL;
    if (fuzz_secret(a)) {
        uint8_t raw[32];
        size_t n = a->name == WEBCRYPTO_ALG_HMAC ? 20 + ai : ai % 2 ? 16 : 32;
        FUZZ_CHECK(webcrypto_get_random_values(NULL, raw, n) == WEBCRYPTO_OK);
        FUZZ_CHECK(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, raw, n, &p, fuzz_extractable(a),
                                        a->private_usages, &priv) == WEBCRYPTO_OK);
        if (!fuzz_extractable(a)) { /* HKDF, PBKDF2: raw only, never exported */
            uint8_t sel[2] = {(uint8_t)ai, FUZZ_RAW};
            seed("fuzz_import", sel, 2, raw, n);
            webcrypto_key_free(priv);
            return;
        }
    } else {
        static const uint8_t F4[] = {1, 0, 1};
        p.modulus_length = 1024;
        p.public_exponent = F4;
        p.public_exponent_len = sizeof F4;
        FUZZ_CHECK(webcrypto_generate_key_pair(NULL, &p, true,
                                               a->public_usages | a->private_usages, &pub,
                                               &priv) == WEBCRYPTO_OK);
    }
    static const struct { unsigned sel; bool priv; } forms[] = {
        {FUZZ_RAW, false}, {FUZZ_SPKI, false}, {FUZZ_PKCS8, true},
        {FUZZ_JWK_PUBLIC, false}, {FUZZ_JWK_PRIVATE, true}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const webcrypto_key *k = forms[i].priv || !pub ? priv : pub;
        if (!pub && forms[i].sel == FUZZ_JWK_PUBLIC) continue;
        uint8_t *out = NULL, *w = NULL;
        size_t n = 0, wn = 0;
        if (webcrypto_export_key(fuzz_format(forms[i].sel), k, &out, &n) != WEBCRYPTO_OK) continue;
        uint8_t sel[3] = {(uint8_t)ai, (uint8_t)forms[i].sel};
        seed("fuzz_import", sel, 2, out, n);
        /* fuzz_unwrap: mode 3 (AES-GCM, the harness encrypts); mode 2 (AES-KW)
         * takes multiples of 8 bytes */
        uint8_t un[3] = {3, (uint8_t)ai, (uint8_t)forms[i].sel};
        seed("fuzz_unwrap", un, 3, out, n);
        if (n % 8 == 0 && n >= 16) {
            un[0] = 2;
            seed("fuzz_unwrap", un, 3, out, n);
        }
        /* and mode 1: the wrapped bytes themselves (AES-GCM) */
        webcrypto_params gcm = WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .iv = GCM_IV, .iv_len = sizeof GCM_IV);
        webcrypto_key *gk = NULL;
        FUZZ_CHECK(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, GCM_KEY, sizeof GCM_KEY, &gcm,
                                        false, U_ENC | U_WRAP, &gk) == WEBCRYPTO_OK);
        FUZZ_CHECK(webcrypto_wrap_key(fuzz_format(forms[i].sel), k, gk, &gcm, &w, &wn) ==
                   WEBCRYPTO_OK);
        un[0] = 1;
        seed("fuzz_unwrap", un, 3, w, wn);
        webcrypto_buffer_free(w, wn);
        webcrypto_key_free(gk);
        /* fuzz_der: selectors 2*kind + (pkcs8) */
        static const webcrypto_algorithm kinds[] = {WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_ECDSA,
                                                    WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519,
                                                    WEBCRYPTO_ALG_X25519};
        webcrypto_algorithm kind = a->name == WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5 ||
                                           a->name == WEBCRYPTO_ALG_RSA_OAEP
                                       ? WEBCRYPTO_ALG_RSA_PSS
                                       : a->name;
        for (uint8_t ki = 0; ki < 5; ki++) {
            if (kinds[ki] != kind) continue;
            if (forms[i].sel == FUZZ_SPKI || forms[i].sel == FUZZ_PKCS8) {
                uint8_t ds = (uint8_t)(2 * ki + (forms[i].sel == FUZZ_PKCS8));
                seed("fuzz_der", &ds, 1, out, n);
            }
        }
        webcrypto_buffer_free(out, n);
    }
    webcrypto_key_free(pub);
    webcrypto_key_free(priv);
}

/* Valid ciphertexts for fuzz_decrypt: [alg][iv len][aad len][tag][flags] iv aad ct. */
static void decrypt_seeds(void) {
    static const uint8_t IV[16] = "0123456789abcdef", AAD[5] = "hello";
    static const uint8_t PT[40] = "attack at dawn, attack at dawn, attack!";
    static const struct { webcrypto_algorithm alg; uint8_t sel, iv_len, tag, pt_len; } cases[] = {
        {WEBCRYPTO_ALG_AES_GCM, 0, 12, 0, 40},  {WEBCRYPTO_ALG_AES_GCM, 0, 16, 2, 17},
        {WEBCRYPTO_ALG_AES_GCM, 0, 1, 4, 0},    {WEBCRYPTO_ALG_AES_GCM_SIV, 1, 12, 0, 33},
        {WEBCRYPTO_ALG_AES_CBC, 2, 16, 0, 40},  {WEBCRYPTO_ALG_AES_CBC, 2, 16, 0, 16},
        {WEBCRYPTO_ALG_AES_CBC, 2, 16, 0, 0},   {WEBCRYPTO_ALG_AES_CTR, 3, 16, 64, 40},
        {WEBCRYPTO_ALG_AES_CTR, 3, 16, 2, 40}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        webcrypto_params p = WEBCRYPTO_PARAMS(.name = cases[i].alg);
        webcrypto_key *k = NULL;
        const uint8_t *key = cases[i].alg == WEBCRYPTO_ALG_AES_GCM_SIV ? SIV_KEY : AES_KEY;
        size_t kl = cases[i].alg == WEBCRYPTO_ALG_AES_GCM_SIV ? sizeof SIV_KEY : sizeof AES_KEY;
        FUZZ_CHECK(webcrypto_import_key(NULL, WEBCRYPTO_FORMAT_RAW, key, kl, &p, false, U_ENC,
                                        &k) == WEBCRYPTO_OK);
        static const size_t tags[] = {0, 32, 64, 96, 104};
        if (cases[i].alg == WEBCRYPTO_ALG_AES_CTR) {
            p.counter = IV;
            p.counter_len = cases[i].iv_len;
            p.length = cases[i].tag;
        } else {
            p.iv = IV;
            p.iv_len = cases[i].iv_len;
            p.tag_length = tags[cases[i].tag];
            p.additional_data = AAD;
            p.additional_data_len = sizeof AAD;
        }
        bool aead = cases[i].alg == WEBCRYPTO_ALG_AES_GCM || cases[i].alg == WEBCRYPTO_ALG_AES_GCM_SIV;
        uint8_t ct[64], head[5 + 16 + sizeof AAD];
        size_t n = 0, h = 0;
        FUZZ_CHECK(webcrypto_encrypt(&p, k, PT, cases[i].pt_len, ct, sizeof ct, &n) == WEBCRYPTO_OK);
        head[h++] = cases[i].sel;
        head[h++] = cases[i].iv_len;
        head[h++] = aead ? sizeof AAD : 0;
        head[h++] = cases[i].tag;
        head[h++] = (uint8_t)(i << 2); /* streaming chunk sizes 1, 5, 9, ... */
        memcpy(head + h, IV, cases[i].iv_len);
        h += cases[i].iv_len;
        if (aead) {
            memcpy(head + h, AAD, sizeof AAD);
            h += sizeof AAD;
        }
        seed("fuzz_decrypt", head, h, ct, n);
        webcrypto_key_free(k);
    }
    /* RSA-OAEP: a modulus-sized block (not a valid ciphertext) */
    uint8_t oaep[5 + 128] = {4, 0, 0, 0, 0};
    FUZZ_CHECK(webcrypto_get_random_values(NULL, oaep + 5, 128) == WEBCRYPTO_OK);
    seed("fuzz_decrypt", oaep, sizeof oaep, NULL, 0);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_corpus DIR\n");
        return 2;
    }
    dir = argv[1];
    mkdir_or_die(dir);
    for (size_t i = 0; i < FUZZ_NALGS; i++) key_seeds(i);
    decrypt_seeds();
    static const char *b64[] = {"", "AA", "AAE", "AAEC", "_-8", "qrvM3e7_AA"};
    for (size_t i = 0; i < sizeof b64 / sizeof b64[0]; i++) {
        uint8_t s = 10;
        seed("fuzz_der", &s, 1, (const uint8_t *)b64[i], strlen(b64[i]));
        s = 11;
        seed("fuzz_der", &s, 1, (const uint8_t *)b64[i], strlen(b64[i]));
    }
    return 0;
}
