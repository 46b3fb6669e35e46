/*
 * Asymmetric keys (RSA, EC, OKP, ML-KEM, ML-DSA): generateKey for key pairs,
 * importKey and exportKey in spki, pkcs8, raw, raw-public, raw-seed and jwk, and the checks WebCrypto puts on
 * sign/verify, encrypt/decrypt and deriveBits with them. The formats are
 * parsed here (der.c, jwk.c) into wc_pkey_fields; the backend sees fields only.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "ct.h"
#include "der.h"

static size_t rsa_modulus_bits(wc_bytes n) {
    size_t i = 0;
    while (i < n.n && n.p[i] == 0) i++;
    if (i == n.n) return 0;
    size_t bits = (n.n - i) * 8;
    for (uint8_t top = n.p[i]; !(top & 0x80); top = (uint8_t)(top << 1)) bits--;
    return bits;
}

size_t wc_pkey_output_size(const webcrypto_key *key) {
    const wc_alg_info *a = wc_alg(key->alg);
    switch (a->family) {
    case WC_FAMILY_RSA: return (key->length_bits + 7) / 8;
    case WC_FAMILY_EC:
        switch (a->member.ec) {
        case WC_EC_ECDSA: return 2 * wc_curve_field_size(key->curve); /* r || s */
        case WC_EC_ECDH: return wc_curve_field_size(key->curve);
        case WC_EC_COUNT: break;
        }
        return 0;
    case WC_FAMILY_OKP: return a->okp_out_len;
    case WC_FAMILY_ML_KEM: /* the ciphertext */
    case WC_FAMILY_ML_DSA: return a->pq_out_len;
    WC_CASE_SECRET_FAMILIES: return 0;
    }
    return 0;
}

/* The algorithm members every RSA or EC import and generate need. */
webcrypto_status wc_pkey_params_check(const webcrypto_backend *backend,
                                      const webcrypto_params *alg) {
    if (wc_is_rsa(alg->name)) return wc_check_hash_for(backend, alg->name, alg->hash);
    if (wc_is_ec(alg->name)) {
        if (alg->named_curve == WEBCRYPTO_CURVE_NONE)
            return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "the named_curve member is required");
        if (!webcrypto_curve_name(alg->named_curve))
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "unknown named curve %d",
                            (int)alg->named_curve);
    }
    return WEBCRYPTO_OK;
}

/* Wraps backend state in a key object (taking ownership of state). */
static webcrypto_status key_from_state(const webcrypto_backend *backend,
                                       const webcrypto_params *alg, webcrypto_key_type type,
                                       void *state, bool extractable, unsigned usages,
                                       webcrypto_key **out) {
    webcrypto_key *key = calloc(1, sizeof *key);
    if (!key) {
        backend->ops->pkey_free(state);
        return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "out of memory for a key");
    }
    key->backend = backend;
    key->type = type;
    key->alg = alg->name;
    key->state = state;
    key->extractable = extractable;
    key->usages = usages;
    if (wc_is_ec(alg->name)) key->curve = alg->named_curve;
    if (wc_is_rsa(alg->name)) {
        key->hash = alg->hash;
        wc_pkey_fields f = {0};
        webcrypto_status st = backend->ops->pkey_fields(state, &f);
        if (st == WEBCRYPTO_OK && f.e.n > sizeof key->exponent)
            st = wc_error(WEBCRYPTO_ERR_DATA, "the RSA public exponent is too large");
        if (st != WEBCRYPTO_OK) {
            webcrypto_key_free(key);
            return st;
        }
        key->length_bits = rsa_modulus_bits(f.n);
        size_t i = 0;
        while (i + 1 < f.e.n && f.e.p[i] == 0) i++; /* minimal big-endian */
        key->exponent_len = f.e.n - i;
        memcpy(key->exponent, f.e.p + i, key->exponent_len);
    }
    *out = key;
    return WEBCRYPTO_OK;
}

/* EC private scalars are stored at the field size (PKCS #8 encoders may drop
 * leading zeros). */
static webcrypto_status pad_ec_scalar(wc_pkey_fields *f, uint8_t *buf, size_t fs) {
    if (!f->d.p || f->d.n == fs) return WEBCRYPTO_OK;
    if (f->d.n > fs)
        return wc_error(WEBCRYPTO_ERR_DATA, "the EC private key is longer than the curve's %zu bytes",
                        fs);
    memset(buf, 0, fs - f->d.n);
    memcpy(buf + fs - f->d.n, f->d.p, f->d.n);
    f->d.p = buf;
    f->d.n = fs;
    return WEBCRYPTO_OK;
}

/* The shape of the fields backend.h's pkey_import contract promises, checked
 * here before every pkey_import call (importKey in every format, and the
 * public half of a generated pair), so that no backend checks it again.
 * Most of it the parsers have checked already, with messages naming the
 * format (jwk.c: members present, EC x, y, d of the field size, OKP keys of
 * the row's okp_key_len; der.c: RSA integers present, OKP keys of that
 * length; the raw point above; pad_ec_scalar: d of the field size). What only this catches from
 * the public API: an RSA member over WC_RSA_MAX_MEMBER bytes (JWK, DER) and
 * an EC point of the wrong length or form (spki, and pkcs8's publicKey).
 * Multi-prime RSA keys' further primes (oth) get the same checks as the
 * other members; whether the backend takes them at all is checked after.
 * DataError, as the backends gave it when they checked this (the RSA
 * messages now name the member). */
