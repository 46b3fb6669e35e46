/*
 * params.h - the copy-in of a caller's webcrypto_params (params.c). Every
 * public function that takes a webcrypto_params reads the caller's struct
 * only through it, so that programs built against an older or newer header
 * (a shorter or longer struct, docs/ABI.md) are read correctly.
 */
#ifndef WEBCRYPTO_CORE_PARAMS_H
#define WEBCRYPTO_CORE_PARAMS_H

#include "webcrypto.h"

/* Copies *caller (its `size` bytes) into *local, a struct of this library's
 * layout, zeroing what the caller's struct does not have; on success *p
 * points to *local. A NULL *p is left NULL (the caller's own NULL checks
 * report it). Size 0 or too small: TypeError; a larger struct whose extra
 * bytes are not all zero: NotSupportedError. `operation` names the call in
 * the message ("encrypt"). */
webcrypto_status wc_params_in(const webcrypto_params **p, webcrypto_params *local,
                              const char *operation);

/* The first lines of an entry point: replaces the caller's pointer `var` with
 * a normalised local copy, returning the copy-in's error. A struct of this
 * library's layout (or NULL) is used as it is, without a call. */
#define WC_PARAMS_IN(var, operation)                                                   \
    webcrypto_params var##_local_;                                                     \
    do {                                                                               \
        if ((var) && (var)->size != sizeof(webcrypto_params)) {                        \
            webcrypto_status params_st_ = wc_params_in(&(var), &var##_local_, operation); \
            if (params_st_ != WEBCRYPTO_OK) return params_st_;                         \
        }                                                                              \
    } while (0)

#endif /* WEBCRYPTO_CORE_PARAMS_H */
