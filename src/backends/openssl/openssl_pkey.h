/*
 * openssl_pkey.h - what the openssl backend's asymmetric files share
 * (openssl_pkey.c, the dispatch and generation; openssl_pkey_common.c, the
 * key state and helpers; openssl_rsa.c, openssl_ec.c, openssl_okp.c): the
 * key state, the EC groups, and the helpers that cross files.
 */
#ifndef WEBCRYPTO_OPENSSL_PKEY_H
#define WEBCRYPTO_OPENSSL_PKEY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "core/backend.h"
#include "openssl_internal.h"

/* OpenSSL refuses a NULL message even when it is empty. */
#define BYTES_OR_EMPTY(p, n) ((n) ? (const unsigned char *)(p) : wc_ossl_empty_buf)

enum { MAX_FIELD = 66, MAX_OKP = 57 /* Ed448 */ };

/* Parameter names newer than the 3.0 headers this backend may be built
 * with, as strings (the running library decides whether it knows them; the
 * probes at init find out): the signature's context string (3.2:
 * OSSL_SIGNATURE_PARAM_CONTEXT_STRING) and an ML-KEM or ML-DSA key's seed
 * (3.5: OSSL_PKEY_PARAM_ML_KEM_SEED, OSSL_PKEY_PARAM_ML_DSA_SEED). */
#define WC_OSSL_PARAM_CONTEXT_STRING "context-string"
#define WC_OSSL_PARAM_PQ_SEED "seed"

typedef struct curve_info {
    const char *group_name;   /* OpenSSL's name, for OSSL_PKEY_PARAM_GROUP_NAME */
    int nid;
    size_t fs;                /* field size in bytes */
    EC_GROUP *group;          /* read-only after init */
    uint8_t p[MAX_FIELD];     /* the field prime, fs bytes big-endian */
    uint8_t order[MAX_FIELD]; /* the group order n, fs bytes big-endian */
} curve_info;
/* ---- key state ---- */

typedef enum key_type { KT_RSA, KT_EC, KT_OKP, KT_ML_KEM, KT_ML_DSA } key_type;

/* The wc_ossl_pkey_prepared signature contexts of a key: [op][scheme][hash], op 0 sign,
 * 1 verify. RSA: EVP_PKEY_CTX with padding, digest and (PSS) MGF1 digest set,
 * per scheme and hash; EC: an EVP_PKEY_CTX without a digest, in [op][0][0];
 * OKP: an EVP_MD_CTX after EVP_DigestSignInit / VerifyInit, in [op][0][0].
 * NULL until first made. */
enum { PREP_SIGN, PREP_VERIFY, PREP_OPS, PREP_SCHEMES = 2 };

typedef struct pkey_state {
    key_type type;
    EVP_PKEY *pkey;
    const curve_info *curve; /* EC */
    size_t size;             /* RSA: modulus bytes; EC: field size; OKP, ML-KEM, ML-DSA: public key bytes */
    wc_pkey_fields f;        /* pointers into mem */
    uint8_t *mem;
    size_t mem_len;
    _Atomic(void *) prep[PREP_OPS][PREP_SCHEMES][WC_HASH_COUNT];
} pkey_state;
/* ---- errors ---- */

/* ossl_fail's message, but DataError (a bad key rather than a failure). */
#define data_fail(what) wc_as_data_error(wc_ossl_fail(what))
/* ---- RSA-OAEP and EC points: the code shared with the boringssl backend ---- */

#define GLUE_FAIL(what) wc_ossl_fail(what)
#define GLUE_DATA_FAIL(what) data_fail(what)
#define GLUE_NO_MEMORY(what) wc_ossl_no_memory(what)
#define GLUE_PKEY_CTX_NEW(pkey) EVP_PKEY_CTX_new_from_pkey(NULL, (pkey), NULL)
#define GLUE_PKEY_CTX_NEW_NAME "EVP_PKEY_CTX_new_from_pkey"
#define GLUE_OAEP_LABEL_LEN(n) ((int)(n)) /* oaep_md checked n <= INT_MAX */
#define GLUE_BYTES(p, n) BYTES_OR_EMPTY(p, n)
#define OSSL_RSA_MAX_PRIMES 5 /* RSA_MAX_PRIME_NUM: its private key operations fail above */
#define RSA_MAX_MEMBERS (8 + 3 * (OSSL_RSA_MAX_PRIMES - 2))
/* What an RSA context is wc_ossl_pkey_prepared for; ECDSA's is {NULL, any}. */
typedef struct sig_setup {
    const EVP_MD *md;
    wc_rsa_scheme scheme;
} sig_setup;