static webcrypto_status check_fields(webcrypto_algorithm kind, const wc_pkey_fields *f) {
    const wc_alg_info *a = wc_alg(kind);
    switch (a->family) {
    case WC_FAMILY_RSA: {
        static const char *const names[8] = {"n", "e", "d", "p", "q", "dp", "dq", "qi"};
        const wc_bytes m[8] = {f->n, f->e, f->d, f->p, f->q, f->dp, f->dq, f->qi};
        size_t count = f->is_private ? 8 : 2;
        for (size_t i = 0; i < count; i++) {
            if (!m[i].p || m[i].n == 0)
                return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: the member \"%s\" is missing",
                                names[i]);
            if (m[i].n > WC_RSA_MAX_MEMBER)
                return wc_error(WEBCRYPTO_ERR_DATA,
                                "RSA key: the member \"%s\" is %zu bytes, more than %d",
                                names[i], m[i].n, WC_RSA_MAX_MEMBER);
        }
        /* The parsers give oth for private keys only, at most
         * WC_RSA_MAX_PRIMES - 2 of them. */
        if (f->oth_count > (f->is_private ? WC_RSA_MAX_PRIMES - 2 : 0))
            return wc_error(WEBCRYPTO_ERR_DATA, "RSA key: %zu further primes", f->oth_count);
        for (size_t i = 0; i < f->oth_count; i++) {
            static const char *const oth_names[3] = {"r", "d", "t"};
            const wc_bytes o[3] = {f->oth[i].r, f->oth[i].d, f->oth[i].t};
            for (size_t j = 0; j < 3; j++) {
                if (!o[j].p || o[j].n == 0)
                    return wc_error(WEBCRYPTO_ERR_DATA,
                                    "RSA key: the member \"%s\" of prime %zu is missing",
                                    oth_names[j], i + 3);
                if (o[j].n > WC_RSA_MAX_MEMBER)
                    return wc_error(WEBCRYPTO_ERR_DATA,
                                    "RSA key: the member \"%s\" of prime %zu is %zu bytes, more "
                                    "than %d",
                                    oth_names[j], i + 3, o[j].n, WC_RSA_MAX_MEMBER);
            }
        }
        return WEBCRYPTO_OK;
    }
    case WC_FAMILY_EC: {
        size_t fs = wc_curve_field_size(f->curve);
        const char *curve = webcrypto_curve_name(f->curve);
        if (!fs || !curve) return wc_error(WEBCRYPTO_ERR_DATA, "EC key: no supported curve");
        if (f->point.n > 0) {
            const uint8_t *e = f->point.p;
            bool compressed = f->point.n == 1 + fs && (e[0] == 0x02 || e[0] == 0x03);
            bool uncompressed = f->point.n == 1 + 2 * fs && e[0] == 0x04;
            if (!compressed && !uncompressed)
                return wc_error(WEBCRYPTO_ERR_DATA,
                                "EC key: the point is not a compressed or uncompressed %s point",
                                curve);
        } else if (f->x.n > 0 || f->y.n > 0) {
            if (!f->x.p || !f->y.p || f->x.n != fs || f->y.n != fs)
                return wc_error(WEBCRYPTO_ERR_DATA, "EC key: x and y must be %zu bytes each", fs);
        } else if (!f->is_private) {
            return wc_error(WEBCRYPTO_ERR_DATA, "EC key: the public point is missing");
        }
        if (f->is_private && (!f->d.p || f->d.n != fs))
            return wc_error(WEBCRYPTO_ERR_DATA, "EC key: the private key must be %zu bytes", fs);
        return WEBCRYPTO_OK;
    }
    case WC_FAMILY_OKP:
        if (f->is_private && (!f->d.p || f->d.n != a->okp_key_len))
            return wc_error(WEBCRYPTO_ERR_DATA, "%s key: the private key must be %zu bytes",
                            a->name, a->okp_key_len);
        if (f->x.n != 0 || !f->is_private) {
            if (!f->x.p || f->x.n != a->okp_key_len)
                return wc_error(WEBCRYPTO_ERR_DATA, "%s key: the public key must be %zu bytes",
                                a->name, a->okp_key_len);
        }
        return WEBCRYPTO_OK;
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
        /* A private key is its seed; the public key that came with it (a
         * JWK's "pub") is compared with the seed's after the import. */
        if (f->is_private && (!f->d.p || f->d.n != a->pq_seed_len))
            return wc_error(WEBCRYPTO_ERR_DATA, "%s key: the seed must be %zu bytes", a->name,
                            a->pq_seed_len);
        if (f->x.n != 0 || !f->is_private) {
            if (!f->x.p || f->x.n != a->pq_public_len)
                return wc_error(WEBCRYPTO_ERR_DATA, "%s key: the public key must be %zu bytes",
                                a->name, a->pq_public_len);
        }
        return WEBCRYPTO_OK;
    WC_CASE_SECRET_FAMILIES: break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "%s keys are not key pairs", a->name);
}

