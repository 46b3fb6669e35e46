/*
 * test_alg_table.c - the core's algorithm and curve tables (src/core/
 * algorithms.c) on their own, without a backend: every algorithm has one
 * consistent row, the mapping functions agree with it, and a few facts typed
 * in here from the specifications (FIPS 180-4, SEC 2, RFC 8032, RFC 7518,
 * RFC 5480, RFC 8410) match it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core.h"

#define OPBIT(op) (1u << (unsigned)(op))

/* Every algorithm 1..count has exactly one row, at its own index, and its
 * name round-trips (also in another case); NONE and values past the end have
 * none. */
static void test_rows_and_names(void **state) {
    (void)state;
    size_t count = webcrypto_algorithm_count();
    assert_int_equal(count, WC_ALG_COUNT - 1);
    assert_null(wc_alg(WEBCRYPTO_ALG_NONE));
    assert_null(wc_alg((webcrypto_algorithm)(count + 1)));
    assert_null(webcrypto_algorithm_name((webcrypto_algorithm)(count + 1)));
    assert_int_equal(webcrypto_algorithm_at(count), WEBCRYPTO_ALG_NONE);
    for (size_t i = 0; i < count; i++) {
        webcrypto_algorithm alg = webcrypto_algorithm_at(i);
        assert_int_equal(alg, (webcrypto_algorithm)(i + 1));
        const wc_alg_info *a = wc_alg(alg);
        assert_non_null(a);
        assert_int_equal(a->alg, alg);
        assert_non_null(a->name);
        assert_string_equal(webcrypto_algorithm_name(alg), a->name);
        webcrypto_algorithm back = WEBCRYPTO_ALG_NONE;
        assert_int_equal(webcrypto_algorithm_from_name(a->name, &back), WEBCRYPTO_OK);
        assert_int_equal(back, alg);
        char lower[64];
        size_t n = strlen(a->name);
        assert_true(n < sizeof lower);
        for (size_t k = 0; k <= n; k++)
            lower[k] = (char)(a->name[k] >= 'A' && a->name[k] <= 'Z' ? a->name[k] + 32
                                                                     : a->name[k]);
        assert_ptr_equal(wc_alg_by_name(lower), a);
        for (size_t j = 0; j < i; j++) /* no two rows share a name */
            assert_true(strcmp(wc_alg(webcrypto_algorithm_at(j))->name, a->name) != 0);
    }
    webcrypto_algorithm none;
    assert_int_equal(webcrypto_algorithm_from_name("SHA-3", &none), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_null(wc_alg_by_name(""));
}

/* How many rows of `fam` have member value m (read through the mapping
 * function, which must agree with the row). */
static unsigned rows_with_member(wc_family fam, unsigned m) {
    unsigned n = 0;
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm alg = webcrypto_algorithm_at(i);
        if (wc_family_of(alg) != fam) continue;
        unsigned got = 0;
        switch (fam) {
        case WC_FAMILY_DIGEST: got = wc_hash_of(alg); break;
        case WC_FAMILY_CIPHER: got = wc_cipher_of(alg); break;
        case WC_FAMILY_AEAD: got = wc_aead_of(alg); break;
        case WC_FAMILY_KDF: got = wc_kdf_of(alg); break;
        case WC_FAMILY_RSA: got = wc_rsa_scheme_of(alg); break;
        case WC_FAMILY_EC: got = wc_ec_op_of(alg); break;
        case WC_FAMILY_OKP: got = wc_okp_of(alg); break;
        case WC_FAMILY_ML_KEM: got = wc_ml_kem_of(alg); break;
        case WC_FAMILY_ML_DSA: got = wc_ml_dsa_of(alg); break;
        case WC_FAMILY_XOF: got = wc_xof_of(alg); break;
        case WC_FAMILY_KMAC: got = wc_kmac_of(alg); break;
        case WC_FAMILY_HMAC:
        case WC_FAMILY_KEYWRAP: continue; /* no members */
        }
        if (got == m) n++;
    }
    return n;
}

/* Each row's family and member agree with the mapping functions; the other
 * families' functions say "not mine" (_COUNT); each member of a family is
 * the member of exactly one row. */
