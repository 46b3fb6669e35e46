/* The text of webcrypto --help. The lists of algorithms in it are the
 * library's (webcrypto_algorithm_has_operation): the template's {NAME}
 * tokens are replaced by them. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_template[] =
    "Usage: webcrypto [--backend NAME] COMMAND [ARGS] [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  digest ALG [FILE]                      hex digest ({digest})\n"
    "  digest cSHAKE128|cSHAKE256 --output-length BITS [--function-name HEX]\n"
    "               [--customization HEX] [FILE]\n"
    "  generate-key AES-GCM|AES-CBC|AES-CTR|AES-KW --length 128|192|256\n"
    "  generate-key AES-GCM-SIV --length 128|256\n"
    "  generate-key AES-OCB --length 128|192|256\n"
    "  generate-key ChaCha20-Poly1305 (always 256 bits)\n"
    "  generate-key HMAC --hash HASH [--length BITS]\n"
    "               [--usages LIST] [--extractable true|false]\n"
    "                                         print a new key as a JWK; by default\n"
    "                                         extractable, usages encrypt,decrypt (AES),\n"
    "                                         wrapKey,unwrapKey (AES-KW) or sign,verify (HMAC)\n"
    "  generate-key RSASSA-PKCS1-v1_5|RSA-PSS|RSA-OAEP --modulus-length BITS --hash HASH\n"
    "               [--public-exponent HEX] --out-private FILE --out-public FILE\n"
    "  generate-key ECDSA|ECDH --curve P-256|P-384|P-521 --out-private FILE --out-public FILE\n"
    "  generate-key Ed25519|X25519|Ed448|X448 --out-private FILE --out-public FILE\n"
    "  generate-key ML-KEM-512|ML-KEM-768|ML-KEM-1024 --out-private FILE --out-public FILE\n"
    "  generate-key ML-DSA-44|ML-DSA-65|ML-DSA-87 --out-private FILE --out-public FILE\n"
    "               [--usages LIST] [--extractable true|false]\n"
    "                                         a key pair as two JWK files, written only\n"
    "                                         when both are complete; by default all the\n"
    "                                         usages of the algorithm, exponent 010001\n"
    "  export --key JWKFILE --alg ALG --format spki|pkcs8|raw|jwk [--pem]\n"
    "               [--hash HASH] [--curve CURVE]\n"
    "                                         the key in another format: DER (spki, pkcs8),\n"
    "                                         PEM with --pem, raw bytes, or JWK\n"
    "  import --alg ALG [--format spki|pkcs8|raw|jwk] [--hash HASH] [--curve CURVE]\n"
    "               [--usages LIST] [--extractable true|false] [FILE]\n"
    "                                         a key file as a JWK; PEM (BEGIN PUBLIC KEY,\n"
    "                                         BEGIN PRIVATE KEY) is recognised by its header,\n"
    "                                         anything else needs --format\n"
    "  encrypt|decrypt AES-GCM --key JWKFILE --iv HEX [--aad HEX] [--tag-length BITS] [FILE]\n"
    "  encrypt|decrypt AES-GCM-SIV --key JWKFILE --iv HEX(12-byte nonce) [--aad HEX] [FILE]\n"
    "  encrypt|decrypt ChaCha20-Poly1305 --key JWKFILE --iv HEX(12 bytes) [--aad HEX] [FILE]\n"
    "  encrypt|decrypt AES-OCB --key JWKFILE --iv HEX(1..15 bytes) [--aad HEX]\n"
    "               [--tag-length 64|96|128] [FILE]\n"
    "  encrypt|decrypt AES-CBC --key JWKFILE --iv HEX [FILE]\n"
    "  encrypt|decrypt AES-CTR --key JWKFILE --counter HEX --length BITS [FILE]\n"
    "  encrypt|decrypt RSA-OAEP --key JWKFILE [--label HEX] [FILE]\n"
    "                                         raw ciphertext / plaintext (the AEADs:\n"
    "                                         data || tag)\n"
    "  sign HMAC|RSASSA-PKCS1-v1_5|Ed25519 --key JWKFILE [FILE]\n"
    "  sign Ed448 --key JWKFILE [--context HEX] [FILE]\n"
    "  sign RSA-PSS --key JWKFILE --salt-length BYTES [FILE]\n"
    "  sign ECDSA --key JWKFILE --hash HASH [FILE]\n"
    "  sign ML-DSA-44|ML-DSA-65|ML-DSA-87 --key JWKFILE [--context HEX] [FILE]\n"
    "  sign KMAC128|KMAC256 --key JWKFILE --output-length BITS [--customization HEX] [FILE]\n"
    "                                         hex MAC or signature (ECDSA: r || s)\n"
    "  verify ALG (as sign) --key JWKFILE --signature HEX [FILE]\n"
    "                                         print true (exit 0) or false (exit 1)\n"
    "  derive-bits HKDF --key-hex HEX --hash HASH --salt HEX --info HEX --length BITS\n"
    "  derive-bits PBKDF2 --key-hex HEX --hash HASH --salt HEX --iterations N --length BITS\n"
    "  derive-bits Argon2d|Argon2i|Argon2id --key-hex HEX(password) --nonce HEX\n"
    "               --memory KIB --passes N --parallelism N [--secret HEX] [--aad HEX]\n"
    "               --length BITS\n"
    "  derive-bits ECDH|X25519|X448 --key JWKFILE --public-key JWKFILE [--length BITS]\n"
    "                                         hex derived bits (ECDH, X25519, X448: the whole\n"
    "                                         shared secret without --length)\n"
    "  derive-key {derive-key} (the derive-bits options, without --length)\n"
    "               --derived {derived}\n"
    "               [--derived-length BITS]\n"
    "               [--derived-hash HASH] [--usages LIST] [--extractable true|false]\n"
    "                                         the derived key as a JWK (HMAC: --derived-hash)\n"
    "  wrap-key --key JWKFILE --alg ALG --format raw|pkcs8|spki|jwk --wrapping-key JWKFILE\n"
    "               --wrap-alg {wrap-alg} [the wrap-alg's\n"
    "               encrypt options: --iv, --aad, --tag-length, --counter, --length, --label]\n"
    "                                         the wrapped key's bytes\n"
    "  unwrap-key --wrapping-key JWKFILE --wrap-alg ALG [its options] --format FORMAT\n"
    "               --alg ALG [--hash HASH] [--curve CURVE] [--usages LIST]\n"
    "               [--extractable true|false] [FILE]\n"
    "                                         the unwrapped key as a JWK\n"
    "  encapsulate ML-KEM-512|ML-KEM-768|ML-KEM-1024 --key JWKFILE(public)\n"
    "                                         the ciphertext in hex, a newline, then the\n"
    "                                         shared key in hex\n"
    "  decapsulate ML-KEM-512|ML-KEM-768|ML-KEM-1024 --key JWKFILE(private) [FILE]\n"
    "                                         the shared key in hex (FILE: the ciphertext,\n"
    "                                         raw bytes; an altered one gives another key)\n"
    "  random N                               N random bytes (N <= 65536) as hex\n"
    "  uuid                                   a random version 4 UUID\n"
    "  backends                               compiled-in backends, availability, algorithms\n"
    "                                         (with --backend NAME: that backend only)\n"
    "  bench [OPTIONS]                        backends side by side (webcrypto bench --help)\n"
    "  help                                   this text (also --help, -h)\n"
    "  version                                the version (also --version)\n"
    "\n"
    "{algorithms}"
    "\n"
    "Options (before or after COMMAND, in any order; --opt=VALUE also works):\n"
    "  --backend NAME  use backend NAME (default: the library's default, openssl)\n"
    "  --key FILE      key as a JWK (JSON) file; it is imported with the single usage\n"
    "                  the command needs (encrypt, decrypt, sign, verify, deriveBits, ...)\n"
    "  --hash HASH     HMAC and RSA keys: the key's hash, default from the JWK's alg\n"
    "                  (HS256, RS384, PS512, RSA-OAEP-256, ...); ECDSA sign/verify: the\n"
    "                  signature's hash; HKDF, PBKDF2: the KDF's hash\n"
    "  --curve CURVE   ECDSA and ECDH keys: P-256, P-384 or P-521, default from the\n"
    "                  JWK's crv\n"
    "  --alg ALG       export, import, wrap-key, unwrap-key: the algorithm of the key\n"
    "  --format F      raw, raw-public, raw-secret, raw-seed, pkcs8 (DER), spki (DER) or jwk\n"
    "  --pem           export: spki or pkcs8 as PEM (BEGIN PUBLIC KEY / PRIVATE KEY)\n"
    "  --public-key F  ECDH, X25519: the peer's public key (JWK file)\n"
    "  --wrapping-key F  wrap-key, unwrap-key: the wrapping key (JWK file) of --wrap-alg;\n"
    "                  --wrap-hash HASH is its hash (RSA-OAEP) if its JWK has no alg\n"
    "  --salt-length N RSA-PSS: the salt length in bytes\n"
    "  --output-length BITS  cSHAKE (digest), KMAC (sign, verify): the output's length\n"
    "  --customization HEX   cSHAKE, KMAC: the customization string S (default: empty)\n"
    "  --function-name HEX   cSHAKE: the function-name string N (default: empty)\n"
    "  --label HEX     RSA-OAEP: the label (default: none)\n"
    "  --context HEX   Ed448, ML-DSA sign/verify: the signature's context, 0 to 255\n"
    "                  bytes (default: empty)\n"
    "  --usages LIST   generate-key, import, derive-key, unwrap-key: comma-separated\n"
    "                  WebCrypto usages (\"sign,verify\"); by default all the key allows\n"
    "  --extractable B generate-key, import, derive-key, unwrap-key: true (default) or\n"
    "                  false; a non-extractable key cannot be printed (InvalidAccessError),\n"
    "                  as WebCrypto says\n"
    "  --out FILE      write the result to FILE instead of stdout: a temporary file in\n"
    "                  FILE's directory, renamed over FILE only on success (AES-CBC and\n"
    "                  AES-CTR then stream, so data need not fit in memory). An existing\n"
    "                  FILE keeps its mode (and owner, as root); a new one is made 0600;\n"
    "                  a symbolic link stays and the file it names is replaced (hard\n"
    "                  links to FILE then keep the old content). A device, FIFO or socket\n"
    "                  is written in place, never replaced, and its write errors count\n"
    "                  (--out /dev/full fails). SIGINT, SIGTERM, SIGHUP, SIGQUIT and\n"
    "                  SIGPIPE remove the temporary file; SIGKILL can leave .FILE.tmp.*\n"
    "  --out-private FILE, --out-public FILE  generate-key for key pairs: the two JWKs,\n"
    "                  written only when both are complete; on any failure both files\n"
    "                  are as they were\n"
    "  --              end of options\n"
    "No output may be a file the command reads (--key, --public-key, --wrapping-key,\n"
    "FILE, standard input) or another output, by any name (symbolic or hard links\n"
    "included): a usage error, before anything is read or written.\n"
    "A number given is used as given: an explicit 0 is never the default. Where\n"
    "WebCrypto refuses it, so does the command (--tag-length 0, generate-key --length 0,\n"
    "--modulus-length 0: OperationError; an HMAC or KMAC --derived-length 0: TypeError);\n"
    "cSHAKE's and KMAC's --output-length 0 is an empty output.\n"
    "FILE absent or \"-\" means standard input (an error if it is closed). Key files\n"
    "(JWK, PEM, DER) are at most 1 MiB (DataError). HEX is an even number of hex digits\n"
    "(\"\" is empty). Output goes to stdout only after the whole operation succeeded.\n"
    "\n"
    "Errors are reported on stderr as \"webcrypto: KIND: MESSAGE\", KIND being a\n"
    "WebCrypto error name (DataError, OperationError, ...), UsageError or IOError;\n"
    "a malformed PEM file is a DataError, like malformed DER.\n"
    "Exit status: 0 success; 1 verify printed false; 2 usage error;\n"
    "             3 WebCrypto error from the library; 4 I/O error.\n";

typedef struct text {
    char *buf;
    size_t len, cap;
    bool failed; /* out of memory */
} text;

