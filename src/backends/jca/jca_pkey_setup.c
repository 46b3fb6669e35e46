/*
 * jca_pkey_setup.c - the jca backend's asymmetric init: the providers and Java
 * names of every engine, each curve's parameters and constants, probes.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_pkey.h"

/* ---- init: providers, names, curves ---- */

static jstring gstr(jca_op *o, const char *s, webcrypto_status *st) {
    return jca_global_string(o, s, st);
}

/* Whether a Signature of this name takes PSSParameterSpec with this hash
 * (no key needed: the providers check the digest when the parameters are
 * set). */
static bool pss_works(jca_op *o, const jca_variant *v, wc_hash hash) {
    jobject sig = NULL;
    if (!jca.mgf1[hash]) return false;
    if (jca_new_sig(o, v->pk.pss_name, v->pk.pss_prov, &sig) != WEBCRYPTO_OK) return false;
    jstring md = (*o->env)->NewStringUTF(o->env, md_names[hash]);
    if ((*o->env)->ExceptionCheck(o->env) || !md) {
        jca_exception(o->env, "NewStringUTF");
        return false;
    }
    jobject spec = (*o->env)->NewObject(o->env, jca.PSSParameterSpec, jca.pss_new, md,
                                        v->pk.mgf1_name, jca.mgf1[hash], 32, 1);
    if ((*o->env)->ExceptionCheck(o->env) || !spec) {
        jca_exception(o->env, "new PSSParameterSpec");
        return false;
    }
    (*o->env)->CallVoidMethod(o->env, sig, jca.sig_set_param, spec);
    if ((*o->env)->ExceptionCheck(o->env)) {
        jca_exception(o->env, "Signature.setParameter");
        return false;
    }
    return true;
}

/* A curve's ECParameterSpec from the variant's AlgorithmParameters "EC",
 * and the constants taken from it. */
static webcrypto_status curve_setup(jca_op *o, jca_variant *v, jobject ap_prov, int ci) {
    jca_curve *c = &v->pk.curve[ci];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject ap = NULL, gen = NULL, spec = NULL, curve = NULL, field = NULL, n = NULL, g = NULL,
            gx = NULL, gy = NULL, t = NULL;
    jstring name = NULL;
    c->fs = curve_fs[ci];
    if ((st = jca_get_instance(o, jca.AlgorithmParameters, jca.ap_get, jca.ap_get_p,
                               v->pk.kt_name[JCA_KT_EC], ap_prov, &ap)) != WEBCRYPTO_OK)
        return st;
    name = (*o->env)->NewStringUTF(o->env, curve_jname[ci]);
    JCHECK(o, "NewStringUTF");
    gen = (*o->env)->NewObject(o->env, jca.ECGenParameterSpec, jca.ec_gen_new, name);
    JCHECK(o, "new ECGenParameterSpec");
    (*o->env)->CallVoidMethod(o->env, ap, jca.ap_init, gen);
    JCHECK(o, "AlgorithmParameters.init");
    spec = (*o->env)->CallObjectMethod(o->env, ap, jca.ap_spec, jca.ECParameterSpec);
    JCHECK(o, "AlgorithmParameters.getParameterSpec");
    curve = (*o->env)->CallObjectMethod(o->env, spec, jca.ecps_curve);
    JCHECK(o, "ECParameterSpec.getCurve");
    field = (*o->env)->CallObjectMethod(o->env, curve, jca.curve_field);
    JCHECK(o, "EllipticCurve.getField");
    if (!(*o->env)->IsInstanceOf(o->env, field, jca.ECFieldFp)) {
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s is not over a prime field",
                      curve_jname[ci]);
        goto done;
    }
    jobject p = (*o->env)->CallObjectMethod(o->env, field, jca.fp_p);
    JCHECK(o, "ECFieldFp.getP");
    jobject a = (*o->env)->CallObjectMethod(o->env, curve, jca.curve_a);
    JCHECK(o, "EllipticCurve.getA");
    jobject b = (*o->env)->CallObjectMethod(o->env, curve, jca.curve_b);
    JCHECK(o, "EllipticCurve.getB");
    n = (*o->env)->CallObjectMethod(o->env, spec, jca.ecps_order);
    JCHECK(o, "ECParameterSpec.getOrder");
    if ((st = jca_bi_to(o, p, false, c->fs, c->p_bytes, NULL, NULL)) != WEBCRYPTO_OK ||
        (st = jca_bi_to(o, n, false, c->fs, c->n_bytes, NULL, NULL)) != WEBCRYPTO_OK)
        goto done;
    if ((c->p_bytes[c->fs - 1] & 3) != 3) {
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s: p is not 3 mod 4", curve_jname[ci]);
        goto done;
    }
    /* (p + 1) / 4 = (p >> 2) + 1 for p = 3 mod 4 */
    uint8_t e[JCA_MAX_FIELD];
    unsigned carry = 0;
    for (size_t i = 0; i < c->fs; i++) {
        unsigned cur = c->p_bytes[i];
        e[i] = (uint8_t)((carry << 6) | (cur >> 2));
        carry = cur & 3;
    }
    for (size_t i = c->fs; i-- > 0;)
        if (++e[i] != 0) break;
    if ((st = jca_bi_from(o, e, c->fs, false, &t)) != WEBCRYPTO_OK) goto done;
    /* The generator as a public key: x(dG) through ECDH. */
    g = (*o->env)->CallObjectMethod(o->env, spec, jca.ecps_generator);
    JCHECK(o, "ECParameterSpec.getGenerator");
    gx = (*o->env)->CallObjectMethod(o->env, g, jca.point_x);
    JCHECK(o, "ECPoint.getAffineX");
    gy = (*o->env)->CallObjectMethod(o->env, g, jca.point_y);
    JCHECK(o, "ECPoint.getAffineY");
    c->params = jca_global(o->env, spec); /* ec_public_key needs it */
    jobject gpub = NULL;
    if (c->params && v->pk.kf_prov[JCA_KT_EC])
        st = jca_ec_public_key(o, v, c, gx, gy, &gpub);
    if (st != WEBCRYPTO_OK) goto done;
    c->g_pub = jca_global(o->env, gpub);
    c->p = jca_global(o->env, p);
    c->a = jca_global(o->env, a);
    c->b = jca_global(o->env, b);
    c->sqrt_exp = jca_global(o->env, t);
    if (!c->params || (gpub && !c->g_pub) || !c->p || !c->a || !c->b || !c->sqrt_exp)
        st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "jca: NewGlobalRef failed");