static void test_families_and_members(void **state) {
    (void)state;
    assert_int_equal(wc_family_of(WEBCRYPTO_ALG_NONE), WC_FAMILY_COUNT);
    assert_int_equal(wc_hash_of(WEBCRYPTO_ALG_NONE), WC_HASH_COUNT);
    assert_int_equal(wc_okp_of(WEBCRYPTO_ALG_NONE), WC_OKP_COUNT);
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm alg = webcrypto_algorithm_at(i);
        const wc_alg_info *a = wc_alg(alg);
        assert_int_equal(wc_family_of(alg), a->family);
        bool digest = a->family == WC_FAMILY_DIGEST;
        assert_int_equal(wc_hash_of(alg), digest ? a->member.hash : WC_HASH_COUNT);
        assert_int_equal(wc_cipher_of(alg),
                         a->family == WC_FAMILY_CIPHER ? a->member.cipher : WC_CIPHER_COUNT);
        assert_int_equal(wc_aead_of(alg),
                         a->family == WC_FAMILY_AEAD ? a->member.aead : WC_AEAD_COUNT);
        assert_int_equal(wc_kdf_of(alg), a->family == WC_FAMILY_KDF ? a->member.kdf : WC_KDF_COUNT);
        assert_int_equal(wc_rsa_scheme_of(alg),
                         a->family == WC_FAMILY_RSA ? a->member.rsa : WC_RSA_SCHEME_COUNT);
        assert_int_equal(wc_ec_op_of(alg), a->family == WC_FAMILY_EC ? a->member.ec : WC_EC_COUNT);
        assert_int_equal(wc_okp_of(alg), a->family == WC_FAMILY_OKP ? a->member.okp : WC_OKP_COUNT);
        assert_int_equal(wc_ml_kem_of(alg),
                         a->family == WC_FAMILY_ML_KEM ? a->member.ml_kem : WC_ML_KEM_COUNT);
        assert_int_equal(wc_ml_dsa_of(alg),
                         a->family == WC_FAMILY_ML_DSA ? a->member.ml_dsa : WC_ML_DSA_COUNT);
        assert_int_equal(wc_is_seeded(alg),
                         a->family == WC_FAMILY_ML_KEM || a->family == WC_FAMILY_ML_DSA);
        assert_int_equal(wc_xof_of(alg), a->family == WC_FAMILY_XOF ? a->member.xof : WC_XOF_COUNT);
        assert_int_equal(wc_kmac_of(alg),
                         a->family == WC_FAMILY_KMAC ? a->member.kmac : WC_KMAC_COUNT);
        assert_int_equal(wc_is_hash(alg), digest);
        assert_int_equal(wc_is_rsa(alg), a->family == WC_FAMILY_RSA);
        assert_int_equal(wc_is_ec(alg), a->family == WC_FAMILY_EC);
        assert_int_equal(wc_is_okp(alg), a->family == WC_FAMILY_OKP);
        if (digest) assert_int_equal(wc_hash_algorithm(a->member.hash), alg);
    }
    for (unsigned m = 0; m < WC_HASH_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_DIGEST, m), 1);
    for (unsigned m = 0; m < WC_CIPHER_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_CIPHER, m), 1);
    for (unsigned m = 0; m < WC_AEAD_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_AEAD, m), 1);
    for (unsigned m = 0; m < WC_KDF_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_KDF, m), 1);
    for (unsigned m = 0; m < WC_RSA_SCHEME_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_RSA, m), 1);
    for (unsigned m = 0; m < WC_EC_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_EC, m), 1);
    for (unsigned m = 0; m < WC_OKP_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_OKP, m), 1);
    for (unsigned m = 0; m < WC_ML_KEM_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_ML_KEM, m), 1);
    for (unsigned m = 0; m < WC_ML_DSA_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_ML_DSA, m), 1);
    for (unsigned m = 0; m < WC_XOF_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_XOF, m), 1);
    for (unsigned m = 0; m < WC_KMAC_COUNT; m++)
        assert_int_equal(rows_with_member(WC_FAMILY_KMAC, m), 1);
    assert_int_equal(wc_hash_algorithm(WC_HASH_COUNT), WEBCRYPTO_ALG_NONE);
}

/* Key types, usages and operations agree: usages only for the key types the
 * algorithm has and within the WebCrypto set; each usage comes with its
 * operation; the members an operation needs name allowed usages; the
 * sizes and identifiers each family relies on are present. */
