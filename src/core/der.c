/*
 * der.c - strict DER for SubjectPublicKeyInfo and PKCS #8 (see der.h).
 *
 * The reader walks the fixed structures of RFC 5280, 5208/5958, 8017, 5480,
 * 5915 and 8410 (and the LAMPS drafts' ML-KEM and ML-DSA keys, private
 * keys in the seed form only) with one flat cursor per level (no recursion), never
 * allocates, and points the fields into the caller's bytes. Anything that is
 * not DER (X.690 section 10) or not the expected structure is DataError.
 *
 * The writer produces the bytes Node's crypto.subtle.exportKey and
 * `openssl pkcs8 -topk8 -nocrypt -outform DER` / `openssl pkey -pubout
 * -outform DER` produce (checked byte for byte with OpenSSL 3.0 and Node 20;
 * Chrome's BoringSSL writes the same): in particular an EC PKCS #8 carries the
 * [1] public key but not the [0] parameters (they repeat the
 * AlgorithmIdentifier's curve; OpenSSL, BoringSSL and NSS all omit them), and
 * Ed25519/X25519 PKCS #8 is version 0 without the public key.
 */
#include <stdlib.h>
#include <string.h>

#include "der.h"

#include "core.h"
#include "ct.h"

#define TAG_INTEGER 0x02
#define TAG_BIT_STRING 0x03
#define TAG_OCTET_STRING 0x04
#define TAG_NULL 0x05
#define TAG_OID 0x06
#define TAG_SEQUENCE 0x30
#define TAG_CTX0_CONS 0xa0 /* [0] constructed: attributes, ECParameters */
#define TAG_CTX1_CONS 0xa1 /* [1] EXPLICIT: ECPrivateKey publicKey */
#define TAG_CTX1_PRIM 0x81 /* [1] IMPLICIT BIT STRING: OneAsymmetricKey publicKey */
#define TAG_CTX0_PRIM 0x80 /* [0] IMPLICIT OCTET STRING: ML-KEM/ML-DSA seed */

/* The key family of an asymmetric kind, from the algorithm table; NULL for
 * anything else (der.h's callers say NotSupportedError then). */
static const wc_alg_info *asym(webcrypto_algorithm kind) {
    const wc_alg_info *a = wc_alg(kind);
    return a && (a->key_types & WC_KEYS_PAIR) ? a : NULL;
}

static bool bytes_eq(wc_bytes a, const uint8_t *b, size_t n) {
    return a.n == n && memcmp(a.p, b, n) == 0;
}

/* ======================================================================== */
/* Reader                                                                   */
/* ======================================================================== */

/* The unread rest of one constructed value's contents. */
typedef struct cursor {
    const uint8_t *p;
    size_t n;
} cursor;

/* Reads one TLV whose identifier octet is exactly `tag` (every tag used here
 * is single-octet, so a high-tag-number form simply does not match). The
 * length must be definite and minimal (X.690 10.1): short form below 128, long
 * form without leading zero octets, at most 4 length octets (no key is near
 * 4 GiB), and within the input. */
static bool get(cursor *c, uint8_t tag, wc_bytes *content) {
    if (c->n < 2 || c->p[0] != tag) return false;
    size_t len, hdr;
    uint8_t l0 = c->p[1];
    if (l0 < 0x80) {
        len = l0;
        hdr = 2;
    } else {
        size_t k = l0 & 0x7fu;
        /* k == 0 is the indefinite form; over 4 octets (0xff, reserved, too) is refused */
        if (k == 0 || k > 4 || c->n - 2 < k) return false;
        if (c->p[2] == 0) return false; /* leading zero octet: not minimal */
        len = 0;
        for (size_t i = 0; i < k; i++) len = (len << 8) | c->p[2 + i];
        if (len < 0x80) return false; /* fits the short form: not minimal */
        hdr = 2 + k;
    }
    if (len > c->n - hdr) return false;
    content->p = c->p + hdr;
    content->n = len;
    c->p += hdr + len;
    c->n -= hdr + len;
    return true;
}

static bool peek(const cursor *c, uint8_t tag) { return c->n > 0 && c->p[0] == tag; }

