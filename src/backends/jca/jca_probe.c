/*
 * jca_probe.c - what init asks a variant's providers: a provider's
 * "NAME VERSION", the known answers and behaviours init probes once
 * (GCM-SIV against RFC 8452, AES-KW against RFC 3394, GCM's short tags,
 * which AEAD decryptions buffer the whole message), and the variant's PRF
 * key. jca_backend.c's variant_setup calls them; they call only the
 * scaffolding (jca_op.c), jca_jvm.c and jca_cipher.c's jca_aead_spec.
 */
#include <stdio.h>
#include <string.h>

#include "jca_internal.h"

static void jca_string_of(jca_op *o, jstring s, char *out, size_t cap) {
    snprintf(out, cap, "?");
    if (!s) return;
    const char *u = (*o->env)->GetStringUTFChars(o->env, s, NULL);
    if (!u) {
        (*o->env)->ExceptionClear(o->env);
        return;
    }
    snprintf(out, cap, "%s", u);
    (*o->env)->ReleaseStringUTFChars(o->env, s, u);
}

/* "NAME VERSION" of a provider. */
void jca_provider_label(jca_op *o, jobject p, char *out, size_t cap) {
    char name[64] = "?", version[32] = "?";
    jstring s = (*o->env)->CallObjectMethod(o->env, p, jca.prov_name);
    if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
    else jca_string_of(o, s, name, sizeof name);
    s = (*o->env)->CallObjectMethod(o->env, p, jca.prov_version);
    if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
    else jca_string_of(o, s, version, sizeof version);
    snprintf(out, cap, "%s %s", name, version);
}

/* RFC 8452 appendix C.1, AEAD_AES_128_GCM_SIV, the 8-byte plaintext case:
 * a provider that returns plain GCM under this name fails it. */
bool jca_probe_siv(jca_op *o, const jca_variant *v) {
    static const uint8_t key[16] = {1};
    static const uint8_t nonce[12] = {3};
    static const uint8_t pt[8] = {1};
    static const uint8_t expect[24] = {0xb5, 0xd8, 0x39, 0x33, 0x0a, 0xc7, 0xb7, 0x86,
                                       0x57, 0x87, 0x82, 0xff, 0xf6, 0x01, 0x3b, 0x81,
                                       0x5b, 0x28, 0x7c, 0x22, 0x49, 0x3a, 0x36, 0x4c};
    uint8_t got[24];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL, in = NULL, out = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, v->siv_name, v->siv_prov, &c) ||
        jca_key_spec(o, key, sizeof key, v->aes_name, &spec) || jca_new_array(o, nonce, 12, &n) ||
        jca_new_array(o, pt, 8, &in) || jca_new_array(o, NULL, 24, &out))
        return false;
    params = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new, 128, n, 0, 12);
    JCHECK(o, "new GCMParameterSpec");
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, ENCRYPT_MODE, spec, params);
    JCHECK(o, "AES/GCM-SIV init");
    jint len = (*o->env)->CallIntMethod(o->env, c, jca.c_final, in, 0, 8, out, 0);
    JCHECK(o, "AES/GCM-SIV doFinal");
    if (len != 24 || jca_get_bytes(o, out, 0, 24, got) != WEBCRYPTO_OK) return false;
    return memcmp(got, expect, sizeof got) == 0;
done:
    (void)st;
    return false;
}

/* Whether GCM takes 32-bit tags (SunJCE allows only 96..128 bits). */
bool jca_probe_gcm_short_tags(jca_op *o, const jca_variant *v) {
    static const uint8_t key[16], iv[12];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, v->gcm_name, v->gcm_prov, &c) ||
        jca_key_spec(o, key, sizeof key, v->aes_name, &spec) || jca_new_array(o, iv, 12, &n))
        return false;
    params = (*o->env)->NewObject(o->env, jca.GCMParameterSpec, jca.gcm_new, 32, n, 0, 12);
    JCHECK(o, "new GCMParameterSpec");
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, ENCRYPT_MODE, spec, params);
    JCHECK(o, "AES/GCM init with a 32-bit tag");
    return true;
done:
    (void)st;
    return false;
}

/* Whether the AEAD engine `name` buffers a decryption until doFinal (SunJCE's
 * GCM, so as to release nothing unauthenticated; GCM-SIV must): update() of
 * 64 bytes returns nothing. A streaming engine (BouncyCastle's GCM returns
 * all but a tag's length) keeps the chunked path and its flat memory. */