done:
    return st;
}

/* A provider for cls/name, or NULL; each lookup in its own local frame. */
static jobject probe(jca_op *o, const jca_variant *v, jclass cls, jmethodID get, jmethodID get_p,
                     jmethodID getp, jstring name) {
    if (!name) return NULL;
    if ((*o->env)->PushLocalFrame(o->env, 16) != 0) {
        jca_exception(o->env, "PushLocalFrame");
        return NULL;
    }
    jobject r = jca_probe_provider(o, v, cls, get, get_p, getp, name, true);
    (*o->env)->PopLocalFrame(o->env, NULL);
    return r;
}

webcrypto_status jca_pkey_setup(jca_op *o, jca_variant *v, wc_caps *caps) {
    jca_pkey_variant *pk = &v->pk;
    webcrypto_status st = WEBCRYPTO_OK;
    /* "RSA", "EC" and the OKP members' names, the JCA's algorithm names */
    for (int k = 0; k < JCA_N_KT; k++) pk->kt_name[k] = gstr(o, kt_label(k), &st);
    char buf[64];
    for (int h = 0; h < JCA_N_HASH; h++) {
        snprintf(buf, sizeof buf, "%swithRSA", hash_jname[h]);
        pk->rsa_name[h] = gstr(o, buf, &st);
    }
    pk->pss_name = gstr(o, "RSASSA-PSS", &st);
    pk->ed_name = gstr(o, "Ed25519", &st);
    pk->oaep_name = gstr(o, "RSA/ECB/OAEPPadding", &st);
    pk->ecdh_name = gstr(o, "ECDH", &st);
    pk->x_name = gstr(o, "X25519", &st);
    pk->ed448_name = gstr(o, "Ed448", &st);
    pk->x448_name = gstr(o, "X448", &st);
    pk->mgf1_name = gstr(o, "MGF1", &st);
    if (st != WEBCRYPTO_OK) return st;

    for (int k = 0; k < JCA_N_KT; k++) {
        pk->kf_prov[k] = probe(o, v, jca.KeyFactory, jca.kf_get, jca.kf_get_p, jca.kf_provider,
                               pk->kt_name[k]);
        pk->kpg_prov[k] = probe(o, v, jca.KeyPairGenerator, jca.kpg_get, jca.kpg_get_p,
                                jca.kpg_provider, pk->kt_name[k]);
    }
    /* *_all: every SHA-1/SHA-2 hash (the algorithm's bit); *_sha3: every
     * SHA-3 hash too (its WC_CAP_SHA3_* bit). */
    bool rsa_all = true, ecdsa_all = true, rsa_sha3 = true, ecdsa_sha3 = true;
    for (int h = 0; h < JCA_N_HASH; h++) {
        bool sha3 = wc_hash_is_sha3((wc_hash)h);
        pk->rsa_prov[h] = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                                pk->rsa_name[h]);
        if (sha3) rsa_sha3 = rsa_sha3 && pk->rsa_prov[h];
        else rsa_all = rsa_all && pk->rsa_prov[h];
        /* ECDSA with r || s: the JDK's name, BouncyCastle's, else DER
         * converted here. */
        static const char *const forms[3] = {"withECDSAinP1363Format", "withPLAIN-ECDSA",
                                             "withECDSA"};
        for (int f = 0; f < 3 && !pk->ecdsa_prov[h]; f++) {
            snprintf(buf, sizeof buf, "%s%s", hash_jname[h], forms[f]);
            jstring name = gstr(o, buf, &st);
            if (st != WEBCRYPTO_OK) return st;
            pk->ecdsa_prov[h] = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p,
                                      jca.sig_provider, name);
            if (pk->ecdsa_prov[h]) {
                pk->ecdsa_name[h] = name;
                pk->ecdsa_der[h] = f == 2;
            } else {
                jca_global_free(o->env, name);
            }
        }
        if (sha3) ecdsa_sha3 = ecdsa_sha3 && pk->ecdsa_prov[h];
        else ecdsa_all = ecdsa_all && pk->ecdsa_prov[h];
    }
    pk->pss_prov = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                         pk->pss_name);
    pk->ed_prov = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                        pk->ed_name);
    pk->oaep_prov = probe(o, v, jca.Cipher, jca.c_get, jca.c_get_p, jca.c_provider, pk->oaep_name);
    pk->ecdh_prov = probe(o, v, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, jca.ka_provider,
                          pk->ecdh_name);
    pk->x_prov = probe(o, v, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, jca.ka_provider,
                       pk->x_name);
    pk->ed448_prov = probe(o, v, jca.Signature, jca.sig_get, jca.sig_get_p, jca.sig_provider,
                           pk->ed448_name);
    pk->x448_prov = probe(o, v, jca.KeyAgreement, jca.ka_get, jca.ka_get_p, jca.ka_provider,
                          pk->x448_name);
    bool pss_sha3 = false;
    if (pk->pss_prov) {
        if ((*o->env)->PushLocalFrame(o->env, 16) != 0) return jca_exception(o->env, "PushLocalFrame");
        bool ok = pss_works(o, v, WC_HASH_SHA_256);
        pss_sha3 = ok && pss_works(o, v, WC_HASH_SHA3_256) && pss_works(o, v, WC_HASH_SHA3_384) &&
                   pss_works(o, v, WC_HASH_SHA3_512);
        (*o->env)->ExceptionClear(o->env);
        (*o->env)->PopLocalFrame(o->env, NULL);
        if (!ok) {
            jca_global_free(o->env, pk->pss_prov);
            pk->pss_prov = NULL;
        }
    }

    /* Curves, from the provider of the EC keys. */
    jobject ap_prov = probe(o, v, jca.AlgorithmParameters, jca.ap_get, jca.ap_get_p,
                            jca.ap_provider, pk->kt_name[JCA_KT_EC]);
    bool curves = ap_prov && pk->kf_prov[JCA_KT_EC] && pk->kpg_prov[JCA_KT_EC];
    webcrypto_status failed = WEBCRYPTO_OK; /* out of memory: after ap_prov is freed */
    for (int ci = 1; curves && ci < JCA_N_CURVE; ci++) {
        if ((*o->env)->PushLocalFrame(o->env, 64) != 0) {
            failed = jca_exception(o->env, "PushLocalFrame");
            break;
        }
        webcrypto_status cs = curve_setup(o, v, ap_prov, ci);
        (*o->env)->PopLocalFrame(o->env, NULL);
        if (cs == WEBCRYPTO_ERR_NO_MEMORY) {
            failed = cs;
            break;
        }
        if (cs != WEBCRYPTO_OK) curves = false;
    }
    jca_global_free(o->env, ap_prov);
    if (failed != WEBCRYPTO_OK) return failed;

    /* OKP helpers: the X25519 base point, 2^255 - 19 and 1. */
    bool okp = false;
    if (pk->x_prov && pk->kf_prov[JCA_KT_X]) {
        if ((*o->env)->PushLocalFrame(o->env, 32) != 0) return jca_exception(o->env, "PushLocalFrame");
        static const uint8_t nine[OKP_LEN] = {9};
        uint8_t p25519[OKP_LEN];
        memset(p25519, 0xff, sizeof p25519);
        p25519[0] = 0x7f;
        p25519[OKP_LEN - 1] = 0xed;
        static const uint8_t one[1] = {1};
        jobject base = NULL, bp = NULL, b1 = NULL;
        if (jca_okp_key(o, v, JCA_KT_X, false, nine, &base) == WEBCRYPTO_OK &&
            jca_bi_from(o, p25519, OKP_LEN, false, &bp) == WEBCRYPTO_OK &&
            jca_bi_from(o, one, 1, false, &b1) == WEBCRYPTO_OK) {
            pk->x_base = jca_global(o->env, base);
            pk->ed_p = jca_global(o->env, bp);
            pk->one = jca_global(o->env, b1);
            okp = pk->x_base && pk->ed_p && pk->one;
        }
        (*o->env)->PopLocalFrame(o->env, NULL);
    }

    bool rsa_keys = pk->kf_prov[JCA_KT_RSA] && pk->kpg_prov[JCA_KT_RSA];
    wc_caps *c = caps;
    if (rsa_keys && rsa_all) wc_caps_add(c, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    if (rsa_keys && pk->pss_prov) wc_caps_add(c, WEBCRYPTO_ALG_RSA_PSS);
    if (rsa_keys && pk->oaep_prov) wc_caps_add(c, WEBCRYPTO_ALG_RSA_OAEP);
    /* SHA-3 with RSA and ECDSA (JDK 16+: SHA3-*withRSA, SHA3-*withECDSA and
     * their P1363 forms, PSS with SHA-3 MGF1; BouncyCastle: the same names).
     * OAEP needs a key to probe: its digest and MGF1 are looked up by name
     * at Cipher.init, so it has SHA-3 where the digests and MGF1's SHA-3
     * specs are (tests/test_sha3.c checks each backend that claims it). */
    bool sha3_md = v->md_prov[WC_HASH_SHA3_256] && v->md_prov[WC_HASH_SHA3_384] &&
                   v->md_prov[WC_HASH_SHA3_512];
    bool sha3_mgf1 = jca.mgf1[WC_HASH_SHA3_256] && jca.mgf1[WC_HASH_SHA3_384] &&
                     jca.mgf1[WC_HASH_SHA3_512];
    if (rsa_sha3) c->features |= WC_CAP_SHA3_RSASSA_PKCS1_V1_5;
    if (pss_sha3) c->features |= WC_CAP_SHA3_RSA_PSS;
    if (pk->oaep_prov && sha3_md && sha3_mgf1) c->features |= WC_CAP_SHA3_RSA_OAEP;
    if (ecdsa_sha3) c->features |= WC_CAP_SHA3_ECDSA;
    /* EC imports check a private key against its public point with an
     * ECDSA signature, and compute a missing one through ECDH: both needed. */
    if (curves && ecdsa_all && pk->ecdh_prov)
        wc_caps_add_all(c, WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH);
    /* Ed25519 private keys get their public key through X25519 and SHA-512. */
    if (pk->kf_prov[JCA_KT_ED] && pk->kpg_prov[JCA_KT_ED] && pk->ed_prov && okp &&
        v->md_prov[WC_HASH_SHA_512])
        wc_caps_add(c, WEBCRYPTO_ALG_ED25519);
    if (pk->kpg_prov[JCA_KT_X] && okp) wc_caps_add(c, WEBCRYPTO_ALG_X25519);
    /* Ed448 and X448: the engines and known answers (jca_okp.c). */
    if ((st = jca_okp448_setup(o, v, c)) != WEBCRYPTO_OK) return st;
    return jca_pq_setup(o, v, caps); /* ML-KEM, ML-DSA: JDK 24+ */
}