static cursor enter(wc_bytes content) {
    cursor c = {content.p, content.n};
    return c;
}

/* A non-negative INTEGER in minimal form (X.690 8.3.2), given without its
 * sign octet (an unsigned big-endian value; zero stays one 00 octet so that a
 * present field is never empty). A private key's INTEGERs are secret, so
 * their octets steer no branch: what is declassified is whether the
 * encoding is good (public: the import fails or not) and whether a sign
 * octet leads (the length octets already give the value's size). */
static bool get_uint(cursor *c, wc_bytes *v) {
    wc_bytes i;
    if (!get(c, TAG_INTEGER, &i) || i.n == 0) return false;
    unsigned first = i.p[0], second = i.n > 1 ? i.p[1] : 0x80u;
    unsigned negative = first >> 7;
    unsigned lead = (((first - 1u) >> 8) & 1u) & (i.n > 1); /* a 00 octet, more after it */
    unsigned redundant = lead & ~(second >> 7) & 1u;       /* ... that was not needed */
    if (wc_ct_public_uint(negative | redundant)) return false;
    if (wc_ct_public_uint(lead)) {
        i.p++;
        i.n--;
    }
    *v = i;
    return true;
}

/* A small version INTEGER: exactly 02 01 vv (minimal form makes it unique). */
static bool get_version(cursor *c, unsigned *version) {
    wc_bytes v;
    if (!get_uint(c, &v) || v.n != 1) return false;
    *version = v.p[0];
    return true;
}

/* A BIT STRING holding a key: 0 unused bits and at least one octet of key. */
static bool get_key_bits(cursor *c, uint8_t tag, wc_bytes *key) {
    wc_bytes b;
    if (!get(c, tag, &b) || b.n < 2 || b.p[0] != 0) return false;
    key->p = b.p + 1;
    key->n = b.n - 1;
    return true;
}

/* The namedCurve choice of ECParameters (RFC 5480 2.1.1): one OID of a curve
 * WebCrypto knows; specifiedCurve, implicitCurve and other curves are refused. */
static const char *get_named_curve(cursor *c, webcrypto_named_curve *curve) {
    wc_bytes oid;
    if (!get(c, TAG_OID, &oid)) return "EC parameters are not a named curve";
    for (size_t i = 0; i < wc_curve_count(); i++) {
        const wc_curve_info *named = wc_curve_at(i);
        if (bytes_eq(oid, named->oid, named->oid_len)) {
            *curve = named->curve;
            return NULL;
        }
    }
    return "unsupported named curve";
}

/* AlgorithmIdentifier (RFC 5280 4.1.1.2) for `kind`; sets f->curve for EC. */
static const char *get_algorithm(cursor *c, webcrypto_algorithm kind, wc_pkey_fields *f) {
    wc_bytes seq, oid;
    if (!get(c, TAG_SEQUENCE, &seq)) return "malformed AlgorithmIdentifier";
    cursor a = enter(seq);
    if (!get(&a, TAG_OID, &oid)) return "malformed AlgorithmIdentifier";
    const wc_alg_info *info = asym(kind);
    bool ours = bytes_eq(oid, info->oid, info->oid_len) ||
                (info->oid_alt && bytes_eq(oid, info->oid_alt, info->oid_alt_len));
    switch (info->family) {
    case WC_FAMILY_RSA: {
        /* RFC 3279 2.3.1: the parameters MUST be NULL. */
        wc_bytes null;
        if (!ours) return "not an rsaEncryption key";
        if (!get(&a, TAG_NULL, &null) || null.n != 0)
            return "rsaEncryption parameters must be NULL";
        break;
    }
    case WC_FAMILY_EC: {
        /* id-ecDH (RFC 5480 2.1.2) restricts the key to ECDH: ECDH's oid_alt. */
        if (!ours) return "not an EC key for this algorithm";
        const char *why = get_named_curve(&a, &f->curve);
        if (why) return why;
        break;
    }
    case WC_FAMILY_OKP:
        if (!ours) return "not a key of this algorithm's curve";
        /* RFC 8410 3: the parameters MUST be absent (checked below). */
        break;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        /* The LAMPS drafts: id-alg-ml-kem-*, id-ml-dsa-*, parameters absent. */
        if (!ours) return "not a key of this algorithm's parameter set";
        break;
    WC_CASE_SECRET_FAMILIES: return "not an asymmetric algorithm";
    }
    if (a.n != 0) return "unexpected AlgorithmIdentifier parameters";
    return NULL;
}

