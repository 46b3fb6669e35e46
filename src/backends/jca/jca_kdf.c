/*
 * jca_kdf.c - the jca backend's KDFs: HKDF (javax.crypto.KDF or HMAC) and
 * PBKDF2 (SecretKeyFactory or HMAC).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jca_internal.h"

/* ---- KDFs ---- */

/* A fresh Mac of this variant for `hash`, keyed with key[0..len). */
static webcrypto_status kdf_mac(jca_op *o, const jca_variant *v, wc_hash hash,
                                jobject *mac) {
    if (!v->mac_prov[hash])
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: %s has no %s", v->label,
                        mac_names[hash]);
    return jca_get_instance(o, jca.Mac, jca.mac_get, jca.mac_get_p, v->mac_name[hash],
                        v->mac_prov[hash], mac);
}

static webcrypto_status mac_key(jca_op *o, const jca_variant *v, jobject mac,
                                wc_hash hash, const uint8_t *key, size_t len) {
    jobject spec = NULL;
    webcrypto_status st = jca_key_spec(o, key, len, v->mac_name[hash], &spec);
    if (st != WEBCRYPTO_OK) return st;
    (*o->env)->CallVoidMethod(o->env, mac, jca.mac_init, spec);
    if ((*o->env)->ExceptionCheck(o->env)) st = jca_exception(o->env, "Mac.init");
    (*o->env)->DeleteLocalRef(o->env, spec);
    return st;
}

/* RFC 5869 from the provider's HMAC. An empty salt is HashLen zero bytes,
 * which as an HMAC key equals the empty key jca_key_spec() stands in for. */
static webcrypto_status hkdf_by_mac(jca_op *o, const jca_variant *v, wc_hash hash,
                                    const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
                                    size_t salt_len, const uint8_t *info, size_t info_len,
                                    uint8_t *out, size_t out_len) {
    size_t hl = wc_hash_size(hash);
    uint8_t prk[64], t[64];
    jobject mac = NULL;
    webcrypto_status st = kdf_mac(o, v, hash, &mac);
    if (st == WEBCRYPTO_OK) st = mac_key(o, v, mac, hash, salt, salt_len);
    if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, ikm, ikm_len, "Mac.update");
    if (st == WEBCRYPTO_OK) st = jca_mac_finish(o, mac, hl, prk);
    if (st == WEBCRYPTO_OK) st = mac_key(o, v, mac, hash, prk, hl);
    for (uint8_t i = 1; st == WEBCRYPTO_OK && out_len > 0; i++) {
        if (i > 1) st = jca_feed(o, mac, jca.mac_update, t, hl, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, info, info_len, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, &i, 1, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_mac_finish(o, mac, hl, t);
        if (st != WEBCRYPTO_OK) break;
        size_t n = out_len < hl ? out_len : hl;
        memcpy(out, t, n);
        out += n;
        out_len -= n;
    }
    /* The IKM crossed in_buf in chunks, T(i) (hl bytes) after it; out_buf
     * held PRK and T(i). */
    jca_zero_array(o, o->t->out_buf, 64);
    jca_zero_array(o, o->t->in_buf, min_size(max_size(ikm_len, hl), JCA_CHUNK));
    wc_wipe(prk, sizeof prk);
    wc_wipe(t, sizeof t);
    return st;
}

/* javax.crypto.KDF "HKDF-SHA*" (JDK 25+). */
static webcrypto_status hkdf_by_kdf(jca_op *o, const jca_variant *v, wc_hash hash,
                                    const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
                                    size_t salt_len, const uint8_t *info, size_t info_len,
                                    uint8_t *out, size_t out_len) {
    jobject kdf = NULL, b = NULL, spec = NULL;
    jbyteArray ikm_a = NULL, salt_a = NULL, info_a = NULL, res = NULL;
    webcrypto_status st = jca_get_instance(o, jca.KDF, jca.kdf_get, jca.kdf_get_p, v->kdf_name[hash],
                                       v->kdf_prov[hash], &kdf);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, ikm, ikm_len, &ikm_a);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, salt, salt_len, &salt_a);
    if (st == WEBCRYPTO_OK) st = jca_new_array(o, info, info_len, &info_a);
    if (st != WEBCRYPTO_OK) goto done;
    b = (*o->env)->CallStaticObjectMethod(o->env, jca.HKDFParameterSpec, jca.hkdf_extract);
    JCHECK(o, "HKDFParameterSpec.ofExtract");
    b = (*o->env)->CallObjectMethod(o->env, b, jca.hkdf_add_ikm, ikm_a);
    JCHECK(o, "HKDFParameterSpec.Builder.addIKM");
    b = (*o->env)->CallObjectMethod(o->env, b, jca.hkdf_add_salt, salt_a);
    JCHECK(o, "HKDFParameterSpec.Builder.addSalt");
    spec = (*o->env)->CallObjectMethod(o->env, b, jca.hkdf_then_expand, info_a, (jint)out_len);
    JCHECK(o, "HKDFParameterSpec.Builder.thenExpand");
    res = (*o->env)->CallObjectMethod(o->env, kdf, jca.kdf_derive, spec);
    JCHECK(o, "KDF.deriveData");
    if (!res || (size_t)(*o->env)->GetArrayLength(o->env, res) != out_len) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: KDF.deriveData returned the wrong length");
        goto done;
    }
    st = jca_get_bytes(o, res, 0, out_len, out);