static void put(text *t, const char *s, size_t n) {
    if (t->failed) return;
    if (n >= t->cap - t->len) {
        size_t cap = t->cap ? t->cap : 4096;
        while (n >= cap - t->len) cap *= 2;
        char *nb = realloc(t->buf, cap);
        if (!nb) {
            t->failed = true;
            return;
        }
        t->buf = nb;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = 0;
}

static void put_str(text *t, const char *s) { put(t, s, strlen(s)); }

static bool has_digest(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_DIGEST); }
static bool has_generate(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_GENERATE_KEY); }
static bool has_import(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_IMPORT_KEY); }
static bool has_export(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_EXPORT_KEY); }
static bool has_encrypt(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_ENCRYPT); }
static bool has_sign(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_SIGN); }
static bool has_derive_bits(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_DERIVE_BITS); }
static bool has_derive_key(webcrypto_algorithm a) { return alg_has(a, WEBCRYPTO_OP_DERIVE_KEY); }
/* What wraps: what encrypts, and AES-KW. */
static bool wraps(webcrypto_algorithm a) {
    return alg_has(a, WEBCRYPTO_OP_ENCRYPT) || alg_has(a, WEBCRYPTO_OP_WRAP_KEY);
}
/* What deriveKey makes: the secret keys that can be generated. */
static bool derivable(webcrypto_algorithm a) {
    return alg_has(a, WEBCRYPTO_OP_GET_KEY_LENGTH) && alg_has(a, WEBCRYPTO_OP_GENERATE_KEY);
}