static const char *parse_spki(webcrypto_algorithm kind, const uint8_t *der, size_t len,
                              wc_pkey_fields *f) {
    cursor top = {der, len};
    wc_bytes seq, key;
    if (!get(&top, TAG_SEQUENCE, &seq)) return "not a DER SEQUENCE";
    if (top.n != 0) return "data after the SubjectPublicKeyInfo";
    cursor s = enter(seq);
    const char *why = get_algorithm(&s, kind, f);
    if (why) return why;
    if (!get_key_bits(&s, TAG_BIT_STRING, &key)) return "malformed subjectPublicKey";
    if (s.n != 0) return "data after the subjectPublicKey";
    const wc_alg_info *a = asym(kind);
    switch (a->family) {
    case WC_FAMILY_RSA: {
        /* RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } */
        cursor k = enter(key), r;
        wc_bytes rsa;
        if (!get(&k, TAG_SEQUENCE, &rsa) || k.n != 0) return "malformed RSAPublicKey";
        r = enter(rsa);
        if (!get_uint(&r, &f->n) || !get_uint(&r, &f->e) || r.n != 0)
            return "malformed RSAPublicKey";
        break;
    }
    case WC_FAMILY_EC: f->point = key; break; /* form: pkey.c; on the curve: the backend */
    case WC_FAMILY_OKP:
        if (key.n != a->okp_key_len) return "public key is not of the curve's key length";
        f->x = key;
        break;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: /* the encoded public key itself */
        if (key.n != a->pq_public_len) return "public key is not of the parameter set's length";
        f->x = key;
        break;
    WC_CASE_SECRET_FAMILIES: return "not an asymmetric algorithm";
    }
    return NULL;
}

#define STR_(x) #x
#define STR(x) STR_(x)
/* The one refusal of a parser that is NotSupportedError, not DataError: the
 * key is well-formed (parse_result tells it by its address). */
static const char too_many_primes[] =
    "RSA keys with more than " STR(WC_RSA_MAX_PRIMES) " primes are not supported";
/* The same for an ML-KEM or ML-DSA private key in the expandedKey or both
 * form: the draft makes the first NotSupportedError, and the second too
 * where an implementation cannot check the seed against the expanded key
 * (this one keeps only seeds). */
static const char not_seed_form[] =
    "only the seed form of the private key is supported (not expandedKey or both)";

/* ML-KEM-PrivateKey / ML-DSA-PrivateKey (draft-ietf-lamps-kyber-
 * certificates, RFC 9881): CHOICE { seed [0] IMPLICIT OCTET STRING (SIZE
 * (64 / 32)), expandedKey OCTET STRING, both SEQUENCE { seed, expandedKey } }. */
static const char *parse_seeded_private(const wc_alg_info *a, wc_bytes key, wc_pkey_fields *f) {
    cursor k = enter(key);
    if (peek(&k, TAG_OCTET_STRING) || peek(&k, TAG_SEQUENCE)) {
        wc_bytes other;
        if (!get(&k, k.p[0], &other) || k.n != 0) return "malformed private key";
        return not_seed_form;
    }
    if (!get(&k, TAG_CTX0_PRIM, &f->d) || k.n != 0) return "malformed private key seed";
    if (f->d.n != a->pq_seed_len) return "the seed is not of the parameter set's length";
    return NULL;
}

/* RSAPrivateKey (RFC 8017 A.1.2): version 0 (two-prime) without
 * otherPrimeInfos, or version 1 (multi) with at least one OtherPrimeInfo
 * (f->oth). */