done:
    jca_zero_array(o, ikm_a, ikm_len);
    jca_zero_array(o, res, res ? out_len : 0);
    return st;
}

webcrypto_status jca_hkdf(const void *bctx, wc_hash hash, const uint8_t *ikm,
                                 size_t ikm_len, const uint8_t *salt, size_t salt_len,
                                 const uint8_t *info, size_t info_len, uint8_t *out,
                                 size_t out_len) {
    const jca_variant *v = bctx;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad HKDF hash");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    if ((*o.env)->EnsureLocalCapacity(o.env, JCA_FRAME) != 0)
        st = jca_exception(o.env, "EnsureLocalCapacity");
    else if (v->have_kdf[hash] && out_len <= (size_t)INT32_MAX)
        st = hkdf_by_kdf(&o, v, hash, ikm, ikm_len, salt, salt_len, info, info_len, out, out_len);
    else
        st = hkdf_by_mac(&o, v, hash, ikm, ikm_len, salt, salt_len, info, info_len, out, out_len);
    return jca_op_end(&o, st);
}

/* Strict UTF-8 (no overlong forms, surrogates or code points past
 * U+10FFFF) to UTF-16; false if p is not valid UTF-8. out has room for len
 * units (UTF-16 never needs more units than UTF-8 has bytes). */
static bool utf8_to_utf16(const uint8_t *p, size_t len, jchar *out, size_t *out_len) {
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t c = p[i];
        size_t extra;
        uint32_t min;
        if (c < 0x80) { extra = 0; min = 0; }
        else if ((c & 0xe0) == 0xc0) { extra = 1; c &= 0x1f; min = 0x80; }
        else if ((c & 0xf0) == 0xe0) { extra = 2; c &= 0x0f; min = 0x800; }
        else if ((c & 0xf8) == 0xf0) { extra = 3; c &= 0x07; min = 0x10000; }
        else return false;
        if (len - i - 1 < extra) return false;
        for (size_t j = 1; j <= extra; j++) {
            if ((p[i + j] & 0xc0) != 0x80) return false;
            c = (c << 6) | (p[i + j] & 0x3f);
        }
        if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
        if (c >= 0x10000) {
            c -= 0x10000;
            out[n++] = (jchar)(0xd800 + (c >> 10));
            out[n++] = (jchar)(0xdc00 + (c & 0x3ff));
        } else {
            out[n++] = (jchar)c;
        }
        i += extra + 1;
    }
    *out_len = n;
    return true;
}

/* SecretKeyFactory PBKDF2WithHmacSHA*: the password as chars, which the
 * provider encodes as UTF-8 again (so only for valid UTF-8 passwords). */
static webcrypto_status pbkdf2_by_factory(jca_op *o, const jca_variant *v, wc_hash hash,
                                          const jchar *pw, size_t pw_units, const uint8_t *salt,
                                          size_t salt_len, uint32_t iterations, uint8_t *out,
                                          size_t out_len) {
    webcrypto_status st = WEBCRYPTO_OK;
    jobject skf = NULL, spec = NULL, key = NULL;
    jbyteArray salt_a = NULL, enc = NULL;
    jcharArray pw_a = (*o->env)->NewCharArray(o->env, (jsize)pw_units);
    JCHECK(o, "NewCharArray");
    (*o->env)->SetCharArrayRegion(o->env, pw_a, 0, (jsize)pw_units, pw);
    JCHECK(o, "SetCharArrayRegion");
    if ((st = jca_new_array(o, salt, salt_len, &salt_a)) != WEBCRYPTO_OK) goto done;
    spec = (*o->env)->NewObject(o->env, jca.PBEKeySpec, jca.pbe_new, pw_a, salt_a,
                                (jint)iterations, (jint)(out_len * 8));
    JCHECK(o, "new PBEKeySpec");
    if ((st = jca_get_instance(o, jca.SecretKeyFactory, jca.skf_get, jca.skf_get_p,
                           v->pbkdf2_name[hash], v->pbkdf2_prov[hash], &skf)) != WEBCRYPTO_OK)
        goto done;
    key = (*o->env)->CallObjectMethod(o->env, skf, jca.skf_generate, spec);
    JCHECK(o, "SecretKeyFactory.generateSecret");
    enc = (*o->env)->CallObjectMethod(o->env, key, jca.key_encoded);
    JCHECK(o, "SecretKey.getEncoded");
    if (!enc || (size_t)(*o->env)->GetArrayLength(o->env, enc) != out_len) {
        st = wc_error(WEBCRYPTO_ERR_OPERATION, "jca: PBKDF2 returned the wrong length");
        goto done;
    }
    st = jca_get_bytes(o, enc, 0, out_len, out);
done:
    if (spec) {
        (*o->env)->CallVoidMethod(o->env, spec, jca.pbe_clear);
        if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
    }
    if (pw_a) {
        static const jchar zeros[64];
        for (size_t off = 0; off < pw_units; off += 64) {
            size_t k = pw_units - off < 64 ? pw_units - off : 64;
            (*o->env)->SetCharArrayRegion(o->env, pw_a, (jsize)off, (jsize)k, zeros);
            if ((*o->env)->ExceptionCheck(o->env)) (*o->env)->ExceptionClear(o->env);
        }
    }
    jca_zero_array(o, enc, enc ? out_len : 0);
    return st;
}