static void test_usages_ops_and_identifiers(void **state) {
    (void)state;
    for (size_t i = 0; i < webcrypto_algorithm_count(); i++) {
        webcrypto_algorithm alg = webcrypto_algorithm_at(i);
        const wc_alg_info *a = wc_alg(alg);
        bool secret = a->key_types & WC_KEYS_SECRET, pair = a->key_types & WC_KEYS_PAIR;
        unsigned all = a->secret_usages | a->public_usages | a->private_usages;
        assert_false(secret && pair);
        assert_int_equal(a->key_types & ~(WC_KEYS_SECRET | WC_KEYS_PAIR), 0);
        assert_int_equal(all & ~WC_ALL_USAGES, 0);
        if (!secret) assert_int_equal(a->secret_usages, 0);
        if (!pair) assert_int_equal(a->public_usages | a->private_usages, 0);
        if (a->key_types) assert_int_not_equal(all, 0);
        assert_int_equal(wc_allowed_usages(alg), all);
        assert_int_equal(wc_public_usages(alg), a->public_usages);
        assert_int_equal(wc_private_usages(alg), a->private_usages);
        assert_int_equal(wc_is_asymmetric(alg), pair);
        assert_int_equal(a->hash_for & ~all, 0);
        assert_int_equal(a->public_key_for & ~all, 0);
        /* usage <-> operation (wrap/unwrap usages: AES-KW's own operation
         * or encrypt/decrypt) */
        assert_int_equal(!!(all & WEBCRYPTO_USAGE_SIGN), !!(a->ops & OPBIT(WEBCRYPTO_OP_SIGN)));
        assert_int_equal(!!(all & WEBCRYPTO_USAGE_VERIFY), !!(a->ops & OPBIT(WEBCRYPTO_OP_VERIFY)));
        assert_int_equal(!!(all & WEBCRYPTO_USAGE_ENCRYPT),
                         !!(a->ops & OPBIT(WEBCRYPTO_OP_ENCRYPT)));
        assert_int_equal(!!(all & WEBCRYPTO_USAGE_DECRYPT),
                         !!(a->ops & OPBIT(WEBCRYPTO_OP_DECRYPT)));
        assert_int_equal(!!(all & WEBCRYPTO_USAGE_DERIVE_BITS),
                         !!(a->ops & OPBIT(WEBCRYPTO_OP_DERIVE_BITS)));
        assert_int_equal(!!(all & (WEBCRYPTO_USAGE_ENCAPSULATE_KEY |
                                   WEBCRYPTO_USAGE_ENCAPSULATE_BITS)),
                         !!(a->ops & OPBIT(WEBCRYPTO_OP_ENCAPSULATE)));
        assert_int_equal(!!(all & (WEBCRYPTO_USAGE_DECAPSULATE_KEY |
                                   WEBCRYPTO_USAGE_DECAPSULATE_BITS)),
                         !!(a->ops & OPBIT(WEBCRYPTO_OP_DECAPSULATE)));
        /* Formats (the drafts): keys have some, digests none; raw-secret
         * exactly for secret keys read from bytes, as raw's alias there;
         * spki and pkcs8 for key pairs; raw-public where raw reads a public
         * key, and for the seeded keys, with raw-seed, without raw. */
        assert_int_equal(a->formats != 0, a->key_types != 0);
        assert_int_equal(a->formats & ~(WC_FMT(RAW) | WC_FMT(PKCS8) | WC_FMT(SPKI) |
                                        WC_FMT(JWK) | WC_FMT(RAW_PUBLIC) |
                                        WC_FMT(RAW_SECRET) | WC_FMT(RAW_SEED)),
                         0);
        bool seeded = a->family == WC_FAMILY_ML_KEM || a->family == WC_FAMILY_ML_DSA;
        assert_int_equal(!!(a->formats & WC_FMT(RAW_SECRET)), secret);
        /* The Modern Algorithms draft's new symmetric algorithms take
         * raw-secret without raw; the older ones keep raw. */
        bool draft_secret = a->alg == WEBCRYPTO_ALG_CHACHA20_POLY1305 ||
                            a->alg == WEBCRYPTO_ALG_AES_OCB || a->family == WC_FAMILY_KMAC ||
                            a->alg == WEBCRYPTO_ALG_ARGON2D || a->alg == WEBCRYPTO_ALG_ARGON2I ||
                            a->alg == WEBCRYPTO_ALG_ARGON2ID;
        if (secret) assert_int_equal(!!(a->formats & WC_FMT(RAW)), !draft_secret);
        assert_int_equal(!!(a->formats & WC_FMT(SPKI)), pair);
        assert_int_equal(!!(a->formats & WC_FMT(PKCS8)), pair);
        assert_int_equal(!!(a->formats & WC_FMT(RAW_SEED)), seeded);
        assert_int_equal(!!(a->formats & WC_FMT(RAW_PUBLIC)),
                         pair && (seeded || (a->formats & WC_FMT(RAW))));
        if (seeded) assert_false(a->formats & WC_FMT(RAW));
        assert_int_equal(!!(a->formats & WC_FMT(JWK)), a->jwk_kty != NULL);
        for (unsigned f = 0; f < 12; f++)
            assert_int_equal(webcrypto_algorithm_has_format(alg, (webcrypto_key_format)f),
                             f >= WEBCRYPTO_FORMAT_RAW && f <= WEBCRYPTO_FORMAT_RAW_SEED &&
                                 (a->formats & (1u << f)));
        /* ML-KEM, ML-DSA sizes, against backend.h's per-member facts */
        assert_int_equal(a->pq_public_len != 0 && a->pq_seed_len != 0 && a->pq_out_len != 0,
                         seeded);
        if (a->family == WC_FAMILY_ML_KEM) {
            assert_int_equal(wc_ml_kem_public_len(a->member.ml_kem), a->pq_public_len);
            assert_int_equal(wc_ml_kem_ciphertext_len(a->member.ml_kem), a->pq_out_len);
            assert_int_equal(a->pq_seed_len, WC_ML_KEM_SEED_LEN);
            assert_string_equal(wc_ml_kem_name(a->member.ml_kem), a->name);
        }
        if (a->family == WC_FAMILY_ML_DSA) {
            assert_int_equal(wc_ml_dsa_public_len(a->member.ml_dsa), a->pq_public_len);
            assert_int_equal(wc_ml_dsa_sig_len(a->member.ml_dsa), a->pq_out_len);
            assert_int_equal(a->pq_seed_len, WC_ML_DSA_SEED_LEN);
            assert_string_equal(wc_ml_dsa_name(a->member.ml_dsa), a->name);
        }
        /* backend.h's AEAD names and OKP OID arcs, against the row */
        if (a->family == WC_FAMILY_AEAD) assert_string_equal(wc_aead_name(a->member.aead), a->name);
        if (a->family == WC_FAMILY_OKP) {
            assert_int_equal(a->oid_len, 3);
            assert_int_equal(a->oid[2], wc_okp_oid_arc(a->member.okp));
            assert_true(wc_okp_key_len(a->member.okp) <= WC_OKP_MAX_KEY_LEN);
        }
        if (seeded) { /* JWK "AKP" with "alg" the name (the draft) */
            assert_string_equal(a->jwk_kty, "AKP");
            assert_string_equal(a->jwk_alg, a->name);
        }
        if (all & WEBCRYPTO_USAGE_WRAP_KEY)
            assert_true(a->ops & (OPBIT(WEBCRYPTO_OP_WRAP_KEY) | OPBIT(WEBCRYPTO_OP_ENCRYPT)));
        for (unsigned op = 0; op < 32; op++)
            assert_int_equal(webcrypto_algorithm_has_operation(alg, (webcrypto_operation)op),
                             webcrypto_operation_name((webcrypto_operation)op) &&
                                 (a->ops & OPBIT(op)));
        /* a digest (cSHAKE too) has no keys and only the digest operation;
         * only the fixed-size ones have a digest size */
        bool digest = a->family == WC_FAMILY_DIGEST;
        bool any_digest = digest || a->family == WC_FAMILY_XOF;
        assert_int_equal(a->key_types == 0, any_digest);
        assert_int_equal(a->ops == OPBIT(WEBCRYPTO_OP_DIGEST), any_digest);
        assert_int_equal(a->digest_size != 0, digest);
        /* block_bits: a hash's block (none for SHA-3, whose HMAC keys need a
         * length), or KMAC's default key length */
        assert_int_equal(a->block_bits != 0,
                         (digest && !wc_hash_is_sha3(a->member.hash)) ||
                             a->family == WC_FAMILY_KMAC);
        /* SHA-3 as a keyed algorithm's hash: the algorithms that take a hash */
        bool takes_hash = a->family == WC_FAMILY_HMAC ||
                          (a->family == WC_FAMILY_KDF &&
                           (a->member.kdf == WC_KDF_HKDF || a->member.kdf == WC_KDF_PBKDF2)) ||
                          (a->family == WC_FAMILY_RSA) ||
                          (a->family == WC_FAMILY_EC && a->member.ec == WC_EC_ECDSA);
        assert_int_equal(a->sha3_cap != 0, takes_hash);
        for (size_t j = 0; j < i && a->sha3_cap; j++) /* one bit each, none shared */
            assert_true(wc_alg(webcrypto_algorithm_at(j))->sha3_cap != a->sha3_cap);
        assert_true(a->digest_size <= WC_MAX_DIGEST_SIZE);
        assert_int_equal(!!(a->ops & OPBIT(WEBCRYPTO_OP_IMPORT_KEY)), a->key_types != 0);
        /* fixed key lengths: only AES sizes, a JWK alg for each allowed one
         * (ChaCha20-Poly1305: the 32-byte slot only) */
        bool fixed = a->key_lens[0] != 0 || a->key_lens[2] != 0;
        assert_int_equal(wc_has_key_lens(alg), fixed);
        for (size_t k = 0; k < WC_KEY_LENS; k++) {
            assert_int_equal(a->key_lens[k] != 0, a->jwk_alg_by_len[k] != NULL);
            if (a->key_lens[k]) assert_int_equal(a->key_lens[k], 16 + 8 * k);
            if (a->key_lens[k]) assert_true(wc_aes_key_len_ok(alg, a->key_lens[k]));
        }
        assert_false(wc_aes_key_len_ok(alg, 0));
        if (fixed) assert_true(secret);
        /* JWK: every key type but KDF keys (raw only); key pairs have DER */
        assert_int_equal(a->jwk_kty != NULL, a->key_types != 0 && a->family != WC_FAMILY_KDF);
        if (a->jwk_kty) assert_non_null(a->jwk_use);
        assert_int_equal(a->oid != NULL && a->oid_len != 0, pair);
        bool okp = a->family == WC_FAMILY_OKP;
        assert_int_equal(a->jwk_crv != NULL, okp);
        assert_int_equal(a->okp_key_len != 0 && a->okp_out_len != 0, okp);
        /* The per-member facts backend.h gives modules agree with the rows. */
        if (digest) assert_int_equal(wc_hash_size(a->member.hash), a->digest_size);
        if (digest) assert_string_equal(wc_hash_name(a->member.hash), a->name);
        if (a->family == WC_FAMILY_XOF) assert_string_equal(wc_xof_name(a->member.xof), a->name);
        if (a->family == WC_FAMILY_KMAC)
            assert_string_equal(wc_kmac_name(a->member.kmac), a->name);
        if (okp) {
            assert_int_equal(wc_okp_key_len(a->member.okp), a->okp_key_len);
            bool signs = a->ops & OPBIT(WEBCRYPTO_OP_SIGN);
            assert_int_equal(signs ? wc_okp_sig_len(a->member.okp) : a->okp_key_len,
                             a->okp_out_len);
        }
        if (okp && (a->ops & OPBIT(WEBCRYPTO_OP_DERIVE_BITS)))
            assert_true(a->okp_out_len <= WC_MAX_SHARED_SECRET);
        assert_int_equal(a->jwk_alg_by_curve,
                         a->family == WC_FAMILY_EC && a->member.ec == WC_EC_ECDSA);
        for (size_t j = 0; j < i && pair; j++) { /* OIDs: shared only within a family */
            const wc_alg_info *b = wc_alg(webcrypto_algorithm_at(j));
            if (b->oid && b->oid_len == a->oid_len && memcmp(b->oid, a->oid, a->oid_len) == 0)
                assert_int_equal(b->family, a->family);
        }
    }
}