static const char *parse_rsa_private(wc_bytes key, wc_pkey_fields *f) {
    cursor k = enter(key), r;
    wc_bytes seq;
    unsigned version;
    if (!get(&k, TAG_SEQUENCE, &seq) || k.n != 0) return "malformed RSAPrivateKey";
    r = enter(seq);
    if (!get_version(&r, &version)) return "malformed RSAPrivateKey";
    if (version > 1) return "unsupported RSAPrivateKey version";
    wc_bytes *ints[] = {&f->n, &f->e, &f->d, &f->p, &f->q, &f->dp, &f->dq, &f->qi};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (!get_uint(&r, ints[i])) return "malformed RSAPrivateKey";
    if (version == 0) {
        if (r.n != 0) return "data after the RSAPrivateKey"; /* otherPrimeInfos with version 0 */
        return NULL;
    }
    wc_bytes infos, info;
    if (r.n == 0) return "RSAPrivateKey version 1 without otherPrimeInfos";
    if (!get(&r, TAG_SEQUENCE, &infos)) return "malformed otherPrimeInfos";
    if (r.n != 0) return "data after the RSAPrivateKey";
    /* OtherPrimeInfos ::= SEQUENCE SIZE(1..MAX) OF OtherPrimeInfo */
    cursor o = enter(infos);
    if (o.n == 0) return "empty otherPrimeInfos";
    size_t count = 0;
    while (o.n != 0) {
        /* All of them read, so that a malformed one is DataError whatever
         * their number; those past the limit are read into spare. */
        wc_rsa_prime spare, *op = count < WC_RSA_MAX_PRIMES - 2 ? &f->oth[count] : &spare;
        if (!get(&o, TAG_SEQUENCE, &info)) return "malformed OtherPrimeInfo";
        cursor c = enter(info);
        if (!get_uint(&c, &op->r) || !get_uint(&c, &op->d) || !get_uint(&c, &op->t) || c.n != 0)
            return "malformed OtherPrimeInfo";
        count++;
    }
    if (count > WC_RSA_MAX_PRIMES - 2) return too_many_primes;
    f->oth_count = count;
    return NULL;
}

/* ECPrivateKey (RFC 5915 3), version 1; f->curve is already the
 * AlgorithmIdentifier's. */
static const char *parse_ec_private(wc_bytes key, wc_pkey_fields *f) {
    cursor k = enter(key), r;
    wc_bytes seq;
    unsigned version;
    if (!get(&k, TAG_SEQUENCE, &seq) || k.n != 0) return "malformed ECPrivateKey";
    r = enter(seq);
    if (!get_version(&r, &version) || version != 1) return "ECPrivateKey version must be 1";
    if (!get(&r, TAG_OCTET_STRING, &f->d) || f->d.n == 0) return "malformed ECPrivateKey";
    wc_bytes ctx;
    if (peek(&r, TAG_CTX0_CONS)) {
        cursor p;
        webcrypto_named_curve curve = WEBCRYPTO_CURVE_NONE;
        if (!get(&r, TAG_CTX0_CONS, &ctx)) return "malformed ECPrivateKey parameters";
        p = enter(ctx);
        const char *why = get_named_curve(&p, &curve);
        if (why) return why;
        if (p.n != 0) return "malformed ECPrivateKey parameters";
        if (curve != f->curve) return "ECPrivateKey parameters name another curve";
    }
    if (peek(&r, TAG_CTX1_CONS)) {
        cursor p;
        if (!get(&r, TAG_CTX1_CONS, &ctx)) return "malformed ECPrivateKey publicKey";
        p = enter(ctx);
        if (!get_key_bits(&p, TAG_BIT_STRING, &f->point) || p.n != 0)
            return "malformed ECPrivateKey publicKey";
    }
    if (r.n != 0) return "data after the ECPrivateKey";
    return NULL;
}