bool jca_probe_dec_whole(jca_op *o, const jca_variant *v, wc_aead kind, jstring name,
                         jobject prov) {
    static const uint8_t key[32], iv[12];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL, params = NULL;
    jbyteArray n = NULL, in = NULL, out = NULL;
    bool cc = kind == WC_AEAD_CHACHA20_POLY1305;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, name, prov, &c) ||
        jca_key_spec(o, key, cc ? 32 : 16, cc ? v->cc_key_name : v->aes_name, &spec) ||
        jca_new_array(o, iv, 12, &n) || jca_new_array(o, NULL, 64, &in) ||
        jca_new_array(o, NULL, 64 + JCA_OUT_SLACK, &out) ||
        jca_aead_spec(o, kind, n, 12, 16, &params))
        return false;
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, DECRYPT_MODE, spec, params);
    JCHECK(o, "AEAD init (decrypt)");
    jint got = (*o->env)->CallIntMethod(o->env, c, jca.c_update, in, 0, 64, out, 0);
    JCHECK(o, "AEAD update (decrypt)");
    (*o->env)->DeleteLocalRef(o->env, c);
    (*o->env)->DeleteLocalRef(o->env, spec);
    (*o->env)->DeleteLocalRef(o->env, params);
    (*o->env)->DeleteLocalRef(o->env, n);
    (*o->env)->DeleteLocalRef(o->env, in);
    (*o->env)->DeleteLocalRef(o->env, out);
    return got == 0;
done:
    (void)st;
    return false;
}

/* RFC 3394 section 4.1 (128-bit KEK, 128-bit key data) through the
 * provider's AESWrap in ENCRYPT_MODE (the raw-bytes interface WebCrypto's
 * wrapKey needs; SunJCE has it since JDK 17). */
bool jca_probe_kw(jca_op *o, const jca_variant *v) {
    static const uint8_t kek[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const uint8_t data[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                     0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    static const uint8_t expect[24] = {0x1f, 0xa6, 0x8b, 0x0a, 0x81, 0x12, 0xb4, 0x47,
                                       0xae, 0xf3, 0x4b, 0xd8, 0xfb, 0x5a, 0x7b, 0x82,
                                       0x9d, 0x3e, 0x86, 0x23, 0x71, 0xd2, 0xcf, 0xe5};
    uint8_t got[24];
    webcrypto_status st = WEBCRYPTO_OK;
    jobject c = NULL, spec = NULL;
    jbyteArray in = NULL, out = NULL;
    if (jca_get_instance(o, jca.Cipher, jca.c_get, jca.c_get_p, v->kw_name, v->kw_prov, &c) ||
        jca_key_spec(o, kek, sizeof kek, v->aes_name, &spec) || jca_new_array(o, data, 16, &in) ||
        jca_new_array(o, NULL, 32, &out))
        return false;
    (*o->env)->CallVoidMethod(o->env, c, jca.c_init, ENCRYPT_MODE, spec, NULL);
    JCHECK(o, "AESWrap init");
    jint len = (*o->env)->CallIntMethod(o->env, c, jca.c_final, in, 0, 16, out, 0);
    JCHECK(o, "AESWrap doFinal");
    if (len != 24 || jca_get_bytes(o, out, 0, 24, got) != WEBCRYPTO_OK) return false;
    return memcmp(got, expect, sizeof got) == 0;
done:
    (void)st;
    return false;
}

/* The key of the variant's key-bytes PRF (jca_siphash24), random per
 * process and variant, from the variant's SecureRandom. */
webcrypto_status jca_prf_key_draw(jca_op *o, jca_variant *v) {
    jbyteArray a = NULL;
    webcrypto_status st = jca_new_array(o, NULL, sizeof v->prf_key, &a);
    if (st != WEBCRYPTO_OK) return st;
    (*o->env)->CallVoidMethod(o->env, v->random, jca.sr_next, a);
    if ((*o->env)->ExceptionCheck(o->env)) st = jca_exception(o->env, "SecureRandom.nextBytes");
    else st = jca_get_bytes(o, a, 0, sizeof v->prf_key, v->prf_key);
    jca_zero_array(o, a, sizeof v->prf_key);
    (*o->env)->DeleteLocalRef(o->env, a);
    return st;
}