webcrypto_status wc_pkey_import(const webcrypto_backend *backend, webcrypto_key_format format,
                                const uint8_t *data, size_t len, const webcrypto_params *alg,
                                bool extractable, unsigned usages, webcrypto_key **out) {
    webcrypto_algorithm kind = alg->name;
    webcrypto_status st = wc_pkey_params_check(backend, alg);
    if (st != WEBCRYPTO_OK) return st;
    unsigned pub = wc_public_usages(kind), priv = wc_private_usages(kind);
    const char *name = webcrypto_algorithm_name(kind);
    wc_pkey_fields f = {0};
    wc_jwk_pkey jwk = {0};
    uint8_t scalar[WC_MAX_FIELD_SIZE];
    switch (format) {
    case WEBCRYPTO_FORMAT_SPKI:
        if (usages & ~pub)
            return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for a public %s key", name);
        st = wc_der_parse_spki(kind, data, len, &f);
        break;
    case WEBCRYPTO_FORMAT_PKCS8:
        if (usages & ~priv)
            return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for a private %s key", name);
        st = wc_der_parse_pkcs8(kind, data, len, &f);
        f.is_private = true;
        break;
    case WEBCRYPTO_FORMAT_RAW:
        if (wc_is_rsa(kind))
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "importKey: RSA keys have no raw format");
        if (usages & ~pub)
            return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for a public %s key", name);
        const wc_alg_info *info = wc_alg(kind);
        switch (info->family) {
        case WC_FAMILY_EC: {
            size_t fs = wc_curve_field_size(alg->named_curve);
            bool full = len == 1 + 2 * fs && data[0] == 0x04;
            bool compressed = len == 1 + fs && (data[0] == 0x02 || data[0] == 0x03);
            if (!full && !compressed)
                return wc_error(WEBCRYPTO_ERR_DATA, "importKey: not a %s point (%zu bytes)",
                                webcrypto_curve_name(alg->named_curve), len);
            f.curve = alg->named_curve;
            f.point = (wc_bytes){data, len};
            break;
        }
        case WC_FAMILY_OKP:
            if (len != info->okp_key_len)
                return wc_error(WEBCRYPTO_ERR_DATA, "importKey: a raw %s key is %zu bytes, not %zu",
                                name, info->okp_key_len, len);
            f.x = (wc_bytes){data, len};
            break;
        case WC_FAMILY_RSA: /* refused above */
        case WC_FAMILY_ML_KEM: /* no raw (the table): raw-public, raw-seed */
        case WC_FAMILY_ML_DSA:
        WC_CASE_SECRET_FAMILIES: break; /* not key pairs: check_fields refuses them */
        }
        break;
    case WEBCRYPTO_FORMAT_RAW_PUBLIC: /* ML-KEM, ML-DSA: the encoded public key */
        if (usages & ~pub)
            return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for a public %s key", name);
        if (len != wc_alg(kind)->pq_public_len)
            return wc_error(WEBCRYPTO_ERR_DATA, "importKey: a raw-public %s key is %zu bytes, not %zu",
                            name, wc_alg(kind)->pq_public_len, len);
        f.x = (wc_bytes){data, len};
        break;
    case WEBCRYPTO_FORMAT_RAW_SEED: /* ML-KEM d || z, ML-DSA xi */
        if (usages & ~priv)
            return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for a private %s key", name);
        if (len != wc_alg(kind)->pq_seed_len)
            return wc_error(WEBCRYPTO_ERR_DATA, "importKey: a raw-seed %s key is %zu bytes, not %zu",
                            name, wc_alg(kind)->pq_seed_len, len);
        f.d = (wc_bytes){data, len};
        f.is_private = true;
        break;
    case WEBCRYPTO_FORMAT_RAW_SECRET: /* secret keys only: wc_check_format refused it */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "importKey: %s keys have no raw-secret format",
                        name);
    case WEBCRYPTO_FORMAT_JWK: {
        wc_pkey_request req = {.alg = kind, .hash = alg->hash, .curve = alg->named_curve,
                               .extractable = extractable, .usages = usages,
                               .public_usages = pub, .private_usages = priv};
        st = wc_jwk_import_pkey(data, len, &req, &jwk);
        f = jwk.f;
        break;
    }
    } /* every format: webcrypto_import_key refused any other value */
    if (st == WEBCRYPTO_OK && wc_is_ec(kind) && f.curve != alg->named_curve)
        st = wc_error(WEBCRYPTO_ERR_DATA, "importKey: the key is on %s, not %s",
                      webcrypto_curve_name(f.curve) ? webcrypto_curve_name(f.curve) : "another curve",
                      webcrypto_curve_name(alg->named_curve));
    if (st == WEBCRYPTO_OK && wc_is_ec(kind))
        st = pad_ec_scalar(&f, scalar, wc_curve_field_size(f.curve));
    if (st == WEBCRYPTO_OK) st = check_fields(kind, &f);
    /* The embedder's limit (webcrypto_set_limits), on every format's key
     * before the backend sees it (imports only: a key the process already
     * holds keeps working, e.g. its getPublicKey, whatever the limit). */
    if (st == WEBCRYPTO_OK && wc_is_rsa(kind)) {
        size_t bits = rsa_modulus_bits(f.n);
        uint32_t max_bits = wc_limit_rsa_import_bits();
        if (bits > max_bits)
            st = wc_error(WEBCRYPTO_ERR_DATA,
                          "importKey: an RSA modulus of %zu bits is over this process's limit of "
                          "%u (webcrypto_set_limits, max_rsa_import_bits)",
                          bits, (unsigned)max_bits);
    }
    /* A well-formed key with more than two primes, which this backend's
     * library cannot take (backend.h: WC_CAP_RSA_MULTI_PRIME). */
    if (st == WEBCRYPTO_OK && f.oth_count > 0 && !(backend->caps.features & WC_CAP_RSA_MULTI_PRIME))
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                      "%s cannot import multi-prime RSA keys (%zu primes)", backend->name,
                      f.oth_count + 2);
    void *state = NULL;
    wc_family family = WC_FAMILY_RSA;
    unsigned member = 0;
    if (st == WEBCRYPTO_OK && !wc_key_family(kind, WEBCRYPTO_ALG_NONE, &family, &member))
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "importKey: %s has no key pairs",
                      webcrypto_algorithm_name(kind));
    /* A seeded private key reaches the backend as its seed alone; a public
     * key given with it (JWK "pub") must be the seed's (the draft: DataError). */
    wc_bytes given_pub = {0};
    if (wc_is_seeded(kind) && f.is_private) {
        given_pub = f.x;
        f.x = (wc_bytes){NULL, 0};
    }
    if (st == WEBCRYPTO_OK)
        st = backend->ops->pkey_import(backend->bctx, family, member, &f, &state);
    if (st == WEBCRYPTO_OK && given_pub.p) {
        wc_pkey_fields made = {0};
        st = backend->ops->pkey_fields(state, &made);
        if (st == WEBCRYPTO_OK &&
            (made.x.n != given_pub.n ||
             !wc_ct_public_bool(wc_equal_ct(made.x.p, given_pub.p, given_pub.n))))
            st = wc_error(WEBCRYPTO_ERR_DATA,
                          "importKey: the JWK \"pub\" is not the public key of its \"priv\"");
        if (st != WEBCRYPTO_OK) {
            backend->ops->pkey_free(state);
            state = NULL;
        }
    }
    bool is_private = f.is_private;
    wc_wipe(scalar, sizeof scalar);
    wc_jwk_pkey_free(&jwk);
    if (st != WEBCRYPTO_OK) return st;
    if (is_private && usages == 0) {
        backend->ops->pkey_free(state);
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "a private key must have at least one usage");
    }
    return key_from_state(backend, alg, is_private ? WEBCRYPTO_KEY_PRIVATE : WEBCRYPTO_KEY_PUBLIC,
                          state, extractable, usages, out);
}

