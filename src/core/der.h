/*
 * der.h - the DER forms of asymmetric keys WebCrypto imports and exports:
 * SubjectPublicKeyInfo (RFC 5280 section 4.1) for "spki" and PKCS #8
 * PrivateKeyInfo / OneAsymmetricKey (RFC 5208, RFC 5958) for "pkcs8", with
 * RSA (RFC 8017 appendix A), EC (RFC 5480, RFC 5915) and Ed25519/X25519
 * (RFC 8410) contents; the object identifiers and key sizes are the algorithm
 * and curve tables' (core.h). Strict DER (X.690): definite, minimal lengths; minimal
 * INTEGERs; nothing after the outermost SEQUENCE. Anything else is DataError.
 */
#ifndef WEBCRYPTO_CORE_DER_H
#define WEBCRYPTO_CORE_DER_H

#include "backend.h"

/* Parses an SPKI for a key of algorithm `kind`, filling f with pointers into
 * der (no copies): RSA kinds need rsaEncryption (1.2.840.113549.1.1.1, NULL
 * parameters) and give n, e; ECDSA needs id-ecPublicKey (1.2.840.10045.2.1),
 * ECDH id-ecPublicKey or id-ecDH (1.3.132.1.12), with a namedCurve parameter
 * of P-256/384/521 (f->curve) and give the SEC1 point in f->point; Ed25519
 * (1.3.101.112) and X25519 (1.3.101.110) have no parameters and give a
 * 32-byte f->x. A different algorithm identifier is DataError. */
webcrypto_status wc_der_parse_spki(webcrypto_algorithm kind, const uint8_t *der, size_t len,
                                   wc_pkey_fields *f);

/* Parses a PKCS #8 private key for `kind` (same identifiers as above):
 * RSAPrivateKey gives n, e, d, p, q, dp, dq, qi, and, for version 1 (multi),
 * whose otherPrimeInfos must then be present and not empty (and absent for
 * version 0), the further primes in f->oth (more than WC_RSA_MAX_PRIMES
 * primes in all is NotSupportedError; whether the backend takes more than
 * two is pkey.c's check);
 * ECPrivateKey version 1 gives d (left-padded to the field size is the
 * caller's business: given as stored), f->curve from the algorithm
 * identifier (an ECPrivateKey [0] parameters field, if present, must name the
 * same curve) and, if its [1] publicKey is present, f->point; Ed25519/X25519
 * give f->d from the CurvePrivateKey OCTET STRING (32 bytes), and f->x if a
 * v2 OneAsymmetricKey carries the public key. f->is_private is set. */
webcrypto_status wc_der_parse_pkcs8(webcrypto_algorithm kind, const uint8_t *der, size_t len,
                                    wc_pkey_fields *f);

/* Encodes f (as the backend's pkey_fields gives it) to a newly allocated
 * buffer, freed by the caller with webcrypto_buffer_free(*out, *out_len):
 * SPKI with rsaEncryption / id-ecPublicKey + namedCurve (uncompressed point
 * 04 || x || y) / the RFC 8410 identifiers; PKCS #8 v1 with RSAPrivateKey
 * (version 0, or 1 with otherPrimeInfos when f->oth_count > 0),
 * ECPrivateKey (version 1, d padded to the field size and [1] the public
 * point; no [0] parameters, the curve being in the AlgorithmIdentifier - as
 * Node and OpenSSL write it) or CurvePrivateKey. */
webcrypto_status wc_der_write_spki(webcrypto_algorithm kind, const wc_pkey_fields *f,
                                   uint8_t **out, size_t *out_len);
webcrypto_status wc_der_write_pkcs8(webcrypto_algorithm kind, const wc_pkey_fields *f,
                                    uint8_t **out, size_t *out_len);

#endif /* WEBCRYPTO_CORE_DER_H */
