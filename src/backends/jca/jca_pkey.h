/*
 * jca_pkey.h - what the jca backend's asymmetric files share (jca_pkey.c:
 * key state, BigInteger, key specs, Signature engines, key agreement,
 * import dispatch and generation; jca_pkey_setup.c: init; jca_rsa.c,
 * jca_ec.c, jca_okp.c: the algorithms).
 */
#ifndef WEBCRYPTO_JCA_PKEY_H
#define WEBCRYPTO_JCA_PKEY_H

#include "jca_internal.h"

enum { MODE_SIGN = 1, MODE_VERIFY = 2 };
enum { OKP_LEN = 32, PKEY_FRAME = 128 };

static const char *const hash_jname[JCA_N_HASH] = {"SHA1",     "SHA256",   "SHA384", "SHA512",
                                                   "SHA3-256", "SHA3-384", "SHA3-512"};
static const char *const curve_jname[JCA_N_CURVE] = {NULL, "secp256r1", "secp384r1",
                                                     "secp521r1"};
static const size_t curve_fs[JCA_N_CURVE] = {0, 32, 48, 66};

/* RFC 8410 encodings around a raw 32-byte key: SubjectPublicKeyInfo and
 * PKCS #8 v1 (OneAsymmetricKey without attributes or public key). */
static const uint8_t spki_ed[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03,
                                    0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
static const uint8_t spki_x[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03,
                                   0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00};
static const uint8_t pkcs8_ed[16] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                     0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20};
static const uint8_t pkcs8_x[16] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                    0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20};

/* The key type (JCA_KT_*) of a family and member; false for none. */
static inline bool key_type_of(wc_family family, unsigned member, int *kt) {
    switch (family) {
    case WC_FAMILY_RSA: *kt = JCA_KT_RSA; return true;
    case WC_FAMILY_EC: *kt = JCA_KT_EC; return true;
    case WC_FAMILY_OKP:
        switch ((wc_okp)member) {
        case WC_OKP_ED25519: *kt = JCA_KT_ED; return true;
        case WC_OKP_X25519: *kt = JCA_KT_X; return true;
        case WC_OKP_ED448: /* capability unset: never called */
        case WC_OKP_X448: break;
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
    size_t size;       /* RSA: modulus bytes; EC: field size; OKP: 32 */
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
webcrypto_status jca_ec_public_key(jca_op *o, const jca_variant *v, const jca_curve *c, jobject x,
                                   jobject y, jobject *out);
webcrypto_status jca_new_sig(jca_op *o, jstring name, jobject prov, jobject *out);
webcrypto_status jca_sig_init(jca_op *o, jobject sig, int mode, jobject key,
                              const wc_hash *pss_hash, size_t salt);
webcrypto_status jca_sig_sign_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
                                  size_t *n);
webcrypto_status jca_sig_verify_raw(jca_op *o, jobject sig, const uint8_t *msg, size_t len,
                                    const uint8_t *sg, size_t sg_len, bool *valid, bool *broken);
webcrypto_status jca_sig_engine(jca_op *o, jca_sig *slot, jstring name, jobject prov,
                                const jca_pkey *s, int mode, const wc_hash *pss_hash,
                                size_t salt);
void jca_sig_drop(jca_op *o, jca_sig *slot);
webcrypto_status jca_agree(const jca_pkey *priv, const jca_pkey *pub, bool x25519, uint8_t *out,
                           size_t want);
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
webcrypto_status jca_pq_setup(jca_op *o, const jca_variant *v, uint64_t *caps);
webcrypto_status jca_pq_import(const jca_variant *v, wc_family family, unsigned member,
                               const wc_pkey_fields *f, void **state);

#endif