static webcrypto_status export_fields(webcrypto_key_format format, const webcrypto_key *key,
                                      const wc_pkey_fields *fp, uint8_t **out, size_t *out_len);

webcrypto_status wc_pkey_export(webcrypto_key_format format, const webcrypto_key *key,
                                uint8_t **out, size_t *out_len) {
    bool pub = key->type == WEBCRYPTO_KEY_PUBLIC;
    if (format == WEBCRYPTO_FORMAT_RAW && wc_is_rsa(key->alg))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "exportKey: RSA keys have no raw format");
    if ((format == WEBCRYPTO_FORMAT_SPKI || format == WEBCRYPTO_FORMAT_RAW ||
         format == WEBCRYPTO_FORMAT_RAW_PUBLIC) && !pub)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "exportKey: %s is for public keys",
                        format == WEBCRYPTO_FORMAT_SPKI  ? "spki"
                        : format == WEBCRYPTO_FORMAT_RAW ? "raw"
                                                         : "raw-public");
    if ((format == WEBCRYPTO_FORMAT_PKCS8 || format == WEBCRYPTO_FORMAT_RAW_SEED) && pub)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "exportKey: %s is for private keys",
                        format == WEBCRYPTO_FORMAT_PKCS8 ? "pkcs8" : "raw-seed");
    const wc_backend_ops *ops = key->backend->ops;
    wc_pkey_fields f = {0};
    if (!pub && ops->pkey_private_fields) {
        /* The private members, read out of the backend's key for this
         * export only. */
        uint8_t *mem = malloc(WC_PKEY_PRIVATE_MAX);
        if (!mem) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: out of memory");
        webcrypto_status st = ops->pkey_private_fields(key->state, &f, mem, WC_PKEY_PRIVATE_MAX);
        f.is_private = true;
        if (st == WEBCRYPTO_OK) st = export_fields(format, key, &f, out, out_len);
        wc_wipe(&f, sizeof f);
        wc_wipe(mem, WC_PKEY_PRIVATE_MAX);
        free(mem);
        return st;
    }
    webcrypto_status st = ops->pkey_fields(key->state, &f);
    if (st != WEBCRYPTO_OK) return st;
    f.is_private = !pub;
    return export_fields(format, key, &f, out, out_len);
}

/* exportKey's encodings of a key pair's key, from its fields. */
static webcrypto_status export_fields(webcrypto_key_format format, const webcrypto_key *key,
                                      const wc_pkey_fields *fp, uint8_t **out, size_t *out_len) {
    const wc_pkey_fields f = *fp;
    switch (format) {
    case WEBCRYPTO_FORMAT_SPKI: return wc_der_write_spki(key->alg, &f, out, out_len);
    case WEBCRYPTO_FORMAT_PKCS8: return wc_der_write_pkcs8(key->alg, &f, out, out_len);
    case WEBCRYPTO_FORMAT_JWK: return wc_jwk_export_pkey(key, &f, out, out_len);
    case WEBCRYPTO_FORMAT_RAW: break; /* below */
    case WEBCRYPTO_FORMAT_RAW_PUBLIC: /* ML-KEM, ML-DSA (EC, OKP: mapped to raw) */
    case WEBCRYPTO_FORMAT_RAW_SEED: {
        wc_bytes b = format == WEBCRYPTO_FORMAT_RAW_SEED ? f.d : f.x;
        if (!b.p || b.n == 0)
            return wc_error(WEBCRYPTO_ERR_OPERATION, "exportKey: the backend gave no key bytes");
        uint8_t *copy = malloc(b.n);
        if (!copy) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: out of memory");
        memcpy(copy, b.p, b.n);
        *out = copy;
        *out_len = b.n;
        return WEBCRYPTO_OK;
    }
    case WEBCRYPTO_FORMAT_RAW_SECRET: /* secret keys only: wc_check_format refused it */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "exportKey: no raw-secret for key pairs");
    }
    /* raw: the uncompressed EC point, or the OKP public key */
    size_t n = wc_is_ec(key->alg) ? 1 + f.x.n + f.y.n : f.x.n;
    uint8_t *buf = malloc(n + 1);
    if (!buf) return wc_error(WEBCRYPTO_ERR_NO_MEMORY, "exportKey: out of memory");
    if (wc_is_ec(key->alg)) {
        buf[0] = 0x04;
        memcpy(buf + 1, f.x.p, f.x.n);
        memcpy(buf + 1 + f.x.n, f.y.p, f.y.n);
    } else {
        memcpy(buf, f.x.p, f.x.n);
    }
    *out = buf;
    *out_len = n;
    return WEBCRYPTO_OK;
}

/* The RSA parameters WebCrypto implementations accept for generation,
 * then the embedder's limit (webcrypto_set_limits), with generation's own
 * error kind: OperationError. */
static webcrypto_status check_rsa_generation(const webcrypto_params *alg) {
    if (alg->modulus_length < 256 || alg->modulus_length > 16384 || alg->modulus_length % 8)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "generateKey: RSA modulus length must be 256 to 16384 bits in steps of 8, "
                        "not %zu",
                        alg->modulus_length);
    uint64_t e = 0;
    for (size_t i = 0; i < alg->public_exponent_len; i++) {
        if (e >> 56) return wc_error(WEBCRYPTO_ERR_OPERATION, "generateKey: exponent too large");
        e = e << 8 | alg->public_exponent[i];
    }
    if (e != 3 && e != 65537)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "generateKey: the RSA public exponent must be 3 or 65537");
    return WEBCRYPTO_OK;
}

/* The embedder's limit (webcrypto_set_limits), after the spec's checks;
 * webcrypto_supports does not consult it. */