void jca_pkey_variant_free(JNIEnv *env, jca_pkey_variant *pk) {
    for (int k = 0; k < JCA_N_KT; k++) {
        jca_global_free(env, pk->kf_prov[k]);
        jca_global_free(env, pk->kpg_prov[k]);
        jca_global_free(env, pk->kt_name[k]);
    }
    for (int h = 0; h < JCA_N_HASH; h++) {
        jca_global_free(env, pk->rsa_prov[h]);
        jca_global_free(env, pk->rsa_name[h]);
        jca_global_free(env, pk->ecdsa_prov[h]);
        jca_global_free(env, pk->ecdsa_name[h]);
    }
    jobject one_each[] = {pk->pss_prov, pk->pss_name, pk->ed_prov,   pk->ed_name,
                          pk->oaep_prov, pk->ecdh_prov, pk->x_prov,  pk->oaep_name,
                          pk->ecdh_name, pk->x_name,    pk->mgf1_name, pk->x_base,
                          pk->ed_p,      pk->one,       pk->ed448_prov, pk->ed448_name,
                          pk->x448_prov, pk->x448_name, pk->x448_base};
    for (size_t i = 0; i < sizeof one_each / sizeof one_each[0]; i++)
        jca_global_free(env, one_each[i]);
    for (int ci = 0; ci < JCA_N_CURVE; ci++) {
        jca_curve *c = &pk->curve[ci];
        jobject refs[] = {c->params, c->p, c->a, c->b, c->sqrt_exp, c->g_pub};
        for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) jca_global_free(env, refs[i]);
    }
    memset(pk, 0, sizeof *pk);
}
