/*
 * jca_random.c - getRandomValues on the jca backend: the variant's
 * SecureRandom (thread-safe, one per variant, made by init).
 */
#include "jca_internal.h"

webcrypto_status jca_random_bytes(const void *bctx, uint8_t *out, size_t len) {
    const jca_variant *v = bctx;
    jca_op o;
    webcrypto_status st = jca_op_begin(&o);
    if (st != WEBCRYPTO_OK) return st;
    jbyteArray a = NULL;
    st = jca_new_array(&o, NULL, len, &a);
    if (st == WEBCRYPTO_OK) {
        (*o.env)->CallVoidMethod(o.env, v->random, jca.sr_next, a);
        JCHECK(&o, "SecureRandom.nextBytes");
        st = jca_get_bytes(&o, a, 0, len, out);
        jca_zero_array(&o, a, len);
    }
done:
    return jca_op_end(&o, st);
}