static webcrypto_status rsa_generate_limit(const webcrypto_params *alg) {
    uint32_t max_bits = wc_limit_rsa_generate_bits();
    if (alg->modulus_length > max_bits)
        return wc_error(WEBCRYPTO_ERR_OPERATION,
                        "generateKey: an RSA modulus of %zu bits is over this process's limit of "
                        "%u (webcrypto_set_limits, max_rsa_generate_bits)",
                        alg->modulus_length, (unsigned)max_bits);
    return WEBCRYPTO_OK;
}

webcrypto_status wc_pkey_generate_check(const webcrypto_backend *backend,
                                        const webcrypto_params *alg, unsigned usages) {
    if (!wc_is_asymmetric(alg->name))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                        "generateKey: %s keys are secret keys (webcrypto_generate_key)",
                        webcrypto_algorithm_name(alg->name));
    if (wc_is_rsa(alg->name)) {
        if (alg->modulus_length == 0 || !alg->public_exponent || !alg->public_exponent_len)
            return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                            "generateKey: modulus_length and public_exponent are required");
    }
    webcrypto_status st = wc_pkey_params_check(backend, alg);
    if (st != WEBCRYPTO_OK) return st;
    unsigned pub = wc_public_usages(alg->name), priv = wc_private_usages(alg->name);
    if (usages & ~(pub | priv)) {
        char list[128];
        wc_usages_to_string(usages & ~(pub | priv), list, sizeof list);
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "usages not allowed for %s keys: %s",
                        webcrypto_algorithm_name(alg->name), list);
    }
    return wc_is_rsa(alg->name) ? check_rsa_generation(alg) : WEBCRYPTO_OK;
}

webcrypto_status webcrypto_generate_key_pair(const webcrypto_backend *backend,
                                             const webcrypto_params *alg, bool extractable,
                                             unsigned usages, webcrypto_key **public_key,
                                             webcrypto_key **private_key) {
    WC_PARAMS_IN(alg, "generate_key_pair");
    WC_REQUIRE(alg && public_key && private_key,
               "generate_key_pair: alg, public_key and private_key must not be NULL");
    if (usages & ~WC_ALL_USAGES)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "usage bits 0x%x name no key usage",
                        usages & ~WC_ALL_USAGES);
    webcrypto_status st = wc_backend_resolve(backend, &backend);
    if (st == WEBCRYPTO_OK) st = wc_check_algorithm(backend, alg->name, "generateKey");
    if (st != WEBCRYPTO_OK) return st;
    if ((st = wc_pkey_generate_check(backend, alg, usages)) != WEBCRYPTO_OK) return st;
    if (wc_is_rsa(alg->name) && (st = rsa_generate_limit(alg)) != WEBCRYPTO_OK) return st;
    unsigned pub = wc_public_usages(alg->name), priv = wc_private_usages(alg->name);
    if (!(usages & priv))
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "the private key would have no usage");

    void *state = NULL, *pub_state = NULL;
    wc_bytes e = {alg->public_exponent, alg->public_exponent_len};
    wc_family family = WC_FAMILY_RSA;
    unsigned member = 0;
    if (!wc_key_family(alg->name, WEBCRYPTO_ALG_NONE, &family, &member))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "generateKey: %s has no key pairs",
                        webcrypto_algorithm_name(alg->name));
    if (wc_is_seeded(alg->name)) {
        /* ML-KEM, ML-DSA: FIPS 203/204 KeyGen draws the seed and the rest is
         * KeyGen_internal of it, which is what importing the seed does; so
         * the seed comes from the backend's random and is imported. */
        uint8_t seed[WC_ML_KEM_SEED_LEN];
        size_t seed_len = wc_alg(alg->name)->pq_seed_len;
        st = backend->ops->random_bytes(backend->bctx, seed, seed_len);
        wc_pkey_fields sf = {.is_private = true, .d = {seed, seed_len}};
        if (st == WEBCRYPTO_OK)
            st = backend->ops->pkey_import(backend->bctx, family, member, &sf, &state);
        wc_wipe(seed, sizeof seed);
    } else {
        st = backend->ops->pkey_generate(backend->bctx, family, member, alg->modulus_length, e,
                                         alg->named_curve, &state);
    }
    if (st != WEBCRYPTO_OK) return st;
    /* The public key is imported from the private key's public members. */
    wc_pkey_fields f = {0}, pf = {0};
    st = backend->ops->pkey_fields(state, &f);
    if (st == WEBCRYPTO_OK) {
        pf.n = f.n;
        pf.e = f.e;
        pf.curve = f.curve;
        pf.x = f.x;
        pf.y = f.y;
        st = check_fields(alg->name, &pf);
        if (st == WEBCRYPTO_OK)
            st = backend->ops->pkey_import(backend->bctx, family, member, &pf, &pub_state);
    }
    if (st != WEBCRYPTO_OK) {
        backend->ops->pkey_free(state);
        return st;
    }
    webcrypto_key *pk = NULL, *sk = NULL;
    st = key_from_state(backend, alg, WEBCRYPTO_KEY_PUBLIC, pub_state, true, usages & pub, &pk);
    if (st != WEBCRYPTO_OK) {
        backend->ops->pkey_free(state);
        return st;
    }
    st = key_from_state(backend, alg, WEBCRYPTO_KEY_PRIVATE, state, extractable, usages & priv, &sk);
    if (st != WEBCRYPTO_OK) {
        webcrypto_key_free(pk);
        return st;
    }
    *public_key = pk;
    *private_key = sk;
    return WEBCRYPTO_OK;
}

/* ---- operations ---- */

static webcrypto_status need_type(const webcrypto_key *key, webcrypto_key_type type,
                                  const char *op) {
    if (key->type != type)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "%s needs a %s key", op,
                        type == WEBCRYPTO_KEY_PUBLIC ? "public" : "private");
    return WEBCRYPTO_OK;
}

/* A signature's context: ML-DSA's (FIPS 204 5.2) and Ed448's (RFC 8032's C),
 * params->context, which the drafts limit to 255 bytes (OperationError
 * beyond, after the key type check). */