static const char *parse_pkcs8(webcrypto_algorithm kind, const uint8_t *der, size_t len,
                               wc_pkey_fields *f) {
    cursor top = {der, len};
    wc_bytes seq, key, skip;
    unsigned version;
    if (!get(&top, TAG_SEQUENCE, &seq)) return "not a DER SEQUENCE";
    if (top.n != 0) return "data after the PrivateKeyInfo";
    cursor s = enter(seq);
    /* v1 (0) everywhere; v2 (1, RFC 5958) only where we read its public key. */
    if (!get_version(&s, &version)) return "malformed PrivateKeyInfo version";
    const wc_alg_info *a = asym(kind);
    if (version > 1 || (version == 1 && a->family != WC_FAMILY_OKP))
        return "unsupported PrivateKeyInfo version";
    const char *why = get_algorithm(&s, kind, f);
    if (why) return why;
    if (!get(&s, TAG_OCTET_STRING, &key)) return "malformed privateKey";
    /* attributes [0]: allowed, not read (their contents are skipped whole). */
    if (peek(&s, TAG_CTX0_CONS) && !get(&s, TAG_CTX0_CONS, &skip)) return "malformed attributes";
    if (version == 1 && peek(&s, TAG_CTX1_PRIM)) {
        if (!get_key_bits(&s, TAG_CTX1_PRIM, &f->x) || f->x.n != a->okp_key_len)
            return "malformed OneAsymmetricKey publicKey";
    }
    if (s.n != 0) return "data after the PrivateKeyInfo fields";
    f->is_private = true;
    switch (a->family) {
    case WC_FAMILY_RSA: return parse_rsa_private(key, f);
    case WC_FAMILY_EC: return parse_ec_private(key, f);
    case WC_FAMILY_OKP: {
        /* CurvePrivateKey ::= OCTET STRING (RFC 8410 7) */
        cursor k = enter(key);
        if (!get(&k, TAG_OCTET_STRING, &f->d) || k.n != 0) return "malformed CurvePrivateKey";
        if (f->d.n != a->okp_key_len) return "private key is not of the curve's key length";
        return NULL;
    }
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: return parse_seeded_private(a, key, f);
    WC_CASE_SECRET_FAMILIES: break;
    }
    return "not an asymmetric algorithm";
}

static webcrypto_status parse_result(const char *what, const char *why, wc_pkey_fields *f) {
    if (!why) return WEBCRYPTO_OK;
    memset(f, 0, sizeof *f); /* no half-filled fields */
    return wc_error(why == too_many_primes || why == not_seed_form ? WEBCRYPTO_ERR_NOT_SUPPORTED
                                                                   : WEBCRYPTO_ERR_DATA,
                    "%s: %s", what, why);
}

webcrypto_status wc_der_parse_spki(webcrypto_algorithm kind, const uint8_t *der, size_t len,
                                   wc_pkey_fields *f) {
    if (!f || (!der && len)) return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "spki: no data");
    memset(f, 0, sizeof *f);
    if (!asym(kind))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "spki: not an asymmetric algorithm");
    return parse_result("spki", parse_spki(kind, der, len, f), f);
}

webcrypto_status wc_der_parse_pkcs8(webcrypto_algorithm kind, const uint8_t *der, size_t len,
                                    wc_pkey_fields *f) {
    if (!f || (!der && len)) return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "pkcs8: no data");
    memset(f, 0, sizeof *f);
    if (!asym(kind))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "pkcs8: not an asymmetric algorithm");
    return parse_result("pkcs8", parse_pkcs8(kind, der, len, f), f);
}

/* ======================================================================== */
/* Writer                                                                   */
/* ======================================================================== */

/* Writes backwards from the end of buf, so that each constructed value's
 * length is known (bytes written since its start mark) when its header is
 * prepended. With buf == NULL it only counts: the same code run twice gives
 * the exact size, then the bytes. Contents are therefore emitted last first. */
typedef struct writer {
    uint8_t *buf;
    size_t cap;
    size_t used;
    bool overflow;
} writer;

static void w_bytes(writer *w, const uint8_t *p, size_t n) {
    if (n == 0) return;
    if (w->buf) {
        if (n > w->cap - w->used) {
            w->overflow = true;
            return;
        }
        memcpy(w->buf + w->cap - w->used - n, p, n);
    }
    w->used += n;
}

static void w_byte(writer *w, uint8_t b) { w_bytes(w, &b, 1); }

static void w_zeros(writer *w, size_t n) {
    for (size_t i = 0; i < n; i++) w_byte(w, 0);
}

/* Prepends the identifier and the minimal definite length of contents
 * written since `mark`. */