static void test_curves(void **state) {
    (void)state;
    assert_int_equal(wc_curve_count(), 3);
    assert_null(wc_curve(WEBCRYPTO_CURVE_NONE));
    assert_null(wc_curve_at(wc_curve_count()));
    assert_int_equal(wc_curve_field_size(WEBCRYPTO_CURVE_NONE), 0);
    for (size_t i = 0; i < wc_curve_count(); i++) {
        const wc_curve_info *c = wc_curve_at(i);
        assert_ptr_equal(wc_curve(c->curve), c);
        assert_string_equal(webcrypto_curve_name(c->curve), c->name);
        webcrypto_named_curve back = WEBCRYPTO_CURVE_NONE;
        assert_int_equal(webcrypto_curve_from_name(c->name, &back), WEBCRYPTO_OK);
        assert_int_equal(back, c->curve);
        assert_true(c->field_size <= WC_MAX_FIELD_SIZE);
        assert_true(c->field_size <= WC_MAX_SHARED_SECRET); /* ECDH's secret */
        assert_int_equal(wc_curve_field_size(c->curve), c->field_size);
        assert_non_null(c->oid);
        assert_non_null(c->jwk_ecdsa_alg);
        for (size_t j = 0; j < i; j++) {
            const wc_curve_info *d = wc_curve_at(j);
            assert_false(d->oid_len == c->oid_len && memcmp(d->oid, c->oid, c->oid_len) == 0);
            assert_true(d->curve != c->curve);
        }
    }
    webcrypto_named_curve none;
    assert_int_equal(webcrypto_curve_from_name("p-256", &none), WEBCRYPTO_ERR_NOT_SUPPORTED);
}