static webcrypto_status check_context(const webcrypto_params *alg) {
    WC_REQUIRE(alg->context || alg->context_len == 0, "the context member is NULL");
    if (alg->context_len > 255)
        return wc_error(WEBCRYPTO_ERR_OPERATION, "the context is %zu bytes, more than 255",
                        alg->context_len);
    return WEBCRYPTO_OK;
}

/* A context the backend's library cannot sign with (its description names
 * the library and version). */
static webcrypto_status no_context(const webcrypto_backend *backend, const webcrypto_params *alg) {
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                    "%s: the %s backend (%s) cannot sign or verify with a context (%zu bytes); "
                    "only the empty context",
                    webcrypto_algorithm_name(alg->name), backend->name,
                    backend->description ? backend->description : backend->name,
                    alg->context_len);
}

webcrypto_status wc_pkey_sign_check(const webcrypto_backend *backend,
                                    const webcrypto_params *alg) {
    switch (wc_family_of(alg->name)) {
    case WC_FAMILY_ML_DSA: {
        webcrypto_status st = check_context(alg);
        if (st != WEBCRYPTO_OK) return st;
        if (alg->context_len > 0 && !(backend->caps.features & WC_CAP_ML_DSA_CONTEXT))
            return no_context(backend, alg);
        return WEBCRYPTO_OK;
    }
    case WC_FAMILY_OKP:
        switch (wc_okp_of(alg->name)) {
        case WC_OKP_ED448: {
            webcrypto_status st = check_context(alg);
            if (st != WEBCRYPTO_OK) return st;
            /* backend.h: WC_CAP_ED448_CONTEXT (OpenSSL 3.0's EdDSA has none). */
            if (alg->context_len > 0 && !(backend->caps.features & WC_CAP_ED448_CONTEXT))
                return no_context(backend, alg);
            return WEBCRYPTO_OK;
        }
        case WC_OKP_ED25519: /* no context member (see okp_context) */
        case WC_OKP_X25519:
        case WC_OKP_X448:
        case WC_OKP_COUNT: break;
        }
        return WEBCRYPTO_OK;
    case WC_FAMILY_RSA:
    case WC_FAMILY_EC:
    case WC_FAMILY_ML_KEM:
    WC_CASE_SECRET_FAMILIES: break;
    }
    return WEBCRYPTO_OK;
}

/* An OKP signature's context: Ed448's. Ed25519 has no context in WebCrypto:
 * a context member is not part of its params (WebIDL drops it), so it is
 * ignored, as Node 24 ignores it too. */
static webcrypto_status okp_context(const webcrypto_params *alg, const webcrypto_key *key,
                                    wc_bytes *ctx) {
    *ctx = (wc_bytes){NULL, 0};
    switch (wc_okp_of(key->alg)) {
    case WC_OKP_ED448: {
        webcrypto_status st = wc_pkey_sign_check(key->backend, alg);
        if (st != WEBCRYPTO_OK) return st;
        *ctx = (wc_bytes){alg->context, alg->context_len};
        return WEBCRYPTO_OK;
    }
    case WC_OKP_ED25519:
    case WC_OKP_X25519:
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    return WEBCRYPTO_OK;
}

webcrypto_status wc_pkey_sign(const webcrypto_params *alg, const webcrypto_key *key,
                              const uint8_t *data, size_t len, uint8_t *out, size_t out_cap,
                              size_t *out_len) {
    webcrypto_status st = need_type(key, WEBCRYPTO_KEY_PRIVATE, "sign");
    if (st != WEBCRYPTO_OK) return st;
    size_t n = wc_pkey_output_size(key);
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    const wc_backend_ops *ops = key->backend->ops;
    size_t got = n;
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_RSA: {
        /* wc_check_key_op let only a signing scheme's key through. */
        wc_rsa_scheme scheme = wc_rsa_scheme_of(key->alg);
        st = ops->rsa_sign(key->state, scheme, wc_hash_of(key->hash),
                           scheme == WC_RSA_SCHEME_PSS ? alg->salt_length : 0, data, len, out,
                           &got);
        break;
    }
    case WC_FAMILY_EC:
        st = ops->ecdsa_sign(key->state, wc_hash_of(alg->hash), data, len, out, &got);
        break;
    case WC_FAMILY_OKP: {
        wc_bytes ctx;
        if ((st = okp_context(alg, key, &ctx)) != WEBCRYPTO_OK) return st;
        st = ops->okp_sign(key->state, wc_okp_of(key->alg), ctx.p, ctx.n, data, len, out, n,
                           &got);
        break;
    }
    case WC_FAMILY_ML_DSA:
        if ((st = wc_pkey_sign_check(key->backend, alg)) != WEBCRYPTO_OK) return st;
        st = ops->ml_dsa_sign(key->state, wc_ml_dsa_of(key->alg), alg->context, alg->context_len,
                              data, len, out);
        break;
    case WC_FAMILY_ML_KEM: /* no sign usage: wc_check_key_op refused it */
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "sign: not supported for this key");
    /* No sign (wc_check_key_op refused them: the table gives them no sign usage). */
    WC_CASE_SECRET_FAMILIES:
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "sign: not supported for this key");
    }
    if (st == WEBCRYPTO_OK) *out_len = got;
    return st;
}

/* WebCrypto's Ed25519 and Ed448 verify: "If the key data of key represents
 * an invalid point or a small-order element on the Elliptic Curve ...,
 * return false", and the same for R, the signature's first half. OpenSSL
 * 3.0 and the JDK accept some of them (WPT eddsa_small_order_points), so
 * the rule is kept here, once. A point is of small order when it lies in
 * the curve's torsion subgroup: Ed25519's 8 points have y in {0, 1, p-1,
 * and the two y of the order-8 points}, Ed448's 4 points y in {0, 1, p-1}.
 * y is the encoding without the x sign bit; an encoding of y >= p
 * (non-canonical) names y - p, so p and p+1 are listed too. Public data:
 * memcmp is fine. The values follow from the curves' equations (RFC 8032,
 * 5.1 and 5.2). */