static void w_header(writer *w, uint8_t tag, size_t mark) {
    size_t len = w->used - mark;
    if (len < 0x80) {
        w_byte(w, (uint8_t)len);
    } else {
        uint8_t k = 0;
        for (size_t l = len; l; l >>= 8, k++) w_byte(w, (uint8_t)(l & 0xff));
        w_byte(w, (uint8_t)(0x80 | k));
    }
    w_byte(w, tag);
}

/* The number of leading zero octets of v, counted without a branch on the
 * octets (they may be a secret's: every octet is read). */
static size_t leading_zeros(wc_bytes v) {
    size_t count = 0, still = 1;
    for (size_t i = 0; i < v.n; i++) {
        still &= (size_t)((((unsigned)v.p[i] - 1u) >> 8) & 1u); /* 1 while the octets are 0 */
        count += still;
    }
    return count;
}

/* Whether v's value fits `size` octets: its octets before the last `size`
 * are all zero. Computed without a branch on them; the answer is public
 * (the export fails or not). */
static bool fits_octets(wc_bytes v, size_t size) {
    if (v.n <= size) return true;
    unsigned any = 0;
    for (size_t i = 0; i < v.n - size; i++) any |= v.p[i];
    return !wc_ct_public_bool(any != 0);
}

/* INTEGER from an unsigned big-endian value: leading zeros stripped, one 00
 * added when the top bit is set (or the value is zero). The value may be
 * secret: how many zeros lead and whether the top bit is set are
 * declassified, as the INTEGER's length octets give both away. */
static void w_uint(writer *w, wc_bytes v) {
    size_t mark = w->used;
    size_t lead = wc_ct_public_size(leading_zeros(v));
    if (lead) { /* public; and an empty value's p may be NULL (no offset on NULL) */
        v.p += lead;
        v.n -= lead;
    }
    w_bytes(w, v.p, v.n);
    if (v.n == 0 || wc_ct_public_uint(v.p[0] >> 7)) w_byte(w, 0);
    w_header(w, TAG_INTEGER, mark);
}

/* An unsigned value left-padded with zeros to exactly `size` octets (an EC
 * private key: a secret, so nothing depends on its octets, only on v.n);
 * fits_octets(v, size) was checked. */
static void w_padded(writer *w, wc_bytes v, size_t size) {
    if (v.n >= size) {
        w_bytes(w, v.p + v.n - size, size);
    } else {
        w_bytes(w, v.p, v.n);
        w_zeros(w, size - v.n);
    }
}

static void w_oid(writer *w, const uint8_t *oid, size_t n) {
    size_t mark = w->used;
    w_bytes(w, oid, n);
    w_header(w, TAG_OID, mark);
}

/* AlgorithmIdentifier for the family (EC: id-ecPublicKey, also for ECDH keys,
 * as Node and Chrome write them). */
static void w_algorithm(writer *w, webcrypto_algorithm kind, const wc_pkey_fields *f) {
    size_t mark = w->used;
    const wc_alg_info *a = asym(kind);
    const wc_curve_info *c;
    switch (a->family) {
    case WC_FAMILY_RSA:
        w_byte(w, 0x00); /* NULL */
        w_byte(w, TAG_NULL);
        break;
    case WC_FAMILY_EC:
        if ((c = wc_curve(f->curve)) != NULL) w_oid(w, c->oid, c->oid_len);
        break;
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: break; /* parameters absent */
    WC_CASE_SECRET_FAMILIES: return;
    }
    w_oid(w, a->oid, a->oid_len);
    w_header(w, TAG_SEQUENCE, mark);
}

/* BIT STRING 00 04 || x || y: the uncompressed point. */
static void w_ec_point(writer *w, const wc_pkey_fields *f, uint8_t tag) {
    size_t fs = wc_curve_field_size(f->curve), mark = w->used;
    if (f->x.n) {
        w_padded(w, f->y, fs);
        w_padded(w, f->x, fs);
        w_byte(w, 0x04);
    } else {
        w_bytes(w, f->point.p, f->point.n); /* checked: uncompressed, 1 + 2 fs */
    }
    w_byte(w, 0x00); /* unused bits */
    w_header(w, tag, mark);
}