/* openssl_pkey_common.c */
extern curve_info wc_ossl_pkey_curves[];
const curve_info *wc_ossl_pkey_curve_for(webcrypto_named_curve c);
void wc_ossl_pkey_state_free(pkey_state *s);
extern const char *const wc_ossl_rsa_names[RSA_MAX_MEMBERS];
webcrypto_status wc_ossl_rsa_read(const pkey_state *s, wc_pkey_fields *f, size_t from, size_t to,
                                  uint8_t *buf, size_t cap, uint8_t **alloc, size_t *used);
webcrypto_status wc_ossl_pkey_state_new(key_type type, EVP_PKEY *pkey, bool is_private,
                                        size_t oth_count, const curve_info *curve, void **state);
webcrypto_status wc_ossl_from_data(const char *name, int selection, OSSL_PARAM_BLD *bld,
                                   EVP_PKEY **out);
webcrypto_status wc_ossl_check_key(EVP_PKEY *pkey, int (*check)(EVP_PKEY_CTX *),
                                   const char *what);
BIGNUM *wc_ossl_bn_from(wc_bytes b, bool secret);
unsigned wc_ossl_ct_less(const uint8_t *a, const uint8_t *b, size_t n);
unsigned wc_ossl_ct_equals_small(const uint8_t *a, size_t n, uint8_t v);
unsigned wc_ossl_bn_bytes(const BIGNUM *bn, uint8_t *out, size_t k);
const char *wc_ossl_okp_name(wc_okp kind);
webcrypto_status wc_ossl_md_ctx_start(const pkey_state *s, const EVP_MD *md, bool sign,
                                      EVP_MD_CTX **out, EVP_PKEY_CTX **pctx);
webcrypto_status wc_ossl_md_ctx_with_context(const pkey_state *s, bool sign,
                                             const uint8_t *context, size_t context_len,
                                             EVP_MD_CTX **out);
_Atomic(void *) *wc_ossl_prep_slot(const pkey_state *s, bool sign, size_t scheme, size_t hash);
webcrypto_status wc_ossl_pkey_prepared(const pkey_state *s, _Atomic(void *) *slot, bool sign,
                                       const void *arg,
                                       webcrypto_status (*make)(const pkey_state *, bool, const void *,
                                       void **),
                                       void (*free_ctx)(void *), void **out);
void wc_ossl_md_ctx_free(void *c);
webcrypto_status wc_ossl_pkey_ctx_copy(const pkey_state *s, bool sign, wc_rsa_scheme scheme,
                                       wc_hash hash, const EVP_MD *md, EVP_PKEY_CTX **out);
webcrypto_status wc_ossl_hash_message(wc_hash hash, const uint8_t *msg, size_t len,
                                      uint8_t *out, size_t *out_len, const EVP_MD **md);
webcrypto_status wc_ossl_pkey_derive(const pkey_state *priv, const pkey_state *pub, uint8_t *out,
                                     size_t want);

/* openssl_rsa.c */
webcrypto_status wc_ossl_rsa_import(const wc_pkey_fields *f,
                                    void **state);
bool wc_ossl_rsa_kat(void);

/* openssl_ec.c */
webcrypto_status wc_ossl_ec_import(const wc_pkey_fields *f,
                                   void **state);
bool wc_ossl_ec_kat(void);

/* openssl_okp.c */
webcrypto_status wc_ossl_okp_import(wc_okp kind, const wc_pkey_fields *f, void **state);
bool wc_ossl_ed448_context_probe(void);
bool wc_ossl_okp_kat(wc_okp kind);

/* openssl_pq.c */
webcrypto_status wc_ossl_pq_import(wc_family family, unsigned member, const wc_pkey_fields *f,
                                   void **state);
webcrypto_status wc_ossl_pq_seed(const pkey_state *s, uint8_t *buf, size_t cap, wc_bytes *out);
void wc_ossl_pq_init(wc_caps *c);

#endif /* WEBCRYPTO_OPENSSL_PKEY_H */