static const uint8_t ed25519_small_y[][32] = {
    {0},
    {0x01},
    {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
     0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05},
    {0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
     0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a},
    {0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
};

/* Whether a 28-byte half of Ed448's y is first, rest, rest, ... */
static bool half_is(const uint8_t *h, uint8_t first, uint8_t rest) {
    if (h[0] != first) return false;
    for (size_t i = 1; i < 28; i++)
        if (h[i] != rest) return false;
    return true;
}

/* Ed448's y (56 bytes, little-endian; p = 2^448 - 2^224 - 1): 0, 1, p-1, p
 * or p+1, written as a low and a high 224-bit half. */
static bool ed448_small_y(const uint8_t y[56]) {
    const uint8_t *lo = y, *hi = y + 28;
    return (half_is(hi, 0, 0) && (half_is(lo, 0, 0) || half_is(lo, 1, 0))) ||     /* 0, 1 */
           (half_is(hi, 0xfe, 0xff) && (half_is(lo, 0xfe, 0xff) ||               /* p-1 */
                                        half_is(lo, 0xff, 0xff))) ||             /* p */
           (half_is(hi, 0xff, 0xff) && half_is(lo, 0, 0));                       /* p+1 */
}

/* Whether point (a signing member's public key or R) is of small order; a
 * new signing member needs its curve's list here (the switch says so). */
static bool okp_small_order(wc_okp kind, const uint8_t *point) {
    switch (kind) {
    case WC_OKP_ED25519: {
        uint8_t y[32];
        memcpy(y, point, 32);
        y[31] &= 0x7f;
        for (size_t i = 0; i < sizeof ed25519_small_y / sizeof ed25519_small_y[0]; i++)
            if (memcmp(y, ed25519_small_y[i], 32) == 0) return true;
        return false;
    }
    case WC_OKP_ED448:
        if (point[56] & 0x7f) return false; /* not an encoding: the backend says so */
        return ed448_small_y(point);
    case WC_OKP_X25519: /* key agreement: the core checks the shared secret instead */
    case WC_OKP_X448:
    case WC_OKP_COUNT: break;
    }
    return false;
}

webcrypto_status wc_pkey_verify(const webcrypto_params *alg, const webcrypto_key *key,
                                const uint8_t *sig, size_t sig_len, const uint8_t *data,
                                size_t len, bool *valid) {
    webcrypto_status st = need_type(key, WEBCRYPTO_KEY_PUBLIC, "verify");
    if (st != WEBCRYPTO_OK) return st;
    const wc_backend_ops *ops = key->backend->ops;
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_RSA: {
        wc_rsa_scheme scheme = wc_rsa_scheme_of(key->alg);
        return ops->rsa_verify(key->state, scheme, wc_hash_of(key->hash),
                               scheme == WC_RSA_SCHEME_PSS ? alg->salt_length : 0, data, len, sig,
                               sig_len, valid);
    }
    case WC_FAMILY_EC:
        return ops->ecdsa_verify(key->state, wc_hash_of(alg->hash), data, len, sig, sig_len,
                                 valid);
    case WC_FAMILY_OKP: {
        wc_bytes ctx;
        if ((st = okp_context(alg, key, &ctx)) != WEBCRYPTO_OK) return st;
        wc_okp kind = wc_okp_of(key->alg);
        size_t klen = wc_okp_key_len(kind);
        if (sig_len == wc_okp_sig_len(kind)) {
            wc_pkey_fields f;
            if ((st = ops->pkey_fields(key->state, &f)) != WEBCRYPTO_OK) return st;
            if (f.x.n == klen && (okp_small_order(kind, f.x.p) || okp_small_order(kind, sig))) {
                *valid = false;
                return WEBCRYPTO_OK;
            }
        }
        return ops->okp_verify(key->state, wc_okp_of(key->alg), ctx.p, ctx.n, data, len, sig,
                               sig_len, valid);
    }
    case WC_FAMILY_ML_DSA:
        if ((st = wc_pkey_sign_check(key->backend, alg)) != WEBCRYPTO_OK) return st;
        return ops->ml_dsa_verify(key->state, wc_ml_dsa_of(key->alg), alg->context,
                                  alg->context_len, data, len, sig, sig_len, valid);
    case WC_FAMILY_ML_KEM: /* no verify usage: wc_check_key_op refused it */
        break;
    /* No verify (wc_check_key_op refused them: the table gives them no verify usage). */
    WC_CASE_SECRET_FAMILIES:
        break;
    }
    return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "verify: not supported for this key");
}

webcrypto_status wc_pkey_crypt(bool encrypt, const webcrypto_params *alg, const webcrypto_key *key,
                               const uint8_t *data, size_t len, uint8_t *out, size_t out_cap,
                               size_t *out_len) {
    webcrypto_status st = need_type(key, encrypt ? WEBCRYPTO_KEY_PUBLIC : WEBCRYPTO_KEY_PRIVATE,
                                    encrypt ? "RSA-OAEP encryption" : "RSA-OAEP decryption");
    if (st != WEBCRYPTO_OK) return st;
    WC_REQUIRE(alg->label || alg->label_len == 0, "RSA-OAEP: label is NULL");
    size_t n = wc_pkey_output_size(key);
    if (wc_output_check(n, out, out_cap, out_len, &st)) return st;
    size_t got = n;
    if (encrypt)
        st = key->backend->ops->rsa_oaep_encrypt(key->state, wc_hash_of(key->hash),
                                                 alg->label, alg->label_len, data, len, out, &got);
    else
        st = key->backend->ops->rsa_oaep_decrypt(key->state, wc_hash_of(key->hash),
                                                 alg->label, alg->label_len, data, len, out, &got);
    if (st != WEBCRYPTO_OK) {
        if (!encrypt) wc_wipe(out, n);
        return st;
    }
    *out_len = got;
    return WEBCRYPTO_OK;
}

