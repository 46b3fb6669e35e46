/*
 * jca_pkey.h - what the jca backend's asymmetric files share (jca_pkey.c:
 * key state, BigInteger, key specs, Signature engines, key agreement,
 * import dispatch and generation; jca_pkey_setup.c: init; jca_rsa.c,
 * jca_ec.c, jca_okp.c: the algorithms).
 */
#ifndef WEBCRYPTO_JCA_PKEY_H
#define WEBCRYPTO_JCA_PKEY_H

#include <string.h>

#include "jca_internal.h"

enum { MODE_SIGN = 1, MODE_VERIFY = 2 };
/* OKP_LEN: X25519's and Ed25519's key length, for the code that is about
 * those two curves only; OKP_MAX: room for any OKP key. */
enum { OKP_LEN = 32, OKP_MAX = WC_OKP_MAX_KEY_LEN, PKEY_FRAME = 128 };

/* Indexed by wc_hash and by webcrypto_named_curve; the asserts make a new
 * member a build error here rather than a NULL name. */
static const char *const hash_jname[] = {"SHA1",     "SHA256",   "SHA384", "SHA512",
                                         "SHA3-256", "SHA3-384", "SHA3-512"};
_Static_assert(sizeof hash_jname / sizeof *hash_jname == JCA_N_HASH, "a JCA name per wc_hash");
static const char *const curve_jname[] = {NULL, "secp256r1", "secp384r1", "secp521r1"};
static const size_t curve_fs[] = {0, 32, 48, 66};
_Static_assert(sizeof curve_jname / sizeof *curve_jname == JCA_N_CURVE &&
                   sizeof curve_fs / sizeof *curve_fs == JCA_N_CURVE,
               "a JCA name and field size per curve");

/* An OKP key type's member (jca_internal.h: JCA_KT_OKP + member); false
 * for RSA, EC and ML-KEM/ML-DSA states (JCA_N_KT). */
static inline bool kt_okp(int kt, wc_okp *member) {
    if (kt < JCA_KT_OKP || kt >= JCA_N_KT) return false;
    *member = (wc_okp)(kt - JCA_KT_OKP);
    return true;
}
static inline bool kt_is_okp(int kt) {
    wc_okp m;
    return kt_okp(kt, &m);
}
static inline bool kt_signs(int kt) {
    wc_okp m;
    return kt_okp(kt, &m) && wc_okp_sig_len(m) > 0;
}
/* An OKP key type's key length (backend.h's, from the table's facts). */
static inline size_t okp_len(int kt) {
    wc_okp m;
    return kt_okp(kt, &m) ? wc_okp_key_len(m) : 0;
}
/* The key type's label, for messages and the JCA algorithm names. */
static inline const char *kt_label(int kt) {
    wc_okp m;
    if (kt_okp(kt, &m)) return wc_okp_name(m);
    return kt == JCA_KT_RSA ? "RSA" : kt == JCA_KT_EC ? "EC" : "?";
}
/* The last arc of the RFC 8410 OID 1.3.101.x. */
static inline uint8_t okp_oid(int kt) {
    wc_okp m;
    return kt_okp(kt, &m) ? (uint8_t)wc_okp_oid_arc(m) : 0;
}

/* The RFC 8410 encoding around a raw key of okp_len(kt) bytes, into h:
 * SubjectPublicKeyInfo (12 bytes) or PKCS #8 v1 (OneAsymmetricKey without
 * attributes or public key; 16 bytes). Returns the header's length. */
static inline size_t okp_header(int kt, bool priv, uint8_t h[16]) {
    uint8_t L = (uint8_t)okp_len(kt), oid = okp_oid(kt);
    if (!priv) {
        const uint8_t spki[12] = {0x30, (uint8_t)(L + 10), 0x30, 0x05, 0x06, 0x03,
                                  0x2b, 0x65, oid, 0x03, (uint8_t)(L + 1), 0x00};
        memcpy(h, spki, 12);
        return 12;
    }
    const uint8_t p8[16] = {0x30, (uint8_t)(L + 14), 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                            0x03, 0x2b, 0x65, oid, 0x04, (uint8_t)(L + 2), 0x04, L};
    memcpy(h, p8, 16);
    return 16;
}

/* The key type (JCA_KT_*) of a family and member; false for none. */
static inline bool key_type_of(wc_family family, unsigned member, int *kt) {
    switch (family) {
    case WC_FAMILY_RSA: *kt = JCA_KT_RSA; return true;
    case WC_FAMILY_EC: *kt = JCA_KT_EC; return true;
    case WC_FAMILY_OKP:
        switch ((wc_okp)member) {
        case WC_OKP_ED25519: *kt = JCA_KT_ED; return true;
        case WC_OKP_X25519: *kt = JCA_KT_X; return true;
        case WC_OKP_ED448: *kt = JCA_KT_ED448; return true;
        case WC_OKP_X448: *kt = JCA_KT_X448; return true;
        case WC_OKP_COUNT: break;
        }
        break;
    case WC_FAMILY_DIGEST:
    case WC_FAMILY_HMAC:
    case WC_FAMILY_CIPHER:
    case WC_FAMILY_AEAD:
    case WC_FAMILY_KEYWRAP:
    case WC_FAMILY_KDF:
    case WC_FAMILY_ML_KEM: /* jca_pq.c: keys from seeds, apart from these types */
    case WC_FAMILY_ML_DSA: break;
    case WC_FAMILY_XOF:
    case WC_FAMILY_KMAC: break;
    }
    return false;
}