/* The algorithms `pred` picks, in the library's order, separated by `sep`. */
static void put_list(text *t, bool (*pred)(webcrypto_algorithm), const char *sep) {
    bool first = true;
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm a = webcrypto_algorithm_at(i);
        if (!pred(a)) continue;
        if (!first) put_str(t, sep);
        put_str(t, webcrypto_algorithm_name(a));
        first = false;
    }
}

/* One line per command: its name, then the algorithms it takes, wrapped. */
static void put_algorithms(text *t) {
    static const struct {
        const char *command;
        bool (*pred)(webcrypto_algorithm);
    } rows[] = {
        {"digest", has_digest},           {"generate-key", has_generate},
        {"import", has_import},           {"export", has_export},
        {"encrypt, decrypt", has_encrypt}, {"sign, verify", has_sign},
        {"derive-bits", has_derive_bits}, {"derive-key", has_derive_key},
        {"wrap-key --wrap-alg", wraps},
    };
    enum { INDENT = 2 + 21, WIDTH = 79 };
    put_str(t, "Algorithms, as the library lists them ('webcrypto backends' tells which a\n"
               "backend has):\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char head[INDENT + 1];
        snprintf(head, sizeof head, "  %-*s", INDENT - 2, rows[r].command);
        put_str(t, head);
        size_t col = INDENT;
        bool first = true;
        for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
            webcrypto_algorithm a = webcrypto_algorithm_at(i);
            const char *name = webcrypto_algorithm_name(a);
            if (!name || !rows[r].pred(a)) continue;
            if (!first && col + 1 + strlen(name) > WIDTH) {
                put_str(t, "\n");
                put(t, "                                        ", INDENT);
                col = INDENT;
            } else if (!first) {
                put_str(t, " ");
                col++;
            }
            put_str(t, name);
            col += strlen(name);
            first = false;
        }
        put_str(t, "\n");
    }
}

char *usage_build(void) {
    static const struct {
        const char *token;
        bool (*pred)(webcrypto_algorithm);
        const char *sep;
    } lists[] = {
        {"{digest}", has_digest, ", "},
        {"{derive-key}", has_derive_key, "|"},
        {"{derived}", derivable, "|"},
        {"{wrap-alg}", wraps, "|"},
    };
    text t = {0};
    for (const char *p = usage_template; *p;) {
        const char *brace = strchr(p, '{');
        if (!brace) {
            put_str(&t, p);
            break;
        }
        put(&t, p, (size_t)(brace - p));
        const char *end = strchr(brace, '}');
        size_t n = end ? (size_t)(end - brace) + 1 : strlen(brace);
        bool done = false;
        if (n == strlen("{algorithms}") && strncmp(brace, "{algorithms}", n) == 0) {
            put_algorithms(&t);
            done = true;
        }
        for (size_t i = 0; !done && i < sizeof lists / sizeof lists[0]; i++)
            if (strlen(lists[i].token) == n && strncmp(brace, lists[i].token, n) == 0) {
                put_list(&t, lists[i].pred, lists[i].sep);
                done = true;
            }
        if (!done) put(&t, brace, n); /* not a token: as written */
        p = brace + n;
    }
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}