static void w_spki(writer *w, webcrypto_algorithm kind, const wc_pkey_fields *f) {
    size_t mark = w->used, bits;
    switch (asym(kind)->family) {
    case WC_FAMILY_RSA: {
        bits = w->used;
        size_t rsa = w->used;
        w_uint(w, f->e);
        w_uint(w, f->n);
        w_header(w, TAG_SEQUENCE, rsa);
        w_byte(w, 0x00);
        w_header(w, TAG_BIT_STRING, bits);
        break;
    }
    case WC_FAMILY_EC: w_ec_point(w, f, TAG_BIT_STRING); break;
    case WC_FAMILY_OKP:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        bits = w->used;
        w_bytes(w, f->x.p, f->x.n);
        w_byte(w, 0x00);
        w_header(w, TAG_BIT_STRING, bits);
        break;
    WC_CASE_SECRET_FAMILIES: break;
    }
    w_algorithm(w, kind, f);
    w_header(w, TAG_SEQUENCE, mark);
}

static void w_pkcs8(writer *w, webcrypto_algorithm kind, const wc_pkey_fields *f) {
    size_t mark = w->used, octets = w->used, inner;
    switch (asym(kind)->family) {
    case WC_FAMILY_RSA: {
        inner = w->used;
        if (f->oth_count) { /* otherPrimeInfos */
            size_t infos = w->used;
            for (size_t i = f->oth_count; i-- > 0;) {
                size_t info = w->used;
                w_uint(w, f->oth[i].t);
                w_uint(w, f->oth[i].d);
                w_uint(w, f->oth[i].r);
                w_header(w, TAG_SEQUENCE, info);
            }
            w_header(w, TAG_SEQUENCE, infos);
        }
        const wc_bytes *ints[] = {&f->n, &f->e, &f->d, &f->p, &f->q, &f->dp, &f->dq, &f->qi};
        for (size_t i = sizeof ints / sizeof ints[0]; i-- > 0;) w_uint(w, *ints[i]);
        /* version 0 (two-prime) or 1 (multi) */
        w_uint(w, f->oth_count ? (wc_bytes){(const uint8_t *)"\x01", 1} : (wc_bytes){NULL, 0});
        w_header(w, TAG_SEQUENCE, inner);
        break;
    }
    case WC_FAMILY_EC: {
        inner = w->used;
        if (f->x.n || f->point.n) { /* [1] publicKey; [0] parameters omitted (see top) */
            size_t ctx = w->used;
            w_ec_point(w, f, TAG_BIT_STRING);
            w_header(w, TAG_CTX1_CONS, ctx);
        }
        size_t d = w->used;
        w_padded(w, f->d, wc_curve_field_size(f->curve));
        w_header(w, TAG_OCTET_STRING, d);
        w_uint(w, (wc_bytes){(const uint8_t *)"\x01", 1}); /* version 1 */
        w_header(w, TAG_SEQUENCE, inner);
        break;
    }
    case WC_FAMILY_OKP:
        inner = w->used;
        w_bytes(w, f->d.p, f->d.n);
        w_header(w, TAG_OCTET_STRING, inner);
        break;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA: /* the seed form: [0] IMPLICIT OCTET STRING, as the draft says */
        inner = w->used;
        w_bytes(w, f->d.p, f->d.n);
        w_header(w, TAG_CTX0_PRIM, inner);
        break;
    WC_CASE_SECRET_FAMILIES: break;
    }
    w_header(w, TAG_OCTET_STRING, octets);
    w_algorithm(w, kind, f);
    w_uint(w, (wc_bytes){NULL, 0}); /* version 0 (v1) */
    w_header(w, TAG_SEQUENCE, mark);
}

/* Every value the writer copies is bounded, so sizes cannot overflow. */
#define WC_DER_MAX_FIELD 65536

static bool fits(wc_bytes v, size_t max) { return v.n <= max && (v.p || !v.n); }

static bool present(wc_bytes v) { return v.p && v.n && v.n <= WC_DER_MAX_FIELD; }