webcrypto_status wc_pkey_derive(const webcrypto_params *alg, const webcrypto_key *key,
                                size_t length_bits, uint8_t *out, size_t out_cap) {
    webcrypto_status st = need_type(key, WEBCRYPTO_KEY_PRIVATE, "deriveBits");
    if (st != WEBCRYPTO_OK) return st;
    const webcrypto_key *peer = alg->public_key; /* present: wc_normalize_op */
    if (peer->type != WEBCRYPTO_KEY_PUBLIC)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "deriveBits: public_key is not a public key");
    if (peer->alg != key->alg)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "deriveBits: public_key is a %s key, not %s",
                        webcrypto_algorithm_name(peer->alg), webcrypto_algorithm_name(key->alg));
    if (peer->curve != key->curve)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "deriveBits: public_key is on %s, not %s",
                        webcrypto_curve_name(peer->curve), webcrypto_curve_name(key->curve));
    if (peer->backend != key->backend)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS,
                        "deriveBits: the keys belong to different backends (%s, %s)",
                        webcrypto_backend_name(key->backend), webcrypto_backend_name(peer->backend));
    size_t full = wc_pkey_output_size(key);
    if ((st = wc_agreement_length_check(key->alg, full, length_bits)) != WEBCRYPTO_OK) return st;
    size_t n = length_bits == WEBCRYPTO_LENGTH_FULL ? full : (length_bits + 7) / 8;
    WC_REQUIRE(out || n == 0, "deriveBits: out must not be NULL");
    if (out_cap < n)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "output buffer too small: %zu bytes needed, %zu given", n, out_cap);
    uint8_t secret[WC_MAX_SHARED_SECRET];
    size_t got = full;
    switch (wc_family_of(key->alg)) {
    case WC_FAMILY_EC: st = key->backend->ops->ecdh(key->state, peer->state, secret, &got); break;
    case WC_FAMILY_OKP: {
        st = key->backend->ops->okp_derive(key->state, peer->state, wc_okp_of(key->alg), secret,
                                           sizeof secret, &got);
        /* RFC 7748 section 6.1: an all-zero shared secret means a small-order
         * public key; refused here for every backend, in constant time. */
        uint8_t zero[sizeof secret] = {0};
        if (st == WEBCRYPTO_OK && got != full)
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "%s: the backend gave %zu bytes, not %zu",
                          webcrypto_algorithm_name(key->alg), got, full);
        if (st == WEBCRYPTO_OK && wc_ct_public_bool(wc_equal_ct(secret, zero, got)))
            st = wc_error(WEBCRYPTO_ERR_OPERATION, "%s: the shared secret is all zeros (the "
                          "public key has small order)", webcrypto_algorithm_name(key->alg));
        break;
    }
    /* No deriveBits (wc_check_key_op refused them: the table gives them no
     * deriveBits usage). */
    case WC_FAMILY_RSA:
    case WC_FAMILY_ML_KEM:
    case WC_FAMILY_ML_DSA:
    WC_CASE_SECRET_FAMILIES:
        st = wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "deriveBits: not supported for this key");
        break;
    }
    if (st == WEBCRYPTO_OK && n) {
        memcpy(out, secret, n);
        if (length_bits != WEBCRYPTO_LENGTH_FULL && length_bits % 8)
            out[n - 1] &= (uint8_t)(0xff << (8 - length_bits % 8));
    }
    wc_wipe(secret, sizeof secret);
    return st;
}

size_t webcrypto_key_get_modulus_length(const webcrypto_key *key) {
    return key && wc_is_rsa(key->alg) ? key->length_bits : 0;
}

size_t webcrypto_key_get_public_exponent(const webcrypto_key *key, uint8_t *out, size_t out_cap) {
    if (!key || !wc_is_rsa(key->alg)) return 0;
    if (out && out_cap >= key->exponent_len) memcpy(out, key->exponent, key->exponent_len);
    return key->exponent_len;
}

webcrypto_named_curve webcrypto_key_get_named_curve(const webcrypto_key *key) {
    return key ? key->curve : WEBCRYPTO_CURVE_NONE;
}

/* ---- getPublicKey (modern-algos draft) ---- */

webcrypto_status webcrypto_get_public_key(const webcrypto_key *key, unsigned usages,
                                          webcrypto_key **out) {
    WC_REQUIRE(key && out, "get_public_key: key and out must not be NULL");
    if (usages & ~WC_ALL_USAGES)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT, "usage bits 0x%x name no key usage",
                        usages & ~WC_ALL_USAGES);
    const char *name = webcrypto_algorithm_name(key->alg);
    if (!wc_is_asymmetric(key->alg))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "getPublicKey: %s keys have no public key",
                        name ? name : "these");
    if (key->type != WEBCRYPTO_KEY_PRIVATE)
        return wc_error(WEBCRYPTO_ERR_INVALID_ACCESS, "getPublicKey: the key must be a private key");
    unsigned pub = wc_public_usages(key->alg);
    if (usages & ~pub) {
        char list[128];
        wc_usages_to_string(usages & ~pub, list, sizeof list);
        return wc_error(WEBCRYPTO_ERR_SYNTAX, "getPublicKey: usages not allowed for a public %s "
                                              "key: %s", name, list);
    }
    /* The public half, as generate_key_pair makes it: the private key's
     * public members, checked and imported on the same backend. */
    const webcrypto_backend *backend = key->backend;
    wc_family family = WC_FAMILY_RSA;
    unsigned member = 0;
    if (!wc_key_family(key->alg, WEBCRYPTO_ALG_NONE, &family, &member))
        return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED, "getPublicKey: %s has no key pairs", name);
    wc_pkey_fields f = {0}, pf = {0};
    webcrypto_status st = backend->ops->pkey_fields(key->state, &f);
    if (st != WEBCRYPTO_OK) return st;
    pf.n = f.n;
    pf.e = f.e;
    pf.curve = f.curve;
    pf.x = f.x;
    pf.y = f.y;
    void *state = NULL;
    st = check_fields(key->alg, &pf);
    if (st == WEBCRYPTO_OK) st = backend->ops->pkey_import(backend->bctx, family, member, &pf, &state);
    if (st != WEBCRYPTO_OK) return st;
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = key->alg;
    p.hash = key->hash;
    p.named_curve = key->curve;
    return key_from_state(backend, &p, WEBCRYPTO_KEY_PUBLIC, state, true, usages, out);
}