/* Facts from the specifications, typed in here rather than read from the
 * table. */
static void test_known_facts(void **state) {
    (void)state;
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_SHA_1), 20);
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_SHA_384), 48);
    assert_int_equal(wc_hash_block_bits(WEBCRYPTO_ALG_SHA_384), 1024);
    assert_int_equal(wc_hash_block_bits(WEBCRYPTO_ALG_SHA_256), 512);
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_HMAC), 0);
    assert_int_equal(wc_curve_field_size(WEBCRYPTO_CURVE_P521), 66);
    assert_int_equal(wc_curve_field_size(WEBCRYPTO_CURVE_P256), 32);
    const wc_alg_info *ed = wc_alg(WEBCRYPTO_ALG_ED25519);
    assert_int_equal(ed->okp_key_len, 32);
    assert_int_equal(ed->okp_out_len, 64);
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_X25519)->okp_out_len, 32);
    /* RFC 8032 / RFC 7748 sizes, RFC 8410 OIDs (1.3.101.113, 1.3.101.111),
     * RFC 8037 JWK names. */
    const wc_alg_info *ed448 = wc_alg(WEBCRYPTO_ALG_ED448), *x448 = wc_alg(WEBCRYPTO_ALG_X448);
    assert_int_equal(ed448->okp_key_len, 57);
    assert_int_equal(ed448->okp_out_len, 114);
    assert_int_equal(x448->okp_key_len, 56);
    assert_int_equal(x448->okp_out_len, 56);
    assert_int_equal(ed448->oid_len, 3);
    assert_memory_equal(ed448->oid, "\x2b\x65\x71", 3);
    assert_int_equal(x448->oid_len, 3);
    assert_memory_equal(x448->oid, "\x2b\x65\x6f", 3);
    assert_string_equal(ed448->jwk_crv, "Ed448");
    assert_string_equal(ed448->jwk_alg, "Ed448");
    assert_string_equal(ed448->jwk_alg_alt, "EdDSA");
    assert_string_equal(x448->jwk_crv, "X448");
    assert_null(x448->jwk_alg);
    assert_string_equal(webcrypto_algorithm_name(WEBCRYPTO_ALG_ED448), "Ed448");
    assert_string_equal(webcrypto_algorithm_name(WEBCRYPTO_ALG_X448), "X448");
    assert_int_equal(wc_private_usages(WEBCRYPTO_ALG_X448), WC_KDF_USAGES);
    assert_int_equal(wc_public_usages(WEBCRYPTO_ALG_ED448), WEBCRYPTO_USAGE_VERIFY);
    assert_string_equal(wc_alg(WEBCRYPTO_ALG_HMAC)->jwk_alg_by_hash[WC_HASH_SHA_256], "HS256");
    const wc_alg_info *gcm = wc_alg(WEBCRYPTO_ALG_AES_GCM);
    assert_int_equal(gcm->key_lens[0], 16);
    assert_string_equal(gcm->jwk_alg_by_len[0], "A128GCM");
    assert_string_equal(wc_alg(WEBCRYPTO_ALG_RSA_PSS)->jwk_alg_by_hash[WC_HASH_SHA_512], "PS512");
    assert_string_equal(wc_curve(WEBCRYPTO_CURVE_P384)->jwk_ecdsa_alg, "ES384");
    assert_false(wc_aes_key_len_ok(WEBCRYPTO_ALG_AES_GCM_SIV, 24));
    assert_true(wc_aes_key_len_ok(WEBCRYPTO_ALG_AES_CBC, 24));
    /* id-ecPublicKey + prime256v1 (RFC 5480), id-Ed25519 (RFC 8410) */
    static const uint8_t p256[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
    static const uint8_t ed25519[] = {0x2b, 0x65, 0x70};
    const wc_curve_info *c = wc_curve(WEBCRYPTO_CURVE_P256);
    assert_int_equal(c->oid_len, sizeof p256);
    assert_memory_equal(c->oid, p256, sizeof p256);
    assert_int_equal(ed->oid_len, sizeof ed25519);
    assert_memory_equal(ed->oid, ed25519, sizeof ed25519);
    assert_string_equal(ed->jwk_crv, "Ed25519");
    assert_string_equal(wc_alg(WEBCRYPTO_ALG_ECDH)->jwk_kty, "EC");
    assert_null(wc_alg(WEBCRYPTO_ALG_ECDSA)->oid_alt);
    assert_non_null(wc_alg(WEBCRYPTO_ALG_ECDH)->oid_alt);
    /* usages and operations */
    assert_int_equal(wc_public_usages(WEBCRYPTO_ALG_RSA_OAEP),
                     WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_WRAP_KEY);
    assert_int_equal(wc_private_usages(WEBCRYPTO_ALG_X25519), WC_KDF_USAGES);
    assert_int_equal(wc_allowed_usages(WEBCRYPTO_ALG_AES_KW),
                     WEBCRYPTO_USAGE_WRAP_KEY | WEBCRYPTO_USAGE_UNWRAP_KEY);
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_OP_WRAP_KEY));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_AES_KW, WEBCRYPTO_OP_ENCRYPT));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_OP_EXPORT_KEY));
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_HMAC, WEBCRYPTO_OP_GET_KEY_LENGTH));
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_ECDSA)->hash_for,
                     WEBCRYPTO_USAGE_SIGN | WEBCRYPTO_USAGE_VERIFY);
    /* FIPS 203 table 3, FIPS 204 table 2; the NIST CSOR OIDs
     * 2.16.840.1.101.3.4.4.2 (ML-KEM-768) and 2.16.840.1.101.3.4.3.18
     * (ML-DSA-65) */
    const wc_alg_info *kem = wc_alg(WEBCRYPTO_ALG_ML_KEM_768);
    assert_int_equal(kem->pq_public_len, 1184);
    assert_int_equal(kem->pq_out_len, 1088);
    assert_int_equal(kem->pq_seed_len, 64);
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_ML_KEM_512)->pq_out_len, 768);
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_ML_KEM_1024)->pq_public_len, 1568);
    const wc_alg_info *dsa = wc_alg(WEBCRYPTO_ALG_ML_DSA_65);
    assert_int_equal(dsa->pq_public_len, 1952);
    assert_int_equal(dsa->pq_out_len, 3309);
    assert_int_equal(dsa->pq_seed_len, 32);
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_ML_DSA_44)->pq_out_len, 2420);
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_ML_DSA_87)->pq_public_len, 2592);
    static const uint8_t mlkem768[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02};
    static const uint8_t mldsa65[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12};
    assert_int_equal(kem->oid_len, sizeof mlkem768);
    assert_memory_equal(kem->oid, mlkem768, sizeof mlkem768);
    assert_int_equal(dsa->oid_len, sizeof mldsa65);
    assert_memory_equal(dsa->oid, mldsa65, sizeof mldsa65);
    assert_int_equal(wc_public_usages(WEBCRYPTO_ALG_ML_KEM_512),
                     WEBCRYPTO_USAGE_ENCAPSULATE_KEY | WEBCRYPTO_USAGE_ENCAPSULATE_BITS);
    assert_int_equal(wc_private_usages(WEBCRYPTO_ALG_ML_KEM_512),
                     WEBCRYPTO_USAGE_DECAPSULATE_KEY | WEBCRYPTO_USAGE_DECAPSULATE_BITS);
    assert_int_equal(webcrypto_kem_ciphertext_size(WEBCRYPTO_ALG_ML_KEM_1024), 1568);
    assert_int_equal(webcrypto_kem_shared_key_size(WEBCRYPTO_ALG_ML_KEM_512), 32);
    assert_int_equal(webcrypto_kem_ciphertext_size(WEBCRYPTO_ALG_ML_DSA_44), 0);
    /* Formats: the draft's aliases for the existing algorithms */
    assert_true(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_AES_GCM, WEBCRYPTO_FORMAT_RAW_SECRET));
    assert_true(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_FORMAT_RAW_SECRET));
    assert_false(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_HKDF, WEBCRYPTO_FORMAT_JWK));
    assert_true(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_ECDH, WEBCRYPTO_FORMAT_RAW_PUBLIC));
    assert_true(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_ED25519, WEBCRYPTO_FORMAT_RAW));
    assert_false(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_FORMAT_RAW_PUBLIC));
    assert_false(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_FORMAT_RAW_SEED));
    assert_false(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_ML_KEM_768, WEBCRYPTO_FORMAT_RAW));
    assert_true(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_ML_DSA_65, WEBCRYPTO_FORMAT_RAW_SEED));
    assert_false(webcrypto_algorithm_has_format(WEBCRYPTO_ALG_SHA_256, WEBCRYPTO_FORMAT_RAW));
    assert_string_equal(webcrypto_usage_name(WEBCRYPTO_USAGE_DECAPSULATE_BITS), "decapsulateBits");
    assert_string_equal(webcrypto_operation_name(WEBCRYPTO_OP_ENCAPSULATE), "encapsulate");
    /* FIPS 202: SHA3-256/384/512 digests of 32/48/64 bytes; no block size
     * for HMAC's default key length (the draft, Node 24) */
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_SHA3_256), 32);
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_SHA3_384), 48);
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_SHA3_512), 64);
    assert_int_equal(wc_hash_block_bits(WEBCRYPTO_ALG_SHA3_256), 0);
    assert_int_equal(wc_hash_block_bits(WEBCRYPTO_ALG_SHA3_512), 0);
    assert_true(wc_hash_is_sha3(wc_hash_of(WEBCRYPTO_ALG_SHA3_512)));
    assert_false(wc_hash_is_sha3(wc_hash_of(WEBCRYPTO_ALG_SHA_512)));
    webcrypto_algorithm by_name = WEBCRYPTO_ALG_NONE;
    assert_int_equal(webcrypto_algorithm_from_name("sha3-256", &by_name), WEBCRYPTO_OK);
    assert_int_equal(by_name, WEBCRYPTO_ALG_SHA3_256);
    assert_int_equal(webcrypto_algorithm_from_name("cSHAKE256", &by_name), WEBCRYPTO_OK);
    assert_int_equal(by_name, WEBCRYPTO_ALG_CSHAKE256);
    /* no JOSE alg for HMAC or RSA with SHA-3 */
    assert_null(wc_alg(WEBCRYPTO_ALG_HMAC)->jwk_alg_by_hash[WC_HASH_SHA3_256]);
    assert_null(wc_alg(WEBCRYPTO_ALG_RSA_PSS)->jwk_alg_by_hash[WC_HASH_SHA3_512]);
    /* cSHAKE: digest only; KMAC: sign/verify secret keys, JWK "oct" K128/K256,
     * default key lengths 128 / 256 bits (the draft) */
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_CSHAKE128)->ops, OPBIT(WEBCRYPTO_OP_DIGEST));
    assert_int_equal(webcrypto_digest_size(WEBCRYPTO_ALG_CSHAKE128), 0);
    const wc_alg_info *k128 = wc_alg(WEBCRYPTO_ALG_KMAC128), *k256 = wc_alg(WEBCRYPTO_ALG_KMAC256);
    assert_string_equal(k128->jwk_alg, "K128");
    assert_string_equal(k256->jwk_alg, "K256");
    assert_string_equal(k128->jwk_kty, "oct");
    assert_int_equal(wc_hash_block_bits(WEBCRYPTO_ALG_KMAC128), 128);
    assert_int_equal(wc_hash_block_bits(WEBCRYPTO_ALG_KMAC256), 256);
    assert_int_equal(wc_allowed_usages(WEBCRYPTO_ALG_KMAC256), WC_HMAC_USAGES);
    assert_true(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_KMAC128,
                                                  WEBCRYPTO_OP_GET_KEY_LENGTH));
    assert_false(webcrypto_algorithm_has_operation(WEBCRYPTO_ALG_KMAC128, WEBCRYPTO_OP_DIGEST));
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_HMAC)->sha3_cap, WC_CAP_SHA3_HMAC);
    assert_int_equal(wc_alg(WEBCRYPTO_ALG_ECDSA)->sha3_cap, WC_CAP_SHA3_ECDSA);
    /* "Modern Algorithms in the Web Cryptography API": ChaCha20-Poly1305
     * 256-bit keys only, JWK "C20P" (its IANA section); AES-OCB A128OCB,
     * A192OCB, A256OCB; Argon2 keys import raw only, derive only, and no
     * "get key length" but null (as HKDF's) */
    const wc_alg_info *cc = wc_alg(WEBCRYPTO_ALG_CHACHA20_POLY1305);
    assert_string_equal(cc->name, "ChaCha20-Poly1305");
    assert_int_equal(cc->family, WC_FAMILY_AEAD);
    assert_int_equal(cc->member.aead, WC_AEAD_CHACHA20_POLY1305);
    assert_int_equal(wc_single_key_bits(WEBCRYPTO_ALG_CHACHA20_POLY1305), 256);
    assert_false(wc_aes_key_len_ok(WEBCRYPTO_ALG_CHACHA20_POLY1305, 16));
    assert_false(wc_aes_key_len_ok(WEBCRYPTO_ALG_CHACHA20_POLY1305, 24));
    assert_true(wc_aes_key_len_ok(WEBCRYPTO_ALG_CHACHA20_POLY1305, 32));
    assert_string_equal(cc->jwk_alg_by_len[2], "C20P");
    assert_string_equal(cc->jwk_kty, "oct");
    assert_string_equal(cc->jwk_use, "enc");
    const wc_alg_info *ocb = wc_alg(WEBCRYPTO_ALG_AES_OCB);
    assert_string_equal(ocb->name, "AES-OCB");
    assert_int_equal(ocb->member.aead, WC_AEAD_AES_OCB);
    assert_string_equal(ocb->jwk_alg_by_len[0], "A128OCB");
    assert_string_equal(ocb->jwk_alg_by_len[1], "A192OCB");
    assert_string_equal(ocb->jwk_alg_by_len[2], "A256OCB");
    assert_int_equal(wc_single_key_bits(WEBCRYPTO_ALG_AES_OCB), 0);
    assert_int_equal(wc_single_key_bits(WEBCRYPTO_ALG_AES_GCM), 0);
    static const struct {
        webcrypto_algorithm alg;
        const char *name;
        wc_kdf kdf;
    } argon[] = {{WEBCRYPTO_ALG_ARGON2D, "Argon2d", WC_KDF_ARGON2D},
                 {WEBCRYPTO_ALG_ARGON2I, "Argon2i", WC_KDF_ARGON2I},
                 {WEBCRYPTO_ALG_ARGON2ID, "Argon2id", WC_KDF_ARGON2ID}};
    for (size_t i = 0; i < 3; i++) {
        const wc_alg_info *a = wc_alg(argon[i].alg);
        assert_string_equal(a->name, argon[i].name);
        assert_int_equal(a->family, WC_FAMILY_KDF);
        assert_int_equal(a->member.kdf, argon[i].kdf);
        assert_int_equal(a->hash_for, 0);
        assert_null(a->jwk_kty);
        assert_int_equal(wc_allowed_usages(argon[i].alg), WC_KDF_USAGES);
        assert_true(webcrypto_algorithm_has_operation(argon[i].alg, WEBCRYPTO_OP_DERIVE_BITS));
        assert_false(webcrypto_algorithm_has_operation(argon[i].alg, WEBCRYPTO_OP_GENERATE_KEY));
        assert_false(webcrypto_algorithm_has_operation(argon[i].alg, WEBCRYPTO_OP_EXPORT_KEY));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_and_names),
        cmocka_unit_test(test_families_and_members),
        cmocka_unit_test(test_usages_ops_and_identifiers),
        cmocka_unit_test(test_curves),
        cmocka_unit_test(test_known_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
