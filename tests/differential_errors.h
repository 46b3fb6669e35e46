/* differential_errors.c: the same bad input on every backend. */
#ifndef WEBCRYPTO_TEST_DIFFERENTIAL_ERRORS_H
#define WEBCRYPTO_TEST_DIFFERENTIAL_ERRORS_H

#include <stddef.h>

#include "webcrypto.h"

/* Runs every bad-input case on each of the n backends that has the case's
 * algorithm, printing each status that is not the one WebCrypto names.
 * Returns the number of failed checks; *checks gets the number run. */
size_t diff_errors(const webcrypto_backend **backends, size_t n, size_t *checks);

#endif