typedef struct jca_pkey {
    int type; /* JCA_KT_* */
    const jca_variant *v;
    uint64_t id;       /* never reused: the per-thread engines remember it */
    jobject key;       /* PublicKey or PrivateKey, global */
    const jca_curve *curve;
    size_t size;       /* RSA: modulus bytes; EC: field size; OKP: okp_len */
    wc_pkey_fields f;  /* pointers into mem */
    uint8_t *mem;
    size_t mem_len;
} jca_pkey;

void jca_state_free(jca_pkey *s);
jca_pkey *jca_state_new(const jca_variant *v, int kt, bool is_private);
webcrypto_status jca_keep_fields(jca_pkey *s, wc_bytes *const dst[], const wc_bytes src[],
                                 int count, bool strip);
webcrypto_status jca_keep_key(jca_op *o, jca_pkey *s, jobject local);
webcrypto_status jca_bi_from(jca_op *o, const uint8_t *p, size_t n, bool secret, jobject *out);
webcrypto_status jca_bi_op(jca_op *o, jobject b, jmethodID m, jobject x, jobject y, jobject *out);
webcrypto_status jca_bi_eq(jca_op *o, jobject a, jobject b, bool *eq);
webcrypto_status jca_bi_to(jca_op *o, jobject b, bool secret, size_t fixed, uint8_t *out,
                           uint8_t **heap, size_t *len);
webcrypto_status jca_key_factory(jca_op *o, const jca_variant *v, int kt, jobject *kf);
webcrypto_status jca_gen_key(jca_op *o, jobject kf, jobject spec, bool priv, jobject *out);
webcrypto_status jca_okp_key(jca_op *o, const jca_variant *v, int kt, bool priv, const uint8_t *raw,
                             jobject *out);
/* The raw key inside an OKP key's DER (spki, or PKCS #8 v1 or v2); false if
 * the DER is not of that shape. */
bool jca_okp_raw(const uint8_t *der, size_t n, bool priv, int kt, uint8_t out[OKP_MAX]);
/* key.getEncoded() into buf (cap bytes); wipes the Java copy if secret. */
webcrypto_status jca_encoded(jca_op *o, jobject key, bool secret, uint8_t *buf, size_t cap,
                             size_t *n);
webcrypto_status jca_ec_public_key(jca_op *o, const jca_variant *v, const jca_curve *c, jobject x,
                                   jobject y, jobject *out);
webcrypto_status jca_new_sig(jca_op *o, jstring name, jobject prov, jobject *out);
/* key_refused: NULL, or (verify of Ed25519 / Ed448 only) where an
 * InvalidKeyException of initVerify is "does not verify"
 * (jca_exception_verify_key): set, OK returned, the engine not initialised. */
webcrypto_status jca_sig_init(jca_op *o, jobject sig, int mode, jobject key,
                              const wc_hash *pss_hash, size_t salt, bool *key_refused);
webcrypto_status jca_sig_sign_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
                                  size_t *n);
webcrypto_status jca_sig_verify_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
                                    const uint8_t *sg, size_t sg_len, bool *valid, bool *broken);
webcrypto_status jca_sig_engine(jca_op *o, jca_sig *slot, jstring name, jobject prov,
                                const jca_pkey *s, int mode, const wc_hash *pss_hash,
                                size_t salt, bool *key_refused);
void jca_sig_drop(jca_op *o, jca_sig *slot);
/* ECDH (kt JCA_KT_EC), X25519 or X448 (the keys' type) into out. */
webcrypto_status jca_agree(const jca_pkey *priv, const jca_pkey *pub, uint8_t *out, size_t want);
size_t jca_bit_len(wc_bytes b);
webcrypto_status jca_rsa_import(jca_op *o, const jca_variant *v, int kt,
                                const wc_pkey_fields *f, void **state);
webcrypto_status jca_pair_check(jca_op *o, jstring name, jobject prov, jobject priv, jobject pub,
                                bool *ok);
webcrypto_status jca_ec_import(jca_op *o, const jca_variant *v, int kt,
                               const wc_pkey_fields *f, void **state);
webcrypto_status jca_okp_import(jca_op *o, const jca_variant *v, int kt,
                                const wc_pkey_fields *f, void **state);

/* jca_pq.c: ML-KEM and ML-DSA (JDK 24+). setup adds their WC_CAP bits when
 * the variant's JVM and provider have them. */
webcrypto_status jca_pq_setup(jca_op *o, const jca_variant *v, wc_caps *caps);
/* jca_okp.c: Ed448 and X448, probed with RFC 8032 7.4 and RFC 7748 6.2
 * (pk's Ed448/X448 providers and names set); adds their WC_CAP bits. */
webcrypto_status jca_okp448_setup(jca_op *o, jca_variant *v, wc_caps *caps);
/* WebcryptoSeedRandom (jca_pq.c): whether this JVM has it (resolved once),
 * and a key pair from a KeyPairGenerator drawing exactly the n bytes of
 * seed (initialize(spec, random), or initialize(keysize, random) when spec
 * is NULL). */
bool jca_seed_ready(JNIEnv *env);
webcrypto_status jca_seed_pair(jca_op *o, jobject kpg, jobject spec, int keysize,
                               const uint8_t *seed, size_t n, const char *what, jobject *kp);
webcrypto_status jca_pq_import(const jca_variant *v, wc_family family, unsigned member,
                               const wc_pkey_fields *f, void **state);

#endif