/* RFC 8018 5.2 from the provider's HMAC: for passwords that are not UTF-8
 * (WebCrypto's are bytes), an empty password or salt (PBEKeySpec refuses an
 * empty salt), or a provider without the factory. One JNI round trip per
 * iteration, so slower than the factory. */
static webcrypto_status pbkdf2_by_mac(jca_op *o, const jca_variant *v, wc_hash hash,
                                      const uint8_t *pw, size_t pw_len, const uint8_t *salt,
                                      size_t salt_len, uint32_t iterations, uint8_t *out,
                                      size_t out_len) {
    size_t hl = wc_hash_size(hash);
    uint8_t u[64], t[64];
    jobject mac = NULL;
    webcrypto_status st = kdf_mac(o, v, hash, &mac);
    if (st == WEBCRYPTO_OK) st = mac_key(o, v, mac, hash, pw, pw_len);
    for (uint32_t block = 1; st == WEBCRYPTO_OK && out_len > 0; block++) {
        uint8_t be[4] = {(uint8_t)(block >> 24), (uint8_t)(block >> 16), (uint8_t)(block >> 8),
                         (uint8_t)block};
        st = jca_feed(o, mac, jca.mac_update, salt, salt_len, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_feed(o, mac, jca.mac_update, be, 4, "Mac.update");
        if (st == WEBCRYPTO_OK) st = jca_mac_finish(o, mac, hl, u);
        if (st == WEBCRYPTO_OK) memcpy(t, u, hl);
        for (uint32_t i = 1; st == WEBCRYPTO_OK && i < iterations; i++) {
            st = jca_feed(o, mac, jca.mac_update, u, hl, "Mac.update");
            if (st == WEBCRYPTO_OK) st = jca_mac_finish(o, mac, hl, u);
            for (size_t j = 0; j < hl; j++) t[j] ^= u[j];
        }
        if (st != WEBCRYPTO_OK) break;
        size_t n = out_len < hl ? out_len : hl;
        memcpy(out, t, n);
        out += n;
        out_len -= n;
    }
    jca_zero_array(o, o->t->out_buf, 64);
    jca_zero_array(o, o->t->in_buf, 64);
    wc_wipe(u, sizeof u);
    wc_wipe(t, sizeof t);
    return st;
}

webcrypto_status jca_pbkdf2(const void *bctx, wc_hash hash,
                                   const uint8_t *password, size_t password_len,
                                   const uint8_t *salt, size_t salt_len, uint32_t iterations,
                                   uint8_t *out, size_t out_len) {
    const jca_variant *v = bctx;
    if (!hash_ok(hash)) return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "jca: bad PBKDF2 hash");
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jchar *units = NULL;
    size_t n_units = 0;
    bool factory = v->pbkdf2_prov[hash] && password_len > 0 && salt_len > 0 &&
                   iterations <= (uint32_t)INT32_MAX && out_len <= (size_t)INT32_MAX / 8 &&
                   password_len <= (size_t)INT32_MAX;
    if (factory) {
        units = malloc(password_len * sizeof *units);
        if (!units) st = wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory");
        else factory = utf8_to_utf16(password, password_len, units, &n_units);
    }
    if (st == WEBCRYPTO_OK) {
        if (factory)
            st = pbkdf2_by_factory(&o, v, hash, units, n_units, salt, salt_len, iterations, out,
                                   out_len);
        else if (!v->mac_prov[hash])
            st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                          "jca: %s has no %s for this password or salt", v->label,
                          mac_names[hash]);
        else
            st = pbkdf2_by_mac(&o, v, hash, password, password_len, salt, salt_len, iterations,
                               out, out_len);
    }
    if (units) {
        wc_wipe(units, password_len * sizeof *units);
        free(units);
    }
    return jca_op_end(&o, st);
}