/* Checks f has what the encoding of kind needs, so w_* cannot go wrong. */
static const char *check_fields(webcrypto_algorithm kind, const wc_pkey_fields *f, bool priv) {
    const wc_alg_info *a = asym(kind);
    switch (a->family) {
    case WC_FAMILY_RSA:
        if (!present(f->n) || !present(f->e)) return "RSA key without n or e";
        if (priv && (!present(f->d) || !present(f->p) || !present(f->q) || !present(f->dp) ||
                     !present(f->dq) || !present(f->qi)))
            return "RSA private key incomplete";
        if (priv && f->oth_count > WC_RSA_MAX_PRIMES - 2) return "RSA key with too many primes";
        for (size_t i = 0; priv && i < f->oth_count; i++)
            if (!present(f->oth[i].r) || !present(f->oth[i].d) || !present(f->oth[i].t))
                return "RSA private key incomplete";
        return NULL;
    case WC_FAMILY_EC: {
        size_t fs = wc_curve_field_size(f->curve);
        if (!fs) return "EC key without a supported curve";
        bool have_xy = present(f->x) && present(f->y);
        bool have_point = f->point.p && f->point.n == 1 + 2 * fs && f->point.p[0] == 0x04;
        if (have_xy && (!fits_octets(f->x, fs) || !fits_octets(f->y, fs)))
            return "EC coordinate longer than the field";
        if (!have_xy && (f->x.n || f->y.n)) return "EC key with one coordinate";
        if (priv) {
            if (!present(f->d) || !fits_octets(f->d, fs))
                return "EC private key missing or too long";
            if (!have_xy && !have_point && f->point.n) return "EC point not uncompressed";
            return NULL;
        }
        if (!have_xy && !have_point) return "EC public key without an uncompressed point";
        return NULL;
    }
    case WC_FAMILY_OKP:
        if (priv)
            return present(f->d) && f->d.n == a->okp_key_len
                       ? NULL
                       : "private key is not of the curve's key length";
        return present(f->x) && f->x.n == a->okp_key_len
                   ? NULL
                   : "public key is not of the curve's key length";
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        if (priv)
            return present(f->d) && f->d.n == a->pq_seed_len
                       ? NULL
                       : "the seed is not of the parameter set's length";
        return present(f->x) && f->x.n == a->pq_public_len
                   ? NULL
                   : "public key is not of the parameter set's length";
    WC_CASE_SECRET_FAMILIES: break;
    }
    return "not an asymmetric algorithm";
}

static webcrypto_status encode_key(const char *what, webcrypto_algorithm kind,
                                   const wc_pkey_fields *f, bool priv, uint8_t **out,
                                   size_t *out_len) {
    if (!f || !out || !out_len) return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "%s: no key", what);
    if (!asym(kind))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s: not an asymmetric algorithm", what);
    const char *why = check_fields(kind, f, priv);
    if (!why && !(fits(f->x, WC_DER_MAX_FIELD) && fits(f->y, WC_DER_MAX_FIELD) &&
                  fits(f->point, WC_DER_MAX_FIELD)))
        why = "key field too long";
    if (why) return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: cannot encode: %s", what, why);

    writer w = {NULL, 0, 0, false};
    if (priv)
        w_pkcs8(&w, kind, f);
    else
        w_spki(&w, kind, f);
    w.cap = w.used;
    w.used = 0;
    w.buf = malloc(w.cap);
    if (!w.buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "%s: out of memory", what);
    if (priv)
        w_pkcs8(&w, kind, f);
    else
        w_spki(&w, kind, f);
    if (w.overflow || w.used != w.cap) { /* cannot happen: both passes run the same code */
        wc_wipe(w.buf, w.cap);
        free(w.buf);
        return wc_error(WEBCRYPTO_ERR_OPERATION, "%s: internal encoding error", what);
    }
    *out = w.buf;
    *out_len = w.cap;
    return WEBCRYPTO_OK;
}

webcrypto_status wc_der_write_spki(webcrypto_algorithm kind, const wc_pkey_fields *f,
                                   uint8_t **out, size_t *out_len) {
    return encode_key("spki", kind, f, false, out, out_len);
}

webcrypto_status wc_der_write_pkcs8(webcrypto_algorithm kind, const wc_pkey_fields *f,
                                    uint8_t **out, size_t *out_len) {
    return encode_key("pkcs8", kind, f, true, out, out_len);
}
