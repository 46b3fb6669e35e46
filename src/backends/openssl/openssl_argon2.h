/*
 * openssl_argon2.h - which Argon2 the openssl backend runs (openssl_argon2.c;
 * the derivation itself, wc_ossl_argon2, is declared in openssl_internal.h).
 */
#ifndef WEBCRYPTO_OPENSSL_ARGON2_H
#define WEBCRYPTO_OPENSSL_ARGON2_H

#include <stdbool.h>

/* Chooses OpenSSL's Argon2 KDFs (if they derive RFC 9106's vectors) or
 * libargon2, as WEBCRYPTO_OPENSSL_ARGON2 asks (docs/ENVIRONMENT.md); called
 * once from the backend's init. Returns whether Argon2 is offered. */
bool wc_ossl_argon2_init(void);

#endif /* WEBCRYPTO_OPENSSL_ARGON2_H */
