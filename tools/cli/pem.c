/* PEM: base64 of the DER between BEGIN and END lines (RFC 7468), for spki
 * (PUBLIC KEY) and pkcs8 (PRIVATE KEY). */
#include <string.h>

#include "cli.h"
#include "../../src/core/ct.h" /* the constant-time check's marks (tests/ct.cmake) */

/* A private key's base64 is its secret: no table is indexed by a digit and
 * no branch depends on a digit's value (docs/ROBUSTNESS.md, "Constant time,
 * checked"). These compute with masks: eq is 1 when a == b, in_range when
 * lo <= c <= hi (all below 256). */
static unsigned eq(unsigned a, unsigned b) { return (((a ^ b) - 1u) >> 8) & 1u; }
static unsigned in_range(unsigned c, unsigned lo, unsigned hi) {
    return ((((c - lo) | (hi - c)) >> 8) & 1u) ^ 1u;
}

/* The base64 digit (RFC 4648 table 1) of a 6-bit value. */
static char b64_char(unsigned v) {
    unsigned c = v + 'A';                                   /* 0..25 */
    c += (0u - in_range(v, 26, 51)) & ('a' - 'A' - 26);     /* 26..51 */
    c += (0u - in_range(v, 52, 61)) & (unsigned)('0' - 'A' - 52 + 256); /* 52..61 */
    c += (0u - eq(v, 62)) & (unsigned)('+' - 'A' - 62 + 256);           /* 62 */
    c += (0u - eq(v, 63)) & (unsigned)('/' - 'A' - 63 + 256);           /* 63 */
    return (char)(c & 0xff);
}

/* The value of base64 digit ch (0..63), or 64 when ch is not one. */
static unsigned b64_value(unsigned ch) {
    unsigned v = 64;
    v ^= (0u - in_range(ch, 'A', 'Z')) & ((ch - 'A') ^ 64);
    v ^= (0u - in_range(ch, 'a', 'z')) & ((ch - 'a' + 26) ^ 64);
    v ^= (0u - in_range(ch, '0', '9')) & ((ch - '0' + 52) ^ 64);
    v ^= (0u - eq(ch, '+')) & (62 ^ 64);
    v ^= (0u - eq(ch, '/')) & (63 ^ 64);
    return v;
}

const char *pem_label(webcrypto_key_format f) {
    return f == WEBCRYPTO_FORMAT_SPKI ? "PUBLIC KEY" : "PRIVATE KEY";
}

/* Writes DER as PEM to the sink: 64 base64 characters a line. */
int sink_write_pem(sink *s, webcrypto_key_format f, const uint8_t *der, size_t len) {
    char line[80];
    int n = snprintf(line, sizeof line, "-----BEGIN %s-----\n", pem_label(f));
    int rc = sink_write(s, (const uint8_t *)line, (size_t)n);
    for (size_t i = 0; !rc && i < len;) {
        size_t k = 0;
        for (; i < len && k < 64; i += 3) {
            uint32_t v = (uint32_t)der[i] << 16;
            if (i + 1 < len) v |= (uint32_t)der[i + 1] << 8;
            if (i + 2 < len) v |= der[i + 2];
            line[k++] = b64_char(v >> 18 & 63);
            line[k++] = b64_char(v >> 12 & 63);
            line[k++] = i + 1 < len ? b64_char(v >> 6 & 63) : '=';
            line[k++] = i + 2 < len ? b64_char(v & 63) : '=';
        }
        line[k++] = '\n';
        rc = sink_write(s, (const uint8_t *)line, k);
    }
    wipe(line, sizeof line);
    if (!rc) {
        n = snprintf(line, sizeof line, "-----END %s-----\n", pem_label(f));
        rc = sink_write(s, (const uint8_t *)line, (size_t)n);
    }
    return rc;
}

static int pem_error(const char *what) {
    print_error(webcrypto_status_name(WEBCRYPTO_ERR_DATA), "not a PEM key: %s", what);
    return EXIT_CRYPTO;
}

bool starts_with(const uint8_t *p, size_t n, const char *prefix) {
    size_t k = strlen(prefix);
    return n >= k && memcmp(p, prefix, k) == 0;
}

/* Decodes PEM text in place (the DER is never longer than its base64) and
 * tells its format from the label: PUBLIC KEY is spki, PRIVATE KEY pkcs8.
 * Whitespace between base64 characters is allowed, nothing else. */
int pem_decode(uint8_t *text, size_t len, size_t *der_len, webcrypto_key_format *format) {
    static const char begin[] = "-----BEGIN ";
    if (!starts_with(text, len, begin)) return pem_error("no BEGIN line");
    size_t i = sizeof begin - 1, label_start = i;
    while (i < len && text[i] != '-' && text[i] != '\n') i++;
    size_t label_len = i - label_start;
    if (!starts_with(text + i, len - i, "-----")) return pem_error("a malformed BEGIN line");
    char label[32];
    if (label_len >= sizeof label) return pem_error("an unknown label");
    memcpy(label, text + label_start, label_len);
    label[label_len] = 0;
    if (strcmp(label, "PUBLIC KEY") == 0) *format = WEBCRYPTO_FORMAT_SPKI;
    else if (strcmp(label, "PRIVATE KEY") == 0) *format = WEBCRYPTO_FORMAT_PKCS8;
    else {
        print_error(webcrypto_status_name(WEBCRYPTO_ERR_DATA),
                    "PEM \"%s\" is not a key format WebCrypto knows: use PUBLIC KEY (spki) or "
                    "PRIVATE KEY (pkcs8)", label);
        return EXIT_CRYPTO;
    }
    i += 5;
    size_t out = 0, pad = 0;
    uint32_t acc = 0;
    unsigned nacc = 0;
    for (;; i++) {
        if (i >= len) return pem_error("no END line");
        unsigned ch = text[i], v = b64_value(ch);
        /* The text's layout is public (where lines end, the padding, the
         * END line); a digit's value is not: only its class is declassified. */
        enum { DIGIT = 1, SPACE = 2, PAD = 4, DASH = 8 };
        unsigned cls = (((v >> 6) & 1u) ^ 1u) * DIGIT |
                       (eq(ch, ' ') | eq(ch, '\t') | eq(ch, '\r') | eq(ch, '\n')) * SPACE |
                       eq(ch, '=') * PAD | eq(ch, '-') * DASH;
        cls = wc_ct_public_uint(cls);
        if (cls & DASH) break;
        if (cls & SPACE) continue;
        if (cls & PAD) {
            pad++;
            acc <<= 6;
            nacc++;
        } else {
            if (!(cls & DIGIT) || pad) return pem_error("a character that is not base64");
            acc = acc << 6 | (v & 63);
            nacc++;
        }
        if (nacc == 4) {
            uint8_t b[3] = {(uint8_t)(acc >> 16), (uint8_t)(acc >> 8), (uint8_t)acc};
            if (pad > 2) return pem_error("bad base64 padding");
            memcpy(text + out, b, 3 - pad);
            out += 3 - pad;
            acc = 0;
            nacc = 0;
        }
    }
    if (nacc != 0) return pem_error("base64 that is not a multiple of 4 characters");
    char end[64];
    int n = snprintf(end, sizeof end, "-----END %s-----", label);
    if (!starts_with(text + i, len - i, end)) return pem_error("an END line that does not match");
    for (i += (size_t)n; i < len; i++)
        if (text[i] != '\r' && text[i] != '\n' && text[i] != ' ' && text[i] != '\t')
            return pem_error("text after the END line");
    *der_len = out;
    return EXIT_OK;
}
